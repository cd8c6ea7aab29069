"""``toa-assistant manual``: arguments are checked before Qt starts, bad ones are one
sentence and exit status 2; good ones open the window on the asked board."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from PyQt6.QtCore import QTimer
from PyQt6.QtWidgets import QApplication

from assistant.cli import COMMAND_MODULES, build_parser
from assistant.cli import main as cli_main
from assistant.commands import manual as command
from assistant.gui.manual import ManualWindow
from assistant.settings import (
    CONFIG_DIR_ENV,
    GridSettings,
    Settings,
    load_settings,
    save_settings,
)

pytestmark = [
    pytest.mark.qt_log_level_fail("WARNING"),
    # the offscreen platform cannot size or raise windows; real platforms can
    pytest.mark.qt_log_ignore("This plugin does not support (propagateSizeHints|raise)"),
]


@pytest.fixture(autouse=True)
def _private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "config"
    monkeypatch.setenv(CONFIG_DIR_ENV, str(folder))
    return folder


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["manual", *argv])


def test_registered() -> None:
    assert "manual" in COMMAND_MODULES
    assert parse().command == "manual"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--rows", "101"], "solve it with 'toa-assistant solve --file BOARD.txt'"),
        (["--rows", "5", "--cols", "500"], "larger than the window's 100x100"),
        (["--rows", "0"], "at least 1 row"),
        (["--states", "37"], "2 to 36 states"),
        (["--states", "3", "--objective", "3"], "out of range"),
        (["--preset", "toa", "--rows", "4"], "--preset toa is always 3x3"),
        (["--preset", "toa", "--objective", "2"], "out of range"),
        (["--preset", "toa", "--board", "111/000/111"], "'#' in the centre"),
        (["--board", "12/21"], "holds 2, but with 2 states"),
        (["--board", "10/01", "--rows", "3"], "does not match --rows and --cols"),
        (["--board", "1" * 101], "solve --file"),
        # Issue 67: the advice must name an input solve takes.
        (["--states", "99"], "solve it with 'toa-assistant solve --file BOARD.npy --states 99'"),
        (["--rows", "2000", "--cols", "2000"], "solve --file BOARD.npy'"),
        (["--rows", "100000", "--cols", "100000"], "more than 'toa-assistant solve' takes"),
    ],
)
def test_bad_arguments_are_one_sentence_and_exit_2(
    argv: list[str],
    words: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened: list[object] = []
    monkeypatch.setattr("assistant.gui.manual.ManualWindow", lambda *a, **k: opened.append(a))
    assert cli_main(["manual", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err
    assert err.count("\n") == 1 and err.startswith("toa-assistant: ")
    assert opened == []  # refused before any window


def test_main_takes_the_subcommand_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert command.main(["--rows", "200"]) == 2
    assert "solve --file" in capsys.readouterr().err


def test_board_from_args() -> None:
    s = Settings(manual_default=GridSettings(4, 4, 3, 1), toa_objective=1)
    assert command.board_from_args(parse(), s) is None
    toa = command.board_from_args(parse("--preset", "toa", "--board", "111/0#0/110"), s)
    assert toa.format() == "111/0#0/110" and (toa.k, toa.objective) == (2, 1)
    dark = command.board_from_args(parse("--preset", "toa", "--objective", "0"), s)
    assert dark.format() == "000/0#0/000" and dark.objective == 0
    grid = command.board_from_args(parse("--rows", "7"), s)
    assert (grid.rows, grid.cols, grid.k, grid.objective) == (7, 4, 3, 1)  # rest from settings
    grid = command.board_from_args(parse("--states", "5"), s)
    assert (grid.k, grid.objective) == (5, 4)  # new k: all lit by default
    text = command.board_from_args(parse("--board", "012/2#1", "--states", "3"), s)
    assert text.format() == "012/2#1" and text.objective == 2


def test_run_opens_the_asked_board(qapp, _private_config: Path) -> None:
    seen: list[ManualWindow] = []

    def close_it() -> None:
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, ManualWindow):
                seen.append(widget)
                widget.close()

    QTimer.singleShot(0, close_it)
    assert command.run(parse("--preset", "toa", "--board", "101/1#0/011")) == 0
    assert len(seen) == 1
    window = seen[0]
    assert window.model.board.format() == "101/1#0/011"
    assert window.model.toa and window.model.show_solution
    assert not (_private_config / "settings.toml").exists()  # a reading is not remembered
    window.deleteLater()


def test_run_remembers_a_grid_it_made(qapp, _private_config: Path) -> None:
    save_settings(Settings(fps=33))
    seen: list[ManualWindow] = []

    def close_it() -> None:
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, ManualWindow):
                seen.append(widget)
                widget.close()

    QTimer.singleShot(0, close_it)
    assert command.run(parse("--rows", "2", "--cols", "3", "--states", "4")) == 0
    settings, warning = load_settings()
    assert warning is None
    assert settings.fps == 33  # other settings kept
    assert settings.manual_last == GridSettings(2, 3, 4, 3, "000/000")
    for window in seen:
        window.deleteLater()
