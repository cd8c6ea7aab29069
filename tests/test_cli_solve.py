"""``toa-assistant solve`` and ``bench``: formats, fields, exit codes, one-sentence errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from assistant.puzzle import Board
from assistant.solver import random_solvable_board


def test_toa_preset_plain(cli) -> None:
    code, out, err = cli("solve", "--preset", "toa", "111/0#0/110")
    assert code == 0 and not err
    lines = out.splitlines()
    assert lines[0] == "110/0#1/000"
    assert lines[1] == "3 presses (proven minimal); 1 solution."


def test_json_fields(cli) -> None:
    code, out, _ = cli("solve", "--json", "--preset", "toa", "111/0#0/110")
    data = json.loads(out)
    assert code == 0
    assert data["solvable"] is True
    assert data["presses"] == "110/0#1/000"
    assert (data["total_presses"], data["minimal"], data["solutions"], data["nullity"]) == (
        3,
        True,
        1,
        0,
    )
    assert data["reason"] is None


def test_generic_board_with_states_and_objective(cli) -> None:
    code, out, _ = cli("solve", "--json", "--states", "3", "--objective", "0", "12/21")
    data = json.loads(out)
    board = Board.parse("12/21", k=3, objective=0)
    presses = Board.parse(data["presses"], k=3, objective=0).states
    assert code == 0 and board.apply(presses).is_solved()
    assert data["minimal"] is True


def test_unsolvable_exit_1_with_reason(cli) -> None:
    code, out, _ = cli("solve", "--objective", "0", "10000/00000/00000/00000/00000")
    assert code == 1
    assert out.startswith("No solution.") and "odd number" in out
    code, out, _ = cli("solve", "--json", "--objective", "0", "10000/00000/00000/00000/00000")
    data = json.loads(out)
    assert code == 1 and data["solvable"] is False and data["presses"] is None
    assert data["solutions"] == 0 and data["nullity"] == 2 and data["reason"]


def test_hint_names_a_press_of_a_fewest_press_solution(cli) -> None:
    code, out, _ = cli("solve", "--json", "--hint", "--preset", "toa", "111/0#0/110")
    hint = json.loads(out)["hint"]
    assert (hint["row"], hint["col"]) in {(1, 1), (1, 2), (2, 3)} and hint["on_minimal"]
    code, out, _ = cli("solve", "--hint", "--preset", "toa", "111/1#1/111")
    assert code == 0 and "already solved" in out


def test_file_and_stdin(tmp_path: Path, cli, monkeypatch) -> None:
    path = tmp_path / "board.txt"
    path.write_text("111\n0#0\n110\n", encoding="utf-8")
    code, out, _ = cli("solve", "--file", str(path))
    assert code == 0 and out.splitlines()[:3] == ["110", "0#1", "000"]
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO("111/0#0/110"))
    code, out, _ = cli("solve", "--file", "-")
    assert code == 0 and out.splitlines()[0] == "110"


def test_npy_in_and_out(tmp_path: Path, cli) -> None:
    board = random_solvable_board(
        150, 120, seed=2, present=np.random.default_rng(1).random((150, 120)) > 0.02
    )
    array = np.where(board.present, board.states, -1).astype(np.int8)
    source, target = tmp_path / "big.npy", tmp_path / "presses.npy"
    np.save(source, array)
    code, out, _ = cli("solve", "--file", str(source), "--out", str(target), "--no-minimize")
    assert code == 0
    assert "too large to print" not in out and "presses" in out
    presses = np.load(target)
    assert presses.shape == board.shape and np.all(presses[~board.present] == -1)
    assert board.apply(np.where(board.present, presses, 0)).is_solved()


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["11/1"], "Row 2 has 1 cell"),
        (["12/11"], "row 1, column 2 is '2'"),
        (["--objective", "5", "11/11"], "objective 5 is out of range"),
        (["--states", "1", "11/11"], "at least 2"),
        (["/"], "empty"),
        (["1*/11"], "'*' at row 1, column 2"),
        ([], "No board given"),
        (["--preset", "toa", "111/000/110"], "3 rows of 3 plates"),
        (["--file", "/nonexistent/board.txt"], "Could not use /nonexistent/board.txt"),
        (["--states", "three", "11"], "invalid int value"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_2(cli, args: list[str], fragment: str) -> None:
    code, _, err = cli("solve", *args)
    assert code == 2
    assert fragment in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_bad_npy_files(tmp_path: Path, cli) -> None:
    bad = tmp_path / "bad.npy"
    bad.write_bytes(b"not an array")
    code, _, err = cli("solve", "--file", str(bad))
    assert code == 2 and "not a .npy array file" in err and "pickle" not in err
    floats = tmp_path / "floats.npy"
    np.save(floats, np.zeros((2, 2)))
    code, _, err = cli("solve", "--file", str(floats))
    assert code == 2 and "must hold integers" in err
    low = tmp_path / "low.npy"
    np.save(low, np.array([[0, -3]]))
    code, _, err = cli("solve", "--file", str(low))
    assert code == 2 and "row 1, column 2 holds -3" in err


def test_module_entry_point_runs_as_a_program() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "assistant", "solve", "--preset", "toa", "111/0#0/110"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0 and result.stdout.startswith("110/0#1/000")
    version = subprocess.run(
        [sys.executable, "-m", "assistant", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert version.returncode == 0 and version.stdout.startswith("toa-assistant ")


def test_bench_quick_prints_verified_cases_with_a_baseline() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "assistant", "bench", "--quick", "--json", "--repeat", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 0, result.stderr
    assert rows and all(row["verified"] for row in rows)
    assert all(row["seconds"] > 0 for row in rows)
    baseline = [row for row in rows if "speedup" in row]
    assert baseline and baseline[0]["baseline_verified"]
    assert baseline[0]["speedup"] == pytest.approx(
        baseline[0]["baseline_seconds"] / baseline[0]["seconds"], rel=0.05
    )


def test_clingo_engine_from_the_command_line_agrees_with_the_internal_one(cli) -> None:
    pytest.importorskip("clingo", reason="the optional asp extra is not installed")
    args = ("solve", "--json", "--states", "3", "--objective", "0", "12/21")
    _, internal, _ = cli(*args)
    code, asp, _ = cli(*args, "--engine", "clingo")
    internal, asp = json.loads(internal), json.loads(asp)
    assert code == 0 and asp["method"] == "clingo" and asp["minimal"] is True
    assert asp["total_presses"] == internal["total_presses"]
    presses = Board.parse(asp["presses"], k=3, objective=0).states
    assert Board.parse("12/21", k=3, objective=0).apply(presses).is_solved()
    code, _, err = cli(*args, "--engine", "clingo", "--time-limit", "0")
    assert code == 2 and "--time-limit must be positive" in err


@pytest.mark.parametrize("args", [(), ("manual",), ("demo",), ("run",)])
def test_windows_without_a_display_are_one_sentence(cli, monkeypatch, args) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("only Linux can lack a display server")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    code, _, err = cli(*args)
    assert code == 2
    assert err.count("\n") == 1 and "There is no display to open a window on" in err


def test_messages_that_used_to_mislead(tmp_path: Path, cli, monkeypatch) -> None:
    """Issue 12: each file or option error says what is wrong, in one sentence."""
    monkeypatch.chdir(tmp_path)
    board = tmp_path / "toa.npy"
    array = np.ones((3, 3), dtype=np.int64)
    array[1, 1] = -1
    np.save(board, array)
    code, out, err = cli("solve", "--preset", "toa", "--file", str(board))
    assert code == 0 and "0 presses" in out and err == ""
    np.save(board, np.ones((3, 3), dtype=np.int64))
    code, _, err = cli("solve", "--preset", "toa", "--file", str(board))
    assert code == 2 and "not the ToA room" in err and "text file" not in err
    code, _, err = cli("solve", "--out", "out.txt", "111/101/111")
    assert code == 2 and "PATH.npy" in err and not (tmp_path / "out.txt.npy").exists()
    code, _, err = cli("solve", "--out", str(tmp_path / "missing" / "o.npy"), "1")
    assert code == 2 and "does not exist" in err
    code, _, err = cli("solve", "--states", "37", "10/01")
    assert code == 2 and "at most 36 states" in err
    code, _, err = cli("solve", "--states", "3", "12x/000")
    assert code == 2 and "'x'" in err and "33" not in err and "0 to 2" in err
    code, out, _ = cli("solve", "--out", "o.npy", "111/101/111")
    assert code == 0 and np.load(tmp_path / "o.npy").sum() == 5


def test_no_solution_starts_with_a_plain_sentence(cli) -> None:
    code, out, _ = cli("solve", "--states", "3", "--objective", "0", "1000/0000/0000/0000")
    assert code == 1
    assert out.startswith("No solution. No presses can solve this board from this position.")
    first = out.split(". ")[1]
    assert "quiet" not in first and "weight" not in first


def test_size_limits_are_stated_before_work(tmp_path: Path, cli) -> None:
    import time

    from assistant.limits import SOLVE_MAX_CELLS_GENERAL, SOLVE_MAX_TEXT_CELLS

    start = time.monotonic()
    text = tmp_path / "big.txt"
    side = int(SOLVE_MAX_TEXT_CELLS**0.5) + 10
    text.write_text(("0" * side + "\n") * side)
    code, _, err = cli("solve", "--file", str(text))
    assert code == 2 and f"{SOLVE_MAX_TEXT_CELLS:,}" in err and ".npy" in err
    big = tmp_path / "big.npy"
    side = int(SOLVE_MAX_CELLS_GENERAL**0.5) + 1
    np.lib.format.open_memmap(big, mode="w+", dtype=np.int8, shape=(side, side))
    code, _, err = cli("solve", "--states", "3", "--file", str(big))
    assert code == 2 and f"{SOLVE_MAX_CELLS_GENERAL:,}" in err and err.count("\n") == 1
    assert time.monotonic() - start < 5
    huge = tmp_path / "huge.npy"
    np.lib.format.open_memmap(huge, mode="w+", dtype=np.int8, shape=(20_000, 10_001))
    code, _, err = cli("solve", "--file", str(huge))
    assert code == 2 and "100,000,000" in err


def test_clingo_refuses_boards_it_cannot_ground_in_time(tmp_path: Path, cli) -> None:
    pytest.importorskip("clingo")
    import time

    board = tmp_path / "b200.npy"
    np.save(board, np.random.default_rng(0).integers(0, 2, (200, 200)))
    start = time.monotonic()
    code, _, err = cli("solve", "--engine", "clingo", "--time-limit", "5", "--file", str(board))
    assert code == 2 and "2,500 cells" in err and time.monotonic() - start < 3
    start = time.monotonic()
    fifty = _board_50(tmp_path)
    code, _, _ = cli("solve", "--engine", "clingo", "--time-limit", "1", "--file", fifty)
    assert time.monotonic() - start < 2.0


def _board_50(tmp_path: Path) -> str:
    path = tmp_path / "b50.npy"
    np.save(path, np.random.default_rng(1).integers(0, 2, (50, 50)))
    return str(path)


def test_json_never_formats_a_press_grid_it_does_not_print(
    tmp_path: Path, cli, monkeypatch
) -> None:
    """Issue 67: ``--json`` on a board too large to print formatted the whole grid as text
    (24 s at 10,000x10,000) and then printed null."""
    from assistant.solver.engine import Solution

    board = tmp_path / "b.npy"
    np.save(board, np.random.default_rng(3).integers(0, 2, (120, 120), dtype=np.int8))

    def refuse(self):
        raise AssertionError("the press grid was formatted but is not printed")

    monkeypatch.setattr(Solution, "presses_text", refuse)
    code, out, err = cli("solve", "--json", "--no-minimize", "--file", str(board))
    data = json.loads(out)
    assert code in (0, 1) and err == ""
    assert data["presses"] is None
    assert ("presses_omitted" in data) == data["solvable"]


def test_boards_with_holes_have_their_own_measured_limit(tmp_path: Path, cli) -> None:
    """Issue 67: boards with holes and 3 states took 38 s at 1,000x1,000 and 431 s at
    2,000x2,000 under a 4,000,000-cell limit said to take seconds. They now have their own
    limit (shared out among the prime-power factors of k), refused before any work."""
    from assistant.limits import SOLVE_MAX_CELLS_HOLES

    over = tmp_path / "over.npy"
    array = np.lib.format.open_memmap(over, mode="w+", dtype=np.int8, shape=(1001, 1000))
    array[0, 0] = -1
    array.flush()
    del array
    code, _, err = cli("solve", "--states", "3", "--file", str(over))
    assert code == 2 and f"{SOLVE_MAX_CELLS_HOLES:,}" in err and "with holes." in err
    assert err.count("\n") == 1 and "and takes" not in err
    small = tmp_path / "small.npy"
    np.save(small, np.where(np.eye(710, dtype=bool), -1, 0).astype(np.int8))
    code, _, err = cli("solve", "--states", "6", "--file", str(small))
    assert code == 2 and "500,000" in err and "with holes and 6 states" in err
    code, out, err = cli("solve", "--states", "3", "--json", "--file", str(small))
    data = json.loads(out)
    assert code == 0 and err == "" and data["method"] == "chase-mod"


def test_clingo_limit_depends_on_the_states(tmp_path: Path, cli) -> None:
    """Issue 67: grounding grows with the states (50x50 with 36 states: a minute before
    any time limit applied), so more states lower clingo's size limit."""
    pytest.importorskip("clingo")
    board = tmp_path / "b30.npy"
    np.save(board, np.random.default_rng(2).integers(0, 16, (30, 30)))
    code, _, err = cli("solve", "--engine", "clingo", "--states", "16", "--file", str(board))
    assert code == 2 and "711 cells" in err and "with 16 states" in err and "30x30" in err


def test_the_time_limit_starts_with_the_process() -> None:
    """Issue 67: ``--time-limit`` covers the whole call, so its clock starts when the
    program does (here half a second of sleep stands for the start-up)."""
    if not sys.platform.startswith("linux") and sys.platform != "win32":
        pytest.skip("the process start time is read on Linux and Windows only")
    code = (
        "import time; time.sleep(0.5); from assistant.commands.solve import _call_started; "
        "print(time.monotonic() - _call_started())"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert 0.5 <= float(result.stdout) < 10


def test_files_are_told_what_they_are(tmp_path: Path, cli, monkeypatch) -> None:
    """Issue 67: a .npy piped to ``--file -`` was taken for a huge text board, a picture
    was "invalid start byte", a header claiming 100000x100000 was "not a .npy array"."""
    import io

    array = tmp_path / "b.npy"
    np.save(array, np.array([[1, 0], [0, 1]], dtype=np.int8))
    stdin = io.TextIOWrapper(io.BytesIO(array.read_bytes()))
    monkeypatch.setattr(sys, "stdin", stdin)
    code, out, err = cli("solve", "--file", "-")
    assert code == 0 and err == "" and out.splitlines()[:2] == ["01", "10"]
    picture = tmp_path / "picture.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    code, _, err = cli("solve", "--file", str(picture))
    assert code == 2 and "is a PNG picture, not a board" in err and "start byte" not in err
    binary = tmp_path / "junk.bin"
    binary.write_bytes(bytes(range(128, 256)))
    code, _, err = cli("solve", "--file", str(binary))
    assert code == 2 and "not UTF-8 text" in err and "start byte" not in err
    claims = tmp_path / "claims.npy"
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "|i1", "fortran_order": False, "shape": (100_000, 100_000)}
    )
    claims.write_bytes(header.getvalue() + bytes(16))
    code, _, err = cli("solve", "--file", str(claims))
    assert code == 2 and "A 100,000x100,000 grid has 10,000,000,000 cells" in err
    short = tmp_path / "short.npy"
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "|i1", "fortran_order": False, "shape": (300, 300)}
    )
    short.write_bytes(header.getvalue() + bytes(16))
    code, _, err = cli("solve", "--file", str(short))
    assert code == 2 and "is cut short" in err and "90,000 bytes" in err


def test_big_counts_have_thousands_separators(cli) -> None:
    """Issue 67: counts printed as 4294967296 or in full, thousands of digits."""
    zeros = "/".join(["0" * 39] * 39)
    code, out, _ = cli("solve", "--objective", "0", "--no-minimize", zeros)
    assert code == 0 and out.splitlines()[-1].endswith("; 4,294,967,296 solutions.")
    ones = "/".join(["1" * 80] * 80)  # all lit, to be turned all dark: over 1,000 presses
    code, out, _ = cli("solve", "--objective", "0", "--no-minimize", ones)
    total = out.splitlines()[-1].split(" ")[0]
    assert code == 0 and "," in total and int(total.replace(",", "")) >= 1000


def test_bench_limit_rows_run_a_fresh_call_and_print_the_stated_figure(tmp_path: Path) -> None:
    """Issue 67: ``bench --limits`` runs each stated limit as a fresh call and prints its
    seconds (and CPU seconds and peak memory where the platform says) beside the figure
    the README states; here on one small case."""
    from lab.commands.bench import LimitCase, _limit_line, _run_limit

    def make(folder: Path) -> list[str]:
        return ["solve", "--preset", "toa", "111/0#0/110"]

    row = _run_limit(LimitCase("toa", "instant", make), tmp_path)
    assert row["exit"] == 0 and row["seconds"] > 0 and row["stated"] == "instant"
    if hasattr(__import__("os"), "wait4"):
        assert row["cpu_seconds"] > 0 and row["peak_rss_mib"] > 10
    line = _limit_line(row)
    assert line.startswith("toa ") and line.endswith("  instant")
