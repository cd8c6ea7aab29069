"""The control window players start with ``toa-assistant``: which window to read, what
the assistant sees, and the doors to calibration, manual entry, settings and the demo.

It owns the capture worker, the overlay and the steps panel; everything it shows comes
from :class:`assistant.live.LiveState` objects the worker sends. The steps panel is an
option ("Steps panel") and the fallback whenever the overlay cannot be drawn over the
game (Wayland, a game that captures black in exclusive fullscreen, an overlay that failed
to show): then it appears by itself and the status says why in one sentence.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
from PyQt6.QtCore import QEvent, QObject, Qt, QTimer
from PyQt6.QtGui import QGuiApplication
from PyQt6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from assistant.capture import (
    Grabber,
    WindowBackend,
    blank_frame_reason,
    default_backend,
    find_window,
    platform_problem,
)
from assistant.gui.application import application, place_beside
from assistant.gui.demo import DEMO_TITLE, DemoRoom
from assistant.gui.overlay import OVERLAY_TITLE, Overlay, parse_colour
from assistant.gui.session import OverlaySession
from assistant.gui.steps_panel import StepsPanel
from assistant.live import LiveState
from assistant.profile import Profile, load_profile
from assistant.route import RouteError, is_toa_board, plan_route, start_tile
from assistant.settings import Settings, config_dir, load_settings, save_settings
from assistant.steps import StepsView, steps_view_from

__all__ = ["APP_TITLE", "ControlWindow", "main", "overlay_platform_problem"]

APP_TITLE = "ToA Light Assistant"
OWN_TITLES = (
    APP_TITLE,
    OVERLAY_TITLE,
    "ToA Light Assistant settings",
    "Calibrate — ToA Light Assistant",
    "ToA steps",
)

#: The fallback's sentences: why the steps panel appeared by itself.
WAYLAND_FALLBACK = (
    "Wayland does not let the overlay be drawn over the game, so the steps panel shows "
    "the steps instead."
)
BLACK_FALLBACK = (
    "The game captures as black (exclusive fullscreen), so no overlay can be drawn: the "
    "steps panel shows the last steps read instead."
)
FAILED_FALLBACK = (
    "The overlay could not be shown over the game, so the steps panel shows the steps "
    "instead."
)
#: The live state's sentence for a game window that captures black.
_BLACK = blank_frame_reason(np.zeros((4, 4, 3), np.uint8)) or ""


def overlay_platform_problem() -> str | None:
    """A sentence when this desktop cannot place the overlay over the game at all (a
    Wayland session: no program may put its window over another's), else None."""
    if QGuiApplication.platformName().startswith("wayland"):
        return WAYLAND_FALLBACK
    problem = platform_problem()
    if problem and "Wayland" in problem:
        return WAYLAND_FALLBACK
    return None


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
        self.steps_panel = StepsPanel(position=settings.steps_panel_position)
        self.steps_panel.moved.connect(self._panel_moved)
        self._panel_placed = settings.steps_panel_position is not None
        self.fallback: str | None = None  # why the panel stands in for the overlay
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
        self.panel_toggle = QCheckBox("Steps panel")
        self.panel_toggle.setToolTip(
            "A small window with the board and the steps left, beside the overlay."
        )
        self.panel_toggle.setChecked(settings.show_steps_panel)
        self.panel_toggle.toggled.connect(self.set_steps_panel)

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
        extras = QHBoxLayout()
        extras.addWidget(self.demo_button)
        extras.addStretch(1)
        extras.addWidget(self.panel_toggle)
        layout.addLayout(extras)
        body = QWidget()
        body.setLayout(layout)
        self.setCentralWidget(body)
        self._fit()
        self._update_panel_visibility()

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
            show_route=self.settings.show_route,
            crossing_steps=self.settings.crossing_steps,
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
        self._feed_panel(state)
        if self.fallback:
            self.set_status(f"{self.status.text()} {self.fallback}")
        no_game = state.kind in ("no-window", "unsupported")
        self.demo_button.setText(
            "No game window found: try the demo room" if no_game else "Try the demo room"
        )

    # -- the steps panel ---------------------------------------------------------------------
    def set_steps_panel(self, show: bool) -> None:
        """The player's choice: show the panel beside the overlay (saved at once)."""
        if show != self.settings.show_steps_panel:
            self.settings = self.settings.with_changes(show_steps_panel=bool(show))
            save_settings(self.settings, self.settings_file)
        if self.panel_toggle.isChecked() != show:
            self.panel_toggle.setChecked(show)
        self._update_panel_visibility()

    def _panel_moved(self, left: int, top: int) -> None:
        """The player dragged the panel: remember where, for the next start."""
        self._panel_placed = True
        if self.settings.steps_panel_position != (left, top):
            self.settings = self.settings.with_changes(steps_panel_position=(left, top))
            save_settings(self.settings, self.settings_file)

    def _update_panel_visibility(self) -> None:
        wanted = self.settings.show_steps_panel or self.fallback is not None
        if wanted and not self.steps_panel.isVisible():
            if not self._panel_placed:
                place_beside(self.steps_panel, self)
                self._panel_placed = True
            self.steps_panel.show()
        elif not wanted and self.steps_panel.isVisible():
            self.steps_panel.hide()

    def _fallback_reason(self, state: LiveState) -> str | None:
        """Why the overlay cannot be drawn for ``state``, as one sentence, else None."""
        problem = overlay_platform_problem()
        if problem:
            return problem
        if state.kind == "unsupported" and "Wayland" in state.status:
            return WAYLAND_FALLBACK
        if state.kind == "blank" and state.status == _BLACK:
            return BLACK_FALLBACK
        if self.session is not None and not self.session.overlay_shown:
            return FAILED_FALLBACK
        return None

    def _feed_panel(self, state: LiveState) -> None:
        """Show ``state`` on the panel (the last board stays when there is none now) and
        show or hide the panel as the option and the fallback say."""
        self.fallback = self._fallback_reason(state)
        view = self._panel_view(state)
        if view is not None:
            self.steps_panel.show_view(view)
        self._update_panel_visibility()

    def _panel_view(self, state: LiveState) -> StepsView | None:
        board = state.board
        if board is None:
            previous = self.steps_panel.view()
            if previous is None or state.kind not in ("blank", "uncertain", "no-puzzle"):
                return None
            return dataclasses.replace(previous, note=state.status)
        route = state.route
        if route is None and state.presses is not None and is_toa_board(board):
            try:  # the route is off on the overlay; the panel still says how to walk
                route = plan_route(state.presses, start_tile(state.player),
                                   crossing_steps=self.settings.crossing_steps)
            except RouteError:
                route = None
        reason = state.status if state.presses is None else None
        return steps_view_from(board, state.presses, state.player, route,
                               hidden=[c for c in state.hidden if c not in state.inferred],
                               reason=reason)

    def _typed_title(self, pattern: str) -> str:
        text = self.target.currentText().strip() or self.settings.window_title
        return text if pattern == f"^{re.escape(text)}$" else pattern

    # -- other windows -----------------------------------------------------------------------
    def open_demo(self) -> None:
        if self.demo is None:
            self.demo = DemoRoom(crossing_steps=self.settings.crossing_steps)
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
        self.steps_panel.close()
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
