"""bench-walk's own arithmetic: a mark is judged on a plate by where it lies on the floor,
sessions walked in several processes give the same counts as one, and the share fully
right comes with an interval over the sessions."""

from __future__ import annotations

import json

import numpy as np
import pytest

from assistant.puzzle import TOA_PLATES
from lab.commands.bench_walk import (
    DISPLAY_SCALES,
    display_scale_of,
    plate_at,
    run_sessions,
    session_groups,
    share_interval,
)
from lab.scene import Camera, SceneParams, render_scene


@pytest.mark.parametrize("sessions, jobs", [(1, 1), (5, 2), (7, 3), (2, 8)])
def test_session_groups_walk_every_session_once_in_order(sessions, jobs):
    groups = session_groups(sessions, jobs, consecutive=False)
    assert 1 <= len(groups) <= jobs
    assert sorted(n for group in groups for n in group) == list(range(sessions))
    assert all(group == sorted(group) and group for group in groups)


@pytest.mark.parametrize("jobs", [1, 2, 3, 5])
def test_consecutive_sessions_of_one_display_scaling_stay_in_one_process(jobs):
    """--consecutive runs each display scaling's sessions through one loop (one run of
    the app), so a process must hold all of them, in order."""
    groups = session_groups(10, jobs, consecutive=True)
    assert len(groups) == min(jobs, len(DISPLAY_SCALES))
    assert sorted(n for group in groups for n in group) == list(range(10))
    for group in groups:
        assert group == sorted(group)
    for scale in DISPLAY_SCALES:
        holding = [g for g in groups if any(display_scale_of(n) == scale for n in g)]
        assert len(holding) == 1


def test_the_interval_holds_the_pooled_share_and_narrows_with_more_sessions():
    sessions = [[14, 15], [15, 15], [12, 15], [15, 15], [13, 14], [15, 15], [9, 15],
                [15, 15]]
    share = sum(r for r, _ in sessions) / sum(n for _, n in sessions)
    low, high = share_interval(sessions)
    assert low < share < high
    assert high <= 1.0
    assert share_interval(sessions) == [low, high]  # the same resamples every run
    low_more, high_more = share_interval(sessions * 10)
    assert low < low_more < share < high_more < high


def test_the_interval_of_alike_sessions_is_their_share_and_needs_two_sessions():
    assert share_interval([[9, 10]] * 5) == pytest.approx([0.9, 0.9])
    assert share_interval([[9, 10]]) is None
    assert share_interval([[9, 10], [0, 0]]) is None  # a session with nothing judged
    assert share_interval([]) is None


def test_sessions_walked_in_two_processes_count_as_in_one():
    """--jobs: the same sessions, the same counts, every missed frame listed in order, at
    each stride (every walking frame, and none)."""
    # Short sessions (a frame per stand, one walking): what is checked is the split.
    short = {"pitch_range": (55.0, 68.0), "frames_per_stand": 1, "walking_frames": 1}
    alone = run_sessions(2, 5, "synthetic", strides=(1, 0), **short)
    apart = run_sessions(2, 5, "synthetic", jobs=2, strides=(1, 0), **short)

    def untimed(result: dict) -> dict:
        return {**result, "strides": {stride: {k: v for k, v in walked.items()
                                               if k != "ms_per_frame"}
                                      for stride, walked in result["strides"].items()}}

    assert untimed(alone) == untimed(apart)
    assert set(alone["strides"]) == {"1", "0"}
    for walked in alone["strides"].values():
        right, judged = walked["fully_right"]["right"], walked["fully_right"]["judged"]
        assert judged > 0 and [sum(t) for t in zip(*walked["by_session"], strict=True)] == \
            [right, judged]
        low, high = walked["fully_right"]["interval"]
        assert low <= right / judged <= high
    json.dumps(alone)  # what --json prints


def test_bad_jobs_is_one_sentence(cli):
    code, out, err = cli("bench-walk", "--jobs", "0")
    assert code == 2 and out == ""
    assert err.strip() == "toa-assistant: --jobs must be at least 1."


def _to_picture(scene, floor_point):
    x, y, w = scene.homography @ np.array([floor_point[0], floor_point[1], 1.0])
    return x / w, y / w


@pytest.mark.parametrize("yaw", [0.0, 37.0, 90.0])
def test_a_mark_is_judged_on_a_plate_by_where_it_lies_on_the_floor(yaw):
    """At 68 degrees the plates are about three times closer on screen from front to back
    than across: a mark inside a plate's diamond, 0.14 of a spacing off across the
    screen, is on that plate; one on the plain tile between two plates is on neither."""
    scene = render_scene(SceneParams(seed=1, board="101/0#1/010", frame_size=(640, 480),
                                     camera=Camera(yaw_deg=yaw, pitch_deg=68.0,
                                                   spacing_px=90.0)))
    for index, (row, col) in enumerate(TOA_PLATES):
        assert plate_at(scene, _to_picture(scene, (col, row))) == index
        for dx, dy in ((0.14, 0.0), (0.0, 0.14), (-0.3, 0.1)):
            assert plate_at(scene, _to_picture(scene, (col + dx, row + dy))) == index
    assert plate_at(scene, _to_picture(scene, (0.5, 0.0))) is None  # between two plates
    assert plate_at(scene, _to_picture(scene, (1.0, 1.0))) is None  # the missing centre


def test_thinned_keeps_every_kth_walking_frame_and_every_standing_one():
    """--stride K keeps the K-th, 2K-th... walking frame of each walk between plates (0:
    none) and every frame of a player standing, each with its index in the session."""
    from types import SimpleNamespace

    from lab.commands.bench_walk import thinned

    events = ["start", "idle", "walking", "walking", "walking", "stepped", "idle",
              "walking", "walking", "stepped"]
    walk = [SimpleNamespace(event=event) for event in events]
    standing = [i for i, event in enumerate(events) if event != "walking"]
    assert [i for i, _ in thinned(walk, 1)] == list(range(len(events)))
    assert [i for i, _ in thinned(walk, 2)] == sorted([*standing, 3, 8])
    assert [i for i, _ in thinned(walk, 3)] == sorted([*standing, 4])
    assert [i for i, _ in thinned(walk, 0)] == standing
    assert all(frame is walk[i] for i, frame in thinned(walk, 2))


def _walked(right: int, judged: int, shortfall: dict[str, int]) -> dict:
    """One stride of a merged result, as much of it as the results file reads."""
    return {"fully_right": {"right": right, "judged": judged}, "shortfall": shortfall}


def test_results_are_appended_one_row_per_source_and_stride_under_one_header(tmp_path):
    """--record-results keeps the benchmark's history as data: each run adds its rows,
    the header is written once."""
    import csv

    from lab.commands.bench_walk import RESULTS_COLUMNS, record_results, results_rows

    results = {"synthetic": {"strides": {
        "1": _walked(90, 100, {"uncertain: two ways": 6, "blank: no ring": 3, "wrong": 1}),
        "3": _walked(0, 0, {})}},
        "screenshot": {"strides": {"1": _walked(49, 50, {"uncertain: two ways": 1}),
                                   "3": _walked(20, 25, {"blank: no ring": 5})}}}
    path = tmp_path / "results.csv"
    for commit in ("abc1234", "def5678"):
        record_results(path, results_rows(results, date="2026-12-07", commit=commit,
                                          options="--steep", seed=3, sessions=40))
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == ",".join(RESULTS_COLUMNS) and len(lines) == 1 + 2 * 4
    rows = list(csv.DictReader(lines))
    assert [(r["commit"], r["source"], r["stride"]) for r in rows[:4]] == [
        ("abc1234", "synthetic", "1"), ("abc1234", "synthetic", "3"),
        ("abc1234", "screenshot", "1"), ("abc1234", "screenshot", "3")]
    first = rows[0]
    assert (first["date"], first["options"], first["seed"], first["sessions"]) == \
        ("2026-12-07", "--steep", "3", "40")
    assert (first["judged"], first["fully_right_pct"], first["uncertain"], first["blank"],
            first["wrong"]) == ("100", "90.0", "6", "3", "1")
    assert rows[1]["fully_right_pct"] == "" and rows[1]["judged"] == "0"
    assert rows[3]["fully_right_pct"] == "80.0" and rows[3]["blank"] == "5"
    assert rows[4]["commit"] == "def5678"


def test_a_results_file_with_other_columns_is_left_alone_with_one_sentence(tmp_path, cli):
    path = tmp_path / "notes.csv"
    path.write_text("name,value\nkept,1\n", encoding="utf-8")
    code, out, err = cli("bench-walk", "--sessions", "1", "--record-results", str(path))
    assert code == 2 and out == ""
    assert err.startswith("toa-assistant: ") and "not a bench-walk results file" in err
    assert len(err.strip().splitlines()) == 1
    assert path.read_text(encoding="utf-8") == "name,value\nkept,1\n"
