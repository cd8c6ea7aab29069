"""Run by tests/test_windows_x11.py on a real X server (Xvfb + openbox): opens the
assistant's windows as a player does and prints, as one JSON object, where the window
manager put them (Qt's frame geometry, logical = physical pixels here) and what the
reader's grabs hold.

    python tests/x11_windows_probe.py placement   # control window, demo, panel, manual, calibrate
    python tests/x11_windows_probe.py mask        # a panel over the game: the grabs
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace

import numpy as np
from PyQt6.QtCore import QTimer
from PyQt6.QtTest import QTest
from PyQt6.QtWidgets import QApplication

from assistant.gui.application import application


def settle(ms: int = 600) -> None:
    QTest.qWait(ms)


def frame(widget) -> list[int]:
    g = widget.frameGeometry()
    return [g.x(), g.y(), g.width(), g.height()]


def placement() -> dict:
    from assistant.gui.app import ControlWindow
    from assistant.settings import Settings

    app = application()
    screen = app.primaryScreen().availableGeometry()
    window = ControlWindow(replace(Settings(), show_steps_panel=False))
    window.show()
    settle()
    out = {"screen": [screen.x(), screen.y(), screen.width(), screen.height()],
           "control_before": frame(window)}
    window.open_demo()
    for _ in range(100):  # until the demo room is read (the panel then goes beside it)
        settle(200)
        if window.last_state is not None and window.last_state.kind == "steps":
            break
    window.panel_toggle.setChecked(True)
    settle()
    window.open_manual()
    settle()
    out.update(control=frame(window), demo=frame(window.demo), panel=frame(window.steps_panel),
               manual=frame(window.manual),
               state=None if window.last_state is None else window.last_state.kind)

    def look_at_calibration() -> None:
        """Polled: the calibration window once it is up (or the sentence of a message
        box instead), then closed so that its modal loop returns."""
        modal = QApplication.activeModalWidget()
        dialogs = [w for w in QApplication.topLevelWidgets()
                   if w.isVisible() and w.windowTitle().startswith("Calibrate")]
        if dialogs:
            out["calibrate"] = frame(dialogs[0])
            dialogs[0].reject()
        elif modal is not None:
            out["calibrate_message"] = getattr(modal, "text", lambda: "?")()
            modal.close()
        else:
            return
        poll.stop()

    poll = QTimer()
    poll.setInterval(200)
    poll.timeout.connect(look_at_calibration)
    poll.start()
    window.open_calibration()  # modal: returns when the probe closes it
    poll.stop()
    window.close()
    settle(300)
    return out


def mask() -> dict:
    from assistant.capture import Grabber, Rect
    from assistant.gui.app import ControlWindow
    from assistant.gui.demo import DemoRoom, demo_params
    from assistant.gui.own_windows import OwnWindowMask, physical_rect
    from assistant.gui.steps_panel import StepsPanel
    from assistant.masking import MASK_BGRA, MaskingGrabber
    from assistant.settings import Settings
    from assistant.steps import unknown_view

    app = application()  # (kept: a QApplication without a reference is destroyed)
    title = "Stand-in game"
    room = DemoRoom(demo_params("111/0#0/110"), title=title, classic=True)
    room.move(100, 100)
    room.show()
    panel = StepsPanel()
    panel.show_view(unknown_view("Looking for the game window…"))
    panel.show()
    settle()
    origin = room.mapToGlobal(room.rect().topLeft())
    client = Rect(origin.x(), origin.y(), room.width(), room.height())
    panel.move(client.left + 300, client.top + 150)  # dragged over the game
    settle()
    pattern = f"^{title}$"
    own = OwnWindowMask(pattern)
    rects = own.refresh()
    with Grabber() as raw:
        plain = raw.grab(client)[..., :3].copy()
        masked = MaskingGrabber(raw, own.rects).grab(client)[..., :3].copy()
    under = physical_rect(panel).intersect(client)
    top, left = under.top - client.top, under.left - client.left
    inside = (slice(top, top + under.height), slice(left, left + under.width))
    outside = np.ones(plain.shape[:2], bool)
    outside[inside] = False
    # the calibration window's frozen frame, taken by the control window
    control = ControlWindow(replace(Settings(), show_steps_panel=False))
    control.target.setCurrentText(title)
    control.show()
    settle()
    frozen, problem = control.capture_target()
    control.close()
    grey = np.array(MASK_BGRA[:3])
    frozen_under = None if frozen is None else frozen[..., :3][inside]
    return {
        "rects": [[r.left, r.top, r.width, r.height] for r in rects],
        "panel": [under.left, under.top, under.width, under.height],
        "room_masked": bool(any(r.intersect(physical_rect(room)) == physical_rect(room)
                                for r in rects)),
        "plain_shows_panel": float(np.mean(np.all(plain[inside] == [0x24, 0x20, 0x20],
                                                  axis=-1))),
        "masked_is_grey": float(np.mean(np.all(masked[inside] == grey, axis=-1))),
        "rest_untouched": bool(np.array_equal(masked[outside], plain[outside])),
        "frozen_problem": problem,
        "frozen_is_grey": None if frozen_under is None
        else float(np.mean(np.all(frozen_under == grey, axis=-1))),
        "screens": len(app.screens()),
    }


if __name__ == "__main__":
    result = {"placement": placement, "mask": mask}[sys.argv[1]]()
    print(json.dumps(result), flush=True)
