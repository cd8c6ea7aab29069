"""What steps and walks do to a board: the cells a step changes, the changes a walk of a
given length can make, and the cells the player may have stepped onto or still stands on.

The session's board history (:mod:`assistant.session.history`) explains each new reading
by these; they depend only on the grid (shape, holes, k) and the floor points given, so
they are listed once per process and kept.
"""

from __future__ import annotations

import heapq
import math

import numpy as np

from assistant.puzzle import Board, neighbourhood_sum
from assistant.session.camera import turn_point
from assistant.solver import solve
from assistant.vision.reader import Reading

__all__ = ["AWAY_TOLERANCE", "LEFT", "ON_A_PLATE_RADIUS", "STANDING_RADIUS", "STEP_REACH",
           "cell_at", "cells_out_of_reach", "common_presses", "left_behind",
           "press_effects", "step_deltas", "stepped_cells", "still_on", "walkable_deltas"]

#: A player who stood still with the floor under the spot within this of a cell's centre
#: stands on that cell, so the last step taken was onto it (:meth:`BoardHistory.update`).
#: Grid units: half a floor tile (plates are two tiles apart), the edge of the plate's own
#: tile; a player standing still stands at a tile's centre, 0 from a plate's or half a
#: plate spacing or more from every one, and the spot is learnt to about 0.2 at a steep
#: camera.
STANDING_RADIUS = 0.25
#: The floor under the player's spot within this of a cell's centre, in any frame (the
#: player walking too): the body is on that cell's own tile (half a tile, 0.25, from its
#: edge), so the player has entered it since last seen off every plate, even where the
#: body trails the game's place (a board that took no step since then is dropped,
#: :meth:`BoardHistory.update`). Tighter than STANDING_RADIUS: a body on the next tile, half
#: a spacing away, is taken for one on the plate only through a spot wrong by 0.35.
ON_A_PLATE_RADIUS = 0.15
#: A step taken a moment ago (one step between readings a frame apart) was onto a plate
#: within this of the floor under the player's spot (grid units): the plate toggles on the
#: game tick the player enters it, when the body may still be two tiles (a tick's run)
#: short of it, plus the spot's own error (about 0.2 at a steep camera).
STEP_REACH = 1.25
#: A step onto a cell a moment ago leaves the player heading for it: the plate toggles on
#: the game tick the player enters it, and the body on screen follows the same path a tick
#: or two behind (:data:`STEP_REACH`), so it is still on its way to that plate, or on it.
#: The floor under the player's spot moving away from a cell by more than this (grid
#: units, between readings a moment apart) rules out a step onto it: the plate the player
#: is leaving, whose trio a steep camera may hide entirely behind the body.
AWAY_TOLERANCE = 0.1
# Two-step explanations are enumerated for grids up to this many cells (pairs grow as n²);
# three or more steps only for the ToA ring's size (beyond, every board is taken as
# reachable: the history is dropped).
_PAIR_LIMIT = 144
_MULTI_STEP_LIMIT = 16
#: In a board's set of the cells its last step may have been onto: the player has been
#: seen too far from every one of them to stand on it still (:func:`still_on`).
LEFT = "left"
# The changes of up to n steps depend only on the grid (shape, holes, k) and n: listed once
# per process for every history (a new session, a reset, each test) instead of per history.
_STEP_DELTAS: dict[tuple, frozenset[bytes]] = {}
_PRESS_EFFECTS: dict[tuple, tuple[list[tuple[int, int]], np.ndarray]] = {}
_STEP_DELTAS_KEPT = 64


def step_deltas(board: Board, steps: int) -> frozenset[bytes] | None:
    """Every change (over the present cells, mod k, as int64 bytes) of 0 to ``steps``
    steps; None when that is more than can be listed (then the history cannot narrow
    anything)."""
    present = np.asarray(board.present, bool)
    cells = int(present.sum())
    steps = min(steps, cells * (board.k - 1))  # more presses only repeat changes
    if steps > 2 and cells > _MULTI_STEP_LIMIT:
        return None
    if steps == 2 and cells > _PAIR_LIMIT:
        steps = 1  # pairs of a big grid: one step only (readings rarely miss one)
    key = (board.shape, present.tobytes(), board.k, steps)
    cached = _STEP_DELTAS.get(key)
    if cached is not None:
        return cached
    single = press_effects(board)[1]
    reached = {tuple(np.zeros(cells, np.int64))}
    frontier = np.zeros((1, cells), np.int64)
    for _ in range(steps):
        grown = ((frontier[:, None, :] + single[None, :, :]) % board.k).reshape(-1, cells)
        frontier = np.unique(grown, axis=0)
        new = [row for row in map(tuple, frontier) if row not in reached]
        reached.update(new)
        frontier = np.array(new, np.int64).reshape(-1, cells)
        if len(frontier) == 0:
            break
    deltas = frozenset(np.array(row, np.int64).tobytes() for row in reached)
    if len(_STEP_DELTAS) >= _STEP_DELTAS_KEPT:
        _STEP_DELTAS.clear()
    _STEP_DELTAS[key] = deltas
    return deltas


def press_effects(board: Board) -> tuple[list[tuple[int, int]], np.ndarray]:
    """The present cells and, per cell, the change one step onto it makes (over the
    present cells, mod k): kept per grid (shape, holes, k) like the step deltas."""
    present = np.asarray(board.present, bool)
    key = (board.shape, present.tobytes(), board.k)
    cached = _PRESS_EFFECTS.get(key)
    if cached is not None:
        return cached
    cells = [(int(r), int(c)) for r, c in np.argwhere(present)]
    effects = []
    for cell in cells:
        press = np.zeros(present.shape, np.int64)
        press[cell] = 1
        effects.append(neighbourhood_sum(press, present)[present] % board.k)
    found = (cells, np.array(effects, np.int64).reshape(len(cells), -1))
    if len(_PRESS_EFFECTS) >= _STEP_DELTAS_KEPT:
        _PRESS_EFFECTS.clear()
    _PRESS_EFFECTS[key] = found
    return found


_WALKABLE: dict[tuple, frozenset[bytes]] = {}


def walkable_deltas(board: Board, start: tuple[float, float], end: tuple[float, float],
                     budget: float) -> frozenset[bytes]:
    """Every change (as :func:`step_deltas` gives them) that a walk of at
    most ``budget`` floor tiles from grid point ``start`` to ``end`` makes by the plates it
    enters, any number of them, each as often as the walk allows: a step onto a plate is
    entering it, and the walk between two plates' tiles is at least the larger of their
    distances across and down (a move to any of the 8 tiles around is one tile; plates
    are two tiles apart). Told by a least-cost search over (last plate, change), so a
    long gap costs no more than the plates it can reach."""
    key = (board.shape, np.asarray(board.present).tobytes(), board.k,
           round(start[0], 2), round(start[1], 2), round(end[0], 2), round(end[1], 2),
           round(budget, 2))
    known = _WALKABLE.get(key)
    if known is not None:
        return known
    cells, effects = press_effects(board)
    places = [(float(c), float(r)) for r, c in cells]

    def tiles(a: tuple[float, float], b: tuple[float, float]) -> float:
        return 2.0 * max(abs(a[0] - b[0]), abs(a[1] - b[1]))

    to_end = [tiles(place, end) for place in places]
    # onto the same plate again: off it and back, two tiles
    steps = [[max(2.0, tiles(here, there)) for there in places] for here in places]
    # a change as a number: bit i (two states) or the change's bytes (more), so the search
    # does integer work per move rather than array work
    if board.k == 2:
        changes: list = [sum(1 << i for i, v in enumerate(effect) if v) for effect in effects]
        zero: int | bytes = 0

        def moved(delta, other: int):
            return delta ^ changes[other]
    else:
        changes = [effect.tobytes() for effect in effects]
        zero = np.zeros(len(cells), np.int64).tobytes()

        def moved(delta, other: int):
            return ((np.frombuffer(delta, np.int64) + effects[other]) % board.k).tobytes()

    reached = {zero} if tiles(start, end) <= budget else set()
    done: set[tuple[int, int | bytes]] = set()
    queue = [(tiles(start, place), index, changes[index])
             for index, place in enumerate(places)
             if tiles(start, place) + to_end[index] <= budget]
    heapq.heapify(queue)
    while queue:
        cost, index, delta = heapq.heappop(queue)
        if (index, delta) in done:
            continue
        done.add((index, delta))
        reached.add(delta)
        for other, step in enumerate(steps[index]):
            if cost + step + to_end[other] <= budget:
                after = moved(delta, other)
                if (other, after) not in done:
                    heapq.heappush(queue, (cost + step, other, after))
    if board.k == 2:
        reached = {np.array([delta >> i & 1 for i in range(len(cells))], np.int64).tobytes()
                   for delta in reached}
    found = frozenset(reached)
    if len(_WALKABLE) >= _STEP_DELTAS_KEPT * 16:
        _WALKABLE.clear()
    _WALKABLE[key] = found
    return found


def stepped_cells(board: Board, delta: np.ndarray) -> list[tuple[int, int]]:
    """The cells one step onto which changes the present cells by ``delta`` (mod k)."""
    cells, effects = press_effects(board)
    return [cell for cell, effect in zip(cells, effects, strict=True)
            if np.array_equal(effect, delta)]


def cells_out_of_reach(board: Board, reading: Reading,
                  player: tuple[float, float] | None) -> frozenset:
    """The cells a step taken a moment ago cannot have been onto: the player entered that
    plate a tenth of a second ago and the camera keeps the player in the middle of its
    view, so it is in the picture (``reading.outside`` are not; a low, close camera leaves
    a whole row of three out), and, once the spot is learnt (``player``: the grid point
    under it), within :data:`STEP_REACH` of the player."""
    far = set(reading.outside)
    if player is not None:
        x, y = player
        far.update((r, c) for r, c in press_effects(board)[0]
                   if math.hypot(x - c, y - r) > STEP_REACH)
    return frozenset(far)


def left_behind(cells: set, anchors: tuple[tuple[float, float], tuple[float, float]] | None,
                 board: Board, turn: int) -> set:
    """The ``cells`` the floor under the player's spot moved away from (by more than
    :data:`AWAY_TOLERANCE`) between the last reading and this one, the labels having
    turned ``turn`` quarters: no step a moment ago was onto them."""
    if anchors is None or not cells:
        return set()
    before, now = anchors
    if turn:
        before = turn_point(before, board.rows, turn)
    return {cell for cell in cells
            if math.dist(now, (cell[1], cell[0]))
            > math.dist(before, (cell[1], cell[0])) + AWAY_TOLERANCE}


def still_on(last: frozenset, player: tuple[float, float], board: Board,
              reach: float = STEP_REACH) -> frozenset:
    """The cells of ``last`` (the plates the last step may have been onto) the player may
    still stand on, seen at grid point ``player``: the body trails the game's own place
    by :data:`STEP_REACH` at most, so a plate further away has been left (:data:`LEFT`
    when every one has). Unknown (None) becomes the plates near the player, or left.
    ``reach``: :data:`STANDING_RADIUS` for a player seen standing still (the body is
    where the game has the player then, on the middle of a tile).

    Why: standing still on a plate later then needs a step onto it since (a step is
    entering a plate), which tells the first step of a session whose three plates were all
    hidden (the player walked in from the way in, and stands on it). A player waiting at
    the way in, half a spacing from the nearest plate, is within STEP_REACH of three: a
    first step onto one of those stayed undecided until the player was seen further off."""
    x, y = player
    near = {(r, c) for r, c in press_effects(board)[0] if math.hypot(x - c, y - r) <= reach}
    kept: set = set()
    for cell in last:
        if cell is None:
            kept |= near | {LEFT}
        elif cell == LEFT or cell in near:
            kept.add(cell)
    return frozenset(kept or {LEFT})


def cell_at(point: tuple[float, float], board: Board,
            radius: float = STANDING_RADIUS) -> tuple[int, int] | None:
    """The present cell whose centre is within ``radius`` (:data:`STANDING_RADIUS`) of a
    grid point (x = column, y = row), or None."""
    x, y = point
    r, c = round(y), round(x)
    if not (0 <= r < board.rows and 0 <= c < board.cols) or not board.present[r, c]:
        return None
    return (r, c) if math.hypot(x - c, y - r) <= radius else None


def common_presses(candidates: tuple[Board, ...]) -> tuple[np.ndarray, np.ndarray, list]:
    """What every candidate's answer agrees on.

    Returns ``(certain, undecided, solutions)``: ``certain`` holds the press count of each
    cell that every candidate presses alike (0 elsewhere), ``undecided`` is True where the
    candidates' answers differ, and ``solutions`` the engine's answer per candidate (None
    for an unsolvable one, which then agrees with nothing).
    """
    solutions = [solve(board) for board in candidates]
    shape = candidates[0].shape
    answers = [s.presses if s.solvable else None for s in solutions]
    known = [a for a in answers if a is not None]
    if not known:
        return np.zeros(shape, np.int64), np.zeros(shape, bool), solutions
    stack = np.stack(known)
    agree = np.all(stack == stack[0], axis=0) & (len(known) == len(answers))
    certain = np.where(agree, stack[0], 0)
    undecided = ~agree & np.any(stack > 0, axis=0)
    return certain, undecided, solutions
