"""Grid geometry: corners to homography and back, the radii the overlay relies on."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.vision import (
    MARK_INNER_RADIUS,
    MARK_OUTER_RADIUS,
    PLATE_RADIUS,
    SAMPLE_RADIUS,
    geometry_from_corners,
)
from assistant.vision.geometry import (
    DIAMOND_EXTENT,
    SAMPLE_OFFSETS,
    SAMPLE_SECTORS,
    GridGeometry,
)


def test_radii_leave_the_sampled_area_and_the_plate_frame_alone():
    assert SAMPLE_RADIUS < PLATE_RADIUS < MARK_INNER_RADIUS < MARK_OUTER_RADIUS < 0.5
    assert np.hypot(*SAMPLE_OFFSETS.T).max() <= SAMPLE_RADIUS


def test_sectors_split_the_samples_without_the_centre():
    members = np.concatenate(SAMPLE_SECTORS)
    assert len(members) == len(set(members.tolist())) == len(SAMPLE_OFFSETS) - 1
    assert all(len(sector) >= 5 for sector in SAMPLE_SECTORS)


def test_corners_round_trip_and_cells_in_between():
    corners = np.array([[100.0, 50.0], [300.0, 60.0], [290.0, 250.0], [95.0, 240.0]])
    geometry = geometry_from_corners(3, 3, corners)
    assert np.allclose(geometry.corners(), corners, atol=1e-6)
    # an affine placement: the centre cell is the mean of the corners
    square = geometry_from_corners(3, 5, np.array([[0, 0], [40, 0], [40, 20], [0, 20.0]]))
    assert square.cell_centre(1, 2) == pytest.approx((20.0, 10.0))
    assert square.local_spacing(1, 2) == pytest.approx(10.0)
    inner, outer = square.mark_radii_px(1, 2)
    assert inner == pytest.approx(MARK_INNER_RADIUS * 10) and outer == pytest.approx(
        MARK_OUTER_RADIUS * 10
    )
    assert square.sample_radius_px(0, 0) == pytest.approx(SAMPLE_RADIUS * 10)


def test_circle_is_an_ellipse_under_perspective_and_a_circle_head_on():
    square = geometry_from_corners(3, 3, np.array([[0, 0], [100, 0], [100, 100], [0, 100.0]]))
    ring = square.circle(1, 1, 0.3)
    assert np.allclose(np.hypot(*(ring - (50, 50)).T), 15.0)


@pytest.mark.parametrize(
    "corners",
    [
        [[0, 0], [10, 0], [20, 0], [30, 0]],  # on one line
        [[0, 0], [10, 10], [10, 0], [0, 10]],  # crossed
        [[0, 0], [np.nan, 0], [10, 10], [0, 10]],
    ],
)
def test_impossible_corners_are_refused(corners):
    with pytest.raises(ValueError):
        geometry_from_corners(3, 3, np.array(corners, float))


def test_a_single_row_has_no_four_corners():
    with pytest.raises(ValueError):
        geometry_from_corners(1, 5, np.array([[0, 0], [10, 0], [10, 10], [0, 10.0]]))


def test_to_grid_undoes_to_image_on_an_oblique_view():
    corners = np.array([[100.0, 80.0], [300.0, 95.0], [330.0, 260.0], [70.0, 240.0]])
    geometry = geometry_from_corners(3, 3, corners)
    points = np.array([[0.0, 0.0], [2.0, 1.0], [1.3, 0.4], [-0.5, 2.5]])
    assert np.allclose(geometry.to_grid(geometry.to_image(points)), points, atol=1e-6)


def _view(spacing: float, yaw_deg: float, squash: float) -> GridGeometry:
    """A ring seen turned by ``yaw_deg`` and squashed top to bottom (a steep camera)."""
    a = np.radians(yaw_deg)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    linear = np.diag([1.0, squash]) @ turn * spacing
    return GridGeometry(3, 3, np.array([[*linear[0], 300.0], [*linear[1], 200.0], [0, 0, 1]]))


def _inside_outline_px(geometry: GridGeometry, cell: tuple[int, int],
                       points: np.ndarray) -> np.ndarray:
    """How far (pixels) each image point lies inside the cell's gold diamond on screen."""
    import cv2

    r, c = cell
    d = DIAMOND_EXTENT
    outline = geometry.to_image(np.array([(c, r - d), (c + d, r), (c, r + d), (c - d, r)]))
    contour = outline.astype(np.float32).reshape(-1, 1, 2)
    return np.array([cv2.pointPolygonTest(contour, (float(x), float(y)), True)
                     for x, y in points])


def test_the_sampled_lattice_fills_a_large_diamond_as_drawn():
    geometry = _view(60.0, 0.0, 1.0)
    cells = [(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)]
    assert np.array_equal(geometry.diamond_sample_scale(cells), np.ones(len(cells)))
    assert np.allclose(geometry.sample_points(cells, SAMPLE_OFFSETS, inside_diamond=True),
                       geometry.sample_points(cells, SAMPLE_OFFSETS))


@pytest.mark.parametrize("yaw", [0.0, 35.0, 45.0, 80.0])
def test_a_small_squashed_diamond_is_sampled_a_margin_inside_its_outline(yaw):
    """Far away at a steep camera a diamond is a few pixels tall: the lattice shrinks so
    every point stays the margin inside the outline (JPEG and resampling blend the
    outline's pixels with the purple frame), never below its smallest extent."""
    from assistant.vision.geometry import _MIN_SAMPLE_EXTENT, OUTLINE_MARGIN_PX

    cells = [(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)]
    for spacing, squash in ((47.0, 0.4), (60.0, 0.55), (35.0, 0.6)):
        geometry = _view(spacing, yaw, squash)
        scale = geometry.diamond_sample_scale(cells)
        if squash <= 0.4:
            assert (scale < 1.0).all()
        points = geometry.sample_points(cells, SAMPLE_OFFSETS, inside_diamond=True)
        for i, cell in enumerate(cells):
            inside = _inside_outline_px(geometry, cell, points[i])
            assert inside.min() > 0.0  # always on the diamond
            if scale[i] * 0.12 > _MIN_SAMPLE_EXTENT + 1e-9:
                assert inside.min() >= OUTLINE_MARGIN_PX - 0.05, (spacing, squash, cell)


def test_the_search_s_own_median_is_numpy_s_to_the_last_bit():
    """The ring search takes the median of a few blob areas thousands of times through a
    short path of its own; it must give numpy's value exactly (odd and even counts, any
    scale), or the search would place rings differently from the measured one."""
    from assistant.vision.locate import _median

    rng = np.random.default_rng(7)
    for count in range(1, 30):
        for scale in (1.0, 1e3, 1e7):
            values = rng.random(count) * scale
            assert _median(values) == float(np.median(values))
    assert _median(np.array([3, 1, 2], np.int64)) == 2.0  # other types: numpy's own
    assert np.isnan(_median(np.array([1.0, np.nan, 2.0])))  # as numpy says
