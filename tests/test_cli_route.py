"""``toa-assistant solve --route``: the clicks in words, the JSON route, and bad ``--from``
values as one sentence with exit status 2."""

from __future__ import annotations

import json

import pytest

from assistant.puzzle import toa_board
from assistant.route import ENTRANCE, has_one_path, plates_entered, tile_plate, walk


def test_plain_route_from_the_entrance(cli) -> None:
    code, out, err = cli("solve", "--preset", "toa", "--route", "111/0#0/110")
    assert code == 0 and not err
    lines = out.splitlines()
    assert lines[:2] == ["110/0#1/000", "3 presses (proven minimal); 1 solution."]
    assert lines[2] == (
        "Route from the entrance: 4 clicks, 7 tiles walked, no other plate crossed:"
    )
    assert lines[3] == (
        "1. click the floor tile between the right plate and the bottom-right plate (no plate)"
    )
    assert lines[4:] == [
        "2. step on row 2, column 3 (right)",
        "3. step on row 1, column 2 (top)",
        "4. step on row 1, column 1 (top-left)",
    ]


def test_route_from_a_plate_and_nothing_to_do(cli) -> None:
    code, out, _ = cli("solve", "--preset", "toa", "--route", "--from", "1,3", "000/0#0/000")
    assert code == 0
    assert "Route from plate row 1, column 3 (top-right): 8 clicks" in out
    assert out.splitlines()[-1] == "8. step on row 1, column 3 (top-right)"
    code, out, _ = cli("solve", "--preset", "toa", "--route", "111/1#1/111")
    assert code == 0 and out.splitlines()[-1] == "Route from the entrance: nothing to step on."


@pytest.mark.parametrize(
    ("start", "tile"), [(None, [2, 5]), ("entrance", [2, 5]), ("3,1", [0, 4]), ("2,3", [4, 2])]
)
def test_json_route_fields(cli, start: str | None, tile: list[int]) -> None:
    extra = [] if start is None else ["--from", start]
    code, out, _ = cli("solve", "--preset", "toa", "--json", "--route", *extra, "100/1#0/011")
    assert code == 0
    data = json.loads(out)
    assert data["presses"]  # the usual fields stay
    assert data["route_start"] == tile
    assert data["route_floor"] == [-1, 5]
    route = data["route"]
    assert data["route_clicks"] == len(route)
    assert all(set(click) == {"tile", "step"} for click in route)
    assert all(isinstance(click["step"], bool) for click in route)
    # Every leg is straight or at 45° and enters no plate except the one a step ends on.
    here = tuple(tile)
    walked = 0
    for click in route:
        there = tuple(click["tile"])
        assert has_one_path(here, there)
        assert plates_entered(here, there) == ((tile_plate(there),) if click["step"] else ())
        walked += max(abs(there[0] - here[0]), abs(there[1] - here[1]))
        here = there
    assert data["route_tiles_walked"] == walked
    end = walk(toa_board("100/1#0/011"), tuple(tile), [tuple(c["tile"]) for c in route])
    assert end.board.is_solved()
    # the plate at row r, column c (1-based) is tile (2c-2, 2r-2)
    steps = {(r + 1, c + 1) for r, c in end.stepped}
    presses = data["presses"].split("/")
    assert steps == {
        (r + 1, c + 1) for r in range(3) for c in range(3) if presses[r][c] == "1"
    }


def test_json_without_route_has_no_route_fields(cli) -> None:
    code, out, _ = cli("solve", "--preset", "toa", "--json", "111/0#0/110")
    assert code == 0 and "route" not in json.loads(out)
    assert ENTRANCE == (2, 5)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--route", "--from", "2,2"], "missing centre"),
        (["--route", "--from", "4,1"], "off the floor"),
        (["--route", "--from", "0,2"], "off the floor"),
        (["--route", "--from=-1,3"], "off the floor"),
        (["--route", "--from", "top"], "not 'entrance' or a plate"),
        (["--route", "--from", "1,2,3"], "not 'entrance' or a plate"),
        (["--from", "1,1"], "only applies with --route"),
    ],
)
def test_bad_from_is_one_sentence(cli, args: list[str], fragment: str) -> None:
    code, out, err = cli("solve", "--preset", "toa", *args, "111/0#0/110")
    assert code == 2 and not out
    assert fragment in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.rstrip().endswith(".")


@pytest.mark.parametrize("board", ["11/11", "111/000/111", "2#2/###/222"])
def test_route_needs_the_toa_room(cli, board: str) -> None:
    code, out, err = cli("solve", "--route", "--states", "3", board)
    assert code == 2 and not out
    assert "--route needs the ToA room" in err and err.count("\n") == 1


def test_a_toa_shaped_board_without_the_preset_is_the_toa_room(cli) -> None:
    code, out, _ = cli("solve", "--route", "111/0#0/110")
    assert code == 0 and "Route from the entrance: 4 clicks" in out
