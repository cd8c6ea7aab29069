"""The live assistant's windows with pytest-qt (offscreen): overlay, control window,
settings dialog, calibration window and demo room."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from PyQt6.QtCore import QPoint, QPointF, Qt

from assistant.capture import Rect
from assistant.gui.app import ControlWindow
from assistant.gui.calibrate import CORNER_PROMPTS, CalibrationWindow
from assistant.gui.demo import DEMO_TITLE, DemoRoom, demo_params
from assistant.gui.overlay import Overlay, parse_colour, to_logical
from assistant.gui.settings_dialog import SettingsDialog
from assistant.live import LiveLoop
from assistant.profile import load_profile
from assistant.puzzle import TOA_PLATES, toa_board
from assistant.settings import Settings, load_settings
from lab.scene import SceneParams, render_scene, screen_board


class NoWindows:
    name = "fake"

    def unavailable(self):
        return None

    def windows(self):
        return []

    def update(self, window):
        return None


class OneFrame:
    """A grabber that always returns one frame."""

    def __init__(self, frame):
        self.frame = frame

    def grab(self, rect):
        return self.frame


AREA = Rect(0, 0, 800, 600)


def live_state(board="111/0#0/110", area=AREA):
    scene = render_scene(
        SceneParams(
            seed=5,
            board=board,
            frame_size=(area.width, area.height),
            centre=(400, 300),
            spacing=70.0,
        )
    )
    loop = LiveLoop(NoWindows(), OneFrame(scene.frame), "x")
    return loop.process(scene.frame, area), scene


def test_to_logical_handles_device_pixel_ratios_and_screen_origins() -> None:
    for ratio in (1.0, 1.25, 1.5, 2.0):
        assert to_logical(300, 150, (0, 0), ratio) == (300 / ratio, 150 / ratio)
    # A second screen at x = 1920 (logical = physical origin), ratio 2.
    assert to_logical(1920 + 400, 100, (1920, 0), 2.0) == (1920 + 200, 50)


def test_parse_colour() -> None:
    colour = parse_colour("#00E5FFB4")
    assert (colour.red(), colour.green(), colour.blue(), colour.alpha()) == (0, 229, 255, 180)
    with pytest.raises(ValueError):
        parse_colour("cyan")


def test_overlay_paints_rings_outside_the_plates_and_hides_when_done(qtbot) -> None:
    overlay = Overlay(parse_colour("#FF00FFFF"))
    qtbot.addWidget(overlay)
    state, _ = live_state()
    overlay.show_state(state)
    assert overlay.isVisible() and len(overlay.marks) == 3
    assert overlay.geometry().getRect() == (0, 0, 800, 600)
    # asked once, when first shown; only Windows 10 2004+ can leave it out of captures
    assert overlay.excluded_from_capture is (sys.platform == "win32" and
                                             sys.getwindowsversion().build >= 19041)
    image = overlay.grab().toImage()
    for mark in state.marks:
        cx, cy = mark.centre
        ring_x = (mark.outer[0][0] + mark.inner[0][0]) / 2
        ring_y = (mark.outer[0][1] + mark.inner[0][1]) / 2
        painted = image.pixelColor(int(ring_x), int(ring_y))
        assert (painted.red(), painted.blue()) == (255, 255)
        centre = image.pixelColor(int(cx), int(cy))
        assert centre.alpha() == 0  # the plate itself stays clear
    solved, _ = live_state("111/1#1/111")
    overlay.show_state(solved)
    assert not overlay.isVisible() and not overlay.marks
    flags = overlay.windowFlags()
    assert flags & Qt.WindowType.WindowTransparentForInput
    assert flags & Qt.WindowType.WindowStaysOnTopHint


def test_control_window_without_a_game_offers_the_demo(qtbot, tmp_path: Path) -> None:
    window = ControlWindow(Settings(), backend=NoWindows(), settings_file=tmp_path / "s.toml")
    qtbot.addWidget(window)
    window.start_overlay()
    qtbot.waitUntil(lambda: "No game window" in window.status.text(), timeout=5000)
    assert "demo room" in window.demo_button.text()
    assert window.start_button.text() == "Stop overlay"
    window.stop_overlay()
    assert window.session is None and window.start_button.text() == "Start overlay"


def test_control_window_shows_the_state_and_opens_manual_entry_prefilled(qtbot, tmp_path) -> None:
    window = ControlWindow(Settings(), backend=NoWindows(), settings_file=tmp_path / "s.toml")
    qtbot.addWidget(window)
    state, scene = live_state()
    window.show_state(state)
    assert window.status.text() == "Puzzle found: step on 3 plates."
    window.open_manual()
    assert window.manual.isWindow() and window.manual.isVisible()
    assert window.manual.model.board.format() == screen_board(scene)
    window.manual.close()
    qtbot.waitUntil(lambda: window.manual is None, timeout=2000)
    window.overlay.hide()


def test_settings_dialog_round_trip_and_refusal(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    window = ControlWindow(Settings(), backend=NoWindows(), settings_file=path)
    qtbot.addWidget(window)
    dialog = SettingsDialog(window.settings, window)
    qtbot.addWidget(dialog)
    dialog.fps.setValue(15)
    dialog.set_colour("#FF000080")
    dialog.objective.setCurrentIndex(1)
    dialog.accept()
    window.apply_settings(dialog.result_settings())
    saved, warning = load_settings(path)
    assert warning is None
    assert (saved.fps, saved.mark_color, saved.toa_objective) == (15, "#FF000080", 0)
    assert window.overlay.colour.alpha() == 0x80

    bad = SettingsDialog(saved, window)
    qtbot.addWidget(bad)
    bad.title.setText("[unclosed")
    bad.accept()
    assert bad.result_settings() is None and "window_title" in bad.error.text()


def test_calibration_window_auto_locate_and_clicked_corners(qtbot, tmp_path: Path) -> None:
    scene = render_scene(
        SceneParams(
            seed=9,
            board="100/1#0/011",
            frame_size=(800, 560),
            centre=(380, 280),
            spacing=64.0,
            rotation_deg=-6.0,
        )
    )
    window = CalibrationWindow(scene.frame, "RuneLite", tmp_path)
    qtbot.addWidget(window)
    window.resize(1100, 700)
    window.show()  # as the control window shows it (a never-shown dialog torn down by the
    # test's clean-up left a paint for a deleted view that crashed a later test)
    assert window.prompt.text() == CORNER_PROMPTS[0]
    window.auto_locate()
    assert window.draft is not None and window.draft.reading.board.format() == screen_board(scene)
    window.clear()
    assert window.draft is None and not window.save_button.isEnabled()
    for x, y in scene.corners:
        window.click(float(x), float(y))
    assert window.save_button.isEnabled()
    assert window.reading.text() == f"Reads {screen_board(scene)}."
    profile = window.save_to(tmp_path / "room.json")
    loaded = load_profile(tmp_path / "room.json")
    assert (loaded.grid, loaded.capture, loaded.appearance) == (
        profile.grid,
        profile.capture,
        profile.appearance,
    )
    assert np.allclose(loaded.corners, profile.corners, atol=0.01)  # saved to 0.01 px


def test_calibration_window_maps_real_clicks_and_samples_looks(qtbot, tmp_path: Path) -> None:
    from test_calibrate import synthetic_grid

    lit = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]])
    frame = synthetic_grid(3, 3, lit)
    window = CalibrationWindow(frame, "Lights Out", tmp_path)
    qtbot.addWidget(window)
    window.resize(1000, 600)
    window.show()
    window.generic.setChecked(True)
    window.rows.setValue(3)
    window.cols.setValue(3)
    centre = lambda r, c: (40 + c * 40 + 20, 30 + r * 40 + 20)  # noqa: E731
    for r, c in ((0, 0), (0, 2), (2, 2), (2, 0)):
        point = window.view.to_widget(*centre(r, c))
        qtbot.mouseClick(
            window.view, Qt.MouseButton.LeftButton, pos=QPoint(round(point.x()), round(point.y()))
        )
    assert window.draft is not None
    window.lit_button.click()
    window.click(*centre(0, 0))
    window.unlit_button.click()
    window.click(*centre(0, 1))
    appearance = window.draft.profile.appearance
    assert appearance.on is not None and appearance.off is not None
    assert appearance.on[0] > appearance.off[0]  # yellow is redder than dark red here
    board = window.draft.reading.board
    assert np.array_equal(board.states, lit)


def test_classic_demo_room_click_steps_on_a_plate(qtbot) -> None:
    room = DemoRoom(demo_params("111/0#0/110"), classic=True)
    qtbot.addWidget(room)
    room.show()
    x, y = room.scene.plate_centres[0]
    with qtbot.waitSignal(room.stepped, timeout=2000) as blocker:
        qtbot.mouseClick(room, Qt.MouseButton.LeftButton, pos=QPoint(int(x), int(y)))
    expected = toa_board("111/0#0/110").press(*TOA_PLATES[0]).format()
    assert blocker.args == [expected] and room.board == expected
    assert room.plate_at(QPointF(5, 5)) is None  # the wall is not a plate
    assert not room.team and room.player_plate is None  # no one stands in the classic room


def test_demo_room_click_walks_onto_a_plate_and_steps_on_it(qtbot) -> None:
    room = DemoRoom(demo_params("111/0#0/110"), walk_speed=0)
    qtbot.addWidget(room)
    room.show()
    x, y = room.scene.plate_centres[4]  # right plate, reachable without crossing another
    with qtbot.waitSignal(room.stepped, timeout=2000) as blocker:
        qtbot.mouseClick(room, Qt.MouseButton.LeftButton, pos=QPoint(int(x), int(y)))
    expected = toa_board("111/0#0/110").press(*TOA_PLATES[4]).format()
    assert blocker.args == [expected] and room.board == expected
    assert room.player_plate == 4
    assert room.plate_at(QPointF(5, 5)) is None  # the far wall is not a plate


def test_demo_room_is_read_like_the_game(qtbot) -> None:
    room = DemoRoom(demo_params("010/1#0/001"))  # the walk-through: player at the entrance
    qtbot.addWidget(room)
    loop = LiveLoop(NoWindows(), OneFrame(room.scene.frame), "x")
    state = loop.process(room.scene.frame, Rect(0, 0, *room.params.frame_size))
    assert state.kind == "steps" and state.board.format() == screen_board(room.scene)
    assert room.player_plate is None and not state.hidden  # the player enters in view


def test_control_window_grows_to_show_every_status_line(qtbot, tmp_path: Path) -> None:
    """Issue 12: the status line and the corrupt-settings notice used to be clipped."""
    notice = "Your settings file could not be read and was kept aside. " * 4
    window = ControlWindow(
        Settings(), backend=NoWindows(), settings_file=tmp_path / "s.toml", notice=notice
    )
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    height = window.height()
    window.set_status("A status that is far longer than one line of the window. " * 30)
    qtbot.wait(50)
    for label in (window.status, window.notice):
        assert label.height() >= label.heightForWidth(label.width())
    assert window.height() > height


def test_buttons_and_title_follow_what_runs(qtbot, tmp_path: Path) -> None:
    window = ControlWindow(Settings(), backend=NoWindows(), settings_file=tmp_path / "s.toml")
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert window.start_button.text() == "Start overlay"
    window.open_demo()
    demo = window.demo
    assert not demo.frameGeometry().intersects(window.frameGeometry())  # beside, not over
    qtbot.waitUntil(lambda: "No game window" in window.status.text(), timeout=5000)
    assert "\\" not in window.status.text() and "^" not in window.status.text()
    assert f"“{DEMO_TITLE}”" in window.status.text()
    demo.close()
    qtbot.waitUntil(lambda: window.session is None, timeout=2000)
    assert window.start_button.text() == "Start overlay"
    assert window.target.currentText() != DEMO_TITLE and "\\" not in window.status.text()


def test_unsupported_desktop_offers_start_not_stop(qtbot, tmp_path: Path) -> None:
    class Wayland(NoWindows):
        def unavailable(self):
            return "This is a Wayland session."

    window = ControlWindow(Settings(), backend=Wayland(), settings_file=tmp_path / "s.toml")
    qtbot.addWidget(window)
    window.start_overlay()
    qtbot.waitUntil(lambda: window.session is None, timeout=5000)
    assert window.start_button.text() == "Start overlay" and "Wayland" in window.status.text()


def test_calibration_snapshot_is_taken_with_the_overlay_hidden(qtbot, tmp_path, monkeypatch):
    window = ControlWindow(Settings(), backend=NoWindows(), settings_file=tmp_path / "s.toml")
    qtbot.addWidget(window)
    window.overlay.show()
    seen = []

    def capture():
        seen.append(window.overlay.isVisible())
        return None, "no window"

    monkeypatch.setattr(window, "capture_target", capture)
    monkeypatch.setattr(
        "assistant.gui.app.QMessageBox.information", lambda *args: None
    )
    window.open_calibration()
    assert seen == [False]
    window.overlay.hide()


def test_every_window_command_sets_the_icon(qtbot) -> None:
    from assistant.gui.application import application

    app = application()
    assert not app.windowIcon().isNull()


def test_the_demo_room_walks_by_the_players_crossing_setting(qtbot, tmp_path) -> None:
    from dataclasses import replace

    for crossing in (True, False):
        settings = replace(Settings(), crossing_steps=crossing)
        window = ControlWindow(settings, backend=NoWindows(), settings_file=tmp_path / "s.toml")
        qtbot.addWidget(window)
        window.open_demo()
        assert window.demo.crossing_steps is crossing
        window.demo.close()
        window.stop_overlay()
