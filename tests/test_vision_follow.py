"""Following the ring from where the live loop last saw it (locate.follow_ring,
reader.follow_frame): after a step the camera has moved with the player, and the player
and team-mates may cover more plates than a fresh search can do without. Every plate the
follow places must be where the plate is; a picture it cannot place for sure is not
placed."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from assistant.demo_room import random_figure
from assistant.puzzle import TOA_PLATES, toa_board
from assistant.session.tracker import LiveReader
from assistant.vision import follow_frame, follow_ring, locate_ring, read_frame
from lab.scene import Camera, SceneParams, render_scene

BOARD = "101/1#0/011"
FRAME = (900, 640)


def plate_xy(index: int) -> tuple[float, float]:
    row, col = TOA_PLATES[index]
    return float(col), float(row)


def room(look_at, *, yaw: float, pitch: float, spacing: float, figures=(), seed: int = 1,
         board: str = BOARD):
    camera = Camera(yaw_deg=yaw, pitch_deg=pitch, spacing_px=spacing, look_at=look_at)
    return render_scene(SceneParams(seed=seed, room_seed=3, board=board, camera=camera,
                                    figures=tuple(figures), ui=False, frame_size=FRAME))


def standing(plates, seed: int):
    rng = np.random.default_rng(seed)
    return [random_figure(rng, plate_xy(p)) for p in plates]


def ring_positions(geometry) -> np.ndarray:
    return geometry.to_image(np.array([(c, r) for r, c in TOA_PLATES], np.float64))


def assert_on_the_plates(geometry, scene) -> None:
    """Each placed plate lands on a distinct true plate centre."""
    placed = ring_positions(geometry)
    d = np.hypot(*(placed[:, None, :] - scene.plate_centres[None, :, :]).transpose(2, 0, 1))
    spacing = np.min(np.hypot(*(scene.plate_centres[1] - scene.plate_centres[0])))
    assert sorted(d.argmin(axis=1).tolist()) == list(range(8))
    assert d.min(axis=1).max() < 0.1 * spacing


@pytest.mark.parametrize(("yaw", "pitch"), [(0, 0), (30, 35), (40, 62), (120, 66), (250, 50)])
def test_a_step_with_the_camera_following_is_followed_to_the_right_place(yaw, pitch) -> None:
    before = room((1.0, 2.6), yaw=yaw, pitch=pitch, spacing=80)  # at the entrance
    first = read_frame(before.frame)
    assert not first.abstain
    # the player steps onto the bottom-right plate and the view follows; a team-mate
    # stands on the top-middle plate
    player, mate = 7, 1
    after = room(plate_xy(player), yaw=yaw, pitch=pitch, spacing=80,
                 figures=standing([player, mate], seed=yaw))
    fit = follow_ring(after.frame, first.geometry)
    assert fit is not None
    assert_on_the_plates(fit.geometry, after)
    # labelled as seen on screen, like a fresh search of the same view without anybody
    clear, _ = locate_ring(room(plate_xy(player), yaw=yaw, pitch=pitch, spacing=80).frame)
    assert clear is not None
    assert np.allclose(ring_positions(fit.geometry), ring_positions(clear.geometry), atol=8)
    # and read: every plate it reads is right, the covered ones hidden
    reading = follow_frame(after.frame, first.geometry)
    assert not reading.abstain
    for tile in reading.tiles:
        index = int(np.argmin(np.hypot(*(after.plate_centres - np.array(tile.centre)).T)))
        if not tile.hidden:
            assert bool(tile.lit) == bool(after.lit[index])
    assert reading.hidden  # the player's own plate at least


def test_a_small_zoom_and_turn_with_the_step_are_taken_up_by_the_fit() -> None:
    before = room((1.0, 2.6), yaw=20, pitch=40, spacing=80)
    first = read_frame(before.frame)
    after = room(plate_xy(0), yaw=27, pitch=40, spacing=86, figures=standing([0], 4))
    fit = follow_ring(after.frame, first.geometry)
    assert fit is not None
    assert_on_the_plates(fit.geometry, after)


@pytest.mark.parametrize(("turn", "pitch", "walk"), [
    (22, 62, False), (-40, 55, False), (100, 45, False), (30, 60, True),
    # olive-gold trousers over the whole diamond of a lit plate, a blob of its size and
    # place, read unlit until a plate much darker than its look was doubted (ADR 12)
    (160, 40, False),
])
def test_a_turn_of_the_camera_about_the_player_is_followed(turn, pitch, walk) -> None:
    """The camera turns about the player (a yaw change turns the floor as the last view
    saw it, rigidly, about the player), maybe while the player walks on: the ring is
    followed to its plates, labelled as a fresh search of the same view would, with the
    player and two team-mates on plates."""
    yaw = 200
    player, mates = 0, [2, 6]
    before = room(plate_xy(player), yaw=yaw, pitch=pitch, spacing=75,
                  figures=standing([player], seed=3))
    first = read_frame(before.frame, max_hidden=4)
    assert not first.abstain, first.reason
    look_at = (0.6, 0.5) if walk else plate_xy(player)
    after = room(look_at, yaw=yaw + turn, pitch=pitch, spacing=75,
                 figures=standing([player, *mates], seed=4))
    fit = follow_ring(after.frame, first.geometry, turned=True)
    assert fit is not None
    assert_on_the_plates(fit.geometry, after)
    if abs(turn) > 25:  # no shift of the last view's floor fits a ring turned this far
        assert follow_ring(after.frame, first.geometry) is None
    clear, _ = locate_ring(room(look_at, yaw=yaw + turn, pitch=pitch, spacing=75).frame)
    assert np.allclose(ring_positions(fit.geometry), ring_positions(clear.geometry), atol=8)
    # read where it is: every plate read is right (four plates under three bodies may be
    # more than a ring on six diamonds may hide: then it abstains, as a search would)
    reading = follow_frame(after.frame, first.geometry, turned=True)
    if reading.abstain:
        assert "covered" in reading.reason
        return
    for tile in reading.tiles:
        index = int(np.argmin(np.hypot(*(after.plate_centres - np.array(tile.centre)).T)))
        assert tile.hidden or bool(tile.lit) == bool(after.lit[index])


def test_the_live_reader_follows_a_turn_a_fresh_search_cannot_read() -> None:
    """The camera turns 22 degrees about the player at a steep camera with two team-mates
    on plates: a fresh search abstains; the live reader, which saw the ring before the
    turn, reads it turned, in one search of the window."""
    pitch, yaw = 62, 200
    before = room(plate_xy(0), yaw=yaw, pitch=pitch, spacing=75, figures=standing([0], seed=3))
    after = room(plate_xy(0), yaw=yaw + 22, pitch=pitch, spacing=75,
                 figures=standing([0, 2, 6], seed=5))  # (with seed=4 a search on five reads it)
    assert read_frame(after.frame, max_hidden=4).abstain
    reader = LiveReader()
    reading, _ = reader.read(before.frame, (0, 0), lambda: before.frame)
    assert not reading.abstain, reading.reason
    searches = reader.relocations
    reading, _ = reader.read(after.frame, (0, 0), lambda: after.frame)
    assert not reading.abstain, reading.reason
    assert reader.relocations == searches + 1
    assert_on_the_plates(reading.geometry, after)
    for tile in reading.tiles:
        index = int(np.argmin(np.hypot(*(after.plate_centres - np.array(tile.centre)).T)))
        assert tile.hidden or bool(tile.lit) == bool(after.lit[index])
    assert reading.hidden


def test_a_turned_ring_needs_five_diamonds() -> None:
    """A turn is one unknown more than a shift: four diamonds of a turned ring are not
    followed (four of a ring moved by one plate and turned fit too)."""
    before = room((1.0, 1.0), yaw=10, pitch=30, spacing=80)
    first = read_frame(before.frame)
    after = room((1.0, 1.0), yaw=40, pitch=30, spacing=80)
    assert follow_ring(after.frame, first.geometry, turned=True) is not None  # all eight in view
    frame = covered(after.frame, after.plate_centres[[0, 3, 5, 6]], 30)
    assert follow_ring(frame, first.geometry, turned=True) is None
    assert follow_ring(frame, first.geometry, turned=True, zoomed=True) is None
    assert follow_frame(frame, first.geometry, turned=True, zoomed=True).abstain


def covered(frame: np.ndarray, centres: np.ndarray, radius: float) -> np.ndarray:
    """The frame with grey discs over ``centres`` (plates nobody could read)."""
    import cv2

    out = frame.copy()
    for x, y in centres:
        cv2.circle(out, (round(x), round(y)), round(radius), (90, 90, 90), -1)
    return out


def test_four_diamonds_are_not_followed() -> None:
    """A ring moved by one plate keeps four of its eight places: four diamonds cannot
    tell where it went, so nothing is placed."""
    before = room((1.0, 1.0), yaw=10, pitch=30, spacing=80)
    first = read_frame(before.frame)
    after = room((2.0, 1.0), yaw=10, pitch=30, spacing=80)
    frame = covered(after.frame, after.plate_centres[[0, 3, 5, 6]], 30)
    assert follow_ring(frame, first.geometry) is None
    assert follow_frame(frame, first.geometry).abstain


@pytest.mark.parametrize(("matched", "rigid"), [(4, False), (5, False), (4, True)])
def test_a_ring_followed_from_four_diamonds_hides_four_only_when_rigid(
        monkeypatch, matched, rigid) -> None:
    """A ring followed from four diamonds by a shift of an older view can match them
    through a zoom and land its other places off their plates: unless the fit is the
    last camera moved (``rigid``: a tight shift, or a refit agreeing with it) it may
    hide three plates, not the session's four."""
    import dataclasses

    import assistant.vision.reader as reader

    before = room((1.0, 1.0), yaw=10, pitch=30, spacing=80)
    first = read_frame(before.frame)
    after = room((1.2, 1.1), yaw=10, pitch=30, spacing=80)
    fit = follow_ring(after.frame, first.geometry)
    assert fit is not None and all(fit.matched) and fit.rigid  # a pure shift, refitted
    fewer = dataclasses.replace(fit, matched=(True,) * matched + (False,) * (8 - matched),
                                rigid=rigid)
    monkeypatch.setattr(reader, "follow_ring", lambda *_args, **_kw: fewer)
    reading = follow_frame(after.frame, first.geometry)
    if matched == 4 and not rigid:
        assert reading.abstain
        # nothing stands on the four (a clean room): unread for want of a look, not covered
        assert reading.reason.startswith("Can't tell lit from unlit on plates")
    else:
        assert not reading.abstain and len(reading.hidden) == 8 - matched
        assert_read_right(reading, after, (0, 0))


def test_four_diamonds_matched_loosely_are_no_rigid_placement() -> None:
    """A walk-through frame: after a step, four diamonds are left (the
    bottom row under the chat panel, the player on a fourth). The last view shifted
    matches them to 0.01 of a plate: rigid, four hidden. The same view zoomed by 5%
    before the shift (an older view, a zoom since) still matches them within the
    follow's tolerance, loosely: no rigid placement, so the ring may hide three, and
    the frame is not read."""
    from walks import walk_through

    from assistant.vision.geometry import GridGeometry

    walk = walk_through(None, 100_003 + 8, source="synthetic")
    reader = LiveReader()
    for frame in walk[:15]:
        feed(reader, frame.scene.frame)
    last, after = reader._last_seen, walk[16].scene
    fit = follow_ring(after.frame, last)
    assert fit is not None and sum(fit.matched) == 4 and fit.rigid
    reading = follow_frame(after.frame, last)
    assert not reading.abstain and len(reading.hidden) == 4
    assert_read_right(reading, after, (0, 0), within=12)
    cx, cy = last.to_image(np.array([[1.0, 1.0]]))[0]
    k = 1.05
    zoom = np.array([[k, 0, cx * (1 - k)], [0, k, cy * (1 - k)], [0, 0, 1]])
    older = GridGeometry(3, 3, zoom @ last.homography)
    loose = follow_ring(after.frame, older)
    assert loose is not None and sum(loose.matched) == 4 and not loose.rigid
    assert follow_frame(after.frame, older).abstain



@pytest.mark.parametrize("pitch", [0, 30, 50])
def test_a_zoom_about_the_player_is_followed(pitch) -> None:
    """The camera zooms in by 15% about the player on a plate while two plates are
    covered: a fresh search finds too few diamonds, and a shift of the last view fits
    them only loosely (its refit is no rigid placement); the ring scaled on the floor
    last seen fits them tightly (rigid), on its plates."""
    before = room(plate_xy(6), yaw=20, pitch=pitch, spacing=80, figures=standing([6], seed=3))
    first = read_frame(before.frame, max_hidden=4)
    assert not first.abstain, first.reason
    after = room(plate_xy(6), yaw=20, pitch=pitch, spacing=92, figures=standing([6], seed=3))
    frame = covered(after.frame, after.plate_centres[[0, 2]], 30)
    assert locate_ring(frame)[0] is None
    shifted = follow_ring(frame, first.geometry, turned=True)
    assert shifted is not None and not shifted.rigid
    fit = follow_ring(frame, first.geometry, turned=True, zoomed=True)
    assert fit is not None and fit.rigid and sum(fit.matched) == 5
    assert_on_the_plates(fit.geometry, after)
    reading = follow_frame(frame, first.geometry, turned=True, zoomed=True)
    assert not reading.abstain and len(reading.hidden) == 3
    for tile in reading.tiles:
        index = int(np.argmin(np.hypot(*(after.plate_centres - np.array(tile.centre)).T)))
        assert tile.hidden or bool(tile.lit) == bool(after.lit[index])


def test_nothing_is_followed_where_the_puzzle_is_not() -> None:
    before = room((1.0, 1.0), yaw=10, pitch=30, spacing=80)
    first = read_frame(before.frame)
    away = room((9.0, 9.0), yaw=10, pitch=30, spacing=80)  # the camera far from the ring
    assert follow_ring(away.frame, first.geometry) is None
    blank = np.full((640, 900, 3), 60, np.uint8)
    assert follow_ring(blank, first.geometry) is None


def test_the_live_reader_follows_where_a_fresh_search_cannot() -> None:
    """Three plates covered by two bodies at a steep camera: a fresh search finds too few
    diamonds (or too many covered) and abstains; the live reader, which saw the ring a
    frame before, follows it and reads the rest."""
    yaw, pitch = 0, 64
    before = room((1.0, 2.6), yaw=yaw, pitch=pitch, spacing=110)
    # the player on the bottom-middle plate hides the centre tile and the top-middle
    # plate behind; a team-mate on the top-left plate
    after = room(plate_xy(6), yaw=yaw, pitch=pitch, spacing=110,
                 figures=standing([6, 0], seed=11))
    assert read_frame(after.frame).abstain  # a fresh search alone cannot place it
    reader = LiveReader()
    full = lambda frame: (lambda: frame)  # noqa: E731 - the whole window is the frame
    reading, _ = reader.read(before.frame, (0, 0), full(before.frame))
    assert not reading.abstain
    reading, _ = reader.read(after.frame, (0, 0), full(after.frame))
    assert not reading.abstain, reading.reason
    assert_on_the_plates(reading.geometry, after)
    for tile in reading.tiles:
        index = int(np.argmin(np.hypot(*(after.plate_centres - np.array(tile.centre)).T)))
        if not tile.hidden:
            assert bool(tile.lit) == bool(after.lit[index])


def feed(reader: LiveReader, frame: np.ndarray):
    """One frame through the reader as the live loop gives it: the region around the
    plates once they are known, the whole window otherwise."""
    height, width = frame.shape[:2]
    rect = reader.region(width, height)
    if rect is None:
        return reader.read(frame, (0, 0), lambda: frame)
    part = frame[rect.top:rect.bottom, rect.left:rect.right]
    return reader.read(part, (rect.left, rect.top), lambda: frame)


@pytest.mark.parametrize(("yaw", "pitch"), [(10, 30), (200, 60)])
def test_each_change_of_the_view_costs_one_search_and_a_still_view_none(yaw, pitch) -> None:
    """The camera follows the player from plate to plate: each new view costs one search
    of the whole window (following the ring from where it was), the same view again
    none (read at the corners found), with someone standing on a plate all along."""
    reader = LiveReader()
    walk = [(1.0, 2.6, None), *((*plate_xy(p), p) for p in (7, 4, 2))]
    board = BOARD
    for number, (x, y, plate) in enumerate(walk):
        if plate is not None:
            row, col = TOA_PLATES[plate]
            board = toa_board(board).press(row, col).format()
        figures = standing([plate], seed=number) if plate is not None else ()
        scene = room((x, y), yaw=yaw, pitch=pitch, spacing=80, figures=figures,
                     board=board)
        for still in range(3):
            searches = reader.relocations
            reading, (left, top) = feed(reader, scene.frame)
            assert not reading.abstain, reading.reason
            assert reader.relocations - searches == (0 if still else 1), (number, still)
            for tile in reading.tiles:  # every plate read is read right, at its place
                d = np.hypot(*(scene.plate_centres - (tile.centre[0] + left,
                                                      tile.centre[1] + top)).T)
                assert d.min() < 8
                if not tile.hidden:
                    assert bool(tile.lit) == bool(scene.lit[int(d.argmin())])


def stale_marks(frame: np.ndarray, centres: np.ndarray, spacing: float) -> np.ndarray:
    """The frame with the overlay's rings (cyan, as the overlay paints them) drawn a third
    of a plate spacing below ``centres``: the marks of the view before, still on screen
    for a frame after the camera moved, crossing the diamonds' lower halves."""
    import cv2

    out = frame.copy()
    for x, y in centres:
        centre = (round(x), round(y + 0.3 * spacing))
        radius = round(0.3 * spacing)
        cv2.circle(out, centre, radius, (230, 220, 0), max(3, round(0.1 * spacing)))
    return out


@pytest.mark.parametrize(("yaw", "pitch"), [(10, 30), (186, 35), (200, 60)])
def test_a_plate_uncovered_in_a_still_view_is_read_again_after_one_search(yaw, pitch) -> None:
    """What covered a plate when the ring was searched goes away while the view stays (the
    overlay's stale marks move on, a team-mate walks off): the plate is read again at the
    next frame, at the same corners (no search), while the player's own plate stays
    hidden without a search per frame."""
    reader = LiveReader()
    player = 4  # middle-right
    scene = room(plate_xy(player), yaw=yaw, pitch=pitch, spacing=80,
                 figures=standing([player], seed=5))
    spacing = float(np.median(np.hypot(*np.diff(scene.plate_centres[[5, 6, 7]], axis=0).T)))
    # a stale mark over the plate lowest on screen (nothing below it to cover too)
    lowest = max((i for i in range(8) if i != player), key=lambda i: scene.plate_centres[i][1])
    marked = stale_marks(scene.frame, scene.plate_centres[[lowest]], spacing)
    reading, _ = feed(reader, marked)
    assert not reading.abstain, reading.reason
    hidden_first = set(reading.hidden)
    assert len(hidden_first) == 2  # the player's plate and the plate under a stale mark
    searches = reader.relocations
    reading, (left, top) = feed(reader, scene.frame)  # the marks have moved away
    assert reader.relocations == searches  # the same view: read at the same corners
    read_at = {int(np.argmin(np.hypot(*(scene.plate_centres
                                        - (t.centre[0] + left, t.centre[1] + top)).T))): t
               for t in reading.tiles}
    assert not read_at[lowest].hidden
    assert read_at[player].hidden
    assert all(t.hidden or bool(t.lit) == bool(scene.lit[i]) for i, t in read_at.items())
    # the still view with the player on the plate: no search
    searches = reader.relocations
    for _ in range(6):
        reading, _ = feed(reader, scene.frame)
        assert not reading.abstain and reading.hidden
    assert reader.relocations == searches


def test_whole_diamonds_tells_a_covered_plate_from_an_uncovered_one() -> None:
    """The local check that frees a set-aside plate: a plate under a figure or under a
    stale mark does not show a whole diamond; a clear one does."""
    from assistant.vision.locate import whole_diamonds

    player = 3  # middle-left
    scene = room(plate_xy(player), yaw=30, pitch=45, spacing=80,
                 figures=standing([player], seed=2))
    clear = room(plate_xy(player), yaw=30, pitch=45, spacing=80)
    fit, _ = locate_ring(clear.frame)
    assert fit is not None
    by_index = {}
    for index, (x, y) in enumerate(ring_positions(fit.geometry)):
        d = np.hypot(*(scene.plate_centres - (x, y)).T)
        by_index[int(d.argmin())] = TOA_PLATES[index]
    spacing = fit.spacing
    marked = stale_marks(clear.frame, scene.plate_centres[[0]], spacing)
    cells = (by_index[player], by_index[0], by_index[7])
    assert whole_diamonds(clear.frame, fit.geometry, cells) == (True, True, True)
    assert whole_diamonds(scene.frame, fit.geometry, cells) == (False, True, True)
    assert whole_diamonds(marked, fit.geometry, cells) == (True, False, True)


# --- a fresh search with people about (locate_ring) -----------------------------------


GOLD = (40, 170, 215)  # BGR: gold-ish skin or clothes, as the gold blobs threshold sees them


@pytest.mark.parametrize(
    ("yaw", "pitch", "tile", "seed"),
    [(0, 0, (1.0, 1.0), 1), (33, 15, (1.0, 1.0), 0), (200, 15, (1.0, 0.8), 2),
     (33, 30, (1.0, 1.25), 0)],
)
def test_a_figure_in_gold_crossing_the_middle_tile_does_not_hide_the_ring(
    yaw, pitch, tile, seed
) -> None:
    """The middle of the ring is plain floor that players cross all the time; a gold
    head or gold clothes there are not a ninth plate."""
    figure = random_figure(np.random.default_rng(seed), tile, skin=GOLD, legs=GOLD, body=GOLD,
                           helmet=False)
    scene = room((1.0, 1.0), yaw=yaw, pitch=pitch, spacing=85, figures=[figure])
    fit, why = locate_ring(scene.frame)
    assert fit is not None, why
    assert_on_the_plates(fit.geometry, scene)


@pytest.mark.parametrize(("yaw", "pitch", "tile", "seed"),
                         [(0, 0, (1.0, 1.0), 1), (33, 15, (1.0, 1.0), 0), (33, 30, (1.0, 1.25), 0)])
def test_a_figure_in_gold_crossing_the_middle_tile_is_followed_through(
    yaw, pitch, tile, seed
) -> None:
    """The same for the follow: a diamond-sized gold blob in the middle of the moved ring
    without a plate's frame is a figure crossing it, and the ring is followed (a
    walk-through on the screenshot's floor: the player in orange walking over the middle
    tile left that frame blank)."""
    before = room((1.0, 2.6), yaw=yaw, pitch=pitch, spacing=85)
    first = read_frame(before.frame)
    assert not first.abstain
    figure = random_figure(np.random.default_rng(seed), tile, skin=GOLD, legs=GOLD, body=GOLD,
                           helmet=False)
    after = room((1.0, 1.0), yaw=yaw, pitch=pitch, spacing=85, figures=[figure])
    fit = follow_ring(after.frame, first.geometry)
    assert fit is not None
    assert_on_the_plates(fit.geometry, after)


def with_a_plate_in_the_middle(scene) -> np.ndarray:
    """The scene's frame with the plate above the middle (row 1, column 2) drawn again
    over the middle tile: each pixel of the middle tile is taken from the point one grid
    row up on the floor, so the copy keeps the camera's perspective at any pitch."""
    homography = scene.homography
    one_row_up = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, -1.0], [0.0, 0.0, 1.0]])
    middle_to_plate = homography @ one_row_up @ np.linalg.inv(homography)
    height, width = scene.frame.shape[:2]
    plate = cv2.warpPerspective(scene.frame, middle_to_plate, (width, height),
                                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    ys, xs = np.mgrid[0:height, 0:width]
    pixels = np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.float64).reshape(-1, 1, 2)
    on_floor = cv2.perspectiveTransform(pixels, np.linalg.inv(homography)).reshape(
        height, width, 2)
    middle = np.all(np.abs(on_floor - 1.0) <= 0.5, axis=2)
    frame = scene.frame.copy()
    frame[middle] = plate[middle]
    assert not np.array_equal(frame, scene.frame)
    return frame


def test_a_ninth_plate_in_the_middle_is_not_followed() -> None:
    """A framed diamond in the moved ring's middle is a plate: no ring is followed there."""
    before = room((1.0, 2.6), yaw=10, pitch=20, spacing=90)
    first = read_frame(before.frame)
    after = room((1.0, 1.0), yaw=10, pitch=20, spacing=90)
    assert follow_ring(after.frame, first.geometry) is not None
    assert follow_ring(with_a_plate_in_the_middle(after), first.geometry) is None


@pytest.mark.parametrize(("yaw", "pitch", "spacing", "display_scale"),
                         [(10, 20, 90, 1.0), (10, 45, 60, 1.5), (40, 55, 90, 1.5),
                          (40, 62, 60, 1.0)])
def test_a_ninth_plate_in_the_middle_is_still_not_the_ring(
    yaw, pitch, spacing, display_scale
) -> None:
    """A 3x3 grid of framed diamonds (another puzzle's) is not the ToA ring, at steep
    cameras and through display scaling too."""
    from lab.scene import display_scaled

    scene = room((1.0, 1.0), yaw=yaw, pitch=pitch, spacing=spacing)
    assert locate_ring(display_scaled(scene.frame, display_scale))[0] is not None
    frame = display_scaled(with_a_plate_in_the_middle(scene), display_scale)
    assert locate_ring(frame)[0] is None


def test_a_body_over_the_middle_tile_at_a_steep_camera_is_no_ninth_plate() -> None:
    """At 62°, stretched by 125% display scaling, the player
    on the near middle plate reaches up over the middle tile, where a diamond-sized gold
    blob lies on his grey torso. The torso is more "purple" than the tan floor on two
    sides of the middle, which made it a ninth plate's frame; the ring's plates show
    theirs on all four sides, so a ninth plate would show three. The ring is found."""
    from walks import walk_through

    frame = walk_through(None, 9 * 100_003 + 1, source="synthetic", display_scale=1.25)[1]
    assert frame.hidden == (6,) and frame.camera.pitch_deg > 60
    fit, why = locate_ring(frame.scene.frame)
    assert fit is not None, why
    assert sum(fit.matched) == 7
    reading = read_frame(frame.scene.frame)
    assert not reading.abstain and reading.hidden == ((2, 1),)


@pytest.mark.parametrize(("covered_plates", "pitch"), [((1, 6), 20), ((3, 4), 45), ((1, 6), 62)])
def test_two_opposite_edge_plates_covered_still_place_the_ring(covered_plates, pitch) -> None:
    """With the plates at the middle of two opposite sides covered, no corner has both of
    its neighbours: the lattice is spanned from a corner to the far corners instead."""
    scene = room((1.0, 1.0), yaw=15, pitch=pitch, spacing=90)
    frame = covered(scene.frame, scene.plate_centres[list(covered_plates)], 26)
    fit, why = locate_ring(frame)
    assert fit is not None, why
    assert_on_the_plates(fit.geometry, scene)
    assert sum(fit.matched) == 6


def test_a_steep_close_view_is_placed_though_the_affine_guess_misses_the_far_plates() -> None:
    """At 64° of pitch and close, the far row is much smaller than the near one: an affine
    guess from one corner misses the far plates, and five matches fix the perspective."""
    scene = room((1.0, 1.5), yaw=0, pitch=64, spacing=150)
    frame = covered(scene.frame, scene.plate_centres[[0]], 0.3 * 150)
    fit, why = locate_ring(frame)
    assert fit is not None, why
    assert_on_the_plates(fit.geometry, scene)


@pytest.mark.parametrize("pitch", [0.0, 40.0, 66.0])
def test_ring_in_place_tells_a_still_view_from_one_crept_away(pitch: float) -> None:
    """The live loop's periodic check (locate.ring_in_place): the diamonds seen where the
    last search placed them pass; the same ring placed a few hundredths of a spacing off
    (the camera crept) does not; covered plates are left out of the check."""
    from assistant.vision.geometry import GridGeometry
    from assistant.vision.locate import IN_PLACE_TOLERANCE, ring_in_place

    scene = room((1.0, 1.0), yaw=20.0, pitch=pitch, spacing=80.0,
                 figures=standing([3], seed=5))
    reading = read_frame(scene.frame)
    assert not reading.abstain and reading.geometry is not None
    seen = tuple((t.row, t.col) for t in reading.tiles if not t.hidden)
    assert 4 <= len(seen) < 8
    assert ring_in_place(scene.frame, reading.geometry, seen)
    everything = tuple(TOA_PLATES)
    assert not ring_in_place(scene.frame, reading.geometry, everything)  # one is covered
    assert not ring_in_place(scene.frame, reading.geometry, seen[:3])  # too few to tell

    def moved(dx: float) -> GridGeometry:
        shift = np.array([[1, 0, dx], [0, 1, 0], [0, 0, 1]], np.float64)
        return GridGeometry(3, 3, reading.geometry.homography @ shift)

    assert ring_in_place(scene.frame, moved(0.4 * IN_PLACE_TOLERANCE), seen)
    assert not ring_in_place(scene.frame, moved(1.5 * IN_PLACE_TOLERANCE), seen)


def test_a_diamond_hollowed_by_the_legs_over_it_is_not_whole() -> None:
    """From a steep camera (67°) the legs of the player standing on a plate cover the middle
    of its diamond and leave a U of gold of the right size, centred on the plate: not a
    whole diamond (the legs read as a lit plate); the plates nobody covers are whole."""
    from walks import walk_through

    from assistant.vision.locate import whole_diamonds

    frame = walk_through(None, 0, source="synthetic", pitch_range=(55.0, 68.0))[6]
    assert frame.player_plate == 0 and frame.hidden == (0,)
    fit, why = locate_ring(frame.scene.frame)
    assert fit is not None, why
    cells = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2))
    at = fit.geometry.to_image(np.array([(c, r) for r, c in cells], np.float64))
    plates = [int(np.argmin(np.hypot(*(frame.scene.plate_centres - p).T))) for p in at]
    # as the live loop asks after a search that set the player's plate and the two beside
    # it aside (the left column as seen): are they free again?
    asked = ((0, 0), (1, 0), (2, 0))
    by_plate = dict(zip((plates[cells.index(c)] for c in asked),
                        whole_diamonds(frame.scene.frame, fit.geometry, asked), strict=True))
    assert 0 in by_plate and by_plate[0] is False
    others = [c for c in cells if c not in asked]
    assert sum(whole_diamonds(frame.scene.frame, fit.geometry, (c,))[0] for c in others) >= 4


def assert_read_right(reading, scene, offset: tuple[int, int], within: float = 5) -> None:
    """Every plate of a reading made on a grab at ``offset`` lies on a true plate (within
    ``within`` pixels), and every plate it reads is read right."""
    for tile in reading.tiles:
        d = np.hypot(*(scene.plate_centres - (tile.centre[0] + offset[0],
                                              tile.centre[1] + offset[1])).T)
        assert d.min() < within
        if not tile.hidden:
            assert bool(tile.lit) == bool(scene.lit[int(d.argmin())])


def assert_session_reads_right(frames, *, hidden: int) -> None:
    """The live reader fed ``frames`` (walk-through frames) reads the last one with
    ``hidden`` plates hidden, every plate on its plate and every plate read right."""
    reader = LiveReader()
    for frame in frames:
        reading, offset = feed(reader, frame.scene.frame)
    assert not reading.abstain, reading.reason
    assert len(reading.hidden) == hidden
    assert_read_right(reading, frames[-1].scene, offset)


def _failing_search(reader: LiveReader, monkeypatch) -> None:
    """Every search of the whole window from now on finds nothing (as when bodies leave
    it too few diamonds): what the reader returns is its tracked read or nothing."""
    from assistant.vision.reader import NOT_IN_VIEW, Reading

    def nothing(frame):
        reader.relocations += 1
        reader._corners = None
        return Reading(False, True, NOT_IN_VIEW, None, (), None, None, "auto"), (0, 0)

    monkeypatch.setattr(reader, "_locate", nothing)


@pytest.mark.parametrize(("pan", "kept"), [(0.0, True), (0.06, False)])
def test_a_tracked_read_stands_when_the_search_fails_only_in_a_still_view(
        monkeypatch, pan, kept) -> None:
    """A team-mate steps onto a second plate: the read at the corners hides one plate more,
    so the reader searches again. When that search finds nothing, the tracked read stands
    if the view is still (every plate it reads shows its diamond in place); a camera that
    panned by 0.06 of a plate, which the tracked read alone does not notice, is not
    read."""
    reader = LiveReader()
    scene = room(plate_xy(4), yaw=20, pitch=40, spacing=90, figures=standing([4], seed=3))
    for _ in range(2):
        reading, _ = feed(reader, scene.frame)
        assert not reading.abstain, reading.reason
    x, y = plate_xy(4)
    after = room((x + pan, y), yaw=20, pitch=40, spacing=90,
                 figures=standing([4], seed=3) + standing([0], seed=5))
    _failing_search(reader, monkeypatch)
    searches = reader.relocations
    reading, (left, top) = feed(reader, after.frame)
    assert reader.relocations == searches + 1  # it did search
    assert reading.abstain is not kept
    if kept:
        assert len(reading.hidden) == 2  # the player's plate and the team-mate's
        assert_read_right(reading, after, (left, top))
        # the next frame of the same view is read at the same corners, no search
        reading, _ = feed(reader, after.frame)
        assert not reading.abstain and reader.relocations == searches + 1


def test_a_still_view_stays_read_when_a_search_of_it_cannot_tell_the_looks_apart():
    """A walk-through at 33° of pitch: the player stands on the plate just stepped on; in
    the second idle frame a search matches all eight diamonds, the player's among them,
    and its read cannot tell lit from unlit. The read at the corners, with the player's
    plate set aside and every plate it reads showing its diamond in place, stands. (A
    steep session showed this with a team-mate covering a fourth plate until the reader
    sampled small diamonds from further inside.)"""
    from walks import walk_through

    walk = walk_through(None, 35, source="synthetic")
    assert [frame.event for frame in walk[5:8]] == ["stepped", "idle", "idle"]
    reader = LiveReader()
    kept = []
    locate_or_keep = reader._locate_or_keep

    def spy(frame, offset, tracked, grab_all):
        out = locate_or_keep(frame, offset, tracked, grab_all)
        # the tracked reading stands: its board and corners, marked kept in its trace
        kept.append(out[0].board_text == tracked.board_text
                    and np.array_equal(out[0].corners, tracked.corners)
                    and any(step.stage == "keep" for step in out[0].trace))
        return out

    reader._locate_or_keep = spy
    for frame in walk[:8]:
        kept.clear()
        reading, (left, top) = feed(reader, frame.scene.frame)
    assert kept == [True]
    assert not reading.abstain, reading.reason
    assert_read_right(reading, walk[7].scene, (left, top))


@pytest.mark.parametrize(("yaw", "pitch"), [(0, 0), (0, 35), (90, 50)])
def test_corners_kept_from_a_view_panned_by_a_plate_are_not_read(yaw, pitch) -> None:
    """The camera moved one plate along a row under corners kept from the view before:
    five old places still show diamonds (the wrong ones) and four show the plain floor,
    few enough to pass as hidden plates. The floor there is no covered plate: the read
    abstains instead of reading a board shifted by a column."""
    from assistant.profile import toa_default_profile
    from assistant.vision.reader import MAX_HIDDEN_IN_SESSION, NOT_IN_VIEW

    before = room((1.0, 1.0), yaw=yaw, pitch=pitch, spacing=80)
    fit, why = locate_ring(before.frame)
    assert fit is not None, why
    after = room((2.0, 1.0), yaw=yaw, pitch=pitch, spacing=80)
    kept = toa_default_profile().with_corners(fit.geometry.corners())
    reading = read_frame(after.frame, kept, max_hidden=MAX_HIDDEN_IN_SESSION, set_aside=())
    assert reading.abstain and reading.reason == NOT_IN_VIEW


def test_a_located_ring_agrees_with_the_last_view_moved_only_when_it_is_that_ring() -> None:
    """After a step (and a turn about the player) the last view moved rigidly on the
    floor places all eight plates; the ring located afresh agrees with it. A lattice
    squashed through the same diamonds (one corner place moved by a fifth of a plate)
    does not, nor does the ring after a zoom (no rigid motion of the last view fits)."""
    from assistant.vision.geometry import geometry_from_corners
    from assistant.vision.locate import agrees_with_last_view

    before = room((1.0, 2.6), yaw=20, pitch=50, spacing=80)
    last = locate_ring(before.frame)[0].geometry
    for yaw in (20, 65):
        after = room(plate_xy(6), yaw=yaw, pitch=50, spacing=80,
                     figures=standing([6], seed=2))
        fit, why = locate_ring(after.frame)
        assert fit is not None, why
        assert agrees_with_last_view(after.frame, last, fit.geometry), yaw
        corners = fit.geometry.corners().copy()
        corners[0] += 0.2 * fit.spacing
        squashed = geometry_from_corners(3, 3, corners)
        assert not agrees_with_last_view(after.frame, last, squashed), yaw
    zoomed = room(plate_xy(6), yaw=20, pitch=50, spacing=100, figures=standing([6], seed=2))
    zoomed_fit, why = locate_ring(zoomed.frame)
    assert zoomed_fit is not None, why
    assert not agrees_with_last_view(zoomed.frame, last, zoomed_fit.geometry)


def test_a_ring_on_six_diamonds_confirmed_by_the_shift_hides_a_fourth_plate() -> None:
    """A walk-through (pitch 59°): after the step, the player and three team-mates on
    and around the ring leave six diamonds and four plates not read; three is all a
    six-diamond ring may hide, and the frame was blank. The ring found agrees with the
    last view shifted: it is read, four hidden, every other plate right. (A walk at
    63° showed this until the reader sampled small diamonds from further inside: it now
    reads one of those plates, and a six-diamond ring may hide the three left.)"""
    from walks import walk_through

    walk = walk_through(None, 15, source="synthetic")
    assert walk[10].event == "stepped" and len(walk[10].figures) == 4
    reader = LiveReader()
    confirmed = []
    confirm = reader._confirmed_by_last_view

    def spy(frame, reading):
        out = confirm(frame, reading)
        confirmed.append(out is not reading)
        return out

    reader._confirmed_by_last_view = spy
    for frame in walk[:11]:
        confirmed.clear()
        reading, (left, top) = feed(reader, frame.scene.frame)
    assert confirmed == [True]
    assert not reading.abstain, reading.reason
    assert len(reading.hidden) == 4
    assert_read_right(reading, walk[10].scene, (left, top))


def test_a_placement_with_a_diamond_in_its_middle_is_no_rival() -> None:
    """A walk-through frame at 13° of pitch: the player walks off the ring past
    the top row, the bottom row is under the chat panel, and the click arrow lies on the
    floor a row beyond the top middle plate. A shift one row up fits five diamonds too,
    the arrow among them, but puts the real top middle diamond in the ring's middle: it
    is no ring, so the real one is followed (three plates hidden) instead of nothing."""
    from walks import walk_through

    walk = walk_through(None, 100_003 + 19, source="synthetic")
    assert_session_reads_right(walk[:30], hidden=3)


def test_gold_without_a_plate_s_frame_in_a_middle_keeps_that_placement_a_rival() -> None:
    """Two shifts a column apart match six diamonds each: the true ring, a figure's gold on
    its middle tile, and one a column off through gold beyond the ring (at 55°: the
    player's face and belt, the statue's beam). Unframed gold in
    the middle is no plate, so the true ring stays a rival and neither is followed; a
    plate's diamond in the middle (framed) still rules its placement out, and the other
    is followed."""
    from assistant.vision.ring.motions import shifted_ring as _shifted

    spots = np.array([(1, 0), (2, 0), (1, 2), (2, 2), (0, 0), (0, 1), (3, 0), (1, 1)],
                     np.float64) + 0.3
    assert _shifted(spots, lambda motion: False) is None
    followed = _shifted(spots, lambda motion: True)
    assert followed is not None
    motion, _nearest, ok = followed
    assert np.allclose(motion[:2, 2], (1.3, 0.3)) and ok.sum() == 6


def test_a_rigid_follow_hides_three_plates_under_the_chat_panel_and_the_players() -> None:
    """A walk-through frame: after a step the bottom row is under the chat
    panel and the player stands on a fourth plate; the last view shifted matches the
    four diamonds left to 0.01 of a plate, so the ring may hide the four (these frames
    were blank), and so may the ring scaled on the floor after the zoom that follows
    (the next two frames). Plates within 0.1 of a plate (120 pixels) of theirs: the refit on
    five diamonds, one partly under the player, agrees with the last view moved within
    0.1 but places the bottom row, under the panel, a few pixels off."""
    from walks import walk_through

    walk = walk_through(None, 100_003 + 8, source="synthetic")
    assert walk[21].event == "zoom"
    reader = LiveReader()
    for index, frame in enumerate(walk[:23]):
        reading, (left, top) = feed(reader, frame.scene.frame)
        if index in (15, 16, 17, 20, 21, 22):
            assert not reading.abstain, (index, reading.reason)
            assert len(reading.hidden) == 4
            assert_read_right(reading, frame.scene, (left, top), within=12)


def test_a_rigid_follow_hides_five_plates_under_the_chat_panel_a_statue_and_the_player(
) -> None:
    """A walk-through frame on the real floor: at a close zoom the bottom
    row is under the chat panel (one plate past the picture's left edge), the entrance
    statue stands over a fourth plate and the player on a fifth, the one just stepped
    on. The last view shifted matches the diamonds left tightly, so it is the ring
    itself: the three plates read still tell the step (its trio's visible plates
    change), and the frames were blank with four allowed. The plate past the edge lies
    0.11 of a plate (15 pixels) from where the ring's far side puts it."""
    from conftest import shared_file
    from walks import walk_through

    walk = walk_through(None, 9 * 100_003 + 32, source="screenshot",
                        screenshot=shared_file("toa", "room_topdown.png"))
    reader = LiveReader()
    read_with_five = 0
    for index, frame in enumerate(walk[:13]):
        reading, (left, top) = feed(reader, frame.scene.frame)
        if index in (11, 12):
            assert not reading.abstain, (index, reading.reason)
            assert_read_right(reading, frame.scene, (left, top), within=20)
            read_with_five += len(reading.hidden) == 5
    assert read_with_five >= 1


def test_the_players_half_covered_diamond_does_not_bend_a_follow() -> None:
    """After a step the player stands over the plate just stepped on, leaving part of its
    diamond: a blob the shift matches (within its loose tolerance) but odd-sized and off
    its place. The refit is made without it, as a fresh search's is: the followed ring
    lies where a fresh search puts it, and no neighbour of the player's plate is hidden
    for looking partly covered (without the refit, the bent fit
    put the top row four to ten pixels up and hid the stepped plate's whole trio)."""
    from walks import walk_through

    from assistant.vision.ring.shape import RING as _RING

    walk = walk_through(None, 2 * 100_003 + 30, source="synthetic")
    before, after = walk[4], walk[5]
    assert after.event == "stepped" and after.hidden == (0,)
    previous, _ = locate_ring(before.scene.frame)
    fresh, _ = locate_ring(after.scene.frame)
    followed = follow_ring(after.scene.frame, previous.geometry)
    assert followed is not None and followed.rigid
    gap = np.hypot(*(followed.geometry.to_image(_RING) - fresh.geometry.to_image(_RING)).T)
    assert gap.max() <= 0.02 * fresh.spacing
    reading = follow_frame(after.scene.frame, previous.geometry)
    assert len(reading.hidden) == 1  # the player's own plate
    truth = after.screen_board.replace("/", "")
    for tile in reading.tiles:
        if not tile.hidden:
            assert str(int(tile.lit)) == truth[tile.row * 3 + tile.col]


def test_a_follow_chained_with_a_side_covered_keeps_its_unseen_places_on_the_plates() -> None:
    """Team-mates over the left column, the camera walking with the player: each frame
    is followed from the last one's placement. A refit that took in a diamond a
    team-mate half covers (its blob six pixels off its plate) agreed with the tight
    moved ring within a tenth of the spacing, so it was taken, and the next frame's
    follow moved the bent ring on: 6, then 15 pixels off on the unseen side (an
    undecided mark beside its plate). The moved
    ring is taken then, and the places stay on the plates frame after frame."""
    from walks import walk_through

    from assistant.vision.ring.shape import RING as _RING
    from lab.commands.bench_walk import display_scale_of

    walk = walk_through(None, 41 * 100_003 + 13, source="synthetic",
                        display_scale=display_scale_of(13))
    start, _ = locate_ring(walk[5].scene.frame)
    geometry = start.geometry
    for frame in walk[6:10]:
        followed = follow_ring(frame.scene.frame, geometry)
        assert followed is not None
        placed = followed.geometry.to_image(_RING)
        off = np.hypot(*(placed[:, None, :] - frame.scene.plate_centres[None]).transpose(
            2, 0, 1)).min(axis=1)
        assert off.max() <= 0.05 * followed.spacing
        geometry = followed.geometry


def test_a_camera_pitched_about_the_player_is_found_on_five_diamonds() -> None:
    """A walk-through frame: the camera pitches from 65° to 50° with the
    player on a plate; his gold clothes merge two diamonds and a gold team-mate a third,
    leaving five. No motion of the last view on the floor places a pitched ring and a
    search needs six: the frame and the next were blank. The live reader, which saw the
    ring a frame before, searches on five: every plate placed on its plate, every plate
    read right, the three others hidden."""
    from walks import walk_through

    from assistant.vision.locate import MIN_DIAMONDS_AFTER_LAST_VIEW

    walk = walk_through(None, 3 * 100_003 + 15, source="synthetic")
    assert walk[6].event == "pitch"
    pitched = walk[6].scene.frame
    assert locate_ring(pitched)[0] is None
    fit, why = locate_ring(pitched, diamonds_needed=MIN_DIAMONDS_AFTER_LAST_VIEW)
    assert fit is not None and sum(fit.matched) == 5, why
    assert_session_reads_right(walk[:7], hidden=3)


def test_five_diamonds_on_a_lattice_sheared_onto_a_body_are_no_ring() -> None:
    """The same moment on the real screenshot's floor: five diamonds and the team-mate's
    arm fit a lattice sheared off the ring (no camera's roll, 0.01 spacings of error),
    whose places off the plates show no purple frames. A ring on five diamonds must show
    frames about six places: that lattice is refused, and whatever is found lies on the
    plates."""
    from conftest import shared_file
    from walks import walk_through

    from assistant.vision.locate import MIN_DIAMONDS_AFTER_LAST_VIEW

    shared_file("toa", "room_topdown.png")
    frame = walk_through(None, 3 * 100_003 + 15, source="screenshot")[6]
    fit, _why = locate_ring(frame.scene.frame, diamonds_needed=MIN_DIAMONDS_AFTER_LAST_VIEW)
    if fit is not None:
        assert_on_the_plates(fit.geometry, frame.scene)


def test_a_ring_found_too_covered_to_read_lets_the_next_frames_search_on_five() -> None:
    """A steep start of a session (66°) with three people about the ring: the first
    frames find a ring but too many plates covered to read it, so there is no last view
    to follow; after a turn, bodies leave five diamonds. The ring was about, so the
    search on five goes on: the frame is read, every plate on its plate and right, where
    a search on six at full resolution finds nothing (at half resolution, the last try on
    a frame this small, a body's gold merged with a diamond passes for a sixth)."""
    from walks import walk_through

    from assistant.vision.locate import MIN_DIAMONDS, locate_ring
    from assistant.vision.ring.search import locate_at as _locate_at

    walk = walk_through(None, 8, source="synthetic", pitch_range=(55.0, 68.0))
    assert walk[2].event == "turn"
    reader = LiveReader()
    for frame in walk[:2]:
        reading, _ = feed(reader, frame.scene.frame)
        assert reading.found and reading.abstain
    reading, (left, top) = feed(reader, walk[2].scene.frame)
    assert not reading.abstain, reading.reason
    assert_read_right(reading, walk[2].scene, (left, top))
    assert _locate_at(walk[2].scene.frame, 1, MIN_DIAMONDS, {})[0] is None
    fit, why = locate_ring(walk[2].scene.frame, fewer_needed=5)
    assert why is None and sum(fit.matched) == 5


def test_no_search_on_five_where_a_lattice_through_more_diamonds_was_turned_down() -> None:
    """At 62° with the view blurred by 150% display scaling all
    eight plates are in view, but their frames no longer show purple and the search
    turns the ring down. The search on five then took a ring turned 45° through the four
    corner plates and the yellow arrow at the entrance, and read the arrow as a lit plate
    (three frames judged wrong). A search on five is not taken where the picture holds a
    lattice through more diamonds: those frames are blank, and no reading is off the
    plates."""
    from walks import walk_through

    walk = walk_through(None, 2 * 100_003 + 11, source="synthetic", pitch_range=(55.0, 68.0),
                        display_scale=1.5)
    reader = LiveReader()
    for frame in walk[:21]:
        reading, (left, top) = feed(reader, frame.scene.frame)
        if not reading.abstain:
            assert_read_right(reading, frame.scene, (left, top), within=12)


def test_the_search_on_five_stops_a_second_after_the_ring_was_last_found(monkeypatch) -> None:
    """The search on five diamonds of its own costs two searches on six: it goes on only
    for FIVE_DIAMOND_SEARCHES searches after one found the ring. A puzzle gone from view
    for good (the player walked on after solving it) does not pay for it on every frame:
    from then on the fresh search goes on to five through the gold it found instead."""
    import assistant.session.tracker as live

    seen = room((1.0, 2.6), yaw=0, pitch=30, spacing=80)
    away = np.full_like(seen.frame, 60)
    fives = []
    fresh_goes_on = []
    read = live.read_frame

    def spy(frame, profile=None, **options):
        if not options.get("cut_strokes"):  # the last try, a pass over gold with no cut
            fives.append(options.get("diamonds_needed") == live.MIN_DIAMONDS_AFTER_LAST_VIEW)
            fresh_goes_on.append(
                options.get("fewer_diamonds") == live.MIN_DIAMONDS_AFTER_LAST_VIEW)
        return read(frame, profile, **options)

    monkeypatch.setattr(live, "read_frame", spy)
    reader = LiveReader()
    feed(reader, seen.frame)
    searches, fresh = [], []
    for _ in range(live.FIVE_DIAMOND_SEARCHES + 5):
        fives.clear()
        fresh_goes_on.clear()
        reading, _ = feed(reader, away)
        assert reading.abstain
        searches.append(any(fives))
        fresh.append(any(fresh_goes_on))
    assert searches == [True] * live.FIVE_DIAMOND_SEARCHES + [False] * 5
    assert fresh == [False] * live.FIVE_DIAMOND_SEARCHES + [True] * 5
    feed(reader, seen.frame)  # found again: the search on five may go on again
    fives.clear()
    feed(reader, away)
    assert any(fives)


def test_a_session_s_first_search_goes_on_to_five_diamonds_through_the_gold_it_found(
        monkeypatch) -> None:
    """A session's start at a steep camera on the screenshot's floor (125%
    display scaling, the player at the way in, three team-mates over
    three plates): five diamonds show, no search on six finds the ring, and with no ring
    found a moment ago the overlay stayed blank until the player stepped. The live
    reader's fresh search goes on to five, on the gold blobs it has found (no second
    pass over the picture): the ring is placed on the plates, the three covered ones
    hidden, and the rest read right."""
    from conftest import shared_file
    from walks import walk_through

    import assistant.vision.ring.search as search
    from assistant.vision.locate import MIN_DIAMONDS_AFTER_LAST_VIEW

    shared_file("toa", "room_topdown.png")
    frame = walk_through(None, 5 * 100_003 + 22, source="screenshot", display_scale=1.25,
                         pitch_range=(55.0, 68.0))[1]
    picture = frame.scene.frame
    assert locate_ring(picture)[0] is None
    passes = []
    blobs = search.gold_blobs
    monkeypatch.setattr(search, "gold_blobs",
                        lambda *args, **kw: passes.append(args[1]) or blobs(*args, **kw))
    fit, why = locate_ring(picture, fewer_needed=MIN_DIAMONDS_AFTER_LAST_VIEW)
    assert fit is not None and sum(fit.matched) == 5, why
    assert len(passes) == len(set(passes))  # each resolution's gold found once
    assert_on_the_plates(fit.geometry, frame.scene)
    reading, (left, top) = feed(LiveReader(), picture)
    assert not reading.abstain, reading.reason
    assert len(reading.hidden) == 3
    assert_read_right(reading, frame.scene, (left, top))


def test_cutting_thin_strokes_parts_two_diamonds_a_weapon_joins() -> None:
    """Two diamonds joined by a 3-pixel stroke are one blob, neither compact nor solid;
    cut apart, each is a diamond. A lone diamond has nothing to cut."""
    from assistant.vision.ring.blobs import _cut_strokes

    mask = np.zeros((60, 120), np.uint8)
    diamond = np.array([[0, -10], [16, 0], [0, 10], [-16, 0]])
    cv2.fillPoly(mask, [diamond + np.array([25, 30]), diamond + np.array([95, 30])], 255)
    limits = (20.0, 5000.0)
    assert _cut_strokes(mask, limits) == []  # two blobs apart already: nothing cut off
    joined = mask.copy()
    joined[29:32, 25:95] = 255  # three pixels wide
    pieces = _cut_strokes(joined, limits)
    assert sorted(round(x) for x, _y, _a, _s in pieces) == [25, 95]
    assert all(abs(y - 30) < 1 for _x, y, _a, _s in pieces)
    lone = np.zeros((60, 60), np.uint8)
    cv2.fillPoly(lone, [diamond + np.array([30, 30])], 255)
    assert _cut_strokes(lone, limits) == []


def test_diamonds_a_team_mate_s_weapon_joins_are_found_with_the_strokes_cut() -> None:
    """A walk-through frame at 57° of pitch: a team-mate's staff lies across
    two plates and joins their diamonds to his body, another team-mate and the player hide
    two more: four whole diamonds, and no search found the ring (the overlay was blank
    for eight frames). With thin strokes cut away, the ring is found on its plates, the
    two under people unmatched."""
    from walks import walk_through

    from assistant.vision.ring.shape import RING as _RING
    from lab.commands.bench_walk import display_scale_of

    walk = walk_through(None, 21 * 100_003 + 33, source="synthetic",
                        display_scale=display_scale_of(33))
    after = walk[5]
    assert after.event == "stepped" and after.hidden == (1, 6)
    assert locate_ring(after.scene.frame, fewer_needed=5)[0] is None
    fit, _why = locate_ring(after.scene.frame, cut_strokes=True)
    assert fit is not None
    placed = fit.geometry.to_image(_RING)
    truth = after.scene.plate_centres
    assert np.hypot(*(placed - truth).T).max() < 0.05 * fit.spacing
    assert [i for i, seen in enumerate(fit.matched) if not seen] == [1, 6]


def test_the_live_reader_searches_with_strokes_cut_when_nothing_else_reads() -> None:
    """A walk-through frame (the one after the step above): the camera
    pitches, a team-mate's weapon joins diamonds, and neither a search, a follow nor a
    search on five read the frame. The live reader's last try, a search with thin strokes
    cut away, reads it: three plates hidden, every other plate right. (A turn at a steep
    camera showed it first; a search on five now reads that frame, its five diamonds
    relabelled as the ring with a side hidden.)"""
    from walks import walk_through

    from lab.commands.bench_walk import display_scale_of

    walk = walk_through(None, 21 * 100_003 + 33, source="synthetic",
                        display_scale=display_scale_of(33))
    assert walk[7].event == "pitch"
    assert read_frame(walk[7].scene.frame, max_hidden=4, fewer_diamonds=5).abstain
    assert_session_reads_right(walk[:8], hidden=3)


def test_a_blob_cut_into_many_pieces_gives_few_and_a_panel_s_size_none() -> None:
    """Two diamonds a stroke joins give two pieces; six in a row give four at most (a
    weapon joins a few diamonds, and the candidates stay few); a gold area a panel's size
    gives none (the client's brown side panel is gold to the mask, and its opening gave
    700 pieces)."""
    from assistant.vision.ring.blobs import _parts_without_strokes

    diamond = np.array([[0, -10], [16, 0], [0, 10], [-16, 0]])
    limits = (20.0, 2500.0)

    def pieces(count: int, size: tuple[int, int] = (80, 260)) -> list:
        mask = np.zeros(size, np.uint8)
        cv2.fillPoly(mask, [diamond + np.array([25 + 40 * i, 40]) for i in range(count)], 255)
        mask[39:42, 25:25 + 40 * (count - 1)] = 255  # a stroke three pixels wide
        contour = max(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0],
                      key=cv2.contourArea)
        return _parts_without_strokes(contour, mask, limits, mask)

    assert len(pieces(2)) == 2
    assert len(pieces(6)) == 4
    panel = np.zeros((640, 260), np.uint8)
    for top in range(0, 620, 26):  # a lattice of diamond-sized cells joined by thin lines
        for left in range(0, 230, 36):
            panel[top:top + 20, left:left + 30] = 255
            panel[top + 9:top + 12, left:left + 36] = 255
            panel[top:top + 26, left + 14:left + 17] = 255
    contour = max(cv2.findContours(panel, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0],
                  key=cv2.contourArea)
    assert _parts_without_strokes(contour, panel, limits, panel) == []


CENTRE = (FRAME[0] / 2, FRAME[1] / 2)  # where room() keeps its look-at point


@pytest.mark.parametrize(("yaw", "before", "after", "player"),
                         [(88, 68, 41, 5), (200, 55, 30, 0), (20, 62, 40, 5), (120, 35, 60, 6)])
def test_a_pitch_about_the_player_is_followed_from_four_diamonds(
        yaw, before, after, player) -> None:
    """The camera pitches about the player on a plate, at a close zoom, with three more
    plates out of sight: four diamonds are left. No fresh search and no motion of the
    floor places the ring (a pitch tilts the floor's picture); the last view's camera
    pitched about the spot where the camera keeps the player does, on its plates, and
    reads them right."""
    figures = standing([player], seed=yaw)
    first = room(plate_xy(player), yaw=yaw, pitch=before, spacing=100, figures=figures)
    seen = read_frame(first.frame, max_hidden=4)
    assert not seen.abstain, seen.reason
    then = room(plate_xy(player), yaw=yaw, pitch=after, spacing=100, figures=figures)
    others = [i for i in range(8) if i != player]
    far = sorted(others, key=lambda i: -np.hypot(*(then.plate_centres[i] - CENTRE)))[:3]
    frame = covered(then.frame, then.plate_centres[far], 0.35 * 100)
    assert locate_ring(frame, diamonds_needed=5)[0] is None
    assert follow_ring(frame, seen.geometry, turned=True, zoomed=True) is None
    fit = follow_ring(frame, seen.geometry, pitched_about=CENTRE)
    assert fit is not None and sum(fit.matched) == 4
    assert_on_the_plates(fit.geometry, then)
    reading = follow_frame(frame, seen.geometry, pitched_about=CENTRE)
    assert not reading.abstain, reading.reason
    assert len(reading.hidden) == 4
    for tile in reading.tiles:
        index = int(np.argmin(np.hypot(*(then.plate_centres - np.array(tile.centre)).T)))
        assert tile.hidden or bool(tile.lit) == bool(then.lit[index])


def test_a_pitch_is_not_followed_about_a_spot_the_player_is_not_at() -> None:
    """Pitched about a place a plate and a half from the player, the last view's camera
    puts the ring nowhere near the four diamonds: nothing is placed."""
    player = 5
    figures = standing([player], seed=4)
    first = room(plate_xy(player), yaw=88, pitch=68, spacing=100, figures=figures)
    seen = read_frame(first.frame, max_hidden=4)
    then = room(plate_xy(player), yaw=88, pitch=41, spacing=100, figures=figures)
    others = [i for i in range(8) if i != player]
    far = sorted(others, key=lambda i: -np.hypot(*(then.plate_centres[i] - CENTRE)))[:3]
    frame = covered(then.frame, then.plate_centres[far], 35)
    assert follow_ring(frame, seen.geometry, pitched_about=(CENTRE[0] + 150, CENTRE[1])) is None
