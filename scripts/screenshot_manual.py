"""Render the manual-entry window offscreen and save the README screenshots.

    python scripts/screenshot_manual.py [OUT_DIR]     # default: docs/images

Writes ``manual-toa.png`` (the ToA room read as 111/0#0/110, answer shown),
``manual-generic.png`` (a random solvable 5x5 board with 3 states, answer and a hint
shown) and ``manual-lightup.png`` (the Light Up page with a solved puzzle).
Runs on the offscreen platform, reads no settings file and writes none.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from PyQt6.QtCore import QEventLoop, QTimer  # noqa: E402
from PyQt6.QtWidgets import QApplication  # noqa: E402

from assistant.gui.manual import ManualWindow  # noqa: E402
from assistant.puzzle import toa_board  # noqa: E402
from assistant.settings import GridSettings, Settings  # noqa: E402
from assistant.solver import random_solvable_board  # noqa: E402

#: A 7x7 Light Up puzzle with one solution (checked by the solver when the shot is taken).
LIGHTUP_EXAMPLE = """\
.0.00..
.....##
.....1.
....1..
.#.2...
.......
..2..1#
"""


def _wait_for_answer(window: ManualWindow, app: QApplication) -> None:
    """Let the worker thread deliver the answer (the window solves off the GUI thread)."""
    for _ in range(600):
        if window.model.solution_current and not window.solving:
            return
        loop = QEventLoop()
        QTimer.singleShot(50, loop.quit)
        loop.exec()
    raise SystemExit("the engine did not answer within 30 s")


def _shot(window: ManualWindow, app: QApplication, path: Path, size: tuple[int, int]) -> None:
    window.resize(*size)
    window.show()
    _wait_for_answer(window, app)
    app.processEvents()
    window.board_view.setFocus()
    app.processEvents()
    if not window.grab().save(str(path)):
        raise SystemExit(f"could not write {path}")
    print(f"wrote {path}")


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs" / "images"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        os.environ["TOA_ASSISTANT_CONFIG_DIR"] = scratch  # never touch the user's settings
        app = QApplication.instance() or QApplication(["screenshot_manual"])
        assert isinstance(app, QApplication)

        toa = ManualWindow(toa_board("111/0#0/110"), settings=Settings(), remember=False)
        toa.model.cursor = (1, 0)
        _shot(toa, app, out / "manual-toa.png", (760, 470))
        toa.close()

        board = random_solvable_board(5, 5, k=3, seed=7)
        settings = Settings(manual_default=GridSettings(5, 5, 3, 2))
        generic = ManualWindow(settings=settings, remember=False)
        generic.load_board(board)
        _wait_for_answer(generic, app)
        generic.solve_action.trigger()  # S: show the presses
        generic.model.move_cursor(2, 2)
        generic.hint_action.trigger()  # N: one press of the answer near the cursor
        _shot(generic, app, out / "manual-generic.png", (820, 540))
        generic.close()

        lightup = ManualWindow(settings=Settings(), remember=False)
        lightup.tabs.setCurrentIndex(1)
        page = lightup.lightup_page
        page.paste_text(LIGHTUP_EXAMPLE)
        page.solve_action.trigger()
        for _ in range(600):
            if page.model.result_current and not page.solving:
                break
            loop = QEventLoop()
            QTimer.singleShot(50, loop.quit)
            loop.exec()
        if page.model.result is None or not page.model.result.unique:
            raise SystemExit("the Light Up example is not unique: pick another")
        page.model.cursor = (0, 0)
        _shot(lightup, app, out / "manual-lightup.png", (560, 600))
        page.view.setFocus()
        lightup.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
