"""Independent reference for the engine tests: brute force over every press grid.

Built only from the rules (press adds 1 mod k to a present cell and its present
orthogonal neighbours), with its own matrix, not from the engine's code.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np


def move_matrix(present: np.ndarray) -> np.ndarray:
    """A[i, j] = 1 when pressing present cell j changes present cell i."""
    cells = [tuple(int(v) for v in rc) for rc in np.argwhere(present)]
    index = {cell: i for i, cell in enumerate(cells)}
    a = np.zeros((len(cells), len(cells)), dtype=np.int64)
    for j, (r, c) in enumerate(cells):
        for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            i = index.get((r + dr, c + dc))
            if i is not None:
                a[i, j] = 1
    return a


@dataclass
class BruteTable:
    """For every target vector (encoded base k): number of solutions and fewest presses."""

    k: int
    cells: int
    count: np.ndarray
    fewest: np.ndarray

    def encode(self, vector: np.ndarray) -> int:
        code = 0
        for value in reversed(vector.tolist()):
            code = code * self.k + int(value)
        return code


def brute_table(present: np.ndarray, k: int) -> BruteTable:
    a = move_matrix(present)
    n = a.shape[0]
    presses = np.array(list(itertools.product(range(k), repeat=n)), dtype=np.int64).reshape(-1, n)
    effects = presses @ a.T % k
    weights = k ** np.arange(n, dtype=np.int64)
    codes = effects @ weights
    count = np.bincount(codes, minlength=k**n)
    fewest = np.full(k**n, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(fewest, codes, presses.sum(axis=1))
    return BruteTable(k, n, count, fewest)
