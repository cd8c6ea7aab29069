"""What the flight recorder costs (``bench-live`` prints it; ``bench-live --recorder``
alone needs no display): per frame on the loop's thread, the packing done beside it, and
the memory 30 seconds of frames take at 10 fps.

The loop reads a drawn room (1280x720 or 1920x1080) through a stand-in window, once with
the recorder and once without, frame about frame, so both see the same machine load.
The frames carry a fine grain (every pixel differs a little from frame to frame), which
packs worse than a game's flat areas: the memory figures are on the safe side.
"""

from __future__ import annotations

import statistics
import time

import cv2
import numpy as np

from assistant.capture import Rect, WindowInfo
from assistant.live import LiveLoop
from assistant.recorder import FlightRecorder
from lab.scene import SceneParams, render_scene

__all__ = ["measure_recorder"]

#: Frame variants cycled through (each with its own grain).
_VARIANTS = 4


class _Window:
    name = "bench"

    def __init__(self, size: tuple[int, int]) -> None:
        self.rect = Rect(0, 0, *size)

    def unavailable(self):
        return None

    def windows(self):
        return [WindowInfo(1, "bench", self.rect)]

    def update(self, window):
        return self.windows()[0]


class _Screen:
    """Fresh arrays each grab, as mss gives them."""

    def __init__(self, frames: list[np.ndarray]) -> None:
        self.frames, self.grabs = frames, 0

    def grab(self, rect: Rect) -> np.ndarray:
        frame = self.frames[self.grabs % len(self.frames)]
        self.grabs += 1
        return frame[rect.top:rect.bottom, rect.left:rect.right].copy()

    def desktop(self) -> Rect:
        return Rect(0, 0, 4000, 3000)

    def close(self) -> None:
        pass


def _frames(size: tuple[int, int], seed: int) -> list[np.ndarray]:
    width, height = size
    scene = render_scene(SceneParams(seed=7, board="111/0#0/110", frame_size=size,
                                     centre=(0.4 * width, 0.4 * height),
                                     spacing=72.0 * height / 720, rotation_deg=4.0,
                                     colour_jitter=0.0))
    base = cv2.cvtColor(scene.frame, cv2.COLOR_BGR2BGRA)
    rng = np.random.default_rng(seed)
    frames = []
    for _ in range(_VARIANTS):
        grain = rng.integers(-3, 4, (*base.shape[:2], 3), dtype=np.int16)
        frame = base.copy()
        frame[..., :3] = np.clip(base[..., :3].astype(np.int16) + grain, 0, 255)
        frames.append(frame)
    return frames


def _loop(size, frames, recorder: FlightRecorder | None) -> LiveLoop:
    ticks = iter(range(10**9))
    loop = LiveLoop(_Window(size), _Screen(frames), "^bench$",
                    clock=lambda: next(ticks) * 0.1)  # 10 fps on the loop's clock
    if recorder is not None:
        recorder.attach(loop)
    return loop


def measure_recorder(size: tuple[int, int], frames: int = 300, seed: int = 0) -> dict:
    """The recorder's figures for ``frames`` frames (300: 30 s at 10 fps) of a window of
    ``size``: the loop's median frame with and without it (interleaved), the time spent in
    the recorder's hooks per frame, the packing's time per frame packed, and the bytes
    held at the end (and frames whose pixels had to be dropped)."""
    pictures = _frames(size, seed)
    plain = _loop(size, pictures, None)
    recorder = FlightRecorder(background=False)  # packing timed apart, below
    recording = _loop(size, pictures, recorder)
    hooks: list[float] = []
    inner = recorder.frame_done

    def timed_frame_done(loop, observed, shown) -> None:
        started = time.perf_counter()
        recorder.background = True  # keep the hook's own work: packing is timed apart
        try:
            inner(loop, observed, shown)
        finally:
            recorder.background = False
        hooks.append(time.perf_counter() - started)

    recorder.frame_done = timed_frame_done
    packing = 0.0  # seconds the packing took, beside the loop
    without: list[float] = []
    with_recorder: list[float] = []
    for _ in range(frames):
        started = time.perf_counter()
        plain.tick()
        without.append(time.perf_counter() - started)
        started = time.perf_counter()
        recording.tick()
        with_recorder.append(time.perf_counter() - started)
        started = time.perf_counter()
        recorder._pack_some()  # what the packing thread does beside the loop
        packing += time.perf_counter() - started
    snapshot = recorder.snapshot()
    grab_bytes = [g.rect.width * g.rect.height * 4 for r in snapshot.records for g in r.grabs]
    recorder.close()
    return {
        "case": f"recorder-{size[0]}x{size[1]}",
        "frames": frames,
        "frame_ms_median_without": round(statistics.median(without) * 1000, 3),
        "frame_ms_median_with": round(statistics.median(with_recorder) * 1000, 3),
        "hook_ms_median": round(statistics.median(hooks) * 1000, 4),
        "pack_ms_per_grab": round(packing * 1000 / recorder.packed, 2) if recorder.packed
        else 0.0,
        "grabs_packed": recorder.packed,
        "grab_kb_median": round(statistics.median(grab_bytes) / 1024) if grab_bytes else 0,
        "seconds_kept": round(snapshot.duration, 1),
        "held_mb": round(recorder.nbytes / 2**20, 1),
        "budget_mb": round(recorder.budget_bytes / 2**20),
        "pixels_dropped": snapshot.dropped,
    }
