"""What the Light Up solver knows about a partly filled grid, and what follows from it.

Empty cells are the variables ("lamp here or not"). A *segment* is a maximal horizontal
or vertical run of empty cells; a lamp lights exactly the union of its two segments, so
"lamps never see each other" is "at most one lamp per segment", and a cell ``c`` can
only be lit by a lamp in ``row_segment(c) | column_segment(c)``. Propagation applies the
three rules as they bite:

* a lamp forbids every other cell of its two segments;
* a dark cell with no candidate left is a conflict, with exactly one candidate that
  candidate must be a lamp ("only one place can light it");
* a number with as many lamps as it wants forbids its other free neighbours, and one
  that needs all its free neighbours gets lamps on all of them.

*Failed-literal probing* (the look-ahead of SAT solvers, e.g. Freeman's POSIT, 1995; the
"try a lamp, reach a contradiction" step of human solvers) tries a lamp on the free
cells that are candidates of a two-candidate dark cell or touch a number; a lamp that
leads to a conflict is ruled out. Assignments are recorded on a trail so a probe can be
taken back without copying the state.
"""

from __future__ import annotations

from assistant.lightup.model import LightUpPuzzle

__all__ = [
    "OFF",
    "ON",
    "UNKNOWN",
    "State",
    "Structure",
    "candidate_cells",
    "probe",
    "propagate",
    "touched_region",
    "undo",
]

UNKNOWN, OFF, ON = -1, 0, 1


class Structure:
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


class State:
    """The changing part of the search: copied at every branch (cheap flat lists)."""

    __slots__ = ("dark", "num_free", "num_lamps", "seg_free", "seg_lamp", "value")

    def __init__(self, s: Structure | None = None) -> None:
        if s is None:
            return
        self.value = [UNKNOWN] * len(s.cells)
        self.seg_free = [len(seg) for seg in s.segments]
        self.seg_lamp = [False] * len(s.segments)
        self.num_lamps = [0] * len(s.number_want)
        self.num_free = [len(around) for around in s.number_cells]
        #: Number of empty cells no lamp lights yet (all of the puzzle, not one group).
        self.dark = len(s.cells)

    def copy(self) -> State:
        other = State()
        other.value = self.value.copy()
        other.seg_free = self.seg_free.copy()
        other.seg_lamp = self.seg_lamp.copy()
        other.num_lamps = self.num_lamps.copy()
        other.num_free = self.num_free.copy()
        other.dark = self.dark
        return other



def propagate(
    s: Structure, st: State, queue: list[tuple[int, int]], trail: list[int] | None = None
) -> bool:
    """Apply the assignments in ``queue`` and everything they force; False on conflict.

    Each assignment is applied whole before it is checked, and its cell is appended to
    ``trail`` (when given) so :func:`undo` can take it back.
    """
    value, seg_free, seg_lamp = st.value, st.seg_free, st.seg_lamp
    num_lamps, num_free = st.num_lamps, st.num_free
    row_seg, col_seg, segments = s.row_seg, s.col_seg, s.segments
    cell_numbers, number_cells, number_want = s.cell_numbers, s.number_cells, s.number_want
    while queue:
        i, v = queue.pop()
        old = value[i]
        if old != UNKNOWN:
            if old != v:
                return False
            continue
        rs, cs = row_seg[i], col_seg[i]
        if v == ON and (seg_lamp[rs] or seg_lamp[cs]):
            return False
        value[i] = v
        seg_free[rs] -= 1
        seg_free[cs] -= 1
        touched = cell_numbers[i]
        for j in touched:
            num_free[j] -= 1
            if v == ON:
                num_lamps[j] += 1
        if v == ON:
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
                fill = OFF if need == 0 else ON
                for x in number_cells[j]:
                    if value[x] == UNKNOWN:
                        queue.append((x, fill))
        if v == ON:
            for x in segments[rs]:
                if value[x] == UNKNOWN:
                    queue.append((x, OFF))
            for x in segments[cs]:
                if value[x] == UNKNOWN:
                    queue.append((x, OFF))
            continue
        # A cell went off: dark cells of its two segments lost one candidate.
        for seg in (rs, cs):
            if seg_lamp[seg]:
                continue  # every cell of it is lit
            for y in segments[seg]:
                if value[y] == ON:
                    continue
                ry, cy = row_seg[y], col_seg[y]
                if seg_lamp[ry] or seg_lamp[cy]:
                    continue
                free = seg_free[ry] + seg_free[cy] - (value[y] == UNKNOWN)
                if free == 0:
                    return False
                if free == 1:
                    queue.append((_only_candidate(s, st, y), ON))
    return True


def _newly_lit(s: Structure, seg_lamp: list[bool], rs: int, cs: int) -> int:
    """How many cells a lamp on segments ``rs`` and ``cs`` lights that nothing else does
    (with neither segment holding a lamp in ``seg_lamp``)."""
    row_seg, col_seg = s.row_seg, s.col_seg
    count = sum(1 for x in s.segments[rs] if not seg_lamp[col_seg[x]])
    count += sum(1 for x in s.segments[cs] if not seg_lamp[row_seg[x]])
    return count - 1  # the lamp's own cell is in both segments


def undo(s: Structure, st: State, trail: list[int]) -> None:
    """Take back the assignments recorded in ``trail`` (latest first)."""
    value, seg_free, seg_lamp = st.value, st.seg_free, st.seg_lamp
    num_lamps, num_free = st.num_lamps, st.num_free
    while trail:
        i = trail.pop()
        rs, cs = s.row_seg[i], s.col_seg[i]
        on = value[i] == ON
        value[i] = UNKNOWN
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


def probe(s: Structure, st: State, cells: list[int]) -> bool:
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
            if seg_free[ry] + seg_free[cy] - (value[y] == UNKNOWN) == 2:
                probes.update(dict.fromkeys(candidate_cells(s, st, y)))
            elif value[y] == UNKNOWN and s.cell_numbers[y]:
                probes[y] = None
        changed: list[int] = []
        for x in probes:
            if value[x] != UNKNOWN:
                continue
            ok = propagate(s, st, [(x, ON)], trail)
            undo(s, st, trail)
            if not ok and not propagate(s, st, [(x, OFF)], changed):
                return False
        work = touched_region(s, changed) if changed else []
    return True


def _only_candidate(s: Structure, st: State, y: int) -> int:
    value = st.value
    for x in s.segments[s.row_seg[y]]:
        if value[x] == UNKNOWN:
            return x
    for x in s.segments[s.col_seg[y]]:
        if value[x] == UNKNOWN:
            return x
    raise AssertionError("a dark cell with one candidate has it in its segments")


def candidate_cells(s: Structure, st: State, y: int) -> list[int]:
    value = st.value
    out = [x for x in s.segments[s.row_seg[y]] if value[x] == UNKNOWN]
    out.extend(x for x in s.segments[s.col_seg[y]] if value[x] == UNKNOWN and x not in out)
    return out


def touched_region(s: Structure, trail: list[int]) -> list[int]:
    """The cells whose candidates or numbers the assignments in ``trail`` touched."""
    seen: dict[int, None] = {}
    segments, row_seg, col_seg = s.segments, s.row_seg, s.col_seg
    for i in trail:
        seen.update(dict.fromkeys(segments[row_seg[i]]))
        seen.update(dict.fromkeys(segments[col_seg[i]]))
        for j in s.cell_numbers[i]:
            seen.update(dict.fromkeys(s.number_cells[j]))
    return list(seen)
