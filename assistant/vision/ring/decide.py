"""Stage 5 of the ring search: the decision, as tables of named rules.

A candidate placement is judged by :data:`PLACEMENT_RULES`, in order: the first rule that
holds gives its verdict (taken, turned down, or passed over as a ring already taken),
and a candidate no rule holds against is taken. The evidence the rules weigh (the fit's
roll and error, purple frames, the floor, a plate in the middle) is gathered per
candidate when a rule first asks for it (:class:`Evidence`), so a candidate turned down
early costs no more than that. The search's answer from the candidates it took is
decided by :data:`ANSWER_RULES` the same way. Each verdict is noted in the reading's
trace (stage ``locate``), so a trace says which candidates were tried and which rule
took or turned down each.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from assistant.vision.ring.candidates import Candidate
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
from assistant.vision.trace import note


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
    #: two rings taken score alike within this (a score is the diamonds matched less
    #: five times the fit error), and the search must choose between them (set, not
    #: measured)
    score_tie: float = 0.5


DECISION = DecisionParams()

TAKEN, TURNED_DOWN, PASSED_OVER = "taken", "turned down", "passed over"
STAGE = "locate"

#: A taken ring: (score, the ring labelled as seen, the blobs it runs through).
Taken = tuple[float, RingFit, frozenset[int]]


class Evidence:
    """What the picture and the fit say about one candidate, each asked once, when a rule
    first needs it."""

    def __init__(self, bgr: np.ndarray, blobs: Blobs, candidate: Candidate,
                 framed_needed: int, taken: Sequence[frozenset[int]] = ()) -> None:
        self.bgr, self.blobs, self.candidate = bgr, blobs, candidate
        self.members = candidate.members
        #: places that must show a purple frame (:func:`framed_about`), 0 for no such check
        self.framed_needed = framed_needed
        #: the blobs of the rings taken before this candidate
        self.taken = taken

    @functools.cached_property
    def skew(self) -> float:
        """How far the fit skews the floor (0 for a camera without roll)."""
        return roll_skew(self.candidate.homography)

    @functools.cached_property
    def fit(self) -> RingFit:
        """The candidate labelled as seen on screen."""
        return labelled_fit(self.candidate.homography, self.blobs, self.members)

    @functools.cached_property
    def unframed(self) -> bool:
        """Its diamonds do not sit in purple (or dark) frames."""
        return not frames_are_purple(self.bgr, self.candidate.homography)

    @functools.cached_property
    def framed_past_seeing(self) -> bool:
        """Frames too thin to show, or squeezed, over an even floor."""
        return framed_past_seeing(self.bgr, self.candidate.homography, len(self.members))

    @functools.cached_property
    def ninth_plate(self) -> bool:
        """The middle sits in a plate's purple frame."""
        return middle_is_framed(self.bgr, self.candidate.homography)

    @functools.cached_property
    def side_out_of_sight(self) -> bool:
        """Five exact diamonds, one whole side unseen (:func:`_side_out_of_sight`)."""
        return _side_out_of_sight(self.bgr, self.blobs, self.fit)

    @functools.cached_property
    def framed_about(self) -> bool:
        """Enough of its places show purple frames for a ring on few diamonds."""
        return framed_about(self.bgr, self.fit, self.framed_needed)


@dataclass(frozen=True)
class Rule:
    """A named rule: when ``holds`` of a candidate's evidence, its verdict is ``verdict``."""

    name: str
    verdict: str
    holds: Callable[[Evidence], bool]


#: Judged in order; the first that holds decides. A candidate none holds for is taken
#: (:data:`BORNE_OUT`).
PLACEMENT_RULES: tuple[Rule, ...] = (
    Rule("the same blobs as a ring taken", PASSED_OVER,
         lambda e: any(e.members == seen for seen in e.taken)),
    Rule("a ring taken, labelled from another corner", PASSED_OVER,
         lambda e: any(len(e.members & seen) >= 4 for seen in e.taken)),
    # a sheared lattice through some of the plates, not a camera's view
    Rule("rolled past any camera's view", TURNED_DOWN,
         lambda e: e.skew > FIT.max_roll_skew),
    Rule("five exact diamonds, a side out of sight", TAKEN,
         lambda e: bool(e.framed_needed) and len(e.members) == len(RING) - 3
         and not e.candidate.middle_blob and e.side_out_of_sight),
    Rule("no purple frames, and not seen past them", TURNED_DOWN,
         lambda e: e.unframed and not e.framed_past_seeing),
    # a ninth plate in the middle: not the ToA ring
    Rule("a plate in the middle", TURNED_DOWN,
         lambda e: e.candidate.middle_blob and e.ninth_plate),
    Rule("unframed and not exact", TURNED_DOWN,
         lambda e: e.unframed and e.fit.fit_error > exact_fit_for(e.fit.spacing)),
    Rule("too few framed places for a ring on few diamonds", TURNED_DOWN,
         lambda e: bool(e.framed_needed) and not e.framed_about),
)
BORNE_OUT = Rule("borne out by the picture", TAKEN, lambda e: True)


def judge(evidence: Evidence) -> Rule:
    """The first of :data:`PLACEMENT_RULES` that holds for a candidate, or
    :data:`BORNE_OUT`."""
    return next((rule for rule in PLACEMENT_RULES if rule.holds(evidence)), BORNE_OUT)


def describe(number: int, candidate: Candidate) -> str:
    """A candidate in a few words, for the trace."""
    return (f"candidate {number} ({candidate.source}, {len(candidate.members)} diamonds, "
            f"fit {score_error(candidate):.3f})")


def accepted_rings(bgr: np.ndarray, blobs: Blobs, candidates: list[Candidate],
                   framed_needed: int = 0, first_number: int = 1) -> list[Taken]:
    """The candidates that pass the checks on the picture (at most two: one is the answer,
    two that score alike make it ambiguous); ``framed_needed``: places that must show a
    purple frame (:func:`framed_about`), 0 for no such check. Each is numbered from
    ``first_number`` in the trace."""
    accepted: list[Taken] = []
    for index, candidate in enumerate(candidates):
        evidence = Evidence(bgr, blobs, candidate, framed_needed,
                            [members for _s, _f, members in accepted])
        rule = judge(evidence)
        note(STAGE, f"{describe(first_number + index, candidate)}: {rule.verdict}: "
                    f"{rule.name}")
        if rule.verdict != TAKEN:
            continue
        taken: Taken = (candidate.score, evidence.fit, candidate.members)
        if score_error(candidate) > FIT.exact_ring_fit:
            taken = _better_framed_tight(bgr, blobs, candidates[index + 1:], taken,
                                         framed_needed)
        accepted.append(taken)
        if len(accepted) > 1:
            break
    return accepted


def checked_ring(bgr: np.ndarray, blobs: Blobs, candidate: Candidate,
                 framed_needed: int) -> RingFit | None:
    """A candidate's ring labelled as seen, when the picture bears it out
    (:data:`PLACEMENT_RULES`), else None."""
    evidence = Evidence(bgr, blobs, candidate, framed_needed)
    return evidence.fit if judge(evidence).verdict == TAKEN else None


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


def _better_framed_tight(bgr: np.ndarray, blobs: Blobs, later: list[Candidate], taken: Taken,
                         framed_needed: int) -> Taken:
    """``taken``, a loose fit the checks let through, or a later candidate through as
    many of mostly the same diamonds that fits them exactly and shows the frames of
    clearly more plates (:attr:`DecisionParams.framed_to_prefer`,
    :attr:`DecisionParams.framed_lead`), when the checks let it through too.

    Why: a search's tight cores (:func:`tight_alternatives`) come after every first
    fit, and a loose first fit through two figures' blobs can pass the checks on a view
    with frames all round; it then puts two places on the plain floor, the frame goes
    blank as "a plate is covered", where the six sound diamonds' ring shows a frame at
    all eight (a walk-through at 125% display scaling, 60 degrees)."""
    _score, fit, members = taken
    framed = None
    for candidate in later:
        other = candidate.members
        if (len(other & members) < 4 or len(other) < len(members)
                or score_error(candidate) > FIT.exact_ring_fit):
            continue
        other_fit = checked_ring(bgr, blobs, candidate, framed_needed)
        if other_fit is None:
            continue
        framed = framed_plates(bgr, fit) if framed is None else framed
        other_framed = framed_plates(bgr, other_fit)
        if (other_framed >= DECISION.framed_to_prefer
                and other_framed - framed >= DECISION.framed_lead):
            note(STAGE, f"a tight {candidate.source} candidate through "
                        f"{len(other)} diamonds taken instead: framed at {other_framed} "
                        f"places, the loose one at {framed}")
            return candidate.score, other_fit, other
    return taken


@dataclass(frozen=True)
class Search:
    """One search's candidates and the rings it took, for :data:`ANSWER_RULES`."""

    bgr: np.ndarray
    blobs: Blobs
    needed: int  # diamonds the search asked for
    candidates: list[Candidate]
    accepted: list[Taken]


@dataclass(frozen=True)
class AnswerRule:
    """A named rule: when ``holds`` of a search, ``answer`` is its answer: (fit, None) or
    (None, ``"not-found"``, ``"turned-down"`` or ``"several"``)."""

    name: str
    holds: Callable[[Search], bool]
    answer: Callable[[Search], tuple[RingFit | None, str | None]]


def _preferred_of_two(search: Search) -> tuple[RingFit | None, str | None]:
    """The one of two rings taken that :func:`_preferred_ring` prefers, or "several"."""
    fits = [fit for _score, fit, _members in search.accepted[:2]]
    best = _preferred_ring(fits, [framed_plates(search.bgr, fit) for fit in fits])
    return (None, "several") if best is None else (fits[best], None)


#: Judged in order; the first that holds answers. A search none holds for answers with
#: the ring it took (:data:`ONE_RING`).
ANSWER_RULES: tuple[AnswerRule, ...] = (
    AnswerRule("no candidate taken", lambda s: not s.accepted,
               lambda s: (None, "turned-down" if s.candidates else "not-found")),
    # a ring on few diamonds where the picture holds a lattice through more, which its
    # checks turned down: the few may be the many's corners and a look-alike (all eight
    # plates in view at 62°, blurred by display scaling, their frames no longer purple:
    # a ring turned 45° through the four corners and the yellow arrow at the entrance
    # was taken)
    AnswerRule("few diamonds where a lattice through more was turned down",
               lambda s: s.needed < FIT.min_diamonds and any(
                   len(c.members) > len(s.accepted[0][2]) for c in s.candidates),
               lambda s: (None, "not-found")),
    AnswerRule("loose, where an exact ring through more diamonds was turned down",
               lambda s: _exact_ring_through_more_turned_down(s.blobs, s.candidates,
                                                              s.accepted[0]),
               lambda s: (None, "turned-down")),
    AnswerRule("two rings score alike",
               lambda s: len(s.accepted) > 1
               and s.accepted[1][0] >= s.accepted[0][0] - DECISION.score_tie,
               _preferred_of_two),
)
ONE_RING = AnswerRule("one ring taken", lambda s: True, lambda s: (s.accepted[0][1], None))


def answer(search: Search) -> tuple[RingFit | None, str | None]:
    """The search's answer by the first of :data:`ANSWER_RULES` that holds (or
    :data:`ONE_RING`), noted in the trace."""
    rule = next((rule for rule in ANSWER_RULES if rule.holds(search)), ONE_RING)
    fit, why = rule.answer(search)
    said = why if fit is None else f"a ring on {sum(fit.matched)} diamonds"
    note(STAGE, f"answer: {rule.name}: {said}")
    return fit, why


def _exact_ring_through_more_turned_down(blobs: Blobs, candidates: list[Candidate],
                                         taken: Taken) -> bool:
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
               for _s, homography, more, _middle, _source in candidates)


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
