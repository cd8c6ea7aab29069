"""``run --record`` and ``demo --record`` on a real X server: the report is written when
the run stops (SIGTERM, --seconds, the game window gone for good) and replays to the
same marks (``detect --sequence DIR --diff`` exits 0)."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading

import pytest
from x11 import start_x_server, wait_for

from assistant.report import open_report

pytestmark = pytest.mark.x11

TITLE = "RuneLite stand-in"


@pytest.fixture(scope="module")
def xserver():
    server, base = start_x_server(1400, 1000)
    yield server
    server.stop_apps()
    for proc in reversed(base):
        proc.terminate()
        proc.wait(5)


def _read_lines(proc) -> list[str]:
    """The lines ``proc`` prints, collected as they come (a thread: never blocks)."""
    lines: list[str] = []

    def read() -> None:
        for line in proc.stdout:
            lines.append(line)

    threading.Thread(target=read, daemon=True).start()
    return lines


def _window_open(server) -> bool:
    try:
        return TITLE in server.xdotool("search", "--name", TITLE, "getwindowname")
    except subprocess.CalledProcessError:
        return False


def _replays_the_same(server, report) -> None:
    result = subprocess.run([sys.executable, "-m", "assistant", "detect", "--sequence",
                             str(report), "--diff"], env=server.env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1].startswith("0 of ")


def test_demo_record_saves_when_the_room_closes_and_replays_the_same(xserver, tmp_path):
    report = tmp_path / "demo report"
    demo = xserver.start_app("demo", "--board", "111/0#0/110", "--seconds", "5",
                             "--record", str(report))
    out, err = demo.communicate(timeout=60)
    assert demo.returncode == 0, err
    assert f"Report saved in {report}" in out
    about = open_report(report).about
    assert about["frames"] >= 10 and about["from_start"] and about["settings"]["fps"] == 10
    _replays_the_same(xserver, report)


def test_run_record_saves_on_sigterm_and_when_the_game_is_gone(xserver, tmp_path):
    room = xserver.start_app("demo", "--room-only", "--title", TITLE, "--board", "111/0#0/110")
    assert wait_for(lambda: _window_open(xserver), timeout=20)
    first = tmp_path / "first.zip"
    run = xserver.start_app("run", "--window", f"^{TITLE}$", "--record", str(first))
    lines = _read_lines(run)
    assert wait_for(lambda: any(line.startswith("Puzzle found") for line in lines), timeout=30)
    run.send_signal(signal.SIGTERM)
    assert run.wait(30) == 0, run.stderr.read()
    assert wait_for(lambda: any(f"Report saved in {first}" in line for line in lines),
                    timeout=5)
    _replays_the_same(xserver, first)

    second = tmp_path / "second"
    run = xserver.start_app("run", "--window", f"^{TITLE}$", "--record", str(second))
    lines = _read_lines(run)
    assert wait_for(lambda: any(line.startswith("Puzzle found") for line in lines), timeout=30)
    room.terminate()
    room.wait(10)
    assert run.wait(60) == 0, run.stderr.read()  # ends by itself once the window is gone
    assert wait_for(lambda: any(f"Report saved in {second}" in line for line in lines),
                    timeout=5)
    assert any("No game window" in line for line in lines)
    kinds = [frame["shown"]["kind"] for frame in open_report(second).frames]
    assert "steps" in kinds and kinds[-1] == "no-window"


def test_record_to_a_folder_in_use_is_one_sentence_before_anything_runs(xserver, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    result = subprocess.run([sys.executable, "-m", "assistant", "run", "--window", "x",
                             "--record", str(tmp_path)], env=xserver.env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2 and "already exists" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert (tmp_path / "notes.txt").read_text() == "mine"
