"""The steps panel: a small always-on-top window with the board as the player sees it and
the steps left, for when the overlay cannot be drawn over the game (and as an option
beside it).

It draws a :class:`assistant.steps.StepsView` and nothing else: what to show is decided
by the Qt-free builder (``toa_steps_view`` / ``steps_view_from``). It is a frameless tool
window the player drags anywhere; after a drag it emits ``moved(left, top)`` so the caller
stores ``Settings.steps_panel_position`` and passes it back next time.

ToA drawing: the floor from tile -1 to 5 (so waypoints on the edge show), the 8 plates
black (unlit) or yellow (lit) as in the manual window, grey with a question mark where
the state is not known, a thin cyan ring on every plate of the answer with its number in
the route order, a thick magenta ring on the next plate, a dashed ring on a plate that
only some of the possible answers step on, a thin line from the player to it through the
waypoints, a magenta diamond on the next waypoint, and a white disc for the player.
Other grids: the cells and, on every cell of the answer, its press count. A picture kept
from the last reading (``StepsView.stale``) is drawn faded.
"""

from __future__ import annotations

import itertools

import numpy as np
from PyQt6.QtCore import QPoint, QPointF, QRectF, Qt, pyqtSignal
from PyQt6.QtGui import QColor, QFont, QFontMetrics, QMouseEvent, QPainter, QPaintEvent, QPen
from PyQt6.QtWidgets import QWidget

from assistant.gui.grid_view import PRESS_COLOUR, state_colour
from assistant.route import FLOOR_MAX, FLOOR_MIN, Tile
from assistant.steps import StepsView

__all__ = [
    "FLOOR_COLOUR",
    "HIDDEN_COLOUR",
    "NEXT_COLOUR",
    "PANEL_BACKGROUND",
    "PLAYER_COLOUR",
    "ROUTE_COLOUR",
    "StepsPanel",
]

PANEL_BACKGROUND = QColor("#202024")
FLOOR_COLOUR = QColor("#5b5148")
HIDDEN_COLOUR = QColor("#7a7a84")
ROUTE_COLOUR = PRESS_COLOUR
NEXT_COLOUR = QColor("#ff3df5")
PLAYER_COLOUR = QColor("#ffffff")
TEXT_COLOUR = QColor("#e8e8ea")
NOTE_COLOUR = QColor("#b8b8c0")

_WIDTH = 270
_PAD = 10
#: Plates are drawn this fraction of a cell wide (the rest is floor between them).
_PLATE = 0.62
#: Opacity of a picture kept from the last reading (not this moment's).
STALE_OPACITY = 0.4


class StepsPanel(QWidget):
    """The panel. ``show_view`` repaints it; ``moved`` reports where it was dragged."""

    moved = pyqtSignal(int, int)

    def __init__(
        self, parent: QWidget | None = None, *, position: tuple[int, int] | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowFlags(
            Qt.WindowType.Tool
            | Qt.WindowType.FramelessWindowHint
            | Qt.WindowType.WindowStaysOnTopHint
        )
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.setWindowTitle("ToA steps")
        self.setCursor(Qt.CursorShape.OpenHandCursor)
        self._view: StepsView | None = None
        self._drag: QPoint | None = None
        self._font = QFont(self.font())
        self._font.setPointSizeF(max(8.0, self._font.pointSizeF()))
        self._bold = QFont(self._font)
        self._bold.setBold(True)
        self.setFixedSize(_WIDTH, self._height())
        if position is not None:
            self.move(*position)

    # -- content ----------------------------------------------------------------------
    def show_view(self, view: StepsView) -> None:
        """Show ``view`` (resizing to fit its text) and repaint."""
        self._view = view
        self.setFixedSize(_WIDTH, self._height())
        self.update()

    def view(self) -> StepsView | None:
        return self._view

    def text_lines(self) -> tuple[str, ...]:
        """The text shown under the grid, first the status line."""
        view = self._view
        if view is None:
            return ("Waiting for a reading.",)
        lines = (view.status, *view.lines)
        return (*lines, view.note) if view.note else lines

    # -- geometry ---------------------------------------------------------------------
    def _grid_rect(self) -> QRectF:
        side = _WIDTH - 2 * _PAD
        return QRectF(_PAD, _PAD, side, side)

    def _shape(self) -> tuple[int, int]:
        view = self._view
        if view is None or view.toa:
            return 3, 3
        rows, cols = view.board.shape
        return (cols, rows) if view.rotation % 2 else (rows, cols)

    def _unit(self) -> tuple[float, float, float]:
        """(cell size, x and y of display cell (0, 0)'s centre) in widget pixels."""
        rect = self._grid_rect()
        view = self._view
        if view is None or view.toa:
            span = (FLOOR_MAX - FLOOR_MIN + 1) / 2  # tiles -1..5 = 3.5 plate spacings
            cell = rect.width() / span
            first = rect.left() + cell * (0 - FLOOR_MIN) / 2 + cell / 4
            return cell, first, rect.top() + cell * (0 - FLOOR_MIN) / 2 + cell / 4
        rows, cols = self._shape()
        cell = min(rect.width() / cols, rect.height() / rows)
        left = rect.left() + (rect.width() - cell * cols) / 2
        top = rect.top() + (rect.height() - cell * rows) / 2
        return cell, left + cell / 2, top + cell / 2

    def _display(self, row: float, col: float) -> tuple[float, float]:
        """Board position (fractional row, col) -> display (row, col) after the turn."""
        view = self._view
        rows, cols = (3, 3) if view is None else view.board.shape
        turns = 0 if view is None else view.rotation % 4
        u, v = col - (cols - 1) / 2, row - (rows - 1) / 2
        for _ in range(turns):  # clockwise on screen: (u, v) -> (-v, u)
            u, v = -v, u
        drows, dcols = self._shape()
        return v + (drows - 1) / 2, u + (dcols - 1) / 2

    def cell_centre(self, row: int | float, col: int | float) -> QPointF:
        """Where the centre of board cell ``row``, ``col`` is drawn (widget pixels)."""
        cell, x0, y0 = self._unit()
        drow, dcol = self._display(row, col)
        return QPointF(x0 + dcol * cell, y0 + drow * cell)

    def tile_centre(self, tile: Tile) -> QPointF:
        """Where floor tile ``(x, y)`` is drawn: plates are 2 tiles apart."""
        return self.cell_centre(tile[1] / 2, tile[0] / 2)

    def cell_size(self) -> float:
        return self._unit()[0]

    def _height(self) -> int:
        width = _WIDTH - 2 * _PAD
        total = _WIDTH  # the square grid area and its padding
        for i, line in enumerate(self.text_lines()):
            metrics = QFontMetrics(self._bold if i == 0 else self._font)
            flags = int(Qt.TextFlag.TextWordWrap)
            total += metrics.boundingRect(0, 0, width, 10_000, flags, line).height() + 3
        return total + _PAD

    # -- painting ---------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), PANEL_BACKGROUND)
        view = self._view
        if view is not None:
            if view.stale:
                painter.setOpacity(STALE_OPACITY)
            if view.toa:
                self._paint_toa(painter, view)
            else:
                self._paint_grid(painter, view)
            painter.setOpacity(1.0)
        self._paint_text(painter)
        painter.end()

    def _plate_rect(self, row: int, col: int, fraction: float) -> QRectF:
        centre = self.cell_centre(row, col)
        half = self.cell_size() * fraction / 2
        return QRectF(centre.x() - half, centre.y() - half, 2 * half, 2 * half)

    def _cell_fill(self, view: StepsView, row: int, col: int) -> QColor:
        if (row, col) in view.hidden:
            return HIDDEN_COLOUR
        return state_colour(int(view.board.states[row, col]), view.board.k)

    def _paint_toa(self, painter: QPainter, view: StepsView) -> None:
        cell = self.cell_size()
        low = self.tile_centre((FLOOR_MIN, FLOOR_MIN))
        high = self.tile_centre((FLOOR_MAX, FLOOR_MAX))
        half_tile = cell / 4
        floor = QRectF(low, high).normalized()
        floor.adjust(-half_tile, -half_tile, half_tile, half_tile)
        painter.fillRect(floor, FLOOR_COLOUR)
        order = {plate: i for i, plate in enumerate(view.order, 1)}
        for row in range(3):
            for col in range(3):
                if not view.board.present[row, col]:
                    continue
                rect = self._plate_rect(row, col, _PLATE)
                painter.setPen(QPen(QColor("#3a2f4a"), 2))
                painter.setBrush(self._cell_fill(view, row, col))
                painter.drawRoundedRect(rect, 4, 4)
                if (row, col) in view.hidden:
                    self._centred_text(painter, rect, "?", QColor("#202024"))
        if len(view.path) >= 2:
            pen = QPen(NEXT_COLOUR, 2, Qt.PenStyle.DashLine)
            painter.setPen(pen)
            points = [self.tile_centre(tile) for tile in view.path]
            for a, b in itertools.pairwise(points):
                painter.drawLine(a, b)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for plate, number in order.items():
            rect = self._plate_rect(*plate, _PLATE + 0.16)
            strong = plate == view.next_plate
            painter.setPen(QPen(NEXT_COLOUR if strong else ROUTE_COLOUR, 6 if strong else 2))
            painter.drawRoundedRect(rect, 6, 6)
            self._badge(painter, plate, str(number), NEXT_COLOUR if strong else ROUTE_COLOUR)
        painter.setPen(QPen(ROUTE_COLOUR, 2, Qt.PenStyle.DashLine))
        for plate in view.dashed:
            painter.drawRoundedRect(self._plate_rect(*plate, _PLATE + 0.16), 6, 6)
        if view.next_waypoint is not None:
            centre = self.tile_centre(view.next_waypoint)
            r = cell * 0.13
            painter.setPen(QPen(QColor("#ffffff"), 1))
            painter.setBrush(NEXT_COLOUR)
            diamond = [
                QPointF(centre.x(), centre.y() - r),
                QPointF(centre.x() + r, centre.y()),
                QPointF(centre.x(), centre.y() + r),
                QPointF(centre.x() - r, centre.y()),
            ]
            painter.drawPolygon(diamond)
        if view.player is not None:
            centre = self.cell_centre(*view.player)
            r = cell * 0.14
            painter.setPen(QPen(QColor("#000000"), 2))
            painter.setBrush(PLAYER_COLOUR)
            painter.drawEllipse(centre, r, r)

    def _badge(self, painter: QPainter, plate: tuple[int, int], text: str, colour: QColor) -> None:
        """The route number in the plate's top-left corner (as drawn), off its centre."""
        rect = self._plate_rect(*plate, _PLATE)
        size = self.cell_size() * 0.24
        badge = QRectF(rect.left() - size / 3, rect.top() - size / 3, size, size)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawEllipse(badge)
        self._centred_text(painter, badge, text, QColor("#000000"))
        painter.setBrush(Qt.BrushStyle.NoBrush)

    def _centred_text(self, painter: QPainter, rect: QRectF, text: str, colour: QColor) -> None:
        painter.setPen(colour)
        painter.setFont(self._bold)
        painter.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), text)

    def _paint_grid(self, painter: QPainter, view: StepsView) -> None:
        presses = view.presses
        board = view.board
        for row in range(board.rows):
            for col in range(board.cols):
                if not board.present[row, col]:
                    continue
                rect = self._plate_rect(row, col, 0.92)
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(self._cell_fill(view, row, col))
                painter.drawRect(rect)
                count = 0 if presses is None else int(np.asarray(presses)[row, col])
                if count:
                    painter.setBrush(Qt.BrushStyle.NoBrush)
                    painter.setPen(QPen(ROUTE_COLOUR, 2))
                    painter.drawRect(rect.adjusted(1, 1, -1, -1))
                    if self.cell_size() >= 14:
                        fill = self._cell_fill(view, row, col)
                        ink = QColor("#000000") if fill.lightness() > 110 else QColor("#ffffff")
                        self._centred_text(painter, rect, str(count), ink)
                if (row, col) in view.dashed:
                    painter.setBrush(Qt.BrushStyle.NoBrush)
                    painter.setPen(QPen(ROUTE_COLOUR, 2, Qt.PenStyle.DashLine))
                    painter.drawRect(rect.adjusted(1, 1, -1, -1))
                if (row, col) in view.hidden and self.cell_size() >= 14:
                    self._centred_text(painter, rect, "?", QColor("#202024"))
                if view.player == (row, col):
                    r = self.cell_size() * 0.14
                    painter.setPen(QPen(QColor("#000000"), 2))
                    painter.setBrush(PLAYER_COLOUR)
                    painter.drawEllipse(rect.topLeft() + QPointF(r * 1.4, r * 1.4), r, r)

    def _paint_text(self, painter: QPainter) -> None:
        width = _WIDTH - 2 * _PAD
        top = float(_WIDTH)
        view = self._view
        for i, line in enumerate(self.text_lines()):
            # the first step stands out; an undecided answer's sentence is plain text
            first_step = (i == 1 and view is not None and view.toa and bool(view.lines)
                          and not view.dashed)
            font = self._bold if i == 0 or first_step else self._font
            painter.setFont(font)
            if view is not None and view.note and i == len(self.text_lines()) - 1:
                painter.setPen(NOTE_COLOUR)
            else:
                painter.setPen(NEXT_COLOUR if first_step else TEXT_COLOUR)
            flags = int(Qt.TextFlag.TextWordWrap)
            bounds = QFontMetrics(font).boundingRect(0, 0, width, 10_000, flags, line)
            painter.drawText(QRectF(_PAD, top, width, bounds.height()), flags, line)
            top += bounds.height() + 3

    # -- dragging ---------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._drag = event.globalPosition().toPoint() - self.pos()
            self.setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._drag is not None:
            self.move(event.globalPosition().toPoint() - self._drag)
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._drag is not None and event.button() == Qt.MouseButton.LeftButton:
            self.move(event.globalPosition().toPoint() - self._drag)
            self._drag = None
            self.setCursor(Qt.CursorShape.OpenHandCursor)
            self.moved.emit(self.x(), self.y())
            event.accept()
            return
        super().mouseReleaseEvent(event)
