"""The demo room's picture: the Tombs of Amascut light-puzzle room drawn with its truth.

The demo room (``toa-assistant demo``) is a stand-in for the game: the live assistant reads
it as it would read the game window. This module draws it the way the game shows the room
(floor tiles, the 8 plates with their purple octagonal frame and gold diamond, the entrance
statue and its yellow beam, the neighbouring addition puzzle's yellow symbols, game-like
UI panels), either in a fixed view (:attr:`RoomParams.spacing`, ``rotation_deg``,
``centre``) or through a game camera with standing figures (:attr:`RoomParams.camera`,
``figures``). Every picture is deterministic from its parameters and comes with its truth
(board, plate centres, the floor-to-image homography).

Only what the demo shows lives here. The lab's synthetic rooms (``lab/scene.py``: lighting,
noise, blur, JPEG, the overlay's marks, display scaling, the real screenshot as the floor)
build on :func:`draw_room`, so the demo and the lab draw the same room.

Colours are the ones measured on the real screenshot, jittered per room by
``colour_jitter`` so that nothing downstream can depend on their exact values.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from assistant.demo_room.camera import Camera
from assistant.demo_room.figures import Figure, draw_figures
from assistant.puzzle import TOA_PLATES, format_grid

__all__ = [
    "DIAMOND",
    "OCTAGON_AXIS",
    "OCTAGON_DIAG",
    "UI_SPLIT",
    "FloorTexture",
    "Room",
    "RoomParams",
    "bgr",
    "draw_room",
    "octagon",
    "project",
    "render_room",
]

#: The game view is the frame's top-left UI_SPLIT of its width and height when the
#: client's panels are drawn (the side panel right of it, the chat box below it).
UI_SPLIT = 0.76

#: A floor texture instead of the drawn room: given the board and the room's random
#: generator, ``(texture BGR, texture pixel -> grid 3x3)`` (the lab's real-screenshot floor).
FloorTexture = Callable[[str, np.random.Generator], tuple[np.ndarray, np.ndarray]]


# Measured on room_topdown.png (BGR).
_LIT = (61, 159, 188)
_UNLIT = (19, 134, 165)
_LIT_BEVEL = (150, 186, 213)
_FRAME = (104, 83, 105)
_FRAME_EDGE = (54, 54, 68)
_PLATE_TILE = (90, 118, 134)
_FLOOR = (94, 108, 119)
_FLOOR_LINE = (40, 44, 50)
_FLOOR_SPOT = (110, 124, 134)
_WALL = (92, 78, 72)
_WALL_LINE = (53, 41, 36)
_VOID = (30, 26, 24)
_BEAM = (30, 200, 240)
_STATUE = (120, 80, 100)

#: Plate shape in grid units (1 = plate spacing), measured on the screenshot.
DIAMOND = 0.165  # |u| + |v| <= this is the gold diamond
OCTAGON_DIAG = 0.28  # the purple frame: |u| + |v| <= this ...
OCTAGON_AXIS = 0.235  # ... and max(|u|, |v|) <= this
_TILE = 0.5  # a floor tile; plates are two tiles apart


@dataclass(frozen=True)
class RoomParams:
    """Everything that decides one picture of the room (distances in frame pixels)."""

    seed: int = 0
    board: str | None = None  # room board (row-major as laid out in the room); None = random
    frame_size: tuple[int, int] = (960, 640)  # width, height
    spacing: float = 63.0
    rotation_deg: float = 0.0
    pitch_deg: float = 0.0
    centre: tuple[float, float] | None = None  # room centre in the frame; None = random
    colour_jitter: float = 0.05
    ui: bool = True
    lookalikes: bool = True
    # A 3D camera (assistant.demo_room.Camera): when set it replaces centre, rotation_deg,
    # pitch_deg and spacing, and the room is drawn through its exact floor homography.
    camera: Camera | None = None
    # Standing characters drawn through the camera (needs ``camera``), far ones first.
    figures: tuple[Figure, ...] = ()
    # Palette, floor shading, world look-alikes and UI panels from this seed instead of
    # ``seed``: the pictures of one session share one room (None = ``seed``).
    room_seed: int | None = None


@dataclass(frozen=True)
class Room:
    """A drawn picture of the room and its truth."""

    frame: np.ndarray  # BGR uint8
    params: RoomParams
    board: str  # room board, as laid out in the room
    plate_centres: np.ndarray  # (8, 2) image x, y of TOA_PLATES in room order
    corners: np.ndarray  # (4, 2) TL, TR, BR, BL corner plates in room order
    homography: np.ndarray  # room grid (x = column, y = row) -> image
    #: (x0, y0, x1, y1): the game view (the frame minus the client's panels when ``ui``).
    viewport: tuple[int, int, int, int] = (0, 0, 0, 0)
    #: uint8, 255 where a figure is drawn (nothing without figures).
    occluder: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.uint8))

    @property
    def lit(self) -> np.ndarray:
        """Truth per plate (TOA_PLATES order), 1 = lit."""
        values = [int(ch) for ch in self.board.replace("/", "").replace("#", "")]
        return np.array(values, dtype=np.int64)


def render_room(params: RoomParams) -> Room:
    """The demo room's picture for ``params`` (BGR) with its truth."""
    return draw_room(params, np.random.default_rng(params.seed))


def draw_room(
    params: RoomParams, rng: np.random.Generator, floor: FloorTexture | None = None
) -> Room:
    """Draw the room for ``params``, the random draws from ``rng`` (the caller's generator,
    seeded with ``params.seed``, which it may draw on afterwards: the lab adds its effects
    with the same generator, so its pictures are the demo's plus the effects).

    The fixed view draws everything from ``rng``; the camera view (``params.camera``, also
    needed by ``figures`` and ``floor``) draws only a random board from it and the room
    from ``params.room_seed``, so that the pictures of one session show one room.
    """
    if params.camera is not None or params.figures or floor is not None:
        return _draw_through_camera(params, rng, floor)
    board = params.board if params.board is not None else _random_board(rng)
    lit = _lit_of(board)
    width, height = params.frame_size
    palette = _jittered_palette(rng, params.colour_jitter)

    frame = _game_background(rng, width, height, palette)
    viewport = _viewport(params)

    # room canvas: grid coordinates -1.6 .. 3.6 drawn at the final plate spacing
    ppu = max(params.spacing, 20.0)
    lo, hi = -1.6, 3.6
    size = math.ceil((hi - lo) * ppu)
    canvas = _draw_room(rng, size, ppu, lo, lit, palette)

    homography = _room_homography(params, rng, viewport)
    canvas_to_grid = np.array([[1 / ppu, 0, lo], [0, 1 / ppu, lo], [0, 0, 1]], dtype=np.float64)
    warp = homography @ canvas_to_grid
    room_mask = cv2.warpPerspective(
        np.full((size, size), 255, np.uint8), warp, (width, height), flags=cv2.INTER_NEAREST
    )
    warped = cv2.warpPerspective(canvas, warp, (width, height), flags=cv2.INTER_LINEAR)
    frame[room_mask > 0] = warped[room_mask > 0]

    if params.lookalikes:
        _draw_lookalikes(rng, frame, homography, params, palette)
    if params.ui:
        _draw_ui(rng, frame, viewport)
    occluder = np.zeros((height, width), np.uint8)
    return _room(frame, params, board, homography, viewport, occluder)


def _draw_through_camera(
    params: RoomParams, rng: np.random.Generator, floor: FloorTexture | None
) -> Room:
    """The 3D path: the room through ``params.camera``'s floor homography (or ``floor``'s
    texture) and the standing figures."""
    if params.camera is None:
        raise ValueError("figures and a floor texture need a camera (RoomParams.camera)")
    camera = params.camera
    room_rng = np.random.default_rng(
        params.room_seed if params.room_seed is not None else [params.seed, 5]
    )
    board = params.board if params.board is not None else _random_board(rng)
    lit = _lit_of(board)
    width, height = params.frame_size
    size2d = (width, height)
    palette = _jittered_palette(room_rng, params.colour_jitter)
    frame = _game_background(room_rng, width, height, palette)
    viewport = _viewport(params)
    homography = camera.homography(size2d)

    if floor is not None:
        canvas, canvas_to_grid = floor(board, room_rng)
    else:
        lo, hi = -1.6, 3.6
        ppu = _canvas_resolution(camera, size2d, lo, hi)
        size = math.ceil((hi - lo) * ppu)
        canvas = _draw_room(room_rng, size, ppu, lo, lit, palette)
        canvas_to_grid = np.array([[1 / ppu, 0, lo], [0, 1 / ppu, lo], [0, 0, 1]], np.float64)
    warp = homography @ canvas_to_grid
    room_mask = cv2.warpPerspective(
        np.full(canvas.shape[:2], 255, np.uint8), warp, size2d, flags=cv2.INTER_NEAREST
    )
    room_mask &= _in_front_of_camera(homography, size2d)
    warped = cv2.warpPerspective(canvas, warp, size2d, flags=cv2.INTER_LINEAR)
    frame[room_mask > 0] = warped[room_mask > 0]

    if params.lookalikes:
        _draw_world_lookalikes(room_rng, frame, camera, palette)
    occluder = draw_figures(frame, camera, params.figures)
    if params.ui:
        _draw_ui(room_rng, frame, viewport)
    return _room(frame, params, board, homography, viewport, occluder)


def _lit_of(board: str) -> list[int]:
    lit = [int(ch) for ch in board.replace("/", "").replace("#", "")]
    if len(lit) != 8:
        raise ValueError(f"a ToA board has 8 plates, not {len(lit)}: {board!r}")
    return lit


def _viewport(params: RoomParams) -> tuple[int, int, int, int]:
    width, height = params.frame_size
    if not params.ui:
        return (0, 0, width, height)
    return (0, 0, int(width * UI_SPLIT), int(height * UI_SPLIT))


def _room(frame: np.ndarray, params: RoomParams, board: str, homography: np.ndarray,
          viewport: tuple[int, int, int, int], occluder: np.ndarray) -> Room:
    centres = project(homography, np.array([(c, r) for r, c in TOA_PLATES], dtype=np.float64))
    corners = project(homography, np.array([[0, 0], [2, 0], [2, 2], [0, 2]], dtype=np.float64))
    return Room(
        frame=frame,
        params=replace(params, board=board),
        board=board,
        plate_centres=centres,
        corners=corners,
        homography=homography,
        viewport=viewport,
        occluder=occluder,
    )


def _random_board(rng: np.random.Generator) -> str:
    values = rng.integers(0, 2, size=8)
    grid = np.zeros((3, 3), dtype=np.int64)
    for (r, c), v in zip(TOA_PLATES, values, strict=True):
        grid[r, c] = v
    present = np.ones((3, 3), dtype=bool)
    present[1, 1] = False
    return format_grid(grid, present)


def _jittered_palette(rng: np.random.Generator, jitter: float) -> dict[str, np.ndarray]:
    base = {
        "lit": _LIT, "unlit": _UNLIT, "bevel": _LIT_BEVEL, "frame": _FRAME,
        "frame_edge": _FRAME_EDGE, "plate_tile": _PLATE_TILE, "floor": _FLOOR,
        "floor_line": _FLOOR_LINE, "floor_spot": _FLOOR_SPOT, "wall": _WALL,
        "wall_line": _WALL_LINE, "void": _VOID, "beam": _BEAM, "statue": _STATUE,
    }
    gain = 1 + rng.uniform(-jitter, jitter)
    out = {}
    for name, colour in base.items():
        each = 1 + rng.uniform(-jitter / 2, jitter / 2, size=3)
        out[name] = np.clip(np.array(colour, np.float64) * gain * each, 0, 255)
    return out


def bgr(colour: np.ndarray) -> tuple[int, int, int]:
    """A colour as OpenCV's drawing functions take it (a tuple of ints)."""
    return tuple(round(v) for v in colour)  # type: ignore[return-value]


def _game_background(
    rng: np.random.Generator, width: int, height: int, pal: dict
) -> np.ndarray:
    """Dark stone surroundings with a little texture, as the game shows beyond a room."""
    small = rng.normal(0, 1, size=(height // 24 + 2, width // 24 + 2))
    texture = cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)[..., None]
    base = np.array([40, 44, 48], np.float64) + texture * 8
    return np.clip(base, 0, 255).astype(np.uint8)


def _draw_room(
    rng: np.random.Generator, size: int, ppu: float, lo: float, lit: list[int], pal: dict
) -> np.ndarray:
    canvas = np.empty((size, size, 3), np.uint8)
    canvas[:] = bgr(pal["void"])

    def px(u: float, v: float) -> tuple[int, int]:
        return (round((u - lo) * ppu * 16), round((v - lo) * ppu * 16))

    def poly(points: list[tuple[float, float]], colour: np.ndarray) -> None:
        pts = np.array([px(u, v) for u, v in points], np.int32)
        cv2.fillPoly(canvas, [pts], bgr(colour), cv2.LINE_AA, shift=4)

    line_w = max(1, round(0.03 * ppu))
    # walls: stone blocks around the floor
    poly([(-1.3, -1.3), (3.3, -1.3), (3.3, 3.3), (-1.3, 3.3)], pal["wall"])
    block = 0.45
    for i in range(-3, 9):
        a = -1.3 + i * block
        cv2.line(canvas, px(a, -1.3), px(a, 3.3), bgr(pal["wall_line"]), line_w, cv2.LINE_AA, 4)
        cv2.line(canvas, px(-1.3, a), px(3.3, a), bgr(pal["wall_line"]), line_w, cv2.LINE_AA, 4)
    # floor
    f0, f1 = -0.75, 2.75
    poly([(f0, f0), (f1, f0), (f1, f1), (f0, f1)], pal["floor"])
    ticks = np.arange(f0, f1 + 1e-9, _TILE)
    for a in ticks:
        for b in ticks:
            cv2.circle(canvas, px(a, b), int(0.09 * ppu * 16), bgr(pal["floor_spot"]), -1,
                       cv2.LINE_AA, 4)
    for a in ticks[:-1]:
        for b in ticks[:-1]:
            shade = pal["floor"] * (1 + rng.uniform(-0.04, 0.04))
            pad = 0.02
            poly([(a + pad, b + pad), (a + _TILE - pad, b + pad),
                  (a + _TILE - pad, b + _TILE - pad), (a + pad, b + _TILE - pad)], shade)
    for a in ticks:
        cv2.line(canvas, px(a, f0), px(a, f1), bgr(pal["floor_line"]), line_w, cv2.LINE_AA, 4)
        cv2.line(canvas, px(f0, a), px(f1, a), bgr(pal["floor_line"]), line_w, cv2.LINE_AA, 4)
    # the entrance statue and its yellow beam, above the top row
    poly([(0.8, -1.3), (1.2, -1.3), (1.2, -0.85), (0.8, -0.85)], pal["statue"])
    poly([(0.78, -1.0), (0.9, -1.08), (1.0, -1.2), (1.1, -1.08), (1.22, -1.0), (1.0, -0.93)],
         pal["beam"])
    poly([(0.94, -0.93), (1.06, -0.93), (1.0, -0.55)], pal["beam"])
    # plates
    for (r, c), state in zip(TOA_PLATES, lit, strict=True):
        h = _TILE / 2
        poly([(c - h, r - h), (c + h, r - h), (c + h, r + h), (c - h, r + h)], pal["plate_tile"])
        poly(octagon(c, r, OCTAGON_DIAG + 0.02, OCTAGON_AXIS + 0.015), pal["frame_edge"])
        poly(octagon(c, r, OCTAGON_DIAG, OCTAGON_AXIS), pal["frame"])
        d = DIAMOND
        diamond = [(c, r - d), (c + d, r), (c, r + d), (c - d, r)]
        if state:
            poly(diamond, pal["bevel"])
            inner = d - 0.025
            poly([(c - 0.01, r - inner), (c + inner - 0.01, r), (c, r + d), (c - d, r)],
                 pal["lit"])
        else:
            poly([(c, r - d - 0.01), (c + d + 0.01, r), (c, r + d + 0.01), (c - d - 0.01, r)],
                 pal["frame_edge"])
            poly(diamond, pal["unlit"])
    return canvas


def octagon(c: float, r: float, diag: float, axis: float) -> list[tuple[float, float]]:
    """The plate frame: |u| + |v| <= diag clipped by max(|u|, |v|) <= axis."""
    k = diag - axis
    return [
        (c - k, r - axis), (c + k, r - axis), (c + axis, r - k), (c + axis, r + k),
        (c + k, r + axis), (c - k, r + axis), (c - axis, r + k), (c - axis, r - k),
    ]


def _room_homography(
    params: RoomParams, rng: np.random.Generator, viewport: tuple[int, int, int, int]
) -> np.ndarray:
    """Grid (x = column, y = row, plate spacing 1) -> frame pixels, camera looking at the
    room centre (1, 1) with the given yaw and pitch."""
    s = params.spacing
    theta = math.radians(params.rotation_deg)
    pitch = math.radians(params.pitch_deg)
    centre_grid = np.array([[1, 0, -1], [0, 1, -1], [0, 0, 1]], np.float64)
    scale = np.diag([s, s, 1.0])
    rot = np.array(
        [[math.cos(theta), -math.sin(theta), 0], [math.sin(theta), math.cos(theta), 0], [0, 0, 1]]
    )
    f = 6.0 * s  # camera distance: a perspective as strong as a close game camera
    tilt = np.array([[f, 0, 0], [0, f * math.cos(pitch), 0], [0, math.sin(pitch), f]])
    local = tilt @ rot @ scale @ centre_grid
    corners = project(local, np.array([[-0.5, -0.5], [2.5, -0.5], [2.5, 2.5], [-0.5, 2.5]]))
    x0, y0, x1, y1 = viewport
    lo = corners.min(axis=0)
    hi = corners.max(axis=0)
    if params.centre is not None:
        cx, cy = params.centre
    else:
        span_x = max(0.0, (x1 - x0) - (hi[0] - lo[0]) - 20)
        span_y = max(0.0, (y1 - y0) - (hi[1] - lo[1]) - 20)
        cx = x0 + 10 - lo[0] + rng.uniform(0, span_x)
        cy = y0 + 10 - lo[1] + rng.uniform(0, span_y)
    move = np.array([[1, 0, cx], [0, 1, cy], [0, 0, 1]], np.float64)
    return move @ local


def _canvas_resolution(camera: Camera, size: tuple[int, int], lo: float, hi: float) -> float:
    """Canvas pixels per grid unit: as fine as the nearest visible part of the room needs."""
    xs = np.linspace(lo, hi, 5)
    pts = np.array([(x, y, 0.0) for x in xs for y in xs])
    _, depth = camera.project(pts, size)
    depth = depth[depth > 0.05]
    scale = camera.focal(size) / depth.min() if depth.size else camera.spacing_px
    ppu = float(np.clip(scale, camera.spacing_px, 3 * camera.spacing_px))
    return max(20.0, min(ppu, 2400 / (hi - lo)))


def _in_front_of_camera(homography: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """255 where a pixel's ray meets the floor in front of the camera (below the horizon)."""
    width, height = size
    inverse = np.linalg.inv(homography)
    u = np.arange(width, dtype=np.float64)[None, :]
    v = np.arange(height, dtype=np.float64)[:, None]
    w = inverse[2, 0] * u + inverse[2, 1] * v + inverse[2, 2]
    # the look-at point maps with the sign every point in front of the camera has
    reference = np.sign(inverse[2] @ (homography @ np.array([1.0, 1.0, 1.0])))
    return np.where(w * reference > 1e-9, 255, 0).astype(np.uint8)


def project(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Floor points (N, 2) in grid units -> image pixels (N, 2) through homography ``h``."""
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, h).reshape(-1, 2)


def _draw_lookalikes(
    rng: np.random.Generator, frame: np.ndarray, homography: np.ndarray,
    params: RoomParams, pal: dict,
) -> None:
    """The addition puzzle's yellow symbols and a line of plate-like tiles outside the room."""
    height, width = frame.shape[:2]
    room = project(homography, np.array([[-1.4, -1.4], [3.4, -1.4], [3.4, 3.4], [-1.4, 3.4]]))
    x_lo, y_lo = room.min(axis=0)
    x_hi, y_hi = room.max(axis=0)
    s = params.spacing
    d = max(3.0, DIAMOND * s)
    for _ in range(int(rng.integers(3, 7))):
        for _attempt in range(20):
            x = rng.uniform(0, width)
            y = rng.uniform(0, height)
            if not (x_lo - d < x < x_hi + d and y_lo - d < y < y_hi + d):
                break
        else:
            continue
        kind = int(rng.integers(0, 3))
        colour = bgr(pal["beam"] * rng.uniform(0.7, 1.0))
        if kind == 0:  # a gold diamond in a purple frame, alone
            cv2.circle(frame, (int(x), int(y)), int(d * 1.5), bgr(pal["frame"]), -1, cv2.LINE_AA)
            pts = np.array([(x, y - d), (x + d, y), (x, y + d), (x - d, y)], np.int32)
            cv2.fillPoly(frame, [pts], bgr(pal["lit" if rng.random() < 0.5 else "unlit"]))
        elif kind == 1:  # a digit of the addition puzzle
            cv2.putText(frame, str(int(rng.integers(0, 10))), (int(x), int(y)),
                        cv2.FONT_HERSHEY_SIMPLEX, d / 12, colour, max(1, int(d / 4)), cv2.LINE_AA)
        else:  # a plus or minus sign
            t = max(1, int(d / 3))
            cv2.line(frame, (int(x - d), int(y)), (int(x + d), int(y)), colour, t, cv2.LINE_AA)
            if rng.random() < 0.5:
                cv2.line(frame, (int(x), int(y - d)), (int(x), int(y + d)), colour, t, cv2.LINE_AA)


def _draw_world_lookalikes(
    rng: np.random.Generator, frame: np.ndarray, camera: Camera, pal: dict
) -> None:
    """Plate-like tiles and the addition puzzle's yellow symbols on the floor outside the
    room, anchored in the world (they pan with the room)."""
    height, width = frame.shape[:2]
    size = (width, height)
    for _ in range(int(rng.integers(3, 7))):
        angle = rng.uniform(0, 2 * math.pi)
        radius = rng.uniform(3.3, 4.6)
        x, y = 1 + radius * math.cos(angle), 1 + radius * math.sin(angle)
        kind = int(rng.integers(0, 3))
        colour = bgr(pal["beam"] * rng.uniform(0.7, 1.0))
        state = "lit" if rng.random() < 0.5 else "unlit"
        digit = str(int(rng.integers(0, 10)))
        vertical = rng.random() < 0.5
        _, depth = camera.project(np.array([[x, y, 0.0]]), size)
        if depth[0] <= 0.3:
            continue
        centre = camera.project(np.array([[x, y, 0.0]]), size)[0][0]
        if not (-50 < centre[0] < width + 50 and -50 < centre[1] < height + 50):
            continue
        h = camera.homography(size)
        d = DIAMOND
        if kind == 0:  # a gold diamond in a purple frame, alone
            frame_pts = project(h, np.array(octagon(x, y, OCTAGON_DIAG, OCTAGON_AXIS)))
            cv2.fillPoly(frame, [np.round(frame_pts).astype(np.int32)], bgr(pal["frame"]),
                         cv2.LINE_AA)
            pts = project(h, np.array([(x, y - d), (x + d, y), (x, y + d), (x - d, y)]))
            cv2.fillPoly(frame, [np.round(pts).astype(np.int32)], bgr(pal[state]), cv2.LINE_AA)
        elif kind == 1:  # a digit of the addition puzzle
            scale = camera.scale_at((x, y, 0.0), size)
            cv2.putText(frame, digit, (int(centre[0]), int(centre[1])), cv2.FONT_HERSHEY_SIMPLEX,
                        d * scale / 12, colour, max(1, int(d * scale / 4)), cv2.LINE_AA)
        else:  # a plus or minus sign
            scale = camera.scale_at((x, y, 0.0), size)
            t = max(1, int(d * scale / 3))
            ends = project(h, np.array([(x - d, y), (x + d, y), (x, y - d), (x, y + d)]))
            ends = np.round(ends).astype(int)
            cv2.line(frame, tuple(ends[0]), tuple(ends[1]), colour, t, cv2.LINE_AA)
            if vertical:
                cv2.line(frame, tuple(ends[2]), tuple(ends[3]), colour, t, cv2.LINE_AA)


def _draw_ui(
    rng: np.random.Generator, frame: np.ndarray, viewport: tuple[int, int, int, int]
) -> None:
    """Game-client panels: the side panel with inventory items, the chat box, the minimap."""
    height, width = frame.shape[:2]
    _, _, vx1, vy1 = viewport
    frame[:, vx1:] = (38, 52, 62)
    cv2.rectangle(frame, (vx1 + 4, 4), (width - 5, height - 5), (25, 35, 42), 2)
    slot_w = max(8, (width - vx1 - 20) // 4)
    for i in range(4):
        for j in range(7):
            x = vx1 + 10 + i * slot_w
            y = int(height * 0.3) + j * slot_w
            if y + slot_w > height - 8 or rng.random() < 0.4:
                continue
            colour = tuple(int(v) for v in rng.integers(20, 230, size=3))
            if rng.random() < 0.3:
                colour = (40, 190, 230)  # coins and other yellow items
            cv2.circle(frame, (x + slot_w // 2, y + slot_w // 2), slot_w // 3, colour, -1)
    cv2.circle(frame, (vx1 + (width - vx1) // 2, int(height * 0.14)), int(height * 0.1),
               (60, 90, 70), -1)
    frame[vy1:, :vx1] = (150, 178, 196)
    for j in range(6):
        y = vy1 + 14 + j * 16
        if y > height - 6:
            break
        length = int(rng.uniform(0.2, 0.9) * vx1)
        cv2.line(frame, (10, y), (10 + length, y), (20, 20, 20), 2)
