"""Calibration without Qt: from a frozen frame and the player's choices to a profile.

Used by the calibration window and by ``toa-assistant calibrate``. Corner centres are in
pixels of the captured area (the window's client area), order top-left, top-right,
bottom-right, bottom-left; holes count rows and columns from 1, as every message does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from assistant.errors import UserError
from assistant.profile import Appearance, CaptureTarget, GridSpec, Profile, toa_default_profile
from assistant.puzzle import BoardError
from assistant.puzzle import parse_holes as puzzle_parse_holes
from assistant.vision.geometry import SAMPLE_OFFSETS, GridGeometry, geometry_from_corners
from assistant.vision.reader import Reading, as_bgr, read_frame

__all__ = [
    "CalibrationError",
    "Draft",
    "build_profile",
    "parse_colour_hex",
    "parse_corners",
    "parse_grid_size",
    "parse_holes",
    "sample_cell_colour",
]


class CalibrationError(UserError):
    """A calibration input that cannot be used (one sentence)."""


@dataclass(frozen=True)
class Draft:
    """A profile being made and what the reader sees with it."""

    profile: Profile
    reading: Reading
    geometry: GridGeometry


def parse_corners(text: str) -> tuple[tuple[float, float], ...]:
    """``x1,y1,x2,y2,x3,y3,x4,y4`` (TL, TR, BR, BL) to four points."""
    parts = [p for p in re.split(r"[,\s;]+", text.strip()) if p]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise CalibrationError(
            f"--corners takes eight numbers x1,y1,x2,y2,x3,y3,x4,y4, not {text!r}."
        ) from None
    if len(values) != 8 or not all(np.isfinite(values)):
        raise CalibrationError(
            f"--corners takes eight numbers (four corners: top-left, top-right, bottom-right, "
            f"bottom-left), not {len(values)}."
        )
    return tuple((values[i], values[i + 1]) for i in range(0, 8, 2))


def parse_grid_size(text: str) -> tuple[int, int]:
    """``RxC`` such as ``5x5``."""
    match = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", text)
    if not match:
        raise CalibrationError(f"--grid takes ROWSxCOLUMNS such as 5x5, not {text!r}.")
    rows, cols = int(match.group(1)), int(match.group(2))
    if not (2 <= rows <= 100 and 2 <= cols <= 100):
        raise CalibrationError("A calibrated grid has 2 to 100 rows and columns.")
    return rows, cols


def parse_holes(text: str | list[str] | None, rows: int, cols: int) -> tuple[tuple[int, int], ...]:
    """``ROW,COL ROW,COL`` (counted from 1; ``;`` also separates) to sorted 0-based cells,
    as :class:`GridSpec` keeps them: :func:`assistant.puzzle.parse_holes`, the one format."""
    try:
        return puzzle_parse_holes(text, rows, cols)
    except BoardError as error:
        raise CalibrationError(str(error)) from None


def parse_colour_hex(text: str | None, name: str) -> tuple[int, int, int] | None:
    """``#RRGGBB`` to an RGB tuple."""
    if text is None:
        return None
    match = re.fullmatch(r"#?([0-9a-fA-F]{6})", text.strip())
    if not match:
        raise CalibrationError(f"{name} takes a colour like '#F5D442', not {text!r}.")
    value = match.group(1)
    return tuple(int(value[i : i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]


def sample_cell_colour(
    frame: np.ndarray, geometry: GridGeometry, row: int, col: int
) -> tuple[int, int, int]:
    """The median RGB colour of the area the reader samples in cell (row, col), counted
    from 0: what "on" or "off" looks like, for the profile."""
    bgr = as_bgr(frame)
    points = geometry.sample_points([(row, col)], SAMPLE_OFFSETS)[0]
    xs = np.clip(np.round(points[:, 0]).astype(int), 0, bgr.shape[1] - 1)
    ys = np.clip(np.round(points[:, 1]).astype(int), 0, bgr.shape[0] - 1)
    b, g, r = (int(v) for v in np.median(bgr[ys, xs], axis=0))
    return r, g, b


def build_profile(
    frame: np.ndarray,
    *,
    corners: tuple[tuple[float, float], ...] | None,
    grid: GridSpec | None = None,
    on: tuple[int, int, int] | None = None,
    off: tuple[int, int, int] | None = None,
    window_title: str = CaptureTarget.window_title,
    rect: tuple[int, int, int, int] | None = None,
    name: str = "",
) -> Draft:
    """A profile from a frame of the captured area.

    ``grid`` None means the ToA room; ``corners`` None means auto-locate (ToA only).
    Generic grids read "on" as the brighter look unless ``on``/``off`` colours are given.
    """
    toa = toa_default_profile()
    grid = grid or toa.grid
    look = toa.appearance.look if grid.is_toa_ring else "brightness"
    if (on is None) != (off is None):
        raise CalibrationError("Give both the on and the off colour, or neither.")
    capture = CaptureTarget(window_title, rect)
    if corners is None:
        if not grid.is_toa_ring:
            raise CalibrationError(
                "Auto-locate finds the ToA plates only: give the corners of a generic grid."
            )
        found = read_frame(frame, Profile(grid, None, capture, Appearance(look, on, off), name))
        if not found.found or found.corners is None:
            raise CalibrationError(f"Auto-locate found no puzzle: {found.reason}")
        corners = tuple((float(x), float(y)) for x, y in found.corners)
    try:
        geometry = geometry_from_corners(grid.rows, grid.cols, np.array(corners, np.float64))
    except ValueError:
        raise CalibrationError(
            "The four corners do not make a grid: click the centres of the top-left, "
            "top-right, bottom-right and bottom-left cells, in that order."
        ) from None
    _check_cells_inside(frame, grid, geometry)
    profile = Profile(grid, tuple(corners), capture, Appearance(look, on, off), name)
    return Draft(profile, read_frame(frame, profile), geometry)


def _check_cells_inside(frame: np.ndarray, grid: GridSpec, geometry: GridGeometry) -> None:
    """Refuse corners whose cells, or the area read around them, leave the picture: a
    profile that can never read this window is not saved."""
    height, width = frame.shape[:2]
    cells = grid.cells
    centres = geometry.to_image(np.array([(c, r) for r, c in cells], np.float64))
    points = geometry.sample_points(cells, SAMPLE_OFFSETS)
    for i, (r, c) in enumerate(cells):
        x, y = centres[i]
        if not (0 <= x <= width - 1 and 0 <= y <= height - 1):
            raise CalibrationError(
                f"The cell at row {r + 1}, column {c + 1} (centre {x:.0f},{y:.0f}) is outside "
                f"the {width}x{height} picture: check the corners."
            )
        xs, ys = points[i, :, 0], points[i, :, 1]
        if xs.min() < 0 or ys.min() < 0 or xs.max() > width - 1 or ys.max() > height - 1:
            raise CalibrationError(
                f"The cell at row {r + 1}, column {c + 1} (centre {x:.0f},{y:.0f}) is too "
                f"close to the edge of the {width}x{height} picture for the area read around "
                "it: capture more of the window around the puzzle."
            )
