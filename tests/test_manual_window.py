"""The manual-entry window on the offscreen platform: clicks, play against the engine's
simulation, randomize, solve, unsolvable in red with its reason, keyboard, the
prefilled-from-a-reading path, size refusal and the remembered grid."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PyQt6.QtCore import Qt
from PyQt6.QtGui import QColor, QGuiApplication
from PyQt6.QtWidgets import QApplication

from assistant.gui.grid_view import (
    ANSWER_HIDDEN,
    ANSWER_PRESSES,
    ANSWER_UNSOLVABLE,
    PRESS_COLOUR,
    UNSOLVABLE_COLOUR,
    GridView,
    state_colour,
)
from assistant.gui.manual import ManualWindow
from assistant.gui.manual_model import Mode, solution_summary
from assistant.puzzle import Board, toa_board
from assistant.settings import CONFIG_DIR_ENV, GridSettings, Settings, load_settings, save_settings
from assistant.solver import random_solvable_board, solve

pytestmark = [
    pytest.mark.qt_log_level_fail("WARNING"),  # a Qt warning (e.g. an ambiguous shortcut) fails
    pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints"),  # offscreen
]

UNSOLVABLE_4X4 = "1000/0000/0000/0000"  # the 4x4 board has quiet patterns: this is unsolvable


@pytest.fixture(autouse=True)
def _private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "config"
    monkeypatch.setenv(CONFIG_DIR_ENV, str(folder))
    return folder


def wait_answer(qtbot, window: ManualWindow) -> None:
    qtbot.waitUntil(lambda: window.model.solution_current and not window.solving, timeout=20_000)


@pytest.fixture
def open_window(qtbot):
    def make(board: Board | None = None, settings: Settings | None = None, **kw) -> ManualWindow:
        window = ManualWindow(board, settings=settings or Settings(), **kw)
        qtbot.addWidget(window)
        window.resize(800, 500)
        window.show()
        qtbot.waitExposed(window)
        window.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
        window.board_view.setFocus()
        wait_answer(qtbot, window)
        return window

    return make


def click(qtbot, view: GridView, row: int, col: int, button=Qt.MouseButton.LeftButton) -> None:
    qtbot.mouseClick(view, button, pos=view.cell_rect(row, col).center().toPoint())


def key(qtbot, window: ManualWindow, k: Qt.Key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(window.board_view, k, modifier)


def pixel(view: GridView, row: int, col: int) -> QColor:
    """The painted colour of a cell, sampled near its corner (away from its number)."""
    image = view.grab().toImage()
    rect = view.cell_rect(row, col)
    x, y = rect.left() + rect.width() * 0.15, rect.top() + rect.height() * 0.15
    ratio = image.devicePixelRatio()
    return image.pixelColor(int(x * ratio), int(y * ratio))


def same_colour(a: QColor, b: QColor) -> bool:
    return (a.red(), a.green(), a.blue()) == (b.red(), b.green(), b.blue())


# -- editing ------------------------------------------------------------------------------------
def test_edit_clicks_change_only_that_cell(qtbot, open_window) -> None:
    window = open_window(Board.parse("000/000/000", k=3), remember=False)
    click(qtbot, window.board_view, 1, 2)
    assert window.model.board.format() == "000/001/000"
    click(qtbot, window.board_view, 1, 2)
    click(qtbot, window.board_view, 0, 0, Qt.MouseButton.RightButton)
    assert window.model.board.format() == "200/002/000"
    assert np.array_equal(window.board_view.values, window.model.board.states)
    # painted black -> yellow: 0 black, k-1 yellow
    assert same_colour(pixel(window.board_view, 0, 0), state_colour(2, 3))
    assert same_colour(pixel(window.board_view, 2, 2), state_colour(0, 3))
    assert state_colour(0, 3).value() < 30 and state_colour(2, 3).name() == "#ffd600"
    wait_answer(qtbot, window)
    assert window.model.solution.presses_text() == solve(window.model.board).presses_text()


def test_play_mode_matches_the_engines_simulation(qtbot, open_window) -> None:
    rng = np.random.default_rng(5)
    present = rng.random((5, 6)) > 0.2
    board = Board.from_arrays(rng.integers(0, 4, (5, 6)), present, k=4, objective=3)
    window = open_window(board, remember=False)
    key(qtbot, window, Qt.Key.Key_P)
    assert window.model.mode is Mode.PLAY and window.play_action.isChecked()
    expected = board
    for _ in range(25):
        r, c = (int(v) for v in rng.integers(0, (5, 6)))
        click(qtbot, window.board_view, r, c)
        if present[r, c]:
            expected = expected.press(r, c)
        assert window.model.board == expected
    r, c = (int(v) for v in np.argwhere(present)[0])
    click(qtbot, window.board_view, r, c, Qt.MouseButton.RightButton)  # takes a press back
    assert window.model.board == expected.press(r, c, times=3)
    key(qtbot, window, Qt.Key.Key_P)
    assert window.model.mode is Mode.EDIT


def test_playing_the_shown_answer_solves_the_room(qtbot, open_window) -> None:
    window = open_window(toa_board("010/1#0/001"), remember=False)
    presses = window.answer_view.values.copy()
    key(qtbot, window, Qt.Key.Key_P)
    for r, c in np.argwhere(presses):
        click(qtbot, window.board_view, int(r), int(c))
    assert window.model.board.is_solved()
    wait_answer(qtbot, window)
    assert window.status_label.text().startswith("Solved")


def test_hole_tool_and_h_key(qtbot, open_window) -> None:
    window = open_window(Board.parse("11/11"), remember=False)
    key(qtbot, window, Qt.Key.Key_T)
    assert window.model.mode is Mode.HOLES
    click(qtbot, window.board_view, 0, 1)
    assert window.model.board.format() == "1#/11"
    key(qtbot, window, Qt.Key.Key_T)
    assert window.model.mode is Mode.EDIT
    key(qtbot, window, Qt.Key.Key_Down)
    key(qtbot, window, Qt.Key.Key_H)  # the cursor followed the click to (0,1), then down
    assert window.model.board.format() == "1#/1#"
    key(qtbot, window, Qt.Key.Key_H)
    assert window.model.board.format() == "1#/10"


# -- randomize, solve, unsolvable ---------------------------------------------------------------
def test_randomize_is_always_solvable(qtbot, open_window) -> None:
    present = np.ones((6, 7), dtype=bool)
    present[2, 3] = present[4, 0] = False
    window = open_window(Board.from_arrays(np.zeros((6, 7), int), present, 4, 1), remember=False)
    seen = set()
    for _ in range(25):
        key(qtbot, window, Qt.Key.Key_R)
        wait_answer(qtbot, window)
        board = window.model.board
        seen.add(board.format())
        assert np.array_equal(board.present, present) and (board.k, board.objective) == (4, 1)
        assert window.model.solution.solvable
        assert board.apply(window.model.solution.presses).is_solved()
    assert len(seen) > 20  # really random


def test_solve_shows_the_engines_answer(qtbot, open_window) -> None:
    board = random_solvable_board(5, 5, k=3, seed=9)
    window = open_window(settings=Settings(manual_default=GridSettings(5, 5, 3, 2)))
    window.load_board(board)
    wait_answer(qtbot, window)
    assert window.answer_view.answer_kind == ANSWER_HIDDEN  # not until asked
    assert "Press S" in window.status_label.text()
    key(qtbot, window, Qt.Key.Key_S)
    engine = solve(board)
    assert window.answer_view.answer_kind == ANSWER_PRESSES
    assert np.array_equal(window.answer_view.values, engine.presses)
    assert window.status_label.text() == solution_summary(engine)
    assert "proven minimal" in window.status_label.text()
    r, c = (int(v) for v in np.argwhere(engine.presses)[0])
    assert same_colour(pixel(window.answer_view, r, c), PRESS_COLOUR)
    key(qtbot, window, Qt.Key.Key_S)
    assert window.answer_view.answer_kind == ANSWER_HIDDEN


def test_unsolvable_is_red_with_the_reason(qtbot, open_window) -> None:
    board = Board.parse(UNSOLVABLE_4X4, 2, 1)
    window = open_window(board, remember=False)
    engine = solve(board)
    assert not engine.solvable
    assert window.answer_view.answer_kind == ANSWER_UNSOLVABLE
    assert window.status_label.text() == engine.reason
    for r in range(4):
        for c in range(4):
            assert same_colour(pixel(window.answer_view, r, c), UNSOLVABLE_COLOUR)
    key(qtbot, window, Qt.Key.Key_N)
    assert window.model.hint is None
    assert "cannot be solved" in window.message_label.text()


def test_hint_marks_a_press_of_the_answer(qtbot, open_window) -> None:
    window = open_window(toa_board("111/0#0/110"), remember=False)
    key(qtbot, window, Qt.Key.Key_N)
    hint = window.model.hint
    assert hint is not None and window.board_view.hint == hint
    assert solve(window.model.board).presses[hint] == 1
    assert window.message_label.text() == f"Hint: press row {hint[0] + 1}, column {hint[1] + 1}."


# -- keyboard -----------------------------------------------------------------------------------
def test_keyboard_only_editing_and_reset(qtbot, open_window) -> None:
    window = open_window(Board.parse("000/000", k=3), remember=False)
    assert window.board_view.hasFocus()
    key(qtbot, window, Qt.Key.Key_Right)
    key(qtbot, window, Qt.Key.Key_Right)
    key(qtbot, window, Qt.Key.Key_Right)  # stops at the edge
    key(qtbot, window, Qt.Key.Key_Down)
    assert window.board_view.cursor == (1, 2)
    key(qtbot, window, Qt.Key.Key_Space)
    key(qtbot, window, Qt.Key.Key_Return)
    assert window.model.board.format() == "000/002"
    key(qtbot, window, Qt.Key.Key_Backspace)
    assert window.model.board.format() == "000/001"
    key(qtbot, window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.model.board.format() == "000/002"
    key(qtbot, window, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert window.model.board.format() == "000/001"
    key(qtbot, window, Qt.Key.Key_Escape)
    assert window.model.board.format() == "000/000"
    key(qtbot, window, Qt.Key.Key_Minus)
    assert window.model.board.format() == "000/002"
    key(qtbot, window, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert window.model.board.format() == "000/000"


def test_every_action_documents_its_keys(qtbot, open_window) -> None:
    window = open_window(remember=False)
    for action in window.actions() + window.lights_page.actions():
        assert action.shortcuts(), action.text()
        assert "(" in action.toolTip(), action.text()
    key(qtbot, window, Qt.Key.Key_F1)
    assert window.keys_label.isHidden()
    key(qtbot, window, Qt.Key.Key_F1)
    assert not window.keys_label.isHidden()


def test_copy_and_paste_board_text(qtbot, open_window) -> None:
    window = open_window(toa_board("111/0#0/110"), remember=False)
    key(qtbot, window, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == "111/0#0/110"
    assert not window.paste_text("12x")
    assert "Could not paste a board" in window.message_label.text()
    assert window.model.board.format() == "111/0#0/110"
    QGuiApplication.clipboard().setText("0110/1001")
    key(qtbot, window, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert window.model.board.format() == "0110/1001"
    assert window.message_label.text() == ""
    assert window.preset_box.currentData() == "custom"


# -- the live reading path ----------------------------------------------------------------------
def test_prefilled_reading_corrected_by_one_click(qtbot, open_window, _private_config) -> None:
    reading = toa_board("111/0#0/110")  # plate (1,0) misread as dark
    window = open_window(reading)
    assert window.preset_box.currentData() == "toa"
    assert window.answer_view.answer_kind == ANSWER_PRESSES  # shown at once
    assert window.model.solution.presses_text() == "110/0#1/000"
    changed: list[Board] = []
    window.boardChanged.connect(changed.append)
    with qtbot.waitSignal(window.solved, timeout=20_000) as answered:
        click(qtbot, window.board_view, 1, 0)
    corrected = toa_board("111/1#0/110")
    assert changed == [corrected]
    assert answered.args[0].board == corrected
    assert window.model.solution.presses_text() == solve(corrected).presses_text()
    assert np.array_equal(window.answer_view.values, solve(corrected).presses)
    window.close()
    assert not (_private_config / "settings.toml").exists()  # a reading is not "last grid"


# -- grid controls, sizes, settings -------------------------------------------------------------
def test_spin_boxes_make_a_new_grid_and_refuse_above_100(qtbot, open_window) -> None:
    window = open_window(remember=False)
    window.rows_box.setValue(4)
    window.states_box.setValue(5)
    board = window.model.board
    assert (board.rows, board.cols, board.k, board.objective) == (4, 5, 5, 4)  # all lit kept
    assert window.objective_box.maximum() == 4
    window.cols_box.setValue(101)
    assert "toa-assistant solve --file" in window.message_label.text()
    assert window.model.board.cols == 5 and window.cols_box.value() == 5
    window.preset_box.setCurrentIndex(window.preset_box.findData("toa"))
    window.preset_box.activated.emit(window.preset_box.currentIndex())
    assert window.model.toa and window.model.board.format() == "000/0#0/000"
    assert window.rows_box.value() == 3 and window.message_label.text() == ""


def test_100x100_board_solves_and_paints(qtbot, open_window) -> None:
    board = random_solvable_board(100, 100, k=3, seed=2)
    window = open_window(board, remember=False)
    assert window.model.solution.solvable
    assert board.apply(window.answer_view.values).is_solved()
    image = window.answer_view.grab().toImage()
    assert not image.isNull()
    click(qtbot, window.board_view, 99, 99)
    assert window.model.board.states[99, 99] == (board.states[99, 99] + 1) % 3


def test_default_grid_comes_from_the_settings_file(qtbot, _private_config) -> None:
    save_settings(Settings(manual_default=GridSettings(4, 6, 3, 1), engine="internal"))
    window = ManualWindow()
    qtbot.addWidget(window)
    b = window.model.board
    assert (b.rows, b.cols, b.k, b.objective) == (4, 6, 3, 1)
    assert window.engine_box.currentData() == "internal"
    wait_answer(qtbot, window)


def test_last_grid_is_remembered(qtbot, _private_config) -> None:
    first = ManualWindow()
    qtbot.addWidget(first)
    first.set_grid(3, 4, 3, 2)
    first.model.click(0, 0)
    first.model.toggle_hole(2, 3)
    wait_answer(qtbot, first)
    first.close()
    settings, warning = load_settings()
    assert warning is None
    assert settings.manual_last == GridSettings(3, 4, 3, 2, "1000/0000/000#")
    second = ManualWindow()
    qtbot.addWidget(second)
    assert second.model.board.format() == "1000/0000/000#"
    wait_answer(qtbot, second)


def test_corrupt_settings_are_reported_in_the_window(qtbot, _private_config) -> None:
    _private_config.mkdir(parents=True)
    (_private_config / "settings.toml").write_text("fps = = 2", "utf-8")
    window = ManualWindow(remember=False)
    qtbot.addWidget(window)
    text = window.message_label.text()
    assert "moved to" in text and ".corrupt-" in text
    wait_answer(qtbot, window)


def test_clingo_setting_answers_or_says_it_fell_back(qtbot, open_window) -> None:
    window = open_window(toa_board("111/0#0/110"), Settings(engine="clingo"), remember=False)
    assert window.engine_box.currentData() == "clingo"
    assert window.model.solution.presses_text() == "110/0#1/000"
    try:
        import assistant.solver.asp  # noqa: F401
    except ImportError:
        assert "internal engine answered" in window.status_label.text()
    index = window.engine_box.findData("internal")
    window.engine_box.setCurrentIndex(index)
    window.engine_box.activated.emit(index)
    wait_answer(qtbot, window)
    assert "internal engine answered" not in window.status_label.text()


def test_a_long_message_does_not_move_the_board(qtbot, open_window) -> None:
    """Issue 12: the board used to jump when a long message appeared."""
    window = open_window(Board.parse("101/010/101"))
    qtbot.wait(50)
    before = window.board_view.geometry()
    window._message(" ".join(["A long message that wraps over several lines."] * 8))
    qtbot.wait(50)
    assert window.board_view.geometry() == before
    assert "long message" in window.message_label.toolTip()


# -- big grids stay clickable -------------------------------------------------------------------
def _on_screen(window: ManualWindow) -> bool:
    area = window.screen().availableGeometry()
    return area.contains(window.frameGeometry())


@pytest.mark.parametrize("shape", [(12, 20), (40, 60)])
def test_a_big_grid_keeps_cells_big_enough_to_click(qtbot, open_window, shape) -> None:
    """A 12x20 board used to get 14-pixel cells in the window: cells are never smaller
    than MIN_CELL now; the window grows (on its screen) and the grids scroll."""
    from assistant.gui.grid_view import MIN_CELL

    window = open_window(remember=False)
    rows, cols = shape
    window.set_grid(rows, cols, 2, 1)
    wait_answer(qtbot, window)
    qtbot.wait(50)  # the window grows after the layout took the new shape
    for view in (window.board_view, window.answer_view):
        cell = view.cell_rect(0, 0)
        assert cell.width() >= MIN_CELL and cell.height() >= MIN_CELL
    assert _on_screen(window)
    scroll = window.grid_scroll
    fits = scroll.widget().width() <= scroll.viewport().width() + 1
    assert fits or scroll.horizontalScrollBar().maximum() > 0  # what does not fit scrolls
    # the far corner is reachable and clickable
    scroll.ensureWidgetVisible(window.board_view)
    before = int(window.model.board.states[rows - 1, cols - 1])
    click(qtbot, window.board_view, rows - 1, cols - 1)
    assert int(window.model.board.states[rows - 1, cols - 1]) == 1 - before


def test_the_window_grows_for_a_bigger_grid_but_stays_on_its_screen(qtbot, open_window) -> None:
    window = open_window(remember=False)
    window.resize(500, 400)
    qtbot.wait(20)
    width = window.width()
    window.set_grid(12, 20, 2, 1)
    wait_answer(qtbot, window)
    qtbot.wait(50)
    assert window.width() > width
    assert _on_screen(window)


def test_a_window_opened_on_a_big_grid_fits_its_screen(qtbot) -> None:
    """Opened without a size (as `toa-assistant manual --rows 60 --cols 80` does), the
    window asks for the grids' room but never more than its screen holds."""
    board = random_solvable_board(60, 80, seed=3)
    window = ManualWindow(board, settings=Settings(), remember=False)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(50)
    area = window.screen().availableGeometry()
    assert window.width() <= area.width() and window.height() <= area.height()
    assert area.contains(window.frameGeometry())
