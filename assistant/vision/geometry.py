"""Where the cells of a grid are in a frame: a homography from grid to image.

Grid coordinates put cell (row r, column c) at x = c, y = r, so one unit is the plate
(or cell) spacing. Four corner-cell centres fix the homography, so oblique cameras and
any rotation are one formula. The overlay draws with the same geometry, using the
radii below: it must only mark between :data:`MARK_INNER_RADIUS` and
:data:`MARK_OUTER_RADIUS`, never inside :data:`SAMPLE_RADIUS` where the reader looks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

__all__ = [
    "CORNER_NAMES",
    "DIAMOND_EXTENT",
    "MARK_INNER_RADIUS",
    "MARK_OUTER_RADIUS",
    "OUTLINE_MARGIN_PX",
    "PLATE_RADIUS",
    "SAMPLE_OFFSETS",
    "SAMPLE_RADIUS",
    "SAMPLE_SECTORS",
    "GridGeometry",
    "geometry_from_corners",
    "pixels_at",
]

#: Radius (in plate spacings) of the disc around each cell centre that holds every pixel
#: the reader samples to decide lit or unlit (the ToA diamond reaches 0.165).
SAMPLE_RADIUS = 0.17
#: Radius of the ToA plate frame (purple octagon) that the locator looks at; marks must
#: stay outside it too, or auto-locate may lose the plates under its own overlay.
PLATE_RADIUS = 0.26
#: The overlay's marks (ring and translucent fill) live in the annulus between these radii.
MARK_INNER_RADIUS = 0.28
MARK_OUTER_RADIUS = 0.40

#: Order of the four corner-cell centres everywhere (profile, reading, geometry).
CORNER_NAMES = ("top_left", "top_right", "bottom_right", "bottom_left")

# Sample lattice inside the diamond |u| + |v| <= 0.12 (grid units): away from the gold
# diamond's bevel and outline, so only its flat face is read.
_SAMPLE_EXTENT = 0.12
_SAMPLE_STEPS = 9
#: The ToA gold diamond: |u| + |v| <= this (grid units).
DIAMOND_EXTENT = 0.165
# Small plates at a steep camera: the image keeps this many pixels between the sampled
# lattice and the diamond's outline (JPEG and resampling blend the outline with the purple
# frame over a pixel or two, and the unlit diamond's faint blue makes its look swing with
# any of it), shrinking the lattice down to this extent at the least.
OUTLINE_MARGIN_PX = 1.5
_MIN_SAMPLE_EXTENT = 0.06


def _sample_offsets() -> np.ndarray:
    axis = np.linspace(-_SAMPLE_EXTENT, _SAMPLE_EXTENT, _SAMPLE_STEPS)
    u, v = np.meshgrid(axis, axis)
    keep = np.abs(u) + np.abs(v) <= _SAMPLE_EXTENT + 1e-9
    return np.stack([u[keep], v[keep]], axis=1)


#: Offsets (grid units) of the points read inside each cell.
SAMPLE_OFFSETS = _sample_offsets()


def _sample_sectors(count: int = 4) -> tuple[np.ndarray, ...]:
    """The sample points split into ``count`` sectors around the centre (the centre point
    itself belongs to none, or hiding it would spoil them all). A figure hiding part of a
    cell makes them disagree, and the sectors it leaves visible can still be read."""
    u, v = SAMPLE_OFFSETS[:, 0], SAMPLE_OFFSETS[:, 1]
    width = 2 * np.pi / count
    angle = np.mod(np.arctan2(v, u) + width / 2, 2 * np.pi)
    sector = np.floor(angle / width).astype(int)
    centre = (u == 0) & (v == 0)
    return tuple(np.flatnonzero((sector == k) & ~centre) for k in range(count))


#: Index arrays into :data:`SAMPLE_OFFSETS`, one per sector of the sampled area.
SAMPLE_SECTORS = _sample_sectors()


@dataclass(frozen=True)
class GridGeometry:
    """A rows x columns grid placed in a frame by ``homography`` (grid -> image pixels)."""

    rows: int
    cols: int
    homography: np.ndarray

    def to_image(self, points: np.ndarray) -> np.ndarray:
        """Map grid points (N, 2) as (x = column, y = row) to image pixels (N, 2)."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def to_grid(self, points: np.ndarray) -> np.ndarray:
        """Map image pixels (N, 2) back to grid points (x = column, y = row), on the floor
        the grid lies on."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.inverse).reshape(-1, 2)

    @cached_property
    def inverse(self) -> np.ndarray:
        """Image -> grid, worked out once: the live loop maps points back every frame."""
        return np.linalg.inv(self.homography)

    def cell_centre(self, row: int, col: int) -> tuple[float, float]:
        """Image (x, y) of the centre of cell (row, col), counted from 0."""
        x, y = self.to_image(np.array([[col, row]], np.float64))[0]
        return float(x), float(y)

    def corners(self) -> np.ndarray:
        """The four corner-cell centres (TL, TR, BR, BL) in image pixels, shape (4, 2)."""
        c, r = self.cols - 1, self.rows - 1
        return self.to_image(np.array([[0, 0], [c, 0], [c, r], [0, r]], np.float64))

    def local_spacing(self, row: int, col: int) -> float:
        """Pixels per grid unit at the cell (the geometric mean of the two directions)."""
        pts = self.to_image(
            np.array([[col, row], [col + 0.5, row], [col, row + 0.5]], np.float64)
        )
        dx = np.linalg.norm(pts[1] - pts[0]) * 2
        dy = np.linalg.norm(pts[2] - pts[0]) * 2
        return float(np.sqrt(dx * dy))

    def circle(self, row: int, col: int, radius: float, points: int = 32) -> np.ndarray:
        """Image polygon (points, 2) of a circle of ``radius`` grid units around a cell
        centre: an ellipse on an oblique camera. The overlay draws marks with this."""
        angles = np.linspace(0, 2 * np.pi, points, endpoint=False)
        ring = np.stack([np.cos(angles), np.sin(angles)], axis=1) * radius + (col, row)
        return self.to_image(ring)

    def sample_radius_px(self, row: int, col: int) -> float:
        """The sampled area's radius around the cell centre, in image pixels."""
        return SAMPLE_RADIUS * self.local_spacing(row, col)

    def mark_radii_px(self, row: int, col: int) -> tuple[float, float]:
        """Inner and outer radius (image pixels) of the annulus the overlay may draw in."""
        spacing = self.local_spacing(row, col)
        return MARK_INNER_RADIUS * spacing, MARK_OUTER_RADIUS * spacing

    def sample_points(self, cells: list[tuple[int, int]], offsets: np.ndarray, *,
                      inside_diamond: bool = False) -> np.ndarray:
        """Image points (len(cells), len(offsets), 2) of ``offsets`` around each cell.

        ``inside_diamond``: the offsets are :data:`SAMPLE_OFFSETS` on a ToA plate; where
        the diamond is small on screen, the lattice shrinks to keep a margin of pixels
        from its outline (:meth:`diamond_sample_scale`)."""
        centres = np.array([(c, r) for r, c in cells], np.float64)
        scale = self.diamond_sample_scale(cells) if inside_diamond else np.ones(len(cells))
        grid = centres[:, None, :] + offsets[None] * scale[:, None, None]
        return self.to_image(grid.reshape(-1, 2)).reshape(len(cells), len(offsets), 2)

    def diamond_sample_scale(self, cells: list[tuple[int, int]]) -> np.ndarray:
        """Per cell, the factor (at most 1) applied to :data:`SAMPLE_OFFSETS` so the
        lattice stays :data:`OUTLINE_MARGIN_PX` inside each edge of the diamond on screen
        (a plate far away at a steep camera is only a few pixels across one way)."""
        extent = DIAMOND_EXTENT - OUTLINE_MARGIN_PX * self._outline_pixels_per_unit(cells)
        return np.clip(extent, _MIN_SAMPLE_EXTENT, _SAMPLE_EXTENT) / _SAMPLE_EXTENT

    def fixed_lattice_margin_px(self, cells: list[tuple[int, int]]) -> np.ndarray:
        """Per cell, the pixels the unshrunk lattice keeps from the diamond's nearest
        edge on screen (it is shrunk where this is under :data:`OUTLINE_MARGIN_PX`)."""
        return (DIAMOND_EXTENT - _SAMPLE_EXTENT) / self._outline_pixels_per_unit(cells)

    def _outline_pixels_per_unit(self, cells: list[tuple[int, int]]) -> np.ndarray:
        """Per cell, the grid units of the diamond's extent per pixel of distance from its
        nearest edge on screen, from the placement's local Jacobian."""
        centres = np.array([(c, r) for r, c in cells], np.float64)
        step = 0.05
        probes = centres[:, None, :] + np.array([(0, 0), (step, 0), (0, step)])[None]
        image = self.to_image(probes.reshape(-1, 2)).reshape(len(cells), 3, 2)
        (a, c), (b, d) = (image[:, 1] - image[:, 0]).T / step, (image[:, 2] - image[:, 0]).T / step
        # the image pixels per grid unit along u are (a, c), along v (b, d); an edge
        # u +- v = const lies 1 / |J^-T n| pixels per grid unit from the next one, with
        # J^-T n = (d n1 - c n2, a n2 - b n1) / det (a flat placement: the least extent)
        det = np.maximum(np.abs(a * d - b * c), 1e-9)
        return np.maximum(np.hypot(d - c, a - b), np.hypot(d + c, -a - b)) / det


def pixels_at(bgr: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The pixels (float BGR) nearest image ``points`` (..., 2), clamped to the picture."""
    height, width = bgr.shape[:2]
    xs = np.clip(np.rint(points[..., 0]).astype(np.intp), 0, width - 1)
    ys = np.clip(np.rint(points[..., 1]).astype(np.intp), 0, height - 1)
    return bgr[ys, xs].astype(np.float64)


def geometry_from_corners(rows: int, cols: int, corners: np.ndarray) -> GridGeometry:
    """The grid geometry whose corner-cell centres (TL, TR, BR, BL) land on ``corners``.

    Raises ``ValueError`` when the four points cannot be the corners of a grid (fewer than
    2 rows or columns, or three of them on one line).
    """
    if rows < 2 or cols < 2:
        raise ValueError("four corner cells need a grid of at least 2 rows and 2 columns")
    src = np.array([[0, 0], [cols - 1, 0], [cols - 1, rows - 1], [0, rows - 1]], np.float32)
    dst = np.asarray(corners, np.float32).reshape(4, 2)
    if not np.all(np.isfinite(dst)) or not _convex_quad(dst):
        raise ValueError("the four corner centres do not form a convex quadrilateral")
    homography = cv2.getPerspectiveTransform(src, dst)
    return GridGeometry(rows, cols, homography.astype(np.float64))


def _convex_quad(points: np.ndarray) -> bool:
    crosses = []
    for i in range(4):
        a, b, c = points[i], points[(i + 1) % 4], points[(i + 2) % 4]
        ab, bc = b - a, c - b
        crosses.append(float(ab[0] * bc[1] - ab[1] * bc[0]))
    scale = float(np.ptp(points, axis=0).max()) ** 2
    tiny = 1e-6 * scale
    return scale > 0 and (all(x > tiny for x in crosses) or all(x < -tiny for x in crosses))
