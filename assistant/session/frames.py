"""A grabbed picture as a value: its pixels, where they start and when they were grabbed.

The live loop grabs and the session reads; nothing the session does reaches back into
the grabber. When the tracker needs the whole window (:mod:`assistant.session.tracker`),
it says so, and the loop grabs it and hands it over as another :class:`Frame`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["Frame"]


@dataclass(frozen=True)
class Frame:
    """``pixels`` (BGR or BGRA, as the grabber gives them) grabbed at ``origin`` in the
    captured area (pixels from its top-left corner; (0, 0) for the whole area) at
    ``grabbed_at`` on the loop's clock (None: not known, such as a picture without a
    capture time)."""

    pixels: np.ndarray = field(repr=False)
    origin: tuple[int, int] = (0, 0)
    grabbed_at: float | None = None
