"""The marks the overlay paints: one per plate to step on, in physical screen pixels.

Marks are polygons projected through the reading's homography (ellipses on an oblique
camera) and confined to the annulus the reader never samples
(:data:`assistant.vision.geometry.MARK_INNER_RADIUS` and ``MARK_OUTER_RADIUS``), so the
overlay cannot change the next reading.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from assistant.vision.geometry import MARK_INNER_RADIUS, MARK_OUTER_RADIUS, GridGeometry

__all__ = ["Mark", "plan_marks"]


@dataclass(frozen=True)
class Mark:
    """One cell to press: ``outer`` and ``inner`` polygons (N, 2) in physical screen
    pixels bound the annulus to paint; ``count`` is how many presses (1 for two states).
    ``certain`` is False for a press that a hidden cell's state decides (drawn apart)."""

    row: int
    col: int
    count: int
    centre: tuple[float, float]
    outer: np.ndarray = field(repr=False)
    inner: np.ndarray = field(repr=False)
    certain: bool = True



def plan_marks(
    geometry: GridGeometry,
    presses: np.ndarray,
    origin: tuple[int, int],
    undecided: np.ndarray | None = None,
) -> tuple[Mark, ...]:
    """Marks for every cell with a non-zero press count, offset by the capture origin, and
    ``certain=False`` marks for every cell where ``undecided`` is True."""
    ox, oy = origin
    marks = []
    offset = np.array([ox, oy], dtype=np.float64)
    cells = [(int(r), int(c), True) for r, c in np.argwhere(presses > 0)]
    if undecided is not None:
        cells += [(int(r), int(c), False) for r, c in np.argwhere(undecided)]
    for r, c, certain in cells:
        cx, cy = geometry.cell_centre(r, c)
        marks.append(
            Mark(
                r,
                c,
                int(presses[r, c]) if certain else 0,
                (cx + ox, cy + oy),
                geometry.circle(r, c, MARK_OUTER_RADIUS) + offset,
                geometry.circle(r, c, MARK_INNER_RADIUS) + offset,
                certain,
            )
        )
    return tuple(marks)
