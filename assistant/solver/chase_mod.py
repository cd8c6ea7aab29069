"""Boards with holes over Z_{p^e}, p^e != 2: a row chase that eliminates each left-over
equation where it appears, on the variable of least reach.

The chase (:mod:`assistant.solver.chase`) carries every cell of two live rows as an
affine expression in the free variables (the presses of row 0 and of each cell just
below a hole): one small unsigned integer per coefficient, so a step down the board is a
handful of whole-array additions and a reduction mod q. A cell just above a hole leaves
an equation; it is used at once to express one variable with a *unit* coefficient (Z_q
is a field only for prime q: nothing else is ever inverted) through the others, which
is substituted out of the live rows and its slot reused. The number of live variables
stays near the row length.

Which variable: each variable's coefficients are non-zero only on an interval of cells
(a variable born at column c reaches one more cell either side per row, and a
substitution spreads the interval of the variable it removes onto those of the
variables it brings in). The variable with the narrowest interval is eliminated, so a
substitution touches a few cells, not the whole row: the cost of a hole is its
neighbourhood, and the chase stays near a full rectangle's cost however many holes.

Equations without a unit coefficient (only for composite q) are deferred; the last row's
equations and the deferred ones form the final system, solved by
:func:`assistant.solver.modular.solve_mod_large` (unit pivots by blocked elimination
through BLAS, Smith form for the rest). Back-substitution then recovers each eliminated
variable, as matrix products over all the wanted solutions at once, and a numeric chase
gives every cell.

A free variable *is* the press of its cell, so the map from the variables left at the
end to the whole board is injective: kernel orders and solution counts carry over.

References
----------
- K. Sutner, "Linear cellular automata and the Garden-of-Eden", *The Mathematical
  Intelligencer* 11(2), 1989 (light chasing).
- A. Storjohann, *Algorithms for Matrix Canonical Forms*, PhD thesis, ETH Zurich, 2000
  (elimination over Z_N without division by non-units).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from assistant.solver.modular import dot_mod, solve_mod_large

__all__ = ["ChaseModResult", "coefficient_dtype", "solve_chase_mod"]


@dataclass
class ChaseModResult:
    """Presses (or None), and the kernel's generators (when asked) with their orders."""

    presses: np.ndarray | None
    generators: list[np.ndarray] = field(default_factory=list)
    orders: list[int] = field(default_factory=list)


def coefficient_dtype(q: int) -> type:
    """Smallest unsigned type that holds four coefficients' sum, 4 (q - 1): the cell,
    its two neighbours and the cell above, before the reduction mod q."""
    for dtype in (np.uint8, np.uint16, np.uint32):
        if 4 * (q - 1) <= np.iinfo(dtype).max:
            return dtype
    return np.uint64


#: Moduli up to this always substitute through a table of each expression's multiples.
_TABLE_MODULUS = 16
#: Intervals at least this wide are substituted in place, one variable at a time.
_WIDE = 48
#: Rows between two searches for variables that have left the live rows.
_RETIRE_EVERY = 8
#: Slots searched first for an equation's pivot (the narrowest); the rest only when none
#: of them has a unit coefficient in it.
_NARROW = 128


@dataclass
class _Record:
    """One row's eliminations, for back-substitution: variable ``variables[i]`` equals
    ``constants[i] + rest[i] . (the variables in the slots then)``."""

    variables: np.ndarray
    constants: np.ndarray
    rest: np.ndarray
    slot_variable: np.ndarray


class _Chase:
    """The live state: three rows of expressions (the row above, the current row and the
    next one; which is which rotates), each (cells, slots) coefficients plus a constant
    per cell, and the slots' variables and reach intervals."""

    def __init__(self, n: int, p: int, e: int) -> None:
        self.n = n
        self.p = p
        self.q = p**e
        self.dtype = coefficient_dtype(self.q)
        size = n + 64
        self.rows = np.zeros((3, n, size), dtype=self.dtype)
        self.consts = np.zeros((3, n), dtype=np.int64)
        self.scratch = np.zeros((n, size), dtype=self.dtype)
        self.above, self.current, self.following = 0, 1, 2
        self.slot_variable = np.full(size, -1, dtype=np.int64)
        self.low = np.zeros(size, dtype=np.int64)
        self.high = np.zeros(size, dtype=np.int64)
        self.free = list(range(size - 1, -1, -1))
        self.variable_cells: list[tuple[int, int]] = []
        self.deferred = np.zeros((0, size), dtype=np.int64)
        self.deferred_c = np.zeros(0, dtype=np.int64)
        self.records: list[_Record] = []
        self.retired: list[int] = []
        self.consistent = True

    @property
    def size(self) -> int:
        return self.slot_variable.size

    @property
    def nxt(self) -> np.ndarray:
        return self.rows[self.following]

    @property
    def nxt_c(self) -> np.ndarray:
        return self.consts[self.following]

    def _grow(self, needed: int) -> None:
        old = self.size
        size = max(2 * old, old + needed)
        rows = np.zeros((3, self.n, size), dtype=self.dtype)
        rows[..., :old] = self.rows
        self.rows = rows
        self.scratch = np.zeros((self.n, size), dtype=self.dtype)
        deferred = np.zeros((self.deferred.shape[0], size), dtype=np.int64)
        deferred[:, :old] = self.deferred
        self.deferred = deferred
        self.slot_variable = np.concatenate(
            [self.slot_variable, np.full(size - old, -1, dtype=np.int64)]
        )
        self.low = np.concatenate([self.low, np.zeros(size - old, dtype=np.int64)])
        self.high = np.concatenate([self.high, np.zeros(size - old, dtype=np.int64)])
        self.free.extend(range(size - 1, old - 1, -1))

    def add_variables(self, row: int, cells: np.ndarray, *, in_next: bool) -> None:
        """Each cell of ``cells`` in board row ``row`` (held in the next row's expressions,
        or the current row's for row 0) becomes a new free variable of its own."""
        if not cells.size:
            return
        if len(self.free) < cells.size:
            self._grow(cells.size - len(self.free))
        which = self.following if in_next else self.current
        slots = np.array([self.free.pop() for _ in range(cells.size)], dtype=np.int64)
        count = len(self.variable_cells)
        self.slot_variable[slots] = np.arange(count, count + cells.size)
        self.variable_cells.extend((row, int(c)) for c in cells)
        self.low[slots] = cells
        self.high[slots] = cells
        self.rows[which, cells] = 0
        self.rows[which, cells, slots] = 1
        self.consts[which, cells] = 0

    def step(self, target_row: np.ndarray) -> None:
        """``x[r+1] = target[r] - (x[r] + left + right + x[r-1])`` for every cell of the
        next row, as expressions; holes hold zero rows, so nothing crosses them."""
        q = self.q
        cur, prev, nxt = self.rows[self.current], self.rows[self.above], self.nxt
        scratch = self.scratch
        np.add(cur, prev, out=nxt)
        nxt[1:] += cur[:-1]
        nxt[:-1] += cur[1:]
        # nxt is at most 4 (q - 1): subtract 2q, then q, where that stays non-negative
        # (unsigned wrap-around makes the difference huge where it does not) ...
        for amount in (2 * q, q):
            np.subtract(nxt, self.dtype(amount), out=scratch)
            np.minimum(nxt, scratch, out=nxt)
        # ... and negate: q - x lies in [1, q], and q itself means 0.
        np.subtract(self.dtype(q), nxt, out=nxt)
        np.subtract(nxt, self.dtype(q), out=scratch)
        np.minimum(nxt, scratch, out=nxt)
        cur_c = self.consts[self.current]
        total = cur_c + self.consts[self.above]
        total[1:] += cur_c[:-1]
        total[:-1] += cur_c[1:]
        self.consts[self.following] = (target_row - total) % q
        np.maximum(self.low - 1, 0, out=self.low)
        np.minimum(self.high + 1, self.n - 1, out=self.high)

    def drop(self, cells: np.ndarray) -> None:
        """The next row's cells that no equation determines hold nothing."""
        self.rows[self.following, cells] = 0
        self.consts[self.following, cells] = 0

    def eliminate(self, equations: np.ndarray, constants: np.ndarray) -> None:
        """Use each equation ``equations[i] . vars + constants[i] = 0`` to remove one
        variable from the live rows, or defer it, or note a contradiction."""
        if not equations.shape[0]:
            return
        pivots, slots = _reduce_equations(
            equations, constants, self.p, self.q, self.high - self.low
        )
        unused = np.ones(equations.shape[0], dtype=bool)
        unused[pivots] = False
        nonzero = equations.any(axis=1)
        if np.any(constants[unused & ~nonzero]):
            self.consistent = False
        deferred = unused & nonzero
        if deferred.any():
            self.deferred = np.vstack([self.deferred, equations[deferred]])
            self.deferred_c = np.concatenate([self.deferred_c, constants[deferred]])
        if not pivots.size:
            return
        rest = equations[pivots]
        rest = np.where(rest == 0, 0, self.q - rest)
        rest[np.arange(pivots.size), slots] = 0
        rest_c = (-constants[pivots]) % self.q
        self._substitute(slots, rest, rest_c)
        if self.deferred.shape[0]:
            factors = self.deferred[:, slots]
            self.deferred = (self.deferred + dot_mod(factors, rest, self.q)) % self.q
            self.deferred[:, slots] = 0
            self.deferred_c = (self.deferred_c + dot_mod(factors, rest_c, self.q)) % self.q
        # The variables brought in now reach where the removed ones did (those that
        # reach the whole row already cannot reach further).
        partial = np.flatnonzero(self.high - self.low < self.n - 1)
        reached = rest[:, partial] != 0
        big = np.iinfo(np.int64).max
        self.low[partial] = np.minimum(
            self.low[partial], np.where(reached, self.low[slots, None], big).min(0)
        )
        self.high[partial] = np.maximum(
            self.high[partial], np.where(reached, self.high[slots, None], -1).max(0)
        )
        self.records.append(
            _Record(
                self.slot_variable[slots].copy(),
                rest_c,
                rest.astype(self.dtype),
                self.slot_variable.astype(np.int32),
            )
        )
        self.slot_variable[slots] = -1
        self.free.extend(int(s) for s in slots)

    def _substitute(self, slots: np.ndarray, rest: np.ndarray, rest_c: np.ndarray) -> None:
        """Replace the variables in ``slots`` by their expressions (``rest``, ``rest_c``)
        in the current and next rows, only on the cells of each slot's interval. No
        expression holds another's variable, so they can be applied in any grouping:
        a wide interval in place, one slot at a time; narrow ones all at once."""
        wide = self.high[slots] - self.low[slots] >= _WIDE
        for j in np.flatnonzero(wide):
            self._substitute_wide(int(slots[j]), rest[j], int(rest_c[j]))
        if not wide.all():
            narrow = ~wide
            self._substitute_narrow(slots[narrow], rest[narrow], rest_c[narrow])

    def _times(self, factors: np.ndarray, rest: np.ndarray, which: np.ndarray) -> np.ndarray:
        """``factors[i] * rest[which[i]] mod q`` as rows of the coefficient type."""
        q = self.q
        if q * rest.shape[0] <= max(factors.size, _TABLE_MODULUS * rest.shape[0]):
            # Fewer multiples than rows to multiply: tabulate them by repeated addition.
            return _multiples(rest.astype(self.dtype), q)[which, factors]
        if q < 2**26:  # products below 2^52: exact in float64, reduced without division
            terms = factors[:, None].astype(np.float64) * rest.astype(np.float64)[which]
            terms -= q * np.floor(terms / q)
            return terms.astype(self.dtype)
        return (factors[:, None] * rest[which] % q).astype(self.dtype)

    def _substitute_wide(self, slot: int, rest: np.ndarray, rest_c: int) -> None:
        low, high = int(self.low[slot]), int(self.high[slot]) + 1
        q = self.q
        for which in (self.current, self.following):
            window = self.rows[which, low:high]
            factors = window[:, slot].astype(np.int64)
            if not factors.any():
                continue
            window += self._times(factors, rest[None], np.zeros(factors.size, dtype=np.intp))
            scratch = self.scratch[: high - low]
            np.subtract(window, self.dtype(q), out=scratch)
            np.minimum(window, scratch, out=window)
            window[:, slot] = 0
            consts = self.consts[which, low:high]
            consts[...] = (consts + factors * rest_c) % q

    def _substitute_narrow(self, slots: np.ndarray, rest: np.ndarray, rest_c: np.ndarray) -> None:
        q, n = self.q, self.n
        flat = self.rows.reshape(3 * n, -1)
        flat_c = self.consts.reshape(-1)
        lengths = self.high[slots] - self.low[slots] + 1
        which = np.repeat(np.arange(slots.size), lengths)
        offsets = np.arange(which.size) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        cells = self.low[slots][which] + offsets
        targets = np.concatenate([self.current * n + cells, self.following * n + cells])
        which = np.concatenate([which, which])
        factors = flat[targets, slots[which]]
        hit = np.flatnonzero(factors)
        targets, which, factors = targets[hit], which[hit], factors[hit].astype(np.int64)
        if not targets.size:
            return
        terms = self._times(factors, rest, which)
        # Rows reached by several slots get their terms in layers of distinct rows.
        order = np.argsort(targets, kind="stable")
        targets, terms = targets[order], terms[order]
        starts = np.r_[0, np.flatnonzero(targets[1:] != targets[:-1]) + 1]
        layer = np.arange(targets.size) - np.repeat(starts, np.diff(np.r_[starts, targets.size]))
        for depth in range(int(layer.max()) + 1):
            chosen = layer == depth
            rows = flat[targets[chosen]]
            rows += terms[chosen]
            np.minimum(rows, rows - self.dtype(q), out=rows)
            flat[targets[chosen]] = rows
        which = which[order]
        flat[targets, slots[which]] = 0
        np.add.at(flat_c, targets, factors[order] * rest_c[which] % q)
        flat_c[targets[starts]] %= q

    def retire(self) -> None:
        """Variables gone from both live rows and from the deferred equations can never
        come back: they are free for good (directions of the kernel), and their slots
        are reused. Without this, a board of many small pieces keeps thousands."""
        used = (self.rows[self.current] != 0).any(axis=0)
        used |= (self.rows[self.above] != 0).any(axis=0)
        if self.deferred.shape[0]:
            used |= self.deferred.any(axis=0)
        gone = np.flatnonzero((self.slot_variable >= 0) & ~used)
        if gone.size:
            self.retired.extend(int(v) for v in self.slot_variable[gone])
            self.slot_variable[gone] = -1
            self.free.extend(int(s) for s in gone)

    def advance(self) -> None:
        """Move down one row: next becomes current, current becomes the row above."""
        self.above, self.current, self.following = self.current, self.following, self.above


def _multiples(rest: np.ndarray, q: int) -> np.ndarray:
    """``table[j, a] = a * rest[j] mod q`` for a in 0..q-1, by repeated addition."""
    table = np.zeros((rest.shape[0], q, rest.shape[1]), dtype=rest.dtype)
    for a in range(1, q):
        np.add(table[:, a - 1], rest, out=table[:, a])
        np.minimum(table[:, a], table[:, a] - rest.dtype.type(q), out=table[:, a])
    return table


def _reduce_equations(
    equations: np.ndarray, constants: np.ndarray, p: int, q: int, width: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Reduced echelon form of one row's equations, in place, pivoting on a unit
    coefficient of least ``width``. Returns the pivot equations and their slots; every
    pivot is absent from all the other equations.

    Equations far apart share no narrow variable, so most pivots are independent: each
    round takes every equation's best unit whose slot no earlier equation of the round
    touches, and eliminates them all with one matrix product.
    """
    done = np.zeros(equations.shape[0], dtype=bool)
    pivots: list[np.ndarray] = []
    slots: list[np.ndarray] = []
    by_width = np.argsort(width, kind="stable")
    narrow = by_width[: min(by_width.size, _NARROW)]
    while True:
        pending = np.flatnonzero(~done)
        if not pending.size:
            break
        best = _best_units(equations, pending, narrow, p, q)
        if best.size and (best < 0).any():
            wide = np.flatnonzero(best < 0)
            best[wide] = _best_units(equations, pending[wide], by_width, p, q)
        done[pending[best < 0]] = True
        pending, best = pending[best >= 0], best[best >= 0]
        if not pending.size:
            break
        # Keep a candidate only when no candidate kept before it uses its slot (which
        # covers the same slot) and it uses none of theirs; the first always stays.
        touches = equations[np.ix_(pending, best)] != 0
        np.fill_diagonal(touches, False)
        keep = _independent(touches | touches.T)
        taken, chosen = pending[keep], best[keep]
        values = equations[taken, chosen]
        if (values != 1).any():
            inverse = np.array([pow(int(v), -1, q) for v in values], dtype=np.int64)
            equations[taken] = equations[taken] * inverse[:, None] % q
            constants[taken] = constants[taken] * inverse % q
        others = np.ones(equations.shape[0], dtype=bool)
        others[taken] = False
        others[others] = equations[np.ix_(others, chosen)].any(axis=1)
        if others.any():
            factors = equations[np.ix_(others, chosen)]
            equations[others] = (equations[others] - dot_mod(factors, equations[taken], q)) % q
            constants[others] = (constants[others] - dot_mod(factors, constants[taken], q)) % q
        done[taken] = True
        pivots.append(taken)
        slots.append(chosen)
    if not pivots:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(pivots), np.concatenate(slots)


def _best_units(
    equations: np.ndarray, rows: np.ndarray, order: np.ndarray, p: int, q: int
) -> np.ndarray:
    """For each of ``rows``, the first slot in ``order`` where it has a unit, or -1."""
    block = equations[np.ix_(rows, order)]
    units = block % p != 0 if p != q else block != 0
    first = units.argmax(axis=1)
    found = units[np.arange(rows.size), first]
    return np.where(found, order[first], -1)


def _independent(clashes: np.ndarray) -> np.ndarray:
    """Greedy in order: keep each candidate that clashes with none kept before it."""
    keep = np.ones(clashes.shape[0], dtype=bool)
    later, earlier = np.nonzero(np.tril(clashes, -1))
    if later.size:
        for i, j in zip(later.tolist(), earlier.tolist(), strict=True):
            if keep[j]:
                keep[i] = False
    return keep


def solve_chase_mod(
    target: np.ndarray,
    present: np.ndarray,
    p: int,
    e: int,
    *,
    want_kernel: bool = True,
    max_generators: int | None = None,
) -> ChaseModResult:
    """Solve a board with holes over Z_{p^e} (p^e != 2); ``target`` is
    ``(objective - state) mod p^e``, ``present`` the mask.

    Returns the presses (or None) and the orders of the kernel's generators; the
    generators themselves when ``want_kernel`` and there are at most ``max_generators``.
    """
    q = p**e
    rows, cols = present.shape
    target = np.asarray(target, dtype=np.int64) % q
    chase = _Chase(cols, p, e)
    chase.add_variables(0, np.flatnonzero(present[0]), in_next=False)
    last = np.zeros((0, chase.size), dtype=np.int64)
    last_c = np.zeros(0, dtype=np.int64)
    for r in range(rows):
        below = present[r + 1] if r + 1 < rows else np.zeros(cols, dtype=bool)
        chase.step(target[r])
        left_over = np.flatnonzero(present[r] & ~below)
        equations = chase.nxt[left_over].astype(np.int64)
        constants = chase.nxt_c[left_over]
        chase.drop(~(present[r] & below))
        if r + 1 == rows:
            last, last_c = equations, constants
            break
        chase.eliminate(equations, constants)
        chase.add_variables(r + 1, np.flatnonzero(below & ~present[r]), in_next=True)
        chase.advance()
        if r % _RETIRE_EVERY == 0 or len(chase.free) < cols // 8:
            chase.retire()

    alive = np.flatnonzero(chase.slot_variable >= 0)
    retired = np.array(chase.retired, dtype=np.int64)
    room = max_generators if max_generators is not None else np.iinfo(np.int64).max
    room = room - retired.size if want_kernel else -1
    system = solve_mod_large(
        np.vstack([last[:, alive], chase.deferred[:, alive]]),
        (-np.concatenate([last_c, chase.deferred_c])) % q,
        p,
        e,
        max_generators=max(room, 0),
    )
    nullity = len(system.orders) + retired.size
    build = room >= 0 and len(system.generators) == len(system.orders) and nullity > 0
    result = ChaseModResult(None, [], [*system.orders, *([q] * retired.size)])
    alive_variables = chase.slot_variable[alive]
    count = len(chase.variable_cells)
    where = tuple(np.array(chase.variable_cells, dtype=np.int64).reshape(-1, 2).T)
    if system.solvable and chase.consistent:
        values = np.zeros((count + 1, 1), dtype=np.int64)
        values[alive_variables, 0] = system.particular
        _back_substitute(values, chase.records, q, homogeneous=False)
        free = np.zeros((1, rows, cols), dtype=np.int64)
        free[(0, *where)] = values[:count, 0]
        result.presses = _chase_numbers(target, present, q, free)[0]
    if build:
        values = np.zeros((count + 1, nullity), dtype=np.int64)
        if system.generators:
            values[alive_variables, : len(system.generators)] = np.array(system.generators).T
        values[retired, np.arange(len(system.generators), nullity)] = 1
        _back_substitute(values, chase.records, q, homogeneous=True)
        free = np.zeros((nullity, rows, cols), dtype=np.int64)
        free[(slice(None), *where)] = values[:count].T
        result.generators = list(_chase_numbers(None, present, q, free))
    return result


def _back_substitute(values: np.ndarray, records: list[_Record], q: int, *, homogeneous: bool):
    """Fill in the eliminated variables, last eliminated first. ``values`` is
    (variables + 1, solutions); its last row stands for an empty slot and stays 0."""
    for record in reversed(records):
        known = values[record.slot_variable]  # an empty slot (-1) reads the last row
        found = dot_mod(record.rest, known, q)
        if not homogeneous:
            found = (found + record.constants[:, None]) % q
        values[record.variables] = found


def _chase_numbers(
    target: np.ndarray | None, present: np.ndarray, q: int, free: np.ndarray
) -> np.ndarray:
    """Numeric chase of a batch: presses of every cell from the free cells' presses
    (``free`` is (batch, rows, cols); ``target`` None is the homogeneous chase)."""
    rows = present.shape[0]
    x = np.zeros(free.shape, dtype=np.int64)
    above = np.zeros_like(present)
    above[1:] = present[:-1]
    free_mask = present & ~above
    x[:, free_mask] = free[:, free_mask] % q
    for r in range(rows - 1):
        total = x[:, r].copy()
        if r:
            total += x[:, r - 1]
        total[:, 1:] += x[:, r, :-1]
        total[:, :-1] += x[:, r, 1:]
        fill = present[r] & present[r + 1]
        step = -total[:, fill] if target is None else target[r, fill] - total[:, fill]
        x[:, r + 1, fill] = step % q
    return x * present
