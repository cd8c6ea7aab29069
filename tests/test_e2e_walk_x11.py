"""End to end on a real X server, as a player meets the room: the demo room in walk mode
with the assistant's live loop on it (``demo --json``), the whole answer stepped through
by clicking each plate the overlay marks (real clicks through the click-through overlay,
xdotool). The player walks there tile by tile, stands on the plate (hiding it) and the
camera follows; after each step the marks must be exactly the remaining answer within
1 s, and none at the end.

What the overlay shows is read from the session's state, printed as JSON lines by the
demo command (its ``state_changed`` signal: the marks and their screen centres).
"""

from __future__ import annotations

import json
import math
import queue
import tempfile
import threading
import time
from pathlib import Path

import cv2
import pytest
from x11 import start_x_server

from assistant.gui.demo import walk_tiles
from assistant.puzzle import TOA_PLATES, toa_board
from assistant.route import ENTRANCE, PLATE_TILES, tile_plate, walk
from assistant.solver import solve

pytestmark = pytest.mark.x11

TITLE = "ToA walk-through stand-in"
# seconds per tile: the game's running pace (two tiles a tick of 0.6 s). The live loop
# takes two steps to be a game tick apart at least (half a tick, with the capture's
# jitter): a stand-in walking faster than the game breaks that, as a faster player could not
WALK_SPEED = 0.3
SETTLE = 1.0  # the marks must be right this long after a step at the latest


@pytest.fixture(scope="module")
def xserver():
    server, base = start_x_server()
    yield server
    server.stop_apps()
    for proc in reversed(base):
        proc.terminate()
        proc.wait(5)


class Lines:
    """The demo's JSON lines, read in a thread, each with the time it arrived."""

    def __init__(self, proc) -> None:
        self.proc = proc
        self.queue: queue.Queue = queue.Queue()
        self.seen: list[tuple[float, dict]] = []
        self.state: dict | None = None  # what the overlay shows now (the last state)
        self.plates: list[list[float]] | None = None  # the room's plates on screen now
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            if line.startswith("{"):
                self.queue.put((time.monotonic(), json.loads(line)))
        self.queue.put(None)

    def until(self, condition, timeout: float):
        """Read lines until ``condition(obj)`` holds for one (also checks the current
        state first); returns (time, obj) or None on time-out."""
        if self.state is not None and condition(self.state):
            return time.monotonic(), self.state
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                item = self.queue.get(timeout=left)
            except queue.Empty:
                return None
            if item is None:
                return None
            self.seen.append(item)
            at, obj = item
            if "kind" in obj:
                self.state = obj
            if "plates" in obj:
                self.plates = obj["plates"]
            if condition(obj):
                return at, obj


def answer(board: str) -> set[tuple[int, int]]:
    presses = solve(toa_board(board)).presses
    return {cell for cell in TOA_PLATES if presses[cell]}


def room_cell(lines: Lines, mark: dict) -> tuple[int, int] | None:
    """The room's plate under a mark (the assistant labels plates as seen on screen,
    the room as laid out: the screen position is what both agree on)."""
    if lines.plates is None:
        return None
    distances = [math.hypot(mark["x"] - x, mark["y"] - y) for x, y in lines.plates]
    nearest = min(range(8), key=distances.__getitem__)
    return TOA_PLATES[nearest] if distances[nearest] < 20 else None


def shows(lines: Lines, cells: set[tuple[int, int]]):
    """A condition on a state: the overlay marks exactly the room's ``cells``, decided
    (none: the puzzle is solved; a state with steps may show no marks for a frame while
    the camera has moved them off their plates)."""

    def check(obj: dict) -> bool:
        if "kind" not in obj:
            return False
        marks = {room_cell(lines, m) for m in obj["marks"]}
        decided = all(m["certain"] for m in obj["marks"]) and not obj["undecided"]
        return marks == cells and decided and obj["kind"] == ("steps" if cells else "solved")

    return check


def direct_order(board: str) -> list[tuple[int, int]] | None:
    """An order of the answer's plates where each walk from the last plate (from the
    entrance first) enters no other plate: clicking the marks then needs no waypoint."""
    cells = answer(board)

    def search(here, left):
        if not left:
            return []
        for cell in sorted(left):
            path = walk_tiles(here, PLATE_TILES[TOA_PLATES.index(cell)])
            if all(tile_plate(t) is None for t in path[:-1]):
                rest = search(path[-1], left - {cell})
                if rest is not None:
                    return [cell, *rest]
        return None

    return search(ENTRANCE, frozenset(cells))


def fail(server, lines: Lines, what: str) -> str:
    """A failure message with the last state and a saved screenshot."""
    path = Path(tempfile.gettempdir()) / f"e2e-walk-failure-{int(time.time())}.png"
    cv2.imwrite(str(path), server.grab())
    state = lines.state and {k: lines.state[k] for k in ("kind", "marks", "status", "board")}
    return f"{what}; screen saved to {path}; last state {state}"


@pytest.mark.parametrize(
    ("board", "team"),
    [
        ("111/0#0/110", 0),
        ("000/1#0/110", 0),
    ],
)
def test_stepping_through_the_answer_by_clicking_the_marks(xserver, board, team) -> None:
    order = direct_order(board)
    assert order is not None and len(order) == len(answer(board))
    proc = xserver.start_app(
        "demo", "--json", "--board", board, "--title", TITLE, "--team", str(team),
        "--walk-speed", str(WALK_SPEED),
    )
    lines = Lines(proc)
    try:
        remaining = answer(board)
        assert lines.until(lambda o: "view" in o, 30) is not None, "the room did not open"
        found = lines.until(shows(lines, remaining), 30)
        assert found is not None, fail(xserver, lines, "the answer was never marked")
        here, room = ENTRANCE, board
        timings = []
        for cell in order:
            mark = next(m for m in lines.state["marks"] if room_cell(lines, m) == cell)
            target = PLATE_TILES[TOA_PLATES.index(cell)]
            # the demo's rule for legs that are not straight or 45° (walk_tiles), tile by tile
            expected = walk(toa_board(room), here, walk_tiles(here, target))
            assert expected.stepped == (cell,)  # the order crosses no other plate
            clicked = time.monotonic()
            xserver.xdotool(
                "mousemove", str(round(mark["x"])), str(round(mark["y"])), "click", "1"
            )
            arrived = lines.until(lambda o: "arrived" in o, 10)
            assert arrived is not None, fail(xserver, lines, f"the click on {cell} did nothing")
            stepped_at, obj = arrived
            assert tuple(obj["arrived"]) == target and obj["room"] == expected.board.format()
            here, room = target, obj["room"]
            remaining = answer(room)
            done = lines.until(shows(lines, remaining), SETTLE - (time.monotonic() - stepped_at))
            assert done is not None, fail(
                xserver, lines, f"after stepping on {cell} the marks were not {remaining} in 1 s"
            )
            timings.append((done[0] - clicked, max(0.0, done[0] - stepped_at)))
        assert not remaining and room == "111/1#1/111"
        assert lines.state["kind"] == "solved" and lines.state["marks"] == []
        print(
            f"board {board} team {team}: click -> right marks "
            + ", ".join(f"{a:.2f} s (after arriving {b:.2f} s)" for a, b in timings)
        )
    finally:
        proc.terminate()  # the reader thread ends at the pipe's end, then stop_apps reaps
        lines.thread.join(5)
        outputs = xserver.stop_apps()
    assert all("Traceback" not in err for _, err in outputs.values()), outputs
