"""``toa-assistant calibrate``: make a calibration profile without the window."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from assistant.errors import UserError

#: A value that starts with a minus sign and a digit, such as -100,-100,300,... .
_NEGATIVE_NUMBERS = re.compile(r"^-\d[\d.,;\s-]*$")

NAME = "calibrate"
HELP = "Make a calibration profile from the game window (or a screenshot of it)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # Corners left of or above the client area are negative: "--corners -100,-100,..."
    # is a value, not an option (argparse alone only takes "--corners=-100,...").
    parser._negative_number_matcher = _NEGATIVE_NUMBERS
    parser._has_negative_number_optionals.clear()
    parser.add_argument(
        "--window", metavar="TITLE", help="window title pattern: captured, and saved in the profile"
    )
    parser.add_argument(
        "--image",
        metavar="PATH",
        help="calibrate on a screenshot of the window's client area instead of a live capture",
    )
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--auto", action="store_true", help="find the ToA plates automatically")
    where.add_argument(
        "--corners",
        metavar="x1,y1,x2,y2,x3,y3,x4,y4",
        help="centres of the top-left, top-right, bottom-right and bottom-left "
        "cells, in client-area pixels",
    )
    parser.add_argument("--grid", metavar="RxC", help="a generic grid (default: the ToA room)")
    parser.add_argument(
        "--holes",
        nargs="+",
        metavar="R,C",
        help="holes of a generic grid, ROW,COL counted from 1 (e.g. --holes 2,2 3,1)",
    )
    parser.add_argument("--states", type=int, metavar="K", help="states of a generic grid")
    parser.add_argument("--objective", type=int, metavar="O", help="goal state (default k-1)")
    parser.add_argument(
        "--on-color", "--on-colour", dest="on", metavar="#RRGGBB", help="what a lit cell looks like"
    )
    parser.add_argument(
        "--off-color",
        "--off-colour",
        dest="off",
        metavar="#RRGGBB",
        help="what an unlit cell looks like",
    )
    parser.add_argument("--name", default="", help="a name for the profile")
    parser.add_argument("--out", required=True, metavar="FILE", help="where to save the profile")


def run(args: argparse.Namespace) -> int:
    from assistant.calibrate import (
        build_profile,
        parse_colour_hex,
        parse_corners,
        parse_grid_size,
        parse_holes,
    )
    from assistant.capture import DEFAULT_TITLE_PATTERN
    from assistant.profile import GridSpec, save_profile
    from assistant.puzzle import check_states_and_objective

    if not args.window and not args.image:
        raise UserError("Say what to calibrate on: --window TITLE, or --image PATH.")
    if not Path(args.out).parent.is_dir():
        raise UserError(f"The folder {Path(args.out).parent} for --out does not exist.")
    if Path(args.out).is_dir():
        raise UserError(f"--out names the folder {args.out}: give a file name such as p.json.")
    corners = parse_corners(args.corners) if args.corners else None
    if args.grid:
        rows, cols = parse_grid_size(args.grid)
        k, objective = check_states_and_objective(
            2 if args.states is None else args.states, args.objective
        )
        grid = GridSpec(rows, cols, parse_holes(args.holes, rows, cols), k, objective)
    else:
        if args.holes or args.states not in (None, 2):
            raise UserError("--holes and --states describe a generic grid: add --grid RxC.")
        grid = None
        if args.objective is not None:
            _, objective = check_states_and_objective(2, args.objective)
            grid = GridSpec(3, 3, ((1, 1),), 2, objective)
    frame = _frame(args)
    draft = build_profile(
        frame,
        corners=corners,
        grid=grid,
        on=parse_colour_hex(args.on, "--on-color"),
        off=parse_colour_hex(args.off, "--off-color"),
        window_title=args.window or DEFAULT_TITLE_PATTERN,
        name=args.name,
    )
    path = save_profile(draft.profile, args.out)
    reading = draft.reading
    seen = (
        f"it reads {reading.board.format()}"
        if reading.board is not None
        else (f"the reader cannot read it yet: {reading.reason}")
    )
    print(f"Saved {path}: {draft.profile.grid.rows}x{draft.profile.grid.cols} grid; {seen}")
    return 0


def _frame(args: argparse.Namespace):
    if args.image:
        import cv2

        from assistant.commands.detect import load_image

        image = load_image(args.image)  # the sentences detect says about the same file
        return image if image.shape[2] == 3 else cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    from assistant.capture import Grabber, default_backend, find_window

    backend = default_backend()
    problem = backend.unavailable()
    if problem:
        raise UserError(problem)
    window = find_window(args.window, backend.windows())
    if window is None:
        raise UserError(f"No window title matches {args.window!r}.")
    if window.minimized:
        raise UserError("The window is minimized: restore it and calibrate again.")
    with Grabber() as grabber:
        return grabber.grab(window.rect)
