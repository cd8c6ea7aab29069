"""The engine against brute force over every press grid, on every small board."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from lightsout_brute import brute_table

from assistant.puzzle import TOA_PLATES, Board, toa_board
from assistant.solver import solve

#: OEIS A159257: nullity of the n x n Lights Out board, n = 1..40.
A159257 = [
    0,
    0,
    0,
    4,
    2,
    0,
    0,
    0,
    8,
    0,
    6,
    0,
    0,
    4,
    0,
    8,
    2,
    0,
    16,
    0,
    0,
    0,
    14,
    4,
    0,
    0,
    0,
    0,
    10,
    20,
    0,
    20,
    16,
    4,
    6,
    0,
    0,
    0,
    32,
    0,
]


def _check_against_table(board: Board, table) -> None:
    solution = solve(board)
    target = board.target_delta()[board.present].astype(np.int64)
    code = table.encode(target)
    count = int(table.count[code])
    assert solution.solvable == (count > 0), board
    if count == 0:
        assert solution.presses is None
        assert solution.solutions == 0
        assert solution.reason
        return
    assert solution.solutions == count, board
    assert solution.kernel_size == count
    assert solution.minimal, board
    assert solution.total_presses == int(table.fewest[code]), board
    assert board.apply(solution.presses).is_solved(), board
    assert np.all(solution.presses[~board.present] == 0)


@pytest.mark.parametrize("rows,cols", [(r, c) for r in range(1, 5) for c in range(1, 5)])
def test_every_two_state_board_up_to_4x4(rows: int, cols: int) -> None:
    present = np.ones((rows, cols), dtype=bool)
    table = brute_table(present, 2)
    for bits in itertools.product((0, 1), repeat=rows * cols):
        states = np.array(bits, dtype=np.int64).reshape(rows, cols)
        _check_against_table(Board.from_arrays(states, present, 2, 1), table)
        if rows * cols <= 9:  # the objective only shifts the target; check its mapping too
            _check_against_table(Board.from_arrays(states, present, 2, 0), table)


def test_every_hole_pattern_and_state_of_3x3() -> None:
    checked = 0
    for mask_bits in range(1, 2**9):
        present = np.array([(mask_bits >> i) & 1 for i in range(9)], dtype=bool).reshape(3, 3)
        table = brute_table(present, 2)
        n = int(present.sum())
        for bits in itertools.product((0, 1), repeat=n):
            states = np.zeros((3, 3), dtype=np.int64)
            states[present] = bits
            _check_against_table(Board.from_arrays(states, present, 2, 1), table)
            checked += 1
    assert checked == 3**9 - 1  # sum over masks of 2^present, minus the empty mask


def test_board_of_only_holes_is_already_solved() -> None:
    board = Board.from_arrays(np.zeros((2, 2), dtype=np.int64), np.zeros((2, 2), dtype=bool))
    solution = solve(board)
    assert solution.solvable and solution.total_presses == 0 and solution.solutions == 1


def test_all_256_toa_states() -> None:
    present = np.ones((3, 3), dtype=bool)
    present[1, 1] = False
    table = brute_table(present, 2)
    for lit in range(256):
        states = np.zeros((3, 3), dtype=np.int64)
        for plate, (r, c) in enumerate(TOA_PLATES):
            states[r, c] = (lit >> plate) & 1
        board = Board.from_arrays(states, present, 2, 1)
        _check_against_table(board, table)
        solution = solve(board)
        assert solution.solutions == 1 and solution.total_presses <= 8
        # Choosing the wrong goal (all dark) gives exactly the complement of the answer.
        dark = solve(Board.from_arrays(states, present, 2, 0))
        assert np.array_equal(dark.presses[present], 1 - solution.presses[present])


def test_toa_screenshot_answer() -> None:
    solution = solve(toa_board("111/0#0/110"))
    assert solution.presses_text() == "110/0#1/000"
    assert (solution.total_presses, solution.minimal, solution.solutions) == (3, True, 1)


# k > 2, prime and composite, with and without holes: random boards against brute force.
_MAX_CELLS = {3: 9, 4: 7, 5: 6, 6: 6, 8: 5, 9: 5, 12: 4}


@pytest.mark.parametrize("k", sorted(_MAX_CELLS))
@pytest.mark.parametrize("holes", [False, True])
def test_random_small_boards_many_states(k: int, holes: bool) -> None:
    rng = np.random.default_rng(1000 * k + holes)
    shapes_done = 0
    while shapes_done < 6:
        rows, cols = (int(v) for v in rng.integers(1, 4, size=2))
        present = np.ones((rows, cols), dtype=bool)
        if holes:
            present = rng.random((rows, cols)) < 0.75
        n = int(present.sum())
        if n == 0 or n > _MAX_CELLS[k] or (holes and present.all()):
            continue
        shapes_done += 1
        table = brute_table(present, k)
        for _ in range(25):
            states = rng.integers(0, k, size=(rows, cols)) * present
            objective = int(rng.integers(0, k))
            _check_against_table(Board.from_arrays(states, present, k, objective), table)


def test_nullity_of_square_boards_matches_oeis_a159257() -> None:
    for n, expected in enumerate(A159257, start=1):
        board = Board.from_arrays(np.zeros((n, n), dtype=np.int64))
        assert solve(board, minimize=False).nullity == expected, n


#: Shapes whose every hole pattern is checked, per k (brute force is k^cells press grids).
_HOLED_SHAPES = {
    3: [(1, 6), (2, 3), (3, 2), (2, 4)],
    4: [(1, 5), (2, 3), (3, 2), (2, 4)],
    6: [(1, 5), (2, 3), (3, 2)],
    8: [(1, 4), (2, 2), (2, 3)],
    9: [(1, 4), (2, 2), (2, 3)],
    12: [(1, 4), (2, 2)],
}


@pytest.mark.parametrize("k", sorted(_HOLED_SHAPES))
def test_every_hole_pattern_of_small_boards_many_states(k: int) -> None:
    """Every hole pattern (at least one hole) of each shape, with random positions and
    objectives, against brute force: the row chase over Z_{p^e} (composite k split by
    CRT, never a field) must count, solve and minimise exactly."""
    rng = np.random.default_rng(k)
    for rows, cols in _HOLED_SHAPES[k]:
        cells = rows * cols
        for mask_bits in range(1, 2**cells - 1):
            present = np.array([(mask_bits >> i) & 1 for i in range(cells)], dtype=bool)
            present = present.reshape(rows, cols)
            if k**present.sum() > 3**9:
                continue
            table = brute_table(present, k)
            for _ in range(3):
                states = rng.integers(0, k, size=(rows, cols)) * present
                objective = int(rng.integers(0, k))
                _check_against_table(Board.from_arrays(states, present, k, objective), table)
