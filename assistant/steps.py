"""What the steps panel shows, as plain data (Qt-free), and the builder that makes it.

The steps panel is the assistant's fallback where the overlay cannot be drawn over the
game (exclusive fullscreen, Wayland, another monitor, a player who dislikes overlays) and
an option beside it. Everything it draws is decided here, so the decisions are testable
without a screen and the wiring into the live loop is one call:
``panel.show_view(toa_steps_view(reading_board, player_plate, crossing_steps=...))``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from assistant.puzzle import Board
from assistant.route import (
    Route,
    Tile,
    describe_click,
    is_toa_board,
    plan_route,
    plate_name,
    start_tile,
)

__all__ = ["StepsView", "steps_view_from", "toa_steps_view"]


@dataclass(frozen=True, eq=False)
class StepsView:
    """One picture of the steps panel.

    Attributes
    ----------
    board : the board in the labels the player sees (a live reading is already in screen
        labels, so ``rotation`` is normally 0).
    presses : the answer's press counts per cell, or None when there is no answer.
    player : the plate ``(row, col)`` the player stands on, or None.
    hidden : cells whose state could not be read (drawn with a question mark).
    rotation : quarter turns clockwise to draw the grid with (the camera's turn).
    order : ToA only: the plates still to step on, in route order.
    path : ToA only: the tiles from the player to the next step (start, waypoints, plate),
        for the thin line to the next plate.
    next_waypoint : the next click's tile when it is a waypoint, else None.
    status : one short line: what is left, or why there is nothing to show.
    lines : the steps left in order (ToA), or what the numbers mean (other grids).
    note : an optional sentence under the steps, e.g. why the overlay is not drawn.
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


def _steps_left(count: int) -> str:
    return f"{count} step{'s' if count != 1 else ''} left." if count else "Nothing to step on."

