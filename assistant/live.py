"""The live loop without Qt: window -> frame -> reading -> solution -> marks on screen.

Each :meth:`LiveLoop.tick` is one frame. Everything it returns is plain data (a
:class:`LiveState`), so the loop runs the same in the capture worker, in the tests and in
the benchmark. Marks are polygons in physical screen pixels, projected through the
reading's homography (ellipses on an oblique camera) and confined to the annulus the
reader never samples (:data:`assistant.vision.geometry.MARK_INNER_RADIUS` and
``MARK_OUTER_RADIUS``), so the overlay cannot change the next reading.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from assistant.capture import (
    Grabber,
    Rect,
    WindowBackend,
    WindowInfo,
    blank_frame_reason,
    find_window,
)
from assistant.profile import Profile, toa_default_profile
from assistant.puzzle import Board
from assistant.solver import solve
from assistant.vision.geometry import MARK_INNER_RADIUS, MARK_OUTER_RADIUS, GridGeometry
from assistant.vision.reader import Reading, read_frame

__all__ = ["LiveLoop", "LiveReader", "LiveState", "Mark", "Stabilizer", "plan_marks"]

log = logging.getLogger(__name__)

#: Frames a new reading must persist before it is shown (no flicker).
STABLE_FRAMES = 2
#: Auto-located rings are re-located at least this often (frames), to follow the camera.
RELOCATE_EVERY = 30
#: All windows are listed this often (frames); in between only the target is re-read.
RELIST_EVERY = 10


@dataclass(frozen=True)
class Mark:
    """One cell to press: ``outer`` and ``inner`` polygons (N, 2) in physical screen
    pixels bound the annulus to paint; ``count`` is how many presses (1 for two states)."""

    row: int
    col: int
    count: int
    centre: tuple[float, float]
    outer: np.ndarray = field(repr=False)
    inner: np.ndarray = field(repr=False)


@dataclass(frozen=True)
class LiveState:
    """What the assistant shows for one frame.

    ``kind`` is one of ``steps``, ``solved``, ``unsolvable``, ``no-puzzle``, ``no-window``,
    ``minimized``, ``blank``, ``error``, ``unsupported``; ``status`` is the sentence for
    the player; ``window`` the captured area in physical screen pixels.
    """

    kind: str
    status: str
    marks: tuple[Mark, ...] = ()
    board: Board | None = None
    presses: np.ndarray | None = None
    window: Rect | None = None
    reading: Reading | None = None

    @property
    def key(self) -> tuple:
        """What must stay the same for two frames before a change is shown."""
        return (self.kind, None if self.board is None else self.board.format(), self.status)


def plan_marks(
    geometry: GridGeometry, presses: np.ndarray, origin: tuple[int, int]
) -> tuple[Mark, ...]:
    """Marks for every cell with a non-zero press count, offset by the capture origin."""
    ox, oy = origin
    marks = []
    for row, col in np.argwhere(presses > 0):
        r, c = int(row), int(col)
        cx, cy = geometry.cell_centre(r, c)
        offset = np.array([ox, oy], dtype=np.float64)
        marks.append(
            Mark(
                r,
                c,
                int(presses[r, c]),
                (cx + ox, cy + oy),
                geometry.circle(r, c, MARK_OUTER_RADIUS) + offset,
                geometry.circle(r, c, MARK_INNER_RADIUS) + offset,
            )
        )
    return tuple(marks)


class Stabilizer:
    """Passes a new state only after it has been seen ``frames`` times in a row; until
    then the last accepted state keeps being shown."""

    def __init__(self, frames: int = STABLE_FRAMES) -> None:
        self.frames = frames
        self._shown: LiveState | None = None
        self._candidate: tuple | None = None
        self._count = 0

    def push(self, state: LiveState) -> LiveState:
        if self._shown is not None and state.key == self._shown.key:
            self._candidate, self._count = None, 0
            self._shown = state  # same content: follow the window and the camera at once
            return state
        if state.key == self._candidate:
            self._count += 1
        else:
            self._candidate, self._count = state.key, 1
        if self._count >= self.frames or (self._shown is None and self.frames <= 1):
            self._shown = state
            self._candidate, self._count = None, 0
        return self._shown if self._shown is not None else _WAITING

    @property
    def shown(self) -> LiveState | None:
        return self._shown


_WAITING = LiveState("no-puzzle", "Looking for the puzzle…")


class LiveReader:
    """Reads successive frames of one window cheaply.

    Once the grid's corners are known (from a calibrated profile, or auto-located once),
    only the region around the grid is grabbed (:meth:`region`) and read at those
    corners, a calibrated read of a few milliseconds. Auto-located corners are checked by
    locating again, on a grab of the whole window, whenever the read abstains or its board
    changes, and every :data:`RELOCATE_EVERY` frames, so camera moves are followed.
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

    def region(self, width: int, height: int) -> Rect | None:
        """The part of a ``width`` x ``height`` window area to grab (relative to it), or
        None for all of it. A changed window size forgets auto-located corners."""
        if self._window_size != (width, height) and not self._fixed:
            self._corners = None
        self._window_size = (width, height)
        if self._corners is None or (not self.track and not self._fixed):
            return None
        if not self._fixed and self._since_locate >= RELOCATE_EVERY:
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
        if self._fixed:
            return read_frame(frame, self._at(offset)), offset
        if self._corners is None or (offset == (0, 0) and frame.shape[:2] == self._full_shape()):
            return self._locate(frame if offset == (0, 0) else grab_all())
        self._since_locate += 1
        reading = read_frame(frame, self._at(offset))
        board = None if reading.board is None else reading.board.format()
        if reading.abstain or board != self._last_board:
            return self._locate(grab_all())
        return reading, offset

    def _full_shape(self) -> tuple[int, int] | None:
        return None if self._window_size is None else self._window_size[::-1]

    def _at(self, offset: tuple[int, int]) -> Profile:
        return self.profile.with_corners(self._corners - np.array(offset, np.float64))

    def _locate(self, frame: np.ndarray) -> tuple[Reading, tuple[int, int]]:
        self._since_locate = 0
        reading = read_frame(frame, self.profile)
        if reading.found and not reading.abstain and reading.corners is not None:
            self._corners = np.array(reading.corners, np.float64)
            self._last_board = reading.board.format()
        else:
            self._corners = None
            self._last_board = None
        return reading, (0, 0)


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
    ) -> None:
        self.backend = backend
        self.grabber = grabber
        self.title_pattern = title_pattern
        self.reader = LiveReader(profile, track=track)
        self.objective = objective
        self.exclude_titles = exclude_titles
        self.stabilizer = Stabilizer(stable_frames)
        self.failures = 0
        self._window: WindowInfo | None = None
        self._since_listing = 0
        self._solutions: dict[Board, object] = {}
        self._marks_key: tuple | None = None
        self._marks: tuple[Mark, ...] = ()

    def tick(self) -> LiveState:
        return self.stabilizer.push(self.observe())

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
        try:
            frame = self.grabber.grab(grab_area)
        except Exception as error:  # mss raises its own errors; keep going, say so
            return self._grab_failed(grab_area, area, error)
        offset = (0, 0) if region is None else (region.left, region.top)
        try:
            state = self.process(frame, area, offset, lambda: self._grab_whole(area))
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
        try:
            return self.grabber.grab(area)
        except Exception as error:
            raise _GrabFailed from error

    def process(
        self,
        frame: np.ndarray,
        area: Rect,
        offset: tuple[int, int] = (0, 0),
        grab_all: Callable[[], np.ndarray] | None = None,
    ) -> LiveState:
        """Reading, solution and marks for one frame grabbed at ``offset`` inside ``area``
        (``grab_all`` grabs the whole area when the grid must be located again)."""
        blank = blank_frame_reason(frame)
        if blank:
            return LiveState("blank", blank, window=area)
        reading, offset = self.reader.read(frame, offset, grab_all or (lambda: frame))
        if reading.abstain or reading.board is None:
            return LiveState(
                "no-puzzle", reading.reason or "Puzzle not in view.", window=area, reading=reading
            )
        board = reading.board
        if self.objective is not None and self.objective != board.objective:
            board = Board(board.states, board.present, board.k, self.objective)
        solution = self._solve(board)
        if not solution.solvable:
            return LiveState(
                "unsolvable",
                f"No solution: {solution.reason}",
                board=board,
                window=area,
                reading=reading,
            )
        if solution.total_presses == 0:
            return LiveState(
                "solved",
                "All lit." if board.k == 2 and board.objective == 1 else "Solved.",
                board=board,
                presses=solution.presses,
                window=area,
                reading=reading,
            )
        origin = (area.left + offset[0], area.top + offset[1])
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
        return LiveState("steps", status, marks, board, solution.presses, area, reading)

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

    def _capture_area(self, window: WindowInfo) -> Rect:
        rect = self.reader.profile.capture.rect
        if rect is None:
            return window.rect
        left, top, width, height = rect
        return Rect(window.rect.left + left, window.rect.top + top, width, height).intersect(
            window.rect
        )
