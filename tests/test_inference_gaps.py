"""Gaps between frames widen what the session's history admits, never narrow it.

The history is told what the live loop tells it: each reading with the time since the
last one (None: not known), and the cues the loop computes from the frames (the turns of
the labels through which some place's floor moved little enough, the floor under the
spot where the camera keeps the player). Here the readings are made from the truth of
a camera following the player round the room (:class:`assistant.demo_room.Camera`, the
labels as the reader gives them), so every cue is what a perfect reader would give; with
the walking frames between two plates removed, exhaustively over the ToA board's states,
the plates stepped on and the camera's moves, the truth is always a candidate and a
board shown as certain is the true one.
"""

from __future__ import annotations

import copy
import itertools
import math
from dataclasses import dataclass, replace
from functools import cache

import numpy as np
import pytest

from assistant.demo_room import Camera
from assistant.puzzle import TOA_PLATES, Board, toa_board
from assistant.session.camera import (
    pan_bound,
    turn_board,
    turn_cell,
    turn_point,
    turn_side,
    turns_within_pan,
)
from assistant.session.history import BoardHistory
from assistant.vision.geometry import GridGeometry
from assistant.vision.reader import Reading, TileReading
from lab.walkthrough import ENTRANCE, SECONDS_PER_TILE

SIZE = (960, 640)
SPOT = (480.0, 320.0)  # where the camera keeps the player on screen
STATUE = (0, -1)  # the statue's side of the room (above the top row)
START = Camera(yaw_deg=20.0, pitch_deg=45.0, spacing_px=70.0, look_at=ENTRANCE,
               screen_centre=SPOT)
# a quarter turn of the labels as turn_board counts it, on grid points (x, y, 1)
_QUARTER = np.array([[0, 1, 0], [-1, 0, 2], [0, 0, 1]], np.float64)


def all_toa_boards() -> list[Board]:
    return [toa_board("{}{}{}/{}#{}/{}{}{}".format(*(bits >> i & 1 for i in range(8))))
            for bits in range(256)]


@cache
def labelled(camera: Camera) -> tuple[int, GridGeometry]:
    """The reader's labels for the room seen through ``camera``: the quarter turns from
    the room's labels (row 1, column 1 the plate at the top left on screen) and the
    grid's placement in them."""
    room = camera.homography(SIZE)
    best = None
    for turns in range(4):
        homography = room @ np.linalg.inv(np.linalg.matrix_power(_QUARTER, turns))
        geometry = GridGeometry(3, 3, homography)
        x_axis, y_axis = (geometry.to_image(np.array(ends)) for ends in
                          ([(2.0, 1.0), (0.0, 1.0)], [(1.0, 2.0), (1.0, 0.0)]))
        across, down = x_axis[0] - x_axis[1], y_axis[0] - y_axis[1]
        score = across[0] / np.linalg.norm(across) + down[1] / np.linalg.norm(down)
        if best is None or score > best[0]:
            best = (score, turns, geometry)
    return best[1], best[2]


def reading_of(board: Board, camera: Camera, hidden: tuple = ()) -> Reading:
    """The reading of ``board`` (room labels) through ``camera``, ``hidden`` room cells
    covered: in the reader's labels."""
    turns, geometry = labelled(camera)
    seen = turn_board(board, turns)
    covered = tuple(sorted(turn_cell(cell, (3, 3), turns) for cell in hidden))
    states = np.array(seen.states)
    for cell in covered:
        states[cell] = 0
    tiles = tuple(TileReading(int(r), int(c), None if (r, c) in covered
                              else bool(seen.states[r, c]), 1.0, (0.0, 0.0),
                              hidden=(r, c) in covered)
                  for r, c in np.argwhere(seen.present))
    return Reading(True, False, None, None if covered else seen, tiles, geometry.corners(),
                   geometry, "auto", "contrast", hidden=covered,
                   partial=seen.with_states(states) if covered else None)


@dataclass(frozen=True)
class Moment:
    """One frame's truth: the room's board, where the player stands (grid units), the
    room cells hidden, the camera and when it was grabbed (None: not known)."""

    board: Board
    player: tuple[float, float]
    hidden: tuple[tuple[int, int], ...]
    camera: Camera
    time: float | None


@cache
def _pan_turns(before: Camera, now: Camera, seconds: float) -> frozenset[int] | None:
    """The live loop's ``pan_turns`` between two views (board-free, so worked out once)."""
    then, geometry = labelled(before)[1], labelled(now)[1]
    if np.array_equal(then.homography, geometry.homography):
        return None  # a still view: every turn keeps some place (the ring's middle)
    allowed = turns_within_pan(then, geometry, SIZE, most=pan_bound(seconds))
    return None if len(allowed) == 4 else allowed


@cache
def _reading(board: Board, camera: Camera, hidden: tuple) -> Reading:
    return reading_of(board, camera, hidden)


class Loop:
    """The history told what the live loop tells it, from the truth of each moment."""

    def __init__(self, spot_known: bool, statue: bool = False) -> None:
        self.history = BoardHistory()
        self.spot_known = spot_known
        self.statue = statue
        self.before: Moment | None = None

    def see(self, now: Moment):
        reading = _reading(now.board, now.camera, now.hidden)
        turns, geometry = labelled(now.camera)
        before = self.before
        seconds = None if before is None or before.time is None or now.time is None \
            else now.time - before.time
        pan = anchors = player = None
        if before is not None:
            then_turns, then = labelled(before.camera)
            if seconds is not None:
                pan = _pan_turns(before.camera, now.camera, seconds)
            if self.spot_known:
                anchors = (turn_point(before.player, 3, then_turns),
                           turn_point(now.player, 3, turns))
            elif np.array_equal(then.homography, geometry.homography):
                anchors = ((1.0, 1.0), (1.0, 1.0))  # a still view, the spot not learnt
        if self.spot_known:
            player = turn_point(now.player, 3, turns)
        landmark = turn_side(STATUE, turns) if self.statue else None
        self.before = now
        return self.history.update(reading, seconds, landmark, anchors, player,
                                   pan_turns=pan), turn_board(now.board, turns)


def assert_truthful(inference, truth: Board) -> None:
    assert truth in inference.candidates
    assert inference.board in (None, truth)


#: Camera moves between two frames, the camera on the player throughout: a smooth turn
#: either way (under 45 degrees a frame), the compass's snaps (a quarter or half turn
#: from the nearest of the room's axes, landing on an axis), a pitch and a zoom, or none.
MOVES = {
    "still": {},
    "turn": {"yaw_deg": 35.0},
    "turn back": {"yaw_deg": -30.0},
    "snap": {"snap": 1},
    "snap back": {"snap": -1},
    "snap half": {"snap": 2},
    "pitch": {"pitch_deg": 20.0},
    "zoom": {"spacing_px": 14.0},
}


def moved(camera: Camera, move: str, player: tuple[float, float]) -> Camera:
    """``camera`` after ``move``, on the player at ``player`` (a pitch past the game's
    limits goes the other way)."""
    change = dict(MOVES[move])
    changed = {}
    if "snap" in change:
        changed["yaw_deg"] = float((round(camera.yaw_deg / 90.0) + change.pop("snap")) * 90
                                   % 360)
    changed.update({key: getattr(camera, key) + value for key, value in change.items()})
    if not 0.0 <= changed.get("pitch_deg", 0.0) <= 68.0:
        changed["pitch_deg"] = camera.pitch_deg - MOVES[move]["pitch_deg"]
    return replace(camera, look_at=player, **changed)


def walk_seconds(start: tuple[float, float], end: tuple[float, float], pace: str) -> float:
    """The least time to walk between two floor points (grid units) at ``pace``: one
    tile (half a grid unit) a move, to any of the 8 tiles around."""
    tiles = 2 * max(abs(start[0] - end[0]), abs(start[1] - end[1]))
    return math.ceil(tiles) * SECONDS_PER_TILE[pace]


def plate_point(cell: tuple[int, int]) -> tuple[float, float]:
    return (float(cell[1]), float(cell[0]))


@pytest.mark.parametrize("spot_known", [False, True], ids=["spot not learnt", "spot learnt"])
def test_a_first_step_across_a_gap_never_shows_a_wrong_board_as_certain(spot_known):
    """Every board, every first plate, every camera move: the player stands at the way in,
    then (the walking frames removed) stands on the plate, hiding it, as long after as
    the walk takes at a run. The truth stays a candidate and a certain board is the
    truth."""
    for board in all_toa_boards():
        primed = Loop(spot_known)
        primed.see(Moment(board, ENTRANCE, (), START, 0.0))
        for cell, move in itertools.product(TOA_PLATES, MOVES):
            loop = copy.copy(primed)  # (update replaces the history's state, never edits it)
            loop.history = copy.copy(primed.history)
            there = plate_point(cell)
            inference, truth = loop.see(Moment(
                board.press(*cell), there, (cell,), moved(START, move, there),
                walk_seconds(ENTRANCE, there, "run")))
            assert_truthful(inference, truth)


def test_a_reading_a_time_not_known_after_is_decided_by_itself():
    """Without the time between (pictures without capture times), any number of steps
    and any camera move may lie between two readings: every completion of the reading is
    a candidate, whatever the history held."""
    for board in all_toa_boards():
        loop = Loop(spot_known=True, statue=True)
        loop.see(Moment(board, ENTRANCE, (), START, 0.0))
        for cell in TOA_PLATES:
            there = plate_point(cell)
            now = Moment(board.press(*cell), there, (cell,), moved(START, "snap", there),
                         None)
            inference, _truth = copy.copy(loop).see(now)
            assert set(inference.candidates) == set(_reading(now.board, now.camera,
                                                             now.hidden).completions())


@pytest.mark.parametrize("spot_known", [False, True], ids=["spot not learnt", "spot learnt"])
def test_a_step_from_plate_to_plate_across_a_gap_never_shows_a_wrong_board_as_certain(
        spot_known):
    """Every board and every pair of plates: the player seen stepping onto the first
    (frames a moment apart) and standing on it, then, the walking frames removed,
    standing on the second, hiding it, as long after as the walk takes at a run. The
    camera's moves taken in turn."""
    moves = list(MOVES)
    for board, first in itertools.product(all_toa_boards(), TOA_PLATES):
        loop = Loop(spot_known)
        loop.see(Moment(board, ENTRANCE, (), START, 0.0))
        here = plate_point(first)
        arrival = walk_seconds(ENTRANCE, here, "run")
        near = (here[0], here[1] + 0.5)  # a moment before the step: the tile before it
        loop.see(Moment(board, near, (), moved(START, "still", near), arrival - 0.1))
        on_first = board.press(*first)
        camera = moved(START, "still", here)
        for tick in (arrival, arrival + 0.1):
            inference, truth = loop.see(Moment(on_first, here, (first,), camera, tick))
            assert_truthful(inference, truth)
        for number, second in enumerate(TOA_PLATES):
            if second == first:
                continue
            there = plate_point(second)
            gap = copy.copy(loop)
            gap.history = copy.copy(loop.history)
            inference, truth = gap.see(Moment(
                on_first.press(*second), there, (second,),
                moved(camera, moves[number % len(moves)], there),
                arrival + 0.1 + walk_seconds(here, there, "run")))
            assert_truthful(inference, truth)


def _session(board: Board, rng: np.random.Generator, stride: int, timed: bool,
             pace: str) -> list[Moment]:
    """A walk-through's moments at the reading level: the player walks in from the way
    in, steps on every plate of the answer in a random order (walking over plain floor
    between, two frames on the way and one a moment before the step), stands on each
    for three frames while the camera turns, snaps, pitches or zooms now and then; every
    ``stride``-th walking frame kept (0: none). Times at the game's pace."""
    from assistant.solver import solve

    presses = solve(board).presses
    order = [cell for cell in TOA_PLATES if presses[cell]]
    order = [order[i] for i in rng.permutation(len(order))]
    moments: list[Moment] = []
    camera = replace(START, yaw_deg=float(rng.uniform(0, 360)))
    player, now, walking = ENTRANCE, 0.0, 0

    def keep(moment: Moment, is_walking: bool) -> None:
        nonlocal walking
        if is_walking:
            walking += 1
            if not stride or walking % stride:
                return
        else:
            walking = 0
        moments.append(replace(moment, time=moment.time if timed else None))

    for _ in range(3):
        keep(Moment(board, player, (), replace(camera, look_at=player), now), False)
        now += 0.1
    for cell in order:
        there = plate_point(cell)
        travel = walk_seconds(player, there, pace)
        leave = now + float(rng.uniform(0.0, 1.0))
        for k in (1, 2):
            share = k / 3
            point = (player[0] + (there[0] - player[0]) * share,
                     player[1] + (there[1] - player[1]) * share)
            camera = replace(camera, look_at=point)
            keep(Moment(board, point, (), camera, leave + travel * share), True)
        arrival = leave + travel + float(rng.uniform(0.0, 0.1))
        near = (there[0] + (player[0] - there[0]) * 0.2, there[1] + (player[1] - there[1]) * 0.2)
        keep(Moment(board, near, (), replace(camera, look_at=near), arrival - 0.1), True)
        board, player, now = board.press(*cell), there, arrival
        for frame in range(3):
            if frame and rng.random() < 0.4:
                camera = moved(camera, list(MOVES)[int(rng.integers(1, len(MOVES)))], there)
            camera = replace(camera, look_at=there)
            keep(Moment(board, there, (cell,), camera, now), False)
            now += 0.1
    return moments


@pytest.mark.parametrize("stride", [1, 2, 3, 0])
def test_walk_throughs_from_every_start_with_walking_frames_thinned_are_never_wrong(stride):
    """From all 256 starts, the walking frames thinned to every ``stride``-th (0: none, a
    frame only while the player stands on each plate), times known or not, the spot
    learnt or not, the statue seen or not: every frame keeps the truth, and no frame
    shows a wrong board as certain."""
    rng = np.random.default_rng([stride, 63])
    for number, board in enumerate(all_toa_boards()):
        timed, spot_known, statue = (bool(number >> bit & 1) for bit in range(3))
        loop = Loop(spot_known, statue)
        for moment in _session(board, rng, stride, timed, "run" if number % 5 else "walk"):
            inference, truth = loop.see(moment)
            assert_truthful(inference, truth)
