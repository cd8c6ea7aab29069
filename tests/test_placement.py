"""Where new windows go (assistant.placement): beside the game, never over it when the
screen has room, always on the screen; checked against a brute-force search over every
position on small screens and with random screens, games and windows."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.capture import Rect
from assistant.placement import fits_beside, overlap, place_beside, size_beside


def free_positions(area: Rect, size, obstacles) -> list[tuple[int, int]]:
    """Every top-left corner on ``area`` whose window overlaps none of ``obstacles``."""
    width, height = size
    return [
        (x, y)
        for x in range(area.left, area.right - width + 1)
        for y in range(area.top, area.bottom - height + 1)
        if all(overlap(Rect(x, y, width, height), o) == 0 for o in obstacles)
    ]


def check(area: Rect, game: Rect, size, avoid=(), gap: int = 1) -> tuple[int, int]:
    x, y = place_beside(area, game, size, avoid, gap)
    placed = Rect(x, y, *size)
    if size[0] <= area.width and size[1] <= area.height:
        assert area.intersect(placed) == placed, (area, game, size, placed)  # on screen
    clear_of_game = free_positions(area, size, [game])
    assert bool(clear_of_game) == fits_beside(area, game, size)
    if clear_of_game:
        assert overlap(placed, game) == 0, (area, game, size, placed)
    if avoid and free_positions(area, size, [game, *avoid]):
        assert all(overlap(placed, o) == 0 for o in avoid), (area, game, size, avoid, placed)
    return x, y


def test_every_game_and_window_on_a_small_screen() -> None:
    area = Rect(0, 0, 9, 7)
    spans = range(-2, 10)
    for gx, gy, gw, gh in itertools.product(spans, range(-2, 8), (1, 3, 6), (1, 3, 5)):
        game = Rect(gx, gy, gw, gh)
        for size in ((1, 1), (2, 3), (4, 2), (5, 5), (9, 2)):
            check(area, game, size)


def test_every_position_of_a_second_window_to_avoid() -> None:
    area = Rect(0, 0, 10, 8)
    game = Rect(3, 2, 4, 3)
    for ax, ay, aw, ah in itertools.product(range(-1, 10), range(-1, 8), (2, 4), (2, 5)):
        for size in ((2, 2), (3, 4), (6, 2)):
            check(area, game, size, [Rect(ax, ay, aw, ah)])


rects = st.builds(
    Rect,
    st.integers(-400, 2400),
    st.integers(-300, 1500),
    st.integers(1, 2000),
    st.integers(1, 1200),
)


@settings(max_examples=300, deadline=None)
@given(
    area=st.builds(Rect, st.integers(-1920, 1920), st.integers(-500, 500),
                   st.integers(640, 2560), st.integers(480, 1440)),
    game=rects,
    size=st.tuples(st.integers(150, 1200), st.integers(100, 900)),
    avoid=st.lists(rects, max_size=3),
)
def test_random_screens_games_and_windows(area, game, size, avoid) -> None:
    x, y = place_beside(area, game, size, avoid)
    placed = Rect(x, y, *size)
    if size[0] <= area.width and size[1] <= area.height:
        assert area.intersect(placed) == placed
    else:  # too big for the screen: its top-left corner (the title bar) stays on it
        assert area.left <= x < area.right and area.top <= y < area.bottom
    if fits_beside(area, game, size):
        assert overlap(placed, game) == 0


def test_prefers_the_right_of_the_game_with_a_gap_then_the_left() -> None:
    area = Rect(0, 0, 1600, 1000)
    game = Rect(100, 100, 900, 620)
    assert place_beside(area, game, (300, 400), gap=8) == (1008, 100)
    wide = Rect(700, 100, 900, 620)  # no room on the right: the left
    assert place_beside(area, wide, (300, 400), gap=8) == (392, 100)
    # the control window already stands right of the game: the panel goes below it
    control = Rect(1008, 100, 500, 400)
    x, y = place_beside(area, game, (300, 400), [control], gap=8)
    placed = Rect(x, y, 300, 400)
    assert overlap(placed, game) == 0 and overlap(placed, control) == 0
    assert x >= game.right  # still on the game's right side


def test_the_demo_room_off_the_screen_s_right_edge_comes_back_on_it() -> None:
    """The demo room (900 wide) opened at x = 1133 on a 1600-wide screen, right of a
    centred control window: it is on the screen now, and where the screen has no room
    beside the control window it overlaps it as little as it can (the control window then
    moves beside the room, ControlWindow.open_demo)."""
    area = Rect(0, 0, 1600, 1000)
    control = Rect(481, 267, 640, 480)
    size = (902, 645)
    assert not fits_beside(area, control, size)
    x, y = place_beside(area, control, size)
    placed = Rect(x, y, *size)
    assert area.intersect(placed) == placed
    least = min(overlap(Rect(px, py, *size), control)
                for px in range(0, 1600 - 902 + 1, 7) for py in range(0, 1000 - 645 + 1, 7))
    assert overlap(placed, control) <= least
    assert fits_beside(area, placed, (640, 480))  # room for the control window beside it


@settings(max_examples=300, deadline=None)
@given(
    game=rects,
    size=st.tuples(st.integers(300, 1500), st.integers(200, 1000)),
    minimum=st.tuples(st.integers(100, 300), st.integers(100, 200)),
)
def test_a_resizable_window_shrinks_to_fit_beside_the_game(game, size, minimum) -> None:
    area = Rect(0, 0, 1600, 1000)
    fitted = size_beside(area, game, size, minimum)
    if fitted != size:
        assert minimum[0] <= fitted[0] <= size[0] and minimum[1] <= fitted[1] <= size[1]
        assert fits_beside(area, game, fitted)
        x, y = place_beside(area, game, fitted)
        assert overlap(Rect(x, y, *fitted), game) == 0
    elif not fits_beside(area, game, size):  # only when not even the minimum fits
        assert not fits_beside(area, game, minimum)


def test_the_calibration_window_beside_the_demo_room_on_a_small_screen() -> None:
    """790 wide beside a 902-wide room on a 1600-wide screen: 690 are free on the right."""
    area = Rect(0, 0, 1600, 1000)
    room = Rect(0, 0, 902, 645)
    fitted = size_beside(area, room, (790, 420), (620, 360))
    assert fitted == (690, 420)
    x, y = place_beside(area, room, fitted)
    assert (x, y) == (910, 0) and overlap(Rect(x, y, *fitted), room) == 0
