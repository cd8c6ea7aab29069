"""Where the assistant's own windows are on the screen, for the capture thread's mask
(:mod:`assistant.masking`), and the placing of new windows beside the game
(:mod:`assistant.placement`) in Qt's terms.

Qt widgets may only be asked from the GUI thread, so :class:`OwnWindowMask` looks at them
there a few times a second and keeps the answer as one tuple, which the capture thread
reads on every grab.
"""

from __future__ import annotations

import math

from PyQt6.QtCore import QObject, QRect, QTimer
from PyQt6.QtGui import QGuiApplication
from PyQt6.QtWidgets import QApplication, QWidget

from assistant.capture import Rect, WindowInfo, find_window
from assistant.gui.overlay import Overlay, to_logical

__all__ = [
    "OwnWindowMask",
    "logical_rect",
    "own_window_rects",
    "physical_rect",
    "qrect",
    "rect",
]

#: How often (ms) the mask follows the windows: a window dragged over the game is masked
#: within this, and the live loop's stabiliser never shows a one-frame change anyway.
REFRESH_MS = 50


def rect(q: QRect) -> Rect:
    return Rect(q.x(), q.y(), q.width(), q.height())


def qrect(r: Rect) -> QRect:
    return QRect(r.left, r.top, r.width, r.height)


def physical_rect(widget: QWidget) -> Rect:
    """The widget's window with its frame, in physical screen pixels (as mss grabs),
    rounded outwards."""
    frame = widget.frameGeometry()
    screen = widget.screen() or QGuiApplication.primaryScreen()
    ratio = float(screen.devicePixelRatio()) if screen else 1.0
    origin = screen.geometry().topLeft() if screen else None
    ox, oy = (origin.x(), origin.y()) if origin is not None else (0, 0)
    left = math.floor(ox + (frame.x() - ox) * ratio)
    top = math.floor(oy + (frame.y() - oy) * ratio)
    right = math.ceil(ox + (frame.x() + frame.width() - ox) * ratio)
    bottom = math.ceil(oy + (frame.y() + frame.height() - oy) * ratio)
    return Rect(left, top, right - left, bottom - top)


def logical_rect(physical: Rect) -> Rect:
    """A rectangle in physical screen pixels (the window backend's, mss's) in Qt's
    logical pixels, on the screen its top-left corner is on."""
    screen = None
    for candidate in QGuiApplication.screens():
        geometry = candidate.geometry()
        ratio = float(candidate.devicePixelRatio())
        gx, gy = geometry.x(), geometry.y()
        if (gx <= physical.left < gx + geometry.width() * ratio
                and gy <= physical.top < gy + geometry.height() * ratio):
            screen = candidate
            break
    screen = screen or QGuiApplication.primaryScreen()
    ratio = float(screen.devicePixelRatio()) if screen else 1.0
    origin = (screen.geometry().x(), screen.geometry().y()) if screen else (0, 0)
    left, top = to_logical(physical.left, physical.top, origin, ratio)
    right, bottom = to_logical(physical.right, physical.bottom, origin, ratio)
    return Rect(round(left), round(top), round(right - left), round(bottom - top))


def own_window_rects(read_pattern: str | None = None,
                     own_titles: tuple[str, ...] = ()) -> tuple[Rect, ...]:
    """The assistant's visible windows (frames included) in physical screen pixels: all
    but the overlay (click-through; its marks keep out of the sampled area) and the window
    being read, the one whose title matches ``read_pattern`` (the demo room stands in for
    the game) unless its title is one of ``own_titles``. Call from the GUI thread."""
    rects = []
    for widget in QApplication.topLevelWidgets():
        if not widget.isVisible() or widget.isMinimized() or isinstance(widget, Overlay):
            continue
        title = widget.windowTitle()
        if read_pattern and title not in own_titles and find_window(
                read_pattern, [WindowInfo(None, title, Rect(0, 0, 0, 0))]) is not None:
            continue
        shape = physical_rect(widget)
        if not shape.empty:
            rects.append(shape)
    return tuple(rects)


class OwnWindowMask(QObject):
    """Keeps :func:`own_window_rects` current while running; :meth:`rects` may be called
    from any thread (it returns the last tuple made in the GUI thread)."""

    def __init__(self, read_pattern: str | None = None, own_titles: tuple[str, ...] = (),
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.read_pattern = read_pattern
        self.own_titles = own_titles
        self._rects: tuple[Rect, ...] = ()
        self._timer = QTimer(self)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self.refresh)

    def refresh(self) -> tuple[Rect, ...]:
        self._rects = own_window_rects(self.read_pattern, self.own_titles)
        return self._rects

    def rects(self) -> tuple[Rect, ...]:
        return self._rects

    def start(self) -> None:
        self.refresh()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
