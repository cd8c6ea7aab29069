"""The live path on a real Win32 window, for the Windows smoke run: the assistant's own
window backend (pywinctl) finds the stand-in game window (scripts/windows_standin.py) by
its title, mss's Windows grabber grabs it, and the live loop reads it and computes the
marks, frame after frame of a short walk shown in the stand-in.

Run by the build's Windows Python under wine, with the pinned packages the executable
bundles and this checkout's ``assistant`` package (tests/test_windows_smoke.py):

    python.exe windows_live_check.py REPO TITLE SHOWN FRAME [FRAME ...]

For each FRAME (a ``.bgra`` file, see windows_standin.py) it replaces SHOWN, the picture
the stand-in paints, waits until a grab of the window shows exactly those pixels, runs one
tick of the live loop and prints one JSON line: the frame's record as ``detect --sequence
--json`` prints it (marks in physical screen pixels), plus what the grab saw. The first
line says how the process was made DPI aware and where the window is.
"""

from __future__ import annotations

import ctypes
import json
import os
import struct
import sys
import time

FRAME_INTERVAL = 0.1  # the live loop's 10 fps, as detect --sequence assumes


def read_bgra(path: str):
    import numpy as np

    with open(path, "rb") as handle:
        data = handle.read()
    width, height = struct.unpack("<II", data[:8])
    return np.frombuffer(data[8:], np.uint8).reshape(height, width, 4)


def main(argv: list[str]) -> int:
    repo, title, shown, *frames = argv
    sys.path.insert(0, repo)
    import numpy as np

    from assistant.capture import Grabber, PyWinCtlBackend, find_window, make_dpi_aware
    from assistant.live import LiveLoop
    from assistant.sequence import state_record

    backend = PyWinCtlBackend()
    problem = backend.unavailable()  # makes the process DPI aware first, as the app does
    if problem:
        raise SystemExit(problem)
    awareness = ctypes.windll.user32.GetAwarenessFromDpiAwarenessContext(
        ctypes.windll.user32.GetThreadDpiAwarenessContext())
    window = find_window(title, backend.windows())
    if window is None:
        raise SystemExit(f"no window title matches {title!r}")
    print(json.dumps({
        "dpi": ctypes.windll.user32.GetDpiForSystem(),
        "awareness": awareness,
        "set_again": make_dpi_aware(),  # None: already set, which is what the app relies on
        "title": window.title,
        "rect": [window.rect.left, window.rect.top, window.rect.width, window.rect.height],
        "windows_build": sys.getwindowsversion().build,
    }), flush=True)

    ticks = {"n": 0}
    with Grabber() as grabber:
        loop = LiveLoop(backend, grabber, title, clock=lambda: ticks["n"] * FRAME_INTERVAL)
        for number, frame in enumerate(frames, start=1):
            picture = read_bgra(frame)
            staged = shown + ".new"
            with open(frame, "rb") as source, open(staged, "wb") as target:
                target.write(source.read())
            for _ in range(200):  # Windows refuses while the stand-in has the file open
                try:
                    os.replace(staged, shown)
                    break
                except PermissionError:
                    time.sleep(0.02)
            else:
                raise SystemExit(f"could not replace {shown}")
            deadline = time.monotonic() + 20
            while True:
                grab = grabber.grab(window.rect)
                diff = int(np.abs(grab[..., :3].astype(int) - picture[..., :3]).max()) \
                    if grab.shape == picture.shape else 255
                if diff == 0 or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            ticks["n"] += 1
            state = loop.tick()
            observed, on_show = loop.last_observed, loop.stabilizer.shown
            held = observed is not None and (on_show is None or observed.key != on_show.key)
            record = state_record(state, os.path.basename(frame), number, held)
            record["grab"] = {"shape": list(grab.shape), "max_difference": diff}
            print(json.dumps(record), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
