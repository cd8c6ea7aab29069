"""Tell a ToA plate from its whole diamond, where its sectors did not tell.

The reader's last try on a plate it set aside (:mod:`assistant.vision.unread`): a far plate
through strong JPEG keeps its mean colour when its sectors, as small as the compression's
blocks, disagree. Only a plate whose colours as a whole fit neither look is asked here;
one set aside for something over part of it never is (:mod:`assistant.vision.plates`).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from assistant.vision.appearance import (
    APPEARANCE_RULES,
    AppearanceRules,
    Look,
    point_features,
    two_looks,
)

__all__ = ["WHOLE_RULES", "WholeRules", "read_whole"]


@dataclass(frozen=True)
class WholeRules:
    """When a plate's whole diamond tells its look (:func:`read_whole`)."""

    #: A plate's feature must lie this share of the gap between the looks beyond their
    #: middle ...
    margin: float = 0.25
    #: ... and within this share of the gap of its look's plates.
    reach: float = 0.35
    #: The looks split by luma (log units): a lit diamond is about a fifth brighter than
    #: an unlit one (0.19 on the real screenshot, 0.10-0.17 through gamma and JPEG), so a
    #: narrower gap than the chroma's is asked for, as clean as the chroma's
    #: (:attr:`AppearanceRules.gap_over_spread`), and the chroma must split the plates
    #: the same way (no lit plate less yellow than an unlit one).
    luma_gap: float = 0.08
    #: A plate told a look has its luma within this share of the way from its look's
    #: median plate to the other look's.
    luma_share: float = 0.35
    #: Lab distance (0-100 from black to white) within which a plate told from its whole
    #: diamond must match a plate of its look (:func:`_has_a_twin`): plain plates of one
    #: look through JPEG 30-95, gamma and pitch to 68 degrees keep within 7.5 of one
    #: another (the real screenshot's pixels); bodies over a plate that pass every other
    #: test sit 10 or more from the nearest, or form a look of their own.
    lab: float = 9.0


WHOLE_RULES = WholeRules()


def _has_a_twin(lab: np.ndarray, index: int, side: np.ndarray, known: np.ndarray,
                rules: WholeRules = WHOLE_RULES) -> bool:
    """Whether another plate of the look ``index`` is told as (one read by its sectors;
    any other plate of that side when none of it was read) has its whole colour within
    :attr:`WholeRules.lab` of it. A body over a plate can fall on one side of a split in one
    feature (dark clothes over a lit diamond on the unlit side) but does not take the full
    colour of a plate of that look; and a look no other plate shows is no look at all."""
    mates = np.flatnonzero(known & (side == side[index]))
    if not len(mates):
        mates = np.flatnonzero(side == side[index])
    mates = mates[mates != index]
    if not len(mates):
        return False
    return bool(np.linalg.norm(lab[mates] - lab[index], axis=1).min() <= rules.lab)


def read_whole(samples: np.ndarray, looks: np.ndarray, rules: WholeRules = WHOLE_RULES,
               appearance: AppearanceRules = APPEARANCE_RULES) -> np.ndarray:
    """ToA plates' looks told from their whole diamonds, where the sectors did not tell.

    ``samples``: the sampled points of the plates in view with nothing over them
    (plates, points, 3, BGR); ``looks``: each one's look as read (0 unlit, 1 lit), -1 for
    those to tell. Returns the looks with those told filled in (-1 where the whole
    diamond does not decide either).

    Why: a far plate through strong JPEG keeps its mean colour when its sectors, as small
    as the compression's blocks, disagree; and its brightness better than its hue (JPEG
    keeps luma at full resolution and averages chroma over 16-pixel blocks, wider than a
    far diamond, with the purple frame round it). Every plate's median colour is taken the
    same way, and the plates must fall into two looks by the ToA feature and then, for
    the plates it left untold, by luma with every lit plate the yellower (a gap at least
    :attr:`AppearanceRules.min_gap_toa`, or :attr:`WholeRules.luma_gap` for luma, wide
    against either look's spread), each split agreeing with every plate read or told
    before it (none, the split alone tells). Both are tried because one JPEG-spoilt
    diamond can split the chroma on its own (itself against the rest) and tell nothing,
    while the luma, kept at full resolution, still splits the plates cleanly. A plate to
    tell takes its look when clearly on its side (:attr:`WholeRules.margin`,
    :attr:`~WholeRules.reach`) and as bright as its look (:attr:`WholeRules.luma_share`)
    and as coloured as a plate of its look (:func:`_has_a_twin`), and lit must be the
    brighter look (gold clothes pass for a lit diamond in chroma, never in brightness)."""
    looks = np.asarray(looks, np.int64).copy()
    if len(looks) < 4 or not (looks < 0).any():
        return looks
    colours = np.median(np.asarray(samples, np.float64), axis=1)
    chroma = point_features(colours, Look.TOA_PLATE, None, None, appearance)
    luma = point_features(colours, Look.BRIGHTNESS, None, None, appearance)
    lab = cv2.cvtColor(np.clip(colours, 0, 255).astype(np.float32).reshape(-1, 1, 3) / 255.0,
                       cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float64)
    for features, gap_min, over_spread, yellower in (
            (chroma, appearance.min_gap_toa, appearance.gap_over_spread, False),
            (luma, rules.luma_gap, appearance.gap_over_spread, True)):
        known = looks >= 0  # the plates read, and those an earlier feature told
        if known.all():
            break
        gap, low, high = two_looks(np.sort(features))
        spread = max(float(np.ptp(low)), float(np.ptp(high)))
        if gap < gap_min or gap < over_spread * spread:
            continue
        middle = (float(low[-1]) + float(high[0])) / 2
        side = (features > middle).astype(np.int64)
        if np.any(side[known] != looks[known]):
            continue  # the whole diamonds split otherwise than the sectors read them
        if luma[side == 1].mean() <= luma[side == 0].mean():
            continue  # lit is brighter than unlit
        if yellower and chroma[side == 1].min() <= chroma[side == 0].max():
            continue  # ... and every lit plate yellower than every unlit one
        bright, dim = np.median(luma[side == 1]), np.median(luma[side == 0])
        for index in np.flatnonzero(~known):
            cluster = high if side[index] else low
            past_middle = abs(features[index] - middle) >= rules.margin * gap
            near = (cluster[0] - rules.reach * gap <= features[index]
                    <= cluster[-1] + rules.reach * gap)
            # as bright as its look, not between the looks (gold clothes over an unlit
            # diamond, or a blend of both looks, pass for lit in chroma, not in luma)
            share = (luma[index] - dim) / (bright - dim)
            as_bright = share >= 1 - rules.luma_share if side[index] \
                else share <= rules.luma_share
            if past_middle and near and as_bright and _has_a_twin(lab, index, side, known,
                                                                  rules):
                looks[index] = side[index]
    return looks
