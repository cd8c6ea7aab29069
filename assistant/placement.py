"""Where a new window of the assistant goes: beside the game window, never over it, and
wholly on the screen it opens on (Qt-free, so it is tested exhaustively without a screen).

A window over the game hides plates from the player and from the reader; a window partly
off the screen hides its own controls. :func:`place_beside` picks the top-left corner of a
window of a given size inside the screen's available area that

1. does not overlap the rectangle to keep clear (the game window) whenever any position
   on the screen would not,
2. among those, overlaps the other windows to avoid (the assistant's own) as little as
   possible, none whenever some position overlaps neither,
3. keeps a small gap where there is room for it, and is as close to the game as it can,
   preferring its right, then left, below and above.

Why a search over a few candidates is enough: a rectangle that overlaps none of some
obstacles can slide left and up until it touches an obstacle's right or bottom edge or
the screen's edge, without starting to overlap anything; so if any free position exists,
one exists whose x is the screen's left or an obstacle's right edge and whose y is the
screen's top or an obstacle's bottom edge. Those combinations are among the candidates.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from assistant.capture import Rect

__all__ = ["GAP", "fits_beside", "overlap", "place_beside", "size_beside"]

#: Pixels left between a new window and the game (and the assistant's windows) when
#: there is room.
GAP = 8


def overlap(a: Rect, b: Rect) -> int:
    """The area two rectangles share (0 when they only touch)."""
    shared = a.intersect(b)
    return 0 if shared.empty else shared.width * shared.height


def _grown(rect: Rect, by: int) -> Rect:
    return Rect(rect.left - by, rect.top - by, rect.width + 2 * by, rect.height + 2 * by)


def fits_beside(area: Rect, keep_clear: Rect, size: tuple[int, int]) -> bool:
    """Whether a window of ``size`` fits in ``area`` without overlapping ``keep_clear``:
    two rectangles that do not overlap are separated left-right or top-bottom, so it fits
    iff one of the four strips beside ``keep_clear`` holds it."""
    width, height = size
    if width > area.width or height > area.height:
        return False
    return (
        area.right - max(area.left, keep_clear.right) >= width
        or min(area.right, keep_clear.left) - area.left >= width
        or area.bottom - max(area.top, keep_clear.bottom) >= height
        or min(area.bottom, keep_clear.top) - area.top >= height
    )


def size_beside(
    area: Rect,
    keep_clear: Rect,
    size: tuple[int, int],
    minimum: tuple[int, int],
    gap: int = GAP,
) -> tuple[int, int]:
    """The size a resizable window should take to fit beside ``keep_clear``: ``size``
    when it fits, else the largest size (by area) between ``minimum`` and ``size`` that
    one of the four strips beside ``keep_clear`` holds (with the gap where it can), else
    ``size`` (no room even for the minimum: :func:`place_beside` overlaps the least)."""
    width, height = size
    if fits_beside(area, keep_clear, size):
        return size
    strips = (
        (area.right - max(area.left, keep_clear.right), area.height),
        (min(area.right, keep_clear.left) - area.left, area.height),
        (area.width, area.bottom - max(area.top, keep_clear.bottom)),
        (area.width, min(area.bottom, keep_clear.top) - area.top),
    )
    best = None
    for strip_width, strip_height in strips:
        for spacing in (gap, 0):
            fitted = (min(width, strip_width - spacing), min(height, strip_height - spacing))
            if fitted[0] >= minimum[0] and fitted[1] >= minimum[1]:
                if best is None or fitted[0] * fitted[1] > best[0] * best[1]:
                    best = fitted
                break
    return size if best is None else best


def place_beside(
    area: Rect,
    keep_clear: Rect,
    size: tuple[int, int],
    avoid: Sequence[Rect] = (),
    gap: int = GAP,
) -> tuple[int, int]:
    """The top-left corner for a window of ``size`` (width, height) on the screen's
    available ``area``, beside ``keep_clear`` (the game window) and off the rectangles in
    ``avoid`` as far as the screen allows (see the module's docstring for the order).

    All rectangles in one unit (Qt's logical pixels in the GUI). A window larger than the
    area is put at the area's top-left corner, so its title bar stays reachable.
    """
    width, height = max(1, int(size[0])), max(1, int(size[1]))
    if width > area.width or height > area.height:
        # cannot be wholly on the screen: keep the top-left corner (the title bar) on it
        x = area.left if width > area.width else _clamp(keep_clear.right + gap, area.left,
                                                        area.right - width)
        y = area.top if height > area.height else _clamp(keep_clear.top, area.top,
                                                         area.bottom - height)
        return x, y
    obstacles = [keep_clear, *avoid]
    xs = {area.left, area.right - width, keep_clear.left}
    ys = {area.top, area.bottom - height, keep_clear.top, keep_clear.bottom - height}
    for rect in obstacles:
        for spacing in (0, gap):
            xs.update((rect.right + spacing, rect.left - spacing - width))
            ys.update((rect.bottom + spacing, rect.top - spacing - height))
    best: tuple | None = None
    best_point = (area.left, area.top)
    for x, y in itertools.product(sorted(xs), sorted(ys)):
        x = _clamp(x, area.left, area.right - width)
        y = _clamp(y, area.top, area.bottom - height)
        placed = Rect(x, y, width, height)
        score = (
            overlap(placed, keep_clear),
            sum(overlap(placed, rect) for rect in avoid),
            sum(overlap(placed, _grown(rect, gap)) for rect in obstacles),
            _distance(placed, keep_clear),
            _side(placed, keep_clear),
            abs(y - keep_clear.top) + abs(x - keep_clear.left),
        )
        if best is None or score < best:
            best, best_point = score, (x, y)
    return best_point


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(value, high))


def _distance(a: Rect, b: Rect) -> int:
    """The gap between two rectangles (0 when they touch or overlap), the longer axis."""
    dx = max(0, b.left - a.right, a.left - b.right)
    dy = max(0, b.top - a.bottom, a.top - b.bottom)
    return max(dx, dy)


def _side(placed: Rect, keep_clear: Rect) -> int:
    """0 right of the game, 1 left, 2 below, 3 above, 4 anything else (the order to
    prefer: a game window is usually wider than tall, and its chat box is at the bottom)."""
    if placed.left >= keep_clear.right:
        return 0
    if placed.right <= keep_clear.left:
        return 1
    if placed.top >= keep_clear.bottom:
        return 2
    if placed.bottom <= keep_clear.top:
        return 3
    return 4
