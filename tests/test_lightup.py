"""Light Up (Akari): parser, rule checker and solver against an independent brute force
and the ten reference puzzles in ../shared/lightup."""

from __future__ import annotations

import random

import pytest
from conftest import shared_file

from assistant.errors import UserError
from assistant.lightup import (
    LightUpError,
    LightUpPuzzle,
    check_lightup,
    format_lightup,
    generate_lightup,
    has_header,
    lit_cells,
    parse_lightup,
    solve_lightup,
)

# -- an independent reference ------------------------------------------------------------


def sees(puzzle: LightUpPuzzle, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Two cells on one row or column with no black cell between them."""
    (r1, c1), (r2, c2) = sorted([a, b])
    if r1 == r2:
        return all(not puzzle.is_wall(r1, c) for c in range(c1, c2 + 1))
    if c1 == c2:
        return all(not puzzle.is_wall(r, c1) for r in range(r1, r2 + 1))
    return False


def brute_force(puzzle: LightUpPuzzle) -> set[frozenset[tuple[int, int]]]:
    """Every lamp set of non-seeing lamps, filtered by the rule checker."""
    cells = puzzle.empty_cells()
    out: set[frozenset[tuple[int, int]]] = set()

    def walk(i: int, chosen: list[tuple[int, int]]) -> None:
        if i == len(cells):
            if check_lightup(puzzle, chosen) is None:
                out.add(frozenset(chosen))
            return
        walk(i + 1, chosen)
        if not any(sees(puzzle, cells[i], other) for other in chosen):
            chosen.append(cells[i])
            walk(i + 1, chosen)
            chosen.pop()

    walk(0, [])
    return out


def random_puzzle(rng: random.Random, rows: int, cols: int) -> LightUpPuzzle:
    """Random walls; numbers either planted from random lamps (often solvable) or random."""
    walls = rng.choice([0.15, 0.3, 0.45])
    grid = [["#" if rng.random() < walls else "." for _ in range(cols)] for _ in range(rows)]
    planted = rng.random() < 0.6
    lamps = {
        (r, c) for r in range(rows) for c in range(cols) if grid[r][c] == "." and rng.random() < 0.3
    }
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] == "#" and rng.random() < 0.7:
                if planted:
                    around = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                    n = sum(cell in lamps for cell in around)
                else:
                    n = rng.randint(0, 4)
                grid[r][c] = str(n)
    return LightUpPuzzle.from_rows("".join(row) for row in grid)


# -- solver ------------------------------------------------------------------------------


def test_solver_matches_brute_force_on_random_small_puzzles() -> None:
    rng = random.Random(7)
    solvable = unique = several = 0
    for _ in range(400):
        puzzle = random_puzzle(rng, rng.randint(1, 5), rng.randint(1, 5))
        truth = brute_force(puzzle)
        result = solve_lightup(puzzle, limit=10_000)
        assert result.exhausted
        assert result.count == len(truth), puzzle.cells
        assert set(result.solutions) == truth, puzzle.cells
        assert len(set(result.solutions)) == len(result.solutions)
        solvable += bool(truth)
        unique += len(truth) == 1
        several += len(truth) > 1
    # The sample exercises every outcome.
    assert solvable > 50 and unique > 30 and several > 30 and solvable < 400


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_limit_and_exhausted(limit: int) -> None:
    rng = random.Random(limit)
    for _ in range(150):
        puzzle = random_puzzle(rng, rng.randint(2, 5), rng.randint(2, 5))
        truth = brute_force(puzzle)
        result = solve_lightup(puzzle, limit=limit)
        assert result.count == min(limit, len(truth))
        assert set(result.solutions) <= truth
        # Exhausted means the count is exact; a search that stopped at the limit is not.
        assert result.exhausted == (len(truth) < limit)
        assert result.unique == (len(truth) == 1 and limit >= 2)


def test_open_row_has_one_solution_per_cell() -> None:
    puzzle, _ = parse_lightup("....")
    result = solve_lightup(puzzle, limit=10)
    assert result.count == 4 and result.exhausted
    assert {next(iter(s)) for s in result.solutions} == {(0, c) for c in range(4)}


def test_impossible_numbers() -> None:
    for text in ["4.\n..", "3#\n..", ".1.\n#0#\n..."]:
        puzzle, _ = parse_lightup(text)
        assert brute_force(puzzle) == set()
        result = solve_lightup(puzzle)
        assert result.count == 0 and result.exhausted and not result.solvable


@pytest.mark.parametrize("n", range(1, 11))
def test_reference_puzzles(n: int) -> None:
    puzzle, lamps = parse_lightup(shared_file("lightup", f"puzzle{n}.txt").read_text())
    assert lamps == frozenset()
    solved, reference = parse_lightup(shared_file("lightup", f"puzzle{n}.solution.txt").read_text())
    assert solved == puzzle
    assert check_lightup(puzzle, reference) is None
    result = solve_lightup(puzzle)
    assert result.unique
    assert result.solutions == [reference]


@pytest.mark.parametrize(("rows", "cols", "checks"), [(5, 5, None), (12, 9, None), (16, 16, 40)])
def test_generated_puzzles_are_unique_with_the_planted_solution(
    rows: int, cols: int, checks: int | None
) -> None:
    for seed in range(3):
        puzzle, lamps = generate_lightup(rows, cols, seed=seed, removal_checks=checks)
        assert check_lightup(puzzle, lamps) is None
        result = solve_lightup(puzzle)
        assert result.unique and result.solutions == [lamps]
        if rows * cols <= 25:
            assert brute_force(puzzle) == {lamps}
    again = generate_lightup(rows, cols, seed=0, removal_checks=checks)
    assert again == generate_lightup(rows, cols, seed=0, removal_checks=checks)


def test_solver_rejects_bad_arguments() -> None:
    puzzle, _ = parse_lightup("..")
    with pytest.raises(LightUpError, match="limit"):
        solve_lightup(puzzle, limit=0)
    with pytest.raises(LightUpError, match="puzzle"):
        solve_lightup("..", limit=2)  # type: ignore[arg-type]


# -- rules -------------------------------------------------------------------------------


def test_check_names_the_first_broken_rule() -> None:
    puzzle, _ = parse_lightup("...#.\n.2...\n.....")
    assert check_lightup(puzzle, set()) == "cell 1,1 is dark"
    assert check_lightup(puzzle, {(0, 0), (0, 2), (2, 4), (1, 3)}) == (
        "lamps at 1,1 and 1,3 see each other"
    )
    # Every cell lit, no lamps see each other, but the 2 has one lamp.
    lamps = {(0, 0), (1, 2), (2, 4)}
    assert lit_cells(puzzle, lamps) >= set(puzzle.empty_cells())
    assert check_lightup(puzzle, lamps) == "number at 2,2 wants 2 and has 1"
    assert check_lightup(puzzle, {(0, 2), (1, 0), (2, 1), (1, 4)}) is None


def test_vertical_lamps_see_each_other_and_walls_block() -> None:
    puzzle, _ = parse_lightup(".\n.\n#\n.")
    assert check_lightup(puzzle, {(0, 0), (1, 0), (3, 0)}) == "lamps at 1,1 and 2,1 see each other"
    assert check_lightup(puzzle, {(0, 0), (3, 0)}) is None


def test_lamps_off_the_empty_cells_are_user_errors() -> None:
    puzzle, _ = parse_lightup(".#\n..")
    with pytest.raises(LightUpError, match=r"lamp at 1,2 is on a black cell"):
        check_lightup(puzzle, {(0, 1)})
    with pytest.raises(LightUpError, match=r"outside the 2x2 grid"):
        check_lightup(puzzle, {(5, 0)})


# -- text --------------------------------------------------------------------------------


def test_parse_with_header_lamps_and_round_trip() -> None:
    text = "3 4\nL.#1\n.#L.\n0..L\n"
    puzzle, lamps = parse_lightup(text)
    assert (puzzle.rows, puzzle.cols) == (3, 4)
    assert puzzle.cells == ("..#1", ".#..", "0...")
    assert lamps == {(0, 0), (1, 2), (2, 3)}
    assert puzzle.is_wall(0, 2) and puzzle.number(0, 2) is None
    assert puzzle.number(0, 3) == 1 and puzzle.number(2, 0) == 0 and puzzle.number(0, 0) is None
    assert has_header(text) and not has_header("..\n..")
    assert format_lightup(puzzle, lamps, header=True) == text
    assert format_lightup(puzzle, lamps) == "L.#1\n.#L.\n0..L\n"
    assert parse_lightup(format_lightup(puzzle, lamps)) == (puzzle, lamps)


def test_parse_tolerates_blank_lines_and_crlf() -> None:
    puzzle, lamps = parse_lightup("\r\n2 2\r\n.L\r\n#.\r\n\r\n")
    assert puzzle.cells == ("..", "#.") and lamps == {(0, 1)}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", r"^The puzzle is empty"),
        ("...\n..\n", r"^Row 2 has 2 cells but the puzzle is 3 cells wide"),
        ("..\n.x\n", r"^Unknown character 'x' at row 2, column 2"),
        ("..\n.5\n", r"^Unknown character '5' at row 2, column 2"),
        ("3 2\n..\n..\n", r"^The header says 3 rows but the grid has 2\.$"),
        ("2 3\n..\n..\n", r"^The header says 3 columns but row 1 has 2 cells\.$"),
        ("0 2\n", r"^The header says 0 rows and 2 columns"),
    ],
)
def test_malformed_input_is_one_sentence(text: str, message: str) -> None:
    with pytest.raises(LightUpError, match=message) as caught:
        parse_lightup(text)
    assert isinstance(caught.value, UserError)
    sentence = str(caught.value)
    assert sentence.endswith(".") and "\n" not in sentence


def test_puzzle_constructor_checks_its_rows() -> None:
    with pytest.raises(LightUpError, match="Unknown character 'L'"):
        LightUpPuzzle.from_rows(["L."])
    with pytest.raises(LightUpError, match="Row 2 has 1 cells"):
        LightUpPuzzle.from_rows(["..", "."])
    with pytest.raises(LightUpError, match="empty"):
        LightUpPuzzle.from_rows([])


def test_independent_groups_multiply() -> None:
    # Three rows cut apart by black cells: 2 x 4 x 7 solutions, one lamp per row.
    puzzle, _ = parse_lightup("..#....\n#######\n.......")
    result = solve_lightup(puzzle, limit=100)
    assert result.count == 56 and result.exhausted
    assert len(set(result.solutions)) == 56
    assert all(check_lightup(puzzle, lamps) is None for lamps in result.solutions)
    assert set(result.solutions) == brute_force(puzzle)
    for limit in (1, 2, 5, 55):
        partial = solve_lightup(puzzle, limit=limit)
        assert partial.count == limit and not partial.exhausted
        assert set(partial.solutions) <= set(result.solutions)
    assert solve_lightup(puzzle, limit=56).exhausted is False
    assert solve_lightup(puzzle, limit=57).exhausted is True
