"""Boards with holes over Z_{p^e}: a row chase that eliminates left-over equations at once.

The plain chase (:mod:`assistant.solver.chase`) introduces a free variable below every hole
and leaves an equation above it, so a 100 x 100 board with 10% holes ends with ~1,100
unknowns for a dense elimination. Here every left-over equation that has a *unit*
coefficient (one not divisible by p) is used at once to express that variable through
the others; it is substituted out of the two live rows and of the deferred equations, and
its slot reused. Equations without a unit coefficient are deferred (substituted like the
rows) and solved at the end, with the equations of the last row, by the Smith-form
elimination of :mod:`assistant.solver.modular`. The number of live variables stays near
the row length. This is :mod:`assistant.solver.packed` for rings other than GF(2).

A free variable *is* the press of its cell, so the map from the variables left at the end
to the whole board is injective and kernel orders carry over.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from assistant.solver.chase import chase_values
from assistant.solver.modular import solve_mod_prime_power

__all__ = ["EliminationResult", "solve_eliminating"]


@dataclass
class EliminationResult:
    presses: np.ndarray | None
    generators: list[np.ndarray] = field(default_factory=list)
    orders: list[int] = field(default_factory=list)


class _Slots:
    def __init__(self, size: int) -> None:
        self.size = size
        self.free = list(range(size - 1, -1, -1))
        self.var_of_slot = np.full(size, -1, dtype=np.int64)
        self.count = 0

    def grow(self) -> None:
        old = self.size
        self.size *= 2
        self.free.extend(range(self.size - 1, old - 1, -1))
        self.var_of_slot = np.concatenate(
            [self.var_of_slot, np.full(self.size - old, -1, dtype=np.int64)]
        )

    def new(self, count: int) -> np.ndarray:
        slots = np.array([self.free.pop() for _ in range(count)], dtype=np.int64)
        self.var_of_slot[slots] = np.arange(self.count, self.count + count)
        self.count += count
        return slots


def solve_eliminating(target: np.ndarray, present: np.ndarray, p: int, e: int) -> EliminationResult:
    """Solve a board with holes over Z_{p^e}; ``target`` is ``(objective - state) mod p^e``.

    Returns the presses (or None), and the kernel's generators with their orders.
    """
    m = p**e
    rows, cols = present.shape
    target = np.asarray(target, dtype=np.int64) % m
    slots = _Slots(max(8, 2 * cols))
    var_cell: list[tuple[int, int]] = []
    # Expressions: (cells, slots) coefficients; a separate constant column.
    cur = np.zeros((cols, slots.size), dtype=np.int64)
    cur_c = np.zeros(cols, dtype=np.int64)
    prev = np.zeros_like(cur)
    prev_c = np.zeros_like(cur_c)
    deferred = np.zeros((0, slots.size), dtype=np.int64)
    deferred_c = np.zeros(0, dtype=np.int64)
    # Eliminated variable = constant + sum(coefficients * variables alive then).
    records: list[tuple[int, int, np.ndarray]] = []

    def add_variables(expr, expr_c, cells, row):
        nonlocal cur, prev, deferred
        while len(slots.free) < len(cells):
            slots.grow()
            cur, prev, deferred = (_widen(a, slots.size) for a in (cur, prev, deferred))
            expr = _widen(expr, slots.size)
        new = slots.new(len(cells))
        expr[cells] = 0
        expr[cells, new] = 1
        expr_c[cells] = 0
        var_cell.extend((row, int(c)) for c in cells)
        return expr

    cur = add_variables(cur, cur_c, np.flatnonzero(present[0]), 0)
    for r in range(rows):
        below = present[r + 1] if r + 1 < rows else np.zeros(cols, dtype=bool)
        nxt = cur.copy()
        nxt[1:] += cur[:-1]
        nxt[:-1] += cur[1:]
        nxt += prev
        nxt_c = cur_c.copy()
        nxt_c[1:] += cur_c[:-1]
        nxt_c[:-1] += cur_c[1:]
        nxt_c += prev_c
        # Equation of (r, c): total + x[r+1, c] = target  ->  x[r+1, c] = target - total.
        nxt = (-nxt) % m
        nxt_c = (target[r] - nxt_c) % m
        left_over = np.flatnonzero(present[r] & ~below)
        # The left-over equations: the would-be value of the missing cell below must be 0.
        equations = nxt[left_over].copy()
        equations_c = nxt_c[left_over].copy()
        drop = np.flatnonzero(~(present[r] & below))
        nxt[drop] = 0
        nxt_c[drop] = 0
        live = [cur, nxt, equations]
        live_c = [cur_c, nxt_c, equations_c]
        for index in range(len(left_over)):
            eq, eq_c = live[2][index].copy(), int(live_c[2][index])  # up to date
            units = np.flatnonzero(eq % p)
            if units.size == 0:
                if eq.any() or eq_c:
                    deferred = np.vstack([deferred, eq])
                    deferred_c = np.append(deferred_c, eq_c)
                continue
            slot = int(units[0])
            inv = pow(int(eq[slot]), -1, m)
            # x_slot = rest . vars + rest_c, from eq . vars + eq_c = 0
            rest = (-inv * eq) % m
            rest[slot] = 0
            rest_c = (-inv * eq_c) % m
            for i, (expr, expr_c) in enumerate(zip(live, live_c, strict=True)):
                coeff = expr[:, slot].copy()
                hit = np.flatnonzero(coeff)
                if hit.size:
                    expr[hit] = (expr[hit] + np.outer(coeff[hit], rest)) % m
                    expr[hit, slot] = 0
                    expr_c[hit] = (expr_c[hit] + coeff[hit] * rest_c) % m
                live[i], live_c[i] = expr, expr_c
            if deferred.shape[0]:
                coeff = deferred[:, slot].copy()
                deferred = (deferred + np.outer(coeff, rest)) % m
                deferred[:, slot] = 0
                deferred_c = (deferred_c + coeff * rest_c) % m
            others = np.flatnonzero(rest)
            records.append(
                (
                    int(slots.var_of_slot[slot]),
                    int(rest_c),
                    np.stack([slots.var_of_slot[others], rest[others]]),
                )
            )
            slots.var_of_slot[slot] = -1
            slots.free.append(slot)
        live, live_c = live[:2], live_c[:2]
        cur, nxt = live
        cur_c, nxt_c = live_c
        if r + 1 < rows:
            nxt = add_variables(nxt, nxt_c, np.flatnonzero(below & ~present[r]), r + 1)
            if nxt.shape[1] != cur.shape[1]:
                cur = _widen(cur, nxt.shape[1])
        prev, prev_c, cur, cur_c = cur, cur_c, nxt, nxt_c

    alive_slots = np.flatnonzero(slots.var_of_slot >= 0)
    alive_vars = slots.var_of_slot[alive_slots]
    system = solve_mod_prime_power(
        deferred[:, alive_slots]
        if deferred.shape[0]
        else np.zeros((0, alive_slots.size), np.int64),
        (-deferred_c) % m,
        p,
        e,
    )
    result = EliminationResult(None, [], list(system.orders))

    def expand(alive_values: np.ndarray, homogeneous: bool) -> np.ndarray:
        values = np.zeros(slots.count, dtype=np.int64)
        values[alive_vars] = alive_values % m
        for var, const, terms in reversed(records):
            total = 0 if homogeneous else const
            if terms.shape[1]:
                total += int((values[terms[0]] * terms[1] % m).sum())
            values[var] = total % m
        free = np.zeros(present.shape, dtype=np.int64)
        for (row, col), value in zip(var_cell, values, strict=True):
            free[row, col] = value
        return chase_values(np.zeros_like(target) if homogeneous else target, present, m, free)

    if system.solvable:
        result.presses = expand(system.particular, homogeneous=False)
    result.generators = [expand(g, homogeneous=True) for g in system.generators]
    return result


def _widen(array: np.ndarray, size: int) -> np.ndarray:
    out = np.zeros((array.shape[0], size), dtype=np.int64)
    out[:, : array.shape[1]] = array
    return out
