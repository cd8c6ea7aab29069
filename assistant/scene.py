"""Synthetic Tombs of Amascut light-puzzle rooms with known truth.

The reader cannot be trusted on the one real screenshot alone, so this module draws
puzzle rooms the way the game shows them (floor tiles, the 8 plates with their purple
octagonal frame and gold diamond, the entrance statue and its yellow beam, the
neighbouring addition puzzle's yellow symbols, game-like UI panels) and then varies
everything a player's setup varies: where the room is, plate spacing, rotation, camera
pitch, lighting, noise, blur, JPEG, a player figure standing on a plate and the
overlay's own marks drawn on top. Every scene is deterministic from its parameters and
returns the truth (board and plate centres) with the frame.

Colours are the ones measured on the real screenshot (see ``../shared/toa/README.md``),
jittered per scene so that nothing downstream can depend on their exact values.

Pure numpy/OpenCV: the later "demo room" window draws with it, the tests and the
``bench-vision`` command generate their frames with it.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from assistant.puzzle import TOA_PLATES, format_grid
from assistant.scene3d import Camera, Figure, draw_figures
from assistant.vision.geometry import MARK_INNER_RADIUS, MARK_OUTER_RADIUS

__all__ = [
    "PERTURBATIONS",
    "Camera",
    "Figure",
    "Scene",
    "SceneParams",
    "ScreenGrid",
    "load_screenshot",
    "perturbed_params",
    "render_scene",
    "render_screen_grid",
    "screen_board",
    "screenshot_floor",
]

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

# Plate shape in grid units (1 = plate spacing), measured on the screenshot.
_DIAMOND = 0.165  # |u| + |v| <= this is the gold diamond
_OCTAGON_DIAG = 0.28  # the purple frame: |u| + |v| <= this ...
_OCTAGON_AXIS = 0.235  # ... and max(|u|, |v|) <= this
_TILE = 0.5  # a floor tile; plates are two tiles apart

#: Perturbation families the benchmark and the tests draw frames from, with what they vary.
PERTURBATIONS: dict[str, str] = {
    "baseline": "room at a random place, spacing 45-80 px, small tilt",
    "brightness": "brightness x0.6-1.4",
    "gamma": "gamma 0.7-1.4",
    "noise": "Gaussian noise sigma 2-8",
    "blur": "Gaussian blur sigma 0.5-1.5",
    "jpeg": "JPEG quality 50-90",
    "scale": "plate spacing 0.5-2x the screenshot's (31-126 px)",
    "turn90": "a quarter, half or three-quarter turn",
    "rotate10": "rotation within +-10 degrees",
    "any_angle": "any rotation angle",
    "pitch": "camera pitch 10-35 degrees (perspective)",
    "figure": "a player figure covering up to 30% of one plate",
    "marks": "the overlay's own marks on the plates, some stronger than planned",
    "colour_cast": "another client: per-channel gain 0.85-1.15",
    "all_same": "all eight plates lit or all unlit",
    "combined": "several of the above at once",
}


@dataclass(frozen=True)
class SceneParams:
    """Everything that decides one synthetic frame (all distances in frame pixels)."""

    seed: int = 0
    board: str | None = None  # room board (row-major as laid out in the room); None = random
    frame_size: tuple[int, int] = (960, 640)  # width, height
    spacing: float = 63.0
    rotation_deg: float = 0.0
    pitch_deg: float = 0.0
    centre: tuple[float, float] | None = None  # room centre in the frame; None = random
    brightness: float = 1.0
    gamma: float = 1.0
    channel_gain: tuple[float, float, float] = (1.0, 1.0, 1.0)
    noise_sigma: float = 0.0
    blur_sigma: float = 0.0
    jpeg_quality: int | None = None
    # Windows display scaling of a client that is not DPI-aware (1.25, 1.5): the game
    # draws 1/scale of the window's pixels and the system stretches them (1 = none)
    display_scale: float = 1.0
    colour_jitter: float = 0.05
    figure_cover: float = 0.0  # fraction of one plate the player figure covers (0 = none)
    marks: tuple[int, ...] = ()  # plate indices (TOA_PLATES order) with an overlay mark
    mark_colour: tuple[int, int, int, int] = (0, 255, 0, 90)  # BGRA, alpha 0-255
    mark_strong: bool = False  # marks reaching into the plate frame and more opaque
    ui: bool = True
    lookalikes: bool = True
    bgra: bool = False
    # A 3D camera (assistant.scene3d.Camera): when set it replaces centre, rotation_deg,
    # pitch_deg and spacing, and the room is drawn through its exact floor homography.
    camera: Camera | None = None
    # Standing characters drawn through the camera (needs ``camera``), far ones first.
    figures: tuple[Figure, ...] = ()
    # Palette, floor shading, world look-alikes and UI panels from this seed instead of
    # ``seed``: the frames of one session share one room (None = ``seed``).
    room_seed: int | None = None
    # A top-down screenshot of the real room used as the floor texture (see
    # :func:`screenshot_floor`); None = the drawn room.
    screenshot: str | None = None


@dataclass(frozen=True)
class Scene:
    """A rendered frame and its truth."""

    frame: np.ndarray
    params: SceneParams
    board: str  # room board, as laid out in the room (see :func:`screen_board`)
    plate_centres: np.ndarray  # (8, 2) image x, y of TOA_PLATES in room order
    corners: np.ndarray  # (4, 2) TL, TR, BR, BL corner plates in room order
    homography: np.ndarray  # room grid (x = column, y = row) -> image
    figure_plate: int | None = None
    extra: dict = field(default_factory=dict)
    #: (8,) per plate (TOA_PLATES order): share of the gold diamond's pixels
    #: (|u| + |v| <= 0.165) hidden by a figure, out of all its pixels on the image plane.
    coverage: np.ndarray = field(default_factory=lambda: np.zeros(8))
    #: (8,) share of each diamond's pixels inside the game view (the frame minus the
    #: client's panels when ``ui``).
    plate_visible_fraction: np.ndarray = field(default_factory=lambda: np.ones(8))

    @property
    def lit(self) -> np.ndarray:
        """Truth per plate (TOA_PLATES order), 1 = lit."""
        values = [int(ch) for ch in self.board.replace("/", "").replace("#", "")]
        return np.array(values, dtype=np.int64)


def screen_board(scene: Scene) -> str:
    """The truth board as seen on screen: labelled so the top-left plate on screen is row 1,
    column 1 (the reader's convention for a found ring)."""
    grid = np.zeros((3, 3), dtype=np.int64)
    positions = np.zeros((3, 3, 2))
    positions[1, 1] = _project(scene.homography, np.array([[1.0, 1.0]]))[0]
    for (r, c), v, centre in zip(TOA_PLATES, scene.lit, scene.plate_centres, strict=True):
        grid[r, c] = v
        positions[r, c] = centre

    def score(turns: int) -> float:
        pos = np.rot90(positions, turns)
        ex, ey = pos[1, 2] - pos[1, 0], pos[2, 1] - pos[0, 1]
        return float(ex[0] / np.linalg.norm(ex) + ey[1] / np.linalg.norm(ey))

    best = max(range(4), key=score)
    present = np.ones((3, 3), dtype=bool)
    present[1, 1] = False
    return format_grid(np.rot90(grid, best), present)


# --- perturbation families -----------------------------------------------------------------


def perturbed_params(family: str, seed: int, **overrides: object) -> SceneParams:
    """Random scene parameters for one perturbation family (see :data:`PERTURBATIONS`).

    Every family starts from a random board, a random room position and a slightly
    varied spacing, so no family tests one fixed picture.
    """
    if family not in PERTURBATIONS:
        raise KeyError(family)
    rng = np.random.default_rng([seed, sum(map(ord, family))])
    p: dict[str, object] = {
        "seed": int(rng.integers(0, 2**31)),
        "spacing": float(rng.uniform(45, 80)),
        "rotation_deg": float(rng.uniform(-3, 3)),
        "frame_size": (int(rng.integers(760, 1100)), int(rng.integers(560, 760))),
    }
    if family == "brightness":
        p["brightness"] = float(rng.uniform(0.6, 1.4))
    elif family == "gamma":
        p["gamma"] = float(rng.uniform(0.7, 1.4))
    elif family == "noise":
        p["noise_sigma"] = float(rng.uniform(2, 8))
    elif family == "blur":
        p["blur_sigma"] = float(rng.uniform(0.5, 1.5))
    elif family == "jpeg":
        p["jpeg_quality"] = int(rng.integers(50, 91))
    elif family == "scale":
        p["spacing"] = float(63 * rng.uniform(0.5, 2.0))
        p["frame_size"] = (1100, 800)
    elif family == "turn90":
        p["rotation_deg"] = float(90 * rng.integers(1, 4) + rng.uniform(-2, 2))
    elif family == "rotate10":
        p["rotation_deg"] = float(rng.uniform(-10, 10))
    elif family == "any_angle":
        p["rotation_deg"] = float(rng.uniform(0, 360))
    elif family == "pitch":
        p["pitch_deg"] = float(rng.uniform(10, 35))
        p["rotation_deg"] = float(rng.uniform(-30, 30))
    elif family == "figure":
        p["figure_cover"] = float(rng.uniform(0.1, 0.3))
    elif family == "marks":
        count = int(rng.integers(1, 9))
        p["marks"] = tuple(sorted(int(i) for i in rng.choice(8, size=count, replace=False)))
        colour = rng.integers(0, 256, size=3)
        p["mark_colour"] = (*(int(v) for v in colour), int(rng.integers(60, 200)))
        p["mark_strong"] = bool(rng.random() < 0.3)
    elif family == "colour_cast":
        p["channel_gain"] = tuple(float(g) for g in rng.uniform(0.85, 1.15, size=3))
    elif family == "all_same":
        p["board"] = "111/1#1/111" if rng.random() < 0.5 else "000/0#0/000"
    elif family == "combined":
        p["brightness"] = float(rng.uniform(0.75, 1.25))
        p["gamma"] = float(rng.uniform(0.8, 1.25))
        p["noise_sigma"] = float(rng.uniform(0, 5))
        p["blur_sigma"] = float(rng.uniform(0, 1.0))
        p["jpeg_quality"] = int(rng.integers(60, 96))
        p["rotation_deg"] = float(rng.uniform(0, 360))
        p["pitch_deg"] = float(rng.uniform(0, 25))
        p["spacing"] = float(rng.uniform(40, 110))
        p["frame_size"] = (1100, 800)
        if rng.random() < 0.5:
            count = int(rng.integers(1, 9))
            p["marks"] = tuple(sorted(int(i) for i in rng.choice(8, size=count, replace=False)))
            p["mark_colour"] = (*(int(v) for v in rng.integers(0, 256, size=3)), 110)
        if rng.random() < 0.3:
            p["figure_cover"] = float(rng.uniform(0.05, 0.2))
    p.update(overrides)
    return SceneParams(**p)  # type: ignore[arg-type]


# --- rendering ----------------------------------------------------------------------------


def render_scene(params: SceneParams) -> Scene:
    """Draw one frame (BGR, or BGRA when ``params.bgra``) with its truth."""
    if params.camera is not None or params.figures or params.screenshot is not None:
        return _render_camera_scene(params)
    rng = np.random.default_rng(params.seed)
    board = params.board if params.board is not None else _random_board(rng)
    lit = [int(ch) for ch in board.replace("/", "").replace("#", "")]
    if len(lit) != 8:
        raise ValueError(f"a ToA board has 8 plates, not {len(lit)}: {board!r}")
    width, height = params.frame_size
    palette = _jittered_palette(rng, params.colour_jitter)

    frame = _game_background(rng, width, height, palette)
    viewport = (0, 0, int(width * 0.76), int(height * 0.76)) if params.ui else (0, 0, width, height)

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

    centres = _project(homography, np.array([(c, r) for r, c in TOA_PLATES], dtype=np.float64))
    figure_plate = None
    occluder = np.zeros((height, width), np.uint8)
    if params.figure_cover > 0:
        figure_plate = int(rng.integers(0, 8))
        _draw_figure(rng, frame, homography, TOA_PLATES[figure_plate], params.figure_cover,
                     occluder)

    frame = _lighting(frame, params)
    if params.marks:
        _draw_marks(frame, homography, params)
    frame = _capture_effects(rng, frame, params)
    if params.bgra:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA)
    corners = _project(homography, np.array([[0, 0], [2, 0], [2, 2], [0, 2]], dtype=np.float64))
    coverage, visible = plate_coverage(homography, occluder, viewport)
    return Scene(
        frame=frame,
        params=replace(params, board=board),
        board=board,
        plate_centres=centres,
        corners=corners,
        homography=homography,
        figure_plate=figure_plate,
        extra={"occluder": occluder},
        coverage=coverage,
        plate_visible_fraction=visible,
    )


def _render_camera_scene(params: SceneParams) -> Scene:
    """The 3D path: the room through ``params.camera``'s floor homography, standing
    figures, and the exact share of each diamond they hide."""
    if params.camera is None:
        raise ValueError("figures and a screenshot floor need a camera (SceneParams.camera)")
    camera = params.camera
    rng = np.random.default_rng(params.seed)
    room_rng = np.random.default_rng(
        params.room_seed if params.room_seed is not None else [params.seed, 5]
    )
    board = params.board if params.board is not None else _random_board(rng)
    lit = [int(ch) for ch in board.replace("/", "").replace("#", "")]
    if len(lit) != 8:
        raise ValueError(f"a ToA board has 8 plates, not {len(lit)}: {board!r}")
    width, height = params.frame_size
    size2d = (width, height)
    palette = _jittered_palette(room_rng, params.colour_jitter)
    frame = _game_background(room_rng, width, height, palette)
    viewport = (0, 0, int(width * 0.76), int(height * 0.76)) if params.ui else (0, 0, width, height)
    homography = camera.homography(size2d)

    if params.screenshot is not None:
        canvas, canvas_to_grid = screenshot_floor(params.screenshot, board, room_rng)
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
    centres = _project(homography, np.array([(c, r) for r, c in TOA_PLATES], dtype=np.float64))
    figure_plate = None
    scaled = replace(params, spacing=camera.spacing_px)
    if params.figure_cover > 0:
        figure_plate = int(rng.integers(0, 8))
        _draw_figure(rng, frame, homography, TOA_PLATES[figure_plate], params.figure_cover,
                     occluder)
    frame = _lighting(frame, params)
    if params.marks:
        _draw_marks(frame, homography, scaled)
    frame = _capture_effects(rng, frame, params)
    if params.bgra:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA)
    corners = _project(homography, np.array([[0, 0], [2, 0], [2, 2], [0, 2]], dtype=np.float64))
    coverage, visible = plate_coverage(homography, occluder, viewport)
    return Scene(
        frame=frame,
        params=replace(params, board=board),
        board=board,
        plate_centres=centres,
        corners=corners,
        homography=homography,
        figure_plate=figure_plate,
        extra={"occluder": occluder},
        coverage=coverage,
        plate_visible_fraction=visible,
    )


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


def plate_coverage(
    homography: np.ndarray, occluder: np.ndarray, viewport: tuple[int, int, int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """Per plate (TOA_PLATES order): ``(hidden, visible)`` shares of the gold diamond's
    pixels (|u| + |v| <= 0.165 through ``homography``): hidden under ``occluder`` (nonzero
    = a figure) and inside ``viewport`` (x0, y0, x1, y1), both out of all its pixels."""
    hidden = np.zeros(8)
    visible = np.zeros(8)
    height, width = occluder.shape[:2]
    x0, y0, x1, y1 = viewport
    x1, y1 = min(x1, width), min(y1, height)
    d = _DIAMOND
    for i, (r, c) in enumerate(TOA_PLATES):
        poly = _project(homography, np.array([(c, r - d), (c + d, r), (c, r + d), (c - d, r)]))
        if not np.isfinite(poly).all():
            continue
        bx0, by0 = np.floor(poly.min(axis=0)).astype(int) - 1
        bx1, by1 = np.ceil(poly.max(axis=0)).astype(int) + 2
        if (bx1 - bx0) * (by1 - by0) > 16_000_000:
            continue
        local = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
        pts = np.round((poly - (bx0, by0)) * 16).astype(np.int32)
        cv2.fillPoly(local, [pts], 255, cv2.LINE_8, shift=4)
        total = int(np.count_nonzero(local))
        if total == 0:
            continue
        cx0, cy0 = max(bx0, x0), max(by0, y0)
        cx1, cy1 = min(bx1, x1), min(by1, y1)
        if cx1 <= cx0 or cy1 <= cy0:
            continue
        inside = local[cy0 - by0 : cy1 - by0, cx0 - bx0 : cx1 - bx0] > 0
        visible[i] = np.count_nonzero(inside) / total
        under = occluder[cy0:cy1, cx0:cx1] > 0
        hidden[i] = np.count_nonzero(inside & under) / total
    return hidden, visible


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


def _bgr(colour: np.ndarray) -> tuple[int, int, int]:
    return tuple(round(v) for v in colour)  # type: ignore[return-value]


def _draw_room(
    rng: np.random.Generator, size: int, ppu: float, lo: float, lit: list[int], pal: dict
) -> np.ndarray:
    canvas = np.empty((size, size, 3), np.uint8)
    canvas[:] = _bgr(pal["void"])

    def px(u: float, v: float) -> tuple[int, int]:
        return (round((u - lo) * ppu * 16), round((v - lo) * ppu * 16))

    def poly(points: list[tuple[float, float]], colour: np.ndarray) -> None:
        pts = np.array([px(u, v) for u, v in points], np.int32)
        cv2.fillPoly(canvas, [pts], _bgr(colour), cv2.LINE_AA, shift=4)

    line_w = max(1, round(0.03 * ppu))
    # walls: stone blocks around the floor
    poly([(-1.3, -1.3), (3.3, -1.3), (3.3, 3.3), (-1.3, 3.3)], pal["wall"])
    block = 0.45
    for i in range(-3, 9):
        a = -1.3 + i * block
        cv2.line(canvas, px(a, -1.3), px(a, 3.3), _bgr(pal["wall_line"]), line_w, cv2.LINE_AA, 4)
        cv2.line(canvas, px(-1.3, a), px(3.3, a), _bgr(pal["wall_line"]), line_w, cv2.LINE_AA, 4)
    # floor
    f0, f1 = -0.75, 2.75
    poly([(f0, f0), (f1, f0), (f1, f1), (f0, f1)], pal["floor"])
    ticks = np.arange(f0, f1 + 1e-9, _TILE)
    for a in ticks:
        for b in ticks:
            cv2.circle(canvas, px(a, b), int(0.09 * ppu * 16), _bgr(pal["floor_spot"]), -1,
                       cv2.LINE_AA, 4)
    for a in ticks[:-1]:
        for b in ticks[:-1]:
            shade = pal["floor"] * (1 + rng.uniform(-0.04, 0.04))
            pad = 0.02
            poly([(a + pad, b + pad), (a + _TILE - pad, b + pad),
                  (a + _TILE - pad, b + _TILE - pad), (a + pad, b + _TILE - pad)], shade)
    for a in ticks:
        cv2.line(canvas, px(a, f0), px(a, f1), _bgr(pal["floor_line"]), line_w, cv2.LINE_AA, 4)
        cv2.line(canvas, px(f0, a), px(f1, a), _bgr(pal["floor_line"]), line_w, cv2.LINE_AA, 4)
    # the entrance statue and its yellow beam, above the top row
    poly([(0.8, -1.3), (1.2, -1.3), (1.2, -0.85), (0.8, -0.85)], pal["statue"])
    poly([(0.78, -1.0), (0.9, -1.08), (1.0, -1.2), (1.1, -1.08), (1.22, -1.0), (1.0, -0.93)],
         pal["beam"])
    poly([(0.94, -0.93), (1.06, -0.93), (1.0, -0.55)], pal["beam"])
    # plates
    for (r, c), state in zip(TOA_PLATES, lit, strict=True):
        h = _TILE / 2
        poly([(c - h, r - h), (c + h, r - h), (c + h, r + h), (c - h, r + h)], pal["plate_tile"])
        poly(_octagon(c, r, _OCTAGON_DIAG + 0.02, _OCTAGON_AXIS + 0.015), pal["frame_edge"])
        poly(_octagon(c, r, _OCTAGON_DIAG, _OCTAGON_AXIS), pal["frame"])
        d = _DIAMOND
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


#: The real screenshot's truth (TOA_PLATES order) and where its plates are (pixels, measured).
SCREENSHOT_LIT = (1, 1, 1, 0, 0, 1, 1, 0)
_SCREENSHOT_NOMINAL = {"x": (88, 150, 213), "y": (118, 181, 243)}


@functools.lru_cache(maxsize=4)
def load_screenshot(path: str) -> tuple[np.ndarray, np.ndarray]:
    """The screenshot (BGR) and its grid -> pixel affine map, fitted on the gold diamonds'
    centroids near the measured plate centres."""
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise FileNotFoundError(
            f"The room screenshot {path} is missing or unreadable "
            "(expected ../shared/toa/room_topdown.png; it is never copied into the repo)."
        )
    b, g, r = (image[..., i].astype(np.float64) for i in range(3))
    gold = (r > 120) & (g > 100) & (b < 110) & (r - b > 70)
    grid_pts, pix_pts = [], []
    for row, col in TOA_PLATES:
        x, y = _SCREENSHOT_NOMINAL["x"][col], _SCREENSHOT_NOMINAL["y"][row]
        ys, xs = np.nonzero(gold[y - 16 : y + 17, x - 16 : x + 17])
        if len(xs) < 50:
            raise ValueError(f"{path} does not look like the ToA room screenshot")
        grid_pts.append((col, row, 1.0))
        pix_pts.append((xs.mean() + x - 16, ys.mean() + y - 16))
    affine, *_ = np.linalg.lstsq(np.array(grid_pts), np.array(pix_pts), rcond=None)
    grid_to_px = np.vstack([affine.T, [0, 0, 1]])
    return image, grid_to_px


def screenshot_floor(
    path: str | Path, board: str, seed: int | np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """The real top-down screenshot as a floor texture showing ``board``.

    Every plate whose state differs from the screenshot's truth gets the gold diamond
    and the inside of its purple frame (|u| + |v| <= 0.2, max(|u|, |v|) <= 0.2 grid units)
    of a plate of the same image that has the wanted state (chosen from ``seed``).
    Returns ``(texture BGR, texture pixel -> grid 3x3)``."""
    image, grid_to_px = load_screenshot(str(path))
    lit = [int(ch) for ch in board.replace("/", "").replace("#", "")]
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng([seed, 11])
    sources = [rng.integers(0, 8) for _ in range(8)]  # fixed draws: same board, same copy
    px_to_grid = np.linalg.inv(grid_to_px)
    height, width = image.shape[:2]
    gx, gy = np.meshgrid(np.arange(width, dtype=np.float64), np.arange(height, dtype=np.float64))
    grid_x = px_to_grid[0, 0] * gx + px_to_grid[0, 1] * gy + px_to_grid[0, 2]
    grid_y = px_to_grid[1, 0] * gx + px_to_grid[1, 1] * gy + px_to_grid[1, 2]
    out = image.copy()
    for j, ((row, col), want) in enumerate(zip(TOA_PLATES, lit, strict=True)):
        if want == SCREENSHOT_LIT[j]:
            continue
        donors = [i for i, v in enumerate(SCREENSHOT_LIT) if v == want]
        i = donors[int(sources[j]) % len(donors)]
        (src_r, src_c) = TOA_PLATES[i]
        shift = grid_to_px[:2, :2] @ np.array([col - src_c, row - src_r], np.float64)
        move = np.array([[1, 0, round(shift[0])], [0, 1, round(shift[1])]], np.float64)
        moved = cv2.warpAffine(image, move, (width, height), flags=cv2.INTER_NEAREST,
                               borderMode=cv2.BORDER_REPLICATE)
        u, v = np.abs(grid_x - col), np.abs(grid_y - row)
        patch = (u + v <= 0.2) & (np.maximum(u, v) <= 0.2)
        out[patch] = moved[patch]
    return out, px_to_grid


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
        colour = _bgr(pal["beam"] * rng.uniform(0.7, 1.0))
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
        d = _DIAMOND
        if kind == 0:  # a gold diamond in a purple frame, alone
            frame_pts = _project(h, np.array(_octagon(x, y, _OCTAGON_DIAG, _OCTAGON_AXIS)))
            cv2.fillPoly(frame, [np.round(frame_pts).astype(np.int32)], _bgr(pal["frame"]),
                         cv2.LINE_AA)
            pts = _project(h, np.array([(x, y - d), (x + d, y), (x, y + d), (x - d, y)]))
            cv2.fillPoly(frame, [np.round(pts).astype(np.int32)], _bgr(pal[state]), cv2.LINE_AA)
        elif kind == 1:  # a digit of the addition puzzle
            scale = camera.scale_at((x, y, 0.0), size)
            cv2.putText(frame, digit, (int(centre[0]), int(centre[1])), cv2.FONT_HERSHEY_SIMPLEX,
                        d * scale / 12, colour, max(1, int(d * scale / 4)), cv2.LINE_AA)
        else:  # a plus or minus sign
            scale = camera.scale_at((x, y, 0.0), size)
            t = max(1, int(d * scale / 3))
            ends = _project(h, np.array([(x - d, y), (x + d, y), (x, y - d), (x, y + d)]))
            ends = np.round(ends).astype(int)
            cv2.line(frame, tuple(ends[0]), tuple(ends[1]), colour, t, cv2.LINE_AA)
            if vertical:
                cv2.line(frame, tuple(ends[2]), tuple(ends[3]), colour, t, cv2.LINE_AA)


def _octagon(c: float, r: float, diag: float, axis: float) -> list[tuple[float, float]]:
    """The plate frame: |u| + |v| <= diag clipped by max(|u|, |v|) <= axis."""
    k = diag - axis
    return [
        (c - k, r - axis), (c + k, r - axis), (c + axis, r - k), (c + axis, r + k),
        (c + k, r + axis), (c - k, r + axis), (c - axis, r + k), (c - axis, r - k),
    ]


def _room_homography(
    params: SceneParams, rng: np.random.Generator, viewport: tuple[int, int, int, int]
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
    corners = _project(local, np.array([[-0.5, -0.5], [2.5, -0.5], [2.5, 2.5], [-0.5, 2.5]]))
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


def _project(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, h).reshape(-1, 2)


def _game_background(
    rng: np.random.Generator, width: int, height: int, pal: dict
) -> np.ndarray:
    """Dark stone surroundings with a little texture, as the game shows beyond a room."""
    small = rng.normal(0, 1, size=(height // 24 + 2, width // 24 + 2))
    texture = cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)[..., None]
    base = np.array([40, 44, 48], np.float64) + texture * 8
    return np.clip(base, 0, 255).astype(np.uint8)


def _draw_lookalikes(
    rng: np.random.Generator, frame: np.ndarray, homography: np.ndarray,
    params: SceneParams, pal: dict,
) -> None:
    """The addition puzzle's yellow symbols and a line of plate-like tiles outside the room."""
    height, width = frame.shape[:2]
    room = _project(homography, np.array([[-1.4, -1.4], [3.4, -1.4], [3.4, 3.4], [-1.4, 3.4]]))
    x_lo, y_lo = room.min(axis=0)
    x_hi, y_hi = room.max(axis=0)
    s = params.spacing
    d = max(3.0, _DIAMOND * s)
    for _ in range(int(rng.integers(3, 7))):
        for _attempt in range(20):
            x = rng.uniform(0, width)
            y = rng.uniform(0, height)
            if not (x_lo - d < x < x_hi + d and y_lo - d < y < y_hi + d):
                break
        else:
            continue
        kind = int(rng.integers(0, 3))
        colour = _bgr(pal["beam"] * rng.uniform(0.7, 1.0))
        if kind == 0:  # a gold diamond in a purple frame, alone
            cv2.circle(frame, (int(x), int(y)), int(d * 1.5), _bgr(pal["frame"]), -1, cv2.LINE_AA)
            pts = np.array([(x, y - d), (x + d, y), (x, y + d), (x - d, y)], np.int32)
            cv2.fillPoly(frame, [pts], _bgr(pal["lit" if rng.random() < 0.5 else "unlit"]))
        elif kind == 1:  # a digit of the addition puzzle
            cv2.putText(frame, str(int(rng.integers(0, 10))), (int(x), int(y)),
                        cv2.FONT_HERSHEY_SIMPLEX, d / 12, colour, max(1, int(d / 4)), cv2.LINE_AA)
        else:  # a plus or minus sign
            t = max(1, int(d / 3))
            cv2.line(frame, (int(x - d), int(y)), (int(x + d), int(y)), colour, t, cv2.LINE_AA)
            if rng.random() < 0.5:
                cv2.line(frame, (int(x), int(y - d)), (int(x), int(y + d)), colour, t, cv2.LINE_AA)


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


def _draw_figure(
    rng: np.random.Generator, frame: np.ndarray, homography: np.ndarray,
    cell: tuple[int, int], cover: float, occluder: np.ndarray | None = None,
) -> None:
    """A player standing on a plate: a body and a head drawn upward from the feet, placed so
    it hides at most ``cover`` of the plate (its octagon, as seen in the frame)."""
    r, c = cell
    plate = _project(homography, np.array(_octagon(c, r, _OCTAGON_DIAG, _OCTAGON_AXIS)))
    height, width = frame.shape[:2]
    plate_mask = np.zeros((height, width), np.uint8)
    cv2.fillPoly(plate_mask, [np.round(plate).astype(np.int32)], 255)
    plate_area = max(1, int(np.count_nonzero(plate_mask)))
    centre = plate.mean(axis=0)
    spacing = float(np.linalg.norm(plate[0] - plate[1]) / (2 * (_OCTAGON_DIAG - _OCTAGON_AXIS)))
    size = spacing * rng.uniform(0.35, 0.5)
    angle = rng.uniform(0, 2 * math.pi)
    direction = np.array([math.cos(angle), math.sin(angle)])
    body_colour = tuple(int(v) for v in rng.integers(20, 200, size=3))
    skin = (110, 150, 200)
    for step in range(60):
        offset = direction * spacing * 0.02 * step
        feet = centre + offset
        figure = np.zeros_like(plate_mask)
        head = (int(feet[0]), int(feet[1] - size * 1.6))
        cv2.ellipse(figure, (int(feet[0]), int(feet[1] - size * 0.7)),
                    (max(1, int(size * 0.35)), max(1, int(size * 0.75))), 0, 0, 360, 255, -1)
        cv2.circle(figure, head, max(1, int(size * 0.28)), 255, -1)
        covered = np.count_nonzero(figure & plate_mask) / plate_area
        if covered <= cover:
            break
    else:
        return
    frame[figure > 0] = body_colour
    cv2.circle(frame, head, max(1, int(size * 0.28)), skin, -1, cv2.LINE_AA)
    if occluder is not None:
        occluder |= figure


def _draw_marks(frame: np.ndarray, homography: np.ndarray, params: SceneParams) -> None:
    """The overlay's marks as a capture sees them: a translucent annulus fill and a ring
    in the user's colour around each marked plate, outside the reader's sampled area."""
    inner = 0.19 if params.mark_strong else MARK_INNER_RADIUS
    alpha = min(1.0, params.mark_colour[3] / 255 * (2.0 if params.mark_strong else 1.0))
    colour = np.array(params.mark_colour[:3], np.float64)
    height, width = frame.shape[:2]
    fill = np.zeros((height, width), np.uint8)
    ring = np.zeros((height, width), np.uint8)
    angles = np.linspace(0, 2 * math.pi, 48, endpoint=False)
    unit = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    for index in params.marks:
        r, c = TOA_PLATES[index]
        outer_pts = _project(homography, unit * MARK_OUTER_RADIUS + (c, r))
        inner_pts = _project(homography, unit * inner + (c, r))
        outer_i = np.round(outer_pts * 16).astype(np.int32)
        inner_i = np.round(inner_pts * 16).astype(np.int32)
        cv2.fillPoly(fill, [outer_i], 255, cv2.LINE_AA, shift=4)
        cv2.fillPoly(fill, [inner_i], 0, cv2.LINE_AA, shift=4)
        thickness = max(2, int(0.03 * params.spacing))
        cv2.polylines(ring, [outer_i], True, 255, thickness, cv2.LINE_AA, shift=4)
    weight = (fill.astype(np.float32) / 255 * alpha)
    weight = np.maximum(weight, ring.astype(np.float32) / 255 * min(1.0, alpha + 0.5))
    out = frame.astype(np.float32) * (1 - weight[..., None]) + colour * weight[..., None]
    frame[:] = np.clip(out + 0.5, 0, 255).astype(np.uint8)


def _lighting(frame: np.ndarray, params: SceneParams) -> np.ndarray:
    if params.brightness == 1 and params.gamma == 1 and params.channel_gain == (1.0, 1.0, 1.0):
        return frame
    lut_x = np.arange(256, dtype=np.float64) / 255
    out = np.empty_like(frame)
    for ch in range(3):
        values = np.clip(lut_x * params.brightness * params.channel_gain[ch], 0, 1) ** params.gamma
        lut = np.clip(values * 255 + 0.5, 0, 255).astype(np.uint8)
        out[..., ch] = cv2.LUT(frame[..., ch], lut)
    return out


def display_scaled(frame: np.ndarray, scale: float) -> np.ndarray:
    """``frame`` as a client that is not DPI-aware shows under display scaling ``scale``:
    the game draws the window at 1/scale of its pixels (each pixel the area it covers) and
    the system stretches that bilinearly back to them. Edges blur over a pixel or two and
    a small diamond's colours mix with its frame's, which a grab then sees."""
    if scale < 1.0:
        raise ValueError(f"display scaling is 1 or more, not {scale:g}")
    height, width = frame.shape[:2]
    drawn = cv2.resize(frame, (max(1, round(width / scale)), max(1, round(height / scale))),
                       interpolation=cv2.INTER_AREA)
    return cv2.resize(drawn, (width, height), interpolation=cv2.INTER_LINEAR)


def _capture_effects(
    rng: np.random.Generator, frame: np.ndarray, params: SceneParams
) -> np.ndarray:
    if params.blur_sigma > 0:
        frame = cv2.GaussianBlur(frame, (0, 0), params.blur_sigma)
    if params.noise_sigma > 0:
        noise = rng.normal(0, params.noise_sigma, size=frame.shape)
        frame = np.clip(frame + noise, 0, 255).astype(np.uint8)
    if params.display_scale != 1.0:
        frame = display_scaled(frame, params.display_scale)
    if params.jpeg_quality is not None:
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(params.jpeg_quality)])
        if not ok:
            raise RuntimeError("OpenCV could not encode a JPEG")
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return frame


# --- generic on-screen grids ------------------------------------------------------------------


@dataclass(frozen=True)
class ScreenGrid:
    """A rendered browser-style Lights Out grid and its truth."""

    frame: np.ndarray
    board: str  # row-major, '#' for holes
    cell_centres: np.ndarray  # (rows, cols, 2) image x, y
    corners: np.ndarray  # (4, 2) centres of the TL, TR, BR, BL cells
    on_colour: tuple[int, int, int]  # BGR as drawn
    off_colour: tuple[int, int, int]


def render_screen_grid(
    seed: int,
    rows: int = 5,
    cols: int = 5,
    board: str | None = None,
    holes: tuple[tuple[int, int], ...] = (),
    on_colour: tuple[int, int, int] = (40, 215, 245),  # BGR: yellow
    off_colour: tuple[int, int, int] = (40, 40, 150),  # BGR: dark red
    cell: int = 48,
    brightness: float = 1.0,
    noise_sigma: float = 0.0,
    jpeg_quality: int | None = None,
) -> ScreenGrid:
    """A web page with a Lights Out grid: square cells with gaps, lit cells in one colour
    and unlit in another, at a random place, with a little shading per cell."""
    rng = np.random.default_rng([seed, 9])
    if board is None:
        values = rng.integers(0, 2, size=(rows, cols))
        present = np.ones((rows, cols), bool)
        for r, c in holes:
            present[r, c] = False
        board = format_grid(values, present)
    lines = board.split("/")
    rows, cols = len(lines), len(lines[0])
    gap = max(2, cell // 10)
    pitch = cell + gap
    width = int(cols * pitch + 200 + rng.integers(0, 200))
    height = int(rows * pitch + 160 + rng.integers(0, 160))
    frame = np.full((height, width, 3), (245, 245, 245), np.uint8)
    cv2.rectangle(frame, (0, 0), (width, 40), (90, 60, 40), -1)  # a page header
    x0 = int(rng.integers(20, width - cols * pitch - 20))
    y0 = int(rng.integers(60, height - rows * pitch - 10))
    cv2.rectangle(frame, (x0 - gap, y0 - gap), (x0 + cols * pitch, y0 + rows * pitch),
                  (60, 60, 60), -1)
    centres = np.zeros((rows, cols, 2))
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            x, y = x0 + c * pitch, y0 + r * pitch
            centres[r, c] = (x + (cell - 1) / 2, y + (cell - 1) / 2)
            if ch == "#":
                continue
            base = np.array(on_colour if ch == "1" else off_colour, np.float64)
            shade = np.clip(base * rng.uniform(0.95, 1.05), 0, 255)
            cv2.rectangle(frame, (x, y), (x + cell - 1, y + cell - 1), _bgr(shade), -1)
    if brightness != 1.0:
        frame = np.clip(frame * brightness, 0, 255).astype(np.uint8)
    if noise_sigma > 0:
        frame = np.clip(frame + rng.normal(0, noise_sigma, frame.shape), 0, 255).astype(np.uint8)
    if jpeg_quality is not None:
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else frame
    corners = centres[[0, 0, rows - 1, rows - 1], [0, cols - 1, cols - 1, 0]]
    return ScreenGrid(frame, board, centres, corners, on_colour, off_colour)
