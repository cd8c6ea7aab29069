"""The demo room's walk-through mode (pytest-qt, offscreen): clicks walk the player tile by
tile under the route module's pathing model, plates entered are stepped on, the camera
follows the player and the keys turn, pitch and zoom it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from PyQt6.QtCore import QPoint, QPointF, Qt

from assistant.gui.demo import (
    PITCH_RANGE,
    SPACING_RANGE,
    DemoRoom,
    demo_params,
    walk_tiles,
)
from assistant.puzzle import TOA_PLATES, toa_board
from assistant.route import (
    ENTRANCE,
    PLATE_TILES,
    RouteError,
    floor_tiles,
    has_one_path,
    tile_plate,
    tiles_crossed,
    tiles_walked,
    walk,
)

BOARD = "111/0#0/110"


def make_room(qtbot, board: str = BOARD, **kw) -> DemoRoom:
    kw.setdefault("walk_speed", 0)
    room = DemoRoom(demo_params(board), **kw)
    qtbot.addWidget(room)
    room.show()
    return room


def screen_point(room: DemoRoom, tile: tuple[int, int]) -> QPoint:
    """Where floor tile ``tile`` is drawn now (through the view's floor homography)."""
    p = room.scene.homography @ np.array([tile[0] / 2, tile[1] / 2, 1.0])
    return QPoint(round(p[0] / p[2]), round(p[1] / p[2]))


def click_tile(qtbot, room: DemoRoom, tile: tuple[int, int]) -> None:
    point = screen_point(room, tile)
    assert room.tile_at(QPointF(point)) == tile, "the click would not land on that tile"
    qtbot.mouseClick(room, Qt.MouseButton.LeftButton, pos=point)


def test_clicking_a_plate_walks_there_and_steps_on_every_plate_it_enters(qtbot) -> None:
    room = make_room(qtbot)
    steps: list[str] = []
    room.stepped.connect(steps.append)
    top = PLATE_TILES[1]  # (2, 0): straight up from the entrance, across the bottom plate
    click_tile(qtbot, room, top)
    expected = walk(toa_board(BOARD), ENTRANCE, [top])
    assert expected.stepped == ((2, 1), (0, 1))  # the bottom plate is crossed on the way
    assert room.board == expected.board.format() and room.tile == top
    assert steps == [
        toa_board(BOARD).press(2, 1).format(),
        expected.board.format(),
    ]
    assert room.player_plate == 1


def test_walking_from_one_end_of_a_row_to_the_other_steps_on_the_middle_plate(qtbot) -> None:
    room = make_room(qtbot)
    clicks = [(-1, 2), (-1, 1), PLATE_TILES[0], PLATE_TILES[2]]  # reach top-left, then go right
    for tile in clicks:
        click_tile(qtbot, room, tile)
    expected = walk(toa_board(BOARD), ENTRANCE, clicks)
    assert expected.stepped == ((0, 0), (0, 1), (0, 2))
    assert room.board == expected.board.format() and room.tile == PLATE_TILES[2]


def test_without_the_crossing_rule_only_the_clicked_plate_is_stepped_on(qtbot) -> None:
    room = make_room(qtbot, crossing_steps=False)
    click_tile(qtbot, room, PLATE_TILES[1])
    expected = walk(toa_board(BOARD), ENTRANCE, [PLATE_TILES[1]], crossing_steps=False)
    assert expected.stepped == ((0, 1),)
    assert room.board == expected.board.format() == toa_board(BOARD).press(0, 1).format()


def test_other_legs_go_diagonally_first_then_straight(qtbot) -> None:
    # route.walk gives such a leg no path; the demo's rule is the 45° leg, then straight
    with pytest.raises(RouteError):
        walk(toa_board(BOARD), ENTRANCE, [PLATE_TILES[0]])
    assert walk_tiles(ENTRANCE, (0, 0)) == ((1, 4), (0, 3), (0, 2), (0, 1), (0, 0))
    room = make_room(qtbot)
    click_tile(qtbot, room, PLATE_TILES[0])
    expected = walk(toa_board(BOARD), ENTRANCE, [(0, 3), (0, 0)])
    assert expected.stepped == ((1, 0), (0, 0))
    assert room.board == expected.board.format()
    for a in floor_tiles():
        for b in floor_tiles():
            path = walk_tiles(a, b)
            if has_one_path(a, b):
                assert path == tiles_crossed(a, b)
            assert len(path) == tiles_walked(a, b)  # one tile per game step
            previous = (a, *path)[: len(path)]
            assert all(tiles_walked(p, q) == 1 for p, q in zip(previous, path, strict=True))
            assert not path or path[-1] == b


def test_walking_takes_a_tile_per_walk_speed_and_renders_each_tile(qtbot) -> None:
    room = make_room(qtbot, walk_speed=0.03)
    frames = [room.scene.frame]
    room.stepped.connect(lambda _: frames.append(room.scene.frame))
    click_tile(qtbot, room, PLATE_TILES[1])
    assert room.walking and room.tile == ENTRANCE and room.board == BOARD  # not there yet
    with qtbot.waitSignal(room.arrived, timeout=3000) as blocker:
        pass
    assert blocker.args == [PLATE_TILES[1]] and not room.walking
    assert room.board == walk(toa_board(BOARD), ENTRANCE, [PLATE_TILES[1]]).board.format()


def test_a_click_while_walking_turns_the_walk_from_where_the_player_is(qtbot) -> None:
    room = make_room(qtbot, walk_speed=0.05)
    seen = []

    def turn(tile) -> None:
        seen.append(tile)
        if tile == (2, 3):
            room.walk_to((5, 3))  # straight right from there: plain floor only

    room.moved.connect(turn)
    click_tile(qtbot, room, (2, -1))  # straight up the middle column, across two plates
    qtbot.waitUntil(lambda: not room.walking and room.tile != (2, 3), timeout=3000)
    assert seen == [(2, 4), (2, 3), (3, 3), (4, 3), (5, 3)]
    assert room.tile == (5, 3)
    assert room.board == toa_board(BOARD).press(2, 1).format()  # only the bottom plate


def test_the_camera_follows_the_player(qtbot) -> None:
    room = make_room(qtbot)
    centre = np.array(room.camera.screen_centre)
    before = room.scene.plate_centres.copy()
    click_tile(qtbot, room, PLATE_TILES[4])
    # the player's plate is where the view's centre is; the room moved under it
    assert np.allclose(room.scene.plate_centres[4], centre, atol=0.5)
    assert np.linalg.norm(room.scene.plate_centres - before, axis=1).min() > 20
    assert room.camera.look_at == (2.0, 1.0)
    click_tile(qtbot, room, PLATE_TILES[1])
    assert np.allclose(room.scene.plate_centres[1], centre, atol=0.5)


def test_plate_at_maps_a_point_through_the_current_view(qtbot) -> None:
    room = make_room(qtbot)
    checked = 0
    for _turn in range(3):
        for index, (x, y) in enumerate(room.scene.plate_centres):
            if room.tile_at(QPointF(x, y)) is not None:  # in the game view
                assert room.plate_at(QPointF(x, y)) == index
                checked += 1
        qtbot.keyClick(room, Qt.Key.Key_E)
    assert checked >= 20
    assert room.plate_at(QPointF(5, 5)) is None
    assert room.tile_at(QPointF(880, 600)) is None  # the client's panels are not floor


def test_keys_turn_pitch_and_zoom_within_bounds(qtbot) -> None:
    room = make_room(qtbot)
    size = room.size()
    room.set_camera(replace(room.camera, yaw_deg=186.0))  # the snaps below count from here
    cam = room.camera
    frame = room.scene.frame
    qtbot.keyClick(room, Qt.Key.Key_Left)
    assert room.camera.yaw_deg == pytest.approx((cam.yaw_deg - 15) % 360)
    assert not np.array_equal(room.scene.frame, frame)  # re-rendered
    qtbot.keyClick(room, Qt.Key.Key_Right)
    qtbot.keyClick(room, Qt.Key.Key_Right)
    assert room.camera.yaw_deg == pytest.approx((cam.yaw_deg + 15) % 360)
    qtbot.keyClick(room, Qt.Key.Key_E)  # a quarter turn, snapped to the room's axes
    assert room.camera.yaw_deg == pytest.approx(270.0)
    qtbot.keyClick(room, Qt.Key.Key_PageUp)
    qtbot.keyClick(room, Qt.Key.Key_Q)
    assert room.camera.yaw_deg == pytest.approx(90.0)
    qtbot.keyClick(room, Qt.Key.Key_PageDown)
    assert room.camera.yaw_deg == pytest.approx(180.0)

    for _ in range(20):
        qtbot.keyClick(room, Qt.Key.Key_Down)
    assert room.camera.pitch_deg == PITCH_RANGE[1]
    for _ in range(20):
        qtbot.keyClick(room, Qt.Key.Key_Up)
    assert room.camera.pitch_deg == PITCH_RANGE[0]  # straight down

    spacing = room.camera.spacing_px
    qtbot.keyClick(room, Qt.Key.Key_Plus)
    assert room.camera.spacing_px > spacing
    for _ in range(20):
        qtbot.keyClick(room, Qt.Key.Key_Minus)
    assert room.camera.spacing_px == SPACING_RANGE[0]
    for _ in range(20):
        qtbot.keyClick(room, Qt.Key.Key_Plus)
    assert room.camera.spacing_px == SPACING_RANGE[1]
    assert room.size() == size  # the window keeps its size whatever the view
    # the player is still at the view's centre after all that
    player = room.scene.homography @ np.array([ENTRANCE[0] / 2, ENTRANCE[1] / 2, 1.0])
    assert np.allclose(player[:2] / player[2], room.camera.screen_centre, atol=0.5)


def test_the_wheel_zooms(qtbot) -> None:
    from PyQt6.QtCore import QPoint as P
    from PyQt6.QtGui import QWheelEvent

    room = make_room(qtbot)
    spacing = room.camera.spacing_px
    event = QWheelEvent(
        QPointF(100, 100), QPointF(room.mapToGlobal(P(100, 100))), P(0, 0), P(0, 120),
        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase, False,
    )
    room.wheelEvent(event)
    assert room.camera.spacing_px > spacing


def test_team_mates_are_drawn_some_on_plates_and_all_from_the_seed(qtbot) -> None:
    alone = make_room(qtbot)
    team = make_room(qtbot, team=3)
    again = make_room(qtbot, team=3)
    assert len(team.team) == 3 and len(team.scene.params.figures) == 4
    assert np.array_equal(team.scene.frame, again.scene.frame)  # deterministic
    assert [m.tile for m in team.team] == [m.tile for m in again.team]
    assert np.count_nonzero(np.any(team.scene.frame != alone.scene.frame, axis=2)) > 1000
    tiles = {(round(m.tile[0] * 2), round(m.tile[1] * 2)) for m in team.team}
    assert len(tiles) == 3 and ENTRANCE not in tiles
    on_plates = []
    for seed in range(12):
        room = DemoRoom(replace(demo_params(BOARD), seed=seed), team=3, walk_speed=0)
        qtbot.addWidget(room)
        on_plates += [
            tile_plate((round(m.tile[0] * 2), round(m.tile[1] * 2))) is not None
            for m in room.team
        ]
    assert any(on_plates) and not all(on_plates)  # sometimes on a plate
    with pytest.raises(ValueError):
        DemoRoom(demo_params(BOARD), team=4)


def test_step_still_steps_directly(qtbot) -> None:
    room = make_room(qtbot)
    with qtbot.waitSignal(room.stepped, timeout=1000) as blocker:
        room.step(0)
    expected = toa_board(BOARD).press(*TOA_PLATES[0]).format()
    assert blocker.args == [expected] and room.board == expected and room.tile == ENTRANCE


def _first_step_reads_as_a_snap(board: str) -> bool:
    """Whether the first plate the route from the way in steps on leaves, with that plate
    hidden, a board the ring alone cannot tell from a quarter-turn snap of the one before."""
    from assistant.route import plan_route
    from assistant.session.history import BoardHistory
    from assistant.solver import solve
    from assistant.vision.reader import Reading, TileReading

    start = toa_board(board)
    route = plan_route(solve(start).presses, ENTRANCE)
    plate = tile_plate(next(click for click in route.clicks if click.step).tile)
    after = start.press(*plate)

    def reading(shown, hidden=()):
        tiles = tuple(TileReading(r, c, None if (r, c) in hidden else bool(shown.states[r, c]),
                                  1.0, (0.0, 0.0), hidden=(r, c) in hidden)
                      for r, c in TOA_PLATES)
        states = np.array(shown.states)
        for cell in hidden:
            states[cell] = 0
        partial = shown.with_states(states)
        return Reading(True, False, None, None if hidden else shown, tiles, None, None,
                       "auto", "contrast", hidden=tuple(hidden),
                       partial=partial if hidden else None)

    history = BoardHistory()
    history.update(reading(start))
    return not history.update(reading(after, (plate,))).certain


def test_following_the_route_from_the_way_in_decides_steps_a_snap_could_explain(qtbot) -> None:
    """Boards whose first step from the way in gives a board that is also a quarter turn
    of the one before: the statue, in view from the demo's side camera, tells the
    history there was no snap, so the route is followed to the end with certain marks
    (the live loop over the room's own frames, clicking each state's first click; a
    frame per tile walked, as the camera follows a walking player)."""
    import itertools

    from assistant.sequence import PictureSequence

    boards = []
    for bits in itertools.product((0, 1), repeat=8):
        text = "{}{}{}/{}#{}/{}{}{}".format(*bits)
        if text != "111/1#1/111" and _first_step_reads_as_a_snap(text):
            boards.append(text)
    assert len(boards) >= 3
    for board in boards:
        room = make_room(qtbot, board)
        sequence = PictureSequence(interval=0.1)
        for _ in range(14):
            for _ in range(3):
                sequence.feed(room.scene.frame.copy())
            observed = sequence.loop.last_observed
            if room.board == "111/1#1/111":
                break
            assert observed.kind == "steps" and observed.route is not None, (board, room.board)
            tile = observed.route.clicks[0].tile
            point = observed.reading.geometry.to_image(np.array([[tile[0] / 2, tile[1] / 2]]))[0]
            point += np.array(observed.origin) - (observed.window.left, observed.window.top)
            for walked in walk_tiles(room.tile, room.tile_at(QPointF(*point))):
                room.walk_to(walked)
                sequence.feed(room.scene.frame.copy())
        assert room.board == "111/1#1/111", board


def test_new_puzzles_are_read_right_from_their_first_frame(qtbot) -> None:
    """A new puzzle varies the room, the board and the camera (near the default view):
    the assistant reads each right from the first frame, with nothing to guess."""
    from assistant.capture import Rect
    from assistant.gui.demo import demo_camera
    from assistant.live import LiveLoop
    from lab.scene import screen_board

    class NoWindows:
        def unavailable(self):
            return None

        def windows(self):
            return []

        def update(self, window):
            return None

    room = DemoRoom(demo_params("111/0#0/110"), walk_speed=0)
    qtbot.addWidget(room)
    cameras = set()
    for seed in range(1, 12):
        board = room.new_puzzle(seed * 7919)
        assert not toa_board(board).is_solved() and room.tile == ENTRANCE
        cameras.add((round(room.camera.yaw_deg, 3), round(room.camera.pitch_deg, 3)))
        assert room.camera == replace(demo_camera(seed * 7919), look_at=room.camera.look_at)
        loop = LiveLoop(NoWindows(), None, "x")
        state = loop.process(room.scene.frame, Rect(0, 0, *room.params.frame_size))
        assert state.kind == "steps" and not state.hidden, (seed, state.status)
        assert state.board.format() == screen_board(room.scene)
    assert len(cameras) == 11
