"""``toa-assistant bench-lightup``: the Light Up solver's speed on generated puzzles.

No collection of published 100x100 puzzles is available offline, so the puzzles are made
by :func:`assistant.lightup.generate_lightup` (random walls, planted lamps, numbers,
ambiguities repaired, numbers removed while the solution stays unique; seeded, so runs
are repeatable). Each case prints one line: the median and the worst seconds of a full
solve with the uniqueness proof (``limit=2``), the target, whether every puzzle met it,
and whether every answer was the planted solution, proven unique. Nothing is asserted in
the tests: speed depends on the machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from assistant.lightup import LightUpError, generate_lightup, solve_lightup

NAME = "bench-lightup"
HELP = "Measure the Light Up solver on generated 30x30 and 100x100 puzzles."

#: Issue 7's targets: seconds per puzzle, by side.
TARGETS = {30: 0.1, 100: 1.0}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=sorted(TARGETS),
        metavar="N",
        help="square puzzle sides (default: 30 100)",
    )
    parser.add_argument("--puzzles", type=int, default=3, help="puzzles per size (default 3)")
    parser.add_argument("--repeat", type=int, default=3, help="timed solves per puzzle (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="first generator seed (default 0)")
    parser.add_argument(
        "--removal-checks",
        type=_checks,
        default=300,
        metavar="N",
        help="numbers the generator tries to remove per puzzle, or 'all' (default 300)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per line")


def _checks(text: str) -> int | None:
    if text == "all":
        return None
    try:
        value = int(text)
    except ValueError:
        message = f"expected a whole number or 'all', not {text!r}"
        raise argparse.ArgumentTypeError(message) from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, not {value}")
    return value


def run(args: argparse.Namespace) -> int:
    for name, value in (("--puzzles", args.puzzles), ("--repeat", args.repeat)):
        if value < 1:
            raise LightUpError(f"{name} must be at least 1, not {value}.")
    if any(size < 2 for size in args.sizes):
        raise LightUpError("Every size must be at least 2.")
    for size in args.sizes:
        report = bench_size(size, args.puzzles, args.repeat, args.seed, args.removal_checks)
        if args.json:
            print(json.dumps(report), flush=True)
        else:
            print(_line(report), flush=True)
    return 0


def bench_size(size: int, puzzles: int, repeat: int, seed: int, removal_checks: int | None) -> dict:
    """Generate ``puzzles`` puzzles of ``size`` x ``size`` and time their solves."""
    times: list[float] = []
    worst_per_puzzle: list[float] = []
    verified = True
    generated = 0.0
    numbers = walls = nodes = 0
    for n in range(puzzles):
        start = time.perf_counter()
        puzzle, lamps = generate_lightup(size, size, seed=seed + n, removal_checks=removal_checks)
        generated += time.perf_counter() - start
        numbers += len(puzzle.numbers)
        walls += sum(ch != "." for row in puzzle.cells for ch in row)
        runs = []
        for _ in range(repeat):
            start = time.perf_counter()
            result = solve_lightup(puzzle, limit=2)
            runs.append(time.perf_counter() - start)
            verified &= result.unique and result.solutions == [lamps]
        nodes = max(nodes, result.nodes)
        times.extend(runs)
        worst_per_puzzle.append(statistics.median(runs))
        print(f"  {size}x{size} puzzle {n + 1}/{puzzles} done", file=sys.stderr, flush=True)
    target = TARGETS.get(size)
    return {
        "case": f"lightup-{size}x{size}",
        "puzzles": puzzles,
        "repeat": repeat,
        "seconds": round(statistics.median(times), 5),
        "worst_seconds": round(max(worst_per_puzzle), 5),
        "target_seconds": target,
        "met": None if target is None else max(worst_per_puzzle) <= target,
        "verified": verified,
        "walls": walls // puzzles,
        "numbers": numbers // puzzles,
        "max_nodes": nodes,
        "generate_seconds": round(generated / puzzles, 2),
        "removal_checks": removal_checks,
    }


def _line(report: dict) -> str:
    target = report["target_seconds"]
    goal = "no target" if target is None else f"target <= {target} s each: "
    goal += "" if target is None else ("met" if report["met"] else "MISSED")
    return (
        f"{report['case']}: median {report['seconds']:.4f} s, worst puzzle "
        f"{report['worst_seconds']:.4f} s ({goal}); {report['puzzles']} puzzles x "
        f"{report['repeat']} runs, ~{report['walls']} black cells, ~{report['numbers']} "
        f"numbers, <= {report['max_nodes']} search nodes, "
        f"{'unique planted solution verified' if report['verified'] else 'NOT VERIFIED'}; "
        f"generated in {report['generate_seconds']} s each"
    )
