"""The one real screenshot (../shared/toa, never copied here) must read right in both modes,
and still read right (or abstain) when turned, scaled, re-lit, compressed or marked."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from conftest import shared_file

from assistant.profile import toa_default_profile
from assistant.solver import solve
from assistant.vision import MARK_INNER_RADIUS, MARK_OUTER_RADIUS, read_frame
from lab.commands.bench_vision import SCREENSHOT_CENTRES, judge, screenshot_case

TRUTH = "111/0#0/110"
ANSWER = "110/0#1/000"
LIT = np.array([1, 1, 1, 0, 0, 1, 1, 0])
# corner plate centres measured on the screenshot (TL, TR, BR, BL)
CORNERS = [(88.0, 118.0), (214.0, 119.0), (213.0, 244.0), (88.0, 243.5)]


@pytest.fixture(scope="module")
def screenshot() -> np.ndarray:
    image = cv2.imread(str(shared_file("toa", "room_topdown.png")), cv2.IMREAD_UNCHANGED)
    assert image is not None and image.shape[2] == 4  # RGBA on disk, BGRA here
    return image


def test_auto_locate_reads_the_truth_and_finds_the_corners(screenshot):
    reading = read_frame(screenshot)
    assert reading.found and not reading.abstain and reading.mode == "auto"
    assert reading.board.format() == TRUTH
    assert reading.confident and reading.method == "contrast"
    assert solve(reading.board).presses_text() == ANSWER
    assert np.allclose(reading.corners, CORNERS, atol=2.0)


def test_calibrated_read_of_the_truth(screenshot):
    profile = toa_default_profile().with_corners(CORNERS)
    reading = read_frame(screenshot, profile)
    assert reading.mode == "calibrated" and not reading.abstain
    assert reading.board.format() == TRUTH
    assert solve(reading.board).presses_text() == ANSWER
    assert [t.lit for t in reading.tiles] == [bool(v) for v in LIT]


def test_bgr_and_bgra_read_alike(screenshot):
    bgr = np.ascontiguousarray(screenshot[..., :3])
    assert read_frame(bgr).board == read_frame(screenshot).board


_TURNS = {
    90: (cv2.ROTATE_90_CLOCKWISE, "101/1#1/001"),
    180: (cv2.ROTATE_180, "011/0#0/111"),
    270: (cv2.ROTATE_90_COUNTERCLOCKWISE, "100/1#1/101"),
}


@pytest.mark.parametrize("degrees", sorted(_TURNS))
def test_turned_screenshot_reads_as_seen_on_screen(screenshot, degrees):
    code, seen = _TURNS[degrees]
    turned = cv2.rotate(np.ascontiguousarray(screenshot[..., :3]), code)
    reading = read_frame(turned)
    assert not reading.abstain
    assert reading.board.format() == seen
    # the answer is the same plates, labelled as seen
    presses = solve(reading.board).presses
    assert int(presses.sum()) == 3


@pytest.mark.parametrize("scale", [0.5, 2.0])
def test_scaled_screenshot_in_both_modes(screenshot, scale):
    bgr = np.ascontiguousarray(screenshot[..., :3])
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    scaled = cv2.resize(bgr, None, fx=scale, fy=scale, interpolation=interpolation)
    assert read_frame(scaled).board.format() == TRUTH
    corners = [((x + 0.5) * scale - 0.5, (y + 0.5) * scale - 0.5) for x, y in CORNERS]
    reading = read_frame(scaled, toa_default_profile().with_corners(corners))
    assert reading.board.format() == TRUTH


@pytest.mark.parametrize(("gain", "gamma"), [(0.6, 1.0), (1.4, 1.0), (1.0, 0.7), (1.0, 1.4),
                                             (0.7, 1.3), (1.3, 0.75)])
def test_relit_screenshot(screenshot, gain, gamma):
    lut = np.clip(((np.arange(256) / 255 * gain).clip(0, 1) ** gamma) * 255 + 0.5, 0, 255)
    relit = cv2.LUT(np.ascontiguousarray(screenshot[..., :3]), lut.astype(np.uint8))
    calibrated = toa_default_profile().with_corners(CORNERS)
    for reading in (read_frame(relit), read_frame(relit, calibrated)):
        # a plate whose sampled area does not read whole is reported hidden, never read
        # from part of it (gamma 1.4 darkens part of the top-right diamond): at most one
        assert len(reading.hidden) <= (1 if gamma > 1.2 else 0)
        assert all(seen in ("?", truth) for seen, truth in zip(reading.board_text, TRUTH,
                                                                strict=True))


def _draw_marks(frame: np.ndarray, reading, colour, alpha: float, inner: float) -> np.ndarray:
    """Marks as the overlay draws them: a translucent annulus and a ring, seen in a capture."""
    out = frame.astype(np.float32)
    geometry = reading.geometry
    for tile in reading.tiles:
        mask = np.zeros(frame.shape[:2], np.uint8)
        outer_pts = np.rint(geometry.circle(tile.row, tile.col, MARK_OUTER_RADIUS)).astype(np.int32)
        inner_pts = np.rint(geometry.circle(tile.row, tile.col, inner)).astype(np.int32)
        cv2.fillPoly(mask, [outer_pts], 255)
        cv2.fillPoly(mask, [inner_pts], 0)
        cv2.polylines(mask, [outer_pts], True, 255, 2)
        weight = (mask > 0)[..., None] * alpha
        out = out * (1 - weight) + np.array(colour, np.float32) * weight
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


@pytest.mark.parametrize(
    ("colour", "alpha", "inner"),
    [
        ((40, 210, 240), 0.45, MARK_INNER_RADIUS),  # gold, as planned
        ((200, 60, 200), 0.45, MARK_INNER_RADIUS),  # purple, as planned
        ((40, 210, 240), 0.9, 0.2),  # stronger than planned: nearly opaque, into the frame
        ((0, 255, 0), 1.0, 0.18),
    ],
)
def test_own_marks_do_not_change_the_reading(screenshot, colour, alpha, inner):
    bgr = np.ascontiguousarray(screenshot[..., :3])
    first = read_frame(bgr)
    marked = _draw_marks(bgr, first, colour, alpha, inner)
    calibrated = read_frame(marked, toa_default_profile().with_corners(CORNERS))
    assert calibrated.board.format() == TRUTH
    auto = read_frame(marked)
    assert auto.abstain or auto.board.format() == TRUTH
    if inner >= MARK_INNER_RADIUS:  # marks as planned never cost a reading
        assert not auto.abstain


def test_transformed_screenshots_are_right_or_abstain(screenshot):
    outcomes = []
    for seed in range(24):
        case = screenshot_case(screenshot, seed)
        for profile in (None, toa_default_profile().with_corners(case.corners)):
            outcomes.append(judge(read_frame(case.frame, profile), case.centres, case.lit))
    assert "wrong" not in outcomes
    # strong noise with JPEG 50 on a half-size copy makes some diamonds look partly
    # foreign: those are hidden, not read from the rest, and three or more abstain
    # (measured: 4 of 48)
    assert outcomes.count("abstain") <= 5, outcomes


def test_screenshot_centres_are_where_the_reader_finds_them(screenshot):
    tiles = read_frame(screenshot).tiles
    found = np.array([t.centre for t in tiles])
    assert np.abs(found - SCREENSHOT_CENTRES).max() < 1.5


@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_screenshot_inside_a_full_hd_capture(screenshot, scale):
    """The room as a small part of a 1920x1080 BGRA capture, as mss gives it."""
    room = cv2.resize(screenshot, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    capture = np.zeros((1080, 1920, 4), np.uint8)
    capture[..., :3] = (38, 52, 62)
    capture[..., 3] = 255
    top, left = 500, 1200
    capture[top : top + room.shape[0], left : left + room.shape[1]] = room
    reading = read_frame(capture)
    assert reading.board is not None and reading.board.format() == TRUTH
    expected = [((x + 0.5) * scale - 0.5 + left, (y + 0.5) * scale - 0.5 + top)
                for x, y in CORNERS]
    assert np.allclose(reading.corners, expected, atol=2.0)
