"""Regression cases made from problem reports (scripts/report_to_fixture.py): every folder
under tests/fixtures/reports is replayed through the live loop, and on each frame its
expected.json names, the overlay must show exactly that board. A case is picked up by
being there: a real failure, once turned into a case and fixed, stays fixed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from assistant.report import open_report, replay_report
from lab.walkthrough import walk_through

REPO = Path(__file__).resolve().parents[1]
CASES = sorted((REPO / "tests" / "fixtures" / "reports").glob("*/expected.json"))


@pytest.mark.parametrize("expected_file", CASES, ids=[p.parent.name for p in CASES])
def test_a_report_case_shows_the_expected_boards(expected_file):
    expected = json.loads(expected_file.read_text())["boards"]
    shown = {str(frame.frame): frame for frame in replay_report(open_report(expected_file.parent))}
    wrong = {frame: (shown[frame].replayed_kind, shown[frame].replayed_board, board)
             for frame, board in expected.items()
             if shown[frame].replayed_board != board
             or shown[frame].replayed_kind not in ("steps", "solved")}
    assert not wrong, f"frames showing (kind, board, expected): {wrong}"


def test_the_cases_are_picked_up():
    assert CASES, "tests/fixtures/reports holds the case made from the demo walk-through"


def test_a_report_becomes_a_case_that_fails_until_the_board_is_shown(tmp_path, capsys):
    """The script keeps the frames up to the last one expected; a case expecting a board
    the loop does not show fails."""
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        from report_to_fixture import main, make_fixture
    finally:
        sys.path.remove(str(REPO / "scripts"))
    from test_recorder import START, _record

    from assistant.recorder import save_report

    frames = walk_through(START, 4, source="synthetic", pitch_range=(10, 35), teammates=0,
                          camera_events=False, capture_effects=False, approach_frame=True,
                          jpeg=False)
    report = save_report(_record(frames).snapshot(), tmp_path / "report")
    replays = list(replay_report(open_report(report)))
    steps = [f for f in replays if f.replayed_kind == "steps"]
    first = steps[0]
    case = make_fixture(report, "demo", [f"{first.frame}={first.replayed_board}"],
                        "a walk-through", folder=tmp_path / "cases")
    kept = open_report(case)
    assert len(kept.frames) == first.frame
    assert json.loads((case / "expected.json").read_text())["boards"] == {
        str(first.frame): first.replayed_board}
    wrong_board = "000/0#0/000"
    bad = make_fixture(report, "bad", [f"{first.frame}={wrong_board}"],
                       folder=tmp_path / "cases")
    with pytest.raises(AssertionError, match="frames showing"):
        test_a_report_case_shows_the_expected_boards(bad / "expected.json")
    assert main([str(report), "x", "--expect", "999=111/0#0/110"]) == 2
    assert "the report has frames 1 to" in capsys.readouterr().err
    assert main([str(tmp_path / "nowhere"), "x", "--expect", "1=111/0#0/110"]) == 2
