"""``toa-assistant solve``: solve one board given as text, a text file, stdin or a .npy array.

Exit status: 0 solved, 1 no solution exists, 2 bad input (one sentence on stderr).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from assistant.commands import route_output
from assistant.errors import UserError
from assistant.limits import (
    SOLVE_MAX_TEXT_CELLS,
    LimitError,
    check_grid_size,
    count_text,
    holes_weight,
    solve_cell_limit,
)
from assistant.puzzle import (
    MAX_TEXT_STATES,
    Board,
    BoardError,
    check_states_and_objective,
    format_grid,
    parse_grid,
    toa_board,
)
from assistant.solver import Solution, solve
from assistant.solver.modular import MAX_MODULUS
from assistant.storage import atomic_write_bytes

NAME = "solve"
HELP = "Solve a Lights Out board exactly (the ToA room with --preset toa)."

#: Boards with more cells than this are not printed as text unless asked.
_PRINT_LIMIT = 10_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "board",
        nargs="?",
        metavar="BOARD",
        help="rows separated by '/', one character per cell: 0-9, a-z (states 10-35), '#' hole",
    )
    parser.add_argument(
        "--file",
        metavar="PATH",
        help="read the board from a text file (rows on lines), '-' for stdin, or a .npy "
        "integer array (-1 = hole)",
    )
    parser.add_argument("--states", type=int, metavar="K", help="number of states k (default 2)")
    parser.add_argument(
        "--objective", type=int, metavar="O", help="state every cell must reach (default k-1)"
    )
    parser.add_argument(
        "--preset",
        choices=["toa"],
        help="toa: the Tombs of Amascut room (3x3, centre hole, 2 states, all lit)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--out", metavar="PATH.npy", help="also write the presses as a .npy array")
    parser.add_argument(
        "--hint", action="store_true", help="name one press that lies on a fewest-press solution"
    )
    parser.add_argument(
        "--no-minimize",
        action="store_true",
        help="any solution, without searching for the fewest presses (faster on huge boards)",
    )
    parser.add_argument(
        "--engine",
        choices=["internal", "clingo"],
        default="internal",
        help="internal (default) or clingo (optional extra: pip install .[asp])",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=60.0,
        metavar="S",
        help="seconds clingo may search (default 60; its best answer so far is then "
        "reported as not proven minimal)",
    )
    route_output.add_route_arguments(parser)


def run(args: argparse.Namespace) -> int:
    started = _call_started()
    board, separator = _read_board(args)
    _check_solve_size(board)
    if args.out:
        args.out = _out_path(args.out)
    if args.engine == "clingo":
        from assistant.solver.asp import solve_with_clingo

        if args.time_limit <= 0:
            raise UserError(f"--time-limit must be positive, not {args.time_limit:g}.")
        solution = solve_with_clingo(board, seconds=args.time_limit, started=started)
    else:
        solution = solve(board, minimize=not args.no_minimize)
    hint = _hint(solution) if args.hint else None
    route = route_output.plan_for(args, board, solution)
    if args.out and solution.presses is not None:
        _write_npy(args.out, solution)
    if args.json:
        printable = board.states.size <= _PRINT_LIMIT
        payload = solution.to_json(with_presses=printable)
        if not printable and solution.solvable:
            payload["presses_omitted"] = "board too large to print; use --out PATH.npy"
        if args.out:
            payload["out"] = str(args.out)
        if args.hint:
            payload["hint"] = hint
        if route is not None:
            payload.update(route_output.route_json(route))
        print(json.dumps(payload))
    else:
        _print_plain(solution, separator, hint, show_hint=args.hint, wrote=args.out)
        if route is not None:
            print("\n".join(route_output.route_lines(route)))
    return 0 if solution.solvable else 1


#: A process older than this when ``solve`` starts is not a fresh command-line call (a
#: test run, a window): its clock for ``--time-limit`` starts with the command.
_FRESH_PROCESS_SECONDS = 10.0


def _call_started() -> float:
    """``time.monotonic()`` when this call began: the process's start, so that
    ``--time-limit`` covers the whole call with the program's start-up (0.3-2 s of
    imports, measured), on Linux and Windows; elsewhere the start of the command."""
    now = time.monotonic()
    age = _process_age()
    if age is None or age > _FRESH_PROCESS_SECONDS:
        return now
    return now - age


def _process_age() -> float | None:
    """Seconds since this process started, or None when the platform does not say."""
    try:
        if sys.platform.startswith("linux"):
            # Field 22 of /proc/self/stat: start time in clock ticks after boot.
            fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
            start = int(fields[19]) / os.sysconf("SC_CLK_TCK")
            return max(0.0, float(Path("/proc/uptime").read_text().split()[0]) - start)
        if sys.platform == "win32":
            return _windows_process_age()
    except (OSError, ValueError, IndexError):
        return None
    return None


def _windows_process_age() -> float | None:
    import ctypes
    from ctypes import wintypes

    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    times = [wintypes.FILETIME() for _ in range(5)]
    if not kernel32.GetProcessTimes(
        kernel32.GetCurrentProcess(), *(ctypes.byref(t) for t in times[:4])
    ):
        return None
    kernel32.GetSystemTimeAsFileTime(ctypes.byref(times[4]))

    def ticks(value: wintypes.FILETIME) -> int:  # 100 ns units
        return (value.dwHighDateTime << 32) | value.dwLowDateTime

    return max(0.0, (ticks(times[4]) - ticks(times[0])) / 1e7)


def _read_board(args: argparse.Namespace) -> tuple[Board, str]:
    """The board and the row separator to print presses with."""
    if args.preset == "toa":
        if args.states not in (None, 2) or args.objective not in (None, 1):
            raise UserError("--preset toa fixes 2 states and objective 1; leave those options out.")
        k, objective = 2, 1
    else:
        k, objective = check_states_and_objective(
            2 if args.states is None else args.states, args.objective
        )
    array, text, separator, name = _read_input(args, k)
    if array is not None:
        board = _board_from_array(array, name, k, objective)
        if args.preset != "toa":
            return board, separator
        if board.shape != (3, 3) or board.present[1, 1] or not board.present.sum() == 8:
            raise BoardError(
                f"{name} is not the ToA room: --preset toa needs a 3x3 array with -1 in the "
                "centre."
            )
        return toa_board(board.states), separator
    if args.preset == "toa":
        return toa_board(text), separator
    if k > MAX_TEXT_STATES:
        raise BoardError(
            f"A text board has at most {MAX_TEXT_STATES} states (0-9 and a-z), not {k:,}: "
            "give more states as a .npy file (--file PATH.npy)."
        )
    _check_text_size(text)
    values, present = parse_grid(text)
    _check_text_states(values, present, k)
    return Board.from_arrays(values, present, k, objective), separator


#: The first bytes of every .npy file.
_NPY_MAGIC = b"\x93NUMPY"
#: The first bytes of pictures someone may give instead of a board.
_PICTURES = {b"\x89PNG": "a PNG picture", b"\xff\xd8\xff": "a JPEG picture"}
#: Characters read at most from a text board: a character per cell within the limit,
#: line ends and some blank space.
_TEXT_BUDGET = 4 * SOLVE_MAX_TEXT_CELLS + 4096


def _read_input(
    args: argparse.Namespace, k: int
) -> tuple[np.ndarray | None, str | None, str, str]:
    """``(array, None, separator, name)`` for a .npy array (recognised by its first
    bytes, whatever the file's name, also on standard input), else
    ``(None, text, separator, name)``."""
    if args.board and args.file:
        raise UserError("Give the board either as an argument or with --file, not both.")
    if args.board:
        return None, args.board, "/", "the board"
    if not args.file:
        raise UserError(
            "No board given: pass it as an argument (e.g. 111/0#0/110) or with --file."
        )
    if args.file == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text-only stream
            return None, sys.stdin.read(_TEXT_BUDGET + 1), "\n", "standard input"
        return _read_stream(stream, "standard input", k, None)
    path = Path(args.file)
    if path.is_dir():
        raise UserError(f"{path} is a folder, not a board file.")
    with path.open("rb") as stream:
        return _read_stream(stream, str(path), k, path)


def _read_stream(stream, name: str, k: int, path: Path | None):
    head = stream.read(len(_NPY_MAGIC) + 2)
    if head.startswith(_NPY_MAGIC):
        return _read_npy(stream, head, name, k, path), None, "\n", name
    if path is not None and path.suffix.lower() == ".npy":
        raise UserError(f"{name} is not a .npy array file (the format numpy.save writes).")
    raw = head + stream.read(_TEXT_BUDGET + 1 - len(head))
    picture = next((kind for magic, kind in _PICTURES.items() if raw.startswith(magic)), None)
    if picture is not None:
        raise UserError(
            f"{name} is {picture}, not a board: solve reads a board as text or as a .npy "
            "array (to read a screenshot of the puzzle, use 'toa-assistant detect')."
        )
    try:
        return None, raw.decode("utf-8"), "\n", name
    except UnicodeDecodeError:
        raise UserError(
            f"{name} is not a text board (it is not UTF-8 text): give the board as text, "
            "or as a .npy array."
        ) from None


def _read_npy(stream, head: bytes, name: str, k: int, path: Path | None) -> np.ndarray:
    """The array of a .npy stream whose first bytes are ``head``; its header (shape and
    type) is checked against the limits before the data is read."""
    not_npy = f"{name} is not a .npy array file (the format numpy.save writes)."
    version = (head[-2], head[-1])
    try:
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(stream)
        elif version in ((2, 0), (3, 0)):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(stream)
        else:
            raise UserError(not_npy)
    except (ValueError, EOFError, SyntaxError):
        raise UserError(not_npy) from None
    if len(shape) != 2 or 0 in shape:
        raise BoardError(f"{name} must hold a non-empty 2-D integer array, not shape {shape}.")
    if not np.issubdtype(dtype, np.integer):
        raise BoardError(f"{name} must hold integers (-1 for a hole), not {dtype}.")
    # The largest limit for k (holes, found in the data, can only lower it).
    check_grid_size(
        *shape,
        solve_cell_limit(k, holes=False),
        "the engine takes" if k == 2 else "the engine takes with more than 2 states",
    )
    size = shape[0] * shape[1] * dtype.itemsize
    offset = stream.tell()
    if path is not None:
        have = path.stat().st_size - offset
        if have < size:
            raise _cut_short(name, shape, dtype, size, have)
        # Memory-mapped: the engine reads the data as it goes.
        return np.load(path, mmap_mode="r", allow_pickle=False)
    data = stream.read(size)
    if len(data) < size:
        raise _cut_short(name, shape, dtype, size, len(data))
    return np.frombuffer(data, dtype=dtype).reshape(shape, order="F" if fortran else "C")


def _cut_short(name: str, shape, dtype, size: int, have: int) -> UserError:
    return UserError(
        f"{name} is cut short: its header describes a {shape[0]:,}x{shape[1]:,} array of "
        f"{dtype} ({size:,} bytes), but only {have:,} bytes follow."
    )


def _check_text_size(text: str) -> None:
    advice = "give bigger boards as a .npy file (--file PATH.npy)."
    if len(text) > _TEXT_BUDGET:
        raise LimitError(
            f"The text board is longer than {_TEXT_BUDGET:,} characters, more than a board of "
            f"the {SOLVE_MAX_TEXT_CELLS:,} cells a text board may have: {advice}"
        )
    cells = len(text) - sum(text.count(ch) for ch in "/\n\r \t")
    if cells > SOLVE_MAX_TEXT_CELLS:
        raise LimitError(
            f"The text board has about {cells:,} cells, more than the {SOLVE_MAX_TEXT_CELLS:,} "
            f"a text board may have: {advice}"
        )


def _check_text_states(values: np.ndarray, present: np.ndarray, k: int) -> None:
    """Name the character, not its number, when a cell is beyond the k states."""
    beyond = np.argwhere(present & (values >= k))
    if beyond.size:
        r, c = (int(i) for i in beyond[0])
        allowed = "0 and 1" if k == 2 else f"0 to {format_grid(np.array([[k - 1]]))}"
        raise BoardError(
            f"Cell at row {r + 1}, column {c + 1} is {format_grid(values[r:r + 1, c:c + 1])!r}, "
            f"but with {k} states a cell holds {allowed}."
        )


def _check_solve_size(board: Board) -> None:
    """The stated limits (ADR 50), checked before the engine starts."""
    rows, cols = board.shape
    k = board.k
    if k > MAX_MODULUS:
        raise BoardError(f"The engine handles up to {MAX_MODULUS:,} states, not {k:,}.")
    holes = board.has_holes
    limit = solve_cell_limit(k, holes)
    if not holes:
        what = "the engine takes" if k == 2 else "the engine takes with more than 2 states"
    elif holes_weight(k) == 1:
        what = "the engine takes with holes"
    else:
        what = f"the engine takes with holes and {k:,} states"
    check_grid_size(rows, cols, limit, what)


def _board_from_array(array: np.ndarray, name: str, k: int, objective: int) -> Board:
    array = np.asarray(array)
    present = array >= 0
    below = np.argwhere(array < -1)
    if below.size:
        r, c = (int(i) for i in below[0])
        raise BoardError(
            f"Cell at row {r + 1}, column {c + 1} holds {int(array[r, c])}: use 0 to {k - 1}, "
            "or -1 for a hole."
        )
    if np.issubdtype(array.dtype, np.signedinteger) and not present.all():
        array = np.where(present, array, 0).astype(array.dtype, copy=False)
    return Board.from_arrays(array, present, k, objective)


def _out_path(text: str) -> str:
    """numpy adds .npy to any other name; say so by refusing it, and refuse a missing
    folder before solving."""
    path = Path(text)
    if path.suffix.lower() != ".npy":
        raise UserError(f"--out writes a .npy array: name the file PATH.npy, not {text}.")
    if not path.parent.is_dir():
        raise UserError(f"The folder {path.parent} for --out does not exist.")
    return text


def _write_npy(path: str, solution: Solution) -> None:
    presses = np.asarray(solution.presses)
    out = np.where(solution.board.present, presses, -1) if solution.board.has_holes else presses
    kind = np.int16 if solution.board.k < 2**15 else np.int64
    buffer = io.BytesIO()
    np.save(buffer, out.astype(kind, copy=False), allow_pickle=False)
    atomic_write_bytes(path, buffer.getvalue())


def _hint(solution: Solution) -> dict | None:
    if solution.presses is None:
        return None
    cells = np.argwhere(solution.presses != 0)
    if not cells.size:
        return None
    r, c = (int(i) for i in cells[0])
    return {
        "row": r + 1,
        "col": c + 1,
        "times": int(solution.presses[r, c]),
        "on_minimal": solution.minimal,
    }


def _print_plain(
    solution: Solution, separator: str, hint: dict | None, *, show_hint: bool, wrote: str | None
) -> None:
    board = solution.board
    if not solution.solvable:
        print(f"No solution. {solution.reason}")
        return
    if board.states.size <= _PRINT_LIMIT:
        print(solution.presses_text().replace("/", separator))
    total = solution.total_presses
    proof = "proven minimal" if solution.minimal else "not proven minimal"
    count = _count_text(solution.solutions)
    print(f"{total:,} press{'es' if total != 1 else ''} ({proof}); {count}.")
    if board.states.size > _PRINT_LIMIT and not wrote:
        print("The press grid is too large to print: add --out PATH.npy to save it.")
    if show_hint:
        if hint is None:
            print("Hint: nothing to press, the board is already solved.")
        else:
            where = "a fewest-press solution" if hint["on_minimal"] else "the best solution found"
            print(f"Hint: press row {hint['row']}, column {hint['col']} (part of {where}).")


def _count_text(count: int) -> str:
    """``1 solution``, ``12,345 solutions``, ``2^1530 solutions``, ``1.631e+4771
    solutions``: never thousands of digits."""
    return "1 solution" if count == 1 else f"{count_text(count)} solutions"
