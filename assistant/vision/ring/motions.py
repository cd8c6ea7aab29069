"""Candidate placements from the last view: the ring moved on the floor the last camera saw.

The game's camera follows the player at a fixed yaw, pitch and zoom, so a step moves the
whole view as a translation of the floor (``shift``); a yaw change turns that floor about
the player (``turn``), a zoom scales it (``zoom``). Each proposes motions from pairs of
this frame's diamonds as they lie on the last floor, takes the one matching most of
them, and gives up when a rival placement matches (nearly) as many: which plate is which
would be unsure. Floor units are the last view's grid units.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from assistant.vision.ring.shape import RING


@dataclass(frozen=True)
class MotionParams:
    """How a motion of the last view is matched to this frame's diamonds. Measured on the
    drawn walk-throughs (both room sources, cameras 0-68 degrees) and the real
    screenshot's floor."""

    #: a diamond this near a moved place (grid units, on the floor last seen) is its
    follow_tolerance: float = 0.25
    #: diamonds on a shifted or zoomed ring, at least (a shift has two unknowns)
    min_followed: int = 4
    #: ... on a ring turned on the floor (one unknown more)
    min_turned: int = 5
    #: a pair of diamonds proposes a zoom when in the direction of a pair of plates within
    #: this angle ...
    zoom_angle: float = math.radians(6)
    #: ... at a scale in this range (the walk-throughs jump by 0.8-1.25 in one frame; a
    #: scroll of the game's wheel is less)
    zoom_range: tuple[float, float] = (0.7, 1.45)


MOTION = MotionParams()

#: a motion of the ring on the floor last seen -> whether its middle holds a plate
MiddleCheck = Callable[[np.ndarray], bool] | None


def ring_matches(spots: np.ndarray, ring: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per place of ``ring`` (floor units): the nearest of ``spots`` and whether it lies
    within the follow tolerance."""
    d = np.hypot(*(spots[None, :, :] - ring[:, None, :]).transpose(2, 0, 1))
    return d.argmin(axis=1), d.min(axis=1) <= MOTION.follow_tolerance


def shifted_ring(spots: np.ndarray, plate_in_middle: MiddleCheck = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The ring shifted on the floor (the camera followed the player at the same yaw):
    the motion (3x3, grid to the previous floor) and the matches, or None when unsure.
    ``plate_in_middle``: whether a motion's middle, where a diamond lies, is a plate's
    (:func:`middle_is_framed`); without it every diamond there counts as one."""
    def matches(shift: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return ring_matches(spots, RING + shift)

    shifts = (spots[:, None, :] - RING[None, :, :]).reshape(-1, 2)
    # a placement with a plate's diamond in its middle is no rival (the click arrow on the
    # floor a row beyond the plates made one of five, the real top row's middle diamond in
    # its middle), and no ring: that diamond sits in a plate's frame. Gold in a middle
    # without a frame is a figure crossing the middle tile (the player's face and gold
    # clothes at a steep camera): that placement stays a rival, and a rival as good as
    # the best leaves the shift unsure (the true ring and one a row off through the
    # statue's gold matched six diamonds each, and the row-off one was taken)
    middle_taken = np.hypot(*(spots[None, :, :] - (shifts[:, None, :] + 1.0))
                            .transpose(2, 0, 1)).min(axis=1) <= MOTION.follow_tolerance
    counts = np.array([matches(shift)[1].sum() for shift in shifts])
    plate_there = middle_taken.copy()
    if plate_in_middle is not None:
        plate_there &= np.array([bool(taken) and plate_in_middle(_translation(shift))
                                 for shift, taken in zip(shifts, middle_taken, strict=True)],
                                bool)
    # the same placement is proposed by every diamond it matches, each putting its middle
    # a little elsewhere: one that finds a plate's frame there speaks for all of them
    # among the rivals. Not in the choice of the best, where a frame found by one
    # proposer alone may be a neighbour's seen through a pitch the shift only
    # approximates (after a pitch to 68° that placement was the ring); but of
    # placements matching as many diamonds, one no proposer found a frame in the middle
    # of is preferred (the ring a column off through the way-in arrow, matched five to
    # five, beat the true one while the player's body covered a column at 67°, and
    # the follow was unsure)
    same_placement = np.hypot(*(shifts[:, None, :] - shifts[None, :, :]).transpose(2, 0, 1)
                              ) <= 0.5
    framed_by_one = (same_placement & plate_there[None, :]).any(axis=1)
    own = np.where(plate_there, 0, counts)
    best = shifts[int(np.lexsort((framed_by_one, -own))[0])]
    counts[framed_by_one] = 0
    nearest, ok = matches(best)
    for _ in range(2):  # the mean shift of the matched diamonds, then match again
        best = np.mean(spots[nearest[ok]] - RING[ok], axis=0)
        nearest, ok = matches(best)
    found = int(ok.sum())
    if found < MOTION.min_followed or len(set(nearest[ok].tolist())) < found:
        return None
    rivals = counts[np.hypot(*(shifts - best).T) > 0.5]
    if len(rivals) and rivals.max() > found - (2 if found == MOTION.min_followed else 1):
        return None  # another shift fits (nearly) as many diamonds: which plate is unsure
    if diamond_in_middle(spots, best + 1.0, _translation(best), plate_in_middle):
        return None  # a diamond where the ring has none
    return _translation(best), nearest, ok


def turned_ring(spots: np.ndarray, plate_in_middle: MiddleCheck = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The ring turned and shifted on the floor: the camera turned about the player (a
    yaw change turns the floor as the previous camera saw it, rigidly, about the player's
    point), maybe while the player walked. One unknown more than a shift, so it needs
    :data:`MOTION.min_turned` diamonds and no rival placement within one of them. Each pair of
    diamonds as a pair of plates the same distance apart proposes one motion."""
    n = len(spots)
    if n < MOTION.min_turned:
        return None
    i, j = np.triu_indices(n, 1)
    a, b = np.array([(p, q) for p in range(8) for q in range(8) if p != q]).T
    seen = spots[j] - spots[i]  # (pairs, 2)
    plan = RING[b] - RING[a]  # (plate pairs, 2)
    length_seen = np.hypot(*seen.T)
    length_plan = np.hypot(*plan.T)
    pi, pa = np.nonzero(np.abs(length_seen[:, None] - length_plan[None, :])
                        <= MOTION.follow_tolerance)
    if not len(pi):
        return None
    angle = (np.arctan2(seen[pi, 1], seen[pi, 0]) - np.arctan2(plan[pa, 1], plan[pa, 0]))
    cos, sin = np.cos(angle), np.sin(angle)
    rot = np.stack([np.stack([cos, -sin], -1), np.stack([sin, cos], -1)], -2)  # (h, 2, 2)
    mid_seen = (spots[i[pi]] + spots[j[pi]]) / 2
    mid_plan = (RING[a[pa]] + RING[b[pa]]) / 2
    shift = mid_seen - np.einsum("hij,hj->hi", rot, mid_plan)
    placed = np.einsum("hij,pj->hpi", rot, RING) + shift[:, None, :]  # (h, 8, 2)
    d = np.hypot(*(placed[:, :, None, :] - spots[None, None, :, :]).transpose(3, 0, 1, 2))
    counts = (d.min(axis=2) <= MOTION.follow_tolerance).sum(axis=1)
    best = int(np.argmax(counts))
    motion = _rigid(rot[best], shift[best])
    nearest, ok = ring_matches(spots, placed[best])
    for _ in range(2):  # the least-squares motion of the matched diamonds, then match again
        fitted = _rigid_fit(RING[ok], spots[nearest[ok]])
        if fitted is None:
            return None
        motion = fitted
        nearest, ok = ring_matches(spots, _apply(motion, RING))
    found = int(ok.sum())
    if found < MOTION.min_turned or len(set(nearest[ok].tolist())) < found:
        return None
    # another placement of the ring (its middle elsewhere, or turned otherwise than by a
    # quarter) that fits nearly as many diamonds: which plate is which is unsure
    middle = _apply(motion, np.array([[1.0, 1.0]]))[0]
    turn = math.atan2(motion[1, 0], motion[0, 0])
    middles = np.einsum("hij,j->hi", rot, np.ones(2)) + shift
    off_middle = np.hypot(*(middles - middle).T) > 0.5
    quarter = np.abs((angle - turn + np.pi / 4) % (np.pi / 2) - np.pi / 4) > math.radians(8)
    rivals = counts[off_middle | quarter]
    if len(rivals) and rivals.max() > found - 1:
        return None
    if diamond_in_middle(spots, middle, motion, plate_in_middle):
        return None  # a diamond where the ring has none
    return motion, nearest, ok


def zoomed_ring(spots: np.ndarray, plate_in_middle: MiddleCheck = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The ring scaled and shifted on the floor, not turned: the camera zoomed about the
    player (moved along its line of sight, so the floor it sees is the last one scaled
    about the player's point), maybe while the player walked. Each pair of diamonds as
    a pair of plates in the same direction proposes one scale and shift; the best must
    lead every placement with its middle elsewhere or a scale 15% apart by one diamond
    (two at four), and its middle must be empty."""
    n = len(spots)
    if n < MOTION.min_followed:
        return None
    i, j = np.triu_indices(n, 1)
    a, b = np.array([(p, q) for p in range(8) for q in range(8) if p != q]).T
    seen = spots[j] - spots[i]
    plan = RING[b] - RING[a]
    angle = np.arctan2(seen[:, None, 1], seen[:, None, 0]) - np.arctan2(plan[None, :, 1],
                                                                        plan[None, :, 0])
    parallel = np.abs((angle + np.pi) % (2 * np.pi) - np.pi) <= MOTION.zoom_angle
    scale = np.hypot(*seen.T)[:, None] / np.hypot(*plan.T)[None, :]
    least, most = MOTION.zoom_range
    pi, pa = np.nonzero(parallel & (scale >= least) & (scale <= most))
    if not len(pi):
        return None
    k = scale[pi, pa]
    shift = (spots[i[pi]] + spots[j[pi]]) / 2 - k[:, None] * (RING[a[pa]] + RING[b[pa]]) / 2
    placed = k[:, None, None] * RING[None] + shift[:, None, :]  # (h, 8, 2)
    d = np.hypot(*(placed[:, :, None, :] - spots[None, None, :, :]).transpose(3, 0, 1, 2))
    counts = (d.min(axis=2) <= MOTION.follow_tolerance).sum(axis=1)
    best = int(np.argmax(counts))
    nearest, ok = ring_matches(spots, placed[best])
    scale_best, shift_best = k[best], shift[best]
    for _ in range(2):  # the least-squares scale and shift of the matched, then match again
        if ok.sum() < 2:
            return None
        plates, points = RING[ok], spots[nearest[ok]]
        plates_c, points_c = plates - plates.mean(0), points - points.mean(0)
        scale_best = float(np.sum(plates_c * points_c) / np.sum(plates_c ** 2))
        shift_best = points.mean(0) - scale_best * plates.mean(0)
        nearest, ok = ring_matches(spots, scale_best * RING + shift_best)
    found = int(ok.sum())
    if found < MOTION.min_followed or len(set(nearest[ok].tolist())) < found \
            or not MOTION.zoom_range[0] <= scale_best <= MOTION.zoom_range[1]:
        return None
    middle = scale_best * np.ones(2) + shift_best
    middles = k[:, None] * np.ones(2) + shift
    other = (np.hypot(*(middles - middle).T) > 0.5) | (np.abs(k / scale_best - 1) > 0.15)
    rivals = counts[other]
    if len(rivals) and rivals.max() > found - (2 if found == MOTION.min_followed else 1):
        return None
    motion = np.array([[scale_best, 0, shift_best[0]], [0, scale_best, shift_best[1]],
                       [0, 0, 1]], np.float64)
    if diamond_in_middle(spots, middle, motion, plate_in_middle):
        return None  # a diamond where the ring has none
    return motion, nearest, ok


def _translation(shift: np.ndarray) -> np.ndarray:
    return np.array([[1, 0, shift[0]], [0, 1, shift[1]], [0, 0, 1]], np.float64)


def diamond_in_middle(spots: np.ndarray, middle: np.ndarray, motion: np.ndarray,
                       plate_in_middle: MiddleCheck) -> bool:
    """Whether a diamond lies in a followed ring's middle (on the floor last seen) and,
    when the picture can tell, sits in a plate's frame there."""
    if not np.any(np.hypot(*(spots - middle).T) <= MOTION.follow_tolerance):
        return False
    return plate_in_middle is None or plate_in_middle(motion)


def _rigid(rot: np.ndarray, shift: np.ndarray) -> np.ndarray:
    motion = np.eye(3)
    motion[:2, :2], motion[:2, 2] = rot, shift
    return motion


def _apply(motion: np.ndarray, points: np.ndarray) -> np.ndarray:
    return points @ motion[:2, :2].T + motion[:2, 2]


def _rigid_fit(src: np.ndarray, dst: np.ndarray) -> np.ndarray | None:
    """The turn and shift taking ``src`` nearest ``dst`` (least squares, no mirror)."""
    if len(src) < 2:
        return None
    cs, cd = src.mean(axis=0), dst.mean(axis=0)
    u, _s, vt = np.linalg.svd((src - cs).T @ (dst - cd))
    rot = (u @ vt).T
    if np.linalg.det(rot) < 0:
        return None
    return _rigid(rot, cd - rot @ cs)
