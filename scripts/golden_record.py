"""The golden record: the readings of a fixed corpus, written before the reader is
restructured and compared after, so a change that is meant to keep every reading identical
can be shown to.

The corpus: single pictures of every drawn family and of the real screenshot's own pixels
(turned, pitched, scaled, JPEG), the real room at 1280x720, and whole walk-throughs of both
room sources at both camera ranges, each fed through the live loop with every walking
frame kept and with none, and each frame also read as a single picture. Per reading it
keeps what a player would see: the board, the unread plates (covered / unclear / outside),
abstention, the corners to 0.1 px; per live frame the shown board, candidates, marks.

    python scripts/golden_record.py record [--out FILE]   # write the record
    python scripts/golden_record.py check  [--record FILE] # exit 1 and list differences

Exit status: 0 identical (or written), 1 different, 2 bad input (one sentence).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.sequence import PictureSequence, state_record  # noqa: E402
from assistant.vision import read_frame  # noqa: E402
from lab.commands.bench_vision import SCREENSHOT_PATH, cases, real_room_case  # noqa: E402
from lab.commands.bench_walk import display_scale_of, thinned  # noqa: E402
from lab.walkthrough import walk_through  # noqa: E402

RECORD = ROOT / "tests" / "fixtures" / "golden" / "record.json"

#: single drawn / screenshot pictures, real-room pictures, sessions per source and range
PICTURES, REAL_ROOM, SESSIONS = 48, 40, 2
SEED = 5


def reading_entry(reading) -> dict:
    """What the reader said of one picture, rounded to what a player could tell apart."""
    corners = None if reading.corners is None else \
        np.round(np.asarray(reading.corners, float), 1).tolist()
    return {
        "found": bool(reading.found), "abstain": bool(reading.abstain),
        "board": reading.board_text,
        "hidden": [list(c) for c in reading.hidden],
        "outside": [list(c) for c in reading.outside],
        "unclear": [list(c) for c in getattr(reading, "unclear", ())],
        "method": reading.method, "corners": corners,
    }


def state_entry(state, index: int) -> dict:
    """What the live loop showed after one frame."""
    record = state_record(state, "", index)
    keep = ("kind", "status", "board", "hidden", "unclear", "inferred", "undecided",
            "candidates", "answer", "marks", "abstain", "found")
    entry = {key: record.get(key) for key in keep}
    corners = record.get("corners")
    entry["corners"] = None if corners is None else \
        np.round(np.asarray(corners, float), 1).tolist()
    return entry


def single_pictures() -> dict:
    entries = {}
    for number, case in enumerate(cases(PICTURES, SEED)):
        entries[f"{case.family}/{number}"] = reading_entry(read_frame(case.frame))
    if SCREENSHOT_PATH.exists():
        for number in range(REAL_ROOM):
            case = real_room_case(SCREENSHOT_PATH, SEED * 100_000 + number)
            entries[f"real-room/{number}"] = reading_entry(read_frame(case.frame))
    return entries


def sessions() -> dict:
    entries = {}
    sources = ["synthetic"] + (["screenshot"] if SCREENSHOT_PATH.exists() else [])
    for source in sources:
        for steep in (False, True):
            options = {"pitch_range": (55.0, 68.0)} if steep else {}
            for number in range(SESSIONS):
                walk = list(walk_through(None, SEED * 100_003 + number, source=source,
                                         display_scale=display_scale_of(number),
                                         approach_frame=True, **options))
                name = f"{source}/{'steep' if steep else 'any'}/{number}"
                entries[f"{name}/pictures"] = [reading_entry(read_frame(f.scene.frame))
                                               for f in walk]
                for stride in (1, 0):
                    sequence = PictureSequence()
                    entries[f"{name}/stride{stride}"] = [
                        state_entry(sequence.feed(frame.scene.frame, frame.time), index)
                        for index, frame in thinned(walk, stride)]
    return entries


def make_record() -> dict:
    return {"pictures": single_pictures(), "sessions": sessions()}


def differences(old, new, path: str = "") -> list[str]:
    """Where two records differ, as paths with both values (short)."""
    if isinstance(old, dict) and isinstance(new, dict):
        found = []
        for key in sorted(set(old) | set(new), key=str):
            if key not in old or key not in new:
                found.append(f"{path}/{key}: only in {'new' if key in new else 'old'}")
            else:
                found.extend(differences(old[key], new[key], f"{path}/{key}"))
        return found
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new) \
            and any(isinstance(x, (dict, list)) for x in old):
        found = []
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            found.extend(differences(a, b, f"{path}[{index}]"))
        return found
    return [] if old == new else [f"{path}: {str(old)[:120]} -> {str(new)[:120]}"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=("record", "check"))
    parser.add_argument("--record", "--out", dest="path", type=Path, default=RECORD)
    args = parser.parse_args(argv)
    if args.action == "check" and not args.path.is_file():
        print(f"There is no golden record at {args.path}; write one with 'record'.",
              file=sys.stderr)
        return 2
    record = json.loads(json.dumps(make_record()))  # tuples as lists, as on disk
    if args.action == "record":
        args.path.parent.mkdir(parents=True, exist_ok=True)
        partial = args.path.with_suffix(".tmp")
        partial.write_text(json.dumps(record, indent=0, sort_keys=True) + "\n")
        partial.replace(args.path)
        print(f"golden record written: {args.path}")
        return 0
    found = differences(json.loads(args.path.read_text()), record)
    for line in found[:200]:
        print(line)
    print(f"{len(found)} difference(s) from the golden record" if found
          else "identical to the golden record")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
