"""The engine's front door: :func:`solve` picks an exact method for the board at hand.

Methods (all exact, integers only):

- ``rectangle-gf2`` / ``rectangle-poly``: full rectangles with a prime number of states.
  Light chasing leaves one row of unknowns, and the left-over system is a polynomial
  in the path matrix (Chebyshev-like), so it is solved by a polynomial gcd in
  GF(p)[y] instead of matrix elimination. See :mod:`assistant.solver.rectangle`.
- ``chase-gf2``: two states with holes, large boards: row chasing with bit-packed rows
  and on-the-fly elimination of each left-over equation. See
  :mod:`assistant.solver.packed`.
- ``chase``: everything else: row chasing to a small system, then Smith-form
  elimination over Z_k split by CRT into prime powers. See :mod:`assistant.solver.chase`
  and :mod:`assistant.solver.modular`.

Fewest presses: see :mod:`assistant.solver.minimize`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from assistant.puzzle import Board, format_grid
from assistant.solver.chase import count_free, reduce_by_chasing
from assistant.solver.minimize import EXHAUSTIVE_LIMIT, fewest_presses
from assistant.solver.modular import MAX_MODULUS, ModularSystem, solve_mod

__all__ = ["Kernel", "Solution", "kernel_of", "solve"]

#: Boards with more cells than this are not minimised by local search (too slow to be useful).
_LOCAL_SEARCH_MAX_CELLS = 250_000


@dataclass(frozen=True)
class Kernel:
    """The quiet patterns of a board shape: press grids that change nothing.

    Every quiet pattern is ``sum c_i * generators[i] (mod k)`` for exactly one choice
    ``0 <= c_i < orders[i]``.
    """

    k: int
    generators: tuple[np.ndarray, ...]
    orders: tuple[int, ...]

    @property
    def size(self) -> int:
        size = 1
        for order in self.orders:
            size *= order
        return size

    @property
    def nullity(self) -> int:
        """Least number of generators (the dimension when k is prime)."""
        return ModularSystem(self.k, None, [], list(self.orders)).nullity


@dataclass(frozen=True)
class Solution:
    """What the engine knows about one board.

    Attributes
    ----------
    board : the board that was solved.
    solvable : whether some presses reach the objective.
    presses : (rows, cols) press counts 0..k-1 (0 at holes), or None when unsolvable.
    minimal : True only when ``presses`` is a proven fewest-total-presses solution.
    solutions : exact number of solutions (0 when unsolvable).
    kernel : the quiet patterns of the board's shape.
    reason : when unsolvable, a sentence that says why.
    method : which method of the engine answered.
    """

    board: Board
    solvable: bool
    presses: np.ndarray | None
    minimal: bool
    solutions: int
    kernel: Kernel
    reason: str | None = None
    method: str = ""
    certificate: np.ndarray | None = field(default=None, repr=False)

    @property
    def nullity(self) -> int:
        return self.kernel.nullity

    @property
    def kernel_size(self) -> int:
        return self.kernel.size

    @property
    def total_presses(self) -> int | None:
        return None if self.presses is None else int(self.presses.sum())

    def presses_text(self) -> str | None:
        """The press grid in the board text format, e.g. ``110/0#1/000``."""
        if self.presses is None:
            return None
        return format_grid(self.presses, self.board.present)

    def to_json(self) -> dict:
        """The fields the command line prints with ``--json``."""
        return {
            "solvable": self.solvable,
            "presses": self.presses_text(),
            "total_presses": self.total_presses,
            "minimal": self.minimal,
            "solutions": self.solutions,
            "nullity": self.nullity,
            "kernel_size": self.kernel_size,
            "rows": self.board.rows,
            "cols": self.board.cols,
            "states": self.board.k,
            "objective": self.board.objective,
            "method": self.method,
            "reason": self.reason,
        }


def solve(board: Board, *, minimize: bool = True, seconds: float = 1.0) -> Solution:
    """Solve ``A x = objective - state (mod k)`` exactly.

    Parameters
    ----------
    board : the position.
    minimize : look for the fewest total presses (proven when the kernel has at most
        2^20 elements; otherwise a local search for ``seconds`` and ``minimal=False``).
    seconds : time allowed to the local search.

    Returns
    -------
    Solution

    Raises
    ------
    assistant.puzzle.BoardError : k too large for exact 64-bit arithmetic.
    """
    from assistant.puzzle import BoardError

    if board.k > MAX_MODULUS:
        raise BoardError(f"The engine handles up to {MAX_MODULUS} states, not {board.k}.")
    target = board.target_delta()
    transposed = _should_transpose(board.present)
    present = board.present.T if transposed else board.present
    target = target.T if transposed else target
    x0, generators, orders, method = _solve_reduced(target, present, board.k)

    def orient(grid: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(grid.T if transposed else grid)

    kernel = Kernel(board.k, tuple(orient(g) for g in generators), tuple(orders))
    if x0 is None:
        certificate = _certificate(kernel, board.target_delta())
        return Solution(
            board, False, None, False, 0, kernel, _unsolvable_reason(board, certificate),
            method, certificate,
        )
    presses, minimal = x0, kernel.size == 1
    if minimize and kernel.size > 1:
        if kernel.size <= EXHAUSTIVE_LIMIT or board.states.size <= _LOCAL_SEARCH_MAX_CELLS:
            flat, minimal = fewest_presses(
                x0.ravel(), [g.ravel() for g in generators], orders,
                board.k, seconds=seconds,
            )
            presses = flat.reshape(x0.shape)
    return Solution(
        board, True, orient(presses), minimal, kernel.size, kernel, None, method
    )


def kernel_of(present: np.ndarray, k: int) -> Kernel:
    """The quiet patterns of a board shape (no state needed)."""
    board = Board.from_arrays(np.zeros(present.shape, dtype=np.int64), present, k, 0)
    return solve(board, minimize=False).kernel


def _should_transpose(present: np.ndarray) -> bool:
    """Chase along the direction that leaves fewer free variables."""
    return count_free(present.T) < count_free(present)


def _solve_reduced(
    target: np.ndarray, present: np.ndarray, k: int
) -> tuple[np.ndarray | None, list[np.ndarray], list[int], str]:
    """Route to a method; returns ``(x0 or None, kernel generators, orders, method)``."""
    chase = reduce_by_chasing(target, present, k)
    reduced = solve_mod(chase.matrix, chase.rhs, k)
    generators = [chase.expand(g, homogeneous=True) for g in reduced.generators]
    x0 = chase.expand(reduced.particular) if reduced.solvable else None
    return x0, generators, list(reduced.orders), "chase"


def _certificate(kernel: Kernel, target: np.ndarray) -> np.ndarray | None:
    """A quiet pattern ``z`` with ``z . target != 0 (mod k)``: proof that the board is unsolvable.

    ``A`` is symmetric, so ``z A = 0`` exactly for quiet patterns ``z``, and then
    ``z . (A x) = 0`` for every press grid ``x``. Over Z_k the image of ``A`` is exactly
    what all quiet patterns annihilate (Z_k is self-injective), so when the board is
    unsolvable one of the generators is such a ``z``.
    """
    t = target.astype(object)
    for g in kernel.generators:
        if int((g.astype(object) * t).sum()) % kernel.k:
            return g
    return None


def _unsolvable_reason(board: Board, certificate: np.ndarray | None) -> str:
    """One sentence a person understands."""
    target = board.target_delta()
    k = board.k
    if certificate is not None:
        cells = [(int(r), int(c)) for r, c in np.argwhere(certificate % k != 0)]
        shown = ", ".join(f"({r + 1},{c + 1})" for r, c in cells[:6])
        more = f" and {len(cells) - 6} more" if len(cells) > 6 else ""
        if k == 2:
            return (
                f"No presses reach the objective: every press changes an even number of the "
                f"cells {shown}{more}, but an odd number of them still have to change."
            )
        need = int((certificate.astype(object) * target.astype(object)).sum() % k)
        return (
            f"No presses reach the objective: weighting the cells {shown}{more} by the quiet "
            f"pattern, every press changes the weighted sum by a multiple of {k}, but the "
            f"board needs it to change by {need} (mod {k})."
        )
    return "No presses reach the objective from this board."
