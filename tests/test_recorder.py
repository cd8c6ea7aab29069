"""The flight recorder (assistant.recorder) and its reports (assistant.report): the last
seconds of the live loop by grab time, within a memory budget, through failing grabs;
a walk-through recorded, saved and replayed shows the same marks; bad reports and
unwritable folders are one sentence."""

from __future__ import annotations

import errno
import json
import shutil
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

from assistant.capture import Rect, WindowInfo
from assistant.live import LiveLoop
from assistant.puzzle import toa_board
from assistant.recorder import FlightRecorder, ReportSaveError, save_report
from assistant.report import open_report, replay_report
from assistant.sequence import PictureSequence
from lab.walkthrough import walk_through

START = toa_board("111/1#1/111").press(0, 0).press(2, 2).format()


class _Windows:
    name = "fake"

    def __init__(self, rect: Rect) -> None:
        self.rect = rect

    def unavailable(self):
        return None

    def windows(self):
        return [WindowInfo(1, "game", self.rect)]

    def update(self, window):
        return self.windows()[0]


class _Grabber:
    """Grey frames (nothing to read: cheap), failing on every ``fail_every``-th grab."""

    def __init__(self, fail_every: int = 0) -> None:
        self.fail_every = fail_every
        self.grabs = 0

    def grab(self, rect: Rect) -> np.ndarray:
        self.grabs += 1
        if self.fail_every and self.grabs % self.fail_every == 0:
            raise OSError("grab failed")
        value = 60 + self.grabs % 7
        return np.full((rect.height, rect.width, 4), value, np.uint8)

    def desktop(self) -> Rect:
        return Rect(0, 0, 1000, 800)

    def close(self) -> None:
        pass


class _Clock:
    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _loop(recorder: FlightRecorder, *, fail_every: int = 0, size=(80, 60), step=0.1):
    loop = LiveLoop(_Windows(Rect(10, 20, *size)), _Grabber(fail_every), "game",
                    clock=_Clock(step))
    recorder.attach(loop)
    return loop


def test_the_ring_keeps_exactly_the_last_seconds_by_grab_time():
    recorder = FlightRecorder(seconds=2.0, background=False)
    loop = _loop(recorder)
    for _ in range(50):  # 5 s at 10 fps
        loop.tick()
    times = [r.at for r in recorder.snapshot().records]
    newest = times[-1]
    assert newest == pytest.approx(5.0)
    assert all(newest - t <= 2.0 + 1e-9 for t in times)
    assert len(times) == 21  # 3.0 .. 5.0 inclusive: nothing older, nothing missing
    assert times == sorted(times)
    assert not recorder.snapshot().from_start


def test_memory_stays_within_the_budget_packing_then_dropping():
    frame_bytes = 200 * 150 * 4
    recorder = FlightRecorder(seconds=100.0, budget_bytes=10 * frame_bytes, background=False)
    loop = _loop(recorder, size=(200, 150))
    for _ in range(40):
        loop.tick()
        assert recorder.nbytes <= recorder.budget_bytes
    snapshot = recorder.snapshot()
    assert len(snapshot.records) == 40 and snapshot.dropped == 0  # packed, none dropped
    assert any(isinstance(g.pixels, bytes) for g in snapshot.pictures())
    # a budget even packing cannot meet: the oldest pixels go, the records stay
    tight = FlightRecorder(seconds=100.0, budget_bytes=3 * frame_bytes, background=False)
    loop = _loop(tight, size=(200, 150))
    noisy = np.random.default_rng(0).integers(0, 255, (150, 200, 4), np.uint8)
    loop.grabber.grabber.grab = lambda rect: noisy.copy()  # does not pack small
    for _ in range(20):
        loop.tick()
        assert tight.nbytes <= tight.budget_bytes
    snapshot = tight.snapshot()
    assert len(snapshot.records) == 20 and snapshot.dropped > 0
    assert snapshot.records[-1].grabs[0].pixels is not None
    assert snapshot.records[0].grabs[0].dropped


def test_packing_in_the_background_keeps_the_pixels(tmp_path):
    frame_bytes = 200 * 150 * 4
    recorder = FlightRecorder(seconds=100.0, budget_bytes=8 * frame_bytes)
    loop = _loop(recorder, size=(200, 150))
    grabbed = []
    inner = loop.grabber.grabber.grab
    loop.grabber.grabber.grab = lambda rect: grabbed.append(inner(rect)) or grabbed[-1]
    for _ in range(30):
        loop.tick()
        _wait_until(lambda: recorder.nbytes <= 0.7 * recorder.budget_bytes)  # ~10 fps
    recorder.close()
    snapshot = recorder.snapshot()
    pictures = snapshot.pictures()
    assert len(pictures) == 30 and snapshot.dropped == 0
    for grab, original in zip(pictures, grabbed, strict=True):
        assert np.array_equal(grab.image(), original)


def _wait_until(done, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        time.sleep(0.005)


def test_failing_grabs_are_kept_and_replay_as_failures(tmp_path):
    recorder = FlightRecorder(seconds=100.0, background=False)
    loop = _loop(recorder, fail_every=3)
    for _ in range(12):
        loop.tick()
    snapshot = recorder.snapshot()
    assert [r.observed["kind"] for r in snapshot.records].count("error") == 4
    snapshot = recorder.snapshot()
    assert len(snapshot.records) == 12
    failed = [r.grabs[0] for r in snapshot.records if r.grabs[0].error is not None]
    assert len(failed) == 4 and all(g.pixels is None for g in failed)
    report = open_report(save_report(snapshot, tmp_path / "report"))
    assert all(frame.same for frame in replay_report(report))


@pytest.fixture(scope="module")
def walk():
    return walk_through(START, 4, source="synthetic", pitch_range=(10, 35), teammates=0,
                        camera_events=False, capture_effects=False, approach_frame=True,
                        jpeg=False)


def _record(frames) -> FlightRecorder:
    sequence = PictureSequence()
    recorder = FlightRecorder(background=False)
    recorder.attach(sequence.loop)
    for frame in frames:
        sequence.feed(frame.scene.frame, frame.time)
    return recorder


@pytest.mark.parametrize("name", ["report", "report.zip"])
def test_a_walk_through_recorded_saved_and_replayed_shows_the_same_marks(walk, tmp_path, name):
    recorder = _record(walk)
    dest = save_report(recorder.snapshot(), tmp_path / name, note="  overlay was late ",
                       about={"settings": {"fps": 10}})
    report = open_report(dest)
    assert report.about["note"] == "overlay was late" and report.about["from_start"]
    assert report.about["settings"] == {"fps": 10} and report.about["frames"] == len(walk)
    replays = list(replay_report(report))
    assert len(replays) == len(walk)
    assert sum(bool(frame.recorded) for frame in replays) >= 5  # marks were shown
    assert [f.recorded for f in replays] == [f.replayed for f in replays]
    record = report.frames[4]
    assert {"file", "time", "window", "scale", "reading", "marks"} <= record.keys()
    assert record["reading"]["reading"]["found"]
    assert any(frame["reading"].get("trace") for frame in report.frames)  # where read afresh
    assert not list(tmp_path.glob(".*partial"))  # written beside, then renamed


def test_the_replay_tells_frames_that_differ(walk, tmp_path, cli):
    dest = save_report(_record(walk).snapshot(), tmp_path / "report")
    code, out, err = cli("detect", "--sequence", str(dest), "--diff")
    assert (code, err) == (0, "") and out == f"0 of {len(walk)} frames differ.\n"
    session = dest / "session.jsonl"
    lines = session.read_text().splitlines()
    changed = json.loads(lines[5])
    assert changed["marks"]  # a frame with marks: say it showed none
    changed["marks"] = []
    lines[5] = json.dumps(changed)
    session.write_text("\n".join(lines) + "\n")
    code, out, err = cli("detect", "--sequence", str(dest), "--diff")
    assert code == 1 and err == ""
    assert out.splitlines()[0].startswith("frame 6 ") and "DIFFERS" in out
    assert out.splitlines()[-1] == f"1 of {len(walk)} frames differ."
    code, out, _ = cli("detect", "--sequence", str(dest), "--json")
    assert code == 1 and len(out.splitlines()) == len(walk)
    assert [json.loads(line)["same"] for line in out.splitlines()].count(False) == 1


def _one_sentence(err: str) -> str:
    line = err.strip()
    assert "\n" not in line and "Traceback" not in line
    return line


def test_a_truncated_or_foreign_report_is_one_sentence(walk, tmp_path, cli):
    dest = save_report(_record(walk[:6]).snapshot(), tmp_path / "report")
    cut = Path(shutil.copytree(dest, tmp_path / "cut"))
    text = (dest / "session.jsonl").read_text()
    (cut / "session.jsonl").write_text(text[: len(text) // 2])
    code, _out, err = cli("detect", "--sequence", str(cut))
    assert code == 2 and "damaged" in _one_sentence(err)
    # a picture missing
    missing = tmp_path / "missing"
    missing.mkdir()
    for part in ("about.json", "session.jsonl"):
        (missing / part).write_bytes((dest / part).read_bytes())
    code, _out, err = cli("detect", "--sequence", str(missing))
    assert code == 2 and "incomplete" in _one_sentence(err)
    # a zip cut short
    packed = save_report(_record(walk[:3]).snapshot(), tmp_path / "r.zip")
    short = tmp_path / "short.zip"
    short.write_bytes(packed.read_bytes()[: packed.stat().st_size // 2])
    code, _out, err = cli("detect", "--sequence", str(short))
    assert code == 2 and _one_sentence(err)
    # a foreign folder, a foreign zip, a foreign about.json
    foreign = tmp_path / "photos"
    foreign.mkdir()
    (foreign / "a.png").write_bytes(b"png")
    code, _out, err = cli("detect", "--sequence", str(foreign))
    assert code == 2 and "not a report" in _one_sentence(err)
    with zipfile.ZipFile(tmp_path / "other.zip", "w") as archive:
        archive.writestr("readme.txt", "hello")
    code, _out, err = cli("detect", "--sequence", str(tmp_path / "other.zip"))
    assert code == 2 and "not a report" in _one_sentence(err)
    (foreign / "about.json").write_text('{"format": "something else"}')
    (foreign / "session.jsonl").write_text("")
    code, _out, err = cli("detect", "--sequence", str(foreign))
    assert code == 2 and "not a report" in _one_sentence(err)
    code, _out, err = cli("detect", "--sequence", str(tmp_path / "nowhere"))
    assert code == 2 and _one_sentence(err)


def test_a_full_disk_or_unwritable_folder_is_one_sentence_and_leaves_nothing(
        walk, tmp_path, monkeypatch):
    snapshot = _record(walk[:3]).snapshot()
    real_write = Path.write_bytes
    written = []

    def full(self, data):
        if self.suffix == ".png" and written:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(self)
        return real_write(self, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    with pytest.raises(ReportSaveError, match=r"^The report was not saved to .*: the disk is "
                                              r"full\.$"):
        save_report(snapshot, tmp_path / "report")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []  # no half report, no temporary folder

    def refused(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr("tempfile.mkdtemp", refused)
    with pytest.raises(ReportSaveError, match=r"^The report was not saved to .*: the folder "
                                              r"cannot be written to\.$"):
        save_report(snapshot, tmp_path / "elsewhere")
    monkeypatch.undo()
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    with pytest.raises(ReportSaveError, match="already exists"):
        save_report(snapshot, tmp_path / "taken")  # a folder with something in it
    assert (tmp_path / "taken" / "notes.txt").read_text() == "mine"
    (tmp_path / "empty").mkdir()
    assert open_report(save_report(snapshot, tmp_path / "empty")).about["frames"] == 3


def test_a_failing_recorder_never_stops_the_loop(monkeypatch, caplog):
    recorder = FlightRecorder(seconds=100.0, background=False)
    loop = _loop(recorder)
    loop.tick()

    def broken(state):
        raise RuntimeError("a bug in the recorder")

    monkeypatch.setattr("assistant.recorder._observed_json", broken)
    kinds = [loop.tick().kind for _ in range(3)]
    assert len(kinds) == 3 and len(recorder) == 1  # the loop went on; those frames left out
    assert "could not keep a frame" in caplog.text
    monkeypatch.undo()
    loop.tick()
    assert len(recorder) == 2
