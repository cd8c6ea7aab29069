"""One custom-painted grid widget for the board and for the answer.

A 100x100 board is 10,000 cells: one widget paints them all in ``paintEvent`` (one
pixel per cell through a colour table, scaled up as one image, then the grid lines and,
when cells are large enough, the numbers), instead of 10,000 buttons. The
widget knows nothing of the rules: it shows arrays it is given and reports clicks and
keys as signals (``cellClicked``, ``cursorMoved``, ``activated``); the window decides.
"""

from __future__ import annotations

import numpy as np
from PyQt6.QtCore import QPointF, QRectF, QSize, Qt, pyqtSignal
from PyQt6.QtGui import (
    QColor,
    QFont,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
)
from PyQt6.QtWidgets import QFrame, QScrollArea, QSizePolicy, QWidget

__all__ = [
    "ANSWER_HIDDEN",
    "ANSWER_PRESSES",
    "ANSWER_UNSOLVABLE",
    "BACKGROUND",
    "MIN_CELL",
    "PRESS_COLOUR",
    "UNSOLVABLE_COLOUR",
    "CellGrid",
    "GridScroll",
    "GridView",
    "cell_colours",
    "fit_to_screen",
    "grow_to_show",
    "state_colour",
]

BACKGROUND = QColor("#4a4a50")  # also what a hole shows: the gap where a cell would be
PRESS_COLOUR = QColor("#00e5ff")
NO_PRESS_COLOUR = QColor("#26262b")
HIDDEN_COLOUR = QColor("#34343a")
UNSOLVABLE_COLOUR = QColor("#c62828")
CURSOR_COLOUR = QColor("#ffffff")
HINT_COLOUR = QColor("#ff3df5")
_BLACK = (12, 12, 12)
_YELLOW = (255, 214, 0)

ANSWER_HIDDEN = "hidden"  # answer not asked for or not in yet
ANSWER_PRESSES = "presses"  # press counts, nonzero cells highlighted
ANSWER_UNSOLVABLE = "unsolvable"  # every cell red

_MOVES = {
    Qt.Key.Key_Up: (-1, 0),
    Qt.Key.Key_Down: (1, 0),
    Qt.Key.Key_Left: (0, -1),
    Qt.Key.Key_Right: (0, 1),
}
_PLUS = frozenset(
    {Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Plus, Qt.Key.Key_Equal}
)
_MINUS = frozenset({Qt.Key.Key_Backspace, Qt.Key.Key_Minus})

#: Smallest cell (in logical pixels) that gets a number drawn in it.
_TEXT_MIN_CELL = 14.0
#: Smallest cell a grid is drawn with (logical pixels): a target a pointer hits without
#: care (WCAG 2.2's minimum target size is 24 by 24). A grid that needs more room than
#: the window has scrolls (the windows put their grids in a scroll area).
MIN_CELL = 24


def state_colour(state: int, k: int) -> QColor:
    """Black for 0 through to yellow for k-1 (lit), evenly spaced."""
    t = state / (k - 1) if k > 1 else 1.0
    r, g, b = (round(lo + (hi - lo) * t) for lo, hi in zip(_BLACK, _YELLOW, strict=True))
    return QColor(r, g, b)


def cell_colours(k: int) -> list[QColor]:
    """The colour table for states 0..k-1."""
    return [state_colour(s, k) for s in range(k)]


def _text_colour(background: QColor) -> QColor:
    """Dark text on light cells, light text on dark ones (contrast at every state)."""
    luma = 0.299 * background.red() + 0.587 * background.green() + 0.114 * background.blue()
    return QColor("#111111") if luma > 140 else QColor("#f0f0f0")


class CellGrid(QWidget):
    """What every painted grid shares: square cells centred in the widget, a keyboard
    cursor, clicks and keys reported as signals. Subclasses paint in ``_paint``.

    Signals
    -------
    cellClicked(row, col, step) : left button +1, right button -1.
    cursorMoved(d_row, d_col) : an arrow key.
    activated(step) : Space/Enter/+ (+1) or Backspace/- (-1) at the cursor.
    """

    cellClicked = pyqtSignal(int, int, int)
    cursorMoved = pyqtSignal(int, int)
    activated = pyqtSignal(int)

    def __init__(self, *, interactive: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._interactive = interactive
        self._shape: tuple[int, int] = (1, 1)
        self._cursor: tuple[int, int] | None = None
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(120, 120)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.PreventContextMenu)
        self.setFocusPolicy(
            Qt.FocusPolicy.StrongFocus if interactive else Qt.FocusPolicy.NoFocus
        )
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)

    @property
    def cursor(self) -> tuple[int, int] | None:
        return self._cursor

    def _set_shape(self, shape: tuple[int, int]) -> None:
        if tuple(shape) != self._shape:
            self._shape = (int(shape[0]), int(shape[1]))
            least = self.minimumSizeHint()
            self.setMinimumSize(least)  # cells never smaller than MIN_CELL: scroll instead
            self.updateGeometry()

    # -- geometry -------------------------------------------------------------------------------
    def _layout(self) -> tuple[float, float, float]:
        """``(cell size, x origin, y origin)``: square cells, grid centred."""
        rows, cols = self._shape
        size = min(self.width() / cols, self.height() / rows)
        x0 = (self.width() - size * cols) / 2
        y0 = (self.height() - size * rows) / 2
        return size, x0, y0

    def cell_rect(self, row: int, col: int) -> QRectF:
        """The cell's square in widget coordinates."""
        size, x0, y0 = self._layout()
        return QRectF(x0 + col * size, y0 + row * size, size, size)

    def cell_at(self, point: QPointF) -> tuple[int, int] | None:
        """The cell under a point, or None outside the grid."""
        size, x0, y0 = self._layout()
        rows, cols = self._shape
        if size <= 0:
            return None
        col = int((point.x() - x0) // size)
        row = int((point.y() - y0) // size)
        if 0 <= row < rows and 0 <= col < cols:
            return row, col
        return None

    def sizeHint(self) -> QSize:
        rows, cols = self._shape
        cell = min(56, max(MIN_CELL, 480 // max(rows, cols)))
        return QSize(cell * cols, cell * rows)

    def minimumSizeHint(self) -> QSize:
        rows, cols = self._shape
        return QSize(max(120, MIN_CELL * cols), max(120, MIN_CELL * rows))

    # -- painting -------------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        try:
            self._paint(painter)
        finally:
            painter.end()

    def _paint(self, painter: QPainter) -> None:
        """Draw the cells: every subclass (the Lights Out and Light Up grids) does its own."""
        raise NotImplementedError

    # -- input ----------------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if not self._interactive:
            super().mousePressEvent(event)
            return
        cell = self.cell_at(event.position())
        step = {Qt.MouseButton.LeftButton: 1, Qt.MouseButton.RightButton: -1}.get(
            event.button()
        )
        if cell is None or step is None:
            super().mousePressEvent(event)
            return
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        self.cellClicked.emit(cell[0], cell[1], step)
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = Qt.Key(event.key())
        if not self._interactive:
            super().keyPressEvent(event)
        elif key in _MOVES:
            self.cursorMoved.emit(*_MOVES[key])
        elif key in _PLUS:
            self.activated.emit(1)
        elif key in _MINUS:
            self.activated.emit(-1)
        else:
            super().keyPressEvent(event)

    def focusInEvent(self, event) -> None:
        super().focusInEvent(event)
        self.update()

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        self.update()


class GridView(CellGrid):
    """A Lights Out grid: the board (states black→yellow, numbers when k > 2, cursor,
    hint) or the answer (press counts, nonzero cells highlighted; all red when
    unsolvable)."""

    def __init__(self, *, interactive: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(interactive=interactive, parent=parent)
        self._values = np.zeros((1, 1), dtype=np.int64)
        self._present = np.ones((1, 1), dtype=bool)
        self._k = 2
        self._answer: str | None = None  # None = this grid shows a board
        self._hint: tuple[int, int] | None = None
        self._colours = cell_colours(2)

    # -- data in --------------------------------------------------------------------------------
    def show_board(
        self,
        states: np.ndarray,
        present: np.ndarray,
        k: int,
        cursor: tuple[int, int] | None = None,
        hint: tuple[int, int] | None = None,
    ) -> None:
        """Show a board: cell colours black→yellow, numbers when k > 2."""
        if k != self._k or self._answer is not None:
            self._colours = cell_colours(k)
        self._set(states, present, k, None, cursor, hint)

    def show_answer(
        self, presses: np.ndarray | None, present: np.ndarray, k: int, kind: str
    ) -> None:
        """Show the answer: ``kind`` is ANSWER_PRESSES (needs ``presses``), ANSWER_HIDDEN
        or ANSWER_UNSOLVABLE."""
        if kind not in (ANSWER_HIDDEN, ANSWER_PRESSES, ANSWER_UNSOLVABLE):
            raise ValueError(f"unknown answer kind {kind!r}")
        values = presses if presses is not None else np.zeros(present.shape, dtype=np.int64)
        self._set(values, present, k, kind, None, None)

    def _set(
        self,
        values: np.ndarray,
        present: np.ndarray,
        k: int,
        answer: str | None,
        cursor: tuple[int, int] | None,
        hint: tuple[int, int] | None,
    ) -> None:
        self._values = np.asarray(values)
        self._present = np.asarray(present, dtype=bool)
        self._k = k
        self._answer = answer
        self._cursor = cursor
        self._hint = hint
        self._set_shape(self._values.shape)
        self.update()

    # -- read back (tests, accessibility) -------------------------------------------------------
    @property
    def values(self) -> np.ndarray:
        return self._values

    @property
    def present(self) -> np.ndarray:
        return self._present

    @property
    def answer_kind(self) -> str | None:
        return self._answer

    @property
    def hint(self) -> tuple[int, int] | None:
        return self._hint

    def _paint(self, painter: QPainter) -> None:
        painter.fillRect(self.rect(), BACKGROUND)
        size, x0, y0 = self._layout()
        rows, cols = self._values.shape
        gap = 1.0 if size >= 6 else 0.0
        inner = size - gap
        present = self._present
        values = self._values
        answer = self._answer
        show_text = size >= _TEXT_MIN_CELL and (answer == ANSWER_PRESSES or self._k > 2)
        if answer is None:
            table = self._colours
        elif answer == ANSWER_UNSOLVABLE:
            table = [UNSOLVABLE_COLOUR]
        elif answer == ANSWER_HIDDEN:
            table = [HIDDEN_COLOUR]
        else:
            table = [NO_PRESS_COLOUR, PRESS_COLOUR]
        # Every cell at once: one pixel per cell in an image, scaled up without smoothing
        # (a few ms at 100x100, where 10,000 fillRect calls take tens of ms).
        if answer is None:
            index = values
        elif answer == ANSWER_PRESSES:
            index = (values != 0).astype(np.int64)
        else:
            index = np.zeros(values.shape, dtype=np.int64)
        palette = np.array([c.rgb() for c in table] + [BACKGROUND.rgb()], dtype=np.uint32)
        pixels = np.ascontiguousarray(palette[np.where(present, index, len(table))])
        image = QImage(pixels.data, cols, rows, cols * 4, QImage.Format.Format_RGB32)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        painter.drawImage(QRectF(x0, y0, size * cols, size * rows), image)
        if gap:
            for c in range(1, cols + 1):
                painter.fillRect(QRectF(x0 + c * size - gap, y0, gap, size * rows), BACKGROUND)
            for r in range(1, rows + 1):
                painter.fillRect(QRectF(x0, y0 + r * size - gap, size * cols, gap), BACKGROUND)
        if show_text:
            font = QFont(self.font())
            font.setPixelSize(max(8, int(size * 0.45)))
            painter.setFont(font)
            pens = [_text_colour(c) for c in table]
            for r, c in np.argwhere(present & ((values != 0) | (answer is None))).tolist():
                v = int(values[r, c])
                painter.setPen(pens[int(index[r, c])])
                rect = QRectF(x0 + c * size, y0 + r * size, inner, inner)
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(v))
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        if self._hint is not None:
            width = max(2.0, min(5.0, size * 0.08))
            painter.setPen(QPen(HINT_COLOUR, width))
            rect = self.cell_rect(*self._hint)
            half = width / 2
            painter.drawEllipse(rect.adjusted(half + gap, half + gap, -half - gap, -half - gap))
        if self._cursor is not None and self.hasFocus():
            width = max(1.5, min(3.0, size * 0.1))
            painter.setPen(QPen(CURSOR_COLOUR, width, Qt.PenStyle.DashLine))
            rect = self.cell_rect(*self._cursor)
            half = width / 2
            painter.drawRect(rect.adjusted(half, half, -half - gap, -half - gap))


#: The most of the screen's available area a grid asks for when its window opens.
_SCREEN_SHARE = 0.85
#: What a window manager's frame takes (width, height) before the frame is known: the
#: borders and a title bar.
FRAME_ALLOWANCE = (8, 36)


def fit_to_screen(hint: QSize, widget: QWidget) -> QSize:
    """``hint`` no larger than ``widget``'s screen's available area less a frame: a
    window opens wholly on its screen whatever its grids ask for."""
    screen = widget.screen()
    if screen is None:
        return hint
    area = screen.availableGeometry()
    return hint.boundedTo(QSize(area.width() - FRAME_ALLOWANCE[0],
                                area.height() - FRAME_ALLOWANCE[1]))


class GridScroll(QScrollArea):
    """Holds the grids (with their titles): asks for room for all of them, up to most of
    the screen, so a window opens showing a whole grid where the screen allows and
    scrolls where it does not; cells never shrink below :data:`MIN_CELL`."""

    def __init__(self, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidget(content)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        # the window's own background around the grids, as without a scroll area
        self.viewport().setAutoFillBackground(False)
        content.setAutoFillBackground(False)

    def sizeHint(self) -> QSize:
        content = self.widget()
        if content is None:
            return super().sizeHint()
        hint = content.sizeHint().expandedTo(content.minimumSizeHint())
        screen = self.screen()
        if screen is None:
            return hint
        area = screen.availableGeometry()
        return QSize(min(hint.width(), int(area.width() * _SCREEN_SHARE)),
                     min(hint.height(), int(area.height() * _SCREEN_SHARE)))


def grow_to_show(window: QWidget, scroll: QScrollArea) -> None:
    """Grow ``window`` until ``scroll``'s contents show whole, as far as the screen's
    available area allows, and keep the window wholly on that screen (smaller only when
    it is bigger than the screen): a bigger grid gets room, or scrolls, but never cells
    too small to click."""
    content = scroll.widget()
    if content is None or not window.isVisible():
        return
    if content.layout() is not None:
        content.layout().activate()
    need = content.minimumSizeHint().expandedTo(content.minimumSize())
    have = scroll.viewport().size()
    grow_w, grow_h = max(0, need.width() - have.width()), max(0, need.height() - have.height())
    if not grow_w and not grow_h:
        return  # the grid shows whole: the player's size stays
    screen = window.screen()
    if screen is None:
        return
    area = screen.availableGeometry()
    frame, inner = window.frameGeometry(), window.geometry()
    extra_w, extra_h = frame.width() - inner.width(), frame.height() - inner.height()
    if (extra_w, extra_h) == (0, 0) and window.isWindow() and not (
            window.windowFlags() & Qt.WindowType.FramelessWindowHint):
        extra_w, extra_h = FRAME_ALLOWANCE  # the window manager has not framed it yet
    width = min(window.width() + grow_w, area.width() - extra_w)
    height = min(window.height() + grow_h, area.height() - extra_h)
    if (width, height) != (window.width(), window.height()):
        window.resize(width, height)
    left = max(area.left(), min(frame.left(), area.right() + 1 - (window.width() + extra_w)))
    top = max(area.top(), min(frame.top(), area.bottom() + 1 - (window.height() + extra_h)))
    if (left, top) != (frame.left(), frame.top()):
        window.move(left, top)
