"""The capture worker: a thread that runs :class:`assistant.live.LiveLoop` at the
configured rate and hands each state to the GUI thread through a queued signal.

The thread owns its :class:`assistant.capture.Grabber` (mss is per thread): it is made
and closed inside :meth:`CaptureWorker.run`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable

from PyQt6.QtCore import QThread, pyqtSignal

from assistant.capture import Grabber, Rect, WindowBackend, default_backend
from assistant.live import LiveLoop, LiveState
from assistant.masking import MaskingGrabber
from assistant.profile import Profile
from assistant.recorder import FlightRecorder

__all__ = ["CaptureWorker"]

log = logging.getLogger(__name__)


class CaptureWorker(QThread):
    """Ticks the live loop ``fps`` times a second until :meth:`stop`."""

    state_changed = pyqtSignal(object)  # LiveState, only when it differs from the last one
    frame_done = pyqtSignal(object)  # every LiveState, for the status line and the tests

    def __init__(
        self,
        title_pattern: str,
        profile: Profile | None = None,
        *,
        fps: float = 10.0,
        objective: int | None = None,
        backend: WindowBackend | None = None,
        exclude_titles: tuple[str, ...] = (),
        track: bool = True,
        show_route: bool = True,
        crossing_steps: bool = True,
        mask: Callable[[], Iterable[Rect]] | None = None,
        recorder: FlightRecorder | None = None,
        parent=None,
    ) -> None:
        super().__init__(parent)
        self.title_pattern = title_pattern
        self.profile = profile
        self.fps = max(0.5, float(fps))
        self.objective = objective
        self.backend = backend or default_backend()
        self.exclude_titles = exclude_titles
        self.track = track
        self.show_route = show_route
        self.crossing_steps = crossing_steps
        #: the assistant's own windows to paint over in every grab (assistant.masking)
        self.mask = mask
        #: keeps the last seconds of the loop for a problem report (assistant.recorder)
        self.recorder = recorder
        self._running = True
        self.last_state: LiveState | None = None
        self.frame_seconds: list[float] = []  # time of each tick, for the benchmark
        self.frame_cpu_seconds: list[float] = []  # this thread's CPU time of each tick
        self.loop: LiveLoop | None = None  # while running (the benchmark reads its reader)

    def stop(self) -> None:
        self._running = False
        self.wait(3000)

    def run(self) -> None:
        period = 1.0 / self.fps
        with Grabber() as raw:
            grabber = raw if self.mask is None else MaskingGrabber(raw, self.mask)
            loop = LiveLoop(
                self.backend,
                grabber,
                self.title_pattern,
                self.profile,
                self.objective,
                exclude_titles=self.exclude_titles,
                track=self.track,
                show_route=self.show_route,
                crossing_steps=self.crossing_steps,
            )
            if self.recorder is not None:
                self.recorder.attach(loop)
            self.loop = loop
            next_tick = time.monotonic()
            while self._running:
                started = time.perf_counter()
                cpu_started = time.thread_time()
                try:
                    state = loop.tick()
                except Exception:  # a bug must not kill the overlay silently: log, go on
                    log.exception("capture loop failed")
                    state = LiveState("error", "Something went wrong reading the screen; retrying.")
                self.frame_seconds.append(time.perf_counter() - started)
                self.frame_cpu_seconds.append(time.thread_time() - cpu_started)
                self.frame_done.emit(state)
                if self.last_state is None or _differs(state, self.last_state):
                    self.state_changed.emit(state)
                self.last_state = state
                next_tick += period
                now = time.monotonic()
                if next_tick < now:  # running late: do not try to catch up in a burst
                    next_tick = now
                while self._running and now < next_tick:  # short naps: stop() is prompt
                    time.sleep(min(0.05, next_tick - now))
                    now = time.monotonic()


def _differs(a: LiveState, b: LiveState) -> bool:
    if a.key != b.key or a.window != b.window or len(a.marks) != len(b.marks):
        return True
    if a.player != b.player or a.route != b.route:  # a new place to walk from
        return True
    return any(
        abs(m.centre[0] - n.centre[0]) > 0.5 or abs(m.centre[1] - n.centre[1]) > 0.5
        for m, n in zip(a.marks, b.marks, strict=True)
    )
