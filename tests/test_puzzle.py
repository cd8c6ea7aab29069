"""The board model: text format, checks with one-sentence errors, moves."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.puzzle import Board, BoardError, format_grid, parse_grid, toa_board


def test_parse_and_format_round_trip() -> None:
    text = "1a3/#00/z#9"
    board = Board.parse(text, k=36, objective=0)
    assert board.format() == text
    assert board.states[0, 1] == 10 and board.states[2, 0] == 35
    assert not board.present[1, 0] and not board.present[2, 1]


def test_newlines_and_slashes_both_separate_rows() -> None:
    values, present = parse_grid("10\n01\r\n")
    assert values.tolist() == [[1, 0], [0, 1]] and present.all()
    assert parse_grid(" 10/01 ")[0].tolist() == [[1, 0], [0, 1]]


@pytest.mark.parametrize(
    "text,k,objective,fragment",
    [
        ("", 2, None, "empty"),
        ("  /  ", 2, None, "empty"),
        ("11/1", 2, None, "Row 2 has 1 cell but row 1 has 2 cells"),
        ("1?/11", 2, None, "'?' at row 1, column 2"),
        ("10/12", 2, None, "row 2, column 2 holds 2"),
        ("10/11", 1, None, "at least 2"),
        ("10/11", 2, 2, "objective 2 is out of range"),
        ("10/11", 3, -1, "objective -1 is out of range"),
    ],
)
def test_bad_boards_get_one_sentence(
    text: str, k: int, objective: int | None, fragment: str
) -> None:
    with pytest.raises(BoardError) as caught:
        Board.parse(text, k=k, objective=objective)
    message = str(caught.value)
    assert fragment in message
    assert "\n" not in message and message.endswith(".")


def test_press_toggles_the_cell_and_present_neighbours_only() -> None:
    board = Board.parse("000/0#0/000")
    assert board.press(0, 1).format() == "111/0#0/000"
    assert board.press(1, 0).format() == "100/1#0/100"  # nothing across the hole
    assert board.press(0, 0).press(0, 0) == board
    with pytest.raises(BoardError, match="no cell at row 2, column 2"):
        board.press(1, 1)


def test_apply_is_mod_k_and_order_free() -> None:
    board = Board.parse("00/00", k=3, objective=2)
    presses = np.array([[2, 0], [0, 1]])
    after = board.apply(presses)
    step = board.press(0, 0).press(0, 0).press(1, 1)
    assert after == step
    # (0,0) twice adds 2 to (0,0), (0,1), (1,0); (1,1) once adds 1 to (1,1), (0,1), (1,0).
    assert after.format() == "20/01"


def test_objective_defaults_to_all_lit() -> None:
    assert Board.parse("0", k=5).objective == 4
    assert Board.parse("1").is_solved()
    assert not Board.parse("10").is_solved()


def test_boards_are_immutable_values() -> None:
    states = np.zeros((2, 2), dtype=np.int64)
    board = Board.from_arrays(states)
    states[0, 0] = 1  # the caller's array is not the board's
    assert board.states[0, 0] == 0
    with pytest.raises(ValueError):
        board.states[0, 0] = 1
    assert board == Board.parse("00/00") and hash(board) == hash(Board.parse("00/00"))


def test_toa_board_checks_its_shape() -> None:
    board = toa_board("111/0#0/110")
    assert (board.k, board.objective, board.format()) == (2, 1, "111/0#0/110")
    with pytest.raises(BoardError, match="3 rows of 3 plates"):
        toa_board("111/000/110")


def test_large_values_format_as_numbers() -> None:
    assert format_grid(np.array([[40, 3]]), np.array([[True, False]])) == "40 -"


def test_variants_are_every_board_with_those_cells_set_and_checked_alike() -> None:
    """The boards a picture with cells unseen could show: built without the checks, they
    are exactly the checked boards (equal, hashed alike, read-only), in digit order."""
    present = np.array([[1, 1, 0], [1, 1, 1]], dtype=bool)
    base = Board.from_arrays(np.array([[2, 0, 0], [1, 2, 0]]), present, k=3, objective=2)
    cells = [(0, 1), (1, 2)]
    variants = base.variants(cells)
    expected = []
    for number in range(9):
        states = np.array(base.states)
        states[0, 1], states[1, 2] = number % 3, number // 3
        expected.append(Board.from_arrays(states, present, 3, 2))
    assert list(variants) == expected
    assert {hash(b) for b in variants} == {hash(b) for b in expected}
    assert all(not b.states.flags.writeable and b.k == 3 and b.objective == 2
               for b in variants)
    assert base.variants([]) == (base,)
    with pytest.raises(BoardError, match="hole"):
        base.variants([(0, 2)])
