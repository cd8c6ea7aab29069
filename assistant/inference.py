"""What a hidden cell shows, told by the frames before it and the puzzle's own rules.

One picture never guesses a hidden cell (:mod:`assistant.vision.reader`). Over a session it
need not: a step changes a known set of cells (the plate and its two ring neighbours on the
ToA board, the cell and its orthogonal neighbours on a generic grid), so the visible cells
that changed since the last frame tell which cell was stepped on, and with it the state of
the one the player now stands on.

:class:`BoardHistory` keeps a *belief*: every board the session could be showing. A new
reading narrows it to the completions of that reading (one per assignment of its hidden
cells) that some board of the belief reaches in at most :data:`MAX_STEPS_BETWEEN` steps.
When one completion is left the board is certain; when several are, the overlay shows only
what every one of them agrees on. When none is left (frames were missed, the reader was
confused), the history is dropped and the reading alone decides.

Labels follow the screen (row 1, column 1 is the top-left cell as seen), so a turn of the
camera relabels the cells. The ring alone cannot tell a quarter turn from none (a step
and a quarter turn about the player both shift the labelled lattice by whole plates), and
the compass snaps the camera in one frame to look along one of the room's axes (the room
around the ring can tell the turn: ``room_turns``, below). So one
transition is explained either by a turn under 45° (the quarter turns that bring the
previous grid's axes nearest the new ones, :func:`quarter_turns_between`) with up to
:data:`MAX_STEPS_BETWEEN` steps, or by a snap of any quarter turn with no step in the same
frame (a reading missed before it may have held one). A view that does not look along
the room's axes (:func:`off_cardinal_deg`) is no snap's, when the readings are a frame
apart (further apart, a smooth turn may have passed 45°). Steps are the player's own, made by
entering a plate: when the live loop knows where the camera keeps the player on screen
(``anchors``: the floor point under that spot in both readings, the spot learnt from
plates the player stood on) and that floor point has not moved through the smooth turn,
the player stood still and no step (nor a snap that would move it) is allowed. The camera
keeps the player in view, so a step between frames a moment apart was onto a plate in the
picture (a low, close camera leaves a whole row of three out) and, once the spot is learnt,
near the player (``player``). A
team-mate who walks onto a plate breaks this model: a change of a plate in view then has
no explanation, the history is dropped and the frame alone decides (only a step whose
three plates are all hidden would go unseen). Within that model the true board is always
among the candidates, so the overlay is never wrong, only sometimes shows less; a
constraint that could exclude the truth (such as "a snap moves nobody, so the same plates
stay hidden", false at oblique views, where a standing body hides the plate behind it) is
never used. Exhaustively over the ToA board,
one step onto a plate seen the frame before (the player walks over plain floor between
plates) is always decided. Between two successive frames of the live loop (a tenth of a
second at 10 fps) at most one step happens: a step takes a game tick. Readings further
apart (the reader abstained in between, the loop runs slowly, grabs failed, the window
was minimised) allow one more step per half tick of the time between them
(:data:`SECONDS_PER_STEP`), any snap of the camera, and the floor under the player as
much more pan: a gap widens what the history admits, never narrows it. A pan further
than a walk in the time known is taken for a gap too (the screen stalled, or the times
given are not the pictures'). Between readings whose time is not known (pictures without
capture times) any number of steps and camera moves are admitted, so such a reading is
decided by itself.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from assistant.puzzle import Board, neighbourhood_sum
from assistant.route import is_toa_board
from assistant.solver import solve
from assistant.vision.geometry import GridGeometry
from assistant.vision.reader import Reading

__all__ = [
    "AWAY_TOLERANCE",
    "CARDINAL_TOLERANCE_DEG",
    "FRAME_SECONDS",
    "GAME_TICK_SECONDS",
    "MAX_PAN",
    "MAX_STEPS_BETWEEN",
    "PAN_FRAME_SECONDS",
    "RUN_SECONDS_PER_TILE",
    "SECONDS_PER_STEP",
    "STANDING_RADIUS",
    "STEP_REACH",
    "STEP_SPACING_SECONDS",
    "STILL_TOLERANCE",
    "UNBOUNDED_STEPS",
    "WALK_SLACK_TILES",
    "BoardHistory",
    "Inference",
    "cell_at",
    "common_presses",
    "off_cardinal_deg",
    "pan_bound",
    "quarter_turns_between",
    "turn_board",
    "turn_cell",
    "turn_point",
    "turn_side",
    "turns_within_pan",
]

#: Steps that may happen between two successive readings of the live loop: one. A step
#: is entering a plate, and the player enters at most one tile per game tick (0.6 s;
#: running moves two tiles, but two plates are never next to each other), so two frames
#: a tenth of a second apart never have two steps between them; a plate crossed on the
#: way to another is stepped on a tick before the other.
MAX_STEPS_BETWEEN = 1
#: Seconds of a game tick: the most one more step can take ...
GAME_TICK_SECONDS = 0.6
#: ... and what is counted for one more step when readings are further apart than the
#: loop's frames (half a tick: twice as cautious).
SECONDS_PER_STEP = GAME_TICK_SECONDS / 2
#: Two steps are a game tick apart at least (plates are never next to each other: the
#: player enters the next one a tick later at a run), so a step seen between two readings
#: less than this apart from the reading before the last step's is no step of the
#: player's: a walk over plates that hides one and then the next is no pair of steps a
#: tenth of a second apart, nor a step onto a hidden plate a moment after a step seen.
#: That reading was taken before the last step showed, so the two are a tick apart at
#: least, less how much later the last step reached the screen than this one: three
#: quarters of a tick leaves 0.15 s for that (a frame and a half of the live loop).
STEP_SPACING_SECONDS = GAME_TICK_SECONDS * 0.75
#: The steps of a transition whose time is not known (pictures without capture times, a
#: clock the screen did not keep to): more than any grid's steps can make a difference
#: with, so every board the steps reach is admitted (:meth:`BoardHistory.steps_within`).
UNBOUNDED_STEPS = 1 << 30
#: The live loop's frame at its 10 fps: the time between readings a frame apart.
FRAME_SECONDS = 0.1
#: Seconds per floor tile at a run (two tiles a game tick): the fastest a player walks.
RUN_SECONDS_PER_TILE = GAME_TICK_SECONDS / 2
#: Tiles a walk between two readings may be longer than the floor under the player's spot
#: says: the body on screen trails the game's own place by up to two tiles at either end
#: (the plate toggles on the tick the player enters it, the body gets there later), and
#: the spot and the placement are a fraction of a tile off.
WALK_SLACK_TILES = 5.0
#: How far (grid units) the floor under the player's spot may seem to move between two
#: readings of a player who stood still: the readings' own placement ...
STILL_TOLERANCE = 0.04
#: ... and at most half of what a walking player covers in the time between (one tile a
#: tick: 0.08 in a tenth of a second), so a slow walk seen by fast frames is no stillness
WALK_GRID_UNITS_PER_SECOND = 0.5 / GAME_TICK_SECONDS
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
#: A snap of the camera lands it looking exactly along the room's axes (the compass's
#: "Look North / East / South / West"; the game has no roll), so the floor's axes then run
#: across the screen: a view whose floor direction across the screen is further than this
#: from an axis cannot be a snap's. The reader places that direction to 1.5 degrees at
#: worst (walk-through frames, pitch 0-68 degrees; median 0.1).
CARDINAL_TOLERANCE_DEG = 5.0
#: How far (grid units) the floor under the spot where the camera keeps the player may move
#: between readings a frame apart (:data:`PAN_FRAME_SECONDS`): the camera turns, pitches and
#: zooms about the player and pans only as the player walks, a sixth of a grid unit in a
#: tenth of a second at a run (two tiles a tick). Ten times that, so a placement a fraction
#: of a spacing off never rules out the truth (the walk-throughs of ``bench-walk``, whose
#: frames are few, move the player up to 1.41 between frames). Labels turned a quarter
#: about the ring's middle, while the camera turned about a player beside it, read as a
#: pan of the floor by 1.41 times the player's distance from the middle (twice it for a
#: half turn): at the way in (1.5) or on a corner plate, more than this, so a snap of the
#: camera is not taken for a step of the player. Readings further apart allow as much
#: more per frame of time between them (:func:`pan_bound`).
MAX_PAN = 1.75
#: The live loop's frame (10 fps), the time :data:`MAX_PAN` is for.
PAN_FRAME_SECONDS = 0.1
# Two-step explanations are enumerated for grids up to this many cells (pairs grow as n²);
# three or more steps only for the ToA ring's size (beyond, every board is taken as
# reachable: the history is dropped).
_PAIR_LIMIT = 144
_MULTI_STEP_LIMIT = 16
#: In a board's set of the cells its last step may have been onto: the player has been
#: seen too far from every one of them to stand on it still (:func:`_still_on`).
LEFT = "left"
# The changes of up to n steps depend only on the grid (shape, holes, k) and n: listed once
# per process for every history (a new session, a reset, each test) instead of per history.
_STEP_DELTAS: dict[tuple, frozenset[bytes]] = {}
_PRESS_EFFECTS: dict[tuple, tuple[list[tuple[int, int]], np.ndarray]] = {}
_STEP_DELTAS_KEPT = 64


@dataclass(frozen=True)
class Inference:
    """The board(s) a reading may show once the session's history is taken into account.

    ``board`` is the one board left (visible cells as read, hidden ones inferred), or
    ``None`` when ``candidates`` (two or more boards) are all still possible.
    ``inferred`` are the hidden cells whose state history decided; ``undecided`` those it
    could not. Cells count from 0.
    """

    board: Board | None
    candidates: tuple[Board, ...]
    inferred: tuple[tuple[int, int], ...] = ()
    undecided: tuple[tuple[int, int], ...] = ()

    @property
    def certain(self) -> bool:
        return self.board is not None


def quarter_turns_between(before: GridGeometry, after: GridGeometry) -> int:
    """The quarter turns (as :func:`turn_board` counts them) of the labels between two
    readings, assuming the camera turned less than 45° in between.

    Told on the floor, not on the screen: a camera without roll sees the floor line
    parallel to its own across-direction as a horizontal line wherever it looks
    (:func:`_across_deg`), so that line's angle in each reading's labels moves only by
    the camera's turn and by the labels' own quarter turns. The screen's axes are not
    enough: a steep pitch squeezes one of them, so a 40° turn at 68° looked nearer no
    quarter turn than the one the labels made (the history then explained nothing), and
    seen at about 45° of yaw a pan alone may turn the labels by a quarter while the
    labelled x axis turns by only 40° on screen (the line's angle in the labels then
    jumps by nearly 90°, which this reads as the quarter turn it is)."""
    # a quarter turn of the labels turns every floor direction by -90° in them
    change = _across_deg(after) - _across_deg(before)
    return round(-change / 90.0) % 4


def pan_bound(seconds: float | None) -> float:
    """How far (grid units) the floor under the player's spot may move between two
    readings ``seconds`` apart: :data:`MAX_PAN` a frame, and as much more per frame of
    time between; without limit when the time is not known (None)."""
    if seconds is None or not math.isfinite(seconds):
        return math.inf
    return MAX_PAN * max(1.0, seconds / PAN_FRAME_SECONDS)


def turns_within_pan(before: GridGeometry, after: GridGeometry, size: tuple[int, int],
                     before_offset: tuple[float, float] = (0.0, 0.0),
                     after_offset: tuple[float, float] = (0.0, 0.0),
                     most: float = MAX_PAN) -> frozenset[int]:
    """The quarter turns of the labels (as :func:`turn_board` counts them) between two
    readings of a square grid for which some place of the picture has the floor under it
    move by ``most`` grid units at most (:func:`pan_bound`): the place where the camera
    keeps the player is one, wherever on the picture that is. ``size``: the picture's
    width and height (pixels of the area both offsets, the grabs' corners, count from).

    Why: before the player has stood on a plate the live loop does not know that place
    (:meth:`BoardHistory.update`'s ``anchors``), and a snap of the camera then looked like
    a step onto a plate whose two neighbours were in view; a snap turns the camera about
    the player, a step pans it by the player's walk."""
    width, height = size
    xs = np.linspace(0.0, float(width), _PAN_SAMPLES)
    ys = np.linspace(0.0, float(height), _PAN_SAMPLES)
    coarse = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    local = np.linspace(-1.0, 1.0, _PAN_LOCAL)
    around = np.stack(np.meshgrid(local, local), axis=-1).reshape(-1, 2)
    allowed = set()
    for turns in range(4):
        places, span = coarse, np.array([xs[1] - xs[0], ys[1] - ys[0]])
        least = math.inf
        for refinement in range(_PAN_REFINEMENTS + 1):
            moved = _floor_moved(before, after, places, before_offset, after_offset, turns)
            best = np.argsort(moved)[:_PAN_KEPT]
            least = min(least, float(moved[best[0]]))
            if least <= most or refinement == _PAN_REFINEMENTS:
                break
            places = (places[best][:, None, :] + around[None, :, :] * span).reshape(-1, 2)
            places = np.clip(places, 0.0, [float(width), float(height)])
            span = span * 2.0 / (_PAN_LOCAL - 1)
        if least <= most:
            allowed.add(turns)
    return frozenset(allowed)


# turns_within_pan's search for the least move: a coarse lattice over the picture, then
# finer ones about the best few places (the move is smooth, least at one place or along
# a line through it)
_PAN_SAMPLES = 25
_PAN_KEPT = 3
_PAN_LOCAL = 9
_PAN_REFINEMENTS = 3
# floor further than this from the grid's middle (grid units) counts as unseen: near the
# horizon a pixel spans more floor than the placement can be trusted over
_PAN_FLOOR_REACH = 12.0


def _floor_moved(before: GridGeometry, after: GridGeometry, points: np.ndarray,
                 before_offset: tuple[float, float], after_offset: tuple[float, float],
                 turns: int) -> np.ndarray:
    """Per picture place, how far (grid units) the floor under it moved between the two
    readings with their labels turned ``turns`` quarters; inf where either reading sees
    no floor there (beyond its horizon, or too far to trust)."""
    now = _floor_under(after, points - np.asarray(after_offset, np.float64))
    then = _floor_under(before, points - np.asarray(before_offset, np.float64))
    x, y = turn_point((then[:, 0], then[:, 1]), before.rows, turns)  # elementwise
    moved = np.hypot(now[:, 0] - x, now[:, 1] - y)
    return np.where(np.isfinite(moved), moved, np.inf)


def _floor_under(geometry: GridGeometry, points: np.ndarray) -> np.ndarray:
    """The grid points under picture ``points`` (frame pixels), NaN where the floor is
    not seen there: on the far side of the horizon, or beyond :data:`_PAN_FLOOR_REACH`."""
    inverse = geometry.inverse
    middle = np.array([(geometry.cols - 1) / 2, (geometry.rows - 1) / 2, 1.0])
    # a picture point maps back with the sign its floor point's depth has: the middle's
    # for the floor in front of the camera
    sign = np.sign((geometry.homography @ middle)[2])
    lifted = np.column_stack([points, np.ones(len(points))]) @ inverse.T
    w = lifted[:, 2] * sign
    with np.errstate(divide="ignore", invalid="ignore"):
        floor = lifted[:, :2] / lifted[:, 2:3]
    far = np.hypot(floor[:, 0] - middle[0], floor[:, 1] - middle[1]) > _PAN_FLOOR_REACH
    floor[(w <= 1e-12) | far] = np.nan
    return floor


def off_cardinal_deg(geometry: GridGeometry) -> float:
    """How far (degrees, 0 to 45) the camera looks from the nearest of the room's axes:
    the angle, on the floor, between a grid axis and the floor line that runs across the
    screen through the grid's middle. Measured on the floor, not on the screen, so a steep
    pitch does not shrink it (a camera without roll sees the floor line parallel to its
    own across-direction as a horizontal line)."""
    angle = _across_deg(geometry) % 90.0
    return float(min(angle, 90.0 - angle))


def _across_deg(geometry: GridGeometry) -> float:
    """The angle (degrees, in the grid's labels: x = column, y = row) of the floor line
    that runs across the screen through the grid's middle: exact at any pitch for a
    camera without roll (the game's), which sees the floor line parallel to its own
    across-direction as a horizontal line."""
    mx, my = (geometry.cols - 1) / 2, (geometry.rows - 1) / 2
    middle = geometry.to_image(np.array([[mx, my]]))[0]
    across = np.array([geometry.local_spacing(round(my), round(mx)) / 2, 0.0])
    ends = geometry.to_grid(np.array([middle - across, middle + across]))
    dx, dy = ends[1] - ends[0]
    return math.degrees(math.atan2(dy, dx))


def turn_side(side: tuple[int, int], turns: int) -> tuple[int, int]:
    """A side of the grid (outward direction (dx, dy) in grid units, x = column) relabelled
    as the cells are by ``turns`` quarter turns of :func:`turn_board` (numpy's rot90)."""
    dx, dy = side
    for _ in range(turns % 4):
        dx, dy = dy, -dx
    return dx, dy


def turn_point(point: tuple[float, float], size: int, turns: int) -> tuple[float, float]:
    """A grid point (x = column, y = row) of a ``size`` x ``size`` grid relabelled as the
    cells are by ``turns`` quarter turns of :func:`turn_board`."""
    x, y = point
    for _ in range(turns % 4):
        x, y = y, size - 1 - x
    return x, y


def turn_board(board: Board, turns: int) -> Board:
    """The board relabelled after the labels turned ``turns`` quarter turns (the states
    array rotated as :func:`numpy.rot90` rotates it)."""
    turns %= 4
    return board if turns == 0 else _turned(board, turns)


@lru_cache(maxsize=4096)
def _turned(board: Board, turns: int) -> Board:
    """:func:`turn_board`, kept: every frame turns the same few boards of the belief."""
    states = np.rot90(board.states, turns)
    present = np.rot90(board.present, turns)
    return Board.from_arrays(states, present, board.k, board.objective)



class BoardHistory:
    """The belief of one live session (see the module docstring).

    ``max_steps`` bounds the steps one transition may explain; :meth:`update` takes each
    reading in order (with its frame, for the room picture) and returns what it shows.
    """

    def __init__(self, max_steps: int = MAX_STEPS_BETWEEN) -> None:
        self.max_steps = max_steps
        # every board the session could be showing, with the cells its last step may have
        # been onto (None: not known, as for a board the frame alone decided)
        self._belief: dict[Board, frozenset] = {}
        # per board of the belief, the sides of the grid the landmark may be on, in its
        # labels (None: not known): seen in an earlier reading, carried through the turns
        # of the labels that explain the boards since
        self._sides: dict[Board, frozenset] = {}
        # per board of the belief, the time of the reading before the transition its last
        # step was seen in (None: no step seen, or the time is not known): the next step
        # comes STEP_SPACING_SECONDS after it at the earliest
        self._step_window: dict[Board, float | None] = {}
        self._geometry: GridGeometry | None = None
        self._missed = 0  # readings missed since the last one (miss)
        self._now: float | None = None  # the last reading's time on the history's clock
        # whether the last reading's frame alone decided (the first of a session, or one
        # no board of the belief explained): what came before it no longer counts
        self.restarted = True

    def reset(self) -> None:
        """Forget the session (the puzzle left the view, another window was chosen)."""
        self._belief = {}
        self._sides = {}
        self._step_window = {}
        self._geometry = None
        self._missed = 0
        self._now = None
        self.restarted = True

    @property
    def belief(self) -> tuple[Board, ...]:
        return tuple(self._belief)

    def miss(self) -> None:
        """A frame without a reading: a step may have happened unseen in it, before a
        snap of the camera that the next reading shows (:meth:`update`)."""
        if self._belief:
            self._missed += 1

    def update(self, reading: Reading, seconds: float | None = FRAME_SECONDS,
               landmark: tuple[int, int] | None = None,
               anchors: tuple[tuple[float, float], tuple[float, float]] | None = None,
               player: tuple[float, float] | None = None,
               room_turns: frozenset[int] | None = None,
               pan_turns: frozenset[int] | None = None,
               ) -> Inference | None:
        """Narrow the belief by one reading; ``None`` when it abstains. ``seconds`` since
        the last reading that did not abstain bound the steps in between (one, and one more
        per :data:`SECONDS_PER_STEP`: :meth:`steps_within`); ``None`` is a time not known, a
        gap of any length, in which any number of steps and camera moves may have happened:
        every board the steps reach is admitted (the reading decides by itself, and a hidden
        cell stays undecided).

        ``landmark``: the side of the grid (an outward direction (dx, dy), in this
        reading's labels) on which a fixed feature of the room stands, when the frame
        shows it (the ToA room's statue, :func:`assistant.vision.statue.statue_side`).
        Seen in this reading and an earlier one, it tells the quarter turns of the labels
        between them, a snap's as well as a smooth turn's (the side seen earlier is kept
        per board of the belief, turned as each explanation since turned the labels): the
        ring alone cannot, so a step onto a plate whose new board is a quarter turn of the
        old one would otherwise stay undecided.

        ``anchors``: the grid point under the spot where the camera keeps the player, in
        the last reading's labels and in this one's. When it has not moved (through the
        smooth turn) and the readings are a moment apart, the player stood still: no step
        and no other snap (:meth:`_still_turns`). When the point it stands still on is a
        cell's centre, the player stands on that cell, so the last step was onto it (the
        player entered it and has not left it): boards whose last step was another cell
        are dropped (not when that would drop them all, which this model cannot explain).

        ``player``: the grid point under the spot where the camera keeps the player, in
        this reading's labels, once that spot is learnt. A step of this transition (one
        step, readings a moment apart) was onto a cell within :data:`STEP_REACH` of it;
        without it, onto a cell in the picture (:meth:`_reachable`). A plate further than
        that from it is not the one the player stands on (:func:`_still_on`).

        ``room_turns``: the quarter turns of the labels since the last reading that the
        room around the ring allows (:func:`assistant.vision.surroundings.turns_between`;
        None: it does not tell). Only they explain this reading, smooth or snapped; when
        none of them does, the room was misread (not the history), and it is not used.

        ``pan_turns``: the quarter turns of the labels since the last reading through which
        the floor under some place of the picture moved by :func:`pan_bound` at most
        (:func:`turns_within_pan`; None: not known). Between readings a moment apart only
        they explain this reading: the floor under the player's spot moves no further
        (with ``anchors``, the floor under that spot itself). When none of them does,
        nothing does (the frame alone decides)."""
        completions = reading.completions()
        if not completions:
            self.miss()
            return None
        reach = STEP_REACH  # how far from the player's spot a plate stood on may be
        steps = self.steps_within(seconds)
        reached: dict[Board, frozenset] = {}
        sides: dict[Board, frozenset] = {}
        windows: dict[Board, float | None] = {}
        now = self._clock_after(seconds)
        if self._belief and self._compatible(completions[0]):
            if steps > self.max_steps:
                pan_turns = None  # time enough for the player to walk anywhere
            elif anchors is not None:
                pan_turns = self._anchored_pan_turns(
                    completions[0], anchors, pan_turns, pan_bound(seconds))
            if pan_turns is not None and not pan_turns:
                # the floor under the player moved further than a walk in the time known,
                # however the labels turned: more time passed on screen than the clock
                # says (the game stalled, pictures not taken at the times given). A gap,
                # not evidence against a step: any number of steps, any camera move
                steps, pan_turns, now = self.steps_within(None), None, None
            turn = self._turn(reading)
            still = self._still_turns(completions[0], anchors, seconds, steps)
            # None: any snap; none at all a frame apart in a view no snap gives
            snaps = None if steps > self.max_steps or self._may_be_snapped(reading) \
                else frozenset()
            standing = None
            stood_still = still is not None and turn in still
            if stood_still:
                steps, snaps = 0, still if snaps is None else snaps  # the player stood still
                standing = cell_at(anchors[1], completions[0])
                reach = STANDING_RADIUS
            # a snap (a click on the compass) takes no step in its own frame; a reading
            # missed before it may have held one (the player steps, then snaps the camera
            # a frame later), and more time between admits the steps of that time
            snap_steps = steps if self._missed else steps - self.max_steps
            out_of_reach = _out_of_reach(completions[0], reading, player)
            # the steps of a transition are a walk: from where the player was to where
            # the player is, in the time between, at a run at most
            walk = None
            if player is not None and anchors is not None and now is not None \
                    and seconds is not None and is_toa_board(completions[0]):
                walk = (anchors, seconds / RUN_SECONDS_PER_TILE + WALK_SLACK_TILES)

            def explain(out_of_reach: frozenset) -> tuple[dict, dict, dict]:
                reached, sides, windows = self._reachable(
                    completions, turn, steps, landmark, snaps, snap_steps, out_of_reach,
                    anchors, now, room_turns, pan_turns, stood_still, walk)
                if not reached and room_turns is not None:
                    reached, sides, windows = self._reachable(
                        completions, turn, steps, landmark, snaps, snap_steps,
                        out_of_reach, anchors, now, pan_turns=pan_turns,
                        stood_still=stood_still, walk=walk)
                if not reached and landmark is not None:
                    # the side seen contradicts every explanation the ring allows: a
                    # side was misread (a body in gold standing in front of another
                    # side, its head beyond the plates at a low camera), not the whole
                    # history; which of the two readings, this one or the one the side
                    # was carried from, is not known, so the side is forgotten on both
                    reached, sides, windows = self._reachable(
                        completions, turn, steps, None, snaps, snap_steps, out_of_reach,
                        anchors, now, pan_turns=pan_turns, stood_still=stood_still,
                        walk=walk)
                    sides = {board: frozenset({None}) for board in reached}
                return reached, sides, windows

            reached, sides, windows = {}, {}, {}
            if player is None and is_toa_board(completions[0]):
                # before the spot is learnt: a step a moment ago was onto a plate the
                # player now stands on, which the body covers; a step onto a plate read
                # in this frame explains it only when no step onto a covered one does
                reached, sides, windows = explain(out_of_reach | _cells_read(reading))
            if not reached:
                reached, sides, windows = explain(out_of_reach)
            if standing is not None:
                on_it = {board: last for board, last in reached.items()
                         if None in last or standing in last}
                reached = on_it or reached
            elif player is not None and cell_at(player, completions[0], ON_A_PLATE_RADIUS):
                # the body on a plate's middle has entered it: a board that took no step
                # since the player was seen off every plate explains nothing
                stepped = {board: last for board, last in reached.items()
                           if last != frozenset({LEFT})}
                reached = stepped or reached
        # no history, or none that explains this frame: the frame alone decides
        self.restarted = not reached
        if not reached:
            reached = {board: frozenset({None}) for board in completions}
            sides = {board: frozenset({landmark}) for board in completions}
        if player is not None:
            reached = {board: _still_on(last, player, board, reach)
                       for board, last in reached.items()}
        self._belief = reached
        self._sides = {board: sides[board] for board in reached}
        self._step_window = {board: windows.get(board) for board in reached}
        self._geometry = reading.geometry
        self._missed = 0
        self._now = now
        return self._inference(reading)

    def steps_within(self, seconds: float | None) -> int:
        """The most steps a transition of ``seconds`` may hold: :attr:`max_steps`, and one
        more per :data:`SECONDS_PER_STEP`. A time not known (None, or not finite) is a gap
        of any length: as many steps as can change the board at all (every board the
        grid's steps reach is admitted; :meth:`_step_deltas` lists no more)."""
        if seconds is None or not math.isfinite(seconds):
            return UNBOUNDED_STEPS
        return self.max_steps + int(max(seconds, 0.0) // SECONDS_PER_STEP)

    def _clock_after(self, seconds: float | None) -> float | None:
        """This reading's time on the history's clock: 0 for a session's first reading,
        the last one's plus ``seconds`` after it, None once a time is not known."""
        if not self._belief:
            return 0.0
        if self._now is None or seconds is None or not math.isfinite(seconds):
            return None
        return self._now + max(seconds, 0.0)

    @staticmethod
    def _may_be_snapped(reading: Reading) -> bool:
        """Whether this view could be a snap's: a snap looks along the room's axes
        (:data:`CARDINAL_TOLERANCE_DEG`). A view between them came by a smooth turn, whose
        quarter turns of the labels are known, when the readings are a frame apart; a
        view without a geometry rules nothing out."""
        geometry = reading.geometry
        return geometry is None or off_cardinal_deg(geometry) <= CARDINAL_TOLERANCE_DEG

    def _turn(self, reading: Reading) -> int:
        """The quarter turns of a smooth camera turn since the last reading."""
        if reading.geometry is None or self._geometry is None:
            return 0
        if np.array_equal(reading.geometry.homography, self._geometry.homography):
            return 0  # a still view, read at the same corners (most frames)
        return quarter_turns_between(self._geometry, reading.geometry)

    def _still_turns(self, board: Board,
                     anchors: tuple[tuple[float, float], tuple[float, float]] | None,
                     seconds: float | None, steps: int) -> frozenset[int] | None:
        """The quarter turns of the labels through which the floor under the player's spot
        has not moved since the last reading (within :data:`STILL_TOLERANCE`); None when
        that cannot be told (no anchors, no time between, or time enough for unseen
        steps). When the smooth turn is one of them, the player stood still: no step (a
        step is entering a plate), and no snap but these (a snap turns the camera about
        the player). A wrong spot only makes a turn or zoom look like a move (the floor
        under any spot stays put when the camera does), never a move look still."""
        if anchors is None or steps > self.max_steps:
            return None
        before, now = anchors
        tolerance = min(STILL_TOLERANCE, 0.5 * WALK_GRID_UNITS_PER_SECOND * max(seconds, 0.0))
        turns = range(4) if board.rows == board.cols else range(1)
        return frozenset(t for t in turns
                         if math.dist(turn_point(before, board.rows, t), now) <= tolerance)

    def _compatible(self, board: Board) -> bool:
        before = next(iter(self._belief))
        return (before.k, before.objective) == (board.k, board.objective) and sorted(
            before.shape
        ) == sorted(board.shape)

    @staticmethod
    def _anchored_pan_turns(board: Board,
                            anchors: tuple[tuple[float, float], tuple[float, float]],
                            pan_turns: frozenset[int] | None, most: float) -> frozenset[int]:
        """``pan_turns`` narrowed to the quarter turns of the labels through which the floor
        under the player's spot (``anchors``) moved by ``most`` at most (:func:`pan_bound`):
        a snap of the camera about a player on a corner plate must not pass for a step
        onto the plate beside it, taken with a pan of two plates in a tenth of a second."""
        before, now = anchors
        turns = range(4) if board.rows == board.cols else range(1)
        near = frozenset(t for t in turns
                         if math.dist(turn_point(before, board.rows, t), now) <= most)
        return near if pan_turns is None else pan_turns & near

    def _reachable(
        self,
        completions: tuple[Board, ...],
        smooth_turn: int,
        steps: int,
        landmark: tuple[int, int] | None = None,
        snaps: frozenset[int] | None = None,
        snap_steps: int = 0,
        out_of_reach: frozenset = frozenset(),
        anchors: tuple[tuple[float, float], tuple[float, float]] | None = None,
        now: float | None = None,
        room_turns: frozenset[int] | None = None,
        pan_turns: frozenset[int] | None = None,
        stood_still: bool = False,
        walk: tuple[tuple[tuple[float, float], tuple[float, float]], float] | None = None,
    ) -> tuple[dict[Board, frozenset], dict[Board, frozenset], dict[Board, float | None]]:
        """The completions some board of the belief reaches: by the smooth turn and up to
        ``steps`` steps, or by any other quarter turn (a snap) and up to ``snap_steps``
        (those of the time beyond its own frame). When the landmark is seen by this reading
        and was by an earlier one, only the turns that carry it from the side it had on a board
        of the belief (carried through the turns that explained that board since) to the
        side seen now explain a completion from that board, smooth or snapped (the statue
        seen two frames ago, hidden by a team-mate in the last, still tells a snap from a
        step). ``snaps``: the snaps still possible (None: any). Returns the completions kept
        and, per completion, the landmark's possible sides.

        Each completion kept comes with the cells its last step may have been onto, in
        this reading's labels: kept from the board it was reached from without a step,
        the cell stepped on when one step explains it, not known (None) past one step.

        ``out_of_reach``: cells no single step of this transition was onto, when it allows
        one step (:func:`_out_of_reach`); with more time between, they are not used.
        ``anchors`` (as for :meth:`update`): nor a cell the player moved away from
        (:data:`AWAY_TOLERANCE`). ``now``: this reading's time on the history's clock
        (None: not known); a board whose last step was seen less than
        :data:`STEP_SPACING_SECONDS` before it explains nothing by another step. Returns
        also, per completion kept, when its last step's transition began (the window the
        next step is measured from; None when no step was seen or the time is not known).
        ``room_turns``, ``pan_turns``: only these quarter turns explain anything (None:
        any). ``walk``: the floor under the player's spot in the last reading's labels and
        in this one's, and the most tiles walked between: a step is entering a plate, so
        the steps of a turn of the labels are the plates of a walk that long from the
        one point (turned) to the other (:func:`_walkable_deltas`). ``stood_still``: the
        player stood still through this transition
        (:meth:`_still_turns`); then no snap explains a board whose player is on a cell
        off the grid's middle (:meth:`_on_a_cell_off_the_middle`).
        """
        deltas = self._step_deltas(completions[0], steps)
        if deltas is None:
            return {}, {}, {}  # too many unseen steps: anything is possible, the frame decides
        snap_deltas = self._step_deltas(completions[0], snap_steps)
        turns = [(smooth_turn, deltas, steps)]
        if completions[0].rows == completions[0].cols:
            # (who hides which plate is no constraint here: a standing body hides the plate
            # behind it, and which plate that is changes with the view)
            turns += [(t, snap_deltas, snap_steps) for t in range(4)
                      if t != smooth_turn and (snaps is None or t in snaps)]
        # the belief turned as each explanation turns it: once, not per completion; the
        # landmark's sides carried with it
        explanations = []
        for turn, allowed, n in turns:
            if allowed is None or (room_turns is not None and turn not in room_turns) \
                    or (pan_turns is not None and turn not in pan_turns):
                continue
            if walk is not None:
                (start, end), budget = walk
                allowed = allowed & _walkable_deltas(
                    completions[0], turn_point(start, completions[0].rows, turn), end, budget)
            for before in self._belief:
                if stood_still and turn != smooth_turn \
                        and self._on_a_cell_off_the_middle(before, now):
                    continue  # a snap about that player would have moved the view
                carried = frozenset(None if side is None else turn_side(side, turn)
                                    for side in self._sides.get(before, {None}))
                if landmark is not None and None not in carried and landmark not in carried:
                    continue  # this turn takes the landmark elsewhere than it is seen
                turned = turn_board(before, turn)
                if turned.shape != completions[0].shape or not np.array_equal(
                        turned.present, completions[0].present):
                    continue  # (a grid that is not square, turned a quarter)
                explanations.append((turned.states[turned.present].astype(np.int64), before,
                                     turn, allowed, n, carried))
        kept: dict[Board, frozenset] = {}
        sides: dict[Board, frozenset] = {}
        windows: dict[Board, float | None] = {}
        for candidate in completions:
            flat = candidate.states[candidate.present].astype(np.int64)
            last: set = set()
            seen: set = set()
            starts: list[float | None] = []
            for turned, before, turn, allowed, n, carried in explanations:
                delta = (flat - turned) % candidate.k
                stepped = bool(delta.any())
                if stepped and self._too_soon(before, now):
                    continue
                if delta.tobytes() in allowed:
                    after = self._last_steps_after(candidate, delta, before, turn, n,
                                                   out_of_reach, anchors)
                    if after:
                        last |= after
                        seen |= carried
                        starts.append(self._now if stepped
                                      else self._step_window.get(before))
            if last:
                kept[candidate] = frozenset(last)
                sides[candidate] = frozenset({landmark}) if landmark is not None \
                    else frozenset(seen)
                # the most the next step may be allowed: unknown beats any time, an
                # earlier window a later one
                windows[candidate] = None if None in starts else min(starts)
        return kept, sides, windows

    def _on_a_cell_off_the_middle(self, before: Board, now: float | None) -> bool:
        """Whether the player of ``before`` stands on the cell its last step was onto, and
        that cell is not the grid's middle: the step was seen less than a game tick ago
        (counted from the reading before its transition), and the body on screen reaches
        a plate no sooner than the plate toggles, so it cannot have walked on since to
        rest anywhere else (the next tile is a tick's run further).

        Why: a snap turns the camera about the player, and a view that stayed put through
        a quarter turn has the player on the one point every quarter turn fixes, the grid's
        middle. Before the spot where the camera keeps the player is learnt, a still view
        along the room's axes otherwise lets a snap turn the labels (half a turn: the
        plates hidden at the top and bottom of the screen swapped), and the frames after
        a step stay undecided."""
        window = self._step_window.get(before)
        if window is None or now is None or now - window >= GAME_TICK_SECONDS:
            return False
        middle = ((before.rows - 1) / 2, (before.cols - 1) / 2)
        return all(isinstance(cell, tuple) and cell != middle for cell in self._belief[before])

    def _too_soon(self, before: Board, now: float | None) -> bool:
        """Whether a step from ``before`` now would follow its last step by less than
        :data:`STEP_SPACING_SECONDS` (counted from the reading before that step's
        transition, the earliest it can have been)."""
        window = self._step_window.get(before)
        return window is not None and now is not None and now - window < STEP_SPACING_SECONDS

    def _last_steps_after(self, candidate: Board, delta: np.ndarray, before: Board,
                          turn: int, steps: int, out_of_reach: frozenset = frozenset(),
                          anchors: tuple[tuple[float, float], tuple[float, float]] | None
                          = None) -> set:
        """The cells the last step may have been onto, for ``candidate`` reached from
        ``before`` (turned ``turn`` quarters) by ``delta`` within ``steps`` steps; empty
        when no step the player can have taken explains it (one step of a transition a
        moment long onto a cell out of view, :meth:`_reachable`)."""
        if not delta.any():  # no step: the last one is the board before's, relabelled
            return {cell if cell in (None, LEFT) else turn_cell(cell, before.shape, turn)
                    for cell in self._belief[before]}
        if steps == 1:
            cells = set(_stepped_cells(candidate, delta)) - out_of_reach
            return cells - _left_behind(cells, anchors, candidate, turn)
        return {None}

    def _step_deltas(self, board: Board, steps: int) -> frozenset[bytes] | None:
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
        single = _press_effects(board)[1]
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

    def _inference(self, reading: Reading) -> Inference:
        belief = self.belief
        hidden = reading.hidden
        if len(belief) == 1:
            return Inference(belief[0], belief, inferred=hidden)
        undecided = tuple(
            cell for cell in hidden if len({int(b.states[cell]) for b in belief}) > 1
        )
        inferred = tuple(cell for cell in hidden if cell not in undecided)
        return Inference(None, belief, inferred=inferred, undecided=undecided)


def _press_effects(board: Board) -> tuple[list[tuple[int, int]], np.ndarray]:
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


def _walkable_deltas(board: Board, start: tuple[float, float], end: tuple[float, float],
                     budget: float) -> frozenset[bytes]:
    """Every change (as :meth:`BoardHistory._step_deltas` gives them) that a walk of at
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
    cells, effects = _press_effects(board)
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


def _stepped_cells(board: Board, delta: np.ndarray) -> list[tuple[int, int]]:
    """The cells one step onto which changes the present cells by ``delta`` (mod k)."""
    cells, effects = _press_effects(board)
    return [cell for cell, effect in zip(cells, effects, strict=True)
            if np.array_equal(effect, delta)]


def _out_of_reach(board: Board, reading: Reading,
                  player: tuple[float, float] | None) -> frozenset:
    """The cells a step taken a moment ago cannot have been onto: the player entered that
    plate a tenth of a second ago and the camera keeps the player in the middle of its
    view, so it is in the picture (``reading.outside`` are not; a low, close camera leaves
    a whole row of three out), and, once the spot is learnt (``player``: the grid point
    under it), within :data:`STEP_REACH` of the player."""
    far = set(reading.outside)
    if player is not None:
        x, y = player
        far.update((r, c) for r, c in _press_effects(board)[0]
                   if math.hypot(x - c, y - r) > STEP_REACH)
    return frozenset(far)


def _cells_read(reading: Reading) -> frozenset:
    """The cells this reading read (a cell outside the picture is hidden too)."""
    return frozenset((tile.row, tile.col) for tile in reading.tiles if not tile.hidden)


def _left_behind(cells: set, anchors: tuple[tuple[float, float], tuple[float, float]] | None,
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


def _still_on(last: frozenset, player: tuple[float, float], board: Board,
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
    near = {(r, c) for r, c in _press_effects(board)[0] if math.hypot(x - c, y - r) <= reach}
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


def turn_cell(cell: tuple[int, int], shape: tuple[int, int], turns: int) -> tuple[int, int]:
    """A cell (row, column) of a grid of ``shape`` relabelled as :func:`turn_board`
    relabels the cells (numpy's rot90, so a grid that is not square too)."""
    marker = np.zeros(shape, bool)
    marker[cell] = True
    r, c = np.argwhere(np.rot90(marker, turns))[0]
    return int(r), int(c)


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
