"""The demo room: a stand-in for the game, drawn by :mod:`assistant.demo_room` (the lab's
synthetic rooms build on the same drawing). With the live assistant pointed at it, the
whole loop (reading, overlay, live updates) can be tried without the game.

Two modes (docs/adr/0005-demo-room-is-the-stand-in.md):

* **walk** (the default): a walk-through as a player meets the room. A player figure
  enters at the entrance; a click on any floor tile walks it there tile by tile under the
  pathing model of :mod:`assistant.route`, stepping on every plate it enters (unless the
  crossing rule is off); the camera follows the player and the keys turn, pitch and zoom
  it, so the reader sees hidden plates, panning and turning as in a real session. The
  keys are listed in the room's chat box, and N (or the "New puzzle" button there)
  starts a new random puzzle with the player back at the entrance.
* **classic**: the fixed view of the room without a player, where a click on a plate
  steps on it. The end-to-end tests of the overlay's pixels, ``bench-live`` and the soak
  test need a room that only changes when a plate toggles, so it stays.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import replace

import numpy as np
from PyQt6.QtCore import QPointF, QRectF, Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QColor, QFont, QImage, QPainter
from PyQt6.QtWidgets import QPushButton, QWidget

from assistant.demo_room import Camera, Figure, Room, RoomParams, random_figure, render_room
from assistant.puzzle import TOA_PLATES, toa_board
from assistant.route import ENTRANCE, PLATE_TILES, Tile, on_floor, tile_plate, tiles_crossed
from assistant.solver import random_solvable_board

__all__ = [
    "DEMO_TITLE",
    "KEYS_HELP",
    "MAX_TEAM",
    "PITCH_RANGE",
    "SPACING_RANGE",
    "DemoRoom",
    "default_camera",
    "demo_camera",
    "demo_params",
    "new_seed",
    "walk_tiles",
]

DEMO_TITLE = "ToA Light Assistant demo room"
#: Pitch from straight down the keys allow (the game's camera stops near 68°).
PITCH_RANGE = (0.0, 68.0)
#: Plate spacing on screen (pixels) the zoom keys allow.
SPACING_RANGE = (40.0, 130.0)
#: Team-mates the demo places at most (the room holds up to 8 players; 3 keep it readable).
MAX_TEAM = 3
#: Chance that a team-mate waits on a plate rather than on plain floor.
ON_PLATE_CHANCE = 0.3
YAW_STEP = 15.0
PITCH_STEP = 5.0
ZOOM_STEP = 1.15
#: What the walk-through's chat box says: how to play it (one line each).
KEYS_HELP = (
    "Click the floor: walk there (every plate you walk onto is stepped on).",
    "Left/Right: turn · Q/E: quarter turn · Up/Down: tilt · +/− or wheel: zoom",
    "N or the button: a new puzzle.",
)
#: The chat box of the room's client (RoomParams.ui): left of x = 76% of the width and
#: below y = 76% of the height.
_UI_SPLIT = 0.76
_CHAT_COLOUR = QColor(196, 178, 150)
_CHAT_INK = QColor(20, 20, 20)


def new_seed() -> int:
    """A seed for a new random puzzle (room, board and camera)."""
    return secrets.randbelow(2**31)


def demo_params(board: str | None = None, seed: int = 7) -> RoomParams:
    """The demo's scene: a room in a game-like frame, a solvable random board with
    something to step on by default.
    In walk mode the room replaces its fixed view with :func:`default_camera`."""
    if board is None:
        board = _unsolved_board(seed)
    return RoomParams(
        seed=seed,
        board=board,
        frame_size=(900, 620),
        centre=(360, 250),
        spacing=72.0,
        rotation_deg=4.0,
        colour_jitter=0.0,
    )


def default_camera(frame_size: tuple[int, int] = (900, 620)) -> Camera:
    """A moderate game camera: 35° from straight down, plates ~70 px apart, a few degrees
    off looking in from the side of the room (yaw 276°).

    Why the side: from behind the entrance, the player standing there would hide the
    bottom plate in the very first frame, before the assistant has seen it, so the demo
    would open on an undecided answer; from the far side, the statue across from the way
    in is under the chat box, and the assistant could not tell where the player came in
    until the first plate. From the side, the player waits beside the ring hiding no
    plate and the statue is in view across the room."""
    width, height = frame_size
    return Camera(
        yaw_deg=276.0,
        pitch_deg=35.0,
        spacing_px=70.0,
        look_at=_grid(ENTRANCE),
        screen_centre=(width * 0.38, height * 0.38),  # the middle of the game view (UI at 76%)
    )


def demo_camera(seed: int | None, frame_size: tuple[int, int] = (900, 620)) -> Camera:
    """:func:`default_camera` (``seed`` None), or a camera a little off it for a new
    puzzle: turned up to 8° either way, 30-40° from straight down, plates 64-76 px apart.
    Kept near the default view for the reasons it gives (the player at the way in hides
    no plate; the statue is in view)."""
    camera = default_camera(frame_size)
    if seed is None:
        return camera
    rng = np.random.default_rng([seed, 23])
    return replace(
        camera,
        yaw_deg=(camera.yaw_deg + rng.uniform(-8.0, 8.0)) % 360,
        pitch_deg=float(rng.uniform(30.0, 40.0)),
        spacing_px=float(rng.uniform(64.0, 76.0)),
    )


def _unsolved_board(seed: int) -> str:
    """A random solvable ToA board with at least one plate to step on."""
    present = toa_board("000/0#0/000").present
    rng = np.random.default_rng(seed)
    while True:
        board = random_solvable_board(3, 3, present=present, seed=rng)
        if not board.is_solved():
            return board.format()


def walk_tiles(a: Tile, b: Tile) -> tuple[Tile, ...]:
    """The tiles a click on ``b`` walks through from ``a``, in order (``b`` included).

    A straight or 45° leg is exactly :func:`assistant.route.tiles_crossed` (the only
    shortest path on open floor, so the route module and the demo agree whatever the
    game does). Any other leg goes diagonally first, then straight, as the game's pathing
    is commonly seen to do: the route planner never emits such a leg while the crossing
    rule is on, so this choice only matters for clicks a player makes on their own.
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    if dx == 0 or dy == 0 or abs(dx) == abs(dy):
        return tiles_crossed(a, b)
    n = min(abs(dx), abs(dy))
    corner = (a[0] + n * (1 if dx > 0 else -1), a[1] + n * (1 if dy > 0 else -1))
    return tiles_crossed(a, corner) + tiles_crossed(corner, b)


class DemoRoom(QWidget):
    """Shows the rendered room at one image pixel per logical pixel (fixed size).

    Walk mode (``classic=False``, the default): a click on a floor tile walks the player
    there, one tile every ``walk_speed`` seconds (0: at once), stepping on each plate
    entered (``crossing_steps``; off: only a click that ends on a plate steps on it).
    Keys: Left/Right turn 15°, Q/E or PageUp/PageDown a quarter turn (snapped to the
    room's axes), Up/Down pitch (Up towards straight down) within :data:`PITCH_RANGE`,
    +/− or the wheel zoom. ``team`` (0-3) team-mates wait on random tiles, sometimes on a
    plate. Everything random comes from ``params.seed``. N or the "New puzzle" button
    (:meth:`new_puzzle`) starts a new random puzzle; the keys are listed in the room's
    chat box.

    Classic mode: the fixed view of ``params``; a click on a plate steps on it.
    """

    stepped = pyqtSignal(str)  # the room's board after a step
    moved = pyqtSignal(object)  # the player's tile (x, y) after each tile walked, drawn
    arrived = pyqtSignal(object)  # the player's tile (x, y) when a walk ends
    puzzle_changed = pyqtSignal(str)  # the new board after new_puzzle()

    def __init__(
        self,
        params: RoomParams | None = None,
        title: str = DEMO_TITLE,
        parent: QWidget | None = None,
        *,
        classic: bool = False,
        team: int = 0,
        crossing_steps: bool = True,
        walk_speed: float = 0.2,
        camera: Camera | None = None,
    ) -> None:
        super().__init__(parent)
        if not 0 <= team <= MAX_TEAM:
            raise ValueError(f"team must be 0 to {MAX_TEAM}, not {team}")
        if walk_speed < 0:
            raise ValueError("walk_speed is seconds per tile, 0 or more")
        self.setWindowTitle(title)
        self.params = params or demo_params()
        self.classic = classic
        self.crossing_steps = crossing_steps
        self.walk_speed = float(walk_speed)
        self.team_size = 0 if classic else team
        self._timer = QTimer(self)
        self._timer.setInterval(max(1, round(self.walk_speed * 1000)))
        self._timer.timeout.connect(self._advance)
        self._start(camera or default_camera(self.params.frame_size))
        width, height = self.params.frame_size
        self.setFixedSize(width, height)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.new_button = QPushButton("New puzzle", self)
        self.new_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys stay the room's
        self.new_button.setCursor(Qt.CursorShape.ArrowCursor)
        self.new_button.setToolTip("A new random puzzle, the player back at the way in (N)")
        self.new_button.clicked.connect(self._new_puzzle_clicked)
        self.new_button.adjustSize()
        chat_right, bottom = int(width * _UI_SPLIT), height
        self.new_button.move(chat_right - self.new_button.width() - 8,
                             bottom - self.new_button.height() - 8)
        self.new_button.setVisible(not classic)  # classic: N only (see help_lines)

    def _start(self, camera: Camera) -> None:
        """The player (and team) at the start of ``self.params``'s puzzle."""
        self._timer.stop()
        self.tile: Tile = ENTRANCE
        self._path: list[Tile] = []
        self._stride = 0.0
        rng = np.random.default_rng([self.params.seed, 11])
        self._player = random_figure(rng, _grid(ENTRANCE), facing_deg=-90.0)
        self.team: tuple[Figure, ...] = () if self.classic else _team(rng, self.team_size)
        self.camera = camera
        self.scene: Room = self._render()
        self._image = _to_qimage(self.scene.frame)

    def _new_puzzle_clicked(self) -> None:
        self.new_puzzle()

    def new_puzzle(self, seed: int | None = None) -> str:
        """A new random puzzle (``seed``: a given one): a new room, board (never already
        solved) and camera near the default, the player back at the way in; emits
        ``puzzle_changed`` and returns the board."""
        seed = new_seed() if seed is None else int(seed)
        self.params = replace(self.params, seed=seed, board=_unsolved_board(seed))
        self._start(demo_camera(None if self.classic else seed, self.params.frame_size))
        self.update()
        self.puzzle_changed.emit(self.board)
        return self.board

    # -- state ------------------------------------------------------------------------------
    @property
    def board(self) -> str:
        return self.scene.board

    @property
    def walking(self) -> bool:
        """True while the player is on its way (tiles left to walk)."""
        return bool(self._path)

    @property
    def player_plate(self) -> int | None:
        """The plate (TOA_PLATES index) the player stands on, or None (and in classic)."""
        if self.classic:
            return None
        plate = tile_plate(self.tile)
        return None if plate is None else TOA_PLATES.index(plate)

    def set_board(self, board: str) -> None:
        self.params = replace(self.params, board=board)
        self._refresh()

    def set_camera(self, camera: Camera) -> None:
        """Turn, pitch or zoom (``look_at`` always follows the player); re-renders."""
        self.camera = camera
        self._refresh()

    def step(self, plate: int) -> None:
        """Step on plate ``plate`` (TOA_PLATES order) directly, without walking."""
        row, col = TOA_PLATES[plate]
        self.set_board(toa_board(self.board).press(row, col).format())
        self.stepped.emit(self.board)

    # -- walking ----------------------------------------------------------------------------
    def walk_to(self, target: Tile) -> None:
        """Walk the player to floor tile ``target`` (see :func:`walk_tiles`); a click
        while walking sets a new path from the tile reached, as in the game. Clicking the
        tile the player stands on does nothing."""
        target = (int(target[0]), int(target[1]))
        if self.classic or not on_floor(target):
            return
        self._path = list(walk_tiles(self.tile, target))
        if not self._path:
            return
        if self.walk_speed == 0:
            self._timer.stop()
            while self._path:
                self._move(self._path.pop(0), last=not self._path)
            self._stride = 0.0
            self._refresh()
            self.arrived.emit(self.tile)
        elif not self._timer.isActive():
            self._timer.start()

    def _advance(self) -> None:
        if not self._path:
            self._timer.stop()
            return
        tile = self._path.pop(0)
        self._move(tile, last=not self._path)
        self._stride = 0.0 if not self._path else (-0.8 if self._stride > 0 else 0.8)
        self._refresh()
        self.moved.emit(self.tile)
        if not self._path:
            self._timer.stop()
            self.arrived.emit(self.tile)

    def _move(self, tile: Tile, last: bool) -> None:
        """Enter ``tile``; press the plate there when the rule says so."""
        dx, dy = tile[0] - self.tile[0], tile[1] - self.tile[1]
        self._player = replace(self._player, facing_deg=math.degrees(math.atan2(dy, dx)))
        self.tile = tile
        plate = tile_plate(tile)
        if plate is not None and (self.crossing_steps or last):
            self.params = replace(
                self.params, board=toa_board(self.params.board).press(*plate).format()
            )
            self.scene = replace(self.scene, board=self.params.board)
            self.stepped.emit(self.params.board)

    # -- view -------------------------------------------------------------------------------
    def tile_at(self, point: QPointF) -> Tile | None:
        """The floor tile under a point of the widget (inverse of the current view's
        floor homography), or None off the floor, on the client's panels or above the
        horizon."""
        width, height = self.params.frame_size
        if not (0 <= point.x() < width * 0.76 and 0 <= point.y() < height * 0.76):
            return None  # the client's panels (RoomParams.ui)
        h = self.scene.homography
        inverse = np.linalg.inv(h)
        ray = inverse @ np.array([point.x(), point.y(), 1.0])
        reference = inverse @ (h @ np.array([1.0, 1.0, 1.0]))
        if ray[2] * reference[2] <= 0:
            return None  # the ray meets the floor behind the camera
        x, y = ray[0] / ray[2], ray[1] / ray[2]
        tile = (round(2 * x), round(2 * y))
        return tile if on_floor(tile) else None

    def plate_at(self, point: QPointF) -> int | None:
        """The plate under a point of the widget (TOA_PLATES index), or None."""
        if self.classic:
            distances = np.linalg.norm(
                self.scene.plate_centres - (point.x(), point.y()), axis=1
            )
            nearest = int(np.argmin(distances))
            return nearest if distances[nearest] <= 0.35 * self.params.spacing else None
        tile = self.tile_at(point)
        plate = None if tile is None else tile_plate(tile)
        return None if plate is None else TOA_PLATES.index(plate)

    def _render(self) -> Room:
        if self.classic:
            return render_room(self.params)
        player = replace(self._player, tile=_grid(self.tile), stride=self._stride)
        self.camera = replace(self.camera, look_at=_grid(self.tile))
        return render_room(
            replace(
                self.params,
                camera=self.camera,
                figures=(player, *self.team),
                room_seed=self.params.seed,
            )
        )

    def _refresh(self) -> None:
        self.scene = self._render()
        self._image = _to_qimage(self.scene.frame)
        self.update()

    # -- events -----------------------------------------------------------------------------
    def mousePressEvent(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        if self.classic:
            plate = self.plate_at(event.position())
            if plate is not None:
                self.step(plate)
            return
        tile = self.tile_at(event.position())
        if tile is not None:
            self.walk_to(tile)

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_N:
            self.new_puzzle()
            return
        if self.classic:
            super().keyPressEvent(event)
            return
        key = Qt.Key
        cam = self.camera
        k = event.key()
        if k in (key.Key_Left, key.Key_Right):
            turn = -YAW_STEP if k == key.Key_Left else YAW_STEP
            cam = replace(cam, yaw_deg=(cam.yaw_deg + turn) % 360)
        elif k in (key.Key_Q, key.Key_E, key.Key_PageUp, key.Key_PageDown):
            sign = -1 if k in (key.Key_Q, key.Key_PageUp) else 1
            quarter = math.floor(cam.yaw_deg / 90 + 1e-9) if sign > 0 else math.ceil(
                cam.yaw_deg / 90 - 1e-9
            )
            cam = replace(cam, yaw_deg=((quarter + sign) * 90.0) % 360)
        elif k in (key.Key_Up, key.Key_Down):
            pitch = cam.pitch_deg + (-PITCH_STEP if k == key.Key_Up else PITCH_STEP)
            cam = replace(cam, pitch_deg=float(np.clip(pitch, *PITCH_RANGE)))
        elif k in (key.Key_Plus, key.Key_Equal, key.Key_Minus):
            cam = _zoom(cam, ZOOM_STEP if k != key.Key_Minus else 1 / ZOOM_STEP)
        else:
            super().keyPressEvent(event)
            return
        if cam != self.camera:
            self.set_camera(cam)

    def wheelEvent(self, event) -> None:
        if self.classic:
            super().wheelEvent(event)
            return
        delta = event.angleDelta().y()
        if delta:
            cam = _zoom(self.camera, ZOOM_STEP if delta > 0 else 1 / ZOOM_STEP)
            if cam != self.camera:
                self.set_camera(cam)

    def help_lines(self) -> tuple[str, ...]:
        """What the chat box says: the keys (none in classic mode, whose picture stays
        exactly the rendered frame: the end-to-end tests compare the screen with it)."""
        return () if self.classic else KEYS_HELP

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.drawImage(0, 0, self._image)
        self._paint_help(painter)
        painter.end()

    def _paint_help(self, painter: QPainter) -> None:
        """The keys, in the chat box (where the game writes its messages; the reader
        never looks there), over the rendered chat's lines."""
        if not self.help_lines():
            return
        width, height = self.params.frame_size
        chat = QRectF(0, int(height * _UI_SPLIT), int(width * _UI_SPLIT),
                      height - int(height * _UI_SPLIT))
        painter.fillRect(chat, _CHAT_COLOUR)
        font = QFont(self.font())
        font.setPixelSize(13)
        painter.setFont(font)
        painter.setPen(_CHAT_INK)
        line = painter.fontMetrics().lineSpacing() + 2
        for i, text in enumerate(self.help_lines()):
            painter.drawText(QRectF(chat.left() + 10, chat.top() + 8 + i * line,
                                    chat.width() - 20, line),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                             text)


def _grid(tile: Tile | tuple[float, float]) -> tuple[float, float]:
    """Route tile -> grid units (the renderer's coordinates: a tile is half a plate)."""
    return (tile[0] / 2, tile[1] / 2)


def _zoom(camera: Camera, factor: float) -> Camera:
    return replace(camera, spacing_px=float(np.clip(camera.spacing_px * factor, *SPACING_RANGE)))


def _team(rng: np.random.Generator, count: int) -> tuple[Figure, ...]:
    """``count`` team-mates on distinct tiles away from the entrance, some on plates."""
    plain = [t for t in _floor() if tile_plate(t) is None and t != ENTRANCE]
    plates = list(PLATE_TILES)
    mates = []
    for _ in range(count):
        pool = plates if rng.random() < ON_PLATE_CHANCE else plain
        tile = pool.pop(int(rng.integers(0, len(pool))))
        mates.append(random_figure(rng, _grid(tile)))
    return tuple(mates)


def _floor() -> list[Tile]:
    span = range(-1, 6)
    return [(x, y) for y in span for x in span]


def _to_qimage(frame: np.ndarray) -> QImage:
    rgb = np.ascontiguousarray(frame[..., 2::-1])
    height, width = rgb.shape[:2]
    return QImage(rgb.data, width, height, 3 * width, QImage.Format.Format_RGB888).copy()
