"""The sentences the live loop shows a player: which hidden plates the history filled in,
and what to do while a hidden plate still decides part of the answer.

Why a module of its own: the wording is for a player in the middle of a raid and is
tested on its own (tests/test_undecided_sentence.py); the loop only picks which sentence.
"""

from __future__ import annotations

import numpy as np

from assistant.puzzle import Board

__all__ = ["inferred_sentence", "undecided_sentence"]


def _place(cell: tuple[int, int]) -> str:
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def _state_word(board: Board, cell: tuple[int, int]) -> str:
    value = int(board.states[cell])
    if board.k == 2:
        return "lit" if value else "unlit"
    return f"in state {value}"


def inferred_sentence(board: Board, cells: tuple[tuple[int, int], ...], noun: str,
                       unknown: str = "hidden",
                       unclear: tuple[tuple[int, int], ...] = ()) -> str:
    """Which cells not seen the history filled in, and with what; ``unknown`` is the
    word for such a cell ("hidden": someone stands on it), "unclear" for those of
    ``unclear`` (in view, not told lit from unlit)."""
    parts = [f"{'unclear' if cell in unclear else unknown} {noun.lower()} {_place(cell)} "
             f"is {_state_word(board, cell)}" for cell in cells]
    text = "; ".join(parts)
    return f"{text[:1].upper()}{text[1:]} (told by the last steps)."


#: The ToA plates by where they are on screen (the live board is in screen labels).
_PLATE_NAMES = {(0, 0): "top-left", (0, 1): "top", (0, 2): "top-right", (1, 0): "left",
                (1, 2): "right", (2, 0): "bottom-left", (2, 1): "bottom", (2, 2): "bottom-right"}


def _short_place(board: Board, cell: tuple[int, int]) -> str:
    """A cell as a player in a hurry names it: ``top-left`` on the ToA ring, else
    ``row 1, column 1``."""
    toa = board.shape == (3, 3) and not board.present[1, 1] and int(board.present.sum()) == 8
    return _PLATE_NAMES[cell] if toa else _place(cell)


def _listed(words: list[str], separator: str = ", ") -> str:
    return words[0] if len(words) == 1 else f"{separator.join(words[:-1])} and {words[-1]}"


def undecided_sentence(reading, inference, candidates, solutions, certain=None,
                        unknown: str = "hidden (someone stands on it)") -> str:
    """What to do now and what the cells not known decide, for a player in the middle
    of a raid: first the steps every possibility shares (the solid rings), then which
    cells are not known, then what each of their states adds, in few words.
    ``unknown`` says why a cell in view is not known (the word is the caller's: hidden
    under someone, or in view but unclear); one past the picture's edge is "outside the
    picture". ``certain`` holds the presses every possibility shares (None: the
    possibilities' answers are compared here)."""
    noun = reading.cell_noun.lower()
    cells = inference.undecided
    board = candidates[0]
    if certain is None:
        answers = [solution.presses for solution in solutions if solution.solvable]
        same = len(answers) == len(solutions) and answers
        certain = (np.where(np.all(np.stack(answers) == answers[0], axis=0), answers[0], 0)
                   if same else np.zeros(board.shape, np.int64))
    certain = np.asarray(certain)
    sure = int(np.count_nonzero(certain))
    if not sure:
        now = "Nothing is sure yet."
    elif noun == "plate":
        now = ("Step on the solid ring now." if sure == 1
               else f"Step on the {sure} solid rings now.")
    else:
        now = (f"Press the {noun} in the solid ring now" if sure == 1
               else f"Press the {noun}s in the {sure} solid rings now")
        now += ", as many times as written."
    names = [_short_place(board, cell) for cell in cells]
    named = names[0] in _PLATE_NAMES.values()  # the ToA ring: "the top plate"
    separator = ", " if named else "; "  # "row 1, column 2" holds a comma itself
    the = [f"the {name} {noun}" if named else name for name in names]
    def reason(cell: tuple[int, int]) -> str:
        if cell in reading.outside:
            return "outside the picture"
        if cell in reading.unclear:
            return "in view but not told lit from unlit"
        return unknown

    why = [f"{who} {'is ' if i == 0 else ''}{reason(cell)}"
           for i, (who, cell) in enumerate(zip(the, cells, strict=True))]
    head = " and ".join(why)
    head = head[:1].upper() + head[1:]
    verb = "step on" if noun == "plate" else "press"
    short = names if named else the  # "the top-right" once the plates were named
    options = []
    for possible, solution in zip(candidates, solutions, strict=True):
        states = [_state_word(possible, cell) for cell in cells]
        if len(cells) == 1:
            case = f"if {'it is ' if not options else ''}{states[0]}"
        elif len(set(states)) == 1:
            case = f"if {'both' if len(cells) == 2 else 'all'} {states[0]}"
        else:
            each = [f"{'the ' if named else ''}{who} {'is ' if i == 0 else ''}{state}"
                    for i, (who, state) in enumerate(zip(short, states, strict=True))]
            case = "if " + _listed(each, separator)
        if not solution.solvable:
            options.append(f"{case}, there is no answer")
            continue
        extra = [_short_place(board, (int(r), int(c)))
                 + (f" ({int(solution.presses[r, c])} times)" if solution.presses[r, c] > 1
                    else "")
                 for r, c in np.argwhere((solution.presses > 0) & (certain == 0))]
        if not extra:
            options.append(f"{case}, nothing {'more' if sure else 'to ' + verb}")
        elif not options:  # the first says it in full, the others are short
            options.append(f"{case}, {'also ' if sure else ''}{verb} {_listed(extra, separator)}")
        else:
            again = "on" if noun == "plate" else f"{'also ' if sure else ''}{verb}"
            options.append(f"{case}, {again} {_listed(extra, separator)}")
    return f"{now} {head}: {'; '.join(options)}."
