"""The statue beside the plates: which side of the ring it stands on, in the reading's
labels, on the real screenshot and on rendered rooms at every turn and pitch; never a
guess when a side cannot be told."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from conftest import shared_file

from assistant.demo_room import Camera
from assistant.profile import toa_default_profile
from assistant.vision.geometry import GridGeometry
from assistant.vision.reader import read_frame
from assistant.vision.statue import STATUE_SIDES, gold_shares, purple_shares, statue_side
from lab.scene import SceneParams, render_scene

#: Where the renderer stands the statue (room grid units): beyond the top row's middle.
STATUE_IN_ROOM = (1.0, -0.9)


def _truth(homography: np.ndarray, geometry: GridGeometry) -> tuple[int, int]:
    """The side, in the reading's labels, whose outside lies nearest the statue on screen."""
    statue = cv2.perspectiveTransform(np.array([[STATUE_IN_ROOM]]), homography)[0, 0]

    def distance(side: tuple[int, int]) -> float:
        dx, dy = side
        point = geometry.to_image(np.array([[1 + 1.9 * dx, 1 + 1.9 * dy]]))[0]
        return float(np.hypot(*(point - statue)))

    return min(STATUE_SIDES, key=distance)


def test_the_real_screenshot_shows_the_statue_above_the_top_row() -> None:
    frame = cv2.imread(str(shared_file("toa", "room_topdown.png")), cv2.IMREAD_COLOR)
    reading = read_frame(frame, toa_default_profile())
    assert reading.board_text == "111/0#0/110"
    assert statue_side(frame, reading.geometry) == (0, -1)
    shares = gold_shares(frame, reading.geometry)
    assert shares[0] > 0.1 and all(share == 0 for share in shares[1:])
    assert purple_shares(frame, reading.geometry)[0] > 0.1  # the statue's body


@pytest.mark.parametrize("quarter", [0, 1, 2, 3])
def test_rendered_rooms_at_every_turn_and_pitch_are_never_told_the_wrong_side(quarter) -> None:
    right = 0
    for seed in range(12):
        rng = np.random.default_rng([seed, quarter])
        camera = Camera(
            yaw_deg=90.0 * quarter + float(rng.uniform(-30, 30)),
            pitch_deg=float(rng.uniform(0, 68)),
            spacing_px=float(rng.uniform(50, 100)),
            look_at=(float(rng.uniform(0, 2)), float(rng.uniform(0.5, 2.5))),
        )
        scene = render_scene(SceneParams(seed=seed, frame_size=(900, 620), camera=camera,
                                         room_seed=seed, ui=False))
        reading = read_frame(scene.frame, toa_default_profile())
        if reading.abstain:
            continue
        side = statue_side(scene.frame, reading.geometry)
        if side is None:
            continue
        assert side == _truth(scene.homography, reading.geometry), (seed, camera)
        right += 1
    assert right >= 9, f"the statue was told in only {right} of 12 rooms"


def _top_down_room(rotation_deg: float = 0.0) -> tuple[np.ndarray, GridGeometry]:
    scene = render_scene(SceneParams(seed=4, board="101/0#1/010", frame_size=(640, 520),
                                     centre=(320, 260), spacing=80.0, ui=False,
                                     lookalikes=False, rotation_deg=rotation_deg))
    reading = read_frame(scene.frame, toa_default_profile())
    assert not reading.abstain and statue_side(scene.frame, reading.geometry) is not None
    return scene.frame.copy(), reading.geometry


def _paint_side(frame: np.ndarray, geometry: GridGeometry, side, colour,
                across: float = 0.3) -> None:
    """Fill the area beyond a side's middle plate where the statue would stand (``across``
    either side of the line out of its middle)."""
    dx, dy = side
    corners = [(out, a) for out, a in
               ((0.5, -across), (1.4, -across), (1.4, across), (0.5, across))]
    grid = np.array([[1 + dx + o * dx - a * dy, 1 + dy + o * dy + a * dx] for o, a in corners])
    cv2.fillPoly(frame, [np.round(geometry.to_image(grid)).astype(np.int32)], colour)


def test_the_games_brown_panels_are_not_taken_for_the_beam() -> None:
    frame, geometry = _top_down_room()
    side = statue_side(frame, geometry)
    other = next(s for s in STATUE_SIDES if s != side)
    _paint_side(frame, geometry, other, (38, 52, 62))  # the client's dark brown panel
    assert gold_shares(frame, geometry)[STATUE_SIDES.index(other)] == 0
    assert statue_side(frame, geometry) == side


def test_gold_on_two_sides_tells_nothing() -> None:
    frame, geometry = _top_down_room()
    side = statue_side(frame, geometry)
    other = next(s for s in STATUE_SIDES if s != side)
    _paint_side(frame, geometry, other, (30, 200, 240))  # a team-mate's gold armour
    assert statue_side(frame, geometry) is None


def test_a_covered_statue_and_a_side_out_of_the_frame_tell_nothing() -> None:
    frame, geometry = _top_down_room()
    side = statue_side(frame, geometry)
    _paint_side(frame, geometry, side, (94, 108, 119))  # someone in grey stands before it
    assert statue_side(frame, geometry) is None
    # only the top half of the room in the frame: the bottom side is not seen
    shares = gold_shares(frame[: frame.shape[0] // 2 - 40], geometry)
    assert shares[STATUE_SIDES.index((0, 1))] is None



@pytest.mark.parametrize("rotation_deg", [0.0, 90.0, 180.0, 270.0])
def test_gold_without_the_statues_purple_is_not_the_statue(rotation_deg) -> None:
    """A team-mate in gold or orange beyond another side, the statue's own side covered
    (someone before it, or the chat panel over it): all gold, no purple, no statue."""
    frame, geometry = _top_down_room(rotation_deg)
    side = statue_side(frame, geometry)
    other = (-side[0], -side[1])
    _paint_side(frame, geometry, side, (94, 108, 119))
    _paint_side(frame, geometry, other, (30, 200, 240), across=0.12)
    assert gold_shares(frame, geometry)[STATUE_SIDES.index(other)] > 0.2
    assert purple_shares(frame, geometry)[STATUE_SIDES.index(other)] == 0
    assert statue_side(frame, geometry) is None
    assert statue_side(frame, geometry, all_sides=True) is None
    # with the statue's purple beside the gold, the colours say that side
    _paint_side(frame, geometry, other, (120, 80, 100))
    _paint_side(frame, geometry, other, (30, 200, 240), across=0.12)
    assert statue_side(frame, geometry) == other


def test_gold_beyond_a_plate_someone_stands_on_up_the_screen_is_not_the_statue() -> None:
    """At a low camera a body on the far side's middle plate rises on screen over the
    area beyond it; in gold it looks like the beam. That side is then never the answer;
    a body on a side nearer the bottom of the screen rises over the plates instead."""
    frame, geometry = _top_down_room(rotation_deg=180.0)  # the statue at the bottom
    assert statue_side(frame, geometry) == (0, 1)
    top, bottom = (0, -1), (0, 1)
    _paint_side(frame, geometry, bottom, (94, 108, 119))  # a body before the statue ...
    _paint_side(frame, geometry, top, (120, 80, 100))  # ... one in purple robes ...
    _paint_side(frame, geometry, top, (30, 200, 240), across=0.12)  # ... and a gold cape
    assert statue_side(frame, geometry) == top  # what the colours alone say
    assert statue_side(frame, geometry, hidden=((0, 1),)) is None
    assert statue_side(frame, geometry, hidden=((0, 1),), all_sides=True) is None
    # a plate hidden elsewhere leaves the sides as they were
    assert statue_side(frame, geometry, hidden=((0, 0),)) == top
    # gold beyond the bottom side, the body on its middle plate: that side stays an answer
    frame, geometry = _top_down_room(rotation_deg=180.0)
    assert statue_side(frame, geometry, hidden=((2, 1),)) == bottom


def test_only_a_three_by_three_ring_has_the_statue() -> None:
    geometry = GridGeometry(5, 5, np.array([[60.0, 0, 100], [0, 60, 100], [0, 0, 1]]))
    frame = np.zeros((500, 500, 3), np.uint8)
    assert statue_side(frame, geometry) is None
    assert statue_side(frame, None) is None


def test_all_sides_asks_for_every_side_in_the_frame() -> None:
    """For the session's history the statue counts only with all four areas in the frame:
    a grab around the plates that leaves one side out gives no answer, though the side the
    statue is on is still told when all four are in (and by default, without them)."""
    frame, geometry = _top_down_room()
    side = statue_side(frame, geometry)
    assert statue_side(frame, geometry, all_sides=True) == side
    # cut the frame just beyond the plates on the side across from the statue
    dx, dy = side
    far = geometry.to_image(np.array([[1 - 1.2 * dx, 1 - 1.2 * dy]]))[0]
    if dy:  # the statue above (dy < 0): keep what lies above the cut, else below it
        cut = frame[: int(far[1])] if dy < 0 else frame[int(far[1]):]
        shift = np.eye(3) if dy < 0 else np.array([[1, 0, 0], [0, 1, -int(far[1])], [0, 0, 1]])
    else:
        cut = frame[:, : int(far[0])] if dx < 0 else frame[:, int(far[0]):]
        shift = np.eye(3) if dx < 0 else np.array([[1, 0, -int(far[0])], [0, 1, 0], [0, 0, 1]])
    moved = GridGeometry(3, 3, shift @ geometry.homography)
    assert None in gold_shares(cut, moved)
    assert statue_side(cut, moved) == side
    assert statue_side(cut, moved, all_sides=True) is None
