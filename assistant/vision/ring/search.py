"""The fresh ring search: blobs, candidates and refits, then the decision on the picture.

Gold blobs are cheap to find and every plate has one (its diamond), but so do statues,
items and the UI. What no look-alike has is the *arrangement*: eight blobs of one size on
a 3x3 lattice without its middle, each inside a purple frame more purple than the floor
around it. So the search finds the blobs (:mod:`~assistant.vision.ring.blobs`), places the
ring through them (:mod:`~assistant.vision.ring.candidates`,
:mod:`~assistant.vision.ring.refit`), checks each candidate's frames and floor
(:mod:`~assistant.vision.ring.frames`) and decides: one ring, none, or several.
Frames wider than 1400 pixels are searched at half resolution first.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from assistant.vision.ring.blobs import BLOBS, gold_blobs
from assistant.vision.ring.candidates import CANDIDATES, ring_hypotheses
from assistant.vision.ring.frames import (
    floor_is_even,
    framed_about,
    framed_past_seeing,
    framed_places,
    framed_plates,
    frames_are_purple,
    middle_is_framed,
)
from assistant.vision.ring.refit import score_error
from assistant.vision.ring.shape import (
    FIT,
    RING,
    RING_CELLS,
    Blobs,
    RingFit,
    exact_fit_for,
    labelled_fit,
    roll_skew,
)


@dataclass(frozen=True)
class DecisionParams:
    """How the search chooses among candidates the picture bears out. Measured on the
    drawn rooms' steep walk-throughs (cameras 55-68 degrees, display scaling 100-150%)
    and walk-throughs on the real screenshot's floor."""

    #: of two rings that fit alike, one is preferred when at least this many of its
    #: places show purple on three sides or more ... (the real ring showed 5-8, lattices
    #: sheared off it through six diamonds, bodies on the others, 1-4)
    framed_to_prefer: int = 5
    #: ... and the other's this many fewer
    framed_lead: int = 3
    #: a ring on five diamonds must show such frames at this many places (through five
    #: diamonds on the screenshot's floor, lattices sheared onto a body or the click arrow
    #: showed them about 1-5 places, the real ring about 6-8)
    framed_on_fewer: int = 6


DECISION = DecisionParams()


def locate_ring(frame: np.ndarray, *, diamonds_needed: int = FIT.min_diamonds,
                fewer_needed: int | None = None, cut_strokes: bool = False,
                ) -> tuple[RingFit | None, str | None]:
    """Find the ToA ring in a BGR(A) frame, on at least ``diamonds_needed`` diamonds
    (:data:`FIT.min_diamonds`; the live loop asks for :data:`FIT.min_diamonds_after_last_view`
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
    blobs_at: dict[int, Blobs] = {}
    wanted = (diamonds_needed,) if fewer_needed is None or fewer_needed >= diamonds_needed \
        else (diamonds_needed, fewer_needed)
    small = max(width, height) <= BLOBS.half_resolution_above
    # big frames are searched at half resolution first (fast), then, only if that finds
    # nothing, at full resolution (plates spaced less than ~32 px vanish at half); small
    # ones at full resolution, and at half only after a lattice was turned down (above)
    factors = (1,) if small else (2, 1)
    searches = [(needed, factor) for needed in wanted for factor in factors]
    turned_down = False
    for needed, factor in searches:
        fit, why = locate_at(frame, factor, needed, blobs_at, cut_strokes)
        if fit is not None or why == "several":
            return fit, why
        turned_down |= why == "turned-down" and needed == diamonds_needed
    if turned_down and small:
        fit, why = locate_at(frame, 2, diamonds_needed, blobs_at, cut_strokes)
        if fit is not None or why == "several":
            return fit, why
    return None, "not-found"


def locate_at(frame: np.ndarray, factor: int, needed: int, blobs_at: dict[int, Blobs],
               cut_strokes: bool = False) -> tuple[RingFit | None, str | None]:
    """One search at 1/``factor`` resolution; ``blobs_at`` keeps the gold blobs found per
    factor for a second search of the same frame. Besides :func:`locate_ring`'s reasons,
    ``"turned-down"``: lattices through enough diamonds were found, none taken."""
    bgr = frame[..., :3]
    if factor not in blobs_at:
        blobs_at[factor] = gold_blobs(frame, factor, cut_strokes=cut_strokes)
    blobs = blobs_at[factor]
    if len(blobs.areas) < needed or (cut_strokes and not blobs.cut):
        return None, "not-found"  # too few, or nothing cut: the plain search found nothing
    # a ring on fewer diamonds than a search trusts must show its frames about most places
    framed = DECISION.framed_on_fewer if needed < FIT.min_diamonds else 0
    hypotheses = ring_hypotheses(blobs, CANDIDATES.near_spans, needed)
    accepted = _accepted_rings(bgr, blobs, hypotheses, framed)
    if not accepted:
        # a corner's two neighbours hidden on opposite sides (a player on one edge plate, a
        # team-mate on the opposite one): span the lattice from a corner to the far ones
        far = ring_hypotheses(blobs, CANDIDATES.far_spans, needed)
        hypotheses = hypotheses + far
        accepted = _accepted_rings(bgr, blobs, far, framed)
    if not accepted:
        return None, "turned-down" if hypotheses else "not-found"
    if needed < FIT.min_diamonds and any(len(members) > len(accepted[0][2])
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
        best = _preferred_ring(fits, [framed_plates(bgr, fit) for fit in fits])
        if best is None:
            return None, "several"
        return fits[best], None
    return accepted[0][1], None


def _exact_ring_through_more_turned_down(
    blobs: Blobs, hypotheses: list[tuple[float, np.ndarray, frozenset[int], bool]],
    taken: tuple[float, RingFit, frozenset[int]],
) -> bool:
    """Whether the ring taken fits its diamonds loosely (:data:`FIT.loose_fit`) while a
    lattice through more diamonds, four of them its own, fits them exactly
    (:data:`FIT.exact_ring_fit`) as a camera's view (:data:`FIT.max_roll_skew`) and was turned
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
    if fit.fit_error < FIT.loose_fit:
        return False
    return any(len(more) > len(members) and len(more & members) >= 4
               and roll_skew(homography) <= FIT.max_roll_skew
               and labelled_fit(homography, blobs, more).fit_error <= FIT.exact_ring_fit
               for _s, homography, more, _middle in hypotheses)


def _preferred_ring(fits: list[RingFit], framed: list[int]) -> int | None:
    """Of two rings that fit alike, the one to take (None: neither). Either far more of its
    places show purple frames, or it runs through the same number of diamonds many times
    more tightly without fewer framed places: a lattice sheared through six diamonds of
    the ring (bodies on the other two) bends to reach them, the ring itself does not (seen
    on walk-throughs: the ring 0.002-0.004 spacings RMS, framed 7-8; sheared ones
    0.023-0.031, framed 5-7)."""
    best = int(np.argmax(framed))
    if (framed[best] >= DECISION.framed_to_prefer
            and framed[best] - framed[1 - best] >= DECISION.framed_lead):
        return best
    tight = int(np.argmin([fit.fit_error for fit in fits]))
    loose = 1 - tight
    if (sum(fits[tight].matched) == sum(fits[loose].matched)
            and fits[loose].fit_error >= FIT.loose_fit
            and fits[tight].fit_error * FIT.fit_lead <= fits[loose].fit_error
            and framed[tight] >= max(framed[loose], DECISION.framed_to_prefer)):
        return tight
    return None


def _accepted_rings(bgr, blobs, hypotheses, framed_needed: int = 0
                    ) -> list[tuple[float, RingFit, frozenset[int]]]:
    """The hypotheses that pass the checks on the picture (at most two: one is the answer,
    two that score alike make it ambiguous); ``framed_needed``: places that must show a
    purple frame (:func:`framed_about`), 0 for no such check."""
    accepted: list[tuple[float, RingFit, frozenset[int]]] = []
    for index, (score, homography, members, middle_blob) in enumerate(hypotheses):
        if any(members == seen for _s, _f, seen in accepted):
            continue
        if any(len(members & seen) >= 4 for _s, _f, seen in accepted):
            continue  # the same ring labelled from another corner
        fit = _checked_ring(bgr, blobs, homography, members, middle_blob, framed_needed)
        if fit is None:
            continue
        if score_error((score, homography, members, middle_blob)) > FIT.exact_ring_fit:
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
    if roll_skew(homography) > FIT.max_roll_skew:
        return None  # a sheared lattice through some of the plates, not a camera's view
    fit = None
    if framed_needed and len(members) == len(RING) - 3:
        fit = labelled_fit(homography, blobs, members)
        if not middle_blob and _side_out_of_sight(bgr, blobs, fit):
            return fit
    unframed = not frames_are_purple(bgr, homography)
    if unframed and not framed_past_seeing(bgr, homography, len(members)):
        return None
    if middle_blob and middle_is_framed(bgr, homography):
        return None  # a ninth plate in the middle: not the ToA ring
    if fit is None:
        fit = labelled_fit(homography, blobs, members)
    if unframed and fit.fit_error > exact_fit_for(fit.spacing):
        return None
    if framed_needed and not framed_about(bgr, fit, framed_needed):
        return None
    return fit


# The ring's four sides, each a corner, its edge neighbour and the next corner.
_SIDES = tuple(frozenset(side) for side in (
    ((0, 0), (0, 1), (0, 2)), ((2, 0), (2, 1), (2, 2)),
    ((0, 0), (1, 0), (2, 0)), ((0, 2), (1, 2), (2, 2)),
))


def _side_out_of_sight(bgr: np.ndarray, blobs: Blobs, fit: RingFit) -> bool:
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
    if unseen not in _SIDES or fit.fit_error > FIT.exact_ring_fit:
        return False
    homography = fit.geometry.homography
    seen = np.array([cell not in unseen for cell in RING_CELLS])
    if not np.all(framed_places(bgr, fit.geometry)[seen]):
        return False
    # blobs of the matched diamonds' size inside the ring's square, other than the five
    matched = fit.diamonds[seen]
    size = np.median([blobs.areas[int(np.argmin(np.hypot(*(blobs.centres - centre).T)))]
                      for centre in matched])
    alike = (blobs.areas > size / FIT.size_spread) & (blobs.areas < size * FIT.size_spread)
    on_grid = cv2.perspectiveTransform(blobs.centres.reshape(-1, 1, 2),
                                       np.linalg.inv(homography)).reshape(-1, 2)
    inside = np.all((on_grid > -0.5) & (on_grid < 2.5), axis=1)
    near_matched = np.min(np.hypot(*(blobs.centres[:, None, :] - matched[None]).transpose(
        2, 0, 1)), axis=1) <= FIT.match_tolerance * fit.spacing
    if np.any(alike & inside & ~near_matched):
        return False
    return floor_is_even(bgr, homography)


def _better_framed_tight(bgr, blobs, later, taken, framed_needed
                         ) -> tuple[float, RingFit, frozenset[int]]:
    """``taken``, a loose fit the checks let through, or a later hypothesis through as
    many of mostly the same diamonds that fits them exactly and shows the frames of
    clearly more plates (:data:`DECISION.framed_to_prefer`, :data:`DECISION.framed_lead`), when the
    checks let it through too.

    Why: a search's tight cores (:func:`tight_alternatives`) come after every first
    fit, and a loose first fit through two figures' blobs can pass the checks on a view
    with frames all round; it then puts two places on the plain floor, the frame goes
    blank as "a plate is covered", where the six sound diamonds' ring shows a frame at
    all eight (a walk-through at 125% display scaling, 60 degrees)."""
    _score, fit, members = taken
    framed = None
    for hypothesis in later:
        other_score, homography, other, middle_blob = hypothesis
        if (len(other & members) < 4 or len(other) < len(members)
                or score_error(hypothesis) > FIT.exact_ring_fit):
            continue
        other_fit = _checked_ring(bgr, blobs, homography, other, middle_blob, framed_needed)
        if other_fit is None:
            continue
        framed = framed_plates(bgr, fit) if framed is None else framed
        other_framed = framed_plates(bgr, other_fit)
        if (other_framed >= DECISION.framed_to_prefer
                and other_framed - framed >= DECISION.framed_lead):
            return other_score, other_fit, other
    return taken
