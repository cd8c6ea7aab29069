"""Resource limits, stated once and checked before work starts (ADR 50), and big counts
written so a person can read them.

Every limit here is a size the program refuses *before* allocating or computing, with one
sentence that names the limit: a command either answers within its stated bounds or says
at once that it will not.
"""

from __future__ import annotations

import math

import numpy as np

from assistant.errors import UserError

__all__ = [
    "CLINGO_MAX_CELLS",
    "CLINGO_MAX_WORK",
    "LIGHTUP_CHECK_MAX_CELLS",
    "LIGHTUP_COUNT_MAX_WORK",
    "LIGHTUP_MAX_CELLS",
    "SOLVE_MAX_CELLS",
    "SOLVE_MAX_CELLS_GENERAL",
    "SOLVE_MAX_CELLS_HOLES",
    "SOLVE_MAX_TEXT_CELLS",
    "LimitError",
    "check_grid_size",
    "clingo_cell_limit",
    "count_text",
    "holes_weight",
    "power_text",
    "solve_cell_limit",
]

#: Full two-state boards (the fastest path): 10,000 x 10,000 in 1.3 s of CPU, 0.4 GB.
SOLVE_MAX_CELLS = 100_000_000
#: Full boards with more than two states: 2,000 x 2,000 in 1.3 s (3 states) to 3.4 s
#: (9 states) of CPU.
SOLVE_MAX_CELLS_GENERAL = 4_000_000
#: Boards with holes: 1,000 x 1,000 takes 3-4 s of CPU with 1% holes, 7-13 s with 30%
#: (each hole leaves an equation) when k is 2 or a prime power up to 64; other numbers
#: of states share it out (see :func:`holes_weight`).
SOLVE_MAX_CELLS_HOLES = 1_000_000
#: Boards given as text are parsed cell by cell: 1,000 x 1,000 parses in about a second.
SOLVE_MAX_TEXT_CELLS = 1_000_000
#: The optional clingo engine grounds every cell, and every way the presses around it can
#: add up, before its time limit can apply (grounding cannot be interrupted): at most
#: 2,500 cells, and cells x (k - 1)^2 at most :data:`CLINGO_MAX_WORK`. Measured: 50 x 50
#: grounds in 0.2-0.4 s of CPU with 2-3 states and 1.2 s with 9; 16 states took 3.9 s
#: and 36 states a minute, hence the work limit (16 states: 26 x 26).
CLINGO_MAX_CELLS = 2_500
CLINGO_MAX_WORK = 160_000
#: ``lightup solve``: an empty 100 x 100 grid takes 1.4 s of CPU (randomly walled ones
#: less), at most ~0.25 GB; 200 x 200 took 6 s / 0.56 GB, 1,000 x 1,000 ran out of memory.
LIGHTUP_MAX_CELLS = 10_000
#: ``lightup solve --count N`` finds each solution: cells x N at most this (100 x 100 with
#: the default bound of 1,000: 2.3 s of CPU).
LIGHTUP_COUNT_MAX_WORK = 10_000_000
#: ``lightup check`` reads every cell once: 1,000 x 1,000 in 1.1 s of CPU.
LIGHTUP_CHECK_MAX_CELLS = 1_000_000


class LimitError(UserError):
    """An input beyond a stated resource limit; the sentence names the limit."""


def check_grid_size(rows: int, cols: int, limit: int, what: str, hint: str = "") -> None:
    """Refuse a ``rows`` x ``cols`` grid with more than ``limit`` cells (before any array
    of that size exists); ``what`` completes "more than the N cells ...", e.g. "the
    engine takes"."""
    cells = rows * cols
    if cells > limit:
        side = math.isqrt(limit)
        tail = f" {hint}" if hint else ""
        raise LimitError(
            f"A {rows:,}x{cols:,} grid has {cells:,} cells, more than the {limit:,} "
            f"(about {side:,}x{side:,}) {what}.{tail}"
        )


def clingo_cell_limit(k: int) -> int:
    """The most cells the optional clingo engine takes with ``k`` states."""
    return max(1, min(CLINGO_MAX_CELLS, CLINGO_MAX_WORK // max(1, (k - 1) ** 2)))


def holes_weight(k: int) -> int:
    """How many shares of :data:`SOLVE_MAX_CELLS_HOLES` one cell of a board with holes
    and ``k`` states costs: the engine chases the board once per prime-power factor of
    k, with 1 to 8 bytes per coefficient (1 for factors up to 64), so each factor counts
    its bytes (GF(2), bit-packed, counts 1)."""
    from assistant.solver.chase_mod import coefficient_dtype
    from assistant.solver.modular import factorize

    return sum(
        1 if p**e == 2 else np.dtype(coefficient_dtype(p**e)).itemsize
        for p, e in factorize(k)
    )


def solve_cell_limit(k: int, holes: bool) -> int:
    """The most cells ``solve`` takes for a board with ``k`` states (k at most the
    engine's 2^31), with or without holes."""
    if holes:
        return SOLVE_MAX_CELLS_HOLES // holes_weight(k)
    return SOLVE_MAX_CELLS if k == 2 else SOLVE_MAX_CELLS_GENERAL


def power_text(base: int, exponent: int) -> str:
    """``base^exponent`` in full when short, else as a power (never thousands of digits)."""
    if exponent * math.log10(max(base, 2)) < 18:
        return f"{base}^{exponent} = {base**exponent:,}"
    return f"{base}^{exponent}"


def count_text(count: int) -> str:
    """A non-negative count with thousands separators when short; a power of two as
    ``2^n``; otherwise scientific form ``1.23e+4567``."""
    if count < 10**15:
        return f"{count:,}"
    if count & (count - 1) == 0:
        return f"2^{count.bit_length() - 1}"
    shift = max(0, count.bit_length() - 60)
    log10 = math.log10(count >> shift) + shift * math.log10(2)
    exponent = math.floor(log10)
    return f"{10 ** (log10 - exponent):.3f}e+{exponent}"
