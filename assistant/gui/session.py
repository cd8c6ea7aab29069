"""A capture worker and the overlay it drives, as one thing to start and stop.

Used by the control window, ``run``, ``demo`` and ``bench-live``, so the wiring between
the worker thread and the overlay lives in one place.
"""

from __future__ import annotations

import logging
import signal

from PyQt6.QtCore import QObject, QTimer, pyqtSignal
from PyQt6.QtGui import QColor
from PyQt6.QtWidgets import QApplication

from assistant.capture import WindowBackend
from assistant.gui.overlay import OVERLAY_TITLE, Overlay
from assistant.gui.own_windows import OwnWindowMask
from assistant.gui.worker import CaptureWorker
from assistant.live import LiveState
from assistant.profile import Profile
from assistant.recorder import FlightRecorder

__all__ = ["OverlaySession", "exec_until_signalled"]

log = logging.getLogger(__name__)


class OverlaySession(QObject):
    """Reads the window matching ``title_pattern`` and shows the marks until stopped.

    ``state_changed`` repeats the worker's signal in the GUI thread, after the overlay
    has been updated. The assistant's own windows (all but the overlay and the window
    read) are painted over in every grab (:mod:`assistant.masking`).
    """

    state_changed = pyqtSignal(object)

    def __init__(
        self,
        title_pattern: str,
        profile: Profile | None = None,
        *,
        fps: float = 10.0,
        objective: int | None = None,
        colour: QColor | None = None,
        backend: WindowBackend | None = None,
        exclude_titles: tuple[str, ...] = (),
        track: bool = True,
        show_route: bool = True,
        crossing_steps: bool = True,
        overlay: Overlay | None = None,
        recorder: FlightRecorder | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.overlay = overlay or Overlay(colour)
        self.mask = OwnWindowMask(title_pattern, (OVERLAY_TITLE, *exclude_titles), self)
        self.worker = CaptureWorker(
            title_pattern,
            profile,
            fps=fps,
            objective=objective,
            backend=backend,
            exclude_titles=(OVERLAY_TITLE, *exclude_titles),
            track=track,
            show_route=show_route,
            crossing_steps=crossing_steps,
            mask=self.mask.rects,
            recorder=recorder,
        )
        self.recorder = recorder
        self.worker.state_changed.connect(self._show)
        # Destroyed with its window while still reading (a window closed without its
        # closeEvent): the thread must end first, or Qt aborts the process.
        self.destroyed.connect(self.worker.stop)
        #: False when the last state had marks the overlay did not show (it failed, or the
        #: window system refused it): the control window then shows the steps panel.
        self.overlay_shown = True

    def _show(self, state: LiveState) -> None:
        try:
            self.overlay.show_state(state)
        except Exception:  # the state must still reach the window (and the steps panel)
            log.exception("the overlay could not show the state")
            self.overlay_shown = False
        else:
            self.overlay_shown = not state.marks or self.overlay.isVisible()
        if self.recorder is not None and self.overlay.isVisible():
            # the overlay lies over the game: its screen's scale is the game's
            self.recorder.display_scale = self.overlay.devicePixelRatioF()
        self.state_changed.emit(state)

    def start(self) -> None:
        self.mask.start()
        self.worker.start()

    def stop(self) -> None:
        """Stop reading and hide the marks (the overlay window itself is kept)."""
        self.worker.state_changed.disconnect(self._show)
        self.worker.stop()
        self.mask.stop()
        self.overlay.hide()


def exec_until_signalled(app: QApplication, seconds: float | None = None) -> int:
    """Run the Qt event loop until the last window closes, Ctrl+C / SIGTERM, or ``seconds``.

    A short timer lets Python's signal handlers run while Qt's loop is in control.
    """
    signal.signal(signal.SIGINT, lambda *_: app.quit())
    signal.signal(signal.SIGTERM, lambda *_: app.quit())
    ticker = QTimer()
    ticker.timeout.connect(lambda: None)
    ticker.start(200)
    if seconds:
        QTimer.singleShot(int(seconds * 1000), app.quit)
    return app.exec()
