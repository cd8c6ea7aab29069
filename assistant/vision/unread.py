"""Settle the plates left unread: covered, unclear or outside, and a grid on the floor.

After :mod:`assistant.vision.plates` has read what it could, each plate set aside in view
is one of: *covered* (something stands on it: :func:`assistant.vision.cover.covered`
against the plates read), told from its whole diamond after all
(:func:`assistant.vision.whole.read_whole`), or *unclear* (in view, nothing over
it, its look not told). A plate past the picture's edge stays *outside*. And a covered
place that shows the plain floor between plates says the grid is not on the ring at all
(:func:`plain_floor`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assistant.vision.appearance import WHOLE_CONFIDENCE, Look
from assistant.vision.cover import covered
from assistant.vision.geometry import SAMPLE_OFFSETS, GridGeometry, pixels_at
from assistant.vision.reading import cell_words
from assistant.vision.standing import Probe, nothing_stands, smoothed_frame
from assistant.vision.trace import note
from assistant.vision.whole import read_whole

__all__ = ["FLOOR_RULES", "FloorRules", "plain_floor", "settle_unread"]

# Floor tiles between the plates (grid units): what a place with no plate looks like.
_FLOOR_POINTS = np.array(
    [(0.5, 0), (1.5, 0), (0, 0.5), (2, 0.5), (0, 1.5), (2, 1.5), (0.5, 2), (1.5, 2), (1, 1)],
    np.float64,
)


@dataclass(frozen=True)
class FloorRules:
    """When a place set aside as covered shows the plain floor (:func:`plain_floor`)."""

    #: A place whose sampled disc and plate frame look like this share of plain floor is
    #: no covered plate: the grid was placed wrong (it abstains). Plates set aside on
    #: walk-through pictures of a ring placed right: a body over them 0.02-0.30 (44
    #: plates), nobody over them (unclear) 0.12-0.49.
    like_share: float = 0.6
    #: A colour within this many 8-bit levels (any channel) of the floor's median looks
    #: like floor, at least; more (2.5 times the floor points' median spread) when the
    #: floor itself varies (a bound chosen with :attr:`like_share`, not measured apart).
    tolerance: float = 18.0


FLOOR_RULES = FloorRules()


def settle_unread(bgr: np.ndarray, geometry: GridGeometry, cells: list[tuple[int, int]],
                  samples: np.ndarray, hidden: list[int], outside: np.ndarray,
                  lit: np.ndarray, confidence: np.ndarray, look: Look,
                  partly: set[int] = frozenset(), kept_aside: set[int] = frozenset(),
                  doubted_looks: dict[int, int] | None = None
                  ) -> tuple[tuple[int, int], ...]:
    """What the plates set aside in view are: covered (something stands on them, by
    :func:`assistant.vision.cover.covered` against the plates read), or else told from
    their whole diamonds (:func:`~assistant.vision.whole.read_whole`; ``lit``,
    ``confidence`` and ``hidden`` updated), or unclear. Returns the unclear cells. Only
    ToA plates have a frame and a diamond to tell a body by; a generic grid's cell set
    aside stays covered.

    When no plate was read by its sectors, the plates told by their whole diamonds are
    the ones the rest are compared with for a body. A plate set aside for something over
    part of it (``partly``: no diamond's shape found there, a shade, part of it foreign,
    its edge against its middle) is not told from its whole area on its own: legs, a
    stroke or clothes in a plate's own colours pass the cover test while their median
    reads the wrong look; it is told whole only where the floor behind it and in front of
    it on screen shows that nothing stands on it (:mod:`assistant.vision.standing`; at a
    flat camera, that the plate itself is a plate of one look, which its whole diamond
    must then read too), and is otherwise covered or unclear. ``kept_aside``: plates
    never told whole (the caller set them aside: corners kept from an earlier view, whose
    unread plates stay unread until the locator sees their diamonds again). A plate the
    locator of this frame saw no diamond at is doubted like the rest. ``doubted_looks``:
    the looks the sectors' decision gave the plates it doubted, compared with beside the
    plates read (:mod:`assistant.vision.standing`)."""
    suspects = [i for i in hidden if i not in outside]
    if look is not Look.TOA_PLATE or not suspects:
        return ()

    def bodies(among: list[int]) -> set[int]:
        read = {i: int(lit[i]) for i in range(len(cells)) if lit[i] >= 0}
        verdicts = covered(bgr, geometry, cells, among, read)
        return {index for index, body in verdicts.items() if body}

    references = int((lit >= 0).sum())
    under = bodies(suspects) if references >= 2 else set()
    doubted = sorted(set(partly) & set(suspects) - under - set(kept_aside))
    seen, unread = lit, suspects
    if references < 2:
        # no plate read by its sectors (a far room through strong JPEG): each is compared
        # with the others as their whole diamonds tell them for now, and only the plates
        # those did not tell keep the references out of their screen columns
        seen = lit.copy()
        in_view = np.array([i for i in range(len(cells)) if i not in outside], np.intp)
        seen[in_view] = read_whole(samples[in_view], lit[in_view])
        unread = [i for i in suspects if seen[i] < 0]
    smoothed = smoothed_frame(bgr) if doubted else None  # once for both probes
    provisional = {i: look for i, look in (doubted_looks or {}).items() if i in doubted}
    probes = nothing_stands(bgr, geometry, cells, doubted, seen, unread, smoothed=smoothed,
                            provisional=provisional)
    partly = {i for i in partly if not (i in probes and probes[i].clear)}
    told_now = _tell_whole(cells, samples, hidden, lit, confidence, probes, [
        i for i in suspects if i not in under and i not in partly])
    # plates told whole just now are references too: a doubted plate the first probe
    # could not compare (too few plates of a look read by their sectors) is probed again
    again = [i for i in doubted if lit[i] < 0 and i in partly] if told_now else []
    if again:
        probes = nothing_stands(bgr, geometry, cells, again, lit,
                                [i for i in suspects if lit[i] < 0], smoothed=smoothed,
                                provisional=provisional)
        cleared = [i for i in again if probes[i].clear]
        partly -= set(cleared)
        _tell_whole(cells, samples, hidden, lit, confidence, probes, cleared)
    if references < 2:  # compared now with the plates the whole diamonds told
        left = [i for i in suspects if lit[i] < 0]
        under = bodies(left) if (lit >= 0).sum() >= 2 else set()
    for index in suspects:
        if lit[index] < 0:
            note("cover", f"{cell_words(cells[index])} "
                 + ("covered: something stands on it" if index in under
                    else "unclear: no sign of anything on it, its look not told"))
    return tuple(sorted(cells[i] for i in suspects if lit[i] < 0 and i not in under))


def _tell_whole(cells: list[tuple[int, int]], samples: np.ndarray, hidden: list[int],
                lit: np.ndarray, confidence: np.ndarray, probes: dict[int, Probe],
                among: list[int]) -> bool:
    """Tell the plates ``among`` from their whole diamonds against every plate read
    (``lit``, ``confidence`` and ``hidden`` updated); a plate whose probe saw it over
    itself as one look (a flat camera) is told only that look. True when any was told."""
    plain = np.array(sorted({i for i in range(len(cells)) if lit[i] >= 0} | set(among)),
                     np.intp)
    told_any = False
    for index, look_told in zip(plain, read_whole(samples[plain], lit[plain]), strict=True):
        seen_over = probes[index].look if index in probes else None
        if lit[index] < 0 <= look_told and seen_over not in (None, look_told):
            note("read", f"{cell_words(cells[index])} not told: its whole diamond reads "
                 "otherwise than the plate seen point by point")
        elif lit[index] < 0 <= look_told:
            lit[index], confidence[index] = look_told, WHOLE_CONFIDENCE
            hidden.remove(int(index))
            told_any = True
            note("read", f"{cell_words(cells[index])} told from its whole diamond: "
                 + ("lit" if look_told else "unlit"))
    return told_any


def plain_floor(bgr: np.ndarray, geometry: GridGeometry, cells: list[tuple[int, int]],
                rules: FloorRules = FLOOR_RULES) -> bool:
    """Does any of ``cells`` show the plain floor (its disc and the plate frame around it)?"""
    return any(share >= rules.like_share
               for share in _floor_likeness(bgr, geometry, cells, rules))


def _floor_likeness(bgr: np.ndarray, geometry: GridGeometry, cells: list[tuple[int, int]],
                    rules: FloorRules) -> list[float]:
    """Per cell: the share of its sampled disc and plate frame that looks like the floor
    between the plates (within :attr:`FloorRules.tolerance` of its median colour)."""

    def sample(points: np.ndarray) -> np.ndarray:
        return pixels_at(bgr, geometry.to_image(points))

    floor = sample(_FLOOR_POINTS)
    centre = np.median(floor, axis=0)
    spread = np.median(np.abs(floor - centre).max(axis=1))
    tolerance = max(rules.tolerance, 2.5 * float(spread))
    angles = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    ring = np.stack([np.cos(angles), np.sin(angles)], 1) * 0.22
    shares = []
    for r, c in cells:
        points = np.concatenate([SAMPLE_OFFSETS, ring]) + np.array([c, r], np.float64)
        colours = sample(points)
        like = np.abs(colours - centre).max(axis=1) <= tolerance
        shares.append(float(like.mean()))
    return shares
