"""Frame in, reading out: where the cells are, lit or unlit, or why it cannot say.

Two ways to know where the cells are: a profile's four corner-cell centres (calibrated)
or, for the ToA ring, :func:`~assistant.vision.locate.locate_ring` (auto-locate). Both
end in the same sampler and the same decision (:mod:`assistant.vision.appearance`), so
a reading is as trustworthy in one mode as in the other. The reader never guesses: a plate
with something standing on it (the player's own character after every step, a team-mate)
is reported *hidden* — up to :data:`MAX_HIDDEN` of them, the others still read — and when
more are covered, the grid is out of view or the looks do not separate, the reading
abstains with a sentence a player understands. What a hidden plate shows is for the live
loop to infer from the frames before (:mod:`assistant.inference`), never for one picture.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from assistant.errors import UserError
from assistant.puzzle import Board
from assistant.vision.appearance import (
    CONFIDENT,
    PARTIAL_CONFIDENCE,
    WHOLE_CONFIDENCE,
    Decision,
    Look,
    classify,
    read_whole,
    sector_stats,
)
from assistant.vision.cover import covered
from assistant.vision.geometry import (
    OUTLINE_MARGIN_PX,
    SAMPLE_OFFSETS,
    SAMPLE_SECTORS,
    GridGeometry,
    geometry_from_corners,
    pixels_at,
)
from assistant.vision.locate import (
    EXACT_RING_FIT,
    LOOSE_FIT,
    MAX_ROLL_SKEW,
    MIN_DIAMONDS,
    MIN_DIAMONDS_AFTER_LAST_VIEW,
    RING_CELLS,
    RingFit,
    bent_by_one_blob,
    follow_ring,
    framed_places,
    locate_ring,
    pulled_blob,
    ring_placed_by,
    roll_skew,
    same_places,
)
from assistant.vision.standing import nothing_stands
from assistant.vision.trace import TraceStep, note, recording

if TYPE_CHECKING:  # assistant.profile imports assistant.vision.geometry
    from assistant.profile import GridSpec, Profile

__all__ = [
    "MAX_HIDDEN",
    "MAX_HIDDEN_IN_SESSION",
    "NOT_IN_VIEW",
    "FrameError",
    "Reading",
    "TileReading",
    "as_bgr",
    "follow_frame",
    "leaves_a_corner_unread",
    "read_frame",
]

NOT_IN_VIEW = "Puzzle not in view."
#: At most this many cells of one reading may be hidden; with more, the reading abstains
#: (the locator needs 6 of the 8 ToA diamonds to place the ring, and every hidden cell
#: doubles what the live loop must tell apart).
MAX_HIDDEN = 2
#: ... and in a live session, whose history fills hidden cells in (the live loop, and
#: follow_frame, which only it uses): a standing body at a steep camera hides the plate
#: behind its own too, and a leg over a third plate makes it unread, so a player and a
#: team-mate can leave four plates covered. The four read still tell most steps (three
#: plates change), and the history keeps every candidate the others leave open.
MAX_HIDDEN_IN_SESSION = 4
#: ... and a ring placed by the last view moved rigidly (:func:`follow_frame`), when
#: nothing else reads the frame, this many: its places are the ring's own, and the three
#: plates left read still tell the step just made by the ones of its trio among them (the
#: session keeps every candidate they leave open)
_MAX_HIDDEN_RIGID = 5
#: ... but a ring the locator (or the follower) fitted to six diamonds or fewer may hide
#: at most this many: its unseen places are less sure (:func:`_hidden_allowed`).
_MAX_HIDDEN_ON_SIX = 3
# A ToA diamond is gold: red over green over blue with at least this saturation.
_GOLD_MIN_SATURATION = 0.3
#: The fixed lattice's edge check (:func:`_edge_doubts`) runs where it keeps at least this
#: many pixels from a diamond's outline: closer, its edge points blend with the frame.
EDGE_CHECK_MARGIN_PX = 1.0
# How much darker (log of the brightest channel) than the median of the *other* plates of
# its look, two or more, a plate may be before it is doubted (_shaded). (A rule against
# the median of all the plates of the look, 0.2 and 0.1 for a plate read from part of its
# diamond, came first; this one covers it.)
# Measured on the final readings of walk-through pictures read right, cameras anywhere
# and steep, both room sources (25,700 plates of four or more of a look): at most 0.043
# darker, read from part of a diamond or all of it. Gold legs or a gold torso over a lit
# plate, read unlit among four or more unlit plates: 0.068 (at 36°), 0.084 to 0.118 (at
# 55° and 150% display scaling), 0.17 and 0.18 (at 51°). Also with two others (a look of
# three): at 38° and 125% display scaling the player's gold trousers over a lit diamond
# read as one of three unlit plates, 0.10 darker than the other two; in pictures read
# right or with plates hidden 24 of 2,919 comparisons within looks of three were over it.
_SHADED_BELOW_REST = 0.055
# ... or than the median plate of the other look by this much: unlit diamonds are 0.13
# darker than lit ones on the real screenshot (and the rooms drawn from its colours; a
# gamma of 1.4 makes that 0.18; a lone plate of its look read right in 258 walk-through
# pictures, at most 0.16); a green coat seen from above over all of a lit diamond but its
# rim, 0.93; gold legs over one, under 150% display scaling, 0.44; gold boots over all of
# a lit diamond's middle at 62°, in their own shade, 0.32
_SHADED_BELOW_OTHERS = 0.26
# A plate read lit must be brighter than the median unlit plate (three or more): lit
# diamonds are. Measured on the final readings of walk-through pictures, cameras anywhere
# and steep, both room sources: 9,169 lit plates, at least 0.069 brighter. The player seen
# from straight above, his gold clothes over an unlit diamond, read lit: 0.07 darker (at
# 150% display scaling).
_LIT_ABOVE_UNLIT = 0.0
# ... the median of this many unlit plates or more. Two, not three: a tiny diamond's
# chroma through JPEG (colour kept at half resolution) takes in its purple frame's blue
# and an unlit plate can read lit among two lit and two unlit, 0.02 darker than the two
# unlit (40 px a spacing at 65 degrees, JPEG 75; the live loop then marked a plate
# wrongly)
_LIT_ABOVE_UNLIT_AMONG = 2
# Floor tiles between the plates (grid units): what a place with no plate looks like.
_FLOOR_POINTS = np.array(
    [(0.5, 0), (1.5, 0), (0, 0.5), (2, 0.5), (0, 1.5), (2, 1.5), (0.5, 2), (1.5, 2), (1, 1)],
    np.float64,
)
# A hidden cell whose sampled disc and plate frame look like this share of plain floor is
# no covered plate: the grid was placed wrong (it abstains).
_FLOOR_LIKE_SHARE = 0.6
_FLOOR_TOLERANCE = 18.0  # 8-bit levels, at least; more when the floor itself varies


class FrameError(UserError):
    """A picture the reader cannot take (wrong type, depth or channels)."""


@dataclass(frozen=True)
class TileReading:
    """One cell: ``row``/``col`` count from 0; ``lit`` is ``None`` when not decided;
    ``hidden`` when it was not read (then ``lit`` is ``None`` too): something stands on
    it, it is past the picture's edge, or, ``unclear``, it is in view with nothing over it
    but cannot be told lit from unlit."""

    row: int
    col: int
    lit: bool | None
    confidence: float
    centre: tuple[float, float]
    hidden: bool = False
    unclear: bool = False

    def to_json(self) -> dict:
        """Rows and columns count from 1 in JSON, as in every message to the player."""
        return {
            "row": self.row + 1,
            "col": self.col + 1,
            "lit": self.lit,
            "hidden": self.hidden and not self.unclear,
            "unclear": self.unclear,
            "confidence": round(float(self.confidence), 3),
            "x": round(self.centre[0], 1),
            "y": round(self.centre[1], 1),
        }


@dataclass(frozen=True)
class Reading:
    """What the reader saw in one frame.

    ``found``: the grid is where it was expected (calibrated) or was located (auto).
    ``abstain``: no board is given; ``reason`` says why in one sentence.
    ``corners``: the four corner-cell centres used or found (TL, TR, BR, BL), (4, 2).
    ``geometry``: grid -> image mapping, for the overlay.
    ``method``: how lit was told from unlit: ``contrast`` (plates of this frame),
    ``references`` (profile colours) or ``absolute`` (the ToA fallback, low confidence).
    ``hidden``: cells (row, col from 0) the reader did not read; then ``board`` is
    ``None`` and ``partial`` holds every other cell (hidden ones at state 0), so no
    consumer can take an unread cell for a read one. Each hidden cell is one of three:
    ``covered`` (something stands on it: colours of neither plate nor floor over it),
    ``outside`` the picture, or ``unclear`` (in view, nothing over it, but its looks do
    not tell lit from unlit for sure: a far plate through strong JPEG).
    """

    found: bool
    abstain: bool
    reason: str | None
    board: Board | None
    tiles: tuple[TileReading, ...]
    corners: np.ndarray | None
    geometry: GridGeometry | None
    mode: str
    method: str | None = None
    hidden: tuple[tuple[int, int], ...] = ()
    partial: Board | None = None
    cell_noun: str = "Plate"
    #: the hidden cells that are past the picture's edge (the rest have someone on them)
    outside: tuple[tuple[int, int], ...] = ()
    #: a located ring's cells where the locator saw no diamond (auto mode, fresh search),
    #: also when the read of the ring abstains: how surely ``geometry`` places the ring
    unmatched: tuple[tuple[int, int], ...] = ()
    #: placed by the live loop's last view moved rigidly (:func:`follow_frame`): as sure
    #: as that view, whatever it hides
    moved_rigidly: bool = False
    #: the hidden cells in view with nothing over them that could not be read for sure
    unclear: tuple[tuple[int, int], ...] = ()
    #: what the reader's stages decided, in order (:mod:`assistant.vision.trace`)
    trace: tuple[TraceStep, ...] = ()

    @property
    def covered(self) -> tuple[tuple[int, int], ...]:
        """The hidden cells something stands on (neither outside nor unclear)."""
        return tuple(cell for cell in self.hidden
                     if cell not in self.outside and cell not in self.unclear)

    @property
    def complete(self) -> bool:
        """Every cell was read."""
        return not self.abstain and self.board is not None

    @property
    def board_text(self) -> str | None:
        """The board in the text format with ``?`` at each hidden cell, e.g. ``1?1/0#0/110``."""
        known = self.board if self.board is not None else self.partial
        if self.abstain or known is None:
            return None
        if not self.hidden:
            return known.format()
        rows = [list(line) for line in known.format().split("/")]
        for r, c in self.hidden:
            rows[r][c] = "?"
        return "/".join("".join(line) for line in rows)

    @property
    def note(self) -> str | None:
        """The sentence saying which cells are not read and why (None when all are)."""
        if self.abstain or not self.hidden:
            return None
        sentences = []
        for group, one, several in (
            (self.covered, "is hidden: someone stands on it",
             "are hidden: someone stands on them"),
            (self.unclear, "is in view but cannot be told lit from unlit",
             "are in view but cannot be told lit from unlit"),
            (self.outside, "is outside the picture", "are outside the picture"),
        ):
            if group:
                places = " and ".join(f"row {r + 1}, column {c + 1}" for r, c in group)
                noun = self.cell_noun if len(group) == 1 else f"{self.cell_noun}s"
                sentences.append(f"{noun} at {places} {one if len(group) == 1 else several}.")
        return " ".join(sentences)

    def with_hidden(self, cells: tuple[tuple[int, int], ...]) -> Reading:
        """This reading with ``cells`` covered, not read (a plate the live loop knows
        someone stands on: unclear no more); itself when it abstains or nothing changes."""
        extra = tuple(cell for cell in cells if cell not in self.hidden)
        unclear = tuple(cell for cell in self.unclear if cell not in cells)
        known = self.board if self.board is not None else self.partial
        if self.abstain or known is None or (not extra and unclear == self.unclear):
            return self
        states = np.array(known.states)
        for cell in extra:
            states[cell] = 0
        tiles = tuple(
            replace(tile, lit=None, confidence=0.0, hidden=True, unclear=False)
            if (tile.row, tile.col) in cells else tile
            for tile in self.tiles
        )
        return replace(self, board=None, partial=known.with_states(states),
                       hidden=tuple(sorted((*self.hidden, *extra))), tiles=tiles,
                       unclear=unclear)

    def completions(self) -> tuple[Board, ...]:
        """Every board the frame could show: one per assignment of the hidden cells (just
        the board when nothing is hidden, nothing when abstaining)."""
        if self.board is not None:
            return (self.board,)
        if self.abstain or self.partial is None:
            return ()
        base = self.partial
        boards = []
        for bits in range(base.k ** len(self.hidden)):
            states = np.array(base.states)
            for r, c in self.hidden:
                states[r, c] = bits % base.k
                bits //= base.k
            boards.append(base.with_states(states))
        return tuple(boards)

    @property
    def confidence(self) -> float:
        """The lowest confidence of the cells read (0 when abstaining)."""
        read = [t.confidence for t in self.tiles if not t.hidden]
        if self.abstain or not read:
            return 0.0
        return float(min(read))

    @property
    def confident(self) -> bool:
        return not self.abstain and self.confidence >= CONFIDENT

    def to_json(self) -> dict:
        return {
            "found": self.found,
            "abstain": self.abstain,
            "reason": self.reason,
            "board": self.board_text,
            "hidden": [[r + 1, c + 1] for r, c in self.hidden if (r, c) not in self.unclear],
            "unclear": [[r + 1, c + 1] for r, c in self.unclear],
            "outside": [[r + 1, c + 1] for r, c in self.outside],
            "note": self.note,
            "confidence": round(self.confidence, 3),
            "method": self.method,
            "mode": self.mode,
            "tiles": [t.to_json() for t in self.tiles],
            "corners": None
            if self.corners is None
            else [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
        }


def as_bgr(frame: object) -> np.ndarray:
    """The frame's BGR channels (a view; BGRA from mss keeps its alpha out of the way).

    Raises :class:`FrameError` for anything but an 8-bit image with 3 or 4 channels
    (or a grey one, which is repeated into three).
    """
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8:
        raise FrameError("The picture must be an 8-bit image (a numpy uint8 array).")
    if frame.ndim == 2:
        frame = np.repeat(frame[..., None], 3, axis=2)
    if frame.ndim != 3 or frame.shape[2] not in (3, 4):
        raise FrameError("The picture must have 3 (BGR) or 4 (BGRA) colour channels.")
    if frame.shape[0] < 8 or frame.shape[1] < 8:
        raise FrameError("The picture is too small to hold a puzzle.")
    return frame[..., :3]


def read_frame(frame: np.ndarray, profile: Profile | None = None, *,
               max_hidden: int = MAX_HIDDEN,
               set_aside: tuple[tuple[int, int], ...] | None = None,
               diamonds_needed: int = MIN_DIAMONDS,
               fewer_diamonds: int | None = None, cut_strokes: bool = False) -> Reading:
    """:func:`_read_frame` with the notes its stages made (:attr:`Reading.trace`)."""
    with recording() as steps:
        reading = _read_frame(frame, profile, max_hidden=max_hidden, set_aside=set_aside,
                              diamonds_needed=diamonds_needed, fewer_diamonds=fewer_diamonds,
                              cut_strokes=cut_strokes)
        note("answer", _summary(reading))
    return replace(reading, trace=tuple(steps))


def _summary(reading: Reading) -> str:
    """The reading in a few words, for the trace."""
    if reading.abstain:
        return f"abstained: {reading.reason}"
    parts = [f"board {reading.board_text}"]
    for name, cells in (("covered", reading.covered), ("unclear", reading.unclear),
                        ("outside", reading.outside)):
        if cells:
            parts.append(f"{name} " + ", ".join(f"({r + 1},{c + 1})" for r, c in cells))
    return "; ".join(parts)


def _read_frame(frame: np.ndarray, profile: Profile | None = None, *,
                max_hidden: int = MAX_HIDDEN,
                set_aside: tuple[tuple[int, int], ...] | None = None,
                diamonds_needed: int = MIN_DIAMONDS,
                fewer_diamonds: int | None = None, cut_strokes: bool = False) -> Reading:
    """Read the puzzle in a BGR or BGRA frame; at most ``max_hidden`` cells hidden (the
    live loop, whose history fills them in, allows :data:`MAX_HIDDEN_IN_SESSION`).
    ``diamonds_needed``: how many plates must show a diamond to locate the ring
    (:func:`assistant.vision.locate.locate_ring`); ``fewer_diamonds``: how many, when none
    is found on that many (the same search goes on through the gold it found);
    ``cut_strokes``: also among diamonds a thin stroke joins (the live loop's last try).

    With a profile that has corners, the grid is placed by them (calibrated mode);
    without corners (or without a profile) the ToA ring is located automatically.
    Generic grids need corners: there is nothing to locate them by.

    ``set_aside``: the corners are where the locator placed the ring in an earlier frame
    of the same view, and these cells are the ones it did not read (hidden). The reading
    is then as careful as the locator's own: those cells stay hidden, and so does a cell
    with something foreign over part of it (a player standing on a plate reads as an
    unlit plate from what shows around the feet). A player's clicked corners are not that
    exact, so calibrated reads skip that check.
    """
    from assistant.profile import GridSpec

    bgr = as_bgr(frame)
    whole = frame if frame.ndim == 3 else bgr  # BGRA stays whole: contiguous, fast to resize
    grid = profile.grid if profile is not None else GridSpec(3, 3, ((1, 1),), 2, 1)
    look = Look(profile.appearance.look) if profile is not None else Look.TOA_PLATE
    refs = profile.appearance.references_bgr() if profile is not None else None
    if grid.states != 2:
        return _abstain(
            f"The reader reads on/off grids only; this profile has {grid.states} states.",
            "calibrated",
        )
    if profile is not None and profile.corners is not None:
        geometry = geometry_from_corners(grid.rows, grid.cols, np.array(profile.corners))
        if set_aside is not None:
            return _read_cells(bgr, geometry, grid, look, refs, "auto",
                               unmatched=tuple(set_aside), max_hidden=max_hidden)
        return _read_cells(bgr, geometry, grid, look, refs, "calibrated", unmatched=(),
                           max_hidden=max_hidden)
    if not grid.is_toa_ring:
        return _abstain(
            "This profile has no corner positions: calibrate the grid first.", "calibrated"
        )
    fit, why = locate_ring(whole, diamonds_needed=diamonds_needed, fewer_needed=fewer_diamonds,
                           cut_strokes=cut_strokes)
    if fit is None:
        reason = (
            "Two puzzle-like patterns are in view: calibrate to pick one."
            if why == "several"
            else NOT_IN_VIEW
        )
        return _abstain(reason, "auto")
    reading = _read_located(bgr, fit, grid, look, refs, max_hidden)
    if (reading.abstain and reading.found and fit.fit_error > EXACT_RING_FIT
            and diamonds_needed > MIN_DIAMONDS_AFTER_LAST_VIEW):
        core = _tight_core_on_five(whole, fit, cut_strokes)
        if core is not None:
            tighter = _read_located(bgr, core, grid, look, refs, max_hidden)
            if not tighter.abstain:
                return tighter
    if reading.abstain and reading.found:
        bent = bent_by_one_blob(fit)
        if bent is not None:
            # the ring through the other diamonds, that blob's plate not seen
            tighter = _read_located(bgr, bent, grid, look, refs, max_hidden)
            if not tighter.abstain:
                return tighter
    if reading.abstain and reading.found and sum(fit.matched) < diamonds_needed:
        return _unless_read_on_as_many(whole, bgr, reading, grid, look, refs, max_hidden,
                                       diamonds_needed, cut_strokes)
    return reading


def _unless_read_on_as_many(whole: np.ndarray, bgr: np.ndarray, reading: Reading,
                            grid: GridSpec, look: Look,
                            refs: tuple[tuple[int, int, int], tuple[int, int, int]] | None,
                            max_hidden: int, diamonds_needed: int, cut_strokes: bool
                            ) -> Reading:
    """``reading``, made on a ring the search found on fewer diamonds than it was asked
    for and could not read, or a reading of the ring a search on as many as were asked
    finds without going on to fewer, when that reads.

    Why: a small frame's search at half resolution on as many diamonds comes after the
    one on fewer (:func:`assistant.vision.locate.locate_ring`: a body's gold merged with
    a diamond counts as one at half, and the fewer whole ones at full resolution place
    the ring better). Where full resolution scattered the blurred diamonds' centres and
    found only five, the lattice through them hid four plates, and a session's first
    frame went blank, while the half-resolution search placed the ring on seven
    (at 68 degrees, through JPEG). Asked
    only when the ring on fewer is not read, so a frame costs a search more only then."""
    more, _why = locate_ring(whole, diamonds_needed=diamonds_needed, cut_strokes=cut_strokes)
    if more is None or sum(more.matched) < diamonds_needed:
        return reading
    again = _read_located(bgr, more, grid, look, refs, max_hidden)
    return reading if again.abstain else again


def _read_located(bgr: np.ndarray, fit: RingFit, grid: GridSpec, look: Look,
                  refs: tuple[tuple[int, int, int], tuple[int, int, int]] | None,
                  max_hidden: int) -> Reading:
    """Read the ring the locator placed (``fit``), as sure of its places as its diamonds
    make it."""
    unmatched = tuple(
        cell for cell, seen in zip(grid.cells, fit.matched, strict=True) if not seen
    )
    if _another_ring_fits(bgr, fit, unmatched):
        # the six other diamonds also fit a sheared ring whose missing corners lie
        # elsewhere, this camera makes that shear look like a plain view, and the plates'
        # frames do not tell the two apart
        return _abstain(
            "Two opposite corner plates are covered: the plates cannot be placed for sure.",
            "auto",
        )
    hidden_allowed = _hidden_allowed(max_hidden, unmatched)

    def read_at(geometry: GridGeometry, surely: bool) -> Reading:
        return _read_cells(bgr, geometry, grid, look, refs, "auto", unmatched=unmatched,
                           max_hidden=hidden_allowed, placed_surely=surely,
                           placed_here=True)

    reading = read_at(fit.geometry, len(unmatched) <= 1)
    reading = _unless_pulled_blob_reads_otherwise(reading, fit, read_at, hidden_allowed)
    reading, unfitted, fit_error = _corner_placed_by_the_others(reading, fit, unmatched,
                                                                read_at)
    return replace(_unless_corner_unplaced(reading, unfitted, fit_error),
                   unmatched=unmatched)


def _unless_pulled_blob_reads_otherwise(
    reading: Reading, fit: RingFit, read_at: Callable[[GridGeometry, bool], Reading],
    max_hidden: int,
) -> Reading:
    """``reading`` at the ring the other diamonds place without a blob that alone may
    bend ``fit`` (:func:`assistant.vision.locate.pulled_blob`), that blob's plate hidden
    unless that ring reads it the same; the plate hidden in ``reading`` when that ring
    reads nothing; an abstention when the plate hidden makes more than ``max_hidden``.

    Why: a blob pulled off its plate (a gold belt merged with the diamond) bends the fit
    so that the plate is read beside itself, the belt read as an unlit diamond (read at
    the others' ring, the plate showed covered). Where it read the same there, the bent
    reading used to stand, and the places nothing read checks stayed bent: at 68°, a
    figure's gold merged with a diamond into a blob three times its size
    put the two hidden plates beyond it 9 and 17 pixels off, a third of the
    foreshortened spacing. Where the pull was found on walk-through frames (80 steep
    sessions, 15 pulls), the others' ring lay nearer the
    plates in every one: 0.01-0.04 of the spacing off at its worst place, the bent fit
    0.06-0.28."""
    found = None if reading.abstain else pulled_blob(fit)
    if found is None:
        return reading
    cell, others = found
    tile = next((t for t in reading.tiles if (t.row, t.col) == cell), None)
    if tile is None or tile.hidden or tile.lit is None:
        return reading
    there = read_at(others.geometry, False)
    seen = next((t for t in there.tiles if (t.row, t.col) == cell), None)
    if not there.abstain and seen is not None and seen.lit == tile.lit:
        return there
    if not there.abstain:
        reading = there
    if cell not in reading.hidden and len(reading.hidden) + 1 > max_hidden:
        covered = np.array([RING_CELLS.index(c) for c in (*reading.hidden, cell)])
        return _abstain(_too_many_covered(RING_CELLS, covered, Look.TOA_PLATE, max_hidden),
                        reading.mode, found=True, geometry=reading.geometry)
    return reading.with_hidden((cell,))


#: a five-diamond ring is the loose fit's own ring when no place of it lies farther than
#: this from the loose fit's (of its spacing): another lattice lies a spacing off somewhere
_SAME_RING = 0.35


def _tight_core_on_five(whole: np.ndarray, fit: RingFit, cut_strokes: bool) -> RingFit | None:
    """The ring a search on five diamonds places exactly, when it is ``fit``'s own ring.

    Why: a search on six takes a body's blob beside a covered plate among its diamonds,
    and the loose fit it pulls (0.013-0.027 of the spacing) puts the covered places off
    their plates, which then read as floor or doubt: four covered where the truth hides
    one or two, and the frame abstains (seen at steep cameras on both room sources). The
    five diamonds read whole fit the ring to 0.002-0.003, and their frames show about
    seven or eight places."""
    core, _why = locate_ring(whole, diamonds_needed=MIN_DIAMONDS_AFTER_LAST_VIEW,
                             cut_strokes=cut_strokes)
    if core is None or core.fit_error > EXACT_RING_FIT:
        return None
    same = same_places(fit.geometry.homography, core.geometry.homography, _SAME_RING)
    return core if same else None


def _corner_placed_by_the_others(
    reading: Reading, fit: RingFit, unmatched: tuple[tuple[int, int], ...],
    read_at: Callable[[GridGeometry, bool], Reading],
) -> tuple[Reading, tuple[tuple[int, int], ...], float]:
    """``reading`` with the places ``fit``'s ring was not fitted to (``unmatched``) and
    its fit error; or, when the reading hides a corner plate and both its ring
    neighbours, the blob of one of them among those the ring was fitted to, and the five
    other plates were read whole on the diamonds matched there: the reading at the ring
    those five diamonds place alone (``read_at``, the same read at another geometry),
    when they fit it exactly (:func:`assistant.vision.locate.ring_placed_by`), with the
    trio as not fitted.

    Why: the blob of a covered plate is pulled off its diamond by the body over it, and
    the places beyond it, which nothing read checks, move most. At 150% display scaling
    and 63° the player's plate, its blob 6 pixels off, put the corner beyond it 12
    pixels off (half the foreshortened spacing) with the six blobs fitted to 0.008: the
    overlay's mark missed its plate. The five diamonds read whole put that corner on its
    plate, and two such corners at steep cameras within 2 pixels (fits on six: 7 and 18
    pixels off). Only where
    they place it steadily (:func:`assistant.vision.locate.ring_placed_by`): at a far,
    steep view a pixel in their centres moves the corner by half the spacing, and the
    frame above is left to the rule too."""
    if reading.abstain:
        return reading, unmatched, fit.fit_error
    hidden = set(reading.hidden)
    for trio in _CORNER_TRIOS.values():
        if not trio <= hidden or not trio - set(unmatched):
            continue
        others = [cell for cell in RING_CELLS if cell not in trio]
        refit = None if hidden & set(others) else ring_placed_by(fit, others)
        if refit is None:
            break  # the fit through the covered blob stands, for the rule to judge
        return (read_at(refit.geometry, False), tuple(sorted(set(unmatched) | trio)),
                refit.fit_error)
    return reading, unmatched, fit.fit_error


def _unless_corner_unplaced(reading: Reading, unmatched: tuple[tuple[int, int], ...],
                            fit_error: float) -> Reading:
    """``reading``, or an abstention when it hides a corner plate and both its ring
    neighbours and the ring was fitted to one of them or more (``unmatched``: the places
    it was not), or the fit is loose (``fit_error``, RMS in spacings,
    :data:`assistant.vision.locate.LOOSE_FIT` or more). The locator matches partly
    covered diamonds too, and nothing read checks where such a blob pulled the three
    hidden places: the five plates read lie on two sides, which fix the ring nowhere
    else. At 64° a team-mate and the player over such a corner put them 19 pixels off
    (half the foreshortened spacing), and the marks missed their plates; a covered
    neighbour's blob 10 pixels off under the player put the corner beyond it 18 pixels
    off. The fit's error does not tell: that frame's six blobs fitted to 0.013, and
    another's, 12 pixels off at the corner, to 0.008 (63°, 150% display scaling), where
    right ones fitted to 0.007. Where the five other diamonds were read whole, the ring
    they place alone is read instead (:func:`_corner_placed_by_the_others`); this rule
    blanks the rest."""
    hidden, fitted = set(reading.hidden), set(reading.hidden) - set(unmatched)
    loose = fit_error >= LOOSE_FIT
    if reading.abstain or not any(trio <= hidden and (trio & fitted or loose)
                                  for trio in _CORNER_TRIOS.values()):
        return reading
    return _abstain("A corner plate and both its neighbours are covered: the plates cannot "
                    "be placed for sure.", "auto", found=True)


#: each corner of the ToA ring with its two ring neighbours
_CORNER_TRIOS = {(r, c): frozenset({(r, c), (r, 1), (1, c)}) for r in (0, 2) for c in (0, 2)}


def _hidden_allowed(max_hidden: int, unmatched: tuple[tuple[int, int], ...]) -> int:
    """The cells a located or followed ring may leave hidden: a ring fitted to six
    diamonds or fewer places the others less surely (six with three in a row fitted a
    squashed ring to 0.01 spacings in a walk-through, its unseen plates off), so it hides
    at most :data:`_MAX_HIDDEN_ON_SIX`; a fourth hidden plate needs seven diamonds."""
    if len(unmatched) >= 2:
        return min(max_hidden, _MAX_HIDDEN_ON_SIX)
    return max_hidden


def follow_frame(frame: np.ndarray, previous: GridGeometry,
                 profile: Profile | None = None, *, turned: bool = False,
                 zoomed: bool = False, hide_more: bool = False,
                 previous_sure: bool = True,
                 pitched_about: tuple[float, float] | None = None) -> Reading:
    """Read the ToA ring by following it from ``previous``, the place the live loop last
    saw it, when locating afresh finds nothing: after a step the camera has moved with
    the player, and the player and team-mates may leave too few diamonds for a fresh
    search (:func:`assistant.vision.locate.follow_ring`; ``turned``, ``zoomed``: also a
    ring the camera turned or zoomed about the player; ``pitched_about``: only the ring
    the camera pitched about the player standing at that spot). The plates keep their
    labels.
    ``hide_more``: a rigid placement may hide :data:`_MAX_HIDDEN_RIGID` plates, not a
    session's four (the live loop's last try: a reading of fewer plates only where
    nothing reads more). ``previous_sure``: False when ``previous`` placed a corner plate
    and both its neighbours from the other plates alone (:func:`leaves_a_corner_unread`);
    moved rigidly, its error there grows with the move, so the placement counts as a
    fitted one."""
    from assistant.profile import GridSpec

    bgr = as_bgr(frame)
    whole = frame if frame.ndim == 3 else bgr
    grid = profile.grid if profile is not None else GridSpec(3, 3, ((1, 1),), 2, 1)
    if not grid.is_toa_ring or grid.states != 2:
        return _abstain(NOT_IN_VIEW, "auto")
    look = Look(profile.appearance.look) if profile is not None else Look.TOA_PLATE
    refs = profile.appearance.references_bgr() if profile is not None else None
    fit = follow_ring(whole, previous, turned=turned, zoomed=zoomed,
                      pitched_about=pitched_about)
    if fit is None:
        return _abstain(NOT_IN_VIEW, "auto")
    unmatched = tuple(
        cell for cell, seen in zip(grid.cells, fit.matched, strict=True) if not seen
    )
    # the last view moved rigidly is a whole ring, however few diamonds placed it (no
    # lattice squashed through them): it may hide as many as a session allows (three
    # plates under the client's chat panel and the player on a fourth, after a step),
    # or one more when asked (a statue over a fifth, at a close zoom)
    rigid = fit.rigid and previous_sure
    rigid_allowed = _MAX_HIDDEN_RIGID if hide_more else MAX_HIDDEN_IN_SESSION
    hidden_allowed = rigid_allowed if rigid else _hidden_allowed(
        MAX_HIDDEN_IN_SESSION, unmatched)
    def read_at(geometry: GridGeometry, surely: bool) -> Reading:
        return _read_cells(bgr, geometry, grid, look, refs, "auto", unmatched=unmatched,
                           max_hidden=hidden_allowed, placed_surely=surely)

    reading = read_at(fit.geometry, len(unmatched) <= 1)
    if rigid:
        return replace(reading, moved_rigidly=not reading.abstain)
    reading = _unless_pulled_blob_reads_otherwise(reading, fit, read_at, hidden_allowed)
    reading, unfitted, fit_error = _corner_placed_by_the_others(reading, fit, unmatched,
                                                                read_at)
    return _unless_corner_unplaced(reading, unfitted, fit_error)


def leaves_a_corner_unread(hidden: tuple[tuple[int, int], ...]) -> bool:
    """Does a ToA reading hiding ``hidden`` leave a corner plate and both its ring
    neighbours unread? Its places there come from the other five alone."""
    return any(trio <= set(hidden) for trio in _CORNER_TRIOS.values())


def _shear_relabellings() -> dict[frozenset, list[np.ndarray]]:
    """For two opposite corners missing: the affine maps of the grid, other than the
    ring's own symmetries, that take the six other ring places onto themselves. Each is a
    second ring those six diamonds fit (found once by trying every permutation)."""
    import itertools

    out: dict[frozenset, list[np.ndarray]] = {}
    ring = [(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)]
    for corners in ({(0, 0), (2, 2)}, {(0, 2), (2, 0)}):
        kept = [cell for cell in ring if cell not in corners]
        src = np.array([(c, r, 1.0) for r, c in kept])
        maps = []
        for order in itertools.permutations(kept):
            dst = np.array([(c, r) for r, c in order], np.float64)
            affine, *_ = np.linalg.lstsq(src, dst, rcond=None)
            if np.abs(src @ affine - dst).max() > 1e-9:
                continue
            full = np.vstack([affine.T, [0, 0, 1]])
            moved = {tuple(np.rint(full @ (c, r, 1.0))[:2]) for r, c in corners}
            if moved != {(c, r) for r, c in corners}:  # not a symmetry of the ring
                maps.append(full)
        out[frozenset(corners)] = maps
    return out


_SHEARS = _shear_relabellings()


# With two opposite corners unmatched, a sheared ring through the six diamonds is set
# aside when the ring shows purple frames about this many of the six at least and the
# sheared ring about this many at most: its frames fall off the plates' (measured at 55-68°:
# the ring 3-6, sheared rings 0-1, JPEG frames included)
_FRAMED_OF_SIX = 4
_FRAMED_OF_SIX_SHEARED = 1


def _another_ring_fits(bgr: np.ndarray, fit: RingFit,
                       unmatched: tuple[tuple[int, int], ...]) -> bool:
    """With two opposite corners unmatched, could a sheared ring through the same six
    diamonds be a camera's view too (see :func:`_shear_relabellings`)? Not when the six
    plates' frames lie where the ring puts them and not where the sheared ring does: a
    plate's frame is shaped by the lattice, so a shear moves it off the purple."""
    shears = _SHEARS.get(frozenset(unmatched), ())
    if not shears:
        return False
    seen = np.array(fit.matched)
    framed = int(framed_places(bgr, fit.geometry)[seen].sum())
    for shear in shears:
        sheared = GridGeometry(3, 3, fit.geometry.homography @ shear)
        if roll_skew(sheared.homography) > MAX_ROLL_SKEW:
            continue
        if (framed < _FRAMED_OF_SIX
                or int(framed_places(bgr, sheared)[seen].sum()) > _FRAMED_OF_SIX_SHEARED):
            return True
    return False


def _abstain(reason: str, mode: str, *, found: bool = False,
             geometry: GridGeometry | None = None,
             tiles: tuple[TileReading, ...] = ()) -> Reading:
    corners = geometry.corners() if geometry is not None else None
    return Reading(found, True, reason, None, tiles, corners, geometry, mode)


def _cell_name(look: Look) -> str:
    return "Plate" if look is Look.TOA_PLATE else "Cell"


def _read_cells(
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
    """``placed_surely``: the grid was just placed on seven diamonds or more, so a covered
    plate is not checked for the plain floor (see below); ``placed_here``: the locator
    placed it in this frame, so a covered place with a purple frame about it is a plate
    whatever covers it (not checked either; corners kept from an earlier view are)."""
    cells = grid.cells
    points = geometry.sample_points(cells, SAMPLE_OFFSETS,
                                    inside_diamond=look is Look.TOA_PLATE)
    centres = geometry.to_image(np.array([(c, r) for r, c in cells], np.float64))
    height, width = bgr.shape[:2]
    inside = (
        (points[..., 0] >= 0) & (points[..., 0] <= width - 1)
        & (points[..., 1] >= 0) & (points[..., 1] <= height - 1)
    ).all(axis=1)
    found = mode == "auto"

    def pending_tiles(confidence: np.ndarray | None = None) -> tuple[TileReading, ...]:
        return tuple(
            TileReading(r, c, None, 0.0 if confidence is None else float(confidence[i]),
                        (float(centres[i][0]), float(centres[i][1])))
            for i, (r, c) in enumerate(cells)
        )

    if not inside.any():
        return _abstain(NOT_IN_VIEW, mode, geometry=geometry)
    # a located ring with a plate or two past the picture's edge (the camera follows the
    # player to the room's side; a client panel): those plates are hidden like covered
    # ones, for the session to fill in. Calibrated corners outside the picture are a
    # calibration that no longer fits.
    outside = np.flatnonzero(~inside)
    if len(outside) and (mode != "auto" or len(outside) > max_hidden):
        r, c = cells[int(outside[0])]
        return _abstain(
            f"{_cell_name(look)} at row {r + 1}, column {c + 1} is outside the picture.",
            mode, found=found, geometry=geometry, tiles=pending_tiles(),
        )
    samples = pixels_at(bgr, points)  # (cells, points, 3)

    hidden: list[int] = [int(i) for i in outside]  # indices into cells, in the order set aside
    # set aside for something over part of the plate (no diamond's shape found, a shade,
    # part of it foreign, its edge against its middle): never told from its whole area
    partly: set[int] = {i for i, cell in enumerate(cells) if cell in unmatched}
    if look is Look.TOA_PLATE:
        sector_colours, _spread = sector_stats(samples, SAMPLE_SECTORS)
        gold = _is_gold(sector_colours.reshape(-1, 3)).reshape(len(cells), -1).sum(axis=1) >= 2
        gold[outside] = False
        if not gold.any() or (mode == "calibrated" and gold.sum() < len(cells) / 2):
            return _abstain(NOT_IN_VIEW, mode, geometry=geometry)
        covered = np.flatnonzero(~gold)
        if len(covered) > max_hidden:
            r, c = cells[int(covered[0])]
            return _abstain(
                _too_many_covered(cells, covered, look, max_hidden), mode, found=True,
                geometry=geometry,
                tiles=pending_tiles(),
            )
        hidden.extend(int(i) for i in covered if i not in outside)
        for i in covered:
            if i not in outside:
                note("read", f"{_place(cells[i])} set aside: no gold in its diamond")

    on_off = (np.array(refs[0], np.float64), np.array(refs[1], np.float64)) if refs else None
    # decide on the cells still in view; a cell the decision finds covered (a figure over
    # part of it, colours of neither look) is set aside and the rest decided again
    decided: tuple[np.ndarray, Decision] | None = None  # the last decision made
    # ToA plates read by their contrast (no calibrated colours) may have more set aside
    # while deciding, down to four to tell the looks by: a plate with nothing over it is
    # then told from its whole diamond (_settle_unread), and only what stays unread counts
    relaxed = look is Look.TOA_PLATE and refs is None
    cap = max(max_hidden, len(cells) - 4) if relaxed else max_hidden
    while True:
        visible = np.array([i for i in range(len(cells)) if i not in hidden], np.intp)
        decision = classify(samples[visible], look, *(on_off or (None, None)),
                            sectors=SAMPLE_SECTORS)
        if decision.lit is None:
            if (decision.reason == "covered" and decision.bad_cell is not None
                    and len(hidden) < cap and len(visible) > 2):
                hidden.append(int(visible[decision.bad_cell]))
                note("read", f"{_place(cells[hidden[-1]])} set aside: its colours fit "
                     "neither look")
                continue
            # a plate the locator did not see as a diamond (a gold figure over it) can
            # spoil the looks of all the others: decide without it
            suspects = [int(i) for i in visible if cells[i] in unmatched]
            if suspects and len(hidden) < cap and len(visible) > 2:
                hidden.append(suspects[0])
                note("read", f"{_place(cells[suspects[0]])} set aside: no diamond found "
                     "there, and the others' looks are not told with it")
                continue
            # a plate hidden for doubt (only partly foreign, or its edge) was read with
            # the others: their looks stand without it. Deciding fewer again can fail on
            # its own (tiny plates at a steep camera: a median over fewer cells called
            # plain ones covered until one too many was hidden), and the frame went blank
            kept = None if decided is None else _without_doubted(*decided, visible)
            if kept is None and relaxed:
                # the sectors tell nothing: every plate in view stays unread, covered or
                # unclear (_settle_unread). None is told from its whole diamond: no plate
                # was cleared of something over part of it (a body trailing its step,
                # half over a plate, reads whole as the look it hides)
                note("read", "the plates' sectors tell no two looks: no plate in view "
                     "is read")
                hidden.extend(int(i) for i in visible)
                partly.update(int(i) for i in visible)
                decision = None
                break
            if kept is None:
                bad = None if decision.bad_cell is None else int(visible[decision.bad_cell])
                return _abstain(
                    _reason(decision, cells, look, bad), mode, found=True, geometry=geometry,
                    tiles=pending_tiles(),
                )
            decision = kept
        # a cell with something over part of it is not read from the rest: a figure's legs
        # or shadow make a guess of what is left (a lit plate half under a dark figure reads
        # unlit). Such cells are hidden, for the session to fill in.
        # (even three sectors of four are not enough when the fourth shows something
        # foreign: yellow legs over it and their shadow over the rest read a lit plate as
        # unlit, seen on rendered figures; sectors merely near the threshold, as JPEG or a
        # gamma change leave them, are no such sign)
        # A plate the locator did not see as a diamond is not read at all: olive-gold
        # trousers over a lit diamond read as a whole, even, unlit plate (confidence 0.9)
        # (auto mode only: calibrated corners are the player's clicks, so the sampled
        # disc often overlaps a diamond's edge, which looks just as foreign)
        foreign = decision.foreign if mode == "auto" else None
        shaded = (_shaded(samples[visible], decision.lit)
                  if look is Look.TOA_PLATE and mode == "auto" else np.zeros(len(visible), bool))
        doubtful = [
            int(i) for j, i in enumerate(visible)
            if cells[i] in unmatched or bool(shaded[j])
            or (decision.confidence[j] <= PARTIAL_CONFIDENCE
                and foreign is not None and bool(foreign[j]))
        ]
        if not doubtful and look is Look.TOA_PLATE and mode == "auto":
            # a doubt of the edge is asked for with the plates the reading may hide already
            # hidden too, and then makes it abstain: gold trousers over a lit diamond read
            # unlit from its middle while a player and a team-mate covered two plates
            # (asked only while a plate could still be spared, that reading stood)
            doubtful = _edge_doubts(bgr, geometry, cells, visible, decision, on_off)
        if not doubtful:
            break
        decided = (visible, decision)
        if len(hidden) + 1 > cap:
            r, c = cells[doubtful[0]]
            return _abstain(
                _too_many_covered(cells, np.array(hidden + doubtful[:1]), look, max_hidden),
                mode,
                found=True, geometry=geometry, tiles=pending_tiles(),
            )
        hidden.append(doubtful[0])
        partly.add(doubtful[0])
        note("read", f"{_place(cells[doubtful[0]])} set aside: "
             + _doubt(doubtful[0], cells, unmatched, visible, shaded, decision, foreign))

    covered = [cells[i] for i in hidden if i not in outside]
    if covered and look is Look.TOA_PLATE and not placed_surely and placed_here:
        framed = framed_places(bgr, geometry)  # per ring place, in the order of ``cells``
        covered = [cell for cell in covered if not framed[cells.index(cell)]]
    if (covered and look is Look.TOA_PLATE and not placed_surely
            and _plain_floor(bgr, geometry, covered)):
        # six diamonds can be fitted by a lattice that is not the ring; its other two places
        # then show the floor between plates, where a covered plate shows what covers it
        # (and corners kept from an earlier frame put a plate on the floor when the view
        # has moved). Seven diamonds place the ring itself: a grey cape over a plate
        # behind a body, at a steep camera, looks like the floor and is not; nor is a
        # place with a purple frame about it (the floor between plates has none)
        if len(hidden) > max_hidden:
            # more set aside than a reading may leave unread: too covered to say whether
            # the ring is misplaced or merely covered (the next frames search again)
            return _abstain(_too_many_covered(cells, np.array(hidden), look, max_hidden),
                            mode, found=True, geometry=geometry, tiles=pending_tiles())
        return _abstain(NOT_IN_VIEW, mode, geometry=geometry)
    lit = np.full(len(cells), -1, np.int64)
    confidence = np.zeros(len(cells))
    if decision is not None:
        lit[visible] = decision.lit
        confidence[visible] = decision.confidence
    unclear = _settle_unread(bgr, geometry, cells, samples, hidden, outside, lit,
                             confidence, look, partly,
                             kept_aside={i for i, cell in enumerate(cells) if cell in unmatched})
    if len(hidden) > max_hidden:
        kinds = np.array(hidden)
        reason = (_too_many_unclear(cells, kinds, look, max_hidden)
                  if all(cells[i] in unclear or i in outside for i in hidden)
                  else _too_many_covered(cells, kinds, look, max_hidden))
        return _abstain(reason, mode, found=True, geometry=geometry, tiles=pending_tiles())
    states = np.zeros((grid.rows, grid.cols), np.int64)
    for (r, c), value in zip(cells, lit, strict=True):
        states[r, c] = max(int(value), 0)
    read = Board.from_arrays(states, np.array(grid.present), grid.states, grid.objective)
    tiles = tuple(
        TileReading(r, c, None if lit[i] < 0 else bool(lit[i]), float(confidence[i]),
                    (float(centres[i][0]), float(centres[i][1])), hidden=bool(lit[i] < 0),
                    unclear=(r, c) in unclear)
        for i, (r, c) in enumerate(cells)
    )
    hidden_cells = tuple(sorted(cells[i] for i in hidden))
    method = "whole" if decision is None else decision.method
    return Reading(True, False, None, None if hidden else read, tiles, geometry.corners(),
                   geometry, mode, method, hidden=hidden_cells,
                   partial=read if hidden else None, cell_noun=_cell_name(look),
                   outside=tuple(sorted(cells[i] for i in outside)), unclear=unclear)


def _settle_unread(bgr: np.ndarray, geometry: GridGeometry, cells: list[tuple[int, int]],
                   samples: np.ndarray, hidden: list[int], outside: np.ndarray,
                   lit: np.ndarray, confidence: np.ndarray, look: Look,
                   partly: set[int] = frozenset(), kept_aside: set[int] = frozenset()
                   ) -> tuple[tuple[int, int], ...]:
    """What the plates set aside in view are: covered (something stands on them, by
    :func:`assistant.vision.cover.covered` against the plates read), or else told from
    their whole diamonds (:func:`read_whole`; ``lit``, ``confidence`` and ``hidden``
    updated), or unclear. Returns the unclear cells. Only ToA plates have a frame and a
    diamond to tell a body by; a generic grid's cell set aside stays covered.

    When no plate was read by its sectors, the plates told by their whole diamonds are
    the ones the rest are compared with for a body. A plate set aside for something over
    part of it (``partly``: no diamond's shape found there, a shade, part of it foreign,
    its edge against its middle) is not told from its whole area on its own: legs, a
    stroke or clothes in a plate's own colours pass the cover test while their median
    reads the wrong look; it is told whole only where the floor behind it on screen shows
    that nothing stands on it (:mod:`assistant.vision.standing`), and is otherwise
    covered or unclear."""
    suspects = [i for i in hidden if i not in outside]
    if look is not Look.TOA_PLATE or not suspects:
        return ()

    def bodies(among: list[int]) -> set[int]:
        read = {i: int(lit[i]) for i in range(len(cells)) if lit[i] >= 0}
        verdicts = covered(bgr, geometry, cells, among, read)
        return {index for index, body in verdicts.items() if body}

    references = int((lit >= 0).sum())
    under = bodies(suspects) if references >= 2 else set()
    # standing.py: a plate set aside for part of it is told whole only where the floor
    # behind it on screen shows that nothing stands on it (never one the locator found no
    # diamond at, or the caller set aside: ``kept_aside``)
    probes = nothing_stands(bgr, geometry, cells,
                            sorted(set(partly) & set(suspects) - under - set(kept_aside)),
                            lit, suspects)
    partly = {i for i in partly if not (i in probes and probes[i].clear)}
    plain = np.array([i for i in range(len(cells))
                      if lit[i] >= 0 or (i in suspects and i not in under
                                         and i not in partly)], np.intp)
    told = read_whole(samples[plain], lit[plain])
    for index, look_told in zip(plain, told, strict=True):
        if lit[index] < 0 <= look_told:
            lit[index], confidence[index] = look_told, WHOLE_CONFIDENCE
            hidden.remove(int(index))
            note("read", f"{_place(cells[index])} told from its whole diamond: "
                 + ("lit" if look_told else "unlit"))
    if references < 2:  # compared now with the plates the whole diamonds told
        left = [i for i in suspects if lit[i] < 0]
        under = bodies(left) if (lit >= 0).sum() >= 2 else set()
    for index in suspects:
        if lit[index] < 0:
            note("cover", f"{_place(cells[index])} "
                 + ("covered: something stands on it" if index in under
                    else "unclear: no sign of anything on it, its look not told"))
    return tuple(sorted(cells[i] for i in suspects if lit[i] < 0 and i not in under))


def _place(cell: tuple[int, int]) -> str:
    return f"({cell[0] + 1},{cell[1] + 1})"


def _doubt(index: int, cells: list[tuple[int, int]], unmatched: tuple[tuple[int, int], ...],
           visible: np.ndarray, shaded: np.ndarray, decision: Decision,
           foreign: np.ndarray | None) -> str:
    """Why a plate read with the others was doubted, in words (for the trace)."""
    if cells[index] in unmatched:
        return "the locator found no diamond there"
    where = np.flatnonzero(visible == index)
    if not len(where):
        return "doubted"
    j = int(where[0])
    if shaded[j]:
        return "darker than the other plates of its look"
    if foreign is not None and foreign[j] and decision.confidence[j] <= PARTIAL_CONFIDENCE:
        return f"partly foreign, confidence {decision.confidence[j]:.2f}"
    return "its edge reads otherwise than its middle"


def _edge_doubts(bgr: np.ndarray, geometry: GridGeometry, cells: list[tuple[int, int]],
                 visible: np.ndarray, decision: Decision,
                 on_off: tuple[np.ndarray, np.ndarray] | None) -> list[int]:
    """The visible plates that the fixed lattice reads otherwise than the decision made on
    the lattice kept inside small diamonds, where the fixed one still keeps
    :data:`EDGE_CHECK_MARGIN_PX` from the outline. Gold legs can cover a diamond all but its
    edge, and read as an even plate of the other look from its middle; the fixed lattice
    reaches the edge that still shows the plate. (On smaller diamonds the edge is the
    outline's blend with the frame, and nothing is checked.) Only a plate the fixed
    lattice reads, otherwise or partly with something foreign, is doubted: a fixed
    lattice that cannot read the frame at all (a plate next to a body looked covered at
    its edge, and the frame lost its answer) gives no opinion."""
    margin_px = geometry.fixed_lattice_margin_px([cells[i] for i in visible])
    # shrunk for the decision, yet the fixed lattice's edge is no blend with the outline
    checked = (margin_px >= EDGE_CHECK_MARGIN_PX) & (margin_px < OUTLINE_MARGIN_PX)
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


def _shaded(samples: np.ndarray, lit: np.ndarray) -> np.ndarray:
    """Per decided plate: is it much darker than the other plates of its look? Bodies
    standing beside a far plate at a steep camera can cover all of its diamond but a
    sliver, and the sampled points then mix the gold with a dark coat in every sector
    alike: the ToA feature, chroma with brightness, can still land on a look (an unlit
    plate read lit at 64°), but the plate is darker than the
    other plates of that look (or, alone in its look, far darker than the other look: a
    coat over all of a lit diamond but its rim, from above, read unlit). Plates of one
    look differ in brightness by a few hundredths (log units) on every rendered and
    re-projected room; with three or more of a look, each is compared with the median of
    the others (:data:`_SHADED_BELOW_REST`), which a dark one does not pull down. A plate
    read lit that is no brighter than the median unlit plate is doubted too
    (:data:`_LIT_ABOVE_UNLIT`): gold clothes over an unlit diamond."""
    level = np.log(np.median(samples, axis=1).max(axis=1) + 8.0)
    shaded = np.zeros(len(lit), bool)
    for look in (0, 1):
        members, others = np.flatnonzero(lit == look), np.flatnonzero(lit != look)
        if len(members) >= 3:
            # one of three or more pulls the median of all down itself (of three, to the
            # lower of the other two): the others tell
            for j in members:
                rest = np.median(level[members[members != j]])
                shaded[j] |= level[j] < rest - _SHADED_BELOW_REST
        other_look = np.median(level[others]) if len(others) else 0.0
        if len(others) >= 3:
            # a plate alone in its look has no others to be compared with: the other look
            # then tells, the two looks being close in brightness
            shaded[members] |= level[members] < other_look - _SHADED_BELOW_OTHERS
        if look == 1 and len(others) >= _LIT_ABOVE_UNLIT_AMONG:
            # gold clothes over an unlit diamond can pass for lit in chroma, never in
            # brightness
            shaded[members] |= level[members] <= other_look + _LIT_ABOVE_UNLIT
    return shaded


def _without_doubted(visible: np.ndarray, decision: Decision, still: np.ndarray
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


def _plain_floor(bgr: np.ndarray, geometry: GridGeometry, cells: list[tuple[int, int]]) -> bool:
    """Does any of ``cells`` show the plain floor (its disc and the plate frame around it)?"""

    def sample(points: np.ndarray) -> np.ndarray:
        return pixels_at(bgr, geometry.to_image(points))

    floor = sample(_FLOOR_POINTS)
    centre = np.median(floor, axis=0)
    spread = np.median(np.abs(floor - centre).max(axis=1))
    tolerance = max(_FLOOR_TOLERANCE, 2.5 * float(spread))
    angles = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    ring = np.stack([np.cos(angles), np.sin(angles)], 1) * 0.22
    for r, c in cells:
        points = np.concatenate([SAMPLE_OFFSETS, ring]) + np.array([c, r], np.float64)
        colours = sample(points)
        like = np.abs(colours - centre).max(axis=1) <= tolerance
        if like.mean() >= _FLOOR_LIKE_SHARE:
            return True
    return False


def _is_gold(bgr: np.ndarray) -> np.ndarray:
    """Per colour: could this be a ToA diamond under some brightness, gamma or client?
    Yellow to orange: red and green well above blue, neither far above the other."""
    b, g, r = bgr[:, 0], bgr[:, 1], bgr[:, 2]
    top = np.maximum(r, g)
    saturation = (top - b) / np.maximum(top, 1.0)
    return (
        (saturation >= _GOLD_MIN_SATURATION)
        & (top >= 25)
        & (g >= 0.45 * r)
        & (g <= 1.25 * r)
        & (b <= g)
    )


def _too_many_covered(cells: list[tuple[int, int]], covered: np.ndarray, look: Look,
                      max_hidden: int = MAX_HIDDEN) -> str:
    """More cells covered than a reading may hide: name them."""
    places = ", ".join(f"row {cells[i][0] + 1}, column {cells[i][1] + 1}" for i in covered)
    return (f"Too much of the puzzle is covered ({_cell_name(look).lower()}s at {places}); "
            f"at most {max_hidden} may be hidden.")


def _too_many_unclear(cells: list[tuple[int, int]], unread: np.ndarray, look: Look,
                      max_hidden: int = MAX_HIDDEN) -> str:
    """More cells in view but not told lit from unlit than a reading may leave unread."""
    places = ", ".join(f"row {cells[i][0] + 1}, column {cells[i][1] + 1}" for i in unread)
    return (f"Can't tell lit from unlit on {_cell_name(look).lower()}s at {places} (too "
            f"small or blurred); at most {max_hidden} may be left unread.")


def _reason(decision: Decision, cells: list[tuple[int, int]], look: Look,
            bad: int | None = None) -> str:
    if decision.reason == "covered" and bad is not None:
        r, c = cells[bad]
        return f"{_cell_name(look)} at row {r + 1}, column {c + 1} is covered."
    if decision.reason == "no-references":
        return (
            "Can't tell lit from unlit: every cell looks the same and the profile has no "
            "on/off colours."
        )
    if decision.reason == "unlike-references":
        return "Can't tell lit from unlit: the cells do not look like the profile's on/off colours."
    return "Can't tell lit from unlit."
