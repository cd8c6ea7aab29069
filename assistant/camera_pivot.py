"""Where on the floor a turn or zoom of the camera pivoted, from two readings of the grid.

The game's camera turns and zooms about the player: the floor point under the player is
drawn at the same place on the window before and after, and no other floor point is. So
the point of the floor that two views show at one place is where the player stands, and
its place on the window is where the camera keeps the player (the live loop's "spot"),
even before the first step, while the player waits on plain floor with no plate hidden.

A pan (the player walked) moves every floor point alike and has no such point; a pitch
keeps a whole floor line put (the one across the screen through the player) and singles
out no point of it. Both are told apart from a turn or zoom by how the floor around the
point moves: a turn or zoom moves it as a similarity (a turned and scaled copy), a pitch
along one direction only. Qt-free and screen-free: two geometries in, a point out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assistant.inference import quarter_turns_between, turn_point
from assistant.vision.geometry import GridGeometry

__all__ = ["Pivot", "camera_pivot"]

#: The smallest turn or zoom that places its pivot well: the floor around the pivot moves
#: by this share of its distance from it (2 sin(θ/2) for a turn θ, |s - 1| for a zoom s):
#: 0.12 is a turn of 7° or a zoom of 12%. Less, and a few pixels of the reader's error
#: move the pivot by a good part of a spacing (the live loop then finds it off a tile's
#: middle and leaves it).
MIN_PIVOT_MOTION = 0.12
#: ... and moves alike in every direction (the smaller of the two over the larger): a
#: pitch moves the floor along one direction only (0 across it), a turn or zoom alike.
MIN_SIMILAR = 0.6
#: Newton steps toward the pivot (the map is projective: exact after a few).
_STEPS = 8
_TINY = 1e-9
#: the pivot's neighbours the map's derivative is taken at (grid units)
_EPS = 1e-3
_PROBES = np.array([[0.0, 0.0], [_EPS, 0.0], [0.0, _EPS]])


@dataclass(frozen=True)
class Pivot:
    """A turn or zoom's pivot: ``floor`` in the later reading's labels (x = column, y =
    row, plates at whole numbers), ``screen`` its place on the later grab (the reading's
    pixels), ``motion`` and ``similar`` as :data:`MIN_PIVOT_MOTION` and
    :data:`MIN_SIMILAR` measure them."""

    floor: tuple[float, float]
    screen: tuple[float, float]
    motion: float
    similar: float


def camera_pivot(before: GridGeometry, now: GridGeometry,
                 shift: tuple[float, float] = (0.0, 0.0)) -> Pivot | None:
    """The floor point two readings of a 3×3 grid show at one place, when the camera
    turned or zoomed about it between them; None when it panned or pitched, or moved too
    little to tell. ``shift``: where the later reading's pixel (0, 0) lies in the earlier
    one's pixels (the grabs' offsets differ). The labels' quarter turn between the two is
    :func:`quarter_turns_between`'s (the camera turned less than 45°; a compass snap of a
    quarter turn looks like a smaller turn about another point, the caller's guard)."""
    back = (4 - quarter_turns_between(before, now)) % 4  # now's labels -> before's
    size = now.cols
    offset = np.asarray(shift, np.float64)

    def mismatch(points: np.ndarray) -> np.ndarray:
        """Where the earlier view shows what the later one shows at ``points`` (its
        floor), less where those floor points lie in the earlier labels."""
        shown = before.to_grid(now.to_image(points) + offset)
        labelled = np.array([turn_point(tuple(p), size, back) for p in points])
        return shown - labelled

    point = np.array([(size - 1) / 2, (size - 1) / 2], np.float64)
    jacobian = np.eye(2)
    for _ in range(_STEPS):
        probes = point + _PROBES
        values = mismatch(probes)
        jacobian = np.column_stack([(values[1] - values[0]) / _EPS,
                                    (values[2] - values[0]) / _EPS])
        if abs(np.linalg.det(jacobian)) < _TINY:
            return None
        step = np.linalg.solve(jacobian, values[0])
        point = point - step
        if not np.all(np.isfinite(point)) or np.hypot(*point) > 1e3:
            return None
        if np.hypot(*step) < 1e-6:
            break
    singular = np.linalg.svd(jacobian, compute_uv=False)
    motion, similar = float(singular.min()), float(singular.min() / max(singular.max(), _TINY))
    if motion < MIN_PIVOT_MOTION or similar < MIN_SIMILAR:
        return None
    if np.hypot(*mismatch(point[None])[0]) > 1e-3:
        return None  # no fixed point (Newton did not settle)
    x, y = now.to_image(point[None])[0]
    return Pivot((float(point[0]), float(point[1])), (float(x), float(y)), motion, similar)
