"""Calibration profiles: what to capture, where the grid is and what "on" looks like.

A profile is a small JSON file that users keep and share, so it is validated field by
field on load and every problem is reported as one sentence naming the field. Saving is
atomic (a crash leaves the old file or the new one, never half of each).

Format (version 1)::

    {
      "version": 1,
      "name": "Tombs of Amascut light puzzle",
      "grid": {"rows": 3, "columns": 3, "holes": [[2, 2]], "states": 2, "objective": 1},
      "corners": {"top_left": [88, 118], "top_right": [213, 118],
                  "bottom_right": [213, 243], "bottom_left": [88, 243]},
      "capture": {"window_title": "RuneLite|Old School RuneScape", "rect": null},
      "appearance": {"look": "toa-plate", "on": "#bc9f42", "off": "#a28316"}
    }

Rows, columns and holes count from 1, as every message to the player does. ``corners``
are the centres of the four corner cells in capture pixels, relative to the captured area
(the window's client area, or ``rect`` inside it); ``null`` means "find them" (only the
ToA ring can be found automatically). ``on``/``off`` are colours sampled at calibration
(``#rrggbb``); both or neither.
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import numpy as np

from assistant.errors import UserError
from assistant.puzzle import TOA_PLATES, Board, check_states_and_objective
from assistant.storage import atomic_write_text
from assistant.vision.geometry import CORNER_NAMES, geometry_from_corners

__all__ = [
    "LOOKS",
    "PROFILE_VERSION",
    "TOA_RING",
    "Appearance",
    "CaptureTarget",
    "GridSpec",
    "Profile",
    "ProfileError",
    "load_profile",
    "parse_profile",
    "profile_to_json",
    "save_profile",
    "toa_default_profile",
]

PROFILE_VERSION = 1
#: How cells show their state: the ToA plate (gold diamond, lit is paler) or a flat cell
#: whose "on" look is the brighter one unless the profile samples both looks.
LOOKS = ("toa-plate", "brightness")
_MAX_CELLS = 64
_TOA_PRESET = "toa.json"


class ProfileError(UserError):
    """A calibration profile that cannot be used; the message is one sentence."""


@dataclass(frozen=True)
class GridSpec:
    """The grid's shape, holes (0-based (row, col) here), states and objective."""

    rows: int
    cols: int
    holes: tuple[tuple[int, int], ...] = ()
    states: int = 2
    objective: int = 1

    @property
    def present(self) -> list[list[bool]]:
        holes = set(self.holes)
        return [[(r, c) not in holes for c in range(self.cols)] for r in range(self.rows)]

    @property
    def cells(self) -> list[tuple[int, int]]:
        """Present cells, row-major."""
        holes = set(self.holes)
        return [(r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) not in holes]

    @property
    def is_toa_ring(self) -> bool:
        """The grid of the ToA plates (whatever its objective)."""
        return (self.rows, self.cols, self.holes) == (TOA_RING.rows, TOA_RING.cols,
                                                      TOA_RING.holes)

    def empty_board(self) -> Board:
        return Board.from_arrays(
            np.zeros((self.rows, self.cols), np.int64), np.array(self.present), self.states,
            self.objective,
        )


#: The ToA plates' grid: 3 by 3, its hole the cell the ring of :data:`TOA_PLATES` leaves
#: out, two states, all lit to solve.
TOA_RING = GridSpec(3, 3, tuple(sorted({(r, c) for r in range(3) for c in range(3)}
                                       - set(TOA_PLATES))), 2, 1)


@dataclass(frozen=True)
class CaptureTarget:
    """What is captured: a window whose title matches ``window_title`` (a regular
    expression), optionally only ``rect`` = (x, y, width, height) inside it."""

    window_title: str = "RuneLite|Old School RuneScape"
    rect: tuple[int, int, int, int] | None = None


@dataclass(frozen=True)
class Appearance:
    """How cells look: ``look`` is one of :data:`LOOKS`; ``on``/``off`` are sampled RGB
    colours (or ``None``)."""

    look: str = "toa-plate"
    on: tuple[int, int, int] | None = None
    off: tuple[int, int, int] | None = None

    def references_bgr(self) -> tuple[tuple[int, int, int], tuple[int, int, int]] | None:
        if self.on is None or self.off is None:
            return None
        return self.on[::-1], self.off[::-1]  # type: ignore[return-value]


@dataclass(frozen=True)
class Profile:
    """A calibration profile (see the module docstring for the file format)."""

    grid: GridSpec
    corners: tuple[tuple[float, float], ...] | None = None  # TL, TR, BR, BL
    capture: CaptureTarget = field(default_factory=CaptureTarget)
    appearance: Appearance = field(default_factory=Appearance)
    name: str = ""

    def with_corners(self, corners: object) -> Profile:
        """A copy holding the given corner centres (TL, TR, BR, BL), e.g. as auto-located."""
        points = tuple((float(x), float(y)) for x, y in corners)  # type: ignore[union-attr]
        return Profile(self.grid, points, self.capture, self.appearance, self.name)


# --- reading ------------------------------------------------------------------------------


def load_profile(path: str | os.PathLike[str]) -> Profile:
    """Read and validate a profile file.

    Raises
    ------
    ProfileError : unreadable file, invalid JSON or any invalid field, in one sentence.
    """
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ProfileError(f"The profile {source} does not exist.") from None
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "it is not UTF-8 text"
        raise ProfileError(f"The profile {source} could not be read: {reason}.") from None
    return parse_profile(text, source=str(source))


def parse_profile(text: str, source: str = "the profile") -> Profile:
    """Validate profile JSON text; ``source`` names it in error sentences."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ProfileError(
            f"{source} is not valid JSON (line {error.lineno}, column {error.colno})."
        ) from None
    if not isinstance(data, dict):
        raise ProfileError(f"{source} must hold a JSON object.")
    return _from_dict(data, source)


def _fail(source: str, message: str) -> ProfileError:
    return ProfileError(f"In {source}, {message}.")


def _whole(value: object, source: str, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(source, f'"{name}" must be a whole number from {low} to {high}')
    return value


def _number(value: object, source: str, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _fail(source, f'"{name}" must be a number')
    return float(value)


def _colour(value: object, source: str, name: str) -> tuple[int, int, int] | None:
    if value is None:
        return None
    if isinstance(value, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        return tuple(int(value[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]
    raise _fail(source, f'"{name}" must be a colour like "#bc9f42" or null')


def _from_dict(data: dict, source: str) -> Profile:
    version = data.get("version")
    if version != PROFILE_VERSION:
        raise _fail(source, f'"version" must be {PROFILE_VERSION} (this program reads version '
                            f"{PROFILE_VERSION} profiles)")
    name = data.get("name", "")
    if not isinstance(name, str):
        raise _fail(source, '"name" must be text')
    grid = _grid_from(data.get("grid"), source)
    corners = _corners_from(data.get("corners"), grid, source)
    capture = _capture_from(data.get("capture", {}), source)
    appearance = _appearance_from(data.get("appearance", {}), grid, source)
    return Profile(grid, corners, capture, appearance, name)


def _grid_from(grid_data: object, source: str) -> GridSpec:
    """The ``grid`` object: size, holes (counted from 1 in the file), states, objective."""
    if not isinstance(grid_data, dict):
        raise _fail(
            source, '"grid" must be an object with rows, columns, holes, states and objective'
        )
    rows = _whole(grid_data.get("rows"), source, "grid.rows", 2, _MAX_CELLS)
    cols = _whole(grid_data.get("columns"), source, "grid.columns", 2, _MAX_CELLS)
    holes_data = grid_data.get("holes", [])
    if not isinstance(holes_data, list):
        raise _fail(source, '"grid.holes" must be a list of [row, column] pairs')
    holes: list[tuple[int, int]] = []
    for item in holes_data:
        if (
            not isinstance(item, list)
            or len(item) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in item)
            or not (1 <= item[0] <= rows and 1 <= item[1] <= cols)
        ):
            raise _fail(source, f'the hole {item!r} in "grid.holes" is not a [row, column] '
                                f"pair inside the {rows}x{cols} grid")
        holes.append((item[0] - 1, item[1] - 1))
    holes = sorted(set(holes))
    if len(holes) >= rows * cols:
        raise _fail(source, '"grid.holes" leaves no cell to read')
    states = grid_data.get("states", 2)
    objective = grid_data.get("objective")
    try:
        states, objective = check_states_and_objective(states, objective)
    except UserError as error:
        raise _fail(source, f'"grid": {str(error).rstrip(".")}') from None
    return GridSpec(rows, cols, tuple(holes), states, objective)


def _corners_from(
    corners_data: object, grid: GridSpec, source: str
) -> tuple[tuple[float, float], ...] | None:
    """The ``corners`` object (null: find them), checked to form a four-sided shape."""
    if corners_data is None:
        return None
    if not isinstance(corners_data, dict):
        names = ", ".join(CORNER_NAMES)
        raise _fail(source, f'"corners" must be null or an object with {names}')
    points = []
    for key in CORNER_NAMES:
        point = corners_data.get(key)
        if not isinstance(point, list) or len(point) != 2:
            raise _fail(source, f'"corners.{key}" must be an [x, y] pair of pixels')
        points.append((_number(point[0], source, f"corners.{key}"),
                       _number(point[1], source, f"corners.{key}")))
    try:
        geometry_from_corners(grid.rows, grid.cols, points)  # type: ignore[arg-type]
    except ValueError:
        raise _fail(source, '"corners" do not form a four-sided shape in the order '
                            "top-left, top-right, bottom-right, bottom-left") from None
    return tuple(points)


def _capture_from(capture_data: object, source: str) -> CaptureTarget:
    """The ``capture`` object: the window title pattern and the area inside it."""
    if not isinstance(capture_data, dict):
        raise _fail(source, '"capture" must be an object with window_title and rect')
    title = capture_data.get("window_title", CaptureTarget.window_title)
    if not isinstance(title, str) or not title.strip():
        raise _fail(source, '"capture.window_title" must be a non-empty pattern')
    try:
        re.compile(title)
    except re.error:
        raise _fail(source, '"capture.window_title" is not a valid regular expression') from None
    rect = capture_data.get("rect")
    if rect is not None:
        if not isinstance(rect, list) or len(rect) != 4:
            raise _fail(source, '"capture.rect" must be null or [x, y, width, height]')
        x = _whole(rect[0], source, "capture.rect x", 0, 100_000)
        y = _whole(rect[1], source, "capture.rect y", 0, 100_000)
        w = _whole(rect[2], source, "capture.rect width", 1, 100_000)
        h = _whole(rect[3], source, "capture.rect height", 1, 100_000)
        rect = (x, y, w, h)
    return CaptureTarget(title, rect)


def _appearance_from(look_data: object, grid: GridSpec, source: str) -> Appearance:
    """The ``appearance`` object: the look, and the on/off colours (both or neither)."""
    if not isinstance(look_data, dict):
        raise _fail(source, '"appearance" must be an object with look, on and off')
    look = look_data.get("look", "toa-plate" if grid.is_toa_ring else "brightness")
    if look not in LOOKS:
        raise _fail(source, f'"appearance.look" must be one of {", ".join(LOOKS)}')
    on = _colour(look_data.get("on"), source, "appearance.on")
    off = _colour(look_data.get("off"), source, "appearance.off")
    if (on is None) != (off is None):
        raise _fail(source, '"appearance" needs both "on" and "off" colours, or neither')
    if on is not None and on == off:
        raise _fail(source, '"appearance.on" and "appearance.off" must differ')
    if grid.states != 2 and on is not None:
        raise _fail(source, '"appearance" colours describe two-state grids only')
    return Appearance(look, on, off)


# --- writing ------------------------------------------------------------------------------


def profile_to_json(profile: Profile) -> dict:
    """The profile as the JSON object :func:`parse_profile` reads."""
    grid = profile.grid

    def hex_colour(rgb: tuple[int, int, int] | None) -> str | None:
        return None if rgb is None else "#" + "".join(f"{int(v):02x}" for v in rgb)

    return {
        "version": PROFILE_VERSION,
        "name": profile.name,
        "grid": {
            "rows": grid.rows,
            "columns": grid.cols,
            "holes": [[r + 1, c + 1] for r, c in grid.holes],
            "states": grid.states,
            "objective": grid.objective,
        },
        "corners": None
        if profile.corners is None
        else {
            key: [round(float(x), 2), round(float(y), 2)]
            for key, (x, y) in zip(CORNER_NAMES, profile.corners, strict=True)
        },
        "capture": {
            "window_title": profile.capture.window_title,
            "rect": None if profile.capture.rect is None else list(profile.capture.rect),
        },
        "appearance": {
            "look": profile.appearance.look,
            "on": hex_colour(profile.appearance.on),
            "off": hex_colour(profile.appearance.off),
        },
    }


def save_profile(profile: Profile, path: str | os.PathLike[str]) -> Path:
    """Write the profile atomically (validated by reading it back first)."""
    text = json.dumps(profile_to_json(profile), indent=2) + "\n"
    parse_profile(text, source="the profile being saved")
    return atomic_write_text(path, text)


def toa_default_profile() -> Profile:
    """The shipped ToA profile: the ring, its goal and the game window, no corners (the
    reader locates the plates itself); see docs/adr/0011-toa-default-profile.md."""
    text = _presets().joinpath(_TOA_PRESET).read_text(encoding="utf-8")
    return parse_profile(text, source=f"the shipped profile {_TOA_PRESET}")


def _presets() -> Traversable:
    """The shipped profiles: the package ``assistant.presets`` when installed (wheel,
    PyInstaller bundle), else the ``calibration/`` folder of a source checkout."""
    try:
        return resources.files("assistant.presets")
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[1] / "calibration"
