"""The exact Light Up search: :func:`solve_lightup` counts solutions up to a limit, and
proves a puzzle unique by exhausting the search after the first one (``limit=2``).

The solver treats the puzzle as a Boolean constraint problem over the empty cells
("lamp here or not") and runs a DPLL-style search (Davis, Logemann and Loveland, 1962)
with propagation and failed-literal probing specialised to the three rules (see
:mod:`assistant.lightup.propagation`): probing covers everything at the root, then the
cells around each node's changes, to a local fixpoint.

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
from dataclasses import dataclass

from assistant.lightup.model import LightUpError, LightUpPuzzle
from assistant.lightup.propagation import (
    OFF,
    ON,
    UNKNOWN,
    State,
    Structure,
    candidate_cells,
    probe,
    propagate,
    touched_region,
)

__all__ = ["LightUpResult", "ambiguities", "solve_lightup"]

#: Dark cells examined when choosing where to branch (see _pick_dark_cell).
_PICK_WINDOW = 64


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


def _dark_cells(s: Structure, st: State, scope: list[int]) -> list[int]:
    seg_lamp, row_seg, col_seg = st.seg_lamp, s.row_seg, s.col_seg
    return [y for y in scope if not (seg_lamp[row_seg[y]] or seg_lamp[col_seg[y]])]


def _components(s: Structure, st: State, dark: list[int]) -> list[list[int]]:
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
        if value[y] == UNKNOWN:
            numbers.update(s.cell_numbers[y])
    for j in numbers:
        free = [row_seg[x] for x in s.number_cells[j] if value[x] == UNKNOWN]
        for seg in free[1:]:
            parent[find(seg)] = find(free[0])
    groups: dict[int, list[int]] = {}
    for y, seg in zip(dark, anchor, strict=True):
        groups.setdefault(find(seg), []).append(y)
    return sorted(groups.values(), key=len)


def _pick_dark_cell(s: Structure, st: State, scope: list[int]) -> tuple[int | None, int]:
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
        free = seg_free[ry] + seg_free[cy] - (value[y] == UNKNOWN)
        if free < best_free:
            best, best_free = y, free
            if free <= 2:
                break
        seen += 1
        if seen >= _PICK_WINDOW:
            break
    return best, first


def _lamps_of(st: State) -> frozenset[int]:
    return frozenset(i for i, v in enumerate(st.value) if v == ON)


class _Search:
    """Depth-first search with propagation, splitting into independent groups.

    Splitting matters on big puzzles: without it a wrong choice in one corner is only
    undone after every combination elsewhere has been tried (chronological
    backtracking). Groups are solved smallest first; a group with no solution ends the
    node, groups with one solution are fixed and the search goes on with the largest
    group in place; only when a small group has several solutions is the largest one
    solved separately and the solution sets combined (product, up to the limit).
    """

    def __init__(self, s: Structure) -> None:
        self.s = s
        self.nodes = 0
        self.cache: dict[tuple, tuple[list[frozenset[int]], bool]] = {}
        #: When a list, ambiguous groups are recorded here (as two full lamp sets) and
        #: fixed to their first solution instead of ending the search (generator use).
        self.collect: list[tuple[frozenset[int], frozenset[int]]] | None = None

    def group(
        self, st: State, group: list[int], limit: int, base: frozenset[int]
    ) -> list[frozenset[int]]:
        """The lamps one group adds to ``base`` in up to ``limit`` solutions, cached.

        A group's sub-problem is fully described by its dark cells, which of them are
        still free, and what the numbers around the free ones still need, so the same
        group reached again through other choices elsewhere is answered from the cache
        (component caching, as in the model counters of Sang, Bacchus, Beame, Kautz and
        Pitassi, 2004).
        """
        value = st.value
        free = tuple(y for y in group if value[y] == UNKNOWN)
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
        st: State,
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
            stack.append((st, [(x, ON) for x in fixed], groups[-1], False, split_at, False))
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
        st: State,
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
        stack: list[tuple[State, list[tuple[int, int]], list[int], bool, float, bool]] = [
            (st, queue, scope, probe_all, math.inf, False)
        ]
        while stack:
            st, queue, scope, full, split_at, shared = stack.pop()
            if shared:
                st = st.copy()
            self.nodes += 1
            trail: list[int] = []
            if not propagate(s, st, queue, trail):
                continue
            if not probe(s, st, scope if full else touched_region(s, trail)):
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
            candidates = candidate_cells(s, st, y)
            branches = []
            for n, x in enumerate(candidates):
                moves = [(c, OFF) for c in candidates[:n]]
                moves.append((x, ON))
                branches.append((st, moves, scope, False, split_at, n < len(candidates) - 1))
            # Depth first, first candidate first.
            stack.extend(reversed(branches))
        return solutions, True


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
    s = Structure(puzzle)
    queue = _root_moves(s)
    if queue is None:
        return LightUpResult([], 0, True)
    search = _Search(s)
    found, exhausted = search.run(
        State(s), queue, list(range(len(s.cells))), limit, probe_all=True
    )
    solutions = [frozenset(s.cells[i] for i in sol) for sol in found]
    return LightUpResult(solutions, len(solutions), exhausted, search.nodes)


def _root_moves(s: Structure) -> list[tuple[int, int]] | None:
    """Moves forced by the numbers alone (0, or all free neighbours); None if one is impossible."""
    queue: list[tuple[int, int]] = []
    for j, want in enumerate(s.number_want):
        free = len(s.number_cells[j])
        if want > free:
            return None
        if want == 0 or want == free:
            queue.extend((x, ON if want else OFF) for x in s.number_cells[j])
    return queue


def ambiguities(puzzle: LightUpPuzzle) -> list[tuple[frozenset[tuple[int, int]], ...]]:
    """For the generator: pairs of solutions that differ, one pair per ambiguous group
    met on the way to one solution (groups are fixed to one of their solutions and the
    search goes on), so one call finds most of a big puzzle's ambiguities."""
    s = Structure(puzzle)
    queue = _root_moves(s)
    if queue is None:
        return []
    search = _Search(s)
    search.collect = []
    found, _ = search.run(State(s), queue, list(range(len(s.cells))), 2, probe_all=True)
    pairs = [tuple(found)] if len(found) == 2 else []
    pairs.extend(search.collect)
    return [tuple(frozenset(s.cells[i] for i in sol) for sol in pair) for pair in pairs]
