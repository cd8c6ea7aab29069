"""Light Up (Akari): the puzzle model, the rule checker, an exact solver and a generator.

Rules (Nikoli's Akari): put lamps on empty cells so that every empty cell is lit, no
lamp lights another lamp, and every numbered black cell has exactly that many lamps on
its four orthogonal neighbours. A lamp lights its own cell and its row and column up to
the first black cell.

Text format: an optional first line ``R C``, then R lines of C characters: ``.`` empty,
``#`` black without number, ``0``-``4`` black with that number, ``L`` a lamp (a
solution is the puzzle grid with lamps).

The package in parts, each usable alone:

- :mod:`~assistant.lightup.model`: the puzzle as data, its text format and the rules a
  lamp set is checked against;
- :mod:`~assistant.lightup.propagation`: what the solver knows about a partly filled
  grid, and the forced lamps and failed lamp probes that follow from it;
- :mod:`~assistant.lightup.search`: the exact search (independent groups, branching on
  the most constrained dark cell) and :func:`solve_lightup`;
- :mod:`~assistant.lightup.generator`: random puzzles with a unique solution.

Pure library code: no I/O, no Qt.
"""

from __future__ import annotations

from assistant.lightup.generator import generate_lightup
from assistant.lightup.model import (
    LAMP,
    LightUpError,
    LightUpPuzzle,
    check_lightup,
    format_lightup,
    grid_size,
    has_header,
    lit_cells,
    parse_lightup,
)
from assistant.lightup.search import LightUpResult, solve_lightup

__all__ = [
    "LAMP",
    "LightUpError",
    "LightUpPuzzle",
    "LightUpResult",
    "check_lightup",
    "format_lightup",
    "generate_lightup",
    "grid_size",
    "has_header",
    "lit_cells",
    "parse_lightup",
    "solve_lightup",
]
