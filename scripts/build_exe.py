"""Build the executable from build.spec, pack what players download, and measure it.

    python scripts/build_exe.py               # dist/toa-assistant/ + dist/toa-assistant-*.tar.xz
    python scripts/build_exe.py --measure     # ... then print size, --version and start times
    python scripts/build_exe.py --measure-only          # measure the build already in dist/
                                              # (and the Windows zip from make exe-windows)
    python scripts/build_exe.py --compare     # one-folder vs one-file, built and measured

``make exe`` and ``make bench-exe`` run the first two. Figures are printed, never asserted:
this machine is shared. The start time is from process start until the window titled
exactly "ToA Light Assistant" is mapped, observed from outside with xdotool on a virtual
X server (Xvfb + openbox; see tests/x11.py).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))

import bundle  # noqa: E402  (packaging/bundle.py)

NAME = "toa-assistant"
EXE_SUFFIX = ".exe" if sys.platform == "win32" else ""
APP_TITLE = "ToA Light Assistant"
TARGET_MB, TARGET_VERSION_S, TARGET_START_S = 80.0, 1.0, 1.5


def pyinstaller(distpath: Path, workpath: Path, *, onefile: bool = False,
                clean: bool = False) -> None:
    """Run PyInstaller on build.spec (this interpreter's PyInstaller)."""
    if importlib.util.find_spec("PyInstaller") is None:
        raise SystemExit("PyInstaller is not installed here: run pip install -e '.[build]'.")
    env = dict(os.environ)
    env["TOA_BUILD_ONEFILE"] = "1" if onefile else ""
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
               "--distpath", str(distpath), "--workpath", str(workpath)]
    if clean:
        command.append("--clean")
    command.append(str(ROOT / "build.spec"))
    subprocess.run(command, check=True, env=env, cwd=ROOT)


def executable(distpath: Path, *, onefile: bool = False) -> Path:
    """The built program: the file itself (one-file) or the one inside the folder."""
    if onefile:
        return distpath / f"{NAME}{EXE_SUFFIX}"
    return distpath / NAME / f"{NAME}{EXE_SUFFIX}"


def bundle_root(distpath: Path) -> Path:
    """What is packed for players: the .app on macOS, else the one-folder bundle."""
    app = distpath / f"{NAME}.app"
    return app if sys.platform == "darwin" and app.exists() else distpath / NAME


def make_archive(distpath: Path, level: int = 9) -> Path:
    """Pack the one-folder bundle into the single file players download. ``level``: the
    compression level (9, the smallest download, for players; the test suite packs at 1:
    the same archive format, a quarter of the CPU time, a quarter larger)."""
    source = bundle_root(distpath)
    target = distpath / bundle.archive_name(bundle.version(ROOT))
    target.unlink(missing_ok=True)
    if sys.platform == "darwin":
        # ditto keeps the symbolic links inside the Qt frameworks and the .app's metadata.
        subprocess.run(["ditto", "-c", "-k", "--sequesterRsrc", "--keepParent",
                        str(source), str(target)], check=True)
    elif target.name.endswith(".zip"):
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as archive:
            for path in sorted(source.rglob("*")):
                archive.write(path, path.relative_to(source.parent))
    elif shutil.which("xz") and shutil.which("tar"):
        # The xz tool compresses on every core; Python's lzma uses one (3 minutes here).
        with target.open("wb") as out:
            tar = subprocess.Popen(["tar", "-C", str(source.parent), "-cf", "-", source.name],
                                   stdout=subprocess.PIPE)
            subprocess.run(["xz", f"-{level}", "-T0", "-c"], stdin=tar.stdout, stdout=out,
                           check=True)
            tar.stdout.close()
            if tar.wait() != 0:
                raise RuntimeError("tar failed while packing the bundle")
    else:
        with tarfile.open(target, "w:xz", preset=level) as archive:
            archive.add(source, arcname=source.name)
    return target


def tree_size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def _mb(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


def _env(config_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["TOA_ASSISTANT_CONFIG_DIR"] = str(config_dir)  # never the player's own settings
    return env


def version_times(exe: Path, runs: int) -> list[float]:
    """Wall-clock seconds of ``exe --version``, one per run."""
    times = []
    with tempfile.TemporaryDirectory() as config:
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run([str(exe), "--version"], check=True, capture_output=True,
                           env=_env(Path(config)), timeout=60)
            times.append(time.perf_counter() - start)
    return times


def start_times(exe: Path, runs: int) -> list[float]:
    """Seconds from process start until the control window is mapped, on a virtual X
    server, one per run (the first run is the first start after the build)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from x11 import start_x_server  # tests/x11.py: Xvfb + openbox + xcompmgr

    server, base = start_x_server(1600, 1000)
    times = []
    try:
        with tempfile.TemporaryDirectory() as config:
            env = server.env
            env.update(_env(Path(config)))
            env.pop("PYTHONPATH", None)
            for _ in range(runs):
                start = time.perf_counter()
                proc = subprocess.Popen([str(exe)], env=env, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
                try:
                    while True:
                        found = subprocess.run(
                            ["xdotool", "search", "--onlyvisible", "--name", f"^{APP_TITLE}$"],
                            env=env, capture_output=True, text=True, timeout=10,
                        ).stdout.strip()
                        if found:
                            times.append(time.perf_counter() - start)
                            break
                        if proc.poll() is not None:
                            raise RuntimeError(f"{exe} ended before its window appeared")
                        if time.perf_counter() - start > 60:
                            raise RuntimeError(f"{exe} showed no window in 60 s")
                        time.sleep(0.01)
                finally:
                    proc.terminate()
                    try:
                        proc.wait(10)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.wait()
    finally:
        for proc in reversed(base):
            proc.terminate()
            proc.wait(5)
    return times


def measure(distpath: Path, *, onefile: bool, runs: int, gui: bool = True) -> dict:
    """Print and return the figures of one build."""
    exe = executable(distpath, onefile=onefile)
    if not exe.exists():
        raise SystemExit(f"{exe} does not exist: build it first (make exe).")
    kind = "one-file" if onefile else "one-folder"
    figures: dict = {"kind": kind}
    if onefile:
        figures["download"] = tree_size(exe)
        print(f"{kind}: executable {_mb(figures['download'])} (what players download)")
    else:
        figures["unpacked"] = tree_size(bundle_root(distpath))
        archive = distpath / bundle.archive_name(bundle.version(ROOT))
        line = f"{kind}: folder {_mb(figures['unpacked'])}"
        if archive.exists():
            figures["download"] = archive.stat().st_size
            line += f", archive {archive.name} {_mb(figures['download'])} (what players download)"
        print(line)
    if "download" in figures:
        verdict = "meets" if figures["download"] <= TARGET_MB * 1e6 else "misses"
        print(f"  size: {verdict} the {TARGET_MB:.0f} MB target")
    times = version_times(exe, runs)
    figures["version"] = statistics.median(times)
    print(f"  --version: median {figures['version']:.3f} s of {runs} (first {times[0]:.3f} s, "
          f"max {max(times):.3f} s; target {TARGET_VERSION_S} s)")
    if gui and sys.platform.startswith("linux"):
        times = start_times(exe, runs)
        figures["start"] = statistics.median(times)
        print(f"  start to control window: median {figures['start']:.3f} s of {runs} "
              f"(first {times[0]:.3f} s, max {max(times):.3f} s; target {TARGET_START_S} s)")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--onefile", action="store_true", help="build the one-file variant")
    parser.add_argument("--clean", action="store_true", help="empty PyInstaller's cache first")
    parser.add_argument("--no-archive", action="store_true", help="skip the download archive")
    parser.add_argument("--pack-level", type=int, choices=range(1, 10), default=9,
                        metavar="1-9", help="compression of the download archive (default 9)")
    parser.add_argument("--measure", action="store_true", help="measure after building")
    parser.add_argument("--measure-only", action="store_true", help="measure the existing build")
    parser.add_argument("--compare", action="store_true",
                        help="build and measure one-folder and one-file (one-file in build/)")
    parser.add_argument("--runs", type=int, default=7, help="runs per timing (default 7)")
    parser.add_argument("--no-gui", action="store_true", help="skip the start-time measurement")
    parser.add_argument("--distpath", type=Path, default=ROOT / "dist")
    parser.add_argument("--workpath", type=Path, default=ROOT / "build")
    args = parser.parse_args(argv)

    variants = [False, True] if args.compare else [args.onefile]
    for onefile in variants:
        distpath = args.distpath
        if onefile and args.compare:
            distpath = args.workpath / "onefile-dist"  # beside, not over, the one-folder build
        if not args.measure_only:
            started = time.perf_counter()
            pyinstaller(distpath, args.workpath / ("onefile" if onefile else "onefolder"),
                        onefile=onefile, clean=args.clean)
            print(f"built {executable(distpath, onefile=onefile)} "
                  f"in {time.perf_counter() - started:.0f} s")
            if not onefile and not args.no_archive:
                started = time.perf_counter()
                archive = make_archive(distpath, args.pack_level)
                print(f"packed {archive} ({_mb(archive.stat().st_size)}) "
                      f"in {time.perf_counter() - started:.0f} s")
        if args.measure or args.measure_only or args.compare:
            measure(distpath, onefile=onefile, runs=args.runs, gui=not args.no_gui)
    if args.measure_only and sys.platform.startswith("linux"):
        measure_windows(args.distpath, args.runs)
    return 0


def measure_windows(distpath: Path, runs: int) -> None:
    """The Windows download built under wine (make exe-windows), when it is there: its
    size and ``--version`` time under wine (scripts/build_windows.py)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import build_windows

    archive = distpath / build_windows.archive_name()
    if not archive.is_file():
        print(f"windows: no {archive.name} in {distpath} (make exe-windows builds it)")
        return
    try:
        build_windows.measure(distpath, runs=runs)
    except build_windows.BuildError as error:
        print(f"windows: not measured: {error}")


if __name__ == "__main__":
    sys.exit(main())
