"""Exact Lights Out engine over Z_k: pure numpy/integer code, no Qt, no I/O.

Public API::

    from assistant.solver import solve, Solution, kernel_of, random_solvable_board
    sol = solve(Board.parse("111/0#0/110"))      # the ToA room, goal all lit
    sol.presses_text()                            # '110/0#1/000'
"""

from assistant.solver.engine import Kernel, Solution, kernel_of, solve
from assistant.solver.simulate import random_presses, random_solvable_board

__all__ = ["Kernel", "Solution", "kernel_of", "random_presses", "random_solvable_board", "solve"]
