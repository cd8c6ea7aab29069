"""The global "save a report" hotkey's text, e.g. ``Ctrl+Shift+F12`` (Qt-free).

Windows registers it for the whole desktop (``RegisterHotKey``, :mod:`assistant.gui.hotkey`),
so it works while the game has the keyboard. Other desktops offer no such call without a
heavy dependency: there the control window's "Save report…" button is the way.
"""

from __future__ import annotations

__all__ = ["DEFAULT_HOTKEY", "MODIFIERS", "HotkeyError", "parse_hotkey"]

from assistant.errors import UserError

DEFAULT_HOTKEY = "Ctrl+Shift+F12"
#: Windows' RegisterHotKey modifier flags by name.
MODIFIERS = {"alt": 0x1, "ctrl": 0x2, "control": 0x2, "shift": 0x4, "win": 0x8}
_NAMED_KEYS = {"space": 0x20, "pause": 0x13, "insert": 0x2D, "delete": 0x2E, "home": 0x24,
               "end": 0x23, "pageup": 0x21, "pagedown": 0x22, "printscreen": 0x2C}


class HotkeyError(UserError):
    """A hotkey text that names no key Windows can register."""


def parse_hotkey(text: str) -> tuple[int, int] | None:
    """``(modifier flags, virtual-key code)`` for a text such as ``Ctrl+Shift+F12``
    (case and spaces do not matter); None for an empty text (no hotkey)."""
    parts = [part.strip().lower() for part in text.split("+")] if text.strip() else []
    if not parts:
        return None
    *modifiers, key = parts
    flags = 0
    for name in modifiers:
        if name not in MODIFIERS:
            raise HotkeyError(f"The hotkey {text!r} has {name!r} where Ctrl, Alt, Shift or "
                              "Win belongs.")
        flags |= MODIFIERS[name]
    if len(key) == 1 and (key.isdigit() or "a" <= key <= "z"):
        code = ord(key.upper())
    elif key.startswith("f") and key[1:].isdigit() and 1 <= int(key[1:]) <= 24:
        code = 0x70 + int(key[1:]) - 1
    elif key in _NAMED_KEYS:
        code = _NAMED_KEYS[key]
    else:
        raise HotkeyError(f"The hotkey {text!r} ends in {key!r}, which is not a key: use a "
                          "letter, a digit, F1-F24, Pause, Insert, Home, End or the like.")
    if not flags and not key.startswith("f"):
        raise HotkeyError(f"The hotkey {text!r} needs Ctrl, Alt, Shift or Win with a letter "
                          "or digit (alone it would be taken from every other program).")
    return flags, code
