"""The manual window's Light Up page: editing walls and numbers, placing lamps against the
rules, and the solver's lamps and uniqueness checked against brute force."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from PyQt6.QtCore import Qt
from PyQt6.QtGui import QGuiApplication
from PyQt6.QtWidgets import QApplication

from assistant.errors import UserError
from assistant.gui.lightup_model import LightUpModel, describe_result
from assistant.gui.manual import ManualWindow
from assistant.lightup import LightUpPuzzle, check_lightup, parse_lightup, solve_lightup
from assistant.settings import CONFIG_DIR_ENV, Settings

pytestmark = [
    pytest.mark.qt_log_level_fail("WARNING"),
    pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints"),
]

# Small puzzles, each checked below against brute force over every lamp set.
UNIQUE = ".#..\n...1\n2..."  # brute force: exactly one solution
OPEN_2X2 = "..\n.."  # two solutions (lamps on either diagonal)
IMPOSSIBLE = ".4.\n..."  # a 4 on the top edge can never have 4 lamps


def brute_force(puzzle: LightUpPuzzle) -> list[frozenset[tuple[int, int]]]:
    """Every lamp set that satisfies the rules, by trying them all (independent of the
    solver: only the rule checker is used)."""
    empty = puzzle.empty_cells()
    found = []
    for n in range(len(empty) + 1):
        for lamps in itertools.combinations(empty, n):
            if check_lightup(puzzle, lamps) is None:
                found.append(frozenset(lamps))
    return found


@pytest.fixture(autouse=True)
def _private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))


# -- the model, no Qt ----------------------------------------------------------------------------
def test_reference_puzzles_by_brute_force() -> None:
    assert len(brute_force(parse_lightup(UNIQUE)[0])) == 1
    assert len(brute_force(parse_lightup(OPEN_2X2)[0])) == 2
    assert brute_force(parse_lightup(IMPOSSIBLE)[0]) == []


def test_click_cycles_cell_kinds_both_ways() -> None:
    m = LightUpModel.blank(1, 2)
    seen = []
    for _ in range(7):
        m.click(0, 0, 1)
        seen.append(m.cells[0][0])
    assert seen == ["#", "0", "1", "2", "3", "4", "."]
    m.click(0, 0, -1)
    assert m.cells[0][0] == "4"
    assert m.cells[0][1] == "."  # only that cell


def test_lamps_only_on_empty_cells_and_walls_remove_them() -> None:
    m = LightUpModel.from_text(".#\n..")
    m.playing = True
    assert not m.click(0, 1)  # a wall takes no lamp
    assert m.click(1, 1) and m.lamps == {(1, 1)}
    assert m.click(1, 1) and m.lamps == set()  # toggles
    m.click(1, 0)
    m.playing = False
    m.set_cell(1, 0, "#")
    assert m.lamps == set()
    with pytest.raises(UserError, match="one of"):
        m.set_cell(0, 0, "L")


def test_play_is_checked_against_the_rules() -> None:
    m = LightUpModel.from_text(OPEN_2X2)
    m.playing = True
    assert m.status() == "Cell 1,1 is dark."
    m.click(0, 0)
    m.click(0, 1)
    assert m.status() == "Lamps at 1,1 and 1,2 see each other."
    m.click(0, 1)
    m.click(1, 1)
    assert m.status().startswith("Solved")
    assert m.text() == "L.\n.L\n"


def test_resize_keeps_what_fits_and_refuses_above_100() -> None:
    m = LightUpModel.from_text("L#\n.1")
    m.resize(3, 1)
    assert m.cells == [["."], ["."], ["."]] and m.lamps == {(0, 0)}
    with pytest.raises(UserError, match="larger than the window"):
        m.resize(101, 3)
    with pytest.raises(UserError, match="larger than the window"):
        LightUpModel.blank(3, 200)


@pytest.mark.parametrize(
    "text", [UNIQUE, OPEN_2X2, IMPOSSIBLE, "..2\n...\n#..", "..1\n.#.\n...", "1.\n.#"]
)
def test_describe_result_agrees_with_brute_force(text: str) -> None:
    puzzle = parse_lightup(text)[0]
    truth = brute_force(puzzle)
    result = solve_lightup(puzzle, limit=2)
    sentence = describe_result(result)
    if not truth:
        assert sentence == "No placement of lamps solves this puzzle."
    elif len(truth) == 1:
        assert sentence == f"Unique solution: {len(truth[0])} lamp{'s' * (len(truth[0]) != 1)}."
        assert result.solutions[0] == truth[0]
    else:
        assert "not unique" in sentence
        assert result.solutions[0] in truth


# -- the page in the window ------------------------------------------------------------
@pytest.fixture
def lightup_page(qtbot):
    window = ManualWindow(settings=Settings(), remember=False)
    qtbot.addWidget(window)
    window.resize(700, 560)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    window.tabs.setCurrentIndex(1)
    page = window.lightup_page
    assert page.view.hasFocus()
    return window, page


def wait_result(qtbot, page) -> None:
    qtbot.waitUntil(lambda: page.model.result_current and not page.solving, timeout=20_000)


def type_puzzle(qtbot, page, text: str) -> None:
    """Type the puzzle cell by cell with the keyboard, row by row."""
    lines = text.split("\n")
    page.rows_box.setValue(len(lines))
    page.cols_box.setValue(len(lines[0]))
    for r, line in enumerate(lines):
        page.model.cursor = (r, 0)
        for ch in line:
            qtbot.keyClicks(page.view, ch)


def test_type_a_puzzle_and_solve_it(qtbot, lightup_page) -> None:
    window, page = lightup_page
    type_puzzle(qtbot, page, UNIQUE)
    assert page.model.text() == UNIQUE + "\n"
    wait_result(qtbot, page)
    qtbot.keyClick(page.view, Qt.Key.Key_S)
    assert page.solve_action.isChecked()
    assert not window.solve_action.isChecked()  # the Lights Out S did not fire
    truth = brute_force(parse_lightup(UNIQUE)[0])
    assert page.view.lamps == truth[0]
    assert page.status_label.text() == f"Unique solution: {len(truth[0])} lamps."


def test_not_unique_and_impossible(qtbot, lightup_page) -> None:
    _window, page = lightup_page
    assert page.paste_text(OPEN_2X2)
    page.solve_action.trigger()
    wait_result(qtbot, page)
    assert "not unique" in page.status_label.text()
    assert page.view.lamps in brute_force(parse_lightup(OPEN_2X2)[0])
    assert page.paste_text(IMPOSSIBLE)
    wait_result(qtbot, page)
    assert page.status_label.text() == "No placement of lamps solves this puzzle."
    assert page.view.lamps == frozenset()


def test_place_lamps_by_hand(qtbot, lightup_page) -> None:
    _window, page = lightup_page
    page.paste_text(OPEN_2X2)
    qtbot.keyClick(page.view, Qt.Key.Key_P)
    assert page.model.playing
    for r, c in [(0, 0), (1, 1)]:
        rect = page.view.cell_rect(r, c)
        qtbot.mouseClick(page.view, Qt.MouseButton.LeftButton, pos=rect.center().toPoint())
    assert page.view.lamps == {(0, 0), (1, 1)}
    assert page.status_label.text().startswith("Solved")
    qtbot.keyClick(page.view, Qt.Key.Key_Space)  # the cursor is on (1,1): takes the lamp
    assert page.status_label.text() == "Cell 2,2 is dark."


def test_edit_with_clicks_and_keys(qtbot, lightup_page) -> None:
    _window, page = lightup_page
    page.rows_box.setValue(2)
    page.cols_box.setValue(3)
    rect = page.view.cell_rect(0, 1)
    qtbot.mouseClick(page.view, Qt.MouseButton.LeftButton, pos=rect.center().toPoint())
    qtbot.mouseClick(page.view, Qt.MouseButton.LeftButton, pos=rect.center().toPoint())
    assert page.model.cells[0][1] == "0"
    qtbot.mouseClick(page.view, Qt.MouseButton.RightButton, pos=rect.center().toPoint())
    assert page.model.cells[0][1] == "#"
    qtbot.keyClick(page.view, Qt.Key.Key_Down)
    qtbot.keyClick(page.view, Qt.Key.Key_Return)
    assert page.model.cells[1][1] == "#"
    page.cols_box.setValue(101)
    assert "larger than the window" in page.message_label.text()
    assert page.model.cols == 3 and page.cols_box.value() == 3
    qtbot.keyClick(page.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == ".#.\n.#.\n"
    assert not page.paste_text("..x")
    assert "Could not paste a puzzle" in page.message_label.text()
    qtbot.keyClick(page.view, Qt.Key.Key_C)
    assert page.model.text() == "...\n...\n"
