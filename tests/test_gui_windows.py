"""What the windows say, with pytest-qt (offscreen): the steps panel's heading, squares
and text from one state, a stopped assistant that says so, the first window, the demo
room's new puzzles and keys, and sentences without ``None`` or raw values."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
from PyQt6.QtCore import QPointF, Qt
from PyQt6.QtGui import QColor

from assistant.capture import Rect, WindowInfo
from assistant.gui.app import ControlWindow, titles_in_words
from assistant.gui.calibrate import CalibrationWindow
from assistant.gui.demo import DEMO_TITLE, KEYS_HELP, DemoRoom, demo_params
from assistant.gui.grid_view import state_colour
from assistant.gui.steps_panel import HIDDEN_COLOUR
from assistant.live import LiveState
from assistant.puzzle import TOA_PLATES, toa_board
from assistant.route import ENTRANCE, PLATE_TILES
from assistant.session.marks import Mark
from assistant.session.moves import common_presses
from assistant.settings import Settings

AREA = Rect(0, 0, 800, 600)
LIT = state_colour(1, 2)
UNLIT = state_colour(0, 2)
REPO = Path(__file__).resolve().parents[1]


class Windows:
    """A window backend listing ``titles`` (none at first)."""

    name = "fake"

    def __init__(self, *titles: str) -> None:
        self.titles = list(titles)

    def unavailable(self):
        return None

    def windows(self):
        return [WindowInfo(i, title, Rect(0, 0, 800, 600)) for i, title in enumerate(self.titles)]

    def update(self, window):
        return window if window.title in self.titles else None


def make_window(qtbot, tmp_path: Path, backend=None, panel: bool = True) -> ControlWindow:
    settings = replace(Settings(), show_steps_panel=panel)
    window = ControlWindow(settings, backend=backend or Windows(),
                           settings_file=tmp_path / "s.toml")
    qtbot.addWidget(window)
    qtbot.addWidget(window.steps_panel)
    return window


def _close(a: QColor, b: QColor, tolerance: int = 14) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a.getRgb()[:3], b.getRgb()[:3], strict=True))


def plate_colours(window: ControlWindow) -> dict[tuple[int, int], QColor]:
    panel = window.steps_panel
    image = panel.grab().toImage()
    offset = panel.cell_size() * 0.2
    out = {}
    for r, c in TOA_PLATES:
        point = panel.cell_centre(r, c) + QPointF(offset, offset)
        out[(r, c)] = image.pixelColor(round(point.x()), round(point.y()))
    return out


def solved_state() -> LiveState:
    board = toa_board("111/1#1/111")
    return LiveState("solved", "All lit.", board=board, presses=np.zeros((3, 3), np.int64),
                     window=AREA)


def uncertain_state() -> LiveState:
    """The top-left plate hidden: two boards possible, the answers sharing two steps."""
    candidates = (toa_board("011/0#0/111"), toa_board("111/0#0/111"))
    certain, undecided, _ = common_presses(candidates)
    ring = np.zeros((4, 2))
    marks = tuple(Mark(int(r), int(c), 1, (0.0, 0.0), ring, ring, True)
                  for r, c in np.argwhere(certain > 0))
    marks += tuple(Mark(int(r), int(c), 0, (0.0, 0.0), ring, ring, False)
                   for r, c in np.argwhere(undecided))
    return LiveState("uncertain", "Step on the 2 solid rings now. The top-left plate is hidden.",
                     marks, None, None, AREA, None, hidden=((0, 0),), undecided=((0, 0),),
                     candidates=candidates)


# -- 1: the panel's heading, squares and text come from one state ------------------------------
def test_an_undecided_plate_after_a_solved_board_is_drawn_unknown(qtbot, tmp_path) -> None:
    window = make_window(qtbot, tmp_path)
    window.show_state(solved_state())
    assert window.steps_panel.text_lines()[0] == "All plates lit."
    state = uncertain_state()
    window.show_state(state)
    lines = window.steps_panel.text_lines()
    assert lines[0] == "2 sure steps; 5 more may be needed."
    assert "All plates lit." not in lines and lines[1] == state.status
    colours = plate_colours(window)
    known = state.candidates[0]
    for cell, colour in colours.items():
        if cell == (0, 0):
            assert _close(colour, HIDDEN_COLOUR), "the hidden plate is drawn unknown"
        else:
            assert _close(colour, LIT if known.states[cell] else UNLIT), cell
    view = window.steps_panel.view()
    assert set(view.order) == {(m.row, m.col) for m in state.marks if m.certain}
    assert set(view.dashed) == {(m.row, m.col) for m in state.marks if not m.certain}


def test_puzzle_not_in_view_keeps_the_last_reading_faded_and_says_so(qtbot, tmp_path) -> None:
    window = make_window(qtbot, tmp_path)
    window.show_state(solved_state())
    window.show_state(LiveState("no-puzzle", "Puzzle not in view.", window=AREA))
    lines = window.steps_panel.text_lines()
    assert lines[0] == "Last read: all plates lit." and lines[-1] == "Puzzle not in view."
    assert window.steps_panel.view().stale
    for colour in plate_colours(window).values():
        assert not _close(colour, LIT, 30), "a picture not of this moment is drawn faded"


def test_no_game_window_draws_every_plate_unknown(qtbot, tmp_path) -> None:
    window = make_window(qtbot, tmp_path)
    window.show_state(solved_state())
    window.show_state(LiveState("no-window", "No game window: no window title matches “x”."))
    assert window.steps_panel.text_lines()[0].startswith("No game window")
    assert all(_close(c, HIDDEN_COLOUR) for c in plate_colours(window).values())


def test_after_the_demo_closes_the_panel_no_longer_says_all_lit(qtbot, tmp_path) -> None:
    window = make_window(qtbot, tmp_path)
    window.open_demo()
    window.show_state(solved_state())
    assert window.steps_panel.text_lines()[0] == "All plates lit."
    window.demo.close()
    qtbot.waitUntil(lambda: window.session is None, timeout=3000)
    assert window.steps_panel.text_lines()[0] == "The demo room is closed."
    assert all(_close(c, HIDDEN_COLOUR) for c in plate_colours(window).values())


# -- 2: stopped means stopped --------------------------------------------------------------------
def test_stop_says_stopped_and_clears_the_panel(qtbot, tmp_path) -> None:
    window = make_window(qtbot, tmp_path)
    window.start_overlay()
    state = replace(solved_state(), kind="steps", status="Puzzle found: step on 6 plates.",
                    board=toa_board("000/0#0/000"), presses=None)
    window.show_state(state)
    window.stop_overlay()
    assert window.session is None and window.start_button.text() == "Start overlay"
    assert window.status.text().startswith("Stopped")
    assert "6 plates" not in window.status.text()
    lines = window.steps_panel.text_lines()
    assert lines[0] == "Stopped." and not any("steps left" in line for line in lines)
    assert all(_close(c, HIDDEN_COLOUR) for c in plate_colours(window).values())


# -- 8: the first window -------------------------------------------------------------------------
def test_the_first_window_offers_start_and_says_the_titles_in_words(qtbot, tmp_path) -> None:
    window = make_window(qtbot, tmp_path, panel=False)
    window.show()
    qtbot.waitExposed(window)
    window.watch_for_game()  # what `toa-assistant` does at launch
    assert window.session is None and window.start_button.text() == "Start overlay"
    text = window.target.currentText()
    assert text == "RuneLite or Old School RuneScape" and "|" not in text
    assert window.title_pattern() == Settings().window_title
    status = window.status.text()
    assert "|" not in status and "“RuneLite” or “Old School RuneScape”" in status
    body = window.centralWidget()
    assert window.height() <= body.layout().totalHeightForWidth(body.width()) + 12
    tip = window.demo_button.toolTip()
    assert "floor" in tip and "click plates" not in tip
    window._watch.stop()


def test_reading_starts_by_itself_when_the_game_opens(qtbot, tmp_path) -> None:
    backend = Windows("Notes")
    window = make_window(qtbot, tmp_path, backend, panel=False)
    window.watch_for_game()
    assert window.session is None
    backend.titles.append("RuneLite - Player")
    window._look_for_game()  # the watch's next tick
    assert window.session is not None and window.start_button.text() == "Stop overlay"
    window.stop_overlay()
    assert not window._watch.isActive()  # stopped means stopped: it does not start again


def test_titles_in_words() -> None:
    assert titles_in_words("RuneLite|Old School RuneScape") == "RuneLite or Old School RuneScape"
    assert titles_in_words("A|B|C") == "A, B or C"
    assert titles_in_words("RuneLite") == "RuneLite"
    assert titles_in_words("^Rune.*$") is None


# -- 6: the demo room: a new puzzle each start, a key and a button, its keys shown -----------------
def test_the_demo_room_starts_a_new_puzzle_by_key_or_button(qtbot) -> None:
    room = DemoRoom(demo_params("111/0#0/110"), walk_speed=0)
    qtbot.addWidget(room)
    room.show()
    room.walk_to(PLATE_TILES[0])
    boards = set()
    with qtbot.waitSignal(room.puzzle_changed, timeout=1000):
        qtbot.keyClick(room, Qt.Key.Key_N)
    boards.add(room.board)
    assert room.tile == ENTRANCE and not toa_board(room.board).is_solved()
    assert room.new_button.isVisible() and room.new_button.text() == "New puzzle"
    for _ in range(6):
        with qtbot.waitSignal(room.puzzle_changed, timeout=1000):
            qtbot.mouseClick(room.new_button, Qt.MouseButton.LeftButton)
        boards.add(room.board)
        assert not toa_board(room.board).is_solved()
    assert len(boards) >= 3  # random puzzles (7 draws from 255 boards)


def test_the_demo_room_shows_its_keys(qtbot) -> None:
    room = DemoRoom(demo_params("111/0#0/110"))
    qtbot.addWidget(room)
    assert any("turn" in line and "zoom" in line for line in room.help_lines())
    assert any("new puzzle" in line for line in room.help_lines())
    assert room.help_lines() == KEYS_HELP
    image = room.grab().toImage()
    width, height = room.params.frame_size
    chat_top = int(height * 0.76)
    dark = sum(
        1
        for x in range(10, int(width * 0.6), 2)
        for y in range(chat_top + 8, chat_top + 60, 2)
        if image.pixelColor(x, y).lightness() < 60
    )
    assert dark > 100, "the keys are written in the chat box"


def test_reopening_the_demo_brings_a_new_unsolved_puzzle(qtbot, tmp_path) -> None:
    window = make_window(qtbot, tmp_path, panel=False)
    window.open_demo()
    room = window.demo
    first = room.board
    assert not toa_board(first).is_solved()
    room.set_board("111/1#1/111")  # solved
    room.close()
    qtbot.waitUntil(lambda: window.session is None, timeout=3000)
    window.open_demo()
    assert window.demo is room and not toa_board(room.board).is_solved()
    session = window.session
    room.new_puzzle()
    assert window.session is not session  # read afresh: the old history is gone
    room.close()


def test_the_demo_command_starts_a_new_puzzle_each_time() -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO))
    command = [sys.executable, "-m", "assistant", "demo", "--room-only", "--json",
               "--seconds", "1.5"]
    runs = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True) for _ in range(2)]
    seeds = []
    for run in runs:
        out, err = run.communicate(timeout=60)
        views = [json.loads(line) for line in out.splitlines() if '"view"' in line]
        assert run.returncode == 0 and views, err
        seeds.append((views[0]["seed"], views[0]["room"]))
        assert not toa_board(views[0]["room"]).is_solved()
    assert seeds[0][0] != seeds[1][0]


# -- 7: never None or a raw value ----------------------------------------------------------------
def test_calibrating_with_the_player_on_a_plate_says_it_in_words(qtbot, tmp_path) -> None:
    room = DemoRoom(demo_params("111/0#0/110"), walk_speed=0)
    qtbot.addWidget(room)
    room.walk_to(PLATE_TILES[4])  # the player stands on a plate and hides it
    window = CalibrationWindow(room.scene.frame.copy(), DEMO_TITLE, tmp_path)
    qtbot.addWidget(window)
    window.auto_locate()
    text = window.reading.text()
    assert "None" not in text and "Cannot read it yet" not in text
    assert "?" in text and "hidden" in text and "can be saved" in text
    assert window.save_button.isEnabled()


def test_an_engine_failure_is_a_sentence_not_the_exception(qtbot, tmp_path, monkeypatch) -> None:
    from assistant.gui import manual

    def broken(board, engine):
        raise KeyError("raw internal detail")

    monkeypatch.setattr(manual, "solve_with_engine", broken)
    monkeypatch.setattr(manual.traceback, "print_exc", lambda: None)
    window = manual.ManualWindow(toa_board("111/0#0/110"), Settings(), remember=False,
                                 settings_file=tmp_path / "s.toml")
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: not window.solving, timeout=5000)
    text = window.status_label.text()
    assert "engine failed" in text and "raw internal detail" not in text


def test_calibrating_a_game_window_off_the_screen_says_so(qtbot, tmp_path, monkeypatch) -> None:
    """A window hanging off the screen's edge was grabbed as it was (an X11 protocol
    error escaped as a traceback): now one sentence, and a failed grab another."""

    class Screen:
        fail = False

        def __init__(self):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

        def desktop(self):
            return Rect(0, 0, 1600, 1000)

        def grab(self, rect):
            if Screen.fail:
                raise OSError("X11 Protocol Error")
            return np.zeros((rect.height, rect.width, 4), np.uint8)

    class Game(Windows):
        rect = Rect(0, 0, 800, 600)

        def windows(self):
            return [WindowInfo(1, "RuneLite", self.rect)]

    backend = Game()
    window = make_window(qtbot, tmp_path, backend, panel=False)
    monkeypatch.setattr("assistant.gui.app.Grabber", Screen)
    backend.rect = Rect(1133, 100, 900, 620)
    frame, problem = window.capture_target()
    assert frame is None and problem.startswith("Part of the game window is off the screen")
    backend.rect = Rect(100, 100, 900, 620)
    frame, problem = window.capture_target()
    assert problem is None and frame.shape == (620, 900, 4)
    Screen.fail = True
    frame, problem = window.capture_target()
    assert frame is None and problem == "The screen could not be captured just now: try again."
