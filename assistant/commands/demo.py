"""``toa-assistant demo``: a stand-in puzzle room with the live assistant pointed at it."""

from __future__ import annotations

import argparse
import re

from assistant.errors import UserError, check_seconds

NAME = "demo"
HELP = "Open a stand-in puzzle room (click a plate to step on it) with the assistant on it."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--board", metavar="BOARD", help="starting plates, e.g. 111/0#0/110 (default: a random one)"
    )
    parser.add_argument("--seed", type=int, default=7, help="room look and random board seed")
    parser.add_argument(
        "--title", metavar="TITLE", help="window title (default: ToA Light Assistant demo room)"
    )
    parser.add_argument(
        "--room-only",
        action="store_true",
        help="only the room, without the assistant (e.g. to run it separately)",
    )
    parser.add_argument("--seconds", type=float, metavar="S", help="close after S seconds")


def run(args: argparse.Namespace) -> int:
    from assistant.puzzle import toa_board

    if args.board is not None:
        args.board = toa_board(args.board).format()  # one clear sentence if malformed
    check_seconds(args.seconds)
    from assistant.capture import display_problem

    if display_problem():
        raise UserError(display_problem())
    from assistant.gui.application import application
    from assistant.gui.demo import DEMO_TITLE, DemoRoom, demo_params
    from assistant.gui.session import OverlaySession, exec_until_signalled

    app = application()
    title = args.title or DEMO_TITLE
    if not title.strip():
        raise UserError("The window title must not be empty.")
    room = DemoRoom(demo_params(args.board, args.seed), title=title)
    room.stepped.connect(lambda board: print(f"room: {board}", flush=True))
    room.show()
    session = None
    if not args.room_only:
        from assistant.gui.overlay import parse_colour
        from assistant.settings import load_settings

        settings, _ = load_settings()
        session = OverlaySession(
            f"^{re.escape(title)}$", fps=settings.fps, colour=parse_colour(settings.mark_color)
        )
        session.state_changed.connect(lambda state: print(state.status, flush=True))
        session.start()
    try:
        exec_until_signalled(app, args.seconds)
    finally:
        if session is not None:
            session.stop()
            session.overlay.close()
    return 0
