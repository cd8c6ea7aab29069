"""``toa-assistant lightup check|solve FILE``: Light Up (Akari) puzzles from text files.

``check`` prints ``valid`` (exit 0) or the first broken rule in words (exit 1).
``solve`` prints the solved grid (the header line kept when the file had one), then
whether it is unique; ``no solution`` and exit 1 when there is none. ``--count`` counts
the solutions up to a bound instead. Malformed input is one sentence and exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from assistant.lightup import (
    LightUpError,
    check_lightup,
    format_lightup,
    grid_size,
    has_header,
    parse_lightup,
    solve_lightup,
)
from assistant.limits import (
    LIGHTUP_CHECK_MAX_CELLS,
    LIGHTUP_COUNT_MAX_WORK,
    LIGHTUP_MAX_CELLS,
    LimitError,
    check_grid_size,
)

NAME = "lightup"
HELP = "Check or solve a Light Up (Akari) puzzle given as a text file."

#: Default bound for ``solve --count``.
DEFAULT_COUNT_BOUND = 1000


#: The file format, shown by ``lightup --help`` and its verbs' help (and in the README).
FILE_FORMAT = """\
file format (text, one line per row):
  an optional first line "R C" (rows, columns), then R lines of C characters:
    .      an empty cell
    #      a black cell without a number
    0-4    a black cell that needs that many lamps beside it (up, down, left, right)
    L      a lamp (in a solution, or the lamps 'check' should judge)
  example, a 3x3 puzzle and one of its solutions:
    3 3          3 3
    .1.          L1.
    ...          ..L
    #..          #L.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = FILE_FORMAT
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    check = verbs.add_parser(
        "check",
        help="say whether the lamps in FILE solve the puzzle",
        description="Print 'valid', or the first broken rule (exit 1).",
        epilog=FILE_FORMAT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument("file", metavar="FILE", help="the puzzle with lamps (L), '-' for stdin")
    check.set_defaults(_verb=_run_check)
    solve = verbs.add_parser(
        "solve",
        help="solve the puzzle in FILE and say whether the solution is unique",
        description=(
            "Print the solved grid and whether it is unique; 'no solution' (exit 1) when "
            "there is none."
        ),
        epilog=FILE_FORMAT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    solve.add_argument("file", metavar="FILE", help="the puzzle ('-' for stdin); lamps are ignored")
    solve.add_argument(
        "--count",
        nargs="?",
        type=int,
        const=DEFAULT_COUNT_BOUND,
        metavar="BOUND",
        help=f"count the solutions, stopping at BOUND (default {DEFAULT_COUNT_BOUND})",
    )
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.set_defaults(_verb=_run_solve)


def run(args: argparse.Namespace) -> int:
    return int(args._verb(args))


def _read(path: str, max_cells: int, verb: str) -> str:
    """The file's text, refused unread past a size no grid within the limit needs (a
    character per cell, line ends, a header and some blank space)."""
    budget = 4 * max_cells + 4096
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            text = sys.stdin.read(budget + 1)
        else:
            with Path(path).open(encoding="utf-8") as handle:
                text = handle.read(budget + 1)
    except UnicodeDecodeError as error:
        raise LightUpError(f"{path} is not a text file: it is not UTF-8.") from error
    if len(text) > budget:
        raise LimitError(
            f"{name} holds more than {budget:,} characters, more than a grid of the "
            f"{max_cells:,} cells lightup {verb} takes."
        )
    return text


def _run_check(args: argparse.Namespace) -> int:
    text = _read(args.file, LIGHTUP_CHECK_MAX_CELLS, "check")
    check_grid_size(*grid_size(text), LIGHTUP_CHECK_MAX_CELLS, "lightup check takes")
    puzzle, lamps = parse_lightup(text)
    broken = check_lightup(puzzle, lamps)
    print("valid" if broken is None else broken)
    return 0 if broken is None else 1


def _run_solve(args: argparse.Namespace) -> int:
    text = _read(args.file, LIGHTUP_MAX_CELLS, "solve")
    rows, cols = grid_size(text)
    check_grid_size(rows, cols, LIGHTUP_MAX_CELLS, "lightup solve takes")
    bound = args.count
    if bound is not None and bound < 1:
        raise LightUpError(f"The --count bound must be at least 1, not {bound:,}.")
    if bound is not None and rows * cols * bound > LIGHTUP_COUNT_MAX_WORK:
        most = max(1, LIGHTUP_COUNT_MAX_WORK // (rows * cols))
        raise LimitError(
            f"Counting up to {bound:,} solutions of a {rows:,}x{cols:,} grid is more than "
            f"lightup solve takes (cells times bound at most {LIGHTUP_COUNT_MAX_WORK:,}): "
            f"use --count {most:,} or less."
        )
    puzzle, _lamps = parse_lightup(text)
    result = solve_lightup(puzzle, limit=2 if bound is None else bound)
    header = has_header(text)
    if args.json:
        print(
            json.dumps(
                {
                    "solvable": result.solvable,
                    "solution": format_lightup(puzzle, result.solutions[0], header)
                    if result.solutions
                    else None,
                    "unique": result.unique,
                    "count": result.count,
                    "exact": result.exhausted,
                }
            )
        )
        return 0 if result.solvable else 1
    if not result.solvable:
        print("no solution")
        return 1
    if bound is None:
        sys.stdout.write(format_lightup(puzzle, result.solutions[0], header))
        print("unique" if result.unique else "not unique (at least 2 solutions)")
        return 0
    sys.stdout.write(format_lightup(puzzle, result.solutions[0], header))
    if result.exhausted:
        print(f"{result.count:,} solution{'s' if result.count != 1 else ''}")
    else:
        print(f"at least {result.count:,} solutions (stopped at the bound)")
    return 0
