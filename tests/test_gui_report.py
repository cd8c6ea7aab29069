"""The control window's "Save report…": the player sees what the report holds, adds a
sentence, and the report is written off the GUI thread while the overlay goes on; the
report replays to the same marks. The Windows hotkey's message handling and its text."""

from __future__ import annotations

import ctypes
import threading

import cv2
import numpy as np
import pytest
from PyQt6 import sip
from PyQt6.QtWidgets import QDialogButtonBox

from assistant.capture import Rect, WindowInfo
from assistant.gui.app import ControlWindow
from assistant.gui.hotkey import (
    _MSG,
    HOTKEY_ID,
    NOT_ON_THIS_DESKTOP,
    WM_HOTKEY,
    GlobalHotkey,
    HotkeyFilter,
)
from assistant.hotkey import HotkeyError, parse_hotkey
from assistant.report import open_report, replay_report
from assistant.settings import Settings
from lab.scene import SceneParams, render_scene

AREA = Rect(0, 0, 640, 480)


class _GameWindow:
    name = "fake"

    def unavailable(self):
        return None

    def windows(self):
        return [WindowInfo(7, "game", AREA)]

    def update(self, window):
        return self.windows()[0]


def _scene_frame() -> np.ndarray:
    scene = render_scene(SceneParams(seed=5, board="111/0#0/110", frame_size=(640, 480),
                                     centre=(320, 240), spacing=70.0))
    return cv2.cvtColor(scene.frame, cv2.COLOR_BGR2BGRA)


@pytest.fixture
def screen(monkeypatch):
    """The worker's grabber shows the rendered room where the game window is."""
    frame = _scene_frame()

    class Screen:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

        def grab(self, rect):
            return frame[rect.top:rect.bottom, rect.left:rect.right].copy()

        def desktop(self):
            return Rect(0, 0, 1280, 1024)

        def close(self):
            pass

    monkeypatch.setattr("assistant.gui.worker.Grabber", Screen)
    return frame


def test_the_button_saves_a_report_while_the_overlay_goes_on(qtbot, tmp_path, screen,
                                                             monkeypatch):
    window = ControlWindow(Settings(window_title="^game$"), backend=_GameWindow(),
                           settings_file=tmp_path / "s.toml", reports_folder=tmp_path)
    qtbot.addWidget(window)
    window.start_overlay()
    worker = window.session.worker
    qtbot.waitUntil(lambda: window.last_state is not None
                    and window.last_state.kind == "steps", timeout=10_000)
    qtbot.waitUntil(lambda: len(window.recorder) >= 5, timeout=10_000)

    window.report_button.click()
    dialog = window.report_dialog
    assert dialog is not None and dialog.isVisible()
    assert f"{dialog.snapshot.frames} frames" in dialog.findChildren(type(window.status))[0].text()
    pictures = [label for label in dialog.findChildren(type(window.status))
                if label.pixmap() is not None and not label.pixmap().isNull()]
    assert len(pictures) == 2  # the first and the last picture of the game window
    dialog.note_edit.setText("The marks were on the wrong plates.")
    destination = dialog.destination()
    assert destination.parent == tmp_path

    # the disk is slow: the write waits until told, and the loop goes on meanwhile
    release = threading.Event()
    from assistant.gui import report_dialog

    real_save = report_dialog.save_report

    def slow_save(*args, **kwargs):
        release.wait(10)
        return real_save(*args, **kwargs)

    monkeypatch.setattr(report_dialog, "save_report", slow_save)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    assert window.report_writer is not None and window.report_writer.isRunning()
    frames_then = len(worker.frame_seconds)
    qtbot.waitUntil(lambda: len(worker.frame_seconds) >= frames_then + 3, timeout=10_000)
    assert window.status.text() == "Saving the report…"  # the GUI thread is free too
    release.set()
    qtbot.waitUntil(lambda: "Report saved in" in window.status.text(), timeout=10_000)
    assert window.session is not None and window.overlay.isVisible()

    report = open_report(destination)
    assert report.about["note"] == "The marks were on the wrong plates."
    assert report.about["settings"]["fps"] == 10
    assert report.about["from_start"] and report.frames[-1]["marks"]
    replays = list(replay_report(report))
    assert all(frame.same for frame in replays)
    window.stop_overlay()


def test_nothing_to_report_before_the_assistant_read_anything(qtbot, tmp_path):
    window = ControlWindow(Settings(window_title="^game$"), backend=_GameWindow(),
                           settings_file=tmp_path / "s.toml", reports_folder=tmp_path)
    qtbot.addWidget(window)
    window.open_report_dialog()
    assert window.report_dialog is None and "Nothing to report yet" in window.status.text()


def test_a_report_that_cannot_be_written_is_one_sentence_and_reading_goes_on(
        qtbot, tmp_path, screen):
    window = ControlWindow(Settings(window_title="^game$"), backend=_GameWindow(),
                           settings_file=tmp_path / "s.toml", reports_folder=tmp_path)
    qtbot.addWidget(window)
    window.start_overlay()
    qtbot.waitUntil(lambda: len(window.recorder) >= 3, timeout=10_000)
    window.open_report_dialog()
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "mine.txt").write_text("keep")
    window.report_dialog._destination = taken
    window.report_dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    qtbot.waitUntil(lambda: "not saved" in window.status.text(), timeout=10_000)
    assert window.status.text().endswith("The assistant goes on reading.")
    assert (taken / "mine.txt").read_text() == "keep"
    frames = len(window.session.worker.frame_seconds)
    qtbot.waitUntil(lambda: len(window.session.worker.frame_seconds) > frames, timeout=10_000)
    window.stop_overlay()


def test_the_windows_hotkey_message_is_caught_and_others_pass(qapp):
    pressed = []
    hotkey_filter = HotkeyFilter(HOTKEY_ID, lambda: pressed.append(1))
    msg = _MSG(None, WM_HOTKEY, HOTKEY_ID, 0)
    pointer = sip.voidptr(ctypes.addressof(msg))
    assert hotkey_filter.nativeEventFilter(b"windows_generic_MSG", pointer) == (True, 0)
    assert pressed == [1]
    other = _MSG(None, WM_HOTKEY, HOTKEY_ID + 1, 0)
    assert hotkey_filter.nativeEventFilter(
        b"windows_generic_MSG", sip.voidptr(ctypes.addressof(other))) == (False, 0)
    assert hotkey_filter.nativeEventFilter(b"xcb_generic_event_t", pointer) == (False, 0)
    assert pressed == [1]


def test_the_hotkey_registers_on_windows_and_says_why_not_elsewhere(qapp):
    calls = []

    class User32:
        def RegisterHotKey(self, hwnd, ident, flags, code):
            calls.append((ident, flags, code))
            return len(calls) == 1

        def UnregisterHotKey(self, hwnd, ident):
            calls.append(("off", ident))
            return True

    hotkey = GlobalHotkey("Ctrl+Shift+F12")
    assert hotkey.register(platform="linux") == NOT_ON_THIS_DESKTOP
    assert hotkey.register(platform="win32", user32=User32()) is None
    assert calls == [(HOTKEY_ID, 0x2 | 0x4 | 0x4000, 0x7B)]
    hotkey.unregister()
    assert calls[-1] == ("off", HOTKEY_ID)
    taken = GlobalHotkey("Ctrl+Alt+R")
    assert "taken by another program" in taken.register(platform="win32", user32=User32())
    assert GlobalHotkey("").register(platform="win32", user32=User32()) is None


def test_hotkey_texts():
    assert parse_hotkey("Ctrl+Shift+F12") == (0x6, 0x7B)
    assert parse_hotkey(" alt + r ") == (0x1, ord("R"))
    assert parse_hotkey("F9") == (0, 0x78)
    assert parse_hotkey("") is None
    for bad in ("Ctrl+", "Hyper+R", "R", "Ctrl+F25"):
        with pytest.raises(HotkeyError):
            parse_hotkey(bad)


def test_the_demo_room_walked_through_recorded_and_replayed_shows_the_same_marks(
        qtbot, tmp_path):
    """The demo room offscreen, read by the live loop as the game would be: the player
    walks the answer's route, the report is saved and replays to the same marks."""
    from assistant.gui.demo import DemoRoom, demo_params
    from assistant.live import LiveLoop
    from assistant.puzzle import toa_board
    from assistant.recorder import FlightRecorder, save_report
    from assistant.route import plan_route
    from assistant.solver import solve

    room = DemoRoom(demo_params("111/0#0/110"), walk_speed=0)
    qtbot.addWidget(room)
    place = Rect(100, 50, *room.params.frame_size)

    class RoomWindow(_GameWindow):
        def windows(self):
            return [WindowInfo(7, "game", place)]

    class RoomScreen:
        def grab(self, rect):
            frame = cv2.cvtColor(room.scene.frame, cv2.COLOR_BGR2BGRA)
            left, top = rect.left - place.left, rect.top - place.top
            return frame[top:top + rect.height, left:left + rect.width]

        def desktop(self):
            return Rect(0, 0, 1600, 1200)

        def close(self):
            pass

    ticks = iter(range(10**6))
    loop = LiveLoop(RoomWindow(), RoomScreen(), "^game$", clock=lambda: next(ticks) * 0.1)
    recorder = FlightRecorder(background=False)
    recorder.attach(loop)
    for _ in range(4):
        loop.tick()
    answer = solve(toa_board(room.board)).presses
    for click in plan_route(answer, room.tile).clicks:
        room.walk_to(click.tile)
        for _ in range(4):
            shown = loop.tick()
    assert room.board == "111/1#1/111" and shown.kind == "solved"
    report = open_report(save_report(recorder.snapshot(), tmp_path / "demo"))
    replays = list(replay_report(report))
    assert sum(bool(frame.recorded) for frame in replays) >= 4
    assert all(frame.same for frame in replays)
    assert replays[-1].replayed_kind == "solved"
