"""``toa-assistant run``: start capturing and drawing the overlay without the control
window (status changes are printed, one line each)."""

from __future__ import annotations

import argparse
import sys

from assistant.errors import UserError, check_seconds

NAME = "run"
#: With --record: the game window gone this long (seconds) after it was read ends the run.
GONE_FOR_GOOD_SECONDS = 5.0
HELP = "Capture a window and draw the overlay (no control window); Ctrl+C stops."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--window",
        metavar="TITLE",
        help="window title pattern (regular "
        "expression); default from the settings: RuneLite|Old School RuneScape",
    )
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="calibration profile (default: auto-locate the ToA plates)",
    )
    parser.add_argument("--fps", type=float, metavar="N", help="frames per second (default 10)")
    parser.add_argument("--seconds", type=float, metavar="S", help="stop after S seconds")
    parser.add_argument(
        "--record", metavar="DIR",
        help="keep the last seconds read ([report] seconds, default 30) and save them as a "
        "problem report in the new folder DIR (or DIR.zip) when the run stops: Ctrl+C, "
        "SIGTERM, --seconds, or the game window gone for good "
        f"({GONE_FOR_GOOD_SECONDS:g} s); it replays with detect --sequence DIR",
    )
    parser.add_argument(
        "--colour",
        "--color",
        dest="colour",
        metavar="#RRGGBBAA",
        help="mark colour with alpha (default from the settings)",
    )


def run(args: argparse.Namespace) -> int:
    from assistant.profile import load_profile
    from assistant.recorder import settings_in_use
    from assistant.settings import load_settings
    check_seconds(args.seconds)

    settings, warning = load_settings()
    if warning:
        print(warning, file=sys.stderr)
    profile = load_profile(args.profile) if args.profile else None
    fps = args.fps if args.fps is not None else settings.fps
    if not 0.5 <= fps <= 60:
        raise UserError(f"--fps must be between 0.5 and 60, not {fps:g}.")
    title = args.window or (profile.capture.window_title if profile else settings.window_title)
    recorder = None
    if args.record:
        from assistant.recorder import FlightRecorder, check_destination

        record_to = check_destination(args.record)
        recorder = FlightRecorder(settings.report_seconds)
    objective = None if profile is not None else settings.toa_objective

    from assistant.capture import display_problem

    if display_problem():
        raise UserError(display_problem())
    from assistant.gui.application import application
    from assistant.gui.overlay import parse_colour
    from assistant.gui.overlay_run import run_overlay

    try:
        colour = parse_colour(args.colour or settings.mark_color)
    except ValueError as error:
        raise UserError(f"The mark colour {error}.") from None
    app = application()
    run_overlay(app, title, profile, settings, fps=fps, objective=objective, colour=colour,
                recorder=recorder, seconds=args.seconds,
                gone_for_good_seconds=GONE_FOR_GOOD_SECONDS)
    if recorder is not None:
        save_record(recorder, record_to, settings_in_use(settings, profile, args.profile))
    return 0


def save_record(recorder, destination, about: dict) -> None:
    """Write what ``recorder`` kept to ``destination`` and say so (a full disk or a
    folder that cannot be written is one sentence, exit 2, from the caller)."""
    from assistant.recorder import save_report

    snapshot = recorder.snapshot()
    recorder.close()
    if not snapshot.records:
        print("Nothing was read, so no report was saved.", file=sys.stderr)
        return
    path = save_report(snapshot, destination, about=about)
    print(f"Report saved in {path} ({snapshot.frames} frames, {snapshot.duration:.1f} s).",
          flush=True)
