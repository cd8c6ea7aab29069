"""The synthetic room renderer: deterministic, and its truth matches its pixels."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.puzzle import toa_board
from lab.scene import (
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


# --- the 3D camera, standing figures and the coverage truth ----------------------------------


def test_camera_homography_is_the_direct_projection_of_the_floor():
    from lab.scene import Camera

    size = (800, 600)
    rng = np.random.default_rng(0)
    for _ in range(5):
        camera = Camera(
            yaw_deg=float(rng.uniform(0, 360)), pitch_deg=float(rng.uniform(0, 68)),
            spacing_px=float(rng.uniform(45, 110)),
            look_at=(float(rng.uniform(-0.5, 2.5)), float(rng.uniform(-0.5, 2.5))),
        )
        grid = rng.uniform(-1, 3, size=(20, 2))
        direct, depth = camera.project(np.column_stack([grid, np.zeros(20)]), size)
        assert (depth > 0).all()
        h = camera.homography(size)
        mapped = np.column_stack([grid, np.ones(20)]) @ h.T
        assert np.allclose(mapped[:, :2] / mapped[:, 2:], direct, atol=1e-6)
        look, _ = camera.project(np.array([[*camera.look_at, 0.0]]), size)
        assert np.allclose(look[0], (400, 300))


def test_camera_straight_down_without_yaw_is_scale_and_translate():
    from lab.scene import Camera

    camera = Camera(yaw_deg=0, pitch_deg=0, spacing_px=70, look_at=(1.0, 2.0),
                    screen_centre=(300, 200))
    h = camera.homography((640, 480))
    assert np.allclose(h, [[70, 0, 300 - 70], [0, 70, 200 - 140], [0, 0, 1]], atol=1e-9)
    # and turning the camera turns the room like the old rotation_deg does
    old = render_scene(SceneParams(seed=1, rotation_deg=90.0, spacing=70, centre=(300, 200)))
    turned = Camera(yaw_deg=90, pitch_deg=0, spacing_px=70, screen_centre=(300, 200))
    assert np.allclose(turned.homography((960, 640)), old.homography / old.homography[2, 2])


def test_camera_scenes_draw_the_board_where_the_truth_says():
    from lab.scene import Camera

    camera = Camera(yaw_deg=35, pitch_deg=50, spacing_px=70, look_at=(1.0, 1.0))
    scene = render_scene(SceneParams(seed=2, board="101/0#1/110", camera=camera,
                                     colour_jitter=0, ui=False, lookalikes=False))
    for (x, y), lit in zip(scene.plate_centres, scene.lit, strict=True):
        b, g, r = _bgr_at(scene.frame, np.array([x, y]))
        assert r > g > b
        assert (b > 45) == bool(lit)
    assert not scene.coverage.any() and (scene.plate_visible_fraction == 1).all()


def _figure_scene(pitch: float, cell: tuple[int, int], **figure: object):
    from lab.scene import Camera, Figure

    r, c = cell
    camera = Camera(yaw_deg=0, pitch_deg=pitch, spacing_px=70, look_at=(1.0, 1.0))
    fig = Figure(tile=(float(c), float(r)), **figure)  # type: ignore[arg-type]
    return render_scene(SceneParams(seed=4, camera=camera, figures=(fig,), ui=False,
                                    lookalikes=False))


def test_a_figure_on_a_plate_seen_from_above_hides_most_of_its_diamond_only():
    from assistant.puzzle import TOA_PLATES

    for index, facing in ((0, 0.0), (4, 45.0), (6, 120.0), (2, 200.0)):
        scene = _figure_scene(0.0, TOA_PLATES[index], facing_deg=facing, seed=index)
        assert scene.coverage[index] > 0.7, (index, scene.coverage)
        others = np.delete(scene.coverage, index)
        assert (others == 0).all()
        assert scene.extra["occluder"].any()


def test_at_an_oblique_pitch_a_tall_figure_hides_part_of_the_plate_behind_it():
    from assistant.puzzle import TOA_PLATES

    # yaw 0: the far side of the room (row 0) is up on screen; stand on (1, 0)
    scene = _figure_scene(60.0, (1, 0), height=1.0, facing_deg=90.0)
    on, behind = TOA_PLATES.index((1, 0)), TOA_PLATES.index((0, 0))
    assert scene.plate_centres[behind][1] < scene.plate_centres[on][1]  # above on screen
    assert scene.coverage[behind] > 0.05
    assert 0 < scene.coverage[on] < 1  # the front of its own plate still shows
    flat = _figure_scene(0.0, (1, 0), height=1.0, facing_deg=90.0)
    assert flat.coverage[behind] == 0


def test_figures_are_drawn_far_first_and_deterministically():
    from assistant.demo_room import random_figure
    from lab.scene import Camera

    rng = np.random.default_rng(5)
    figures = (random_figure(rng, (1.0, 0.0)), random_figure(rng, (1.0, 0.5)))
    camera = Camera(yaw_deg=0, pitch_deg=55, spacing_px=80, look_at=(1.0, 0.5))
    params = SceneParams(seed=1, camera=camera, figures=figures, ui=False)
    first, second = render_scene(params), render_scene(params)
    assert np.array_equal(first.frame, second.frame)
    swapped = render_scene(SceneParams(seed=1, camera=camera, figures=figures[::-1], ui=False))
    assert np.array_equal(first.frame, swapped.frame)  # the order given does not matter


def test_plates_out_of_the_frame_are_not_visible():
    from lab.scene import Camera

    camera = Camera(yaw_deg=0, pitch_deg=0, spacing_px=100, look_at=(0.0, 0.0),
                    screen_centre=(5, 40))
    scene = render_scene(SceneParams(seed=1, camera=camera, frame_size=(200, 200), ui=False))
    assert 0.3 < scene.plate_visible_fraction[0] < 1.0  # cut by the frame's corner
    assert scene.plate_visible_fraction[7] == 0


def test_display_scaling_blurs_edges_and_keeps_the_truth_in_place():
    """A client stretched by Windows display scaling: the frame keeps its size and its
    plates their places and colours on the whole, while edges spread over more pixels
    (and the more, the higher the scaling)."""
    from dataclasses import replace

    from lab.scene import display_scaled

    params = SceneParams(seed=3, board="101/0#1/110", ui=False)
    raw = render_scene(params)
    steps = []
    for scale in (1.25, 1.5):
        scaled = render_scene(replace(params, display_scale=scale))
        assert scaled.frame.shape == raw.frame.shape
        assert np.array_equal(scaled.plate_centres, raw.plate_centres)
        for centre in raw.plate_centres:
            assert np.abs(_bgr_at(scaled.frame, centre) - _bgr_at(raw.frame, centre)).max() < 12
        grey = scaled.frame[..., :3].mean(axis=2)
        steps.append(np.abs(np.diff(grey, axis=1)).max())
    raw_step = np.abs(np.diff(raw.frame[..., :3].mean(axis=2), axis=1)).max()
    assert raw_step > steps[0] > steps[1]
    assert np.array_equal(display_scaled(raw.frame, 1.0), raw.frame)
    with pytest.raises(ValueError, match="1 or more"):
        display_scaled(raw.frame, 0.8)


def test_the_labs_room_without_effects_is_the_demo_rooms_picture():
    """The lab draws on the demo room (assistant.demo_room, in the product): a scene with
    none of the lab's effects is the demo's picture pixel for pixel, in the fixed view and
    through the camera with figures; the effects come after it from the same generator."""
    from assistant.demo_room import Camera, RoomParams, random_figure, render_room

    camera = Camera(yaw_deg=276.0, pitch_deg=35.0, spacing_px=70.0, look_at=(0.5, 1.25))
    player = random_figure(np.random.default_rng(4), (0.5, 1.25))
    for params in (
        RoomParams(seed=7, board="111/0#0/110", frame_size=(900, 620), centre=(360, 250),
                   spacing=72.0, rotation_deg=4.0, colour_jitter=0.0),  # the demo's
        RoomParams(seed=9, board="010/1#0/011", camera=camera, figures=(player,), room_seed=9),
        RoomParams(seed=2),  # a random board and room position
    ):
        room, scene = render_room(params), render_scene(params)
        assert np.array_equal(room.frame, scene.frame)
        assert room.board == scene.board
        assert np.array_equal(room.plate_centres, scene.plate_centres)
        assert np.array_equal(room.homography, scene.homography)
        assert isinstance(scene.params, SceneParams)
    noisy = render_scene(SceneParams(seed=2, noise_sigma=4.0))
    assert noisy.board == render_room(RoomParams(seed=2)).board
    assert not np.array_equal(noisy.frame, render_room(RoomParams(seed=2)).frame)
