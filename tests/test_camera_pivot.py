"""camera_pivot: the floor point a turn or zoom of the camera keeps put, from two geometries
(exact cameras of the project's scene model, no pictures)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from assistant.demo_room import Camera
from assistant.session.camera import camera_pivot, turn_point
from assistant.vision.geometry import GridGeometry

FRAME = (960, 640)
CENTRE = (365.0, 243.0)


def _geometry(camera: Camera, turns: int = 0) -> GridGeometry:
    """The 3x3 grid as this camera shows it, its labels turned ``turns`` quarter turns
    (as the reader's may turn between two views)."""
    homography = camera.homography(FRAME)
    relabel = np.eye(3)
    for _ in range(turns % 4):
        # labels turned once: a room point (x, y) is labelled (y, 2 - x); back: (2 - y', x')
        relabel = relabel @ np.array([[0.0, -1.0, 2.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    return GridGeometry(3, 3, homography @ relabel)


def _camera(look_at, **kw) -> Camera:
    return Camera(yaw_deg=kw.pop("yaw", 20.0), pitch_deg=kw.pop("pitch", 0.0),
                  spacing_px=kw.pop("spacing", 70.0), look_at=look_at,
                  screen_centre=CENTRE, **kw)


@pytest.mark.parametrize("pitch", [0.0, 35.0, 55.0, 68.0])
@pytest.mark.parametrize("player", [(1.0, 2.5), (0.0, 0.0), (2.5, 1.0), (1.5, -0.5)])
def test_a_turn_pivots_about_the_player_at_any_pitch(pitch, player):
    before = _camera(player, pitch=pitch)
    after = replace(before, yaw_deg=before.yaw_deg + 25.0)
    pivot = camera_pivot(_geometry(before), _geometry(after))
    assert pivot is not None
    assert np.allclose(pivot.floor, player, atol=1e-4)
    assert np.allclose(pivot.screen, CENTRE, atol=1e-2)
    assert pivot.motion == pytest.approx(2 * np.sin(np.radians(12.5)), abs=1e-3)


@pytest.mark.parametrize("pitch", [0.0, 60.0, 68.0])
@pytest.mark.parametrize("zoom", [0.8, 1.25])
def test_a_zoom_pivots_about_the_player(pitch, zoom):
    before = _camera((1.0, 2.5), pitch=pitch)
    after = replace(before, spacing_px=before.spacing_px * zoom)
    pivot = camera_pivot(_geometry(before), _geometry(after))
    assert pivot is not None
    assert np.allclose(pivot.floor, (1.0, 2.5), atol=1e-4)
    assert np.allclose(pivot.screen, CENTRE, atol=1e-2)


def test_the_pivot_is_in_the_later_reading_s_labels_when_they_turned():
    before = _camera((2.5, 1.0), yaw=40.0, pitch=50.0)
    after = replace(before, yaw_deg=70.0)  # 40 -> 70: nearer another axis, labels turn
    for turns in range(4):
        pivot = camera_pivot(_geometry(before), _geometry(after, turns))
        assert pivot is not None
        assert np.allclose(pivot.floor, turn_point((2.5, 1.0), 3, turns), atol=1e-4), turns
        assert np.allclose(pivot.screen, CENTRE, atol=1e-2)


def test_the_grabs_offsets_are_taken_into_account():
    before = _camera((1.0, 2.5), pitch=40.0)
    after = replace(before, yaw_deg=before.yaw_deg - 30.0)
    # the later grab starts 50 px right and 20 px down of the earlier one's corner
    moved = GridGeometry(3, 3, np.array([[1, 0, -50], [0, 1, -20], [0, 0, 1.0]])
                         @ _geometry(after).homography)
    pivot = camera_pivot(_geometry(before), moved, (50.0, 20.0))
    assert pivot is not None
    assert np.allclose(pivot.floor, (1.0, 2.5), atol=1e-4)
    assert np.allclose(pivot.screen, (CENTRE[0] - 50, CENTRE[1] - 20), atol=1e-2)


@pytest.mark.parametrize("pitch", [0.0, 60.0])
def test_a_pan_has_no_pivot(pitch):
    before = _camera((1.0, 2.5), pitch=pitch)
    after = replace(before, look_at=(1.0, 2.0))
    assert camera_pivot(_geometry(before), _geometry(after)) is None


def test_a_pitch_keeps_a_line_put_and_singles_out_no_point():
    before = _camera((1.0, 2.5), pitch=40.0)
    after = replace(before, pitch_deg=62.0)
    assert camera_pivot(_geometry(before), _geometry(after)) is None


def test_a_small_turn_or_zoom_places_no_pivot():
    before = _camera((1.0, 2.5), pitch=30.0)
    assert camera_pivot(_geometry(before), _geometry(replace(before, yaw_deg=25.0))) is None
    assert camera_pivot(_geometry(before), _geometry(replace(before, spacing_px=74.0))) is None


def test_a_turn_while_walking_pivots_elsewhere():
    """Why the live loop asks for a still frame beside the move: a walk in the same frame
    moves the pivot off the player (here by more than a tile)."""
    before = _camera((1.0, 2.5), pitch=30.0)
    after = replace(before, yaw_deg=before.yaw_deg + 25.0, look_at=(1.0, 2.25))
    pivot = camera_pivot(_geometry(before), _geometry(after))
    assert pivot is not None
    assert np.hypot(*np.subtract(pivot.floor, (1.0, 2.25))) > 0.5
