"""What goes into the PyInstaller bundle and what is left out; imported by build.spec.

Plain functions on names and paths, so they are unit-tested (tests/test_build_spec.py)
without running PyInstaller. See docs/adr/0040-executable-one-folder.md for the reasons.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path, PurePosixPath

__all__ = [
    "EXCLUDED_MODULES",
    "QT_KEPT_MODULES",
    "archive_name",
    "keep_entry",
    "keep_qt_plugin",
    "platform_hiddenimports",
    "strip_binaries",
    "strip_targets",
    "unused_qt_modules",
    "version",
]

#: The only Qt modules the assistant imports (assistant/gui is the only Qt user).
QT_KEPT_MODULES = ("QtCore", "QtGui", "QtWidgets")

#: Modules never bundled: other Qt bindings, tkinter, the optional clingo engine (the
#: executable answers with the internal engine; see the ADR), development tools, and the
#: repository's lab (synthetic rooms, benchmarks, soak: lab/, a source checkout's only).
EXCLUDED_MODULES = (
    "lab",
    "tkinter",
    "_tkinter",
    "turtle",
    "PyQt5",
    "PySide2",
    "PySide6",
    "shiboken2",
    "shiboken6",
    "PyQt6.uic",
    "PyQt6.lupdate",
    "clingo",
    "IPython",
    "matplotlib",
    "pytest",
    "_pytest",
    "pytestqt",
    "hypothesis",
    "setuptools",
    "pkg_resources",
    "pip",
    "PyInstaller",
    "ruff",
)

#: Qt plugin folders that are bundled, and which files in them (regular expressions on the
#: file name). Everything else under plugins/ is dropped: image formats (PNG is built into
#: QtGui), icon engines (SVG), GTK/portal themes, Wayland, EGL, TLS, network information.
QT_PLUGINS_KEPT = {
    # Linux: xcb (the real screen) and offscreen (headless use); Windows; macOS.
    "platforms": r"(libqxcb|libqoffscreen)\.so|qwindows\.dll|qoffscreen\.dll"
    r"|libqcocoa\.dylib|libqoffscreen\.dylib",
    # Without these Qt warns on stderr when the xcb platform starts.
    "xcbglintegrations": r".*",
    # Dead keys and compose sequences in the manual window's inputs.
    "platforminputcontexts": r"libcomposeplatforminputcontextplugin\.so",
    # The native widget style on Windows and macOS; macOS platform helpers.
    "styles": r".*",
    "platforms/darwin": r".*",
}

_QT_PLUGINS = re.compile(r"^PyQt6/Qt6?/plugins/(.+)/([^/]+)$")
_DROPPED_PREFIXES = (
    "PyQt6/Qt6/translations/",  # the assistant speaks English only
    "PyQt6/Qt/translations/",
    "PyQt6/Qt6/qml/",
    "PyQt6/Qt6/qsci/",
    "cv2/data/",  # Haar cascades: the reader does not use them
    # Windows: OpenCV's FFmpeg video plugin, loaded only by cv2.VideoCapture/VideoWriter
    # (on Linux and macOS the FFmpeg libraries are linked by cv2 itself and stay).
    "cv2/opencv_videoio_ffmpeg",
)

#: File names dropped wherever they are: on Windows, Qt's software OpenGL renderer and the
#: Direct3D shader compiler (for OpenGL and Qt Quick; the widgets paint without them).
_DROPPED_NAMES = re.compile(r"(?i)^(opengl32sw\.dll|d3dcompiler_\d+\.dll)$")

#: Binaries stripped on Linux (``strip --strip-unneeded``: symbols no other file links
#: against; debug sections): the Python library carries ~16 MB of them, PyQt6's modules
#: ~5 MB. Wheels repaired by auditwheel (numpy, OpenCV) are left alone: strip can break
#: the files patchelf rewrote.
_STRIPPED = re.compile(r"^(libpython3[^/]*\.so[^/]*|PyQt6/[^/]+\.so)$")


def keep_qt_plugin(plugin_type: str, file_name: str) -> bool:
    """Whether a Qt plugin (its folder under plugins/ and its file name) is bundled.

    >>> keep_qt_plugin("platforms", "libqxcb.so")
    True
    >>> keep_qt_plugin("imageformats", "libqsvg.so")
    False
    """
    pattern = QT_PLUGINS_KEPT.get(plugin_type)
    return pattern is not None and re.fullmatch(pattern, file_name) is not None


def keep_entry(dest: str) -> bool:
    """Whether a bundle entry (its destination path inside the bundle) is kept.

    >>> keep_entry("PyQt6/Qt6/plugins/platforms/libqxcb.so")
    True
    >>> keep_entry("PyQt6/Qt6/plugins/imageformats/libqsvg.so")
    False
    >>> keep_entry("PyQt6/Qt6/translations/qtbase_de.qm")
    False
    """
    path = PurePosixPath(dest.replace("\\", "/")).as_posix()
    if path.startswith(_DROPPED_PREFIXES) or _DROPPED_NAMES.match(path.rsplit("/", 1)[-1]):
        return False
    match = _QT_PLUGINS.match(path)
    if match:
        return keep_qt_plugin(*match.groups())
    return True


def strip_targets(binaries: list[tuple[str, str, str]]) -> list[int]:
    """Indexes of the bundle's binaries (dest, src, typecode) that are stripped on Linux."""
    return [
        index
        for index, (dest, _src, _kind) in enumerate(binaries)
        if _STRIPPED.match(dest.replace("\\", "/"))
    ]


def strip_binaries(
    binaries: list[tuple[str, str, str]], folder: Path
) -> list[tuple[str, str, str]]:
    """The binaries with stripped copies (made in ``folder``) in place of the targets;
    unchanged where there is no ``strip`` program."""
    strip = shutil.which("strip")
    if strip is None or not sys.platform.startswith("linux"):
        return list(binaries)
    result = list(binaries)
    for index in strip_targets(binaries):
        dest, src, kind = binaries[index]
        copy = folder / dest
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, copy)
        subprocess.run([strip, "--strip-unneeded", str(copy)], check=True)
        result[index] = (dest, str(copy), kind)
    return result


def unused_qt_modules() -> list[str]:
    """Every ``PyQt6.Qt*`` extension module installed here except Core, Gui and Widgets."""
    spec = importlib.util.find_spec("PyQt6")
    if spec is None or not spec.submodule_search_locations:
        return []
    names = set()
    for folder in spec.submodule_search_locations:
        for path in Path(folder).iterdir():
            stem = path.name.split(".", 1)[0]
            if stem.startswith("Qt") and path.suffix in {".so", ".pyd"} and stem not in (
                QT_KEPT_MODULES
            ):
                names.add(f"PyQt6.{stem}")
    return sorted(names)


def platform_hiddenimports(platform: str = sys.platform) -> list[str]:
    """The window-tracking modules assistant.capture imports lazily (pywinctl connects to
    the X server at import time, so it is imported only when needed), with their
    platform back-ends, which they import inside ``if sys.platform`` branches."""
    suffix = {"linux": "linux", "win32": "win", "darwin": "macos"}.get(platform, "linux")
    names = [
        "pywinctl",
        "pymonctl",
        "pywinbox",
        f"pywinctl._pywinctl_{suffix}",
        f"pymonctl._pymonctl_{suffix}",
        f"pywinbox._pywinbox_{suffix}",
    ]
    if suffix == "linux":
        names += ["ewmhlib", "Xlib", "Xlib.display"]  # the Xlib hook adds Xlib.ext.*
    return names


def version(root: Path) -> str:
    """``__version__`` from assistant/__init__.py, read without importing the package."""
    text = (root / "assistant" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__\s*=\s*"([^"]+)"', text, re.MULTILINE)
    if match is None:
        raise ValueError("assistant/__init__.py has no __version__ line")
    return match.group(1)


def archive_name(ver: str, platform: str = sys.platform, machine: str | None = None) -> str:
    """The file players download for a one-folder build, e.g.
    ``toa-assistant-0.1.0-linux-x86_64.tar.xz`` (``.zip`` on Windows and macOS; xz keeps
    the Linux download under the 80 MB target where gzip gave 123 MB)."""
    import platform as platform_module

    machine = (machine or platform_module.machine()).lower().replace("amd64", "x86_64")
    system = {"win32": "windows", "darwin": "macos"}.get(platform, platform)
    suffix = ".tar.xz" if system not in {"windows", "macos"} else ".zip"
    return f"toa-assistant-{ver}-{system}-{machine}{suffix}"
