"""Windows only, simulated on Linux: a redirected standard output has the ANSI code page
(cp1252 on Western Windows), which cannot encode every character the program prints. The
Windows smoke run (tests/test_windows_smoke.py) checks the same under wine."""

from __future__ import annotations

import io
import sys

import cv2
import pytest

from assistant.cli import build_parser, main, use_utf8_output
from lab.scene import SceneParams, render_scene

NAME = "комната→1.png"  # Cyrillic and an arrow: neither is in cp1252


def _redirected() -> io.TextIOWrapper:
    """A stream as Windows gives a program whose output goes to a file or a pipe."""
    return io.TextIOWrapper(io.BytesIO(), encoding="cp1252", errors="strict",
                            write_through=True)


def test_cp1252_cannot_encode_what_the_program_prints():
    with pytest.raises(UnicodeEncodeError):
        print(NAME, file=_redirected())


def test_redirected_output_is_switched_to_utf8_on_windows(monkeypatch):
    out, err = _redirected(), _redirected()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    use_utf8_output("win32")
    print(NAME)
    print("≤ 80 MB", file=sys.stderr)
    assert out.buffer.getvalue().decode("utf-8") == NAME + "\n"
    assert err.buffer.getvalue().decode("utf-8") == "≤ 80 MB\n"


def test_other_systems_and_utf8_streams_are_left_alone(monkeypatch):
    out = _redirected()
    monkeypatch.setattr(sys, "stdout", out)
    use_utf8_output("linux")
    assert out.encoding == "cp1252"
    utf8 = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    monkeypatch.setattr(sys, "stdout", utf8)
    use_utf8_output("win32")
    assert sys.stdout is utf8 and utf8.errors == "strict"


def test_no_stream_at_all_is_fine(monkeypatch):
    """A program started without a console on Windows has no standard streams."""
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stderr", None)
    use_utf8_output("win32")


def test_detect_prints_a_cyrillic_picture_name_on_redirected_windows_output(
        tmp_path, monkeypatch):
    """The whole command: ``detect`` prints the picture's name back, as on a player's
    machine with ``toa-assistant detect комната→1.png > answer.txt``."""
    scene = render_scene(SceneParams(seed=3, board="111/0#0/110", frame_size=(800, 600),
                                     centre=(400, 300), spacing=70.0))
    assert cv2.imwrite(str(tmp_path / "room.png"), scene.frame)
    (tmp_path / "room.png").rename(tmp_path / NAME)
    monkeypatch.chdir(tmp_path)
    build_parser()  # every command module imported before the platform says win32
    out = _redirected()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "platform", "win32")
    code = main(["detect", NAME])
    monkeypatch.undo()
    assert code == 0
    assert out.buffer.getvalue().decode("utf-8").startswith(f"{NAME}: board 111/0#0/110")
