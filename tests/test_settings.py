"""The settings file: defaults, round trip, validation sentences, corrupt files kept aside,
atomic writes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from assistant import storage
from assistant.errors import UserError
from assistant.puzzle import toa_board
from assistant.settings import (
    CONFIG_DIR_ENV,
    SETTINGS_FILE_NAME,
    GridSettings,
    Settings,
    SettingsError,
    config_dir,
    load_settings,
    save_settings,
    settings_from_toml,
    settings_path,
    settings_to_toml,
)


@pytest.fixture(autouse=True)
def _config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "config"
    monkeypatch.setenv(CONFIG_DIR_ENV, str(folder))
    return folder


def test_defaults_are_the_documented_ones() -> None:
    s = Settings()
    assert s.window_title == "RuneLite|Old School RuneScape"
    assert s.fps == 10
    assert s.mark_color == "#00E5FFB4"
    assert s.mark_rgba == (0x00, 0xE5, 0xFF, 0xB4)
    assert s.toa_objective == 1
    assert s.engine == "internal"
    assert s.manual_default == GridSettings(5, 5, 2, 1)
    assert s.manual_last is None
    assert s.manual_grid() == s.manual_default


def test_missing_file_gives_defaults_without_warning(_config_dir: Path) -> None:
    settings, warning = load_settings()
    assert settings == Settings()
    assert warning is None
    assert not _config_dir.exists()  # reading never creates anything


def test_env_var_moves_the_config_dir(_config_dir: Path) -> None:
    assert config_dir() == _config_dir
    assert settings_path() == _config_dir / SETTINGS_FILE_NAME
    assert settings_path("/elsewhere/s.toml") == Path("/elsewhere/s.toml")


def test_default_config_dir_is_not_the_working_directory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(CONFIG_DIR_ENV)
    folder = config_dir()
    assert folder.is_absolute()
    assert "toa-assistant" in folder.parts
    assert folder != Path.cwd()


def test_round_trip_through_the_file(_config_dir: Path) -> None:
    original = Settings(
        window_title="RuneLite - \\w+",
        fps=30,
        mark_color="#ff000080",
        toa_objective=0,
        engine="clingo",
        manual_default=GridSettings(7, 9, 3, 0),
        manual_last=GridSettings.from_board(toa_board("111/0#0/110")),
    )
    written = save_settings(original)
    assert written == _config_dir / SETTINGS_FILE_NAME
    loaded, warning = load_settings()
    assert warning is None
    assert loaded == original
    assert loaded.mark_color == "#FF000080"  # normalised to upper case
    assert loaded.manual_last is not None
    assert loaded.manual_last.to_board() == toa_board("111/0#0/110")
    assert loaded.manual_grid() == loaded.manual_last


def test_text_round_trip_with_explicit_path(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "mine.toml"
    s = Settings(fps=60, manual_default=GridSettings(100, 100, 36, 35))
    save_settings(s, path)
    assert load_settings(path) == (s, None)
    assert settings_from_toml(settings_to_toml(s)) == s


def test_partial_file_keeps_other_defaults(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text("[capture]\nfps = 25\n[manual.default_grid]\nstates = 4\n", "utf-8")
    settings, warning = load_settings(path)
    assert warning is None
    assert settings.fps == 25
    assert settings.window_title == Settings().window_title
    # objective left out: "all lit", the highest state
    assert settings.manual_default == GridSettings(5, 5, 4, 3)


def test_a_board_alone_gives_its_own_size(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text('[manual.last_grid]\nboard = "0120/2#10"\nstates = 3\n', "utf-8")
    settings, warning = load_settings(path)
    assert warning is None
    assert settings.manual_last == GridSettings(2, 4, 3, 2, "0120/2#10")


def test_opaque_colour_gets_full_alpha() -> None:
    assert Settings(mark_color="#12abEF").mark_color == "#12ABEFFF"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[capture]\nfps = 0", "fps must be from 1 to 60, not 0"),
        ("[capture]\nfps = 61", "fps must be from 1 to 60"),
        ("[capture]\nfps = 2.5", "fps must be a whole number"),
        ("[capture]\nfps = true", "fps must be a whole number"),
        ('[capture]\nwindow_title = ""', "window_title must be a non-empty pattern"),
        ('[capture]\nwindow_title = "(RuneLite"', "is not a valid pattern"),
        ('[overlay]\nmark_color = "cyan"', "mark_color must be a colour written #RRGGBBAA"),
        ('[overlay]\nmark_color = "#12345"', "mark_color must be a colour"),
        ("[toa]\nobjective = 2", "[toa] objective must be from 0 to 1"),
        ('engine = "z3"', "engine must be one of internal, clingo"),
        ("[manual.default_grid]\nrows = 101", "rows must be from 1 to 100, not 101"),
        ("[manual.default_grid]\ncols = 0", "cols must be from 1 to 100"),
        ("[manual.default_grid]\nstates = 1", "states must be from 2 to 36"),
        ("[manual.default_grid]\nstates = 3\nobjective = 3", "objective must be from 0 to 2"),
        ('[manual.last_grid]\nboard = "12/3#"\nstates = 3', "board is not usable"),
        ('[manual.last_grid]\nboard = "10/01"\nrows = 3', "has 2 rows and 2 columns"),
        ("fps = 10", "Unknown setting 'fps' at the top level: it belongs in [capture]"),
        ("[capture]\nfsp = 10", "Unknown setting 'fsp' in [capture]: check its spelling"),
        ("[manual.other_grid]\nrows = 1", "Unknown setting 'other_grid' in [manual]"),
        ("capture = 3", "[capture] must be a table"),
        ("fps = = 3", "not valid TOML"),
    ],
)
def test_invalid_values_are_one_clear_sentence(text: str, words: str) -> None:
    with pytest.raises(SettingsError) as caught:
        settings_from_toml(text)
    message = str(caught.value)
    assert words in message
    assert message.endswith(".")
    assert "\n" not in message
    assert isinstance(caught.value, UserError)


def test_constructor_checks_every_field() -> None:
    with pytest.raises(SettingsError, match="fps"):
        Settings(fps=0)
    with pytest.raises(SettingsError, match="engine"):
        Settings(engine="INTERNAL")
    with pytest.raises(SettingsError, match="rows"):
        GridSettings(rows=0)
    with pytest.raises(SettingsError, match="default_grid"):
        Settings(manual_default=(5, 5, 2, 1))  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match="board"):
        GridSettings(3, 3, 2, 1, "11/11")


@pytest.mark.parametrize(
    "content",
    [
        b"fps = = 3\n",  # not TOML
        b"[capture]\nfps = 500\n",  # out of range
        b"\xff\xfe\x00garbage",  # not UTF-8
    ],
)
def test_unusable_file_is_set_aside_with_a_sentence(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "settings.toml"
    path.write_bytes(content)
    settings, warning = load_settings(path)
    assert settings == Settings()
    assert warning is not None
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("settings.toml.corrupt-")]
    assert len(aside) == 1
    assert aside[0].read_bytes() == content  # the user's file is kept, byte for byte
    assert not path.exists()
    assert str(aside[0]) in warning
    assert str(path) in warning
    assert warning.count(". ") == 0 and warning.endswith(".")
    # the next save writes a fresh file and leaves the old one aside
    save_settings(settings, path)
    assert load_settings(path) == (Settings(), None)
    assert aside[0].exists()


def test_two_corrupt_files_do_not_overwrite_each_other(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    for content in (b"one = = 1", b"two = = 2"):
        path.write_bytes(content)
        load_settings(path)
    aside = sorted(p.read_bytes() for p in tmp_path.iterdir() if ".corrupt-" in p.name)
    assert aside == [b"one = = 1", b"two = = 2"]


def test_unreadable_path_is_reported_not_moved(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.mkdir()  # a folder where the file should be: reading fails with OSError
    settings, warning = load_settings(path)
    assert settings == Settings()
    assert warning is not None and "could not be read" in warning
    assert path.is_dir()


def test_failed_write_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "settings.toml"
    old = Settings(fps=12)
    save_settings(old, path)
    before = path.read_bytes()

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(storage.os, "replace", broken_replace)
    with pytest.raises(OSError, match="No space left"):
        save_settings(Settings(fps=50), path)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert load_settings(path) == (old, None)
    assert [p.name for p in tmp_path.iterdir()] == ["settings.toml"]  # no temp file left


def test_failed_flush_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "settings.toml"
    save_settings(Settings(fps=12), path)
    before = path.read_bytes()

    def broken_fsync(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(storage.os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        save_settings(Settings(fps=50), path)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["settings.toml"]


# -- the walking route and the steps panel (issue 11) ---------------------------------------
def test_route_and_steps_panel_defaults() -> None:
    s = Settings()
    assert (s.show_route, s.crossing_steps, s.show_steps_panel) == (True, True, False)
    assert s.steps_panel_position is None
    text = settings_to_toml(s)
    assert "position" not in text  # no position until the panel is dragged
    assert settings_from_toml(text) == s


def test_route_and_steps_panel_round_trip(_config_dir: Path) -> None:
    original = Settings(
        show_route=False,
        crossing_steps=False,
        show_steps_panel=True,
        steps_panel_position=[-1200, 35],  # a monitor left of the primary one
    )
    assert original.steps_panel_position == (-1200, 35)
    save_settings(original)
    loaded, warning = load_settings()
    assert warning is None and loaded == original
    text = (_config_dir / SETTINGS_FILE_NAME).read_text(encoding="utf-8")
    assert "[steps_panel]" in text and "crossing_steps = false" in text


def test_route_settings_read_from_their_sections() -> None:
    s = settings_from_toml(
        "[overlay]\nshow_route = false\n[toa]\ncrossing_steps = false\n"
        "[steps_panel]\nshow = true\nposition = [10, 20]\n"
    )
    assert (s.show_route, s.crossing_steps, s.show_steps_panel) == (False, False, True)
    assert s.steps_panel_position == (10, 20)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[toa]\ncrossing_steps = 1\n", "[toa] crossing_steps must be true or false, not 1"),
        ('[overlay]\nshow_route = "yes"\n', "[overlay] show_route must be true or false"),
        ("[steps_panel]\nshow = 0\n", "[steps_panel] show must be true or false"),
        ("[steps_panel]\nposition = [1]\n", "must be two whole numbers [left, top]"),
        ("[steps_panel]\nposition = [1.5, 2]\n", "[steps_panel] position must be a whole"),
        ("[steps_panel]\nposition = [0, 200000]\n", "must be from -100000 to 100000"),
        ("[steps_panel]\nplace = [0, 0]\n", "Unknown setting 'place' in [steps_panel]"),
        ("[overlay]\ncrossing_steps = true\n", "it belongs in [toa]"),
    ],
)
def test_route_settings_are_checked(text: str, fragment: str) -> None:
    with pytest.raises(SettingsError) as caught:
        settings_from_toml(text)
    assert fragment in str(caught.value)
    assert str(caught.value).count(".") >= 1 and "\n" not in str(caught.value)


def test_a_bad_route_setting_sets_the_file_aside(_config_dir: Path) -> None:
    _config_dir.mkdir(parents=True)
    (_config_dir / SETTINGS_FILE_NAME).write_text("[toa]\ncrossing_steps = 2\n", encoding="utf-8")
    settings, warning = load_settings()
    assert settings == Settings()
    assert warning is not None and "crossing_steps must be true or false" in warning
