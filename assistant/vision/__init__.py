"""The reader: find the puzzle in a frame and tell lit from unlit, or say why not.

Pure numpy/OpenCV, no Qt: frames come in as numpy arrays (BGR or BGRA, as mss and
OpenCV give them), readings go out as plain dataclasses. The overlay imports the
geometry and the radii from here so that it never draws where the reader looks.

Importing the package loads none of its modules: each name below is loaded from its
module on first use. :mod:`assistant.profile`, a layer under the reader, imports
:mod:`assistant.vision.geometry`, which runs this file first, and the reader imports the
profile; loading the reader here would make that a cycle.
"""

from __future__ import annotations

from importlib import import_module

#: each name the package offers, and the module it comes from
_EXPORTS = {
    "CONFIDENT": "assistant.vision.appearance",
    "FALLBACK_CONFIDENCE": "assistant.vision.appearance",
    "Look": "assistant.vision.appearance",
    "classify": "assistant.vision.appearance",
    "CORNER_NAMES": "assistant.vision.geometry",
    "MARK_INNER_RADIUS": "assistant.vision.geometry",
    "MARK_OUTER_RADIUS": "assistant.vision.geometry",
    "PLATE_RADIUS": "assistant.vision.geometry",
    "SAMPLE_RADIUS": "assistant.vision.geometry",
    "GridGeometry": "assistant.vision.geometry",
    "geometry_from_corners": "assistant.vision.geometry",
    "RingFit": "assistant.vision.locate",
    "follow_ring": "assistant.vision.locate",
    "locate_ring": "assistant.vision.locate",
    "NOT_IN_VIEW": "assistant.vision.reading",
    "FrameError": "assistant.vision.reading",
    "Reading": "assistant.vision.reading",
    "TileReading": "assistant.vision.reading",
    "as_bgr": "assistant.vision.reading",
    "follow_frame": "assistant.vision.reader",
    "read_frame": "assistant.vision.reader",
}

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


def __getattr__(name: str) -> object:
    """A name of :data:`__all__`, loaded from its module (then kept here)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
