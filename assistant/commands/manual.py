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
from assistant.gui.manual_model import blank_board, check_grid, is_toa_shape
from assistant.puzzle import Board, check_states_and_objective, toa_board
from assistant.settings import Settings, load_settings

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
        check_grid(board.rows, board.cols, board.k)
        return board
    if not sized and args.states is None and args.objective is None:
        return None
    grid = settings.manual_grid()
    rows = grid.rows if args.rows is None else args.rows
    cols = grid.cols if args.cols is None else args.cols
    k = grid.states if args.states is None else args.states
    check_grid(rows, cols, k)
    objective = args.objective
    if objective is None:
        objective = grid.objective if k == grid.states else k - 1
    k, objective = check_states_and_objective(k, objective)
    return blank_board(rows, cols, k, objective, np.ones((rows, cols), dtype=bool))


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
