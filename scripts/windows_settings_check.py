"""Settings saved the way the control window saves them, for the Windows smoke run: the
control window opens (on the Qt platform the wine prefix gives it), the player's new
settings are applied through it (``ControlWindow.apply_settings``, as the settings
dialog does), and the window is closed.

Run by the build's Windows Python under wine with this checkout's ``assistant`` package
(tests/test_windows_smoke.py); the executable itself then starts a second time and must
read these settings from %APPDATA% (the offscreen Qt platform wine 8 needs has no window
a test could click in, so the saving is driven here, with the same code):

    python.exe windows_settings_check.py REPO WINDOW_TITLE MARK_COLOUR

Prints one JSON line: where the settings file is, the Qt platform, and that the window
closed.
"""

from __future__ import annotations

import json
import sys


def main(argv: list[str]) -> int:
    repo, title, colour = argv
    sys.path.insert(0, repo)
    from PyQt6.QtCore import QTimer

    from assistant.gui.app import ControlWindow
    from assistant.gui.application import application
    from assistant.settings import load_settings, settings_path

    app = application([])
    window = ControlWindow()
    window.show()
    closed = {"done": False}

    def apply_and_close() -> None:
        window.apply_settings(window.settings.with_changes(window_title=title,
                                                           mark_color=colour))
        closed["done"] = window.close()
        app.quit()

    QTimer.singleShot(500, apply_and_close)
    app.exec()
    saved, warning = load_settings()
    print(json.dumps({
        "settings_file": str(settings_path()),
        "platform": app.platformName(),
        "closed": closed["done"],
        "window_title": saved.window_title,
        "mark_color": saved.mark_color,
        "warning": warning,
    }), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
