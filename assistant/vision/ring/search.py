"""The fresh ring search: blobs, candidates and refits, then the decision on the picture.

Gold blobs are cheap to find and every plate has one (its diamond), but so do statues,
items and the UI. What no look-alike has is the *arrangement*: eight blobs of one size on
a 3x3 lattice without its middle, each inside a purple frame more purple than the floor
around it. So the search finds the blobs (:mod:`~assistant.vision.ring.blobs`), places the
ring through them (:mod:`~assistant.vision.ring.candidates`,
:mod:`~assistant.vision.ring.refit`), checks each candidate's frames and floor
(:mod:`~assistant.vision.ring.frames`) and decides by named rules
(:mod:`~assistant.vision.ring.decide`): one ring, none, or several.
Frames wider than 1400 pixels are searched at half resolution first.
"""

from __future__ import annotations

import numpy as np

from assistant.vision.ring.blobs import BLOBS, gold_blobs
from assistant.vision.ring.candidates import CANDIDATES, ring_hypotheses
from assistant.vision.ring.decide import DECISION, STAGE, Search, accepted_rings, answer
from assistant.vision.ring.shape import FIT, Blobs, RingFit
from assistant.vision.trace import note


def locate_ring(frame: np.ndarray, *, diamonds_needed: int = FIT.min_diamonds,
                fewer_needed: int | None = None, cut_strokes: bool = False,
                ) -> tuple[RingFit | None, str | None]:
    """Find the ToA ring in a BGR(A) frame, on at least ``diamonds_needed`` diamonds
    (:attr:`FitParams.min_diamonds`; the live loop asks for
    :attr:`FitParams.min_diamonds_after_last_view` when nothing else finds the ring it
    found a moment ago).

    ``fewer_needed``: when no ring is found on ``diamonds_needed`` diamonds, look again on
    this many, through the gold blobs already found (a second search of its own would
    find them again, which is most of a search's time), the lattice checked by the
    frames about its places as a search on fewer always is.

    A frame too small to be searched at half resolution first is searched there last, on
    ``diamonds_needed``, when full resolution found a lattice through them and turned it
    down: a client stretched by display scaling blurs the diamonds' edges, and at full
    resolution their centres may scatter past an exact ring's fit (1.5% of the spacing
    at a steep camera and 150% scaling) where half resolution's averaged ones do not
    (0.7%). Not without such a lattice (out of the room every frame is searched, at no
    cost more), nor on ``fewer_needed`` (a body's gold merged with a diamond counts as
    one at half; the fewer whole ones at full place the ring better).

    Returns
    -------
    (fit, None) when exactly one ring is found; ``(None, reason)`` otherwise, where the
    reason is ``"not-found"`` or ``"several"``.
    """
    height, width = frame.shape[:2]
    blobs_at: dict[int, Blobs] = {}
    wanted = (diamonds_needed,) if fewer_needed is None or fewer_needed >= diamonds_needed \
        else (diamonds_needed, fewer_needed)
    small = max(width, height) <= BLOBS.half_resolution_above
    # big frames are searched at half resolution first (fast), then, only if that finds
    # nothing, at full resolution (plates spaced less than ~32 px vanish at half); small
    # ones at full resolution, and at half only after a lattice was turned down (above)
    factors = (1,) if small else (2, 1)
    searches = [(needed, factor) for needed in wanted for factor in factors]
    turned_down = False
    for needed, factor in searches:
        fit, why = locate_at(frame, factor, needed, blobs_at, cut_strokes)
        if fit is not None or why == "several":
            return fit, why
        turned_down |= why == "turned-down" and needed == diamonds_needed
    if turned_down and small:
        note(STAGE, "a lattice was turned down at full resolution: half resolution too")
        fit, why = locate_at(frame, 2, diamonds_needed, blobs_at, cut_strokes)
        if fit is not None or why == "several":
            return fit, why
    return None, "not-found"


def locate_at(frame: np.ndarray, factor: int, needed: int, blobs_at: dict[int, Blobs],
              cut_strokes: bool = False) -> tuple[RingFit | None, str | None]:
    """One search at 1/``factor`` resolution; ``blobs_at`` keeps the gold blobs found per
    factor for a second search of the same frame. Besides :func:`locate_ring`'s reasons,
    ``"turned-down"``: lattices through enough diamonds were found, none taken."""
    bgr = frame[..., :3]
    if factor not in blobs_at:
        blobs_at[factor] = gold_blobs(frame, factor, cut_strokes=cut_strokes)
    blobs = blobs_at[factor]
    resolution = "full resolution" if factor == 1 else f"1/{factor} resolution"
    note(STAGE, f"{resolution}, {needed} diamonds: {len(blobs.areas)} gold blobs"
                + (f", {blobs.cut} cut from strokes" if cut_strokes else ""))
    if len(blobs.areas) < needed or (cut_strokes and not blobs.cut):
        return None, "not-found"  # too few, or nothing cut: the plain search found nothing
    # a ring on fewer diamonds than a search trusts must show its frames about most places
    framed = DECISION.framed_on_fewer if needed < FIT.min_diamonds else 0
    candidates = ring_hypotheses(blobs, CANDIDATES.near_spans, needed, "near")
    accepted = accepted_rings(bgr, blobs, candidates, framed)
    if not accepted:
        # a corner's two neighbours hidden on opposite sides (a player on one edge plate, a
        # team-mate on the opposite one): span the lattice from a corner to the far ones
        far = ring_hypotheses(blobs, CANDIDATES.far_spans, needed, "far")
        accepted = accepted_rings(bgr, blobs, far, framed, first_number=len(candidates) + 1)
        candidates = candidates + far
    return answer(Search(bgr, blobs, needed, candidates, accepted))
