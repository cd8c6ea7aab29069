"""The names other modules import from here, kept: where on the floor a turn or zoom of
the camera pivoted is told in :mod:`assistant.session.camera`, with the rest of the
camera's motion.
"""

from __future__ import annotations

from assistant.session.camera import MIN_PIVOT_MOTION, MIN_SIMILAR, Pivot, camera_pivot

__all__ = ["MIN_PIVOT_MOTION", "MIN_SIMILAR", "Pivot", "camera_pivot"]
