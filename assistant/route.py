"""A walking route over the ToA floor: which tiles to click, in which order, so that the
player steps on the answer's plates once each and on no other plate.

Why a route at all: the plates sit 2 floor tiles apart with a plain tile between them,
the game walks the player tile by tile, and players report that walking across a plate
steps on it. Clicking the far end of a row from its other end crosses the middle plate
and undoes the work. Marks on plates say *which* plates; this module says *how to get
there*. Qt-free and pure: the command line, the steps panel, the overlay and the demo
room all use it. The model and its limits: docs/adr/0060-route-pathing-model.md.

Coordinates are floor tiles ``(x, y)``: the plate at row ``r``, column ``c`` (0-based)
is tile ``(2c, 2r)``; the floor runs from -1 to 5 on both axes; the entrance is tile
``(2, 5)``, below the bottom plate; tile ``(2, 2)`` is the missing centre, plain floor.

The pathing model: a click from tile ``a`` to tile ``b`` on a straight line or at 45°
walks exactly the tiles on that line, one per game step (the game moves diagonally in
one step), whatever the game's pathing algorithm, because on open floor that is the only
shortest path. Other legs have several shortest paths and the model does not say which
one the game takes, so a route never uses them while crossing a plate steps on it.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from assistant.errors import UserError
from assistant.puzzle import TOA_PLATES, Board

__all__ = [
    "CENTRE",
    "ENTRANCE",
    "FLOOR_MAX",
    "FLOOR_MIN",
    "PLATE_TILES",
    "Click",
    "Route",
    "RouteError",
    "Tile",
    "Walk",
    "answer_plates",
    "describe_click",
    "describe_tile",
    "floor_tiles",
    "has_one_path",
    "is_toa_board",
    "on_floor",
    "plan_route",
    "plate_name",
    "plate_tile",
    "plates_entered",
    "start_tile",
    "tile_plate",
    "tiles_crossed",
    "tiles_walked",
    "walk",
]

Tile = tuple[int, int]

FLOOR_MIN = -1
FLOOR_MAX = 5
#: Where a player off the grid comes from: the tile below the bottom plate.
ENTRANCE: Tile = (2, 5)
#: The missing centre plate's tile: plain floor, walkable, never a plate.
CENTRE: Tile = (2, 2)
#: The 8 plate tiles, in the order of :data:`assistant.puzzle.TOA_PLATES`.
PLATE_TILES: tuple[Tile, ...] = tuple((2 * c, 2 * r) for r, c in TOA_PLATES)
_PLATE_INDEX: dict[Tile, int] = {tile: i for i, tile in enumerate(PLATE_TILES)}

_NAMES = {
    (0, 0): "top-left",
    (0, 1): "top",
    (0, 2): "top-right",
    (1, 0): "left",
    (1, 2): "right",
    (2, 0): "bottom-left",
    (2, 1): "bottom",
    (2, 2): "bottom-right",
}


class RouteError(UserError):
    """A tile, a plate or a click sequence the route cannot use; one sentence."""


# -- geometry -----------------------------------------------------------------------------
def on_floor(tile: Tile) -> bool:
    """True when ``tile`` lies on the room's floor (-1..5 on both axes)."""
    x, y = tile
    return FLOOR_MIN <= x <= FLOOR_MAX and FLOOR_MIN <= y <= FLOOR_MAX


def floor_tiles() -> tuple[Tile, ...]:
    """Every floor tile, row by row (y, then x): 49 tiles, the 8 plates included."""
    span = range(FLOOR_MIN, FLOOR_MAX + 1)
    return tuple((x, y) for y in span for x in span)


def plate_tile(row: int, col: int) -> Tile:
    """The tile of the plate at ``row``, ``col`` (0-based)."""
    if (row, col) not in _NAMES:
        raise RouteError(
            f"There is no plate at row {row + 1}, column {col + 1}: the plates are rows and "
            "columns 1 to 3 without the centre."
        )
    return 2 * col, 2 * row


def tile_plate(tile: Tile) -> tuple[int, int] | None:
    """The plate ``(row, col)`` (0-based) on ``tile``, or None for plain floor."""
    index = _PLATE_INDEX.get((int(tile[0]), int(tile[1])))
    return None if index is None else TOA_PLATES[index]


def start_tile(player_plate: tuple[int, int] | None) -> Tile:
    """Where a route starts: the plate the player stands on, else the entrance."""
    return ENTRANCE if player_plate is None else plate_tile(*player_plate)


def tiles_walked(a: Tile, b: Tile) -> int:
    """Game steps from ``a`` to ``b`` on open floor: a diagonal move is one step, so this
    is the larger of the two coordinate differences whatever path the game picks."""
    return max(abs(b[0] - a[0]), abs(b[1] - a[1]))


def has_one_path(a: Tile, b: Tile) -> bool:
    """True when the leg ``a -> b`` is straight or at 45°: then its shortest path is
    unique, so the tiles walked do not depend on the game's pathing."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    return dx == 0 or dy == 0 or abs(dx) == abs(dy)


def tiles_crossed(a: Tile, b: Tile) -> tuple[Tile, ...]:
    """The tiles a click on ``b`` walks through from ``a``, in order: every tile on the
    line after ``a``, ``b`` included; ``()`` when ``a == b``.

    Raises
    ------
    RouteError : the leg is neither straight nor at 45° (the model gives it no path).
    """
    if not has_one_path(a, b):
        raise RouteError(
            f"The walk from tile {a[0]},{a[1]} to tile {b[0]},{b[1]} is neither straight nor "
            "at 45°, so its path depends on the game's pathing."
        )
    steps = tiles_walked(a, b)
    sx = (b[0] > a[0]) - (b[0] < a[0])
    sy = (b[1] > a[1]) - (b[1] < a[1])
    return tuple((a[0] + i * sx, a[1] + i * sy) for i in range(1, steps + 1))


def plates_entered(a: Tile, b: Tile) -> tuple[tuple[int, int], ...]:
    """The plates ``(row, col)`` the leg ``a -> b`` enters, in order (``b``'s included)."""
    return tuple(p for p in map(tile_plate, tiles_crossed(a, b)) if p is not None)


def is_toa_board(board: Board) -> bool:
    """True for the ToA room's shape: 3x3, only the centre missing, 2 states."""
    expected = np.ones((3, 3), dtype=bool)
    expected[1, 1] = False
    return board.shape == (3, 3) and board.k == 2 and np.array_equal(board.present, expected)


# -- the route ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Click:
    """One click on a floor tile: ``step`` is True when the tile is an answer plate the
    click steps on, False for a waypoint (always plain floor)."""

    tile: Tile
    step: bool

    @property
    def plate(self) -> tuple[int, int] | None:
        """The plate ``(row, col)`` (0-based) stepped on, or None for a waypoint."""
        return tile_plate(self.tile) if self.step else None

    def to_json(self) -> dict:
        return {"tile": [int(self.tile[0]), int(self.tile[1])], "step": bool(self.step)}


@dataclass(frozen=True)
class Route:
    """Clicks in order from ``start``; ``crossing_steps`` is the rule it was planned with.

    With the rule on (the default) every leg is straight or at 45° and enters no plate
    except the one a step ends on. With it off, legs go straight to the next plate in
    any direction (a waypoint only to step on the plate the player stands on again).
    """

    start: Tile
    clicks: tuple[Click, ...]
    crossing_steps: bool = True

    @property
    def click_count(self) -> int:
        return len(self.clicks)

    @property
    def tiles_walked(self) -> int:
        """Game steps over the whole route (a diagonal move counts one, as in the game)."""
        return sum(tiles_walked(a, b) for a, b in self.legs())

    @property
    def steps(self) -> tuple[tuple[int, int], ...]:
        """The plates ``(row, col)`` stepped on, in order."""
        return tuple(click.plate for click in self.clicks if click.step)  # type: ignore[misc]

    @property
    def next_click(self) -> Click | None:
        return self.clicks[0] if self.clicks else None

    @property
    def next_waypoint(self) -> Tile | None:
        """The next click's tile when it is a waypoint (before the next step), else None."""
        click = self.next_click
        return click.tile if click is not None and not click.step else None

    def legs(self) -> tuple[tuple[Tile, Tile], ...]:
        """``(from, to)`` for every click."""
        points = self.points()
        return tuple(itertools.pairwise(points))

    def points(self) -> tuple[Tile, ...]:
        """The start and every clicked tile: the corners of the line to draw."""
        return (self.start, *(click.tile for click in self.clicks))

    def to_json(self) -> list[dict]:
        """``[{"tile": [x, y], "step": bool}, ...]`` in floor-tile coordinates."""
        return [click.to_json() for click in self.clicks]


def answer_plates(answer: np.ndarray | Iterable[Sequence[int]]) -> frozenset[tuple[int, int]]:
    """The plates to step on, from a 3x3 press grid (odd counts step) or ``(row, col)``
    pairs (0-based)."""
    if isinstance(answer, np.ndarray):
        grid = np.asarray(answer)
        if grid.shape != (3, 3):
            raise RouteError(f"A ToA press grid is 3x3, not {grid.shape[0]}x{grid.shape[1]}.")
        cells = {(int(r), int(c)) for r, c in np.argwhere(grid % 2 != 0)}
    else:
        cells = {(int(r), int(c)) for r, c in answer}
    for r, c in cells:
        plate_tile(r, c)  # checks it is a plate
    return frozenset(cells)


def plan_route(
    answer: np.ndarray | Iterable[Sequence[int]],
    start: Tile,
    *,
    crossing_steps: bool = True,
) -> Route:
    """The best route from ``start`` that steps on every plate of ``answer`` once.

    Best = fewest clicks, then fewest tiles walked; ties go to the lexicographically
    smallest click sequence, so the answer is deterministic. Exact: the segments between
    two steps are independent (what a leg may enter does not depend on what is lit), so
    the shortest segment from every tile to every plate is found once (Dijkstra over the
    49 tiles) and the order of the plates by dynamic programming over subsets.

    Parameters
    ----------
    answer : a 3x3 press grid (odd = step) or ``(row, col)`` plates, 0-based.
    start : the player's tile: a plate they stand on (standing there is no step) or any
        floor tile, e.g. :data:`ENTRANCE`.
    crossing_steps : the rule "walking across a plate steps on it" (see the ADR).

    Raises
    ------
    RouteError : ``start`` is off the floor, a plate is not one, or (never on this floor,
        checked exhaustively by the tests) no route exists within the model.
    """
    plates = answer_plates(answer)
    start = (int(start[0]), int(start[1]))
    if not on_floor(start):
        raise RouteError(
            f"Tile {start[0]},{start[1]} is off the floor: both coordinates run from "
            f"{FLOOR_MIN} to {FLOOR_MAX}."
        )
    if not plates:
        return Route(start, (), crossing_steps)
    mask = sum(1 << TOA_PLATES.index(p) for p in plates)
    segments = _segments(crossing_steps)[start]
    finish = _orders(crossing_steps)
    best: tuple[int, int, tuple[Tile, ...]] | None = None
    for q in _members(mask):
        head = segments.get(q)
        tail = finish.get((q, mask & ~(1 << q)))
        if head is None or tail is None:
            continue
        candidate = (head[0] + tail[0], head[1] + tail[1], head[2] + tail[2])
        if best is None or candidate < best:
            best = candidate
    if best is None:
        raise RouteError(
            f"No walking route from tile {start[0]},{start[1]} reaches every plate to step on "
            "without crossing another plate."
        )
    clicks = tuple(Click(tile, tile in _PLATE_INDEX) for tile in best[2])
    return Route(start, clicks, crossing_steps)


def _members(mask: int) -> Iterable[int]:
    return (i for i in range(len(PLATE_TILES)) if mask >> i & 1)


def _legs_from(a: Tile, crossing_steps: bool) -> list[tuple[Tile, int]]:
    """Every usable leg from ``a``: ``(to, tiles walked)``. With the crossing rule a leg
    must be straight or at 45° and enter no plate before its last tile."""
    legs = []
    for b in floor_tiles():
        if b == a:
            continue
        if crossing_steps:
            if not has_one_path(a, b):
                continue
            if any(tile in _PLATE_INDEX for tile in tiles_crossed(a, b)[:-1]):
                continue
        legs.append((b, tiles_walked(a, b)))
    return legs


@cache
def _segments(crossing_steps: bool) -> dict[Tile, dict[int, tuple[int, int, tuple[Tile, ...]]]]:
    """For every floor tile and plate index: the best ``(clicks, tiles, clicked tiles)``
    from the tile to a step on that plate, through waypoints on plain floor only."""
    legs = {a: _legs_from(a, crossing_steps) for a in floor_tiles()}
    table = {}
    for source in floor_tiles():
        arrived: dict[int, tuple[int, int, tuple[Tile, ...]]] = {}
        settled: set[Tile] = set()
        heap: list[tuple[int, int, tuple[Tile, ...], Tile]] = [(0, 0, (), source)]
        while heap:
            clicks, walked, path, here = heapq.heappop(heap)
            if path and here in _PLATE_INDEX:  # a step ends the segment
                arrived.setdefault(_PLATE_INDEX[here], (clicks, walked, path))
                continue
            if here in settled:
                continue
            settled.add(here)
            for there, length in legs[here]:
                if there in _PLATE_INDEX:
                    if _PLATE_INDEX[there] in arrived:
                        continue
                elif there in settled:
                    continue
                heapq.heappush(heap, (clicks + 1, walked + length, (*path, there), there))
        table[source] = arrived
    return table


@cache
def _orders(crossing_steps: bool) -> dict[tuple[int, int], tuple[int, int, tuple[Tile, ...]]]:
    """``(plate p, set S) -> best (clicks, tiles, clicked tiles)`` that steps on every
    plate of S once, starting while standing on plate p (p not in S)."""
    segments = _segments(crossing_steps)
    count = len(PLATE_TILES)
    best: dict[tuple[int, int], tuple[int, int, tuple[Tile, ...]]] = {}
    for mask in sorted(range(1 << count), key=int.bit_count):
        for p in range(count):
            if mask >> p & 1:
                continue
            if mask == 0:
                best[(p, 0)] = (0, 0, ())
                continue
            here = segments[PLATE_TILES[p]]
            choice = None
            for q in _members(mask):
                head = here.get(q)
                tail = best.get((q, mask & ~(1 << q)))
                if head is None or tail is None:
                    continue
                candidate = (head[0] + tail[0], head[1] + tail[1], head[2] + tail[2])
                if choice is None or candidate < choice:
                    choice = candidate
            if choice is not None:
                best[(p, mask)] = choice
    return best


# -- the simulator ------------------------------------------------------------------------
@dataclass(frozen=True)
class Walk:
    """What following clicks did: the board after, where the player stands, and the
    plates stepped on in order."""

    board: Board
    tile: Tile
    stepped: tuple[tuple[int, int], ...]


def walk(
    board: Board,
    start: Tile,
    clicks: Iterable[Click | Tile],
    *,
    crossing_steps: bool = True,
) -> Walk:
    """Follow ``clicks`` from ``start`` under the pathing model and step on plates.

    With ``crossing_steps`` every plate tile entered is stepped on (the last one of a leg
    included); a leg that is neither straight nor at 45° raises :class:`RouteError`
    because the model gives it no path. Without it only a click that ends on a plate
    steps on it. Standing on ``start`` is no step; clicking the tile the player stands on
    does nothing (as in the game). The tests and the demo room use this.
    """
    if not is_toa_board(board):
        raise RouteError("Walking needs the ToA room: 3x3 plates without the centre.")
    here = (int(start[0]), int(start[1]))
    stepped: list[tuple[int, int]] = []
    for click in clicks:
        target = click.tile if isinstance(click, Click) else click
        target = (int(target[0]), int(target[1]))
        if not on_floor(target):
            raise RouteError(f"Tile {target[0]},{target[1]} is off the floor.")
        entered = tiles_crossed(here, target) if crossing_steps else (target,)
        for tile in entered:
            plate = tile_plate(tile)
            if plate is not None and tile != here:
                board = board.press(*plate)
                stepped.append(plate)
        here = target
    return Walk(board, here, tuple(stepped))


# -- words --------------------------------------------------------------------------------
def plate_name(row: int, col: int) -> str:
    """``row 1, column 1 (top-left)`` for the plate at 0-based ``row``, ``col``."""
    return f"row {row + 1}, column {col + 1} ({_NAMES[(row, col)]})"


def _point_name(x: int, y: int) -> str:
    """A grid point (both coordinates even, 0..4): a plate or the empty centre."""
    if (x, y) == CENTRE:
        return "the empty centre"
    return f"the {_NAMES[(y // 2, x // 2)]} plate"


def _between(x: int, y: int) -> str:
    """A tile inside the 3x3 (0..4) that is no grid point, as "between A and B"."""
    if x % 2 == 1 and y % 2 == 1:
        corner = (0 if x == 1 else 4, 0 if y == 1 else 4)
        return f"diagonally between {_point_name(*corner)} and the empty centre"
    if x % 2 == 1:
        first, second = _point_name(x - 1, y), _point_name(x + 1, y)
    else:
        first, second = _point_name(x, y - 1), _point_name(x, y + 1)
    return f"between {first} and {second}"


def describe_tile(tile: Tile) -> str:
    """A floor tile in words a player understands, relative to the plates (up = row 1's
    side, as the board is written)."""
    x, y = tile
    if not on_floor(tile):
        return f"tile {x},{y} (off the floor)"
    if tile == ENTRANCE:
        return "the entrance tile (below the bottom plate)"
    inside_x, inside_y = min(max(x, 0), 4), min(max(y, 0), 4)
    if (inside_x, inside_y) != (x, y):
        sides = []
        if y != inside_y:
            sides.append("above" if y < 0 else "below")
        if x != inside_x:
            sides.append("left of" if x < 0 else "right of")
        where = " and ".join(sides)
        if inside_x % 2 == 0 and inside_y % 2 == 0:
            return f"the floor tile just {where} {_point_name(inside_x, inside_y)}"
        return f"the floor tile just {where} the gap {_between(inside_x, inside_y)}"
    if x % 2 == 0 and y % 2 == 0:
        plate = tile_plate(tile)
        return "the empty centre tile" if plate is None else f"plate {plate_name(*plate)}"
    return f"the floor tile {_between(x, y)}"


def describe_click(click: Click) -> str:
    """One instruction: ``step on row 1, column 1 (top-left)`` or ``click the floor
    tile between ...``."""
    if click.step:
        plate = tile_plate(click.tile)
        assert plate is not None
        return f"step on {plate_name(*plate)}"
    return f"click {describe_tile(click.tile)} (no plate)"
