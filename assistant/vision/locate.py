"""Find the ToA ring of 8 plates anywhere in a frame, at any rotation and scale: the ring
search's public face.

The search is a line of stages in :mod:`assistant.vision.ring` (blobs, candidate
placements, refits, evidence on the picture, the decision), each with its thresholds in a
frozen parameter dataclass. This module names what the rest of the reader and the live
loop use of it, so they need not know how the stages are cut:

- :func:`locate_ring`: a fresh search of a picture;
- :func:`follow_ring`: the ring found again from the last view, moved;
- :func:`agrees_with_last_view`, :func:`ring_in_place`, :func:`whole_diamonds`,
  :func:`plate_in_the_middle`, :func:`framed_places`: checks of a placement held;
- :func:`ring_placed_by`, :func:`bent_by_one_blob`, :func:`pulled_blob`: a placement
  refitted from some of its own diamonds.
"""

from __future__ import annotations

from assistant.vision.ring.checks import (
    CHECKS,
    bent_by_one_blob,
    pulled_blob,
    ring_in_place,
    ring_placed_by,
    whole_diamonds,
)
from assistant.vision.ring.follow import FOLLOW, agrees_with_last_view, follow_ring
from assistant.vision.ring.frames import framed_places, plate_in_the_middle
from assistant.vision.ring.search import locate_ring
from assistant.vision.ring.shape import (
    FIT,
    RING_CELLS,
    RingFit,
    exact_fit_for,
    roll_skew,
    same_places,
)

__all__ = ["CENTROID_NOISE_PX", "EXACT_RING_FIT", "IN_PLACE_TOLERANCE",
           "LAST_VIEW_AGREEMENT", "LOOSE_FIT", "MAX_ROLL_SKEW", "MIN_DIAMONDS",
           "MIN_DIAMONDS_AFTER_LAST_VIEW", "RING_CELLS", "RingFit",
           "agrees_with_last_view", "bent_by_one_blob", "exact_fit_for", "follow_ring",
           "framed_places", "locate_ring", "plate_in_the_middle", "pulled_blob",
           "ring_in_place", "ring_placed_by", "roll_skew", "same_places", "whole_diamonds"]

#: diamonds a fresh search needs (:attr:`~assistant.vision.ring.shape.FitParams.min_diamonds`)
MIN_DIAMONDS = FIT.min_diamonds
#: ... when the live loop found the ring a moment ago
MIN_DIAMONDS_AFTER_LAST_VIEW = FIT.min_diamonds_after_last_view
#: a fit within this (RMS, of the spacing) is exact
EXACT_RING_FIT = FIT.exact_ring_fit
#: a fit this loose or looser may lean on a blob that is no diamond
LOOSE_FIT = FIT.loose_fit
#: the most a fit may skew the floor (a camera never rolls)
MAX_ROLL_SKEW = FIT.max_roll_skew
#: pixels (RMS): no diamond's centre is surer
CENTROID_NOISE_PX = FIT.centroid_noise_px
#: a diamond this near (of the spacing) where the last search put it: the view is the same
IN_PLACE_TOLERANCE = CHECKS.in_place_tolerance
#: a located ring and the last view moved agree when every place is this near (of the
#: spacing)
LAST_VIEW_AGREEMENT = FOLLOW.last_view_agreement

# the live loop's tests look into this check by the name it had here
from assistant.vision.ring.frames import frames_too_thin as _frames_too_thin  # noqa: E402, F401
