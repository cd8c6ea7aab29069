"""``toa-assistant detect``: pictures in, one JSON object per picture out."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from conftest import shared_file

from assistant.cli import main
from assistant.profile import save_profile, toa_default_profile
from lab.scene import SceneParams, render_scene


@pytest.fixture
def pictures(tmp_path):
    scene = render_scene(SceneParams(seed=3, board="010/1#1/010"))
    room = tmp_path / "room.png"
    cv2.imwrite(str(room), scene.frame)
    jpeg = tmp_path / "room.jpg"
    cv2.imwrite(str(jpeg), scene.frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
    bmp = tmp_path / "empty.bmp"
    cv2.imwrite(str(bmp), np.full((200, 300, 3), 50, np.uint8))
    return scene, room, jpeg, bmp


def _records(capsys) -> list[dict]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_json_lines_in_order_with_the_answer(pictures, capsys):
    _scene, room, jpeg, bmp = pictures
    assert main(["detect", "--json", str(room), str(bmp), str(jpeg)]) == 1  # bmp: no answer
    records = _records(capsys)
    assert [r["image"] for r in records] == [str(room), str(bmp), str(jpeg)]
    first, empty, third = records
    for record in (first, third):
        assert record["found"] and not record["abstain"] and record["reason"] is None
        assert record["board"] == "010/1#1/010"
        assert record["solution"]["presses"] == "101/0#0/101"
        assert len(record["tiles"]) == 8 and len(record["corners"]) == 4
        assert {"row", "col", "lit", "confidence"} <= set(record["tiles"][0])
        assert record["tiles"][0]["row"] == 1 and record["tiles"][0]["col"] == 1
    assert empty["abstain"] and not empty["found"]
    assert empty["reason"] == "Puzzle not in view."
    assert empty["board"] is None and empty["solution"] is None
    for key in ("found", "abstain", "reason", "board", "tiles", "corners", "solution"):
        assert key in empty


def test_profile_objective_and_corners(pictures, tmp_path, capsys):
    scene, room, _jpeg, _bmp = pictures
    profile = toa_default_profile().with_corners(scene.corners)
    data = json.loads(json.dumps({}))
    del data
    path = tmp_path / "room-profile.json"
    save_profile(profile, path)
    assert main(["detect", "--json", "--profile", str(path), str(room)]) == 0
    (record,) = _records(capsys)
    assert record["mode"] == "calibrated"
    assert np.allclose(record["corners"], scene.corners, atol=0.1)
    text = path.read_text("utf-8").replace('"objective": 1', '"objective": 0')
    path.write_text(text, "utf-8")
    assert main(["detect", "--json", "--profile", str(path), str(room)]) == 0
    (record,) = _records(capsys)
    assert record["solution"]["objective"] == 0  # all dark: the complement of the all-lit answer
    assert record["solution"]["presses"] == "010/1#1/010"


def test_plain_text_output(pictures, capsys):
    _scene, room, _jpeg, bmp = pictures
    assert main(["detect", str(room), str(bmp)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("board 010/1#1/010 (confidence 1.00); step on 101/0#0/101")
    assert out[1].endswith("no answer: Puzzle not in view.")


@pytest.mark.parametrize("kind", ["missing", "not-an-image", "wrong-suffix"])
def test_unreadable_pictures_are_one_sentence_and_exit_2(tmp_path, capsys, kind):
    path = tmp_path / ("picture.png" if kind != "wrong-suffix" else "picture.gif")
    if kind != "missing":
        path.write_text("this is not a picture", "utf-8")
    assert main(["detect", "--json", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("toa-assistant: The picture")
    assert lines[0].endswith(".") and "Traceback" not in captured.err


def test_bad_profile_is_one_sentence(pictures, tmp_path, capsys):
    _scene, room, _jpeg, _bmp = pictures
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1}', "utf-8")
    assert main(["detect", "--profile", str(bad), str(room)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and '"grid"' in err


def test_the_real_screenshot(capsys):
    path = shared_file("toa", "room_topdown.png")
    assert main(["detect", "--json", str(path)]) == 0
    (record,) = _records(capsys)
    assert record["board"] == "111/0#0/110"
    assert record["solution"]["presses"] == "110/0#1/000"


def test_no_answer_is_exit_1_and_good_pictures_are_reported_before_bad_ones(
    pictures, tmp_path, capsys
):
    _scene, room, _jpeg, bmp = pictures
    profile = tmp_path / "good.json"
    save_profile(toa_default_profile(), profile)
    assert main(["detect", "--profile", str(profile), str(bmp)]) == 1  # was: exit 0
    assert "no answer" in capsys.readouterr().out
    fake = tmp_path / "fake.png"
    fake.write_text("not a picture", "utf-8")
    assert main(["detect", "--json", str(room), str(fake), str(fake)]) == 2
    captured = capsys.readouterr()
    (record,) = _records_of(captured.out)  # was: nothing printed for the good picture
    assert record["board"] == "010/1#1/010"
    assert captured.err.count("\n") == 1 and "1 more picture could not" in captured.err
    assert main(["detect", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err


def _records_of(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def test_trace_says_which_stage_placed_and_answered(pictures, tmp_path, capsys):
    """``--trace`` prints the reader's notes under each picture: the stage that placed the
    grid (located, or the profile's corners, or nothing found) and the answer."""
    scene, room, _jpeg, bmp = pictures
    assert main(["detect", "--trace", str(room), str(bmp)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("board 010/1#1/010 (confidence 1.00); step on 101/0#0/101")
    second = next(i for i, line in enumerate(out) if not line.startswith("  ") and i)
    first, other = out[1:second], out[second + 1:]
    # the ring search's notes (candidates and the rule that took one), then the reader's
    assert first[0].startswith("  locate: ")
    assert any(line.startswith("  locate: answer: one ring taken") for line in first)
    placing = [line for line in first if line.startswith("  placing: ")]
    assert len(placing) == 1
    assert placing[0].startswith("  placing: ring located on 8 diamonds, fit error ")
    assert first[-1] == "  answer: board 010/1#1/010"
    assert out[second].endswith("no answer: Puzzle not in view.")
    assert all(line.startswith("  locate: ") for line in other[:-2])
    assert other[-2:] == ["  placing: no ring found",
                          "  answer: abstained: Puzzle not in view."]
    path = tmp_path / "room-profile.json"
    save_profile(toa_default_profile().with_corners(scene.corners), path)
    assert main(["detect", "--json", "--trace", "--profile", str(path), str(room)]) == 0
    (record,) = _records(capsys)
    assert record["trace"] == ["placing: placed by the profile's corners",
                               "answer: board 010/1#1/010"]
