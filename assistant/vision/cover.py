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

* a run round the plate's frame (the purple octagon round the diamond), as long as a
  leg or a stroke across it, in colours no read plate shows on its frame;
* much of the diamond in colours no read plate shows on its diamond.

Colours, not places, are compared (the diamond's with the read plates' diamonds', the
frame's with their frames'): compression mixes a diamond with its frame alike on every
plate but at places that differ with its blocks; a body brings colours of its own
(skin, cloth, a shade of gold no diamond has).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from assistant.vision.geometry import SAMPLE_OFFSETS, GridGeometry, pixels_at

__all__ = ["COVER_PARAMS", "CoverParams", "covered"]


@dataclass(frozen=True)
class CoverParams:
    """The evidence a covered verdict needs (grid units, Lab units, counts). Ranges
    measured on plates set aside in view: with nobody on them (the real screenshot's own
    pixels turned, pitched 0-68 degrees, scaled, gamma-shifted and JPEG-compressed), and
    with a drawn body over them (walk-through pictures of both room sources, cameras
    anywhere and steep, 100-150% display scaling)."""

    #: the frame ring's radii (the diamond ends at 0.165, the octagon at about 0.26)
    ring_radii: tuple[float, ...] = (0.20, 0.235)
    #: places round the ring
    ring_places: int = 24
    #: a run of places round the ring in foreign colours this long is a leg or a stroke:
    #: plates set aside with nobody on them, 0 on the real room's pixels (33 plates) and
    #: at most 5 on walk-through pictures (27 plates, one of 4 or more: a body across the
    #: frame, not the diamond); with a body over the diamond, up to 13 (64 of 331 plates
    #: at 4 or more)
    ring_run: int = 4
    #: a colour this far (Lab: 100 from black to white) from every colour the read plates
    #: show on their diamonds and frames is foreign (a bound chosen with the two above and
    #: judged through them, not measured apart) ...
    foreign_lab: float = 16.0
    #: ... and this share of the diamond's sampled points in foreign colours is a body:
    #: plates set aside with nobody on them, 0 on the real room's pixels and at most 0.15
    #: on walk-through pictures (0.22 with a body over the frame only); with a body over
    #: the diamond, up to 1.0 (121 of 331 plates at 0.3 or more)
    diamond_share: float = 0.3


COVER_PARAMS = CoverParams()


def _lab(bgr: np.ndarray) -> np.ndarray:
    """Float Lab (L 0-100) of BGR colours of any shape (..., 3)."""
    shape = bgr.shape
    flat = np.clip(bgr.reshape(-1, 1, 3), 0, 255).astype(np.float32) / 255.0
    return cv2.cvtColor(flat, cv2.COLOR_BGR2LAB).reshape(shape).astype(np.float64)


def _ring_offsets(params: CoverParams) -> np.ndarray:
    """The places round the plate's frame (grid units about its centre)."""
    angles = np.linspace(0.0, 2 * np.pi, params.ring_places, endpoint=False)
    unit = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    return np.concatenate([unit * radius for radius in params.ring_radii])


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
            params: CoverParams = COVER_PARAMS) -> dict[int, bool]:
    """For each of ``suspects`` (indices into ``cells``, plates in view the reader set
    aside): is there evidence that something stands on it? ``read``: the plates read,
    index to look (0 unlit, 1 lit), that the suspects are compared with. With fewer than
    two read plates there is nothing to compare with, and nothing is called covered."""
    if not suspects or len(read) < 2:
        return dict.fromkeys(suspects, False)
    runs, shares = _evidence(bgr, geometry, cells, suspects, read, params)
    return {index: bool(runs[k] >= params.ring_run or shares[k] >= params.diamond_share)
            for k, index in enumerate(suspects)}


def _evidence(bgr: np.ndarray, geometry: GridGeometry, cells: list[tuple[int, int]],
              suspects: list[int], read: dict[int, int], params: CoverParams
              ) -> tuple[list[int], list[float]]:
    """Per suspect: the longest run of places round its frame in foreign colours, and the
    share of its diamond's sampled points in foreign colours."""
    ring_offsets = _ring_offsets(params)
    everyone = list(read) + list(suspects)
    places = [cells[i] for i in everyone]
    ring = _lab(pixels_at(bgr, geometry.sample_points(places, ring_offsets)))
    diamond = _lab(pixels_at(bgr, geometry.sample_points(places, SAMPLE_OFFSETS,
                                                          inside_diamond=True)))
    known = len(read)

    def foreign(points: np.ndarray, pool: np.ndarray) -> np.ndarray:
        """Per point: a colour further than ``foreign_lab`` from every colour of ``pool``."""
        pool = pool.reshape(-1, 3)
        distance = np.linalg.norm(points[:, :, None, :] - pool[None, None], axis=3)
        return distance.min(axis=2) > params.foreign_lab

    rows = params.ring_places
    # the frame ring against the read plates' frames; a place round the ring is foreign
    # when either radius there is
    round_ring = foreign(ring[known:], ring[:known]).reshape(
        len(suspects), len(params.ring_radii), rows).any(axis=1)
    # the diamond against their diamonds (a body's dark legs pass for the frame, never for
    # a diamond), and where the diamonds are only a few pixels across, against the purple
    # of the frames just round them too: the two blend there
    diamonds = diamond[:known].reshape(-1, 3)
    inner = ring[:known].reshape(known, len(params.ring_radii), rows, 3)[:, 0].reshape(-1, 3)
    blended = np.concatenate([diamonds, inner])
    small = geometry.diamond_sample_scale(places[known:]) < 1.0  # (its lattice shrunk)
    diamond_unlike = np.stack([
        foreign(diamond[known + k][None], blended if small[k] else diamonds)[0]
        for k in range(len(suspects))])
    runs = [_longest_run(round_ring[k]) for k in range(len(suspects))]
    shares = [float(diamond_unlike[k].mean()) for k in range(len(suspects))]
    return runs, shares
