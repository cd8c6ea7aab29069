"""Optional answer-set engine: the board as an ASP program for clingo that minimises the
total number of presses (``solve --engine clingo``; ``pip install .[asp]``).

Encoding (Gebser, Kaminski, Kaufmann and Schaub, "Answer Set Solving in Practice", 2012,
for the language; the Lights Out model is the usual one over Z_k):

* ``p(C, J)``: present cell C is pressed J times, 1 <= J <= k-1 (no atom: 0 presses);
  a choice rule allows at most one J per cell;
* ``ok(C)`` holds when the presses on C and its present neighbours, summed with the
  ``#sum`` aggregate into S, satisfy ``S mod k = (objective - state) mod k``;
  an integrity constraint requires ``ok(C)`` for every cell;
* ``#minimize { J,C : p(C,J) }``: fewest total presses (pressing j times costs j).

clingo's branch-and-bound optimisation proves the optimum when its search is exhausted;
only then is ``minimal`` True. The solution count, nullity and kernel of the returned
:class:`~assistant.solver.engine.Solution` come from the internal engine (clingo only
gives one optimal press grid), and so does the reason when the board is unsolvable.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np

from assistant.errors import UserError
from assistant.limits import CLINGO_MAX_CELLS, clingo_cell_limit
from assistant.puzzle import Board
from assistant.solver.engine import Solution, solve

__all__ = ["AspError", "clingo_available", "encode_board", "solve_with_clingo"]

_INSTALL = (
    "this executable does not include the optional clingo engine; the internal engine "
    "(the default) is exact"
    if getattr(sys, "frozen", False)
    else "install the asp extra: pip install .[asp]"
)


#: Kept from the time limit for what follows the search (checking and returning the
#: presses, releasing clingo, leaving the program: 0.1-0.4 s at 50 x 50, measured under
#: load).
_FINISH_SECONDS = 0.5


class AspError(UserError):
    """clingo is missing or gave no answer in time; one sentence."""


def clingo_available() -> bool:
    """True when the optional ``clingo`` package can be imported."""
    try:
        import clingo  # noqa: F401
    except ImportError:
        return False
    return True


def encode_board(board: Board) -> str:
    """The ASP program (facts and rules) for one board."""
    if not isinstance(board, Board):
        raise AspError("Give a Lights Out board to encode.")
    k = board.k
    target = board.target_delta()
    present = board.present
    rows, cols = board.shape
    facts = [f"k({k})."]
    for r in range(rows):
        for c in range(cols):
            if not present[r, c]:
                continue
            cell = r * cols + c
            facts.append(f"cell({cell}). need({cell},{int(target[r, c])}).")
            for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols and present[rr, cc]:
                    facts.append(f"nb({cell},{rr * cols + cc}).")
    rules = """
{ p(C,J) : J = 1..K-1 } 1 :- cell(C), k(K).
ok(C) :- need(C,T), k(K), S = #sum { J,D : nb(C,D), p(D,J) }, S \\ K = T.
:- cell(C), not ok(C).
#minimize { J,C : p(C,J) }.
#show p/2.
"""
    return "\n".join(facts) + rules


def solve_with_clingo(
    board: Board, *, seconds: float | None = None, started: float | None = None
) -> Solution:
    """Fewest-press solution found by clingo (see the module docstring).

    Parameters
    ----------
    board : the position.
    seconds : time allowed to the whole call (None: until the optimum is proven),
        counted from ``started`` (a ``time.monotonic()`` value; default: now); when it
        runs out, the best grid found so far is returned with ``minimal=False``. An
        unsolvable board is answered by the internal engine without starting clingo.

    Returns
    -------
    Solution : ``method="clingo"``; presses from clingo, counts and kernel from the
        internal engine.

    Raises
    ------
    AspError : clingo is not installed, or found no solution within ``seconds`` although
        one exists.
    """
    if not isinstance(board, Board):
        raise AspError("Give a Lights Out board to solve with clingo.")
    if seconds is not None and not seconds > 0:
        raise AspError(f"The time allowed to clingo must be positive, not {seconds}.")
    try:
        import clingo
    except ImportError as error:
        raise AspError(f"The clingo engine is not available: {_INSTALL}.") from error
    _check_grounding_size(board)
    start = time.monotonic() if started is None else started
    reference = solve(board, minimize=False)
    if not reference.solvable:
        # The internal engine has proven it: there is nothing for clingo to search.
        return Solution(
            board,
            False,
            None,
            False,
            0,
            reference.kernel,
            reference.reason,
            "clingo",
            reference.certificate,
        )
    best, exhausted = _search(clingo, board, seconds, start)
    presses = np.zeros(board.shape, dtype=np.int64)
    cols = board.cols
    for symbol in best:
        cell, times = (arg.number for arg in symbol.arguments)
        presses[cell // cols, cell % cols] = times
    if not board.apply(presses).is_solved():
        raise AssertionError("clingo's presses must solve the board")
    return Solution(
        board,
        True,
        presses,
        exhausted,
        reference.solutions,
        reference.kernel,
        None,
        "clingo",
    )


def _check_grounding_size(board: Board) -> None:
    """Refuse, in one sentence, a board whose grounding alone would outlast any limit."""
    limit = clingo_cell_limit(board.k)
    if board.states.size > limit:
        side = math.isqrt(limit)
        states = "" if limit == CLINGO_MAX_CELLS else f" with {board.k:,} states"
        raise AspError(
            f"clingo takes boards of at most {limit:,} cells (about {side}x{side}){states}, "
            f"not {board.rows:,}x{board.cols:,}: its grounding alone would outlast any time "
            "limit; use the internal engine."
        )


def _search(clingo, board: Board, seconds: float | None, start: float) -> tuple[list, bool]:
    """clingo's best model's ``p/2`` atoms within the time left, and whether its search
    was exhausted (the model then proven optimal)."""
    control = clingo.Control(["--opt-mode=opt", "--warn=none"])
    control.add("base", [], encode_board(board))
    control.ground([("base", [])])
    best: list[list[clingo.Symbol]] = []

    def on_model(model: clingo.Model) -> None:
        best.append(model.symbols(shown=True))

    with control.solve(on_model=on_model, async_=True) as handle:
        # The limit covers the whole call: what came before the search (from ``start``)
        # is deducted, and a margin is kept for what comes after it.
        left = None
        if seconds is not None:
            left = max(0.0, seconds - (time.monotonic() - start) - _FINISH_SECONDS)
        if not handle.wait(left):
            handle.cancel()
        result = handle.get()
    if result.unsatisfiable:
        raise AssertionError("clingo and the internal engine disagree on solvability")
    if not best:
        raise AspError(
            f"clingo found no presses within {seconds:g} seconds: allow more time or use the "
            "internal engine."
        )
    return best[-1], bool(result.exhausted)
