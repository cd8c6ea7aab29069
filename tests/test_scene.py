"""The synthetic room renderer: deterministic, and its truth matches its pixels."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.puzzle import toa_board
from assistant.scene import (
    PERTURBATIONS,
    SceneParams,
    perturbed_params,
    render_scene,
    render_screen_grid,
    screen_board,
)


def _bgr_at(frame: np.ndarray, point: np.ndarray) -> np.ndarray:
    x, y = np.rint(point).astype(int)
    return frame[y - 1 : y + 2, x - 1 : x + 2, :3].reshape(-1, 3).mean(axis=0)


def test_same_parameters_same_frame():
    params = perturbed_params("combined", 5)
    first, second = render_scene(params), render_scene(params)
    assert np.array_equal(first.frame, second.frame)
    assert first.board == second.board
    assert not np.array_equal(first.frame, render_scene(perturbed_params("combined", 6)).frame)


def test_truth_centres_sit_on_gold_diamonds_that_show_the_board():
    scene = render_scene(SceneParams(seed=3, board="101/0#1/110", spacing=60.0, colour_jitter=0))
    assert scene.board == "101/0#1/110"
    for (x, y), lit in zip(scene.plate_centres, scene.lit, strict=True):
        b, g, r = _bgr_at(scene.frame, np.array([x, y]))
        assert r > g > b  # gold
        assert (b > 45) == bool(lit)  # lit diamonds are paler (more blue)
    spacing = np.linalg.norm(scene.plate_centres[1] - scene.plate_centres[0])
    assert spacing == pytest.approx(60.0, rel=0.01)
    assert np.allclose(scene.corners, scene.plate_centres[[0, 2, 7, 5]])


def test_every_family_renders_and_varies_what_it_says():
    for family in PERTURBATIONS:
        scene = render_scene(perturbed_params(family, 1))
        height, width = scene.frame.shape[:2]
        assert (width, height) == scene.params.frame_size
        assert toa_board(scene.board).rows == 3
        inside = (scene.plate_centres >= 0).all() and (
            scene.plate_centres < (width, height)
        ).all()
        assert inside, family
    assert perturbed_params("gamma", 2).gamma != 1.0
    assert perturbed_params("figure", 2).figure_cover > 0
    assert perturbed_params("marks", 2).marks
    assert perturbed_params("all_same", 2).board in {"111/1#1/111", "000/0#0/000"}
    with pytest.raises(KeyError):
        perturbed_params("sepia", 1)


def test_bgra_frames_as_mss_gives_them():
    scene = render_scene(perturbed_params("baseline", 4, bgra=True))
    assert scene.frame.shape[2] == 4 and scene.frame.dtype == np.uint8


def test_screen_board_labels_the_top_left_plate_on_screen_first():
    board = "100/0#0/000"
    upright = render_scene(SceneParams(seed=1, board=board, rotation_deg=0.0))
    assert screen_board(upright) == board
    turned = render_scene(SceneParams(seed=1, board=board, rotation_deg=90.0))
    # a quarter turn clockwise on screen brings the room's top-left plate to the top right
    assert screen_board(turned) == "001/0#0/000"
    x, y = turned.plate_centres[0]
    assert x > turned.plate_centres[:, 0].mean() and y < turned.plate_centres[:, 1].mean()


def test_figure_hides_at_most_the_asked_share_of_its_plate():
    scene = render_scene(perturbed_params("figure", 3, figure_cover=0.3))
    assert scene.figure_plate is not None
    clean = render_scene(perturbed_params("figure", 3, figure_cover=0.0))
    assert clean.figure_plate is None
    changed = np.any(scene.frame != clean.frame, axis=2)
    assert changed.any()


def test_rendering_rejects_boards_that_are_not_the_ring():
    with pytest.raises(ValueError):
        render_scene(SceneParams(board="11/11"))


def test_screen_grid_truth():
    grid = render_screen_grid(4, rows=3, cols=4, holes=((1, 1),))
    assert grid.board.count("#") == 1 and len(grid.board.split("/")) == 3
    for r, line in enumerate(grid.board.split("/")):
        for c, ch in enumerate(line):
            if ch == "#":
                continue
            colour = _bgr_at(grid.frame, grid.cell_centres[r, c])
            expected = grid.on_colour if ch == "1" else grid.off_colour
            assert np.abs(colour - expected).max() < 20
