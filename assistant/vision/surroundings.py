"""Which quarter turn of the labels lies between two views, told by the room around the ring.

Why: the ring of plates looks the same after a quarter turn, so a reading's labels follow
the screen and a compass snap of the camera relabels every plate. With plates hidden
(the player at the way in, team-mates about), a snap and a smooth turn with one step can
both explain a new reading, and the overlay stays undecided. The room around the plates
does not turn with them: the floor and walls just beyond the ring differ side by side, so
a band of floor points around the ring, sampled in each reading's labels, matches itself
under the true relabelling and not under the other three.

Points are compared one by one (a point beyond the picture counts for neither): a share
of them agrees within :data:`_AGREE_LAB` in CIE Lab. Bodies, a zoom or a pitch move a few
points (a standing body rises over the floor behind it); only one turn far ahead of the
others tells anything, and otherwise the answer is "cannot tell" (None), which rules
nothing out. The band lies on the floor plane, where the views' homographies are exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from assistant.vision.geometry import GridGeometry

__all__ = ["RoomBand", "band_points", "room_band", "turns_between"]

#: The band: grid points whose larger offset from the ring's middle lies between these
#: (plate spacings; the outer plates' centres are 1 from it, their frames end at 1.3),
#: on a lattice of this step.
_BAND_INNER, _BAND_OUTER, _BAND_STEP = 1.6, 2.6, 0.2
#: Two samples of one floor point agree within this distance in CIE Lab (8-bit OpenCV
#: scale) ...
_AGREE_LAB = 12.0
#: ... a turn is told when this share of the points seen in both views agrees under it ...
_MIN_AGREEING = 0.5
#: ... and under every other turn at least this share fewer do, with this share of the
#: band seen in both views. Measured on successive frames of walk-throughs (3,382 pairs;
#: ADR 15): under the true turn a median 0.84 of the points agree on the screenshot's
#: floor; a wrong turn led the others by 0.2 at most (the drawn room, whose even floor
#: agrees under every turn), 0.13 with the frames darkened by a screen-fixed gradient.
_LEAD = 0.4
_MIN_SEEN = 0.3


@dataclass(frozen=True)
class RoomBand:
    """The band's colours around a ``size`` x ``size`` grid, as CIE Lab, one row per
    :func:`band_points` point in one reading's labels, NaN beyond the picture."""

    size: int
    colours: np.ndarray


@lru_cache(maxsize=16)
def band_points(size: int) -> np.ndarray:
    """The band's grid points (x = column, y = row) around a ``size`` x ``size`` grid,
    a set that every quarter turn about the grid's middle maps onto itself."""
    middle = (size - 1) / 2
    reach = middle + _BAND_OUTER - 1
    steps = np.arange(-reach, reach + 1e-9, _BAND_STEP)
    x, y = np.meshgrid(steps, steps)
    larger = np.maximum(np.abs(x), np.abs(y)).ravel()
    keep = (larger >= middle + _BAND_INNER - 1 - 1e-9) & (larger <= reach + 1e-9)
    points = np.stack([x.ravel()[keep] + middle, y.ravel()[keep] + middle], axis=1)
    points.setflags(write=False)  # cached: shared by every caller
    return points


@lru_cache(maxsize=16)
def _turned_index(size: int) -> list[np.ndarray]:
    """Per quarter turn t: for each band point in the labels before, the index of the
    same floor point in labels turned t times (as :func:`assistant.session.camera.turn_point`
    relabels a point)."""
    points = band_points(size)
    out = []
    for turns in range(4):
        x, y = points[:, 0].copy(), points[:, 1].copy()
        for _ in range(turns):
            x, y = y, size - 1 - x
        turned = np.stack([x, y], axis=1)
        distance = np.abs(turned[:, None, :] - points[None, :, :]).sum(axis=2)
        out.append(np.argmin(distance, axis=1))
    return out


def room_band(frame: np.ndarray, geometry: GridGeometry | None) -> RoomBand | None:
    """The band in ``frame`` (BGR or BGRA) around ``geometry``'s grid; None for a grid
    that is not square (only a square grid's labels turn)."""
    if geometry is None or geometry.rows != geometry.cols:
        return None
    points = band_points(geometry.rows)
    at = np.rint(geometry.to_image(points))
    height, width = frame.shape[:2]
    inside = np.all(np.isfinite(at), axis=1)
    inside &= (at[:, 0] >= 0) & (at[:, 0] < width) & (at[:, 1] >= 0) & (at[:, 1] < height)
    band = np.full((len(points), 3), np.nan)
    if inside.any():
        xy = at[inside].astype(np.int64)
        pixels = np.ascontiguousarray(frame[xy[:, 1], xy[:, 0], :3], dtype=np.uint8)
        band[inside] = cv2.cvtColor(pixels.reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(-1, 3)
    return RoomBand(geometry.rows, band)


def turns_between(before: RoomBand | None, now: RoomBand | None) -> frozenset[int] | None:
    """The quarter turns of the labels from the view ``before`` was sampled in to the one
    ``now`` was (:func:`room_band` of each), or None when the room does not tell one
    clearly (too little of the band seen in both, or two turns alike)."""
    if before is None or now is None or before.size != now.size:
        return None
    shares = []
    for index in _turned_index(now.size):
        after = now.colours[index]
        seen = ~(np.isnan(before.colours).any(axis=1) | np.isnan(after).any(axis=1))
        if seen.mean() < _MIN_SEEN:
            return None
        distance = np.linalg.norm(before.colours[seen] - after[seen], axis=1)
        shares.append(float(np.mean(distance <= _AGREE_LAB)))
    best = int(np.argmax(shares))
    others = max(share for turns, share in enumerate(shares) if turns != best)
    if shares[best] < _MIN_AGREEING or shares[best] - others < _LEAD:
        return None
    return frozenset({best})

