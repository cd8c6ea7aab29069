"""Properties of the engine on boards too large for brute force, and the methods
cross-checked against each other and against the dense textbook elimination."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lightsout_brute import move_matrix

from assistant.puzzle import Board, BoardError
from assistant.solver import kernel_of, random_solvable_board, solve
from assistant.solver.chase import reduce_by_chasing
from assistant.solver.dense import solve_dense_gf2
from assistant.solver.modular import solve_mod
from assistant.solver.packed import solve_packed_gf2


@st.composite
def boards(draw, max_side: int = 9, max_k: int = 12):
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    k = draw(st.integers(2, max_k))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    present = rng.random((rows, cols)) >= draw(st.sampled_from([0.0, 0.0, 0.1, 0.3]))
    states = rng.integers(0, k, size=(rows, cols)) * present
    return Board.from_arrays(states, present, k, int(rng.integers(0, k)))


def _quiet(board: Board, pattern: np.ndarray) -> bool:
    zero = Board.from_arrays(np.zeros(board.shape, dtype=np.int64), board.present, board.k, 0)
    return not zero.apply(pattern).states.any()


@settings(max_examples=150, deadline=None)
@given(boards())
def test_answers_are_consistent_and_proven(board: Board) -> None:
    solution = solve(board)
    kernel = solution.kernel
    assert solution.kernel_size == int(np.prod(kernel.orders, dtype=object))
    for generator, order in zip(kernel.generators, kernel.orders, strict=True):
        assert _quiet(board, generator)
        assert _quiet(board, generator * order % board.k)  # order annihilates it
    if solution.solvable:
        assert board.apply(solution.presses).is_solved()
        assert solution.presses.min() >= 0 and solution.presses.max() < board.k
        assert solution.solutions == solution.kernel_size
    else:
        # The certificate is a quiet pattern that the distance to the goal does not annihilate.
        z = solution.certificate
        assert z is not None and _quiet(board, z)
        cells = board.present
        a = move_matrix(cells)
        assert not np.any(z[cells] @ a % board.k)
        assert int(z[cells] @ board.target_delta()[cells].astype(np.int64)) % board.k
        assert solution.solutions == 0 and solution.reason


@settings(max_examples=60, deadline=None)
@given(boards(max_side=24, max_k=2))
def test_two_states_agree_with_dense_elimination(board: Board) -> None:
    dense, nullity = solve_dense_gf2(board.target_delta(), board.present)
    solution = solve(board, minimize=False)
    assert solution.solvable == (dense is not None)
    assert solution.nullity == nullity


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6, 8, 9, 12])
def test_rectangle_method_agrees_with_generic_chase(k: int) -> None:
    rng = np.random.default_rng(k)
    for rows in range(1, 13):
        for cols in (1, 2, 5, 11, 12):
            present = np.ones((rows, cols), dtype=bool)
            states = rng.integers(0, k, size=(rows, cols))
            board = Board.from_arrays(states, present, k, int(rng.integers(0, k)))
            solution = solve(board, minimize=False, quiet_patterns=True)
            assert solution.method.startswith("rectangle")
            chase = reduce_by_chasing(board.target_delta(), present, k)
            reference = solve_mod(chase.matrix, chase.rhs, k)
            assert solution.solvable == reference.solvable, (rows, cols)
            assert solution.kernel_size == reference.kernel_size, (rows, cols)
            if solution.solvable:
                assert board.apply(solution.presses).is_solved()


def test_packed_chase_agrees_with_dense_elimination_on_holed_boards() -> None:
    rng = np.random.default_rng(7)
    for _ in range(40):
        rows, cols = (int(v) for v in rng.integers(2, 40, size=2))
        present = rng.random((rows, cols)) >= rng.choice([0.01, 0.05, 0.2])
        target = rng.integers(0, 2, size=(rows, cols)) * present
        packed = solve_packed_gf2(target, present, want_kernel=True)
        dense, nullity = solve_dense_gf2(target, present)
        assert packed.nullity == nullity
        assert (packed.presses is None) == (dense is None)
        assert len(packed.kernel) == nullity


@pytest.mark.parametrize(
    "rows,cols,k,holes",
    [
        (300, 300, 2, 0.01),
        (200, 200, 3, 0.0),
        (120, 90, 4, 0.0),
        (60, 60, 9, 0.0),
        (40, 40, 12, 0.0),
        (25, 30, 6, 0.05),
        (64, 130, 2, 0.0),
        (150, 70, 2, 0.02),
    ],
)
def test_large_boards_are_solved_exactly(rows: int, cols: int, k: int, holes: float) -> None:
    rng = np.random.default_rng(rows * cols + k)
    present = rng.random((rows, cols)) >= holes
    board = random_solvable_board(rows, cols, k, present=present, seed=rng)
    solution = solve(board, minimize=False)
    assert solution.solvable
    assert board.apply(solution.presses).is_solved()


def test_fewest_presses_is_proven_up_to_two_to_the_twenty_quiet_patterns() -> None:
    board = random_solvable_board(30, 30, seed=3)  # nullity 20: 2^20 solutions
    solution = solve(board)
    assert solution.kernel_size == 2**20
    assert solution.minimal
    any_solution = solve(board, minimize=False)
    assert solution.total_presses <= any_solution.total_presses
    assert board.apply(solution.presses).is_solved()


def test_beyond_the_budget_the_best_found_is_not_called_minimal() -> None:
    board = random_solvable_board(39, 39, seed=4)  # nullity 32
    solution = solve(board, seconds=0.2)
    assert solution.kernel_size == 2**32
    assert not solution.minimal
    assert board.apply(solution.presses).is_solved()
    assert solution.total_presses <= solve(board, minimize=False).total_presses


def test_known_fewest_presses_all_off_to_all_on() -> None:
    # 5x5: 15 presses; 4x4 (kernel 16): 4 presses; 3x3: 5 presses.
    for n, expected in ((5, 15), (4, 4), (3, 5)):
        solution = solve(Board.from_arrays(np.zeros((n, n), dtype=np.int64)))
        assert solution.minimal and solution.total_presses == expected


def test_astronomical_solution_counts_are_exact_integers() -> None:
    full = np.ones((39, 39), dtype=bool)
    two, three, six = (kernel_of(full, k).size for k in (2, 3, 6))
    assert two == 2**32
    assert six == two * three  # Z_6 = Z_2 x Z_3: the kernel splits by CRT
    board = Board.from_arrays(np.zeros((39, 39), dtype=np.int64), k=6, objective=0)
    solution = solve(board, minimize=False)
    assert solution.solutions == six and isinstance(solution.solutions, int)


def test_composite_states_are_a_ring_not_a_field() -> None:
    # 1x2 with k=4: pressing either cell adds 1 to both; a difference of 2 is unreachable,
    # though it would be reachable if 2 were invertible.
    board = Board.from_arrays(np.array([[0, 2]]), k=4, objective=0)
    solution = solve(board)
    assert not solution.solvable
    assert "mod 4" in solution.reason
    assert solve(Board.from_arrays(np.array([[1, 1]]), k=4, objective=0)).solutions == 4


def test_random_solvable_boards_are_seeded_and_solvable() -> None:
    for seed in range(50):
        board = random_solvable_board(6, 7, k=(seed % 5) + 2, seed=seed)
        assert board == random_solvable_board(6, 7, k=(seed % 5) + 2, seed=seed)
        assert solve(board).solvable


def test_too_many_states_is_refused_with_a_sentence() -> None:
    with pytest.raises(BoardError, match="states"):
        solve(Board.from_arrays(np.zeros((2, 2), dtype=np.int64), k=2**31 + 1, objective=0))


def _prime_power(k: int) -> tuple[int, int]:
    from assistant.solver.modular import factorize

    ((p, e),) = factorize(k)
    return p, e


@pytest.mark.parametrize("wide", [False, True])
def test_chase_mod_agrees_with_the_plain_chase_over_prime_powers(wide: bool) -> None:
    """The row chase over Z_{p^e} against the plain chase to a dense system: solvability,
    the kernel's orders, a solution, and every generator quiet with its order. Wide
    boards take the in-place path for wide intervals and retire variables."""
    from assistant.solver.chase_mod import solve_chase_mod

    rng = np.random.default_rng(3 + wide)
    checked = 0
    while checked < (40 if wide else 400):
        rows, cols = (int(v) for v in rng.integers(1, 90 if wide else 8, size=2))
        if wide:
            rows = int(rng.integers(1, 30))
        k = int(rng.choice([3, 4, 5, 8, 9, 25, 27, 49, 257, 2**31 - 1]))
        present = rng.random((rows, cols)) > rng.random() * 0.6
        if not present.any():
            continue
        checked += 1
        board = Board.from_arrays(
            rng.integers(0, k, (rows, cols)) * present, present, k, int(rng.integers(0, k))
        )
        p, e = _prime_power(k)
        result = solve_chase_mod(board.target_delta(), present, p, e)
        chase = reduce_by_chasing(board.target_delta(), present, k)
        reference = solve_mod(chase.matrix, chase.rhs, k)
        assert (result.presses is not None) == reference.solvable
        assert sorted(result.orders) == sorted(reference.orders)
        if result.presses is not None:
            assert board.apply(result.presses).is_solved()
        for generator, order in zip(result.generators, result.orders, strict=True):
            assert _quiet(board, generator) and generator.any()
            assert not (generator * order % k).any()


def test_chase_mod_solves_what_it_is_given_and_counts_when_generators_are_capped() -> None:
    from assistant.solver.chase_mod import solve_chase_mod

    rng = np.random.default_rng(11)
    present = rng.random((60, 70)) >= 0.4  # many small pieces: a large kernel
    board = random_solvable_board(60, 70, 9, present=present, seed=rng)
    full = solve_chase_mod(board.target_delta(), present, 3, 2)
    capped = solve_chase_mod(board.target_delta(), present, 3, 2, max_generators=3)
    assert len(full.orders) > 3 and len(full.generators) == len(full.orders)
    assert capped.orders == full.orders and capped.generators == []
    for result in (full, capped):
        assert board.apply(result.presses).is_solved()


def test_large_elimination_agrees_with_the_smith_form() -> None:
    from assistant.solver.modular import dot_mod, solve_mod_large, solve_mod_prime_power

    rng = np.random.default_rng(5)
    for q in (3, 4, 9, 2**31 - 1, 3**19):
        a, b = rng.integers(0, q, (7, 300)), rng.integers(0, q, (300, 5))
        exact = (a.astype(object) @ b.astype(object)) % q
        assert (dot_mod(a, b, q) == exact.astype(np.int64)).all()
    for trial in range(150):
        p, e = [(3, 1), (2, 2), (2, 3), (3, 2), (5, 1), (2, 1)][trial % 6]
        q = p**e
        rows, cols = (int(v) for v in rng.integers(1, 200, size=2))
        a = rng.integers(0, q, (rows, cols))
        if trial % 3 == 0:  # low rank, with multiples of p: the Smith-form tail is used
            a = a @ rng.integers(0, q, (cols, cols)) % q * rng.choice([1, p], (1, cols)) % q
        b = a @ rng.integers(0, q, cols) % q if trial % 4 else rng.integers(0, q, rows)
        large = solve_mod_large(a, b, p, e)
        reference = solve_mod_prime_power(a, b, p, e)
        assert large.solvable == reference.solvable
        assert sorted(large.orders) == sorted(reference.orders)
        if large.solvable:
            assert not ((a @ large.particular - b) % q).any()
        for generator, order in zip(large.generators, large.orders, strict=True):
            assert not (a @ generator % q).any() and not (generator * order % q).any()
            assert (generator * (order // p) % q).any()  # the order is exact


@pytest.mark.parametrize("k", [3, 4, 6, 12])
def test_hundred_by_hundred_with_holes_and_many_states(k: int) -> None:
    rng = np.random.default_rng(k)
    present = rng.random((100, 100)) >= 0.1
    board = random_solvable_board(100, 100, k, present=present, seed=rng)
    solution = solve(board)
    assert solution.method == "chase-mod"
    assert board.apply(solution.presses).is_solved()
