"""Turn a player's problem report into a regression case the test suite replays for good.

    python scripts/report_to_fixture.py REPORT NAME --expect FRAMES=BOARD [--expect ...]

REPORT is the folder or .zip the assistant saved ("Save report…", ``run --record``).
NAME names the case: it is written to ``tests/fixtures/reports/NAME/`` (the report's
frames up to the last frame expected, and ``expected.json``), where
``tests/test_report_fixtures.py`` picks it up by itself.

``--expect 12-30=111/0#0/110`` says what the overlay must show on frames 12 to 30 (one
frame: ``--expect 12=...``): the board as seen on screen (row 1 at the top of the game
window, ``#`` the missing centre). Look at the frames (``frames/*.png``) and pick the
frames where the answer must be on screen; the test then fails until the live loop shows
exactly that board there. ``--why`` adds a sentence on what went wrong.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import cv2  # noqa: E402

from assistant.errors import UserError  # noqa: E402
from assistant.puzzle import Board  # noqa: E402
from assistant.report import open_report  # noqa: E402

FIXTURES = REPO / "tests" / "fixtures" / "reports"


def parse_expect(text: str, frames: int) -> tuple[range, str]:
    """``12-30=BOARD`` -> (frames 12..30, the board's text)."""
    span, sep, board = text.partition("=")
    if not sep:
        raise UserError(f"--expect {text!r} must be FRAMES=BOARD, e.g. 12-30=111/0#0/110.")
    first, _, last = span.partition("-")
    try:
        low, high = int(first), int(last or first)
    except ValueError:
        raise UserError(f"--expect {text!r}: the frames must be a number or two joined by "
                        "'-', e.g. 12-30.") from None
    if not 1 <= low <= high <= frames:
        raise UserError(f"--expect {text!r}: the report has frames 1 to {frames}.")
    try:
        board = Board.parse(board).format()
    except (UserError, ValueError) as error:
        raise UserError(f"--expect {text!r}: {error}") from None
    return range(low, high + 1), board


def make_fixture(report_path: str | Path, name: str, expects: list[str], why: str = "",
                 folder: Path = FIXTURES) -> Path:
    """Write the case and return its folder (written beside, then renamed into place)."""
    if not name or any(c in name for c in "/\\") or name.startswith("."):
        raise UserError(f"The case name {name!r} must be a plain folder name.")
    report = open_report(report_path)
    expected: dict[str, str] = {}
    for text in expects:
        frames, board = parse_expect(text, len(report.frames))
        expected.update({str(frame): board for frame in frames})
    if not expected:
        raise UserError("Give at least one --expect FRAMES=BOARD.")
    last = max(int(frame) for frame in expected)
    dest = folder / name
    if dest.exists():
        raise UserError(f"{dest} already exists: choose another name.")
    folder.mkdir(parents=True, exist_ok=True)
    temp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=folder))
    try:
        (temp / "frames").mkdir()
        kept = report.frames[:last]  # the replay needs every frame before the last expected
        for record in kept:
            for grab in record["grabs"]:
                if "file" in grab:  # packed harder for the repository, the same pixels
                    pixels = report.picture(grab["file"], int(grab.get("channels", 4)))
                    if pixels.shape[2] == 4 and (pixels[..., 3] == 255).all():
                        pixels = pixels[..., :3]
                    _ok, data = cv2.imencode(".png", pixels, [cv2.IMWRITE_PNG_COMPRESSION, 9])
                    (temp / grab["file"]).write_bytes(data.tobytes())
        about = dict(report.about, frames=len(kept))
        (temp / "about.json").write_text(json.dumps(about, indent=2) + "\n")
        (temp / "session.jsonl").write_text("".join(json.dumps(r) + "\n" for r in kept))
        (temp / "expected.json").write_text(json.dumps(
            {"why": why, "boards": expected}, indent=2) + "\n")
        temp.rename(dest)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise
    return dest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", help="the report's folder or .zip")
    parser.add_argument("name", help="the case's name (a folder under tests/fixtures/reports)")
    parser.add_argument("--expect", action="append", default=[], metavar="FRAMES=BOARD",
                        help="the board the overlay must show on these frames, e.g. "
                             "12-30=111/0#0/110 (repeat for more)")
    parser.add_argument("--why", default="", help="what went wrong, in a sentence")
    args = parser.parse_args(argv)
    try:
        dest = make_fixture(args.report, args.name, args.expect, args.why)
    except (UserError, OSError) as error:
        print(f"report_to_fixture: {error}", file=sys.stderr)
        return 2
    print(f"Wrote {dest.relative_to(REPO)}: tests/test_report_fixtures.py replays it.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
