"""The user's settings: one TOML file in the user config directory, checked field by field.

The file is small and hand-editable. Every key is optional (a missing key keeps its
default), every value is checked with a sentence that names the key, and a file that
cannot be used is never silently lost: it is renamed aside (see
:func:`assistant.storage.set_aside`) and the defaults are used, with one sentence that
says where the old file went. Writes are atomic, so a crash leaves the old file or the
new one, never half of one.

This module is Qt-free: the live assistant, the manual window and the command line all
read the same :class:`Settings`.

Layout of the file (every key optional)::

    engine = "internal"                     # or "clingo"

    [capture]
    window_title = "RuneLite|Old School RuneScape"   # regular expression
    fps = 10                                         # 1..60

    [overlay]
    mark_color = "#00E5FFB4"                         # #RRGGBBAA (or #RRGGBB = opaque)
    show_route = true                                # the walking route on the overlay

    [toa]
    objective = 1                                    # 1 = all plates lit, 0 = all dark
    crossing_steps = true                            # walking across a plate steps on it

    [steps_panel]
    show = false                     # also when the overlay can be drawn (it is the fallback)
    position = [40, 40]              # where it was last dragged (left, top); absent = default

    [report]
    seconds = 30                     # the last seconds a problem report holds (5..120)
    hotkey = "Ctrl+Shift+F12"        # save a report from the game (Windows; "" = none)

    [manual.default_grid]                            # what a fresh manual window shows
    rows = 5
    cols = 5
    states = 2
    objective = 1

    [manual.last_grid]                               # written by the window on close
    rows = 3
    cols = 3
    states = 2
    objective = 1
    board = "111/0#0/110"
"""

from __future__ import annotations

import contextlib
import os
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import tomli_w

from assistant.errors import UserError
from assistant.hotkey import HotkeyError, parse_hotkey
from assistant.puzzle import MAX_TEXT_STATES, Board, BoardError, parse_grid
from assistant.storage import atomic_write_text, set_aside

__all__ = [
    "APP_NAME",
    "CONFIG_DIR_ENV",
    "ENGINES",
    "MAX_FPS",
    "MAX_GRID_SIDE",
    "MAX_GRID_STATES",
    "MAX_SCREEN_COORD",
    "SETTINGS_FILE_NAME",
    "GridSettings",
    "Settings",
    "SettingsError",
    "config_dir",
    "load_settings",
    "save_settings",
    "settings_from_toml",
    "settings_path",
    "settings_to_toml",
]

APP_NAME = "toa-assistant"
#: When set, the settings (and other per-user configuration) live in this folder instead
#: of the platform's user config directory: tests and portable installs use it.
CONFIG_DIR_ENV = "TOA_ASSISTANT_CONFIG_DIR"
SETTINGS_FILE_NAME = "settings.toml"

#: Engines the settings may name; "internal" is the exact numpy engine shipped with the
#: program, "clingo" the optional answer-set engine (``pip install toa-assistant[asp]``).
ENGINES: tuple[str, ...] = ("internal", "clingo")
MAX_FPS = 60
#: The manual window draws and edits boards up to this many rows and columns; larger
#: boards belong to ``toa-assistant solve --file``.
MAX_GRID_SIDE = 100
#: States a grid in the settings (and the manual window) may have: the text format's
#: one character per cell (0-9, a-z) is what stores the last grid.
MAX_GRID_STATES = MAX_TEXT_STATES

#: Screen coordinates the steps panel's saved position may have (several monitors can put
#: it left of or above the primary screen, hence negative values).
MAX_SCREEN_COORD = 100_000

#: The seconds a problem report may hold (the flight recorder's ring, assistant.recorder).
MIN_REPORT_SECONDS = 5
MAX_REPORT_SECONDS = 120

_COLOR = re.compile(r"#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})")


class SettingsError(UserError):
    """A settings value that cannot be used; the message is one sentence naming the key."""


def _flag(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise SettingsError(f"The setting {key} must be true or false, not {value!r}.")
    return value


def _position(value: Any, key: str) -> tuple[int, int] | None:
    """None, or a window position ``[left, top]`` as a tuple (TOML gives a list)."""
    if value is None:
        return None
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise SettingsError(
            f"The setting {key} must be two whole numbers [left, top], not {value!r}."
        )
    low, high = -MAX_SCREEN_COORD, MAX_SCREEN_COORD
    return _whole(value[0], key, low, high), _whole(value[1], key, low, high)


def _whole(value: Any, key: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettingsError(
            f"The setting {key} must be a whole number from {low} to {high}, not {value!r}."
        )
    if not low <= value <= high:
        raise SettingsError(f"The setting {key} must be from {low} to {high}, not {value}.")
    return value


@dataclass(frozen=True)
class GridSettings:
    """A grid for the manual window: size, number of states, objective and optionally
    its cells in the board text format (``#`` for holes).

    ``board`` is None for a plain grid (every cell present, every cell 0).
    """

    rows: int = 5
    cols: int = 5
    states: int = 2
    objective: int = 1
    board: str | None = None

    def __post_init__(self) -> None:
        _whole(self.rows, "rows", 1, MAX_GRID_SIDE)
        _whole(self.cols, "cols", 1, MAX_GRID_SIDE)
        _whole(self.states, "states", 2, MAX_GRID_STATES)
        _whole(self.objective, "objective", 0, self.states - 1)
        if self.board is not None:
            if not isinstance(self.board, str):
                raise SettingsError(
                    f"The setting board must be text such as '111/0#0/110', not {self.board!r}."
                )
            try:
                parsed = Board.parse(self.board, self.states, self.objective)
            except BoardError as error:
                reason = _lower(_clause(error))
                raise SettingsError(f"The setting board is not usable: {reason}.") from None
            if parsed.shape != (self.rows, self.cols):
                raise SettingsError(
                    f"The setting board has {parsed.rows} rows and {parsed.cols} columns "
                    f"but the grid says {self.rows} by {self.cols}."
                )

    def to_board(self) -> Board:
        """The grid as a board (all cells 0 when no cells are stored)."""
        if self.board is not None:
            return Board.parse(self.board, self.states, self.objective)
        return Board.parse(
            "/".join(["0" * self.cols] * self.rows), self.states, self.objective
        )

    @classmethod
    def from_board(cls, board: Board) -> GridSettings:
        """The grid of a board, cells included (checked like any other grid)."""
        return cls(board.rows, board.cols, board.k, board.objective, board.format())


@dataclass(frozen=True)
class Settings:
    """Everything the user can set. Construct it to check it: a bad value raises
    :class:`SettingsError` with a sentence that names the key.

    Attributes
    ----------
    window_title : regular expression matched against window titles to find the game.
    fps : frames per second the live assistant reads, 1..60.
    mark_color : the overlay's mark colour as ``#RRGGBBAA`` (upper case).
    toa_objective : 1 = the ToA goal (all plates lit), 0 = all dark.
    engine : ``"internal"`` or ``"clingo"``.
    manual_default : the grid a fresh manual window shows.
    manual_last : the grid the manual window showed when it was last closed, if any.
    show_route : draw the walking route (next plate, path, waypoints) on the overlay.
    crossing_steps : the route's rule "walking across a plate steps on it" (ADR 60).
    show_steps_panel : show the steps panel even when the overlay can be drawn.
    steps_panel_position : the panel's last ``(left, top)``, None for the default place.
    report_seconds : the last seconds of the live loop a problem report holds.
    report_hotkey : the global hotkey that saves a report (Windows), "" for none.
    """

    window_title: str = "RuneLite|Old School RuneScape"
    fps: int = 10
    mark_color: str = "#00E5FFB4"
    toa_objective: int = 1
    engine: str = "internal"
    manual_default: GridSettings = field(default_factory=GridSettings)
    manual_last: GridSettings | None = None
    show_route: bool = True
    crossing_steps: bool = True
    show_steps_panel: bool = False
    steps_panel_position: tuple[int, int] | None = None
    report_seconds: int = 30
    report_hotkey: str = "Ctrl+Shift+F12"

    def __post_init__(self) -> None:
        if not isinstance(self.window_title, str) or not self.window_title.strip():
            raise SettingsError(
                "The setting window_title must be a non-empty pattern such as 'RuneLite'."
            )
        try:
            re.compile(self.window_title)
        except re.error as error:
            raise SettingsError(
                f"The setting window_title {self.window_title!r} is not a valid pattern ({error})."
            ) from None
        _whole(self.fps, "fps", 1, MAX_FPS)
        if not isinstance(self.mark_color, str) or not _COLOR.fullmatch(self.mark_color):
            raise SettingsError(
                f"The setting mark_color must be a colour written #RRGGBBAA such as '#00E5FFB4', "
                f"not {self.mark_color!r}."
            )
        color = self.mark_color.upper()
        if len(color) == 7:
            color += "FF"
        object.__setattr__(self, "mark_color", color)
        _whole(self.toa_objective, "[toa] objective", 0, 1)
        if self.engine not in ENGINES:
            raise SettingsError(
                f"The setting engine must be one of {', '.join(ENGINES)}, not {self.engine!r}."
            )
        if not isinstance(self.manual_default, GridSettings):
            raise SettingsError("The setting [manual.default_grid] must be a grid table.")
        if self.manual_last is not None and not isinstance(self.manual_last, GridSettings):
            raise SettingsError("The setting [manual.last_grid] must be a grid table.")
        _flag(self.show_route, "[overlay] show_route")
        _flag(self.crossing_steps, "[toa] crossing_steps")
        _flag(self.show_steps_panel, "[steps_panel] show")
        position = _position(self.steps_panel_position, "[steps_panel] position")
        object.__setattr__(self, "steps_panel_position", position)
        _whole(self.report_seconds, "[report] seconds", MIN_REPORT_SECONDS, MAX_REPORT_SECONDS)
        if not isinstance(self.report_hotkey, str):
            raise SettingsError("The setting [report] hotkey must be text such as "
                                "'Ctrl+Shift+F12' (or '' for none).")
        try:
            parse_hotkey(self.report_hotkey)
        except HotkeyError as error:
            reason = str(error)
            raise SettingsError(f"The setting [report] hotkey is not usable: "
                                f"{reason[:1].lower()}{reason[1:]}") from None

    @property
    def mark_rgba(self) -> tuple[int, int, int, int]:
        """The mark colour as ``(red, green, blue, alpha)``, each 0..255."""
        value = int(self.mark_color[1:], 16)
        return (value >> 24) & 255, (value >> 16) & 255, (value >> 8) & 255, value & 255

    def manual_grid(self) -> GridSettings:
        """The grid a manual window opens with: the last one used, else the default."""
        return self.manual_last if self.manual_last is not None else self.manual_default

    def with_changes(self, **changes: Any) -> Settings:
        """A checked copy with some fields replaced."""
        return replace(self, **changes)


# -- where the file lives ------------------------------------------------------------------
def config_dir() -> Path:
    """The folder for per-user configuration: ``$TOA_ASSISTANT_CONFIG_DIR`` when set,
    else the platform's user config directory for ``toa-assistant`` (never the working
    directory, never beside the executable)."""
    override = os.environ.get(CONFIG_DIR_ENV, "").strip()
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False, roaming=True))


def settings_path(path: str | os.PathLike[str] | None = None) -> Path:
    """``path`` itself when given, else ``settings.toml`` in :func:`config_dir`."""
    return Path(path) if path is not None else config_dir() / SETTINGS_FILE_NAME


# -- TOML <-> Settings ---------------------------------------------------------------------
_SECTIONS: dict[str, dict[str, str]] = {
    # table -> {toml key: dataclass field}
    "": {"engine": "engine"},
    "capture": {"window_title": "window_title", "fps": "fps"},
    "overlay": {"mark_color": "mark_color", "show_route": "show_route"},
    "toa": {"objective": "toa_objective", "crossing_steps": "crossing_steps"},
    "steps_panel": {"show": "show_steps_panel", "position": "steps_panel_position"},
    "report": {"seconds": "report_seconds", "hotkey": "report_hotkey"},
}
_GRID_KEYS = ("rows", "cols", "states", "objective", "board")
_MANUAL_KEYS = {"default_grid": "manual_default", "last_grid": "manual_last"}


def _table(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise SettingsError(f"[{where}] must be a table of settings, not a single value.")
    return data


def _unknown(keys: Any, known: Any, where: str) -> None:
    extra = sorted(set(keys) - set(known))
    if not extra:
        return
    key = extra[0]
    place = f" in [{where}]" if where else " at the top level"
    home = [section for section, names in _SECTIONS.items() if section and key in names]
    if home and home[0] != where:
        raise SettingsError(f"Unknown setting {key!r}{place}: it belongs in [{home[0]}].")
    raise SettingsError(f"Unknown setting {key!r}{place}: check its spelling.")


def _grid(data: Any, where: str) -> GridSettings:
    table = _table(data, where)
    _unknown(table, _GRID_KEYS, where)
    defaults = GridSettings()
    shape = (defaults.rows, defaults.cols)
    if isinstance(table.get("board"), str):
        # A board alone is enough: its text says how many rows and columns it has.
        with contextlib.suppress(BoardError):  # GridSettings reports an unusable board
            shape = parse_grid(table["board"])[0].shape
    rows = table.get("rows", shape[0])
    cols = table.get("cols", shape[1])
    states = table.get("states", defaults.states)
    objective = table.get("objective")
    if objective is None:
        objective = states - 1 if isinstance(states, int) and not isinstance(states, bool) else 1
    try:
        return GridSettings(rows, cols, states, objective, table.get("board"))
    except SettingsError as error:
        raise SettingsError(f"In [{where}], {_lower(_clause(error))}.") from None


def settings_from_toml(text: str) -> Settings:
    """Parse and check the settings file's text.

    Raises
    ------
    SettingsError : not TOML, an unknown key, or a value out of range (one sentence).
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SettingsError(f"The file is not valid TOML ({error}).") from None
    known_top = set(_SECTIONS[""]) | {name for name in _SECTIONS if name} | {"manual"}
    _unknown(data, known_top, "")
    values: dict[str, Any] = {}
    for section, keys in _SECTIONS.items():
        table = _table(data.get(section, {}), section) if section else data
        if section:
            _unknown(table, keys, section)
        for key, name in keys.items():
            if key in table:
                values[name] = table[key]
    manual = _table(data.get("manual", {}), "manual")
    _unknown(manual, _MANUAL_KEYS, "manual")
    for key, name in _MANUAL_KEYS.items():
        if key in manual:
            values[name] = _grid(manual[key], f"manual.{key}")
    return Settings(**values)


def _grid_table(grid: GridSettings) -> dict[str, Any]:
    table: dict[str, Any] = {
        "rows": grid.rows, "cols": grid.cols, "states": grid.states, "objective": grid.objective,
    }
    if grid.board is not None:
        table["board"] = grid.board
    return table


def settings_to_toml(settings: Settings) -> str:
    """The settings as TOML text that :func:`settings_from_toml` reads back unchanged."""
    data: dict[str, Any] = {"engine": settings.engine}
    for section, keys in _SECTIONS.items():
        if section:
            values = {key: getattr(settings, name) for key, name in keys.items()}
            data[section] = {key: value for key, value in values.items() if value is not None}
    manual: dict[str, Any] = {"default_grid": _grid_table(settings.manual_default)}
    if settings.manual_last is not None:
        manual["last_grid"] = _grid_table(settings.manual_last)
    data["manual"] = manual
    header = "# toa-assistant settings: every key is optional; see the documentation.\n\n"
    return header + tomli_w.dumps(data)


# -- load / save ---------------------------------------------------------------------------
def load_settings(
    path: str | os.PathLike[str] | None = None,
) -> tuple[Settings, str | None]:
    """Read the settings file.

    Returns
    -------
    (settings, warning) : a missing file gives the defaults and no warning. A file that
        is not valid TOML or holds an unusable value is renamed aside, the defaults are
        returned and ``warning`` is one sentence naming where the old file went. A file
        that cannot be read at all is left where it is and reported the same way.
    """
    target = settings_path(path)
    try:
        raw = target.read_bytes()
    except FileNotFoundError:
        return Settings(), None
    except OSError as error:
        reason = error.strerror or str(error)
        return Settings(), (
            f"The settings file {target} could not be read ({reason}), so the defaults are used."
        )
    try:
        return settings_from_toml(raw.decode("utf-8")), None
    except (SettingsError, UnicodeDecodeError) as error:
        reason = _lower(_clause(error)) if isinstance(error, SettingsError) else "not UTF-8 text"
    try:
        moved = set_aside(target)
    except OSError as error:
        return Settings(), (
            f"The settings file {target} is unusable ({reason}) and could not be moved aside "
            f"({error.strerror or error}), so the defaults are used."
        )
    return Settings(), (
        f"The settings file {target} was unusable ({reason}), so it was moved to {moved} "
        "and the defaults are used."
    )


def save_settings(settings: Settings, path: str | os.PathLike[str] | None = None) -> Path:
    """Write the settings atomically (the old file stays whole if anything fails) and
    return the path written."""
    if not isinstance(settings, Settings):
        raise TypeError("save_settings needs a Settings instance")
    return atomic_write_text(settings_path(path), settings_to_toml(settings))


def _clause(error: BaseException) -> str:
    """An error sentence without its final full stop, to embed in another sentence."""
    text = str(error).strip()
    return text[:-1] if text.endswith(".") else text


def _lower(clause: str) -> str:
    """A sentence's first letter in lower case, to follow a comma or colon."""
    return clause[:1].lower() + clause[1:]
