"""The global "save a report" hotkey: Windows' RegisterHotKey seen through a Qt native
event filter, so the key works while the game has the keyboard.

Other desktops have no such call that needs no extra library (X11 would need a key grab
through Xlib, Wayland allows none): there :meth:`GlobalHotkey.register` says so in one
sentence and the control window's "Save report…" button is the way.
"""

from __future__ import annotations

import ctypes
import logging
import sys
from collections.abc import Callable

from PyQt6.QtCore import QAbstractNativeEventFilter, QCoreApplication, QObject, pyqtSignal

from assistant.hotkey import HotkeyError, parse_hotkey

__all__ = ["NOT_ON_THIS_DESKTOP", "GlobalHotkey", "HotkeyFilter"]

log = logging.getLogger(__name__)

WM_HOTKEY = 0x0312
MOD_NOREPEAT = 0x4000
#: The id the hotkey is registered under (any number 0x0000-0xBFFF of this program's own).
HOTKEY_ID = 0x7A01
NOT_ON_THIS_DESKTOP = (
    "A global hotkey is only available on Windows; use the Save report… button here."
)


class _MSG(ctypes.Structure):
    """The head of Windows' MSG (what a WM_HOTKEY needs), laid out as on 64- and 32-bit."""

    _fields_ = [("hwnd", ctypes.c_void_p), ("message", ctypes.c_uint),
                ("wParam", ctypes.c_size_t), ("lParam", ctypes.c_ssize_t)]


class HotkeyFilter(QAbstractNativeEventFilter):
    """Calls ``pressed`` for each WM_HOTKEY with ``hotkey_id`` and swallows it."""

    def __init__(self, hotkey_id: int, pressed: Callable[[], None]) -> None:
        super().__init__()
        self.hotkey_id = hotkey_id
        self.pressed = pressed

    def nativeEventFilter(self, eventType, message):
        kind = eventType.encode() if isinstance(eventType, str) else bytes(eventType)
        if kind not in (b"windows_generic_MSG", b"windows_dispatcher_MSG") or not message:
            return False, 0
        msg = _MSG.from_address(int(message))
        if msg.message == WM_HOTKEY and msg.wParam == self.hotkey_id:
            self.pressed()
            return True, 0
        return False, 0


class GlobalHotkey(QObject):
    """The hotkey ``text`` (``Ctrl+Shift+F12``), registered by :meth:`register`;
    ``pressed`` fires in the GUI thread."""

    pressed = pyqtSignal()

    def __init__(self, text: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.text = text
        self._filter = HotkeyFilter(HOTKEY_ID, self.pressed.emit)
        self._registered = False

    def register(self, *, platform: str | None = None, user32=None) -> str | None:
        """Register the hotkey; None when it works, else the sentence why not."""
        try:
            key = parse_hotkey(self.text)
        except HotkeyError as error:
            return str(error)
        if key is None:
            return None  # switched off in the settings
        if (platform or sys.platform) != "win32":
            return NOT_ON_THIS_DESKTOP
        if user32 is None:
            user32 = ctypes.windll.user32  # type: ignore[attr-defined]
        flags, code = key
        if not user32.RegisterHotKey(None, HOTKEY_ID, flags | MOD_NOREPEAT, code):
            return (f"The hotkey {self.text} is taken by another program; choose another in "
                    "the settings ([report] hotkey).")
        QCoreApplication.instance().installNativeEventFilter(self._filter)
        self._registered = True
        self._user32 = user32
        return None

    def unregister(self) -> None:
        if self._registered:
            QCoreApplication.instance().removeNativeEventFilter(self._filter)
            self._user32.UnregisterHotKey(None, HOTKEY_ID)
            self._registered = False
