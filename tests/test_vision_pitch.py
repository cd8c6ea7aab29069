"""The camera behind a view of the floor, and its views pitched about the player
(assistant.vision.pitch): exact on the synthetic rooms' pinhole cameras."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assistant.demo_room import Camera
from assistant.vision.pitch import floor_camera, focal_point

SIZE = (960, 640)
SPOT = (364.8, 243.2)
FLOOR = np.array([(0.0, 0.0), (2.0, 0.0), (0.0, 2.0), (2.0, 2.0), (1.0, 0.5)])


def _image(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    moved = np.column_stack([points, np.ones(len(points))]) @ homography.T
    return moved[:, :2] / moved[:, 2:3]


def _camera(yaw: float, pitch: float, spacing: float = 70.0, look_at=(1.3, 0.2)) -> Camera:
    return Camera(yaw_deg=yaw, pitch_deg=pitch, spacing_px=spacing, look_at=look_at,
                  screen_centre=SPOT)


@pytest.mark.parametrize(("yaw", "pitch"), [(0, 30), (20, 40), (88, 68), (200, 55),
                                            (300, 20), (45, 62)])
def test_the_camera_is_recovered_from_its_view_and_the_spot(yaw, pitch) -> None:
    truth = _camera(yaw, pitch)
    _position, _rotation, intrinsics = truth.pose(SIZE)
    camera = floor_camera(truth.homography(SIZE), SPOT, SPOT[1])
    assert camera is not None
    assert camera.intrinsics == pytest.approx(intrinsics, rel=1e-6, abs=1e-6)
    assert camera.pitch_deg == pytest.approx(pitch, abs=1e-6)
    assert np.allclose(_image(camera.homography(), FLOOR), _image(truth.homography(SIZE), FLOOR),
                       atol=1e-6)
    # the line of sight passes over the look-at point on the floor itself
    feet = np.array(truth.look_at)
    assert focal_point(camera, feet) == pytest.approx([*truth.look_at, 0.0], abs=1e-6)


@pytest.mark.parametrize(("yaw", "before", "after", "zoom"), [
    (88, 68, 41, 1.0), (20, 40, 60, 1.0), (200, 55, 30, 1.1), (300, 25, 66, 0.9)])
def test_a_pitch_about_the_player_gives_the_camera_at_the_new_pitch(
        yaw, before, after, zoom) -> None:
    """Turned about its horizontal axis through the look-at point (and moved along its
    line of sight for a zoom), the recovered camera shows the floor exactly as the
    synthetic room's camera at the new pitch does."""
    old = _camera(yaw, before)
    new = _camera(yaw, after, spacing=70.0 / zoom)
    camera = floor_camera(old.homography(SIZE), SPOT, SPOT[1])
    pivot = focal_point(camera, np.array(old.look_at))
    # a smaller pitch (towards straight down) is a positive turn about the camera's x axis
    turned = camera.pitched(pivot, math.radians(before - after), zoom)
    assert np.allclose(_image(turned.homography(), FLOOR), _image(new.homography(SIZE), FLOOR),
                       atol=1e-6)
    # the player's feet stay where the camera keeps them
    assert _image(turned.homography(), np.array([old.look_at]))[0] == pytest.approx(SPOT)


def test_a_view_from_nearly_straight_down_tells_no_camera() -> None:
    assert floor_camera(_camera(30, 3).homography(SIZE), SPOT, SPOT[1]) is None
    assert floor_camera(_camera(30, 0).homography(SIZE), SPOT, SPOT[1]) is None


def test_a_principal_point_above_the_spot_puts_the_focal_point_above_the_feet() -> None:
    """The game's camera turns about a point over the player's feet: its principal point
    is then above the spot on screen. The recovered camera still shows the last view
    exactly, and its line of sight crosses the vertical over the feet above the floor."""
    truth = _camera(60, 50)
    homography = truth.homography(SIZE)
    camera = floor_camera(homography, SPOT, SPOT[1] - 20)
    assert camera is not None
    assert np.allclose(_image(camera.homography(), FLOOR), _image(homography, FLOOR),
                       atol=1e-6)
    pivot = focal_point(camera, np.array(truth.look_at))
    assert pivot[:2] == pytest.approx(truth.look_at)
    assert abs(pivot[2]) > 0.05
    # above the floor: on the camera's side of it
    assert np.sign(pivot[2]) == np.sign(camera.centre[2])
