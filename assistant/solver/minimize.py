"""Fewest total presses over a solution set ``x0 + kernel``.

A cell pressed j times (0 <= j < k) costs j. When the kernel has at most
:data:`EXHAUSTIVE_LIMIT` elements the minimum is *proven* by visiting every element;
beyond that a local search returns the best it finds and says it is not proven.

The exhaustive walk is a meet-in-the-middle over the kernel basis: the generators are
split in two halves A and B, every combination of each half is tabulated, and the cost
of every pair is ``sum_j ((T_A + j) mod k) . [T_B == j]`` -- k matrix products, which
numpy hands to BLAS. Identical cell columns are merged first (with weights), which
shrinks the products a lot on symmetric boards. Float arithmetic is exact here: every
sum is an integer below 2^24 (float32) or 2^53 (float64).
"""

from __future__ import annotations

import time
from math import prod

import numpy as np

__all__ = ["EXHAUSTIVE_LIMIT", "fewest_presses"]

#: Largest kernel (number of elements) searched exhaustively, i.e. proven minimal.
EXHAUSTIVE_LIMIT = 2**20


def fewest_presses(
    x0: np.ndarray,
    generators: list[np.ndarray],
    orders: list[int],
    k: int,
    *,
    limit: int = EXHAUSTIVE_LIMIT,
    seconds: float = 1.0,
) -> tuple[np.ndarray, bool]:
    """Return ``(presses, proven)``: the fewest-press element of ``x0 + span(generators)``.

    Parameters
    ----------
    x0 : flat int array, one solution (entries in [0, k)).
    generators, orders : kernel basis with unique representation (see
        :class:`assistant.solver.modular.ModularSystem`).
    k : modulus. limit : largest kernel searched exhaustively.
    seconds : time allowed to the local search when the kernel is larger than ``limit``.

    Returns
    -------
    presses : flat int array. proven : True when it is a proven minimum.
    """
    x0 = np.asarray(x0, dtype=np.int64) % k
    size = prod(orders)
    if size == 1:
        return x0, True
    if size <= limit:
        return _exhaustive(x0, generators, orders, k), True
    return _local_search(x0, generators, orders, k, seconds), False


def _combinations(
    start: np.ndarray, gens: list[np.ndarray], orders: list[int], k: int
) -> np.ndarray:
    """Every ``start + sum c_i g_i`` as rows; row index = mixed-radix digits, first gen fastest."""
    table = start[None, :] % k
    for g, order in zip(gens, orders, strict=True):
        table = np.concatenate([(table + c * g) % k for c in range(order)], axis=0)
    return table


def _digits(index: int, orders: list[int]) -> list[int]:
    """Inverse of the row order of :func:`_combinations`."""
    digits = []
    block = prod(orders)
    for order in reversed(orders):
        block //= order
        digits.append(index // block)
        index %= block
    return digits[::-1]


def _merge_columns(stacked: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct columns of ``stacked`` (entries below k) and how often each occurs;
    through one integer per column when they fit (a 1-D unique is much faster)."""
    if stacked.shape[0] * np.log2(k) < 62:
        weights_of_rows = np.array([k**i for i in range(stacked.shape[0])], dtype=np.int64)
        codes = weights_of_rows @ stacked.astype(np.int64)
        _, first, counts = np.unique(codes, return_index=True, return_counts=True)
        return stacked[:, first], counts
    return np.unique(stacked, axis=1, return_counts=True)


def _exhaustive(x0: np.ndarray, gens: list[np.ndarray], orders: list[int], k: int) -> np.ndarray:
    # Cells no generator touches cost the same for every choice: leave them out. Merge
    # identical cell columns of the rest: the cost only depends on each column's values.
    touched = np.flatnonzero(np.any(np.vstack(gens) % k != 0, axis=0))
    stacked = np.vstack([x0[touched], *(g[touched] for g in gens)]) % k
    columns, weights = _merge_columns(stacked, k)
    x0c, gensc = columns[0], list(columns[1:])

    # Balance the two halves by number of elements.
    split, left = 0, 1
    while split < len(orders) and left * orders[split] <= int(np.sqrt(prod(orders))) + 1:
        left *= orders[split]
        split += 1
    a_gens, a_orders = gensc[:split], orders[:split]
    b_gens, b_orders = gensc[split:], orders[split:]
    table_a = _combinations(x0c, a_gens, a_orders, k)
    table_b = _combinations(np.zeros_like(x0c), b_gens, b_orders, k)

    bound = int(weights.sum()) * (k - 1)
    dtype = np.float32 if bound < 2**24 else np.float64
    w = weights.astype(dtype)
    cost = np.zeros((table_a.shape[0], table_b.shape[0]), dtype=dtype)
    for j in range(k):
        indicator = table_b == j
        if indicator.any():
            with np.errstate(invalid="ignore"):  # OpenBLAS flag on finite input (numpy 24067)
                cost += (((table_a + j) % k).astype(dtype) * w) @ indicator.T.astype(dtype)
    best_pair = divmod(int(np.argmin(cost)), table_b.shape[0])
    coeffs = _digits(best_pair[0], a_orders) + _digits(best_pair[1], b_orders)
    x = x0.copy()
    for c, g in zip(coeffs, gens, strict=True):
        if c:
            x = (x + c * g) % k
    return x


def _local_search(
    x0: np.ndarray, gens: list[np.ndarray], orders: list[int], k: int, seconds: float
) -> np.ndarray:
    """Coordinate descent over generator multiples, restarted at random until time runs out."""
    deadline = time.monotonic() + seconds
    rng = np.random.default_rng(0)

    def descend(x: np.ndarray) -> np.ndarray:
        cost = int(x.sum())
        improved = True
        while improved and time.monotonic() < deadline:
            improved = False
            for g, order in zip(gens, orders, strict=True):
                for c in range(1, order):
                    y = (x + c * g) % k
                    ycost = int(y.sum())
                    if ycost < cost:
                        x, cost, improved = y, ycost, True
        return x

    best = descend(x0)
    while time.monotonic() < deadline:
        start = x0.copy()
        for g, order in zip(gens, orders, strict=True):
            c = int(rng.integers(order))
            if c:
                start = (start + c * g) % k
        candidate = descend(start)
        if candidate.sum() < best.sum():
            best = candidate
    return best
