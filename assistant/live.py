"""The live loop without Qt: window -> frame -> reading -> solution -> marks on screen.

Each :meth:`LiveLoop.tick` is one frame. Everything it returns is plain data (a
:class:`LiveState`), so the loop runs the same in the capture worker, in the tests and in
the benchmark. Marks are polygons in physical screen pixels, projected through the
reading's homography (ellipses on an oblique camera) and confined to the annulus the
reader never samples (:data:`assistant.vision.geometry.MARK_INNER_RADIUS` and
``MARK_OUTER_RADIUS``), so the overlay cannot change the next reading.

A plate with someone standing on it (the player after every step) is hidden from the
reader; :class:`assistant.inference.BoardHistory` fills it in from the frames before.
When it cannot, only the presses every possible board agrees on are marked as certain;
the others are marked ``certain=False`` and the status says what the hidden plate decides.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import NamedTuple

import numpy as np

from assistant.camera_pivot import camera_pivot
from assistant.capture import (
    Grabber,
    Rect,
    WindowBackend,
    WindowInfo,
    blank_frame_reason,
    find_window,
)
from assistant.inference import (
    CARDINAL_TOLERANCE_DEG,
    BoardHistory,
    Inference,
    cell_at,
    common_presses,
    off_cardinal_deg,
    pan_bound,
    quarter_turns_between,
    turn_board,
    turn_point,
    turn_side,
    turns_within_pan,
)
from assistant.profile import Profile, toa_default_profile
from assistant.puzzle import TOA_PLATES, Board
from assistant.route import Route, RouteError, Tile, is_toa_board, plan_route
from assistant.route_overlay import (
    RouteMarks,
    entrance_near,
    entrance_opposite,
    hides_from_behind,
    player_place,
    route_marks,
    tile_point,
)
from assistant.solver import solve
from assistant.vision.geometry import (
    MARK_INNER_RADIUS,
    MARK_OUTER_RADIUS,
    GridGeometry,
    geometry_from_corners,
)
from assistant.vision.locate import (
    LAST_VIEW_AGREEMENT,
    MIN_DIAMONDS_AFTER_LAST_VIEW,
    agrees_with_last_view,
    plate_in_the_middle,
    ring_in_place,
    same_places,
    whole_diamonds,
)
from assistant.vision.reader import (
    MAX_HIDDEN_IN_SESSION,
    Reading,
    follow_frame,
    leaves_a_corner_unread,
    read_frame,
)
from assistant.vision.statue import statue_side
from assistant.vision.surroundings import RoomBand, room_band, turns_between
from assistant.vision.trace import TraceStep, apart, note, recording

__all__ = ["LiveLoop", "LiveReader", "LiveState", "Mark", "Stabilizer", "plan_marks"]

log = logging.getLogger(__name__)

#: Frames a new reading must persist before it is shown (no flicker).
STABLE_FRAMES = 2
#: A ring followed from the last view that hides this many plates or more is searched for
#: afresh too, and the fresh reading taken when it hides only some of them
#: (:meth:`LiveReader._fresh_if_more_read`)
FRESH_SEARCH_HIDING = 3
#: Auto-located rings are checked at least this often (frames) to be where their corners
#: place them (a camera creeping away without changing the board read), and searched for
#: again when they are not.
RELOCATE_EVERY = 30
#: The search on five diamonds (:data:`assistant.vision.locate.MIN_DIAMONDS_AFTER_LAST_VIEW`)
#: goes on for this many searches after one found the ring (about a second at the loop's
#: 10 fps), no longer: it costs two searches on six (about 50 ms on a 1920x1080 frame), and
#: a puzzle gone from view for good would pay it on every frame. After them, the fresh
#: search itself goes on to five diamonds (LiveReader._no_ring_lately), through the gold
#: it found.
FIVE_DIAMOND_SEARCHES = 10
#: Seconds without a reading after which the ring's last view is forgotten: the next
#: room is searched afresh, not followed from where the last one was (another raid's
#: puzzle, minutes later; a follow of that view fitted a ring on the wrong plates).
FORGET_VIEW_SECONDS = 5.0
#: a place a spacing beside a still hidden plate that moved at most this part of a
#: spacing (or 2 px) kept its row put with it: a pitch, which tells no spot (_keeps_its_row)
ROW_KEPT_SPACINGS = 0.1
#: ... while the places a spacing above and below it moved this many times as far (a
#: zoom or a turn about the player moves places across and up and down alike)
PITCH_OVER_ACROSS = 3.0
#: Samples of where the camera draws the player kept (plates hidden in still views).
SPOT_SAMPLES_KEPT = 40
#: How near a sample of the spot another of the same place lies, in plate spacings.
SPOT_NEAR_SPACINGS = 0.3
#: How far up the screen a standing body hides the floor behind it, in plate spacings:
#: its height seen from the steepest camera (68 degrees from straight down), with room
#: for a tall figure and a raised weapon (a spacing is two tiles, a body about two tall).
BODY_SHADOW_SPACINGS = 2.0
#: A hidden plate pins the spot before any step was seen when the ring's farthest moved
#: plate moved this many spacings or more on the floor through a turn or zoom and the
#: hidden plate by at most this share of that (LiveLoop._pinned)
PINNED_RING_MOVE = 0.3
PINNED_SHARE = 0.1
#: ... and after a step, for a plate a body may hide from behind (another hidden plate
#: just below it): the player stands on a plate's middle, any other plate moves by a third
#: of the farthest one's move or more, so a zoom of a few percent tells (a zoom of a few
#: percent moved the ring 0.21 of a spacing and the player's plate 0.00)
PINNED_RING_MOVE_AFTER_A_STEP = 0.1
PINNED_SHARE_AFTER_A_STEP = 0.2
#: A turn or zoom's pivot (assistant.camera_pivot) is where the player stands only on a
#: floor tile's middle (tiles are half a spacing): within this many spacings of one, and
#: within this many spacings of the ring's middle (the room around the plates); the tile
#: is then the sample (LiveLoop._learn_pivot). Drawn and screenshot rooms at 55-68°: a
#: pivot lies 0.01-0.12 of a spacing from the player, 0.34 at worst (three plates hidden,
#: a zoom of 16%: 0.19 off a tile's middle, so left out)
PIVOT_ON_TILE_SPACINGS = 0.1
PIVOT_IN_ROOM_SPACINGS = 2.5
#: The view's corners moved by more than this (pixels) since the frame before: the camera
#: moved, and the spot's samples after it come from another view (_note_view).
VIEW_MOVED_PX = 4.0
#: The view's corners within this (pixels) of the kept room band's view: the same view and
#: labels, whose band is not sampled again (:meth:`LiveLoop._room_band`; a tracked read
#: places the corners where the search did, to the pixel).
SAME_VIEW_PX = 0.5
#: The ring's corner cells in the order of :meth:`GridGeometry.corners` (the view's corners).
_CORNER_CELLS = ((0, 0), (0, 2), (2, 2), (2, 0))
#: Readings kept to tell the history again once the spot is trusted (:meth:`_replay`):
#: a session's first steps, about ten seconds of the live loop at 10 fps.
SESSION_LOG_KEPT = 100
#: All windows are listed this often (frames); in between only the target is re-read.
RELIST_EVERY = 10


@dataclass(frozen=True)
class Mark:
    """One cell to press: ``outer`` and ``inner`` polygons (N, 2) in physical screen
    pixels bound the annulus to paint; ``count`` is how many presses (1 for two states).
    ``certain`` is False for a press that a hidden cell's state decides (drawn apart)."""

    row: int
    col: int
    count: int
    centre: tuple[float, float]
    outer: np.ndarray = field(repr=False)
    inner: np.ndarray = field(repr=False)
    certain: bool = True


@dataclass(frozen=True)
class LiveState:
    """What the assistant shows for one frame.

    ``kind`` is one of ``steps``, ``solved``, ``unsolvable``, ``uncertain`` (a hidden
    plate decides part of the answer), ``no-puzzle``, ``no-window``, ``minimized``,
    ``blank``, ``error``, ``unsupported``; ``status`` is the sentence for the player;
    ``window`` the captured area in physical screen pixels. ``hidden`` are the cells
    someone stands on, ``inferred`` those of them the history filled in (then ``board``
    holds them), ``undecided`` those it could not (then ``board`` is ``None`` and
    ``candidates`` lists the boards still possible). Cells count from 0.

    ToA boards with steps also carry the walk: ``player`` is the plate the player stands
    on (None off the grid), ``route`` the clicks from there (None when the route is
    switched off) and ``route_marks`` its picture for the overlay.
    """

    kind: str
    status: str
    marks: tuple[Mark, ...] = ()
    board: Board | None = None
    presses: np.ndarray | None = None
    window: Rect | None = None
    reading: Reading | None = None
    hidden: tuple[tuple[int, int], ...] = ()
    inferred: tuple[tuple[int, int], ...] = ()
    undecided: tuple[tuple[int, int], ...] = ()
    candidates: tuple[Board, ...] = ()
    player: tuple[int, int] | None = None
    route: Route | None = None
    route_marks: RouteMarks | None = None
    #: where (physical screen pixels) the frame the reading was made on starts: a point
    #: of the reading's geometry plus ``origin`` is on the screen (None without a reading)
    origin: tuple[int, int] | None = None
    #: the board is the session history's, which explained this frame from the boards
    #: before it (not started again from this frame alone): see :class:`Stabilizer`
    continued: bool = False

    @cached_property
    def key(self) -> tuple:
        """What must stay the same for two frames before a change is shown: the board (or
        the boards still possible) where there is one, else the sentence. Wording that
        changes with the hidden plates alone does not restart the count. Computed once
        per state (the stabiliser asks every frame)."""
        if self.board is not None:
            return (self.kind, _turn_free(self.board))
        if self.candidates:
            return (self.kind, tuple(sorted(_turn_free(b) for b in self.candidates)))
        # no board: the kind alone (successive abstentions give different reasons, and a
        # reason that kept changing would keep old marks on screen)
        return (self.kind,)


@lru_cache(maxsize=256)
def _turn_free(board: Board) -> str:
    """The board's text the same under every quarter turn of its labels: the camera turning
    relabels the cells on screen, which is no new board (the marks follow at once)."""
    if board.rows != board.cols:
        return board.format()
    return min(turn_board(board, turns).format() for turns in range(4))


def plan_marks(
    geometry: GridGeometry,
    presses: np.ndarray,
    origin: tuple[int, int],
    undecided: np.ndarray | None = None,
) -> tuple[Mark, ...]:
    """Marks for every cell with a non-zero press count, offset by the capture origin, and
    ``certain=False`` marks for every cell where ``undecided`` is True."""
    ox, oy = origin
    marks = []
    offset = np.array([ox, oy], dtype=np.float64)
    cells = [(int(r), int(c), True) for r, c in np.argwhere(presses > 0)]
    if undecided is not None:
        cells += [(int(r), int(c), False) for r, c in np.argwhere(undecided)]
    for r, c, certain in cells:
        cx, cy = geometry.cell_centre(r, c)
        marks.append(
            Mark(
                r,
                c,
                int(presses[r, c]) if certain else 0,
                (cx + ox, cy + oy),
                geometry.circle(r, c, MARK_OUTER_RADIUS) + offset,
                geometry.circle(r, c, MARK_INNER_RADIUS) + offset,
                certain,
            )
        )
    return tuple(marks)


class Stabilizer:
    """Shows a new state once it differs from the shown one ``frames`` times in a row (a
    one-frame glitch is never shown); until then the shown state stays. So the picture on
    screen lags the observations by at most ``frames - 1`` frames, even when they keep
    changing (a step, then the camera turning): old marks never linger longer than that.

    While a change is held back, the shown state's marks are left out when the new
    observation puts their plates elsewhere on screen (the camera followed a step): a
    mark off its plate tells the player nothing, and where the capture holds the overlay
    (X11, Windows before 10 2004) it would lie over the moved plates where the reader
    samples them, and make the next frame's reading unsure too.
    """

    def __init__(self, frames: int = STABLE_FRAMES) -> None:
        self.frames = frames
        self._shown: LiveState | None = None
        self._differs = 0

    def push(self, state: LiveState) -> LiveState:
        if self._shown is not None and state.key == self._shown.key:
            self._differs = 0
            self._shown = state  # same content: follow the window and the camera at once
            return state
        self._differs += 1
        if self._differs >= self.frames or (self._shown is None and self.frames <= 1) \
                or _back_from_blank(self._shown, state):
            self._shown = state
            self._differs = 0
        if self._shown is None:
            return _WAITING
        if self._shown is not state and _marks_moved(self._shown, state):
            return replace(self._shown, marks=(), route_marks=None)
        return self._shown

    @property
    def shown(self) -> LiveState | None:
        return self._shown


_WAITING = LiveState("no-puzzle", "Looking for the puzzle…")


def _back_from_blank(shown: LiveState | None, observed: LiveState) -> bool:
    """Whether ``observed`` is shown at once: the overlay is blank because the reader
    lost the ring for frames of a session (not at its start), and this frame's board is
    certain and follows from the boards the session saw before (the history explained
    it; it did not start again from this frame alone).

    Why: at a steep camera with bodies on the plates, the reader can miss every other
    frame; each reading was then held back a frame and each miss blanked the overlay
    again, so the right board, read every other frame, was never shown. A one-frame
    misread is what holding back guards against, and one the history explains is no
    glitch of a single picture: it agrees with every frame the session saw."""
    return (shown is not None and shown.kind == "no-puzzle" and observed.continued
            and observed.board is not None)


def _marks_moved(shown: LiveState, observed: LiveState) -> bool:
    """Whether ``observed``, a reading held back, puts a plate ``shown`` marks elsewhere on
    screen: its centre more than the gap between a mark's inner edge and the area the
    reader samples (``MARK_INNER_RADIUS - SAMPLE_RADIUS`` spacings, geometry.py) from the
    mark's. A turned camera relabels the plates: the same labels then lie elsewhere
    too. Without a reading nothing tells where the plates went (the marks stay)."""
    reading = observed.reading
    if not shown.marks or reading is None or reading.abstain or observed.origin is None:
        return False
    geometry = reading.geometry
    ox, oy = observed.origin
    for mark in shown.marks:  # (one loop has one profile: every mark's cell is in this grid)
        x, y = geometry.cell_centre(mark.row, mark.col)
        allowed = (geometry.mark_radii_px(mark.row, mark.col)[0]
                   - geometry.sample_radius_px(mark.row, mark.col))
        if np.hypot(x + ox - mark.centre[0], y + oy - mark.centre[1]) > allowed:
            return True
    return False


class LiveReader:
    """Reads successive frames of one window cheaply.

    Once the grid's corners are known (from a calibrated profile, or auto-located once),
    only the region around the grid is grabbed (:meth:`region`) and read at those
    corners, a calibrated read of a few milliseconds. Auto-located corners are checked by
    locating again, on a grab of the whole window, whenever the read abstains or its board
    changes, and whenever the check every :data:`RELOCATE_EVERY` frames finds a diamond
    off its place, so camera moves are followed.
    Plates the search could not see (someone stands on them) stay hidden in the tracked
    reads until one shows its whole diamond again; it is then read at the same corners.
    Corners are kept relative to the captured window area, so moving the window costs
    nothing.
    """

    def __init__(self, profile: Profile | None = None, *, track: bool = True) -> None:
        self.profile = profile or toa_default_profile()
        self.track = track  # False: locate on the whole window every frame (the baseline)
        self._fixed = self.profile.corners is not None
        self._corners = np.array(self.profile.corners, np.float64) if self._fixed else None
        self._since_locate = 0
        self._last_board: str | None = None
        self._window_size: tuple[int, int] | None = None
        # where the ring was last seen, kept through abstentions: the camera follows the
        # player, so the ring is found again from there (follow_frame)
        self._last_seen: GridGeometry | None = None
        #: where the camera keeps the player in the window area (pixels), once the live
        #: loop trusts it: a pitch turns the camera about that place (follow_frame)
        self.spot: tuple[float, float] | None = None
        # ... placed from plates on every side of the ring, or that view moved rigidly (a
        # corner and both its neighbours unread leave it placed there by the others
        # alone: it is not moved rigidly)
        self._last_seen_sure = True
        # searches since one found the ring (read, or too covered to read: a crowd at the
        # start of a session), None before any: while it is about, a search on five
        # diamonds may go on (FIVE_DIAMOND_SEARCHES)
        self._searches_since_found: int | None = None
        #: searches of the whole window so far (a fresh locate, then following the ring
        #: from where it was last seen): the costly part of a frame, counted for the
        #: benchmarks (a camera change should cost at most one)
        self.relocations = 0
        # the cells the last search did not read (hidden), kept hidden by reads at its
        # corners
        self._set_aside: tuple[tuple[int, int], ...] = ()
        # ... those of them still to check for a whole diamond (_freed)
        self._recheck: tuple[tuple[int, int], ...] = ()
        #: the frame the last reading was made on (its geometry's pixels): the grab
        #: passed in, or the whole window grabbed to locate the grid again
        self.frame_read: np.ndarray | None = None

    @property
    def fixed(self) -> bool:
        """The corners are the player's calibration: the view read never moves."""
        return self._fixed

    def region(self, width: int, height: int) -> Rect | None:
        """The part of a ``width`` x ``height`` window area to grab (relative to it), or
        None for all of it. A changed window size forgets auto-located corners."""
        if self._window_size != (width, height) and not self._fixed:
            self._corners = None
            self._last_seen = None
            self._searches_since_found = None
        self._window_size = (width, height)
        if self._corners is None or (not self.track and not self._fixed):
            return None
        grid = self.profile.grid
        tl, tr, _, bl = self._corners
        spacing = max(
            np.linalg.norm(tr - tl) / max(grid.cols - 1, 1),
            np.linalg.norm(bl - tl) / max(grid.rows - 1, 1),
        )
        low = np.floor(self._corners.min(axis=0) - spacing)
        high = np.ceil(self._corners.max(axis=0) + spacing)
        left, top = max(0, int(low[0])), max(0, int(low[1]))
        right, bottom = min(width, int(high[0])), min(height, int(high[1]))
        if right - left < 16 or bottom - top < 16:
            return None
        return Rect(left, top, right - left, bottom - top)

    def read(
        self, frame: np.ndarray, offset: tuple[int, int], grab_all: Callable[[], np.ndarray]
    ) -> tuple[Reading, tuple[int, int]]:
        """Read ``frame``, grabbed at ``offset`` in the window area; ``grab_all`` gives the
        whole area when the grid must be located. Returns the reading and the offset of
        the frame it was made on (its geometry is relative to that frame)."""
        self.frame_read = frame
        if self._fixed:
            return read_frame(frame, self._at(offset), max_hidden=MAX_HIDDEN_IN_SESSION), offset
        if self._corners is None or (offset == (0, 0) and frame.shape[:2] == self._full_shape()):
            return self._locate(frame if offset == (0, 0) else grab_all())
        self._since_locate += 1
        reading = self._tracked_read(frame, offset)
        # a changed board or hidden set: a step, or the camera moved under the old corners
        if reading.abstain or reading.board_text != self._last_board:
            return self._locate_or_keep(frame, offset, reading, grab_all)
        if self._since_locate >= RELOCATE_EVERY:
            # now and then: has the camera crept away under the corners with the board
            # read the same? The diamonds seen are checked where the corners place them,
            # on this grab; only when one has moved is the ring searched for again
            seen = tuple((tile.row, tile.col) for tile in reading.tiles if not tile.hidden)
            if reading.geometry is None or not ring_in_place(frame, reading.geometry, seen):
                return self._locate(grab_all())
            self._since_locate = 0
        # a plate set aside shows its whole diamond again: whatever covered it has gone,
        # and the view is the same (the board read at the corners is), so it is read at
        # the same corners, no search needed
        freed = self._freed(frame, reading)
        if freed:
            self._set_aside = tuple(c for c in self._set_aside if c not in freed)
            self._recheck = tuple(c for c in self._recheck if c not in freed)
            reading = self._tracked_read(frame, offset)
            if reading.abstain:
                return self._locate(grab_all())
            self._last_board = reading.board_text
        return reading, offset

    def _confirmed_by_last_view(self, frame: np.ndarray, reading: Reading) -> Reading:
        """``reading``, a fresh search's that placed the ring on six diamonds but had more
        plates partly covered than such a ring may hide (three): when its placement
        agrees with the last view moved on the floor
        (:func:`assistant.vision.locate.agrees_with_last_view`), it is no squashed
        lattice, and it is read at its corners with up to four hidden, the plates it did
        not match set aside. ``reading`` otherwise.

        Why: a player and a team-mate on or beside the plates at a steep camera cover
        two plates and part of two more; such frames after a step were blank."""
        geometry = reading.geometry
        if geometry is None or len(reading.unmatched) != 2:
            return reading
        if not agrees_with_last_view(frame, self._last_seen, geometry):
            return reading
        if plate_in_the_middle(frame, geometry):
            # the last view moved by a whole plate agrees too: six gold blobs (four
            # plates, the way-in arrow on the border, a figure's gold) placed the ring a
            # row off, its middle on a covered plate, its far row on the border tiles
            return reading
        confirmed = read_frame(frame, self.profile.with_corners(geometry.corners()),
                               max_hidden=MAX_HIDDEN_IN_SESSION, set_aside=reading.unmatched)
        return reading if confirmed.abstain else confirmed

    def _locate_or_keep(
        self, frame: np.ndarray, offset: tuple[int, int], tracked: Reading,
        grab_all: Callable[[], np.ndarray],
    ) -> tuple[Reading, tuple[int, int]]:
        """Search again after a tracked read that abstained or read something new; when
        the search finds nothing but the tracked read did, and every plate it read shows
        its diamond where the corners place it, the view has not moved: the tracked
        reading stands, at the same corners.

        Why: a team-mate walking over the plates of a still view can cover one plate more
        than a search may leave hidden on the diamonds it has left (a ring fitted to six
        hides at most three), while the corners, placed when fewer were covered, still
        place every plate; the frames went blank until the team-mate moved on. A camera
        that moved fails the check (its diamonds are off their old places), and a plate
        the old corners put on the plain floor makes the tracked read abstain."""
        corners, set_aside, recheck = self._corners, self._set_aside, self._recheck
        located, at = self._locate(grab_all())
        if not located.abstain or tracked.abstain or tracked.geometry is None:
            return located, at
        seen = tuple((tile.row, tile.col) for tile in tracked.tiles if not tile.hidden)
        if not ring_in_place(frame, tracked.geometry, seen):
            return located, at
        self._corners, self._set_aside, self._recheck = corners, set_aside, recheck
        self._last_board = tracked.board_text
        self.frame_read = frame
        kept = TraceStep("keep", "the search found nothing; every plate the tracked read "
                         "read shows its diamond at its corners: the view has not moved")
        return replace(tracked, trace=(*located.trace, kept, *tracked.trace)), offset

    def _freed(self, frame: np.ndarray, reading: Reading) -> tuple[tuple[int, int], ...]:
        """The set-aside plates that show a whole diamond in this tracked frame (each is
        checked until it is freed or the next search)."""
        if not self._recheck or reading.geometry is None:
            return ()
        whole = whole_diamonds(frame, reading.geometry, self._recheck)
        return tuple(cell for cell, free in zip(self._recheck, whole, strict=True) if free)

    def _tracked_read(self, frame: np.ndarray, offset: tuple[int, int]) -> Reading:
        """A read at the corners the locator found, as careful as the locator: the plates
        it set aside stay hidden, and a plate with something over part of it is hidden."""
        reading = read_frame(frame, self._at(offset), max_hidden=MAX_HIDDEN_IN_SESSION,
                             set_aside=self._set_aside)
        return replace(reading, trace=(TraceStep("track", "read at the corners the last "
                                                 "search placed"), *reading.trace))

    def _full_shape(self) -> tuple[int, int] | None:
        return None if self._window_size is None else self._window_size[::-1]

    def _at(self, offset: tuple[int, int]) -> Profile:
        return self.profile.with_corners(self._corners - np.array(offset, np.float64))

    def forget_last_view(self) -> None:
        """Search the next frame afresh, as at a session's start: where the ring was last
        seen says nothing about a view long after (the loop's FORGET_VIEW_SECONDS)."""
        self._last_seen = None
        self._last_seen_sure = True
        self._searches_since_found = None
        if not self._fixed:
            self._corners = None

    def _fresh_if_more_read(self, frame: np.ndarray, followed: Reading) -> Reading:
        """``followed``, a reading of the ring followed from the last view, or a fresh
        search's of the same ring when that hides only some of the plates it hides.

        Why: a follow sets aside every plate whose diamond is not whole where the moved
        ring puts it, and the reads at its corners keep them hidden; a player on a corner
        plate at a steep camera covers part of both its neighbours, and with all three
        of the step's plates hidden the step went undecided until the player walked on.
        A fresh search reads a neighbour from the part of its diamond that shows. Asked
        only when the follow hides three plates or more (a step onto a corner at a steep
        camera; a crowd), so a frame costs at most one search more."""
        if followed.abstain or followed.geometry is None \
                or len(followed.hidden) < FRESH_SEARCH_HIDING:
            return followed
        fresh = read_frame(frame, self.profile, max_hidden=MAX_HIDDEN_IN_SESSION)
        if fresh.abstain or fresh.geometry is None \
                or not set(fresh.hidden) < set(followed.hidden) \
                or not same_places(fresh.geometry.homography, followed.geometry.homography,
                                   LAST_VIEW_AGREEMENT):
            return followed
        return fresh

    def _no_ring_lately(self) -> bool:
        """Whether no search found the ring in the last :data:`FIVE_DIAMOND_SEARCHES`.

        Why: a session starts with the player at the way in and team-mates about the
        plates; at a steep camera and 125-150% display scaling three of them hid three
        diamonds in whole sessions' first frames, and the overlay stayed blank until the
        player stepped. Then the fresh search goes on to five diamonds, on the gold blobs
        it has found (no second pass over the picture: on a 1920x1080 frame out of view,
        8.4 ms against 8.3), and the lattice must show the plates' frames about most of
        its places. Found a moment ago, a five-diamond search comes later instead, after
        the last view was followed."""
        return (self._searches_since_found is None
                or self._searches_since_found >= FIVE_DIAMOND_SEARCHES)

    def _locate(self, frame: np.ndarray) -> tuple[Reading, tuple[int, int]]:
        """Search the whole frame for the ring: the searches below in order, each tried
        only while none has read it. The reading's trace holds every search tried, what
        each of them decided and which one answered."""
        with recording() as steps:
            reading, source = self._search(frame)
            note("search", f"answered by {source}" if source else "no search read the ring")
        return replace(reading, trace=tuple(steps)), (0, 0)

    def _search(self, frame: np.ndarray) -> tuple[Reading, str | None]:
        """The searches of :meth:`_locate`: the reading and the name of the search that
        read it (None when none did)."""
        self.frame_read = frame
        self._since_locate = 0
        self.relocations += 1
        source = None

        def tried(name: str, attempt: Reading) -> bool:
            note("search", f"{name}: " + ("read" if not attempt.abstain
                                          else f"abstained ({attempt.reason})"))
            return not attempt.abstain
        # from where the ring was last seen first: the camera follows the player, so the
        # floor has mostly shifted, and following it costs a quarter of a fresh search
        # and keeps the plates' labels; a turn or zoom it cannot follow is searched afresh
        reading = None
        if self._last_seen is not None:
            reading = follow_frame(frame, self._last_seen, self.profile,
                                   previous_sure=self._last_seen_sure)
            followed = reading
            reading = self._fresh_if_more_read(frame, reading)
            if tried("the last view followed", followed):
                source = ("a fresh search (it hides fewer plates than the follow)"
                          if reading is not followed else "the last view followed")
        if reading is None or reading.abstain:
            # no ring found a moment ago (a session's first frames, the room come back
            # into view): on five diamonds too, if not six (_no_ring_lately)
            fewer = MIN_DIAMONDS_AFTER_LAST_VIEW if self._no_ring_lately() else None
            reading = read_frame(frame, self.profile, max_hidden=MAX_HIDDEN_IN_SESSION,
                                 fewer_diamonds=fewer)
            name = "a fresh search" + (" (on five diamonds too)" if fewer else "")
            source = name if tried(name, reading) else None
        if reading.abstain and self._last_seen is not None:
            # the camera turned or zoomed about the player, and bodies leave a fresh search
            # too few diamonds: the ring turned or scaled on the floor last seen (a fresh
            # search, when it works, reads more plates: it is tried first)
            turned = follow_frame(frame, self._last_seen, self.profile, turned=True,
                                  zoomed=True, previous_sure=self._last_seen_sure)
            if tried("the last view turned or zoomed", turned):
                reading, source = turned, "the last view turned or zoomed"
        if (reading.abstain and not reading.found and not self._no_ring_lately()):
            # the camera pitched about the player (no motion of the last view on the floor
            # places that ring), and his gold clothes and a team-mate's have merged three
            # diamonds with their bodies: a search on the five left (after the last view
            # was followed; with no ring found lately, the fresh search went on to five)
            pitched = read_frame(frame, self.profile, max_hidden=MAX_HIDDEN_IN_SESSION,
                                 diamonds_needed=MIN_DIAMONDS_AFTER_LAST_VIEW)
            if tried("a search on five diamonds", pitched):
                reading, source = pitched, "a search on five diamonds"
        if reading.abstain and self._last_seen is not None and self.spot is not None:
            # the camera pitched about the player: no motion of the floor reproduces the
            # tilt, but the last view's camera turned about its horizontal axis does, and
            # it needs only four diamonds (a close zoom with the bottom row under the chat
            # panel and the player on a plate)
            pitched = follow_frame(frame, self._last_seen, self.profile,
                                   previous_sure=self._last_seen_sure, pitched_about=self.spot)
            if tried("the last view pitched about the player", pitched):
                reading, source = pitched, "the last view pitched about the player"
        if reading.abstain and reading.found and self._last_seen is not None:
            reading = self._confirmed_by_last_view(frame, reading)
            if tried("the found ring confirmed by the last view", reading):
                source = "the found ring confirmed by the last view"
        if reading.abstain and self._last_seen is not None and self._last_seen_sure:
            # the last view moved rigidly, with a fifth plate hidden: the bottom row under
            # the chat panel at a close zoom, the player on one plate and a statue or a
            # team-mate over another leave three plates to read, which still tell the
            # step (only now: where more can be read, more is)
            more = follow_frame(frame, self._last_seen, self.profile, hide_more=True)
            if tried("the last view moved rigidly, a fifth plate hidden", more):
                reading, source = more, "the last view moved rigidly, a fifth plate hidden"
        if reading.abstain:
            # nothing read the ring: a team-mate's weapon across two plates may have
            # joined their diamonds to each other and to his body (a far, steep view
            # with team-mates on the plates), so search once more with thin strokes cut
            # away, on five diamonds if not six, as the searches before it went; only a
            # reading is taken (pieces of figures are candidates in this search)
            cut = read_frame(frame, self.profile, max_hidden=MAX_HIDDEN_IN_SESSION,
                             fewer_diamonds=MIN_DIAMONDS_AFTER_LAST_VIEW, cut_strokes=True)
            if tried("a search with thin strokes cut away", cut):
                reading, source = cut, "a search with thin strokes cut away"
        if reading.found:
            self._searches_since_found = 0
        elif self._searches_since_found is not None:
            self._searches_since_found += 1
        if reading.found and not reading.abstain and reading.corners is not None:
            self._corners = np.array(reading.corners, np.float64)
            self._last_seen = reading.geometry
            self._last_seen_sure = (reading.moved_rigidly
                                    or not leaves_a_corner_unread(reading.hidden))
            # the next frames are read at these corners, which may read a plate the search
            # set aside (or the other way round): compare them with such a read of this
            # frame, or an unchanged view would cost a second search
            self._set_aside = reading.hidden
            self._recheck = reading.hidden
            with apart():
                tracked = self._tracked_read(frame, (0, 0))
            self._last_board = reading.board_text if tracked.abstain else tracked.board_text
        else:
            self._corners = None
            self._last_board = None
        return reading, source


class _GrabFailed(Exception):
    """A grab inside the reader (locating the grid again) failed; ``__cause__`` says why."""


class LiveLoop:
    """One frame at a time: find the window, grab it, read, solve, stabilise.

    ``objective`` overrides the profile's (the player's setting for the ToA room).
    ``grabber`` must be used only from the thread that calls :meth:`tick`.
    """

    def __init__(
        self,
        backend: WindowBackend,
        grabber: Grabber,
        title_pattern: str,
        profile: Profile | None = None,
        objective: int | None = None,
        *,
        exclude_titles: tuple[str, ...] = (),
        stable_frames: int = STABLE_FRAMES,
        track: bool = True,
        show_route: bool = True,
        crossing_steps: bool = True,
        clock: Callable[[], float | None] = time.monotonic,
    ) -> None:
        self.backend = backend
        self.clock = clock  # seconds; the time between readings bounds the steps between
        # (the time of their pictures' grabs: _read_frame_grabbed_at); None: not known
        self._last_reading_at: float | None = None
        self._whole_grab: tuple[np.ndarray, float] | None = None  # the reader's, if any
        self.show_route = show_route
        self.crossing_steps = crossing_steps
        self.grabber = grabber
        self.title_pattern = title_pattern
        self.reader = LiveReader(profile, track=track)
        self.objective = objective
        self.exclude_titles = exclude_titles
        self.stabilizer = Stabilizer(stable_frames)
        self.history = BoardHistory()
        self.last_observed: LiveState | None = None
        #: told of every frame (:meth:`assistant.recorder.FlightRecorder.attach`), or None
        self.recorder = None
        self.failures = 0
        self._window: WindowInfo | None = None
        self._since_listing = 0
        self._solutions: dict[Board, object] = {}
        self._marks_key: tuple | None = None
        self._marks: tuple[Mark, ...] = ()
        self._route_key: tuple | None = None
        # where on the captured area (physical pixels from its corner) the camera draws
        # the player: samples of still hidden plates, for an area of this size (_learn_spot),
        # and the spot they give (_spot), None until a sample changes it
        self._spot_samples: deque[tuple[float, float, int, float, int]] = deque(
            maxlen=SPOT_SAMPLES_KEPT)  # (x, y, view, how near counts as the same place,
        # 1 when the rest of the ring moved meanwhile)
        self._spot_size: tuple[int, int] | None = None
        self._spot_cache: tuple[float, float] | None = None
        # the spot has samples from two views, or one that stayed put while the camera
        # moved (only the player's plate does): _player_anchors may use it
        self._spot_trusted = False
        # the last reading's grid and offset, for the anchor before (_player_anchors)
        self._anchor_view: tuple[GridGeometry, tuple[int, int]] | None = None
        self._last_hidden: list[np.ndarray] = []  # where plates were hidden a frame before
        # the ring's view a frame before, and its grab's offset (_pinned)
        self._pinning_view: tuple[GridGeometry, tuple[int, int]] | None = None
        self._route: dict = {}
        # the side of the plates the statue stands on (vision.statue.STATUE_SIDES), in the
        # labels of the geometry it was last carried to, and that geometry (_follow_statue)
        self._statue: tuple[int, int] | None = None
        self._statue_geometry: GridGeometry | None = None
        # the view (its corners on the area, as bytes) the statue was last looked for in,
        # and the side seen there with all four sides in view (_statue_seen)
        self._statue_sighting: tuple[bytes | None, tuple[int, int] | None] = (None, None)
        # the boards possible a reading before, and whether a step has been seen: the
        # spot is learnt only from plates the player stood on after a step (_learn_spot)
        self._boards_before: frozenset[str] | None = None
        self._stepped = False
        # the view's corners a frame before (area pixels), how far they moved since
        # (None without a view before) and whether they stayed put (_note_view), and the
        # spot assumed from the way in until one is learnt (_spot_at_way_in)
        self._last_corners: np.ndarray | None = None
        self._last_corners_seen: np.ndarray | None = None  # per corner: read, not hidden
        self._view_shift: float | None = None
        self._moved_before = True  # the view moved into the frame before (or none was)
        # a turn or zoom's pivot waiting for a still frame after it (_learn_pivot):
        # (x, y, how near counts as the same place) on the area
        self._pending_pivot: tuple[float, float, float] | None = None
        # the view's corners in the frame before this one (for _keeps_its_row)
        self._corners_before: np.ndarray | None = None
        self._still = False
        self._way_in_spot: tuple[float, float] | None = None
        # views of the camera so far: one more each time it moved (_note_view); the spot's
        # samples are counted per view (_learn_spot)
        self._camera_views = 0
        # what the history was told since its frame alone last decided, until the spot is
        # trusted (_replay); None: not kept until the history's frame alone decides again
        self._session_log: list[_Told] | None = []
        # the view (corners on the area) and the room around the ring there
        # (_keep_room_band) of the last reading the history took
        self._room_before: tuple[np.ndarray, RoomBand] | None = None

    def tick(self) -> LiveState:
        self.last_observed = self.observe()
        shown = self.stabilizer.push(self.last_observed)
        if self.recorder is not None:
            self.recorder.frame_done(self, self.last_observed, shown)
        return shown

    @property
    def window(self) -> WindowInfo | None:
        """The window the last frame found (None when none matched)."""
        return self._window

    def observe(self) -> LiveState:
        """The unstabilised state of this frame."""
        problem = self.backend.unavailable()
        if problem:
            return LiveState("unsupported", problem)
        window = self._find()
        if window is None:
            return LiveState(
                "no-window", f"No game window: no window title matches “{self.title_pattern}”."
            )
        if window.minimized:
            return LiveState("minimized", "The game window is minimized.", window=window.rect)
        area = self._capture_area(window)
        if area.empty:
            return LiveState("blank", "The game window has no visible area.", window=area)
        try:
            visible = area.intersect(self.grabber.desktop())
        except Exception as error:
            return LiveState("error", f"The screen cannot be read ({error.__class__.__name__}).")
        if visible.empty:
            return LiveState("blank", "The game window is off the screen.", window=area)
        area = visible  # a window partly off screen: read what can be seen
        region = self.reader.region(area.width, area.height)
        grab_area = area if region is None else region.offset(area.left, area.top)
        grabbed_at = self.clock()
        try:
            frame = self.grabber.grab(grab_area)
        except Exception as error:  # mss raises its own errors; keep going, say so
            return self._grab_failed(grab_area, area, error)
        offset = (0, 0) if region is None else (region.left, region.top)
        try:
            state = self.process(frame, area, offset, lambda: self._grab_whole(area),
                                 grabbed_at)
        except _GrabFailed as failed:
            return self._grab_failed(area, area, failed.__cause__)
        self.failures = 0
        return state

    def _grab_failed(self, grab_area: Rect, area: Rect, error: BaseException) -> LiveState:
        self.failures += 1
        log.warning("grab of %s failed (%d in a row): %s", grab_area, self.failures, error)
        return LiveState(
            "error",
            f"Could not capture the game window ({error.__class__.__name__}); retrying.",
            window=area,
        )

    def _grab_whole(self, area: Rect) -> np.ndarray:
        """The whole area, for the reader to locate the grid again; a failure here is a
        failed grab like any other (the soak run found it escaping the loop)."""
        grabbed_at = self.clock()
        try:
            whole = self.grabber.grab(area)
        except Exception as error:
            raise _GrabFailed from error
        self._whole_grab = (whole, grabbed_at)
        return whole

    def process(
        self,
        frame: np.ndarray,
        area: Rect,
        offset: tuple[int, int] = (0, 0),
        grab_all: Callable[[], np.ndarray] | None = None,
        grabbed_at: float | None = None,
    ) -> LiveState:
        """Reading, solution and marks for one frame grabbed at ``offset`` inside ``area``
        (``grab_all`` grabs the whole area when the grid must be located again) at
        ``grabbed_at`` on the loop's clock (None: just now; the clock itself answers None
        for a frame whose time is not known, such as a picture without a capture time)."""
        if grabbed_at is None:
            grabbed_at = self.clock()
        self._whole_grab = None
        blank = blank_frame_reason(frame)
        if blank:
            return LiveState("blank", blank, window=area)
        if self._last_reading_at is not None and grabbed_at is not None \
                and grabbed_at - self._last_reading_at > FORGET_VIEW_SECONDS:
            self.reader.forget_last_view()
        spot = self._spot(area)  # computed again only when a sample was added
        self.reader.spot = spot if self._spot_trusted else None
        read, offset = self.reader.read(frame, offset, grab_all or (lambda: frame))
        view = self._view_corners(read, offset)  # None when the reading abstains
        reading = self._players_plate_hidden(read, view, area, offset)
        now = self._read_frame_grabbed_at(grabbed_at)
        # None: not known (the first reading, or a frame without a time): a gap of any length
        since = None if self._last_reading_at is None or now is None \
            else now - self._last_reading_at
        self._note_view(view, read.hidden)
        # (from the plates the reader itself found hidden: the plate hidden under a spot
        # learnt wrong must not teach that spot again)
        trusted_before = self._spot_trusted
        self._learn_spot(read, view, area, offset)
        landmark = self._statue_seen(reading, view)
        band = self._room_band(read, view)
        room_turns = None if band is None or self._room_before is None \
            else turns_between(self._room_before[1], band)
        pan_turns = self._pan_turns(read, view, area, offset, since)
        told = _Told(read, since, landmark, read.geometry if view is not None else None,
                     area, offset, room_turns, pan_turns)
        if self._trusted_spot(area) and not trusted_before and self._session_log and all(
                (logged.area.width, logged.area.height) == (area.width, area.height)
                for logged in self._session_log):
            inference = self._replay(told)
        else:
            inference = self.history.update(reading, since, landmark,
                                            self._player_anchors(reading, view, area, offset),
                                            self._player_point(reading, view, area, offset),
                                            room_turns, pan_turns)
            self._log_reading(told)
        if inference is not None:
            self._last_reading_at = now
            self._keep_room_band(view, band)
        origin = (area.left + offset[0], area.top + offset[1])
        self._note_step(inference)
        if inference is None:
            return LiveState(
                "no-puzzle", reading.reason or "Puzzle not in view.", window=area,
                reading=reading, origin=origin,
            )
        if not inference.certain:
            return self._uncertain(reading, inference, area, origin)
        board = self._with_objective(inference.board)
        solution = self._solve(board)
        known = {"hidden": reading.hidden, "inferred": inference.inferred, "origin": origin,
                 "continued": not self.history.restarted}
        if not solution.solvable:
            return LiveState(
                "unsolvable",
                f"No solution: {solution.reason}",
                board=board,
                window=area,
                reading=reading,
                **known,
            )
        if solution.total_presses == 0:
            return LiveState(
                "solved",
                "All lit." if board.k == 2 and board.objective == 1 else "Solved.",
                board=board,
                presses=solution.presses,
                window=area,
                reading=reading,
                **known,
            )
        key = (reading.geometry.homography.tobytes(), origin, board)
        if self._marks_key != key:  # same grid, place and board: the same marks
            self._marks = plan_marks(reading.geometry, solution.presses, origin)
            self._marks_key = key
        marks = self._marks
        plates = len(marks)
        noun = "plate" if plates == 1 else "plates"
        status = f"Puzzle found: step on {plates} {noun}."
        if board.k > 2:
            status = f"Puzzle found: {solution.total_presses} presses on {plates} cells."
        if inference.inferred:
            status += " " + _inferred_sentence(board, inference.inferred, reading.cell_noun,
                                               unclear=reading.unclear)
        walk = self._walk(reading, board, solution.presses, area, offset, origin)
        return LiveState("steps", status, marks, board, solution.presses, area, reading,
                         **known, **walk)

    def _read_frame_grabbed_at(self, grabbed_at: float) -> float:
        """When the picture this frame's reading was made on was grabbed: the grab of
        the whole window the reader asked for, when it read that one, else the frame's.

        Why: the time between readings bounds the steps taken in between, and it is the
        time between their pictures. Taken after reading instead, a slow read (a search
        through every fallback, 0.2 s of CPU, 0.8 s on a loaded PC) was counted against
        the next picture: grabbed at once after it, it seemed a moment after the one
        before, and the history allowed one step where the pictures were 0.8 s apart."""
        whole = self._whole_grab
        if whole is not None and self.reader.frame_read is whole[0]:
            return whole[1]
        return grabbed_at

    def _walk(
        self,
        reading: Reading,
        board: Board,
        presses: np.ndarray,
        area: Rect,
        offset: tuple[int, int],
        origin: tuple[int, int],
    ) -> dict:
        """``player``, ``route`` and ``route_marks`` for a ToA board with steps (empty
        for other boards): planned once per board, player and place, like the marks."""
        if not is_toa_board(board):
            return {}
        geometry = reading.geometry
        # the view's middle, in the pixels of the frame the reading was made on
        centre = (area.width / 2 - offset[0], area.height / 2 - offset[1])
        spot = self._spot(area)
        statue = self._follow_statue(geometry, reading.hidden) if spot is None else None
        way_in = None if statue is None else entrance_opposite(statue)
        if spot is None:
            spot = self._spot_at_way_in(geometry, offset, way_in)
        in_frame = None if spot is None else (spot[0] - offset[0], spot[1] - offset[1])
        # an unclear plate may have someone on it whose clothes pass the cover test: where
        # the player stands is told by a place that stays put, not by the verdict
        player, tile = player_place(geometry, list(reading.hidden), centre, in_frame)
        if (way_in is not None and player is not None and not self._stepped
                and hides_from_behind(geometry, way_in, player)):
            # before any step the player waits at the way in, and a body there hides the
            # plate behind it on screen: that plate is not where the player stands
            player, tile = None, None
        if not self.show_route:
            return {"player": player}
        start = tile or way_in or entrance_near(geometry, centre)
        key = (geometry.homography.tobytes(), origin, board, start, self.crossing_steps)
        if self._route_key != key:
            try:
                route = plan_route(presses, start, crossing_steps=self.crossing_steps)
            except RouteError as error:  # never on this floor (tested); marks still shown
                log.warning("no route: %s", error)
                self._route = {"player": player}
            else:
                self._route = {"player": player, "route": route,
                               "route_marks": route_marks(geometry, route, origin)}
            self._route_key = key
        return self._route

    @property
    def statue(self) -> tuple[int, int] | None:
        """The side of the plates the room's statue stands on, in the labels of the last
        reading with a route (seen there or carried there), or None when not known."""
        return self._statue

    def _spot_at_way_in(
        self, geometry: GridGeometry, offset: tuple[int, int], way_in: Tile | None
    ) -> tuple[float, float] | None:
        """Until the spot is learnt from a plate stood on: where the camera draws a player
        who waited at the way in (area pixels), fixed at the first still view with the
        way in known, before any step. The camera keeps the player there, so the floor
        tile under it follows the player's first walks, to a waypoint too, with the view;
        the way in is an assumption (ADR 60), and this only carries it along."""
        if self._way_in_spot is None and not self._stepped and way_in is not None \
                and self._still:
            x, y = geometry.to_image(np.array([tile_point(way_in)]))[0]
            self._way_in_spot = (float(x + offset[0]), float(y + offset[1]))
        return self._way_in_spot

    def _note_step(self, inference: Inference | None) -> None:
        """Whether a step has been seen: the boards possible now (whatever the camera's
        turn) share none with those of the frame before. A hidden plate seen again only
        narrows them; a step changes every one."""
        if inference is None:
            return
        boards = (inference.board,) if inference.board is not None else inference.candidates
        now = frozenset(_turn_free(board) for board in boards)
        if self._boards_before is not None and now.isdisjoint(self._boards_before):
            self._stepped = True
        self._boards_before = now

    def _view_corners(self, reading: Reading, offset: tuple[int, int]) -> np.ndarray | None:
        """The ring's corner plates on the captured area (pixels), which name the view;
        None without a ToA ring read in this frame."""
        geometry = reading.geometry
        if geometry is None or reading.abstain or not self.reader.profile.grid.is_toa_ring:
            return None
        return geometry.corners() + np.array(offset, np.float64)

    def _statue_seen(self, reading: Reading, view: np.ndarray | None) -> tuple[int, int] | None:
        """The statue's side as the frame read shows it, all four sides in view, in the
        reading's labels (for the history: it tells the labels' turn, a snap's too).
        Looked for once per view, on the first frame of it (a search's grab of the whole
        window): the tracked frames after it are read at the same corners, on a grab
        around the plates that the statue's side may leave."""
        if view is None:
            return None
        key = np.round(view, 1).tobytes()
        if self._statue_sighting[0] != key:
            frame = self.reader.frame_read
            side = None if frame is None else statue_side(
                frame, reading.geometry, all_sides=True, hidden=reading.hidden)
            self._statue_sighting = (key, side)
        return self._statue_sighting[1]

    def _follow_statue(self, geometry: GridGeometry,
                       hidden: tuple[tuple[int, int], ...] = ()) -> tuple[int, int] | None:
        """The side of the plates the statue stands on, in ``geometry``'s labels: seen in
        the frame read, or else carried from the last geometry it was known in through the
        camera's turn since (the statue leaves the grab around the plates, or someone
        stands in front of it, while the view moves). None until it has been seen, and
        again after a frame without the puzzle (the camera may have turned anyhow).

        Why: before the player has stood on a plate the route starts at the way in, the
        open side across from the statue; the ring alone looks the same from every side."""
        known = self._statue_geometry
        if known is not None and np.array_equal(known.homography, geometry.homography):
            return self._statue  # a still view: once per view, not per frame
        frame = self.reader.frame_read
        seen = None if frame is None else statue_side(frame, geometry, hidden=hidden)
        if seen is None and self._statue is not None and known is not None:
            seen = turn_side(self._statue, quarter_turns_between(known, geometry))
        self._statue, self._statue_geometry = seen, geometry
        return seen

    def _note_view(self, view: np.ndarray | None,
                   hidden: tuple[tuple[int, int], ...] = ()) -> None:
        """How far the view moved since the frame before, for :meth:`_learn_spot`, and
        whether it stayed put (the player stands still), for :meth:`_spot_at_way_in`; a
        frame without the ring forgets the view and the statue's side (the camera may have
        turned anyhow).

        The move is measured on the corner plates read in both frames (``hidden``: the
        cells the reader hid in this one), when two are: a hidden corner's place is only
        the fit's guess, and a fit on five plates at a steep camera put one 6 px from the
        last frame's guess while the camera stood still. That counted as the camera
        turning about a team-mate's plate, which was then trusted as the player's spot."""
        if view is None:
            self._statue, self._statue_geometry = None, None
            self._last_corners, self._view_shift, self._still = None, None, False
            self._moved_before = True
            self._last_corners_seen, self._corners_before = None, None
            return
        seen = np.array([cell not in hidden for cell in _CORNER_CELLS])
        before, self._last_corners = self._last_corners, view
        self._corners_before = before
        seen_before, self._last_corners_seen = self._last_corners_seen, seen
        self._moved_before = self._view_shift is None or self._view_shift > VIEW_MOVED_PX
        if before is None:
            self._view_shift = None
        else:
            both = seen & seen_before if seen_before is not None else seen
            moved = np.abs(view - before).max(axis=1)
            self._view_shift = float((moved[both] if both.sum() >= 2 else moved).max())
        self._still = self._view_shift is not None and self._view_shift <= 1.5
        if self._view_shift is None or self._view_shift > VIEW_MOVED_PX:
            self._camera_views += 1

    def _trusted_spot(self, area: Rect) -> bool:
        """Whether the spot where the camera keeps the player is trusted (it is computed
        again only when a sample was added)."""
        self._spot(area)
        return self._spot_trusted

    def _log_reading(self, told: _Told) -> None:
        """Keep what the history was told since its frame alone last decided, while the
        spot where the camera keeps the player is not trusted (:meth:`_replay`)."""
        if self.history.restarted:
            self._session_log = []
        if self._spot_trusted or self._session_log is None \
                or len(self._session_log) >= SESSION_LOG_KEPT:
            # nothing to replay, or too long: the log starts again at the next restart
            self._session_log = None
            return
        self._session_log.append(told)

    def _replay(self, now: _Told) -> Inference | None:
        """Tell the history again what it was told since its frame alone last decided,
        now with the spot: the session's first step is often onto a plate whose two
        neighbours were hidden too, and only where the player stood (off the plates at
        the way in, then on that plate, still) tells that it was a step. Returns this
        frame's inference."""
        entries = [*self._session_log, now]
        self._session_log = None
        self.history.reset()
        spot = self._spot(now.area)  # (every entry's area is of this size)
        before: tuple[GridGeometry, tuple[int, int]] | None = None
        inference = None
        for read, since, landmark, geometry, _area, offset, room_turns, pan_turns in entries:
            if geometry is None:
                inference = self.history.update(read, since, landmark, room_turns=room_turns)
                continue  # (no ring read: nothing tells a pan either)
            here = _under_spot(spot, geometry, offset)
            anchors = None if before is None else (_under_spot(spot, *before), here)
            before = (geometry, offset)
            inference = self.history.update(_with_plate_hidden_at(read, here), since,
                                            landmark, anchors, here, room_turns, pan_turns)
        if now.geometry is not None:
            self._anchor_view = (now.geometry, now.offset)
        return inference

    def _pan_turns(self, reading: Reading, view: np.ndarray | None, area: Rect,
                   offset: tuple[int, int], since: float | None) -> frozenset[int] | None:
        """The quarter turns of the labels since the last reading the history took
        (``since`` seconds ago) through which the floor under some place of the window
        moved little enough for a camera that follows the player
        (:func:`assistant.inference.turns_within_pan`); None when that tells nothing (no
        ring read now or then, no time between known, or corners a calibration fixed)."""
        if view is None or self._anchor_view is None or since is None or self.reader.fixed:
            return None
        before, before_offset = self._anchor_view
        if np.array_equal(before.homography, reading.geometry.homography) \
                and tuple(before_offset) == tuple(offset):
            return None  # a still view: every turn keeps some place (the ring's middle)
        allowed = turns_within_pan(before, reading.geometry, (area.width, area.height),
                                   before_offset, offset, pan_bound(since))
        return None if len(allowed) == 4 else allowed

    def _player_anchors(
        self, reading: Reading, view: np.ndarray | None, area: Rect, offset: tuple[int, int]
    ) -> tuple[tuple[float, float], tuple[float, float]] | None:
        """The grid point under the spot where the camera keeps the player, in the last
        reading's labels and in this one's, for the history to tell a snap's quarter
        turn. Until the spot is trusted (:meth:`_spot`), only a view that stayed put tells
        anything; None without a reading before. The spot is a place on the window, so
        the one learnt now serves the reading before as well."""
        if view is None:
            return None
        geometry = reading.geometry
        before, self._anchor_view = self._anchor_view, (geometry, offset)
        spot = self._spot(area)
        if before is None:
            return None
        if spot is None or not self._spot_trusted:
            if not self._still or self.reader.fixed:
                return None
            # the whole view stayed put (corners a calibration fixed tell nothing), so the
            # floor under every place of it did, under the player wherever the camera keeps
            # it too. The grid's middle stands for the spot not learnt yet: fixed by every
            # quarter turn, it rules out no snap.
            middle = ((geometry.cols - 1) / 2, (geometry.rows - 1) / 2)
            return middle, middle

        return _under_spot(spot, *before), _under_spot(spot, geometry, offset)

    def _player_point(self, reading: Reading, view: np.ndarray | None, area: Rect,
                      offset: tuple[int, int]) -> tuple[float, float] | None:
        """The grid point under the spot where the camera keeps the player, in this
        reading's labels, once the spot is trusted (None before, and without a ring read):
        a step a moment ago was near it (:data:`assistant.inference.STEP_REACH`)."""
        spot = self._spot(area)
        if view is None or spot is None or not self._spot_trusted:
            return None
        return _under_spot(spot, reading.geometry, offset)

    def _players_plate_hidden(self, reading: Reading, view: np.ndarray | None, area: Rect,
                              offset: tuple[int, int]) -> Reading:
        """``reading`` with the plate under the player hidden, once the spot where the camera
        keeps the player is trusted: a plate whose centre lies within
        :data:`assistant.inference.STANDING_RADIUS` of the floor under the spot
        (:meth:`_player_point`) has the player on it, and is not read whatever it shows
        (when one more hidden plate is allowed).

        Why: a player in olive-gold trousers, centred on a lit plate, left a blob of a
        diamond's size and place that read *unlit*; the history then explained the next
        turn with that board, and the marks were wrong (a walk-through on the
        screenshot's floor). The step onto the plate tells its state anyway."""
        return _with_plate_hidden_at(reading, self._player_point(reading, view, area, offset))

    def _forget_spot_of_another_size(self, area: Rect) -> None:
        """The spot is in the area's pixels: a resized window starts learning again."""
        if self._spot_size != (area.width, area.height):
            self._spot_samples.clear()
            self._last_hidden = []
            self._spot_cache = None
            self._spot_trusted = False
            self._way_in_spot = None
            self._spot_size = (area.width, area.height)

    def _spot(self, area: Rect) -> tuple[float, float] | None:
        """Where the camera draws the player (area pixels), once learnt (_learn_spot):
        the place where still hidden plates were seen in the most views, the nearest the
        middle of the area of equals; a view where the plate may be hidden from behind by
        a body (above another still hidden plate of that view, :func:`_behind_a_body`)
        counts half, and a place the ring turned or zoomed about (:meth:`_pinned`) one
        view more: the plate behind the player's, which the body hides at the same place
        on the window after every step, gathers views as fast as the player's does and
        lay nearer the middle (at a steep camera it took the spot from the pinned one,
        and a step onto a plate out of its reach was not told).
        Computed again only when a sample is added."""
        self._forget_spot_of_another_size(area)
        if not self._spot_samples or self._spot_cache is not None:
            return self._spot_cache
        samples = np.array(self._spot_samples)
        points, views, near = samples[:, :2], samples[:, 2], samples[:, 3]
        # a plate a body may hide from behind counts half a view (a team-mate standing on
        # the plate in front of the player's, on screen, is the same column)
        weights = np.where(_behind_a_body(samples), 0.5, 1.0)
        middle = np.array([area.width / 2, area.height / 2])
        best, best_score = None, None
        for index, point in enumerate(points):
            together = np.hypot(*(points - point).T) <= near[index]
            per_view: dict[float, float] = {}
            for view, weight in zip(views[together], weights[together], strict=True):
                per_view[view] = max(per_view.get(view, 0.0), weight)
            pinned = float(np.any(samples[together, 4] > 0))
            score = (sum(per_view.values()) + pinned, -float(np.hypot(*(point - middle))))
            if best_score is None or score > best_score:
                best, best_score = together, score
        x, y = np.median(points[best], axis=0)
        self._spot_cache = (float(x), float(y))
        self._spot_trusted = bool(best_score[0] >= 2) or bool(np.any(samples[best, 4] > 0))
        return self._spot_cache

    def _learn_spot(self, reading: Reading, view: np.ndarray | None, area: Rect,
                    offset: tuple[int, int]) -> None:
        """Learn where on the window the camera draws the player, so a player on the
        plain floor between plates (a waypoint) is placed too (:func:`player_place`).

        The camera keeps the player at one place on screen: while the player stands on a
        plate, that plate stays put on screen whatever the camera does (it turns, pitches
        and zooms about the player), and it is the same place at every plate. A plate
        passed while walking moves with the camera; a team-mate's plate stays put only
        while the view does, and lands elsewhere after the player's next step. So a
        sample is a hidden plate where a hidden plate was a frame before, and the spot is
        where samples from the most views gather. A view lasts while the camera stays
        put (:data:`VIEW_MOVED_PX`): a second search of an unmoved view is no second
        view (it used to count as one, so a team-mate's plate nearer the window's middle
        was trusted as the spot two frames after the first step). Only once a step has
        been seen: before it, the player waits off the plates, and at a low camera the
        body hides the plate behind it, a tile or more from the feet; or when a turn or
        zoom moved the ring about the plate on the floor (:meth:`_pinned`)."""
        self._forget_spot_of_another_size(area)
        if view is None:
            self._last_hidden, self._pinning_view = [], None
            self._pending_pivot = None
            return
        self._learn_pivot(reading, offset)
        geometry = reading.geometry
        hidden, still_plates = [], []
        for cell in reading.hidden:
            if cell not in TOA_PLATES:
                continue
            here = np.array(geometry.cell_centre(*cell)) + offset
            spacing = geometry.local_spacing(*cell)
            hidden.append(here)
            # still: within a pixel or two (a camera turning about the player moves even
            # the plates near the player by more), or a tenth of what the view's corners
            # moved, up to 6% of a spacing (the reader places a plate to a few pixels at a
            # steep camera, and a pitch that moves the corners by 30 pixels moves a plate
            # a spacing from the player by 10 or more)
            shift = min(0.1 * (self._view_shift or 0.0), 0.06 * spacing)
            if any(np.hypot(*(here - before)) <= max(2.0, 0.03 * spacing, shift)
                   for before in self._last_hidden):
                still_plates.append((here, spacing, cell))
        camera_moved = self._view_shift is not None and self._view_shift > VIEW_MOVED_PX
        if self._stepped and camera_moved and len(still_plates) >= 2:
            # two hidden plates kept put through a move of the camera: only a pitch does
            # that (about the floor's line through the player, a team-mate's plate beside
            # his on it), and it singles out neither; the view goes on as the one before
            # (without this, at a steep camera a team-mate's plate beside the player's,
            # both sampled again after a pitch, was trusted as the spot in two views)
            self._camera_views -= 1
        view_number = self._camera_views
        for here, spacing, cell in still_plates:
            if any(v == view_number and abs(x - here[0]) < 1 and abs(y - here[1]) < 1
                   for x, y, v, _n, _m in self._spot_samples):
                continue  # one sample per plate and view
            # the ring moved about it (the camera turned or zoomed about the player):
            # no team-mate's plate stays put through that. But a plate hidden behind a
            # body (another hidden plate just below it on the window) may be another
            # plate each view: a quarter turn about the player's corner plate lays one
            # neighbour where the other was, both hidden behind the body at a steep
            # camera (that place, trusted as the spot after the turn, left the next step
            # out of its reach; the player's own plate, placed
            # 3 px apart in the two views, did not count as still). On the floor a
            # quarter turn cannot tell them apart: the ring looks the same turned by any
            # quarter, and either plate stays put under one of them. Such a plate pins
            # the spot only when the floor tells (a zoom, a turn the labels follow: the
            # player's plate above a team-mate's on the screen), as before a step
            kept_put = len(still_plates) == 1 and self._view_shift is not None \
                and self._view_shift > max(4.0, 0.1 * spacing) \
                and not self._keeps_its_row(here, spacing)
            measured = not self._stepped or _above_another(here, spacing, hidden)
            moved = kept_put and (not measured or self._pinned(
                cell, geometry, offset, after_a_step=self._stepped))
            # (the hidden plates are remembered before a step too: the step's own frame
            # is read before the history says it was one)
            if self._stepped or moved:
                self._spot_samples.append((float(here[0]), float(here[1]), view_number,
                                           SPOT_NEAR_SPACINGS * spacing, int(moved)))
                self._spot_cache = None
        self._last_hidden = hidden
        self._pinning_view = (geometry, offset)

    def _learn_pivot(self, reading: Reading, offset: tuple[int, int]) -> None:
        """Learn the spot from a turn or zoom of the camera about the player, plate hidden
        or not (:func:`assistant.camera_pivot.camera_pivot`): the floor point the views
        before and after show at one place is where the player stands. Before the first
        step the player waits on plain floor, no plate hidden, and the history cannot
        tell the first step onto a plate whose neighbours are hidden too until it knows
        where the player stood (:meth:`_replay`).

        Such a point is the player's only while the player stood still through the
        camera's move: a walk in the same frame (a turn while walking) moves it. So the
        view must have stayed put into the frame before the move, or stay put into the
        frame after it (the pivot waits for it); a walk of a tile takes the game 0.6 s,
        several frames, which then move too. And it lies on a floor tile's middle, in the
        room around the ring; a plate there may show (at a steep camera the body hides
        the plate behind it more than its own). Not after a view along the room's axes
        came from one that was not: a compass snap turns by 45° or more, which the
        labels' quarter turns show as a smaller turn about another point (:meth:`_pinned`)."""
        pending, self._pending_pivot = self._pending_pivot, None
        camera_moved = self._view_shift is not None and self._view_shift > VIEW_MOVED_PX
        if pending is not None and not camera_moved:
            self._add_pivot_sample(*pending)
        if not camera_moved or self._pinning_view is None:
            return
        before, before_offset = self._pinning_view
        geometry = reading.geometry
        if off_cardinal_deg(geometry) <= CARDINAL_TOLERANCE_DEG < off_cardinal_deg(before):
            return
        pivot = camera_pivot(before, geometry, (offset[0] - before_offset[0],
                                                offset[1] - before_offset[1]))
        if pivot is None:
            return
        floor = np.array(pivot.floor)
        tile = np.round(floor * 2) / 2
        middle = (geometry.cols - 1) / 2
        if np.abs(floor - tile).max() > PIVOT_ON_TILE_SPACINGS \
                or np.abs(tile - middle).max() > PIVOT_IN_ROOM_SPACINGS:
            return
        x, y = geometry.to_image(tile[None])[0]
        sample = (float(x + offset[0]), float(y + offset[1]),
                  SPOT_NEAR_SPACINGS * geometry.local_spacing(*_nearest_plate(tile)))
        if self._moved_before:
            self._pending_pivot = sample
        else:
            self._add_pivot_sample(*sample)

    def _add_pivot_sample(self, x: float, y: float, near: float) -> None:
        """A turn or zoom's pivot as a sample of the spot that pins it (:meth:`_spot`)."""
        self._spot_samples.append((x, y, self._camera_views, near, 1))
        self._spot_cache = None

    def _pinned(self, cell: tuple[int, int], geometry: GridGeometry,
                offset: tuple[int, int], *, after_a_step: bool = False) -> bool:
        """Whether a hidden plate that stayed put on the window through a turn or zoom of
        the camera stands where the camera keeps the player, even before a step has been
        seen (the history may not tell the session's first step from none when its
        plate's neighbours were hidden before it: they change unseen; and the spot it
        needs is learnt only from a step told). Measured on the floor as the frame before
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
        if self._pinning_view is None:
            return False
        before, before_offset = self._pinning_view
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

    def _keeps_its_row(self, here: np.ndarray, spacing: float) -> bool:
        """Whether the view's motion since the frame before kept the places a spacing to
        either side of ``here`` put too. A camera pitching about the player turns the view
        about the floor's line through the player, across the screen: a team-mate's plate
        on that line, beside the player's at the same height, stays put through the pitch
        as the player's does, so such a sample does not single out the player (without
        this, a team-mate's plate sampled at a pitch was trusted as the spot, and the steps
        told again from it showed a wrong answer). A turn or a zoom about
        the player keeps no other place put."""
        if self._corners_before is None or self._last_corners is None:
            return False
        try:  # the floor as the view before and this one show it (the corners name both)
            before = geometry_from_corners(3, 3, self._corners_before)
            now = geometry_from_corners(3, 3, self._last_corners)
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

    def _with_objective(self, board: Board) -> Board:
        if self.objective is not None and self.objective != board.objective:
            return Board(board.states, board.present, board.k, self.objective)
        return board

    def _uncertain(
        self, reading: Reading, inference: Inference, area: Rect, origin: tuple[int, int]
    ) -> LiveState:
        """Several boards are possible: mark what every answer agrees on, the rest apart."""
        candidates = tuple(self._with_objective(b) for b in inference.candidates)
        certain, undecided, solutions = common_presses(candidates)
        marks = plan_marks(reading.geometry, certain, origin, undecided)
        status = _undecided_sentence(reading, inference, candidates, solutions, certain)
        return LiveState(
            "uncertain", status, marks, None, None, area, reading,
            hidden=reading.hidden, inferred=inference.inferred,
            undecided=inference.undecided, candidates=candidates, origin=origin,
        )

    def _find(self) -> WindowInfo | None:
        """The target window: all windows are listed once a second (a new game window may
        have opened); in between, only the one found is asked where it is now."""
        self._since_listing += 1
        if self._window is not None and self._since_listing < RELIST_EVERY:
            current = self.backend.update(self._window)
            if current is not None and current.title == self._window.title:
                self._window = current
                return current
        self._since_listing = 0
        self._window = find_window(
            self.title_pattern, self.backend.windows(), exclude=self.exclude_titles
        )
        return self._window

    def _solve(self, board: Board):
        """The engine's answer, remembered for the few boards seen lately (the board on
        screen rarely changes between frames)."""
        solution = self._solutions.get(board)
        if solution is None:
            if len(self._solutions) > 16:
                self._solutions.clear()
            solution = self._solutions[board] = solve(board)
        return solution

    def reset_history(self) -> None:
        """Forget what earlier frames showed (another window or puzzle)."""
        self.history.reset()
        self._last_reading_at = None
        self._session_log = []
        self._room_before = None

    def _room_band(self, reading: Reading, view: np.ndarray | None) -> RoomBand | None:
        """The room around the ring in the frame read (:func:`room_band`, in the reading's
        labels), for the history to tell the labels' quarter turn since the reading
        before by; None without a ring read, with the corners a calibration fixed (such
        a view never turns), and in the view of the band kept (:meth:`_keep_room_band`):
        there the labels are the same as long as the view stays, tracked frames are
        read on a grab around the plates that cuts off much of the band, and a frame of
        the tracked loop costs no more."""
        frame = self.reader.frame_read
        if view is None or frame is None or self.reader.fixed or self._in_kept_view(view):
            return None
        return room_band(frame, reading.geometry)

    def _in_kept_view(self, view: np.ndarray) -> bool:
        kept = self._room_before
        return (kept is not None and kept[0].shape == view.shape
                and float(np.abs(kept[0] - view).max()) <= SAME_VIEW_PX)

    def _keep_room_band(self, view: np.ndarray | None, band: RoomBand | None) -> None:
        """Keep the band of the reading the history took, to compare the next one with
        (the first of its view's: a search's grab of the whole window)."""
        if view is None:
            self._room_before = None
        elif band is not None:
            self._room_before = (view, band)
        elif not self._in_kept_view(view):
            self._room_before = None

    def _capture_area(self, window: WindowInfo) -> Rect:
        rect = self.reader.profile.capture.rect
        if rect is None:
            return window.rect
        left, top, width, height = rect
        return Rect(window.rect.left + left, window.rect.top + top, width, height).intersect(
            window.rect
        )


class _Told(NamedTuple):
    """What the live loop told the history about one frame (:meth:`LiveLoop._replay`)."""

    reading: Reading  # as read, before the plate under the player is hidden
    seconds: float | None
    landmark: tuple[int, int] | None
    geometry: GridGeometry | None  # None: no ToA ring read in the frame
    area: Rect
    offset: tuple[int, int]
    room_turns: frozenset[int] | None = None  # the labels' quarter turn the room told
    pan_turns: frozenset[int] | None = None  # those a camera following the player allows


def _just_below(upper: np.ndarray, lower: np.ndarray, spacing: np.ndarray | float,
                near: np.ndarray | float) -> np.ndarray:
    """Whether window points ``lower`` lie just below points ``upper`` (broadcast, (..., 2)
    each), as the player's own plate lies below the plates the body hides behind it: up
    to the body's height (:data:`BODY_SHADOW_SPACINGS` of ``spacing``) and within
    ``near`` pixels across."""
    below = lower[..., 1] - upper[..., 1]
    return ((below > 0) & (below <= BODY_SHADOW_SPACINGS * spacing)
            & (np.abs(lower[..., 0] - upper[..., 0]) <= near))


def _above_another(here: np.ndarray, spacing: float, hidden: list[np.ndarray]) -> bool:
    """Whether another hidden plate of the view lies just below ``here`` on the window
    (:func:`_just_below`, the rule :func:`_behind_a_body` applies to the spot's samples)."""
    return bool(len(hidden)) and bool(np.any(_just_below(
        here, np.array(hidden, np.float64), spacing, SPOT_NEAR_SPACINGS * spacing)))


def _behind_a_body(samples: np.ndarray) -> np.ndarray:
    """Per sample of the spot (rows of x, y, view, near, moved; near is
    SPOT_NEAR_SPACINGS of a spacing): whether another still hidden plate of its view
    lies just below it on screen.

    Why: a standing body rises up the screen from its feet, so at a steep camera the
    player hides the plates behind them as well as their own, and those stay put too
    while the player stands. The player's own plate is the lowest of such a column; a
    plate behind it, counted as a whole view of the spot, won a tie of views and moved the
    spot a plate up the screen at a steep camera, and the history then restarted at the
    next step."""
    points, view, near = samples[:, :2], samples[:, 2], samples[:, 3]
    spacing = near / SPOT_NEAR_SPACINGS
    # [i, j]: sample j lies just below sample i, in the same view
    below = _just_below(points[:, None, :], points[None, :, :], spacing[:, None],
                        near[:, None])
    return np.any((view[None, :] == view[:, None]) & below, axis=1)


def _nearest_plate(point: np.ndarray) -> tuple[int, int]:
    """The ring's plate nearest a grid point (x = column, y = row)."""
    return min(TOA_PLATES, key=lambda cell: (cell[1] - point[0]) ** 2 + (cell[0] - point[1]) ** 2)


def _under_spot(spot: tuple[float, float], geometry: GridGeometry,
                offset: tuple[int, int]) -> tuple[float, float]:
    """The grid point under a place of the captured area (``spot``), in a reading made on
    a grab at ``offset`` in it."""
    x, y = geometry.to_grid(np.array([[spot[0] - offset[0], spot[1] - offset[1]]]))[0]
    return float(x), float(y)


def _with_plate_hidden_at(reading: Reading, point: tuple[float, float] | None) -> Reading:
    """``reading`` with the plate the player stands on hidden (``point``: the grid point
    under the player), when one more hidden plate is allowed."""
    if point is None or len(reading.hidden) >= MAX_HIDDEN_IN_SESSION:
        return reading
    standing = cell_at(point, reading.partial or reading.board)
    return reading if standing is None else reading.with_hidden((standing,))


def _place(cell: tuple[int, int]) -> str:
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def _state_word(board: Board, cell: tuple[int, int]) -> str:
    value = int(board.states[cell])
    if board.k == 2:
        return "lit" if value else "unlit"
    return f"in state {value}"


def _inferred_sentence(board: Board, cells: tuple[tuple[int, int], ...], noun: str,
                       unknown: str = "hidden",
                       unclear: tuple[tuple[int, int], ...] = ()) -> str:
    """Which cells not seen the history filled in, and with what; ``unknown`` is the
    word for such a cell ("hidden": someone stands on it), "unclear" for those of
    ``unclear`` (in view, not told lit from unlit)."""
    parts = [f"{'unclear' if cell in unclear else unknown} {noun.lower()} {_place(cell)} "
             f"is {_state_word(board, cell)}" for cell in cells]
    text = "; ".join(parts)
    return f"{text[:1].upper()}{text[1:]} (told by the last steps)."


#: The ToA plates by where they are on screen (the live board is in screen labels).
_PLATE_NAMES = {(0, 0): "top-left", (0, 1): "top", (0, 2): "top-right", (1, 0): "left",
                (1, 2): "right", (2, 0): "bottom-left", (2, 1): "bottom", (2, 2): "bottom-right"}


def _short_place(board: Board, cell: tuple[int, int]) -> str:
    """A cell as a player in a hurry names it: ``top-left`` on the ToA ring, else
    ``row 1, column 1``."""
    toa = board.shape == (3, 3) and not board.present[1, 1] and int(board.present.sum()) == 8
    return _PLATE_NAMES[cell] if toa else _place(cell)


def _listed(words: list[str], separator: str = ", ") -> str:
    return words[0] if len(words) == 1 else f"{separator.join(words[:-1])} and {words[-1]}"


def _undecided_sentence(reading, inference, candidates, solutions, certain=None,
                        unknown: str = "hidden (someone stands on it)") -> str:
    """What to do now and what the cells not known decide, for a player in the middle
    of a raid: first the steps every possibility shares (the solid rings), then which
    cells are not known, then what each of their states adds, in few words.
    ``unknown`` says why a cell in view is not known (the word is the caller's: hidden
    under someone, or in view but unclear); one past the picture's edge is "outside the
    picture". ``certain`` holds the presses every possibility shares (None: the
    possibilities' answers are compared here)."""
    noun = reading.cell_noun.lower()
    cells = inference.undecided
    board = candidates[0]
    if certain is None:
        answers = [solution.presses for solution in solutions if solution.solvable]
        same = len(answers) == len(solutions) and answers
        certain = (np.where(np.all(np.stack(answers) == answers[0], axis=0), answers[0], 0)
                   if same else np.zeros(board.shape, np.int64))
    certain = np.asarray(certain)
    sure = int(np.count_nonzero(certain))
    if not sure:
        now = "Nothing is sure yet."
    elif noun == "plate":
        now = ("Step on the solid ring now." if sure == 1
               else f"Step on the {sure} solid rings now.")
    else:
        now = (f"Press the {noun} in the solid ring now" if sure == 1
               else f"Press the {noun}s in the {sure} solid rings now")
        now += ", as many times as written."
    names = [_short_place(board, cell) for cell in cells]
    named = names[0] in _PLATE_NAMES.values()  # the ToA ring: "the top plate"
    separator = ", " if named else "; "  # "row 1, column 2" holds a comma itself
    the = [f"the {name} {noun}" if named else name for name in names]
    def reason(cell: tuple[int, int]) -> str:
        if cell in reading.outside:
            return "outside the picture"
        if cell in reading.unclear:
            return "in view but not told lit from unlit"
        return unknown

    why = [f"{who} {'is ' if i == 0 else ''}{reason(cell)}"
           for i, (who, cell) in enumerate(zip(the, cells, strict=True))]
    head = " and ".join(why)
    head = head[:1].upper() + head[1:]
    verb = "step on" if noun == "plate" else "press"
    short = names if named else the  # "the top-right" once the plates were named
    options = []
    for possible, solution in zip(candidates, solutions, strict=True):
        states = [_state_word(possible, cell) for cell in cells]
        if len(cells) == 1:
            case = f"if {'it is ' if not options else ''}{states[0]}"
        elif len(set(states)) == 1:
            case = f"if {'both' if len(cells) == 2 else 'all'} {states[0]}"
        else:
            each = [f"{'the ' if named else ''}{who} {'is ' if i == 0 else ''}{state}"
                    for i, (who, state) in enumerate(zip(short, states, strict=True))]
            case = "if " + _listed(each, separator)
        if not solution.solvable:
            options.append(f"{case}, there is no answer")
            continue
        extra = [_short_place(board, (int(r), int(c)))
                 + (f" ({int(solution.presses[r, c])} times)" if solution.presses[r, c] > 1
                    else "")
                 for r, c in np.argwhere((solution.presses > 0) & (certain == 0))]
        if not extra:
            options.append(f"{case}, nothing {'more' if sure else 'to ' + verb}")
        elif not options:  # the first says it in full, the others are short
            options.append(f"{case}, {'also ' if sure else ''}{verb} {_listed(extra, separator)}")
        else:
            again = "on" if noun == "plate" else f"{'also ' if sure else ''}{verb}"
            options.append(f"{case}, {again} {_listed(extra, separator)}")
    return f"{now} {head}: {'; '.join(options)}."
