"""A real X server for the end-to-end tests: Xvfb + openbox (window manager, so windows
can be found by title) + xcompmgr (compositor, so the translucent overlay is blended).

Missing programs skip the tests with the reason, except under CI (``CI=true``), where
they fail: CI installs them (scripts/debian-packages*.txt).
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
PROGRAMS = ("Xvfb", "openbox", "xcompmgr", "xdotool")


def require_programs() -> None:
    missing = [name for name in PROGRAMS if shutil.which(name) is None]
    if missing:
        message = f"the X11 tests need {', '.join(missing)} (see scripts/debian-packages*.txt)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)


@dataclass
class XServer:
    display: str
    width: int
    height: int
    processes: list[subprocess.Popen] = field(default_factory=list)

    @property
    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(DISPLAY=self.display, QT_QPA_PLATFORM="xcb", PYTHONUNBUFFERED="1")
        env.pop("WAYLAND_DISPLAY", None)
        env.pop("QT_SCALE_FACTOR", None)
        env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
        return env

    def start_app(self, *args: str, scale: float | None = None) -> subprocess.Popen:
        """Start ``python -m assistant ARGS`` on this display (stdout is a pipe)."""
        env = self.env
        if scale is not None:
            env["QT_SCALE_FACTOR"] = str(scale)
        proc = subprocess.Popen(
            [sys.executable, "-m", "assistant", *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.processes.append(proc)
        return proc

    def xdotool(self, *args: str) -> str:
        return subprocess.run(
            ["xdotool", *args], env=self.env, capture_output=True, text=True, check=True, timeout=10
        ).stdout

    def grab(self) -> np.ndarray:
        """The whole screen as BGR, through mss as the assistant sees it."""
        script = (
            "import mss, numpy as np, sys\n"
            "with mss.MSS() as s:\n"
            "    shot = s.grab(s.monitors[0])\n"
            "    sys.stdout.buffer.write(bytes(shot.bgra))\n"
        )
        raw = subprocess.run(
            [sys.executable, "-c", script],
            env=self.env,
            capture_output=True,
            check=True,
            timeout=20,
        ).stdout
        return np.frombuffer(raw, np.uint8).reshape(self.height, self.width, 4)[..., :3].copy()

    def stop_apps(self) -> dict[int, tuple[str, str]]:
        """Stop every app started here; returns each one's (stdout, stderr) by pid."""
        outputs = {}
        for proc in self.processes:
            if proc.poll() is None:
                proc.terminate()
            try:
                outputs[proc.pid] = proc.communicate(timeout=5)  # also closes the pipes
            except subprocess.TimeoutExpired:
                proc.kill()
                outputs[proc.pid] = proc.communicate()
        self.processes.clear()
        return outputs


def _read_display_number(ready: int, xvfb: subprocess.Popen, timeout: float) -> int:
    """The display number Xvfb writes to ``ready`` (a line) once it is up."""
    deadline = time.monotonic() + timeout
    text = b""
    while not text.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or xvfb.poll() is not None:
            raise RuntimeError("Xvfb did not start")
        if select.select([ready], [], [], min(left, 0.1))[0]:
            chunk = os.read(ready, 32)
            if not chunk:
                raise RuntimeError("Xvfb did not start")
            text += chunk
    return int(text)


def start_x_server(width: int = 2000, height: int = 1400) -> tuple[XServer, list[subprocess.Popen]]:
    require_programs()
    # Xvfb picks a free display itself and writes its number once it accepts connections
    # (-displayfd): two test processes (pytest -n) or two checkouts never race for one.
    ready, announce = os.pipe()
    base = [
        subprocess.Popen(
            ["Xvfb", "-displayfd", str(announce), "-screen", "0", f"{width}x{height}x24",
             "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(announce,),
        ),
    ]
    os.close(announce)
    try:
        number = _read_display_number(ready, base[0], timeout=10)
    finally:
        os.close(ready)
    server = XServer(f":{number}", width, height)
    env = server.env
    base.append(
        subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    )
    base.append(
        subprocess.Popen(
            ["xcompmgr"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
    )
    time.sleep(0.8)
    return server, base


def wait_for(condition, timeout: float, interval: float = 0.05):
    """Poll ``condition()`` until it returns something other than None or False;
    returns it, or None on time-out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value is not None and value is not False:
            return value
        time.sleep(interval)
    return None
