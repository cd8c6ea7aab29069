"""Find the ToA ring of 8 plates anywhere in a frame, at any rotation and scale.

Gold blobs are cheap to find and every plate has one (its diamond), but so do the entrance
statue, its beam, the addition puzzle's symbols and many items in the UI. What no
look-alike has is the *arrangement*: eight blobs of one size on a 3x3 lattice without its
centre, each inside a purple frame that is more purple than the floor around it. So:

1. threshold gold-ish colours (loose: any client, brightness or gamma) and keep compact blobs;
2. for every blob, try its near neighbours as the two lattice directions and count how many
   of the 8 predicted plate positions hold a blob of similar size (6 are required, so a
   player standing on a plate does not hide the ring) while the centre holds none;
3. fit a homography to the matched centres (oblique cameras), check the fit, and check the
   purple frames against the floor between the plates;
4. label the ring as seen on screen: row 1, column 1 is the top-left plate.

Plate spacings from 25 to 150 pixels are searched; frames wider than 1400 pixels are
searched at half resolution first and at full resolution only when that finds nothing.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from assistant.vision.appearance import LUMA_BGR
from assistant.vision.geometry import GridGeometry, pixels_at
from assistant.vision.pitch import floor_camera, focal_point

__all__ = ["IN_PLACE_TOLERANCE", "LAST_VIEW_AGREEMENT", "MAX_ROLL_SKEW", "MIN_DIAMONDS",
           "MIN_DIAMONDS_AFTER_LAST_VIEW", "RING_CELLS", "RingFit",
           "agrees_with_last_view", "follow_ring", "framed_places", "locate_ring",
           "pulled_blob", "ring_in_place", "ring_placed_by",
           "roll_skew", "same_places", "whole_diamonds"]

# The ring, in grid units (x = column, y = row), row-major without the centre.
_RING = np.array([(c, r) for r in range(3) for c in range(3) if (r, c) != (1, 1)], np.float64)
#: the ring's places as (row, column), in _RING's order (row-major, the middle left out)
RING_CELLS = [(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)]
_DIAMOND_AREA = 2 * 0.165**2  # grid units squared
_MAX_CANDIDATES = 160
#: Plates that must show a diamond blob: a player may hide one plate and merge a second one
#: with his head; the others fix the lattice well enough to read the hidden ones.
MIN_DIAMONDS = 6
#: ... but five when the live loop found the ring a moment ago (``live.FIVE_DIAMOND_SEARCHES``)
#: and neither following it nor a search on six finds it: the camera pitched about the player, whose
#: gold clothes and a team-mate's merge three diamonds with their bodies at an oblique
#: view (the last view moved on the floor cannot place a pitched ring)
MIN_DIAMONDS_AFTER_LAST_VIEW = 5
_NEIGHBOURS = 12
_FIRST_TOLERANCE = 0.32  # of the spacing, for the affine first guess
_MATCH_TOLERANCE = 0.2  # of the spacing, after the homography fit
_MAX_FIT_ERROR = 0.07  # RMS of the homography fit, of the spacing
_ERROR_WEIGHT = 5  # a hypothesis scores its diamonds less this many times its fit error
_OUTLIER = 0.08  # a matched blob this far (of the spacing) from the fit is refitted without
_HIDDEN_SHIFT = 0.02  # ... and so is one this far whose size is odd by this factor
_ODD_SIZE = 1.3
# ... or, for small blobs, 1 + this / sqrt(their median pixel area) (_usual_size)
_AREA_NOISE = 3.5
_PURPLE_MARGIN = 8.0  # frame purpleness above the floor's, in 8-bit levels
_MIN_PURPLE_PLATES = 6
_DARKER_FRAME = 0.06  # a plate frame is at least this much darker than the floor
_EVEN_FLOOR = 0.15  # floor tiles between the plates: this close to their median brightness
# ... but for this many of them: team-mates stand there, and a small, steep view puts
# some of the points on the dark joints between tiles
_UNEVEN_FLOOR_POINTS = 4
# ... or for fewer, when the frames leave no doubt: a steep camera shows standing bodies
# over much of the floor between the plates (the player waiting at the way in and a
# team-mate in the middle cover half the points), yet purple frames on three sides or
# more around seven of the eight places are no textured background's lattice
_EVEN_FLOOR_POINTS_BESIDE_FRAMES = 4
_FRAMED_PLATES_BESIDE_BODIES = 7
# The plate frame's band, between the diamond (|u| + |v| = 0.165) and the octagon (0.28),
# in grid units; where it is thinner than this many pixels across (the median plate, the
# thinnest way), its colour does not show, and a search's six diamonds or more on an exact
# ring over an even floor (fit error at most EXACT_RING_FIT of the spacing) are taken
# without it (six: at 68° a player on a middle plate hides the one behind him too)
_FRAME_BAND = 0.115
_THIN_FRAME_PX = 3.0
EXACT_RING_FIT = 0.01
#: A blob's centre is not placed closer than this (pixels, RMS) on a small diamond through
#: compression or scaling, however exact the ring: an exact fit is asked no closer.
CENTROID_NOISE_PX = 0.8


def exact_fit_for(spacing: float) -> float:
    """The fit error (of the spacing) an unframed ring of this spacing (pixels) must keep
    to: :data:`EXACT_RING_FIT`, or the blobs' own noise on small plates
    (:data:`CENTROID_NOISE_PX`), where 1% of the spacing is under a pixel."""
    return max(EXACT_RING_FIT, CENTROID_NOISE_PX / max(spacing, 1.0))
# a core whose quick fit (_quick_core_fits) is this far over the exact bar is not exact,
# and one that puts every blob it left out this far inside _OUTLIER takes them back
_QUICK_FIT_MARGIN = 1.25
_MEMBERS_PAST_SEEING = 7  # ... or seven diamonds on it with frames on two sides at six places
_HALF_RESOLUTION_ABOVE = 1400  # pixels, the frame's larger side
# The game's camera tilts to 68° from straight down: the floor's far axis shrinks to
# cos 68° = 0.37 of the near one, and perspective makes near diamonds up to ~3x the area
# of far ones. Lattice directions and blob sizes are compared within these bounds.
_MIN_AXIS_RATIO = 0.33
_SIZE_SPREAD = 3.3
# A diamond's box is at most this many times as long as it is wide ...
_COMPACT_ELONGATION = 3.2
# ... except the farthest diamonds of such a view, seen along grazing rays at its top:
# boxes 3.3 times as wide as high were measured on drawn rooms at 68°. Such a blob is
# taken when flat (a camera without roll squeezes the floor along the screen's y) and
# convex (the click arrow lying on the floor is as flat, but not convex); a longer one
# is a stroke or a line
_MAX_ELONGATION = 4.5
_SQUEEZED_SOLIDITY = 0.7  # far diamonds measured 0.79-0.87, the arrow 0.47-0.5
# The game's camera never rolls: a circle on the floor images as an ellipse whose axes are
# the screen's (stretched modes scale x and y, which keeps that). Measured as the
# correlation term of J Jᵀ at the ring's centre (J the homography's Jacobian): at most
# 0.17 on every rendered camera up to 68° of pitch, 0.38 for a lattice sheared through six
# plates of the real ring when two are hidden. Fits beyond this are not a camera's view.
MAX_ROLL_SKEW = 0.32


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
class _Blobs:
    centres: np.ndarray  # (n, 2) full-resolution pixels
    areas: np.ndarray  # (n,) full-resolution pixels squared
    solidity: np.ndarray  # (n,) area over its convex hull's: a diamond's is near 1
    cut: int = 0  # how many of them thin strokes were cut away from (_cut_strokes)


def locate_ring(frame: np.ndarray, *, diamonds_needed: int = MIN_DIAMONDS,
                fewer_needed: int | None = None, cut_strokes: bool = False,
                ) -> tuple[RingFit | None, str | None]:
    """Find the ToA ring in a BGR(A) frame, on at least ``diamonds_needed`` diamonds
    (:data:`MIN_DIAMONDS`; the live loop asks for :data:`MIN_DIAMONDS_AFTER_LAST_VIEW`
    when nothing else finds the ring it found a moment ago).

    ``fewer_needed``: when no ring is found on ``diamonds_needed`` diamonds, look again on
    this many, through the gold blobs already found (a second search of its own would
    find them again, which is most of a search's time), the lattice checked by the
    frames about its places as a search on fewer always is.

    A frame too small to be searched at half resolution first is searched there last, on
    ``diamonds_needed``, when full resolution found a lattice through them and turned it
    down: a client stretched by display scaling blurs the diamonds' edges, and at full
    resolution their centres may scatter past an exact ring's fit (1.5% of the spacing
    at a steep camera and 150% scaling) where half resolution's averaged ones do not
    (0.7%). Not without such a lattice (out of the room every frame is searched, at no
    cost more), nor on ``fewer_needed`` (a body's gold merged with a diamond counts as
    one at half; the fewer whole ones at full place the ring better).

    Returns
    -------
    (fit, None) when exactly one ring is found; ``(None, reason)`` otherwise, where the
    reason is ``"not-found"`` or ``"several"``.
    """
    height, width = frame.shape[:2]
    blobs_at: dict[int, _Blobs] = {}
    wanted = (diamonds_needed,) if fewer_needed is None or fewer_needed >= diamonds_needed \
        else (diamonds_needed, fewer_needed)
    small = max(width, height) <= _HALF_RESOLUTION_ABOVE
    # big frames are searched at half resolution first (fast), then, only if that finds
    # nothing, at full resolution (plates spaced less than ~32 px vanish at half); small
    # ones at full resolution, and at half only after a lattice was turned down (above)
    factors = (1,) if small else (2, 1)
    searches = [(needed, factor) for needed in wanted for factor in factors]
    turned_down = False
    for needed, factor in searches:
        fit, why = _locate_at(frame, factor, needed, blobs_at, cut_strokes)
        if fit is not None or why == "several":
            return fit, why
        turned_down |= why == "turned-down" and needed == diamonds_needed
    if turned_down and small:
        fit, why = _locate_at(frame, 2, diamonds_needed, blobs_at, cut_strokes)
        if fit is not None or why == "several":
            return fit, why
    return None, "not-found"


def _locate_at(frame: np.ndarray, factor: int, needed: int, blobs_at: dict[int, _Blobs],
               cut_strokes: bool = False) -> tuple[RingFit | None, str | None]:
    """One search at 1/``factor`` resolution; ``blobs_at`` keeps the gold blobs found per
    factor for a second search of the same frame. Besides :func:`locate_ring`'s reasons,
    ``"turned-down"``: lattices through enough diamonds were found, none taken."""
    bgr = frame[..., :3]
    if factor not in blobs_at:
        blobs_at[factor] = _gold_blobs(frame, factor, cut_strokes=cut_strokes)
    blobs = blobs_at[factor]
    if len(blobs.areas) < needed or (cut_strokes and not blobs.cut):
        return None, "not-found"  # too few, or nothing cut: the plain search found nothing
    # a ring on fewer diamonds than a search trusts must show its frames about most places
    framed = _FRAMED_ON_FEWER if needed < MIN_DIAMONDS else 0
    hypotheses = _ring_hypotheses(blobs, _NEAR_SPANS, needed)
    accepted = _accepted_rings(bgr, blobs, hypotheses, framed)
    if not accepted:
        # a corner's two neighbours hidden on opposite sides (a player on one edge plate, a
        # team-mate on the opposite one): span the lattice from a corner to the far ones
        far = _ring_hypotheses(blobs, _FAR_SPANS, needed)
        hypotheses = hypotheses + far
        accepted = _accepted_rings(bgr, blobs, far, framed)
    if not accepted:
        return None, "turned-down" if hypotheses else "not-found"
    if needed < MIN_DIAMONDS and any(len(members) > len(accepted[0][2])
                                     for _score, _h, members, _middle in hypotheses):
        # a ring on few diamonds where the picture holds a lattice through more, which
        # its checks turned down: the few may be the many's corners and a look-alike
        # (all eight plates in view at 62°, blurred by display scaling, their frames no
        # longer purple: a ring turned 45° through the four corners and the yellow arrow
        # at the entrance was taken)
        return None, "not-found"
    if _exact_ring_through_more_turned_down(blobs, hypotheses, accepted[0]):
        return None, "turned-down"
    if len(accepted) > 1 and accepted[1][0] >= accepted[0][0] - 0.5:
        fits = [fit for _score, fit, _members in accepted[:2]]
        best = _preferred_ring(fits, [_framed_plates(bgr, fit) for fit in fits])
        if best is None:
            return None, "several"
        return fits[best], None
    return accepted[0][1], None


def _exact_ring_through_more_turned_down(
    blobs: _Blobs, hypotheses: list[tuple[float, np.ndarray, frozenset[int], bool]],
    taken: tuple[float, RingFit, frozenset[int]],
) -> bool:
    """Whether the ring taken fits its diamonds loosely (:data:`LOOSE_FIT`) while a
    lattice through more diamonds, four of them its own, fits them exactly
    (:data:`EXACT_RING_FIT`) as a camera's view (:data:`MAX_ROLL_SKEW`) and was turned
    down by the picture's checks: the taken one is a lattice sheared through some of
    that ring's plates and a figure's gold, not a ring to read.

    Why: a far room at 60° (43 px between plates, 125% display scaling), four figures on
    the floor between the plates: their bodies made the floor uneven, so the ring
    through seven diamonds (0.009 spacings RMS) was held to frames on seven plates and
    turned down; a lattice through five of its plates and a team-mate's gold (0.027)
    passed, and a single picture read a plate that was not where it put it. The frames
    go blank instead; the live loop follows
    such views from the last one."""
    _score, fit, members = taken
    if fit.fit_error < LOOSE_FIT:
        return False
    return any(len(more) > len(members) and len(more & members) >= 4
               and roll_skew(homography) <= MAX_ROLL_SKEW
               and _labelled_fit(homography, blobs, more).fit_error <= EXACT_RING_FIT
               for _s, homography, more, _middle in hypotheses)


def _preferred_ring(fits: list[RingFit], framed: list[int]) -> int | None:
    """Of two rings that fit alike, the one to take (None: neither). Either far more of its
    places show purple frames, or it runs through the same number of diamonds many times
    more tightly without fewer framed places: a lattice sheared through six diamonds of
    the ring (bodies on the other two) bends to reach them, the ring itself does not (seen
    on walk-throughs: the ring 0.002-0.004 spacings RMS, framed 7-8; sheared ones
    0.023-0.031, framed 5-7)."""
    best = int(np.argmax(framed))
    if framed[best] >= _FRAMED_TO_PREFER and framed[best] - framed[1 - best] >= _FRAMED_LEAD:
        return best
    tight = int(np.argmin([fit.fit_error for fit in fits]))
    loose = 1 - tight
    if (sum(fits[tight].matched) == sum(fits[loose].matched)
            and fits[loose].fit_error >= LOOSE_FIT
            and fits[tight].fit_error * _FIT_LEAD <= fits[loose].fit_error
            and framed[tight] >= max(framed[loose], _FRAMED_TO_PREFER)):
        return tight
    return None


# Two rings that fit their diamonds alike: one is preferred when at least five of its
# places show purple on three sides or more and the other's show three fewer. Through
# six diamonds with bodies on the others, a lattice sheared off the ring puts places on
# the plain floor, which show no frames; a second real ring would show its own (seen on
# the steep walk-throughs: the real ring 5-8, the sheared ones 1-4).
_FRAMED_TO_PREFER = 5
_FRAMED_LEAD = 3
# ... or, through as many diamonds, one fits them this many times more tightly (RMS, in
# spacings) than the other, whose fit is loose by at least LOOSE_FIT (two fits both
# within the diamonds' own centring noise are not told apart this way)
_FIT_LEAD = 5.0
LOOSE_FIT = 0.015
# A ring on five diamonds (MIN_DIAMONDS_AFTER_LAST_VIEW) has two checks fewer on its fit:
# six of its places must show such frames (see _framed_about). Through five diamonds on
# the screenshot's floor, lattices sheared onto a body or the click arrow showed them about
# 1-5 places and left two or more places without two framed sides, the real ring about 6-8
# (the three under bodies partly).
_FRAMED_ON_FEWER = 6


def _framed_plates(bgr: np.ndarray, fit: RingFit) -> int:
    """How many of the ring's places show a purple frame on three sides or more."""
    return int(np.sum(framed_places(bgr, fit.geometry)))


def framed_places(bgr: np.ndarray, geometry: GridGeometry) -> np.ndarray:
    """Per ring place (row-major, the middle left out): does it show a purple frame on
    three sides or more, as a plate does and the plain floor between plates does not?"""
    return _purple_sides(bgr, geometry.homography) >= 3


def _framed_about(bgr: np.ndarray, fit: RingFit, places: int) -> bool:
    """Whether ``places`` of the ring's places show a purple frame on three sides or more,
    or all eight on two sides and one fewer on three (a steep camera squeezes the far and
    near sides of a frame to a pixel)."""
    sides = _purple_sides(bgr, fit.geometry.homography)
    return bool(np.sum(sides >= 3) >= places
                or (np.all(sides >= 2) and np.sum(sides >= 3) >= places - 1))


def _accepted_rings(bgr, blobs, hypotheses, framed_needed: int = 0
                    ) -> list[tuple[float, RingFit, frozenset[int]]]:
    """The hypotheses that pass the checks on the picture (at most two: one is the answer,
    two that score alike make it ambiguous); ``framed_needed``: places that must show a
    purple frame (:func:`_framed_about`), 0 for no such check."""
    accepted: list[tuple[float, RingFit, frozenset[int]]] = []
    for index, (score, homography, members, middle_blob) in enumerate(hypotheses):
        if any(members == seen for _s, _f, seen in accepted):
            continue
        if any(len(members & seen) >= 4 for _s, _f, seen in accepted):
            continue  # the same ring labelled from another corner
        fit = _checked_ring(bgr, blobs, homography, members, middle_blob, framed_needed)
        if fit is None:
            continue
        if _score_error((score, homography, members, middle_blob)) > EXACT_RING_FIT:
            score, fit, members = _better_framed_tight(
                bgr, blobs, hypotheses[index + 1:], (score, fit, members), framed_needed)
        accepted.append((score, fit, members))
        if len(accepted) > 1:
            break
    return accepted


def _checked_ring(bgr, blobs, homography, members, middle_blob, framed_needed
                  ) -> RingFit | None:
    """A hypothesis's ring labelled as seen, when the picture bears it out (see
    :func:`_accepted_rings`), else None."""
    if roll_skew(homography) > MAX_ROLL_SKEW:
        return None  # a sheared lattice through some of the plates, not a camera's view
    fit = None
    if framed_needed and len(members) == len(_RING) - 3:
        fit = _labelled_fit(homography, blobs, members)
        if not middle_blob and _side_out_of_sight(bgr, blobs, fit):
            return fit
    unframed = not _frames_are_purple(bgr, homography)
    if unframed and not _framed_past_seeing(bgr, homography, len(members)):
        return None
    if middle_blob and _middle_is_framed(bgr, homography):
        return None  # a ninth plate in the middle: not the ToA ring
    if fit is None:
        fit = _labelled_fit(homography, blobs, members)
    if unframed and fit.fit_error > exact_fit_for(fit.spacing):
        return None
    if framed_needed and not _framed_about(bgr, fit, framed_needed):
        return None
    return fit


# The ring's four sides, each a corner, its edge neighbour and the next corner.
_SIDES = tuple(frozenset(side) for side in (
    ((0, 0), (0, 1), (0, 2)), ((2, 0), (2, 1), (2, 2)),
    ((0, 0), (1, 0), (2, 0)), ((0, 2), (1, 2), (2, 2)),
))


def _side_out_of_sight(bgr: np.ndarray, blobs: _Blobs, fit: RingFit) -> bool:
    """Is ``fit`` the ring with one whole side out of sight (the near row under the
    client's chat panel, or past the picture's edge at a close zoom), placed by the five
    other diamonds? They must fit it exactly, each show its purple frame on three sides
    or more over an even floor, and no other diamond-sized blob may lie among the
    places: a lattice stretched to twice the spacing through a side and the two far
    corners also fits five plates exactly, and has the plates between its places.

    Why: a search on five diamonds asks for frames at six places, which a side out of
    sight cannot show, and the first frames of a session were blank until the player's
    first step (five clear diamonds near top-down at a close zoom, the near row under
    the chat panel)."""
    unseen = frozenset(cell for cell, seen in zip(RING_CELLS, fit.matched, strict=True)
                       if not seen)
    if unseen not in _SIDES or fit.fit_error > EXACT_RING_FIT:
        return False
    homography = fit.geometry.homography
    seen = np.array([cell not in unseen for cell in RING_CELLS])
    if not np.all(framed_places(bgr, fit.geometry)[seen]):
        return False
    # blobs of the matched diamonds' size inside the ring's square, other than the five
    matched = fit.diamonds[seen]
    size = np.median([blobs.areas[int(np.argmin(np.hypot(*(blobs.centres - centre).T)))]
                      for centre in matched])
    alike = (blobs.areas > size / _SIZE_SPREAD) & (blobs.areas < size * _SIZE_SPREAD)
    on_grid = cv2.perspectiveTransform(blobs.centres.reshape(-1, 1, 2),
                                       np.linalg.inv(homography)).reshape(-1, 2)
    inside = np.all((on_grid > -0.5) & (on_grid < 2.5), axis=1)
    near_matched = np.min(np.hypot(*(blobs.centres[:, None, :] - matched[None]).transpose(
        2, 0, 1)), axis=1) <= _MATCH_TOLERANCE * fit.spacing
    if np.any(alike & inside & ~near_matched):
        return False
    return _floor_is_even(bgr, homography)


def _better_framed_tight(bgr, blobs, later, taken, framed_needed
                         ) -> tuple[float, RingFit, frozenset[int]]:
    """``taken``, a loose fit the checks let through, or a later hypothesis through as
    many of mostly the same diamonds that fits them exactly and shows the frames of
    clearly more plates (:data:`_FRAMED_TO_PREFER`, :data:`_FRAMED_LEAD`), when the
    checks let it through too.

    Why: a search's tight cores (:func:`_tight_alternatives`) come after every first
    fit, and a loose first fit through two figures' blobs can pass the checks on a view
    with frames all round; it then puts two places on the plain floor, the frame goes
    blank as "a plate is covered", where the six sound diamonds' ring shows a frame at
    all eight (a walk-through at 125% display scaling, 60 degrees)."""
    _score, fit, members = taken
    framed = None
    for hypothesis in later:
        other_score, homography, other, middle_blob = hypothesis
        if (len(other & members) < 4 or len(other) < len(members)
                or _score_error(hypothesis) > EXACT_RING_FIT):
            continue
        other_fit = _checked_ring(bgr, blobs, homography, other, middle_blob, framed_needed)
        if other_fit is None:
            continue
        framed = _framed_plates(bgr, fit) if framed is None else framed
        other_framed = _framed_plates(bgr, other_fit)
        if other_framed >= _FRAMED_TO_PREFER and other_framed - framed >= _FRAMED_LEAD:
            return other_score, other_fit, other
    return taken


# Following the ring from the last place it was seen (see follow_ring).
_MIN_FOLLOWED = 4  # diamonds on the moved ring
_MIN_TURNED = 5  # ... on a ring turned on the floor too
# A zoom scales the floor the last camera saw (grid units): pairs of diamonds in the same
# direction as a pair of plates, within this angle, propose a scale in this range (the
# walk-throughs jump by 0.8-1.25 in one frame; a scroll of the game's wheel is less)
_ZOOM_ANGLE = math.radians(6)
_ZOOM_RANGE = (0.7, 1.45)
#: how far (of the spacing) a diamond may lie from where the last search placed it and the
#: view still count as the same (ring_in_place): a search fits to 0.07 RMS
IN_PLACE_TOLERANCE = 0.05
_FOLLOW_TOLERANCE = 0.25  # grid units, on the floor seen by the previous camera
# A ring moved without a refit is the last camera moved when its diamonds lie this close
# to their places (RMS, of the spacing): a zoom of 2% shifts diamonds two plates apart by
# 0.04 (the drawn walk-throughs match a real shift to 0.007)
_RIGID_FIT_ERROR = 0.02
_FOLLOW_AREA = (0.4, 2.6)  # a diamond's area on that floor, of the drawn diamond's
_PITCHED_AREA = (0.3, 4.5)  # ... after a pitch (follow_ring)
# A whole diamond fills its convex hull (0.86-0.95 measured at 55-68°); one with a figure's
# legs over its middle is a U of the right size and place (0.48), read as lit from them
_WHOLE_SOLIDITY = 0.7


def follow_ring(frame: np.ndarray, previous: GridGeometry, *,
                turned: bool = False, zoomed: bool = False,
                pitched_about: tuple[float, float] | None = None) -> RingFit | None:
    """Find the ring again after the camera has followed the player across the floor.

    The game's camera follows the player at a fixed yaw, pitch and zoom, so a step moves
    the whole view as a translation *of the floor*: the new grid-to-image map is the old
    one after a shift of the grid (a quarter turn about the player is one too: the ring
    turned a quarter about any point is the ring shifted). The shift has two unknowns, so
    fewer diamonds pin it down than a fresh search needs: four, where a player on a plate
    and team-mates around leave the six of a fresh search too few. A small turn or zoom
    with the step is taken up by a homography fitted to five or more matched diamonds.
    The fit is ``rigid`` when it is the moved ring matching its diamonds tightly
    (:data:`_RIGID_FIT_ERROR`), or a refit putting every place where the moved ring does:
    no lattice squashed through few diamonds, so it may hide more plates.
    With ``turned``, when no shift fits or only loosely, the camera may have turned about
    the player: a yaw change turns the floor as the previous camera saw it rigidly, so a
    ring turned and shifted on that floor is tried, from five diamonds (:func:`_turned`);
    with ``zoomed``, a ring scaled and shifted on it (:func:`_zoomed`: the camera moved
    along its line of sight), from four. With ``pitched_about`` (the spot, in pixels,
    where the camera keeps the player), only the last view's camera pitched about the
    player is tried (:func:`_pitched`), from four. A rigid placement is taken first. The live
    loop asks for these only when a fresh search has failed too (a fresh search of a
    clear view reads more plates): frames after a turn or zoom at a steep camera, or
    with a row under the chat panel, where bodies leave a fresh search too few diamonds,
    were blank without them.
    The result is labelled as seen on screen, like a fresh search's. None when the
    placement is unsure: fewer than four diamonds on the shifted ring (five on a turned
    one), another placement that fits nearly as many (a ring moved by one plate keeps
    four of its eight places), a diamond in its middle.
    """
    # a pitch changes how large the floor's things look on the floor last seen: a
    # diamond of a view pitched 20-30 degrees shallower there is up to three times the
    # size (the view found is checked for their sizes on its own floor, _placed)
    found_on_floor = _on_last_floor(
        frame, previous, _PITCHED_AREA if pitched_about is not None else _FOLLOW_AREA)
    if found_on_floor is None:
        return None
    blobs, diamonds, spots = found_on_floor

    def plate_in_middle(motion: np.ndarray) -> bool:
        # a diamond in a placement's middle is a plate's when it sits in a purple frame;
        # a figure crossing the middle tile (a head, gold clothes) has none
        return _middle_is_framed(frame[..., :3], previous.homography @ motion)

    # a shift first; a turn or zoom about the player when asked for and the shift finds
    # nothing or fits only loosely (a zoomed view still matches a shift within the
    # follow's tolerance, its refit bending the places it did not see)
    found = None
    motions = [_shifted] + [_turned] * turned + [_zoomed] * zoomed
    if pitched_about is not None:
        # only the pitch: the live loop asks for it after the other follows failed
        spot = pitched_about
        def ring_there(motion: np.ndarray, matched: set[int]) -> bool:
            moved = previous.homography @ motion
            bgr = frame[..., :3]
            unmatched = [place for place in range(len(_RING)) if place not in matched]
            return _followed_on_plates(bgr, moved) and not _plain_floor_at(bgr, moved,
                                                                           unmatched)

        motions = [lambda spots, check: _pitched(spots, previous.homography, spot, check,
                                                 ring_there)]
    for motion_of in motions:
        followed = motion_of(spots, plate_in_middle)
        if followed is None:
            continue
        placed = _placement(frame, blobs, diamonds, previous.homography, followed)
        if placed is not None and placed.rigid:
            return placed
        found = found or placed
    # a pitched view is the last camera turned by the angle that fits: it fits tightly,
    # or its spot or its camera was not the player's (its unseen places are then off)
    return None if pitched_about is not None else found


def _placement(frame: np.ndarray, blobs: _Blobs, diamonds: np.ndarray,
               homography: np.ndarray,
               followed: tuple[np.ndarray, np.ndarray, np.ndarray]) -> RingFit | None:
    """The ring placed by a motion of the last view (:func:`follow_ring`)."""
    motion, nearest, ok = followed
    found = int(ok.sum())
    moved = homography @ motion
    # five diamonds or more also fix a small turn or zoom; four fix only the motion
    fitted = _fit(blobs.centres, ok, diamonds[nearest]) if found >= 5 else None
    placed_fitted, placed_moved = _placed(fitted, blobs, diamonds), _placed(moved, blobs,
                                                                          diamonds)
    if placed_fitted is not None:
        # a blob the motion matched but the fit finds odd-sized off its place (the player
        # over the plate just stepped on) bent the fit: fit again without it, as a fresh
        # search does (:func:`_refine`); its neighbours' places were off by a few pixels,
        # enough to show them partly covered
        members = np.isin(diamonds[nearest], sorted(placed_fitted[1]))
        kept = ok & members
        if kept.sum() >= 5 and kept.sum() < found:
            refitted = _fit(blobs.centres, kept, diamonds[nearest])
            placed_refitted = _placed(refitted, blobs, diamonds)
            if placed_refitted is not None:
                fitted, placed_fitted = refitted, placed_refitted
    fit_moved = None if placed_moved is None else _labelled_fit(moved, blobs,
                                                                placed_moved[1])
    # the moved ring is the last camera moved when its diamonds lie tightly on it; four
    # may also match a shift of an older view through a zoom or a pitch change, loosely
    # (a walk-through showed its unseen places off). A refit is rigid when it puts every
    # place where the moved ring does; when it does not but the moved ring is tight, the
    # refit on five diamonds bends its unseen places (the bottom row under the chat
    # panel after a zoom) and the moved ring is taken. So it is when the refit agrees
    # but took in a blob the tight moved ring leaves off its place that is no whole
    # diamond (:data:`_WHOLE_SOLIDITY`: a diamond a team-mate half covers): that bent
    # the places it did not see within the agreement, and each frame followed from it
    # bent them further (6, then 15 pixels off on a side covered by team-mates). A whole
    # diamond the moved ring just missed is the refit's to take (at 59° beside the chat
    # panel, without it the frames went blank)
    tight = fit_moved is not None and fit_moved.fit_error <= _RIGID_FIT_ERROR
    same = placed_fitted is not None and same_places(fitted, moved, LAST_VIEW_AGREEMENT)
    if placed_fitted is not None and tight and same and any(
            blobs.solidity[blob] < _WHOLE_SOLIDITY
            for blob in set(placed_fitted[1]) - set(placed_moved[1])):
        placed_fitted = None
    if placed_fitted is not None and (same or not tight):
        (chosen, members), rigid = placed_fitted, same
        fit = _labelled_fit(chosen, blobs, members)
    elif fit_moved is not None:
        chosen, fit, rigid = moved, fit_moved, tight
    else:
        return None
    if not _followed_on_plates(frame[..., :3], chosen):
        return None
    return replace(fit, rigid=rigid)


def _followed_on_plates(bgr: np.ndarray, homography: np.ndarray) -> bool:
    """Does a followed ring lie on the plates: purple frames on two sides or more at
    :data:`_MIN_FOLLOWED` of its places, or, where the frames' band is too thin to show
    its colour (:func:`_frames_too_thin`), an even floor between its places?

    Why: zoomed out at 64-68° under display scaling the band is a pixel or two deep on
    screen and shows purple at one or two places; the ring moved by a zoom after a step
    put every plate where it was and was turned down, and the frame went blank. A ring a
    plate off has plates, a diamond or a body where the floor points fall."""
    if int(np.sum(_purple_sides(bgr, homography) >= 2)) >= _MIN_FOLLOWED:
        return True
    return _frames_too_thin(homography) and _floor_is_even(bgr, homography)


def same_places(homography: np.ndarray, other: np.ndarray, tolerance: float) -> bool:
    """Whether two placements put every ring place within ``tolerance`` of the (first
    one's) spacing of the same place of the other."""
    one, two = (GridGeometry(3, 3, h).to_image(_RING) for h in (homography, other))
    spacing = _top_row_spacing(one)
    return bool(np.all(np.hypot(*(one - two).T) <= tolerance * spacing))


def _on_last_floor(
    frame: np.ndarray, previous: GridGeometry,
    sizes: tuple[float, float] = _FOLLOW_AREA,
) -> tuple[_Blobs, np.ndarray, np.ndarray] | None:
    """The frame's gold blobs, those of a diamond's size on the floor as ``previous``
    saw it, and where they lie on that floor (grid units); None with fewer than
    :data:`_MIN_FOLLOWED` such diamonds."""
    height, width = frame.shape[:2]
    factor = 2 if max(width, height) > _HALF_RESOLUTION_ABOVE else 1
    blobs = _gold_blobs(frame, factor)
    homography = previous.homography
    if len(blobs.areas) < _MIN_FOLLOWED or abs(np.linalg.det(homography)) < 1e-12:
        return None
    inverse = np.linalg.inv(homography)
    image = np.column_stack([blobs.centres, np.ones(len(blobs.areas))])
    w = image @ inverse[2]
    in_front = w > 1e-9  # points beyond the horizon have no place on the floor
    floor = (image @ inverse[:2].T) / np.where(in_front, w, 1.0)[:, None]
    # a pixel area on the floor: the area divided by the map's Jacobian determinant there
    wf = np.column_stack([floor, np.ones(len(floor))]) @ homography[2]
    jacobian = abs(np.linalg.det(homography)) / np.maximum(np.abs(wf), 1e-12) ** 3
    floor_area = blobs.areas / np.maximum(jacobian, 1e-12)
    diamonds = np.flatnonzero(
        in_front
        & (floor_area >= sizes[0] * _DIAMOND_AREA)
        & (floor_area <= sizes[1] * _DIAMOND_AREA)
    )
    if len(diamonds) < _MIN_FOLLOWED:
        return None
    return blobs, diamonds, floor[diamonds]


#: how far (of the spacing) each place of a located ring may lie from the last view
#: moved on the floor for the two to agree (agrees_with_last_view)
LAST_VIEW_AGREEMENT = 0.1


def agrees_with_last_view(frame: np.ndarray, previous: GridGeometry,
                          geometry: GridGeometry) -> bool:
    """Whether ``geometry`` (a ring located in ``frame``) puts every one of its eight
    places within :data:`LAST_VIEW_AGREEMENT` of the spacing of a place of ``previous``
    moved on the floor to the frame's diamonds: shifted (the camera followed the
    player) or, when no shift fits, turned and shifted (it turned about the player), the
    motion alone, no refit.

    Why: a ring located on six diamonds can be a lattice squashed through them, its
    other places off their plates (seen on the walk-throughs, 0.01 spacings of fit
    error), so it may hide only three plates. The last view moved rigidly is a placement
    of all eight places that owes nothing to this fit's shape: when the camera only
    followed or turned, the two agree, and a fourth partly covered plate may be hidden
    as on a ring placed on seven. A zoom or pitch change is no rigid motion: no
    agreement, no fourth plate."""
    found_on_floor = _on_last_floor(frame, previous)
    if found_on_floor is None:
        return False
    _blobs, _diamonds, spots = found_on_floor
    followed = _shifted(spots)
    if followed is None:
        followed = _turned(spots)
    if followed is None:
        return False
    motion, _nearest, _ok = followed
    shifted = GridGeometry(3, 3, previous.homography @ motion).to_image(_RING)
    placed = geometry.to_image(_RING)
    d = np.hypot(*(placed[:, None, :] - shifted[None, :, :]).transpose(2, 0, 1))
    nearest = d.argmin(axis=1)
    spacing = _top_row_spacing(placed)
    return bool(len(set(nearest.tolist())) == len(_RING)
                and np.all(d.min(axis=1) <= LAST_VIEW_AGREEMENT * spacing))


#: a motion of the ring on the floor last seen -> whether its middle holds a plate
_MiddleCheck = Callable[[np.ndarray], bool] | None


def _ring_matches(spots: np.ndarray, ring: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per place of ``ring`` (floor units): the nearest of ``spots`` and whether it lies
    within the follow tolerance."""
    d = np.hypot(*(spots[None, :, :] - ring[:, None, :]).transpose(2, 0, 1))
    return d.argmin(axis=1), d.min(axis=1) <= _FOLLOW_TOLERANCE


def _shifted(spots: np.ndarray, plate_in_middle: _MiddleCheck = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The ring shifted on the floor (the camera followed the player at the same yaw):
    the motion (3x3, grid to the previous floor) and the matches, or None when unsure.
    ``plate_in_middle``: whether a motion's middle, where a diamond lies, is a plate's
    (:func:`_middle_is_framed`); without it every diamond there counts as one."""
    def matches(shift: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return _ring_matches(spots, _RING + shift)

    shifts = (spots[:, None, :] - _RING[None, :, :]).reshape(-1, 2)
    # a placement with a plate's diamond in its middle is no rival (the click arrow on the
    # floor a row beyond the plates made one of five, the real top row's middle diamond in
    # its middle), and no ring: that diamond sits in a plate's frame. Gold in a middle
    # without a frame is a figure crossing the middle tile (the player's face and gold
    # clothes at a steep camera): that placement stays a rival, and a rival as good as
    # the best leaves the shift unsure (the true ring and one a row off through the
    # statue's gold matched six diamonds each, and the row-off one was taken)
    middle_taken = np.hypot(*(spots[None, :, :] - (shifts[:, None, :] + 1.0))
                            .transpose(2, 0, 1)).min(axis=1) <= _FOLLOW_TOLERANCE
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
        best = np.mean(spots[nearest[ok]] - _RING[ok], axis=0)
        nearest, ok = matches(best)
    found = int(ok.sum())
    if found < _MIN_FOLLOWED or len(set(nearest[ok].tolist())) < found:
        return None
    rivals = counts[np.hypot(*(shifts - best).T) > 0.5]
    if len(rivals) and rivals.max() > found - (2 if found == _MIN_FOLLOWED else 1):
        return None  # another shift fits (nearly) as many diamonds: which plate is unsure
    if _diamond_in_middle(spots, best + 1.0, _translation(best), plate_in_middle):
        return None  # a diamond where the ring has none
    return _translation(best), nearest, ok


def _turned(spots: np.ndarray, plate_in_middle: _MiddleCheck = None
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The ring turned and shifted on the floor: the camera turned about the player (a
    yaw change turns the floor as the previous camera saw it, rigidly, about the player's
    point), maybe while the player walked. One unknown more than a shift, so it needs
    :data:`_MIN_TURNED` diamonds and no rival placement within one of them. Each pair of
    diamonds as a pair of plates the same distance apart proposes one motion."""
    n = len(spots)
    if n < _MIN_TURNED:
        return None
    i, j = np.triu_indices(n, 1)
    a, b = np.array([(p, q) for p in range(8) for q in range(8) if p != q]).T
    seen = spots[j] - spots[i]  # (pairs, 2)
    plan = _RING[b] - _RING[a]  # (plate pairs, 2)
    length_seen = np.hypot(*seen.T)
    length_plan = np.hypot(*plan.T)
    pi, pa = np.nonzero(np.abs(length_seen[:, None] - length_plan[None, :])
                        <= _FOLLOW_TOLERANCE)
    if not len(pi):
        return None
    angle = (np.arctan2(seen[pi, 1], seen[pi, 0]) - np.arctan2(plan[pa, 1], plan[pa, 0]))
    cos, sin = np.cos(angle), np.sin(angle)
    rot = np.stack([np.stack([cos, -sin], -1), np.stack([sin, cos], -1)], -2)  # (h, 2, 2)
    mid_seen = (spots[i[pi]] + spots[j[pi]]) / 2
    mid_plan = (_RING[a[pa]] + _RING[b[pa]]) / 2
    shift = mid_seen - np.einsum("hij,hj->hi", rot, mid_plan)
    placed = np.einsum("hij,pj->hpi", rot, _RING) + shift[:, None, :]  # (h, 8, 2)
    d = np.hypot(*(placed[:, :, None, :] - spots[None, None, :, :]).transpose(3, 0, 1, 2))
    counts = (d.min(axis=2) <= _FOLLOW_TOLERANCE).sum(axis=1)
    best = int(np.argmax(counts))
    motion = _rigid(rot[best], shift[best])
    nearest, ok = _ring_matches(spots, placed[best])
    for _ in range(2):  # the least-squares motion of the matched diamonds, then match again
        fitted = _rigid_fit(_RING[ok], spots[nearest[ok]])
        if fitted is None:
            return None
        motion = fitted
        nearest, ok = _ring_matches(spots, _apply(motion, _RING))
    found = int(ok.sum())
    if found < _MIN_TURNED or len(set(nearest[ok].tolist())) < found:
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
    if _diamond_in_middle(spots, middle, motion, plate_in_middle):
        return None  # a diamond where the ring has none
    return motion, nearest, ok


def _zoomed(spots: np.ndarray, plate_in_middle: _MiddleCheck = None
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The ring scaled and shifted on the floor, not turned: the camera zoomed about the
    player (moved along its line of sight, so the floor it sees is the last one scaled
    about the player's point), maybe while the player walked. Each pair of diamonds as
    a pair of plates in the same direction proposes one scale and shift; the best must
    lead every placement with its middle elsewhere or a scale 15% apart by one diamond
    (two at four), and its middle must be empty."""
    n = len(spots)
    if n < _MIN_FOLLOWED:
        return None
    i, j = np.triu_indices(n, 1)
    a, b = np.array([(p, q) for p in range(8) for q in range(8) if p != q]).T
    seen = spots[j] - spots[i]
    plan = _RING[b] - _RING[a]
    angle = np.arctan2(seen[:, None, 1], seen[:, None, 0]) - np.arctan2(plan[None, :, 1],
                                                                        plan[None, :, 0])
    parallel = np.abs((angle + np.pi) % (2 * np.pi) - np.pi) <= _ZOOM_ANGLE
    scale = np.hypot(*seen.T)[:, None] / np.hypot(*plan.T)[None, :]
    pi, pa = np.nonzero(parallel & (scale >= _ZOOM_RANGE[0]) & (scale <= _ZOOM_RANGE[1]))
    if not len(pi):
        return None
    k = scale[pi, pa]
    shift = (spots[i[pi]] + spots[j[pi]]) / 2 - k[:, None] * (_RING[a[pa]] + _RING[b[pa]]) / 2
    placed = k[:, None, None] * _RING[None] + shift[:, None, :]  # (h, 8, 2)
    d = np.hypot(*(placed[:, :, None, :] - spots[None, None, :, :]).transpose(3, 0, 1, 2))
    counts = (d.min(axis=2) <= _FOLLOW_TOLERANCE).sum(axis=1)
    best = int(np.argmax(counts))
    nearest, ok = _ring_matches(spots, placed[best])
    scale_best, shift_best = k[best], shift[best]
    for _ in range(2):  # the least-squares scale and shift of the matched, then match again
        if ok.sum() < 2:
            return None
        plates, points = _RING[ok], spots[nearest[ok]]
        plates_c, points_c = plates - plates.mean(0), points - points.mean(0)
        scale_best = float(np.sum(plates_c * points_c) / np.sum(plates_c ** 2))
        shift_best = points.mean(0) - scale_best * plates.mean(0)
        nearest, ok = _ring_matches(spots, scale_best * _RING + shift_best)
    found = int(ok.sum())
    if found < _MIN_FOLLOWED or len(set(nearest[ok].tolist())) < found \
            or not _ZOOM_RANGE[0] <= scale_best <= _ZOOM_RANGE[1]:
        return None
    middle = scale_best * np.ones(2) + shift_best
    middles = k[:, None] * np.ones(2) + shift
    other = (np.hypot(*(middles - middle).T) > 0.5) | (np.abs(k / scale_best - 1) > 0.15)
    rivals = counts[other]
    if len(rivals) and rivals.max() > found - (2 if found == _MIN_FOLLOWED else 1):
        return None
    motion = np.array([[scale_best, 0, shift_best[0]], [0, scale_best, shift_best[1]],
                       [0, 0, 1]], np.float64)
    if _diamond_in_middle(spots, middle, motion, plate_in_middle):
        return None  # a diamond where the ring has none
    return motion, nearest, ok


#: pitch changes tried about the player, degrees either way, and the principal point's
#: height over the spot (plate spacings on screen at the spot) for the game's focal point
#: above the feet
_PITCH_CHANGES = np.radians(np.arange(-46.0, 46.5, 1.0))
_FOCAL_ROWS = (0.0, 0.15, 0.3)
_FOCAL_ROW_RANGE = (-0.1, 0.5)  # ... refined within
_PITCH_ZOOM = (0.85, 1.18)  # a zoom taken up with it, at most


def _pitched(spots: np.ndarray, homography: np.ndarray, spot: tuple[float, float],
             plate_in_middle: _MiddleCheck = None,
             ring_there: Callable[[np.ndarray, set[int]], bool] | None = None
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
    inverse = np.linalg.inv(homography)
    under = inverse @ np.array([spot[0], spot[1], 1.0])
    if abs(under[2]) < 1e-12:
        return None
    feet = under[:2] / under[2]
    at_spot = GridGeometry(3, 3, homography).to_image(
        np.array([feet, feet + np.array([1.0, 0.0]), feet + np.array([0.0, 1.0])]))
    spacing_px = float(max(np.hypot(*(at_spot[1] - at_spot[0])),
                           np.hypot(*(at_spot[2] - at_spot[0]))))

    def view(camera, pivot, angle: float, zoom: float) -> np.ndarray | None:
        turned = camera.pitched(pivot, angle, zoom)
        if np.any(turned.depths(_RING) <= 0) or np.any(turned.depths(feet[None]) <= 0):
            return None
        motion = inverse @ turned.homography()
        return motion / motion[2, 2] if abs(motion[2, 2]) > 1e-12 else None

    # per view tried: its matches, which plate took which diamond, (focal row, angle)
    tried: list[tuple[int, frozenset, tuple]] = []

    def posed(rise: float) -> tuple | None:
        camera = floor_camera(homography, spot, spot[1] - rise * spacing_px)
        return None if camera is None else (camera, focal_point(camera, feet))

    poses = {rise: posed(rise) for rise in _FOCAL_ROWS}
    for rise, pose in poses.items():
        if pose is None:
            continue
        for angle in _PITCH_CHANGES:
            motion = view(*pose, float(angle), 1.0)
            if motion is None:
                continue
            nearest, ok = _ring_matches(spots, _mapped(motion, _RING))
            found = int(ok.sum()) if len(set(nearest[ok].tolist())) == int(ok.sum()) else 0
            pairs = frozenset(zip(np.flatnonzero(ok).tolist(), nearest[ok].tolist(),
                                  strict=True))
            tried.append((found, pairs, (rise, float(angle))))
    if not tried:
        return None
    counts = np.array([found for found, _, _ in tried])
    rise, angle = tried[int(np.argmax(counts))][2]
    params = np.array([angle, 1.0, rise])  # the pitch change, the zoom, the focal row
    motion = view(*poses[rise], angle, 1.0)
    nearest, ok = _ring_matches(spots, _mapped(motion, _RING))
    seen_at = _mapped(homography, spots)  # the diamonds in this picture

    def residual(values: np.ndarray, plates: np.ndarray, blobs_at: np.ndarray
                 ) -> np.ndarray | None:
        pose = posed(float(values[2]))
        if pose is None:
            return None
        moved = view(*pose, float(values[0]), float(values[1]))
        if moved is None:
            return None
        return ((_mapped(homography @ moved, _RING[plates]) - blobs_at)
                / spacing_px).ravel()

    for _ in range(5):  # Gauss-Newton on the angle, the zoom and the focal row, in pixels
        if ok.sum() < 2:
            return None
        plates, blobs_at = np.flatnonzero(ok), seen_at[nearest[ok]]
        now = residual(params, plates, blobs_at)
        if now is None:
            return None
        jacobian = []
        for k in range(3):
            nudged = params.copy()
            nudged[k] += 1e-5
            moved = residual(nudged, plates, blobs_at)
            if moved is None:
                return None
            jacobian.append((moved - now) / 1e-5)
        update, *_ = np.linalg.lstsq(np.column_stack(jacobian), -now, rcond=None)
        params = params + update
        if not (_PITCH_ZOOM[0] <= params[1] <= _PITCH_ZOOM[1]
                and _FOCAL_ROW_RANGE[0] <= params[2] <= _FOCAL_ROW_RANGE[1]):
            return None
        pose = posed(float(params[2]))
        motion = None if pose is None else view(*pose, float(params[0]), float(params[1]))
        if motion is None:
            return None
        nearest, ok = _ring_matches(spots, _mapped(motion, _RING))
    found = int(ok.sum())
    if found < _MIN_FOLLOWED or len(set(nearest[ok].tolist())) < found:
        return None
    # a rival gives some diamond to another plate (views pitched less keep fewer of the
    # same pairs: one labelling, placed worse)
    pairs = set(zip(np.flatnonzero(ok).tolist(), nearest[ok].tolist(), strict=True))
    plate_of = {blob: plate for plate, blob in pairs}
    blob_of = dict(pairs)
    least = found - (1 if found == _MIN_FOLLOWED else 0)
    for count, tried_pairs, (other_rise, other_angle) in tried:
        if count < least or not any(
                blob_of.get(plate, blob) != blob or plate_of.get(blob, plate) != plate
                for plate, blob in tried_pairs):
            continue
        rival = view(*poses[other_rise], other_angle, 1.0)
        if _diamond_off_its_places(spots, rival):
            continue  # a diamond on its floor between its plates: no ring
        if ring_there is None or ring_there(rival, {plate for plate, _ in tried_pairs}):
            return None  # another view fits (nearly) as many diamonds: which plate is unsure
    middle = _mapped(motion, np.array([[1.0, 1.0]]))[0]
    if _diamond_in_middle(spots, middle, motion, plate_in_middle):
        return None
    return motion, nearest, ok


#: a ring place shows the plain floor when this share of its points has the floor's
#: brightness (within _EVEN_FLOOR) and its frame is purple on fewer than two sides
_FLOOR_LIKE_PLACE = 0.8
_PLACE_POINTS = np.concatenate([
    np.array([(0.0, 0.0), (0.08, 0.0), (-0.08, 0.0), (0.0, 0.08), (0.0, -0.08)]),
    0.22 * np.stack([np.cos(np.linspace(0, 2 * np.pi, 12, endpoint=False)),
                     np.sin(np.linspace(0, 2 * np.pi, 12, endpoint=False))], 1)])


def _plain_floor_at(bgr: np.ndarray, homography: np.ndarray, places: list[int]) -> bool:
    """Does one of ``places`` (ring indices) inside the picture show the plain floor:
    the floor's brightness all over its disc and no purple frame about it? A covered
    plate shows what covers it; the floor between plates shows only floor."""
    if not places:
        return False
    height, width = bgr.shape[:2]
    floor_luma = float(np.median(_floor_samples(bgr, homography) @ LUMA_BGR))
    sides = _purple_sides(bgr, homography)
    for place in places:
        points = cv2.perspectiveTransform(
            (_RING[place] + _PLACE_POINTS).reshape(-1, 1, 2), homography).reshape(-1, 2)
        if not np.all((points >= 0) & (points <= (width - 1, height - 1))):
            continue
        luma = pixels_at(bgr, points) @ LUMA_BGR
        like = np.abs(luma - floor_luma) <= _EVEN_FLOOR * max(floor_luma, 1.0)
        if like.mean() >= _FLOOR_LIKE_PLACE and sides[place] < 2:
            return True
    return False


def _mapped(motion: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Points (N, 2) through a projective map (3x3): a homography, or a motion of the floor."""
    return GridGeometry(3, 3, motion).to_image(points)


def _diamond_off_its_places(spots: np.ndarray, motion: np.ndarray) -> bool:
    """Whether one of ``spots`` (diamonds on the floor last seen) lies within the ring
    ``motion`` places, in none of its plates: on the floor between them, where a ring has
    no diamond. (A view pitched the wrong way through three of four diamonds leaves the
    fourth there.)"""
    grid = _mapped(np.linalg.inv(motion), spots)
    inside = np.all((grid >= -0.3) & (grid <= 2.3), axis=1)
    off = np.hypot(*(grid - np.clip(np.round(grid), 0, 2)).T) > 0.3
    return bool(np.any(inside & off))


def _translation(shift: np.ndarray) -> np.ndarray:
    return np.array([[1, 0, shift[0]], [0, 1, shift[1]], [0, 0, 1]], np.float64)


def _diamond_in_middle(spots: np.ndarray, middle: np.ndarray, motion: np.ndarray,
                       plate_in_middle: _MiddleCheck) -> bool:
    """Whether a diamond lies in a followed ring's middle (on the floor last seen) and,
    when the picture can tell, sits in a plate's frame there."""
    if not np.any(np.hypot(*(spots - middle).T) <= _FOLLOW_TOLERANCE):
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
    the locator judges it (:func:`_worst_covered`), or hollowed out by legs over its
    middle (not solid)."""
    wanted = _ring_indices(cells)
    found = dict.fromkeys(wanted, False)
    blobs = _gold_blobs(frame, 1, split=False)
    if len(blobs.areas) and wanted:
        homography = geometry.homography
        at = geometry.to_image(_RING)
        spacing = _top_row_spacing(at)
        d = np.hypot(*(at[:, None, :] - blobs.centres[None, :, :]).transpose(2, 0, 1))
        nearest, residual = d.argmin(axis=1), d.min(axis=1)
        ok = residual <= _MATCH_TOLERANCE * spacing
        others = ok.copy()
        others[wanted] = False
        if others.sum() >= _MIN_FOLLOWED:
            whole = (ok & _usual_size(blobs.areas[nearest], homography, others)
                     & (residual <= _OUTLIER * spacing)
                     & (blobs.solidity[nearest] >= _WHOLE_SOLIDITY))
            found = {index: bool(whole[index]) for index in wanted}
    by_cell = {(int(_RING[i][1]), int(_RING[i][0])): found[i] for i in wanted}
    return tuple(by_cell.get(cell, False) for cell in cells)


def _ring_indices(cells: tuple[tuple[int, int], ...]) -> list[int]:
    """The places in :data:`_RING` of the ring ``cells`` ((row, col), from 0)."""
    asked = set(cells)
    return [index for index, (c, r) in enumerate(_RING) if (int(r), int(c)) in asked]


def _top_row_spacing(ring_image: np.ndarray) -> float:
    """The mean plate spacing in pixels along the ring's top row, placed at
    ``ring_image`` (the ring's eight places on the picture, in :data:`_RING`'s order)."""
    return float(np.mean(np.hypot(*np.diff(ring_image[[0, 1, 2]], axis=0).T)))


def ring_in_place(
    frame: np.ndarray, geometry: GridGeometry, cells: tuple[tuple[int, int], ...],
    tolerance: float = IN_PLACE_TOLERANCE,
) -> bool:
    """Whether every one of the ring ``cells`` ((row, col), from 0; at least
    :data:`_MIN_FOLLOWED` of them) shows its diamond within ``tolerance`` of the spacing
    of where ``geometry`` places it.

    Why: the live loop reads a still view at the corners of its last search, and checks
    now and then that the camera has not crept away under them (a slow turn or zoom can
    leave the board read the same). A search would only place the ring again within its
    own fit error; this check costs a fraction of it on the small grab around the plates.
    """
    wanted = _ring_indices(cells)
    if len(wanted) < _MIN_FOLLOWED:
        return False
    blobs = _gold_blobs(frame, 1, split=False)
    if len(blobs.areas) < len(wanted):
        return False
    at = geometry.to_image(_RING)
    spacing = _top_row_spacing(at)
    d = np.hypot(*(at[wanted][:, None, :] - blobs.centres[None, :, :]).transpose(2, 0, 1))
    nearest, residual = d.argmin(axis=1), d.min(axis=1)
    if len(set(nearest.tolist())) < len(wanted):
        return False
    others = np.zeros(len(_RING), bool)
    others[wanted] = True
    areas = np.zeros(len(_RING))
    areas[wanted] = blobs.areas[nearest]
    usual = _usual_size(areas, geometry.homography, others)[wanted]
    return bool(np.all(residual <= tolerance * spacing) and np.all(usual))


def _placed(
    homography: np.ndarray | None, blobs: _Blobs, diamonds: np.ndarray
) -> tuple[np.ndarray, frozenset[int]] | None:
    """A followed ring checked on the picture: at least four diamonds within the match
    tolerance of their plates, fitted as tightly as a fresh search's, and a view a camera
    without roll gives. Returns the homography and the matched blobs."""
    if homography is None or roll_skew(homography) > MAX_ROLL_SKEW:
        return None
    at = cv2.perspectiveTransform(_RING.reshape(-1, 1, 2), homography).reshape(-1, 2)
    spacing = _top_row_spacing(at)
    pts = blobs.centres[diamonds]
    d = np.hypot(*(at[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    nearest, residual = d.argmin(axis=1), d.min(axis=1)
    ok = residual <= _MATCH_TOLERANCE * spacing
    if ok.sum() < _MIN_FOLLOWED or len(set(nearest[ok].tolist())) < int(ok.sum()):
        return None
    # a diamond partly under a player (odd-sized for the floor, its centroid off centre)
    # is no member: its plate is not read, as a fresh search leaves it unmatched
    odd_size = ~_usual_size(blobs.areas[diamonds][nearest], homography, ok)
    ok &= ~(odd_size & (residual > _HIDDEN_SHIFT * spacing))
    if ok.sum() < _MIN_FOLLOWED:
        return None
    if float(np.sqrt(np.mean(residual[ok] ** 2))) / spacing > _MAX_FIT_ERROR:
        return None
    return homography, frozenset(int(i) for i in diamonds[nearest[ok]])


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


def _gold_blobs(frame: np.ndarray, factor: int, *, split: bool = True,
                cut_strokes: bool = False) -> _Blobs:
    """Gold blobs that could be diamonds. ``split``: also the bright parts of two-tone
    blobs (:func:`_bright_parts`), for searches, where the lattice picks what fits; not
    for checks that one place shows a *whole* diamond, which a bright part of a figure
    over the plate must not pass. ``cut_strokes``: also the diamonds a weapon's thin
    stroke joins to others (:func:`_cut_strokes`), for a fresh search only: a follow
    matches blobs to the last view's places, where the pieces of a cut figure could
    match a place its diamond does not."""
    height, width = frame.shape[:2]
    if factor > 1:
        # resize all channels (a BGRA frame from mss is contiguous; its BGR view is not,
        # and OpenCV would copy it first), then drop alpha from the small copy
        small = cv2.resize(frame, (width // factor, height // factor),
                           interpolation=cv2.INTER_AREA)
        small = np.ascontiguousarray(small[..., :3])
    else:
        small = np.ascontiguousarray(frame[..., :3])
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    mask = cv2.inRange(hsv, (9, 95, 35), (40, 255, 255))
    # outer boundaries at every depth: a diamond inside a gold overlay ring is still found
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    outer: list[tuple[np.ndarray, float]] = []
    if hierarchy is not None:
        links = hierarchy[0]
        holes = np.zeros(len(contours))
        for index, link in enumerate(links):
            if link[3] >= 0:  # a hole: count its area against its component
                holes[link[3]] += cv2.contourArea(contours[index])
        outer = [(contours[i], holes[i]) for i in range(len(contours)) if links[i][3] < 0]
    limits = (_DIAMOND_AREA * 25**2 * 0.25 / factor**2, _DIAMOND_AREA * 150**2 * 2.0 / factor**2)
    found: list[tuple[float, float, float, float]] = []
    cut = 0
    for contour, hole_area in outer:
        blob = _diamond_blob(contour, hole_area, mask, limits)
        parts = _bright_parts(contour, mask, hsv[..., 2], limits) if split else []
        if cut_strokes and (blob is None or blob[3] < _CUT_BELOW_SOLIDITY):
            pieces = _parts_without_strokes(contour, mask, limits, hsv[..., 2])
            cut += len(pieces)
            parts = parts + pieces
        if blob is not None:
            found.append(blob)
            # a diamond joined to a figure can still be compact: its bright part, well
            # off the blob's centre, is a candidate too, and the lattice picks what fits
            # (a lit diamond's brighter middle sits on its centre: no new candidate)
            parts = [part for part in parts if part[2] < 0.7 * blob[2]
                     and math.hypot(part[0] - blob[0], part[1] - blob[1])
                     > 0.5 * math.sqrt(part[2])]
        found.extend(parts)
    centres = [((cx + 0.5) * factor - 0.5, (cy + 0.5) * factor - 0.5)
               for cx, cy, _a, _s in found]
    areas = [area * factor**2 for _x, _y, area, _s in found]
    solidity = [value for _x, _y, _a, value in found]
    if len(areas) > _MAX_CANDIDATES:
        keep = np.argsort(areas)[::-1][:_MAX_CANDIDATES]
        centres = [centres[i] for i in keep]
        areas = [areas[i] for i in keep]
        solidity = [solidity[i] for i in keep]
    return _Blobs(np.array(centres, np.float64).reshape(-1, 2), np.array(areas, np.float64),
                  np.array(solidity, np.float64), cut)


def _diamond_blob(
    contour: np.ndarray, hole_area: float, mask: np.ndarray, limits: tuple[float, float]
) -> tuple[float, float, float, float] | None:
    """(x, y, pixel area, solidity) of a compact, solid gold blob of a diamond's possible
    size, or None for anything else (text strokes, lines, overlay rings, letters)."""
    min_area, max_area = limits
    if len(contour) < 3:
        return None
    _x, _y, w, h = cv2.boundingRect(contour)
    box = w * h
    if box < min_area * 0.8 or box > max_area * 2.5:
        return None
    m = cv2.moments(contour)
    area = max(m["m00"], 0.0) + 0.5 * cv2.arcLength(contour, True)  # pixel count
    if not min_area <= area <= max_area:
        return None
    elongation = max(w, h) / max(min(w, h), 1)
    if area < 0.3 * box or elongation > _MAX_ELONGATION:
        return None  # not compact: text strokes, lines, rings
    if m["m00"] <= 0 or hole_area > 0.2 * m["m00"]:
        return None  # a ring (an overlay mark around a plate), not a diamond
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    if mask[min(int(cy + 0.5), mask.shape[0] - 1), min(int(cx + 0.5), mask.shape[1] - 1)] == 0:
        return None  # hollow: an overlay ring or a letter, not a diamond
    hull = cv2.contourArea(cv2.convexHull(contour))
    solidity = float(m["m00"] / hull) if hull > 0 else 1.0
    if elongation > _COMPACT_ELONGATION and (h > w or solidity < _SQUEEZED_SOLIDITY):
        return None  # a squeezed diamond is flat (the camera never rolls) and convex
    return cx, cy, area, solidity


# A gold blob that is no diamond may be one joined to a figure's brown or ochre clothes
# beside it (a team-mate standing next to a plate, seen from a steep camera): the diamond is
# the bright part. Split only blobs whose bright and dark parts differ this much (8-bit V).
_TWO_TONE = 60


def _bright_parts(
    contour: np.ndarray, mask: np.ndarray, value: np.ndarray, limits: tuple[float, float],
    *, cut_strokes: bool = False,
) -> list[tuple[float, float, float, float]]:
    """The diamond-like blobs among the bright part of a two-tone gold blob (``cut_strokes``:
    only those left when thin strokes are cut away from that part)."""
    x, y, w, h = cv2.boundingRect(contour)
    if w * h < limits[0] * 2 or w * h > limits[1] * 10:
        return []
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [contour], -1, 255, thickness=-1, offset=(-x, -y))
    inside &= mask[y:y + h, x:x + w]
    values = value[y:y + h, x:x + w][inside > 0]
    if len(values) < 8:
        return []
    level, _ = cv2.threshold(values.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright_values, dark_values = values[values > level], values[values <= level]
    if not len(bright_values) or not len(dark_values) or (
            bright_values.mean() - dark_values.mean() < _TWO_TONE):
        return []
    bright = np.where(value[y:y + h, x:x + w] > level, inside, 0).astype(np.uint8)
    parts, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if cut_strokes:  # the bright part may be diamonds joined by a bright weapon
        return [(bx + x, by + y, area, solidity)
                for bx, by, area, solidity in _cut_strokes(bright, limits)]
    found = []
    for part in parts:
        blob = _diamond_blob(part, 0.0, bright, limits)
        if blob is not None:
            found.append((blob[0] + x, blob[1] + y, blob[2], blob[3]))
    return found


# A team-mate's gold weapon or staff crossing two diamonds joins them into one blob that is
# neither compact nor solid: morphological openings this many pixels across cut such thin
# strokes away (the weapon is about 0.03 of a spacing wide, a diamond 0.33 across), and the
# diamonds left are candidates too. Only blobs less solid than this are cut (a whole
# diamond's solidity is 0.85 or more, even far and squeezed).
_STROKE_CUTS = (3, 5)
_CUT_BELOW_SOLIDITY = 0.8
_CUT_FROM_LARGER = 1.5  # a piece's shape before the cut is this much larger, or more
_MOST_PIECES = 4  # pieces of one blob, the largest (a staff across two plates: two)


def _parts_without_strokes(
    contour: np.ndarray, mask: np.ndarray, limits: tuple[float, float], value: np.ndarray
) -> list[tuple[float, float, float, float]]:
    """The diamond-like blobs left when thin strokes are opened away from a gold blob, or
    from its bright part (a bright weapon across diamonds joined to a darker body)."""
    x, y, w, h = cv2.boundingRect(contour)
    if w * h < limits[0] * 2 or w * h > limits[1] * 10:
        return []  # too small to hold two diamonds, or a panel, not a figure
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [contour], -1, 255, thickness=-1, offset=(-x, -y))
    inside &= mask[y:y + h, x:x + w]
    pieces = [(bx + x, by + y, area, solidity)
              for bx, by, area, solidity in _cut_strokes(inside, limits)]
    pieces += _bright_parts(contour, mask, value, limits, cut_strokes=True)
    # a weapon joins a few diamonds, and the bits of clothes cut off with them are smaller
    return sorted(pieces, key=lambda piece: piece[2], reverse=True)[:_MOST_PIECES]


def _cut_strokes(inside: np.ndarray, limits: tuple[float, float]
                 ) -> list[tuple[float, float, float, float]]:
    """Diamond-like blobs (in ``inside``'s pixels) that openings of :data:`_STROKE_CUTS`
    part from the shapes joined to them: a piece counts only where the shape it was cut
    from is far larger (a lone diamond, opened, is itself again and no new candidate)."""
    _count, labels, stats, _centres = cv2.connectedComponentsWithStats(inside, connectivity=8)
    found: list[tuple[float, float, float, float]] = []
    for size in _STROKE_CUTS:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        opened = cv2.morphologyEx(inside, cv2.MORPH_OPEN, kernel)
        parts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for part in parts:
            blob = _diamond_blob(part, 0.0, opened, limits)
            if blob is None:
                continue
            x, y, area, _solidity = blob
            shape = labels[min(int(y + 0.5), labels.shape[0] - 1),
                           min(int(x + 0.5), labels.shape[1] - 1)]
            if stats[shape, cv2.CC_STAT_AREA] < _CUT_FROM_LARGER * area:
                continue  # not cut from anything: the shape is this diamond
            if all(math.hypot(x - fx, y - fy) > 0.5 * math.sqrt(area)
                   for fx, fy, _a, _s in found):
                found.append(blob)
    return found


# How far from a corner the two blobs spanning the first guess are, in plate spacings:
# the neighbours along the row and the column, or (when one of those is hidden) the far
# corner along it.
_NEAR_SPANS = ((1, 1),)
# per ring plate (row-major): how much more the first guess may miss it, growing with its
# distance from the corner the guess starts at
_FAR_SLACK = 1 + 0.35 * np.maximum(0, _RING.sum(axis=1) - 1)
_FAR_SPANS = ((2, 1), (1, 2), (2, 2))


def _ring_hypotheses(
    blobs: _Blobs, spans: tuple[tuple[int, int], ...], needed: int,
) -> list[tuple[float, np.ndarray, frozenset[int], bool]]:
    """Candidate rings as (score, homography grid->image, matched blob indices, a
    diamond-sized blob in the middle), best first."""
    pts, areas = blobs.centres, blobs.areas
    n = len(pts)
    spacing_guess = np.sqrt(areas / _DIAMOND_AREA)
    diff = pts[None, :, :] - pts[:, None, :]
    dist = np.hypot(diff[..., 0], diff[..., 1])
    ratio = areas[None, :] / areas[:, None]
    alike = (ratio > 1 / _SIZE_SPREAD) & (ratio < _SIZE_SPREAD)
    np.fill_diagonal(alike, False)

    def plausible(span: int) -> np.ndarray:
        return (alike & (dist >= 0.45 * span * spacing_guess[:, None])
                & (dist <= 1.9 * span * spacing_guess[:, None]))

    within = {span: plausible(span) for span in {s for pair in spans for s in pair}}
    results: list[tuple[float, np.ndarray, frozenset[int], bool]] = []
    alternatives: dict[frozenset[int], tuple[float, np.ndarray, frozenset[int], bool]] = {}
    seen: set[frozenset[int]] = set()
    tried: set[frozenset[int]] = set()
    relabelled: list[tuple[float, np.ndarray, frozenset[int], bool]] = []
    a_coef = _RING[:, 0][None, :, None]
    b_coef = _RING[:, 1][None, :, None]
    for i, (span1, span2) in ((i, pair) for i in range(n) for pair in spans):
        first = np.flatnonzero(within[span1][i])
        second = np.flatnonzero(within[span2][i])
        if len(first) < 1 or len(second) < 1 or len(np.union1d(first, second)) < 2:
            continue
        first = first[np.argsort(dist[i, first])][:_NEIGHBOURS]
        second = second[np.argsort(dist[i, second])][:_NEIGHBOURS]
        jj, kk = np.meshgrid(first, second, indexing="ij")
        jj, kk = jj.ravel(), kk.ravel()
        e1 = (pts[jj] - pts[i]) / span1
        e2 = (pts[kk] - pts[i]) / span2
        l1 = np.hypot(*e1.T)
        l2 = np.hypot(*e2.T)
        cross = e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0]
        with np.errstate(divide="ignore", invalid="ignore"):
            good = (
                (cross > 0) & (cross / (l1 * l2) >= 0.55)
                & (l1 / l2 > _MIN_AXIS_RATIO) & (l1 / l2 < 1 / _MIN_AXIS_RATIO)
            )
        if not good.any():
            continue
        e1, e2, l1, l2 = e1[good], e2[good], l1[good], l2[good]
        predicted = pts[i] + a_coef * e1[:, None, :] + b_coef * e2[:, None, :]  # (P, 8, 2)
        d = np.hypot(*(predicted[:, :, None, :] - pts[None, None, :, :]).transpose(3, 0, 1, 2))
        nearest = np.argmin(d, axis=2)
        best = np.take_along_axis(d, nearest[..., None], axis=2)[..., 0]
        # foreshortened axes: their mean scale; farther from the spanning blobs, a steep
        # perspective bends the lattice away from the affine guess
        tol = _FIRST_TOLERANCE * np.sqrt(l1 * l2)[:, None] * _FAR_SLACK[None, :]
        ok = best <= tol
        for p in np.flatnonzero(ok.sum(axis=1) >= needed - 1):
            matches = frozenset(nearest[p][ok[p]].tolist())
            if matches in tried:
                continue  # the same blobs from another corner or direction
            spacing = 0.5 * (l1[p] + l2[p])
            found = _refine(pts, areas, ok[p], nearest[p], spacing, needed)
            if found is _SKEWED:
                continue  # a sheared lattice: the same blobs may still fit the ring itself
            tried.add(matches)
            if found is None:
                continue
            if found[2] not in seen:
                seen.add(found[2])
                results.append(found)
                if needed < MIN_DIAMONDS and len(found[2]) == needed:
                    relabelled.extend(_relabelled_five(pts, areas, found))
            for other in _tight_alternatives(pts, areas, ok[p], nearest[p], spacing, needed,
                                             found):
                alternatives.setdefault(other[2], other)
    # the tight cores of loose fits come after every first fit (one found from another
    # corner as a first fit is one): they are the search's second thoughts, for when the
    # checks on the picture turn all of those down
    results.sort(key=lambda item: -item[0])
    second = sorted((item for members, item in alternatives.items() if members not in seen),
                    key=lambda item: -item[0])
    # the same five diamonds as other places of another ring, last: for when the checks
    # turn down the ring the fit labelled them on
    return results + second + relabelled


def _relabelled_five(pts: np.ndarray, areas: np.ndarray,
                     found: tuple[float, np.ndarray, frozenset[int], bool]
                     ) -> list[tuple[float, np.ndarray, frozenset[int], bool]]:
    """The other rings through a five-diamond fit's diamonds, as hypotheses.

    Why: five diamonds fit more than one ring exactly. With a side of the ring hidden
    (a body over it at a steep camera), the five left (a corner, its two neighbours and
    the two beyond them) are also the corners and one edge plate of a ring half as wide,
    and the fit may label them so; that ring's other places lie on the floor, its frames
    are turned down, and the ring itself was never tried (a player in gold at 68
    degrees over the right side)."""
    score, homography, members, _middle = found
    ring_image = cv2.perspectiveTransform(_RING.reshape(-1, 1, 2), homography).reshape(-1, 2)
    member_list = np.array(sorted(members))
    places = frozenset(int(np.argmin(np.hypot(*(ring_image - pts[m]).T))) for m in member_list)
    if len(places) != len(member_list):
        return []  # two diamonds at one place: no five places to relabel
    out = []
    for relabel in _five_relabellings(places):
        moved = homography @ relabel
        spacing = _top_row_spacing(
            cv2.perspectiveTransform(_RING.reshape(-1, 1, 2), moved).reshape(-1, 2))
        out.append((score, moved, members,
                    _blob_in_middle(pts, areas, member_list, moved, spacing)))
    return out


@functools.cache
def _five_relabellings(places: frozenset[int]) -> tuple[np.ndarray, ...]:
    """For five ring places (row-major indices of :data:`_RING`): the affine maps from
    another ring's grid to this one's that put five of that ring's places on these, one
    per lattice (the ring's own turns and mirrors are one lattice)."""
    chosen = _RING[sorted(places)]
    homogeneous = np.column_stack([chosen, np.ones(len(chosen))])
    ring = {tuple(p) for p in _RING.tolist()}
    # three of the five not on one line fix the map (five ring places always hold three)
    base = next(list(trio) for trio in itertools.combinations(range(5), 3)
                if abs(np.linalg.det(homogeneous[list(trio)])) > 1e-9)
    lattices: dict[frozenset, np.ndarray] = {}
    for image in itertools.permutations(_RING.tolist(), 3):
        forward = np.linalg.solve(homogeneous[base], np.array(image))
        mapped = homogeneous @ forward
        if np.abs(mapped - np.rint(mapped)).max() > 1e-9:
            continue
        targets = {tuple(p) for p in np.rint(mapped).tolist()}
        if len(targets) != 5 or not targets <= ring:
            continue
        to_other = np.vstack([forward.T, [0, 0, 1]])  # this grid -> the other ring's
        if abs(np.linalg.det(to_other)) < 1e-9:
            continue
        relabel = np.linalg.inv(to_other)  # the other ring's grid -> this one's
        key = frozenset(tuple(np.round(p, 6)) for p in
                        (np.column_stack([_RING, np.ones(8)]) @ relabel.T)[:, :2].tolist())
        if key == frozenset(ring):
            continue  # the same ring, turned or mirrored
        lattices.setdefault(key, relabel)
    return tuple(lattices.values())


def _tight_alternatives(
    pts: np.ndarray, areas: np.ndarray, ok: np.ndarray, nearest: np.ndarray, spacing: float,
    needed: int, found: tuple[float, np.ndarray, frozenset[int], bool],
) -> list[tuple[float, np.ndarray, frozenset[int], bool]]:
    """Other rings through a first match whose refined fit (``found``) came out loose:
    each way of leaving one or two of its blobs out that the rest fit exactly (a
    perspective view of the floor fits to :data:`EXACT_RING_FIT`), refined from there.

    Why: at a far zoom two figures' blobs can lie within the first guess's tolerance of
    two places: a player's legs merged with his plate's diamond, and his head where the
    plate behind him would be. The fit through all eight leans on them, the sound
    diamonds beside them come out as the worst and are dropped, and the search ends on a
    loose six that the frame check turns down, while the six sound diamonds fit to 0.004
    (a walk-through at a far zoom and 60 degrees). Refining only from tight cores, each
    a hypothesis of its own, leaves the choice to the checks on the picture.

    A core whose own fit puts every blob left out within :data:`_OUTLIER` of its place
    is not refined: the refining would take them all back and start again from the
    first match. Evenly noisy blobs make many such cores: in the demo room, where the
    capture holds the overlay's own marks around plates the camera has moved, refining
    them all made each search there half as long again, and none of them new."""
    if _score_error(found) <= EXACT_RING_FIT or int(ok.sum()) <= needed:
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
        if error > EXACT_RING_FIT * _QUICK_FIT_MARGIN or off <= _OUTLIER / _QUICK_FIT_MARGIN:
            continue  # not exact, or its fit takes back every blob left out
        core = ok.copy()
        core[list(left_out)] = False
        homography = _fit(pts, core, nearest)
        if homography is None or (_fit_error(pts, core, nearest, homography) / spacing
                                  > EXACT_RING_FIT):
            continue
        places = cv2.perspectiveTransform(_RING[list(left_out)].reshape(-1, 1, 2),
                                          homography).reshape(-1, 2)
        if np.all(np.hypot(*(places - pts[nearest[list(left_out)]]).T) <= _OUTLIER * spacing):
            continue  # the core's fit takes them all back
        again = _refine(pts, areas, core, nearest, spacing, needed)
        if isinstance(again, tuple) and again[2] != found[2] \
                and _score_error(again) <= EXACT_RING_FIT:
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
    grid = _RING - 1.0  # the ring's own middle at the origin
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


def _score_error(found: tuple[float, np.ndarray, frozenset[int], bool]) -> float:
    """The fit error (of the spacing) behind a refined hypothesis's score."""
    score, _homography, members, _middle = found
    return (len(members) - score) / _ERROR_WEIGHT


def _checked_fit(pts, areas, ok, nearest, needed):
    """Drop odd-sized matches, require enough distinct ones, and fit: ``(ok, homography)``,
    the homography None when the matches cannot make a ring."""
    ok = ok & _similar_size(areas[nearest], ok)
    if ok.sum() < needed or len(set(nearest[ok].tolist())) < int(ok.sum()):
        return ok, None
    return ok, _fit(pts, ok, nearest)


def _refine(
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
        predicted = cv2.perspectiveTransform(_RING.reshape(-1, 1, 2), homography).reshape(-1, 2)
        d = np.hypot(*(predicted[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
        nearest = np.argmin(d, axis=1)
        residual = d[np.arange(8), nearest]
        ok = residual <= _MATCH_TOLERANCE * spacing
        worst = int(np.argmax(np.where(ok, residual, -1.0)))
        if ok.sum() > needed and residual[worst] > _OUTLIER * spacing:
            ok[worst] = False  # refit without the worst point
    ok, homography = _checked_fit(pts, areas, ok, nearest, needed)
    if homography is None:
        return None
    # a diamond partly hidden by a player, or merged with his gold-ish skin, has an odd size
    # and its centroid off centre: refit without such blobs, the worst first (its pull
    # bends the fit into a false perspective that makes sound diamonds look odd-sized)
    while (ok.sum() > needed
           and (worst := _worst_covered(pts, areas, ok, nearest, homography, spacing)) >= 0):
        ok = ok.copy()
        ok[worst] = False
        homography = _fit(pts, ok, nearest)
        if homography is None:
            return None
    ok, nearest, homography = _swapped_for_sound(pts, areas, ok, nearest, homography, spacing)
    ok, homography, error = _without_one_loosening(pts, ok, nearest, homography, spacing,
                                                   needed)
    if error > _MAX_FIT_ERROR:
        return None
    middle_blob = _blob_in_middle(pts, areas, nearest[ok], homography, spacing)
    # the blobs must be diamond-sized for this lattice (rejects the tan plate corners and
    # other small repeated details that sit on a lattice of their own)
    quad = cv2.perspectiveTransform(
        np.array([[[0.5, 0.5]], [[1.5, 0.5]], [[1.5, 1.5]], [[0.5, 1.5]]]), homography
    ).reshape(-1, 2)
    xs, ys = quad[:, 0], quad[:, 1]
    cell_area = 0.5 * abs(float(np.dot(xs, np.roll(ys, 1)) - np.dot(ys, np.roll(xs, 1))))
    matched_areas = areas[nearest[ok]]
    size_ratio = _median(matched_areas) / (_DIAMOND_AREA * cell_area)
    if not 0.4 <= size_ratio <= 2.6:
        return None
    # a lattice of small details beside each plate (the tan corners of the plate tiles)
    # has a bigger blob, the diamond, right next to most of its points
    matched_pts = pts[nearest[ok]]
    d = np.hypot(*(matched_pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    beside = (d > 0.05 * spacing) & (d < 0.4 * spacing)
    bigger = areas[None, :] > 1.5 * matched_areas[:, None]
    if int(np.sum(np.any(beside & bigger, axis=1))) >= 4:
        return None
    if roll_skew(homography) > MAX_ROLL_SKEW:
        return _SKEWED
    score = float(ok.sum()) - error * _ERROR_WEIGHT
    return score, homography, frozenset(int(x) for x in nearest[ok]), middle_blob


def _blob_in_middle(pts: np.ndarray, areas: np.ndarray, members: np.ndarray,
                    homography: np.ndarray, spacing: float) -> bool:
    """Is there a blob the size of the ring's diamonds in the lattice's middle? A ninth
    plate (another puzzle's 3x3 grid, checked by its frame in _locate_at), or a figure's
    head or gold clothes over the plain middle tile, which players cross all the time."""
    centre = cv2.perspectiveTransform(np.array([[[1.0, 1.0]]]), homography).reshape(2)
    median_area = _median(areas[members])
    diamond_like = (areas >= median_area / 2.5) & (areas <= median_area * 2.5)
    return bool(np.any(
        diamond_like & (np.hypot(*(pts - centre).T) <= _MATCH_TOLERANCE * spacing)))


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
    predicted = cv2.perspectiveTransform(_RING.reshape(-1, 1, 2), homography).reshape(-1, 2)
    d = np.hypot(*(predicted[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    closest = np.argmin(d, axis=1)
    usual = _usual_size(areas[closest], homography, ok)
    odd = np.flatnonzero(ok & ~_usual_size(areas[nearest], homography, ok))
    spare = np.flatnonzero(~ok & usual & (d[np.arange(8), closest] <= _MATCH_TOLERANCE * spacing)
                           & ~np.isin(closest, nearest[ok]))
    best = (_fit_error(pts, ok, nearest, homography), ok, nearest, homography)
    for out in odd:
        for into in spare:
            trial, matched = ok.copy(), nearest.copy()
            trial[out], trial[into], matched[into] = False, True, closest[into]
            fitted = _fit(pts, trial, matched)
            if fitted is not None and (error := _fit_error(pts, trial, matched,
                                                           fitted)) < best[0]:
                best = (error, trial, matched, fitted)
    return best[1], best[2], best[3]


def _without_one_loosening(
    pts: np.ndarray, ok: np.ndarray, nearest: np.ndarray, homography: np.ndarray,
    spacing: float, needed: int,
) -> tuple[np.ndarray, np.ndarray, float]:
    """The fit, and its error (RMS, in spacings), without the one matched blob that alone
    makes it loose: when the fit is loose (:data:`LOOSE_FIT` of the spacing or more) and
    leaving one blob out fits the rest :data:`_FIT_LEAD` times more tightly, that blob is
    no diamond of the ring.

    Why: the ring's own diamonds fit a homography to 0.002-0.01 of the spacing, a
    perspective view of the floor being exact. At the way in, a player's gold-lit body
    beside the corner plate he half covers made a blob of a diamond's size 12 pixels off
    it; the fit through all eight ran to 0.040 (0.006 without it), bent the corner's two
    neighbours off their diamonds, and the frame went blank as "a corner plate and both
    its neighbours are covered" (a walk-through at 56°, 125% display scaling). The odd
    size and off-centre checks above do not see such a blob: it is of the usual size."""
    error = _fit_error(pts, ok, nearest, homography) / spacing
    if int(ok.sum()) <= needed or error < LOOSE_FIT:
        return ok, homography, error
    best: tuple[float, np.ndarray, np.ndarray] | None = None
    for index in np.flatnonzero(ok):
        trial = ok.copy()
        trial[index] = False
        fitted = _fit(pts, trial, nearest)
        if fitted is None:
            continue
        trial_error = _fit_error(pts, trial, nearest, fitted) / spacing
        if best is None or trial_error < best[0]:
            best = (trial_error, trial, fitted)
    if best is not None and best[0] * _FIT_LEAD <= error:
        return best[1], best[2], best[0]
    return ok, homography, error


def _fit_error(pts: np.ndarray, ok: np.ndarray, nearest: np.ndarray,
               homography: np.ndarray) -> float:
    """RMS distance (pixels) of the matched points from the fit's places."""
    fitted = cv2.perspectiveTransform(_RING[ok].reshape(-1, 1, 2), homography).reshape(-1, 2)
    return float(np.sqrt(np.mean(np.sum((fitted - pts[nearest[ok]]) ** 2, axis=1))))


#: What :func:`_refine` returns for a fit no camera could see (see :data:`MAX_ROLL_SKEW`).
_SKEWED = object()


def _worst_covered(
    pts: np.ndarray, areas: np.ndarray, ok: np.ndarray, nearest: np.ndarray,
    homography: np.ndarray, spacing: float,
) -> int:
    """The matched ring place whose blob is most off its place among those both off
    centre and odd-sized for the floor (a diamond partly covered), or -1 when none is."""
    predicted = cv2.perspectiveTransform(_RING.reshape(-1, 1, 2), homography).reshape(-1, 2)
    residual = np.hypot(*(predicted - pts[nearest]).T)
    odd_size = ~_usual_size(areas[nearest], homography, ok)
    # (off centre by more than a small blob's own noise: CENTROID_NOISE_PX)
    covered = ok & (residual > max(_HIDDEN_SHIFT * spacing, CENTROID_NOISE_PX)) & odd_size
    if not covered.any():
        return -1
    return int(np.argmax(np.where(covered, residual, -1.0)))


def _usual_size(areas: np.ndarray, homography: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Per ring place, whether its blob's area (``areas``, one per place) is within
    :data:`_ODD_SIZE` of the ``reference`` places' median, compared on the floor: a steep
    view shows far diamonds smaller, which is no sign of cover."""
    on_floor = areas / _area_scale(homography, _RING)
    size = on_floor / _median(on_floor[reference])
    # a small blob's area is only as sure as its outline: a pixel of it either way is a
    # share of the area that grows as the blob shrinks (compression moves more)
    odd = max(_ODD_SIZE, 1.0 + _AREA_NOISE / math.sqrt(max(_median(areas[reference]), 1.0)))
    return (size >= 1 / odd) & (size <= odd)


def _area_scale(homography: np.ndarray, grid_points: np.ndarray) -> np.ndarray:
    """Image area per unit of grid area at each grid point (the Jacobian determinant)."""
    w = np.column_stack([grid_points, np.ones(len(grid_points))]) @ homography[2]
    return abs(float(np.linalg.det(homography))) / np.maximum(np.abs(w), 1e-12) ** 3


def _similar_size(areas: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """Which matched blobs are within a factor 2.5 of the median matched size."""
    if not ok.any():
        return ok
    median = _median(areas[ok])
    return (areas >= median / _SIZE_SPREAD) & (areas <= median * _SIZE_SPREAD)


def _median(values: np.ndarray) -> float:
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


def _fit(pts: np.ndarray, ok: np.ndarray, nearest: np.ndarray) -> np.ndarray | None:
    src = _RING[ok].astype(np.float32)
    dst = pts[nearest[ok]].astype(np.float32)
    homography, _ = cv2.findHomography(src, dst, 0)
    return None if homography is None else homography.astype(np.float64)


def _sample(bgr: np.ndarray, homography: np.ndarray, grid_points: np.ndarray) -> np.ndarray:
    pts = cv2.perspectiveTransform(grid_points.reshape(-1, 1, 2), homography).reshape(-1, 2)
    return pixels_at(bgr, pts)


def _frame_points() -> np.ndarray:
    """Points on the purple frame near the diagonals, where neither the diamond's bevel
    nor overlay marks (outside radius 0.19) reach: 4 sides x 4 directions x 3 depths
    (|u| + |v| = 0.205, 0.225, 0.245), as the band is only a pixel or two wide when the
    plates are small. Flattened side-major, then direction, then depth."""
    share = np.array([0.31, 0.42, 0.58, 0.69])  # position along the side, of |u| + |v|
    depth = np.array([0.205, 0.225, 0.245])
    u = share[:, None] * depth[None, :]
    v = (1 - share[:, None]) * depth[None, :]
    quarter = np.stack([u, v], axis=-1)  # (directions, depths, 2)
    signs = np.array([(1, 1), (1, -1), (-1, 1), (-1, -1)], np.float64)
    return (quarter[None] * signs[:, None, None, :]).reshape(-1, 2)


_FRAME_POINTS = _frame_points()
# ... at every ring plate, plate-major (as _side_purpleness reads them)
_RING_FRAME_POINTS = (_RING[:, None, :] + _FRAME_POINTS[None, :, :]).reshape(-1, 2)
# Floor tiles between the plates and in the middle of the ring.
_FLOOR_POINTS = np.array(
    [(0.5, 0), (1.5, 0), (0, 0.5), (2, 0.5), (0, 1.5), (2, 1.5), (0.5, 2), (1.5, 2),
     (1, 1), (0.8, 0.8), (1.2, 1.2)],
    np.float64,
)


# Around each floor point, four more a little way off along the grid's axes: a point can
# fall on the dark joint between two floor tiles (the real floor's, seen small or steep),
# which says nothing of whether the floor is even; the median of the five does not.
_FLOOR_PATCH = np.array([(0, 0), (0.07, 0), (-0.07, 0), (0, 0.07), (0, -0.07)], np.float64)


def _floor_samples(bgr: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """(floor points, 3): per floor point, the per-channel median of its patch."""
    points = (_FLOOR_POINTS[:, None, :] + _FLOOR_PATCH[None, :, :]).reshape(-1, 2)
    patches = _sample(bgr, homography, points).reshape(len(_FLOOR_POINTS), len(_FLOOR_PATCH), 3)
    return np.median(patches, axis=1)


def _purpleness(bgr_points: np.ndarray) -> np.ndarray:
    return np.minimum(bgr_points[:, 0], bgr_points[:, 2]) - bgr_points[:, 1]


def _side_purpleness(frame_bgr: np.ndarray) -> np.ndarray:
    """(8, 4 sides, 4 directions): the most purple of the three depths sampled."""
    return _purpleness(frame_bgr).reshape(8, 4, 4, 3).max(axis=3)


def _purple_sides(bgr: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """Per ring plate, how many sides of its frame are purpler than the floor between."""
    floor = float(np.median(_purpleness(_sample(bgr, homography, _FLOOR_POINTS))))
    return _sides_purpler_than(_side_purpleness(_sample(bgr, homography, _RING_FRAME_POINTS)),
                               floor)


def _sides_purpler_than(frames: np.ndarray, floor: float) -> np.ndarray:
    """Per plate, the sides (of :func:`_side_purpleness`) purpler than ``floor`` by
    :data:`_PURPLE_MARGIN`."""
    return np.sum(np.median(frames, axis=2) - floor >= _PURPLE_MARGIN, axis=1)


def _frames_are_purple(bgr: np.ndarray, homography: np.ndarray) -> bool:
    """Do the diamonds sit in purple frames? Clean frames show it in the colour on (nearly)
    all four sides of each diamond. JPEG smears colour away at small scales, so a frame
    clearly darker than the floor around it, and not much less purple, counts too (the
    inventory's gold items fail this: their slots are no darker than between the slots)."""
    floor_bgr = _floor_samples(bgr, homography)
    floor_luma = floor_bgr @ LUMA_BGR
    even = _even_floor_points(floor_luma)
    frame_bgr = _sample(bgr, homography, _RING_FRAME_POINTS)
    frames = _side_purpleness(frame_bgr)
    if int(even.sum()) < len(_FLOOR_POINTS) - _UNEVEN_FLOOR_POINTS:
        # between real plates lies an even floor, not a textured background, unless
        # bodies stand on it: then only frames on nearly every plate will do, measured
        # against the most purple quarter of what covers the floor (a body's clothes
        # must not lower the bar)
        sides = _sides_beside_bodies(floor_bgr, frames)
        return sides is not None and _framed_enough(sides, _FRAMED_PLATES_BESIDE_BODIES)
    floor = float(np.median(_purpleness(floor_bgr)))
    if _framed_enough(_sides_purpler_than(frames, floor), _MIN_PURPLE_PLATES):
        return True
    frame_luma = (frame_bgr @ LUMA_BGR).reshape(8, -1).mean(axis=1)
    darker = frame_luma <= float(np.median(floor_luma)) * (1 - _DARKER_FRAME)
    purple_enough = frames.reshape(8, -1).mean(axis=1) >= floor - 2 * _PURPLE_MARGIN
    return int(np.sum(darker & purple_enough)) >= _MIN_PURPLE_PLATES


def _framed_enough(purple_sides: np.ndarray, plates: int) -> bool:
    """``plates`` plates show purple on three sides or more; or, as a steep camera
    squeezes the band on the far and near sides to a pixel (and display scaling blurs
    that pixel into the floor), on two sides, as long as all but two of them still show
    three."""
    return bool(int(np.sum(purple_sides >= 3)) >= plates
                or (int(np.sum(purple_sides >= 2)) >= plates
                    and int(np.sum(purple_sides >= 3)) >= plates - 2))


def _frames_too_thin(homography: np.ndarray) -> bool:
    """Is the plates' frame band too thin in this picture to show its colour? At a steep
    camera and a small scale the far and near sides are a pixel or two deep, and a
    client stretched by display scaling blurs them into the floor and the diamond.

    The depth that shows is across the side on screen, not along the floor's axis: with
    the room's axes diagonal on screen a step across one side also runs along it, and a
    band that step's length deep (three pixels at 68°, 125% display scaling) is two and
    a half across."""
    depth = 0.5 * _FRAME_BAND
    steps = np.array([(0.0, 0.0), (depth, 0.0), (0.0, depth), (-depth, 0.0), (0.0, -depth)])
    points = (steps[:, None, :] + _RING[None, :, :]).reshape(-1, 1, 2)
    image = cv2.perspectiveTransform(points, homography).reshape(len(steps), len(_RING), 2)
    moved = image[1:] - image[0]  # (steps, plates, 2)
    along_x, along_y = (moved[0] - moved[2]) / 2, (moved[1] - moved[3]) / 2
    # a side along one axis is as deep on screen as the other axis's step across it:
    # the parallelogram's area over the side's length
    area = np.abs(along_x[:, 0] * along_y[:, 1] - along_x[:, 1] * along_y[:, 0])
    across = area / np.maximum(np.hypot(*along_x.T), np.hypot(*along_y.T))
    return float(np.median(2 * across)) < _THIN_FRAME_PX


def _framed_past_seeing(bgr: np.ndarray, homography: np.ndarray, members: int) -> bool:
    """Could a lattice through ``members`` diamonds whose frames do not show as purple
    still be the ring (its fit is then held to :data:`EXACT_RING_FIT`)? Over an even
    floor: six diamonds or more where the frames' band is too thin to show its colour,
    or seven or more where six places still show it on two sides (a steep camera squeezes
    the far and near sides to a pixel, which display scaling blurs away; left and right
    stay)."""
    # the band's thickness is the homography's alone: asked first, it spares sampling
    # the picture again for most lattices turned down here
    thin = members >= MIN_DIAMONDS and _frames_too_thin(homography)
    if not (thin or members >= _MEMBERS_PAST_SEEING):
        return False
    if not _floor_is_even(bgr, homography):
        return thin and members >= _MEMBERS_PAST_SEEING \
            and _thin_frames_beside_bodies(bgr, homography)
    return thin or int(np.sum(_purple_sides(bgr, homography) >= 2)) >= _MIN_PURPLE_PLATES


def _thin_frames_beside_bodies(bgr: np.ndarray, homography: np.ndarray) -> bool:
    """Where bodies stand on the floor between the plates and the band is too thin to
    show on the far and near sides: do the two sides that do show it (left and right)
    at :data:`_FRAMED_PLATES_BESIDE_BODIES` places, against the most purple quarter of
    what covers the floor, while the floor's own tiles still show as one even
    brightness at :data:`_EVEN_FLOOR_POINTS_BESIDE_FRAMES` points?

    Why: a session's first seconds with team-mates gathered in the ring at 64° and 150%
    display scaling show seven diamonds on an exact
    ring, purple on two sides of each, and were blank: the bodies made the floor
    uneven, and the band's squeezed sides kept it from three."""
    sides = _sides_beside_bodies(_floor_samples(bgr, homography),
                                 _side_purpleness(_sample(bgr, homography, _RING_FRAME_POINTS)))
    return sides is not None and int(np.sum(sides >= 2)) >= _FRAMED_PLATES_BESIDE_BODIES


def _sides_beside_bodies(floor_bgr: np.ndarray, frames: np.ndarray) -> np.ndarray | None:
    """Per plate, the sides of its frame (:func:`_side_purpleness`) purpler than the most
    purple quarter of what covers the floor (a body's clothes must not lower the bar);
    None unless the floor's own tiles still show one even brightness at
    :data:`_EVEN_FLOOR_POINTS_BESIDE_FRAMES` points."""
    if _largest_even_cluster(floor_bgr @ LUMA_BGR) < _EVEN_FLOOR_POINTS_BESIDE_FRAMES:
        return None
    return _sides_purpler_than(frames, float(np.percentile(_purpleness(floor_bgr), 75)))


def _floor_is_even(bgr: np.ndarray, homography: np.ndarray) -> bool:
    """Does the floor between the plates show one even brightness at all but a few of its
    points (a room's tiles, not the dark slots of the client's inventory)?"""
    even = _even_floor_points(_floor_samples(bgr, homography) @ LUMA_BGR)
    return int(even.sum()) >= len(_FLOOR_POINTS) - _UNEVEN_FLOOR_POINTS


def _even_floor_points(luma: np.ndarray) -> np.ndarray:
    """Per floor point: within :data:`_EVEN_FLOOR` of the points' median brightness?"""
    return np.abs(luma - np.median(luma)) <= _EVEN_FLOOR * max(float(np.median(luma)), 1.0)


def _largest_even_cluster(luma: np.ndarray) -> int:
    """The most floor points whose brightness is within :data:`_EVEN_FLOOR` of one of
    them: the floor's own tiles, whatever stands on the others."""
    tolerance = _EVEN_FLOOR * np.maximum(luma, 1.0)
    return int(np.max(np.sum(np.abs(luma[None, :] - luma[:, None]) <= tolerance[:, None],
                             axis=1)))


def plate_in_the_middle(frame: np.ndarray, geometry: GridGeometry) -> bool:
    """Does ``geometry``'s middle sit in a plate's purple frame? The ToA ring has no
    plate there: a ring placed one plate off has one (:func:`_middle_is_framed`)."""
    return _middle_is_framed(frame[..., :3], geometry.homography)


def _middle_is_framed(bgr: np.ndarray, homography: np.ndarray) -> bool:
    """Does the middle of the lattice sit in a purple frame like a plate's? (A figure
    standing there does not: its outline is not a diamond's frame on three sides.)"""
    def sides(points: np.ndarray) -> np.ndarray:  # per point, per side: frame purpleness
        frame = _purpleness(_sample(bgr, homography, (points[:, None] + _FRAME_POINTS)
                                    .reshape(-1, 2)))
        return np.median(frame.reshape(len(points), 4, 4, 3).max(axis=3), axis=2)

    floor = float(np.median(_purpleness(_sample(bgr, homography, _FLOOR_POINTS))))
    ring_sides = sides(_RING)
    # grey or dark clothes are more "purple" than a tan floor: compare with the plates'
    # own frames, half-way between the floor and them
    level = max(floor + _PURPLE_MARGIN, 0.5 * (floor + float(np.median(ring_sides))))
    # ... and a ninth plate shows its frame on as many sides as the ring's plates do, less
    # one: where they show all four, a body's grey torso over the middle tile shows two
    # (at 62° the player on the near middle plate reaches up over the middle tile)
    ring_framed = int(np.median(np.sum(ring_sides >= level, axis=1)))
    needed = max(2, ring_framed - 1)
    return int(np.sum(sides(np.array([[1.0, 1.0]]))[0] >= level)) >= needed


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


def _labelled_fit(homography: np.ndarray, blobs: _Blobs, members: frozenset[int]) -> RingFit:
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
    ring_image = geometry.to_image(_RING)
    member_pts = blobs.centres[sorted(members)]
    d = np.hypot(*(ring_image[:, None, :] - member_pts[None, :, :]).transpose(2, 0, 1))
    spacing = _top_row_spacing(ring_image)
    matched = tuple(bool(x) for x in d.min(axis=1) <= _MATCH_TOLERANCE * spacing)
    fitted = ring_image[np.array(matched)]
    closest = d[np.array(matched)].argmin(axis=1)
    nearest = member_pts[closest] if any(matched) else fitted
    error = float(np.sqrt(np.mean(np.sum((fitted - nearest) ** 2, axis=1)))) / spacing
    diamonds = np.full(ring_image.shape, np.nan)
    diamonds[np.array(matched)] = nearest
    areas = np.full(len(ring_image), np.nan)
    areas[np.array(matched)] = blobs.areas[sorted(members)][closest]
    return RingFit(geometry, matched, error, spacing, diamonds=diamonds, areas=areas)


# A ring placed by few diamonds is kept when, with each of their centres a pixel off
# (root sum of squares over them), none of the places they leave out moves by more than
# this share of its distance to the nearest place.
_UNSEEN_PLACE_SPREAD = 0.4


def _unseen_places_steady(points: np.ndarray, ok: np.ndarray,
                          geometry: GridGeometry) -> bool:
    """Do the places a homography fitted to ``points[ok]`` leaves out stay put when
    those points move by a pixel (:data:`_UNSEEN_PLACE_SPREAD`)? Five diamonds on two
    sides fix the corner between them as two vanishing points do, from three diamonds in
    a row each: at a steep camera and a far zoom, with plates 15 pixels apart across the
    view, a pixel moved that corner by 14 pixels, and it came 7 pixels off its plate
    (the overlay's mark missed it); 0.57 of the spacing put one 11 pixels off at a
    steep camera. Right placements of the walk-throughs moved by 0.12-0.15, and one by
    0.44, which is now left blank too: a blank frame, not a wrong one."""
    places = np.arange(len(_RING))
    base = geometry.to_image(_RING)
    apart = np.hypot(*(base[:, None, :] - base[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(apart, np.inf)
    spread = np.zeros(len(_RING))
    for index in np.flatnonzero(ok):
        for axis in (0, 1):
            moved_points = points.copy()
            moved_points[index, axis] += 1.0
            homography = _fit(moved_points, ok, places)
            if homography is None:
                return False
            moved = cv2.perspectiveTransform(_RING.reshape(-1, 1, 2), homography).reshape(-1, 2)
            spread += np.sum((moved - base) ** 2, axis=1)
    unseen = ~ok
    return bool(np.all(np.sqrt(spread[unseen]) <= _UNSEEN_PLACE_SPREAD * apart.min(axis=1)[unseen]))


def ring_placed_by(fit: RingFit, cells: list[tuple[int, int]]) -> RingFit | None:
    """The ring placed by the diamonds ``fit`` matched at ``cells`` ((row, column) ring
    places, five or more) alone, labelled as ``fit`` is; None unless every one of them
    was matched, they fit that ring exactly (:data:`EXACT_RING_FIT`) and place the others
    steadily (:func:`_unseen_places_steady`).

    Why: the blob of a plate someone stands on is pulled off its diamond by the body, and
    a ring fitted through it bends: the places beyond it, which no diamond checks, move
    most (a corner behind a covered neighbour came 12 pixels off at 150% display scaling,
    half the foreshortened spacing; the five diamonds read whole put it on its plate)."""
    if fit.diamonds is None:
        return None
    ok = np.array([cell in cells for cell in RING_CELLS])
    if ok.sum() < MIN_DIAMONDS_AFTER_LAST_VIEW or not np.array(fit.matched)[ok].all():
        return None
    places = np.arange(len(_RING))  # fit.diamonds holds each place's own blob
    homography = _fit(fit.diamonds, ok, places)
    if homography is None or abs(homography[2, 2]) < 1e-12:
        return None
    geometry = GridGeometry(3, 3, homography / homography[2, 2])
    spacing = _top_row_spacing(geometry.to_image(_RING))
    error = _fit_error(fit.diamonds, ok, places, homography) / spacing
    if not error <= EXACT_RING_FIT or not _unseen_places_steady(fit.diamonds, ok, geometry):
        return None
    diamonds = np.where(ok[:, None], fit.diamonds, np.nan)
    return RingFit(geometry, tuple(bool(m) for m in ok), error, spacing, diamonds=diamonds)


#: a ring through all but one matched blob is taken for one that blob bent when it fits
#: them this many times more tightly than the ring through all (bent_by_one_blob)
_BENT_LEAD = 2.0


def bent_by_one_blob(fit: RingFit) -> RingFit | None:
    """The ring the matched diamonds place without the one blob that alone loosened
    ``fit`` past an exact ring (:func:`ring_placed_by`: exact, the unseen places steady;
    that blob's place is not matched on it), or None. The tightest such ring is taken,
    and only when it fits at least :data:`_BENT_LEAD` times more tightly than ``fit``.

    Why: a team-mate's gold trousers over a plate at a steep camera make a blob of a
    diamond's size near it; the search matched it as that plate's diamond, and the ring
    fitted through all eight (0.020 of the spacing) put the places a few pixels off, so
    that five plates read as covered and a session's first frame went blank, while the
    next frame of the same view, the trousers left out, read right (the seven others
    fit to 0.006). Unlike :func:`pulled_blob` this is
    asked only of a ring that could not be read, so a blob of any size is doubted."""
    if fit.diamonds is None or fit.rigid or fit.fit_error <= EXACT_RING_FIT:
        return None
    if sum(fit.matched) <= MIN_DIAMONDS:
        return None  # five left would place a lattice of their own, not the ring
    best = _tightest_without_one(fit)
    if best is None or best[0].fit_error * _BENT_LEAD > fit.fit_error:
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


#: A fit through six diamonds or more may be bent by one pulled blob when the others alone
#: fit the ring this many times more tightly ...
_PULLED_LEAD = 5.0
#: ... and that blob lies at least this far (of the spacing) from its place on their ring
_PULLED_OFF = 0.06
#: (a fit this tight has no blob that far off: the search is not made)
_PULLED_FIT_AT_LEAST = 0.004


def pulled_blob(fit: RingFit) -> tuple[tuple[int, int], RingFit] | None:
    """The ring place whose matched blob alone may bend ``fit``, with the ring the other
    matched diamonds place alone (:func:`ring_placed_by`), or None.

    Why: a team-mate's gold belt merged with the diamond of the plate he stands on makes
    one blob, its centre pulled off the plate, that the fit runs through; below
    :data:`LOOSE_FIT` (the locator's own check, :func:`_without_one_loosening`) the bend
    still put that place 5 pixels off at a far steep view, and its samples took the belt
    for an unlit diamond (a player's belt at a steep camera: six blobs fitted to
    0.008-0.010, the five others to 0.0007, the blob 0.08-0.10 of the spacing
    from where they place it). Five diamonds nearly always fit some ring tightly, so this
    is a doubt, and only of a blob of an odd size (:func:`_usual_size`, the belt's 1.35-1.67
    times the others' on the floor): on walk-through frames the others' ring was the bent
    one in 23 of 144 fits within the other bounds (their ring 0.06-0.55 of the spacing off
    and the blob nearer its plate; with one blob cut by the picture's edge and every
    other on its plate, dropping a whole one fitted the rest best)."""
    if fit.diamonds is None or fit.areas is None or fit.rigid \
            or fit.fit_error < _PULLED_FIT_AT_LEAST:
        return None
    if sum(fit.matched) < MIN_DIAMONDS:
        return None
    # only a blob of an odd size is doubted: with none, no refit is worth making
    odd = np.array(fit.matched) & ~_usual_size(fit.areas, fit.geometry.homography,
                                               np.array(fit.matched))
    if not odd.any():
        return None
    best = _tightest_without_one(fit)
    if best is None or best[0].fit_error * _PULLED_LEAD > fit.fit_error:
        return None
    refit, index = best
    if not odd[index]:
        return None  # a diamond-sized blob: the others' bias, not a pull (see above)
    place = refit.geometry.to_image(_RING[index:index + 1])[0]
    off = float(np.hypot(*(place - fit.diamonds[index]))) / refit.spacing
    return (RING_CELLS[index], refit) if off >= _PULLED_OFF else None
