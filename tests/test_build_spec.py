"""What build.spec puts in the executable (packaging/bundle.py), the icon files and the
macOS keys: checked without running PyInstaller (tests/test_build_smoke.py builds it)."""

from __future__ import annotations

import plistlib
import struct
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

import assistant

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "packaging"))

import bundle  # noqa: E402  (packaging/bundle.py)
import make_icon  # noqa: E402  (packaging/make_icon.py)


@pytest.mark.parametrize(
    ("dest", "kept"),
    [
        ("PyQt6/Qt6/plugins/platforms/libqxcb.so", True),
        ("PyQt6/Qt6/plugins/platforms/libqoffscreen.so", True),
        ("PyQt6/Qt6/plugins/platforms/libqwayland.so", False),
        ("PyQt6/Qt6/plugins/platforms/libqeglfs.so", False),
        ("PyQt6\\Qt6\\plugins\\platforms\\qwindows.dll", True),
        ("PyQt6/Qt6/plugins/platforms/libqcocoa.dylib", True),
        ("PyQt6/Qt6/plugins/styles/qmodernwindowsstyle.dll", True),
        ("PyQt6/Qt6/plugins/xcbglintegrations/libqxcb-glx-integration.so", True),
        ("PyQt6/Qt6/plugins/imageformats/libqjpeg.so", False),
        ("PyQt6/Qt6/plugins/iconengines/libqsvgicon.so", False),
        ("PyQt6/Qt6/plugins/platformthemes/libqgtk3.so", False),
        ("PyQt6/Qt6/plugins/tls/libqopensslbackend.so", False),
        ("PyQt6/Qt6/plugins/platforminputcontexts/libibusplatforminputcontextplugin.so", False),
        ("PyQt6/Qt6/plugins/platforminputcontexts/libcomposeplatforminputcontextplugin.so", True),
        ("PyQt6/Qt6/translations/qtbase_de.qm", False),
        ("cv2/data/haarcascade_frontalface_default.xml", False),
        ("cv2\\opencv_videoio_ffmpeg4100_64.dll", False),
        ("PyQt6\\Qt6\\bin\\opengl32sw.dll", False),
        ("PyQt6\\Qt6\\bin\\d3dcompiler_47.dll", False),
        ("PyQt6\\Qt6\\bin\\Qt6Gui.dll", True),
        ("PyQt6/Qt6/lib/libQt6Core.so.6", True),
        ("cv2/cv2.abi3.so", True),
        ("opencv_python_headless.libs/libavcodec-c4204469.so.62.28.101", True),
        ("assistant/presets/toa.json", True),
    ],
)
def test_bundle_entries_kept_and_dropped(dest, kept):
    assert bundle.keep_entry(dest) is kept


def test_only_core_gui_and_widgets_of_qt():
    unused = bundle.unused_qt_modules()
    assert "PyQt6.QtNetwork" in unused and "PyQt6.QtQml" in unused
    assert not {"PyQt6.QtCore", "PyQt6.QtGui", "PyQt6.QtWidgets"} & set(unused)
    assert {"tkinter", "PySide6", "PyQt5", "clingo"} <= set(bundle.EXCLUDED_MODULES)


def test_the_lab_is_left_out_of_the_executable():
    """The spec collects every module under assistant/ (the subcommands are imported by
    name): the lab (synthetic rooms, walk-throughs, benchmarks, soak) lives beside it in
    the repository, and is excluded should anything name it."""
    assert "lab" in bundle.EXCLUDED_MODULES
    product = {path.stem for path in (REPO / "assistant").rglob("*.py")}
    assert not {"scene", "scene3d", "walkthrough", "recorder_bench", "soak"} & product
    assert not [name for name in product if name.startswith("bench")]


@pytest.mark.parametrize(
    ("platform", "backend"),
    [("linux", "pywinctl._pywinctl_linux"), ("win32", "pywinctl._pywinctl_win"),
     ("darwin", "pywinctl._pywinctl_macos")],
)
def test_lazily_imported_window_modules_are_hidden_imports(platform, backend):
    names = bundle.platform_hiddenimports(platform)
    assert {"pywinctl", "pymonctl", "pywinbox", backend} <= set(names)
    assert ("ewmhlib" in names) is (platform == "linux")


def test_strip_targets_are_the_python_library_and_pyqt_modules():
    binaries = [
        ("libpython3.11.so.1.0", "/x/libpython3.11.so.1.0", "BINARY"),
        ("PyQt6/QtCore.abi3.so", "/x/QtCore.abi3.so", "EXTENSION"),
        ("numpy.libs/libscipy_openblas64_-32a4b2a6.so", "/x/o.so", "BINARY"),
        ("cv2/cv2.abi3.so", "/x/cv2.abi3.so", "EXTENSION"),
        ("PyQt6/Qt6/lib/libQt6Core.so.6", "/x/libQt6Core.so.6", "BINARY"),
    ]
    assert bundle.strip_targets(binaries) == [0, 1]


def test_version_and_archive_name():
    assert bundle.version(REPO) == assistant.__version__
    name = bundle.archive_name
    assert name("0.1.0", "linux", "x86_64") == "toa-assistant-0.1.0-linux-x86_64.tar.xz"
    assert name("0.1.0", "win32", "AMD64") == "toa-assistant-0.1.0-windows-x86_64.zip"
    assert name("0.1.0", "darwin", "arm64") == "toa-assistant-0.1.0-macos-arm64.zip"


def test_shipped_profiles_and_icon_are_where_the_spec_takes_them():
    assert (REPO / "calibration" / "__init__.py").is_file()
    assert list((REPO / "calibration").glob("*.json"))
    icon = cv2.imread(str(REPO / "assistant" / "gui" / "icon.png"), cv2.IMREAD_UNCHANGED)
    assert icon.shape == (256, 256, 4)


def test_committed_icon_is_what_the_script_draws():
    drawn = cv2.resize(make_icon.draw_icon(), (256, 256), interpolation=cv2.INTER_AREA)
    committed = cv2.imread(str(REPO / "assistant" / "gui" / "icon.png"), cv2.IMREAD_UNCHANGED)
    assert np.abs(drawn.astype(int) - committed.astype(int)).max() <= 2


def test_windows_icon_holds_png_images_from_16_to_256():
    data = (REPO / "packaging" / "icon.ico").read_bytes()
    reserved, kind, count = struct.unpack_from("<HHH", data)
    assert (reserved, kind, count) == (0, 1, len(make_icon.ICO_SIZES))
    sizes = []
    for index in range(count):
        width, _h, _c, _r, _p, _b, length, offset = struct.unpack_from(
            "<BBBBHHII", data, 6 + 16 * index)
        image = cv2.imdecode(np.frombuffer(data[offset:offset + length], np.uint8),
                             cv2.IMREAD_UNCHANGED)
        assert image.shape[0] == (width or 256)
        sizes.append(width or 256)
    assert sizes == list(make_icon.ICO_SIZES)


def test_macos_icon_holds_png_images_up_to_1024():
    data = (REPO / "packaging" / "icon.icns").read_bytes()
    assert data[:4] == b"icns" and struct.unpack_from(">I", data, 4)[0] == len(data)
    offset, found = 8, {}
    while offset < len(data):
        code, length = data[offset:offset + 4], struct.unpack_from(">I", data, offset + 4)[0]
        image = cv2.imdecode(np.frombuffer(data[offset + 8:offset + length], np.uint8),
                             cv2.IMREAD_UNCHANGED)
        found[code] = image.shape[0]
        offset += length
    assert found == dict(make_icon.ICNS_TYPES)


def test_macos_keys_ask_for_screen_recording_and_high_dpi():
    with (REPO / "packaging" / "macos-info.plist").open("rb") as handle:
        keys = plistlib.load(handle)
    assert "screen" in keys["NSScreenCaptureUsageDescription"].lower()
    assert keys["NSHighResolutionCapable"] is True


def test_pip_installs_every_package_of_the_assistant_and_not_the_lab():
    """pyproject.toml lists its packages: each package folder under assistant/ is there
    (a missing one would leave an installed demo without its room), the lab is not."""
    import tomllib

    config = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    folders = {
        ".".join(path.parent.relative_to(REPO).parts)
        for path in (REPO / "assistant").rglob("__init__.py")
    }
    assert folders <= listed
    assert "assistant.demo_room" in listed
    assert not [name for name in listed if name.split(".")[0] == "lab"]
