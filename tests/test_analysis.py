"""Optimal-play analysis against an independent brute force over every press grid."""

from __future__ import annotations

import numpy as np
import pytest
from lightsout_brute import brute_table

from assistant.analysis import AnalysisError, analysis_size, analyze_board_shape
from assistant.errors import UserError
from assistant.puzzle import Board, BoardError
from assistant.solver import solve


def brute_histogram(present: np.ndarray, k: int) -> list[int]:
    """Fewest presses of every reachable target delta, from the brute-force table."""
    table = brute_table(present, k)
    fewest = table.fewest[table.count > 0]
    return np.bincount(fewest).tolist()


def hole_mask(rows: int, cols: int, holes: list[tuple[int, int]]) -> np.ndarray:
    present = np.ones((rows, cols), dtype=bool)
    for r, c in holes:
        present[r, c] = False
    return present


SHAPES = [
    (1, 1, [], 2),
    (1, 4, [], 3),
    (2, 2, [], 2),
    (2, 3, [], 2),
    (2, 3, [], 3),
    (3, 3, [], 2),
    (3, 3, [(1, 1)], 2),
    (3, 3, [(1, 1)], 3),
    (2, 2, [], 4),
    (2, 3, [(0, 1)], 5),
    (3, 3, [(0, 0), (2, 2)], 3),
    (2, 2, [], 6),
    (4, 4, [], 2),
    (1, 5, [(0, 2)], 4),
]


@pytest.mark.parametrize(("rows", "cols", "holes", "k"), SHAPES)
def test_histogram_matches_brute_force(rows: int, cols: int, holes: list, k: int) -> None:
    present = hole_mask(rows, cols, holes)
    truth = brute_histogram(present, k)
    result = analyze_board_shape(present, k)
    cells = int(present.sum())
    assert list(result.histogram) == truth
    assert result.solvable_states == sum(truth)
    assert result.press_space == k**cells
    assert result.solvable_states * result.kernel_size == k**cells
    assert result.max_presses == len(truth) - 1
    assert analysis_size(present, k) == (k**cells, result.kernel_size)


@pytest.mark.parametrize(("rows", "cols", "holes", "k"), SHAPES)
def test_example_needs_the_maximum(rows: int, cols: int, holes: list, k: int) -> None:
    present = hole_mask(rows, cols, holes)
    for objective in {0, k - 1}:
        result = analyze_board_shape(present, k, objective)
        board = result.example
        assert board.k == k and board.objective == objective
        assert np.array_equal(board.present, present)
        assert board.apply(result.example_presses).is_solved()
        assert int(result.example_presses.sum()) == result.max_presses
        best = solve(board)
        assert best.minimal and best.total_presses == result.max_presses


def test_all_off_to_all_on() -> None:
    present = np.ones((3, 3), dtype=bool)
    result = analyze_board_shape(present, 2)
    # 3x3 has a trivial kernel: the only solution presses 5 cells (the plus and corners).
    assert result.all_on == 5 and result.all_on_proven
    table = brute_table(present, 2)
    assert result.all_on == table.fewest[table.encode(np.ones(9, dtype=np.int64))]
    # With a hole in the middle and 3 states all-on cannot be reached from all-off.
    holed = analyze_board_shape(hole_mask(3, 3, [(1, 1)]), 3)
    assert holed.all_on is None and not holed.all_on_proven
    off = Board.from_arrays(np.zeros((3, 3), dtype=np.int64), hole_mask(3, 3, [(1, 1)]), 3)
    assert not solve(off).solvable


def test_five_by_five_known_figures() -> None:
    """Anderson and Feil (1998): 2^23 solvable positions, kernel 4, at most 15 presses."""
    fractions: list[float] = []
    result = analyze_board_shape(np.ones((5, 5), dtype=bool), 2, progress=fractions.append)
    assert result.solvable_states == 2**23 and result.kernel_size == 4
    assert result.max_presses == 15 and result.histogram[15] == 7350
    assert result.histogram[:3] == (1, 25, 300) and sum(result.histogram) == 2**23
    assert result.all_on == 15 and result.all_on_proven
    assert fractions and fractions[-1] == 1.0 and fractions == sorted(fractions)
    assert solve(result.example).total_presses == 15


def test_json_fields() -> None:
    result = analyze_board_shape(hole_mask(2, 3, [(0, 1)]), 3)
    payload = result.to_json()
    for field in ("solvable_states", "histogram", "max_presses", "example", "kernel_size"):
        assert field in payload
    assert payload["histogram"] == list(result.histogram)
    assert Board.parse(payload["example"], k=3) == result.example


def test_refusals_are_one_sentence() -> None:
    with pytest.raises(AnalysisError, match=r"2\^36 = 68,719,476,736 press grids.*limit of") as e:
        analyze_board_shape(np.ones((6, 6), dtype=bool), 2)
    assert isinstance(e.value, UserError) and str(e.value).endswith(".")
    with pytest.raises(AnalysisError, match="quiet patterns"):
        analyze_board_shape(np.ones((4, 4), dtype=bool), 2, max_work=2**16)
    with pytest.raises(AnalysisError, match="hole"):
        analyze_board_shape(np.zeros((2, 2), dtype=bool), 2)
    with pytest.raises(AnalysisError, match="empty"):
        analyze_board_shape(np.ones((0, 3), dtype=bool), 2)
    with pytest.raises(BoardError, match="number of states"):
        analyze_board_shape(np.ones((2, 2), dtype=bool), 1)
    with pytest.raises(BoardError, match="objective"):
        analyze_board_shape(np.ones((2, 2), dtype=bool), 3, 3)
