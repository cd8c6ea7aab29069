"""Generic on-screen Lights Out grids: the same reader, given a profile."""

from __future__ import annotations

import numpy as np

from assistant.profile import Appearance, GridSpec, Profile
from assistant.vision import read_frame
from lab.scene import render_screen_grid


def _profile(grid, rows, cols, holes=(), references=True) -> Profile:
    appearance = Appearance(
        "brightness",
        grid.on_colour[::-1] if references else None,
        grid.off_colour[::-1] if references else None,
    )
    return Profile(GridSpec(rows, cols, holes), tuple(map(tuple, grid.corners)),
                   appearance=appearance)


def test_yellow_and_dark_red_cells_with_and_without_samples():
    for seed in range(6):
        grid = render_screen_grid(seed, rows=5, cols=6)
        for references in (True, False):
            reading = read_frame(grid.frame, _profile(grid, 5, 6, references=references))
            assert not reading.abstain, reading.reason
            assert reading.board.format() == grid.board
            assert reading.confident


def test_holes_are_skipped():
    grid = render_screen_grid(3, rows=4, cols=4, holes=((0, 0), (2, 1)))
    reading = read_frame(grid.frame, _profile(grid, 4, 4, holes=((0, 0), (2, 1))))
    assert reading.board.format() == grid.board
    assert len(reading.tiles) == 14


def test_all_on_needs_the_samples():
    grid = render_screen_grid(1, rows=3, cols=3, board="111/111/111")
    with_samples = read_frame(grid.frame, _profile(grid, 3, 3))
    assert with_samples.board.format() == "111/111/111"
    assert with_samples.method == "references"
    without = read_frame(grid.frame, _profile(grid, 3, 3, references=False))
    assert without.abstain
    assert "no on/off colours" in without.reason
    grid_off = render_screen_grid(1, rows=3, cols=3, board="000/000/000")
    assert read_frame(grid_off.frame, _profile(grid_off, 3, 3)).board.format() == "000/000/000"


def test_samples_decide_which_look_is_on_even_when_on_is_darker():
    # a game whose lit cells are the dark ones: brightness alone would invert the board
    grid = render_screen_grid(2, rows=4, cols=4, on_colour=(60, 30, 30),
                              off_colour=(210, 230, 240))
    reading = read_frame(grid.frame, _profile(grid, 4, 4))
    assert reading.board.format() == grid.board
    inverted = read_frame(grid.frame, _profile(grid, 4, 4, references=False))
    flipped = "".join({"0": "1", "1": "0"}.get(ch, ch) for ch in grid.board)
    assert inverted.board.format() == flipped  # "on is the brighter look" without samples


def test_dimmer_noisier_compressed_page():
    grid = render_screen_grid(5, rows=6, cols=6, brightness=0.7, noise_sigma=6,
                              jpeg_quality=60)
    reading = read_frame(grid.frame, _profile(grid, 6, 6))
    assert reading.board.format() == grid.board


def test_generic_grid_needs_corners_and_two_states():
    grid = render_screen_grid(1, rows=3, cols=4)
    no_corners = Profile(GridSpec(3, 4))
    reading = read_frame(grid.frame, no_corners)
    assert reading.abstain and "calibrate" in reading.reason
    three = Profile(GridSpec(3, 4, (), 3, 0), tuple(map(tuple, grid.corners)))
    reading = read_frame(grid.frame, three)
    assert reading.abstain and "3 states" in reading.reason


def test_cell_centres_follow_the_grid():
    grid = render_screen_grid(7, rows=3, cols=5)
    reading = read_frame(grid.frame, _profile(grid, 3, 5))
    centres = np.array([t.centre for t in reading.tiles])
    assert np.allclose(centres, grid.cell_centres.reshape(-1, 2), atol=0.01)


def test_all_on_with_samples_after_a_brightness_change():
    for brightness in (0.7, 1.3):
        for board in ("111/111/111", "000/000/000"):
            grid = render_screen_grid(6, rows=3, cols=3, board=board, brightness=brightness)
            reading = read_frame(grid.frame, _profile(grid, 3, 3))
            assert reading.board.format() == board, (brightness, board)
