"""The reader: find the puzzle in a frame and tell lit from unlit, or say why not.

Pure numpy/OpenCV, no Qt: frames come in as numpy arrays (BGR or BGRA, as mss and
OpenCV give them), readings go out as plain dataclasses. The overlay imports the
geometry and the radii from here so that it never draws where the reader looks.
"""

from assistant.vision.appearance import CONFIDENT, FALLBACK_CONFIDENCE, Look, classify
from assistant.vision.geometry import (
    CORNER_NAMES,
    MARK_INNER_RADIUS,
    MARK_OUTER_RADIUS,
    PLATE_RADIUS,
    SAMPLE_RADIUS,
    GridGeometry,
    geometry_from_corners,
)
from assistant.vision.locate import RingFit, follow_ring, locate_ring
from assistant.vision.reader import (
    NOT_IN_VIEW,
    FrameError,
    Reading,
    TileReading,
    as_bgr,
    follow_frame,
    read_frame,
)

__all__ = [
    "CONFIDENT",
    "CORNER_NAMES",
    "FALLBACK_CONFIDENCE",
    "MARK_INNER_RADIUS",
    "MARK_OUTER_RADIUS",
    "NOT_IN_VIEW",
    "PLATE_RADIUS",
    "SAMPLE_RADIUS",
    "FrameError",
    "GridGeometry",
    "Look",
    "Reading",
    "RingFit",
    "TileReading",
    "as_bgr",
    "classify",
    "follow_frame",
    "follow_ring",
    "geometry_from_corners",
    "locate_ring",
    "read_frame",
]
