"""The Light Up (Akari) page of the manual window: a painted grid and its controls.

Thin like the Lights Out page: every click and key calls one method of
:class:`~assistant.gui.lightup_model.LightUpModel` and repaints. The exact solver runs
on a daemon thread, one search at a time, newest puzzle next (as for Lights Out).
"""

from __future__ import annotations

import threading
import traceback
from dataclasses import dataclass

from PyQt6.QtCore import QObject, QRectF, Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QAction, QColor, QFont, QGuiApplication, QKeyEvent, QPainter, QPen
from PyQt6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from assistant.errors import UserError
from assistant.gui.grid_view import (
    BACKGROUND,
    CURSOR_COLOUR,
    CellGrid,
    GridScroll,
    grow_to_show,
)
from assistant.gui.lightup_model import CYCLE, LightUpModel
from assistant.lightup import LightUpPuzzle, LightUpResult, solve_lightup

__all__ = ["LIGHTUP_KEYS_HELP", "LightUpPage", "LightUpView"]

#: What the page says when the solver itself fails (a bug): a sentence, not the
#: exception's text; the traceback goes to the terminal for a bug report.
SOLVER_FAILED = ("The Light Up solver failed on this puzzle (a bug: the details were printed "
                 "where the assistant was started).")

DARK_CELL = QColor("#e8e8e8")
LIT_CELL = QColor("#fff1a8")
WALL = QColor("#151515")
LAMP = QColor("#ffc400")
LAMP_EDGE = QColor("#6d4c00")
EDIT_CURSOR = QColor("#1565c0")

LIGHTUP_KEYS_HELP = (
    "Arrows: move · Space/Enter: next cell kind or lamp · Backspace/−: previous · "
    "type . # 0-4 to set a cell · P: edit / place lamps · S: solve · "
    "C: clear · Ctrl+C/V: copy/paste the puzzle as text"
)


class LightUpView(CellGrid):
    """A Light Up grid: empty cells (lit ones pale yellow), black cells with their
    numbers, lamps as circles. Typing ``.``, ``#`` or ``0``-``4`` emits ``typed``."""

    typed = pyqtSignal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(interactive=True, parent=parent)
        self._cells: tuple[str, ...] = (".",)
        self._lamps: frozenset[tuple[int, int]] = frozenset()
        self._lit: frozenset[tuple[int, int]] = frozenset()

    def show_puzzle(
        self,
        cells: tuple[str, ...],
        lamps: frozenset[tuple[int, int]],
        lit: frozenset[tuple[int, int]],
        cursor: tuple[int, int] | None,
    ) -> None:
        self._cells, self._lamps, self._lit, self._cursor = cells, lamps, lit, cursor
        self._set_shape((len(cells), len(cells[0])))
        self.update()

    @property
    def lamps(self) -> frozenset[tuple[int, int]]:
        return self._lamps

    def _paint(self, painter: QPainter) -> None:
        painter.fillRect(self.rect(), BACKGROUND)
        size, x0, y0 = self._layout()
        gap = 1.0 if size >= 6 else 0.0
        inner = size - gap
        font = QFont(self.font())
        font.setPixelSize(max(8, int(size * 0.5)))
        font.setBold(True)
        painter.setFont(font)
        for r, line in enumerate(self._cells):
            for c, ch in enumerate(line):
                rect = QRectF(x0 + c * size, y0 + r * size, inner, inner)
                if ch == ".":
                    painter.fillRect(rect, LIT_CELL if (r, c) in self._lit else DARK_CELL)
                    continue
                painter.fillRect(rect, WALL)
                if ch != "#" and size >= 10:
                    painter.setPen(QColor("#ffffff"))
                    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, ch)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(LAMP_EDGE, max(1.0, size * 0.05)))
        painter.setBrush(LAMP)
        for r, c in self._lamps:
            rect = QRectF(x0 + c * size, y0 + r * size, inner, inner)
            margin = inner * 0.2
            painter.drawEllipse(rect.adjusted(margin, margin, -margin, -margin))
        if self._cursor is not None and self.hasFocus():
            painter.setBrush(Qt.BrushStyle.NoBrush)
            width = max(1.5, min(3.0, size * 0.1))
            r, c = self._cursor
            on_wall = self._cells[r][c] != "."
            colour = CURSOR_COLOUR if on_wall else EDIT_CURSOR
            painter.setPen(QPen(colour, width, Qt.PenStyle.DashLine))
            half = width / 2
            painter.drawRect(self.cell_rect(r, c).adjusted(half, half, -half - gap, -half - gap))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        text = event.text()
        if text and text in CYCLE and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            self.typed.emit(text)
            return
        super().keyPressEvent(event)


@dataclass(frozen=True)
class _Found:
    puzzle: LightUpPuzzle
    result: LightUpResult | None
    error: str | None


class _Relay(QObject):
    """Carries a finished search to the page's thread; no Qt parent, so the page and the
    worker both keep it alive (as the manual window's relay)."""

    finished = pyqtSignal(object)


class LightUpPage(QWidget):
    """The Light Up page: size boxes, actions, the grid and a status line.

    Signals
    -------
    solved(LightUpResult) : an answer for the puzzle on screen arrived.
    """

    solved = pyqtSignal(object)

    def __init__(self, model: LightUpModel | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model or LightUpModel.blank()
        self._busy = False
        self._relay = _Relay()  # no parent: the worker keeps it alive, see _Relay
        self._relay.finished.connect(self._on_found)
        self._syncing = False
        self._shape: tuple[int, int] | None = None  # the grid's shape last laid out
        self._grow = QTimer(self)  # after the layout took the new shape: room for it
        self._grow.setSingleShot(True)
        self._grow.setInterval(0)
        self._grow.timeout.connect(self._grow_to_show_the_grid)

        outer = QVBoxLayout(self)
        controls = QHBoxLayout()
        self.rows_box = self._spin("Rows", "Rows (1 to 100)", controls)
        self.cols_box = self._spin("Cols", "Columns (1 to 100)", controls)
        self.tool_row = controls
        outer.addLayout(controls)
        self.view = LightUpView()
        self.view.setAccessibleName("Light Up puzzle")
        self.view.setToolTip(
            "Edit: left click next kind (empty, black, 0-4), right click previous; "
            "play: click puts or takes a lamp"
        )
        # cells never shrink below MIN_CELL: a big puzzle grows the window, then scrolls
        self.scroll = GridScroll(self.view)
        outer.addWidget(self.scroll, 1)
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        self.status_label.setAccessibleName("Light Up answer")
        outer.addWidget(self.status_label)
        self.message_label = QLabel()
        self.message_label.setWordWrap(True)
        self.message_label.setStyleSheet("color: #b71c1c;")
        outer.addWidget(self.message_label)
        keys = QLabel(LIGHTUP_KEYS_HELP)
        keys.setWordWrap(True)
        keys.setStyleSheet("color: #666;")
        outer.addWidget(keys)

        a = self._action
        self.play_action = a("Place lamps", self._toggle_play, "P",
                             "Place lamps (on) or edit the cells (off)", checkable=True)
        self.solve_action = a("Solve", self._toggle_solution, "S",
                              "Show the solver's lamps and whether the solution is unique",
                              checkable=True)
        self.clear_action = a("Clear", self._clear, "C", "Every cell empty, no lamps")
        self.copy_action = a("Copy", self._copy, "Ctrl+C", "Copy the puzzle as text",
                             button=False)
        self.paste_action = a("Paste", self._paste, "Ctrl+V",
                              "Paste a puzzle written as text (. # 0-4, L for lamps)",
                              button=False)
        controls.addStretch(1)

        self.view.cellClicked.connect(self._clicked)
        self.view.cursorMoved.connect(self._moved)
        self.view.activated.connect(self._activated)
        self.view.typed.connect(self._typed)
        self._changed()

    def _spin(self, label: str, tip: str, row: QHBoxLayout) -> QSpinBox:
        row.addWidget(QLabel(label))
        box = QSpinBox()
        box.setRange(1, 999)
        box.setKeyboardTracking(False)
        box.setToolTip(tip)
        box.setAccessibleName(f"Light Up {label}")
        box.valueChanged.connect(self._resized)
        row.addWidget(box)
        return box

    def _action(self, text, slot, key, tip, *, checkable=False, button=True) -> QAction:
        action = QAction(text, self)
        action.setShortcut(key)
        # only while the focus is on this page: the Lights Out page has its own keys
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.setToolTip(f"{tip} ({key})")
        action.setCheckable(checkable)
        action.triggered.connect(slot)
        self.addAction(action)
        if button:
            tool = QToolButton()
            tool.setDefaultAction(action)
            self.tool_row.addWidget(tool)
        return action

    # -- repaint ----------------------------------------------------------------------------------
    def _refresh(self) -> None:
        m = self.model
        self._syncing = True
        try:
            self.rows_box.setValue(m.rows)
            self.cols_box.setValue(m.cols)
        finally:
            self._syncing = False
        self.play_action.setChecked(m.playing)
        self.solve_action.setChecked(m.show_solution)
        cells = tuple("".join(row) for row in m.cells)
        self.view.show_puzzle(cells, m.shown_lamps(), m.lit(), m.cursor)
        if (m.rows, m.cols) != self._shape:
            self._shape = (m.rows, m.cols)
            self._grow.start()
        self.status_label.setText(m.status())

    def _grow_to_show_the_grid(self) -> None:
        grow_to_show(self.window(), self.scroll)

    def _changed(self) -> None:
        self.message_label.setText("")
        self._refresh()
        self._request_solve()

    # -- the solver on a worker thread ------------------------------------------------------------
    @property
    def solving(self) -> bool:
        return self._busy

    def _request_solve(self) -> None:
        if self._busy or self.model.result_current:
            return
        self._busy = True
        puzzle, relay = self.model.puzzle(), self._relay

        def work() -> None:
            try:
                found = _Found(puzzle, solve_lightup(puzzle, limit=2), None)
            except UserError as error:
                found = _Found(puzzle, None, str(error))
            except Exception:  # a bug: keep the traceback, keep the window
                traceback.print_exc()
                found = _Found(puzzle, None, SOLVER_FAILED)
            relay.finished.emit(found)  # alive while this thread holds it, page or not

        threading.Thread(target=work, name="lightup-solve", daemon=True).start()

    def _on_found(self, found: _Found) -> None:
        self._busy = False
        if found.puzzle != self.model.puzzle():
            self._request_solve()
            return
        if found.result is not None:
            self.model.accept(found.puzzle, found.result)
            self._refresh()
            self.solved.emit(found.result)
        else:
            self.message_label.setText(found.error or "")

    # -- slots ---------------------------------------------------------------------------------
    def _clicked(self, row: int, col: int, step: int) -> None:
        if self.model.click(row, col, step):
            self._changed()
        else:
            self._refresh()

    def _moved(self, d_row: int, d_col: int) -> None:
        self.model.move_cursor(d_row, d_col)
        self._refresh()

    def _activated(self, step: int) -> None:
        if self.model.click(*self.model.cursor, step=step):
            self._changed()

    def _typed(self, char: str) -> None:
        r, c = self.model.cursor
        self.model.playing = False
        self.model.set_cell(r, c, char)
        self.model.move_cursor(0, 1)  # typing a row left to right
        self._changed()

    def _toggle_play(self) -> None:
        self.model.playing = not self.model.playing
        if self.model.playing:
            self.model.show_solution = False
        self._refresh()

    def _toggle_solution(self) -> None:
        self.model.show_solution = not self.model.show_solution
        self._refresh()

    def _clear(self) -> None:
        self.model.clear()
        self._changed()

    def _resized(self, _value: int) -> None:
        if self._syncing:
            return
        try:
            self.model.resize(self.rows_box.value(), self.cols_box.value())
        except UserError as error:
            self._refresh()
            self.message_label.setText(str(error))
            return
        self._changed()

    def _copy(self) -> None:
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(self.model.text())

    def _paste(self) -> None:
        clipboard = QGuiApplication.clipboard()
        self.paste_text(clipboard.text() if clipboard is not None else "")

    def paste_text(self, text: str) -> bool:
        """Show a puzzle written as text; a bad text changes nothing and says why."""
        try:
            self.model.load_text(text)
        except UserError as error:
            self.message_label.setText(f"Could not paste a puzzle: {error}")
            return False
        self._changed()
        return True
