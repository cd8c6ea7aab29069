"""What the steps panel shows, as plain data (Qt-free), and the builders that make it.

The steps panel is the assistant's fallback where the overlay cannot be drawn over the
game (exclusive fullscreen, Wayland, another monitor, a player who dislikes overlays) and
an option beside it. Everything it draws is decided here, so the decisions are testable
without a screen and the wiring into the live loop is one call:
``panel.show_view(steps_view_for_state(state, panel.view()))``.

The heading, the squares and the text of one picture always come from one live state:
a plate the state does not know is drawn unknown, a picture kept from an earlier
reading says "Last read" and is drawn faded, and a stopped assistant shows nothing but
that it stopped.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import numpy as np

from assistant.puzzle import Board, toa_board
from assistant.route import (
    Route,
    RouteError,
    Tile,
    describe_click,
    is_toa_board,
    plan_route,
    plate_name,
    start_tile,
)

__all__ = [
    "KEEP_LAST_READ",
    "StepsView",
    "last_read_view",
    "steps_view_for_state",
    "steps_view_from",
    "stopped_view",
    "toa_steps_view",
    "unknown_view",
]

#: Live states (``LiveState.kind``) in which the puzzle is there but not read at this
#: moment (the camera turned away, the game captures black, a grab failed, the game is
#: minimised): the panel keeps the last reading's picture, faded, under "Last read".
#: In every other state without a board the plates are drawn unknown.
KEEP_LAST_READ = ("blank", "no-puzzle", "error", "minimized")


@dataclass(frozen=True, eq=False)
class StepsView:
    """One picture of the steps panel.

    Attributes
    ----------
    board : the board in the labels the player sees (a live reading is already in screen
        labels, so ``rotation`` is normally 0).
    presses : the answer's press counts per cell, or None when there is no answer.
    player : the plate ``(row, col)`` the player stands on, or None.
    hidden : cells whose state is not known (drawn grey with a question mark).
    rotation : quarter turns clockwise to draw the grid with (the camera's turn).
    order : ToA only: the plates still to step on, in route order.
    path : ToA only: the tiles from the player to the next step (start, waypoints, plate),
        for the thin line to the next plate.
    next_waypoint : the next click's tile when it is a waypoint, else None.
    status : one short line: what is left, or why there is nothing to show.
    lines : the steps left in order (ToA), or what the numbers mean (other grids).
    note : an optional sentence under the steps, e.g. why the overlay is not drawn.
    dashed : cells that only some of the possible answers press (a plate not known
        decides them), ringed dashed as on the overlay.
    stale : the picture is the last reading's, not this moment's (drawn faded).
    """

    board: Board
    presses: np.ndarray | None = None
    player: tuple[int, int] | None = None
    hidden: frozenset[tuple[int, int]] = field(default_factory=frozenset)
    rotation: int = 0
    order: tuple[tuple[int, int], ...] = ()
    path: tuple[Tile, ...] = ()
    next_waypoint: Tile | None = None
    status: str = ""
    lines: tuple[str, ...] = ()
    note: str | None = None
    dashed: frozenset[tuple[int, int]] = field(default_factory=frozenset)
    stale: bool = False

    @property
    def unknown(self) -> bool:
        """True when no plate of the picture is known (nothing read, or stopped)."""
        return len(self.hidden) == int(np.count_nonzero(self.board.present))

    @property
    def toa(self) -> bool:
        """True for the ToA room: drawn as plates on a floor, with the route."""
        return is_toa_board(self.board)

    @property
    def next_plate(self) -> tuple[int, int] | None:
        return self.order[0] if self.order else None


def steps_view_from(
    board: Board,
    presses: np.ndarray | None,
    player: tuple[int, int] | None = None,
    route: Route | None = None,
    *,
    hidden: Iterable[tuple[int, int]] = (),
    rotation: int = 0,
    note: str | None = None,
    reason: str | None = None,
) -> StepsView:
    """Build the panel's picture from a board, its answer and (ToA) the route.

    ``presses`` None means no answer (``reason`` says why, e.g. the engine's sentence).
    Without a ``route`` on the ToA board the plates are listed in reading order.
    """
    hidden_cells = frozenset((int(r), int(c)) for r, c in hidden)
    common = {
        "board": board,
        "presses": None if presses is None else np.asarray(presses),
        "player": player,
        "hidden": hidden_cells,
        "rotation": int(rotation) % 4,
        "note": note,
    }
    if board.is_solved() and not hidden_cells:
        lit = is_toa_board(board) and board.objective == 1
        return StepsView(**common, status="All plates lit." if lit else "Solved.")
    if presses is None:
        return StepsView(**common, status=reason or "No answer for this board.")
    grid = np.asarray(presses)
    if not is_toa_board(board):
        total = int(grid[board.present].sum())
        noun = "press" if total == 1 else "presses"
        return StepsView(
            **common,
            status=f"{total} {noun} left.",
            lines=("Press each cell the number of times written on it.",),
        )
    if route is None:
        order = tuple((int(r), int(c)) for r, c in np.argwhere(grid % 2 != 0))
        lines = tuple(f"{i}. step on {plate_name(*p)}" for i, p in enumerate(order, 1))
        return StepsView(**common, order=order, status=_steps_left(len(order)), lines=lines)
    order = route.steps
    path: tuple[Tile, ...] = ()
    if route.clicks:
        first_step = next(i for i, click in enumerate(route.clicks) if click.step)
        path = route.points()[: first_step + 2]
    return StepsView(
        **common,
        order=order,
        path=path,
        next_waypoint=route.next_waypoint,
        status=_steps_left(len(order)),
        lines=_route_lines(route),
    )


def _route_lines(route: Route) -> tuple[str, ...]:
    """One line per click; steps numbered as the plates' badges are, waypoints not."""
    lines = []
    number = 0
    for click in route.clicks:
        if click.step:
            number += 1
            lines.append(f"{number}. {describe_click(click)}")
        else:
            lines.append(f"first {describe_click(click)}")
    return tuple(lines)


def toa_steps_view(
    board: Board,
    player: tuple[int, int] | None = None,
    *,
    crossing_steps: bool = True,
    hidden: Iterable[tuple[int, int]] = (),
    note: str | None = None,
) -> StepsView:
    """The ToA room's picture from a reading alone: solve it, plan the route from the
    player's plate (or the entrance) and build the view. Cheap: the route tables are
    computed once per process."""
    from assistant.solver import solve

    solution = solve(board)
    if solution.presses is None:
        return steps_view_from(
            board, None, player, hidden=hidden, note=note, reason=solution.reason
        )
    route = plan_route(solution.presses, start_tile(player), crossing_steps=crossing_steps)
    return steps_view_from(board, solution.presses, player, route, hidden=hidden, note=note)


def unknown_view(status: str, board: Board | None = None, note: str | None = None) -> StepsView:
    """Nothing is known now: every cell of ``board``'s shape (the ToA room without one)
    drawn unknown, no steps, and ``status`` saying why."""
    if board is None:
        board = toa_board("000/0#0/000")
    blank = board.with_states(np.zeros(board.shape, dtype=np.int64))
    cells = frozenset((int(r), int(c)) for r, c in np.argwhere(board.present))
    return StepsView(blank, None, hidden=cells, status=status, note=note)


def stopped_view(board: Board | None = None) -> StepsView:
    """The picture after the player stopped the assistant: nothing is read any more."""
    return unknown_view(
        "Stopped.", board, note="Nothing is read now. Press Start overlay to read the game again."
    )


def last_read_view(previous: StepsView, why: str) -> StepsView:
    """``previous`` kept while the puzzle is not read (``why``): faded, its heading
    saying it is the last reading's, ``why`` under the steps."""
    if previous.stale:
        return replace(previous, note=why)
    status = previous.status
    heading = f"Last read: {status[:1].lower()}{status[1:]}" if status else "Last read."
    return replace(previous, status=heading, note=why, stale=True, player=None)


def steps_view_for_state(
    state, previous: StepsView | None = None, *, crossing_steps: bool = True
) -> StepsView:
    """The panel's picture of one :class:`assistant.live.LiveState`.

    ``previous`` is the picture shown before (kept, faded, in :data:`KEEP_LAST_READ`
    states; its board's shape is used for unknown plates). The route is planned here
    when the overlay's is switched off, so the panel still says how to walk.
    """
    board = state.board
    if state.kind == "uncertain" and state.candidates:
        return _uncertain_view(state)
    if board is not None:
        route = state.route
        if route is None and state.presses is not None and is_toa_board(board):
            try:
                route = plan_route(state.presses, start_tile(state.player),
                                   crossing_steps=crossing_steps)
            except RouteError:
                route = None
        reason = state.status if state.presses is None else None
        return steps_view_from(board, state.presses, state.player, route,
                               hidden=[c for c in state.hidden if c not in state.inferred],
                               reason=reason)
    if state.kind in KEEP_LAST_READ and previous is not None and not previous.unknown:
        return last_read_view(previous, state.status)
    return unknown_view(state.status, None if previous is None else previous.board)


def _uncertain_view(state) -> StepsView:
    """Some plates are not known and decide part of the answer: the known plates as
    read, the unknown ones unknown, solid rings on the steps every possibility shares
    and dashed rings on the ones only some need (the overlay's marks), the live loop's
    sentence as the text."""
    board = state.candidates[0]
    unknown = {tuple(c) for c in state.undecided}
    unknown |= {tuple(c) for c in state.hidden if c not in state.inferred}
    presses = np.zeros(board.shape, dtype=np.int64)
    dashed = set()
    for mark in state.marks:
        if mark.certain:
            presses[mark.row, mark.col] = mark.count
        else:
            dashed.add((mark.row, mark.col))
    order = tuple((int(r), int(c)) for r, c in np.argwhere(presses % board.k != 0))
    sure = len(order)
    heading = f"{sure} sure step{'s' if sure != 1 else ''}" if sure else "No sure step yet"
    if dashed:
        heading += f"; {len(dashed)} more may be needed."
    else:
        heading += "."
    return StepsView(
        board,
        presses,
        state.player,
        hidden=frozenset(unknown),
        order=order,
        status=heading,
        lines=(state.status,),
        dashed=frozenset(dashed),
    )


def _steps_left(count: int) -> str:
    return f"{count} step{'s' if count != 1 else ''} left." if count else "Nothing to step on."

