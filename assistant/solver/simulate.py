"""Seeded helpers the windows and the benchmarks use to play and to make positions."""

from __future__ import annotations

import numpy as np

from assistant.puzzle import Board, check_states_and_objective

__all__ = ["random_presses", "random_solvable_board"]


def random_presses(present: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Uniform random press counts 0..k-1 on the present cells (0 at holes)."""
    return rng.integers(0, k, size=present.shape, dtype=np.int64) * present


def random_solvable_board(
    rows: int,
    cols: int,
    k: int = 2,
    objective: int | None = None,
    present: np.ndarray | None = None,
    seed: int | np.random.Generator | None = None,
) -> Board:
    """A board that is solvable by construction: random presses applied *backwards* to
    the solved board (every cell at the objective), i.e. ``state = objective - A x``.

    The same seed gives the same board.
    """
    k, objective = check_states_and_objective(k, objective)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    if present is None:
        present = np.ones((rows, cols), dtype=bool)
    solved = Board.from_arrays(
        np.full((rows, cols), objective, dtype=np.int64), present, k, objective
    )
    presses = random_presses(present, k, rng)
    return solved.apply((k - presses) % k)
