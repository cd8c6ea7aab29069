"""Whether something stands on a plate the reader could not read.

A plate the reader sets aside is one of two things. *Covered*: a figure (or a weapon's
stroke) stands over it, and shows colours that are neither plate nor floor, over its
diamond or across its frame. *Unclear*: it is in plain view but its pixels do not tell
lit from unlit for sure (a far plate through strong JPEG, whose 8-pixel blocks are as
big as its diamond). Only the first is "someone stands on it"; saying so of the second
is false, and a screenshot shared on a chat service is usually a small JPEG.

The evidence is relative, as everything in the reader: a plate is compared with the
plates of the same frame that were read, at the same places on the plate (in grid units,
so the camera's slant is the same for all). Compression, gamma, a client's colours and
the camera spoil every plate alike; a figure spoils one. Covered needs one of:

* a run of the plate's frame (the purple octagon round the diamond) unlike every read
  plate's frame there, as long as a leg or a stroke across it;
* much of the diamond unlike both looks of the read plates (and not gold: gold clothes
  are no proof of a body, nor of a plate, so they leave the plate unclear).
"""

from __future__ import annotations

import cv2
import numpy as np

from assistant.vision.geometry import SAMPLE_OFFSETS, GridGeometry, pixels_at

__all__ = ["CoverParams", "covered"]


class CoverParams:
    """The evidence a covered verdict needs (grid units, Lab units, counts). Measured on
    the drawn figure families (bench-vision) and the real screenshot's pixels turned,
    pitched, scaled and compressed (nobody on the plates): see docs/adr."""

    #: the frame ring's radii (the diamond ends at 0.165, the octagon at about 0.26)
    RING_RADII = (0.20, 0.235)
    #: places round the ring
    RING_PLACES = 24
    #: a place unlike the read plates' frames: this many times their own spread there, and
    #: at least FLOOR_LAB apart (Lab: 100 from black to white)
    UNLIKE_SPREADS = 4.0
    FLOOR_LAB = 12.0
    #: a run of unlike places round the ring this long is a leg or a stroke across it
    RING_RUN = 4
    #: this share of the diamond's sampled points unlike both looks (and not gold) is a body
    DIAMOND_SHARE = 0.35


def _lab(bgr: np.ndarray) -> np.ndarray:
    """Float Lab (L 0-100) of BGR colours of any shape (..., 3)."""
    shape = bgr.shape
    flat = np.clip(bgr.reshape(-1, 1, 3), 0, 255).astype(np.float32) / 255.0
    return cv2.cvtColor(flat, cv2.COLOR_BGR2LAB).reshape(shape).astype(np.float64)


def _ring_offsets(params: type[CoverParams]) -> np.ndarray:
    angles = np.linspace(0.0, 2 * np.pi, params.RING_PLACES, endpoint=False)
    unit = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    return np.concatenate([unit * radius for radius in params.RING_RADII])


def _unlike(samples: np.ndarray, references: np.ndarray, params: type[CoverParams]
            ) -> np.ndarray:
    """Per sample of the plates ``samples`` (plates, points, 3) in Lab: unlike the
    ``references`` (read plates, points, 3) at the same point, by more than their own
    spread there."""
    middle = np.median(references, axis=0)  # (points, 3)
    spread = np.median(np.linalg.norm(references - middle, axis=2), axis=0)
    reach = np.maximum(params.UNLIKE_SPREADS * spread, params.FLOOR_LAB)
    return np.linalg.norm(samples - middle, axis=2) > reach


def _longest_run(flags: np.ndarray) -> int:
    """The longest run of True round a circle (the last place is next to the first)."""
    if flags.all():
        return len(flags)
    doubled = np.concatenate([flags, flags])
    best = run = 0
    for flag in doubled:
        run = run + 1 if flag else 0
        best = max(best, run)
    return min(best, len(flags))


def covered(bgr: np.ndarray, geometry: GridGeometry, cells: list[tuple[int, int]],
            suspects: list[int], read: dict[int, int],
            params: type[CoverParams] = CoverParams) -> dict[int, bool]:
    """For each of ``suspects`` (indices into ``cells``, plates in view the reader set
    aside): is there evidence that something stands on it? ``read``: the plates read,
    index to look (0 unlit, 1 lit), that the suspects are compared with. With fewer than
    two read plates there is nothing to compare with, and nothing is called covered."""
    if not suspects or len(read) < 2:
        return dict.fromkeys(suspects, False)
    ring_offsets = _ring_offsets(params)
    everyone = list(read) + list(suspects)
    places = [cells[i] for i in everyone]
    ring = _lab(pixels_at(bgr, geometry.sample_points(places, ring_offsets)))
    diamond = _lab(pixels_at(bgr, geometry.sample_points(places, SAMPLE_OFFSETS,
                                                          inside_diamond=True)))
    diamond_bgr = pixels_at(bgr, geometry.sample_points(places, SAMPLE_OFFSETS,
                                                        inside_diamond=True))
    known = len(read)
    looks = np.array([read[i] for i in read])
    # unlike the plates of either look (a lit diamond's glow reaches into its frame, and
    # a blurred picture spreads it further): unlike both, where both were read
    ring_unlike = np.ones((len(suspects), ring.shape[1]), bool)
    diamond_unlike = np.ones((len(suspects), diamond.shape[1]), bool)
    for look in (0, 1):
        members = np.flatnonzero(looks == look)
        if len(members) == 0:
            continue
        # one plate of a look: its own points (their spread counts as none)
        chosen = np.repeat(members, 2) if len(members) == 1 else members
        ring_unlike &= _unlike(ring[known:], ring[chosen], params)
        diamond_unlike &= _unlike(diamond[known:], diamond[chosen], params)
    rows = params.RING_PLACES
    # a place round the ring is unlike when either radius there is
    round_ring = ring_unlike.reshape(len(suspects), len(params.RING_RADII), rows).any(axis=1)
    if len(set(looks.tolist())) < 2:
        # one look read: a plate of the other look is unlike it all over; only colours no
        # diamond has (nothing gold) tell a body then
        diamond_unlike &= ~_gold_like(diamond_bgr[known:])
    verdicts = {}
    for k, index in enumerate(suspects):
        verdicts[index] = bool(_longest_run(round_ring[k]) >= params.RING_RUN
                               or diamond_unlike[k].mean() >= params.DIAMOND_SHARE)
    return verdicts


def _gold_like(bgr: np.ndarray) -> np.ndarray:
    """Per pixel (..., 3 BGR): yellow to orange, red and green well above blue."""
    b, g, r = bgr[..., 0], bgr[..., 1], bgr[..., 2]
    top = np.maximum(r, g)
    return ((top - b) / np.maximum(top, 1.0) >= 0.35) & (g >= 0.45 * r) & (g <= 1.25 * r)
