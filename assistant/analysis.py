"""Optimal-play analysis of a Lights Out shape: how many positions are solvable and how
many presses each one needs at best, over *every* solvable position, exactly.

Method
------
Pressing is linear over Z_k: a press grid ``x`` (one count 0..k-1 per present cell)
changes the board by ``A x``. A position is solvable when its target delta
``objective - state`` lies in the image of ``A``, and by the first isomorphism theorem
that image has ``k^N / |ker A|`` elements (N present cells). The solutions of one
solvable position form a coset ``x + ker A``, so its fewest presses are
``min_{z in ker A} cost(x + z)`` with ``cost`` the sum of the press counts (pressing a
cell j times costs j). This is the classical optimal-solution analysis of Lights Out
(e.g. Anderson and Feil, "Turning Lights Out with Linear Algebra", Math. Magazine 71,
1998, for 5x5: 2^23 solvable positions and at most 15 presses).

The whole press space is walked once, vectorised with numpy and without a database:
the cells are split in a low part (``k^h`` <= 2^16 combinations) and a high part, and for
every kernel element ``z`` the costs ``V_z[lo] = cost(lo + z_lo)`` and
``W_z[hi] = cost(hi + z_hi)`` are tabulated, so a block of press grids costs
``min_z (W_z[hi, None] + V_z[None, lo])``: |press space| x |kernel| small-integer
additions. Every coset is met |ker A| times with the same minimum, so the counts of the
minima divided by |ker A| are the histogram over solvable positions.

Pure library code: no I/O; progress goes through a callback.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from assistant.errors import UserError
from assistant.limits import count_text, power_text
from assistant.puzzle import Board, check_states_and_objective, format_grid
from assistant.solver import Kernel, kernel_of, solve

__all__ = [
    "MAX_PRESS_SPACE",
    "MAX_WORK",
    "Analysis",
    "AnalysisError",
    "analysis_size",
    "analyze_board_shape",
    "check_press_space",
]

#: Largest press space (k^N press grids) walked; 5x5 with 2 states is 2^25.
MAX_PRESS_SPACE = 2**28
#: Largest |press space| x |kernel| (the number of cost additions).
MAX_WORK = 2**30
#: Low-part size of the split (combinations of the first h cells).
_LOW_LIMIT = 2**16
#: Elements per block (rows of the high part times the low part).
_BLOCK = 2**22


class AnalysisError(UserError):
    """The shape cannot be analysed (bad input or beyond reach); one sentence."""


@dataclass(frozen=True, eq=False)
class Analysis:
    """The exact optimal-play figures of one shape with k states.

    Attributes
    ----------
    present : the shape (True = cell, False = hole).
    k, objective : states per cell and the state every cell must reach.
    cells : number of present cells N.
    press_space : k^N, the number of press grids.
    kernel_size : |ker A|, the number of press grids that change nothing.
    solvable_states : k^N / |ker A|, the number of solvable positions.
    histogram : histogram[m] = number of solvable positions whose fewest-press solution
        has m presses in total.
    max_presses : the largest m with histogram[m] > 0.
    example : a position that needs ``max_presses`` presses at best.
    example_presses : a fewest-press solution of ``example``.
    all_on : fewest presses from every cell at 0 to every cell at k-1, or None when
        impossible; ``all_on_proven`` says whether the engine proved the minimum.
    """

    present: np.ndarray
    k: int
    objective: int
    cells: int
    press_space: int
    kernel_size: int
    solvable_states: int
    histogram: tuple[int, ...]
    max_presses: int
    example: Board
    example_presses: np.ndarray
    all_on: int | None
    all_on_proven: bool

    @property
    def rows(self) -> int:
        return int(self.present.shape[0])

    @property
    def cols(self) -> int:
        return int(self.present.shape[1])

    def to_json(self) -> dict:
        """The fields ``analyze --json`` prints."""
        return {
            "rows": self.rows,
            "cols": self.cols,
            "states": self.k,
            "objective": self.objective,
            "cells": self.cells,
            "press_space": self.press_space,
            "kernel_size": self.kernel_size,
            "solvable_states": self.solvable_states,
            "histogram": list(self.histogram),
            "max_presses": self.max_presses,
            "example": self.example.format(),
            "example_presses": format_grid(self.example_presses, self.present),
            "all_off_to_all_on": self.all_on,
            "all_off_to_all_on_proven": self.all_on_proven,
        }


def _check_shape(present: np.ndarray) -> np.ndarray:
    present = np.asarray(present)
    if present.ndim != 2 or present.size == 0:
        raise AnalysisError("The shape is empty: give at least one row and one column.")
    present = present.astype(bool)
    if not present.any():
        raise AnalysisError("Every cell is a hole: the shape needs at least one cell.")
    return present


def check_press_space(
    rows: int, cols: int, cells: int, k: int, max_press_space: int = MAX_PRESS_SPACE
) -> None:
    """Refuse a shape whose k^cells press grids exceed the bound, without computing k^cells
    when it is huge (it would have thousands of digits)."""
    if cells * math.log2(k) <= math.log2(max_press_space) + 1e-9 and k**cells <= max_press_space:
        return
    fit = int(math.log2(max_press_space) / math.log2(k) + 1e-9)
    raise AnalysisError(
        f"A {rows:,}x{cols:,} shape with {cells:,} cells and {k} states has "
        f"{power_text(k, cells)} press grids, beyond the exact analysis limit of "
        f"{count_text(max_press_space)} (at most {fit} cells with {k} states)."
    )


def analysis_size(present: np.ndarray, k: int) -> tuple[int, int]:
    """``(press_space, kernel_size)`` of a shape: what :func:`analyze_board_shape` walks."""
    present = _check_shape(present)
    k, _ = check_states_and_objective(k, None)
    cells = int(present.sum())
    return k**cells, kernel_of(present, k).size


def analyze_board_shape(
    present: np.ndarray,
    k: int = 2,
    objective: int | None = None,
    *,
    progress: Callable[[float], None] | None = None,
    max_press_space: int = MAX_PRESS_SPACE,
    max_work: int = MAX_WORK,
) -> Analysis:
    """Exact optimal-play analysis of a shape (see the module docstring for the method).

    Parameters
    ----------
    present : bool (rows, cols) array, False at holes.
    k : states per cell. objective : the goal state (default k-1); only the example
        position depends on it.
    progress : called with the fraction done (0..1) after every block.
    max_press_space, max_work : the bounds beyond which the analysis is refused.

    Raises
    ------
    AnalysisError : an empty shape, or a press space beyond the bounds (the sentence
        says the size it would need and the limit).
    assistant.puzzle.BoardError : a bad state count or objective.
    """
    present = _check_shape(present)
    k, objective = check_states_and_objective(k, objective)
    cells = int(present.sum())
    check_press_space(present.shape[0], present.shape[1], cells, k, max_press_space)
    press_space = k**cells
    kernel = kernel_of(present, k)
    kernel_size = kernel.size
    if press_space * kernel_size > max_work:
        raise AnalysisError(
            f"A {present.shape[0]}x{present.shape[1]} shape with {k} states needs "
            f"{press_space:,} press grids times {kernel_size:,} quiet patterns = "
            f"{press_space * kernel_size:,} steps, beyond the exact analysis limit of "
            f"{max_work:,}."
        )
    quiet = _kernel_elements(kernel, present)
    counts, max_presses, example_flat = _walk(quiet, cells, k, progress)
    if counts.sum() != press_space or np.any(counts % kernel_size):
        raise AssertionError("every coset of the kernel is met |kernel| times")
    histogram = tuple(int(v) for v in counts // kernel_size)
    example_presses = np.zeros(present.shape, dtype=np.int64)
    example_presses[present] = example_flat
    solved = Board.from_arrays(
        np.full(present.shape, objective, dtype=np.int64), present, k, objective
    )
    example = solved.apply((k - example_presses) % k)
    all_off = Board.from_arrays(np.zeros(present.shape, dtype=np.int64), present, k, k - 1)
    cost = solve(all_off)
    return Analysis(
        present=present,
        k=k,
        objective=objective,
        cells=cells,
        press_space=press_space,
        kernel_size=kernel_size,
        solvable_states=press_space // kernel_size,
        histogram=histogram,
        max_presses=max_presses,
        example=example,
        example_presses=example_presses,
        all_on=cost.total_presses if cost.solvable else None,
        all_on_proven=bool(cost.solvable and cost.minimal),
    )


def _kernel_elements(kernel: Kernel, present: np.ndarray) -> np.ndarray:
    """Every quiet pattern on the present cells: (|kernel|, N) int64, the zero first."""
    k = kernel.k
    elements = np.zeros((1, int(present.sum())), dtype=np.int64)
    for generator, order in zip(kernel.generators, kernel.orders, strict=True):
        g = np.asarray(generator, dtype=np.int64)[present] % k
        elements = np.concatenate([(elements + c * g) % k for c in range(order)])
    return elements


def _digits(count: int, width: int, k: int) -> np.ndarray:
    """Base-k digits (count, width), least significant first: row i is the press grid i."""
    index = np.arange(count, dtype=np.int64)
    powers = k ** np.arange(width, dtype=np.int64)
    return (index[:, None] // powers[None, :]) % k


def _walk(
    quiet: np.ndarray, cells: int, k: int, progress: Callable[[float], None] | None
) -> tuple[np.ndarray, int, np.ndarray]:
    """Counts of the coset minima over the whole press space, the largest minimum and
    one press grid (flat over the present cells) that is a fewest-press grid for it."""
    low = 0
    while low < cells and k ** (low + 1) <= _LOW_LIMIT:
        low += 1
    high = cells - low
    n_low, n_high = k**low, k**high
    most = cells * (k - 1)
    dtype = np.uint8 if most < 255 else np.uint16 if most < 65535 else np.uint32
    low_digits = _digits(n_low, low, k)
    high_digits = _digits(n_high, high, k)
    # Costs of every part shifted by every quiet pattern: V[z, lo], W[z, hi].
    v = np.stack([((low_digits + z[:low]) % k).sum(axis=1) for z in quiet]).astype(dtype)
    w = np.stack([((high_digits + z[low:]) % k).sum(axis=1) for z in quiet]).astype(dtype)
    block = max(1, _BLOCK // n_low)
    counts = np.zeros(most + 1, dtype=np.int64)
    best, where = -1, (0, 0)
    for start in range(0, n_high, block):
        stop = min(n_high, start + block)
        minimum = w[0, start:stop, None] + v[0][None, :]
        for z in range(1, len(quiet)):
            np.minimum(minimum, w[z, start:stop, None] + v[z][None, :], out=minimum)
        counts += np.bincount(minimum.ravel(), minlength=most + 1)[: most + 1]
        top = int(minimum.max())
        if top > best:
            flat = int(np.argmax(minimum))
            best, where = top, (start + flat // n_low, flat % n_low)
        if progress is not None:
            progress(stop / n_high)
    # The grid found is one element of its coset; the fewest-press one is its best shift.
    hi, lo = where
    x = np.concatenate([low_digits[lo], high_digits[hi]])
    shifted = (x[None, :] + quiet) % k
    example = shifted[int(np.argmin(shifted.sum(axis=1)))]
    return counts[: best + 1], best, example
