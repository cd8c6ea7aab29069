"""How the camera moved between two views of the ring: the one module for camera motion.

The game's camera follows the player: it pans as the player walks, turns, pitches and
zooms about the player, and the compass snaps it to look along one of the room's axes.
The live session tells these apart from the ring's place on the window in successive
readings; everything that measures such a motion is here:

- the labels' quarter turns between two readings (:func:`quarter_turns_between`), how
  far off the room's axes a view looks (:func:`off_cardinal_deg`), the quarter turns a
  pan of a following camera allows (:func:`turns_within_pan`), and relabelling sides,
  points, cells and boards by quarter turns (``turn_*``);
- where on the floor a turn or zoom pivoted (:func:`camera_pivot`; the player stands
  there);
- from frame to frame, how far the view's corners moved and whether it stayed put
  (:class:`ViewMotion`), whether a pitch kept a row put (:meth:`ViewMotion.keeps_its_row`)
  and whether a plate stayed put on the floor through a turn or zoom
  (:func:`plate_pinned`).

Qt-free and screen-free: geometries and points in, numbers out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from assistant.puzzle import TOA_PLATES, Board
from assistant.vision.geometry import GridGeometry, geometry_from_corners

__all__ = [
    "CARDINAL_TOLERANCE_DEG",
    "MAX_PAN",
    "MIN_PIVOT_MOTION",
    "MIN_SIMILAR",
    "PAN_FRAME_SECONDS",
    "VIEW_MOVED_PX",
    "Pivot",
    "ViewMotion",
    "camera_pivot",
    "floor_under_place",
    "off_cardinal_deg",
    "pan_bound",
    "plate_pinned",
    "quarter_turns_between",
    "turn_board",
    "turn_cell",
    "turn_free",
    "turn_point",
    "turn_side",
    "turns_within_pan",
]

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
#: a place a spacing beside a still hidden plate that moved at most this part of a
#: spacing (or 2 px) kept its row put with it: a pitch, which tells no spot
#: (:meth:`ViewMotion.keeps_its_row`)
ROW_KEPT_SPACINGS = 0.1
#: ... while the places a spacing above and below it moved this many times as far (a
#: zoom or a turn about the player moves places across and up and down alike)
PITCH_OVER_ACROSS = 3.0
#: A hidden plate pins the spot before any step was seen when the ring's farthest moved
#: plate moved this many spacings or more on the floor through a turn or zoom and the
#: hidden plate by at most this share of that (:func:`plate_pinned`)
PINNED_RING_MOVE = 0.3
PINNED_SHARE = 0.1
#: ... and after a step, for a plate a body may hide from behind (another hidden plate
#: just below it): the player stands on a plate's middle, any other plate moves by a third
#: of the farthest one's move or more, so a zoom of a few percent tells (a zoom of a few
#: percent moved the ring 0.21 of a spacing and the player's plate 0.00)
PINNED_RING_MOVE_AFTER_A_STEP = 0.1
PINNED_SHARE_AFTER_A_STEP = 0.2
#: The view's corners moved by more than this (pixels) since the frame before: the camera
#: moved, and the spot's samples after it come from another view (:meth:`ViewMotion.note`).
VIEW_MOVED_PX = 4.0
#: The ring's corner cells in the order of :meth:`GridGeometry.corners` (the view's corners).
_CORNER_CELLS = ((0, 0), (0, 2), (2, 2), (2, 0))

#: The smallest turn or zoom that places its pivot well: the floor around the pivot moves
#: by this share of its distance from it (2 sin(θ/2) for a turn θ, |s - 1| for a zoom s):
#: 0.12 is a turn of 7° or a zoom of 12%. Less, and a few pixels of the reader's error
#: move the pivot by a good part of a spacing (the live loop then finds it off a tile's
#: middle and leaves it).
MIN_PIVOT_MOTION = 0.12
#: ... and moves alike in every direction (the smaller of the two over the larger): a
#: pitch moves the floor along one direction only (0 across it), a turn or zoom alike.
MIN_SIMILAR = 0.6
#: Newton steps toward the pivot (the map is projective: exact after a few).
_STEPS = 8
_TINY = 1e-9
#: the pivot's neighbours the map's derivative is taken at (grid units)
_EPS = 1e-3
_PROBES = np.array([[0.0, 0.0], [_EPS, 0.0], [0.0, _EPS]])



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




def turn_cell(cell: tuple[int, int], shape: tuple[int, int], turns: int) -> tuple[int, int]:
    """A cell (row, column) of a grid of ``shape`` relabelled as :func:`turn_board`
    relabels the cells (numpy's rot90, so a grid that is not square too)."""
    marker = np.zeros(shape, bool)
    marker[cell] = True
    r, c = np.argwhere(np.rot90(marker, turns))[0]
    return int(r), int(c)


@lru_cache(maxsize=256)
def turn_free(board: Board) -> str:
    """The board's text the same under every quarter turn of its labels: the camera turning
    relabels the cells on screen, which is no new board (the marks follow at once)."""
    if board.rows != board.cols:
        return board.format()
    return min(turn_board(board, turns).format() for turns in range(4))



@dataclass(frozen=True)
class Pivot:
    """A turn or zoom's pivot: ``floor`` in the later reading's labels (x = column, y =
    row, plates at whole numbers), ``screen`` its place on the later grab (the reading's
    pixels), ``motion`` and ``similar`` as :data:`MIN_PIVOT_MOTION` and
    :data:`MIN_SIMILAR` measure them."""

    floor: tuple[float, float]
    screen: tuple[float, float]
    motion: float
    similar: float


def camera_pivot(before: GridGeometry, now: GridGeometry,
                 shift: tuple[float, float] = (0.0, 0.0)) -> Pivot | None:
    """The floor point two readings of a 3×3 grid show at one place, when the camera
    turned or zoomed about it between them; None when it panned or pitched, or moved too
    little to tell. ``shift``: where the later reading's pixel (0, 0) lies in the earlier
    one's pixels (the grabs' offsets differ). The labels' quarter turn between the two is
    :func:`quarter_turns_between`'s (the camera turned less than 45°; a compass snap of a
    quarter turn looks like a smaller turn about another point, the caller's guard)."""
    back = (4 - quarter_turns_between(before, now)) % 4  # now's labels -> before's
    size = now.cols
    offset = np.asarray(shift, np.float64)

    def mismatch(points: np.ndarray) -> np.ndarray:
        """Where the earlier view shows what the later one shows at ``points`` (its
        floor), less where those floor points lie in the earlier labels."""
        shown = before.to_grid(now.to_image(points) + offset)
        labelled = np.array([turn_point(tuple(p), size, back) for p in points])
        return shown - labelled

    point = np.array([(size - 1) / 2, (size - 1) / 2], np.float64)
    jacobian = np.eye(2)
    for _ in range(_STEPS):
        probes = point + _PROBES
        values = mismatch(probes)
        jacobian = np.column_stack([(values[1] - values[0]) / _EPS,
                                    (values[2] - values[0]) / _EPS])
        if abs(np.linalg.det(jacobian)) < _TINY:
            return None
        step = np.linalg.solve(jacobian, values[0])
        point = point - step
        if not np.all(np.isfinite(point)) or np.hypot(*point) > 1e3:
            return None
        if np.hypot(*step) < 1e-6:
            break
    singular = np.linalg.svd(jacobian, compute_uv=False)
    motion, similar = float(singular.min()), float(singular.min() / max(singular.max(), _TINY))
    if motion < MIN_PIVOT_MOTION or similar < MIN_SIMILAR:
        return None
    if np.hypot(*mismatch(point[None])[0]) > 1e-3:
        return None  # no fixed point (Newton did not settle)
    x, y = now.to_image(point[None])[0]
    return Pivot((float(point[0]), float(point[1])), (float(x), float(y)), motion, similar)


class ViewMotion:
    """How far the ring's view moved on the window since the frame before, frame by frame.

    ``corners`` are the ring's corner plates on the captured area (pixels) in the last
    frame with the ring read, ``corners_before`` those of the frame before it; ``shift``
    is how far they moved between the two (None without a view before), ``still``
    whether they stayed put (the player stands still), ``moved_before`` whether the view
    had moved into the frame before, and ``views`` counts the camera's views so far (one
    more each time it moved, :data:`VIEW_MOVED_PX`)."""

    def __init__(self) -> None:
        self.corners: np.ndarray | None = None
        self.corners_seen: np.ndarray | None = None  # per corner: read, not hidden
        self.corners_before: np.ndarray | None = None
        self.shift: float | None = None
        self.moved_before = True  # the view moved into the frame before (or none was)
        self.still = False
        self.views = 0

    @property
    def camera_moved(self) -> bool:
        """Whether the view moved by more than :data:`VIEW_MOVED_PX` into this frame."""
        return self.shift is not None and self.shift > VIEW_MOVED_PX

    def note(self, view: np.ndarray | None, hidden: tuple[tuple[int, int], ...] = ()) -> None:
        """Take this frame's view (its corners on the area; None: no ring read, which
        forgets the view).

        The move is measured on the corner plates read in both frames (``hidden``: the
        cells the reader hid in this one), when two are: a hidden corner's place is only
        the fit's guess, and a fit on five plates at a steep camera put one 6 px from the
        last frame's guess while the camera stood still. That counted as the camera
        turning about a team-mate's plate, which was then trusted as the player's spot."""
        if view is None:
            self.corners, self.shift, self.still = None, None, False
            self.moved_before = True
            self.corners_seen, self.corners_before = None, None
            return
        seen = np.array([cell not in hidden for cell in _CORNER_CELLS])
        before, self.corners = self.corners, view
        self.corners_before = before
        seen_before, self.corners_seen = self.corners_seen, seen
        self.moved_before = self.shift is None or self.shift > VIEW_MOVED_PX
        if before is None:
            self.shift = None
        else:
            both = seen & seen_before if seen_before is not None else seen
            moved = np.abs(view - before).max(axis=1)
            self.shift = float((moved[both] if both.sum() >= 2 else moved).max())
        self.still = self.shift is not None and self.shift <= 1.5
        if self.shift is None or self.shift > VIEW_MOVED_PX:
            self.views += 1

    def keeps_its_row(self, here: np.ndarray, spacing: float) -> bool:
        """Whether the view's motion since the frame before kept the places a spacing to
        either side of ``here`` put too. A camera pitching about the player turns the view
        about the floor's line through the player, across the screen: a team-mate's plate
        on that line, beside the player's at the same height, stays put through the pitch
        as the player's does, so such a sample does not single out the player (without
        this, a team-mate's plate sampled at a pitch was trusted as the spot, and the steps
        told again from it showed a wrong answer). A turn or a zoom about
        the player keeps no other place put."""
        if self.corners_before is None or self.corners is None:
            return False
        try:  # the floor as the view before and this one show it (the corners name both)
            before = geometry_from_corners(3, 3, self.corners_before)
            now = geometry_from_corners(3, 3, self.corners)
        except ValueError:
            return False
        # beside it across the screen, and above and below it: a zoom or a turn moves
        # both pairs alike, a pitch the pair across far less than the pair up and down
        probes = here + np.array([[-spacing, 0.0], [spacing, 0.0],
                                  [0.0, -spacing], [0.0, spacing]])
        moved = np.hypot(*(now.to_image(before.to_grid(probes)) - probes).T)
        across, up_down = moved[:2].max(), moved[2:].max()
        return bool(across <= max(2.0, ROW_KEPT_SPACINGS * spacing)
                    and up_down >= PITCH_OVER_ACROSS * across)


def plate_pinned(cell: tuple[int, int], before: GridGeometry, before_offset: tuple[int, int],
                 geometry: GridGeometry, offset: tuple[int, int], *,
                 after_a_step: bool = False) -> bool:
    """Whether a hidden plate that stayed put on the window through a turn or zoom of
    the camera stands where the camera keeps the player, even before a step has been
    seen (the history may not tell the session's first step from none when its
    plate's neighbours were hidden before it: they change unseen; and the spot it
    needs is learnt only from a step told). ``before`` and ``before_offset``: the ring's
    view a frame before and its grab's offset; ``geometry`` and ``offset``: this one's.
    Measured on the floor as the frame before
    showed it (a steep camera foreshortens what moves up the screen): the ring's
    plates moved by :data:`PINNED_RING_MOVE` of a spacing or more and the plate by at
    most :data:`PINNED_SHARE` of that. A turn or zoom moves each floor point in
    proportion to its distance from the player, and before the first step the player
    is on the floor between plates, 0.35 of a spacing or more from any plate's middle
    (half a spacing but across a plate's corner) with the farthest plate at most 2.5
    spacings further on (0.14 of its move); a pan moves every plate alike. Not after
    a view along the room's axes came from one that was not: a compass snap, whose
    turn about the player the labels' quarter turns may show as a smaller one about
    another point. ``after_a_step``: the player stands on a plate's middle, so any
    other plate lies a spacing or more from the turn's fixed point and moves by a
    third of the farthest plate's move or more: a smaller move of the ring tells
    (:data:`PINNED_RING_MOVE_AFTER_A_STEP`)."""
    if off_cardinal_deg(geometry) <= CARDINAL_TOLERANCE_DEG \
            < off_cardinal_deg(before):
        return False
    back = (4 - quarter_turns_between(before, geometry)) % 4  # now's labels -> before's
    ring = np.array([(c, r) for r, c in TOA_PLATES], np.float64)
    shown = geometry.to_image(ring) + np.array(offset, np.float64) \
        - np.array(before_offset, np.float64)
    moved_to = before.to_grid(shown)  # where each plate shows, on the floor before
    stayed = np.array([turn_point(tuple(point), 3, back) for point in ring])
    moves = np.hypot(*(moved_to - stayed).T)
    ring_move = float(moves.max())
    plate_move = float(moves[TOA_PLATES.index(cell)])
    if after_a_step:
        return ring_move >= PINNED_RING_MOVE_AFTER_A_STEP \
            and plate_move <= PINNED_SHARE_AFTER_A_STEP * ring_move
    return ring_move >= PINNED_RING_MOVE and plate_move <= PINNED_SHARE * ring_move


def floor_under_place(place: tuple[float, float], geometry: GridGeometry,
                      offset: tuple[int, int]) -> tuple[float, float]:
    """The grid point under a place of the captured area (such as where the camera keeps
    the player), in a reading made on a grab at ``offset`` in it."""
    x, y = geometry.to_grid(np.array([[place[0] - offset[0], place[1] - offset[1]]]))[0]
    return float(x), float(y)
