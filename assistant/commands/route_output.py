"""``solve --route [--from entrance|ROW,COL]``: the walking route on the command line.

Kept out of ``solve.py`` so that module only wires it in: the options, the checks (one
sentence, exit 2) and the words and JSON fields live here; the planning in
:mod:`assistant.route`.
"""

from __future__ import annotations

import argparse
import re

from assistant.errors import UserError
from assistant.puzzle import Board
from assistant.route import (
    ENTRANCE,
    FLOOR_MAX,
    FLOOR_MIN,
    Route,
    Tile,
    describe_click,
    describe_tile,
    is_toa_board,
    on_floor,
    plan_route,
    tile_plate,
)
from assistant.solver import Solution

__all__ = ["add_route_arguments", "parse_from", "plan_for", "route_json", "route_lines"]

_ROW_COL = re.compile(r"\s*(-?\d+)\s*,\s*(-?\d+)\s*")


def add_route_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--route",
        action="store_true",
        help="ToA room only: the clicks in order to step on the answer without crossing "
        "another plate (walking across a plate steps on it)",
    )
    parser.add_argument(
        "--from",
        dest="route_from",
        metavar="entrance|ROW,COL",
        help="where the route starts: 'entrance' (default) or the plate the player stands "
        "on, e.g. 1,3",
    )


def parse_from(text: str | None) -> Tile:
    """The start tile for ``--from``: the entrance, or the plate at ROW,COL (1-based)."""
    if text is None or text.strip().lower() == "entrance":
        return ENTRANCE
    match = _ROW_COL.fullmatch(text)
    if match is None:
        raise UserError(
            f"--from {text!r} is not 'entrance' or a plate written ROW,COL such as 1,3."
        )
    row, col = int(match[1]), int(match[2])
    tile = (2 * col - 2, 2 * row - 2)
    if not on_floor(tile):
        raise UserError(
            f"--from {row},{col} is off the floor: the plates are rows and columns 1 to 3."
        )
    if tile_plate(tile) is None:
        raise UserError(
            "--from 2,2 is the missing centre, which has no plate: give the plate the "
            "player stands on, or 'entrance'."
        )
    return tile


def plan_for(args: argparse.Namespace, board: Board, solution: Solution) -> Route | None:
    """The route when ``--route`` was given, else None (and ``--from`` alone is an error)."""
    if not args.route:
        if args.route_from is not None:
            raise UserError("--from only applies with --route.")
        return None
    if not is_toa_board(board) or board.objective != 1:
        raise UserError(
            "--route needs the ToA room (3x3 plates without the centre, all lit): "
            "add --preset toa."
        )
    start = parse_from(args.route_from)
    if solution.presses is None:  # never for the ToA room: every state has one answer
        raise UserError(f"There is no answer to walk: {solution.reason}")
    return plan_route(solution.presses, start)


def route_json(route: Route) -> dict:
    """The JSON fields ``--route --json`` adds; tiles as in the issue: plate (r, c),
    1-based, is tile (2c-2, 2r-2); the floor runs from -1 to 5; the entrance is (2, 5)."""
    return {
        "route": route.to_json(),
        "route_start": [route.start[0], route.start[1]],
        "route_clicks": route.click_count,
        "route_tiles_walked": route.tiles_walked,
        "route_floor": [FLOOR_MIN, FLOOR_MAX],
    }


def route_lines(route: Route) -> list[str]:
    """The route in words, one click per line."""
    where = "the entrance" if route.start == ENTRANCE else describe_tile(route.start)
    if not route.clicks:
        return [f"Route from {where}: nothing to step on."]
    clicks = route.click_count
    lines = [
        f"Route from {where}: {clicks} click{'s' if clicks != 1 else ''}, "
        f"{route.tiles_walked} tiles walked, no other plate crossed:"
    ]
    lines += [f"{i}. {describe_click(click)}" for i, click in enumerate(route.clicks, 1)]
    return lines
