"""The control window players start with ``toa-assistant``: which window to read, what
the assistant sees, and the doors to calibration, manual entry, settings and the demo.

It owns the capture worker and the overlay; everything it shows comes from
:class:`assistant.live.LiveState` objects the worker sends.
"""

from __future__ import annotations

import re
from pathlib import Path

from PyQt6.QtCore import QEvent, QObject, Qt, QTimer
from PyQt6.QtWidgets import (
    QApplication,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from assistant.capture import Grabber, WindowBackend, default_backend, find_window
from assistant.gui.application import application, place_beside
from assistant.gui.demo import DEMO_TITLE, DemoRoom
from assistant.gui.overlay import OVERLAY_TITLE, Overlay, parse_colour
from assistant.gui.session import OverlaySession
from assistant.live import LiveState
from assistant.profile import Profile, load_profile
from assistant.settings import Settings, config_dir, load_settings, save_settings

__all__ = ["APP_TITLE", "ControlWindow", "main"]

APP_TITLE = "ToA Light Assistant"
OWN_TITLES = (
    APP_TITLE,
    OVERLAY_TITLE,
    "ToA Light Assistant settings",
    "Calibrate — ToA Light Assistant",
)


class ControlWindow(QMainWindow):
    """The main window. ``backend`` lists windows (a fake one in tests); ``settings_file``
    None means the user's settings file."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        backend: WindowBackend | None = None,
        settings_file: str | Path | None = None,
        notice: str | None = None,
    ) -> None:
        super().__init__()
        self.setWindowTitle(APP_TITLE)
        self.settings_file = settings_file
        if settings is None:
            settings, warning = load_settings(settings_file)
            notice = notice or warning
        self.settings = settings
        self.backend = backend or default_backend()
        self.profile: Profile | None = None
        self.profile_path: str | None = None
        self.session: OverlaySession | None = None
        self.overlay = Overlay(parse_colour(settings.mark_color))
        self.last_state: LiveState | None = None
        self.demo: DemoRoom | None = None
        self.manual = None
        self._before_demo: str | None = None  # the target text before the demo took it

        self.target = QComboBox()
        self.target.setEditable(True)
        self.target.setToolTip("A window title, or a pattern such as RuneLite|Old School RuneScape")
        self.target.setMinimumWidth(320)
        self.refresh_windows()
        self.target.setCurrentText(settings.window_title)
        refresh = QPushButton("Refresh")
        refresh.clicked.connect(self.refresh_windows)
        self.status = QLabel("Press Start to read the game window.")
        self.status.setWordWrap(True)
        self.status.setStyleSheet("font-size: 15px; padding: 6px;")
        self.notice = QLabel(notice or "")
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("color: #8a4b00;")
        self.notice.setVisible(bool(notice))
        self.profile_label = QLabel("Plates: found automatically (no calibration needed).")
        self.start_button = QPushButton("Start overlay")
        self.start_button.clicked.connect(self.toggle_overlay)
        self.calibrate_button = QPushButton("Calibrate…")
        self.calibrate_button.clicked.connect(self.open_calibration)
        self.load_button = QPushButton("Load profile…")
        self.load_button.clicked.connect(self.load_profile_dialog)
        self.manual_button = QPushButton("Manual entry…")
        self.manual_button.clicked.connect(self.open_manual)
        self.settings_button = QPushButton("Settings…")
        self.settings_button.clicked.connect(self.open_settings)
        self.demo_button = QPushButton("Try the demo room")
        self.demo_button.setToolTip("A stand-in puzzle room: click plates to step on them.")
        self.demo_button.clicked.connect(self.open_demo)

        top = QHBoxLayout()
        top.addWidget(QLabel("Game window:"))
        top.addWidget(self.target, 1)
        top.addWidget(refresh)
        buttons = QHBoxLayout()
        for button in (
            self.start_button,
            self.calibrate_button,
            self.load_button,
            self.manual_button,
            self.settings_button,
        ):
            buttons.addWidget(button)
        layout = QVBoxLayout()
        layout.addWidget(self.notice)
        layout.addLayout(top)
        layout.addWidget(self.status)
        layout.addWidget(self.profile_label)
        layout.addLayout(buttons)
        layout.addWidget(self.demo_button, alignment=Qt.AlignmentFlag.AlignLeft)
        body = QWidget()
        body.setLayout(layout)
        self.setCentralWidget(body)
        self._fit()

    def _fit(self) -> None:
        """Grow the window (never shrink it) so every wrapped line of the status and the
        notice is shown: a QMainWindow does not follow its labels' height-for-width."""
        body = self.centralWidget()
        if body is None:
            return
        body.layout().activate()
        width = body.width() if self.isVisible() else max(body.sizeHint().width(), 520)
        needed = body.layout().totalHeightForWidth(width)
        if needed > body.height() or not self.isVisible():
            extra = self.height() - body.height() if self.isVisible() else 0
            self.resize(max(self.width(), width), max(self.height(), needed + extra))

    def set_status(self, text: str) -> None:
        self.status.setText(text)
        self._fit()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        QTimer.singleShot(0, self._fit)  # narrower: the wrapped text needs more lines

    # -- windows ---------------------------------------------------------------------------
    def refresh_windows(self) -> None:
        """List the open windows (ours excluded) in the target box, keeping its text."""
        text = self.target.currentText()
        self.target.clear()
        problem = self.backend.unavailable()
        if problem:
            self.target.setToolTip(problem)
        else:
            titles = sorted({w.title for w in self.backend.windows() if w.title not in OWN_TITLES})
            self.target.addItems(titles)
        self.target.setCurrentText(text)

    def title_pattern(self) -> str:
        """What to look for: a listed title matches itself exactly, anything else is a pattern."""
        text = self.target.currentText().strip() or self.settings.window_title
        listed = [self.target.itemText(i) for i in range(self.target.count())]
        return f"^{re.escape(text)}$" if text in listed else text

    # -- the live loop -----------------------------------------------------------------------
    def toggle_overlay(self) -> None:
        if self.session is None:
            self.start_overlay()
        else:
            self.stop_overlay()

    def start_overlay(self) -> None:
        self.stop_overlay()
        objective = None if self.profile is not None else self.settings.toa_objective
        self.session = OverlaySession(
            self.title_pattern(),
            self.profile,
            fps=self.settings.fps,
            objective=objective,
            backend=self.backend,
            exclude_titles=OWN_TITLES,
            overlay=self.overlay,
            parent=self,
        )
        self.session.state_changed.connect(self.show_state)
        self.session.start()
        self.start_button.setText("Stop overlay")
        self.set_status("Looking for the game window…")

    def stop_overlay(self) -> None:
        if self.session is not None:
            self.session.state_changed.disconnect(self.show_state)
            self.session.stop()
            self.session = None
        self.overlay.hide()
        self.start_button.setText("Start overlay")

    def show_state(self, state: LiveState) -> None:
        self.last_state = state
        status = state.status
        if self.session is not None:
            # the player typed a title; the status names it, not the pattern made of it
            pattern = self.session.worker.title_pattern
            status = status.replace(f"“{pattern}”", f"“{self._typed_title(pattern)}”")
        self.set_status(status)
        if state.kind == "unsupported" and self.session is not None:
            self.stop_overlay()  # nothing can run here: offer Start again, keep the reason
            self.set_status(state.status)
        no_game = state.kind in ("no-window", "unsupported")
        self.demo_button.setText(
            "No game window found: try the demo room" if no_game else "Try the demo room"
        )

    def _typed_title(self, pattern: str) -> str:
        text = self.target.currentText().strip() or self.settings.window_title
        return text if pattern == f"^{re.escape(text)}$" else pattern

    # -- other windows -----------------------------------------------------------------------
    def open_demo(self) -> None:
        if self.demo is None:
            self.demo = DemoRoom()
            self.demo.installEventFilter(self)
            place_beside(self.demo, self)
        if self.target.currentText() != DEMO_TITLE:
            self._before_demo = self.target.currentText()
        self.demo.show()
        self.demo.raise_()
        self.target.setCurrentText(DEMO_TITLE)
        self.start_overlay()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.demo and event.type() == QEvent.Type.Close:
            QTimer.singleShot(0, self._demo_closed)
        return super().eventFilter(watched, event)

    def _demo_closed(self) -> None:
        """The demo room closed: stop reading it and give the target box back."""
        if self.target.currentText() != DEMO_TITLE:
            return
        self.stop_overlay()
        self.target.setCurrentText(self._before_demo or self.settings.window_title)
        self.set_status("The demo room is closed. Press Start to read the game window.")

    def open_manual(self) -> None:
        from assistant.gui.manual import ManualWindow

        board = None
        if self.last_state is not None and self.last_state.board is not None:
            board = self.last_state.board
        elif self.last_state is not None and self.last_state.reading is not None:
            tiles = self.last_state.reading.tiles
            if tiles and all(t.lit is not None for t in tiles):
                board = self.last_state.reading.board
        if self.manual is not None:
            self.manual.close()
        # Parented: Qt, not Python's garbage collector, decides when it is destroyed (it is
        # still a window of its own).
        self.manual = ManualWindow(board, self.settings, self, settings_file=self.settings_file)
        self.manual.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.manual.destroyed.connect(self._manual_closed)
        place_beside(self.manual, self)
        self.manual.show()

    def _manual_closed(self) -> None:
        self.manual = None

    def open_settings(self) -> None:
        from assistant.gui.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.settings, self)
        if dialog.exec() and dialog.result_settings() is not None:
            self.apply_settings(dialog.result_settings())

    def apply_settings(self, settings: Settings) -> None:
        """Use and save new settings; a running overlay restarts with them."""
        self.settings = settings
        save_settings(settings, self.settings_file)
        self.overlay.set_colour(parse_colour(settings.mark_color))
        if self.session is not None:
            self.start_overlay()

    def capture_target(self):
        """One frame of the target window, or a sentence why not."""
        problem = self.backend.unavailable()
        if problem:
            return None, problem
        window = find_window(self.title_pattern(), self.backend.windows(), exclude=OWN_TITLES)
        if window is None:
            return None, f"No window title matches {self.target.currentText()!r}."
        if window.minimized:
            return None, "The game window is minimized: restore it first."
        with Grabber() as grabber:
            return grabber.grab(window.rect), None

    def open_calibration(self) -> None:
        from assistant.gui.calibrate import CalibrationWindow

        # The frozen frame must not hold the overlay's own rings: hide it for the grab.
        shown = self.overlay.isVisible()
        self.overlay.hide()
        QApplication.processEvents()
        try:
            frame, problem = self.capture_target()
        finally:
            if shown and self.session is not None:
                self.overlay.show()
        if frame is None:
            QMessageBox.information(self, APP_TITLE, problem)
            return
        dialog = CalibrationWindow(
            frame[..., :3].copy(), self.target.currentText(), config_dir() / "profiles", self
        )
        dialog.saved.connect(self.use_profile)
        place_beside(dialog, self)
        dialog.exec()

    def load_profile_dialog(self) -> None:
        from PyQt6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getOpenFileName(
            self, "Load calibration profile", str(config_dir() / "profiles"), "Profiles (*.json)"
        )
        if not path:
            return
        try:
            profile = load_profile(path)
        except Exception as error:  # ProfileError or OSError: one sentence, keep going
            QMessageBox.warning(self, APP_TITLE, str(error))
            return
        self.use_profile(profile, path)

    def use_profile(self, profile: Profile, path: str) -> None:
        self.profile = profile
        self.profile_path = path
        self.profile_label.setText(f"Profile: {path}")
        if self.session is not None:
            self.start_overlay()

    def closeEvent(self, event) -> None:
        self.stop_overlay()
        self.overlay.close()
        if self.demo is not None:
            self.demo.close()
        super().closeEvent(event)


def main(argv: list[str] | None = None) -> int:
    """Start the control window and begin reading at once."""
    app = application(argv)
    window = ControlWindow()
    window.show()
    window.start_overlay()
    return app.exec()
