"""The one QApplication every window command starts, with the app icon, and where a new
window goes: beside the game window, never over it, and wholly on the screen
(:mod:`assistant.placement` decides; this module measures the windows in Qt's terms)."""

from __future__ import annotations

import sys
from importlib import resources

from PyQt6.QtCore import QPoint, Qt
from PyQt6.QtGui import QGuiApplication, QIcon
from PyQt6.QtWidgets import QApplication, QWidget

from assistant.capture import Rect
from assistant.placement import place_beside, size_beside

__all__ = [
    "app_icon",
    "application",
    "frame_margins",
    "frame_size",
    "place_window",
    "screen_area",
]


def app_icon() -> QIcon:
    return QIcon(str(resources.files("assistant.gui").joinpath("icon.png")))


def application(argv: list[str] | None = None) -> QApplication:
    """The running QApplication, or a new one; either way it carries the app icon, so
    every window (control, demo room, manual, overlay) shows it."""
    app = QApplication.instance() or QApplication(sys.argv[:1] + list(argv or []))
    assert isinstance(app, QApplication)
    app.setApplicationName("toa-assistant")
    app.setWindowIcon(app_icon())
    return app


def screen_area(near: Rect | None = None, widget: QWidget | None = None) -> Rect:
    """The available area (without task bars) of the screen ``near`` (logical pixels)
    has its centre on, else ``widget``'s screen, else the primary screen."""
    screen = None
    if near is not None:
        screen = QGuiApplication.screenAt(
            QPoint(near.left + near.width // 2, near.top + near.height // 2))
    if screen is None and widget is not None:
        screen = widget.screen()
    screen = screen or QGuiApplication.primaryScreen()
    if screen is None:
        return Rect(0, 0, 1920, 1080)
    area = screen.availableGeometry()
    return Rect(area.x(), area.y(), area.width(), area.height())


def frame_margins(reference: QWidget | None) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of the window manager's frame around ``reference`` (a
    shown, decorated window), or a common title bar when it is not shown yet."""
    if reference is not None and reference.isVisible():
        outer, inner = reference.frameGeometry(), reference.geometry()
        return (inner.left() - outer.left(), inner.top() - outer.top(),
                outer.right() - inner.right(), outer.bottom() - inner.bottom())
    return (0, 30, 0, 0)


def frame_size(window: QWidget, reference: QWidget | None = None) -> tuple[int, int]:
    """The size ``window`` takes on screen with its frame: measured once shown, else its
    size (or size hint) plus the frame ``reference`` has, when ``window`` is decorated."""
    if window.isVisible():
        frame = window.frameGeometry()
        return frame.width(), frame.height()
    width, height = _content(window)
    if window.windowFlags() & Qt.WindowType.FramelessWindowHint:
        return width, height
    left, top, right, bottom = frame_margins(reference)
    return width + left + right, height + top + bottom


def _content(window: QWidget) -> tuple[int, int]:
    """The size a window not shown yet will open at (without its frame)."""
    size = window.size() if window.testAttribute(Qt.WidgetAttribute.WA_Resized) else (
        window.sizeHint().expandedTo(window.minimumSize()))
    return size.width(), size.height()


def place_window(
    window: QWidget,
    keep_clear: Rect,
    avoid: list[Rect] | tuple[Rect, ...] = (),
    reference: QWidget | None = None,
) -> Rect:
    """Move ``window`` beside ``keep_clear`` (the game window, logical pixels), wholly on
    the screen ``keep_clear`` is on and off the rectangles in ``avoid`` as far as the
    screen allows (:func:`assistant.placement.place_beside`); returns where it now is,
    frame included. ``reference`` is a shown window whose frame tells the frame's size."""
    window.setWindowIcon(app_icon())
    size = frame_size(window, reference)
    area = screen_area(keep_clear, reference)
    if window.minimumSize() != window.maximumSize():  # resizable: smaller, not over it
        extra_w = size[0] - (window.width() if window.isVisible() else _content(window)[0])
        extra_h = size[1] - (window.height() if window.isVisible() else _content(window)[1])
        least = window.minimumSizeHint().expandedTo(window.minimumSize())
        fitted = size_beside(area, keep_clear, size,
                             (least.width() + extra_w, least.height() + extra_h))
        if fitted != size:
            window.resize(fitted[0] - extra_w, fitted[1] - extra_h)
            size = fitted
    x, y = place_beside(area, keep_clear, size, avoid)
    window.move(x, y)
    return Rect(x, y, *size)
