"""The sentence the live loop says when a plate not seen decides part of the answer
(``assistant.live._undecided_sentence``): written for a player in the middle of a raid,
first what to do now, short, each sentence starting with a capital, never claiming
solid rings that are not there; the words for why a plate is not known come from the
caller."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from assistant.puzzle import Board, toa_board
from assistant.session.moves import common_presses
from assistant.session.sentences import inferred_sentence as _inferred_sentence
from assistant.session.sentences import undecided_sentence as _undecided_sentence


def sentence(boards, undecided, outside=(), noun="Plate", **kw) -> str:
    candidates = tuple(toa_board(b) if isinstance(b, str) else b for b in boards)
    certain, _, solutions = common_presses(candidates)
    reading = SimpleNamespace(cell_noun=noun, outside=tuple(outside), unclear=())
    inference = SimpleNamespace(undecided=tuple(undecided))
    return _undecided_sentence(reading, inference, candidates, solutions, certain, **kw)


def sentences(text: str) -> list[str]:
    return [part for part in re.split(r"(?<=\.) ", text) if part]


def test_with_solid_rings_it_says_first_to_step_on_them() -> None:
    # the hidden top-left plate: either way the top-right and the bottom-left are stepped on
    text = sentence(("011/0#0/111", "111/0#0/111"), [(0, 0)])
    assert text == (
        "Step on the 2 solid rings now. The top-left plate is hidden (someone stands on "
        "it): if it is unlit, also step on bottom; if lit, on top-left, top-right, right "
        "and bottom-left."
    )


def test_without_a_solid_ring_it_never_says_marked_plates_are_certain() -> None:
    text = sentence(("110/1#1/111", "111/1#1/111"), [(0, 2)])
    assert text.startswith("Nothing is sure yet. The top-right plate is hidden")
    assert "certain" not in text and "solid" not in text
    assert text.endswith("if lit, nothing to step on.")


@pytest.mark.parametrize(
    ("boards", "undecided", "outside"),
    [
        (("000/0#0/001", "001/0#0/001"), [(0, 2)], []),
        (("000/0#0/001", "001/0#0/001"), [(0, 2)], [(0, 2)]),
        (("011/0#0/111", "111/0#0/111"), [(0, 0)], []),
        (("110/1#1/111", "111/1#1/111"), [(0, 2)], []),
        (("000/0#0/000", "001/0#0/001", "001/0#0/000", "000/0#0/001"), [(0, 2), (2, 2)],
         [(0, 2)]),
    ],
)
def test_every_sentence_starts_with_a_capital_and_is_short(boards, undecided, outside) -> None:
    text = sentence(boards, undecided, outside)
    for part in sentences(text):
        assert part[0].isupper(), part
    assert " if unlit, unlit" not in text and " — " not in text
    assert len(sentences(text)) == 2  # what to do now, then what the plate decides
    limit = 180 if len(undecided) == 1 else 440
    assert len(text) <= limit, (len(text), text)


def test_a_plate_past_the_picture_s_edge_is_outside_it() -> None:
    text = sentence(("000/0#0/001", "001/0#0/001"), [(0, 2)], [(0, 2)])
    assert "The top-right plate is outside the picture: if it is unlit" in text
    two = sentence(("000/0#0/000", "001/0#0/001", "001/0#0/000", "000/0#0/001"),
                   [(0, 2), (2, 2)], [(0, 2)])
    assert ("The top-right plate is outside the picture and the bottom-right plate "
            "hidden (someone stands on it): if both unlit, also step on") in two
    assert "; if the top-right is lit and the bottom-right unlit, on top and bottom-left;" \
        in two


def test_the_word_for_a_plate_not_known_is_the_caller_s() -> None:
    text = sentence(("000/0#0/001", "001/0#0/001"), [(0, 2)],
                    unknown="unclear (it cannot be told lit from unlit)")
    assert "The top-right plate is unclear (it cannot be told lit from unlit)" in text
    assert "hidden" not in text
    told = _inferred_sentence(toa_board("011/0#0/111"), ((0, 0),), "Plate", unknown="unclear")
    assert told == "Unclear plate row 1, column 1 is unlit (told by the last steps)."
    assert _inferred_sentence(toa_board("011/0#0/111"), ((0, 0),), "Plate") == (
        "Hidden plate row 1, column 1 is unlit (told by the last steps).")


def test_other_grids_name_rows_and_columns_and_press_counts() -> None:
    boards = (Board.parse("120/201/012", k=3), Board.parse("120/221/012", k=3))
    text = sentence(boards, [(1, 1)], noun="Cell")
    first, second = sentences(text)
    assert first.startswith("Press the cell") and "as many times as written" in first
    assert second.startswith("Row 2, column 2 is hidden")
    assert "if it is in state 0, also press row 1, column 2 (2 times) and row 2, column 1 " \
        "(2 times); if in state 2, also press" in second
    assert "row 1, column 1; row 1, column 3;" in second  # places apart by semicolons


def test_the_rings_it_counts_are_the_ones_drawn_solid() -> None:
    """Worked out from the answers when the caller does not pass them: the same."""
    candidates = (toa_board("011/0#0/111"), toa_board("111/0#0/111"))
    certain, _, solutions = common_presses(candidates)
    reading = SimpleNamespace(cell_noun="Plate", outside=(), unclear=())
    inference = SimpleNamespace(undecided=((0, 0),))
    assert _undecided_sentence(reading, inference, candidates, solutions) == \
        _undecided_sentence(reading, inference, candidates, solutions, certain)
    assert int((certain > 0).sum()) == 2
