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


@pytest.mark.parametrize(
    ("rows", "cols", "words"),
    [
        ("100000", "100000", "2^10000000000 press grids"),  # was: runs until killed (19.6 GB)
        ("100000", "5", "2^500000 press grids"),  # was: ValueError (4300 digits)
        ("1000", "1000", "2^1000000 press grids"),
        ("120", "120", "2^14400 press grids"),
        ("100", "100", "2^10000 press grids"),  # was: 4,151 characters
    ],
)
def test_huge_shapes_refused_at_once_in_one_short_sentence(capsys, rows, cols, words) -> None:
    import time

    start = time.monotonic()
    code, out, err = run(capsys, "analyze", "--rows", rows, "--cols", cols)
    assert time.monotonic() - start < 2
    assert code == 2 and out == "" and words in err and err.count("\n") == 1
    assert len(err) < 250 and "at most 28 cells" in err


def test_holes_take_the_one_format_everywhere(capsys) -> None:
    spaced = run(capsys, "analyze", "--rows", "3", "--cols", "3", "--holes", "2,2", "1,1")
    semi = run(capsys, "analyze", "--rows", "3", "--cols", "3", "--holes", "2,2;1,1")
    assert spaced[0] == 0 and spaced == semi
