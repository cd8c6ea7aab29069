"""The ``run`` command's Qt part: the overlay on the game window without the control
window, each new status printed as a line, until Ctrl+C, SIGTERM or the time given; with
a flight recorder, also until the game window has been gone for good.

The command (:mod:`assistant.commands.run`) checks the arguments and saves the report;
everything that needs the Qt event loop runs here.
"""

from __future__ import annotations

from PyQt6.QtCore import QTimer
from PyQt6.QtGui import QColor
from PyQt6.QtWidgets import QApplication

from assistant.gui.session import OverlaySession, exec_until_signalled
from assistant.live import LiveState
from assistant.profile import Profile
from assistant.recorder import FlightRecorder
from assistant.settings import Settings

__all__ = ["run_overlay"]


def run_overlay(
    app: QApplication,
    title: str,
    profile: Profile | None,
    settings: Settings,
    *,
    fps: float,
    objective: int | None,
    colour: QColor,
    recorder: FlightRecorder | None,
    seconds: float | None,
    gone_for_good_seconds: float,
) -> None:
    """Read the window matching ``title`` and draw the marks until stopped.

    With a ``recorder``, the game window gone for ``gone_for_good_seconds`` after it
    was read ends the run (its report is then saved by the caller).
    """
    session = OverlaySession(title, profile, fps=fps, objective=objective, colour=colour,
                             show_route=settings.show_route,
                             crossing_steps=settings.crossing_steps, recorder=recorder)
    gone = QTimer()  # with a recorder: the game window gone for good ends the run
    gone.setSingleShot(True)
    gone.setInterval(int(gone_for_good_seconds * 1000))
    gone.timeout.connect(app.quit)
    printer = _StatusPrinter(gone, watch_window=recorder is not None)  # alive while it runs
    session.state_changed.connect(printer)
    session.start()
    try:
        exec_until_signalled(app, seconds)
    finally:
        session.stop()
        session.overlay.close()


class _StatusPrinter:
    """Prints each new status once; when ``watch_window``, starts ``gone`` when the game
    window that was read is no longer there and stops it when it is back."""

    def __init__(self, gone: QTimer, *, watch_window: bool) -> None:
        self.gone = gone
        self.watch_window = watch_window
        self.last_status: str | None = None
        self.window_seen = False

    def __call__(self, state: LiveState) -> None:
        if state.status != self.last_status:
            self.last_status = state.status
            print(state.status, flush=True)
        if not self.watch_window:
            return
        if state.kind == "no-window":
            if self.window_seen and not self.gone.isActive():
                self.gone.start()
        else:
            self.window_seen = self.window_seen or state.window is not None
            self.gone.stop()
