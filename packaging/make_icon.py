"""Draw the application icon with numpy + OpenCV and write every form the build needs.

The icon is the ToA light puzzle itself: eight sandstone plates in a ring around the
dark centre tile, five of them lit. Run from the repository root:

    python packaging/make_icon.py

Writes ``assistant/gui/icon.png`` (256 px, package data the app can show),
``packaging/icon.ico`` (Windows: 16-256 px, PNG-compressed entries) and
``packaging/icon.icns`` (macOS: 16-1024 px, PNG entries). The files are committed, so
the build itself never runs this script.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
MASTER = 1024
#: Which of the 3x3 cells are lit (row-major; the centre is the hole).
LIT = "101/0#1/110"

ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
#: ICNS element types that hold PNG data, by pixel size.
ICNS_TYPES = ((b"icp4", 16), (b"icp5", 32), (b"icp6", 64), (b"ic07", 128), (b"ic08", 256),
              (b"ic09", 512), (b"ic10", 1024))


def _rounded_mask(size: int, x0: float, y0: float, x1: float, y1: float, r: float) -> np.ndarray:
    """Anti-aliased coverage (0..1) of a rounded rectangle, sampled at pixel centres."""
    mask = np.zeros((size, size), np.float64)
    left, top = max(0, int(x0) - 1), max(0, int(y0) - 1)
    right, bottom = min(size, int(np.ceil(x1)) + 1), min(size, int(np.ceil(y1)) + 1)
    ys, xs = np.mgrid[top:bottom, left:right].astype(np.float64) + 0.5
    dx = np.maximum(np.maximum(x0 + r - xs, xs - (x1 - r)), 0.0)
    dy = np.maximum(np.maximum(y0 + r - ys, ys - (y1 - r)), 0.0)
    mask[top:bottom, left:right] = np.clip(0.5 - (np.hypot(dx, dy) - r), 0.0, 1.0)
    return mask


def _blend(image: np.ndarray, colour: tuple[int, int, int], alpha: np.ndarray) -> None:
    """Paint ``colour`` (BGR) over the BGRA ``image`` with coverage ``alpha`` (in place,
    only over the rows and columns ``alpha`` touches)."""
    rows, cols = np.flatnonzero(alpha.any(axis=1)), np.flatnonzero(alpha.any(axis=0))
    if rows.size == 0:
        return
    box = (slice(rows[0], rows[-1] + 1), slice(cols[0], cols[-1] + 1))
    region, a = image[box], alpha[box][..., None]
    region[..., :3] = region[..., :3] * (1.0 - a) + np.array(colour, np.float64) * a
    region[..., 3] = np.maximum(region[..., 3], a[..., 0] * 255.0)


def draw_icon(size: int = MASTER) -> np.ndarray:
    """The icon as a BGRA uint8 array of ``size`` x ``size`` pixels."""
    image = np.zeros((size, size, 4), np.float64)
    s = size / 1024.0
    # The floor: a dark sandstone tile with rounded corners.
    _blend(image, (38, 62, 92), _rounded_mask(size, 40 * s, 40 * s, 984 * s, 984 * s, 180 * s))
    _blend(image, (52, 84, 122), _rounded_mask(size, 70 * s, 70 * s, 954 * s, 954 * s, 155 * s))
    cells = LIT.split("/")
    pitch, plate = 290 * s, 238 * s
    origin = 512 * s - pitch
    centres = {(r, c): (origin + c * pitch, origin + r * pitch)
               for r, row in enumerate(cells) for c, _ in enumerate(row)}
    # One glow under all lit plates (blurred once: the blur is the slow part).
    glow = np.zeros((size, size), np.float32)
    for (r, c), (cx, cy) in centres.items():
        if cells[r][c] == "1":
            cv2.circle(glow, (round(cx), round(cy)), round(plate * 0.62), 1.0, -1,
                       lineType=cv2.LINE_AA)
    glow = cv2.GaussianBlur(glow, (0, 0), sigmaX=max(1.0, 38 * s))
    _blend(image, (90, 230, 255), np.minimum(glow.astype(np.float64), 1.0) * 0.85)
    for (r, c), (cx, cy) in centres.items():
        x0, y0 = cx - plate / 2, cy - plate / 2
        x1, y1 = cx + plate / 2, cy + plate / 2
        inner = _rounded_mask(size, x0 + 30 * s, y0 + 30 * s, x1 - 30 * s, y1 - 30 * s, 22 * s)
        outer = _rounded_mask(size, x0, y0, x1, y1, 36 * s)
        if cells[r][c] == "#":
            _blend(image, (24, 36, 52), _rounded_mask(size, x0, y0, x1, y1, 40 * s))
        elif cells[r][c] == "1":
            _blend(image, (70, 200, 250), outer)
            _blend(image, (170, 245, 255), inner)
        else:
            _blend(image, (70, 110, 150), outer)
            _blend(image, (88, 132, 176), inner)
    return np.clip(np.rint(image), 0, 255).astype(np.uint8)


def _png(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    if not ok:
        raise RuntimeError("OpenCV could not encode the icon as PNG")
    return data.tobytes()


def _resized(master: np.ndarray, size: int) -> np.ndarray:
    return master if size == master.shape[0] else cv2.resize(
        master, (size, size), interpolation=cv2.INTER_AREA)


def ico_bytes(master: np.ndarray, sizes=ICO_SIZES) -> bytes:
    """A Windows .ico whose entries are PNG images (supported since Windows Vista)."""
    blobs = [_png(_resized(master, n)) for n in sizes]
    header = struct.pack("<HHH", 0, 1, len(blobs))
    offset = len(header) + 16 * len(blobs)
    entries = b""
    for n, blob in zip(sizes, blobs, strict=True):
        side = 0 if n >= 256 else n  # 0 means 256 in the directory entry
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(blob), offset)
        offset += len(blob)
    return header + entries + b"".join(blobs)


def icns_bytes(master: np.ndarray, types=ICNS_TYPES) -> bytes:
    """A macOS .icns whose elements are PNG images."""
    body = b""
    for code, n in types:
        blob = _png(_resized(master, n))
        body += code + struct.pack(">I", 8 + len(blob)) + blob
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    master = draw_icon()
    targets = {
        ROOT / "assistant" / "gui" / "icon.png": _png(_resized(master, 256)),
        ROOT / "packaging" / "icon.ico": ico_bytes(master),
        ROOT / "packaging" / "icon.icns": icns_bytes(master),
    }
    for path, data in targets.items():
        path.write_bytes(data)
        print(f"wrote {path.relative_to(ROOT)} ({len(data) / 1024:.1f} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
