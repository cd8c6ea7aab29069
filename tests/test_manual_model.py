"""The manual window's rules, without Qt: clicks per mode, reset/undo, randomize, grid
changes and refusals, hint, and the answer summary."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.errors import UserError
from assistant.gui.manual_model import (
    GridTooLargeError,
    ManualModel,
    Mode,
    blank_board,
    check_grid,
    describe_count,
    is_toa_shape,
    solution_summary,
    solve_with_engine,
)
from assistant.puzzle import Board, toa_board
from assistant.settings import GridSettings
from assistant.solver import random_solvable_board, solve


def model(text: str, k: int = 2, objective: int | None = None, **kw: object) -> ManualModel:
    return ManualModel(Board.parse(text, k, objective), **kw)  # type: ignore[arg-type]


# -- edit mode ----------------------------------------------------------------------------------
def test_edit_click_changes_only_that_cell() -> None:
    m = model("000/000/000", k=3)
    assert m.click(1, 1, +1)
    assert m.board.format() == "000/010/000"
    assert m.click(1, 1, -1) and m.click(1, 1, -1)
    assert m.board.format() == "000/020/000"  # -1 wraps: 0 -> 2 with k=3
    assert m.cursor == (1, 1)


def test_edit_click_on_a_hole_does_nothing() -> None:
    m = model("1#1")
    assert not m.click(0, 1, 1)
    assert m.board.format() == "1#1"
    assert not m.click(5, 5, 1)  # outside the grid


# -- play mode ----------------------------------------------------------------------------------
@pytest.mark.parametrize("k", [2, 3, 4])
def test_play_click_is_the_engines_press(k: int) -> None:
    rng = np.random.default_rng(k)
    board = Board.from_arrays(rng.integers(0, k, (4, 5)), rng.random((4, 5)) > 0.2, k)
    m = ManualModel(board)
    m.set_mode(Mode.PLAY)
    expected = board
    for _ in range(30):
        r, c = (int(v) for v in rng.integers(0, (4, 5)))
        changed = m.click(r, c, 1)
        if board.present[r, c]:
            expected = expected.press(r, c)
            assert changed
        assert m.board == expected
    # right click takes a press back
    r, c = (int(v) for v in np.argwhere(board.present)[0])
    before = m.board
    m.click(r, c, 1)
    m.click(r, c, -1)
    assert m.board == before


def test_toa_play_through_the_engines_answer_solves_the_room() -> None:
    m = ManualModel.from_reading(toa_board("111/0#0/110"))
    assert m.toa and m.show_solution
    answer = solve(m.board)
    m.set_mode(Mode.PLAY)
    for r, c in np.argwhere(answer.presses):
        m.click(int(r), int(c))
    assert m.board.is_solved()


# -- holes --------------------------------------------------------------------------------------
def test_hole_tool_toggles_and_brings_cells_back_at_zero() -> None:
    m = model("12/21", k=3)
    m.set_mode(Mode.HOLES)
    assert m.click(0, 1)
    assert m.board.format() == "1#/21"
    assert m.click(0, 1)
    assert m.board.format() == "10/21"


def test_toggling_a_toa_hole_leaves_the_preset() -> None:
    m = ManualModel(toa_board("000/0#0/000"), toa=True)
    assert m.toa
    m.toggle_hole(1, 1)
    assert not m.toa and m.board.present.all()


# -- reset, undo, clear -------------------------------------------------------------------------
def test_reset_returns_to_the_reading_after_edits_and_play() -> None:
    reading = toa_board("111/0#0/110")
    m = ManualModel.from_reading(reading)
    m.click(1, 0)  # the player corrects a misread plate
    assert m.board.format() == "111/1#0/110"
    m.set_mode(Mode.PLAY)  # play starts from the corrected board
    m.click(0, 0)
    assert m.reset()
    assert m.board.format() == "111/1#0/110"
    m.set_mode(Mode.EDIT)
    m.set_board(reading)
    m.click(2, 2)
    m.reset()
    assert m.board == reading


def test_undo_redo() -> None:
    m = model("00")
    m.click(0, 0)
    m.click(0, 1)
    assert m.board.format() == "11"
    assert m.undo() and m.board.format() == "10"
    assert m.undo() and m.board.format() == "00"
    assert not m.undo()
    assert m.redo() and m.board.format() == "10"
    m.click(0, 0)  # a new change drops the redo branch
    assert not m.can_redo()


def test_clear_keeps_holes() -> None:
    m = model("12#/210", k=3)
    m.clear()
    assert m.board.format() == "00#/000"
    assert m.start == m.board


# -- randomize ----------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(1, 7),
    cols=st.integers(1, 7),
    k=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
    data=st.data(),
)
def test_randomize_is_always_solvable(rows: int, cols: int, k: int, seed: int, data) -> None:
    objective = data.draw(st.integers(0, k - 1))
    holes = np.random.default_rng(seed).random((rows, cols)) < 0.25
    m = ManualModel(blank_board(rows, cols, k, objective, ~holes))
    m.randomize(seed)
    assert np.array_equal(m.board.present, ~holes)
    assert (m.board.k, m.board.objective) == (k, objective)
    answer = solve(m.board)
    assert answer.solvable
    assert m.board.apply(answer.presses).is_solved()
    assert m.start == m.board


def test_randomize_same_seed_same_board() -> None:
    a, b = model("0000/0000"), model("0000/0000")
    a.randomize(11)
    b.randomize(11)
    assert a.board == b.board


# -- grids and refusals -------------------------------------------------------------------------
def test_new_grid_keeps_what_fits() -> None:
    m = model("12/#1", k=3)
    m.new_grid(3, 3, 2, 1)
    assert m.board.format() == "110/#10/000"  # state 2 becomes 1 (k-1) with k=2
    assert (m.board.k, m.board.objective) == (2, 1)


def test_sizes_above_100_are_refused_with_a_pointer_to_solve_file() -> None:
    check_grid(100, 100, 36)
    m = model("00")
    with pytest.raises(GridTooLargeError) as caught:
        m.new_grid(101, 5, 2, 1)
    message = str(caught.value)
    assert "toa-assistant solve --file" in message
    assert message.count(". ") == 0 and message.endswith(".")
    assert isinstance(caught.value, UserError)
    assert m.board.format() == "00"  # unchanged
    with pytest.raises(GridTooLargeError, match="solve --file"):
        ManualModel(blank_board(1, 101))
    with pytest.raises(GridTooLargeError, match="2 to 36 states"):
        m.new_grid(2, 2, 37, 1)
    with pytest.raises(UserError, match="out of range"):
        m.new_grid(2, 2, 3, 3)


def test_toa_preset_and_shape() -> None:
    m = model("0000")
    m.use_toa(objective=0)
    assert m.toa and is_toa_shape(m.board)
    assert m.board.format() == "000/0#0/000" and m.board.objective == 0
    assert not is_toa_shape(Board.parse("000/0#0/000", k=3))


def test_from_grid_settings() -> None:
    m = ManualModel.from_grid(GridSettings(3, 3, 2, 1, "101/0#0/111"))
    assert m.toa and not m.show_solution
    assert m.board.format() == "101/0#0/111"
    assert m.grid_settings() == GridSettings(3, 3, 2, 1, "101/0#0/111")
    assert ManualModel.from_grid(GridSettings(2, 3, 4, 0)).board.format() == "000/000"


def test_cursor_stays_on_the_board() -> None:
    m = model("000/000")
    assert m.move_cursor(-1, -1) == (0, 0)
    assert m.move_cursor(5, 5) == (1, 2)
    m.new_grid(1, 1, 2, 1)
    assert m.cursor == (0, 0)


# -- the answer ---------------------------------------------------------------------------------
def test_accept_only_answers_for_the_board_on_screen() -> None:
    m = model("10/01")
    old = solve(m.board)
    m.click(0, 0)
    assert not m.accept(old)
    assert not m.solution_current
    assert m.solve_now() is None
    assert m.solution_current and m.solution.board == m.board


def test_hint_is_a_press_of_the_answer_nearest_the_cursor() -> None:
    m = ManualModel(toa_board("111/0#0/110"))
    assert m.next_hint() is None  # no answer yet
    m.solve_now()
    m.cursor = (2, 2)
    hint = m.next_hint()
    assert hint == (1, 2)  # presses 110/0#1/000: (1,2) is nearest (2,2)
    assert m.hint_sentence() == "Hint: press row 2, column 3."
    m.set_mode(Mode.PLAY)
    m.click(*hint)
    assert m.hint is None  # the board changed: the hint is spent
    m.solve_now()
    assert m.next_hint() in {(0, 0), (0, 1)}


def test_no_hint_on_solved_or_unsolvable_boards() -> None:
    m = model("11/11")
    m.solve_now()
    assert m.next_hint() is None
    # the 4x4 board has quiet patterns, so a single unlit cell cannot be fixed
    unsolvable = Board.parse("1000/0000/0000/0000", 2, 0)
    m = ManualModel(unsolvable)
    m.solve_now()
    assert not m.solution.solvable
    assert m.next_hint() is None


def test_summary_sentences() -> None:
    toa = solve(toa_board("111/0#0/110"))
    assert solution_summary(toa) == "3 presses (proven minimal); 1 solution."
    k3 = solve(random_solvable_board(4, 4, k=3, seed=3))
    expected = f"{k3.total_presses} presses on {np.count_nonzero(k3.presses)} cells"
    assert solution_summary(k3).startswith(expected)
    assert f"; {describe_count(k3.solutions)} solution" in solution_summary(k3)
    many = solve(random_solvable_board(4, 4, k=2, seed=1))  # the 4x4 board has 16 solutions
    assert many.solutions == 16
    assert solution_summary(many).endswith("proven minimal); 16 solutions.")
    bad = solve(Board.parse("1000/0000/0000/0000", 2, 0))
    assert solution_summary(bad) == bad.reason
    assert solution_summary(solve(Board.parse("11", 2, 1))).startswith("Solved")
    one_cell = solve(Board.parse("0", 5, 2))
    assert solution_summary(one_cell) == "2 presses on 1 cell (proven minimal); 1 solution."
    assert solution_summary(solve(Board.parse("0", 2, 1))).startswith("1 press (proven")
    all_holes = solve(Board.parse("##/##", 3, 1))
    assert all_holes.solvable and solution_summary(all_holes).startswith("Solved")


def test_describe_count() -> None:
    assert describe_count(1) == "1"
    assert describe_count(27) == "27"
    assert describe_count(65_536) == "65,536 = 2^16"
    assert describe_count(3**20) == "3,486,784,401 = 3^20"
    assert describe_count(2**66) == "2^66 ≈ 7.38e+19"
    assert describe_count(2**100_000).startswith("2^100000 ≈ 9.99e+30102")
    assert describe_count(10**30 + 7) == "≈ 1.00e+30"
    assert describe_count(2**40 * 3**40).startswith("6^40 ≈ ")


def test_clingo_falls_back_with_a_sentence_when_missing() -> None:
    board = toa_board("111/0#0/110")
    solution, note = solve_with_engine(board, "clingo")
    assert solution.presses_text() == "110/0#1/000"
    try:
        import assistant.solver.asp  # noqa: F401
    except ImportError:
        assert note is not None and "internal engine" in note
    else:
        assert note is None


def test_clingo_beyond_its_limit_falls_back_with_a_sentence() -> None:
    import numpy as np

    from assistant.gui.manual_model import solve_with_engine
    from assistant.puzzle import Board

    board = Board.from_arrays(np.zeros((60, 60), int), np.ones((60, 60), bool), 2, 1)
    solution, note = solve_with_engine(board, "clingo")
    assert solution.solvable and note is not None and "2,500 cells" in note
