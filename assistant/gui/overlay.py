"""The overlay: a frameless, always-on-top, click-through, translucent window over the
game that paints the marks of the current :class:`assistant.live.LiveState`.

Marks arrive in physical screen pixels (what mss and the window system use); Qt places
and paints in logical pixels, so every point goes through :func:`to_logical` with the
device pixel ratio of the screen the game is on. Marks are annuli outside the area the
reader samples, so the overlay never changes the next reading; where the system allows it
(Windows 10 2004 and later) the window is also left out of screen captures altogether,
since a stale mark, the frame after the camera moves, may cross a plate.

On the ToA room the overlay also shows how to walk (ADR 60): the next plate's mark is
drawn strongest, a thin line runs on the floor from the player to it, and a small
diamond marks each floor tile to click on the way. The route's geometry comes cut out of
the sampled discs (:mod:`assistant.route_overlay`), like the marks.
"""

from __future__ import annotations

import sys

from PyQt6.QtCore import QPointF, QRect, QRectF, Qt
from PyQt6.QtGui import QColor, QFont, QGuiApplication, QPainter, QPainterPath, QPen, QPolygonF
from PyQt6.QtWidgets import QWidget

from assistant.capture import Rect, exclude_from_capture
from assistant.live import LiveState
from assistant.route_overlay import RouteMarks
from assistant.session.marks import Mark

__all__ = ["OVERLAY_TITLE", "Overlay", "parse_colour", "to_logical"]

OVERLAY_TITLE = "ToA Light Assistant overlay"


def to_logical(x: float, y: float, origin: tuple[int, int], ratio: float) -> tuple[float, float]:
    """Physical screen pixels to Qt logical pixels on a screen whose top-left corner is
    ``origin`` (the same in both spaces) and whose device pixel ratio is ``ratio``."""
    ox, oy = origin
    return ox + (x - ox) / ratio, oy + (y - oy) / ratio


def parse_colour(text: str) -> QColor:
    """``#RRGGBB`` or ``#RRGGBBAA`` (alpha last, as in the settings file) to a QColor."""
    value = text.strip().lstrip("#")
    if len(value) not in (6, 8) or any(ch not in "0123456789abcdefABCDEF" for ch in value):
        raise ValueError(f"{text!r} is not a colour like #00E5FF or #00E5FFB4")
    red, green, blue = (int(value[i : i + 2], 16) for i in (0, 2, 4))
    alpha = int(value[6:8], 16) if len(value) == 8 else 180
    return QColor(red, green, blue, alpha)


class Overlay(QWidget):
    """Covers the captured area of the game window; shows nothing when there is nothing
    to step on."""

    def __init__(self, colour: QColor | None = None) -> None:
        flags = (
            Qt.WindowType.FramelessWindowHint
            | Qt.WindowType.WindowStaysOnTopHint
            | Qt.WindowType.Tool
            | Qt.WindowType.WindowTransparentForInput
            | Qt.WindowType.WindowDoesNotAcceptFocus
        )
        if sys.platform.startswith("linux"):
            # X11 window managers apply their own placement to new windows (openbox
            # ignored the requested position): an override-redirect window goes exactly
            # where it is put, undecorated and never focused.
            flags |= Qt.WindowType.BypassWindowManagerHint
        super().__init__(None, flags)  # flags before show(): they cannot change afterwards
        self.setAttribute(Qt.WidgetAttribute.WA_TranslucentBackground)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setWindowTitle(OVERLAY_TITLE)
        self.colour = colour or parse_colour("#00E5FFB4")
        self._marks: tuple[Mark, ...] = ()
        self._route: RouteMarks | None = None
        self._area: Rect | None = None
        self._origin = (0, 0)
        self._ratio = 1.0
        #: the overlay is left out of screen captures (Windows 10 2004 and later), so the
        #: reader never sees its own marks; None until the window is first shown
        self.excluded_from_capture: bool | None = None

    @property
    def marks(self) -> tuple[Mark, ...]:
        return self._marks

    @property
    def route(self) -> RouteMarks | None:
        return self._route

    def set_colour(self, colour: QColor) -> None:
        self.colour = colour
        self.update()

    def show_state(self, state: LiveState) -> None:
        """Show the marks of ``state`` over its captured area, or hide when there are none."""
        if not state.marks or state.window is None:
            self._marks = ()
            self._route = None
            self.hide()
            return
        self._marks = state.marks
        self._route = state.route_marks
        self._area = state.window
        screen = (
            QGuiApplication.screenAt(QRect(state.window.left, state.window.top, 1, 1).center())
            or QGuiApplication.primaryScreen()
        )
        self._ratio = float(screen.devicePixelRatio()) if screen else 1.0
        geometry = screen.geometry() if screen else QRect()
        self._origin = (geometry.left(), geometry.top())
        left, top = to_logical(state.window.left, state.window.top, self._origin, self._ratio)
        right, bottom = to_logical(
            state.window.right, state.window.bottom, self._origin, self._ratio
        )
        self.setGeometry(QRect(round(left), round(top), round(right - left), round(bottom - top)))
        if not self.isVisible():
            self.show()
        self.raise_()  # clicking the game raises its window: stay above it
        self.update()

    def showEvent(self, event) -> None:
        if self.excluded_from_capture is None:  # the native window exists from here on
            try:
                self.excluded_from_capture = exclude_from_capture(int(self.winId()))
            except OSError:
                self.excluded_from_capture = False
        super().showEvent(event)

    def _local(self, x: float, y: float) -> QPointF:
        lx, ly = to_logical(x, y, self._origin, self._ratio)
        return QPointF(lx - self.x(), ly - self.y())

    def _polygon(self, points) -> QPolygonF:
        return QPolygonF([self._local(float(x), float(y)) for x, y in points])

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
        painter.fillRect(self.rect(), QColor(0, 0, 0, 0))
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
        outline = QColor(self.colour)
        outline.setAlpha(255)
        route = self._route
        next_plate = route.next_plate if route is not None else None
        if route is not None:
            self._draw_route(painter, route, outline)
        for mark in self._marks:
            path = QPainterPath()
            path.setFillRule(Qt.FillRule.OddEvenFill)
            path.addPolygon(self._polygon(mark.outer))
            path.closeSubpath()
            path.addPolygon(self._polygon(mark.inner))
            path.closeSubpath()
            if not mark.certain:
                # a hidden plate decides this one: dashed outline only, never a filled mark
                pen = QPen(outline, 2.0, Qt.PenStyle.DashLine)
                painter.setPen(pen)
                painter.drawPolygon(self._polygon(mark.outer))
                continue
            if (mark.row, mark.col) == next_plate:
                # the plate to step on now: nearly opaque, thick outline
                strong = QColor(self.colour)
                strong.setAlpha(max(230, self.colour.alpha()))
                painter.fillPath(path, strong)
                painter.setPen(QPen(outline, 3.5))
            else:
                painter.fillPath(path, self.colour)
                painter.setPen(QPen(outline, 2.0))
            painter.drawPath(path)
            if mark.count > 1:
                self._draw_count(painter, mark, outline)
        painter.end()

    def _draw_route(self, painter: QPainter, route: RouteMarks, colour: QColor) -> None:
        """The thin line to the next plate and a diamond on each waypoint, under the
        marks; both already keep out of the sampled discs."""
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(colour, 2.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
        for line in route.path:
            painter.drawPolyline(self._polygon(line))
        painter.setPen(QPen(colour, 2.5))
        for diamond in route.waypoint_marks:
            painter.drawPolygon(self._polygon(diamond))

    def _draw_count(self, painter: QPainter, mark: Mark, colour: QColor) -> None:
        """The press count, written on the ring above the plate (never over its centre)."""
        top = min(mark.outer, key=lambda point: point[1])
        inner_top = min(mark.inner, key=lambda point: point[1])
        centre = self._local((top[0] + inner_top[0]) / 2, (top[1] + inner_top[1]) / 2)
        size = max(8.0, abs(self._local(*top).y() - self._local(*inner_top).y()) * 1.4)
        font = QFont()
        font.setPixelSize(int(size))
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QPen(QColor(0, 0, 0, 255)))
        box = QRectF(centre.x() - size, centre.y() - size / 2, 2 * size, size)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, str(mark.count))
