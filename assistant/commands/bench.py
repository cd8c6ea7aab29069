"""``toa-assistant bench``: the engine's speed and memory figures, with a baseline run
side by side (dense elimination of the whole system), never asserted in tests.

Each case prints ``case``, ``seconds`` (median of the runs), ``verified`` (the presses
applied back reach the objective), the target, and for baseline pairs the baseline's
seconds and the ``speedup``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from assistant.puzzle import Board
from assistant.solver import solve
from assistant.solver.dense import solve_dense_gf2

NAME = "bench"
HELP = "Measure the engine's speed and memory against its targets and a dense baseline."


@dataclass(frozen=True)
class Case:
    name: str
    rows: int
    cols: int
    k: int
    holes: float = 0.0
    target_seconds: float | None = None
    baseline: bool = False
    target_speedup: float | None = None


FULL_CASES = (
    Case("k2-full-10000x10000", 10_000, 10_000, 2, target_seconds=1.0),
    Case("k2-holes1%-1000x1000", 1_000, 1_000, 2, 0.01, target_seconds=0.5),
    Case("k3-full-1000x1000", 1_000, 1_000, 3, target_seconds=1.0),
    Case("k4-full-500x500", 500, 500, 4, target_seconds=1.0),
    Case("k6-full-500x500", 500, 500, 6, target_seconds=0.5),
    Case("k2-full-40x40-vs-dense", 40, 40, 2, baseline=True),
    Case("k2-full-60x60-vs-dense", 60, 60, 2, baseline=True, target_speedup=1000.0),
)

QUICK_CASES = (
    Case("k2-full-1000x1000", 1_000, 1_000, 2),
    Case("k2-holes1%-200x200", 200, 200, 2, 0.01),
    Case("k3-full-200x200", 200, 200, 3),
    Case("k4-full-100x100", 100, 100, 4),
    Case("k6-full-100x100", 100, 100, 6),
    Case("k2-full-20x20-vs-dense", 20, 20, 2, baseline=True),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument(
        "--quick", action="store_true", help="small sizes only (a smoke run, not the targets)"
    )
    parser.add_argument("--repeat", type=int, default=5, metavar="N", help="runs per case (median)")
    parser.add_argument(
        "--no-memory", action="store_true", help="skip the peak-memory run of the largest case"
    )
    parser.add_argument("--memory-probe", metavar="CASE", help=argparse.SUPPRESS)


def make_board(case: Case, seed: int = 0) -> Board:
    """A random solvable board: random presses applied backwards to the solved board."""
    rng = np.random.default_rng(seed)
    present = None
    if case.holes:
        present = rng.random((case.rows, case.cols)) >= case.holes
    dtype = np.uint8 if case.k < 64 else np.int64
    solved = Board.from_arrays(
        np.full((case.rows, case.cols), case.k - 1, dtype=dtype), present, case.k, case.k - 1
    )
    presses = rng.integers(0, case.k, size=(case.rows, case.cols), dtype=dtype)
    return solved.apply((case.k - presses) % case.k)


def _median_seconds(func: Callable[[], object], repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def run_case(case: Case, repeat: int) -> dict:
    board = make_board(case)

    def engine() -> object:
        # From the numpy array in memory to a press array: building the Board (its
        # checks) is part of the measured path.
        fresh = Board.from_arrays(board.states, board.present, board.k, board.objective)
        return solve(fresh, minimize=False)

    seconds, solution = _median_seconds(
        engine, max(1, repeat if board.states.size < 10**7 else min(repeat, 3))
    )
    verified = bool(solution.presses is not None and board.apply(solution.presses).is_solved())
    row: dict = {
        "case": case.name,
        "seconds": round(seconds, 6),
        "verified": verified,
        "method": solution.method,
        "nullity": solution.nullity,
    }
    if case.target_seconds is not None:
        row["target_seconds"] = case.target_seconds
        row["met"] = verified and seconds <= case.target_seconds
    if case.baseline:
        base_seconds, (presses, _) = _median_seconds(
            lambda: solve_dense_gf2(board.target_delta(), board.present), max(1, min(repeat, 3))
        )
        row["baseline"] = "dense bit-packed elimination of the (mn)x(mn) system"
        row["baseline_seconds"] = round(base_seconds, 6)
        row["baseline_verified"] = bool(presses is not None and board.apply(presses).is_solved())
        row["speedup"] = round(base_seconds / seconds, 1)
        if case.target_speedup is not None:
            row["target_speedup"] = case.target_speedup
            row["met"] = verified and row["speedup"] >= case.target_speedup
    return row


def _memory_row(case: Case) -> dict:
    """Peak resident memory of a fresh process that builds, solves and verifies ``case``."""
    command = [sys.executable, "-m", "assistant", "bench", "--memory-probe", case.name]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    peak = json.loads(output)["peak_rss_mib"]
    return {
        "case": f"{case.name}-peak-memory",
        "peak_rss_mib": peak,
        "target_mib": 2048,
        "met": peak <= 2048,
        "note": "whole process: board generation, solve and verification",
    }


def _probe(name: str) -> int:
    import resource

    case = next(c for c in FULL_CASES + QUICK_CASES if c.name == name)
    board = make_board(case)
    solution = solve(
        Board.from_arrays(board.states, board.present, board.k, board.objective), minimize=False
    )
    assert solution.presses is not None and board.apply(solution.presses).is_solved()
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"peak_rss_mib": round(peak_kib / 1024, 1)}))
    return 0


def run(args: argparse.Namespace) -> int:
    if args.memory_probe:
        return _probe(args.memory_probe)
    cases = QUICK_CASES if args.quick else FULL_CASES
    if not args.json:
        print(f"{'case':34} {'seconds':>10} {'target':>8} {'verified':>9}  notes")
    failed = False
    for case in cases:
        row = run_case(case, args.repeat)
        failed |= not row["verified"] or row.get("met") is False
        _emit(row, args.json)
    if not args.quick and not args.no_memory and sys.platform != "win32":
        row = _memory_row(FULL_CASES[0])
        failed |= not row["met"]
        _emit(row, args.json)
    return 1 if failed else 0


def _emit(row: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(row), flush=True)
        return
    if "peak_rss_mib" in row:
        print(f"{row['case']:34} {'':>10} {'≤2048MiB':>8} {'':>9}  peak {row['peak_rss_mib']} MiB")
        return
    target = f"≤{row['target_seconds']}s" if "target_seconds" in row else ""
    notes = f"{row['method']}, nullity {row['nullity']}"
    if "speedup" in row:
        notes += f"; dense baseline {row['baseline_seconds']:.3f}s, speedup {row['speedup']}x"
        if "target_speedup" in row:
            target = f"≥{row['target_speedup']:.0f}x"
    print(
        f"{row['case']:34} {row['seconds']:>10.4f} {target:>8} {row['verified']!s:>9}  {notes}",
        flush=True,
    )
