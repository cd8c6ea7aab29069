"""The steps panel's picture as plain data (no Qt): status, order, path, waypoint, lines."""

from __future__ import annotations

import numpy as np

from assistant.puzzle import Board, toa_board
from assistant.route import ENTRANCE, plan_route
from assistant.solver import solve
from assistant.steps import StepsView, steps_view_from, toa_steps_view


def test_toa_view_follows_the_route() -> None:
    board = toa_board("111/0#0/110")
    view = toa_steps_view(board)
    route = plan_route(solve(board).presses, ENTRANCE)
    assert view.toa and view.order == route.steps
    assert view.next_plate == route.steps[0] == (1, 2)
    assert view.next_waypoint == route.clicks[0].tile == (4, 3)
    assert view.path == (ENTRANCE, (4, 3), (4, 2))  # to the next plate, through the waypoint
    assert view.status == "3 steps left."
    assert view.lines == (
        "first click the floor tile between the right plate and the bottom-right plate "
        "(no plate)",
        "1. step on row 2, column 3 (right)",
        "2. step on row 1, column 2 (top)",
        "3. step on row 1, column 1 (top-left)",
    )


def test_toa_view_from_the_plate_underfoot() -> None:
    view = toa_steps_view(toa_board("100/1#0/011"), (0, 2), hidden=[(2, 2)], note="why")
    assert view.player == (0, 2) and view.hidden == {(2, 2)} and view.note == "why"
    assert view.path[0] == (4, 0)
    assert view.next_waypoint is None  # the first click is a step
    assert view.lines[0].startswith("1. step on")


def test_crossing_rule_off_goes_straight() -> None:
    view = toa_steps_view(toa_board("001/0#1/111"), (0, 2), crossing_steps=False)
    # the answer is the top-left plate alone; from the top-right one click does it
    assert view.lines == ("1. step on row 1, column 1 (top-left)",)
    assert view.path == ((4, 0), (0, 0))


def test_solved_and_unsolvable_and_without_route() -> None:
    lit = toa_board("111/1#1/111")
    assert toa_steps_view(lit).status == "All plates lit."
    assert toa_steps_view(lit).lines == ()
    generic = Board.parse("10/01")
    assert steps_view_from(generic, None, reason="No solution: odd.").status == "No solution: odd."
    board = toa_board("111/0#0/110")
    plain = steps_view_from(board, solve(board).presses)
    assert plain.order == ((0, 0), (0, 1), (1, 2)) and plain.path == ()
    assert plain.lines[0] == "1. step on row 1, column 1 (top-left)"


def test_generic_grid_counts_presses() -> None:
    board = Board.parse("120/201/012", k=3)
    presses = solve(board).presses
    view = steps_view_from(board, presses, rotation=5)
    assert not view.toa and view.rotation == 1
    assert view.status == f"{int(np.asarray(presses).sum())} presses left."
    assert view.order == () and view.path == ()
    assert isinstance(view, StepsView)


def test_route_and_steps_import_no_qt() -> None:
    import subprocess
    import sys

    code = (
        "import sys, assistant.route, assistant.steps, assistant.commands.route_output\n"
        "assert not [m for m in sys.modules if m.startswith('PyQt')], 'Qt imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_view_of_a_live_state_never_mixes_two_states() -> None:
    """Heading, plates and text from one state: unknown plates unknown, a reading kept
    while the puzzle is out of view says "Last read", stopped says stopped."""
    from assistant.live import LiveState
    from assistant.steps import steps_view_for_state, stopped_view

    lit = toa_board("111/1#1/111")
    solved = steps_view_for_state(
        LiveState("solved", "All lit.", board=lit, presses=np.zeros((3, 3), np.int64)))
    assert solved.status == "All plates lit." and not solved.hidden
    away = steps_view_for_state(LiveState("no-puzzle", "Puzzle not in view."), solved)
    assert away.stale and away.status == "Last read: all plates lit."
    assert away.note == "Puzzle not in view." and away.board is lit
    again = steps_view_for_state(LiveState("blank", "The game window is off the screen."), away)
    assert again.status == "Last read: all plates lit." and again.note.endswith("screen.")
    gone = steps_view_for_state(LiveState("no-window", "No game window."), solved)
    assert gone.unknown and gone.status == "No game window." and not gone.lines
    first = steps_view_for_state(LiveState("no-puzzle", "Looking for the puzzle…"))
    assert first.unknown and first.status == "Looking for the puzzle…"  # nothing to keep
    stopped = stopped_view(lit)
    assert stopped.unknown and stopped.status == "Stopped." and stopped.presses is None
    assert not stopped.order and not stopped.lines


def test_a_reading_with_the_route_off_still_plans_the_walk() -> None:
    from assistant.live import LiveState
    from assistant.steps import steps_view_for_state

    board = toa_board("111/0#0/110")
    presses = solve(board).presses
    view = steps_view_for_state(LiveState("steps", "…", board=board, presses=presses))
    assert view.order == plan_route(presses, ENTRANCE).steps and view.path
