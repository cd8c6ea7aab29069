"""The engine's front door: :func:`solve` picks an exact method for the board at hand.

Methods (all exact, integers only):

- ``rectangle-gf2`` / ``rectangle-poly``: full rectangles. Light chasing leaves one row
  of unknowns, and the left-over system is a polynomial in the path matrix
  (Chebyshev-like), so it is solved by a polynomial gcd in GF(p)[y] instead of matrix
  elimination; prime powers by Hensel lifting, or Smith form of the n x n
  multiplication matrix. See :mod:`assistant.solver.rectangle`.
- ``chase-gf2``: two states with holes: row chasing with bit-packed rows and on-the-fly
  elimination of each left-over equation. See :mod:`assistant.solver.packed`.
- ``chase-mod``: holes and any other number of states: the same chase over Z_{p^e} with
  one small integer per coefficient, eliminating on the unit-coefficient variable of
  narrowest reach and deferring the rest to a final elimination
  (:mod:`assistant.solver.chase_mod`, :mod:`assistant.solver.modular`).

Every method works per prime power of k; the parts are joined by the Chinese remainder
theorem.

Fewest presses: see :mod:`assistant.solver.minimize`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from math import prod

import numpy as np

from assistant.puzzle import Board, BoardError, format_grid
from assistant.solver.chase import count_free
from assistant.solver.chase_mod import solve_chase_mod
from assistant.solver.minimize import EXHAUSTIVE_LIMIT, fewest_presses
from assistant.solver.modular import MAX_MODULUS, ModularSystem, factorize
from assistant.solver.packed import solve_packed_gf2
from assistant.solver.rectangle import solve_rectangle_gf2, solve_rectangle_mod

__all__ = ["Kernel", "Solution", "kernel_of", "solve"]

#: Boards with more cells than this are not minimised by local search (too slow to be useful).
_LOCAL_SEARCH_MAX_CELLS = 250_000
#: Quiet patterns are materialised only while cells x generators stays below this.
KERNEL_CELL_LIMIT = 50_000_000


@dataclass(frozen=True)
class Kernel:
    """The quiet patterns of a board shape: press grids that change nothing.

    Every quiet pattern is ``sum c_i * generators[i] (mod k)`` for exactly one choice
    ``0 <= c_i < orders[i]``. ``generators`` is ``None`` for boards so large that only
    the orders were computed (more than :data:`KERNEL_CELL_LIMIT` cells times generators).
    """

    k: int
    orders: tuple[int, ...]
    generators: tuple[np.ndarray, ...] | None

    @property
    def size(self) -> int:
        return prod(self.orders)

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

    def to_json(self, *, with_presses: bool = True) -> dict:
        """The fields the command line prints with ``--json``; ``with_presses=False``
        leaves the press grid out (``None``) without formatting it, for boards too large
        to print."""
        return {
            "solvable": self.solvable,
            "presses": self.presses_text() if with_presses else None,
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


def solve(
    board: Board, *, minimize: bool = True, seconds: float = 1.0, quiet_patterns: bool = False
) -> Solution:
    """Solve ``A x = objective - state (mod k)`` exactly.

    Parameters
    ----------
    board : the position.
    minimize : look for the fewest total presses (proven when the kernel has at most
        2^20 elements; otherwise a local search for ``seconds`` and ``minimal=False``).
    seconds : time allowed to the local search.
    quiet_patterns : always build the kernel's generators (they are otherwise built only
        when minimising or explaining an unsolvable board).

    Returns
    -------
    Solution

    Raises
    ------
    assistant.puzzle.BoardError : more states than exact 64-bit arithmetic allows.
    """
    if board.k > MAX_MODULUS:
        raise BoardError(f"The engine handles up to {MAX_MODULUS} states, not {board.k}.")
    full = not board.has_holes
    transposed = _should_transpose(board.present, full)

    def orient(grid: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(grid.T) if transposed else grid

    present = orient(board.present)
    target = _oriented_target(board, full, transposed, orient)
    want = quiet_patterns or minimize
    x0, generators, orders, method = _solve_oriented(target, present, full, board.k, want)
    if x0 is None and not want and orders:
        x0, generators, orders, method = _solve_oriented(target, present, full, board.k, True)
    kernel = Kernel(
        board.k,
        tuple(orders),
        None if generators is None else tuple(orient(g) for g in generators),
    )
    if x0 is None:
        certificate = _certificate(kernel, board.target_delta()) if kernel.generators else None
        return Solution(
            board,
            False,
            None,
            False,
            0,
            kernel,
            _unsolvable_reason(board, certificate),
            method,
            certificate,
        )
    presses, minimal = orient(x0), kernel.size == 1
    if (
        minimize
        and kernel.size > 1
        and kernel.generators is not None
        and (kernel.size <= EXHAUSTIVE_LIMIT or board.states.size <= _LOCAL_SEARCH_MAX_CELLS)
    ):
        flat, minimal = fewest_presses(
            presses.ravel(),
            [g.ravel() for g in kernel.generators],
            list(orders),
            board.k,
            seconds=seconds,
        )
        presses = flat.reshape(presses.shape)
    if presses.size <= 4_000_000:
        presses = presses.astype(np.int64, copy=False)
    return Solution(board, True, presses, minimal, kernel.size, kernel, None, method)


def _oriented_target(
    board: Board, full: bool, transposed: bool, orient: Callable[[np.ndarray], np.ndarray]
) -> np.ndarray | _Unequal:
    """What the presses must change, in the chase's orientation: the cells to toggle for
    two states (computed by row blocks for a full rectangle), else ``objective - state``."""
    if board.k == 2 and full and not transposed:
        # Packed block by block inside the rectangle method: no full-size temporary.
        return _Unequal(board.states, board.objective)
    if board.k == 2:
        target = board.states != board.objective
        if board.has_holes:
            target &= board.present
        return orient(target)
    return orient(board.target_delta())


def kernel_of(present: np.ndarray, k: int) -> Kernel:
    """The quiet patterns of a board shape (no state needed)."""
    board = Board.from_arrays(np.zeros(present.shape, dtype=np.int64), present, k, 0)
    return solve(board, minimize=False, quiet_patterns=True).kernel


def _should_transpose(present: np.ndarray, full: bool) -> bool:
    """Chase along the direction that leaves fewer free variables (for a full
    rectangle: the shorter side)."""
    if full:
        return present.shape[1] > present.shape[0]
    return count_free(present.T) < count_free(present)


class _Unequal:
    """The 0/1 target ``states != objective`` of a two-state board, computed on demand
    (by row blocks) so a 10^8-cell board needs no full-size temporary."""

    def __init__(self, states: np.ndarray, objective: int) -> None:
        self.states = states
        self.objective = objective
        self.shape = states.shape
        self.size = states.size

    def __getitem__(self, rows: slice) -> np.ndarray:
        return self.states[rows] != self.objective


def _solve_oriented(
    target: np.ndarray, present: np.ndarray, full: bool, k: int, want_kernel: bool
) -> tuple[np.ndarray | None, list[np.ndarray] | None, list[int], str]:
    """Route to a method per prime power of k and join the parts by CRT.

    Returns ``(x0 or None, kernel generators or None, orders, method)``.
    """
    factors = factorize(k)
    cells = target.size
    presses = None if len(factors) == 1 else np.zeros(target.shape, dtype=np.int64)
    solvable = True
    generators: list[np.ndarray] | None = [] if want_kernel else None
    orders: list[int] = []
    for p, e in factors:
        q = p**e
        # Generators are built while cells x generators stays within the limit.
        room = (KERNEL_CELL_LIMIT // cells - len(generators)) if generators is not None else -1
        part_target = target if k == 2 else target % q
        part_presses, part_kernel, part_orders = _solve_part(
            part_target, present, full, p, e, room
        )
        orders.extend(part_orders)
        idempotent = (k // q) * pow(k // q, -1, q) % k  # 1 mod q, 0 mod the other parts
        if generators is not None and len(part_kernel) == len(part_orders):
            generators.extend(
                g if idempotent == 1 else (g.astype(np.int64) * idempotent) % k for g in part_kernel
            )
        elif part_orders:
            generators = None
        if part_presses is None:
            solvable = False
        elif len(factors) == 1:
            presses = part_presses
        elif presses is not None:
            presses = (presses + part_presses.astype(np.int64) * idempotent) % k
    if full:
        method = "rectangle-gf2" if k == 2 else "rectangle-poly"
    else:
        method = "chase-gf2" if k == 2 else "chase-mod"
    return (presses if solvable else None), generators, orders, method


def _solve_part(
    target: np.ndarray, present: np.ndarray, full: bool, p: int, e: int, room: int
) -> tuple[np.ndarray | None, list[np.ndarray], list[int]]:
    """One prime power p^e: ``(presses or None, kernel generators, their orders)``; the
    generators only when at most ``room`` (negative: none wanted)."""
    want_kernel = room > 0
    if full and p**e == 2:
        part = solve_rectangle_gf2(target, want_kernel=want_kernel)
        return part.presses, _within(part.kernel, room), part.kernel_orders
    if full:
        part = solve_rectangle_mod(
            np.asarray(target, dtype=np.int64), p, e, want_kernel=want_kernel
        )
        return part.presses, _within(part.kernel, room), part.kernel_orders
    if p**e == 2:
        packed = solve_packed_gf2(
            target, present, want_kernel=want_kernel, max_generators=max(room, 0)
        )
        return packed.presses, packed.kernel, [2] * packed.nullity
    part = solve_chase_mod(
        target, present, p, e, want_kernel=want_kernel, max_generators=max(room, 0)
    )
    return part.presses, part.generators, part.orders


def _within(kernel: list[np.ndarray], room: int) -> list[np.ndarray]:
    return kernel if len(kernel) <= room else []


def _certificate(kernel: Kernel, target: np.ndarray) -> np.ndarray | None:
    """A quiet pattern ``z`` with ``z . target != 0 (mod k)``: proof that the board is unsolvable.

    ``A`` is symmetric, so ``z A = 0`` exactly for quiet patterns ``z``, and then
    ``z . (A x) = 0`` for every press grid ``x``. Over Z_k the image of ``A`` is exactly
    what all quiet patterns annihilate (Z_k is self-injective), so when the board is
    unsolvable one of the generators is such a ``z``.
    """
    for g in kernel.generators:
        if _weighted_sum(g, target, kernel.k):
            return g
    return None


def _weighted_sum(weights: np.ndarray, values: np.ndarray, k: int) -> int:
    """``sum(weights * values) mod k`` exactly: each product is below 2^62 and reduced
    before the sum, so the sum of up to 10^8 cells stays below 2^63."""
    products = (weights.astype(np.int64) % k) * (values.astype(np.int64) % k) % k
    return int(products.sum(dtype=np.int64) % k)


def _unsolvable_reason(board: Board, certificate: np.ndarray | None) -> str:
    """One sentence a person understands."""
    target = board.target_delta()
    k = board.k
    if certificate is not None:
        cells = np.argwhere(certificate % k != 0)
        shown = ", ".join(f"({int(r) + 1},{int(c) + 1})" for r, c in cells[:6])
        more = f" and {len(cells) - 6:,} more" if len(cells) > 6 else ""
        plain = "No presses can solve this board from this position."
        if k == 2:
            return (
                f"{plain} Why: every press changes an even number of the cells "
                f"{shown}{more}, but an odd number of them still have to change."
            )
        need = _weighted_sum(certificate, target, k)
        return (
            f"{plain} Why (for the curious): weight the cells {shown}{more} by a quiet "
            f"pattern (presses that change nothing); every press changes the weighted sum by "
            f"a multiple of {k}, but the board needs it to change by {need} (mod {k})."
        )
    return "No presses can solve this board from this position."
