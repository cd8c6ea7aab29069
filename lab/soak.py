"""The soak run behind ``toa-assistant bench-live --soak N``: N frames of the live loop,
unpaced, against the demo room while the room closes, reopens, minimises and moves and
grabs fail at random.

The real window backend and grabber are wrapped, not replaced: most frames are real X11
look-ups and real mss grabs of the real room; the wrappers add what a long evening of play
brings (the window vanishing or minimised behind the backend's back, grabs raising or
returning black frames) on a seeded schedule, so a run is reproducible. The room is also
really hidden, shown, minimised and moved through Qt, which a window manager turns into
the X11 events the backend sees.

Pass: no exception escapes the loop (every failure becomes a state the player would see)
and the resident memory grows by at most ``MAX_GROWTH_MB``.
"""

from __future__ import annotations

import gc
import logging
import os
import random
import re
import time
from dataclasses import dataclass, field

import numpy as np
from PyQt6.QtWidgets import QApplication

from assistant.capture import Grabber, Rect, WindowBackend, WindowInfo, default_backend
from assistant.gui.demo import DemoRoom, demo_params
from assistant.gui.overlay import OVERLAY_TITLE, Overlay
from assistant.live import LiveLoop, LiveState

__all__ = ["MAX_GROWTH_MB", "FlakyBackend", "FlakyGrabber", "SoakResult", "resident_mb", "soak"]

#: The pass mark for memory growth over the whole run.
MAX_GROWTH_MB = 20.0


def resident_mb() -> float:
    """The process's resident memory now (Linux /proc; the peak elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            pages = int(handle.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError, AttributeError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / (2**20 if os.uname().sysname == "Darwin" else 2**10)


class FlakyBackend:
    """A real window backend whose answers are sometimes taken away: the window missing
    (closed) or reported minimised for a stretch of frames."""

    def __init__(self, real: WindowBackend, rng: random.Random) -> None:
        self.real = real
        self.rng = rng
        self.mode = "normal"  # "normal", "gone" or "minimized"
        self.faults = 0

    def unavailable(self) -> str | None:
        return self.real.unavailable()

    def windows(self) -> list[WindowInfo]:
        found = self.real.windows()
        return self._bend(found)

    def update(self, window: WindowInfo) -> WindowInfo | None:
        current = self.real.update(window)
        if current is None:
            return None
        bent = self._bend([current])
        return bent[0] if bent else None

    def _bend(self, windows: list[WindowInfo]) -> list[WindowInfo]:
        if self.mode == "normal":
            return windows
        self.faults += 1
        if self.mode == "gone":
            return [w for w in windows if w.title == OVERLAY_TITLE]
        return [
            WindowInfo(w.handle, w.title, w.rect, True) if w.title != OVERLAY_TITLE else w
            for w in windows
        ]


class FlakyGrabber:
    """A real grabber that now and then raises or hands back a black frame."""

    def __init__(self, real: Grabber, rng: random.Random, fail_rate: float) -> None:
        self.real = real
        self.rng = rng
        self.fail_rate = fail_rate
        self.faults = 0

    def grab(self, rect: Rect) -> np.ndarray:
        roll = self.rng.random()
        if roll < self.fail_rate:
            self.faults += 1
            raise OSError("simulated grab failure")
        frame = self.real.grab(rect)
        if roll < self.fail_rate * 1.5:
            self.faults += 1
            return np.zeros_like(frame)
        return frame

    def desktop(self) -> Rect:
        if self.rng.random() < self.fail_rate / 4:
            self.faults += 1
            raise OSError("simulated screen query failure")
        return self.real.desktop()

    def close(self) -> None:
        self.real.close()


@dataclass
class SoakResult:
    frames: int = 0
    errors_handled: int = 0
    exceptions: list[str] = field(default_factory=list)
    start_mb: float = 0.0
    end_mb: float = 0.0
    seconds: float = 0.0
    kinds: dict[str, int] = field(default_factory=dict)
    events: dict[str, int] = field(default_factory=dict)

    @property
    def growth_mb(self) -> float:
        return self.end_mb - self.start_mb

    @property
    def passed(self) -> bool:
        seen_steps = self.kinds.get("steps", 0) > 0
        return not self.exceptions and self.growth_mb <= MAX_GROWTH_MB and seen_steps

    def line(self) -> str:
        return (
            f"soak: {self.frames} frames, {self.errors_handled} errors handled, "
            f"memory {self.start_mb:.0f} -> {self.end_mb:.0f} MB"
        )


#: What happens to the room, with weights; one event every EVENT_EVERY frames on average.
_EVENTS = (
    ("move", 4),
    ("hide-show", 2),  # the game window closes, and opens again some frames later
    ("minimize", 2),
    ("fake-gone", 2),
    ("fake-minimized", 2),
    ("step", 3),  # the player steps on a plate: a new board to solve
)
EVENT_EVERY = 40


def soak(
    frames: int,
    *,
    seed: int = 0,
    fail_rate: float = 0.03,
    backend: WindowBackend | None = None,
    warmup: int = 200,
    progress=None,
) -> SoakResult:
    """Run the live loop ``frames`` times (after ``warmup`` unmeasured frames that let the
    caches and Qt settle) and return what happened."""
    app = QApplication.instance() or QApplication([])
    # Each injected grab failure would log a warning: the count is the report here.
    quiet = logging.getLogger("assistant.live")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        return _soak(app, frames, seed, fail_rate, backend, warmup, progress)
    finally:
        quiet.setLevel(level)


def _soak(app, frames, seed, fail_rate, backend, warmup, progress) -> SoakResult:
    rng = random.Random(seed)
    title = f"ToA Light Assistant soak room {os.getpid()}"
    room = DemoRoom(demo_params("111/0#0/110", 7), title=title, classic=True)
    room.move(40, 40)
    room.show()
    overlay = Overlay()
    flaky = FlakyBackend(backend or default_backend(), rng)
    result = SoakResult()
    pending: list[tuple[int, str]] = []  # (frame, action) to undo an event later
    with Grabber() as real_grabber:
        grabber = FlakyGrabber(real_grabber, rng, fail_rate)
        loop = LiveLoop(
            flaky, grabber, f"^{re.escape(title)}$", exclude_titles=(OVERLAY_TITLE,)
        )
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline:  # the room is mapped and listed
            app.processEvents()
            if loop.tick().kind == "steps":
                break
        total = warmup + frames
        faults_before = 0
        started = time.monotonic()
        for i in range(total):
            if i == warmup:
                gc.collect()
                result.start_mb = resident_mb()
                started = time.monotonic()
                faults_before = flaky.faults + grabber.faults
            measured = i >= warmup
            _events(i, rng, room, flaky, pending, result if measured else None)
            app.processEvents()
            try:
                state = loop.tick()
                overlay.show_state(state)
            except Exception as error:  # a bug: the soak exists to find these
                if measured:
                    result.exceptions.append(f"{error.__class__.__name__}: {error}")
                state = LiveState("error", "exception")
            if measured:
                result.frames += 1
                result.errors_handled = flaky.faults + grabber.faults - faults_before
                result.kinds[state.kind] = result.kinds.get(state.kind, 0) + 1
                if progress is not None and result.frames % 1000 == 0:
                    progress(result)
        gc.collect()
        result.end_mb = resident_mb()
        # every injected fault (a failed or black grab, the window gone or minimised
        # behind the backend's back) that the loop turned into a state
        result.errors_handled = flaky.faults + grabber.faults - faults_before
        result.seconds = time.monotonic() - started
    overlay.close()
    room.close()
    app.processEvents()
    return result


def _events(i, rng, room, flaky, pending, result) -> None:
    """Undo the events that are due, and now and then start a new one."""
    for due, action in [p for p in pending if p[0] <= i]:
        pending.remove((due, action))
        if action == "show":
            room.showNormal()
            room.raise_()
        elif action == "normal":
            flaky.mode = "normal"
    if pending or rng.randrange(EVENT_EVERY):
        return
    names = [name for name, _ in _EVENTS]
    weights = [weight for _, weight in _EVENTS]
    event = rng.choices(names, weights)[0]
    if result is not None:
        result.events[event] = result.events.get(event, 0) + 1
    if event == "move":
        room.move(rng.randrange(0, 600), rng.randrange(0, 300))
    elif event == "hide-show":
        room.hide()
        pending.append((i + rng.randrange(5, 30), "show"))
    elif event == "minimize":
        room.showMinimized()
        pending.append((i + rng.randrange(5, 30), "show"))
    elif event == "fake-gone":
        flaky.mode = "gone"
        pending.append((i + rng.randrange(5, 30), "normal"))
    elif event == "fake-minimized":
        flaky.mode = "minimized"
        pending.append((i + rng.randrange(5, 30), "normal"))
    elif event == "step":
        room.step(rng.randrange(8))
