"""The Light Up puzzle as data: the grid, its text format and the rules a lamp set is
checked against (what the command line, the manual window and the solver's answers share).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from assistant.errors import UserError

__all__ = [
    "EMPTY",
    "LAMP",
    "WALL",
    "LightUpError",
    "LightUpPuzzle",
    "check_lightup",
    "format_lightup",
    "grid_size",
    "has_header",
    "lit_cells",
    "parse_lightup",
]

LAMP = "L"
EMPTY = "."
WALL = "#"
_PUZZLE_CHARS = frozenset(".#01234")
_HEADER = re.compile(r"^\s*(\d+)\s+(\d+)\s*$")


class LightUpError(UserError):
    """A Light Up grid or lamp set that cannot be used; one sentence naming where."""


@dataclass(frozen=True)
class LightUpPuzzle:
    """An immutable Light Up puzzle without lamps.

    ``cells`` holds one string per row with the characters ``.``, ``#`` and ``0``-``4``.
    Build it with :func:`parse_lightup` or :meth:`from_rows`, which check the input.
    """

    rows: int
    cols: int
    cells: tuple[str, ...]
    _numbers: tuple[tuple[int, int, int], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1 or len(self.cells) != self.rows:
            raise LightUpError(
                f"The puzzle must have {self.rows} rows of {self.cols} cells, at least one of each."
            )
        for r, line in enumerate(self.cells):
            _check_row(line, r, self.cols, allow_lamps=False)
        numbers = tuple(
            (r, c, int(ch))
            for r, line in enumerate(self.cells)
            for c, ch in enumerate(line)
            if ch.isdigit()
        )
        object.__setattr__(self, "_numbers", numbers)

    @classmethod
    def from_rows(cls, rows: Iterable[str]) -> LightUpPuzzle:
        """A checked puzzle from its row strings (no lamps, no header)."""
        cells = tuple(rows)
        if not cells:
            raise LightUpError("The puzzle is empty: give at least one row of cells.")
        return cls(len(cells), len(cells[0]), cells)

    def is_wall(self, r: int, c: int) -> bool:
        """True for a black cell (numbered or not)."""
        return self.cells[r][c] != EMPTY

    def number(self, r: int, c: int) -> int | None:
        """The number on a black cell, or None (empty cell or black without number)."""
        ch = self.cells[r][c]
        return int(ch) if ch.isdigit() else None

    @property
    def numbers(self) -> tuple[tuple[int, int, int], ...]:
        """Every numbered black cell as ``(row, col, number)``, 0-based, reading order."""
        return self._numbers

    def empty_cells(self) -> list[tuple[int, int]]:
        """Every empty cell, 0-based, reading order."""
        return [
            (r, c) for r, line in enumerate(self.cells) for c, ch in enumerate(line) if ch == EMPTY
        ]

    def neighbours(self, r: int, c: int) -> list[tuple[int, int]]:
        """The orthogonal neighbours inside the grid."""
        out = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < self.rows and 0 <= cc < self.cols:
                out.append((rr, cc))
        return out


# -- text ------------------------------------------------------------------------------


def _check_row(line: str, r: int, cols: int, *, allow_lamps: bool) -> None:
    if len(line) != cols:
        raise LightUpError(
            f"Row {r + 1} has {len(line)} cells but the puzzle is {cols} cells wide: "
            "every row must have the same number of cells."
        )
    allowed = _PUZZLE_CHARS | {LAMP} if allow_lamps else _PUZZLE_CHARS
    for c, ch in enumerate(line):
        if ch not in allowed:
            lamps = f" and {LAMP} for a lamp" if allow_lamps else ""
            raise LightUpError(
                f"Unknown character {ch!r} at row {r + 1}, column {c + 1}: use . for an "
                f"empty cell, # for a black cell, 0-4 for a numbered black cell{lamps}."
            )


def has_header(text: str) -> bool:
    """True when the first non-blank line is an ``R C`` header."""
    for line in text.splitlines():
        if line.strip():
            return _HEADER.match(line) is not None
    return False


def grid_size(text: str) -> tuple[int, int]:
    """``(rows, cols)`` from the header, or else from the lines, without reading the
    cells: what a size limit is checked on before the puzzle is parsed. ``(0, 0)`` for
    blank text."""
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        return 0, 0
    header = _HEADER.match(lines[0])
    if header:
        return int(header.group(1)), int(header.group(2))
    return len(lines), max(len(line) for line in lines)


def parse_lightup(text: str) -> tuple[LightUpPuzzle, frozenset[tuple[int, int]]]:
    """Parse the text format into the puzzle and the lamps it shows.

    Returns
    -------
    puzzle : the grid with lamps turned back into empty cells.
    lamps : the ``L`` cells, 0-based ``(row, col)``; empty for an unsolved puzzle.

    Raises
    ------
    LightUpError : empty text, ragged rows, an unknown character or a header ``R C``
        that does not match the grid.
    """
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        raise LightUpError("The puzzle is empty: give at least one row of cells.")
    header = _HEADER.match(lines[0])
    if header:
        want_rows, want_cols = int(header.group(1)), int(header.group(2))
        lines = lines[1:]
        if want_rows < 1 or want_cols < 1:
            raise LightUpError(
                f"The header says {want_rows} rows and {want_cols} columns: "
                "both must be at least 1."
            )
        if len(lines) != want_rows:
            raise LightUpError(f"The header says {want_rows} rows but the grid has {len(lines)}.")
        width = want_cols
    else:
        width = len(lines[0])
    lamps = set()
    for r, line in enumerate(lines):
        if header and len(line) != width:
            raise LightUpError(
                f"The header says {width} columns but row {r + 1} has {len(line)} cells."
            )
        _check_row(line, r, width, allow_lamps=True)
        lamps.update((r, c) for c, ch in enumerate(line) if ch == LAMP)
    cells = tuple(line.replace(LAMP, EMPTY) for line in lines)
    return LightUpPuzzle(len(cells), width, cells), frozenset(lamps)


def format_lightup(
    puzzle: LightUpPuzzle, lamps: Iterable[tuple[int, int]] = (), header: bool = False
) -> str:
    """The puzzle with lamps as text (``L`` cells), one line per row, newline-terminated.

    With ``header`` the first line is ``R C``.
    """
    lamps = _checked_lamps(puzzle, lamps)
    rows = [list(line) for line in puzzle.cells]
    for r, c in lamps:
        rows[r][c] = LAMP
    text = "\n".join("".join(row) for row in rows) + "\n"
    return f"{puzzle.rows} {puzzle.cols}\n{text}" if header else text


def _checked_lamps(
    puzzle: LightUpPuzzle, lamps: Iterable[tuple[int, int]]
) -> frozenset[tuple[int, int]]:
    out = set()
    for lamp in lamps:
        r, c = (int(v) for v in lamp)
        if not (0 <= r < puzzle.rows and 0 <= c < puzzle.cols):
            raise LightUpError(
                f"The lamp at {r + 1},{c + 1} is outside the {puzzle.rows}x{puzzle.cols} grid."
            )
        if puzzle.is_wall(r, c):
            raise LightUpError(f"The lamp at {r + 1},{c + 1} is on a black cell.")
        out.add((r, c))
    return frozenset(out)


# -- rules -----------------------------------------------------------------------------


def lit_cells(
    puzzle: LightUpPuzzle, lamps: Iterable[tuple[int, int]]
) -> frozenset[tuple[int, int]]:
    """Every empty cell some lamp lights (lamp cells included)."""
    lamps = _checked_lamps(puzzle, lamps)
    lit = set()
    for r, c in lamps:
        lit.add((r, c))
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            while 0 <= rr < puzzle.rows and 0 <= cc < puzzle.cols and not puzzle.is_wall(rr, cc):
                lit.add((rr, cc))
                rr, cc = rr + dr, cc + dc
    return frozenset(lit)


def check_lightup(puzzle: LightUpPuzzle, lamps: Iterable[tuple[int, int]]) -> str | None:
    """None when the lamps solve the puzzle, else the first broken rule in words.

    Rules are checked in this order, each in reading order, with 1-based ``row,column``:
    ``cell r,c is dark``; ``lamps at r,c and r,c see each other``;
    ``number at r,c wants n and has m``.

    Raises
    ------
    LightUpError : a lamp outside the grid or on a black cell (not a position at all).
    """
    lamps = _checked_lamps(puzzle, lamps)
    lit = lit_cells(puzzle, lamps)
    for r, c in puzzle.empty_cells():
        if (r, c) not in lit:
            return f"cell {r + 1},{c + 1} is dark"
    for r, c in sorted(lamps):
        # Looking right and down finds every pair once, first lamp in reading order.
        for dr, dc in ((0, 1), (1, 0)):
            rr, cc = r + dr, c + dc
            while rr < puzzle.rows and cc < puzzle.cols and not puzzle.is_wall(rr, cc):
                if (rr, cc) in lamps:
                    return f"lamps at {r + 1},{c + 1} and {rr + 1},{cc + 1} see each other"
                rr, cc = rr + dr, cc + dc
    for r, c, n in puzzle.numbers:
        has = sum(1 for cell in puzzle.neighbours(r, c) if cell in lamps)
        if has != n:
            return f"number at {r + 1},{c + 1} wants {n} and has {has}"
    return None
