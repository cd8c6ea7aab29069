"""Read the plates: sample every cell where the grid is placed and tell lit from unlit.

The reader's middle stage. It gets a placed grid (calibrated corners, or the ring the
locator or the follower placed) and answers with a :class:`~assistant.vision.reading.Reading`:

1. cells past the picture's edge, and ToA plates with no gold in their diamond, are set
   aside at once (too many, and the reading abstains);
2. the others are decided together (:func:`assistant.vision.appearance.classify`); a cell
   whose colours fit neither look, or that the locator saw no diamond on, is set aside and
   the rest decided again;
3. a plate read with the others but doubted (darker than its look, partly foreign, its
   edge reading otherwise than its middle) is set aside too, one at a time;
4. what is left unread is settled by :mod:`assistant.vision.unread` (covered, unclear or
   outside), and the reading abstains when more are unread than it may leave.

Every plate set aside notes why in the trace (:func:`assistant.vision.trace.note`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from assistant.profile import GridSpec
from assistant.puzzle import Board
from assistant.vision.appearance import PARTIAL_CONFIDENCE, Decision, Look, classify, sector_stats
from assistant.vision.geometry import (
    OUTLINE_MARGIN_PX,
    SAMPLE_OFFSETS,
    SAMPLE_SECTORS,
    GridGeometry,
    pixels_at,
)
from assistant.vision.locate import framed_places
from assistant.vision.reading import (
    MAX_HIDDEN,
    NOT_IN_VIEW,
    Reading,
    TileReading,
    abstain,
    cell_noun,
    cell_words,
    too_many_covered,
    too_many_unclear,
    undecided_reason,
)
from assistant.vision.trace import note
from assistant.vision.unread import plain_floor, settle_unread

__all__ = ["PLATE_RULES", "PlateRules", "read_cells"]


@dataclass(frozen=True)
class PlateRules:
    """The thresholds of reading the plates. Brightness levels are logs of a plate's
    brightest channel (+8), compared within one frame; "walk-through pictures" are the
    pictures the benchmark's walks take of both room sources (the drawn room and the real
    screenshot re-projected), cameras anywhere and steep."""

    #: A ToA diamond is gold: two of its four sectors at least are red over green over
    #: blue with this saturation. Plain plates read right (nothing over them) on
    #: walk-through pictures and the real room's own pixels: the second most saturated
    #: sector is 0.54 at least (2,021 plates, 1% under 0.60).
    gold_min_saturation: float = 0.3
    #: The fixed lattice's edge check (:func:`_edge_doubts`) runs where it keeps at least
    #: this many pixels from a diamond's outline: closer, its edge points are the outline's
    #: blend with the frame, the reason the lattice was shrunk (a bound by construction,
    #: not a measured one; the check was added for two single pictures of about 7,000
    #: walk-through pictures read wrong without it, ADR 12).
    edge_check_margin_px: float = 1.0
    #: How much darker than the median of the *other* plates of its look, two or more, a
    #: plate may be before it is doubted (:func:`shaded`). On the final readings of
    #: walk-through pictures read right (25,700 plates of looks of four or more): at most
    #: 0.043 darker. Gold legs or a gold torso over a lit plate, read unlit among four or
    #: more unlit plates: 0.068 to 0.18 (cameras 36-55 degrees, 100-150% display
    #: scaling); the player's gold trousers over a lit diamond read as one of three unlit
    #: plates: 0.10 darker than the other two (of 2,919 comparisons within looks of three
    #: in pictures read right or with plates hidden, 24 were over this bar).
    shaded_below_rest: float = 0.055
    #: ... or than the median plate of the other look by this much. Unlit diamonds are 0.13
    #: darker than lit ones on the real screenshot (0.18 under a gamma of 1.4; a lone plate
    #: of its look read right in walk-through pictures, at most 0.16); a coat from above
    #: over all of a lit diamond but its rim: 0.93; gold legs over one at 150% display
    #: scaling: 0.44; gold boots over a lit diamond's middle at a steep camera: 0.32.
    shaded_below_others: float = 0.26
    #: A plate read lit must be brighter than the median unlit plate by more than this. On
    #: the final readings of walk-through pictures: 9,169 lit plates, at least 0.069
    #: brighter; the player seen from straight above, his gold clothes over an unlit
    #: diamond, read lit: 0.07 darker (150% display scaling).
    lit_above_unlit: float = 0.0
    #: ... the median of this many unlit plates or more. Two, not three: a tiny diamond's
    #: chroma through JPEG (colour at half resolution) takes in its purple frame's blue,
    #: and an unlit plate read lit among two lit and two unlit, 0.02 darker than the two
    #: unlit (40 px a spacing at a steep camera, JPEG quality 75).
    lit_above_unlit_among: int = 2


PLATE_RULES = PlateRules()


@dataclass
class _Plates:
    """One read of a grid's cells in progress: where they are, what was sampled, and which
    are set aside so far (``hidden``, indices into ``cells`` in the order set aside;
    ``partly``: those set aside for something over part of the plate)."""

    bgr: np.ndarray
    geometry: GridGeometry
    cells: list[tuple[int, int]]
    look: Look
    mode: str
    unmatched: tuple[tuple[int, int], ...]
    max_hidden: int
    centres: np.ndarray
    samples: np.ndarray
    outside: np.ndarray
    hidden: list[int]
    partly: set[int]
    #: the look the sectors' decision gave each plate it doubted (index into ``cells``)
    doubted_looks: dict[int, int] = field(default_factory=dict)

    def pending_tiles(self) -> tuple[TileReading, ...]:
        """Every cell, none decided (for an abstention that still shows where they are)."""
        return tuple(
            TileReading(r, c, None, 0.0, (float(self.centres[i][0]), float(self.centres[i][1])))
            for i, (r, c) in enumerate(self.cells)
        )

    def abstain(self, reason: str) -> Reading:
        """An abstention on a grid that was found, its cells where it placed them."""
        return abstain(reason, self.mode, found=True, geometry=self.geometry,
                       tiles=self.pending_tiles())

    def too_many(self, indices: list[int] | np.ndarray) -> Reading:
        """An abstention naming ``indices``, more covered than a reading may hide."""
        return self.abstain(too_many_covered(self.cells, np.array(indices), self.look,
                                             self.max_hidden))

    def visible(self) -> np.ndarray:
        """The cells not set aside (indices into ``cells``)."""
        return np.array([i for i in range(len(self.cells)) if i not in self.hidden], np.intp)


def read_cells(
    bgr: np.ndarray,
    geometry: GridGeometry,
    grid: GridSpec,
    look: Look,
    refs: tuple[tuple[int, int, int], tuple[int, int, int]] | None,
    mode: str,
    unmatched: tuple[tuple[int, int], ...],
    max_hidden: int = MAX_HIDDEN,
    placed_surely: bool = False,
    placed_here: bool = False,
) -> Reading:
    """Read every cell of ``grid`` where ``geometry`` places it; at most ``max_hidden``
    left unread. ``unmatched``: cells the locator saw no diamond on (never read from their
    whole area). ``placed_surely``: the grid was just placed on seven diamonds or more, so
    a covered plate is not checked for the plain floor (:func:`_misplaced`);
    ``placed_here``: the locator placed it in this frame, so a covered place with a purple
    frame about it is a plate whatever covers it (not checked either; corners kept from
    an earlier view are), and a plate it saw no diamond at is doubted like one with
    something over part of it (told whole where its floor shows nobody standing); under
    corners kept from an earlier view the ``unmatched`` plates are never told."""
    plates = _sample(bgr, geometry, grid.cells, look, mode, unmatched, max_hidden)
    if isinstance(plates, Reading):
        return plates
    if look is Look.TOA_PLATE:
        turned_down = _set_aside_without_gold(plates)
        if turned_down is not None:
            return turned_down
    on_off = (np.array(refs[0], np.float64), np.array(refs[1], np.float64)) if refs else None
    # ToA plates read by their contrast (no calibrated colours) may have more set aside
    # while deciding, down to four to tell the looks by: a plate with nothing over it is
    # then told from its whole diamond (settle_unread), and only what stays unread counts
    relaxed = look is Look.TOA_PLATE and refs is None
    cap = max(max_hidden, len(plates.cells) - 4) if relaxed else max_hidden
    decided = _decide(plates, on_off, cap, relaxed)
    if isinstance(decided, Reading):
        return decided
    misplaced = _misplaced(plates, placed_surely, placed_here)
    if misplaced is not None:
        return misplaced
    return _answer(plates, grid, *decided, placed_here=placed_here)


def _sample(bgr: np.ndarray, geometry: GridGeometry, cells: list[tuple[int, int]],
            look: Look, mode: str, unmatched: tuple[tuple[int, int], ...], max_hidden: int
            ) -> _Plates | Reading:
    """The cells' sampled pixels, those past the picture's edge set aside; or an
    abstention when none is in view, or too many are out of it."""
    points = geometry.sample_points(cells, SAMPLE_OFFSETS,
                                    inside_diamond=look is Look.TOA_PLATE)
    centres = geometry.to_image(np.array([(c, r) for r, c in cells], np.float64))
    height, width = bgr.shape[:2]
    inside = (
        (points[..., 0] >= 0) & (points[..., 0] <= width - 1)
        & (points[..., 1] >= 0) & (points[..., 1] <= height - 1)
    ).all(axis=1)
    if not inside.any():
        note("read", "no cell is inside the picture")
        return abstain(NOT_IN_VIEW, mode, geometry=geometry)
    outside = np.flatnonzero(~inside)
    plates = _Plates(bgr, geometry, cells, look, mode, unmatched, max_hidden, centres,
                     np.empty((0,)), outside, [int(i) for i in outside],
                     {i for i, cell in enumerate(cells) if cell in unmatched})
    # a located ring with a plate or two past the picture's edge (the camera follows the
    # player to the room's side; a client panel): those plates are hidden like covered
    # ones, for the session to fill in. Calibrated corners outside the picture are a
    # calibration that no longer fits.
    if len(outside) and (mode != "auto" or len(outside) > max_hidden):
        r, c = cells[int(outside[0])]
        note("read", f"{len(outside)} cell(s) outside the picture, at most "
             f"{max_hidden if mode == 'auto' else 0} may be")
        return abstain(
            f"{cell_noun(look)} at row {r + 1}, column {c + 1} is outside the picture.",
            mode, found=mode == "auto", geometry=geometry, tiles=plates.pending_tiles(),
        )
    for i in outside:
        note("read", f"{cell_words(cells[i])} set aside: outside the picture")
    plates.samples = pixels_at(bgr, points)  # (cells, points, 3)
    return plates


def _set_aside_without_gold(plates: _Plates) -> Reading | None:
    """Set aside the ToA plates in view with no gold in their diamond (something stands
    on all of it); an abstention when no plate shows gold (no ring here), calibrated
    corners find gold on fewer than half, or more are without gold than may be hidden."""
    cells, outside = plates.cells, plates.outside
    sector_colours, _spread = sector_stats(plates.samples, SAMPLE_SECTORS)
    gold = _is_gold(sector_colours.reshape(-1, 3)).reshape(len(cells), -1).sum(axis=1) >= 2
    gold[outside] = False
    if not gold.any() or (plates.mode == "calibrated" and gold.sum() < len(cells) / 2):
        note("read", f"gold on {int(gold.sum())} of {len(cells)} plates: no ring here")
        return abstain(NOT_IN_VIEW, plates.mode, geometry=plates.geometry)
    covered = np.flatnonzero(~gold)
    if len(covered) > plates.max_hidden:
        note("read", f"{len(covered)} plates without gold, at most {plates.max_hidden} "
             "may be hidden")
        return plates.too_many(covered)
    plates.hidden.extend(int(i) for i in covered if i not in outside)
    for i in covered:
        if i not in outside:
            note("read", f"{cell_words(cells[i])} set aside: no gold in its diamond")
    return None


def _decide(plates: _Plates, on_off: tuple[np.ndarray, np.ndarray] | None, cap: int,
            relaxed: bool) -> Reading | tuple[np.ndarray, Decision | None]:
    """Decide the cells still in view together; a cell the decision finds covered (a
    figure over part of it, colours of neither look) or doubts is set aside and the rest
    decided again, up to ``cap`` set aside. Returns the cells decided and the decision
    (None when the sectors told nothing and every plate in view stays unread), or an
    abstention."""
    cells = plates.cells
    decided: tuple[np.ndarray, Decision] | None = None  # the last decision made
    while True:
        visible = plates.visible()
        decision = classify(plates.samples[visible], plates.look, *(on_off or (None, None)),
                            sectors=SAMPLE_SECTORS)
        if decision.lit is None:
            if _set_aside_undecided(plates, visible, decision, cap):
                continue
            # a plate hidden for doubt (only partly foreign, or its edge) was read with
            # the others: their looks stand without it. Deciding fewer again can fail on
            # its own (tiny plates at a steep camera: a median over fewer cells called
            # plain ones covered until one too many was hidden), and the frame went blank
            kept = None if decided is None else without_doubted(*decided, visible)
            if kept is None and relaxed:
                # the sectors tell nothing: every plate in view stays unread, covered or
                # unclear (settle_unread). None is told from its whole diamond: no plate
                # was cleared of something over part of it (a body trailing its step,
                # half over a plate, reads whole as the look it hides)
                note("read", "the plates' sectors tell no two looks: no plate in view "
                     "is read")
                plates.hidden.extend(int(i) for i in visible)
                plates.partly.update(int(i) for i in visible)
                return visible, None
            if kept is None:
                bad = None if decision.bad_cell is None else int(visible[decision.bad_cell])
                note("read", f"the looks are not told apart ({decision.reason})")
                return plates.abstain(undecided_reason(decision, cells, plates.look, bad))
            note("read", "the looks stand as decided before the last plate was doubted")
            decision = kept
        doubtful, why = _doubts(plates, visible, decision, on_off)
        if not doubtful:
            return visible, decision
        decided = (visible, decision)
        if len(plates.hidden) + 1 > cap:
            note("read", f"{cell_words(cells[doubtful[0]])} doubted ({why}), but no more "
                 "plates may be set aside")
            return plates.too_many(plates.hidden + doubtful[:1])
        plates.hidden.append(doubtful[0])
        plates.partly.add(doubtful[0])
        plates.doubted_looks[doubtful[0]] = int(
            decision.lit[int(np.flatnonzero(visible == doubtful[0])[0])])
        note("read", f"{cell_words(cells[doubtful[0]])} set aside: {why}")


def _set_aside_undecided(plates: _Plates, visible: np.ndarray, decision: Decision,
                         cap: int) -> bool:
    """When the cells in view could not be decided together, set aside the one to blame
    and say so: the cell whose colours fit neither look, or else a plate the locator did
    not see as a diamond (a gold figure over it can spoil the looks of all the others).
    False when there is none, or no more may be set aside."""
    cells, hidden = plates.cells, plates.hidden
    if len(hidden) >= cap or len(visible) <= 2:
        return False
    if decision.reason == "covered" and decision.bad_cell is not None:
        hidden.append(int(visible[decision.bad_cell]))
        note("read", f"{cell_words(cells[hidden[-1]])} set aside: its colours fit "
             "neither look")
        return True
    suspects = [int(i) for i in visible if cells[i] in plates.unmatched]
    if suspects:
        hidden.append(suspects[0])
        note("read", f"{cell_words(cells[suspects[0]])} set aside: no diamond found "
             "there, and the others' looks are not told with it")
        return True
    return False


def _doubts(plates: _Plates, visible: np.ndarray, decision: Decision,
            on_off: tuple[np.ndarray, np.ndarray] | None) -> tuple[list[int], str]:
    """The plates read with the others that are not to be read from what shows (indices
    into ``cells``), and why the first is doubted, in words.

    A cell with something over part of it is not read from the rest: a figure's legs or
    shadow make a guess of what is left (a lit plate half under a dark figure reads
    unlit). Even three sectors of four are not enough when the fourth shows something
    foreign (yellow legs over it and their shadow over the rest read a lit plate as
    unlit); sectors merely near the threshold, as JPEG or a gamma change leave them, are
    no such sign. A plate the locator did not see as a diamond is not read at all:
    olive-gold trousers over a lit diamond read as a whole, even, unlit plate. (Auto mode
    only: calibrated corners are the player's clicks, so the sampled disc often overlaps
    a diamond's edge, which looks just as foreign.)"""
    cells, unmatched = plates.cells, plates.unmatched
    toa_auto = plates.look is Look.TOA_PLATE and plates.mode == "auto"
    foreign = decision.foreign if plates.mode == "auto" else None
    shaded_now = (shaded(plates.samples[visible], decision.lit) if toa_auto
                  else np.zeros(len(visible), bool))
    doubtful = [
        int(i) for j, i in enumerate(visible)
        if cells[i] in unmatched or bool(shaded_now[j])
        or (decision.confidence[j] <= PARTIAL_CONFIDENCE
            and foreign is not None and bool(foreign[j]))
    ]
    if doubtful:
        return doubtful, _doubt(doubtful[0], cells, unmatched, visible, shaded_now,
                                decision, foreign)
    if toa_auto:
        # a doubt of the edge is asked for with the plates the reading may hide already
        # hidden too, and then makes it abstain: gold trousers over a lit diamond read
        # unlit from its middle while a player and a team-mate covered two plates
        # (asked only while a plate could still be spared, that reading stood)
        doubtful = _edge_doubts(plates.bgr, plates.geometry, cells, visible, decision, on_off)
    return doubtful, "its edge reads otherwise than its middle"


def _misplaced(plates: _Plates, placed_surely: bool, placed_here: bool) -> Reading | None:
    """An abstention when a plate set aside as covered shows the plain floor (the grid is
    not on the ring), else None.

    Six diamonds can be fitted by a lattice that is not the ring; its other two places
    then show the floor between plates, where a covered plate shows what covers it (and
    corners kept from an earlier frame put a plate on the floor when the view has
    moved). Seven diamonds place the ring itself (``placed_surely``): a grey cape over a
    plate behind a body, at a steep camera, looks like the floor and is not; nor is a
    place with a purple frame about it, where the locator placed the ring in this frame
    (``placed_here``: the floor between plates has none)."""
    cells, look = plates.cells, plates.look
    if look is not Look.TOA_PLATE or placed_surely:
        return None
    covered = [cells[i] for i in plates.hidden if i not in plates.outside]
    if covered and placed_here:
        framed = framed_places(plates.bgr, plates.geometry)  # per ring place, cells' order
        covered = [cell for cell in covered if not framed[cells.index(cell)]]
    if not covered or not plain_floor(plates.bgr, plates.geometry, covered):
        return None
    if len(plates.hidden) > plates.max_hidden:
        # more set aside than a reading may leave unread: too covered to say whether
        # the ring is misplaced or merely covered (the next frames search again)
        note("read", "a plate set aside shows the plain floor, and too many are set "
             "aside to tell a misplaced ring from a covered one")
        return plates.too_many(plates.hidden)
    note("read", "a plate set aside shows the plain floor: the grid is not on the ring")
    return abstain(NOT_IN_VIEW, plates.mode, geometry=plates.geometry)


def _answer(plates: _Plates, grid: GridSpec, visible: np.ndarray,
            decision: Decision | None, placed_here: bool = False) -> Reading:
    """The reading of the cells decided, the ones left unread settled (covered, unclear
    or outside); an abstention when more are unread than the reading may leave."""
    cells, hidden, outside = plates.cells, plates.hidden, plates.outside
    lit = np.full(len(cells), -1, np.int64)
    confidence = np.zeros(len(cells))
    if decision is not None:
        lit[visible] = decision.lit
        confidence[visible] = decision.confidence
    unclear = settle_unread(plates.bgr, plates.geometry, cells, plates.samples, hidden,
                            outside, lit, confidence, plates.look, plates.partly,
                            kept_aside=set() if placed_here else {
                                i for i, cell in enumerate(cells) if cell in plates.unmatched},
                            doubted_looks=plates.doubted_looks)
    if len(hidden) > plates.max_hidden:
        kinds = np.array(hidden)
        all_unclear = all(cells[i] in unclear or i in outside for i in hidden)
        note("read", f"{len(hidden)} plates unread, at most {plates.max_hidden} may be")
        reason = (too_many_unclear(cells, kinds, plates.look, plates.max_hidden)
                  if all_unclear
                  else too_many_covered(cells, kinds, plates.look, plates.max_hidden))
        return plates.abstain(reason)
    states = np.zeros((grid.rows, grid.cols), np.int64)
    for (r, c), value in zip(cells, lit, strict=True):
        states[r, c] = max(int(value), 0)
    read = Board.from_arrays(states, np.array(grid.present), grid.states, grid.objective)
    centres = plates.centres
    tiles = tuple(
        TileReading(r, c, None if lit[i] < 0 else bool(lit[i]), float(confidence[i]),
                    (float(centres[i][0]), float(centres[i][1])), hidden=bool(lit[i] < 0),
                    unclear=(r, c) in unclear)
        for i, (r, c) in enumerate(cells)
    )
    hidden_cells = tuple(sorted(cells[i] for i in hidden))
    method = "whole" if decision is None else decision.method
    return Reading(True, False, None, None if hidden else read, tiles,
                   plates.geometry.corners(), plates.geometry, plates.mode, method,
                   hidden=hidden_cells, partial=read if hidden else None,
                   cell_noun=cell_noun(plates.look),
                   outside=tuple(sorted(cells[i] for i in outside)), unclear=unclear)


def _doubt(index: int, cells: list[tuple[int, int]], unmatched: tuple[tuple[int, int], ...],
           visible: np.ndarray, darker: np.ndarray, decision: Decision,
           foreign: np.ndarray | None) -> str:
    """Why a plate read with the others was doubted, in words (for the trace)."""
    if cells[index] in unmatched:
        return "the locator found no diamond there"
    where = np.flatnonzero(visible == index)
    if not len(where):
        return "doubted"
    j = int(where[0])
    if darker[j]:
        return "darker than the other plates of its look"
    if foreign is not None and foreign[j] and decision.confidence[j] <= PARTIAL_CONFIDENCE:
        return f"partly foreign, confidence {decision.confidence[j]:.2f}"
    return "its edge reads otherwise than its middle"


def _edge_doubts(bgr: np.ndarray, geometry: GridGeometry, cells: list[tuple[int, int]],
                 visible: np.ndarray, decision: Decision,
                 on_off: tuple[np.ndarray, np.ndarray] | None,
                 rules: PlateRules = PLATE_RULES) -> list[int]:
    """The visible plates that the fixed lattice reads otherwise than the decision made on
    the lattice kept inside small diamonds, where the fixed one still keeps
    :attr:`PlateRules.edge_check_margin_px` from the outline. Gold legs can cover a
    diamond all but its edge, and read as an even plate of the other look from its
    middle; the fixed lattice reaches the edge that still shows the plate. (On smaller
    diamonds the edge is the outline's blend with the frame, and nothing is checked.)
    Only a plate the fixed lattice reads, otherwise or partly with something foreign, is
    doubted: a fixed lattice that cannot read the frame at all (a plate next to a body
    looked covered at its edge, and the frame lost its answer) gives no opinion."""
    margin_px = geometry.fixed_lattice_margin_px([cells[i] for i in visible])
    # shrunk for the decision, yet the fixed lattice's edge is no blend with the outline
    checked = (margin_px >= rules.edge_check_margin_px) & (margin_px < OUTLINE_MARGIN_PX)
    if not checked.any():
        return []
    points = geometry.sample_points([cells[i] for i in visible], SAMPLE_OFFSETS)
    second = classify(pixels_at(bgr, points), Look.TOA_PLATE, *(on_off or (None, None)),
                      sectors=SAMPLE_SECTORS)
    if second.lit is None:
        return []  # no reading of the frame at all is no opinion on one plate
    foreign = second.foreign if second.foreign is not None else np.zeros(len(visible), bool)
    differs = (second.lit != decision.lit) | (
        (second.confidence <= PARTIAL_CONFIDENCE) & foreign)
    return [int(visible[j]) for j in np.flatnonzero(differs & checked)]


def shaded(samples: np.ndarray, lit: np.ndarray, rules: PlateRules = PLATE_RULES) -> np.ndarray:
    """Per decided plate: is it much darker than the other plates of its look? Bodies
    standing beside a far plate at a steep camera can cover all of its diamond but a
    sliver, and the sampled points then mix the gold with a dark coat in every sector
    alike: the ToA feature, chroma with brightness, can still land on a look (an unlit
    plate read lit at 64°), but the plate is darker than the
    other plates of that look (or, alone in its look, far darker than the other look: a
    coat over all of a lit diamond but its rim, from above, read unlit). Plates of one
    look differ in brightness by a few hundredths (log units) on every rendered and
    re-projected room; with three or more of a look, each is compared with the median of
    the others (:attr:`PlateRules.shaded_below_rest`), which a dark one does not pull
    down. A plate read lit that is no brighter than the median unlit plate is doubted too
    (:attr:`PlateRules.lit_above_unlit`): gold clothes over an unlit diamond."""
    level = np.log(np.median(samples, axis=1).max(axis=1) + 8.0)
    shaded = np.zeros(len(lit), bool)
    for look in (0, 1):
        members, others = np.flatnonzero(lit == look), np.flatnonzero(lit != look)
        if len(members) >= 3:
            # one of three or more pulls the median of all down itself (of three, to the
            # lower of the other two): the others tell
            for j in members:
                rest = np.median(level[members[members != j]])
                shaded[j] |= level[j] < rest - rules.shaded_below_rest
        other_look = np.median(level[others]) if len(others) else 0.0
        if len(others) >= 3:
            # a plate alone in its look has no others to be compared with: the other look
            # then tells, the two looks being close in brightness
            shaded[members] |= level[members] < other_look - rules.shaded_below_others
        if look == 1 and len(others) >= rules.lit_above_unlit_among:
            # gold clothes over an unlit diamond can pass for lit in chroma, never in
            # brightness
            shaded[members] |= level[members] <= other_look + rules.lit_above_unlit
    return shaded


def without_doubted(visible: np.ndarray, decision: Decision, still: np.ndarray
                    ) -> Decision | None:
    """``decision``, made on the ``visible`` cells, for the ``still`` visible ones (a
    subset): None when those show one look only (the hidden cell may have been all that
    told the looks apart, so which one they show is not told)."""
    keep = np.isin(visible, still)
    lit = decision.lit[keep]
    if lit.min() == lit.max():
        return None
    foreign = None if decision.foreign is None else decision.foreign[keep]
    return replace(decision, lit=lit, confidence=decision.confidence[keep],
                   features=decision.features[keep], foreign=foreign)


def _is_gold(bgr: np.ndarray, rules: PlateRules = PLATE_RULES) -> np.ndarray:
    """Per colour: could this be a ToA diamond under some brightness, gamma or client?
    Yellow to orange: red and green well above blue, neither far above the other."""
    b, g, r = bgr[:, 0], bgr[:, 1], bgr[:, 2]
    top = np.maximum(r, g)
    saturation = (top - b) / np.maximum(top, 1.0)
    return (
        (saturation >= rules.gold_min_saturation)
        & (top >= 25)
        & (g >= 0.45 * r)
        & (g <= 1.25 * r)
        & (b <= g)
    )

