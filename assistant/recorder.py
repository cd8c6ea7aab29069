"""The flight recorder: the live loop's last moments, kept in memory and saved on request.

A player whose overlay is blank or wrong in a real raid can save the last seconds as a
report (a folder, or a ``.zip``) that replays through the live loop on any machine
(:mod:`assistant.report`). The recorder keeps, per frame of the loop, every grab it read
(the small grab around the plates and the whole-window grab the reader asked for) with
its grab time, the window's place, the reading and the reader's trace, the history's
candidates and the marks shown.

Recording costs the loop almost nothing: :meth:`FlightRecorder.attach` wraps the loop's
grabber and clock, so a grab is kept by reference (no copy, no encoding on the loop's
thread), and the loop tells the recorder once per frame (:meth:`FlightRecorder.frame_done`).
Memory is bounded by a byte budget: past 70% of it, the oldest raw pixels are packed as
PNG by a background thread (cv2.imencode releases the GIL), and when even that falls
behind, the oldest frames' pixels are dropped (counted in ``about.json``). Why, with the figures:
docs/adr/0074-flight-recorder.md.

Only the game window's pixels are ever kept: the loop grabs nothing else. Window titles
are not kept either (they can hold the player's name). Nothing leaves the machine.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import platform
import shutil
import tempfile
import threading
import time
import zipfile
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from assistant.capture import Rect
from assistant.errors import UserError

__all__ = [
    "DEFAULT_BUDGET_BYTES",
    "DEFAULT_SECONDS",
    "REPORT_FORMAT",
    "FlightRecorder",
    "FrameRecord",
    "Grab",
    "ReportSaveError",
    "Snapshot",
    "check_destination",
    "marks_json",
    "new_report_path",
    "report_bytes",
    "reports_dir",
    "save_report",
    "settings_in_use",
    "unpack",
]

log = logging.getLogger(__name__)

#: Seconds of the loop kept by default (the ``[report] seconds`` setting).
DEFAULT_SECONDS = 30.0
#: Memory the kept pixels may take: 30 s of 1080p tracked grabs at 10 fps fit, packed.
DEFAULT_BUDGET_BYTES = 150 * 2**20
#: Past this share of the budget, the oldest raw pixels are packed (PNG) by the background
#: thread: 30 s of 720p tracked grabs stay raw (no packing at all), 1080p ones are packed.
PACK_SHARE = 0.7
#: Records kept at most, whatever their times (a clock that stands still).
MAX_RECORDS = 60 * 60
#: What ``about.json`` says a report is, and the version of its layout.
REPORT_FORMAT = "toa-assistant report"
REPORT_VERSION = 1
#: How frames are packed: PNG at level 1 with run-length matching, the fastest setting
#: that still takes a grained frame to about 43% (ADR 74).
PNG_PARAMS = (cv2.IMWRITE_PNG_COMPRESSION, 1, cv2.IMWRITE_PNG_STRATEGY,
              cv2.IMWRITE_PNG_STRATEGY_RLE)


class ReportSaveError(UserError):
    """A report that could not be written (full disk, a folder that cannot be written)."""


@dataclass(eq=False)
class Grab:
    """One grab the loop made: where (physical screen pixels), when (the loop's clock),
    and its pixels (BGRA as grabbed, or PNG bytes once packed; None when it failed,
    ``error`` naming why, or when its pixels were dropped to stay within the budget)."""

    rect: Rect
    at: float | None
    pixels: np.ndarray | bytes | None
    error: str | None = None
    dropped: bool = False
    #: raw pixels PNG would not make smaller (noise): kept raw, counted as packed
    unpackable: bool = False

    @property
    def nbytes(self) -> int:
        if self.pixels is None:
            return 0
        return self.pixels.nbytes if isinstance(self.pixels, np.ndarray) else len(self.pixels)

    def png(self) -> bytes:
        """The pixels as PNG bytes (packed now when still raw)."""
        if isinstance(self.pixels, bytes):
            return self.pixels
        return _pack(self.pixels)

    @property
    def channels(self) -> int:
        """Channels of the pixels as grabbed (a PNG may hold fewer: see :func:`_pack`)."""
        if isinstance(self.pixels, np.ndarray):
            return self.pixels.shape[2] if self.pixels.ndim == 3 else 1
        return self._channels

    _channels: int = 4

    def image(self) -> np.ndarray:
        """The pixels as an array, as grabbed."""
        if isinstance(self.pixels, np.ndarray):
            return self.pixels
        return unpack(self.pixels, self._channels)


@dataclass(eq=False)
class FrameRecord:
    """One frame of the loop: what it was given (window, screen, grabs) and what it made
    of it (``observed``: the reading, its trace and the candidates; ``shown``: the state
    on screen and its marks), all plain JSON but the grabs."""

    grabs: list[Grab]
    window: tuple[Rect, bool] | None  # (rect, minimized) of the window read, None: none found
    unavailable: str | None  # the backend's reason nothing can be read here
    desktop: Rect | str | None  # the screen the grabs were clipped to, or the error's name
    scale: float | None
    observed: dict
    shown: dict
    kept_at: float = 0.0  # when, for keeping the last seconds (the first grab's time)

    @property
    def at(self) -> float | None:
        return self.grabs[0].at if self.grabs else None


@dataclass
class Snapshot:
    """The recorder's frames at one moment: what a report holds."""

    records: list[FrameRecord]
    from_start: bool  # the first record is the loop's first frame
    dropped: int  # grabs whose pixels were dropped to stay within the budget
    seconds: float
    loop: dict = field(default_factory=dict)
    profile: dict | None = None

    @property
    def frames(self) -> int:
        return len(self.records)

    @property
    def duration(self) -> float:
        times = [r.at for r in self.records if r.at is not None]
        return max(times) - min(times) if len(times) > 1 else 0.0

    def pictures(self) -> list[Grab]:
        """Every grab with pixels, in order."""
        return [g for r in self.records for g in r.grabs if g.pixels is not None]


class _TapClock:
    """The loop's clock, remembering the last time it gave (the next grab's time)."""

    def __init__(self, clock: Callable[[], float | None]) -> None:
        self.clock = clock
        self.last: float | None = None

    def __call__(self) -> float | None:
        self.last = self.clock()
        return self.last


class _TapGrabber:
    """The loop's grabber, telling the recorder of every grab (kept by reference)."""

    def __init__(self, grabber, recorder: FlightRecorder, clock: _TapClock) -> None:
        self.grabber = grabber
        self.recorder = recorder
        self.clock = clock

    def grab(self, rect: Rect) -> np.ndarray:
        try:
            frame = self.grabber.grab(rect)
        except Exception as error:
            self.recorder._grabbed(Grab(rect, self.clock.last, None, type(error).__name__))
            raise
        self.recorder._grabbed(Grab(rect, self.clock.last, _own(frame)))
        return frame

    def desktop(self) -> Rect:
        try:
            screen = self.grabber.desktop()
        except Exception as error:
            self.recorder._desktop = type(error).__name__
            raise
        self.recorder._desktop = screen
        return screen

    def close(self) -> None:
        self.grabber.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.grabber, name)


class FlightRecorder:
    """Keeps the last ``seconds`` of a live loop's frames within ``budget_bytes``.

    :meth:`attach` it to a loop (it starts afresh: a report is one run of one loop);
    the loop calls :meth:`frame_done` after every frame. :meth:`snapshot` (any thread)
    takes what is kept now; :func:`save_report` writes it. ``background``: pack in a
    thread of its own (False: on the loop's thread, for tests and measurements).
    ``display_scale`` is the game screen's device pixel ratio when the Qt shell knows it.
    """

    def __init__(self, seconds: float = DEFAULT_SECONDS,
                 budget_bytes: int = DEFAULT_BUDGET_BYTES, *, background: bool = True) -> None:
        if not seconds > 0:
            raise ValueError(f"seconds must be positive, not {seconds!r}")
        self.seconds = float(seconds)
        self.budget_bytes = int(budget_bytes)
        self.background = background
        self.display_scale: float | None = None
        self._lock = threading.Lock()
        self._records: deque[FrameRecord] = deque()
        self._raw: deque[Grab] = deque()  # grabs still raw, oldest first
        self._raw_bytes = 0
        self._packed_bytes = 0
        self._pending: list[Grab] = []  # this frame's grabs so far (the loop's thread)
        self._desktop: Rect | str | None = None
        self._evicted = 0
        self._dropped = 0
        #: grabs packed so far (the packing's work, for the benchmark)
        self.packed = 0
        self._clock: Callable[[], float | None] = time.monotonic
        self._loop_settings: dict = {}
        self._profile: dict | None = None
        self._wake = threading.Condition(self._lock)
        self._packer: threading.Thread | None = None
        self._closed = False

    # -- the loop's side -------------------------------------------------------------------
    def attach(self, loop) -> None:
        """Record ``loop`` from its next frame on (what was kept before is forgotten)."""
        from assistant.profile import profile_to_json

        clock = _TapClock(loop.clock)
        loop.clock = clock
        loop.grabber = _TapGrabber(loop.grabber, self, clock)
        loop.recorder = self
        self._clock = clock.clock
        reader = loop.reader
        self._loop_settings = {
            "objective": loop.objective,
            "stable_frames": loop.stabilizer.frames,
            "track": reader.track,
            "show_route": loop.show_route,
            "crossing_steps": loop.crossing_steps,
        }
        self._profile = profile_to_json(reader.profile)
        with self._lock:
            self._records.clear()
            self._raw.clear()
            self._raw_bytes = self._packed_bytes = 0
            self._evicted = self._dropped = 0
        self._pending = []

    def _grabbed(self, grab: Grab) -> None:
        self._pending.append(grab)

    def frame_done(self, loop, observed, shown) -> None:
        """The loop's hook, once per frame: keep its grabs and what it made of them. A
        failure here is logged and the frame left out: the loop must go on regardless."""
        grabs, self._pending = self._pending, []
        desktop, self._desktop = self._desktop, None
        try:
            self._keep(loop, observed, shown, grabs, desktop)
        except Exception:
            log.exception("the flight recorder could not keep a frame")

    def _keep(self, loop, observed, shown, grabs: list[Grab], desktop) -> None:
        window = loop.window
        record = FrameRecord(
            grabs,
            None if window is None or observed.kind == "unsupported"
            else (window.rect, bool(window.minimized)),
            observed.status if observed.kind == "unsupported" else None,
            desktop,
            self.display_scale,
            _observed_json(observed),
            _shown_json(shown),
        )
        record.kept_at = self._kept_at(record)
        with self._lock:
            self._records.append(record)
            for grab in grabs:
                if isinstance(grab.pixels, np.ndarray):
                    self._raw.append(grab)
                    self._raw_bytes += grab.nbytes
            self._evict(record.kept_at)
            self._within_budget()
            pack = self._over_pack_share()
            if pack and self.background:
                self._start_packer()
                self._wake.notify()
        if pack and not self.background:
            self._pack_some()
            with self._lock:
                self._within_budget()

    def _kept_at(self, record: FrameRecord) -> float:
        at = record.at
        if at is None:
            with contextlib.suppress(Exception):
                at = self._clock()
        if at is None:
            at = time.monotonic()
        return float(at)

    def _evict(self, now: float) -> None:
        """Forget records more than :attr:`seconds` older than ``now`` (lock held)."""
        records = self._records
        while records and (now - records[0].kept_at > self.seconds
                           or len(records) > MAX_RECORDS):
            old = records.popleft()
            self._evicted += 1
            for grab in old.grabs:
                self._forget_pixels(grab)

    def _forget_pixels(self, grab: Grab) -> None:
        if isinstance(grab.pixels, np.ndarray) and not grab.unpackable:
            self._raw_bytes -= grab.nbytes
            with contextlib.suppress(ValueError):
                self._raw.remove(grab)  # the oldest, nearly always: found at once
        else:
            self._packed_bytes -= grab.nbytes

    def _within_budget(self) -> None:
        """Drop the oldest pixels while over the budget (packing fell behind; lock held)."""
        for record in self._records:
            if self._raw_bytes + self._packed_bytes <= self.budget_bytes:
                return
            for grab in record.grabs:
                if grab.pixels is not None:
                    self._forget_pixels(grab)
                    grab.pixels, grab.dropped = None, True
                    self._dropped += 1

    # -- packing ---------------------------------------------------------------------------
    def _start_packer(self) -> None:
        if self._packer is None or not self._packer.is_alive():
            self._closed = False
            self._packer = threading.Thread(target=self._pack_forever, name="report-packer",
                                            daemon=True)
            self._packer.start()

    def _pack_forever(self) -> None:
        while True:
            with self._lock:
                while not self._closed and not self._over_pack_share():
                    self._wake.wait()
                if self._closed:
                    return
            self._pack_some()

    def _over_pack_share(self) -> bool:
        """(Lock held.) Raw pixels are left and all pixels take more than PACK_SHARE."""
        return bool(self._raw) and (self._raw_bytes + self._packed_bytes
                                    > PACK_SHARE * self.budget_bytes)

    def _pack_some(self) -> None:
        """Pack the oldest raw grabs until all pixels are within PACK_SHARE of the budget."""
        while True:
            with self._lock:
                if not self._over_pack_share():
                    return
                grab = self._raw[0]
                raw = grab.pixels
            packed = _pack(raw)  # outside the lock: the loop goes on meanwhile
            with self._lock:
                if self._raw and self._raw[0] is grab and grab.pixels is raw:
                    self._raw.popleft()
                    self._raw_bytes -= raw.nbytes
                    if len(packed) < raw.nbytes:
                        grab._channels = raw.shape[2] if raw.ndim == 3 else 1
                        grab.pixels = packed
                    else:
                        grab.unpackable = True
                    self._packed_bytes += grab.nbytes
                    self.packed += 1

    def close(self) -> None:
        """End the packing thread (kept frames stay until the recorder is dropped)."""
        with self._lock:
            self._closed = True
            self._wake.notify_all()
        if self._packer is not None:
            self._packer.join(timeout=2)

    # -- reading it ------------------------------------------------------------------------
    @property
    def nbytes(self) -> int:
        """Bytes of pixels kept now (raw and packed)."""
        with self._lock:
            return self._raw_bytes + self._packed_bytes

    def __len__(self) -> int:
        with self._lock:
            return len(self._records)

    def snapshot(self) -> Snapshot:
        """What is kept now, safe to save from another thread while the loop goes on
        (the grabs are copied, their pixels shared: they are never changed in place)."""
        with self._lock:
            records = [FrameRecord([_copy(g) for g in r.grabs], r.window, r.unavailable,
                                   r.desktop,
                                   r.scale, r.observed, r.shown, r.kept_at)
                       for r in self._records]
            return Snapshot(records, self._evicted == 0, self._dropped, self.seconds,
                            dict(self._loop_settings), self._profile)


def _own(frame: np.ndarray) -> np.ndarray:
    """``frame`` itself, or a copy when it is a small view into a larger buffer (a grab
    cut out of a whole picture): keeping the view would keep the whole buffer alive,
    beyond what the budget counts. An mss grab owns its buffer: kept as it is."""
    root = frame
    while isinstance(root.base, np.ndarray):
        root = root.base
    try:
        held = root.nbytes if root.base is None else memoryview(root.base).nbytes
    except TypeError:  # a buffer that does not say its size: taken as the frame's
        held = frame.nbytes
    return frame.copy() if held > frame.nbytes else frame


def _copy(grab: Grab) -> Grab:
    copy = Grab(grab.rect, grab.at, grab.pixels, grab.error, grab.dropped, grab.unpackable)
    copy._channels = grab._channels
    return copy


def _pack(pixels: np.ndarray) -> bytes:
    """PNG bytes of a grab. An opaque BGRA grab (every alpha 255, as screen grabs are) is
    packed without its alpha, about 40% faster and 15% smaller: :func:`unpack` with the
    grab's channel count puts it back, so the pixels come back exactly."""
    if pixels.ndim == 3 and pixels.shape[2] == 4 and bool((pixels[..., 3] == 255).all()):
        pixels = np.ascontiguousarray(pixels[..., :3])
    ok, data = cv2.imencode(".png", pixels, list(PNG_PARAMS))
    if not ok:
        raise ValueError("the frame could not be encoded as PNG")
    return data.tobytes()


def unpack(data: bytes, channels: int = 4) -> np.ndarray | None:
    """The pixels of PNG ``data`` packed from a grab of ``channels`` channels (None when
    the bytes are no picture)."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED) if data else None
    if image is not None and image.ndim == 3 and image.shape[2] == 3 and channels == 4:
        image = np.dstack([image, np.full(image.shape[:2], 255, np.uint8)])
    return image


def marks_json(marks) -> list[dict]:
    """Marks as the report keeps and compares them (rows and columns from 1, centres in
    physical screen pixels to a tenth)."""
    return [{"row": m.row + 1, "col": m.col + 1, "count": int(m.count),
             "certain": bool(m.certain),
             "x": round(float(m.centre[0]), 1), "y": round(float(m.centre[1]), 1)}
            for m in marks]


def _observed_json(state) -> dict:
    reading = state.reading
    record: dict = {"kind": state.kind, "status": state.status}
    if reading is not None:
        record["reading"] = reading.to_json()
        record["trace"] = [str(step) for step in reading.trace]
    record["candidates"] = [b.format() for b in state.candidates]
    record["board"] = None if state.board is None else state.board.format()
    return record


def _shown_json(state) -> dict:
    return {"kind": state.kind, "status": state.status,
            "board": None if state.board is None else state.board.format(),
            "marks": marks_json(state.marks)}


def _rect_json(rect: Rect) -> list[int]:
    return [int(rect.left), int(rect.top), int(rect.width), int(rect.height)]


# -- saving -------------------------------------------------------------------------------
def save_report(snapshot: Snapshot, destination: str | os.PathLike[str], *,
                note: str = "", about: dict | None = None) -> Path:
    """Write ``snapshot`` as a report folder (or a ``.zip`` when the name ends so),
    atomically: it is written beside the destination under a temporary name and renamed
    when complete, so a report is whole or absent. ``about`` adds the settings in use.
    Raises :class:`ReportSaveError` (one sentence) when it cannot be written."""
    dest = Path(destination).expanduser()
    if dest.exists() and not (dest.is_dir() and not any(dest.iterdir())):
        raise ReportSaveError(f"The report was not saved: {dest} already exists.")
    files = _report_files(snapshot, note, about or {})
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        if dest.suffix.lower() == ".zip":
            _write_zip(dest, files)
        else:
            _write_folder(dest, files)
    except OSError as error:
        raise ReportSaveError(f"The report was not saved to {dest}: "
                              f"{_os_reason(error)}.") from None
    return dest


def _report_files(snapshot: Snapshot, note: str, about: dict):
    """(name, bytes or a callable giving them) for every file of the report, in order."""
    lines = []
    pictures: list[tuple[str, Grab]] = []
    for number, record in enumerate(snapshot.records, start=1):
        grabs = []
        for index, grab in enumerate(record.grabs):
            entry: dict = {"rect": _rect_json(grab.rect), "time": grab.at}
            if grab.pixels is not None:
                name = f"frames/{number:05d}-{index}.png"
                pictures.append((name, grab))
                entry["file"] = name
                entry["channels"] = grab.channels
            elif grab.error is not None:
                entry["error"] = grab.error
            else:
                entry["dropped"] = True
            grabs.append(entry)
        desktop = record.desktop
        lines.append(json.dumps({
            "frame": number,
            "time": record.at,
            "file": next((g["file"] for g in grabs if "file" in g), None),
            "grabs": grabs,
            "window": None if record.window is None
            else {"rect": _rect_json(record.window[0]), "minimized": record.window[1]},
            "desktop": _rect_json(desktop) if isinstance(desktop, Rect)
            else (None if desktop is None else {"error": desktop}),
            "unavailable": record.unavailable,
            "scale": record.scale,
            "reading": record.observed,
            "marks": record.shown["marks"],
            "shown": record.shown,
        }))
    from assistant import __version__

    info = {
        "format": REPORT_FORMAT,
        "format_version": REPORT_VERSION,
        "version": __version__,
        "os": platform.platform(),
        "python": platform.python_version(),
        "saved": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "note": note.strip(),
        "frames": len(snapshot.records),
        "pictures": len(pictures),
        "seconds_kept": snapshot.seconds,
        "from_start": snapshot.from_start,
        "pixels_dropped": snapshot.dropped,
        "loop": snapshot.loop,
        "profile": snapshot.profile,
        **about,
    }
    yield "about.json", (json.dumps(info, indent=2) + "\n").encode()
    yield "session.jsonl", ("\n".join(lines) + "\n").encode() if lines else b""
    for name, grab in pictures:
        yield name, grab.png


def _write_folder(dest: Path, files) -> None:
    temp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".partial", dir=dest.parent))
    try:
        (temp / "frames").mkdir()
        for name, data in files:
            (temp / name).write_bytes(data() if callable(data) else data)
        if dest.is_dir():
            dest.rmdir()  # an empty folder named for the report (run --record DIR)
        os.replace(temp, dest)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise


def _write_zip(dest: Path, files) -> None:
    handle, temp_name = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".partial",
                                         dir=dest.parent)
    temp = Path(temp_name)
    try:
        with os.fdopen(handle, "wb") as raw, zipfile.ZipFile(raw, "w") as archive:
            for name, data in files:
                kind = zipfile.ZIP_STORED if name.endswith(".png") else zipfile.ZIP_DEFLATED
                archive.writestr(name, data() if callable(data) else data, compress_type=kind)
        os.replace(temp, dest)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def _os_reason(error: OSError) -> str:
    if error.errno == errno.ENOSPC:
        return "the disk is full"
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "the folder cannot be written to"
    return (error.strerror or str(error)).rstrip(".").lower()


#: When set, reports are saved in this folder by default (tests, portable installs).
REPORTS_DIR_ENV = "TOA_ASSISTANT_REPORTS_DIR"


def reports_dir() -> Path:
    """Where reports go unless the player picks another folder: ``$TOA_ASSISTANT_REPORTS_DIR``
    when set, else "toa-assistant reports" in the player's Documents folder (easy to
    find and to attach to a message; never beside the executable)."""
    override = os.environ.get(REPORTS_DIR_ENV, "").strip()
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_documents_dir()) / "toa-assistant reports"


def new_report_path(folder: Path | None = None) -> Path:
    """A new report's path in ``folder`` (default :func:`reports_dir`), named for now."""
    folder = reports_dir() if folder is None else Path(folder)
    stamp = time.strftime("%Y-%m-%d %H.%M.%S")
    path = folder / f"report {stamp}"
    number = 2
    while path.exists():
        path = folder / f"report {stamp} ({number})"
        number += 1
    return path


def check_destination(destination: str | os.PathLike[str]) -> Path:
    """Before a run that saves its report at the end (``run --record DIR``): the
    destination must be new (or an empty folder) in a folder that can be written, said
    in one sentence (:class:`ReportSaveError`) at the start, not after the session."""
    dest = Path(destination).expanduser()
    if dest.exists() and not (dest.is_dir() and not any(dest.iterdir())):
        raise ReportSaveError(f"{dest} already exists: give a new folder for the report.")
    parent = dest.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise ReportSaveError(f"The report cannot be saved in {dest.parent}: the folder "
                              "cannot be written to.")
    return dest


def settings_in_use(settings, profile=None, profile_path: str | None = None) -> dict:
    """What decides how the assistant reads, for ``about.json`` (no window titles: they
    can hold the player's name)."""
    from assistant.profile import profile_to_json

    return {"settings": {
        "fps": settings.fps, "objective": settings.toa_objective,
        "show_route": settings.show_route, "crossing_steps": settings.crossing_steps,
        "report_seconds": settings.report_seconds,
        "profile_file": None if profile_path is None else Path(profile_path).name,
        "profile": None if profile is None else profile_to_json(profile)}}


def report_bytes(snapshot: Snapshot) -> int:
    """About how many bytes the report of ``snapshot`` takes (its packed pictures; raw
    ones estimated at the share PNG typically keeps)."""
    total = 0
    for grab in snapshot.pictures():
        total += len(grab.pixels) if isinstance(grab.pixels, bytes) else grab.nbytes // 2
    return total

