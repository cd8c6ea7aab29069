"""Smoke test of the Windows executable under wine, run as a Windows player would run it:
the download unzipped into a fresh wine prefix that says it is Windows 10, on a virtual X
server. ``make smoke-exe-windows`` runs it (build first: ``make exe-windows``); CI runs
both. What it checks, and what wine cannot show: docs/windows.md.

- the command line: ``--version``, ``--help`` (the same as the source's), ``solve``,
  ``detect`` on a drawn room, ``detect --sequence`` on a short walk, a bad input (one
  sentence, exit 2), output that cp1252 cannot encode;
- the live path on a real Win32 window: a stand-in game window (scripts/windows_standin.py,
  titled "RuneLite - stand-in") is found by the executable's ``calibrate`` and ``run``
  through pywinctl and grabbed with mss at 100% and 150% display scaling; the live loop's
  marks are computed on it frame by frame (scripts/windows_live_check.py, the same code
  under the build's Windows Python) and checked against the executable's own reading of
  the same frames;
- the overlay (``run``) and the control window: real windows on wine 9 and later, on the
  offscreen Qt platform on wine 8 (its Qt windows platform cannot start there);
- settings saved by the control window land in %APPDATA%, and the executable reads them
  back at its next start.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import cv2
import numpy as np
import pytest
from x11 import start_x_server

from assistant.puzzle import toa_board
from lab.scene import SceneParams, render_scene
from lab.walkthrough import walk_through

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))

import build_windows as wb  # noqa: E402  (scripts/build_windows.py)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.x11,
    pytest.mark.skipif(
        os.environ.get("TOA_WINDOWS_SMOKE", "") != "1",
        reason="runs the Windows build under wine (minutes): make exe-windows, then "
        "make smoke-exe-windows (CI runs both after the test suite)",
    ),
]

BOARD = "111/0#0/110"
STAND_IN_TITLE = "RuneLite - stand-in"
#: a walk: two steps from this board; the player stands on a plate in several frames
WALK_START = toa_board("111/1#1/111").press(0, 0).press(2, 2).format()
#: the frame of the walk with every plate in view and nobody on one (for calibrate)
CLEAR_FRAME = 4


def _text(out: str) -> str:
    return out.replace("\r\n", "\n")


class Player:
    """The unzipped download in a fresh wine prefix, on a virtual X server."""

    def __init__(self, top: Path, display: str) -> None:
        self.top = top
        self.archive = REPO / "dist" / wb.archive_name()
        if not self.archive.is_file():
            pytest.fail(f"{self.archive} does not exist: run make exe-windows first")
        self.unpacked = top / "unpacked"
        with zipfile.ZipFile(self.archive) as handle:
            handle.extractall(self.unpacked)
        self.exe = self.unpacked / "toa-assistant" / "toa-assistant.exe"
        self.wine = wb.wine_version()
        self.qt_windows = self.wine[0] >= wb.WINE_WITH_QT_WINDOWS
        self.prefix = top / "prefix"
        wb.new_prefix(self.prefix, qt_offscreen=not self.qt_windows, log_pixels=96)
        self.env = wb.wine_env(self.prefix, display=display)
        self.env["COLUMNS"] = "100"  # --help wraps the same under wine and on Linux
        self.home = top / "home"
        self.home.mkdir()
        self.python = wb.WORK / "python" / "python.exe"  # the build's, for the drivers

    def run(self, *args: str, timeout: float = 180) -> subprocess.CompletedProcess:
        """The executable with ``args``. A failure without a byte of output on either
        stream is run once more, and said on the terminal (past pytest's capture, so CI's
        log shows it): every exit of the program that is not a success says why (one
        sentence or a traceback), so a silent one is wine's. It was seen once in five
        runs of ``detect --sequence`` at 150%, which passed before and after."""
        command = [wb.windows_path(self.exe), *args]
        result = wb.run_wine(command, self.env, cwd=self.home, timeout=timeout)
        if result.returncode != 0 and not result.stdout and not result.stderr:
            print(f"\nwine: toa-assistant {' '.join(args[:2])} exited {result.returncode} "
                  "with no output at all: run once more", file=sys.__stderr__, flush=True)
            result = wb.run_wine(command, self.env, cwd=self.home, timeout=timeout)
        return result

    def popen(self, *args: str) -> subprocess.Popen:
        return subprocess.Popen([wb.wine_program(), wb.windows_path(self.exe), *args],
                                env=self.env, cwd=self.home, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, encoding="utf-8", errors="replace")

    def python_run(self, script: str, *args: str, timeout: float = 300):
        return wb.run_wine([wb.windows_path(self.python),
                            wb.windows_path(REPO / "scripts" / script),
                            wb.windows_path(REPO), *args], self.env, cwd=self.home,
                           timeout=timeout)

    def source(self, *args: str, lab: bool = True) -> subprocess.CompletedProcess:
        """The same command from this checkout's source on Linux, for comparison;
        ``lab=False``: with the lab (lab/, which the executable leaves out) unimportable."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TOA_", "QT_"))}
        env.update(PYTHONPATH=str(REPO), COLUMNS="100", QT_QPA_PLATFORM="offscreen",
                   TOA_ASSISTANT_CONFIG_DIR=str(self.top / "linux-config"))
        start = ["-m", "assistant"] if lab else [
            "-c", "import sys; sys.modules['lab'] = None; from assistant.cli import main; "
            "raise SystemExit(main(sys.argv[1:]))"]
        return subprocess.run([sys.executable, *start, *args], env=env,
                              cwd=self.home, capture_output=True, text=True, timeout=300)

    def windows_folder(self, variable: str) -> Path:
        """Where a Windows folder variable (APPDATA, LOCALAPPDATA) points in the prefix."""
        echoed = wb.run_wine(["cmd", "/c", "echo", f"%{variable}%"], self.env,
                             timeout=120).stdout.strip()
        unix = wb.run_wine(["winepath", "-u", echoed], self.env, timeout=120).stdout.strip()
        return Path(unix)


def _files(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_size for p in folder.rglob("*")
            if p.is_file()}


@pytest.fixture(scope="module")
def player(tmp_path_factory):
    server, base = start_x_server(1600, 1000)
    built = Player(tmp_path_factory.mktemp("windows-smoke"), server.display)
    print(f"wine {built.wine[0]}.{built.wine[1]}: " + (
        "Qt's windows platform, real windows on Xvfb" if built.qt_windows else
        "Qt offscreen (wine 8 cannot start Qt's windows platform); Win32 stand-in on Xvfb"))
    yield built
    wb.stop_wineserver(built.env)
    for process in reversed(base):
        process.terminate()
        process.wait(5)


@pytest.fixture(scope="module")
def bundle_before(player) -> dict[str, int]:
    return _files(player.unpacked)


@pytest.fixture(scope="module")
def walk(player):
    """A short walk (two steps), each frame as PNG (for detect, its modification time the
    frame's grab time: ``detect --sequence --times mtime``) and BGRA (for the stand-in
    window)."""
    frames = walk_through(WALK_START, 4, source="synthetic", pitch_range=(10, 35),
                          teammates=0, camera_events=False, capture_effects=False)
    names, raws = [], []
    for index, frame in enumerate(frames):
        picture = frame.scene.frame
        png = player.home / f"walk{index:02}.png"
        assert cv2.imwrite(str(png), picture)
        grabbed = 1_700_000_000 + frame.time
        os.utime(png, (grabbed, grabbed))
        bgra = cv2.cvtColor(picture, cv2.COLOR_BGR2BGRA) if picture.shape[2] == 3 else picture
        raw = player.home / f"walk{index:02}.bgra"
        height, width = bgra.shape[:2]
        raw.write_bytes(np.array([width, height], "<u4").tobytes() + bgra.tobytes())
        names.append(png.name)
        raws.append(raw)
    return frames, names, raws


# -- the command line ----------------------------------------------------------------------
def test_version(player, bundle_before):
    result = player.run("--version")
    assert result.returncode == 0, result.stderr
    assert _text(result.stdout) == f"toa-assistant {wb.bundle.version(REPO)}\n"
    assert result.stderr == ""


def test_help_lists_the_same_commands_as_the_source(player, bundle_before):
    """The same as the source's without its lab (the benchmarks are a checkout's only)."""
    frozen, source = player.run("--help"), player.source("--help", lab=False)
    assert frozen.returncode == 0, frozen.stderr
    # the same words in the same order (Python 3.12's argparse pads its columns otherwise)
    assert frozen.stdout.split() == source.stdout.split()
    assert " solve " in frozen.stdout and " detect " in frozen.stdout
    walk = player.run("bench-walk", "--sessions", "1")
    assert walk.returncode == 2
    lines = _text(walk.stderr).strip().splitlines()
    assert len(lines) == 1 and "source checkout" in lines[0]


def test_solve(player, bundle_before):
    args = ("solve", "--preset", "toa", BOARD, "--json")
    frozen, source = player.run(*args), player.source(*args)
    assert frozen.returncode == 0 and frozen.stderr == "", frozen.stderr
    answer = json.loads(frozen.stdout)
    assert answer == json.loads(source.stdout)
    assert answer["presses"] == "110/0#1/000"


def test_detect_a_drawn_room(player, bundle_before):
    scene = render_scene(SceneParams(seed=3, board=BOARD, frame_size=(800, 600),
                                     centre=(400, 300), spacing=70.0))
    assert cv2.imwrite(str(player.home / "room.png"), scene.frame)
    frozen = player.run("detect", "--json", "room.png")
    assert frozen.returncode == 0 and frozen.stderr == "", frozen.stderr
    record, source = json.loads(frozen.stdout), json.loads(player.source(
        "detect", "--json", "room.png").stdout)
    assert record["board"] == BOARD and not record["abstain"]
    assert record["solution"] == source["solution"]
    # the Windows wheels (numpy, OpenCV) may round differently in the last digits
    for mine, theirs in zip(record["tiles"], source["tiles"], strict=True):
        assert mine["lit"] == theirs["lit"]
        assert abs(mine["x"] - theirs["x"]) < 0.5 and abs(mine["y"] - theirs["y"]) < 0.5


def test_detect_a_sequence_of_a_walk(player, walk, bundle_before):
    _, names, _ = walk
    frozen = player.run("detect", "--sequence", "--times", "mtime", "--json", *names)
    assert frozen.returncode == 0 and frozen.stderr == "", frozen.stderr
    mine = [json.loads(line) for line in frozen.stdout.splitlines()]
    theirs = [json.loads(line) for line in player.source(
        "detect", "--sequence", "--times", "mtime", "--json", *names).stdout.splitlines()]
    keys = ("kind", "board", "answer", "hidden", "inferred", "held")
    assert [[r[k] for k in keys] for r in mine] == [[r[k] for k in keys] for r in theirs]
    assert mine[-1]["kind"] == "solved"  # the walk ends with every plate lit
    assert any(r["inferred"] for r in mine)  # a plate stood on was told by the frames before


def test_a_bad_board_is_one_sentence_and_exit_2(player, bundle_before):
    result = player.run("solve", "--preset", "toa", "not-a-board")
    assert result.returncode == 2
    assert result.stdout == ""
    lines = _text(result.stderr).strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("toa-assistant: "), result.stderr


def test_output_outside_cp1252_is_written_not_raised(player, walk, bundle_before):
    """A picture named in Cyrillic, printed back on a redirected stdout: the console's
    code page (cp1252 here) cannot encode it, so the program writes UTF-8 itself."""
    _, names, _ = walk
    shutil.copy(player.home / names[CLEAR_FRAME], player.home / "комната→1.png")
    result = player.run("detect", "комната→1.png")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.startswith("комната→1.png: board ")


# -- the live path on a real Win32 window ---------------------------------------------------
class StandIn:
    """The stand-in game window, shown by the build's Windows Python under wine."""

    def __init__(self, player: Player, first: Path) -> None:
        self.shown = player.home / "standin-shown.bgra"
        self.control = player.home / "standin-control.txt"
        self.control.unlink(missing_ok=True)
        shutil.copy(first, self.shown)
        self.process = subprocess.Popen(
            [wb.wine_program(), wb.windows_path(player.python),
             wb.windows_path(REPO / "scripts" / "windows_standin.py"),
             wb.windows_path(self.shown), STAND_IN_TITLE, wb.windows_path(self.control)],
            env=player.env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        assert line, f"the stand-in window did not start: {self.process.stderr.read()}"
        self.client = json.loads(line)

    def close(self) -> None:
        self.control.write_text("close", encoding="ascii")
        try:
            self.process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.communicate()


@pytest.mark.parametrize("dpi", [96, 144], ids=["scale-100", "scale-150"])
def test_live_path_on_a_win32_window(player, walk, dpi, bundle_before):
    frames, names, raws = walk
    wb.set_log_pixels(player.env, dpi)
    stand_in = StandIn(player, raws[0])
    try:
        # The live loop, frame by frame of the walk, on the window: found through pywinctl,
        # grabbed through mss, read, marks computed (physical screen pixels).
        live = player.python_run("windows_live_check.py", STAND_IN_TITLE,
                                 wb.windows_path(stand_in.shown),
                                 *[wb.windows_path(raw) for raw in raws])
        assert live.returncode == 0, live.stderr
        head, *records = [json.loads(line) for line in live.stdout.splitlines()]
        client = stand_in.client
        assert head["dpi"] == dpi
        assert head["title"] == STAND_IN_TITLE
        assert head["rect"] == [client["left"], client["top"], client["width"],
                                client["height"]]  # physical pixels at any scaling
        assert [r["grab"]["max_difference"] for r in records] == [0] * len(raws)

        # The executable's own reading of the same frames, from the pictures.
        frozen = player.run("detect", "--sequence", "--times", "mtime", "--json", *names)
        assert frozen.returncode == 0, frozen.stderr
        pictures = [json.loads(line) for line in frozen.stdout.splitlines()]
        keys = ("kind", "board", "answer", "hidden", "inferred")
        assert [[r[k] for k in keys] for r in records] == [[r[k] for k in keys]
                                                            for r in pictures]
        marked = 0
        for on_screen, in_picture, frame in zip(records, pictures, frames, strict=True):
            assert len(on_screen["marks"]) == len(in_picture["marks"])
            for mark, reference in zip(on_screen["marks"], in_picture["marks"], strict=True):
                assert abs(mark["x"] - client["left"] - reference["x"]) <= 0.11
                assert abs(mark["y"] - client["top"] - reference["y"]) <= 0.11
                # on a plate of the room, which the answer steps on
                centres = frame.scene.plate_centres + np.array([client["left"], client["top"]])
                assert np.hypot(*(centres - (mark["x"], mark["y"])).T).min() < 6
                marked += 1
        assert marked > 0 and records[-1]["kind"] == "solved"

        # The executable: calibrate on the live window (pywinctl + mss in the bundle).
        staged = stand_in.shown.with_suffix(".new")
        shutil.copy(raws[CLEAR_FRAME], staged)
        staged.replace(stand_in.shown)
        time.sleep(0.5)  # the stand-in repaints within 0.1 s
        profile = player.home / f"stand-in-{dpi}.json"
        calibrated = player.run("calibrate", "--window", "RuneLite", "--auto",
                                "--out", profile.name)
        assert calibrated.returncode == 0, calibrated.stderr
        reference = player.source("calibrate", "--image", names[CLEAR_FRAME], "--auto",
                                  "--out", str(player.top / "reference.json"))
        assert reference.returncode == 0, reference.stderr
        corners = json.loads(profile.read_text(encoding="utf-8"))["corners"]
        expected = json.loads((player.top / "reference.json").read_text())["corners"]
        for name, point in corners.items():
            assert np.hypot(point[0] - expected[name][0], point[1] - expected[name][1]) < 0.5
        said = calibrated.stdout.split("; ", 1)[-1].strip()
        assert said.startswith("it reads ") and said == reference.stdout.split("; ", 1)[-1].strip()
    finally:
        stand_in.close()


# -- the overlay, the control window, settings ----------------------------------------------
def test_overlay_runs_on_the_stand_in_and_closes_cleanly(player, walk, bundle_before):
    """``run`` (the overlay without the control window) finds the stand-in, says what to
    step on, says when the game window is gone, and ends by itself (--seconds)."""
    _, _, raws = walk
    wb.set_log_pixels(player.env, 96)
    stand_in = StandIn(player, raws[CLEAR_FRAME])
    process = player.popen("run", "--seconds", "25")
    lines = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line.strip())
            if line.startswith("Puzzle found"):
                if player.qt_windows:
                    _look_at_the_overlay(player)
                stand_in.close()
            if line.startswith("No game window"):
                break
    finally:
        stand_in.close()
        out, err = process.communicate(timeout=60)
    lines += [line.strip() for line in out.splitlines() if line.strip()]
    assert process.returncode == 0, err
    assert err == ""
    assert any(line.startswith("Puzzle found: step on") for line in lines), lines
    assert any(line.startswith("No game window") for line in lines), lines


def _look_at_the_overlay(player: Player) -> None:
    """wine 9+: the overlay is a real window on Xvfb; keep a screenshot to look at."""
    import mss

    time.sleep(1.0)
    with mss.MSS(display=player.env["DISPLAY"]) as grabber:
        shot = grabber.grab(grabber.monitors[0])
        picture = np.frombuffer(shot.bgra, np.uint8).reshape(shot.height, shot.width, 4)
    target = wb.WORK / "smoke-overlay.png"
    cv2.imwrite(str(target), picture[..., :3])
    print(f"overlay screenshot: {target}")


def test_control_window_starts(player, bundle_before):
    """The control window (no subcommand) starts and keeps running with no error output.
    On the offscreen platform nothing outside the process can close it, so it is ended."""
    process = player.popen()
    try:
        time.sleep(8)
        assert process.poll() is None, process.communicate()[1]
    finally:
        process.terminate()
        out, err = process.communicate(timeout=60)
        wb.stop_wineserver(player.env)  # also ends the Windows process wine started
    assert err == "" and out == ""


def test_settings_land_in_appdata_and_are_read_back(player, bundle_before):
    title, colour = "no such game window 64", "#FF000080"
    saved = player.python_run("windows_settings_check.py", title, colour)
    assert saved.returncode == 0, saved.stderr
    report = json.loads(saved.stdout)
    assert report["closed"] and report["window_title"] == title
    appdata = player.windows_folder("APPDATA")
    settings = appdata / "toa-assistant" / "settings.toml"
    assert settings.is_file(), report
    assert title in settings.read_text(encoding="utf-8")
    # A second start: the executable reads them from %APPDATA% (no --window given).
    result = player.run("run", "--seconds", "3")
    assert result.returncode == 0, result.stderr
    assert f"No game window: no window title matches “{title}”." in result.stdout
    # A profile saved in the user folder is read back by a later start.
    profiles = appdata / "toa-assistant" / "profiles"
    profiles.mkdir(exist_ok=True)
    made = player.run("calibrate", "--image", "room.png", "--auto", "--out",
                      wb.windows_path(profiles / "room.json"))
    assert made.returncode == 0, made.stderr
    again = player.run("detect", "--json", "--profile", wb.windows_path(profiles / "room.json"),
                       "room.png")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["board"] == BOARD
    # Roaming settings (platformdirs' user config folder), never the local one.
    local = player.windows_folder("LOCALAPPDATA")
    assert not (local / "toa-assistant" / "settings.toml").exists()


def test_nothing_is_written_beside_the_executable(player, bundle_before):
    """Runs last (file order): every run above left the unpacked download as it was."""
    assert _files(player.unpacked) == bundle_before
