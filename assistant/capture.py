"""Find the game window and grab its pixels.

Window listing goes through a :class:`WindowBackend` (pywinctl on Windows, X11 and macOS)
that says, in one sentence, why it cannot be used when it cannot (Wayland, no display,
missing permission). Grabbing goes through :class:`Grabber`, which owns one ``mss``
instance and must be created and used on a single thread (mss keeps per-thread display
handles). All rectangles are in physical screen pixels, as mss and the window system
report them; the overlay converts to Qt's logical pixels with the screen's device pixel
ratio.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from typing import Protocol

import numpy as np

__all__ = [
    "Grabber",
    "PyWinCtlBackend",
    "Rect",
    "WindowBackend",
    "WindowInfo",
    "blank_frame_reason",
    "default_backend",
    "display_problem",
    "exclude_from_capture",
    "find_window",
    "make_dpi_aware",
]

#: Windows 10 version 2004: the first build where a window can be left out of captures.
EXCLUDE_FROM_CAPTURE_BUILD = 19041
_WDA_EXCLUDEFROMCAPTURE = 0x11

#: Titles of the game clients, as a case-insensitive regular expression.
DEFAULT_TITLE_PATTERN = "RuneLite|Old School RuneScape"


@dataclass(frozen=True)
class Rect:
    """A rectangle in physical screen pixels."""

    left: int
    top: int
    width: int
    height: int

    @property
    def right(self) -> int:
        return self.left + self.width

    @property
    def bottom(self) -> int:
        return self.top + self.height

    @property
    def empty(self) -> bool:
        return self.width <= 0 or self.height <= 0

    def offset(self, dx: int, dy: int) -> Rect:
        return Rect(self.left + dx, self.top + dy, self.width, self.height)

    def intersect(self, other: Rect) -> Rect:
        left, top = max(self.left, other.left), max(self.top, other.top)
        right, bottom = min(self.right, other.right), min(self.bottom, other.bottom)
        return Rect(left, top, max(0, right - left), max(0, bottom - top))

    def as_mss(self) -> dict[str, int]:
        return {"left": self.left, "top": self.top, "width": self.width, "height": self.height}


@dataclass(frozen=True)
class WindowInfo:
    """One top-level window: its title, client area and state."""

    handle: object
    title: str
    rect: Rect
    minimized: bool = False


class WindowBackend(Protocol):
    """Lists top-level windows. ``unavailable()`` is None when usable, else the reason;
    ``update(window)`` re-reads one window cheaply (None when it is gone)."""

    name: str

    def unavailable(self) -> str | None: ...

    def windows(self) -> list[WindowInfo]: ...

    def update(self, window: WindowInfo) -> WindowInfo | None: ...


def platform_problem() -> str | None:
    """A sentence when this desktop cannot be read at all, else None."""
    if sys.platform.startswith("linux"):
        if os.environ.get("XDG_SESSION_TYPE", "").lower() == "wayland" and not os.environ.get(
            "DISPLAY"
        ):
            return (
                "This is a Wayland session, which does not let other programs read or follow "
                "windows: log in with an X11 session, or use the manual entry window."
            )
        if not os.environ.get("DISPLAY"):
            return "There is no X display (DISPLAY is not set), so no window can be read."
    return None


#: Qt platforms that need no display server.
_HEADLESS_QT = {"offscreen", "minimal", "vnc", "linuxfb", "eglfs", "vkkhrdisplay"}


def display_problem() -> str | None:
    """A sentence when no window can be opened here (Linux without a display), else None.

    Qt would abort with a page about platform plugins; the player gets one sentence.
    """
    if not sys.platform.startswith("linux"):
        return None
    if os.environ.get("QT_QPA_PLATFORM", "").split(":")[0] in _HEADLESS_QT:
        return None
    if os.environ.get("WAYLAND_DISPLAY"):
        return None
    display = os.environ.get("DISPLAY")
    if display:
        if x_display_reachable(display) is False:
            return (
                f"The display {display} (DISPLAY) cannot be reached: start the assistant "
                "from your desktop, or use the command line (toa-assistant solve ...)."
            )
        return None
    return (
        "There is no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is "
        "set): start it from your desktop, or use the command line (toa-assistant solve ...)."
    )


def x_display_reachable(display: str, timeout: float = 1.0) -> bool | None:
    """Whether the X server named by ``display`` (``:99``, ``host:0.0``,
    ``unix:1``) accepts a connection; None when the name has a form not checked here
    (Qt then decides). Qt itself would abort the process (exit 134) on an unreachable one."""
    import socket

    match = re.fullmatch(r"(?P<host>[^:/]*)(?:/unix)?:(?P<num>\d+)(?:\.\d+)?", display)
    if not match:
        return None
    host, number = match.group("host"), int(match.group("num"))
    try:
        if host in ("", "unix"):
            path = f"/tmp/.X11-unix/X{number}"
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(timeout)
                try:
                    sock.connect(path)
                    return True
                except OSError:
                    pass
            # Linux also offers the abstract socket of the same name.
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(timeout)
                sock.connect("\0" + path)
                return True
        with socket.create_connection((host, 6000 + number), timeout=timeout):
            return True
    except OSError:
        return False


#: ``DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2``, a pseudo-handle (Windows 10 1703 on)
_PER_MONITOR_AWARE_V2 = -4
_PROCESS_PER_MONITOR_DPI_AWARE = 2


def make_dpi_aware(*, platform: str | None = None, user32=None, shcore=None) -> str | None:
    """Make this process per-monitor DPI aware on Windows, before any window is measured;
    returns which call did it (``None``: not Windows, or the awareness was already set,
    by Qt or an earlier call, which is as good).

    Why: most players run Windows at 125-150% display scaling. A process that is not
    DPI aware is told *scaled-down* window rectangles (two thirds of a 1920x1080 client
    at 150%), while mss grabs in physical pixels (it makes the process aware, but only
    when a grabber is made, after the window has been measured): the grab would be the
    wrong part of the screen. Qt 6 makes a process aware when its application starts,
    which covers the GUI; ``calibrate`` on the command line measures the window without
    Qt. Awareness is process-wide and set once, so it is set here, before the first
    window listing (:class:`PyWinCtlBackend`), and later calls fail harmlessly."""
    platform = platform or sys.platform
    if platform != "win32":
        return None
    import ctypes

    if user32 is None:
        user32 = ctypes.windll.user32  # type: ignore[attr-defined]
    setter = getattr(user32, "SetProcessDpiAwarenessContext", None)  # Windows 10 1703+
    if setter is not None and setter(ctypes.c_void_p(_PER_MONITOR_AWARE_V2)):
        return "per-monitor v2"
    try:
        if shcore is None:
            shcore = ctypes.windll.shcore  # type: ignore[attr-defined]  # Windows 8.1+
        if shcore.SetProcessDpiAwareness(_PROCESS_PER_MONITOR_DPI_AWARE) == 0:  # S_OK
            return "per-monitor"
    except (AttributeError, OSError):  # no shcore.dll before Windows 8.1
        pass
    if setter is None and user32.SetProcessDPIAware():
        return "system"
    return None


class PyWinCtlBackend:
    """Windows through pywinctl (imported lazily: on X11 it connects at import time)."""

    name = "pywinctl"

    def __init__(self) -> None:
        self._module = None
        self._error: str | None = None

    def unavailable(self) -> str | None:
        problem = platform_problem()
        if problem:
            return problem
        if self._module is None and self._error is None:
            make_dpi_aware()  # window rectangles in physical pixels, as mss grabs them
            try:
                import pywinctl

                self._module = pywinctl
            except Exception as error:  # the X connection or a platform library failed
                self._error = (
                    f"Windows cannot be listed here ({error.__class__.__name__}: {error})."
                )
        return self._error

    def windows(self) -> list[WindowInfo]:
        if self.unavailable():
            return []
        found = []
        for window in self._module.getAllWindows():
            try:
                title = window.title or ""
                rect = _client_rect(window)
                minimized = bool(window.isMinimized)
            except Exception:  # the window closed while we were asking about it
                continue
            if title:
                found.append(WindowInfo(window, title, rect, minimized))
        return found

    def update(self, window: WindowInfo) -> WindowInfo | None:
        """Only where the window is now (one round trip): title and minimised state are
        re-read by the next full listing; a minimised window captures black meanwhile."""
        try:
            return WindowInfo(
                window.handle, window.title, _client_rect(window.handle), window.minimized
            )
        except Exception:  # closed meanwhile
            return None


def _client_rect(window) -> Rect:
    """The window's client area (what mss should grab), in physical pixels.

    On X11 pywinctl's ``box`` already is the client area (the window manager's frame is
    a separate parent window); on Windows and macOS ``getClientFrame()`` is.
    """
    if sys.platform.startswith("linux"):
        box = window.box
        return Rect(int(box.left), int(box.top), int(box.width), int(box.height))
    frame = window.getClientFrame()
    return Rect(
        int(frame.left),
        int(frame.top),
        int(frame.right - frame.left),
        int(frame.bottom - frame.top),
    )


def default_backend() -> WindowBackend:
    return PyWinCtlBackend()


def find_window(
    pattern: str, windows: list[WindowInfo], *, exclude: tuple[str, ...] = ()
) -> WindowInfo | None:
    """The first window whose title matches ``pattern`` (a case-insensitive regular
    expression; an invalid one is matched as plain text), skipping titles in ``exclude``
    (our own windows)."""
    try:
        regex = re.compile(pattern, re.IGNORECASE)
    except re.error:
        regex = re.compile(re.escape(pattern), re.IGNORECASE)
    for window in windows:
        if window.title in exclude:
            continue
        if regex.search(window.title):
            return window
    return None


def blank_frame_reason(frame: np.ndarray) -> str | None:
    """A sentence when a grab is useless (all one colour: black from exclusive fullscreen
    or a minimized window), else None."""
    if frame.size == 0:
        return "The game window has no visible area."
    sample = frame[:: max(1, frame.shape[0] // 64), :: max(1, frame.shape[1] // 64), :3]
    if int(sample.max()) - int(sample.min()) <= 2:
        if int(sample.max()) <= 2:
            return (
                "The game window captures as black: switch the game from exclusive fullscreen "
                "to windowed or borderless, and keep it on screen."
            )
        return "The game window shows one flat colour: is it covered or still loading?"
    return None


class Grabber:
    """Grabs screen rectangles with one mss instance, created on first use.

    Create, use and close it on one thread (the capture worker's).
    """

    def __init__(self) -> None:
        self._mss = None

    def grab(self, rect: Rect) -> np.ndarray:
        """The pixels of ``rect`` as a BGRA uint8 array (height, width, 4)."""
        if self._mss is None:
            import mss

            self._mss = mss.MSS()
        shot = self._mss.grab(rect.as_mss())
        return np.frombuffer(shot.bgra, dtype=np.uint8).reshape(shot.height, shot.width, 4)

    def desktop(self) -> Rect:
        """The whole virtual desktop (all monitors), which grabs must stay inside."""
        if self._mss is None:
            import mss

            self._mss = mss.MSS()
        monitor = self._mss.monitors[0]
        return Rect(monitor["left"], monitor["top"], monitor["width"], monitor["height"])

    def close(self) -> None:
        if self._mss is not None:
            self._mss.close()
            self._mss = None

    def __enter__(self) -> Grabber:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def exclude_from_capture(window_id: int, *, platform: str | None = None,
                         windows_build: int | None = None, user32=None) -> bool:
    """Leave our own top-level window (the overlay) out of screen captures, where the
    system can; True when it now is.

    Why: the assistant grabs the screen with the overlay on it. The marks sit where the
    reader never samples, but for the frame after the camera moves they are stale and
    may cross a plate, which then reads as covered. On Windows 10 2004 and later
    ``SetWindowDisplayAffinity(WDA_EXCLUDEFROMCAPTURE)`` removes the window from every
    capture (BitBlt, which mss uses, included) while it stays on the monitor. Earlier
    builds treat that value as ``WDA_MONITOR`` and would put a black box in the capture,
    so they are left alone. X11 and macOS without extra packages have no such switch; the
    live reader copes with its own marks instead (a plate set aside is checked for a
    whole diamond every frame)."""
    platform = platform or sys.platform
    if platform != "win32":
        return False
    if windows_build is None:
        windows_build = sys.getwindowsversion().build  # type: ignore[attr-defined]
    if windows_build < EXCLUDE_FROM_CAPTURE_BUILD:
        return False
    if user32 is None:
        import ctypes

        user32 = ctypes.windll.user32  # type: ignore[attr-defined]
    return bool(user32.SetWindowDisplayAffinity(window_id, _WDA_EXCLUDEFROMCAPTURE))
