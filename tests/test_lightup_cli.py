"""The ``lightup`` and ``bench-lightup`` commands through the real CLI."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from conftest import shared_file

from assistant.cli import main
from assistant.lightup import check_lightup, parse_lightup


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, text: str, name: str = "p.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_solve_reference_puzzle_keeps_the_header(capsys) -> None:
    path = shared_file("lightup", "puzzle10.txt")
    code, out, err = run(capsys, "lightup", "solve", str(path))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "10 10" and lines[-1] == "unique"
    solved, lamps = parse_lightup("\n".join(lines[:-1]))
    reference = parse_lightup(shared_file("lightup", "puzzle10.solution.txt").read_text())
    assert (solved, lamps) == reference


def test_solve_without_header_and_not_unique(capsys, tmp_path) -> None:
    code, out, _ = run(capsys, "lightup", "solve", write(tmp_path, "...\n#.#\n"))
    assert code == 0
    lines = out.splitlines()
    assert lines[-1] == "not unique (at least 2 solutions)"
    puzzle, lamps = parse_lightup("\n".join(lines[:-1]))
    assert len(lines) == 3 and check_lightup(puzzle, lamps) is None


def test_count(capsys, tmp_path) -> None:
    path = write(tmp_path, "....\n")
    code, out, _ = run(capsys, "lightup", "solve", path, "--count")
    assert code == 0 and out.splitlines()[-1] == "4 solutions"
    code, out, _ = run(capsys, "lightup", "solve", path, "--count", "3")
    assert code == 0 and out.splitlines()[-1] == "at least 3 solutions (stopped at the bound)"
    code, out, _ = run(capsys, "lightup", "solve", write(tmp_path, "1#\n..\n", "u.txt"), "--count")
    assert code == 0 and out.splitlines()[-1] == "1 solution"


def test_no_solution_exits_1(capsys, tmp_path) -> None:
    code, out, _ = run(capsys, "lightup", "solve", write(tmp_path, "4.\n..\n"))
    assert code == 1 and out == "no solution\n"
    code, out, _ = run(capsys, "lightup", "solve", write(tmp_path, "4.\n..\n"), "--json")
    assert code == 1 and json.loads(out)["solvable"] is False


def test_solve_json(capsys, tmp_path) -> None:
    code, out, _ = run(capsys, "lightup", "solve", write(tmp_path, "2 2\n1#\n..\n"), "--json")
    payload = json.loads(out)
    assert code == 0 and payload["unique"] and payload["count"] == 1 and payload["exact"]
    assert payload["solution"] == "2 2\n1#\nL.\n"
    assert check_lightup(*parse_lightup(payload["solution"])) is None


def test_check(capsys, tmp_path) -> None:
    solution = str(shared_file("lightup", "puzzle3.solution.txt"))
    code, out, _ = run(capsys, "lightup", "check", solution)
    assert (code, out) == (0, "valid\n")
    code, out, _ = run(capsys, "lightup", "check", write(tmp_path, "L.L\n#2#\n"))
    assert (code, out) == (1, "lamps at 1,1 and 1,3 see each other\n")
    code, out, _ = run(capsys, "lightup", "check", write(tmp_path, "L#.\n.2.\n"))
    assert (code, out) == (1, "cell 1,3 is dark\n")
    code, out, _ = run(capsys, "lightup", "check", write(tmp_path, "L#L\n.2.\n"))
    assert (code, out) == (1, "number at 2,2 wants 2 and has 0\n")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("...\n..\n", "Row 2 has 2 cells"),
        ("..\n.?\n", "Unknown character '?' at row 2, column 2"),
        ("2 3\n...\n", "The header says 2 rows but the grid has 1."),
    ],
)
@pytest.mark.parametrize("verb", ["check", "solve"])
def test_malformed_input_exits_2_with_one_sentence(capsys, tmp_path, text, words, verb) -> None:
    code, out, err = run(capsys, "lightup", verb, write(tmp_path, text))
    assert code == 2 and out == ""
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_missing_file_and_missing_verb(capsys, tmp_path) -> None:
    code, _, err = run(capsys, "lightup", "solve", str(tmp_path / "nope.txt"))
    assert code == 2 and "nope.txt" in err
    with pytest.raises(SystemExit) as exit_info:
        main(["lightup"])
    assert exit_info.value.code == 2


def test_bench_lightup_prints_one_line_per_case(capsys) -> None:
    code, out, _ = run(
        capsys, "bench-lightup", "--sizes", "8", "12", "--puzzles", "1", "--repeat", "1", "--json"
    )
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["case"] for line in lines] == ["lightup-8x8", "lightup-12x12"]
    assert all(line["verified"] and line["seconds"] > 0 for line in lines)
    code, out, _ = run(capsys, "bench-lightup", "--sizes", "6", "--puzzles", "1", "--repeat", "1")
    assert code == 0 and out.startswith("lightup-6x6: median ") and out.count("\n") == 1
    code, _, err = run(capsys, "bench-lightup", "--puzzles", "0")
    assert code == 2 and "--puzzles must be at least 1" in err


def test_solve_reads_stdin(capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1 4\n.1..\n"))
    code, out, _ = run(capsys, "lightup", "solve", "-")
    assert (code, out) == (0, "1 4\nL1.L\nunique\n")
    monkeypatch.setattr("sys.stdin", io.StringIO("2 2\nL1\n#.\n"))
    code, out, _ = run(capsys, "lightup", "check", "-")
    assert (code, out) == (1, "cell 2,2 is dark\n")


def test_help_describes_the_file_format(cli, tmp_path) -> None:
    """Issue 12: the format was described nowhere a user looks."""
    from assistant.commands.lightup import FILE_FORMAT

    for args in (["lightup", "--help"], ["lightup", "solve", "--help"]):
        code, out, _ = cli(*args)
        assert code == 0 and "file format" in out and "0-4" in out and "L      a lamp" in out
    example = [line[4:].split("  ")[0].strip() for line in FILE_FORMAT.splitlines()[-4:]]
    answer = [line.split()[-1] for line in FILE_FORMAT.splitlines()[-3:]]
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("\n".join(example) + "\n", "utf-8")
    solution = tmp_path / "s.txt"
    solution.write_text("\n".join(["3 3", *answer]) + "\n", "utf-8")
    assert cli("lightup", "check", str(solution))[:2] == (0, "valid\n")
    assert cli("lightup", "solve", str(puzzle))[0] == 0


def test_sizes_beyond_the_stated_limits_are_refused_before_work(capsys, tmp_path) -> None:
    """Issue 67: ``lightup solve`` had no limit (200x200 empty: 6 s and 0.56 GB, 1,000x1,000
    killed at 10.8 GB). Each refusal is one sentence naming the limit."""
    from assistant.limits import LIGHTUP_CHECK_MAX_CELLS, LIGHTUP_MAX_CELLS

    big = write(tmp_path, "200 200\n" + ("." * 200 + "\n") * 200)
    code, out, err = run(capsys, "lightup", "solve", big)
    assert code == 2 and out == "" and f"{LIGHTUP_MAX_CELLS:,}" in err and "200x200" in err
    assert err.count("\n") == 1
    headerless = write(tmp_path, ("." * 101 + "\n") * 100, "h.txt")
    code, _, err = run(capsys, "lightup", "solve", headerless)
    assert code == 2 and "100x101" in err
    fifty = write(tmp_path, "50 50\n" + ("." * 50 + "\n") * 50, "c.txt")
    code, _, err = run(capsys, "lightup", "solve", "--count", "5000", fifty)
    assert code == 2 and "--count 4,000 or less" in err and err.count("\n") == 1
    huge = tmp_path / "huge.txt"
    huge.write_text("." * (4 * LIGHTUP_CHECK_MAX_CELLS + 5000), encoding="utf-8")
    code, _, err = run(capsys, "lightup", "check", str(huge))
    assert code == 2 and "characters" in err and f"{LIGHTUP_CHECK_MAX_CELLS:,}" in err


def test_a_grid_at_the_limit_is_solved(capsys, tmp_path) -> None:
    code, out, err = run(capsys, "lightup", "solve", write(tmp_path, ("." * 100 + "\n") * 100))
    assert code == 0 and err == "" and out.splitlines()[-1].startswith("not unique")
