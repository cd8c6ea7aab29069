"""Random Light Up puzzles with a unique solution, and that solution (for benchmarks and
tests): planted lamps first, then the clues that force them.

Every random choice comes from one ``random.Random(seed)`` in a fixed order, so a seed
always gives the same puzzle.
"""

from __future__ import annotations

import random

from assistant.lightup.model import EMPTY, WALL, LightUpError, LightUpPuzzle, lit_cells
from assistant.lightup.search import ambiguities, solve_lightup

__all__ = ["generate_lightup"]


def generate_lightup(
    rows: int,
    cols: int,
    *,
    seed: int | None = None,
    wall_density: float = 0.2,
    removal_checks: int | None = None,
) -> tuple[LightUpPuzzle, frozenset[tuple[int, int]]]:
    """A random puzzle with a unique solution, and that solution (for benchmarks and tests).

    Method ("solution first, then clues"):

    1. black cells at random with probability ``wall_density``;
    2. lamps: visit the empty cells in random order and put a lamp on every one that is
       still dark, which gives a valid, fully lit lamp set S;
    3. number every black cell with its count of lamps of S;
    4. repair: while the solver finds a second solution S2, turn one cell of S2 - S
       into a black cell (it is never a lamp of S, and S2 - S is never empty since S2
       would otherwise see a lamp of S); the same is done at once for every other
       ambiguous independent group the search meets; then lamps go on the cells of S
       that became dark and the numbers are recomputed. Every round adds a black
       cell, so this ends;
    5. clue removal: visit the numbers in random order and drop each one (make it a
       plain ``#``) when the solution stays unique without it; ``removal_checks``
       bounds how many numbers are tried (None: all), so big puzzles can be made in
       reasonable time while keeping part of their clues.

    Uniqueness is proven by :func:`solve_lightup` with ``limit=2`` at every step, so the
    result always has exactly one solution, and it is S.
    """
    if rows < 1 or cols < 1:
        raise LightUpError(f"A puzzle needs at least one row and one column, not {rows}x{cols}.")
    if not 0.0 <= wall_density < 1.0:
        raise LightUpError(f"The wall density must be from 0 to below 1, not {wall_density}.")
    draft = _Draft(rows, cols, random.Random(seed), wall_density)
    draft.light_dark_cells()
    draft.renumber()
    draft.repair_until_unique()
    draft.drop_unneeded_numbers(removal_checks)
    return draft.puzzle(), frozenset(draft.lamps)


class _Draft:
    """A puzzle being made: the grid (rows of characters, black cells numbered as the
    lamps require), the lamps planted so far and the random source of every choice."""

    def __init__(self, rows: int, cols: int, rng: random.Random, wall_density: float) -> None:
        self.rows, self.cols, self.rng = rows, cols, rng
        self.grid = [
            [WALL if rng.random() < wall_density else EMPTY for _ in range(cols)]
            for _ in range(rows)
        ]
        self.lamps: set[tuple[int, int]] = set()

    def puzzle(self) -> LightUpPuzzle:
        return LightUpPuzzle(self.rows, self.cols, tuple("".join(row) for row in self.grid))

    def light_dark_cells(self) -> None:
        """Steps 2 and 4: a lamp on every cell still dark, visited in random order."""
        puzzle = self.puzzle()
        lit = set(lit_cells(puzzle, self.lamps))
        order = puzzle.empty_cells()
        self.rng.shuffle(order)
        for cell in order:
            if cell not in lit:
                self.lamps.add(cell)
                lit |= lit_cells(puzzle, [cell])

    def renumber(self) -> None:
        """Step 3: every black cell shows its count of neighbouring lamps."""
        grid, lamps = self.grid, self.lamps
        for r in range(self.rows):
            for c in range(self.cols):
                if grid[r][c] != EMPTY:
                    n = sum(
                        1
                        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                        if (rr, cc) in lamps
                    )
                    grid[r][c] = str(n)

    def repair_until_unique(self) -> None:
        """Step 4: wall off a cell of each other solution until the lamps are the only one."""
        while True:
            result = solve_lightup(self.puzzle(), limit=2)
            if result.unique:
                return
            # The second solution, and every other ambiguous group met on the way to one
            # solution: they are independent, so all are repaired in one round.
            pairs = [tuple(result.solutions), *ambiguities(self.puzzle())]
            for pair in pairs:
                extra = sorted(frozenset().union(*pair) - self.lamps)
                if extra:
                    r, c = self.rng.choice(extra)
                    self.grid[r][c] = WALL
            self.light_dark_cells()
            self.renumber()

    def drop_unneeded_numbers(self, removal_checks: int | None) -> None:
        """Step 5: plain black cells where a number is not needed for uniqueness."""
        grid = self.grid
        numbered = [
            (r, c) for r in range(self.rows) for c in range(self.cols) if grid[r][c].isdigit()
        ]
        self.rng.shuffle(numbered)
        if removal_checks is not None:
            numbered = numbered[:removal_checks]
        for r, c in numbered:
            saved = grid[r][c]
            grid[r][c] = WALL
            if not solve_lightup(self.puzzle(), limit=2).unique:
                grid[r][c] = saved
