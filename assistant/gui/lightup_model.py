"""The manual window's Light Up (Akari) mode as plain Python: no Qt here.

Edit mode cycles a cell through empty, black and the numbers 0-4 (left +1, right -1,
or type ``.``, ``#``, ``0``-``4``); play mode puts and takes lamps, checked against the
rules; Solve shows the solver's lamps and says whether the solution is unique.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.errors import UserError
from assistant.lightup import (
    LightUpPuzzle,
    LightUpResult,
    check_lightup,
    format_lightup,
    lit_cells,
    parse_lightup,
)
from assistant.settings import MAX_GRID_SIDE

__all__ = ["CYCLE", "MAX_LIGHTUP_SIDE", "LightUpModel", "describe_result"]

#: The order a click cycles a cell through.
CYCLE = ".#01234"
#: Light Up grids the window takes (the exact search is exponential in the worst case,
#: but runs on a worker thread, so a hard puzzle only delays the answer).
MAX_LIGHTUP_SIDE = MAX_GRID_SIDE


def describe_result(result: LightUpResult) -> str:
    """One sentence about what the solver found."""
    if not result.solvable:
        return "No placement of lamps solves this puzzle."
    lamps = len(result.solutions[0])
    shown = f"{lamps} lamp{'s' if lamps != 1 else ''}"
    if result.unique:
        return f"Unique solution: {shown}."
    if result.exhausted:
        return f"{result.count} solutions; one is shown ({shown}): the puzzle is not unique."
    return f"At least {result.count} solutions; one is shown ({shown}): the puzzle is not unique."


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass
class LightUpModel:
    """A Light Up puzzle being edited or played.

    Attributes
    ----------
    cells : the grid as lists of characters ``.``, ``#``, ``0``-``4``.
    lamps : the player's lamps (play mode).
    playing : False = edit the cells, True = put lamps.
    cursor : the keyboard cursor.
    result : the solver's answer for :attr:`result_for`.
    show_solution : show the solver's lamps instead of the player's.
    """

    cells: list[list[str]]
    lamps: set[tuple[int, int]] = field(default_factory=set)
    playing: bool = False
    cursor: tuple[int, int] = (0, 0)
    result: LightUpResult | None = None
    result_for: LightUpPuzzle | None = None
    show_solution: bool = False

    @classmethod
    def blank(cls, rows: int = 7, cols: int = 7) -> LightUpModel:
        _check_size(rows, cols)
        return cls([["."] * cols for _ in range(rows)])

    @classmethod
    def from_text(cls, text: str) -> LightUpModel:
        """A puzzle in the Light Up text format (``L`` cells become the player's lamps)."""
        puzzle, lamps = parse_lightup(text)
        _check_size(puzzle.rows, puzzle.cols)
        return cls([list(line) for line in puzzle.cells], set(lamps))

    # -- queries --------------------------------------------------------------------------
    @property
    def rows(self) -> int:
        return len(self.cells)

    @property
    def cols(self) -> int:
        return len(self.cells[0])

    def puzzle(self) -> LightUpPuzzle:
        return LightUpPuzzle(self.rows, self.cols, tuple("".join(row) for row in self.cells))

    @property
    def result_current(self) -> bool:
        return self.result is not None and self.result_for == self.puzzle()

    def shown_lamps(self) -> frozenset[tuple[int, int]]:
        """The solver's first solution when asked for and in, else the player's lamps."""
        if self.show_solution and self.result_current:
            assert self.result is not None
            return self.result.solutions[0] if self.result.solutions else frozenset()
        return frozenset(self.lamps)

    def lit(self) -> frozenset[tuple[int, int]]:
        return lit_cells(self.puzzle(), self.shown_lamps())

    def text(self) -> str:
        """The puzzle with the player's lamps, in the text format."""
        return format_lightup(self.puzzle(), self.lamps)

    def check(self) -> str:
        """The player's lamps against the rules, in one sentence."""
        broken = check_lightup(self.puzzle(), self.lamps)
        if broken is None:
            return "Solved: every cell is lit and every rule holds."
        return _capital(broken) + "."

    def status(self) -> str:
        if self.show_solution:
            if not self.result_current:
                return "Solving…"
            assert self.result is not None
            return describe_result(self.result)
        if self.playing:
            return self.check()
        return "Edit: click cycles empty, black, 0-4 (or type . # 0-4); P to place lamps; S solves."

    # -- changes --------------------------------------------------------------------------
    def click(self, row: int, col: int, step: int = 1) -> bool:
        """Edit: cycle the cell by ``step``; play: toggle a lamp on an empty cell."""
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            return False
        self.cursor = (row, col)
        if self.playing:
            if self.cells[row][col] != ".":
                return False
            self.lamps ^= {(row, col)}
            return True
        char = CYCLE[(CYCLE.index(self.cells[row][col]) + step) % len(CYCLE)]
        return self.set_cell(row, col, char)

    def set_cell(self, row: int, col: int, char: str) -> bool:
        """Type a cell: ``.``, ``#`` or ``0``-``4``; a lamp under a new wall goes."""
        if char not in CYCLE:
            raise UserError(f"A Light Up cell is one of . # 0 1 2 3 4, not {char!r}.")
        if self.cells[row][col] == char:
            return False
        self.cells[row][col] = char
        if char != ".":
            self.lamps.discard((row, col))
        return True

    def move_cursor(self, d_row: int, d_col: int) -> tuple[int, int]:
        r = min(max(self.cursor[0] + d_row, 0), self.rows - 1)
        c = min(max(self.cursor[1] + d_col, 0), self.cols - 1)
        self.cursor = (r, c)
        return self.cursor

    def resize(self, rows: int, cols: int) -> None:
        """Change the size, keeping the cells (and lamps) that still fit."""
        _check_size(rows, cols)
        self.cells = [
            [self.cells[r][c] if r < self.rows and c < self.cols else "." for c in range(cols)]
            for r in range(rows)
        ]
        self.lamps = {(r, c) for r, c in self.lamps if r < rows and c < cols}
        self.cursor = (min(self.cursor[0], rows - 1), min(self.cursor[1], cols - 1))

    def clear(self) -> None:
        """Every cell empty, no lamps."""
        self.cells = [["."] * self.cols for _ in range(self.rows)]
        self.lamps.clear()

    def clear_lamps(self) -> None:
        self.lamps.clear()

    def load_text(self, text: str) -> None:
        other = LightUpModel.from_text(text)
        self.cells, self.lamps = other.cells, other.lamps
        self.cursor = (min(self.cursor[0], self.rows - 1), min(self.cursor[1], self.cols - 1))

    def accept(self, puzzle: LightUpPuzzle, result: LightUpResult) -> bool:
        """Take the solver's answer if it is for the puzzle on screen."""
        if puzzle != self.puzzle():
            return False
        self.result, self.result_for = result, puzzle
        return True


def _check_size(rows: int, cols: int) -> None:
    if rows < 1 or cols < 1:
        raise UserError("A Light Up grid needs at least 1 row and 1 column.")
    if rows > MAX_LIGHTUP_SIDE or cols > MAX_LIGHTUP_SIDE:
        raise UserError(
            f"A {rows}x{cols} Light Up grid is larger than the window's "
            f"{MAX_LIGHTUP_SIDE}x{MAX_LIGHTUP_SIDE}: "
            "solve it with 'toa-assistant lightup solve FILE' instead."
        )
