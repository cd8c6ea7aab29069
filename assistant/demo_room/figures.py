"""Standing characters for the demo room, drawn through its camera.

:class:`Figure` is a player character standing on the floor (room grid units, see
:mod:`assistant.demo_room.camera`), built from a few convex solids (legs and boots, torso,
arms and hands, head and hair or helmet, an optional cape and a weapon stroke). Each solid
is projected, only the faces turned to the camera are drawn, shaded by a fixed light from
above, and solids and figures are painted far to near. Every figure is also drawn into a
mask, so a renderer knows exactly which pixels it hides (the lab's walk-throughs record
which plates a figure covers from it).

Pure numpy/OpenCV.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from assistant.demo_room.camera import Camera, project_posed

__all__ = [
    "ARMOUR_COLOURS",
    "SKIN_TONES",
    "Figure",
    "draw_figures",
    "random_figure",
]

#: Skin tones (BGR) characters are drawn with.
SKIN_TONES: tuple[tuple[int, int, int], ...] = (
    (150, 182, 228), (122, 158, 210), (92, 128, 184), (64, 96, 146), (48, 70, 110),
)
#: Armour and clothing colours (BGR): greys, browns, blues, greens, reds, purple, and gold
#: (players do wear gold, close to the plates' own diamonds).
ARMOUR_COLOURS: tuple[tuple[int, int, int], ...] = (
    (128, 128, 132), (92, 92, 96), (60, 62, 66), (170, 172, 176),  # steel, iron, black, mithril
    (40, 72, 112), (30, 52, 84), (70, 100, 130),  # leather browns
    (150, 90, 40), (110, 60, 30), (190, 150, 90),  # blues
    (50, 120, 60), (40, 90, 50),  # greens
    (40, 40, 160), (30, 30, 110),  # reds
    (120, 50, 100),  # purple
    (40, 170, 215), (60, 160, 190), (30, 140, 200),  # gold / yellow
)
_HAIR = ((20, 30, 40), (30, 60, 100), (40, 110, 170), (60, 60, 60), (160, 170, 180))
_WEAPON = ((170, 170, 176), (120, 120, 124), (40, 80, 120), (60, 160, 200), (200, 120, 60))
_LIGHT = np.array([0.35, -0.45, 0.82]) / np.linalg.norm([0.35, -0.45, 0.82])


@dataclass(frozen=True)
class Figure:
    """A character standing on the floor with its feet at ``tile`` (grid units).

    ``height`` (grid units; 0.8-1.0 is a player, 1.6-2 floor tiles) and ``width`` (across
    the shoulders and arms; ~0.33 is two thirds of a floor tile). Colours are BGR; ``None``
    picks one from ``seed``, as does ``facing_deg`` (the direction the figure faces, degrees
    from the room's +x axis towards +y).
    """

    tile: tuple[float, float]
    height: float = 0.9
    width: float = 0.33
    skin: tuple[int, int, int] | None = None
    body: tuple[int, int, int] | None = None
    legs: tuple[int, int, int] | None = None
    hair: tuple[int, int, int] | None = None
    helmet: bool = False
    cape: bool = False
    cape_colour: tuple[int, int, int] | None = None
    weapon: bool = False
    weapon_colour: tuple[int, int, int] | None = None
    facing_deg: float | None = None
    stride: float = 0.0  # 0 standing; up to ~1 mid-step (legs and arms swing)
    seed: int = 0


def random_figure(
    rng: np.random.Generator, tile: tuple[float, float], **overrides: object
) -> Figure:
    """A character with varied size, colours, cape and weapon."""
    values: dict[str, object] = {
        "tile": (float(tile[0]), float(tile[1])),
        "height": float(rng.uniform(0.82, 1.0)),
        "width": float(rng.uniform(0.31, 0.37)),
        "cape": bool(rng.random() < 0.4),
        "weapon": bool(rng.random() < 0.6),
        "helmet": bool(rng.random() < 0.4),
        "facing_deg": float(rng.uniform(0, 360)),
        "seed": int(rng.integers(0, 2**31)),
    }
    values.update(overrides)
    return Figure(**values)  # type: ignore[arg-type]


# --- solids ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Solid:
    """A convex prism: ``bottom`` and ``top`` polygons (N, 3), same vertex order."""

    bottom: np.ndarray
    top: np.ndarray
    colour: np.ndarray

    @property
    def centroid(self) -> np.ndarray:
        return np.vstack([self.bottom, self.top]).mean(axis=0)


@dataclass(frozen=True)
class _Stroke:
    """A thin straight object (a weapon): two 3D end points and a world thickness."""

    a: np.ndarray
    b: np.ndarray
    thickness: float
    colour: np.ndarray

    @property
    def centroid(self) -> np.ndarray:
        return (self.a + self.b) / 2


def _palette(figure: Figure) -> dict[str, np.ndarray]:
    rng = np.random.default_rng([figure.seed, 77])

    def pick(options: tuple, given: tuple[int, int, int] | None) -> np.ndarray:
        colour = options[int(rng.integers(0, len(options)))]
        chosen = np.array(given if given is not None else colour, np.float64)
        return chosen

    skin = pick(SKIN_TONES, figure.skin)
    body = pick(ARMOUR_COLOURS, figure.body)
    legs = pick(ARMOUR_COLOURS, figure.legs)
    hair = pick(_HAIR, figure.hair)
    helmet = body * rng.uniform(0.85, 1.1) if figure.helmet else hair
    cape = pick(ARMOUR_COLOURS, figure.cape_colour)
    weapon = pick(_WEAPON, figure.weapon_colour)
    boots = legs * 0.6
    return {"skin": skin, "body": body, "legs": legs, "head_top": np.clip(helmet, 0, 255),
            "cape": cape, "weapon": weapon, "boots": boots}


def _solids(figure: Figure) -> list[_Solid | _Stroke]:
    """The figure's parts in world coordinates."""
    pal = _palette(figure)
    rng = np.random.default_rng([figure.seed, 78])
    facing = (
        math.radians(figure.facing_deg)
        if figure.facing_deg is not None
        else float(rng.uniform(0, 2 * math.pi))
    )
    fw = np.array([math.cos(facing), math.sin(facing)])
    sd = np.array([-fw[1], fw[0]])  # the figure's right-hand side... or left: symmetric
    x0, y0 = figure.tile
    h, w = figure.height, figure.width
    swing = figure.stride * 0.12 * w / 0.33

    def local(s: float, f: float) -> np.ndarray:
        return np.array([x0, y0]) + s * sd + f * fw

    def rect(cs: float, cf: float, hs: float, hf: float, z: float) -> np.ndarray:
        pts = [local(cs - hs, cf - hf), local(cs + hs, cf - hf),
               local(cs + hs, cf + hf), local(cs - hs, cf + hf)]
        return np.array([[p[0], p[1], z] for p in pts])

    def octagon(cs: float, cf: float, radius: float, z: float) -> np.ndarray:
        angles = np.arange(8) * math.pi / 4 + math.pi / 8
        pts = [local(cs + radius * math.cos(a), cf + radius * math.sin(a)) for a in angles]
        return np.array([[p[0], p[1], z] for p in pts])

    def box(cs, cf, hs, hf, z0, z1, colour, top_scale=(1.0, 1.0), top_shift=0.0) -> _Solid:
        return _Solid(rect(cs, cf, hs, hf, z0),
                      rect(cs, cf + top_shift, hs * top_scale[0], hf * top_scale[1], z1), colour)

    parts: list[_Solid | _Stroke] = []
    for side, sign in ((-1, 1), (1, -1)):
        step = swing * sign
        parts.append(box(side * 0.14 * w, step, 0.1 * w, 0.13 * w, 0.0, 0.47 * h, pal["legs"],
                         top_shift=-step * 0.8))
        parts.append(box(side * 0.14 * w, step + 0.05 * w, 0.11 * w, 0.18 * w, 0.0, 0.06 * h,
                         pal["boots"]))
    torso = box(0.0, 0.0, 0.29 * w, 0.25 * w, 0.44 * h, 0.78 * h, pal["body"],
                top_scale=(1.2, 1.15))
    parts.append(torso)
    parts.append(box(0.0, 0.0, 0.3 * w, 0.26 * w, 0.43 * h, 0.5 * h, pal["legs"] * 0.8))  # belt
    for side, sign in ((-1, -1), (1, 1)):
        step = swing * sign
        parts.append(box(side * 0.42 * w, step * 0.6, 0.08 * w, 0.11 * w, 0.44 * h, 0.78 * h,
                         pal["body"] * 0.92, top_shift=-step * 0.6))
        parts.append(box(side * 0.42 * w, step * 0.7, 0.07 * w, 0.09 * w, 0.37 * h, 0.45 * h,
                         pal["skin"]))
    parts.append(_Solid(octagon(0, 0.02 * w, 0.2 * w, 0.78 * h),
                        octagon(0, 0.02 * w, 0.21 * w, 0.97 * h), pal["skin"]))
    if figure.helmet:
        parts.append(_Solid(octagon(0, 0.0, 0.235 * w, 0.86 * h),
                            octagon(0, 0.0, 0.17 * w, 1.0 * h), pal["head_top"]))
    else:
        parts.append(_Solid(octagon(0, -0.02 * w, 0.22 * w, 0.9 * h),
                            octagon(0, -0.02 * w, 0.16 * w, 0.99 * h), pal["head_top"]))
    if figure.cape:
        parts.append(_Solid(rect(0, -0.34 * w, 0.4 * w, 0.03 * w, 0.2 * h),
                            rect(0, -0.29 * w, 0.32 * w, 0.03 * w, 0.77 * h), pal["cape"]))
    if figure.weapon:
        hand = local(0.42 * w, 0.08 * w)
        tip = local(0.45 * w, 0.7 * w)
        parts.append(_Stroke(np.array([*hand, 0.4 * h]), np.array([*tip, 0.95 * h]),
                             0.05 * w, pal["weapon"]))
    return parts


@functools.cache
def _face_corners(n: int) -> tuple[np.ndarray, ...]:
    """The faces of a prism of ``n``-gon ends, as indices into its corners (the bottom's
    ``n``, then the top's): the bottom (turned to face down), the top, then the sides."""
    faces = [np.arange(n)[::-1], np.arange(n, 2 * n)]
    for i in range(n):
        j = (i + 1) % n
        faces.append(np.array([i, j, n + j, n + i]))
    return tuple(faces)



def _normal(face: np.ndarray, inside: np.ndarray, middle: np.ndarray) -> np.ndarray:
    """The face's outward unit normal (``middle``: the face's mean point). The cross
    product is written out: numpy's own is general and slow for one pair of 3-vectors,
    and this is the same arithmetic, so the drawn pixels are the same."""
    u1, u2, u3 = (face[1] - face[0]).tolist()
    v1, v2, v3 = (face[2] - face[0]).tolist()
    normal = np.array([u2 * v3 - u3 * v2, u3 * v1 - u1 * v3, u1 * v2 - u2 * v1])
    length = np.linalg.norm(normal)
    if length < 1e-12:
        return np.zeros(3)
    normal /= length
    if normal @ (middle - inside) < 0:
        normal = -normal
    return normal


def _fill(image: np.ndarray, pts: np.ndarray, colour, aa: bool) -> None:
    fixed = np.round(pts * 16).astype(np.int64)
    if np.abs(fixed).max() > 2**28:
        return
    if aa:
        cv2.fillPoly(image, [fixed.astype(np.int32)], colour, cv2.LINE_AA, shift=4)
    else:
        cv2.fillPoly(image, [fixed.astype(np.int32)], colour, cv2.LINE_8, shift=4)


def draw_figures(
    frame: np.ndarray, camera: Camera, figures: tuple[Figure, ...] | list[Figure],
    mask: np.ndarray | None = None,
) -> np.ndarray:
    """Draw ``figures`` through ``camera`` onto ``frame`` (BGR, in place), far first, and
    return the mask (uint8, 255 where any figure is drawn; ``mask`` is added to if given)."""
    height, width = frame.shape[:2]
    size = (width, height)
    if mask is None:
        mask = np.zeros((height, width), np.uint8)
    pose = camera.pose(size)
    position, rotation, _ = pose
    items = []
    for figure in figures:
        parts = _solids(figure)
        _, depth = project_posed(pose, np.array([[*figure.tile, figure.height / 2]]))
        items.append((float(depth[0]), parts))
    for depth, parts in sorted(items, key=lambda item: -item[0]):
        if depth <= 0.05:
            continue
        order = sorted(parts, key=lambda p: -float((p.centroid - position) @ rotation[2]))
        for part in order:
            _draw_part(frame, mask, pose, part)
    return mask


def _draw_part(frame, mask, pose, part) -> None:
    position, _, k = pose
    if isinstance(part, _Stroke):
        pts, depth = project_posed(pose, np.array([part.a, part.b]))
        if (depth <= 0.05).any():
            return
        thick = max(1, round(k[0, 0] / float(depth.mean()) * part.thickness))
        a = tuple(int(v) for v in np.round(pts[0] * 16))
        b = tuple(int(v) for v in np.round(pts[1] * 16))
        cv2.line(frame, a, b, tuple(float(v) for v in part.colour), thick, cv2.LINE_AA, 4)
        cv2.line(mask, a, b, 255, thick, cv2.LINE_8, 4)
        return
    inside = part.centroid
    corners = np.vstack([part.bottom, part.top])
    projected, depth = project_posed(pose, corners)
    if (depth <= 0.05).any():
        return
    for corner_indices in _face_corners(len(part.bottom)):
        face = corners[corner_indices]
        middle = face.mean(axis=0)
        normal = _normal(face, inside, middle)
        if normal @ (position - middle) <= 0:
            continue  # turned away from the camera
        shade = 0.5 + 0.5 * max(0.0, float(normal @ _LIGHT))
        colour = tuple(min(max(float(v), 0.0), 255.0) for v in part.colour * shade)
        pts = projected[corner_indices]
        _fill(frame, pts, colour, aa=True)
        _fill(mask, pts, 255, aa=False)
