"""Walk-through sessions: truth that follows the answer, figures that hide what they should,
the same frames from the same seed, and the real screenshot as a floor the reader reads."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest

from assistant.puzzle import TOA_PLATES, toa_board
from assistant.solver import solve
from lab.walkthrough import (
    EVENTS,
    MAX_HIDDEN,
    draw_frame,
    walk_plan,
    walk_through,
    walk_through_sequences,
)
from tests.conftest import shared_file

SMALL = {"frame_size": (400, 300), "frames_per_stand": 1, "walking_frames": 1}


def _answer(board: str) -> set[int]:
    presses = solve(toa_board(board)).presses
    return {i for i, (r, c) in enumerate(TOA_PLATES) if presses[r, c]}


def test_the_truth_follows_the_answer_step_by_step():
    start = "010/0#0/011"
    frames = walk_through(start, 3, teammates=0, camera_events=False, **SMALL)
    assert frames[0].event == "start" and frames[0].room_board == start
    assert frames[0].player_tile == (1.0, 2.5) and frames[0].player_plate is None
    assert frames[-1].room_board == "111/1#1/111"
    stepped = [f.player_plate for f in frames if f.event == "stepped"]
    assert set(stepped) == _answer(start) and len(stepped) == len(set(stepped))
    for before, frame in itertools.pairwise(frames):
        assert frame.event in EVENTS
        if frame.event == "stepped":
            r, c = TOA_PLATES[frame.player_plate]
            assert frame.room_board == toa_board(before.room_board).press(r, c).format()
            assert frame.player_tile == (float(c), float(r))
            assert frame.step == before.step + 1
        else:
            assert frame.room_board == before.room_board
        if frame.event == "walking":
            x, y = frame.player_tile
            assert frame.player_plate is None
            # in transit on plain floor: never on another plate (that would step on it)
            assert all(max(abs(x - c), abs(y - r)) >= 0.3 for r, c in TOA_PLATES)


def test_the_room_pans_with_the_player_and_the_screen_board_is_the_truth_turned():
    frames = walk_through("000/0#0/000", 8, teammates=0, **SMALL)
    looks = {f.camera.look_at for f in frames}
    assert len(looks) > 3  # the camera follows the player
    for f in frames:
        assert f.camera.look_at == f.player_tile
        ones = f.screen_board.count("1")
        assert ones == f.room_board.count("1")  # the same board, labelled as on screen
    centres = [f.scene.plate_centres[0] for f in frames]
    assert np.ptp(np.array(centres), axis=0).max() > 20


def test_the_player_hides_its_plate_from_above_and_at_most_two_plates_hide():
    frames = walk_through(None, 11, pitch_range=(0.0, 0.0), teammates=0, camera_events=False,
                          **SMALL)
    standing = [f for f in frames if f.player_plate is not None]
    assert standing
    for f in standing:
        assert f.player_plate in f.hidden, (f.player_plate, f.scene.coverage)
    crowded = walk_through(None, 12, pitch_range=(50.0, 68.0), teammates=(6, 7), **SMALL)
    assert max(len(f.hidden) for f in crowded) <= MAX_HIDDEN
    assert any(len(f.figures) > 1 for f in crowded)
    for f in crowded:
        assert f.hidden == tuple(np.flatnonzero(f.scene.coverage > 0.5))


def test_a_snap_of_the_camera_lands_it_along_the_rooms_axes():
    """The game's compass turns the camera in one frame only to look North, East, South
    or West; every other turn is a smooth one of less than 45 degrees (the cameras and
    events of the sessions' plans: a frame's drawing changes neither)."""
    snaps = 0
    for seed in range(8):
        walk = walk_plan(None, seed, source="synthetic")
        for before, frame in itertools.pairwise(walk):
            turned = abs((frame.camera.yaw_deg - before.camera.yaw_deg + 180) % 360 - 180)
            if turned >= 45:
                snaps += 1
                assert frame.event == "turn" and frame.camera.yaw_deg % 90 == 0
            else:
                assert turned <= 40
    assert snaps > 0


def test_same_seed_same_session():
    kw = {"teammates": (1, 2), **SMALL}
    first = walk_through(None, 21, **kw)
    second = walk_through(None, 21, **kw)
    assert len(first) == len(second)
    for a, b in zip(first, second, strict=True):
        assert np.array_equal(a.scene.frame, b.scene.frame)
        assert (a.room_board, a.hidden, a.event) == (b.room_board, b.hidden, b.event)
    other = walk_through(None, 22, **kw)
    assert not np.array_equal(other[0].scene.frame, first[0].scene.frame)
    # display scaling changes the pictures only: the same session, stretched
    scaled = walk_through(None, 21, display_scale=1.5, **kw)
    assert [(f.room_board, f.hidden, f.event) for f in scaled] == [
        (f.room_board, f.hidden, f.event) for f in first]
    assert scaled[0].scene.params.display_scale == 1.5
    assert not np.array_equal(scaled[0].scene.frame, first[0].scene.frame)


@pytest.mark.parametrize("options", [
    {"teammates": (2, 3), **SMALL},
    {"approach_frame": True, "start_on_plate": True, "display_scale": 1.25, **SMALL},
], ids=["plain", "approach frames, on a plate, scaled"])
def test_a_frame_drawn_alone_is_the_frame_drawn_with_the_session(options):
    """Planning a session makes every random draw, so one frame drawn by itself (as the
    tests' shared sessions draw them, tests/walks.py) is the frame of the whole session:
    the same pixels and the same truth, and so is every frame through tests/walks.py."""
    import walks

    whole = walk_through(None, 31, **options)
    plan = walk_plan(None, 31, **options)
    shared = walks.walk_through(None, 31, **options)
    assert len(plan) == len(whole) == len(shared)
    for index in (len(whole) - 1, len(whole) // 2):  # drawn alone, the latest first
        for alone in (draw_frame(plan[index]), shared[index]):
            assert np.array_equal(alone.scene.frame, whole[index].scene.frame)
            assert alone == replace(whole[index], scene=alone.scene)
    for drawn, frame in zip(shared, whole, strict=True):
        assert np.array_equal(drawn.scene.frame, frame.scene.frame)
        assert drawn.scene.params == frame.scene.params
        assert drawn == replace(frame, scene=drawn.scene)
    assert shared[-1] is shared[len(shared) - 1] and shared[2:4] == [shared[2], shared[3]]
    with pytest.raises(ValueError, match="read-only"):
        shared[0].scene.frame[0, 0] = 0


def test_raw_grabs_are_the_same_session_without_jpeg():
    """jpeg=False (bench-walk --raw-grabs): the frames the live loop would grab, the same
    session frame for frame; only the frames that went through JPEG differ."""
    kw = {"teammates": (1, 2), **SMALL}
    mixed = walk_through(None, 5, **kw)
    raw = walk_through(None, 5, jpeg=False, **kw)
    assert [(f.room_board, f.hidden, f.event, f.camera) for f in raw] == [
        (f.room_board, f.hidden, f.event, f.camera) for f in mixed]
    through_jpeg = [f.scene.params.jpeg_quality is not None for f in mixed]
    assert any(through_jpeg) and not all(through_jpeg)
    for m, r, jpeg in zip(mixed, raw, through_jpeg, strict=True):
        assert r.scene.params.jpeg_quality is None
        assert np.array_equal(m.scene.frame, r.scene.frame) != jpeg


def test_starting_on_a_plate_and_sequences():
    frames = walk_through("111/0#0/110", 2, start_on_plate=True, teammates=0, **SMALL)
    assert frames[0].player_plate is not None and frames[0].room_board == "111/0#0/110"
    assert frames[-1].room_board == "111/1#1/111"
    sessions = walk_through_sequences(2, 1, teammates=0, camera_events=False,
                                      frame_size=(320, 240), frames_per_stand=1,
                                      walking_frames=0)
    assert len(sessions) == 2 and all(s[-1].room_board == "111/1#1/111" for s in sessions)


def test_bad_arguments_are_refused(tmp_path):
    with pytest.raises(ValueError):
        walk_through(None, 1, source="photo")
    with pytest.raises(FileNotFoundError, match="screenshot"):
        walk_through(None, 1, source="screenshot", screenshot=tmp_path / "missing.png")
    with pytest.raises(ValueError, match="display_scale"):
        walk_through(None, 1, display_scale=0.5)


def test_the_screenshot_floor_reads_as_the_truth_from_above():
    from assistant.vision import read_frame
    from lab.scene import Camera, SceneParams, render_scene, screen_board

    shot = shared_file("toa", "room_topdown.png")
    for board in ("111/0#0/110", "000/1#1/001"):
        camera = Camera(yaw_deg=0, pitch_deg=0, spacing_px=63)
        scene = render_scene(SceneParams(seed=1, board=board, camera=camera,
                                         screenshot=str(shot), frame_size=(480, 400), ui=False))
        reading = read_frame(scene.frame)
        assert not reading.abstain, reading.reason
        assert reading.board.format() == screen_board(scene) == board
    # a whole session: frames where nothing stands on a plate and the room is in view
    frames = walk_through("101/0#1/010", 4, source="screenshot", screenshot=shot,
                          pitch_range=(0.0, 0.0), teammates=0, camera_events=False,
                          frames_per_stand=1, walking_frames=0, frame_size=(640, 480),
                          ui=False, capture_effects=False)
    clear = [
        f for f in frames
        if not f.scene.coverage.any() and (f.scene.plate_visible_fraction == 1).all()
    ]
    assert clear
    for f in clear:
        reading = read_frame(f.scene.frame)
        assert not reading.abstain, reading.reason
        assert reading.board.format() == f.screen_board


def test_frames_are_grabbed_at_the_game_s_pace():
    """Every frame has its grab time: a standing player's frames a live loop's frame
    apart, a walk no faster than a run (two tiles a game tick). With approach frames the
    plate toggles between two frames a loop's frame apart, the body still short of the
    plate in both, and the player stands on it a moment later."""
    from lab.walkthrough import FRAME_SECONDS, SECONDS_PER_TILE

    run = SECONDS_PER_TILE["run"]
    for approach in (False, True):
        walk = walk_through("010/0#0/011", 3, teammates=0, camera_events=False,
                            approach_frame=approach, **SMALL)
        assert walk[0].time == 0.0
        for before, frame in itertools.pairwise(walk):
            assert frame.time - before.time >= FRAME_SECONDS - 1e-9
            moved = max(abs(frame.player_tile[0] - before.player_tile[0]),
                        abs(frame.player_tile[1] - before.player_tile[1]))
            assert frame.time - before.time >= 2 * moved * run - 1e-9  # tiles: half units
        toggles = [k for k, (a, b) in enumerate(itertools.pairwise(walk), start=1)
                   if a.room_board != b.room_board]
        assert len(toggles) == len(_answer("010/0#0/011"))
        for k in toggles:
            seen = walk[k]
            if approach:
                before = walk[k - 1]
                assert before.event == seen.event == "walking"
                assert seen.time - before.time == pytest.approx(FRAME_SECONDS)
                assert seen.player_plate is None
                stands = next(f for f in walk[k:] if f.event == "stepped")
                r, c = TOA_PLATES[stands.player_plate]
                short = max(abs(seen.player_tile[0] - c), abs(seen.player_tile[1] - r))
                assert 0.0 < short <= 0.5 + 1e-9
            else:
                assert seen.event == "stepped"
