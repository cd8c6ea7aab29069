"""Take the README's first screenshot: the overlay on the walk-through demo room, with the
player standing on the plate it just stepped on (hidden under it; the assistant fills it
in from the frames before) and the marks on the plates still to step on.

    scripts/with-x-server.sh python scripts/screenshot_overlay_demo.py [OUT_DIR]

Needs a real X server with a compositor (the overlay is translucent): with-x-server.sh
starts Xvfb, openbox and xcompmgr. Starts ``toa-assistant demo --json``, clicks the right
plate through the overlay (xdotool), waits until the marks are the remaining answer, and
saves the room's client area as ``overlay-demo.png`` (default: docs/images).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TITLE = "ToA Light Assistant demo room"
BOARD = "111/0#0/110"  # the real screenshot's board: answer top-left, top, right
FIRST = (1, 2)  # the right plate: reached from the entrance without crossing another


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs" / "images"
    out.mkdir(parents=True, exist_ok=True)
    if not os.environ.get("DISPLAY"):
        raise SystemExit("needs an X display: scripts/with-x-server.sh python " + __file__)
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "assistant", "demo", "--json", "--board", BOARD, "--team", "0",
         "--seed", "7", "--walk-speed", "0.05", "--title", TITLE],
        env=env, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        plates = None
        where = None
        state = None
        clicked = arrived = False
        deadline = time.monotonic() + 60
        assert proc.stdout is not None
        for line in proc.stdout:
            if time.monotonic() > deadline:
                raise SystemExit(f"no screenshot: last state {state}")
            obj = json.loads(line) if line.startswith("{") else {}
            plates = obj.get("plates", plates)
            where = (obj["origin"], obj["size"]) if "origin" in obj else where
            if "kind" in obj:
                state = obj
            if state is None or plates is None:
                continue
            marks = [m for m in state["marks"] if m["certain"]]
            if not clicked and len(marks) == 3 and state["kind"] == "steps":
                target = plates[[(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1),
                                 (2, 2)].index(FIRST)]  # fmt: skip
                xdotool("mousemove", str(round(target[0])), str(round(target[1])), "click", "1")
                clicked = True
            elif clicked and "arrived" in obj:
                arrived = True
            elif arrived and state["kind"] == "steps" and len(marks) == 2 and not (
                state["undecided"]
            ):
                time.sleep(0.6)  # the overlay repaints
                save(out / "overlay-demo.png", *where)
                return 0
    finally:
        proc.terminate()
        proc.wait(5)
    raise SystemExit(f"the demo ended before the screenshot (last state {state})")


def xdotool(*args: str) -> str:
    return subprocess.run(["xdotool", *args], capture_output=True, text=True, check=True).stdout


def save(path: Path, origin: list[int], size: list[int]) -> None:
    """The room's client area from the composited screen (overlay included)."""
    import cv2
    import mss
    import numpy as np

    area = {"left": origin[0], "top": origin[1], "width": size[0], "height": size[1]}
    with mss.MSS() as grabber:
        shot = np.array(grabber.grab(area))[..., :3]
    if not cv2.imwrite(str(path), shot):
        raise SystemExit(f"could not write {path}")
    print(f"wrote {path}")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
