"""Light chasing: reduce a board of N cells to a small system in its free variables.

The equation of a present cell (r, c) involves the press of the cell below it with
coefficient 1 -- in every ring Z_k -- so once row r is known, each present cell of row
r+1 that has a present cell above is *determined* by that cell's equation. What is left
free is the press of every present cell whose upper neighbour is absent (row 0 and the
cells just below holes); what is left over are the equations of cells whose lower
neighbour is absent (the last row and the cells just above holes). For an m x n
rectangle that is n unknowns and n equations instead of mn of each.

The reduction is an affine map ``x = L f + l0`` from the free presses ``f`` to every
cell's press, and a system ``C f = d``. ``L`` is injective (a free variable *is* the
press of its cell), so kernels and solution counts carry over unchanged.

References
----------
- K. Sutner, "Linear cellular automata and the Garden-of-Eden", *The Mathematical
  Intelligencer* 11(2), 1989 (light chasing / the sigma game).
- M. Anderson and T. Feil, "Turning Lights Out with Linear Algebra", *Mathematics
  Magazine* 71(4), 1998.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ChaseSystem", "chase_values", "count_free", "reduce_by_chasing"]


def count_free(present: np.ndarray) -> int:
    """Number of free variables the row chase needs (present cells with no present cell above)."""
    above = np.zeros_like(present)
    above[1:] = present[:-1]
    return int(np.count_nonzero(present & ~above))


@dataclass
class ChaseSystem:
    """The reduced system of a board (see the module docstring).

    ``linear`` has shape (rows, cols, F): row-major cell -> coefficients of the F free
    variables; ``constant`` has shape (rows, cols). ``free_cells`` lists the cell of each
    free variable. ``matrix`` (E, F) and ``rhs`` (E,) are the left-over equations.
    """

    k: int
    present: np.ndarray
    linear: np.ndarray
    constant: np.ndarray
    free_cells: list[tuple[int, int]]
    matrix: np.ndarray
    rhs: np.ndarray

    def expand(self, free_values: np.ndarray, *, homogeneous: bool = False) -> np.ndarray:
        """Presses of every cell from the free presses (``homogeneous``: without ``l0``)."""
        k = self.k
        f = np.asarray(free_values, dtype=np.int64) % k
        if self.linear.shape[2] == 0:
            lin = np.zeros(self.present.shape, dtype=np.int64)
        elif self.linear.shape[2] * (k - 1) ** 2 < 2**62:
            lin = np.tensordot(self.linear, f, axes=([2], [0])) % k
        else:
            lin = np.zeros(self.present.shape, dtype=np.int64)
            for j, value in enumerate(f):
                lin = (lin + self.linear[:, :, j] * int(value) % k) % k
        if homogeneous:
            return lin * self.present
        return (lin + self.constant) % k * self.present


def reduce_by_chasing(target: np.ndarray, present: np.ndarray, k: int) -> ChaseSystem:
    """Chase rows top to bottom; see the module docstring.

    Parameters
    ----------
    target : (rows, cols) how far each present cell must move, ``(objective - state) mod k``.
    present : (rows, cols) bool mask.
    k : number of states.

    Notes
    -----
    Memory is rows * cols * F integers; use it for boards of up to a few hundred
    thousand cells times free variables (the engine routes larger boards elsewhere).
    """
    rows, cols = present.shape
    above = np.zeros_like(present)
    above[1:] = present[:-1]
    free_mask = present & ~above
    free_cells = [(int(r), int(c)) for r, c in np.argwhere(free_mask)]
    f = len(free_cells)
    # expr[..., :f] linear part, expr[..., f] constant part.
    expr = np.zeros((rows, cols, f + 1), dtype=np.int64)
    for j, (r, c) in enumerate(free_cells):
        expr[r, c, j] = 1
    equations: list[np.ndarray] = []
    target = np.asarray(target, dtype=np.int64) % k
    for r in range(rows):
        row = expr[r]
        total = row.copy()
        if r > 0:
            total += expr[r - 1]
        total[1:] += row[:-1]
        total[:-1] += row[1:]
        # Equation of (r, c): total + x[r+1, c] = target[r, c].
        determined = target[r].copy()[:, None] * np.eye(1, f + 1, f, dtype=np.int64) - total
        determined %= k
        below = present[r + 1] if r + 1 < rows else np.zeros(cols, dtype=bool)
        fill = present[r] & below
        if r + 1 < rows:
            expr[r + 1, fill] = determined[fill]
        for c in np.flatnonzero(present[r] & ~below):
            # Left over: total = target, i.e. linear part . f = target - constant.
            equations.append(determined[c])
    if equations:
        eq = np.array(equations, dtype=np.int64)
        # determined = target - total, and it must be 0:  -lin . f = -(target - const)
        matrix = (-eq[:, :f]) % k
        rhs = eq[:, f] % k
    else:
        matrix = np.zeros((0, f), dtype=np.int64)
        rhs = np.zeros(0, dtype=np.int64)
    return ChaseSystem(
        k=k,
        present=present,
        linear=expr[:, :, :f] * present[:, :, None],
        constant=expr[:, :, f] * present,
        free_cells=free_cells,
        matrix=matrix,
        rhs=rhs,
    )


def chase_values(target: np.ndarray, present: np.ndarray, k: int, free: np.ndarray) -> np.ndarray:
    """Numeric light chase: presses of every cell given the free cells' presses.

    ``free`` is a (rows, cols) array whose entries at the free cells (see
    :func:`count_free`) are used; the rest is computed. O(rows * cols).
    """
    rows, cols = present.shape
    x = np.zeros((rows, cols), dtype=np.int64)
    above = np.zeros_like(present)
    above[1:] = present[:-1]
    free_mask = present & ~above
    x[free_mask] = np.asarray(free, dtype=np.int64)[free_mask] % k
    target = np.asarray(target, dtype=np.int64)
    for r in range(rows - 1):
        row = x[r]
        total = row.copy()
        if r > 0:
            total += x[r - 1]
        total[1:] += row[:-1]
        total[:-1] += row[1:]
        fill = present[r] & present[r + 1]
        x[r + 1, fill] = (target[r, fill] - total[fill]) % k
    return x * present
