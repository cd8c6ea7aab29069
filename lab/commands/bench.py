"""``toa-assistant bench``: the engine's speed and memory figures, with a baseline run
side by side (dense elimination of the whole system), never asserted in tests.

Each case prints ``case``, ``seconds`` (median of the runs), ``verified`` (the presses
applied back reach the objective), the target, and for baseline pairs the baseline's
seconds and the ``speedup``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

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
    parser.add_argument("--limit-inputs", metavar="FOLDER", help=argparse.SUPPRESS)
    parser.add_argument(
        "--limits",
        action="store_true",
        help="instead: run each stated resource limit at the limit, as a fresh "
        "toa-assistant call, and print its seconds and memory beside the stated figure",
    )


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


@dataclass(frozen=True)
class LimitCase:
    """One row of the limits table (docs/limits.md), run at the limit: ``make(folder)``
    writes the input (unless it is there) and returns the command's arguments;
    ``stated`` is the table's figure."""

    name: str
    stated: str
    make: Callable[[Path], list[str]]


def _npy_board(rows: int, cols: int, k: int, holes: float = 0.0, seed: int = 7):
    def make(folder: Path) -> list[str]:
        path = folder / f"board-{rows}x{cols}-k{k}-{holes:g}.npy"
        if not path.exists():
            rng = np.random.default_rng(seed)
            board = rng.integers(0, k, (rows, cols), dtype=np.int8)
            if holes:
                board[rng.random((rows, cols)) < holes] = -1
            np.save(path, board)
        return ["solve", "--states", str(k), "--file", str(path)]

    return make


def _text_board(folder: Path) -> list[str]:
    path = folder / "board-1000x1000.txt"
    if not path.exists():
        rows = np.random.default_rng(7).integers(0, 2, (1000, 1000), dtype=np.uint8) + ord("0")
        path.write_bytes(b"\n".join(row.tobytes() for row in rows))
    return ["solve", "--file", str(path)]


def _clingo_board(folder: Path) -> list[str]:
    path = folder / "clingo-50x50.npy"
    if not path.exists():
        np.save(path, make_board(Case("clingo", 50, 50, 2), seed=7).states.astype(np.int8))
    return ["solve", "--engine", "clingo", "--time-limit", "10", "--file", str(path)]


def _lightup_grid(verb: str, side: int, *extra: str):
    def make(folder: Path) -> list[str]:
        path = folder / f"lightup-{side}x{side}.txt"
        if not path.exists():
            path.write_text(f"{side} {side}\n" + ("." * side + "\n") * side, encoding="utf-8")
        return ["lightup", verb, *extra, str(path)]

    return make


#: The limits table of docs/limits.md, each row at its limit (random boards, seed 7).
LIMIT_CASES = (
    LimitCase("solve, 2 states, 10,000x10,000", "1.3 s CPU, 0.4 GB", _npy_board(10_000, 10_000, 2)),
    LimitCase("solve, 3 states, 2,000x2,000", "1.3 s CPU, 0.3 GB", _npy_board(2_000, 2_000, 3)),
    LimitCase("solve, 9 states, 2,000x2,000", "3.4 s CPU, 0.3 GB", _npy_board(2_000, 2_000, 9)),
    LimitCase(
        "solve, 3 states, 1,000x1,000, 1% holes", "3-4 s CPU", _npy_board(1_000, 1_000, 3, 0.01)
    ),
    LimitCase(
        "solve, 3 states, 1,000x1,000, 30% holes",
        "<= 13 s CPU, 0.4 GB",
        _npy_board(1_000, 1_000, 3, 0.3),
    ),
    LimitCase(
        "solve, 2 states, 1,000x1,000, 30% holes", "<= 13 s CPU", _npy_board(1_000, 1_000, 2, 0.3)
    ),
    LimitCase("solve, 6 states, 707x707, 30% holes", "<= 13 s CPU", _npy_board(707, 707, 6, 0.3)),
    LimitCase("solve, text board, 1,000x1,000", "0.8 s CPU", _text_board),
    LimitCase("solve --engine clingo --time-limit 10, 50x50", "<= 10 s wall clock", _clingo_board),
    LimitCase("lightup solve, 100x100 empty", "1.4 s CPU, <= 0.25 GB", _lightup_grid("solve", 100)),
    LimitCase(
        "lightup solve --count 1000, 100x100",
        "2.3 s CPU",
        _lightup_grid("solve", 100, "--count", "1000"),
    ),
    LimitCase("lightup check, 1,000x1,000", "1.1 s CPU", _lightup_grid("check", 1_000)),
)


def _run_limit(case: LimitCase, folder: Path) -> dict:
    """The case as a fresh process: wall seconds from start to exit and, where the
    platform reports a child's use, its CPU seconds and peak memory (the CPU figure is
    the steadier one on a shared machine: the work is on one thread)."""
    argv = case.make(folder)  # written by the inputs process: this only names them
    command = [sys.executable, "-m", "assistant", *argv]
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    cpu = peak = None
    if hasattr(os, "wait4"):
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        code = child.returncode = os.waitstatus_to_exitcode(status)
        cpu = round(usage.ru_utime + usage.ru_stime, 2)
        peak = round(usage.ru_maxrss / 1024, 1)  # KiB on Linux
    else:
        code = child.wait()
        seconds = time.perf_counter() - start
    error = child.stderr.read().decode("utf-8", "replace").strip() if child.stderr else ""
    child.stderr.close()
    return {
        "case": f"limit: {case.name}",
        "seconds": round(seconds, 2),
        "cpu_seconds": cpu,
        "peak_rss_mib": peak,
        "stated": case.stated,
        "exit": code,
        "message": error,
    }


def _write_limit_inputs(folder: str) -> int:
    """Write every limit case's input (a separate process: a child's peak memory on
    Linux starts from its parent's at the fork, so the measuring process stays small)."""
    for case in LIMIT_CASES:
        case.make(Path(folder))
    return 0


def _run_limits(as_json: bool) -> int:
    """Exit 1 when an input at its stated limit is refused or fails."""
    if not as_json:
        print(f"{'limit case':48} {'seconds':>8} {'CPU s':>7} {'peak MiB':>9}  stated")
    failed = False
    with tempfile.TemporaryDirectory(prefix="toa-limits-") as folder:
        subprocess.run(
            [sys.executable, "-m", "assistant", "bench", "--limit-inputs", folder], check=True
        )
        for case in LIMIT_CASES:
            row = _run_limit(case, Path(folder))
            # clingo may end its time without an answer (exit 2, one sentence); nothing
            # else may refuse or fail at its own limit.
            failed |= row["exit"] not in (0, 1) and "clingo found no presses" not in row["message"]
            print(json.dumps(row) if as_json else _limit_line(row), flush=True)
    return 1 if failed else 0


def _limit_line(row: dict) -> str:
    cpu = "" if row["cpu_seconds"] is None else f"{row['cpu_seconds']:.2f}"
    peak = "" if row["peak_rss_mib"] is None else f"{row['peak_rss_mib']:.0f}"
    note = f"  (exit {row['exit']}: {row['message']})" if row["exit"] not in (0, 1) else ""
    name = row["case"].removeprefix("limit: ")
    return f"{name:48} {row['seconds']:>8.2f} {cpu:>7} {peak:>9}  {row['stated']}{note}"


def run(args: argparse.Namespace) -> int:
    if args.memory_probe:
        return _probe(args.memory_probe)
    if args.limit_inputs:
        return _write_limit_inputs(args.limit_inputs)
    if args.limits:
        return _run_limits(args.json)
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
