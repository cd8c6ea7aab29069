"""The control window players start with ``toa-assistant``: which window to read, what
the assistant sees, and the doors to calibration, manual entry, settings and the demo.

It owns the capture worker, the overlay and the steps panel; everything it shows comes
from :class:`assistant.live.LiveState` objects the worker sends. The steps panel is an
option ("Steps panel") and the fallback whenever the overlay cannot be drawn over the
game (Wayland, a game that captures black in exclusive fullscreen, an overlay that failed
to show): then it appears by itself and the status says why in one sentence.

Its widgets are built in :mod:`assistant.gui.control_widgets`, its problem reports
are in :mod:`assistant.gui.problem_reports`.
"""

from __future__ import annotations

import logging
import re
import secrets
from pathlib import Path

import numpy as np
from PyQt6.QtCore import QEvent, QObject, Qt, QTimer
from PyQt6.QtGui import QGuiApplication
from PyQt6.QtWidgets import (
    QApplication,
    QMainWindow,
    QMessageBox,
    QWidget,
)

from assistant.capture import (
    Grabber,
    Rect,
    WindowBackend,
    blank_frame_reason,
    default_backend,
    find_window,
    platform_problem,
)
from assistant.gui.application import (
    application,
    frame_margins,
    frame_size,
    place_window,
    screen_area,
)
from assistant.gui.control_widgets import ControlWidgets
from assistant.gui.demo import DEMO_TITLE, DemoRoom, demo_params
from assistant.gui.hotkey import GlobalHotkey
from assistant.gui.overlay import OVERLAY_TITLE, Overlay, parse_colour
from assistant.gui.own_windows import logical_rect, own_window_rects, rect
from assistant.gui.problem_reports import ProblemReports
from assistant.gui.session import OverlaySession
from assistant.gui.steps_panel import StepsPanel
from assistant.live import LiveState
from assistant.masking import mask_frame
from assistant.placement import fits_beside, overlap, place_beside
from assistant.profile import Profile, load_profile
from assistant.recorder import FlightRecorder
from assistant.settings import Settings, config_dir, load_settings, save_settings
from assistant.steps import steps_view_for_state, stopped_view, unknown_view

__all__ = [
    "APP_TITLE",
    "ControlWindow",
    "main",
    "overlay_platform_problem",
    "titles_in_words",
]

APP_TITLE = "ToA Light Assistant"
#: The manual window's title (assistant.gui.manual.WINDOW_TITLE, not imported here: the
#: manual window loads on demand, so the control window opens fast).
MANUAL_TITLE = "ToA Light Assistant — manual entry"
OWN_TITLES = (
    APP_TITLE,
    OVERLAY_TITLE,
    "ToA Light Assistant settings",
    "Calibrate — ToA Light Assistant",
    "ToA steps",
    MANUAL_TITLE,
    "Save a problem report — ToA Light Assistant",
)
#: How often (ms) the control window looks for the game window before it has found it.
WATCH_MS = 1000
STOPPED = (
    "Stopped: nothing is read and no marks are drawn. Press Start overlay to read the "
    "game again."
)

log = logging.getLogger(__name__)

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


def titles_in_words(pattern: str) -> str | None:
    """The window titles a pattern of plain titles looks for, in words:
    ``RuneLite|Old School RuneScape`` -> ``RuneLite or Old School RuneScape``; None when
    the pattern is more than titles joined by ``|`` (it is then shown as it is)."""
    parts = [part.strip() for part in pattern.split("|")]
    if not all(parts) or any(re.escape(part).replace("\\ ", " ") != part for part in parts):
        return None
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} or {parts[-1]}"


def overlay_platform_problem() -> str | None:
    """A sentence when this desktop cannot place the overlay over the game at all (a
    Wayland session: no program may put its window over another's), else None."""
    if QGuiApplication.platformName().startswith("wayland"):
        return WAYLAND_FALLBACK
    problem = platform_problem()
    if problem and "Wayland" in problem:
        return WAYLAND_FALLBACK
    return None


class ControlWindow(ControlWidgets, ProblemReports, QMainWindow):
    """The main window. ``backend`` lists windows (a fake one in tests); ``settings_file``
    None means the user's settings file."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        backend: WindowBackend | None = None,
        settings_file: str | Path | None = None,
        notice: str | None = None,
        reports_folder: str | Path | None = None,
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
        self._panel_dragged = False  # moved by the player since the start: stays there
        self._panel_shown_before = False
        self.fallback: str | None = None  # why the panel stands in for the overlay
        self.last_state: LiveState | None = None
        self.demo: DemoRoom | None = None
        self.manual = None
        self._before_demo: str | None = None  # the target text before the demo took it
        self._watch = QTimer(self)  # looks for the game window until it opens
        self._watch.setInterval(WATCH_MS)
        self._watch.timeout.connect(self._look_for_game)
        #: the last seconds of the live loop, for a problem report (assistant.recorder)
        self.recorder = FlightRecorder(settings.report_seconds)
        self.reports_folder = None if reports_folder is None else Path(reports_folder)
        self.report_dialog = None
        self.report_writer = None
        self.hotkey: GlobalHotkey | None = None

        self._build_widgets(notice)
        self._lay_out_widgets()
        self.set_status("Press Start overlay to read the game window.")
        self._update_panel_visibility()
        self._register_hotkey()

    def _fit(self) -> None:
        """Size the window to its contents (before it is shown), and later grow it (never
        shrink it) so every wrapped line of the status and the notice is shown: a
        QMainWindow does not follow its labels' height-for-width."""
        body = self.centralWidget()
        if body is None:
            return
        body.layout().activate()
        if not self.isVisible():
            width = max(body.sizeHint().width(), 520)
            self.resize(width, body.layout().totalHeightForWidth(width))
            return
        needed = body.layout().totalHeightForWidth(body.width())
        if needed > body.height():
            self.resize(self.width(), self.height() - body.height() + needed)

    def set_status(self, text: str) -> None:
        self.status.setText(text)
        self._fit()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        QTimer.singleShot(0, self._fit)  # narrower: the wrapped text needs more lines

    # -- windows ---------------------------------------------------------------------------
    def _default_target_text(self) -> str:
        """What the target box shows for the settings' pattern: its titles in words."""
        return titles_in_words(self.settings.window_title) or self.settings.window_title

    def _target_tip(self) -> str:
        words = titles_in_words(self.settings.window_title)
        looks_for = (f"the first window whose title contains {words}" if words
                     else f"the first window whose title matches {self.settings.window_title}")
        return (f"The assistant reads {looks_for}. Pick another window from the list, or "
                "type part of its title.")

    def refresh_windows(self) -> None:
        """List the open windows (ours excluded) in the target box, keeping its text; the
        settings' titles in words come first."""
        text = self.target.currentText()
        self.target.clear()
        self.target.addItem(self._default_target_text())
        problem = self.backend.unavailable()
        if problem:
            self.target.setToolTip(problem)
        else:
            titles = sorted({w.title for w in self.backend.windows() if w.title not in OWN_TITLES})
            self.target.addItems([t for t in titles if t != self._default_target_text()])
        self.target.setCurrentText(text)

    def title_pattern(self) -> str:
        """What to look for: the settings' titles (shown in words) as their pattern, a
        listed title exactly, anything typed as a pattern."""
        text = self.target.currentText().strip()
        if not text or text == self._default_target_text():
            return self.settings.window_title
        listed = [self.target.itemText(i) for i in range(1, self.target.count())]
        return f"^{re.escape(text)}$" if text in listed else text

    def _looked_for(self, pattern: str) -> str:
        """The pattern as the status says it: the titles in quotes, joined by "or"."""
        if pattern == f"^{re.escape(self.target.currentText().strip())}$":
            return f"“{self.target.currentText().strip()}”"
        words = titles_in_words(pattern)
        if words is None:
            return f"“{pattern}”"
        parts = [part.strip() for part in pattern.split("|")]
        quoted = [f"“{part}”" for part in parts]
        return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"

    # -- the live loop -----------------------------------------------------------------------
    def watch_for_game(self) -> None:
        """At launch: look for the game window once a second and start reading as soon as
        it is open. Until then nothing runs (the button offers Start, not Stop)."""
        if self.backend.unavailable():
            self.start_overlay()  # nothing can run here: the loop says why in one sentence
            return
        self._watch.start()
        self._look_for_game()

    def _look_for_game(self) -> None:
        if self.session is not None:
            self._watch.stop()
            return
        window = find_window(self.title_pattern(), self.backend.windows(), exclude=OWN_TITLES)
        if window is not None:
            self._watch.stop()
            self.start_overlay()
            return
        self.set_status(
            f"Waiting for the game: no window with {self._looked_for(self.title_pattern())} "
            "in its title is open. Reading starts by itself when it opens; or try the demo "
            "room."
        )
        self.demo_button.setText("No game window found: try the demo room")

    def toggle_overlay(self) -> None:
        if self.session is None:
            self.start_overlay()
        else:
            self.stop_overlay()

    def start_overlay(self) -> None:
        self._end_session()
        self._watch.stop()
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
            recorder=self.recorder,
            parent=self,
        )
        self.session.state_changed.connect(self.show_state)
        self.session.start()
        self.start_button.setText("Stop overlay")
        self.set_status("Looking for the game window…")
        self.last_state = None
        self.steps_panel.show_view(unknown_view("Looking for the game window…",
                                                self._panel_board()))

    def _end_session(self) -> None:
        """Stop reading and take the marks down (no word to the player)."""
        if self.session is not None:
            self.session.state_changed.disconnect(self.show_state)
            self.session.stop()
            self.session = None
        self.overlay.hide()
        self.start_button.setText("Start overlay")

    def stop_overlay(self) -> None:
        """The player's Stop: nothing is read or drawn any more, and everything says so."""
        self._end_session()
        self._watch.stop()
        self.fallback = None
        self.last_state = None
        self.set_status(STOPPED)
        self.steps_panel.show_view(stopped_view(self._panel_board()))
        self._update_panel_visibility()

    def show_state(self, state: LiveState) -> None:
        self.last_state = state
        status = state.status
        if self.session is not None:
            # the status names what the player typed or the titles in words, not a pattern
            pattern = self.session.worker.title_pattern
            status = status.replace(f"“{pattern}”", self._looked_for(pattern))
        self.set_status(status)
        if state.kind == "unsupported" and self.session is not None:
            self._end_session()  # nothing can run here: offer Start again, keep the reason
            self.set_status(state.status)
        self._feed_panel(state)
        if self.fallback:
            self.set_status(f"{self.status.text()} {self.fallback}")
        no_game = state.kind in ("no-window", "unsupported")
        self.demo_button.setText(
            "No game window found: try the demo room" if no_game else "Try the demo room"
        )
        if state.window is not None:
            self._keep_panel_off_the_game()

    # -- where windows go --------------------------------------------------------------------
    def game_rect(self) -> Rect | None:
        """Where the game window is (logical pixels, its frame included), or None when it
        is not known: the demo room while it stands in, else the window read last, else
        the window the target box names."""
        if self.demo is not None and self.demo.isVisible() \
                and self.target.currentText() == DEMO_TITLE:
            return rect(self.demo.frameGeometry())
        area = self.last_state.window if self.last_state is not None else None
        if area is None and not self.backend.unavailable():
            window = find_window(self.title_pattern(), self.backend.windows(),
                                 exclude=OWN_TITLES)
            area = None if window is None else window.rect
        if area is None:
            return None
        client = logical_rect(area)  # the client area: add the frame the game has
        left, top, right, bottom = frame_margins(self)
        return Rect(client.left - left, client.top - top, client.width + left + right,
                    client.height + top + bottom)

    def _own_rects(self, *skip: QWidget) -> list[Rect]:
        """The assistant's visible windows (logical pixels) but ``skip``."""
        windows = [self, self.steps_panel, self.demo, self.manual]
        return [rect(w.frameGeometry()) for w in windows
                if w is not None and w not in skip and w.isVisible()]

    def place_new_window(self, window: QWidget) -> Rect:
        """Put a window the assistant opens beside the game window, never over it, on
        the game's screen and off the assistant's other windows where there is room
        (beside this window when the game is not known)."""
        game = self.game_rect()
        keep_clear = game if game is not None else rect(self.frameGeometry())
        avoid = [r for r in self._own_rects(window) if r != keep_clear]
        return place_window(window, keep_clear, avoid, reference=self)

    def _keep_panel_off_the_game(self) -> None:
        """The game window became known or moved: a panel the player has not dragged
        this time goes beside it if it lies over it (or off the screen)."""
        panel = self.steps_panel
        if not panel.isVisible() or self._panel_dragged:
            return
        game = self.game_rect()
        if game is None:
            return
        here = rect(panel.frameGeometry())
        area = screen_area(here, panel)
        if overlap(here, game) == 0 and area.intersect(here) == here:
            return
        if overlap(here, game) and not fits_beside(area, game, (here.width, here.height)):
            return  # no room beside the game anywhere: leave it where the player sees it
        self.place_new_window(panel)

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
        self._panel_dragged = True
        if self.settings.steps_panel_position != (left, top):
            self.settings = self.settings.with_changes(steps_panel_position=(left, top))
            save_settings(self.settings, self.settings_file)

    def _update_panel_visibility(self) -> None:
        wanted = self.settings.show_steps_panel or self.fallback is not None
        panel = self.steps_panel
        if wanted and not panel.isVisible():
            saved = self.settings.steps_panel_position
            if self._panel_dragged:
                pass  # where the player put it this time
            elif saved is not None and not self._panel_shown_before:
                panel.move(*saved)
                here = rect(panel.frameGeometry())
                game = self.game_rect()
                area = screen_area(here, self)
                if area.intersect(here) != here or (game is not None and overlap(here, game)):
                    self.place_new_window(panel)  # the game or the screen changed since
            else:
                self.place_new_window(panel)
            self._panel_shown_before = True
            panel.show()
        elif not wanted and panel.isVisible():
            panel.hide()

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
        """Show ``state`` on the panel and show or hide the panel as the option and the
        fallback say. Heading, squares and text all come from ``state``."""
        self.fallback = self._fallback_reason(state)
        self.steps_panel.show_view(steps_view_for_state(
            state, self.steps_panel.view(), crossing_steps=self.settings.crossing_steps))
        self._update_panel_visibility()

    def _panel_board(self):
        """The board shape the panel shows (for unknown plates), if it showed one."""
        view = self.steps_panel.view()
        return None if view is None else view.board

    # -- other windows -----------------------------------------------------------------------
    def open_demo(self) -> None:
        """Open the demo room with a new puzzle (each time it opens) and read it."""
        if self.demo is None:
            self.demo = DemoRoom(demo_params(seed=secrets.randbelow(2**31)),
                                 crossing_steps=self.settings.crossing_steps)
            self.demo.installEventFilter(self)
            self.demo.puzzle_changed.connect(self._demo_new_puzzle)
        elif not self.demo.isVisible():
            self.demo.new_puzzle()
        if not self.demo.isVisible():
            self._place_demo()
        if self.target.currentText() != DEMO_TITLE:
            self._before_demo = self.target.currentText()
        self.demo.show()
        self.demo.raise_()
        self.target.setCurrentText(DEMO_TITLE)
        self.start_overlay()

    def _place_demo(self) -> None:
        """The demo room stands in for the game: on this window's screen, beside this
        window; where the screen has no room beside it, the room goes to the screen's
        corner and this window beside the room."""
        demo = self.demo
        control = rect(self.frameGeometry())
        area = screen_area(control, self)
        size = frame_size(demo, self)
        if fits_beside(area, control, size):
            place_window(demo, control, [], reference=self)
            return
        demo.move(area.left, area.top)
        room = Rect(area.left, area.top, *size)
        x, y = place_beside(area, room, (control.width, control.height))
        self.move(x, y)

    def _demo_new_puzzle(self) -> None:
        """A new puzzle in the demo room: read it afresh (the history of the last one
        would not explain the new board)."""
        if self.session is not None and self.target.currentText() == DEMO_TITLE:
            self.start_overlay()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.demo and event.type() == QEvent.Type.Close:
            QTimer.singleShot(0, self._demo_closed)
        return super().eventFilter(watched, event)

    def _demo_closed(self) -> None:
        """The demo room closed: stop reading it and give the target box back."""
        if self.target.currentText() != DEMO_TITLE:
            return
        self._end_session()
        self.fallback = None
        self.last_state = None
        self.target.setCurrentText(self._before_demo or self._default_target_text())
        self.set_status("The demo room is closed. Press Start overlay to read the game window.")
        self.steps_panel.show_view(unknown_view("The demo room is closed.", self._panel_board()))
        self._update_panel_visibility()

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
        self.place_new_window(self.manual)
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
        typed = self.target.currentText()
        shown_default = typed == self._default_target_text()
        self.settings = settings
        save_settings(settings, self.settings_file)
        self.overlay.set_colour(parse_colour(settings.mark_color))
        self.target.setToolTip(self._target_tip())
        self.refresh_windows()
        if shown_default:
            self.target.setCurrentText(self._default_target_text())
        self.recorder.seconds = float(settings.report_seconds)
        self._register_hotkey()
        if self.session is not None:
            self.start_overlay()

    def capture_target(self):
        """One frame of the target window with the assistant's own windows painted over
        (never part of what it reads), or a sentence why not."""
        problem = self.backend.unavailable()
        if problem:
            return None, problem
        pattern = self.title_pattern()
        window = find_window(pattern, self.backend.windows(), exclude=OWN_TITLES)
        if window is None:
            return None, (f"No game window is open: no window title matches "
                          f"{self._looked_for(pattern)}.")
        if window.minimized:
            return None, "The game window is minimized: restore it first."
        with Grabber() as grabber:
            try:
                if window.rect.intersect(grabber.desktop()) != window.rect:
                    return None, ("Part of the game window is off the screen: move it wholly "
                                  "onto the screen, then calibrate.")
                frame = grabber.grab(window.rect)
            except Exception:  # mss raises its own errors: one sentence, keep going
                log.warning("calibration grab failed", exc_info=True)
                return None, "The screen could not be captured just now: try again."
        return mask_frame(frame, window.rect, own_window_rects(pattern, OWN_TITLES)), None

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
        self.place_new_window(dialog)
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
        self._end_session()
        self._watch.stop()
        if self.hotkey is not None:
            self.hotkey.unregister()
        if self.report_writer is not None and self.report_writer.isRunning():
            self.report_writer.wait(10_000)  # a report being written is finished first
        self.recorder.close()
        self.overlay.close()
        self.steps_panel.close()
        if self.demo is not None:
            self.demo.close()
        super().closeEvent(event)


def main(argv: list[str] | None = None) -> int:
    """Start the control window; it begins reading as soon as the game window is open."""
    app = application(argv)
    window = ControlWindow()
    window.show()
    window.watch_for_game()
    return app.exec()
