"""``detect`` on pictures of a walk-through: one picture reports the plate the player stands
on as hidden (never guessed); ``--sequence`` runs the live loop over the frames and fills
it in from the frames before when it knows when they were taken (``--times mtime``,
``--interval``). Without times it assumes nothing about the time between two pictures
(any steps may lie between them): a hidden plate stays undecided, never guessed."""

from __future__ import annotations

import json
import os

import cv2
import numpy as np
import pytest
from walks import walk_through

from assistant.puzzle import TOA_PLATES, toa_board
from assistant.solver import solve

START = toa_board("111/1#1/111").press(0, 0).press(2, 2).format()


#: When the session's first frame was saved (seconds since 1970): the files' times count
#: from it, as a screenshot tool saving each frame as it grabs it leaves them.
SAVED_FROM = 1_700_000_000.0


@pytest.fixture(scope="module")
def walk(tmp_path_factory):
    """A short session (two steps) seen from a moderate camera, a live loop's frame before
    each step seen, and its frames as files modified when each frame was grabbed."""
    frames = walk_through(START, 4, source="synthetic", pitch_range=(10, 35), teammates=0,
                          camera_events=False, capture_effects=False, approach_frame=True)
    folder = tmp_path_factory.mktemp("walk")
    names = []
    for index, frame in enumerate(frames):
        name = folder / f"frame{index:02}.png"
        cv2.imwrite(str(name), frame.scene.frame)
        os.utime(name, (SAVED_FROM + frame.time, SAVED_FROM + frame.time))
        names.append(str(name))
    return frames, names


def steps(frame) -> list[int]:
    """The plates (room order) the answer steps on."""
    presses = solve(toa_board(frame.room_board)).presses
    return [i for i, (r, c) in enumerate(TOA_PLATES) if presses[r, c]]


def _plate_of(mark: dict, frame) -> int:
    d = np.hypot(*(frame.scene.plate_centres - (mark["x"], mark["y"])).T)
    assert d.min() < 10
    return int(np.argmin(d))


def _marked(mark: dict, frame) -> bool:
    return _plate_of(mark, frame) in steps(frame)


def records(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def test_one_picture_with_the_player_on_a_plate_reports_it_hidden(cli, walk):
    frames, names = walk
    stand = next(i for i, f in enumerate(frames) if f.event == "stepped")
    code, out, err = cli("detect", "--json", names[stand])
    (record,) = records(out)
    assert code == 1 and err == ""  # no answer from one picture: the plate is not guessed
    assert record["abstain"] is False
    assert len(record["hidden"]) == 1 and record["board"].count("?") == 1
    assert record["solution"] is None
    r, c = record["hidden"][0]
    assert record["board"].split("/")[r - 1][c - 1] == "?"
    code, out, _ = cli("detect", names[stand])
    assert f"row {r}, column {c} is hidden" in out and "if lit: step on" in out


def test_a_sequence_fills_in_the_plate_the_player_stands_on(cli, walk):
    frames, names = walk
    code, out, err = cli("detect", "--sequence", "--times", "mtime", "--json", *names)
    assert code == 0 and err == ""
    results = records(out)
    assert [r["frame"] for r in results] == list(range(1, len(frames) + 1))
    inferred = 0
    for index, (frame, record) in enumerate(zip(frames, results, strict=True)):
        if record["held"]:
            # the stabiliser shows a change one frame later, by design: never two
            assert not results[index - 1]["held"]
            continue
        if record["kind"] == "uncertain":
            # the player near the entrance hides the nearest plate at a low camera: only
            # marks every possibility agrees on are certain
            assert all(m["certain"] is False or _marked(m, frame) for m in record["marks"])
            continue
        assert record["kind"] in ("steps", "solved")
        assert "?" not in record["board"] and record["abstain"] is False
        # the marks sit exactly on the plates the answer steps on (compared on screen, so
        # no labelling convention is assumed)
        assert sorted(_plate_of(m, frame) for m in record["marks"]) == sorted(steps(frame))
        if frame.player_plate is not None:
            unread = sorted(record["hidden"] + record["unclear"])
            assert unread and sorted(record["inferred"]) == unread
            inferred += 1
    assert inferred >= 3
    assert results[-1]["kind"] == "solved" and results[-1]["marks"] == []


def test_plain_sequence_output_says_what_was_told_by_earlier_frames(cli, walk):
    _frames, names = walk
    code, out, _ = cli("detect", "--sequence", "--times", "mtime", *names)
    assert code == 0
    assert "told by the frames before" in out
    assert out.splitlines()[-1].endswith("all lit")


def test_a_single_picture_is_no_sequence(cli, walk):
    _frames, names = walk
    code, out, err = cli("detect", "--sequence", names[0])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "at least two pictures" in err


@pytest.mark.parametrize("interval", ["0", "-1", "nan"])
def test_an_interval_that_is_no_time_is_one_sentence(cli, walk, interval):
    _frames, names = walk
    code, out, err = cli("detect", "--sequence", "--interval", interval, names[0], names[1])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "--interval" in err


def test_without_times_a_hidden_plate_is_never_told_by_the_frames_before(cli, walk):
    """Pictures whose times are not known may have any number of steps between them: the
    plate under the player stays undecided (only the marks every board agrees on), and
    no frame marks a plate that should not be stepped on."""
    frames, names = walk
    _code, out, err = cli("detect", "--sequence", "--json", *names)
    assert err == ""
    results = records(out)
    standing = 0
    for frame, record in zip(frames, results, strict=True):
        if frame.player_plate is not None and not record["held"]:
            assert record["kind"] == "uncertain" and record["inferred"] == []
            standing += 1
        assert all(_marked(m, frame) for m in record["marks"] if m["certain"])
    assert standing >= 3


def test_pictures_only_while_the_player_stands_on_a_plate_are_never_wrong(cli, walk):
    """One or a few pictures per step, none while walking (as a player saving a
    screenshot on each plate), their times known or not: no frame is wrong."""
    frames, names = walk
    kept = [i for i, f in enumerate(frames) if f.event != "walking"]
    for timing in ((), ("--times", "mtime")):
        _code, out, err = cli("detect", "--sequence", *timing, "--json",
                             *(names[i] for i in kept))
        assert err == ""
        for index, record in zip(kept, records(out), strict=True):
            frame = frames[index]
            if record["kind"] == "solved":
                assert steps(frame) == []
                continue
            certain = [_plate_of(m, frame) for m in record["marks"] if m["certain"]]
            assert set(certain) <= set(steps(frame))
            if record["kind"] == "steps":
                assert sorted(certain) == sorted(steps(frame))


def test_pictures_out_of_order_by_their_times_are_one_sentence(cli, walk):
    _frames, names = walk
    code, out, err = cli("detect", "--sequence", "--times", "mtime", "--json", names[2],
                         names[1])
    assert code == 2 and len(records(out)) == 1
    assert err.count("\n") == 1 and "Frame 2" in err and "modified before" in err
    code, out, err = cli("detect", "--sequence", "--times", "mtime", "--interval", "0.1",
                         names[0], names[1])
    assert code == 2 and out == "" and "not allowed with" in err


def test_the_pictures_are_frames_the_interval_apart_on_the_loop_clock(walk):
    """The history bounds the steps between readings by the time between them: the
    sequence's clock runs one interval per picture; pictures given their own times keep
    them (a pause in between counted); without either, no time is known."""
    from assistant.sequence import PictureSequence, SequenceError

    frames, _names = walk
    assert PictureSequence().feed(frames[0].scene.frame) is not None
    unknown = PictureSequence()
    unknown.feed(frames[0].scene.frame)
    assert unknown.loop.clock() is None
    timed = PictureSequence()
    for frame in frames[:3]:
        timed.feed(frame.scene.frame, 100.0 + frame.time)
    assert timed.loop.clock() == pytest.approx(frames[2].time)
    timed.pause(300)
    timed.feed(frames[3].scene.frame, 7.0)  # times after a pause count from it
    assert timed.loop.clock() == pytest.approx(frames[2].time + 300)
    timed.feed(frames[4].scene.frame, 7.5)
    assert timed.loop.clock() == pytest.approx(frames[2].time + 300.5)
    with pytest.raises(SequenceError):
        timed.feed(frames[5].scene.frame, 7.4)
    sequence = PictureSequence(interval=0.5)
    for frame in frames[:3]:
        sequence.feed(frame.scene.frame)
    assert sequence.loop.clock() == pytest.approx(1.0)
    sequence.pause(300)  # minutes elsewhere in the raid: the next picture comes that late
    sequence.feed(frames[3].scene.frame)
    assert sequence.loop.clock() == pytest.approx(301.5)
    with pytest.raises(SequenceError):
        PictureSequence(interval=0)
    with pytest.raises(SequenceError):
        sequence.pause(-1)


def test_pictures_of_another_size_stop_the_sequence_after_the_frames_before(cli, walk,
                                                                           tmp_path):
    _frames, names = walk
    other = tmp_path / "small.png"
    cv2.imwrite(str(other), np.zeros((100, 120, 3), np.uint8))
    code, out, err = cli("detect", "--sequence", "--json", names[0], names[1], str(other),
                         names[2])
    assert code == 2
    assert len(records(out)) == 2
    assert err.count("\n") == 1 and "Frame 3 is 120x100" in err and "same size" in err


def test_an_unreadable_picture_in_the_middle_stops_after_the_frames_before(cli, walk,
                                                                         tmp_path):
    _frames, names = walk
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not a picture")
    code, out, err = cli("detect", "--sequence", names[0], names[1], str(broken), names[2])
    assert code == 2
    assert len(out.splitlines()) == 2
    assert err.count("\n") == 1 and "Frame 3: The picture" in err and "could not be decoded" in err
