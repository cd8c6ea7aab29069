"""``toa-assistant analyze``: exact optimal-play figures of a Lights Out shape.

Prints the number of solvable positions, the kernel size, the histogram of the fewest
presses over every solvable position, its maximum with one position that needs it, and
the cost from all-off to all-on. ``--json`` prints one object. Shapes whose press space
is beyond reach are refused with the size they would need (exit 2). Progress goes to
standard error on runs longer than 2 seconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from assistant.analysis import AnalysisError, analyze_board_shape, check_press_space
from assistant.puzzle import check_states_and_objective, parse_holes

NAME = "analyze"
HELP = "Exact optimal-play analysis of a Lights Out shape (histogram of fewest presses)."

#: Progress is shown once a run has taken this long.
_PROGRESS_AFTER = 2.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rows", type=int, required=True, metavar="R", help="rows of the grid")
    parser.add_argument("--cols", type=int, required=True, metavar="C", help="columns of the grid")
    parser.add_argument(
        "--holes",
        nargs="+",
        default=[],
        metavar="R,C",
        help="cells that are holes, ROW,COL counted from 1 (e.g. --holes 2,2 3,1)",
    )
    parser.add_argument(
        "--states", type=int, default=2, metavar="K", help="states per cell (default 2)"
    )
    parser.add_argument(
        "--objective", type=int, metavar="O", help="state every cell must reach (default K-1)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def shape_from_args(rows: int, cols: int, holes: list[str], states: int = 2) -> np.ndarray:
    """The present mask from ``--rows/--cols/--holes``; one sentence on bad input."""
    if rows < 1 or cols < 1:
        raise AnalysisError(
            f"The grid must have at least one row and one column, not {rows}x{cols}."
        )
    cells = parse_holes(holes, rows, cols)
    # Refused before the mask exists: a 100000x100000 mask alone is 10 GB.
    check_press_space(rows, cols, rows * cols - len(cells), states)
    present = np.ones((rows, cols), dtype=bool)
    for r, c in cells:
        present[r, c] = False
    return present


class _Progress:
    """Percent done on standard error, once the run has lasted 2 seconds."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.shown = False
        self.last = -1

    def __call__(self, fraction: float) -> None:
        if time.monotonic() - self.start < _PROGRESS_AFTER:
            return
        percent = int(fraction * 100)
        if percent != self.last:
            self.last = percent
            self.shown = True
            print(f"\ranalysing: {percent}%", end="", file=sys.stderr, flush=True)

    def done(self) -> None:
        if self.shown:
            print(file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    k, _ = check_states_and_objective(args.states, args.objective)
    present = shape_from_args(args.rows, args.cols, args.holes, k)
    progress = _Progress()
    try:
        result = analyze_board_shape(present, args.states, args.objective, progress=progress)
    finally:
        progress.done()
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    print(
        f"{result.rows}x{result.cols}, {result.cells} cells, {result.k} states, "
        f"objective {result.objective}"
    )
    print(
        f"solvable states: {result.solvable_states:,} of {result.press_space:,} "
        f"(kernel size {result.kernel_size:,})"
    )
    print("fewest presses: positions")
    width = len(str(len(result.histogram) - 1))
    for presses, count in enumerate(result.histogram):
        print(f"  {presses:>{width}}: {count:,}")
    print(
        f"max presses: {result.max_presses}, e.g. board {result.example.format()} "
        f"(presses {result.to_json()['example_presses']})"
    )
    if result.all_on is None:
        print("all-off to all-on: impossible")
    else:
        proven = "proven" if result.all_on_proven else "not proven minimal"
        print(f"all-off to all-on: {result.all_on} presses ({proven})")
    return 0
