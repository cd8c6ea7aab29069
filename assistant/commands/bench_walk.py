"""``toa-assistant bench-walk``: the reader and the live loop through whole walk-throughs.

Each session (:func:`assistant.walkthrough.walk_through`) starts from a random board; the
player steps on each plate of the answer, stands centred on it, and the camera follows,
turns, zooms and pitches; team-mates stand around. Two things are measured:

* single pictures, split by frames with the player on a plate and off it: right (every
  plate read right), hidden (someone's plates reported hidden, all others right), wrong
  (any plate read wrong), abstain;
* sequences, through :class:`assistant.sequence.PictureSequence` (the live loop itself):
  per frame, right (the marks are exactly the plates to step on, or none when all are
  lit), uncertain (only marks every possibility agrees on, the rest shown as undecided),
  wrong (a mark that should not be there, or a missing one shown as certain), blank
  (nothing shown), and settling (the frame right after a change, which the stabiliser
  holds back by design).

Marks are compared with the truth by screen position, so the verdict does not depend on
which corner the reader calls row 1, column 1. All of this is measured on rooms this
project draws (and on the real screenshot's floor, when ``../shared`` is present): a
statement about that model of the game, not about the game.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from assistant.errors import UserError
from assistant.puzzle import TOA_PLATES, toa_board
from assistant.sequence import PictureSequence
from assistant.solver import solve
from assistant.vision import read_frame
from assistant.walkthrough import DEFAULT_SCREENSHOT, WalkFrame, walk_through

__all__ = ["HELP", "NAME", "judge_picture", "judge_state", "run", "run_sessions"]

NAME = "bench-walk"
HELP = "Measure reading and live marks through generated walk-throughs (player on the plates)."

PICTURE_OUTCOMES = ("right", "hidden", "wrong", "abstain")
SEQUENCE_OUTCOMES = ("right", "uncertain", "wrong", "blank", "settling")


class BenchError(UserError):
    """Benchmark options that cannot be used."""


def _nearest(centres: np.ndarray, point: tuple[float, float], spacing: float) -> int | None:
    d = np.hypot(*(centres - np.asarray(point)).T)
    index = int(np.argmin(d))
    return index if d[index] <= 0.35 * spacing else None


def _spacing(centres: np.ndarray) -> float:
    d = np.hypot(*(centres[:, None] - centres[None]).transpose(2, 0, 1))
    return float(np.min(d[~np.eye(len(centres), dtype=bool)]))


def judge_picture(frame: WalkFrame) -> str:
    """One picture read alone: right / hidden / wrong / abstain."""
    scene = frame.scene
    reading = read_frame(scene.frame)
    if reading.abstain:
        return "abstain"
    centres, spacing = scene.plate_centres, _spacing(scene.plate_centres)
    seen: set[int] = set()
    for tile in reading.tiles:
        index = _nearest(centres, tile.centre, spacing)
        if index is None or index in seen:
            return "wrong"
        seen.add(index)
        if not tile.hidden and bool(tile.lit) != bool(scene.lit[index]):
            return "wrong"
    return "hidden" if reading.hidden else "right"


def truth_steps(frame: WalkFrame) -> set[int]:
    """The plates (room order) the answer steps on."""
    presses = solve(toa_board(frame.room_board)).presses
    return {i for i, (r, c) in enumerate(TOA_PLATES) if presses[r, c]}


def judge_state(state, frame: WalkFrame) -> str:
    """One frame of a sequence: right / uncertain / wrong / blank (before settling)."""
    steps = truth_steps(frame)
    centres, spacing = frame.scene.plate_centres, _spacing(frame.scene.plate_centres)
    if state.kind == "solved":
        return "right" if not steps else "wrong"
    if state.kind not in ("steps", "uncertain"):
        return "blank"
    certain, undecided = set(), set()
    for mark in state.marks:
        index = _nearest(centres, mark.centre, spacing)
        if index is None:
            return "wrong"
        (certain if mark.certain else undecided).add(index)
    if not certain <= steps:
        return "wrong"
    if state.kind == "steps":
        return "right" if certain == steps else "wrong"
    return "uncertain" if steps <= certain | undecided else "wrong"


def run_sessions(sessions: int, seed: int, source: str, **options) -> dict:
    """Walk ``sessions`` sessions; returns the counts and timings."""
    pictures = {where: dict.fromkeys(PICTURE_OUTCOMES, 0) for where in ("on", "off")}
    frames = {where: dict.fromkeys(SEQUENCE_OUTCOMES, 0) for where in ("on", "off")}
    never_seen = 0
    ms: list[float] = []
    wrong: list[dict] = []
    for number in range(sessions):
        walk = walk_through(None, seed * 100_003 + number, source=source, **options)
        sequence = PictureSequence()
        held_before = False
        ever_seen = np.zeros(8, bool)
        for index, frame in enumerate(walk):
            where = "on" if frame.player_plate is not None else "off"
            pictures[where][judge_picture(frame)] += 1
            started = time.perf_counter()
            state = sequence.feed(frame.scene.frame)
            ms.append((time.perf_counter() - started) * 1000)
            observed = sequence.loop.last_observed
            held = observed is not None and observed.key != state.key
            visible = np.ones(8, bool)
            visible[list(frame.hidden)] = False
            ever_seen |= visible
            outcome = judge_state(state, frame)
            # the stabiliser holds a new observation back for one frame by design; a
            # hold longer than that is judged like any frame
            if outcome != "right" and held and not held_before:
                outcome = "settling"
            held_before = held and outcome == "settling"
            if outcome == "uncertain" and not ever_seen.all():
                never_seen += 1
            frames[where][outcome] += 1
            if outcome == "wrong":
                wrong.append({"session": number, "frame": index, "event": frame.event})
    return {"pictures": pictures, "sequences": frames, "never_seen": never_seen,
            "ms_per_frame": statistics.median(ms) if ms else 0.0, "wrong": wrong}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sessions", type=int, default=40,
                        help="walk-throughs per source (default 40)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sessions")
    parser.add_argument("--source", choices=("synthetic", "screenshot", "both"), default="both",
                        help="rooms drawn by the renderer, built from the real screenshot's "
                             "floor (needs ../shared), or both (default)")
    parser.add_argument("--steep", action="store_true",
                        help="only steep cameras: pitch 55-68 degrees from straight down")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")


def run(args: argparse.Namespace) -> int:
    if args.sessions < 1:
        raise BenchError("--sessions must be at least 1.")
    sources = ["synthetic", "screenshot"] if args.source == "both" else [args.source]
    if "screenshot" in sources and not Path(DEFAULT_SCREENSHOT).exists():
        if args.source == "screenshot":
            raise BenchError(f"The real screenshot {DEFAULT_SCREENSHOT} is not there.")
        sources.remove("screenshot")
    options = {"pitch_range": (55.0, 68.0)} if args.steep else {}
    started = time.perf_counter()
    results = {source: run_sessions(args.sessions, args.seed, source, **options)
               for source in sources}
    elapsed = time.perf_counter() - started
    if args.json:
        print(json.dumps({"sessions": args.sessions, "seed": args.seed, "steep": args.steep,
                          "seconds": round(elapsed, 1), "results": results}))
        return 1 if any(r["wrong"] for r in results.values()) else 0
    out = sys.stdout
    for source, result in results.items():
        print(f"{source} rooms, {args.sessions} walk-throughs"
              f"{' (steep cameras)' if args.steep else ''}:", file=out)
        for title, table, outcomes in (
            ("single pictures", result["pictures"], PICTURE_OUTCOMES),
            ("sequences (live loop)", result["sequences"], SEQUENCE_OUTCOMES),
        ):
            print(f"  {title:<22}" + "".join(f"{k:>10}" for k in outcomes), file=out)
            for where, label in (("on", "player on a plate"), ("off", "player off the plates")):
                print(f"  {label:<22}" + "".join(f"{table[where][k]:>10}" for k in outcomes),
                      file=out)
        seq = {k: sum(result["sequences"][w][k] for w in ("on", "off"))
               for k in SEQUENCE_OUTCOMES}
        judged = sum(seq.values()) - seq["settling"] - result["never_seen"]
        share = 100 * seq["right"] / max(judged, 1)
        print(f"  fully right: {share:.1f}% of {judged} settled frames (excepting "
              f"{result['never_seen']} uncertain frames whose hidden plate was never seen); "
              f"wrong: {seq['wrong']}; live loop {result['ms_per_frame']:.2f} ms per frame "
              "(median)", file=out)
    print(f"measured in {elapsed:.1f} s", file=out)
    return 1 if any(r["wrong"] for r in results.values()) else 0
