"""Render the steps panel offscreen and save the README screenshot.

    python scripts/screenshot_steps_panel.py [OUT_DIR]     # default: docs/images

Writes ``steps-panel.png``: the real screenshot's reading (111/0#0/110) with the player at
the entrance, the route's first click a waypoint, and the sentence the control window
passes when the overlay cannot be drawn. Reads no settings file and writes none.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from PyQt6.QtWidgets import QApplication  # noqa: E402

from assistant.gui.steps_panel import StepsPanel  # noqa: E402
from assistant.puzzle import toa_board  # noqa: E402
from assistant.steps import toa_steps_view  # noqa: E402


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs" / "images"
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(["screenshot_steps_panel"])
    assert isinstance(app, QApplication)
    panel = StepsPanel()
    view = toa_steps_view(
        toa_board("111/0#0/110"),
        None,
        note="The overlay cannot be drawn over an exclusive-fullscreen game, so the steps "
        "are shown here.",
    )
    panel.show_view(view)
    panel.show()
    app.processEvents()
    path = out / "steps-panel.png"
    if not panel.grab().save(str(path)):
        raise SystemExit(f"could not write {path}")
    print(f"wrote {path}")
    panel.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
