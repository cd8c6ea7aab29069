"""``toa-assistant demo``: a stand-in puzzle room with the live assistant pointed at it."""

from __future__ import annotations

import argparse

from assistant.errors import UserError, check_seconds

NAME = "demo"
HELP = (
    "Open a stand-in puzzle room with a new random puzzle (click the floor to walk there; "
    "plates entered are stepped on; N for a new puzzle) with the assistant on it."
)
#: The room's look when a board is given without a seed (the end-to-end tests match the
#: room on screen against this rendering).
BOARD_SEED = 7


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--board", metavar="BOARD",
        help="starting plates, e.g. 111/0#0/110 (default: a new random puzzle each start)",
    )
    parser.add_argument(
        "--seed", type=int, default=None,
        help="room look, random board and camera from this seed, the same each start "
        f"(default: a new one each start; {BOARD_SEED} with --board)",
    )
    parser.add_argument(
        "--title", metavar="TITLE", help="window title (default: ToA Light Assistant demo room)"
    )
    parser.add_argument(
        "--room-only",
        action="store_true",
        help="only the room, without the assistant (e.g. to run it separately)",
    )
    parser.add_argument(
        "--classic",
        action="store_true",
        help="the fixed view without a player, as before: a click on a plate steps on it",
    )
    parser.add_argument(
        "--team",
        type=int,
        default=0,
        metavar="N",
        help="team-mates standing around the room, sometimes on a plate (0-3, default 0)",
    )
    parser.add_argument(
        "--walk-speed",
        type=float,
        default=0.2,
        metavar="S",
        help="seconds per tile walked (default 0.2; 0 = at once)",
    )
    parser.add_argument(
        "--no-crossing-steps",
        dest="crossing_steps",
        action="store_false",
        help="walking across a plate does not step on it (only the clicked plate is stepped on)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object a line: the room's steps and arrivals, and what the "
        "assistant shows (marks with their screen centres); for tests and scripts",
    )
    parser.add_argument("--seconds", type=float, metavar="S", help="close after S seconds")
    parser.add_argument(
        "--record", metavar="DIR",
        help="keep the last seconds the assistant read and save them as a problem report "
        "in the new folder DIR (or DIR.zip) when the room closes; it replays with "
        "detect --sequence DIR",
    )


def run(args: argparse.Namespace) -> int:
    from assistant.puzzle import toa_board

    if args.board is not None:
        args.board = toa_board(args.board).format()  # one clear sentence if malformed
    check_seconds(args.seconds)
    from assistant.gui.demo import MAX_TEAM

    if not 0 <= args.team <= MAX_TEAM:
        raise UserError(f"--team must be 0 to {MAX_TEAM}, not {args.team}.")
    if args.classic and args.team:
        raise UserError("--team needs the walk-through room (without --classic).")
    if not 0 <= args.walk_speed <= 5:
        raise UserError(f"--walk-speed must be 0 to 5 seconds per tile, not {args.walk_speed:g}.")
    if args.record and args.room_only:
        raise UserError("--record keeps what the assistant read: leave out --room-only.")
    record_to = None
    if args.record:
        from assistant.recorder import check_destination

        record_to = check_destination(args.record)
    from assistant.capture import display_problem

    if display_problem():
        raise UserError(display_problem())
    from assistant.gui.application import application
    from assistant.gui.demo import DEMO_TITLE, DemoRoom, demo_camera, demo_params, new_seed
    from assistant.gui.demo_run import run_demo_room

    app = application()
    title = args.title or DEMO_TITLE
    if not title.strip():
        raise UserError("The window title must not be empty.")
    seed = args.seed
    if seed is None:
        seed = BOARD_SEED if args.board is not None else new_seed()
    fresh = args.board is None and args.seed is None  # a new puzzle: the camera varies too
    params = demo_params(args.board, seed)
    room = DemoRoom(
        params,
        title=title,
        classic=args.classic,
        team=args.team,
        crossing_steps=args.crossing_steps,
        walk_speed=args.walk_speed,
        camera=demo_camera(seed if fresh and not args.classic else None, params.frame_size),
    )
    settings = recorder = None
    if not args.room_only:
        from assistant.settings import load_settings

        settings, _ = load_settings()
        if record_to is not None:
            from assistant.recorder import FlightRecorder

            recorder = FlightRecorder(settings.report_seconds)
    run_demo_room(app, room, title, json_lines=args.json, settings=settings,
                  recorder=recorder, seconds=args.seconds)
    if record_to is not None:
        from assistant.commands.run import save_record
        from assistant.recorder import settings_in_use

        save_record(recorder, record_to, settings_in_use(settings))
    return 0
