"""Synthetic Tombs of Amascut light-puzzle rooms with known truth (the lab; not installed).

The reader cannot be trusted on the one real screenshot alone, so the lab draws puzzle
rooms the way the game shows them (the demo room's drawing, :mod:`assistant.demo_room`)
and then varies everything a player's setup varies: where the room is, plate spacing,
rotation, camera pitch, lighting, noise, blur, JPEG, Windows display scaling, a player
figure standing on a plate, the overlay's own marks drawn on top, and the real top-down
screenshot as the floor. Every scene is deterministic from its parameters and returns the
truth (board, plate centres, which plate pixels figures hide) with the frame.

A scene without any of the lab's effects is the demo room's picture, pixel for pixel: the
effects are added after :func:`assistant.demo_room.draw_room` with the same random
generator.

Pure numpy/OpenCV: the tests, the benchmarks and the golden record generate their frames
with it.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

import cv2
import numpy as np

from assistant.demo_room import Camera, Figure, Room, RoomParams, draw_room
from assistant.demo_room.room import (
    DIAMOND,
    OCTAGON_AXIS,
    OCTAGON_DIAG,
    bgr,
    octagon,
    project,
)
from assistant.puzzle import TOA_PLATES, format_grid
from assistant.vision.geometry import MARK_INNER_RADIUS, MARK_OUTER_RADIUS

__all__ = [
    "PERTURBATIONS",
    "Camera",
    "Figure",
    "Scene",
    "SceneParams",
    "ScreenGrid",
    "display_scaled",
    "load_screenshot",
    "perturbed_params",
    "plate_coverage",
    "render_scene",
    "render_screen_grid",
    "screen_board",
    "screenshot_floor",
]


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
class SceneParams(RoomParams):
    """Everything that decides one synthetic frame: the room's parameters
    (:class:`~assistant.demo_room.RoomParams`) and the lab's effects (distances in frame
    pixels)."""

    brightness: float = 1.0
    gamma: float = 1.0
    channel_gain: tuple[float, float, float] = (1.0, 1.0, 1.0)
    noise_sigma: float = 0.0
    blur_sigma: float = 0.0
    jpeg_quality: int | None = None
    # Windows display scaling of a client that is not DPI-aware (1.25, 1.5): the game
    # draws 1/scale of the window's pixels and the system stretches them (1 = none)
    display_scale: float = 1.0
    figure_cover: float = 0.0  # fraction of one plate the player figure covers (0 = none)
    marks: tuple[int, ...] = ()  # plate indices (TOA_PLATES order) with an overlay mark
    mark_colour: tuple[int, int, int, int] = (0, 255, 0, 90)  # BGRA, alpha 0-255
    mark_strong: bool = False  # marks reaching into the plate frame and more opaque
    bgra: bool = False
    # A top-down screenshot of the real room used as the floor texture (see
    # :func:`screenshot_floor`; needs ``camera``); None = the drawn room.
    screenshot: str | None = None


@dataclass(frozen=True)
class Scene(Room):
    """A rendered frame and its truth (``board``: as laid out in the room, see
    :func:`screen_board`)."""

    params: SceneParams
    figure_plate: int | None = None
    extra: dict = field(default_factory=dict)
    #: (8,) per plate (TOA_PLATES order): share of the gold diamond's pixels
    #: (|u| + |v| <= 0.165) hidden by a figure, out of all its pixels on the image plane.
    coverage: np.ndarray = field(default_factory=lambda: np.zeros(8))
    #: (8,) share of each diamond's pixels inside the game view (the frame minus the
    #: client's panels when ``ui``).
    plate_visible_fraction: np.ndarray = field(default_factory=lambda: np.ones(8))


def screen_board(scene: Scene) -> str:
    """The truth board as seen on screen: labelled so the top-left plate on screen is row 1,
    column 1 (the reader's convention for a found ring)."""
    grid = np.zeros((3, 3), dtype=np.int64)
    positions = np.zeros((3, 3, 2))
    positions[1, 1] = project(scene.homography, np.array([[1.0, 1.0]]))[0]
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


def render_scene(params: RoomParams) -> Scene:
    """Draw one frame (BGR, or BGRA when ``params.bgra``) with its truth: the demo room
    (:func:`assistant.demo_room.draw_room`), then the lab's effects from the same random
    generator. Plain :class:`~assistant.demo_room.RoomParams` draw the demo room's picture."""
    if not isinstance(params, SceneParams):
        params = SceneParams(**{f.name: getattr(params, f.name) for f in fields(RoomParams)})
    if params.screenshot is not None and params.camera is None:
        raise ValueError("figures and a screenshot floor need a camera (SceneParams.camera)")
    rng = np.random.default_rng(params.seed)
    floor = None if params.screenshot is None else functools.partial(
        screenshot_floor, params.screenshot
    )
    room = draw_room(params, rng, floor)
    frame, homography, occluder = room.frame, room.homography, room.occluder
    figure_plate = None
    if params.figure_cover > 0:
        figure_plate = int(rng.integers(0, 8))
        _draw_figure(rng, frame, homography, TOA_PLATES[figure_plate], params.figure_cover,
                     occluder)
    frame = _lighting(frame, params)
    if params.marks:
        # the marks' ring width follows the plate spacing on screen
        spacing = params.camera.spacing_px if params.camera is not None else params.spacing
        _draw_marks(frame, homography, replace(params, spacing=spacing))
    frame = _capture_effects(rng, frame, params)
    if params.bgra:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA)
    coverage, visible = plate_coverage(homography, occluder, room.viewport)
    return Scene(
        frame=frame,
        params=replace(params, board=room.board),
        board=room.board,
        plate_centres=room.plate_centres,
        corners=room.corners,
        homography=homography,
        viewport=room.viewport,
        occluder=occluder,
        figure_plate=figure_plate,
        extra={"occluder": occluder},
        coverage=coverage,
        plate_visible_fraction=visible,
    )


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
    d = DIAMOND
    for i, (r, c) in enumerate(TOA_PLATES):
        poly = project(homography, np.array([(c, r - d), (c + d, r), (c, r + d), (c - d, r)]))
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


def _draw_figure(
    rng: np.random.Generator, frame: np.ndarray, homography: np.ndarray,
    cell: tuple[int, int], cover: float, occluder: np.ndarray | None = None,
) -> None:
    """A player standing on a plate: a body and a head drawn upward from the feet, placed so
    it hides at most ``cover`` of the plate (its octagon, as seen in the frame)."""
    r, c = cell
    plate = project(homography, np.array(octagon(c, r, OCTAGON_DIAG, OCTAGON_AXIS)))
    height, width = frame.shape[:2]
    plate_mask = np.zeros((height, width), np.uint8)
    cv2.fillPoly(plate_mask, [np.round(plate).astype(np.int32)], 255)
    plate_area = max(1, int(np.count_nonzero(plate_mask)))
    centre = plate.mean(axis=0)
    spacing = float(np.linalg.norm(plate[0] - plate[1]) / (2 * (OCTAGON_DIAG - OCTAGON_AXIS)))
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
        outer_pts = project(homography, unit * MARK_OUTER_RADIUS + (c, r))
        inner_pts = project(homography, unit * inner + (c, r))
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
            cv2.rectangle(frame, (x, y), (x + cell - 1, y + cell - 1), bgr(shade), -1)
    if brightness != 1.0:
        frame = np.clip(frame * brightness, 0, 255).astype(np.uint8)
    if noise_sigma > 0:
        frame = np.clip(frame + rng.normal(0, noise_sigma, frame.shape), 0, 255).astype(np.uint8)
    if jpeg_quality is not None:
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else frame
    corners = centres[[0, 0, rows - 1, rows - 1], [0, cols - 1, cols - 1, 0]]
    return ScreenGrid(frame, board, centres, corners, on_colour, off_colour)
