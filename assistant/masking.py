"""The assistant's own windows are never part of what it reads (Qt-free).

The steps panel, the control window or the manual window may lie over the game (the
player dragged one there, or the screen has no room beside a maximised game). A grab of
the screen then holds their pixels: a panel's yellow squares or text over the room could
be taken for plates, or hide the ring so the reading drops to "Puzzle not in view". So
every frame the reader gets has those windows' rectangles painted over in one flat grey:
under it a plate is simply not seen (as under the game's own panels), never misread.

:class:`MaskingGrabber` wraps a :class:`assistant.capture.Grabber`; the rectangles come
from a callable, asked on every grab from the capture thread (the GUI keeps them current,
:mod:`assistant.gui.own_windows`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from assistant.capture import Rect

__all__ = ["MASK_BGRA", "MaskingGrabber", "mask_frame"]

#: What a masked pixel holds (BGRA): a mid grey, which no plate, floor or statue is, and
#: which reads as "covered" rather than as a black exclusive-fullscreen game when a
#: window hides the whole grab.
MASK_BGRA = (128, 128, 128, 255)


def mask_frame(frame: np.ndarray, frame_rect: Rect, rects: Iterable[Rect]) -> np.ndarray:
    """``frame`` (the pixels of ``frame_rect`` on the screen) with every part that lies
    under one of ``rects`` painted :data:`MASK_BGRA`; the same array when nothing does,
    else a copy (a grab's own buffer may be read-only)."""
    out = frame
    for rect in rects:
        shared = rect.intersect(frame_rect)
        if shared.empty:
            continue
        if out is frame:
            out = frame.copy()
        top, left = shared.top - frame_rect.top, shared.left - frame_rect.left
        out[top : top + shared.height, left : left + shared.width] = MASK_BGRA[: out.shape[2]]
    return out


class MaskingGrabber:
    """A grabber whose frames have the assistant's own windows masked (see the module)."""

    def __init__(self, grabber, rects: Callable[[], Iterable[Rect]]) -> None:
        self.grabber = grabber
        self.rects = rects

    def grab(self, rect: Rect) -> np.ndarray:
        return mask_frame(self.grabber.grab(rect), rect, self.rects())

    def desktop(self) -> Rect:
        return self.grabber.desktop()

    def close(self) -> None:
        self.grabber.close()

    def __enter__(self) -> MaskingGrabber:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
