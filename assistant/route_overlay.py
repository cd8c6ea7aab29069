"""The walking route as the overlay draws it, without Qt: who the player is, the route
from their plate, and its geometry in physical screen pixels.

Why a module of its own: :mod:`assistant.live` decides *what* is on the board, this
decides *how to walk it* on screen, and keeping it apart keeps the live loop's changes
small. Everything here is plain data, so the worker thread, the tests and the benchmark
compute it the same way.

The overlay must never fool the reader, so the route keeps out of every cell's sampled
disc as the marks do (ADR 12): each segment of the path is clipped where it comes within
:data:`CLEAR_RADIUS` grid units of a cell centre, and a waypoint mark is a small hollow
diamond that stays outside those discs too.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from assistant.puzzle import TOA_PLATES
from assistant.route import CENTRE, ENTRANCE, Route, Tile, on_floor, plate_tile, tile_plate
from assistant.vision.geometry import MARK_OUTER_RADIUS, SAMPLE_RADIUS, GridGeometry

__all__ = [
    "CLEAR_RADIUS",
    "RouteMarks",
    "clip_segment",
    "entrance_near",
    "entrance_opposite",
    "floor_tile_at",
    "hides_from_behind",
    "player_plate",
    "route_marks",
    "tile_point",
]

#: The path keeps this far (grid units) from every cell centre: the sampled disc plus a
#: margin for the line's width and antialiasing.
CLEAR_RADIUS = SAMPLE_RADIUS * 1.3
#: Half-diagonal (grid units) of the waypoint diamond on a tile between grid points: its
#: corners stay 0.28 units from the nearest cell centre, outside :data:`CLEAR_RADIUS`.
WAYPOINT_RADIUS = 0.22
#: On a grid point (only the missing centre can be a waypoint there) the diamond goes
#: round the sampled disc instead: its edges pass 0.28 units from the centre.
WAYPOINT_RADIUS_ON_POINT = MARK_OUTER_RADIUS


@dataclass(frozen=True, eq=False)
class RouteMarks:
    """What the overlay draws of the route, in physical screen pixels.

    ``next_plate`` is the plate ``(row, col)`` to step on next (its mark is drawn
    strongest); ``path`` the polylines (N, 2) from the player to it through the waypoints,
    with the parts near cell centres cut out; ``waypoints`` the tiles to click before it
    (plain floor) and ``waypoint_marks`` a closed polygon (4, 2) around each.
    """

    next_plate: tuple[int, int] | None
    path: tuple[np.ndarray, ...] = field(default=(), repr=False)
    waypoints: tuple[Tile, ...] = ()
    waypoint_marks: tuple[np.ndarray, ...] = field(default=(), repr=False)


def tile_point(tile: Tile) -> tuple[float, float]:
    """The grid point ``(x = column, y = row)`` of a floor tile: tiles are half a unit."""
    return tile[0] / 2.0, tile[1] / 2.0


def player_plate(
    geometry: GridGeometry, hidden: Iterable[tuple[int, int]], centre: tuple[float, float]
) -> tuple[int, int] | None:
    """The plate the player stands on: of the hidden plates, the one nearest ``centre``
    (the middle of the game view, in the geometry's pixels), because the camera follows
    the player; team-mates hide plates too but stand elsewhere on screen. None when no
    plate is hidden: the player is off the grid."""
    plates = [(int(r), int(c)) for r, c in hidden if (int(r), int(c)) in TOA_PLATES]
    if not plates:
        return None
    cx, cy = centre

    def distance(plate: tuple[int, int]) -> float:
        x, y = geometry.cell_centre(*plate)
        return (x - cx) ** 2 + (y - cy) ** 2

    return min(plates, key=distance)


def _floor_point(geometry: GridGeometry, point: tuple[float, float]) -> np.ndarray | None:
    """The floor under an image ``point``, in tile units (half grid units); None beyond
    the horizon."""
    x, y, w = np.linalg.inv(geometry.homography) @ np.array([point[0], point[1], 1.0])
    return None if w <= 1e-12 else np.array([2 * x / w, 2 * y / w])


def floor_tile_at(geometry: GridGeometry, point: tuple[float, float]) -> Tile | None:
    """The floor tile under an image ``point`` (the geometry's pixels), or None when the
    point is off the room's floor (or beyond the horizon)."""
    floor = _floor_point(geometry, point)
    if floor is None:
        return None
    tile = (round(float(floor[0])), round(float(floor[1])))
    return tile if on_floor(tile) else None


#: The middle tile of each side of the floor, the usual entrance (bottom) first: the ring
#: looks the same from every side, so where the room was entered is read from the statue
#: beside it (:func:`entrance_opposite`) or guessed from the view (:func:`entrance_near`).
SIDE_ENTRANCES: tuple[Tile, ...] = (ENTRANCE, (2, -1), (-1, 2), (5, 2))


def entrance_opposite(statue: tuple[int, int]) -> Tile:
    """The way in, across the floor from the statue's side (``statue``: the side as an
    outward direction (dx, dy) in grid units, :data:`assistant.vision.statue.STATUE_SIDES`):
    the room is entered through its open side, opposite the statue's wall (ADR 60)."""
    dx, dy = statue
    return (CENTRE[0] - 3 * dx, CENTRE[1] - 3 * dy)


def hides_from_behind(geometry: GridGeometry, tile: Tile, plate: tuple[int, int]) -> bool:
    """Whether a figure standing on floor ``tile`` may hide ``plate`` ((row, col) from 0)
    in the view of ``geometry``: the plate is next to the tile and above it on screen,
    where a standing body reaches (a body is drawn upwards from its feet)."""
    plate_at = plate_tile(*plate)
    if max(abs(plate_at[0] - tile[0]), abs(plate_at[1] - tile[1])) != 1:
        return False
    feet, other = geometry.to_image(np.array([tile_point(tile), tile_point(plate_at)]))
    return bool(other[1] < feet[1])


def entrance_near(geometry: GridGeometry, point: tuple[float, float]) -> Tile:
    """Where a player not yet placed most likely stands: the side's middle tile nearest
    the floor under ``point`` (the middle of the view, which the camera keeps on the
    player), the bottom one unless another is nearer by half a tile."""
    floor = _floor_point(geometry, point)
    if floor is None:
        return ENTRANCE
    distance = [float(np.hypot(*(floor - side))) for side in SIDE_ENTRANCES]
    nearest = int(np.argmin(distance))
    return SIDE_ENTRANCES[nearest] if distance[nearest] < distance[0] - 0.5 else ENTRANCE


def player_place(
    geometry: GridGeometry,
    hidden: Iterable[tuple[int, int]],
    centre: tuple[float, float],
    spot: tuple[float, float] | None = None,
) -> tuple[tuple[int, int] | None, Tile | None]:
    """Where the player is: ``(plate, tile)``, the plate None off the plates, both None
    when nothing tells.

    The game's camera keeps the player at one place on screen, so once that ``spot`` is
    known (learnt from a plate the player stood on) the floor tile under it is the
    player's tile, on a plate or on the plain floor between (a waypoint): a route is
    planned from there. Until then the player is the hidden plate nearest the view's
    middle (:func:`player_plate`), and off the plates nothing tells where."""
    if spot is None:
        plate = player_plate(geometry, hidden, centre)
        return plate, None if plate is None else plate_tile(*plate)
    tile = floor_tile_at(geometry, spot)
    if tile is None:
        return None, None
    return tile_plate(tile), tile


def clip_segment(
    a: tuple[float, float],
    b: tuple[float, float],
    centres: np.ndarray,
    radius: float = CLEAR_RADIUS,
) -> list[tuple[float, float]]:
    """The parts ``(t0, t1)`` of the segment ``a -> b`` (t from 0 to 1) that stay at least
    ``radius`` from every point of ``centres`` (M, 2), in order; all in grid units."""
    p = np.asarray(a, np.float64)
    d = np.asarray(b, np.float64) - p
    dd = float(d @ d)
    if dd == 0.0:
        return []
    cuts: list[tuple[float, float]] = []
    for centre in np.asarray(centres, np.float64):
        f = p - centre
        # |f + t d|^2 < r^2  <=>  dd t^2 + 2 (f.d) t + (f.f - r^2) < 0
        half_b = float(f @ d)
        c = float(f @ f) - radius * radius
        disc = half_b * half_b - dd * c
        if disc <= 0.0:
            continue
        root = np.sqrt(disc)
        t0, t1 = (-half_b - root) / dd, (-half_b + root) / dd
        if t1 > 0.0 and t0 < 1.0:
            cuts.append((max(t0, 0.0), min(t1, 1.0)))
    pieces = []
    start = 0.0
    for t0, t1 in sorted(cuts):
        if t0 > start:
            pieces.append((start, t0))
        start = max(start, t1)
    if start < 1.0:
        pieces.append((start, 1.0))
    return [(t0, t1) for t0, t1 in pieces if t1 - t0 > 1e-6]


def _cell_centres(geometry: GridGeometry) -> np.ndarray:
    """Every cell centre (the missing centre too: the reader looks there as well)."""
    return np.array(
        [(c, r) for r in range(geometry.rows) for c in range(geometry.cols)], np.float64
    )


def _clipped_path(points: list[tuple[float, float]], centres: np.ndarray) -> list[np.ndarray]:
    """The polyline through ``points`` (grid units) without the parts near ``centres``,
    as polylines (pieces that meet at a waypoint are joined)."""
    lines: list[list[np.ndarray]] = []
    for a, b in itertools.pairwise(points):
        pa, pb = np.asarray(a, np.float64), np.asarray(b, np.float64)
        for t0, t1 in clip_segment(a, b, centres):
            start, end = pa + t0 * (pb - pa), pa + t1 * (pb - pa)
            if lines and np.allclose(lines[-1][-1], start):
                lines[-1].append(end)
            else:
                lines.append([start, end])
    return [np.array(line) for line in lines]


def _diamond(tile: Tile) -> np.ndarray:
    x, y = tile_point(tile)
    on_point = tile[0] % 2 == 0 and tile[1] % 2 == 0
    r = WAYPOINT_RADIUS_ON_POINT if on_point else WAYPOINT_RADIUS
    return np.array([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], np.float64)


def route_marks(
    geometry: GridGeometry, route: Route, origin: tuple[int, int]
) -> RouteMarks:
    """The overlay's picture of ``route``: the path from its start to the first step,
    the waypoints on the way, all offset by the capture ``origin`` like the marks."""
    if not route.clicks:
        return RouteMarks(None)
    first = next(i for i, click in enumerate(route.clicks) if click.step)
    clicks = route.clicks[: first + 1]
    points = [tile_point(route.start), *(tile_point(click.tile) for click in clicks)]
    offset = np.array(origin, np.float64)
    path = tuple(
        geometry.to_image(line) + offset for line in _clipped_path(points, _cell_centres(geometry))
    )
    waypoints = tuple(click.tile for click in clicks if not click.step)
    diamonds = tuple(geometry.to_image(_diamond(tile)) + offset for tile in waypoints)
    return RouteMarks(tile_plate(clicks[-1].tile), path, waypoints, diamonds)
