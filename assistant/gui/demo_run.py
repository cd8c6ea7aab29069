"""The ``demo`` command's Qt part: the demo room shown on screen, what happens in it
reported (a line each, or JSON lines for tests and scripts), and the assistant's overlay
session reading it, started afresh for each new puzzle, until the room closes.

The command (:mod:`assistant.commands.demo`) checks the arguments and builds the room;
everything that needs the Qt event loop runs here.
"""

from __future__ import annotations

import json
import re

from PyQt6.QtCore import QPoint, QTimer
from PyQt6.QtWidgets import QApplication

from assistant.gui.application import screen_area
from assistant.gui.demo import DemoRoom
from assistant.gui.overlay import parse_colour
from assistant.gui.session import OverlaySession, exec_until_signalled
from assistant.recorder import FlightRecorder
from assistant.settings import Settings

__all__ = ["run_demo_room"]

#: After the room is shown (ms): where its plates are, once the window manager placed it.
_VIEW_REPORT_MS = 500


def run_demo_room(
    app: QApplication,
    room: DemoRoom,
    title: str,
    *,
    json_lines: bool,
    settings: Settings | None,
    recorder: FlightRecorder | None = None,
    seconds: float | None = None,
) -> None:
    """Show ``room`` (its window titled ``title``) and, unless ``settings`` is None (the
    room alone), the assistant reading it; return when the room closes, on Ctrl+C or
    SIGTERM, or after ``seconds``.

    ``json_lines`` prints JSON objects (the room's steps and arrivals, what the assistant
    shows) instead of status lines. ``recorder`` keeps what the assistant read.
    """
    _report_room(room, json_lines)
    _centre_on_screen(room)
    room.show()
    if json_lines:  # where the plates are once the window manager has placed the room
        QTimer.singleShot(
            _VIEW_REPORT_MS,
            lambda: _emit(
                {"view": list(room.tile), "room": room.board, "seed": room.params.seed,
                 **_on_screen(room)}
            ),
        )
    reader = None
    if settings is not None:
        reader = _RoomReader(title, settings, recorder, json_lines)
        reader.read_the_room()
        room.puzzle_changed.connect(lambda _board: reader.read_the_room())
    try:
        exec_until_signalled(app, seconds)
    finally:
        if reader is not None:
            reader.close()


def _report_room(room: DemoRoom, json_lines: bool) -> None:
    """Print what happens in the room: plates stepped on, new puzzles, arrivals."""
    if json_lines:
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


def _centre_on_screen(room: DemoRoom) -> None:
    """Wholly on the screen the room opens on: centred, or at its corner when too big."""
    area = screen_area(None, room)
    width, height = room.params.frame_size
    room.move(max(area.left, area.left + (area.width - width) // 2),
              max(area.top, area.top + (area.height - height) // 2))


class _RoomReader:
    """The assistant on the room: one overlay session at a time, replaced (keeping its
    overlay window) when a new puzzle starts, since the last one's history would not
    explain it."""

    def __init__(
        self,
        title: str,
        settings: Settings,
        recorder: FlightRecorder | None,
        json_lines: bool,
    ) -> None:
        self.title = title
        self.settings = settings
        self.recorder = recorder
        self.json_lines = json_lines
        self.sessions: list[OverlaySession] = []

    def read_the_room(self) -> None:
        """(Again, for a new puzzle: the last one's history would not explain it.)"""
        overlay = None
        if self.sessions:
            old = self.sessions.pop()
            old.stop()
            overlay = old.overlay
        session = OverlaySession(
            f"^{re.escape(self.title)}$", fps=self.settings.fps,
            colour=parse_colour(self.settings.mark_color), overlay=overlay,
            recorder=self.recorder,  # a new puzzle starts the report afresh
        )
        if self.json_lines:
            session.state_changed.connect(lambda state: _emit(_state_json(state)))
        else:
            session.state_changed.connect(lambda state: print(state.status, flush=True))
        session.start()
        self.sessions.append(session)

    def close(self) -> None:
        for session in self.sessions:
            session.stop()
            session.overlay.close()


def _emit(obj: dict) -> None:
    print(json.dumps(obj), flush=True)


def _on_screen(room: DemoRoom) -> dict:
    """Where the room is in physical screen pixels, as the overlay's marks are given: the
    client area's top-left and size, and the plate centres (TOA_PLATES order, room
    labelling), so a reader of the JSON can map a mark to the room's plate under it (the
    assistant labels plates as seen on screen)."""
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
