"""Walk-through sessions for the tests, planned once per test process and each frame drawn
once, when a test first looks at it.

``walk_through(...)`` here takes the arguments of :func:`lab.walkthrough.walk_through`
and gives the same frames (tests/test_walkthrough.py checks it frame for frame), as a
sequence that draws a frame on first use: a test reading one frame of a session draws
that frame alone, not the twenty before it, and tests sharing a session share its
drawings. The frames are shared between tests, so their pixels are read-only.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any, overload

import numpy as np

from lab.walkthrough import PlannedFrame, WalkFrame, draw_frame, walk_plan

#: Drawn frames kept per test process (about 2.5 MB each), the least recently used dropped.
FRAMES_KEPT = 256

_Key = tuple[str | None, int, tuple[tuple[str, Any], ...]]
_drawn: OrderedDict[tuple[_Key, int], WalkFrame] = OrderedDict()


@cache
def _plan(key: _Key) -> tuple[PlannedFrame, ...]:
    start_board, seed, options = key
    return tuple(walk_plan(start_board, seed, **dict(options)))


def _frame(key: _Key, index: int) -> WalkFrame:
    known = _drawn.get((key, index))
    if known is not None:
        _drawn.move_to_end((key, index))
        return known
    frame = draw_frame(_plan(key)[index])
    for pixels in (frame.scene.frame, *frame.scene.extra.values()):
        if isinstance(pixels, np.ndarray):
            pixels.flags.writeable = False
    _drawn[key, index] = frame
    if len(_drawn) > FRAMES_KEPT:
        _drawn.popitem(last=False)
    return frame


class Walk(Sequence[WalkFrame]):
    """One session's frames, each drawn when first read."""

    def __init__(self, key: _Key) -> None:
        self._key = key
        self._count = len(_plan(key))

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> WalkFrame: ...
    @overload
    def __getitem__(self, index: slice) -> list[WalkFrame]: ...
    def __getitem__(self, index: int | slice) -> WalkFrame | list[WalkFrame]:
        if isinstance(index, slice):
            return [_frame(self._key, k) for k in range(*index.indices(self._count))]
        if not -self._count <= index < self._count:
            raise IndexError(index)
        return _frame(self._key, index % self._count)

    def __iter__(self) -> Iterator[WalkFrame]:
        return (_frame(self._key, k) for k in range(self._count))


def walk_through(start_board: str | None, seed: int, **options: Any) -> Walk:
    """:func:`lab.walkthrough.walk_through`'s frames, drawn on first use and shared."""
    key = (start_board, seed, tuple(sorted(options.items())))
    return Walk(key)
