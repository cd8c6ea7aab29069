"""Reports the flight recorder saved (:mod:`assistant.recorder`): read one, check it, and
replay it through the live loop.

A replay gives the loop what it was given when the report was recorded: the window at
its recorded place, the screen, and each grab's pixels at its recorded grab time, so the
same code shows the same marks, frame by frame, and changed code shows where it differs
(``detect --sequence REPORT``). A grab the replayed loop asks for that was never made
(the code now reads another part of the window) is cut out of a recorded grab that holds
it, else it fails like a failed grab.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.capture import Rect, WindowInfo
from assistant.errors import UserError
from assistant.recorder import REPORT_FORMAT, REPORT_VERSION, marks_json, unpack

__all__ = ["REPLAY_TITLE", "FrameReplay", "Report", "ReportError", "open_report",
           "replay_report"]

#: The title the recorded window is replayed under (the real one is never kept).
REPLAY_TITLE = "recorded game window"


class ReportError(UserError):
    """A folder or file that is not a whole report."""


class GrabNotRecorded(RuntimeError):
    """The replayed loop asked for pixels the report does not hold."""


class RecordedFailure(RuntimeError):
    """A grab (or the screen's size) that failed when the report was recorded."""


@dataclass
class Report:
    """A report read from ``source``: ``about.json`` and ``session.jsonl``'s records;
    pictures are read when asked for (:meth:`picture`)."""

    source: Path
    about: dict
    frames: list[dict]
    _read: object  # name -> bytes

    def picture(self, name: str, channels: int = 4) -> np.ndarray:
        """The picture ``name`` as grabbed (``channels``: the grab's, as recorded)."""
        try:
            data = self._read(name)
        except (OSError, KeyError):
            raise ReportError(f"The report {self.source} is incomplete: its picture "
                              f"{name} is missing.") from None
        image = unpack(data, channels)
        if image is None or image.ndim != 3:
            raise ReportError(f"The report {self.source} is damaged: its picture {name} "
                              "cannot be read.")
        return image


def open_report(path: str | Path) -> Report:
    """Read and check a report folder or ``.zip``; :class:`ReportError` (one sentence)
    when it is not one, or not whole."""
    source = Path(path)
    if source.is_dir():
        def read(name: str) -> bytes:
            return (source / name).read_bytes()
        names = {p.relative_to(source).as_posix() for p in source.rglob("*") if p.is_file()}
    elif source.is_file() and zipfile.is_zipfile(source):
        archive = zipfile.ZipFile(source)
        members = archive.namelist()
        roots = sorted((n[: -len("about.json")] for n in members
                        if n.endswith("about.json")), key=len)
        root = roots[0] if roots else ""

        def read(name: str) -> bytes:
            return archive.read(root + name)
        names = {n[len(root):] for n in members if n.startswith(root)}
    elif source.exists():
        raise ReportError(f"{source} is not a report: give the report's folder or its .zip.")
    else:
        raise ReportError(f"The report {source} does not exist.")
    if "about.json" not in names or "session.jsonl" not in names:
        raise ReportError(f"{source} is not a report: it has no about.json and "
                          "session.jsonl.")
    try:
        about = json.loads(read("about.json"))
    except (ValueError, UnicodeDecodeError):
        raise ReportError(f"The report {source} is damaged: about.json is not JSON.") from None
    if not isinstance(about, dict) or about.get("format") != REPORT_FORMAT:
        raise ReportError(f"{source} is not a report of this assistant (about.json says "
                          "something else).")
    if about.get("format_version") != REPORT_VERSION:
        raise ReportError(f"The report {source} is of layout {about.get('format_version')!r}, "
                          f"which this version does not read (it reads {REPORT_VERSION}).")
    frames = []
    try:
        text = read("session.jsonl").decode()
    except UnicodeDecodeError:
        text = None
    for number, line in enumerate((text or "\x00").splitlines(), start=1):
        try:
            record = json.loads(line)
        except ValueError:
            raise ReportError(f"The report {source} is damaged: line {number} of "
                              "session.jsonl is not JSON (cut short?).") from None
        if not _looks_like_frame(record, number):
            raise ReportError(f"The report {source} is damaged: line {number} of "
                              "session.jsonl is not a frame record.")
        for grab in record["grabs"]:
            if "file" in grab and grab["file"] not in names:
                raise ReportError(f"The report {source} is incomplete: frame {number}'s "
                                  f"picture {grab['file']} is missing.")
        frames.append(record)
    if not frames:
        raise ReportError(f"The report {source} holds no frames.")
    if about.get("frames") != len(frames):
        raise ReportError(f"The report {source} is incomplete: about.json counts "
                          f"{about.get('frames')} frames, session.jsonl holds {len(frames)}.")
    return Report(source, about, frames, read)


def _looks_like_frame(record: object, number: int) -> bool:
    if not isinstance(record, dict) or record.get("frame") != number:
        return False
    grabs = record.get("grabs")
    if not isinstance(grabs, list) or not isinstance(record.get("marks"), list):
        return False
    return all(isinstance(g, dict) and _is_rect(g.get("rect")) for g in grabs) and (
        record.get("window") is None or _is_rect(record["window"].get("rect")))


def _is_rect(value: object) -> bool:
    return (isinstance(value, list) and len(value) == 4
            and all(isinstance(v, int) for v in value))


def _rect(values: list[int]) -> Rect:
    return Rect(*values)


class _ReplayWindows:
    """A window backend that shows the recorded window of the current frame."""

    name = "report"

    def __init__(self) -> None:
        self.frame: dict = {}

    def unavailable(self) -> str | None:
        return self.frame.get("unavailable")

    def _window(self) -> WindowInfo | None:
        window = self.frame.get("window")
        if window is None:
            return None
        return WindowInfo("report", REPLAY_TITLE, _rect(window["rect"]),
                          bool(window.get("minimized")))

    def windows(self) -> list[WindowInfo]:
        window = self._window()
        return [] if window is None else [window]

    def update(self, window: WindowInfo) -> WindowInfo | None:
        return self._window()


class _ReplayGrabber:
    """Grabs and grab times come from the current frame's record, in order."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.frame: dict = {}
        self._next = 0
        self._last_time: float | None = None
        #: a report that turned out damaged while replaying (the loop would take it for
        #: a failed grab): raised again after the frame
        self.damage: ReportError | None = None

    def start(self, frame: dict) -> None:
        self.frame, self._next = frame, 0

    def clock(self) -> float | None:
        grabs = self.frame.get("grabs", [])
        if self._next < len(grabs):
            self._last_time = grabs[self._next]["time"]
        return self._last_time

    def desktop(self) -> Rect:
        screen = self.frame.get("desktop")
        if isinstance(screen, dict):
            raise RecordedFailure(screen.get("error", "error"))
        if screen is None:  # not asked when it was recorded: the window's own area
            grabs = self.frame.get("grabs") or [{"rect": [0, 0, 1, 1]}]
            return _rect(grabs[0]["rect"])
        return _rect(screen)

    def grab(self, rect: Rect) -> np.ndarray:
        grabs = self.frame.get("grabs", [])
        here = grabs[self._next] if self._next < len(grabs) else None
        self._next += 1
        if here is not None and _rect(here["rect"]) == rect:
            return self._pixels(here)
        for grab in grabs:  # the code now asks for another part: cut it out of one
            held = _rect(grab["rect"])
            if "file" in grab and held.intersect(rect) == rect:
                image = self._pixels(grab)
                top, left = rect.top - held.top, rect.left - held.left
                return image[top:top + rect.height, left:left + rect.width]
        raise GrabNotRecorded(f"{rect} was not recorded")

    def _pixels(self, grab: dict) -> np.ndarray:
        if "file" not in grab:
            raise RecordedFailure(grab.get("error") or "pixels dropped")
        try:
            return self.report.picture(grab["file"], int(grab.get("channels", 4)))
        except ReportError as error:
            self.damage = error
            raise

    def close(self) -> None:
        pass


@dataclass(frozen=True)
class FrameReplay:
    """One frame: the marks recorded and those the replay showed (as :func:`marks_json`)."""

    frame: int
    time: float | None
    recorded: list[dict]
    replayed: list[dict]
    recorded_kind: str
    replayed_kind: str
    #: the board the replay showed (screen labels), None without one
    replayed_board: str | None = None

    @property
    def same(self) -> bool:
        return self.recorded == self.replayed


def replay_report(report: Report) -> Iterator[FrameReplay]:
    """Run the report's frames through a live loop set up as the recorded one was."""
    import re

    from assistant.live import LiveLoop
    from assistant.profile import parse_profile

    settings = report.about.get("loop") or {}
    profile_json = report.about.get("profile")
    profile = None if profile_json is None else parse_profile(
        json.dumps(profile_json), source=f"the profile in {report.source}")
    windows = _ReplayWindows()
    grabber = _ReplayGrabber(report)
    try:
        loop = LiveLoop(windows, grabber, f"^{re.escape(REPLAY_TITLE)}$", profile,
                        settings.get("objective"),
                        stable_frames=int(settings.get("stable_frames", 2)),
                        track=bool(settings.get("track", True)),
                        show_route=bool(settings.get("show_route", True)),
                        crossing_steps=bool(settings.get("crossing_steps", True)),
                        clock=grabber.clock)
    except (TypeError, ValueError) as error:
        raise ReportError(f"The report {report.source} has settings this version cannot "
                          f"use ({error}).") from None
    for record in report.frames:
        windows.frame = record
        grabber.start(record)
        shown = loop.tick()
        if grabber.damage is not None:
            raise grabber.damage
        yield FrameReplay(record["frame"], record.get("time"), record["marks"],
                          marks_json(shown.marks),
                          (record.get("shown") or {}).get("kind", "?"), shown.kind,
                          None if shown.board is None else shown.board.format())
