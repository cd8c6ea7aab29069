"""Checks on a ring already placed: is it still in place, which diamonds are whole, and
would the diamonds read whole place it better without a blob that may bend it?

The live loop and the reader ask these of a placement they hold (the last search's, or
one they are about to read), at a fraction of a search's cost: a local look at the
diamonds where the ring puts them, or a refit from some of the ring's own diamonds.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from assistant.vision.geometry import GridGeometry
from assistant.vision.ring.blobs import BLOBS, gold_blobs
from assistant.vision.ring.motions import MOTION
from assistant.vision.ring.shape import (
    FIT,
    RING,
    RING_CELLS,
    RingFit,
    fit_error_px,
    fit_homography,
    ring_indices,
    top_row_spacing,
    usual_size,
)


@dataclass(frozen=True)
class CheckParams:
    """When a placed ring is still in place, or bent by one blob. Measured on the drawn
    walk-throughs (both room sources, cameras 0-68 degrees, display scaling 100-150%)
    and the real screenshot's floor."""

    #: a diamond may lie this far (of the spacing) from where the last search placed it
    #: and the view still count as the same (a search fits to 0.07 RMS at most)
    in_place_tolerance: float = 0.05
    #: a ring placed by few diamonds is kept when, with each of their centres a pixel off
    #: (root sum of squares over them), none of the places they leave out moves by more
    #: than this share of its distance to the nearest place: right placements moved by
    #: 0.12-0.15 (one by 0.44), placements off their plates by 0.57 and more
    unseen_place_spread: float = 0.4
    #: a ring through all but one matched blob is taken for one that blob bent when it
    #: fits them this many times more tightly than the ring through all (0.006 against
    #: 0.020 measured with a figure's gold over a plate)
    bent_lead: float = 2.0
    #: a fit through six diamonds or more may be bent by one pulled blob of an odd size
    #: when the others alone fit the ring this many times more tightly (0.0007 against
    #: 0.008-0.010 measured with a belt merged with a diamond) ...
    pulled_lead: float = 5.0
    #: ... and that blob lies at least this far (of the spacing) from its place on their
    #: ring (0.08-0.10 measured)
    pulled_off: float = 0.06
    #: a fit this tight has no blob that far off: the refits are not made
    pulled_fit_at_least: float = 0.004


CHECKS = CheckParams()


def whole_diamonds(
    frame: np.ndarray, geometry: GridGeometry, cells: tuple[tuple[int, int], ...]
) -> tuple[bool, ...]:
    """Which of the ring ``cells`` ((row, col), from 0) show a whole diamond where
    ``geometry`` places them: on its place and as large, for the floor there, as the
    ring's other diamonds.

    Why: the live loop keeps a plate the last search could not see hidden while the view
    stays still, so a search is not repeated every frame; this local check tells when
    whatever covered it has gone (a team-mate walked off, or the assistant's own marks,
    seen in the capture, moved away with the camera), for a few tenths of a millisecond
    instead of a search. A diamond still partly covered is odd-sized or off its place, as
    the locator judges it (:func:`worst_covered`), or hollowed out by legs over its
    middle (not solid)."""
    wanted = ring_indices(cells)
    found = dict.fromkeys(wanted, False)
    blobs = gold_blobs(frame, 1, split=False)
    if len(blobs.areas) and wanted:
        homography = geometry.homography
        at = geometry.to_image(RING)
        spacing = top_row_spacing(at)
        d = np.hypot(*(at[:, None, :] - blobs.centres[None, :, :]).transpose(2, 0, 1))
        nearest, residual = d.argmin(axis=1), d.min(axis=1)
        ok = residual <= FIT.match_tolerance * spacing
        others = ok.copy()
        others[wanted] = False
        if others.sum() >= MOTION.min_followed:
            whole = (ok & usual_size(blobs.areas[nearest], homography, others)
                     & (residual <= FIT.outlier * spacing)
                     & (blobs.solidity[nearest] >= BLOBS.whole_solidity))
            found = {index: bool(whole[index]) for index in wanted}
    by_cell = {(int(RING[i][1]), int(RING[i][0])): found[i] for i in wanted}
    return tuple(by_cell.get(cell, False) for cell in cells)


def ring_in_place(
    frame: np.ndarray, geometry: GridGeometry, cells: tuple[tuple[int, int], ...],
    tolerance: float = CHECKS.in_place_tolerance,
) -> bool:
    """Whether every one of the ring ``cells`` ((row, col), from 0; at least
    :data:`MOTION.min_followed` of them) shows its diamond within ``tolerance`` of the spacing
    of where ``geometry`` places it.

    Why: the live loop reads a still view at the corners of its last search, and checks
    now and then that the camera has not crept away under them (a slow turn or zoom can
    leave the board read the same). A search would only place the ring again within its
    own fit error; this check costs a fraction of it on the small grab around the plates.
    """
    wanted = ring_indices(cells)
    if len(wanted) < MOTION.min_followed:
        return False
    blobs = gold_blobs(frame, 1, split=False)
    if len(blobs.areas) < len(wanted):
        return False
    at = geometry.to_image(RING)
    spacing = top_row_spacing(at)
    d = np.hypot(*(at[wanted][:, None, :] - blobs.centres[None, :, :]).transpose(2, 0, 1))
    nearest, residual = d.argmin(axis=1), d.min(axis=1)
    if len(set(nearest.tolist())) < len(wanted):
        return False
    others = np.zeros(len(RING), bool)
    others[wanted] = True
    areas = np.zeros(len(RING))
    areas[wanted] = blobs.areas[nearest]
    usual = usual_size(areas, geometry.homography, others)[wanted]
    return bool(np.all(residual <= tolerance * spacing) and np.all(usual))


def _unseen_places_steady(points: np.ndarray, ok: np.ndarray,
                          geometry: GridGeometry) -> bool:
    """Do the places a homography fitted to ``points[ok]`` leaves out stay put when
    those points move by a pixel (:data:`CHECKS.unseen_place_spread`)? Five diamonds on two
    sides fix the corner between them as two vanishing points do, from three diamonds in
    a row each: at a steep camera and a far zoom, with plates 15 pixels apart across the
    view, a pixel moved that corner by 14 pixels, and it came 7 pixels off its plate
    (the overlay's mark missed it); 0.57 of the spacing put one 11 pixels off at a
    steep camera. Right placements of the walk-throughs moved by 0.12-0.15, and one by
    0.44, which is now left blank too: a blank frame, not a wrong one."""
    places = np.arange(len(RING))
    base = geometry.to_image(RING)
    apart = np.hypot(*(base[:, None, :] - base[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(apart, np.inf)
    spread = np.zeros(len(RING))
    for index in np.flatnonzero(ok):
        for axis in (0, 1):
            moved_points = points.copy()
            moved_points[index, axis] += 1.0
            homography = fit_homography(moved_points, ok, places)
            if homography is None:
                return False
            moved = cv2.perspectiveTransform(RING.reshape(-1, 1, 2), homography).reshape(-1, 2)
            spread += np.sum((moved - base) ** 2, axis=1)
    unseen = ~ok
    allowed = CHECKS.unseen_place_spread * apart.min(axis=1)[unseen]
    return bool(np.all(np.sqrt(spread[unseen]) <= allowed))


def ring_placed_by(fit: RingFit, cells: list[tuple[int, int]]) -> RingFit | None:
    """The ring placed by the diamonds ``fit`` matched at ``cells`` ((row, column) ring
    places, five or more) alone, labelled as ``fit`` is; None unless every one of them
    was matched, they fit that ring exactly (:data:`FIT.exact_ring_fit`) and place the others
    steadily (:func:`_unseen_places_steady`).

    Why: the blob of a plate someone stands on is pulled off its diamond by the body, and
    a ring fitted through it bends: the places beyond it, which no diamond checks, move
    most (a corner behind a covered neighbour came 12 pixels off at 150% display scaling,
    half the foreshortened spacing; the five diamonds read whole put it on its plate)."""
    if fit.diamonds is None:
        return None
    ok = np.array([cell in cells for cell in RING_CELLS])
    if ok.sum() < FIT.min_diamonds_after_last_view or not np.array(fit.matched)[ok].all():
        return None
    places = np.arange(len(RING))  # fit.diamonds holds each place's own blob
    homography = fit_homography(fit.diamonds, ok, places)
    if homography is None or abs(homography[2, 2]) < 1e-12:
        return None
    geometry = GridGeometry(3, 3, homography / homography[2, 2])
    spacing = top_row_spacing(geometry.to_image(RING))
    error = fit_error_px(fit.diamonds, ok, places, homography) / spacing
    if not error <= FIT.exact_ring_fit or not _unseen_places_steady(fit.diamonds, ok, geometry):
        return None
    diamonds = np.where(ok[:, None], fit.diamonds, np.nan)
    return RingFit(geometry, tuple(bool(m) for m in ok), error, spacing, diamonds=diamonds)


def bent_by_one_blob(fit: RingFit) -> RingFit | None:
    """The ring the matched diamonds place without the one blob that alone loosened
    ``fit`` past an exact ring (:func:`ring_placed_by`: exact, the unseen places steady;
    that blob's place is not matched on it), or None. The tightest such ring is taken,
    and only when it fits at least :data:`CHECKS.bent_lead` times more tightly than ``fit``.

    Why: a team-mate's gold trousers over a plate at a steep camera make a blob of a
    diamond's size near it; the search matched it as that plate's diamond, and the ring
    fitted through all eight (0.020 of the spacing) put the places a few pixels off, so
    that five plates read as covered and a session's first frame went blank, while the
    next frame of the same view, the trousers left out, read right (the seven others
    fit to 0.006). Unlike :func:`pulled_blob` this is
    asked only of a ring that could not be read, so a blob of any size is doubted."""
    if fit.diamonds is None or fit.rigid or fit.fit_error <= FIT.exact_ring_fit:
        return None
    if sum(fit.matched) <= FIT.min_diamonds:
        return None  # five left would place a lattice of their own, not the ring
    best = _tightest_without_one(fit)
    if best is None or best[0].fit_error * CHECKS.bent_lead > fit.fit_error:
        return None
    return best[0]


def _tightest_without_one(fit: RingFit) -> tuple[RingFit, int] | None:
    """Of the rings ``fit``'s matched diamonds place with one of them left out
    (:func:`ring_placed_by`), the tightest, with the index (in :data:`RING_CELLS`) of
    the one left out; None when no such ring is placed."""
    matched = [cell for cell, seen in zip(RING_CELLS, fit.matched, strict=True) if seen]
    best: tuple[RingFit, int] | None = None
    for index, cell in enumerate(RING_CELLS):
        if not fit.matched[index]:
            continue
        refit = ring_placed_by(fit, [other for other in matched if other != cell])
        if refit is not None and (best is None or refit.fit_error < best[0].fit_error):
            best = (refit, index)
    return best


def pulled_blob(fit: RingFit) -> tuple[tuple[int, int], RingFit] | None:
    """The ring place whose matched blob alone may bend ``fit``, with the ring the other
    matched diamonds place alone (:func:`ring_placed_by`), or None.

    Why: a team-mate's gold belt merged with the diamond of the plate he stands on makes
    one blob, its centre pulled off the plate, that the fit runs through; below
    :data:`FIT.loose_fit` (the locator's own check, :func:`without_one_loosening`) the bend
    still put that place 5 pixels off at a far steep view, and its samples took the belt
    for an unlit diamond (a player's belt at a steep camera: six blobs fitted to
    0.008-0.010, the five others to 0.0007, the blob 0.08-0.10 of the spacing
    from where they place it). Five diamonds nearly always fit some ring tightly, so this
    is a doubt, and only of a blob of an odd size (:func:`usual_size`, the belt's 1.35-1.67
    times the others' on the floor): on walk-through frames the others' ring was the bent
    one in 23 of 144 fits within the other bounds (their ring 0.06-0.55 of the spacing off
    and the blob nearer its plate; with one blob cut by the picture's edge and every
    other on its plate, dropping a whole one fitted the rest best)."""
    if fit.diamonds is None or fit.areas is None or fit.rigid \
            or fit.fit_error < CHECKS.pulled_fit_at_least:
        return None
    if sum(fit.matched) < FIT.min_diamonds:
        return None
    # only a blob of an odd size is doubted: with none, no refit is worth making
    odd = np.array(fit.matched) & ~usual_size(fit.areas, fit.geometry.homography,
                                               np.array(fit.matched))
    if not odd.any():
        return None
    best = _tightest_without_one(fit)
    if best is None or best[0].fit_error * CHECKS.pulled_lead > fit.fit_error:
        return None
    refit, index = best
    if not odd[index]:
        return None  # a diamond-sized blob: the others' bias, not a pull (see above)
    place = refit.geometry.to_image(RING[index:index + 1])[0]
    off = float(np.hypot(*(place - fit.diamonds[index]))) / refit.spacing
    return (RING_CELLS[index], refit) if off >= CHECKS.pulled_off else None
