"""The steps panel, painted offscreen: plate colours at cell centres, the next plate's
stronger ring, the waypoint, the player, the camera turn, press counts, the text, and
dragging (the position it reports is what the settings store)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PyQt6.QtCore import QEvent, QPointF, Qt
from PyQt6.QtGui import QColor, QImage, QMouseEvent
from PyQt6.QtWidgets import QApplication

from assistant.gui.grid_view import state_colour
from assistant.gui.settings_dialog import SettingsDialog
from assistant.gui.steps_panel import (
    HIDDEN_COLOUR,
    NEXT_COLOUR,
    PANEL_BACKGROUND,
    PLAYER_COLOUR,
    ROUTE_COLOUR,
    StepsPanel,
)
from assistant.puzzle import TOA_PLATES, Board, toa_board
from assistant.settings import Settings, load_settings, save_settings
from assistant.solver import solve
from assistant.steps import steps_view_from, toa_steps_view

LIT = state_colour(1, 2)
UNLIT = state_colour(0, 2)


def _grab(panel: StepsPanel) -> QImage:
    image = panel.grab().toImage()
    assert image.width() == panel.width()  # device pixel ratio 1 offscreen
    return image


def _colour(image: QImage, point: QPointF) -> QColor:
    return image.pixelColor(round(point.x()), round(point.y()))


def _close(a: QColor, b: QColor, tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a.getRgb()[:3], b.getRgb()[:3], strict=True))


def _near(image: QImage, point: QPointF, colour: QColor, reach: int = 2) -> bool:
    """Some pixel within ``reach`` of ``point`` has ``colour`` (thin antialiased lines)."""
    x0, y0 = round(point.x()), round(point.y())
    return any(
        _close(image.pixelColor(x0 + dx, y0 + dy), colour, 20)
        for dx in range(-reach, reach + 1)
        for dy in range(-reach, reach + 1)
    )


def _plate_body(panel: StepsPanel, row: int, col: int) -> QPointF:
    """A point on the plate away from the player disc and the number badge."""
    offset = panel.cell_size() * 0.2
    return panel.cell_centre(row, col) + QPointF(offset, offset)


def _ring(panel: StepsPanel, row: int, col: int) -> QPointF:
    """The middle of the right side of a plate's route ring (0.78 of a cell wide)."""
    return panel.cell_centre(row, col) + QPointF(panel.cell_size() * 0.39, 0)


@pytest.fixture
def panel(qtbot) -> StepsPanel:
    widget = StepsPanel()
    qtbot.addWidget(widget)
    return widget


def test_window_is_a_frameless_tool_on_top(panel: StepsPanel) -> None:
    flags = panel.windowFlags()
    for flag in (
        Qt.WindowType.Tool,
        Qt.WindowType.FramelessWindowHint,
        Qt.WindowType.WindowStaysOnTopHint,
    ):
        assert flags & flag
    assert panel.text_lines() == ("Waiting for a reading.",)
    assert _colour(_grab(panel), QPointF(3, 3)) == PANEL_BACKGROUND


@pytest.mark.parametrize("text", ["111/0#0/110", "100/1#0/011", "000/0#0/000"])
def test_plates_are_lit_or_unlit_as_read(panel: StepsPanel, text: str) -> None:
    board = toa_board(text)
    panel.show_view(toa_steps_view(board))
    image = _grab(panel)
    for r, c in TOA_PLATES:
        want = LIT if board.states[r, c] else UNLIT
        assert _close(_colour(image, _plate_body(panel, r, c)), want), (r, c)
    # the missing centre is floor, not a plate of either colour
    centre = _colour(image, panel.cell_centre(1, 1))
    assert not _close(centre, LIT) and not _close(centre, UNLIT)


def test_next_plate_is_marked_more_strongly_than_the_rest(panel: StepsPanel) -> None:
    view = toa_steps_view(toa_board("111/0#0/110"))
    panel.show_view(view)
    image = _grab(panel)
    first, *rest = view.order
    assert _near(image, _ring(panel, *first), NEXT_COLOUR, reach=1)
    # the strong ring is thick: 2 px beside its middle it is still there
    assert _near(image, _ring(panel, *first) + QPointF(2, 0), NEXT_COLOUR, reach=0)
    for plate in rest:
        assert _near(image, _ring(panel, *plate), ROUTE_COLOUR)
        assert not _near(image, _ring(panel, *plate), NEXT_COLOUR)
    # plates off the answer have no ring
    for plate in set(TOA_PLATES) - set(view.order):
        ring = _ring(panel, *plate)
        assert not _near(image, ring, ROUTE_COLOUR) and not _near(image, ring, NEXT_COLOUR)


def test_waypoint_path_and_player(panel: StepsPanel) -> None:
    view = toa_steps_view(toa_board("111/0#0/110"))
    assert view.next_waypoint == (4, 3)
    panel.show_view(view)
    image = _grab(panel)
    assert _close(_colour(image, panel.tile_centre((4, 3))), NEXT_COLOUR)
    assert _close(_colour(image, panel.tile_centre((3, 4))), NEXT_COLOUR, 60)  # dashed line
    assert not _near(image, panel.tile_centre((1, 1)), NEXT_COLOUR)  # no waypoint there

    panel.show_view(toa_steps_view(toa_board("100/1#0/011"), (0, 2)))
    image = _grab(panel)
    assert _close(_colour(image, panel.cell_centre(0, 2)), PLAYER_COLOUR)
    assert not _close(_colour(image, panel.cell_centre(2, 0)), PLAYER_COLOUR)


def test_hidden_plates_are_grey(panel: StepsPanel) -> None:
    panel.show_view(toa_steps_view(toa_board("111/0#0/110"), hidden=[(2, 2)]))
    image = _grab(panel)
    assert _close(_colour(image, _plate_body(panel, 2, 2)), HIDDEN_COLOUR)


def test_camera_turn_rotates_the_picture(panel: StepsPanel) -> None:
    board = toa_board("100/0#0/000")  # only the top-left plate lit
    presses = solve(board).presses
    panel.show_view(steps_view_from(board, presses, rotation=1))
    # a quarter turn clockwise puts the board's top-left plate at the top-right
    # (and the top-right one at the bottom-right)
    assert panel.cell_centre(0, 2) == panel.cell_centre(0, 0) + QPointF(0, 2 * panel.cell_size())
    # ...and the bottom-left one at the top-left
    assert panel.cell_centre(2, 0) == panel.cell_centre(0, 0) - QPointF(2 * panel.cell_size(), 0)
    image = _grab(panel)
    unturned = StepsPanel()
    unturned.show_view(steps_view_from(board, presses))
    top_right = unturned.cell_centre(0, 2) + QPointF(
        unturned.cell_size() * 0.2, unturned.cell_size() * 0.2
    )
    unturned.deleteLater()
    assert _close(_colour(image, top_right), LIT)
    assert _close(_colour(image, _plate_body(panel, 0, 2)), UNLIT)


def test_generic_grid_shows_press_counts(panel: StepsPanel) -> None:
    board = Board.parse("120/201/012", k=3)
    presses = np.asarray(solve(board).presses)
    panel.show_view(steps_view_from(board, presses))
    image = _grab(panel)
    size = panel.cell_size()
    for r in range(3):
        for c in range(3):
            corner = panel.cell_centre(r, c) + QPointF(size * 0.3, size * 0.3)
            assert _close(_colour(image, corner), state_colour(int(board.states[r, c]), 3))
            edge = panel.cell_centre(r, c) + QPointF(size * 0.46 - 2, 0)
            assert _near(image, edge, ROUTE_COLOUR, reach=1) == bool(presses[r, c]), (r, c)
    assert panel.text_lines()[0] == f"{int(presses.sum())} presses left."


def test_text_lines_and_their_colours(panel: StepsPanel) -> None:
    view = toa_steps_view(toa_board("111/0#0/110"), note="The overlay cannot be drawn here.")
    panel.show_view(view)
    assert panel.text_lines() == (view.status, *view.lines, view.note)
    image = _grab(panel)
    text_top = panel.width()  # the text starts under the square grid area
    rows = [
        [image.pixelColor(x, y) for x in range(panel.width())]
        for y in range(text_top, panel.height())
    ]
    inked = [any(not _close(p, PANEL_BACKGROUND, 30) for p in row) for row in rows]
    magenta = [any(_close(p, NEXT_COLOUR, 40) for p in row) for row in rows]
    assert sum(inked) > 8 * 6  # several lines of text
    assert any(magenta)  # the next click's line is in the highlight colour
    # the status line comes first and is not highlighted
    first_ink = inked.index(True)
    assert not magenta[first_ink]
    short = StepsPanel()
    short.show_view(toa_steps_view(toa_board("111/1#1/111")))
    assert short.height() < panel.height()
    short.deleteLater()


def _mouse(panel: StepsPanel, kind: QEvent.Type, local: QPointF, global_: QPointF) -> None:
    buttons = (
        Qt.MouseButton.NoButton
        if kind == QEvent.Type.MouseButtonRelease
        else Qt.MouseButton.LeftButton
    )
    event = QMouseEvent(
        kind, local, global_, Qt.MouseButton.LeftButton, buttons, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(panel, event)


def test_dragging_moves_and_reports_the_place(qtbot, tmp_path: Path) -> None:
    panel = StepsPanel(position=(100, 120))
    qtbot.addWidget(panel)
    panel.show_view(toa_steps_view(toa_board("111/0#0/110")))
    panel.show()
    assert (panel.x(), panel.y()) == (100, 120)
    start = QPointF(110, 130)
    _mouse(panel, QEvent.Type.MouseButtonPress, QPointF(10, 10), start)
    _mouse(panel, QEvent.Type.MouseMove, QPointF(10, 10), start + QPointF(50, 30))
    with qtbot.waitSignal(panel.moved, timeout=1000) as blocker:
        _mouse(panel, QEvent.Type.MouseButtonRelease, QPointF(10, 10), start + QPointF(60, 40))
    assert blocker.args == [160, 160]
    assert (panel.x(), panel.y()) == (160, 160)
    # the caller stores it; a new panel opens there
    path = tmp_path / "settings.toml"
    save_settings(Settings().with_changes(steps_panel_position=tuple(blocker.args)), path)
    saved, _ = load_settings(path)
    reopened = StepsPanel(position=saved.steps_panel_position)
    qtbot.addWidget(reopened)
    assert (reopened.x(), reopened.y()) == (160, 160)


def test_settings_dialog_switches(qtbot) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    assert dialog.show_route.isChecked() and dialog.crossing_steps.isChecked()
    assert not dialog.show_steps_panel.isChecked()
    dialog.show_route.setChecked(False)
    dialog.crossing_steps.setChecked(False)
    dialog.show_steps_panel.setChecked(True)
    dialog.accept()
    result = dialog.result_settings()
    assert result is not None
    assert (result.show_route, result.crossing_steps, result.show_steps_panel) == (
        False,
        False,
        True,
    )
