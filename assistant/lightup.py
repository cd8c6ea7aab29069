"""Light Up (Akari): the puzzle model, the rule checker and an exact solver.

Rules (Nikoli's Akari): put lamps on empty cells so that every empty cell is lit, no
lamp lights another lamp, and every numbered black cell has exactly that many lamps on
its four orthogonal neighbours. A lamp lights its own cell and its row and column up to
the first black cell.

Text format: an optional first line ``R C``, then R lines of C characters: ``.`` empty,
``#`` black without number, ``0``-``4`` black with that number, ``L`` a lamp (a
solution is the puzzle grid with lamps).

Method
------
The solver treats the puzzle as a Boolean constraint problem over the empty cells
("lamp here or not") and runs a DPLL-style search (Davis, Logemann and Loveland, 1962)
with propagation specialised to the three rules:

* a *segment* is a maximal horizontal or vertical run of empty cells; a lamp lights
  exactly the union of its two segments, so "lamps never see each other" is "at most
  one lamp per segment", and a cell ``c`` can only be lit by a lamp in
  ``row_segment(c) | column_segment(c)``;
* a lamp forbids every other cell of its two segments;
* a dark cell with no candidate left is a conflict, with exactly one candidate that
  candidate must be a lamp ("only one place can light it");
* a number with as many lamps as it wants forbids its other free neighbours, and one
  that needs all its free neighbours gets lamps on all of them.

After propagation, *failed-literal probing* (the look-ahead of SAT solvers, e.g.
Freeman's POSIT, 1995; the "try a lamp, reach a contradiction" step of human solvers)
tries a lamp on the free cells that are candidates of a two-candidate dark cell or
touch a number (everywhere at the root, then around each node's changes, to a local
fixpoint); a lamp that leads to a conflict is ruled out.

The free part of the puzzle often falls apart into *independent groups* (no shared
segment, candidate or open number); these are solved one by one, like the
decomposition of model counters (Bayardo and Pehoushek, 2000), with a cache of the
groups already solved (component caching, Sang et al., 2004), and their solution counts
multiply. Without it, a wrong choice in one corner would only be undone after every
combination elsewhere had been tried.

When propagation stops, the solver branches on a dark cell with few candidate lamp
positions (the "most constrained variable" rule, looked for in reading order near the
search front), splitting on which candidate is the *first* lamp among them: branch i
has lamps forbidden on candidates ``1..i-1`` and a lamp on candidate ``i``. The
branches are disjoint and cover every solution, so counting leaves counts solutions
exactly; a puzzle is proven unique by exhausting the search after the first solution
(``limit=2``).

Pure library code: no I/O, no Qt.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from assistant.errors import UserError

__all__ = [
    "LAMP",
    "LightUpError",
    "LightUpPuzzle",
    "LightUpResult",
    "check_lightup",
    "format_lightup",
    "generate_lightup",
    "grid_size",
    "has_header",
    "lit_cells",
    "parse_lightup",
    "solve_lightup",
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


@dataclass(frozen=True)
class LightUpResult:
    """What :func:`solve_lightup` found.

    ``solutions`` holds up to ``limit`` lamp sets (0-based cells); ``count`` is how many
    were found; ``exhausted`` is True when the search finished, so ``count`` is the exact
    number of solutions. Unique means ``count == 1 and exhausted``. ``nodes`` is the
    number of search nodes visited (for benchmarks).
    """

    solutions: list[frozenset[tuple[int, int]]]
    count: int
    exhausted: bool
    nodes: int = 0

    @property
    def unique(self) -> bool:
        return self.count == 1 and self.exhausted

    @property
    def solvable(self) -> bool:
        return self.count > 0


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


# -- solver ----------------------------------------------------------------------------

_UNKNOWN, _OFF, _ON = -1, 0, 1
#: Dark cells examined when choosing where to branch (see _pick_dark_cell).
_PICK_WINDOW = 64


class _Structure:
    """The fixed part of a puzzle the search works on: cells, segments, numbers.

    Empty cells are numbered 0..n-1 in reading order. Segment ids are shared by row
    and column segments.
    """

    def __init__(self, puzzle: LightUpPuzzle) -> None:
        index: dict[tuple[int, int], int] = {}
        cells = puzzle.empty_cells()
        for i, cell in enumerate(cells):
            index[cell] = i
        self.cells = cells
        self.index = index
        n = len(cells)
        self.row_seg = [0] * n
        self.col_seg = [0] * n
        segments: list[list[int]] = []
        rows_of_cells = [[(r, c) for c in range(puzzle.cols)] for r in range(puzzle.rows)]
        cols_of_cells = [[(r, c) for r in range(puzzle.rows)] for c in range(puzzle.cols)]
        for lines, seg_of in ((rows_of_cells, self.row_seg), (cols_of_cells, self.col_seg)):
            for line in lines:
                current: list[int] | None = None
                for r, c in line:
                    if puzzle.is_wall(r, c):
                        current = None
                        continue
                    if current is None:
                        current = []
                        segments.append(current)
                    i = index[(r, c)]
                    current.append(i)
                    seg_of[i] = len(segments) - 1
        self.segments = [tuple(s) for s in segments]
        # Numbers: wanted count and the empty neighbours; per cell, the numbers it touches.
        self.number_want: list[int] = []
        self.number_cells: list[tuple[int, ...]] = []
        self.number_pos: list[tuple[int, int]] = []
        self.cell_numbers: list[list[int]] = [[] for _ in range(n)]
        for r, c, want in puzzle.numbers:
            around = tuple(
                index[cell] for cell in puzzle.neighbours(r, c) if not puzzle.is_wall(*cell)
            )
            j = len(self.number_want)
            self.number_want.append(want)
            self.number_cells.append(around)
            self.number_pos.append((r, c))
            for i in around:
                self.cell_numbers[i].append(j)


class _State:
    """The changing part of the search: copied at every branch (cheap flat lists)."""

    __slots__ = ("dark", "num_free", "num_lamps", "seg_free", "seg_lamp", "value")

    def __init__(self, s: _Structure | None = None) -> None:
        if s is None:
            return
        self.value = [_UNKNOWN] * len(s.cells)
        self.seg_free = [len(seg) for seg in s.segments]
        self.seg_lamp = [False] * len(s.segments)
        self.num_lamps = [0] * len(s.number_want)
        self.num_free = [len(around) for around in s.number_cells]
        #: Number of empty cells no lamp lights yet (all of the puzzle, not one group).
        self.dark = len(s.cells)

    def copy(self) -> _State:
        other = _State()
        other.value = self.value.copy()
        other.seg_free = self.seg_free.copy()
        other.seg_lamp = self.seg_lamp.copy()
        other.num_lamps = self.num_lamps.copy()
        other.num_free = self.num_free.copy()
        other.dark = self.dark
        return other


def _propagate(
    s: _Structure, st: _State, queue: list[tuple[int, int]], trail: list[int] | None = None
) -> bool:
    """Apply the assignments in ``queue`` and everything they force; False on conflict.

    Each assignment is applied whole before it is checked, and its cell is appended to
    ``trail`` (when given) so :func:`_undo` can take it back.
    """
    value, seg_free, seg_lamp = st.value, st.seg_free, st.seg_lamp
    num_lamps, num_free = st.num_lamps, st.num_free
    row_seg, col_seg, segments = s.row_seg, s.col_seg, s.segments
    cell_numbers, number_cells, number_want = s.cell_numbers, s.number_cells, s.number_want
    while queue:
        i, v = queue.pop()
        old = value[i]
        if old != _UNKNOWN:
            if old != v:
                return False
            continue
        rs, cs = row_seg[i], col_seg[i]
        if v == _ON and (seg_lamp[rs] or seg_lamp[cs]):
            return False
        value[i] = v
        seg_free[rs] -= 1
        seg_free[cs] -= 1
        touched = cell_numbers[i]
        for j in touched:
            num_free[j] -= 1
            if v == _ON:
                num_lamps[j] += 1
        if v == _ON:
            st.dark -= _newly_lit(s, seg_lamp, rs, cs)
            seg_lamp[rs] = True
            seg_lamp[cs] = True
        if trail is not None:
            trail.append(i)
        for j in touched:
            need = number_want[j] - num_lamps[j]
            if need < 0 or need > num_free[j]:
                return False
            if num_free[j] and (need == 0 or need == num_free[j]):
                fill = _OFF if need == 0 else _ON
                for x in number_cells[j]:
                    if value[x] == _UNKNOWN:
                        queue.append((x, fill))
        if v == _ON:
            for x in segments[rs]:
                if value[x] == _UNKNOWN:
                    queue.append((x, _OFF))
            for x in segments[cs]:
                if value[x] == _UNKNOWN:
                    queue.append((x, _OFF))
            continue
        # A cell went off: dark cells of its two segments lost one candidate.
        for seg in (rs, cs):
            if seg_lamp[seg]:
                continue  # every cell of it is lit
            for y in segments[seg]:
                if value[y] == _ON:
                    continue
                ry, cy = row_seg[y], col_seg[y]
                if seg_lamp[ry] or seg_lamp[cy]:
                    continue
                free = seg_free[ry] + seg_free[cy] - (value[y] == _UNKNOWN)
                if free == 0:
                    return False
                if free == 1:
                    queue.append((_only_candidate(s, st, y), _ON))
    return True


def _newly_lit(s: _Structure, seg_lamp: list[bool], rs: int, cs: int) -> int:
    """How many cells a lamp on segments ``rs`` and ``cs`` lights that nothing else does
    (with neither segment holding a lamp in ``seg_lamp``)."""
    row_seg, col_seg = s.row_seg, s.col_seg
    count = sum(1 for x in s.segments[rs] if not seg_lamp[col_seg[x]])
    count += sum(1 for x in s.segments[cs] if not seg_lamp[row_seg[x]])
    return count - 1  # the lamp's own cell is in both segments


def _undo(s: _Structure, st: _State, trail: list[int]) -> None:
    """Take back the assignments recorded in ``trail`` (latest first)."""
    value, seg_free, seg_lamp = st.value, st.seg_free, st.seg_lamp
    num_lamps, num_free = st.num_lamps, st.num_free
    while trail:
        i = trail.pop()
        rs, cs = s.row_seg[i], s.col_seg[i]
        on = value[i] == _ON
        value[i] = _UNKNOWN
        seg_free[rs] += 1
        seg_free[cs] += 1
        for j in s.cell_numbers[i]:
            num_free[j] += 1
            if on:
                num_lamps[j] -= 1
        if on:
            seg_lamp[rs] = False
            seg_lamp[cs] = False
            st.dark += _newly_lit(s, seg_lamp, rs, cs)


def _probe(s: _Structure, st: _State, cells: list[int]) -> bool:
    """Failed-literal probing around ``cells``: a free cell whose lamp leads to a
    conflict gets no lamp; False when some cell can be neither.

    Probed are the candidates of dark cells with exactly two candidates and the free
    cells next to a number. When a probe rules a lamp out, the cells around what that
    changed are examined again (a work list), so probing reaches a local fixpoint. This
    is the "try a lamp, see the contradiction" step of human solvers and of look-ahead
    SAT solvers; it catches most wrong choices before the search makes them.
    """
    value, seg_free, seg_lamp, row_seg, col_seg = (
        st.value,
        st.seg_free,
        st.seg_lamp,
        s.row_seg,
        s.col_seg,
    )
    trail: list[int] = []
    work = list(cells)
    while work:
        probes: dict[int, None] = {}
        for y in work:
            ry, cy = row_seg[y], col_seg[y]
            if seg_lamp[ry] or seg_lamp[cy]:
                continue
            if seg_free[ry] + seg_free[cy] - (value[y] == _UNKNOWN) == 2:
                probes.update(dict.fromkeys(_candidates(s, st, y)))
            elif value[y] == _UNKNOWN and s.cell_numbers[y]:
                probes[y] = None
        changed: list[int] = []
        for x in probes:
            if value[x] != _UNKNOWN:
                continue
            ok = _propagate(s, st, [(x, _ON)], trail)
            _undo(s, st, trail)
            if not ok and not _propagate(s, st, [(x, _OFF)], changed):
                return False
        work = _region(s, changed) if changed else []
    return True


def _only_candidate(s: _Structure, st: _State, y: int) -> int:
    value = st.value
    for x in s.segments[s.row_seg[y]]:
        if value[x] == _UNKNOWN:
            return x
    for x in s.segments[s.col_seg[y]]:
        if value[x] == _UNKNOWN:
            return x
    raise AssertionError("a dark cell with one candidate has it in its segments")


def _candidates(s: _Structure, st: _State, y: int) -> list[int]:
    value = st.value
    out = [x for x in s.segments[s.row_seg[y]] if value[x] == _UNKNOWN]
    out.extend(x for x in s.segments[s.col_seg[y]] if value[x] == _UNKNOWN and x not in out)
    return out


def _dark_cells(s: _Structure, st: _State, scope: list[int]) -> list[int]:
    seg_lamp, row_seg, col_seg = st.seg_lamp, s.row_seg, s.col_seg
    return [y for y in scope if not (seg_lamp[row_seg[y]] or seg_lamp[col_seg[y]])]


def _components(s: _Structure, st: _State, dark: list[int]) -> list[list[int]]:
    """Split the dark cells into groups that share no candidate and no open number.

    Union-find over segments: a dark cell joins its segments that still have free
    cells (every candidate lamp position lies in one of them), and a number joins the
    segments of its free neighbours. Every free cell is itself dark (a lit cell sees a
    lamp and was turned off), so two groups never touch the same free cell, segment
    or number: each can be solved alone and the solutions combine freely.
    """
    parent: dict[int, int] = {}

    def find(a: int) -> int:
        root = a
        while parent.setdefault(root, root) != root:
            root = parent[root]
        while parent[a] != root:
            parent[a], a = root, parent[a]
        return root

    seg_free, row_seg, col_seg, value = st.seg_free, s.row_seg, s.col_seg, st.value
    anchor: list[int] = []
    numbers: set[int] = set()
    for y in dark:
        ry, cy = row_seg[y], col_seg[y]
        if seg_free[ry] and seg_free[cy]:
            parent[find(ry)] = find(cy)
            anchor.append(ry)
        else:
            anchor.append(ry if seg_free[ry] else cy)
        if value[y] == _UNKNOWN:
            numbers.update(s.cell_numbers[y])
    for j in numbers:
        free = [row_seg[x] for x in s.number_cells[j] if value[x] == _UNKNOWN]
        for seg in free[1:]:
            parent[find(seg)] = find(free[0])
    groups: dict[int, list[int]] = {}
    for y, seg in zip(dark, anchor, strict=True):
        groups.setdefault(find(seg), []).append(y)
    return sorted(groups.values(), key=len)


def _pick_dark_cell(s: _Structure, st: _State, scope: list[int]) -> tuple[int | None, int]:
    """A dark cell of ``scope`` with few candidate lamp positions, and the index of the
    first dark cell of ``scope`` (every cell before it is lit, for good in this branch);
    ``(None, len(scope))`` when all are lit.

    The cell is the first one with two candidates or fewer, else the one with the
    fewest among the first :data:`_PICK_WINDOW` dark cells: scanning every cell for the
    true minimum made open puzzles (long segments, few numbers) cost O(cells) per node.
    """
    value, seg_free, seg_lamp = st.value, st.seg_free, st.seg_lamp
    row_seg, col_seg = s.row_seg, s.col_seg
    best, best_free, first, seen = None, 1 << 30, len(scope), 0
    for n, y in enumerate(scope):
        ry, cy = row_seg[y], col_seg[y]
        if seg_lamp[ry] or seg_lamp[cy]:
            continue
        if best is None:
            first = n
        free = seg_free[ry] + seg_free[cy] - (value[y] == _UNKNOWN)
        if free < best_free:
            best, best_free = y, free
            if free <= 2:
                break
        seen += 1
        if seen >= _PICK_WINDOW:
            break
    return best, first


def _lamps_of(st: _State) -> frozenset[int]:
    return frozenset(i for i, v in enumerate(st.value) if v == _ON)


class _Search:
    """Depth-first search with propagation, splitting into independent groups.

    Splitting matters on big puzzles: without it a wrong choice in one corner is only
    undone after every combination elsewhere has been tried (chronological
    backtracking). Groups are solved smallest first; a group with no solution ends the
    node, groups with one solution are fixed and the search goes on with the largest
    group in place; only when a small group has several solutions is the largest one
    solved separately and the solution sets combined (product, up to the limit).
    """

    def __init__(self, s: _Structure) -> None:
        self.s = s
        self.nodes = 0
        self.cache: dict[tuple, tuple[list[frozenset[int]], bool]] = {}
        #: When a list, ambiguous groups are recorded here (as two full lamp sets) and
        #: fixed to their first solution instead of ending the search (generator use).
        self.collect: list[tuple[frozenset[int], frozenset[int]]] | None = None

    def group(
        self, st: _State, group: list[int], limit: int, base: frozenset[int]
    ) -> list[frozenset[int]]:
        """The lamps one group adds to ``base`` in up to ``limit`` solutions, cached.

        A group's sub-problem is fully described by its dark cells, which of them are
        still free, and what the numbers around the free ones still need, so the same
        group reached again through other choices elsewhere is answered from the cache
        (component caching, as in the model counters of Sang, Bacchus, Beame, Kautz and
        Pitassi, 2004).
        """
        value = st.value
        free = tuple(y for y in group if value[y] == _UNKNOWN)
        numbers = sorted({j for y in free for j in self.s.cell_numbers[y]})
        needs = tuple((j, self.s.number_want[j] - st.num_lamps[j]) for j in numbers)
        key = (tuple(group), free, needs)
        hit = self.cache.get(key)
        if hit is not None and (hit[1] or len(hit[0]) >= limit):
            return hit[0][:limit]
        found, exhausted = self.run(st, [], group, limit)
        added = [sol - base for sol in found]
        self.cache[key] = (added, exhausted)
        return added

    def _split(
        self,
        st: _State,
        groups: list[list[int]],
        wanted: int,
        base: frozenset[int],
        stack: list,
        solutions: list[frozenset[int]],
        limit: int,
    ) -> bool:
        """Solve independent groups (see the class docstring); True when ``solutions``
        reached ``limit``. The largest group may be pushed on ``stack`` instead."""
        parts: list[list[frozenset[int]]] = []
        for group in groups[:-1]:
            found = self.group(st.copy(), group, wanted, base)
            if not found:
                return False
            parts.append(found)
        if self.collect is not None:
            self.collect.extend((base | p[0], base | p[1]) for p in parts if len(p) > 1)
            parts = [p[:1] for p in parts]
        if all(len(p) == 1 for p in parts):
            fixed = frozenset().union(*(p[0] for p in parts))
            # Split again once a tenth of the largest group is lit (the fixed groups
            # get lit by the moves themselves).
            split_at = st.dark - sum(map(len, groups[:-1])) - max(1, len(groups[-1]) // 10)
            stack.append((st, [(x, _ON) for x in fixed], groups[-1], False, split_at, False))
            return False
        # The small groups already give `others` combinations.
        others = math.prod(len(p) for p in parts)
        parts.append(self.group(st, groups[-1], -(-wanted // others), base))
        for combo in itertools.product(*parts):
            solutions.append(base.union(*combo))
            if len(solutions) >= limit:
                return True
        return False

    def run(
        self,
        st: _State,
        queue: list[tuple[int, int]],
        scope: list[int],
        limit: int,
        probe_all: bool = False,
    ) -> tuple[list[frozenset[int]], bool]:
        """Up to ``limit`` full lamp sets below ``st`` (branching only on ``scope``).

        Probing covers the whole scope when ``probe_all``, otherwise only the cells
        next to what the node's own propagation changed (a probe far from any change
        would fail exactly as it did in the parent). The split into groups is tried
        again once a tenth of the scope's dark cells have been lit, not at every node;
        the scope sheds its lit cells as the search goes down.
        """
        s = self.s
        solutions: list[frozenset[int]] = []
        # Entries: state, moves, scope, probe everything, split threshold, copy first.
        # Sibling branches share their parent's state and copy it only when visited.
        stack: list[tuple[_State, list[tuple[int, int]], list[int], bool, float, bool]] = [
            (st, queue, scope, probe_all, math.inf, False)
        ]
        while stack:
            st, queue, scope, full, split_at, shared = stack.pop()
            if shared:
                st = st.copy()
            self.nodes += 1
            trail: list[int] = []
            if not _propagate(s, st, queue, trail):
                continue
            if not _probe(s, st, scope if full else _region(s, trail)):
                continue
            y, first = _pick_dark_cell(s, st, scope)
            if y is None:
                solutions.append(_lamps_of(st))
                if len(solutions) >= limit:
                    return solutions, False
                continue
            scope = scope[first:]
            if st.dark <= split_at:
                scope = _dark_cells(s, st, scope)
                groups = _components(s, st, scope)
                if len(groups) > 1:
                    wanted = limit - len(solutions)
                    base = _lamps_of(st)
                    if self._split(st, groups, wanted, base, stack, solutions, limit):
                        return solutions, False
                    continue
                split_at = st.dark - max(1, len(scope) // 10)
            candidates = _candidates(s, st, y)
            branches = []
            for n, x in enumerate(candidates):
                moves = [(c, _OFF) for c in candidates[:n]]
                moves.append((x, _ON))
                branches.append((st, moves, scope, False, split_at, n < len(candidates) - 1))
            # Depth first, first candidate first.
            stack.extend(reversed(branches))
        return solutions, True


def _region(s: _Structure, trail: list[int]) -> list[int]:
    """The cells whose candidates or numbers the assignments in ``trail`` touched."""
    seen: dict[int, None] = {}
    segments, row_seg, col_seg = s.segments, s.row_seg, s.col_seg
    for i in trail:
        seen.update(dict.fromkeys(segments[row_seg[i]]))
        seen.update(dict.fromkeys(segments[col_seg[i]]))
        for j in s.cell_numbers[i]:
            seen.update(dict.fromkeys(s.number_cells[j]))
    return list(seen)


def solve_lightup(puzzle: LightUpPuzzle, *, limit: int = 2) -> LightUpResult:
    """Find up to ``limit`` solutions by propagation and search (see the module docstring).

    Parameters
    ----------
    puzzle : the puzzle.
    limit : stop after this many solutions; 2 proves uniqueness.

    Returns
    -------
    LightUpResult : ``count`` solutions found, ``exhausted`` when that count is exact.
    """
    if not isinstance(puzzle, LightUpPuzzle):
        raise LightUpError("Give a Light Up puzzle (see parse_lightup).")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise LightUpError(f"The solution limit must be a whole number of at least 1, not {limit}.")
    s = _Structure(puzzle)
    queue = _root_moves(s)
    if queue is None:
        return LightUpResult([], 0, True)
    search = _Search(s)
    found, exhausted = search.run(
        _State(s), queue, list(range(len(s.cells))), limit, probe_all=True
    )
    solutions = [frozenset(s.cells[i] for i in sol) for sol in found]
    return LightUpResult(solutions, len(solutions), exhausted, search.nodes)


def _root_moves(s: _Structure) -> list[tuple[int, int]] | None:
    """Moves forced by the numbers alone (0, or all free neighbours); None if one is impossible."""
    queue: list[tuple[int, int]] = []
    for j, want in enumerate(s.number_want):
        free = len(s.number_cells[j])
        if want > free:
            return None
        if want == 0 or want == free:
            queue.extend((x, _ON if want else _OFF) for x in s.number_cells[j])
    return queue


def _ambiguities(puzzle: LightUpPuzzle) -> list[tuple[frozenset[tuple[int, int]], ...]]:
    """For the generator: pairs of solutions that differ, one pair per ambiguous group
    met on the way to one solution (groups are fixed to one of their solutions and the
    search goes on), so one call finds most of a big puzzle's ambiguities."""
    s = _Structure(puzzle)
    queue = _root_moves(s)
    if queue is None:
        return []
    search = _Search(s)
    search.collect = []
    found, _ = search.run(_State(s), queue, list(range(len(s.cells))), 2, probe_all=True)
    pairs = [tuple(found)] if len(found) == 2 else []
    pairs.extend(search.collect)
    return [tuple(frozenset(s.cells[i] for i in sol) for sol in pair) for pair in pairs]


# -- generator -------------------------------------------------------------------------


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
    import random

    if rows < 1 or cols < 1:
        raise LightUpError(f"A puzzle needs at least one row and one column, not {rows}x{cols}.")
    if not 0.0 <= wall_density < 1.0:
        raise LightUpError(f"The wall density must be from 0 to below 1, not {wall_density}.")
    rng = random.Random(seed)
    grid = [
        [WALL if rng.random() < wall_density else EMPTY for _ in range(cols)] for _ in range(rows)
    ]
    lamps: set[tuple[int, int]] = set()

    def as_puzzle() -> LightUpPuzzle:
        return LightUpPuzzle(rows, cols, tuple("".join(row) for row in grid))

    def relight() -> None:
        puzzle = as_puzzle()
        lit = set(lit_cells(puzzle, lamps))
        order = puzzle.empty_cells()
        rng.shuffle(order)
        for cell in order:
            if cell not in lit:
                lamps.add(cell)
                lit |= lit_cells(puzzle, [cell])

    def renumber() -> None:
        for r in range(rows):
            for c in range(cols):
                if grid[r][c] != EMPTY:
                    n = sum(
                        1
                        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                        if (rr, cc) in lamps
                    )
                    grid[r][c] = str(n)

    relight()
    renumber()
    while True:
        result = solve_lightup(as_puzzle(), limit=2)
        if result.unique:
            break
        # The second solution, and every other ambiguous group met on the way to one
        # solution: they are independent, so all are repaired in one round.
        pairs = [tuple(result.solutions), *_ambiguities(as_puzzle())]
        for pair in pairs:
            extra = sorted(frozenset().union(*pair) - lamps)
            if extra:
                r, c = rng.choice(extra)
                grid[r][c] = WALL
        relight()
        renumber()
    numbered = [(r, c) for r in range(rows) for c in range(cols) if grid[r][c].isdigit()]
    rng.shuffle(numbered)
    if removal_checks is not None:
        numbered = numbered[:removal_checks]
    for r, c in numbered:
        saved = grid[r][c]
        grid[r][c] = WALL
        if not solve_lightup(as_puzzle(), limit=2).unique:
            grid[r][c] = saved
    return as_puzzle(), frozenset(lamps)
