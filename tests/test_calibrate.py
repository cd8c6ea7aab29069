"""Calibration without the window: profiles from rendered rooms and synthetic grids."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.calibrate import CalibrationError, build_profile, parse_corners, parse_holes
from assistant.profile import GridSpec, load_profile
from assistant.vision.reader import read_frame
from lab.scene import SceneParams, render_scene, screen_board


@pytest.fixture
def room(tmp_path: Path):
    scene = render_scene(
        SceneParams(
            seed=11,
            board="100/1#0/011",
            frame_size=(900, 640),
            centre=(420, 300),
            spacing=66.0,
            rotation_deg=7.0,
        )
    )
    path = tmp_path / "room.png"
    cv2.imwrite(str(path), scene.frame)
    return scene, path


def test_auto_calibration_saves_corners_that_read_the_room(room, tmp_path, cli) -> None:
    scene, image = room
    out = tmp_path / "toa.json"
    code, text, err = cli("calibrate", "--image", str(image), "--auto", "--out", str(out))
    assert code == 0, err
    assert f"reads {screen_board(scene)}" in text
    profile = load_profile(out)
    assert profile.corners is not None and profile.grid.is_toa_ring
    assert read_frame(scene.frame, profile).board.format() == screen_board(scene)
    assert json.loads(out.read_text())["capture"]["window_title"] == "RuneLite|Old School RuneScape"


def test_clicked_corners_calibrate_the_room(room, tmp_path, cli) -> None:
    scene, image = room
    corners = ",".join(f"{v:.1f}" for v in scene.corners.ravel())
    out = tmp_path / "clicked.json"
    code, _, _ = cli("calibrate", "--image", str(image), "--corners", corners, "--out", str(out))
    assert code == 0
    assert read_frame(scene.frame, load_profile(out)).board is not None


def synthetic_grid(rows: int, cols: int, lit: np.ndarray, cell: int = 40) -> np.ndarray:
    """A browser-game-like grid: yellow lit cells, dark red unlit ones, on grey."""
    frame = np.full((rows * cell + 60, cols * cell + 80, 3), 90, np.uint8)
    for r in range(rows):
        for c in range(cols):
            colour = (66, 212, 245) if lit[r, c] else (30, 30, 120)  # BGR
            y, x = 30 + r * cell, 40 + c * cell
            frame[y + 3 : y + cell - 3, x + 3 : x + cell - 3] = colour
    return frame


def test_generic_grid_with_sampled_looks(tmp_path, cli) -> None:
    rows, cols = 4, 5
    lit = np.random.default_rng(2).integers(0, 2, (rows, cols))
    frame = synthetic_grid(rows, cols, lit)
    image = tmp_path / "grid.png"
    cv2.imwrite(str(image), frame)
    centre = lambda r, c: (40 + c * 40 + 20, 30 + r * 40 + 20)  # noqa: E731
    corners = [centre(0, 0), centre(0, cols - 1), centre(rows - 1, cols - 1), centre(rows - 1, 0)]
    out = tmp_path / "grid.json"
    code, _, err = cli(
        "calibrate",
        "--image",
        str(image),
        "--grid",
        "4x5",
        "--holes",
        "2,3",
        "--corners",
        ",".join(f"{x},{y}" for x, y in corners),
        "--on-color",
        "#F5D442",
        "--off-color",
        "#781E1E",
        "--window",
        "Lights Out",
        "--out",
        str(out),
    )
    assert code == 0, err
    profile = load_profile(out)
    assert profile.grid == GridSpec(4, 5, ((1, 2),), 2, 1)
    assert profile.appearance.on == (0xF5, 0xD4, 0x42)
    reading = read_frame(frame, profile)
    expected = lit.copy()
    assert reading.board is not None
    got = reading.board.states
    present = reading.board.present
    assert np.array_equal(got[present], expected[present])


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["--auto", "--grid", "4x4"], "Auto-locate finds the ToA plates only"),
        (["--corners", "1,2,3"], "eight numbers"),
        (["--corners", "0,0,10,0,10,10", "--grid", "3x3"], "eight numbers"),
        (["--corners", "0,0,10,0,20,0,30,0"], "do not make a grid"),
        (["--auto", "--grid", "3x"], "ROWSxCOLUMNS"),
        (["--auto", "--holes", "1,1"], "add --grid"),
        (
            ["--corners", "0,0,9,0,9,9,0,9", "--grid", "3x3", "--holes", "4,1"],
            "outside the 3x3 grid",
        ),
        (["--auto", "--on-color", "#FFFFFF"], "both the on and the off colour"),
        (["--auto", "--on-color", "yellow", "--off-color", "#000000"], "like '#F5D442'"),
    ],
)
def test_bad_calibration_input(room, tmp_path, cli, args, fragment) -> None:
    _, image = room
    code, _, err = cli("calibrate", "--image", str(image), *args, "--out", str(tmp_path / "x.json"))
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1


def test_unreadable_image_and_no_puzzle(tmp_path, cli) -> None:
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"no")
    code, _, err = cli("calibrate", "--image", str(bad), "--auto", "--out", "x.json")
    assert code == 2 and "could not be decoded as an image" in err
    missing = str(tmp_path / "nope.png")
    code, _, err = cli("calibrate", "--image", missing, "--auto", "--out", "x.json")
    assert code == 2 and "does not exist" in err  # the sentence detect says (issue 67)
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), np.full((400, 400, 3), 80, np.uint8))
    code, _, err = cli("calibrate", "--image", str(empty), "--auto", "--out", "x.json")
    assert code == 2 and "found no puzzle" in err


def test_parsers() -> None:
    assert parse_corners("1, 2, 3, 4 5 6 7 8") == ((1, 2), (3, 4), (5, 6), (7, 8))
    assert parse_holes("2,3; 1,1", 3, 3) == ((0, 0), (1, 2))
    with pytest.raises(CalibrationError):
        build_profile(np.zeros((50, 50, 3), np.uint8), corners=None, grid=GridSpec(2, 2))


def test_corners_whose_cells_leave_the_picture_are_refused_not_saved(tmp_path, cli) -> None:
    """Issue 12: a 330x331 picture, corners 5 px from its edge: the profile used to be
    saved (exit 0) with 'cell ... is outside the picture' about a cell inside it."""
    image = tmp_path / "small.png"
    cv2.imwrite(str(image), np.full((331, 330, 3), 60, np.uint8))
    out = tmp_path / "p.json"
    code, _, err = cli(
        "calibrate", "--image", str(image), "--grid", "3x3",
        "--corners", "5,5,320,5,320,325,5,325", "--out", str(out),
    )  # fmt: skip
    assert code == 2 and not out.exists()
    assert "row 1, column 1 (centre 5,5) is too close to the edge of the 330x331" in err


def test_out_in_a_missing_folder_is_refused_like_solve(tmp_path, cli) -> None:
    image = tmp_path / "small.png"
    cv2.imwrite(str(image), np.full((331, 330, 3), 60, np.uint8))
    out = tmp_path / "missing" / "p.json"
    code, _, err = cli("calibrate", "--image", str(image), "--auto", "--out", str(out))
    assert code == 2 and "does not exist" in err and not out.parent.exists()


def test_holes_in_the_one_format(tmp_path) -> None:
    assert parse_holes(["2,3", "1,1"], 3, 3) == ((0, 0), (1, 2))
    assert parse_holes("2,3 1,1", 3, 3) == ((0, 0), (1, 2))
    with pytest.raises(CalibrationError, match="row,column pair"):
        parse_holes("2-3", 3, 3)


def test_negative_corners_are_values_not_options(room, tmp_path, cli) -> None:
    """Issue 67: ``--corners -100,...`` said "expected one argument" where
    ``--corners=-100,...`` worked; corners left of or above the picture are refused for
    what they are."""
    _, image = room
    corners = "-100,-100,300,-100,300,300,-100,300"
    for args in (["--corners", corners], [f"--corners={corners}"]):
        out = str(tmp_path / "x.json")
        code, _, err = cli("calibrate", "--image", str(image), *args, "--out", out)
        assert code == 2 and "outside the" in err and "expected one argument" not in err
