"""Stage 3 of the ring search: refit a first guess into a candidate ring.

A homography is fitted to the blobs a first guess matched, matched again against its
places, and refitted without what does not fit: a diamond partly under a body (odd-sized
and off its place), a figure's blob beside a sound diamond, one blob that alone makes
the fit loose. A loose fit's tight cores (one or two of its blobs left out) are offered
as candidates of their own. The result is a scored candidate, or nothing.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from assistant.vision.ring.shape import (
    DIAMOND_AREA,
    FIT,
    RING,
    fast_median,
    fit_error_px,
    fit_homography,
    roll_skew,
    similar_size,
    usual_size,
)


@dataclass(frozen=True)
class RefitParams:
    """How a refitted candidate is scored and screened. Measured on the drawn rooms
    (cameras straight down to 68 degrees, display scaling 100-150%) and the real
    screenshot's floor."""

    #: a candidate scores its diamonds less this many times its fit error (of the
    #: spacing): a diamond more outweighs 0.2 of the spacing of fit error (set, not
    #: measured)
    error_weight: int = 5
    #: a core whose quick fit is this far over the exact bar is not exact, and one that
    #: puts every blob it left out this far inside the outlier distance takes them back
    #: (the quick fit agrees with OpenCV's to 2% near the bar; tests/test_vision_geometry.py)
    quick_fit_margin: float = 1.25
    #: the matched blobs' median area over the diamond's on this lattice: the tan plate
    #: corners and other small repeated details on a lattice of their own fall outside
    diamond_size_ratio: tuple[float, float] = (0.4, 2.6)


REFIT = RefitParams()

#: What :func:`refine` returns for a fit no camera could see (see
#: :attr:`FitParams.max_roll_skew`).
SKEWED = object()


def tight_alternatives(
    pts: np.ndarray, areas: np.ndarray, ok: np.ndarray, nearest: np.ndarray, spacing: float,
    needed: int, found: tuple[float, np.ndarray, frozenset[int], bool],
) -> list[tuple[float, np.ndarray, frozenset[int], bool]]:
    """Other rings through a first match whose refined fit (``found``) came out loose:
    each way of leaving one or two of its blobs out that the rest fit exactly (a
    perspective view of the floor fits to :data:`FIT.exact_ring_fit`), refined from there.

    Why: at a far zoom two figures' blobs can lie within the first guess's tolerance of
    two places: a player's legs merged with his plate's diamond, and his head where the
    plate behind him would be. The fit through all eight leans on them, the sound
    diamonds beside them come out as the worst and are dropped, and the search ends on a
    loose six that the frame check turns down, while the six sound diamonds fit to 0.004
    (a walk-through at a far zoom and 60 degrees). Refining only from tight cores, each
    a hypothesis of its own, leaves the choice to the checks on the picture.

    A core whose own fit puts every blob left out within :data:`FIT.outlier` of its place
    is not refined: the refining would take them all back and start again from the
    first match. Evenly noisy blobs make many such cores: in the demo room, where the
    capture holds the overlay's own marks around plates the camera has moved, refining
    them all made each search there half as long again, and none of them new."""
    if score_error(found) <= FIT.exact_ring_fit or int(ok.sum()) <= needed:
        return []
    matched = [int(place) for place in np.flatnonzero(ok)]
    left_outs = [left_out for size in (1, 2) if len(matched) - size >= needed
                 for left_out in itertools.combinations(matched, size)]
    kept = [[place for place in matched if place not in left_out] for left_out in left_outs]
    # a quick fit of every core at once settles which could be exact and which would
    # take back what they left out; the rest are fitted as every other hypothesis is
    quick_error, farthest = _quick_core_fits(pts[nearest], kept,
                                             [list(left_out) for left_out in left_outs])
    out: list[tuple[float, np.ndarray, frozenset[int], bool]] = []
    for left_out, error, off in zip(left_outs, quick_error / spacing, farthest / spacing,
                                    strict=True):
        if (error > FIT.exact_ring_fit * REFIT.quick_fit_margin
                or off <= FIT.outlier / REFIT.quick_fit_margin):
            continue  # not exact, or its fit takes back every blob left out
        core = ok.copy()
        core[list(left_out)] = False
        homography = fit_homography(pts, core, nearest)
        if homography is None or (fit_error_px(pts, core, nearest, homography) / spacing
                                  > FIT.exact_ring_fit):
            continue
        places = cv2.perspectiveTransform(RING[list(left_out)].reshape(-1, 1, 2),
                                          homography).reshape(-1, 2)
        if np.all(np.hypot(*(places - pts[nearest[list(left_out)]]).T) <= FIT.outlier * spacing):
            continue  # the core's fit takes them all back
        again = refine(pts, areas, core, nearest, spacing, needed)
        if isinstance(again, tuple) and again[2] != found[2] \
                and score_error(again) <= FIT.exact_ring_fit:
            out.append(again)
    return out


def _quick_core_fits(points: np.ndarray, cores: list[list[int]], left_out: list[list[int]]
                     ) -> tuple[np.ndarray, np.ndarray]:
    """For each core (a subset of the ring's places, ``points`` holding one blob centre
    per place): the RMS distance (pixels) of its points from a homography fitted to
    them, and the farthest of its ``left_out`` places' points from that fit's places.
    Many small cores at once: the normalised direct linear transform, batched. OpenCV's
    fit refines the same start further; for cores near the exact bar the errors agree
    to a hundredth and the farthest blob to a twentieth (tests/test_vision_geometry.py),
    at a small share of the time."""
    used = points[sorted({place for core in cores for place in core})]
    centre = used.mean(axis=0)
    scale = math.sqrt(2) / max(float(np.mean(np.hypot(*(used - centre).T))), 1e-9)
    image = (points - centre) * scale
    grid = RING - 1.0  # the ring's own middle at the origin
    x, y, u, v = grid[:, 0], grid[:, 1], image[:, 0], image[:, 1]
    one, zero = np.ones_like(x), np.zeros_like(x)
    rows = np.stack([np.stack([x, y, one, zero, zero, zero, -u * x, -u * y, -u], 1),
                     np.stack([zero, zero, zero, x, y, one, -v * x, -v * y, -v], 1)], 1)
    errors, farthest = np.full(len(cores), np.inf), np.full(len(cores), np.inf)
    by_size: dict[tuple[int, int], list[int]] = {}
    for index, (core, out) in enumerate(zip(cores, left_out, strict=True)):
        by_size.setdefault((len(core), len(out)), []).append(index)

    def distances(places: np.ndarray, homographies: np.ndarray) -> np.ndarray:
        lifted = np.concatenate([grid[places], np.ones((*places.shape, 1))], axis=2)
        mapped = lifted @ homographies.transpose(0, 2, 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            off = mapped[..., :2] / mapped[..., 2:3] - image[places]
        return np.hypot(off[..., 0], off[..., 1])

    for (size, _out_size), indices in by_size.items():
        chosen = np.array([cores[index] for index in indices])
        system = rows[chosen].reshape(len(indices), 2 * size, 9)
        homographies = np.linalg.svd(system)[2][:, -1, :].reshape(-1, 3, 3)
        rms = np.sqrt(np.mean(distances(chosen, homographies) ** 2, axis=1)) / scale
        far = distances(np.array([left_out[index] for index in indices]),
                        homographies).max(axis=1) / scale
        errors[indices] = np.where(np.isfinite(rms), rms, np.inf)
        farthest[indices] = np.where(np.isfinite(far), far, np.inf)
    return errors, farthest


def score_error(found: tuple) -> float:
    """The fit error (of the spacing) behind a refined hypothesis's score (a
    :func:`refine` result or a candidate made of one)."""
    score, members = found[0], found[2]
    return (len(members) - score) / REFIT.error_weight


def _checked_fit(pts, areas, ok, nearest, needed):
    """Drop odd-sized matches, require enough distinct ones, and fit: ``(ok, homography)``,
    the homography None when the matches cannot make a ring."""
    ok = ok & similar_size(areas[nearest], ok)
    if ok.sum() < needed or len(set(nearest[ok].tolist())) < int(ok.sum()):
        return ok, None
    return ok, fit_homography(pts, ok, nearest)


def refine(
    pts: np.ndarray, areas: np.ndarray, ok: np.ndarray, nearest: np.ndarray, spacing: float,
    needed: int,
) -> tuple[float, np.ndarray, frozenset[int]] | None:
    """Fit a homography to a first match, match again against its predictions, drop what
    does not fit (a player merged with a diamond makes an odd-sized blob off centre), and
    check the result."""
    homography = None
    for round_ in range(3):
        # the affine first guess misses the far plates of a steep perspective view: its
        # five nearest matches fix a homography good enough to find the others
        ok, homography = _checked_fit(pts, areas, ok, nearest,
                                      needed - 1 if round_ == 0 else needed)
        if homography is None:
            return None
        predicted = cv2.perspectiveTransform(RING.reshape(-1, 1, 2), homography).reshape(-1, 2)
        d = np.hypot(*(predicted[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
        nearest = np.argmin(d, axis=1)
        residual = d[np.arange(8), nearest]
        ok = residual <= FIT.match_tolerance * spacing
        worst = int(np.argmax(np.where(ok, residual, -1.0)))
        if ok.sum() > needed and residual[worst] > FIT.outlier * spacing:
            ok[worst] = False  # refit without the worst point
    ok, homography = _checked_fit(pts, areas, ok, nearest, needed)
    if homography is None:
        return None
    # a diamond partly hidden by a player, or merged with his gold-ish skin, has an odd size
    # and its centroid off centre: refit without such blobs, the worst first (its pull
    # bends the fit into a false perspective that makes sound diamonds look odd-sized)
    while (ok.sum() > needed
           and (worst := worst_covered(pts, areas, ok, nearest, homography, spacing)) >= 0):
        ok = ok.copy()
        ok[worst] = False
        homography = fit_homography(pts, ok, nearest)
        if homography is None:
            return None
    ok, nearest, homography = _swapped_for_sound(pts, areas, ok, nearest, homography, spacing)
    ok, homography, error = without_one_loosening(pts, ok, nearest, homography, spacing,
                                                   needed)
    if error > FIT.max_fit_error:
        return None
    middle_blob = blob_in_middle(pts, areas, nearest[ok], homography, spacing)
    # the blobs must be diamond-sized for this lattice (rejects the tan plate corners and
    # other small repeated details that sit on a lattice of their own)
    quad = cv2.perspectiveTransform(
        np.array([[[0.5, 0.5]], [[1.5, 0.5]], [[1.5, 1.5]], [[0.5, 1.5]]]), homography
    ).reshape(-1, 2)
    xs, ys = quad[:, 0], quad[:, 1]
    cell_area = 0.5 * abs(float(np.dot(xs, np.roll(ys, 1)) - np.dot(ys, np.roll(xs, 1))))
    matched_areas = areas[nearest[ok]]
    size_ratio = fast_median(matched_areas) / (DIAMOND_AREA * cell_area)
    if not REFIT.diamond_size_ratio[0] <= size_ratio <= REFIT.diamond_size_ratio[1]:
        return None
    # a lattice of small details beside each plate (the tan corners of the plate tiles)
    # has a bigger blob, the diamond, right next to most of its points
    matched_pts = pts[nearest[ok]]
    d = np.hypot(*(matched_pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    beside = (d > 0.05 * spacing) & (d < 0.4 * spacing)
    bigger = areas[None, :] > 1.5 * matched_areas[:, None]
    if int(np.sum(np.any(beside & bigger, axis=1))) >= 4:
        return None
    if roll_skew(homography) > FIT.max_roll_skew:
        return SKEWED
    score = float(ok.sum()) - error * REFIT.error_weight
    return score, homography, frozenset(int(x) for x in nearest[ok]), middle_blob


def blob_in_middle(pts: np.ndarray, areas: np.ndarray, members: np.ndarray,
                    homography: np.ndarray, spacing: float) -> bool:
    """Is there a blob the size of the ring's diamonds in the lattice's middle? A ninth
    plate (another puzzle's 3x3 grid, checked by its frame in locate_at), or a figure's
    head or gold clothes over the plain middle tile, which players cross all the time."""
    centre = cv2.perspectiveTransform(np.array([[[1.0, 1.0]]]), homography).reshape(2)
    median_area = fast_median(areas[members])
    diamond_like = (areas >= median_area / 2.5) & (areas <= median_area * 2.5)
    return bool(np.any(
        diamond_like & (np.hypot(*(pts - centre).T) <= FIT.match_tolerance * spacing)))


def _swapped_for_sound(
    pts: np.ndarray, areas: np.ndarray, ok: np.ndarray, nearest: np.ndarray,
    homography: np.ndarray, spacing: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The fit with one odd-sized matched blob swapped for a diamond of the usual size
    the fit left unmatched (within the match tolerance), when the swap fits better.

    Why: a player over a plate next to a diamond makes a large blob off his plate's
    centre; the first fit runs through it, the sound diamond beside it then has the worst
    residual and is the one dropped, and the ring put the player's plate a third of the
    spacing off (a walk-through on the real screenshot's floor at 55°)."""
    predicted = cv2.perspectiveTransform(RING.reshape(-1, 1, 2), homography).reshape(-1, 2)
    d = np.hypot(*(predicted[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    closest = np.argmin(d, axis=1)
    usual = usual_size(areas[closest], homography, ok)
    odd = np.flatnonzero(ok & ~usual_size(areas[nearest], homography, ok))
    spare = np.flatnonzero(~ok & usual & (d[np.arange(8), closest] <= FIT.match_tolerance * spacing)
                           & ~np.isin(closest, nearest[ok]))
    best = (fit_error_px(pts, ok, nearest, homography), ok, nearest, homography)
    for out in odd:
        for into in spare:
            trial, matched = ok.copy(), nearest.copy()
            trial[out], trial[into], matched[into] = False, True, closest[into]
            fitted = fit_homography(pts, trial, matched)
            if fitted is not None and (error := fit_error_px(pts, trial, matched,
                                                           fitted)) < best[0]:
                best = (error, trial, matched, fitted)
    return best[1], best[2], best[3]


def without_one_loosening(
    pts: np.ndarray, ok: np.ndarray, nearest: np.ndarray, homography: np.ndarray,
    spacing: float, needed: int,
) -> tuple[np.ndarray, np.ndarray, float]:
    """The fit, and its error (RMS, in spacings), without the one matched blob that alone
    makes it loose: when the fit is loose (:data:`FIT.loose_fit` of the spacing or more) and
    leaving one blob out fits the rest :data:`FIT.fit_lead` times more tightly, that blob is
    no diamond of the ring.

    Why: the ring's own diamonds fit a homography to 0.002-0.01 of the spacing, a
    perspective view of the floor being exact. At the way in, a player's gold-lit body
    beside the corner plate he half covers made a blob of a diamond's size 12 pixels off
    it; the fit through all eight ran to 0.040 (0.006 without it), bent the corner's two
    neighbours off their diamonds, and the frame went blank as "a corner plate and both
    its neighbours are covered" (a walk-through at 56°, 125% display scaling). The odd
    size and off-centre checks above do not see such a blob: it is of the usual size."""
    error = fit_error_px(pts, ok, nearest, homography) / spacing
    if int(ok.sum()) <= needed or error < FIT.loose_fit:
        return ok, homography, error
    best: tuple[float, np.ndarray, np.ndarray] | None = None
    for index in np.flatnonzero(ok):
        trial = ok.copy()
        trial[index] = False
        fitted = fit_homography(pts, trial, nearest)
        if fitted is None:
            continue
        trial_error = fit_error_px(pts, trial, nearest, fitted) / spacing
        if best is None or trial_error < best[0]:
            best = (trial_error, trial, fitted)
    if best is not None and best[0] * FIT.fit_lead <= error:
        return best[1], best[2], best[0]
    return ok, homography, error


def worst_covered(
    pts: np.ndarray, areas: np.ndarray, ok: np.ndarray, nearest: np.ndarray,
    homography: np.ndarray, spacing: float,
) -> int:
    """The matched ring place whose blob is most off its place among those both off
    centre and odd-sized for the floor (a diamond partly covered), or -1 when none is."""
    predicted = cv2.perspectiveTransform(RING.reshape(-1, 1, 2), homography).reshape(-1, 2)
    residual = np.hypot(*(predicted - pts[nearest]).T)
    odd_size = ~usual_size(areas[nearest], homography, ok)
    # (off centre by more than a small blob's own noise: FIT.centroid_noise_px)
    covered = ok & (residual > max(FIT.hidden_shift * spacing, FIT.centroid_noise_px)) & odd_size
    if not covered.any():
        return -1
    return int(np.argmax(np.where(covered, residual, -1.0)))
