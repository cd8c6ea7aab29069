"""``toa-assistant bench-vision`` on a small sample (the full run is a command, not a test)."""

from __future__ import annotations

import json

from assistant.cli import main
from assistant.vision import read_frame
from lab.commands.bench_vision import cases, judge
from lab.scene import PERTURBATIONS


def test_json_report_counts_every_frame(capsys):
    # A few real-room pictures: the benchmark reads 300, this checks they are counted.
    assert main(["bench-vision", "--frames", "34", "--seed", "3", "--real-room", "6", "--json",
                 "--no-speed"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["frames"] == 34 and report["speed_ms"] is None
    real_room = report["real_room"]
    if real_room is not None:  # None only where ../shared is absent
        assert real_room["pictures"] == sum(real_room["counts"].values()) == 6
        assert real_room["counts"]["wrong"] == real_room["counts"]["covered"] == 0
    for mode in ("auto", "calibrated"):
        total = report["total"][mode]
        assert sum(total.values()) == 34
        assert total["wrong"] == 0
    assert set(PERTURBATIONS) <= set(report["families"])


def test_table_and_speed_lines(capsys):
    assert main(["bench-vision", "--frames", "17", "--seed", "4", "--real-room", "3"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("perturbation")
    assert "TOTAL" in out
    assert "calibrated read median" in out and "auto-locate median" in out


def test_cases_cycle_through_the_families_deterministically():
    first = [(c.family, c.lit.tolist()) for c in cases(20, seed=5, screenshot=None)]
    again = [(c.family, c.lit.tolist()) for c in cases(20, seed=5, screenshot=None)]
    assert first == again
    assert [f for f, _ in first[: len(PERTURBATIONS)]] == list(PERTURBATIONS)


def test_judge_matches_plates_by_position():
    case = next(iter(cases(1, seed=2, screenshot=None)))
    reading = read_frame(case.frame)
    assert judge(reading, case.centres, case.lit) == "right"
    assert judge(reading, case.centres, 1 - case.lit) == "wrong"


def test_frames_must_be_positive(capsys):
    assert main(["bench-vision", "--frames", "0"]) == 2
    assert "--frames" in capsys.readouterr().err


def test_results_are_appended_one_row_per_reading_under_one_header(tmp_path, capsys):
    """--record-results keeps the benchmark's history as data: each run adds a row per
    reading (auto, calibrated, and the real room when read), the header written once."""
    import csv

    from lab.commands.bench_vision import RESULTS_COLUMNS

    path = tmp_path / "vision.csv"
    for _ in range(2):
        assert main(["bench-vision", "--frames", "17", "--seed", "4", "--real-room", "0",
                     "--no-speed", "--record-results", str(path)]) == 0
    capsys.readouterr()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == ",".join(RESULTS_COLUMNS) and len(lines) == 1 + 2 * 2
    rows = list(csv.DictReader(lines))
    assert [row["reading"] for row in rows] == ["auto", "calibrated"] * 2
    for row in rows:
        counts = [int(row[key]) for key in ("right", "wrong", "covered", "unclear", "abstain")]
        assert row["seed"] == "4" and int(row["pictures"]) == sum(counts) == 17
        assert float(row["not_fully_read_pct"]) == round(
            100 * (17 - counts[0] - counts[1]) / 17, 1)


def test_the_real_room_has_its_own_row(tmp_path, capsys):
    from conftest import shared_file

    from lab.commands.bench_vision import results_rows

    shared_file("toa", "room_topdown.png")  # skips with a reason when ../shared is absent
    counts = {"right": 7, "wrong": 0, "covered": 0, "unclear": 2, "abstain": 1}
    rows = results_rows({"auto": counts}, {"pictures": 10, "counts": counts},
                        date="2026-12-07", commit="abc1234", seed=13)
    assert [(r["reading"], r["pictures"], r["not_fully_read_pct"]) for r in rows] == [
        ("auto", 10, "30.0"), ("real_room", 10, "30.0")]


def test_a_results_file_with_other_columns_is_left_alone_with_one_sentence(tmp_path, capsys):
    path = tmp_path / "notes.csv"
    path.write_text("name,value\nkept,1\n", encoding="utf-8")
    assert main(["bench-vision", "--frames", "1", "--record-results", str(path)]) == 2
    err = capsys.readouterr().err
    assert "not a bench-vision results file" in err and err.count("\n") == 1
    assert path.read_text(encoding="utf-8") == "name,value\nkept,1\n"
