"""The ``analyze`` command through the real CLI."""

from __future__ import annotations

import json

import pytest

from assistant.cli import main
from assistant.commands import analyze


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_analyze_text_and_json(capsys) -> None:
    code, out, _ = run(capsys, "analyze", "--rows", "3", "--cols", "3", "--holes", "2,2")
    assert code == 0
    # The ToA room: every one of the 2^8 positions is solvable, all-off needs all 8 plates.
    assert "solvable states: 256 of 256 (kernel size 1)" in out
    assert "max presses: 8, e.g. board 000/0#0/000 (presses 111/1#1/111)" in out
    assert "all-off to all-on: 8 presses (proven)" in out
    argv = ["--rows", "2", "--cols", "3", "--states", "3", "--objective", "0", "--json"]
    code, out, _ = run(capsys, "analyze", *argv)
    payload = json.loads(out)
    assert code == 0 and payload["solvable_states"] == sum(payload["histogram"])
    assert payload["max_presses"] == len(payload["histogram"]) - 1
    assert len(payload["example"].split("/")) == 2 and payload["objective"] == 0


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--rows", "7", "--cols", "7"], "2^49 = 562,949,953,421,312 press grids"),
        (["--rows", "3", "--cols", "3", "--holes", "4,1"], "The hole 4,1 is outside the 3x3 grid."),
        (["--rows", "3", "--cols", "3", "--holes", "a"], "not a row,column pair"),
        (["--rows", "0", "--cols", "3"], "at least one row"),
        (["--rows", "2", "--cols", "2", "--states", "1"], "number of states"),
    ],
)
def test_analyze_refusals_exit_2(capsys, argv, words) -> None:
    code, out, err = run(capsys, "analyze", *argv)
    assert code == 2 and out == "" and words in err and err.count("\n") == 1


def test_progress_on_stderr_only_for_long_runs(capsys, monkeypatch) -> None:
    code, _, err = run(capsys, "analyze", "--rows", "4", "--cols", "4")
    assert code == 0 and err == ""  # well under 2 s: no progress
    monkeypatch.setattr(analyze, "_PROGRESS_AFTER", 0.0)
    code, out, err = run(capsys, "analyze", "--rows", "4", "--cols", "4", "--json")
    assert code == 0 and json.loads(out)["kernel_size"] == 16
    assert "analysing: 100%" in err and err.endswith("\n")
