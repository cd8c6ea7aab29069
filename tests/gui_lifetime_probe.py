"""Run by tests/test_gui_lifetime.py in a child process, so that a crash fails one test
instead of ending the run: opens one of the assistant's windows, lets go of the last
reference to it while a paint of it is queued, and runs the garbage collector inside
that paint (the collector may run at any allocation, painting included). Prints
``survived`` when the process lives through it.

    python tests/gui_lifetime_probe.py manual        # the manual window's board grid
    python tests/gui_lifetime_probe.py calibration   # the calibration window's frame
"""

from __future__ import annotations

import gc
import os
import sys
import tempfile
import weakref

import numpy as np
from PyQt6.QtWidgets import QApplication

from assistant.gui import calibrate, grid_view
from assistant.gui.calibrate import CalibrationWindow
from assistant.gui.manual import ManualWindow
from assistant.settings import Settings


def collect_while_painting(cls: type, name: str) -> None:
    """Make ``cls.name``, which the widget's ``paintEvent`` calls with its painter open,
    run the garbage collector first."""
    original = getattr(cls, name)

    def collecting(widget, *args):
        gc.collect()
        return original(widget, *args)

    setattr(cls, name, collecting)


def open_window(kind: str, folder: str):
    """The window of ``kind`` and the widget of it that paints."""
    if kind == "manual":
        collect_while_painting(grid_view.GridView, "_paint")
        window = ManualWindow(settings=Settings(), remember=False)
        return window, window.board_view
    if kind == "calibration":
        collect_while_painting(calibrate.FrameView, "_scale")  # after QPainter(self)
        window = CalibrationWindow(np.zeros((120, 160, 3), np.uint8), "game", folder)
        return window, window.view
    raise SystemExit(f"unknown window {kind!r}")


def main(kind: str) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QApplication([])
    with tempfile.TemporaryDirectory() as folder:
        gc.disable()  # the one collection is the one inside the paint
        window, painted = open_window(kind, folder)
        window.show()
        app.processEvents()
        painted.update()  # a paint queued for the window...
        freed = weakref.ref(window)
        del window, painted  # ...whose last reference goes
        app.processEvents()
        print("freed at once" if freed() is None else "left to the collector")
        print("survived", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
