"""The room around the ring tells the quarter turn of the labels between two views
(assistant.vision.surroundings): the turn told is always the true one, and an even
surround tells none."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.session.camera import turn_cell, turn_point
from assistant.vision.geometry import geometry_from_corners
from assistant.vision.surroundings import band_points, room_band, turns_between

CORNERS = ((0, 0), (0, 2), (2, 2), (2, 0))  # as geometry_from_corners takes them


def relabelled(geometry, turns: int):
    """The same view with its labels turned ``turns`` quarter turns (as a compass snap
    of the camera relabels them): each new corner is the old cell the turn carries there."""
    points = []
    for new in CORNERS:
        old = next((r, c) for r in range(3) for c in range(3)
                   if turn_cell((r, c), (3, 3), turns) == new)
        points.append(geometry.to_image(np.array([[old[1], old[0]]], np.float64))[0])
    return geometry_from_corners(3, 3, np.array(points))


def textured_room(seed: int = 5, size: tuple[int, int] = (640, 480)) -> np.ndarray:
    """A floor of blotches of colour, different on every side of the middle."""
    import cv2

    rng = np.random.default_rng(seed)
    small = rng.integers(30, 220, size=(12, 16, 3)).astype(np.uint8)
    return cv2.resize(small, size, interpolation=cv2.INTER_NEAREST)


def a_view(angle_deg: float = 20.0, spacing: float = 60.0):
    a = np.radians(angle_deg)
    axis_x = spacing * np.array([np.cos(a), np.sin(a)])
    axis_y = spacing * np.array([-np.sin(a), np.cos(a)])
    origin = np.array([320.0, 240.0]) - axis_x - axis_y
    corners = [origin + c * axis_x + r * axis_y for r, c in CORNERS]
    return geometry_from_corners(3, 3, np.array(corners))


@pytest.mark.parametrize("size", [3, 4, 5])
def test_the_band_is_its_own_image_under_every_quarter_turn(size):
    points = band_points(size)
    as_set = {tuple(np.round(p, 6)) for p in points}
    assert len(as_set) == len(points)
    for turns in range(4):
        turned = {tuple(np.round(turn_point(tuple(p), size, turns), 6)) for p in points}
        assert turned == as_set
    # the band keeps clear of the plates' frames (0.3 around each centre)
    middle = (size - 1) / 2
    assert np.min(np.max(np.abs(points - middle), axis=1)) > middle + 0.3


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_a_relabelled_view_of_a_textured_room_tells_its_turn(turns):
    frame = textured_room()
    before = a_view()
    now = relabelled(before, turns)
    assert turns_between(room_band(frame, before), room_band(frame, now)) == {turns}


def test_the_turn_survives_a_pan_and_a_zoom_of_the_camera():
    import cv2

    frame = textured_room(seed=8, size=(800, 600))
    before = a_view(angle_deg=10.0)
    # the camera pans by 40 px and zooms 1.2x about the ring's middle: the same floor
    move = np.array([[1.2, 0.0, 40 - 0.2 * 320], [0.0, 1.2, 40 - 0.2 * 240]])
    moved = cv2.warpAffine(frame, move, (800, 600), flags=cv2.INTER_NEAREST)
    corners = before.corners() * 1.2 + np.array([40 - 0.2 * 320, 40 - 0.2 * 240])
    after = relabelled(geometry_from_corners(3, 3, corners), 3)
    assert turns_between(room_band(frame, before), room_band(moved, after)) == {3}


def test_an_even_floor_around_the_ring_tells_no_turn():
    frame = np.full((480, 640, 3), (94, 108, 119), np.uint8)
    rng = np.random.default_rng(2)
    noisy = np.clip(frame + rng.normal(0, 3, frame.shape), 0, 255).astype(np.uint8)
    before = a_view()
    for turns in range(4):
        assert turns_between(room_band(noisy, before),
                             room_band(noisy, relabelled(before, turns))) is None


def test_a_band_mostly_beyond_the_picture_tells_no_turn():
    frame = textured_room()
    before = a_view()
    # the same view, with all but a corner of the picture cut away in the second frame
    partial = room_band(frame[:, :200], before)
    assert np.isnan(partial.colours).any(axis=1).mean() > 0.7
    assert turns_between(room_band(frame, before), partial) is None


def test_no_band_for_a_grid_that_is_not_square_or_without_a_view():
    from assistant.vision.geometry import GridGeometry

    frame = textured_room()
    oblong = GridGeometry(3, 4, np.eye(3))
    assert room_band(frame, oblong) is None
    assert room_band(frame, None) is None
    band = room_band(frame, a_view())
    assert turns_between(band, None) is None
    four = geometry_from_corners(4, 4, a_view().corners())
    assert turns_between(band, room_band(frame, four)) is None


def _true_turn(geometry_before, scene_before, geometry_now, scene_now) -> int | None:
    """The quarter turn of the labels between two readings, from where the scenes drew
    each plate (every label is matched to the nearest drawn plate)."""
    cells = [(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)]

    def plates(geometry, scene):
        centres = geometry.to_image(np.array([(c, r) for r, c in cells], np.float64))
        return {cell: int(np.argmin(np.linalg.norm(scene.plate_centres - x, axis=1)))
                for cell, x in zip(cells, centres, strict=True)}

    before, now = plates(geometry_before, scene_before), plates(geometry_now, scene_now)
    label_of = {plate: cell for cell, plate in before.items()}
    for turns in range(4):
        if all(turn_cell(label_of[plate], (3, 3), turns) == cell for cell, plate in now.items()):
            return turns
    return None


@pytest.mark.parametrize("source", ["synthetic", "screenshot"])
def test_on_walk_throughs_the_turn_told_is_always_the_true_one(source):
    """Every pair of successive frames read in two steep sessions (pans with each step,
    compass snaps, zooms, pitches, team-mates about): a turn told is the true one. On the
    screenshot's floor, the real room's, most pairs are told, compass snaps among them;
    the drawn room's floor around the plates is even, and tells few."""
    from walks import walk_through

    from assistant.vision import read_frame
    from assistant.vision.reader import MAX_HIDDEN_IN_SESSION

    if source == "screenshot":
        from conftest import shared_file

        shared_file("toa", "room_topdown.png")
    told = pairs = snaps_told = 0
    for seed in (2 * 100_003 + 12, 5 * 100_003 + 10):
        before = None
        for frame in walk_through(None, seed, source=source, pitch_range=(55.0, 68.0)):
            reading = read_frame(frame.scene.frame, max_hidden=MAX_HIDDEN_IN_SESSION,
                                 fewer_diamonds=5)
            if reading.abstain:
                continue
            band = room_band(frame.scene.frame, reading.geometry)
            if before is not None:
                truth = _true_turn(before[0], before[1], reading.geometry, frame.scene)
                turns = turns_between(before[2], band)
                pairs += 1
                if turns is not None:
                    assert turns == {truth}, (seed, frame.event)
                    told += 1
                    snaps_told += truth != 0
            before = (reading.geometry, frame.scene, band)
    assert pairs > 40
    if source == "screenshot":
        assert told > 0.6 * pairs and snaps_told >= 2
