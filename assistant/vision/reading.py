"""What the reader answers: a reading of one frame, its cells, and the sentences it abstains with.

The data every stage of the reader hands on (:mod:`assistant.vision.reader` runs them) and
every consumer takes: the live loop, the overlay, ``detect``. A reading never guesses: a
plate with something standing on it is reported *hidden*, up to :data:`MAX_HIDDEN` of
them, and otherwise the reading abstains with a sentence a player understands.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from assistant.errors import UserError
from assistant.puzzle import Board
from assistant.vision.appearance import CONFIDENT, Decision, Look
from assistant.vision.geometry import GridGeometry
from assistant.vision.trace import TraceStep

__all__ = [
    "MAX_HIDDEN",
    "MAX_HIDDEN_IN_SESSION",
    "NOT_IN_VIEW",
    "FrameError",
    "Reading",
    "TileReading",
    "abstain",
    "as_bgr",
    "cell_noun",
    "cell_words",
    "too_many_covered",
    "too_many_unclear",
    "undecided_reason",
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
    #: placed by the live loop's last view moved rigidly
    #: (:func:`~assistant.vision.reader.follow_frame`): as sure as that view, whatever it
    #: hides
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
        return self.partial.variants(self.hidden)

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


def abstain(reason: str, mode: str, *, found: bool = False,
            geometry: GridGeometry | None = None,
            tiles: tuple[TileReading, ...] = ()) -> Reading:
    """A reading that gives no board, saying why in ``reason`` (one sentence)."""
    corners = geometry.corners() if geometry is not None else None
    return Reading(found, True, reason, None, tiles, corners, geometry, mode)


def cell_noun(look: Look) -> str:
    """What the player calls a cell of this look, in sentences."""
    return "Plate" if look is Look.TOA_PLATE else "Cell"


def cell_words(cell: tuple[int, int]) -> str:
    """A cell as the trace names it: (row, column), counted from 1."""
    return f"({cell[0] + 1},{cell[1] + 1})"


def too_many_covered(cells: list[tuple[int, int]], covered: np.ndarray, look: Look,
                     max_hidden: int = MAX_HIDDEN) -> str:
    """More cells covered than a reading may hide: name them."""
    places = ", ".join(f"row {cells[i][0] + 1}, column {cells[i][1] + 1}" for i in covered)
    return (f"Too much of the puzzle is covered ({cell_noun(look).lower()}s at {places}); "
            f"at most {max_hidden} may be hidden.")


def too_many_unclear(cells: list[tuple[int, int]], unread: np.ndarray, look: Look,
                     max_hidden: int = MAX_HIDDEN) -> str:
    """More cells in view but not told lit from unlit than a reading may leave unread."""
    places = ", ".join(f"row {cells[i][0] + 1}, column {cells[i][1] + 1}" for i in unread)
    return (f"Can't tell lit from unlit on {cell_noun(look).lower()}s at {places} (too "
            f"small or blurred); at most {max_hidden} may be left unread.")


def undecided_reason(decision: Decision, cells: list[tuple[int, int]], look: Look,
                     bad: int | None = None) -> str:
    """Why the looks of a frame's cells were not told apart, in one sentence."""
    if decision.reason == "covered" and bad is not None:
        r, c = cells[bad]
        return f"{cell_noun(look)} at row {r + 1}, column {c + 1} is covered."
    if decision.reason == "no-references":
        return (
            "Can't tell lit from unlit: every cell looks the same and the profile has no "
            "on/off colours."
        )
    if decision.reason == "unlike-references":
        return "Can't tell lit from unlit: the cells do not look like the profile's on/off colours."
    return "Can't tell lit from unlit."
