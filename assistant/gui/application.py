"""The one QApplication every window command starts, with the app icon, and where a new
window goes so that it does not cover the one it was opened from."""

from __future__ import annotations

import sys
from importlib import resources

from PyQt6.QtCore import QPoint, QRect
from PyQt6.QtGui import QGuiApplication, QIcon
from PyQt6.QtWidgets import QApplication, QWidget

__all__ = ["app_icon", "application", "place_beside"]


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


def place_beside(window: QWidget, anchor: QWidget, gap: int = 12) -> QPoint:
    """Move ``window`` next to ``anchor`` (right of it, else left, else below) on the
    anchor's screen, never over it; returns the new top-left corner."""
    window.setWindowIcon(app_icon())
    frame = anchor.frameGeometry()
    screen = anchor.screen() or QGuiApplication.primaryScreen()
    area = screen.availableGeometry() if screen is not None else QRect(0, 0, 1920, 1080)
    size = window.frameGeometry().size()
    if size.width() <= 1 or size.height() <= 1:
        size = window.sizeHint()
    width, height = size.width(), size.height()
    top = max(area.top(), min(frame.top(), area.bottom() - height))
    candidates = (
        QPoint(frame.right() + gap, top),
        QPoint(frame.left() - gap - width, top),
        QPoint(max(area.left(), min(frame.left(), area.right() - width)), frame.bottom() + gap),
    )
    for point in candidates:
        if QRect(point, size).intersects(frame):
            continue
        if area.contains(QRect(point, size)):
            window.move(point)
            return point
    window.move(candidates[0])  # no room on screen: still not over the anchor
    return candidates[0]
