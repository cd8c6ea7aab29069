"""Grid geometry: corners to homography and back, the radii the overlay relies on."""

from __future__ import annotations

import itertools

import cv2
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
    from assistant.vision.ring.shape import fast_median as _median

    rng = np.random.default_rng(7)
    for count in range(1, 30):
        for scale in (1.0, 1e3, 1e7):
            values = rng.random(count) * scale
            assert _median(values) == float(np.median(values))
    assert _median(np.array([3, 1, 2], np.int64)) == 2.0  # other types: numpy's own
    assert np.isnan(_median(np.array([1.0, np.nan, 2.0])))  # as numpy says


def test_the_search_finds_the_ring_past_two_figure_blobs_where_its_hidden_plates_lie():
    """Blobs of a far, steep view (60 degrees, plates 47 px apart): six whole diamonds,
    the player's legs merged with his plate's diamond (a big blob 6 px off it) and his
    head 10 px from the plate behind him. A least-squares fit through all eight leans on
    the two and drops sound diamonds; the search must still offer the ring through the
    six, which places the two covered plates where they are."""
    from assistant.vision.ring.candidates import CANDIDATES
    from assistant.vision.ring.candidates import ring_hypotheses as _ring_hypotheses
    from assistant.vision.ring.shape import FIT
    from assistant.vision.ring.shape import Blobs as _Blobs

    _NEAR_SPANS, MIN_DIAMONDS = CANDIDATES.near_spans, FIT.min_diamonds

    diamonds = {  # blob index: (centre, area), the six whole diamonds
        0: ((264.3, 270.1), 87.0), 1: ((366.0, 269.6), 95.0), 2: ((314.6, 269.9), 136.0),
        3: ((269.4, 243.2), 110.0), 4: ((274.4, 219.2), 101.0), 5: ((321.1, 218.8), 83.0),
    }
    figures = {6: ((364.7, 236.8), 245.0), 7: ((363.9, 208.0), 89.0)}  # legs, head
    decoys = {8: ((451.5, 342.3), 407.0), 9: ((476.8, 233.8), 201.0),
              10: ((322.6, 360.2), 215.0), 11: ((123.8, 346.6), 352.0)}
    every = {**diamonds, **figures, **decoys}
    blobs = _Blobs(centres=np.array([every[i][0] for i in range(len(every))]),
                   areas=np.array([every[i][1] for i in range(len(every))]),
                   solidity=np.full(len(every), 0.9))
    hypotheses = _ring_hypotheses(blobs, _NEAR_SPANS, MIN_DIAMONDS)
    through_six = [h for h in hypotheses if h[2] == frozenset(diamonds)]
    assert through_six, [sorted(h[2]) for h in hypotheses]
    homography = through_six[0].homography
    ring = np.array([[c, r] for r in range(3) for c in range(3) if (r, c) != (1, 1)], float)
    places = cv2.perspectiveTransform(ring.reshape(-1, 1, 2), homography).reshape(-1, 2)

    def nearest_place(point) -> float:
        return float(np.min(np.hypot(*(places - np.array(point)).T)))

    assert all(nearest_place(centre) < 1.5 for centre, _area in diamonds.values())
    # the plates under the figures, where the six put them: not on the figures' blobs
    assert nearest_place((367.0, 242.9)) < 1.5 and nearest_place((368.0, 218.4)) < 1.5


def test_an_evenly_noisy_loose_fit_refines_no_core(monkeypatch):
    """Eight diamonds, each off its place by chance (0.017 of the spacing in all): leaving
    one or two out makes the rest fit a little tighter, seven ways under the exact bar,
    by luck of which are left out. Each such core's own fit puts the blobs it left out
    near their places, so refining it would only take them back: a search's cost without
    an answer (the overlay's own marks seen around moved plates made such fits in the
    demo room). None is refined."""
    from assistant.vision import locate
    from assistant.vision.ring import refit, shape

    homography = np.array([[48.0, 6.0, 300.0], [-3.0, 20.0, 220.0], [0.0, 0.004, 1.0]])
    places = cv2.perspectiveTransform(shape.RING.reshape(-1, 1, 2), homography).reshape(-1, 2)
    spacing = float(np.hypot(*(places[1] - places[0])))
    centres = places + np.random.default_rng(2).normal(0, 0.015 * spacing, places.shape)
    areas, ok, nearest = np.full(8, 100.0), np.ones(8, bool), np.arange(8)
    found = refit.refine(centres, areas, ok, nearest, spacing, locate.MIN_DIAMONDS)
    assert isinstance(found, tuple) and len(found[2]) == 8
    assert refit.score_error(found) > locate.EXACT_RING_FIT

    def exact(core) -> bool:
        fit = shape.fit_homography(centres, core, nearest)
        return shape.fit_error_px(centres, core, nearest, fit) / spacing <= locate.EXACT_RING_FIT

    cores = [np.isin(np.arange(8), left_out, invert=True)
             for size in (1, 2) for left_out in itertools.combinations(range(8), size)]
    assert sum(exact(core) for core in cores) >= 5  # tight cores there are, by chance

    refined = []
    real_refine = refit.refine

    def counting_refine(*args):
        refined.append(args)
        return real_refine(*args)

    monkeypatch.setattr(refit, "refine", counting_refine)
    alternatives = refit.tight_alternatives(
        centres, areas, ok, nearest, spacing, locate.MIN_DIAMONDS, found)
    assert alternatives == [] and refined == []


def test_the_quick_core_fits_agree_with_opencv_s_fit():
    """The batched fit that screens a loose fit's cores must tell exact from loose as
    OpenCV's fit does: over random steep and turned views of the ring, with blobs off
    their places by noise and by a figure's pull, every core near the exact bar (within
    twice it) has its error within 2% of OpenCV's and its farthest left-out blob within
    10% (the screen allows 25% either way). Far looser cores may differ more: the two
    fits minimise different errors, and the screen turns those down either way."""
    from assistant.vision import locate
    from assistant.vision.ring import refit, shape

    rng = np.random.default_rng(7)
    near_bar, worst_error, worst_far = 0, 0.0, 0.0
    for _view in range(40):
        angle, tilt = rng.uniform(0, 2 * np.pi), rng.uniform(0.0, 0.012)
        spacing = rng.uniform(25, 90)
        rotation = spacing * np.array([[np.cos(angle), -np.sin(angle)],
                                       [np.sin(angle), np.cos(angle)]])
        homography = np.eye(3)
        homography[:2, :2] = rotation * np.array([1.0, rng.uniform(0.37, 1.0)])
        homography[:2, 2] = rng.uniform(100, 500, 2)
        homography[2, :2] = rng.uniform(-tilt, tilt, 2)
        places = cv2.perspectiveTransform(
            shape.RING.reshape(-1, 1, 2), homography).reshape(-1, 2)
        centres = places + rng.normal(0, rng.uniform(0.002, 0.03) * spacing, places.shape)
        centres[rng.integers(8)] += rng.normal(0, 0.2 * spacing, 2)  # a figure's pull
        cores, left_out = [], []
        for size in (1, 2):
            for out in itertools.combinations(range(8), size):
                left_out.append(list(out))
                cores.append([place for place in range(8) if place not in out])
        errors, farthest = refit._quick_core_fits(centres, cores, left_out)
        for core, out, error, far in zip(cores, left_out, errors, farthest, strict=True):
            chosen = np.isin(np.arange(8), core)
            fit = shape.fit_homography(centres, chosen, np.arange(8))
            exact = shape.fit_error_px(centres, chosen, np.arange(8), fit)
            mapped = cv2.perspectiveTransform(shape.RING[out].reshape(-1, 1, 2), fit)
            opencv_far = float(np.max(np.hypot(*(mapped.reshape(-1, 2) - centres[out]).T)))
            if exact <= 2 * locate.EXACT_RING_FIT * spacing:
                near_bar += 1
                worst_error = max(worst_error, abs(error - exact) / exact)
                worst_far = max(worst_far, abs(far - opencv_far) / opencv_far)
    assert near_bar > 100  # the views make cores on both sides of the bar
    assert worst_error < 0.02 and worst_far < 0.1


def test_a_ring_placed_by_five_diamonds_alone_leaves_out_a_pulled_blob():
    """ring_placed_by refits a ring from the diamonds matched at some places only: a blob
    pulled off its plate by a body (here the edge plate (2, 1), 6 pixels) bends the fit
    through all six toward the corner beyond it, the five others put that corner back.
    It refuses places not matched and diamonds that do not fit one ring exactly."""
    from assistant.vision import locate
    from assistant.vision.geometry import GridGeometry
    from assistant.vision.ring import shape

    truth = GridGeometry(3, 3, np.array([[40.0, 6.0, 300.0], [-3.0, 22.0, 190.0],
                                         [0.0, -0.0012, 1.0]]))
    places = truth.to_image(shape.RING)
    cells = locate.RING_CELLS
    diamonds = places.copy()
    diamonds[cells.index((2, 1))] += (6.0, 1.0)
    matched = tuple(cell not in ((1, 2), (2, 2)) for cell in cells)
    diamonds[~np.array(matched)] = np.nan
    fit = locate.RingFit(truth, matched, 0.0, 40.0, diamonds=diamonds)
    through_all = locate.ring_placed_by(fit, [c for c, m in zip(cells, matched, strict=True) if m])
    five = [cell for cell in cells if cell not in ((1, 2), (2, 1), (2, 2))]
    by_five = locate.ring_placed_by(fit, five)
    corner = cells.index((2, 2))
    assert through_all is None or np.hypot(*(through_all.geometry.to_image(
        shape.RING)[corner] - places[corner])) > 3.0
    assert np.hypot(*(by_five.geometry.to_image(shape.RING)[corner]
                      - places[corner])) < 0.01
    assert by_five.fit_error < 1e-6 and sum(by_five.matched) == 5
    assert locate.ring_placed_by(fit, [*five[:4], (1, 2)]) is None  # (1, 2) unmatched
    bent = diamonds.copy()
    bent[cells.index((0, 2))] += (0.0, 5.0)
    assert locate.ring_placed_by(locate.RingFit(truth, matched, 0.0, 40.0, diamonds=bent),
                                 five) is None  # five that fit no ring exactly
    assert locate.ring_placed_by(locate.RingFit(truth, matched, 0.0, 40.0), five) is None
    # the same view squeezed to plates 8 pixels apart down the picture (a steep camera at
    # a far zoom): a pixel off in the five centres would move the corner by more than half
    # the way to its neighbours, and the ring is not placed
    squeezed = GridGeometry(3, 3, np.diag([1.0, 0.2, 1.0]) @ truth.homography)
    flat = squeezed.to_image(shape.RING)
    flat[~np.array(matched)] = np.nan
    assert locate.ring_placed_by(locate.RingFit(squeezed, matched, 0.0, 40.0,
                                                diamonds=flat), five) is None


def _fitted_through(diamonds: np.ndarray, matched: tuple[bool, ...],
                    bigger: int | None = None):
    """The RingFit a search makes through ``diamonds`` at the ``matched`` places, every
    blob of a diamond's size on the floor but ``bigger``'s (1.6 times)."""
    from assistant.vision import locate
    from assistant.vision.geometry import GridGeometry
    from assistant.vision.ring import shape

    ok = np.array(matched)
    homography = shape.fit_homography(diamonds, ok, np.arange(8))
    geometry = GridGeometry(3, 3, homography / homography[2, 2])
    spacing = shape.top_row_spacing(geometry.to_image(shape.RING))
    error = shape.fit_error_px(diamonds, ok, np.arange(8), homography) / spacing
    areas = 0.06 * shape.area_scale(geometry.homography, shape.RING)
    if bigger is not None:
        areas[bigger] *= 1.6
    areas[~ok] = np.nan
    return locate.RingFit(geometry, matched, error, spacing, diamonds=diamonds, areas=areas)


def test_a_fit_bent_by_one_pulled_blob_names_it_with_the_ring_of_the_others():
    """A team-mate's gold belt merged with the diamond he stands on pulls its blob 0.1 of
    the spacing off; the fit through six runs below the locator's loose bound yet puts
    that corner off its plate. pulled_blob names that place and the ring the five others
    place exactly, with the corner on its plate. A blob a few tenths of a pixel off (any
    fit's noise) names nothing, nor does one of a diamond's size, a rigid placement or
    half the pull."""
    from dataclasses import replace

    from assistant.vision import locate
    from assistant.vision.geometry import GridGeometry
    from assistant.vision.ring import shape

    truth = GridGeometry(3, 3, np.array([[60.0, 10.0, 220.0], [-4.0, 26.0, 180.0],
                                         [0.0, -0.002, 1.0]]))
    places = truth.to_image(shape.RING)
    cells = locate.RING_CELLS
    matched = tuple(cell not in ((1, 2), (2, 2)) for cell in cells)
    corner = cells.index((0, 2))
    diamonds = places.copy()
    diamonds[~np.array(matched)] = np.nan
    pulled = diamonds.copy()
    pulled[corner] += (6.0, -1.0)  # 0.1 of the 60-pixel spacing
    fit = _fitted_through(pulled, matched, bigger=corner)
    assert fit.fit_error < locate.LOOSE_FIT
    assert np.hypot(*(fit.geometry.to_image(shape.RING)[corner] - places[corner])) > 1.0
    cell, others = locate.pulled_blob(fit)
    assert cell == (0, 2) and not others.matched[corner]
    assert sum(others.matched) == 5 and others.fit_error < 1e-6
    assert np.hypot(*(others.geometry.to_image(shape.RING)[corner] - places[corner])) < 0.01
    # noise: every blob a few tenths of a pixel off, none pulled
    rng = np.random.default_rng(3)
    noisy = diamonds + rng.normal(0, 0.3, diamonds.shape)
    assert locate.pulled_blob(_fitted_through(noisy, matched)) is None
    # the same pull of a blob of a diamond's size: the others' bias as likely as a pull
    assert locate.pulled_blob(_fitted_through(pulled, matched)) is None
    # the same pull on a rigid placement (the last view moved), or half of it: nothing
    assert locate.pulled_blob(replace(fit, rigid=True)) is None
    half = diamonds.copy()
    half[corner] += (2.4, -0.4)
    assert locate.pulled_blob(_fitted_through(half, matched, bigger=corner)) is None
