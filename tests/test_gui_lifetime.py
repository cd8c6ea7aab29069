"""The assistant's windows die when their last reference goes, never later at the garbage
collector's whim: a window kept alive only by a cycle (a lambda slot holding ``self``)
was deleted by a collection that ran inside its own paint, and the process crashed. And
a solve that ends after its window died finds the object it reports through alive."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading
import weakref
from pathlib import Path

import numpy as np
import pytest
from PyQt6 import sip

from assistant.gui import lightup_view, manual
from assistant.gui.app import ControlWindow
from assistant.gui.calibrate import CalibrationWindow
from assistant.gui.demo import DemoRoom, demo_params
from assistant.gui.lightup_view import LightUpPage
from assistant.gui.manual import ManualWindow
from assistant.gui.overlay import Overlay
from assistant.gui.settings_dialog import SettingsDialog
from assistant.gui.steps_panel import StepsPanel
from assistant.settings import CONFIG_DIR_ENV, Settings

pytestmark = [
    pytest.mark.qt_log_level_fail("WARNING"),
    pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints"),  # offscreen
]

PROBE = Path(__file__).with_name("gui_lifetime_probe.py")
ROOT = Path(__file__).resolve().parents[1]


class NoWindows:
    name = "fake"

    def unavailable(self):
        return None

    def windows(self):
        return []

    def update(self, window):
        return None


WINDOWS = {
    "manual": lambda tmp: ManualWindow(settings=Settings(), remember=False),
    "calibration": lambda tmp: CalibrationWindow(np.zeros((120, 160, 3), np.uint8), "game", tmp),
    "control": lambda tmp: ControlWindow(Settings(), backend=NoWindows(),
                                         settings_file=tmp / "s.toml"),
    "demo": lambda tmp: DemoRoom(demo_params("111/0#0/110")),
    "steps panel": lambda tmp: StepsPanel(),
    "overlay": lambda tmp: Overlay(),
    "settings": lambda tmp: SettingsDialog(Settings()),
    "light up page": lambda tmp: LightUpPage(),
}


@pytest.mark.parametrize("kind", WINDOWS)
def test_a_window_is_freed_when_its_last_reference_goes(
    qapp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    gc.disable()
    try:
        window = WINDOWS[kind](tmp_path)
        window.show()
        qapp.processEvents()
        freed = weakref.ref(window)
        del window
        assert freed() is None, f"the {kind} window outlived its last reference (a cycle)"
    finally:
        gc.enable()
        gc.collect()
        qapp.processEvents()


@pytest.mark.gui  # Qt in a child process: no qapp fixture to mark it
@pytest.mark.parametrize("kind", ["manual", "calibration"])
def test_a_collection_inside_a_paint_of_a_dropped_window_does_not_crash(
    tmp_path: Path, kind: str
) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", CONFIG_DIR_ENV: str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "-X", "faulthandler", str(PROBE), kind],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env=env,
    )
    assert run.returncode == 0, f"the probe ended with {run.returncode}:\n{run.stderr}"
    assert run.stdout.split() == ["freed", "at", "once", "survived"]


#: The solver each page calls on its worker thread, by module.
SOLVERS = {
    "manual": (manual, "solve_with_engine"),
    "light up page": (lightup_view, "solve_lightup"),
}


@pytest.mark.parametrize("kind", SOLVERS)
def test_a_solve_that_ends_after_its_window_was_deleted_reports_to_no_one(
    qapp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    module, name = SOLVERS[kind]
    real = getattr(module, name)
    release, workers = threading.Event(), []

    def held_solve(*args, **kwargs):
        workers.append(threading.current_thread())
        assert release.wait(20), "the test never released the solve"
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, held_solve)
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    window = WINDOWS[kind](tmp_path)  # starts its first solve, held above
    window.show()
    qapp.processEvents()
    relay, answers = window._relay, []
    relay.finished.connect(answers.append)
    freed = weakref.ref(window)
    del window
    assert freed() is None
    # the worker still holds the relay: deleted with the window, its emit met a dead object
    assert not sip.isdeleted(relay)
    release.set()
    assert len(workers) == 1
    workers[0].join(20)
    assert not workers[0].is_alive()
    qapp.processEvents()
    # delivered; the dead window's slot was not called (it would raise in its widgets,
    # which pytest-qt reports as a failure)
    assert len(answers) == 1
