"""``toa-assistant manual``: open the manual-entry window.

    toa-assistant manual                              # the last grid used (or the default)
    toa-assistant manual --preset toa                 # the ToA room, 8 plates
    toa-assistant manual --preset toa --board 111/0#0/110   # prefilled, answer shown
    toa-assistant manual --rows 7 --cols 7 --states 3 --objective 0

Every argument is checked before any window opens, so a bad one is one sentence on
standard error and exit status 2 (a grid above 100x100 points to ``solve --file``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import numpy as np

from assistant.errors import UserError
from assistant.gui.manual_model import (
    MAX_GRID_SIDE,
    MAX_GRID_STATES,
    blank_board,
    check_grid,
    is_toa_shape,
)
from assistant.limits import SOLVE_MAX_TEXT_CELLS, solve_cell_limit
from assistant.puzzle import MAX_TEXT_STATES, Board, check_states_and_objective, toa_board
from assistant.settings import Settings, load_settings
from assistant.solver.modular import MAX_MODULUS

__all__ = ["HELP", "NAME", "add_arguments", "board_from_args", "main", "run"]

NAME = "manual"
HELP = (
    "Open the manual-entry window: the ToA room, any Lights Out grid up to 100x100, "
    "and a Light Up page."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--preset",
        choices=["toa"],
        help="toa: the Tombs of Amascut room (3x3, centre hole, 2 states, all lit)",
    )
    parser.add_argument("--rows", type=int, metavar="R", help="rows, 1 to 100")
    parser.add_argument("--cols", type=int, metavar="C", help="columns, 1 to 100")
    parser.add_argument("--states", type=int, metavar="K", help="number of states k, 2 to 36")
    parser.add_argument(
        "--objective", type=int, metavar="O", help="state every cell must reach (default k-1)"
    )
    parser.add_argument(
        "--board",
        metavar="TEXT",
        help="open prefilled with this board (e.g. a reading to correct: 111/0#0/110); "
        "its answer is shown at once",
    )


def board_from_args(args: argparse.Namespace, settings: Settings) -> Board | None:
    """The board the arguments ask for, checked; None = no arguments (the window opens
    the last grid from the settings).

    Raises
    ------
    UserError : conflicting options, a bad board text, or a grid the window refuses.
    """
    sized = any(v is not None for v in (args.rows, args.cols))
    if args.preset == "toa":
        if sized or args.states not in (None, 2):
            raise UserError(
                "--preset toa is always 3x3 with 2 states; leave out --rows, --cols and --states."
            )
        objective = settings.toa_objective if args.objective is None else args.objective
        check_states_and_objective(2, objective)
        plates = toa_board(args.board or "000/0#0/000")
        return Board.from_arrays(plates.states, plates.present, 2, objective)
    if args.board is not None:
        k, objective = check_states_and_objective(
            2 if args.states is None else args.states, args.objective
        )
        board = Board.parse(args.board, k, objective)
        if args.rows not in (None, board.rows) or args.cols not in (None, board.cols):
            raise UserError(
                f"The board has {board.rows} rows and {board.cols} columns, "
                "which does not match --rows and --cols."
            )
        _check_window_size(board.rows, board.cols, board.k)
        return board
    if not sized and args.states is None and args.objective is None:
        return None
    grid = settings.manual_grid()
    rows = grid.rows if args.rows is None else args.rows
    cols = grid.cols if args.cols is None else args.cols
    k = grid.states if args.states is None else args.states
    _check_window_size(rows, cols, k)
    objective = args.objective
    if objective is None:
        objective = grid.objective if k == grid.states else k - 1
    k, objective = check_states_and_objective(k, objective)
    return blank_board(rows, cols, k, objective, np.ones((rows, cols), dtype=bool))


def _check_window_size(rows: int, cols: int, k: int) -> None:
    """The window's own limits (:func:`check_grid`), but a grid or state count beyond
    them is pointed to the ``solve`` input that takes it: a text file up to 36 states and
    its cell limit, a .npy array beyond, nothing beyond solve's own limits."""
    if rows < 1 or cols < 1 or k < 2:
        check_grid(rows, cols, k)
        return
    too_big = rows > MAX_GRID_SIDE or cols > MAX_GRID_SIDE
    if not too_big and k <= MAX_GRID_STATES:
        return
    cells = rows * cols
    what = (
        f"A {rows:,}x{cols:,} grid is larger than the window's {MAX_GRID_SIDE}x{MAX_GRID_SIDE}"
        if too_big
        else f"The window handles 2 to {MAX_GRID_STATES} states, not {k:,}"
    )
    if k > MAX_MODULUS or cells > solve_cell_limit(k, holes=False):
        raise UserError(f"{what}, and it is more than 'toa-assistant solve' takes either.")
    states = "" if k == 2 else f" --states {k}"
    if k <= MAX_TEXT_STATES and cells <= SOLVE_MAX_TEXT_CELLS:
        raise UserError(
            f"{what}: solve it with 'toa-assistant solve --file BOARD.txt{states}' instead."
        )
    raise UserError(
        f"{what}: solve it with 'toa-assistant solve --file BOARD.npy{states}' instead "
        "(a .npy integer array, -1 for a hole)."
    )


def run(args: argparse.Namespace) -> int:
    """Check the arguments, then open the window and run Qt until it closes."""
    settings, warning = load_settings()
    board = board_from_args(args, settings)  # all user errors surface before Qt starts
    if warning:
        print(f"toa-assistant: {warning}", file=sys.stderr)

    from assistant.capture import display_problem

    if display_problem():
        raise UserError(display_problem())
    from assistant.gui.application import application
    from assistant.gui.manual import ManualWindow

    app = application()
    prefilled = args.board is not None
    window = ManualWindow(
        board,
        settings=settings,
        remember=not prefilled,  # a reading to correct is not the grid to come back to
        show_answer=prefilled or (board is not None and is_toa_shape(board)),
        notice=warning,
    )
    window.show()
    window.raise_()
    window.activateWindow()
    return int(app.exec())


def main(argv: Sequence[str] | None = None) -> int:
    """``toa-assistant manual ARGS``: the same checks, sentences and exit codes as the
    main command line (2 and one sentence for bad input)."""
    from assistant.cli import main as cli_main

    return cli_main(["manual", *(sys.argv[1:] if argv is None else argv)])
