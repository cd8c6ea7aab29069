"""The live loop without Qt: window -> grab -> session step -> solution -> marks on screen.

Each :meth:`LiveLoop.tick` is one frame: find the game window, grab the part of it the
session reads, hand the grab to the session as a value (:class:`assistant.session.frames.
Frame`) and, when the session asks for the whole window, grab that too; then solve the
board the session's history makes of the reading, and plan the marks and the route.
Everything it returns is plain data (a :class:`LiveState`), so the loop runs the same in
the capture worker, in the tests and in the benchmark. Marks are polygons in physical
screen pixels (:func:`assistant.session.marks.plan_marks`), confined to the annulus the
reader never samples, so the overlay cannot change the next reading.

A plate with someone standing on it (the player after every step) is hidden from the
reader; the session's board history (:class:`assistant.session.history.BoardHistory`)
fills it in from the frames before. When it cannot, only the presses every possible board
agrees on are marked as certain; the others are marked ``certain=False`` and the status
says what the hidden plate decides. What a session remembers between frames (the
tracker, the camera's motion, where the player stands, the history) is
:mod:`assistant.session`'s.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from assistant.capture import (
    Grabber,
    Rect,
    WindowBackend,
    WindowInfo,
    blank_frame_reason,
    find_window,
)
from assistant.profile import Profile
from assistant.puzzle import Board
from assistant.route import Route, RouteError, is_toa_board, plan_route
from assistant.route_overlay import RouteMarks, entrance_near, route_marks
from assistant.session.camera import turn_free
from assistant.session.frames import Frame
from assistant.session.history import BoardHistory, Inference
from assistant.session.marks import Mark, plan_marks
from assistant.session.moves import common_presses
from assistant.session.sentences import inferred_sentence, undecided_sentence
from assistant.session.session import Session, SessionStep
from assistant.session.tracker import FrameRead, LiveReader, WholeWindowNeeded
from assistant.solver import solve
from assistant.vision import Reading

__all__ = ["LiveLoop", "LiveState", "Stabilizer"]

log = logging.getLogger(__name__)

#: Frames a new reading must persist before it is shown (no flicker).
STABLE_FRAMES = 2
#: All windows are listed this often (frames); in between only the target is re-read.
RELIST_EVERY = 10


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
            return (self.kind, turn_free(self.board))
        if self.candidates:
            return (self.kind, tuple(sorted(turn_free(b) for b in self.candidates)))
        # no board: the kind alone (successive abstentions give different reasons, and a
        # reason that kept changing would keep old marks on screen)
        return (self.kind,)



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


class LiveLoop:
    """One frame at a time: find the window, grab it, let the session read it, solve,
    stabilise.

    ``objective`` overrides the profile's (the player's setting for the ToA room).
    ``grabber`` must be used only from the thread that calls :meth:`tick`. ``clock``
    gives the time of each grab (seconds; None: not known): the time between readings
    bounds the steps between them.
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
        self.clock = clock
        self.show_route = show_route
        self.crossing_steps = crossing_steps
        self.grabber = grabber
        self.title_pattern = title_pattern
        self.session = Session(profile, track=track)
        self.objective = objective
        self.exclude_titles = exclude_titles
        self.stabilizer = Stabilizer(stable_frames)
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
        self._route: dict = {}

    @property
    def reader(self) -> LiveReader:
        """The session's tracker (its profile, its count of searches)."""
        return self.session.tracker

    @property
    def history(self) -> BoardHistory:
        """The session's board history."""
        return self.session.history

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
        area = self._visible_area()
        if isinstance(area, LiveState):
            return area
        region = self.reader.region(area.width, area.height)
        grab_area = area if region is None else region.offset(area.left, area.top)
        grabbed_at = self.clock()
        try:
            pixels = self.grabber.grab(grab_area)
        except Exception as error:  # mss raises its own errors; keep going, say so
            return self._grab_failed(grab_area, area, error)
        offset = (0, 0) if region is None else (region.left, region.top)
        if grabbed_at is None:
            grabbed_at = self.clock()
        read = self._read(Frame(pixels, offset, grabbed_at), area)
        if isinstance(read, WholeWindowNeeded):
            # the session must search the whole area: grabbed here, like any other grab
            whole_at = self.clock()
            try:
                whole = self.grabber.grab(area)
            except Exception as error:
                return self._grab_failed(area, area, error)
            read = self.session.read_whole(read, Frame(whole, (0, 0), whole_at))
        self.failures = 0
        return read if isinstance(read, LiveState) else self._shown(read, area)

    def _visible_area(self) -> Rect | LiveState:
        """The part of the game window's captured area on the screen, or the state that
        says why there is none."""
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
        return visible  # a window partly off screen: read what can be seen

    def _grab_failed(self, grab_area: Rect, area: Rect, error: BaseException) -> LiveState:
        self.failures += 1
        log.warning("grab of %s failed (%d in a row): %s", grab_area, self.failures, error)
        return LiveState(
            "error",
            f"Could not capture the game window ({error.__class__.__name__}); retrying.",
            window=area,
        )

    def process(
        self,
        frame: np.ndarray,
        area: Rect,
        offset: tuple[int, int] = (0, 0),
        grabbed_at: float | None = None,
    ) -> LiveState:
        """Reading, solution and marks for one frame grabbed at ``offset`` inside ``area``
        at ``grabbed_at`` on the loop's clock (None: just now; the clock itself answers
        None for a frame whose time is not known, such as a picture without a capture
        time). The frame stands for the whole area when the session asks for it."""
        if grabbed_at is None:
            grabbed_at = self.clock()
        read = self._read(Frame(frame, offset, grabbed_at), area)
        if isinstance(read, WholeWindowNeeded):
            read = self.session.read_whole(read, Frame(frame, (0, 0), grabbed_at))
        return read if isinstance(read, LiveState) else self._shown(read, area)

    def _read(self, frame: Frame, area: Rect) -> LiveState | FrameRead | WholeWindowNeeded:
        """The session's reading of ``frame`` (or its ask for the whole area); a blank
        frame is not read."""
        blank = blank_frame_reason(frame.pixels)
        if blank:
            return LiveState("blank", blank, window=area)
        return self.session.read(frame, area)

    def _shown(self, read: FrameRead, area: Rect) -> LiveState:
        """The session's step on ``read``, then the solution and the marks."""
        step = self.session.step(read, area)
        reading, inference, offset = step.reading, step.inference, step.frame.origin
        origin = (area.left + offset[0], area.top + offset[1])
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
                 "continued": step.continued}
        if not solution.solvable:
            return LiveState("unsolvable", f"No solution: {solution.reason}", board=board,
                             window=area, reading=reading, **known)
        if solution.total_presses == 0:
            return LiveState(
                "solved",
                "All lit." if board.k == 2 and board.objective == 1 else "Solved.",
                board=board, presses=solution.presses, window=area, reading=reading, **known,
            )
        key = (reading.geometry.homography.tobytes(), origin, board)
        if self._marks_key != key:  # same grid, place and board: the same marks
            self._marks = plan_marks(reading.geometry, solution.presses, origin)
            self._marks_key = key
        marks = self._marks
        walk = self._walk(step, board, solution.presses, area, origin)
        return LiveState("steps", _steps_sentence(board, solution, marks, inference, reading),
                         marks, board, solution.presses, area, reading, **known, **walk)

    def _walk(self, step: SessionStep, board: Board, presses: np.ndarray, area: Rect,
              origin: tuple[int, int]) -> dict:
        """``player``, ``route`` and ``route_marks`` for a ToA board with steps (empty
        for other boards): planned once per board, player and place, like the marks."""
        if not is_toa_board(board):
            return {}
        reading, offset = step.reading, step.frame.origin
        geometry = reading.geometry
        player, tile, way_in = self.session.player_place(reading, step.frame, area)
        if not self.show_route:
            return {"player": player}
        centre = (area.width / 2 - offset[0], area.height / 2 - offset[1])
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
        return self.session.statue.side

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
        status = undecided_sentence(reading, inference, candidates, solutions, certain)
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
        self.session.reset()

    def _capture_area(self, window: WindowInfo) -> Rect:
        rect = self.reader.profile.capture.rect
        if rect is None:
            return window.rect
        left, top, width, height = rect
        return Rect(window.rect.left + left, window.rect.top + top, width, height).intersect(
            window.rect
        )


def _steps_sentence(board: Board, solution, marks: tuple[Mark, ...], inference: Inference,
                    reading: Reading) -> str:
    """The status of a board with steps: how many plates (or presses), and which hidden
    plates the history filled in."""
    plates = len(marks)
    noun = "plate" if plates == 1 else "plates"
    status = f"Puzzle found: step on {plates} {noun}."
    if board.k > 2:
        status = f"Puzzle found: {solution.total_presses} presses on {plates} cells."
    if inference.inferred:
        status += " " + inferred_sentence(board, inference.inferred, reading.cell_noun,
                                          unclear=reading.unclear)
    return status
