"""The manual window's state and rules as plain Python: no Qt here.

The window (:mod:`assistant.gui.manual`) is a thin view over :class:`ManualModel`: every
click, key and button calls one method here and then repaints from the model's fields.
So the rules (what a click does in each mode, what Reset goes back to, which press the
hint names, how the answer is summarised) are tested without a screen.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field

import numpy as np

from assistant.errors import UserError
from assistant.limits import CLINGO_MAX_CELLS
from assistant.puzzle import Board, BoardError, toa_board
from assistant.settings import MAX_GRID_SIDE, MAX_GRID_STATES, GridSettings
from assistant.solver import Solution, random_solvable_board, solve

__all__ = [
    "HISTORY_LIMIT",
    "GridTooLargeError",
    "ManualModel",
    "Mode",
    "blank_board",
    "check_grid",
    "describe_count",
    "is_toa_shape",
    "solution_summary",
    "solve_with_engine",
]

#: Undo steps kept; a 100x100 board is 80 kB, so this bounds the history near 40 MB.
HISTORY_LIMIT = 500


class GridTooLargeError(UserError):
    """A grid the window does not take (too large, or too many states)."""


class Mode(enum.Enum):
    """What a click on the board does."""

    EDIT = "edit"  # change only that cell: left +1, right -1
    PLAY = "play"  # press it as in the game: the cell and its neighbours
    HOLES = "holes"  # toggle the cell between present and hole


def check_grid(rows: int, cols: int, k: int = 2) -> None:
    """Refuse grids the window does not draw, with one sentence.

    Raises
    ------
    GridTooLargeError : more than 100 rows or columns (points to ``solve --file``), fewer
        than one, or a state count the board text cannot store.
    """
    if rows < 1 or cols < 1:
        raise GridTooLargeError("A grid needs at least 1 row and 1 column.")
    if rows > MAX_GRID_SIDE or cols > MAX_GRID_SIDE:
        raise GridTooLargeError(
            f"A {rows}x{cols} grid is larger than the window's {MAX_GRID_SIDE}x{MAX_GRID_SIDE}: "
            "solve it with 'toa-assistant solve --file BOARD.txt' instead."
        )
    if not 2 <= k <= MAX_GRID_STATES:
        raise GridTooLargeError(
            f"The window handles 2 to {MAX_GRID_STATES} states, not {k}: "
            "use 'toa-assistant solve --file BOARD.txt --states K' for more."
        )


def blank_board(
    rows: int, cols: int, k: int = 2, objective: int | None = None,
    present: np.ndarray | None = None,
) -> Board:
    """A checked board of zeros (holes where ``present`` is False)."""
    check_grid(rows, cols, k)
    return Board.from_arrays(np.zeros((rows, cols), dtype=np.int64), present, k, objective)


def is_toa_shape(board: Board) -> bool:
    """True for the ToA room's shape: 3x3, centre hole, 2 states."""
    return board.shape == (3, 3) and board.k == 2 and np.array_equal(
        board.present, toa_board("000/0#0/000").present
    )


def describe_count(count: int) -> str:
    """An exact count of solutions, readable at any size.

    Up to 10^15 the exact number is written out (with ``= base^e`` when it is a power);
    beyond that a power is written ``base^e ≈ m.mme+X`` and anything else ``≈ m.mme+X``,
    computed from the integer itself (no float overflow, no giant decimal string).
    """
    if count < 0:
        raise ValueError("a number of solutions is never negative")
    power = _as_power(count)
    if count < 10**15:
        exact = f"{count:,}"
        return f"{exact} = {power[0]}^{power[1]}" if power and count > 1_000 else exact
    approx = _scientific(count)
    return f"{power[0]}^{power[1]} ≈ {approx}" if power else f"≈ {approx}"


def _as_power(n: int) -> tuple[int, int] | None:
    """``(base, exponent)`` with the smallest base 2..36 and exponent >= 2, or None."""
    if n < 4:
        return None
    bits = n.bit_length()
    for base in range(2, 37):
        exponent = max(2, round((bits - 1) / math.log2(base)))
        for e in (exponent - 1, exponent, exponent + 1):
            if e >= 2 and base**e == n:
                return base, e
    return None


def _scientific(n: int) -> str:
    bits = n.bit_length()
    shift = max(0, bits - 64)
    exponent10 = math.log10(n >> shift) + shift * math.log10(2)
    whole = math.floor(exponent10)
    mantissa = 10 ** (exponent10 - whole)
    if mantissa >= 9.995:  # rounding would print 10.00
        mantissa, whole = 1.0, whole + 1
    return f"{mantissa:.2f}e+{whole}"


def solution_summary(solution: Solution) -> str:
    """One line for the status area: presses, solutions, minimality, or the reason."""
    if not solution.solvable:
        return solution.reason or "No presses reach the objective from this board."
    if solution.board.is_solved():
        return "Solved: every cell shows the objective."
    total = solution.total_presses or 0
    presses = 0 if solution.presses is None else int(np.count_nonzero(solution.presses))
    proof = "proven minimal" if solution.minimal else "best found, not proven minimal"
    count = describe_count(solution.solutions)
    noun = "solution" if solution.solutions == 1 else "solutions"
    cells = "" if total == presses else f" on {_plural(presses, 'cell')}"
    return f"{_plural(total, 'press', 'presses')}{cells} ({proof}); {count} {noun}."


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


#: Time for the fewest-press search when a board has more than 2^20 solutions (its answer
#: is then "best found, not proven minimal"): short, so the window answers well within a
#: second; exhaustive searches (up to 2^20 solutions) are not cut short.
SEARCH_SECONDS = 0.3
#: The optional clingo engine's time limit in the window.
CLINGO_SECONDS = 10.0


def solve_with_engine(board: Board, engine: str = "internal") -> tuple[Solution, str | None]:
    """Solve with the named engine; falls back to the internal one when the optional
    clingo engine is not installed, and then says so in a sentence.

    Returns
    -------
    (solution, note) : ``note`` is None unless a fallback happened.
    """
    if engine == "clingo":
        try:
            from assistant.solver.asp import solve_with_clingo  # optional extra
        except ImportError:
            note = "The clingo engine is not available here, so the internal engine answered."
            return solve(board, seconds=SEARCH_SECONDS), note
        if board.states.size > CLINGO_MAX_CELLS:
            note = (
                f"clingo takes boards of at most {CLINGO_MAX_CELLS:,} cells, so the internal "
                "engine answered."
            )
            return solve(board, seconds=SEARCH_SECONDS), note
        return solve_with_clingo(board, seconds=CLINGO_SECONDS), None
    return solve(board, seconds=SEARCH_SECONDS), None


@dataclass
class ManualModel:
    """Everything the manual window shows, and the rules that change it.

    Attributes
    ----------
    board : the position on screen.
    start : the position Reset returns to: set when a grid is opened, made, randomized,
        pasted or loaded from a reading, and when play mode begins.
    mode : what a click does (:class:`Mode`).
    cursor : the keyboard cursor ``(row, col)``.
    solution : the engine's answer for ``board`` (None until it arrives).
    show_solution : whether the answer grid shows the presses (Solve) or stays hidden.
    hint : one cell of a fewest-press solution to highlight, or None.
    toa : True while the ToA preset is shown (the preset fixes shape, states and holes).
    """

    board: Board
    start: Board | None = None
    mode: Mode = Mode.EDIT
    cursor: tuple[int, int] = (0, 0)
    solution: Solution | None = None
    show_solution: bool = False
    hint: tuple[int, int] | None = None
    toa: bool = False
    _undo: list[Board] = field(default_factory=list, repr=False)
    _redo: list[Board] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        check_grid(self.board.rows, self.board.cols, self.board.k)
        if self.start is None:
            self.start = self.board
        self.toa = self.toa and is_toa_shape(self.board)
        self.cursor = self._clamp(*self.cursor)

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def from_grid(cls, grid: GridSettings) -> ManualModel:
        """A model showing a grid from the settings (the ToA preset when it has its shape)."""
        board = grid.to_board()
        return cls(board, toa=is_toa_shape(board))

    @classmethod
    def from_reading(cls, board: Board) -> ManualModel:
        """A model prefilled with a board read from the screen, answer shown at once."""
        return cls(board, toa=is_toa_shape(board), show_solution=True)

    # -- queries --------------------------------------------------------------------------
    @property
    def solution_current(self) -> bool:
        """True when :attr:`solution` answers the board on screen."""
        return self.solution is not None and self.solution.board == self.board

    def grid_settings(self) -> GridSettings:
        """The board as a settings grid (for "remember the last grid")."""
        return GridSettings.from_board(self.board)

    def can_undo(self) -> bool:
        return bool(self._undo)

    def can_redo(self) -> bool:
        return bool(self._redo)

    # -- the one place the board changes ----------------------------------------------------
    def _set(self, board: Board, *, new_start: bool = False, record: bool = True) -> bool:
        if board == self.board and not new_start:
            return False
        if record and board != self.board:
            self._undo.append(self.board)
            del self._undo[:-HISTORY_LIMIT]
            self._redo.clear()
        self.board = board
        if new_start:
            self.start = board
        self.toa = self.toa and is_toa_shape(board)
        self.cursor = self._clamp(*self.cursor)
        self.hint = None
        return True

    def _clamp(self, row: int, col: int) -> tuple[int, int]:
        return min(max(row, 0), self.board.rows - 1), min(max(col, 0), self.board.cols - 1)

    # -- clicks and keys ------------------------------------------------------------------
    def click(self, row: int, col: int, step: int = 1) -> bool:
        """A click on a cell: ``step`` is +1 (left button, Space) or -1 (right button,
        Backspace). Moves the cursor there; returns whether the board changed.

        EDIT changes only that cell by ``step`` (mod k); PLAY presses it as in the game
        (``step`` -1 takes a press back); HOLES toggles hole/present. Holes ignore EDIT
        and PLAY clicks.
        """
        if not (0 <= row < self.board.rows and 0 <= col < self.board.cols):
            return False
        self.cursor = (row, col)
        if self.mode is Mode.HOLES:
            return self.toggle_hole(row, col)
        if not self.board.present[row, col]:
            return False
        k = self.board.k
        if self.mode is Mode.PLAY:
            return self._set(self.board.press(row, col, times=step % k))
        states = self.board.states.copy()
        states[row, col] = (states[row, col] + step) % k
        return self._set(self.board.with_states(states))

    def toggle_hole(self, row: int | None = None, col: int | None = None) -> bool:
        """Make a cell a hole or bring it back (state 0); the cursor cell by default."""
        if row is None or col is None:
            row, col = self.cursor
        present = self.board.present.copy()
        present[row, col] = not present[row, col]
        self.cursor = (row, col)
        board = Board.from_arrays(self.board.states, present, self.board.k, self.board.objective)
        self.toa = False  # the preset's holes are fixed: a changed hole makes a custom grid
        return self._set(board)

    def move_cursor(self, d_row: int, d_col: int) -> tuple[int, int]:
        self.cursor = self._clamp(self.cursor[0] + d_row, self.cursor[1] + d_col)
        return self.cursor

    def activate(self, step: int = 1) -> bool:
        """The keyboard's click at the cursor."""
        return self.click(*self.cursor, step=step)

    def set_mode(self, mode: Mode) -> None:
        """Switch modes; entering PLAY makes the current board the one Reset returns to."""
        if mode is Mode.PLAY and self.mode is not Mode.PLAY:
            self.start = self.board
        self.mode = mode

    def toggle_play(self) -> Mode:
        self.set_mode(Mode.EDIT if self.mode is Mode.PLAY else Mode.PLAY)
        return self.mode

    def toggle_hole_tool(self) -> Mode:
        self.set_mode(Mode.EDIT if self.mode is Mode.HOLES else Mode.HOLES)
        return self.mode

    # -- whole-board actions ------------------------------------------------------------------
    def randomize(self, seed: int | np.random.Generator | None = None) -> None:
        """A random position that is solvable by construction (same holes, k, objective)."""
        b = self.board
        board = random_solvable_board(b.rows, b.cols, b.k, b.objective, b.present, seed=seed)
        self._set(board, new_start=True)

    def reset(self) -> bool:
        """Back to :attr:`start`."""
        assert self.start is not None
        return self._set(self.start)

    def clear(self) -> None:
        """Every present cell to 0 (holes stay)."""
        zeros = np.zeros(self.board.shape, dtype=np.int64)
        self._set(self.board.with_states(zeros), new_start=True)

    def new_grid(self, rows: int, cols: int, k: int, objective: int) -> None:
        """Change the size, states or objective, keeping the cells and holes that still fit
        (a state too large for the new k becomes k-1)."""
        check_grid(rows, cols, k)
        if not 0 <= objective < k:
            raise BoardError(
                f"The objective {objective} is out of range: with {k} states use 0 to {k - 1}."
            )
        old = self.board
        states = np.zeros((rows, cols), dtype=np.int64)
        present = np.ones((rows, cols), dtype=bool)
        r, c = min(rows, old.rows), min(cols, old.cols)
        states[:r, :c] = np.minimum(old.states[:r, :c], k - 1)
        present[:r, :c] = old.present[:r, :c]
        self.toa = False
        self._set(Board.from_arrays(states, present, k, objective), new_start=True)

    def use_toa(self, objective: int = 1) -> None:
        """The ToA preset: 8 plates, all dark, goal ``objective`` (1 = all lit)."""
        board = Board.from_arrays(
            np.zeros((3, 3), dtype=np.int64), toa_board("000/0#0/000").present, 2, objective
        )
        self._set(board, new_start=True)
        self.toa = True

    def set_board(self, board: Board) -> None:
        """Show another board (pasted text or a reading); it becomes the Reset point."""
        check_grid(board.rows, board.cols, board.k)
        self._set(board, new_start=True)
        self.toa = is_toa_shape(board)

    def undo(self) -> bool:
        if not self._undo:
            return False
        self._redo.append(self.board)
        self._set(self._undo.pop(), record=False)
        return True

    def redo(self) -> bool:
        if not self._redo:
            return False
        self._undo.append(self.board)
        self._set(self._redo.pop(), record=False)
        return True

    # -- the answer ---------------------------------------------------------------------------
    def accept(self, solution: Solution) -> bool:
        """Take an answer from the engine if it is for the board on screen."""
        if solution.board != self.board:
            return False
        self.solution = solution
        if self.hint is not None and not self._on_solution(self.hint):
            self.hint = None
        return True

    def solve_now(self, engine: str = "internal") -> str | None:
        """Solve on this thread (the window uses a worker); returns the engine note."""
        solution, note = solve_with_engine(self.board, engine)
        self.accept(solution)
        return note

    def _on_solution(self, cell: tuple[int, int]) -> bool:
        s = self.solution
        return bool(s is not None and s.presses is not None and s.presses[cell] != 0)

    def next_hint(self) -> tuple[int, int] | None:
        """One press of the answer (a fewest-press one when proven), nearest the cursor;
        None when the answer is not in yet, the board is solved or unsolvable."""
        if not self.solution_current:
            self.hint = None
            return None
        assert self.solution is not None
        presses = self.solution.presses
        if presses is None or not presses.any():
            self.hint = None
            return None
        cells = np.argwhere(presses != 0)
        distance = np.abs(cells - np.asarray(self.cursor)).sum(axis=1)
        row, col = (int(v) for v in cells[int(np.argmin(distance))])
        self.hint = (row, col)
        return self.hint

    def hint_sentence(self) -> str | None:
        """The hint in words (for the status line and screen readers)."""
        if self.hint is None or self.solution is None or self.solution.presses is None:
            return None
        row, col = self.hint
        times = int(self.solution.presses[row, col])
        count = "" if times == 1 else (" twice" if times == 2 else f" {times} times")
        return f"Hint: press row {row + 1}, column {col + 1}{count}."
