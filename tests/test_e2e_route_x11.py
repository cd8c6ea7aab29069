"""End to end on a real X server: the drawn walking route, followed as a player would.

The demo room in walk mode with the assistant's live loop on it (``demo --json``). The
test clicks what the overlay draws, nothing else: each waypoint mark of the route (plain
floor tiles, in order), then the mark of the plate the route says is next. The player
walks there tile by tile under the room's pathing model, stepping on every plate it
enters. Boards whose answer needs waypoints (asserted with the planner) show that the
drawn route never crosses a wrong plate; the room must end all lit, with no marks and no
route left.
"""

from __future__ import annotations

import time

import pytest
from test_e2e_walk_x11 import TITLE, WALK_SPEED, Lines, answer, fail, room_cell, xserver  # noqa: F401

from assistant.puzzle import toa_board
from assistant.route import ENTRANCE, plan_route, tile_plate
from assistant.solver import solve

pytestmark = pytest.mark.x11

MAX_CLICKS = 14  # the longest route on this floor is 12 clicks
SETTLE = 0.6  # seconds after an arrival for the view and the route to settle


def _needs_waypoints(board: str) -> bool:
    route = plan_route(solve(toa_board(board)).presses, ENTRANCE)
    return any(not click.step for click in route.clicks)


def _drawn(lines: Lines, after: float) -> dict | None:
    """The route drawn once the view has settled after ``after`` (the last arrival): the
    latest state SETTLE seconds on, or the first decided one with a route after that."""

    def drawn(obj: dict) -> bool:
        return ("kind" in obj and obj["kind"] == "steps" and obj.get("route") is not None
                and obj["route"]["next"] is not None and not obj["undecided"])

    lines.until(lambda o: False, max(0.0, after + SETTLE - time.monotonic()))
    if lines.state is not None and drawn(lines.state):
        return lines.state
    found = lines.until(drawn, 10)
    return None if found is None else found[1]


# 000/0#0/011 needs waypoints after the first plate (the player is placed from the view);
# the others need one on the very first leg, before the player has stood on a plate, when
# only the statue across from the way in tells which side the player came from
# (111/0#0/110 is the real screenshot's board).
@pytest.mark.parametrize("board", ["000/0#0/011", "111/0#0/110", "110/1#1/000"])
def test_following_the_drawn_route_lights_the_room(xserver, board) -> None:  # noqa: F811
    assert _needs_waypoints(board)
    first = plan_route(solve(toa_board(board)).presses, ENTRANCE).clicks[0]
    assert board == "000/0#0/011" or not first.step
    proc = xserver.start_app(
        "demo", "--json", "--board", board, "--title", TITLE, "--walk-speed", str(WALK_SPEED),
    )
    lines = Lines(proc)
    try:
        assert lines.until(lambda o: "view" in o, 30) is not None, "the room did not open"
        room = board
        after = time.monotonic()
        waypoints_clicked = 0
        for _ in range(MAX_CLICKS):
            if room == "111/1#1/111":
                break
            state = _drawn(lines, after)
            assert state is not None, fail(xserver, lines, f"no route drawn on {room}")
            route = state["route"]
            if route["waypoints"]:
                x, y = route["waypoints"][0]
                what = "waypoint"
            else:
                mark = next(m for m in state["marks"]
                            if [m["row"], m["col"]] == route["next"])
                x, y = mark["x"], mark["y"]
                what = f"plate {room_cell(lines, mark)}"
            xserver.xdotool("mousemove", str(round(x)), str(round(y)), "click", "1")
            arrived = lines.until(lambda o: "arrived" in o, 10)
            assert arrived is not None, fail(xserver, lines, f"the click on the {what} did nothing")
            at, obj = arrived
            tile = tuple(obj["arrived"])
            if what == "waypoint":
                waypoints_clicked += 1
                # plain floor, and the walk there stepped on nothing
                assert tile_plate(tile) is None, tile
                assert obj["room"] == room, f"walking to a waypoint changed {room} to {obj['room']}"
            else:
                # exactly one plate stepped on: the one clicked, with its neighbours toggled
                plate = tile_plate(tile)
                assert plate is not None and plate in answer(room), (plate, room)
                assert obj["room"] == toa_board(room).press(*plate).format(), (
                    fail(xserver, lines, f"stepping on {plate} left {obj['room']} from {room}")
                )
            room = obj["room"]
            after = at
        assert room == "111/1#1/111", fail(xserver, lines, f"the route left the room at {room}")
        assert waypoints_clicked >= 1
        done = lines.until(lambda o: o.get("kind") == "solved", 5)
        assert done is not None, fail(xserver, lines, "the solved room was not reported")
        assert done[1]["marks"] == [] and done[1]["route"] is None
    finally:
        proc.terminate()
        lines.thread.join(5)
        outputs = xserver.stop_apps()
    assert all("Traceback" not in err for _, err in outputs.values()), outputs
