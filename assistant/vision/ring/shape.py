"""The ToA ring as every stage of the ring search sees it, and the maths they share.

The ring's eight places come from :data:`assistant.puzzle.TOA_PLATES` (one definition of
the ring): here they are grid points (x = column, y = row) for homographies, in the same
order. A placement of the ring is a homography from that grid to the picture; a
:class:`RingFit` is one labelled as seen on screen. :class:`FitParams` holds the
thresholds on a fit that more than one stage applies (matching, sizes, exactness, roll).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from assistant.puzzle import TOA_PLATES
from assistant.vision.geometry import GridGeometry


@dataclass(frozen=True)
class FitParams:
    """What every stage asks of a placement of the ring through diamond blobs. Distances
    are in plate spacings unless said otherwise. Measured on the drawn rooms (flat and
    3-D, cameras straight down to 68 degrees, display scaling 100-150%) and on the real
    screenshot's floor, as the comments say."""

    #: diamonds a fresh search needs: a player may hide one plate and merge a second one
    #: with his head; the other six fix the lattice well enough to read the hidden ones
    min_diamonds: int = 6
    #: ... five when the live loop found the ring a moment ago and neither following it
    #: nor a search on six finds it (bodies at an oblique view merge three diamonds)
    min_diamonds_after_last_view: int = 5
    #: a blob this near its place (after the homography fit) is that place's diamond;
    #: fitted rings keep their diamonds within 0.07 RMS
    match_tolerance: float = 0.2
    #: RMS of the homography fit at most; real rings fit to 0.002-0.04, with a figure's
    #: blob among the diamonds
    max_fit_error: float = 0.07
    #: a matched blob this far from the fit is refitted without
    outlier: float = 0.08
    #: ... and so is one this far whose size is odd (``odd_size``)
    hidden_shift: float = 0.02
    #: blobs on one lattice differ in area by at most this factor: perspective makes near
    #: diamonds up to ~3x the area of far ones at 68 degrees
    size_spread: float = 3.3
    #: a blob's area, compared on the floor, is odd (partly covered) past this factor ...
    odd_size: float = 1.3
    #: ... or, for small blobs, 1 + this / sqrt(their median pixel area): a pixel of
    #: outline either way is a larger share of a small blob
    area_noise: float = 3.5
    #: a perspective view of the floor fits the ring's own diamonds to 0.002-0.01 RMS:
    #: a fit within this is exact
    exact_ring_fit: float = 0.01
    #: a fit this loose or looser may lean on a blob that is no diamond (0.015-0.040 with
    #: a figure's blob matched; two fits both within the centring noise are not told apart)
    loose_fit: float = 0.015
    #: one fit this many times tighter than another through as many diamonds is the ring,
    #: the other bent by a figure's blob (0.006 against 0.040 measured)
    fit_lead: float = 5.0
    #: pixels (RMS): a small diamond's centre is no surer through compression or scaling,
    #: however exact the ring
    centroid_noise_px: float = 0.8
    #: |correlation| of J Jᵀ at the ring's middle (J the homography's Jacobian): at most
    #: 0.17 on every drawn camera up to 68 degrees of pitch (the game's camera never
    #: rolls), 0.38 for a lattice sheared through six plates of the real ring, two hidden
    max_roll_skew: float = 0.32


FIT = FitParams()

#: The ring, in grid units (x = column, y = row), in :data:`TOA_PLATES`' order (row-major,
#: the middle left out).
RING = np.array([(column, row) for row, column in TOA_PLATES], np.float64)
#: the ring's places as (row, column), in RING's order
RING_CELLS = list(TOA_PLATES)
#: a plate's diamond, |u| + |v| <= 0.165 about its centre, in grid units squared
DIAMOND_AREA = 2 * 0.165**2


def exact_fit_for(spacing: float) -> float:
    """The fit error (of the spacing) an unframed ring of this spacing (pixels) must keep
    to: :data:`FIT.exact_ring_fit`, or the blobs' own noise on small plates
    (:data:`FIT.centroid_noise_px`), where 1% of the spacing is under a pixel."""
    return max(FIT.exact_ring_fit, FIT.centroid_noise_px / max(spacing, 1.0))


@dataclass(frozen=True)
class RingFit:
    """A found ring: geometry labelled as seen on screen, and which plates had a blob."""

    geometry: GridGeometry
    matched: tuple[bool, ...]  # per ring plate, row-major: a diamond blob was found there
    fit_error: float  # RMS of the fit, in plate spacings
    spacing: float  # mean plate spacing in pixels
    # the last view moved rigidly on the floor (follow_ring), not fitted to this frame's
    # diamonds: its unseen places owe nothing to how few diamonds were seen
    rigid: bool = False
    # per ring plate, row-major: the centre (pixels) of the blob matched there, NaN where
    # none was (ring_placed_by refits from some of them)
    diamonds: np.ndarray | None = field(default=None, compare=False)
    # per ring plate, row-major: that blob's area (pixels), NaN where none was matched
    areas: np.ndarray | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Blobs:
    centres: np.ndarray  # (n, 2) full-resolution pixels
    areas: np.ndarray  # (n,) full-resolution pixels squared
    solidity: np.ndarray  # (n,) area over its convex hull's: a diamond's is near 1
    cut: int = 0  # how many of them thin strokes were cut away from (blobs' stroke cutting)


def same_places(homography: np.ndarray, other: np.ndarray, tolerance: float) -> bool:
    """Whether two placements put every ring place within ``tolerance`` of the (first
    one's) spacing of the same place of the other."""
    one, two = (GridGeometry(3, 3, h).to_image(RING) for h in (homography, other))
    spacing = top_row_spacing(one)
    return bool(np.all(np.hypot(*(one - two).T) <= tolerance * spacing))


def map_points(motion: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Points (N, 2) through a projective map (3x3): a homography, or a motion of the floor."""
    return GridGeometry(3, 3, motion).to_image(points)


def ring_indices(cells: tuple[tuple[int, int], ...]) -> list[int]:
    """The places in :data:`RING` of the ring ``cells`` ((row, col), from 0)."""
    asked = set(cells)
    return [index for index, (c, r) in enumerate(RING) if (int(r), int(c)) in asked]


def top_row_spacing(ring_image: np.ndarray) -> float:
    """The mean plate spacing in pixels along the ring's top row, placed at
    ``ring_image`` (the ring's eight places on the picture, in :data:`RING`'s order)."""
    return float(np.mean(np.hypot(*np.diff(ring_image[[0, 1, 2]], axis=0).T)))


def roll_skew(homography: np.ndarray) -> float:
    """|correlation| of J Jᵀ, J the Jacobian of grid -> image at the ring's centre: 0 for a
    camera without roll, whatever its yaw, pitch or zoom."""
    def image(x: float, y: float) -> np.ndarray:
        v = homography @ np.array([x, y, 1.0])
        return v[:2] / v[2]

    step = 1e-3
    jacobian = np.stack(
        [(image(1 + step, 1) - image(1 - step, 1)) / (2 * step),
         (image(1, 1 + step) - image(1, 1 - step)) / (2 * step)], axis=1)
    m = jacobian @ jacobian.T
    return float(abs(m[0, 1]) / max(math.sqrt(m[0, 0] * m[1, 1]), 1e-12))


def fit_error_px(pts: np.ndarray, ok: np.ndarray, nearest: np.ndarray,
               homography: np.ndarray) -> float:
    """RMS distance (pixels) of the matched points from the fit's places."""
    fitted = cv2.perspectiveTransform(RING[ok].reshape(-1, 1, 2), homography).reshape(-1, 2)
    return float(np.sqrt(np.mean(np.sum((fitted - pts[nearest[ok]]) ** 2, axis=1))))


def usual_size(areas: np.ndarray, homography: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Per ring place, whether its blob's area (``areas``, one per place) is within
    :data:`FIT.odd_size` of the ``reference`` places' median, compared on the floor: a steep
    view shows far diamonds smaller, which is no sign of cover."""
    on_floor = areas / area_scale(homography, RING)
    size = on_floor / fast_median(on_floor[reference])
    # a small blob's area is only as sure as its outline: a pixel of it either way is a
    # share of the area that grows as the blob shrinks (compression moves more)
    odd = max(FIT.odd_size,
              1.0 + FIT.area_noise / math.sqrt(max(fast_median(areas[reference]), 1.0)))
    return (size >= 1 / odd) & (size <= odd)


def area_scale(homography: np.ndarray, grid_points: np.ndarray) -> np.ndarray:
    """Image area per unit of grid area at each grid point (the Jacobian determinant)."""
    w = np.column_stack([grid_points, np.ones(len(grid_points))]) @ homography[2]
    return abs(float(np.linalg.det(homography))) / np.maximum(np.abs(w), 1e-12) ** 3


def similar_size(areas: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """Which matched blobs are within a factor 2.5 of the median matched size."""
    if not ok.any():
        return ok
    median = fast_median(areas[ok])
    return (areas >= median / FIT.size_spread) & (areas <= median * FIT.size_spread)


def fast_median(values: np.ndarray) -> float:
    """``float(np.median(values))`` of a 1-D array, the same value, without numpy's
    general machinery for a float64 one: a search takes the median of a few blob areas
    thousands of times, and that machinery was a tenth of its time."""
    if values.dtype != np.float64 or values.ndim != 1 or len(values) == 0 \
            or not np.isfinite(values).all():  # (numpy's answer for nan, and for no value)
        return float(np.median(values))
    ordered = sorted(values.tolist())
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def fit_homography(pts: np.ndarray, ok: np.ndarray, nearest: np.ndarray) -> np.ndarray | None:
    src = RING[ok].astype(np.float32)
    dst = pts[nearest[ok]].astype(np.float32)
    homography, _ = cv2.findHomography(src, dst, 0)
    return None if homography is None else homography.astype(np.float64)


# Relabellings of the ring: new grid point -> old grid point, as 3x3 affine matrices about
# the centre (1, 1): four quarter turns, each optionally mirrored.
def _relabellings() -> list[np.ndarray]:
    out = []
    centre = np.array([[1, 0, 1], [0, 1, 1], [0, 0, 1]], np.float64)
    back = np.array([[1, 0, -1], [0, 1, -1], [0, 0, 1]], np.float64)
    for mirror in (False, True):
        for turns in range(4):
            angle = turns * math.pi / 2
            c, s = round(math.cos(angle)), round(math.sin(angle))
            m = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], np.float64)
            if mirror:
                m = m @ np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1]], np.float64)
            out.append(centre @ m @ back)
    return out


_RELABELLINGS = _relabellings()


def labelled_fit(homography: np.ndarray, blobs: Blobs, members: frozenset[int]) -> RingFit:
    """Relabel so the grid's x axis points right and its y axis down on screen."""
    best, best_score = homography, -math.inf
    for relabel in _RELABELLINGS:
        h = homography @ relabel
        pts = cv2.perspectiveTransform(
            np.array([[[0, 1]], [[2, 1]], [[1, 0]], [[1, 2]]], np.float64), h
        ).reshape(-1, 2)
        ex, ey = pts[1] - pts[0], pts[3] - pts[2]
        if ex[0] * ey[1] - ex[1] * ey[0] <= 0:
            continue  # a camera never mirrors the floor
        score = ex[0] / math.hypot(*ex) + ey[1] / math.hypot(*ey)
        if score > best_score + 1e-9:
            best, best_score = h, score
    best = best / best[2, 2]
    geometry = GridGeometry(3, 3, best)
    ring_image = geometry.to_image(RING)
    member_pts = blobs.centres[sorted(members)]
    d = np.hypot(*(ring_image[:, None, :] - member_pts[None, :, :]).transpose(2, 0, 1))
    spacing = top_row_spacing(ring_image)
    matched = tuple(bool(x) for x in d.min(axis=1) <= FIT.match_tolerance * spacing)
    fitted = ring_image[np.array(matched)]
    closest = d[np.array(matched)].argmin(axis=1)
    nearest = member_pts[closest] if any(matched) else fitted
    error = float(np.sqrt(np.mean(np.sum((fitted - nearest) ** 2, axis=1)))) / spacing
    diamonds = np.full(ring_image.shape, np.nan)
    diamonds[np.array(matched)] = nearest
    areas = np.full(len(ring_image), np.nan)
    areas[np.array(matched)] = blobs.areas[sorted(members)][closest]
    return RingFit(geometry, matched, error, spacing, diamonds=diamonds, areas=areas)
