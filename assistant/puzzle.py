"""Board model shared by the engine, the reader and the windows.

A board is a rectangle of ``rows x cols`` cells, some of which may be holes
(absent cells). Every present cell holds a state ``0..k-1``; pressing a cell adds
one (mod k) to it and to its present orthogonal neighbours. The board is solved
when every present cell shows the objective state.

Text format (used by the command line, the reader and the tests): rows separated
by ``/`` (or newlines), one character per cell: ``0``-``9`` then ``a``-``z`` for the
states 10..35, ``#`` for a hole. The ToA room is ``111/0#0/110`` style.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from assistant.errors import UserError

__all__ = [
    "HOLE_CHAR",
    "MAX_TEXT_STATES",
    "TOA_PLATES",
    "Board",
    "BoardError",
    "all_true",
    "format_grid",
    "parse_grid",
    "parse_holes",
    "toa_board",
]

HOLE_CHAR = "#"
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
MAX_TEXT_STATES = len(_DIGITS)

#: The 8 ToA plates, row-major with the centre skipped (index -> (row, col)).
TOA_PLATES: tuple[tuple[int, int], ...] = (
    (0, 0),
    (0, 1),
    (0, 2),
    (1, 0),
    (1, 2),
    (2, 0),
    (2, 1),
    (2, 2),
)


class BoardError(UserError):
    """A board, a state count or an objective that cannot be used; the message is
    one sentence meant for the user (it names the row and column when it can)."""


def parse_grid(text: str) -> tuple[np.ndarray, np.ndarray]:
    """Parse the text format into ``(values, present)``.

    Parameters
    ----------
    text : rows separated by ``/`` or newlines; surrounding blanks are ignored.

    Returns
    -------
    values : int64 array (rows, cols), 0 at holes.
    present : bool array (rows, cols).

    Raises
    ------
    BoardError : empty board, ragged rows or an unknown character, naming where.
    """
    lines = [line.strip() for line in re.split(r"[/\r\n]+", text.strip())]
    lines = [line for line in lines if line]
    if not lines:
        raise BoardError("The board is empty: give at least one row of cells.")
    width = len(lines[0])
    for r, line in enumerate(lines):
        if len(line) != width:
            raise BoardError(
                f"Row {r + 1} has {_cells(len(line))} but row 1 has {_cells(width)}: "
                "every row must have the same number of cells."
            )
    values = np.zeros((len(lines), width), dtype=np.int64)
    present = np.ones((len(lines), width), dtype=bool)
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            if ch == HOLE_CHAR:
                present[r, c] = False
                continue
            digit = _DIGITS.find(ch.lower()) if ch.isascii() else -1
            if digit < 0:
                raise BoardError(
                    f"Unknown character {ch!r} at row {r + 1}, column {c + 1}: "
                    f"use 0-9, a-z or {HOLE_CHAR} for a hole."
                )
            values[r, c] = digit
    return values, present


def parse_holes(
    texts: str | Sequence[str] | None, rows: int, cols: int
) -> tuple[tuple[int, int], ...]:
    """Holes written ``ROW,COL ROW,COL`` (counted from 1), the one format of every
    ``--holes`` option and the calibration window; ``;`` also separates pairs. Returns
    sorted 0-based cells.

    Raises
    ------
    BoardError : a pair that is not ``ROW,COL`` or lies outside the grid.
    """
    if texts is None:
        return ()
    if isinstance(texts, str):
        texts = [texts]
    holes = set()
    for text in texts:
        for part in re.split(r"[;\s]+", re.sub(r"\s*,\s*", ",", text.strip())):
            if not part:
                continue
            match = re.fullmatch(r"(\d{1,9}),(\d{1,9})", part)
            if not match:
                raise BoardError(
                    f"The hole {part!r} is not a row,column pair like 2,3 "
                    "(give holes as --holes 2,3 4,1)."
                )
            r, c = int(match.group(1)), int(match.group(2))
            if not (1 <= r <= rows and 1 <= c <= cols):
                raise BoardError(f"The hole {r},{c} is outside the {rows}x{cols} grid.")
            holes.add((r - 1, c - 1))
    return tuple(sorted(holes))


def _cells(count: int) -> str:
    return f"{count} cell" if count == 1 else f"{count} cells"


def format_grid(values: np.ndarray, present: np.ndarray | None = None) -> str:
    """Format a grid of small non-negative integers in the text format.

    Values of 36 and more have no character; such grids are written as rows of
    space-separated numbers (``-`` for a hole) joined by ``/``.
    """
    values = np.asarray(values)
    if present is None:
        present = np.ones(values.shape, dtype=bool)
    if values.size and int(values[present].max(initial=0)) >= MAX_TEXT_STATES:
        return "/".join(
            " ".join(str(int(v)) if p else "-" for v, p in zip(row, prow, strict=True))
            for row, prow in zip(values, present, strict=True)
        )
    return "/".join(
        "".join(_DIGITS[int(v)] if p else HOLE_CHAR for v, p in zip(row, prow, strict=True))
        for row, prow in zip(values, present, strict=True)
    )


#: Arrays with more cells than this are not copied when a Board is made (memory).
_COPY_LIMIT = 4_000_000


@dataclass(frozen=True, eq=False)
class Board:
    """An immutable Lights Out position: states, holes, number of states, objective.

    ``states`` (an integer array, int64 unless a large array of another integer type
    was given) and ``present`` (bool) are read-only arrays of one shape; holes hold
    state 0. Use :meth:`parse`, :meth:`from_arrays` or :func:`toa_board` to build one:
    they check the inputs and give :class:`BoardError` sentences. Arrays of more than
    a few million cells are wrapped, not copied: do not modify them afterwards.
    """

    states: np.ndarray
    present: np.ndarray
    k: int = 2
    objective: int = 1

    def __post_init__(self) -> None:
        states = np.asarray(self.states)
        if not np.issubdtype(states.dtype, np.integer) or states.size <= _COPY_LIMIT:
            states = np.array(states, dtype=np.int64)
        present = np.asarray(self.present, dtype=bool)
        if present.size <= _COPY_LIMIT:
            present = np.array(present, dtype=bool)
        if not all_true(present) and states[~present].any():
            states = states.copy()
            states[~present] = 0
        states = states.view()
        present = present.view()
        states.setflags(write=False)
        present.setflags(write=False)
        object.__setattr__(self, "states", states)
        object.__setattr__(self, "present", present)

    @cached_property
    def _key(self) -> tuple:
        return (
            self.states.shape,
            self.states.astype(np.int64).tobytes(),
            self.present.tobytes(),
            self.k,
            self.objective,
        )

    # -- construction -----------------------------------------------------------------
    @classmethod
    def from_arrays(
        cls,
        states: np.ndarray,
        present: np.ndarray | None = None,
        k: int = 2,
        objective: int | None = None,
    ) -> Board:
        """Build a checked board; ``objective`` defaults to ``k - 1`` ("all lit")."""
        states = np.asarray(states)
        if states.ndim != 2 or states.size == 0:
            raise BoardError("The board is empty: give at least one row of cells.")
        if present is None:
            # A read-only broadcast view: no memory for boards without holes.
            present = np.broadcast_to(np.True_, states.shape)
        present = np.asarray(present, dtype=bool)
        if present.shape != states.shape:
            raise BoardError("The hole mask does not have the board's shape.")
        k, objective = check_states_and_objective(k, objective)
        if not np.issubdtype(states.dtype, np.integer):
            raise BoardError("Cell states must be whole numbers.")
        full = all_true(present)
        values = states if full else states[present]
        if values.size and (int(values.min()) < 0 or int(values.max()) >= k):
            bad = present & ((states < 0) | (states >= k))
            r, c = (int(i) for i in np.argwhere(bad)[0])
            raise BoardError(
                f"Cell at row {r + 1}, column {c + 1} holds {int(states[r, c])}, "
                f"but with {k} states a cell holds 0 to {k - 1}."
            )
        return cls(states, present, k, objective)

    @classmethod
    def parse(cls, text: str, k: int = 2, objective: int | None = None) -> Board:
        """Parse the text format (see the module docstring) into a checked board."""
        k, objective = check_states_and_objective(k, objective)
        values, present = parse_grid(text)
        return cls.from_arrays(values, present, k, objective)

    # -- views ---------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        return self.states.shape  # type: ignore[return-value]

    @property
    def rows(self) -> int:
        return int(self.states.shape[0])

    @property
    def cols(self) -> int:
        return int(self.states.shape[1])

    @cached_property
    def has_holes(self) -> bool:
        return not all_true(self.present)

    def format(self) -> str:
        """The board in the text format."""
        return format_grid(self.states, self.present)

    def is_solved(self) -> bool:
        """True when every present cell shows the objective."""
        return bool(np.all(self.states[self.present] == self.objective))

    # -- moves ---------------------------------------------------------------------------
    def apply(self, presses: np.ndarray) -> Board:
        """The board after pressing every cell ``presses[r, c]`` times (order is irrelevant)."""
        presses = np.asarray(presses)
        if presses.shape != self.shape:
            raise BoardError(
                f"The press grid is {presses.shape[0]}x{presses.shape[1]} "
                f"but the board is {self.rows}x{self.cols}."
            )
        dtype = work_dtype(self.k)
        effect = neighbourhood_sum((presses % self.k).astype(dtype) * self.present, self.present)
        states = (self.states.astype(dtype) + effect) % self.k
        return Board(
            states.astype(self.states.dtype, copy=False), self.present, self.k, self.objective
        )

    def press(self, row: int, col: int, times: int = 1) -> Board:
        """The board after pressing one present cell ``times`` times."""
        if not (0 <= row < self.rows and 0 <= col < self.cols) or not self.present[row, col]:
            raise BoardError(f"There is no cell at row {row + 1}, column {col + 1} to press.")
        presses = np.zeros(self.shape, dtype=np.int64)
        presses[row, col] = times % self.k
        return self.apply(presses)

    def with_states(self, states: np.ndarray) -> Board:
        return Board.from_arrays(states, self.present, self.k, self.objective)

    def variants(self, cells: Sequence[tuple[int, int]]) -> tuple[Board, ...]:
        """Every board that differs from this one at most at ``cells`` (present cells):
        one per assignment of their states, ``k ** len(cells)`` boards, the first cell's
        state the lowest digit. What a picture with those cells unseen could show; built
        without checking each again (the states are in range by construction), since a
        live loop enumerates thousands of them."""
        for r, c in cells:
            if not self.present[r, c]:
                raise BoardError(f"Cell at row {r + 1}, column {c + 1} is a hole.")
        boards = []
        for bits in range(self.k ** len(cells)):
            states = self.states.copy()
            for r, c in cells:
                states[r, c] = bits % self.k
                bits //= self.k
            states.setflags(write=False)
            board = object.__new__(Board)
            for name, value in (("states", states), ("present", self.present),
                                ("k", self.k), ("objective", self.objective)):
                object.__setattr__(board, name, value)
            boards.append(board)
        return tuple(boards)

    def target_delta(self) -> np.ndarray:
        """How much every present cell still has to move: ``(objective - state) mod k``."""
        dtype = work_dtype(self.k)
        states = self.states.astype(dtype, copy=False)
        delta = np.where(
            states <= self.objective, self.objective - states, self.objective + self.k - states
        )
        return (delta * self.present).astype(dtype, copy=False)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        text = self.format() if self.states.size <= 400 else f"{self.rows}x{self.cols}"
        return f"Board({text!r}, k={self.k}, objective={self.objective})"


def check_states_and_objective(k: int, objective: int | None) -> tuple[int, int]:
    """Validate a state count and objective; ``None`` means ``k - 1``."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 2:
        raise BoardError(f"The number of states must be a whole number of at least 2, not {k}.")
    k = int(k)
    if objective is None:
        objective = k - 1
    if isinstance(objective, bool) or not isinstance(objective, (int, np.integer)):
        raise BoardError(f"The objective must be a whole number from 0 to {k - 1}.")
    if not 0 <= objective < k:
        raise BoardError(
            f"The objective {objective} is out of range: with {k} states use 0 to {k - 1}."
        )
    return k, int(objective)


def all_true(mask: np.ndarray) -> bool:
    """``mask.all()``, in constant time for broadcast (stride-0) masks of hole-free boards."""
    if mask.size and all(stride == 0 for stride in mask.strides):
        return bool(mask.flat[0])
    return bool(mask.all())


def work_dtype(k: int) -> type:
    """Smallest unsigned type that holds 5 (k - 1) + k: a cell plus its four neighbours."""
    if 6 * k < 2**8:
        return np.uint8
    if 6 * k < 2**16:
        return np.uint16
    return np.int64


def neighbourhood_sum(values: np.ndarray, present: np.ndarray) -> np.ndarray:
    """For every present cell, the sum of ``values`` over itself and its present
    orthogonal neighbours (no wrap-around, nothing across a hole); 0 at holes.

    This is the move matrix A applied to ``values``; ``values`` must be 0 at holes.
    The result has the dtype of ``values``: pick one wide enough for 5 times its largest entry.
    """
    total = values.copy()
    total[1:, :] += values[:-1, :]
    total[:-1, :] += values[1:, :]
    total[:, 1:] += values[:, :-1]
    total[:, :-1] += values[:, 1:]
    total *= present
    return total


def toa_board(lit: str | np.ndarray) -> Board:
    """The ToA room: 3x3, centre hole, 2 states, goal all lit.

    ``lit`` is a board string such as ``111/0#0/110`` or a 3x3 array.
    """
    present = np.ones((3, 3), dtype=bool)
    present[1, 1] = False
    if isinstance(lit, str):
        values, text_present = parse_grid(lit)
        if values.shape != (3, 3) or not np.array_equal(text_present, present):
            raise BoardError(
                "The ToA room is 3 rows of 3 plates with '#' in the centre, like 111/0#0/110."
            )
        lit = values
    return Board.from_arrays(np.asarray(lit), present, k=2, objective=1)
