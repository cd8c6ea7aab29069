"""``toa-assistant demo``: a stand-in puzzle room with the live assistant pointed at it."""

from __future__ import annotations

import argparse
import json
import re

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
    from assistant.gui.application import application, screen_area
    from assistant.gui.demo import DEMO_TITLE, DemoRoom, demo_camera, demo_params, new_seed
    from assistant.gui.session import OverlaySession, exec_until_signalled

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
    if args.json:
        room.stepped.connect(lambda board: _emit({"room": board, "tile": list(room.tile)}))
        room.puzzle_changed.connect(lambda board: _emit({"new_puzzle": board}))
        room.arrived.connect(
            lambda tile: _emit(
                {"arrived": list(tile), "room": room.board, **_on_screen(room)}
            )
        )
    else:
        room.stepped.connect(lambda board: print(f"room: {board}", flush=True))
        room.puzzle_changed.connect(lambda board: print(f"new puzzle: {board}", flush=True))
    area = screen_area(None, room)
    width, height = room.params.frame_size
    # wholly on the screen the room opens on: centred, or at its corner when too big
    room.move(max(area.left, area.left + (area.width - width) // 2),
              max(area.top, area.top + (area.height - height) // 2))
    room.show()
    if args.json:  # where the plates are once the window manager has placed the room
        from PyQt6.QtCore import QTimer

        QTimer.singleShot(
            500,
            lambda: _emit(
                {"view": list(room.tile), "room": room.board, "seed": room.params.seed,
                 **_on_screen(room)}
            ),
        )
    sessions = []
    if not args.room_only:
        from assistant.gui.overlay import parse_colour
        from assistant.settings import load_settings

        settings, _ = load_settings()
        recorder = None
        if record_to is not None:
            from assistant.recorder import FlightRecorder

            recorder = FlightRecorder(settings.report_seconds)

        def read_the_room() -> None:
            """(Again, for a new puzzle: the last one's history would not explain it.)"""
            overlay = None
            if sessions:
                old = sessions.pop()
                old.stop()
                overlay = old.overlay
            session = OverlaySession(
                f"^{re.escape(title)}$", fps=settings.fps,
                colour=parse_colour(settings.mark_color), overlay=overlay,
                recorder=recorder,  # a new puzzle starts the report afresh
            )
            if args.json:
                session.state_changed.connect(lambda state: _emit(_state_json(state)))
            else:
                session.state_changed.connect(lambda state: print(state.status, flush=True))
            session.start()
            sessions.append(session)

        read_the_room()
        room.puzzle_changed.connect(lambda _board: read_the_room())
    try:
        exec_until_signalled(app, args.seconds)
    finally:
        for session in sessions:
            session.stop()
            session.overlay.close()
    if record_to is not None:
        from assistant.commands.run import save_record
        from assistant.recorder import settings_in_use

        save_record(recorder, record_to, settings_in_use(settings))
    return 0


def _emit(obj: dict) -> None:
    print(json.dumps(obj), flush=True)


def _on_screen(room) -> dict:
    """Where the room is in physical screen pixels, as the overlay's marks are given: the
    client area's top-left and size, and the plate centres (TOA_PLATES order, room
    labelling), so a reader of the JSON can map a mark to the room's plate under it (the
    assistant labels plates as seen on screen)."""
    from PyQt6.QtCore import QPoint

    origin = room.mapToGlobal(QPoint(0, 0))
    ratio = room.devicePixelRatioF()
    return {
        "origin": [round(origin.x() * ratio), round(origin.y() * ratio)],
        "size": [round(room.width() * ratio), round(room.height() * ratio)],
        "plates": [
            [round((origin.x() + float(x)) * ratio, 1), round((origin.y() + float(y)) * ratio, 1)]
            for x, y in room.scene.plate_centres
        ],
    }


def _state_json(state) -> dict:
    """What the overlay shows: the kind, the marks (row, column, screen centre in
    physical pixels, certain), the plates hidden, inferred or undecided, and the route."""
    return {
        "kind": state.kind,
        "marks": [
            {
                "row": m.row,
                "col": m.col,
                "x": round(float(m.centre[0]), 1),
                "y": round(float(m.centre[1]), 1),
                "certain": bool(m.certain),
            }
            for m in state.marks
        ],
        "board": None if state.board is None else state.board.format(),
        "hidden": [list(c) for c in state.hidden],
        "inferred": [list(c) for c in state.inferred],
        "undecided": [list(c) for c in state.undecided],
        "status": state.status,
        "route": _route_json(state.route_marks),
    }


def _route_json(marks) -> dict | None:
    """The route as drawn: the next plate (row, column as the marks) and the centre of
    each waypoint mark to click before it, in physical screen pixels."""
    if marks is None:
        return None
    return {
        "next": None if marks.next_plate is None else list(marks.next_plate),
        "waypoints": [
            [round(float(x), 1), round(float(y), 1)]
            for x, y in (polygon.mean(axis=0) for polygon in marks.waypoint_marks)
        ],
    }
