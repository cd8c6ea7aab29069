"""``toa-assistant bench-vision`` on a small sample (the full run is a command, not a test)."""

from __future__ import annotations

import json

from assistant.cli import main
from assistant.vision import read_frame
from lab.commands.bench_vision import cases, judge
from lab.scene import PERTURBATIONS


def test_json_report_counts_every_frame(capsys):
    assert main(["bench-vision", "--frames", "34", "--seed", "3", "--json", "--no-speed"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["frames"] == 34 and report["speed_ms"] is None
    for mode in ("auto", "calibrated"):
        total = report["total"][mode]
        assert sum(total.values()) == 34
        assert total["wrong"] == 0
    assert set(PERTURBATIONS) <= set(report["families"])


def test_table_and_speed_lines(capsys):
    assert main(["bench-vision", "--frames", "17", "--seed", "4"]) == 0
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
