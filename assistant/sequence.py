"""Pictures as the successive frames of one live session.

``detect --sequence`` and the walk-through benchmark must judge exactly what the player
would see, so they do not re-implement the live loop: they run :class:`assistant.live.
LiveLoop` itself, with a window backend that shows one picture-sized window and a grabber
that cuts its grabs out of the current picture. Tracking (the small grab around the grid),
relocation, the history of hidden plates and the stabiliser all run as in the game.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assistant.capture import Rect, WindowInfo
from assistant.errors import UserError
from assistant.live import STABLE_FRAMES, LiveLoop, LiveState
from assistant.profile import Profile

__all__ = ["PICTURE_TITLE", "OutOfOrderError", "PictureSequence", "SequenceError",
           "state_record"]

#: The title of the stand-in window the pictures are shown in.
PICTURE_TITLE = "picture sequence"


class SequenceError(UserError):
    """Pictures that cannot be frames of one session."""


class OutOfOrderError(SequenceError):
    """A picture's time before the time of the picture before it."""


class _PictureWindow:
    """A window backend with one window exactly the size of the current picture."""

    name = "pictures"

    def __init__(self) -> None:
        self.size = (0, 0)

    def unavailable(self) -> str | None:
        return None

    def windows(self) -> list[WindowInfo]:
        return [WindowInfo("pictures", PICTURE_TITLE, Rect(0, 0, *self.size))]

    def update(self, window: WindowInfo) -> WindowInfo | None:
        return self.windows()[0]


class _PictureGrabber:
    """Grabs come out of the current picture, as mss would give them (BGRA)."""

    def __init__(self) -> None:
        self.picture: np.ndarray | None = None
        self.grabs = 0

    def grab(self, rect: Rect) -> np.ndarray:
        assert self.picture is not None
        self.grabs += 1
        return self.picture[rect.top : rect.bottom, rect.left : rect.right]

    def desktop(self) -> Rect:
        height, width = self.picture.shape[:2]
        return Rect(0, 0, width, height)

    def close(self) -> None:
        pass


@dataclass
class PictureSequence:
    """Feed pictures in order; each :meth:`feed` is one tick of the live loop."""

    profile: Profile | None = None
    objective: int | None = None
    stable_frames: int = STABLE_FRAMES
    show_route: bool = True
    crossing_steps: bool = True
    #: seconds between two pictures when every two are that far apart (None: not known,
    #: unless :meth:`feed` is told each picture's time). The time between readings bounds
    #: the steps the session may have taken in between; pictures whose times are not
    #: known admit any number of steps and camera moves between them.
    interval: float | None = None

    def __post_init__(self) -> None:
        if self.interval is not None and not self.interval > 0:
            raise SequenceError(f"The interval between frames must be positive, not "
                                f"{self.interval:g}.")
        self._window = _PictureWindow()
        self._grabber = _PictureGrabber()
        self.loop = LiveLoop(self._window, self._grabber, PICTURE_TITLE, self.profile,
                             self.objective, stable_frames=self.stable_frames,
                             show_route=self.show_route, crossing_steps=self.crossing_steps,
                             clock=lambda: self._time)
        self.frames = 0
        self._paused = 0.0  # seconds without pictures (pause)
        self._time: float | None = None  # the current picture's, on the loop's clock
        self._last_time: float | None = None  # the loop's clock at the last known time
        # the first time told to feed() since the start or the last pause, and the loop's
        # clock then: later times count from it
        self._told_from: tuple[float, float] | None = None

    def feed(self, picture: np.ndarray, at: float | None = None) -> LiveState:
        """The state the assistant shows after this frame (stabilised). ``at``: when the
        picture was taken (seconds on any clock, later than the picture before); without
        it, :attr:`interval` after the one before, or not known."""
        if not isinstance(picture, np.ndarray) or picture.ndim != 3 or picture.shape[2] not in (
            3, 4
        ):
            raise SequenceError("Each frame must be a colour picture.")
        height, width = picture.shape[:2]
        if self.frames and (width, height) != self._window.size:
            raise SequenceError(
                f"Frame {self.frames + 1} is {width}x{height} but the frames before it are "
                f"{self._window.size[0]}x{self._window.size[1]}: all frames of one session "
                "must be the same size."
            )
        if picture.shape[2] == 3:
            picture = np.concatenate([picture, np.full((height, width, 1), 255, np.uint8)], 2)
        self._time = self._time_of(at)
        self._window.size = (width, height)
        self._grabber.picture = np.ascontiguousarray(picture)
        self.frames += 1
        return self.loop.tick()

    def _time_of(self, at: float | None) -> float | None:
        """The loop's clock for the next picture, taken at ``at`` on the caller's clock."""
        if at is None:
            if self.interval is None:
                return None
            return self.frames * self.interval + self._paused
        if self._told_from is None:
            start = 0.0 if self._last_time is None else self._last_time
            self._told_from = (at, start + self._paused)
            self._paused = 0.0
        first, start = self._told_from
        if at < first or (self._last_time is not None and start + at - first
                          < self._last_time):
            raise OutOfOrderError(
                f"Frame {self.frames + 1} was taken before the frame before it: give the "
                "pictures in the order they were taken.")
        self._last_time = start + at - first
        return self._last_time

    def pause(self, seconds: float) -> None:
        """Time passes without pictures (the player is elsewhere in the raid): the next
        picture comes ``seconds`` after the last one, plus a frame. Why: the history
        bounds the steps between readings by the time between them."""
        if not seconds >= 0:
            raise SequenceError(f"A pause lasts zero seconds or more, not {seconds:g}.")
        self._paused += seconds
        self._told_from = None  # times told after the pause count from the next picture

    @property
    def held(self) -> bool:
        """The last frame's observation is not shown yet (the stabiliser holds it one frame)."""
        observed = self.loop.last_observed
        shown = self.loop.stabilizer.shown
        return observed is not None and (shown is None or observed.key != shown.key)


def state_record(state: LiveState, image: str, frame: int, held: bool = False) -> dict:
    """The JSON record of one frame of a sequence: the fields of ``detect --json`` plus what
    the session's history added (rows and columns from 1). ``held``: the frame shows the
    state before (the stabiliser holds a change back for one frame)."""
    reading = state.reading
    record: dict = {"image": image, "frame": frame, "kind": state.kind, "status": state.status,
                    "held": held}
    if reading is not None:
        record.update(reading.to_json())
    else:
        record.update({"found": False, "abstain": True, "reason": state.status, "board": None,
                       "hidden": []})
    if state.board is not None:
        record["board"] = state.board.format()
    unclear = reading.unclear if reading is not None else ()
    record["hidden"] = [[r + 1, c + 1] for r, c in state.hidden if (r, c) not in unclear]
    record["unclear"] = [[r + 1, c + 1] for r, c in state.hidden if (r, c) in unclear]
    record["inferred"] = [[r + 1, c + 1] for r, c in state.inferred]
    record["undecided"] = [[r + 1, c + 1] for r, c in state.undecided]
    record["candidates"] = [b.format() for b in state.candidates]
    if state.presses is not None and state.board is not None:
        from assistant.puzzle import format_grid

        record["answer"] = format_grid(state.presses, state.board.present)
    else:
        record["answer"] = None
    record["marks"] = [
        {"row": m.row + 1, "col": m.col + 1, "count": m.count, "certain": m.certain,
         "x": round(m.centre[0], 1), "y": round(m.centre[1], 1)}
        for m in state.marks
    ]
    return record
