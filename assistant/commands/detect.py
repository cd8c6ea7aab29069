"""``toa-assistant detect``: read the puzzle from picture files.

Each image is read like a captured frame: with ``--profile`` the profile's corners (or,
for the ToA ring without corners, auto-locate) and looks; without it, the ToA ring is
located automatically. Exit status: 0 every picture answered, 1 a picture without an
answer (the reader abstained, or no solution), 2 a picture that cannot be read at all
(one sentence, after the others are reported).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from assistant.errors import UserError
from assistant.profile import load_profile
from assistant.puzzle import format_grid
from assistant.sequence import OutOfOrderError, PictureSequence, SequenceError, state_record
from assistant.session.moves import common_presses
from assistant.solver import solve
from assistant.vision import Reading, read_frame

__all__ = ["HELP", "NAME", "ImageError", "add_arguments", "load_image", "reading_record", "run"]

NAME = "detect"
HELP = "Read the light puzzle from PNG, JPEG or BMP pictures and print the board and answer."

_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp"}


class ImageError(UserError):
    """A picture file that cannot be read."""


def load_image(path: str | Path) -> np.ndarray:
    """The picture as BGR or BGRA uint8, as a capture would give it."""
    source = Path(path)
    if source.is_dir():
        raise ImageError(f"The picture {source} is a folder, not a picture file.")
    if not source.is_file():
        raise ImageError(f"The picture {source} does not exist.")
    if source.suffix.lower() not in _SUFFIXES:
        raise ImageError(f"The picture {source} is not a PNG, JPEG or BMP file.")
    data = np.fromfile(source, dtype=np.uint8)  # also paths OpenCV cannot open by name
    image = cv2.imdecode(data, cv2.IMREAD_UNCHANGED) if data.size else None
    if image is None:
        raise ImageError(f"The picture {source} could not be decoded as an image.")
    if image.dtype != np.uint8:
        image = cv2.convertScaleAbs(image, alpha=255.0 / max(1.0, float(image.max())))
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 2:
        image = cv2.cvtColor(image[..., 0], cv2.COLOR_GRAY2BGR)
    return image


def reading_record(reading: Reading, image: str) -> dict:
    """The JSON record of one picture: the reading plus the engine's answer (for the
    profile's objective, which the board carries; all lit without a profile)."""
    record = {"image": image, **reading.to_json()}
    if reading.board is None:
        record["solution"] = None
    else:
        record["solution"] = solve(reading.board).to_json()
    if reading.hidden:
        record["options"] = _options(reading)
    return record


def _options(reading: Reading) -> str:
    """What each state of the hidden plates would ask for: one picture never guesses it."""
    certain, _undecided, solutions = common_presses(reading.completions())
    parts = []
    for board, solution in zip(reading.completions(), solutions, strict=True):
        states = ", ".join(
            ("lit" if board.states[cell] else "unlit") if board.k == 2
            else f"state {int(board.states[cell])}" for cell in reading.hidden
        )
        answer = format_grid(solution.presses, board.present) if solution.solvable else None
        parts.append(f"if {states}: {'step on ' + answer if answer else 'no solution'}")
    sure = format_grid(certain, reading.completions()[0].present)
    return f"Sure in any case: {sure}. " + "; ".join(parts) + "."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE",
                        help="PNG, JPEG or BMP files; with --sequence also one report "
                             "(a folder or .zip saved by the assistant's Save report)")
    parser.add_argument("--profile", metavar="FILE",
                        help="calibration profile (default: find the ToA plates)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object per picture, one per line")
    parser.add_argument("--sequence", action="store_true",
                        help="read the pictures as successive frames of one live session: "
                             "the live loop itself tracks the plates, fills hidden plates "
                             "from the frames before and stabilises what it shows")
    timing = parser.add_mutually_exclusive_group()
    timing.add_argument("--interval", type=float, default=None, metavar="SECONDS",
                        help="with --sequence: the pictures were taken SECONDS apart (0.1 "
                             "for the live loop's 10 fps); the longer, the more steps the "
                             "session may have taken unseen in between. Without it (or "
                             "--times) the time between pictures is not known, and any "
                             "number of steps may lie between two of them")
    parser.add_argument("--trace", action="store_true",
                        help="also say which stage of the reader decided what (with --json: "
                             "a \"trace\" list in each record)")
    parser.add_argument("--diff", action="store_true",
                        help="with --sequence REPORT: list only the frames whose replayed "
                             "marks differ from the recorded ones (exit 1 when some do)")
    timing.add_argument("--times", choices=("mtime",), default=None,
                        help="with --sequence: when each picture was taken: mtime = its "
                             "file's modification time (as a screenshot tool saves it)")


def run(args: argparse.Namespace) -> int:
    """Exit 0 when every picture has an answer, 1 when one has none (the reader abstained
    or the board has no solution), 2 when one cannot be read; every readable picture is
    reported either way, and the unreadable ones in one sentence at the end."""
    if args.sequence and len(args.images) == 1 and _is_report(args.images[0]):
        return _run_report(args)
    profile = load_profile(args.profile) if args.profile else None
    if args.diff:
        raise SequenceError("--diff compares a report's replay with its recording: give "
                            "--sequence and one report folder or .zip.")
    if args.sequence:
        return _run_sequence(args, profile)
    unreadable: list[ImageError] = []
    answered = True
    for name in args.images:
        try:
            image = load_image(name)
        except ImageError as error:
            unreadable.append(error)
            continue
        reading = read_frame(image, profile)
        record = reading_record(reading, name)
        answered = answered and bool((record["solution"] or {}).get("solvable"))
        if args.trace:
            record["trace"] = [str(step) for step in reading.trace]
        if args.json:
            print(json.dumps(record), flush=True)
            continue
        print(_describe(record), flush=True)
        for step in record.get("trace", ()):
            print(f"  {step}", flush=True)
    if unreadable:
        more = len(unreadable) - 1
        tail = f" ({more} more picture{'s' if more > 1 else ''} could not be read either)"
        raise ImageError(str(unreadable[0]).rstrip(".") + (tail if more else "") + ".")
    return 0 if answered else 1


def _run_sequence(args: argparse.Namespace, profile) -> int:
    """Frames in order through the live loop; one record per frame. Exit 0 when the last
    frame shows an answer (or all lit), 1 when it does not, 2 at the first picture that
    cannot be a frame (every frame before it is printed)."""
    if args.interval is not None and not 0 < args.interval <= 3600:
        raise SequenceError(
            f"--interval must be a positive number of seconds, not {args.interval:g}."
        )
    if len(args.images) < 2:
        raise SequenceError(
            "A sequence needs at least two pictures (successive frames of one session); "
            "for one picture leave out --sequence."
        )
    sequence = PictureSequence(profile, interval=args.interval)
    state = None
    for number, name in enumerate(args.images, start=1):
        try:
            image = load_image(name)
        except ImageError as error:
            raise ImageError(f"Frame {number}: {error!s}") from None
        taken = Path(name).stat().st_mtime if args.times == "mtime" else None
        try:
            state = sequence.feed(image, taken)
        except OutOfOrderError:
            raise SequenceError(
                f"Frame {number} ({name}) was modified before the frame before it: give "
                "the pictures in the order they were taken, or leave out --times."
            ) from None
        record = state_record(state, name, number, sequence.held)
        observed = sequence.loop.last_observed
        if args.trace:
            read = observed.reading if observed is not None else None
            record["trace"] = [] if read is None else [str(step) for step in read.trace]
        if args.json:
            print(json.dumps(record), flush=True)
        else:
            print(_describe_frame(record), flush=True)
            for step in record.get("trace", ()):
                print(f"  {step}", flush=True)
    return 0 if state is not None and state.kind in ("steps", "solved") else 1


def _is_report(name: str) -> bool:
    path = Path(name)
    return path.is_dir() or path.suffix.lower() == ".zip"


def _run_report(args: argparse.Namespace) -> int:
    """Replay a report through the live loop; per frame the recorded and the replayed
    marks (``--diff``: only frames where they differ). Exit 0 when no frame differs, 1
    when some do, 2 when the report is not whole (one sentence)."""
    from assistant.report import open_report, replay_report

    if args.profile or args.interval is not None or args.times or args.trace:
        raise SequenceError("A report replays with its own profile and times: leave out "
                            "--profile, --interval, --times and --trace.")
    report = open_report(args.images[0])
    differing = 0
    frames = 0
    for frame in replay_report(report):
        frames += 1
        differing += not frame.same
        if args.diff and frame.same:
            continue
        if args.json:
            print(json.dumps({"frame": frame.frame, "time": frame.time,
                              "same": frame.same, "recorded": frame.recorded,
                              "replayed": frame.replayed, "recorded_kind": frame.recorded_kind,
                              "replayed_kind": frame.replayed_kind}), flush=True)
        else:
            print(_describe_replay(frame), flush=True)
    if not args.json:
        start = "" if report.about.get("from_start", True) else (
            " (the report starts in the middle of a session: its first frames may differ "
            "until the replay has seen as much)")
        print(f"{differing} of {frames} frames differ{start}.", flush=True)
    return 1 if differing else 0


def _marks_words(marks: list[dict]) -> str:
    if not marks:
        return "no marks"
    return ", ".join(f"r{m['row']}c{m['col']}{'' if m['certain'] else '?'}"
                     f"{'x' + str(m['count']) if m['count'] > 1 else ''}"
                     f"@({m['x']:g},{m['y']:g})" for m in marks)


def _describe_replay(frame) -> str:
    head = f"frame {frame.frame}"
    if frame.time is not None:
        head += f" (t={frame.time:.3f})"
    recorded = f"recorded {frame.recorded_kind}: {_marks_words(frame.recorded)}"
    if frame.same:
        return f"{head}: {recorded}; replayed the same"
    return (f"{head}: {recorded}; replayed {frame.replayed_kind}: "
            f"{_marks_words(frame.replayed)}  DIFFERS")


def _describe_frame(record: dict) -> str:
    head = f"frame {record['frame']} {record['image']}: "
    if record["kind"] in ("steps", "solved"):
        inferred = ""
        if record["inferred"]:
            cells = " and ".join(f"row {r}, column {c}" for r, c in record["inferred"])
            inferred = f" ({cells} not read here, told by the frames before)"
        answer = "all lit" if record["kind"] == "solved" else f"step on {record['answer']}"
        return f"{head}board {record['board']}{inferred}; {answer}"
    return head + record["status"]


def _describe(record: dict) -> str:
    if record["abstain"]:
        return f"{record['image']}: no answer: {record['reason']}"
    if record.get("hidden") or record.get("unclear"):
        return f"{record['image']}: board {record['board']}; {record['note']} " + record["options"]
    solution = record["solution"] or {}
    answer = solution.get("presses") if solution.get("solvable") else None
    confidence = f"confidence {record['confidence']:.2f}"
    if record.get("method") == "absolute":
        confidence += ", all plates look alike: decided on absolute colour"
    steps = f"step on {answer}" if answer else "no solution"
    return f"{record['image']}: board {record['board']} ({confidence}); {steps}"
