"""A candidate placement from the last view: its camera pitched about the player.

A pitch tilts the floor's picture, which no motion of the floor (shift, turn, zoom:
:mod:`~assistant.vision.ring.motions`) reproduces. The last view's camera is recovered
(:mod:`assistant.vision.pitch`), pitched about the spot where the game keeps the player,
and each pitch change and focal-point height tried gives one view of the ring; the best
is refined (the angle, a small zoom, the focal row) and taken when no rival view matches
(nearly) as many diamonds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from assistant.vision.geometry import GridGeometry
from assistant.vision.pitch import floor_camera, focal_point
from assistant.vision.ring.motions import MOTION, MiddleCheck, diamond_in_middle, ring_matches
from assistant.vision.ring.shape import RING, map_points


@dataclass(frozen=True)
class PitchParams:
    """The pitched views tried about the player. Set for the game's cameras (0-68
    degrees) and checked on the drawn walk-throughs that pitch the camera."""

    #: pitch changes tried, degrees either way: numpy's arange(start, stop, step)
    pitch_changes_deg: tuple[float, float, float] = (-46.0, 46.5, 1.0)
    #: the principal point's height over the spot (plate spacings on screen at the spot)
    #: tried for the game's focal point above the feet ...
    focal_rows: tuple[float, ...] = (0.0, 0.15, 0.3)
    #: ... refined within this range
    focal_row_range: tuple[float, float] = (-0.1, 0.5)
    #: a zoom taken up with the pitch, at most
    pitch_zoom: tuple[float, float] = (0.85, 1.18)


PITCH = PitchParams()
_PITCH_CHANGES = np.radians(np.arange(*PITCH.pitch_changes_deg))

#: (matches, which plate took which diamond, (focal row, angle)) per view tried
_Tried = list[tuple[int, frozenset, tuple]]
#: a motion of the ring, and the plates it matched -> can it be the ring in the picture?
RingThere = Callable[[np.ndarray, set[int]], bool]


@dataclass(frozen=True)
class _LastCamera:
    """The last view's floor and the player's spot on it, for pitching its camera."""

    homography: np.ndarray
    inverse: np.ndarray
    spot: tuple[float, float]
    feet: np.ndarray  # the spot on the floor (grid units)
    spacing_px: float  # a plate spacing on screen at the spot

    @classmethod
    def about(cls, homography: np.ndarray, spot: tuple[float, float]) -> _LastCamera | None:
        inverse = np.linalg.inv(homography)
        under = inverse @ np.array([spot[0], spot[1], 1.0])
        if abs(under[2]) < 1e-12:
            return None
        feet = under[:2] / under[2]
        at_spot = GridGeometry(3, 3, homography).to_image(
            np.array([feet, feet + np.array([1.0, 0.0]), feet + np.array([0.0, 1.0])]))
        spacing_px = float(max(np.hypot(*(at_spot[1] - at_spot[0])),
                               np.hypot(*(at_spot[2] - at_spot[0]))))
        return cls(homography, inverse, spot, feet, spacing_px)

    def posed(self, rise: float) -> tuple | None:
        """The camera with its principal point ``rise`` spacings over the spot, and the
        point it pitches about; None when no camera fits."""
        camera = floor_camera(self.homography, self.spot, self.spot[1] - rise * self.spacing_px)
        return None if camera is None else (camera, focal_point(camera, self.feet))

    def view(self, camera, pivot, angle: float, zoom: float) -> np.ndarray | None:
        """The motion on the last floor that the camera pitched by ``angle`` (and zoomed)
        shows; None when the ring or the player would be behind it."""
        turned = camera.pitched(pivot, angle, zoom)
        if np.any(turned.depths(RING) <= 0) or np.any(turned.depths(self.feet[None]) <= 0):
            return None
        motion = self.inverse @ turned.homography()
        return motion / motion[2, 2] if abs(motion[2, 2]) > 1e-12 else None

    def residual(self, values: np.ndarray, plates: np.ndarray, blobs_at: np.ndarray
                 ) -> np.ndarray | None:
        """Where the view (angle, zoom, focal row) puts ``plates`` less where their
        diamonds are, in spacings at the spot."""
        pose = self.posed(float(values[2]))
        if pose is None:
            return None
        moved = self.view(*pose, float(values[0]), float(values[1]))
        if moved is None:
            return None
        return ((map_points(self.homography @ moved, RING[plates]) - blobs_at)
                / self.spacing_px).ravel()


def pitched_ring(spots: np.ndarray, homography: np.ndarray, spot: tuple[float, float],
                 plate_in_middle: MiddleCheck = None, ring_there: RingThere | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The ring as the last view's camera shows it pitched about the player (the spot
    where the camera keeps him stays put): the motion on the floor last seen and the
    matches, or None when unsure. The camera is recovered from the last view
    (:mod:`assistant.vision.pitch`); each pitch change and focal-point height gives one
    view, the best is refined (the angle, a small zoom, the focal row), and it needs
    four diamonds and no rival view (one giving a diamond to another plate) within one of
    them. ``ring_there``: whether a
    motion's places, those of its matched plates given, can be the ring (its frames
    show, and no place without a diamond shows the plain floor); a view that cannot is
    no rival (a view pitched the other way through three of four diamonds squeezes a
    row of plates onto the floor between them, or leaves the fourth diamond there).

    Why: a pitch tilts the floor's picture, which no motion of the floor the other
    follows try reproduces; after a pitch at a close zoom, with the bottom row under the
    chat panel and the player on a plate, four diamonds were left and the frames went
    blank until the player walked away."""
    last = _LastCamera.about(homography, spot)
    if last is None:
        return None
    poses = {rise: last.posed(rise) for rise in PITCH.focal_rows}
    tried = _coarse_views(last, poses, spots)
    if not tried:
        return None
    counts = np.array([found for found, _, _ in tried])
    rise, angle = tried[int(np.argmax(counts))][2]
    refined = _refined_view(last, poses, spots, rise, angle)
    if refined is None:
        return None
    motion, nearest, ok = refined
    found = int(ok.sum())
    if found < MOTION.min_followed or len(set(nearest[ok].tolist())) < found:
        return None
    if _rival_view(last, poses, tried, spots, nearest, ok, ring_there):
        return None  # another view fits (nearly) as many diamonds: which plate is unsure
    middle = map_points(motion, np.array([[1.0, 1.0]]))[0]
    if diamond_in_middle(spots, middle, motion, plate_in_middle):
        return None
    return motion, nearest, ok


def _coarse_views(last: _LastCamera, poses: dict, spots: np.ndarray) -> _Tried:
    """Every pitch change at every focal row tried: per view, how many diamonds it
    matches (0 when two places take one), which plate took which, and (row, angle)."""
    tried: _Tried = []
    for rise, pose in poses.items():
        if pose is None:
            continue
        for angle in _PITCH_CHANGES:
            motion = last.view(*pose, float(angle), 1.0)
            if motion is None:
                continue
            nearest, ok = ring_matches(spots, map_points(motion, RING))
            found = int(ok.sum()) if len(set(nearest[ok].tolist())) == int(ok.sum()) else 0
            pairs = frozenset(zip(np.flatnonzero(ok).tolist(), nearest[ok].tolist(),
                                  strict=True))
            tried.append((found, pairs, (rise, float(angle))))
    return tried


def _refined_view(last: _LastCamera, poses: dict, spots: np.ndarray, rise: float,
                  angle: float) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The best coarse view refined (Gauss-Newton on the angle, the zoom and the focal
    row, in pixels) and matched again; None when it leaves its ranges or the picture."""
    params = np.array([angle, 1.0, rise])  # the pitch change, the zoom, the focal row
    motion = last.view(*poses[rise], angle, 1.0)
    nearest, ok = ring_matches(spots, map_points(motion, RING))
    seen_at = map_points(last.homography, spots)  # the diamonds in this picture
    for _ in range(5):
        if ok.sum() < 2:
            return None
        plates, blobs_at = np.flatnonzero(ok), seen_at[nearest[ok]]
        now = last.residual(params, plates, blobs_at)
        if now is None:
            return None
        jacobian = []
        for k in range(3):
            nudged = params.copy()
            nudged[k] += 1e-5
            moved = last.residual(nudged, plates, blobs_at)
            if moved is None:
                return None
            jacobian.append((moved - now) / 1e-5)
        update, *_ = np.linalg.lstsq(np.column_stack(jacobian), -now, rcond=None)
        params = params + update
        if not (PITCH.pitch_zoom[0] <= params[1] <= PITCH.pitch_zoom[1]
                and PITCH.focal_row_range[0] <= params[2] <= PITCH.focal_row_range[1]):
            return None
        pose = last.posed(float(params[2]))
        motion = None if pose is None else last.view(*pose, float(params[0]), float(params[1]))
        if motion is None:
            return None
        nearest, ok = ring_matches(spots, map_points(motion, RING))
    return motion, nearest, ok


def _rival_view(last: _LastCamera, poses: dict, tried: _Tried, spots: np.ndarray,
                nearest: np.ndarray, ok: np.ndarray, ring_there: RingThere | None) -> bool:
    """Whether a coarse view gives some diamond to another plate than the refined one
    does, matching (nearly) as many, and can be the ring (views pitched less keep fewer
    of the same pairs: one labelling, placed worse)."""
    found = int(ok.sum())
    pairs = set(zip(np.flatnonzero(ok).tolist(), nearest[ok].tolist(), strict=True))
    plate_of = {blob: plate for plate, blob in pairs}
    blob_of = dict(pairs)
    least = found - (1 if found == MOTION.min_followed else 0)
    for count, tried_pairs, (other_rise, other_angle) in tried:
        if count < least or not any(
                blob_of.get(plate, blob) != blob or plate_of.get(blob, plate) != plate
                for plate, blob in tried_pairs):
            continue
        rival = last.view(*poses[other_rise], other_angle, 1.0)
        if _diamond_off_its_places(spots, rival):
            continue  # a diamond on its floor between its plates: no ring
        if ring_there is None or ring_there(rival, {plate for plate, _ in tried_pairs}):
            return True
    return False


def _diamond_off_its_places(spots: np.ndarray, motion: np.ndarray) -> bool:
    """Whether one of ``spots`` (diamonds on the floor last seen) lies within the ring
    ``motion`` places, in none of its plates: on the floor between them, where a ring has
    no diamond. (A view pitched the wrong way through three of four diamonds leaves the
    fourth there.)"""
    grid = map_points(np.linalg.inv(motion), spots)
    inside = np.all((grid >= -0.3) & (grid <= 2.3), axis=1)
    off = np.hypot(*(grid - np.clip(np.round(grid), 0, 2)).T) > 0.3
    return bool(np.any(inside & off))
