"""Lit or unlit: one number per cell, then a decision that prefers abstaining to guessing.

Absolute colours differ between clients, brightness settings and GPU plugins, so the
decision rests, in this order, on:

1. contrast between the cells of the same frame: the cell features fall in two clusters
   separated by a gap much wider than the spread inside each cluster;
2. reference looks sampled at calibration (a profile's on/off colours), which also settle
   the case where every cell shows the same state;
3. for the ToA plates only, an absolute fallback for the all-same case, measured on the real
   screenshot, whose confidence is capped at :data:`FALLBACK_CONFIDENCE` so it says so.

The ToA feature adds two cues of the gold diamond: its blue-to-red ratio (lit plates are
paler: about 66 vs 22 blue at equal hue and red, which survives brightness changes exactly
and gamma changes up to a scale factor) and its brightness (lit plates are brighter, 188
vs 162 in red), in logs. The absolute fallback uses the ratio alone, as brightness settings
shift the other. Generic screen grids use brightness, or the position between the
profile's on and off colours.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

__all__ = [
    "APPEARANCE_RULES",
    "CONFIDENT",
    "FALLBACK_CONFIDENCE",
    "LUMA_BGR",
    "PARTIAL_CONFIDENCE",
    "REFERENCE_CONFIDENCE",
    "WHOLE_CONFIDENCE",
    "AppearanceRules",
    "Decision",
    "Look",
    "classify",
    "point_features",
    "sector_stats",
    "toa_chroma",
    "two_looks",
]

#: A verdict whose every cell has at least this confidence came from frame contrast or
#: references; below it, the reading says it relied on a fallback.
CONFIDENT = 0.8
#: The confidence of an all-same reading decided by the absolute ToA fallback.
FALLBACK_CONFIDENCE = 0.6
#: The highest confidence of a cell read from part of its sampled area (the rest hidden).
PARTIAL_CONFIDENCE = 0.75
#: The confidence of a plate told from its whole diamond (:func:`read_whole`): its
#: sectors did not agree, so less than a plate read in part.
WHOLE_CONFIDENCE = 0.7
#: The confidence of an all-same reading decided by the profile's reference colours.
REFERENCE_CONFIDENCE = 0.9


class Look(Enum):
    """How a cell shows its state."""

    TOA_PLATE = "toa-plate"  # gold diamond in a purple frame; lit is paler (more blue)
    BRIGHTNESS = "brightness"  # a flat cell; on is the brighter look (or the profile's "on")


@dataclass(frozen=True)
class AppearanceRules:
    """The thresholds of telling lit from unlit. Features are logs (the ToA feature: chroma
    plus brightness, :func:`point_features`); "plain plates" are plates read right with
    nothing over them on walk-through pictures (both room sources, cameras anywhere and
    steep, 100-150% display scaling) and on the real screenshot's own pixels turned,
    pitched 0-68 degrees, scaled, gamma-shifted and JPEG-compressed."""

    #: The smallest gap between the two looks' features that counts as two states, ToA
    #: plates: frames of two looks read right on walk-through pictures and the real
    #: room's pixels show a gap of 0.44 at least (496 decisions, median 0.74) ...
    min_gap_toa: float = 0.25
    #: ... flat cells by brightness (generic grids: set by hand, no corpus measured) ...
    min_gap_brightness: float = 0.18
    #: ... and flat cells projected between the profile's on and off colours (0 to 1; set
    #: by hand, no corpus measured).
    min_gap_projected: float = 0.3
    #: ToA chroma: log(B / R + this share). The added share of red keeps the nearly-black
    #: blue of unlit diamonds from amplifying noise and JPEG, at any brightness (set by
    #: design; :attr:`toa_threshold` was measured with it).
    toa_red_share: float = 0.12
    #: The absolute fallback for a ToA frame of one look: the chroma threshold, and the
    #: margin the frame's chroma must clear. Measured on the real screenshot: lit -0.82,
    #: unlit -1.45; the threshold sits between them.
    toa_threshold: float = -1.13
    toa_margin: float = 0.15
    #: The sectors of a clean cell agree within this share of the minimum gap (or the
    #: frame's noise, :attr:`mix_over_typical`). This margin and the ones after it, to
    #: :attr:`shade_free_difference`, are set by design and judged through the
    #: benchmarks' wrong count (bench-vision, bench-walk), not measured one by one.
    part_tolerance: float = 0.8
    #: Two looks: a sector counts for a look when it lies beyond this share of the gap from
    #: the threshold ...
    part_guard: float = 0.2
    #: ... and no further than this share of the gap beyond the look's extreme ...
    part_reach: float = 0.35
    #: ... or further, where the frame's noise moves a sector's feature further
    #: (:func:`_noise_reach`): this many times the typical sector's spread, per channel.
    noise_reach: float = 1.5
    #: A cell is read from at least this many sectors that agree (of 4).
    min_visible_parts: int = 2
    #: A sector whose points spread (interquartile, any channel) over more than this share
    #: of the colour difference between the looks holds two colours: part of it is hidden
    mix_spread: float = 0.6
    #: ... when its spread is also this many times the frame's typical sector's; a cell's
    #: sectors deviating from its median this many times the typical cell's are not clean.
    mix_over_typical: float = 2.5
    #: All cells of one ToA look: a cell whose sectors deviate this many times the typical
    #: cell's (and past :attr:`part_tolerance` of the gap) has something over part of it.
    alike_over_typical: float = 2.0
    #: Cells read at least, for one evenly mixed among cells not all clean to be taken as
    #: the covered one (:func:`_evenly_mixed`: the two looks it lies between are then told
    #: by five cells or more).
    mixed_among: int = 6
    #: All cells of one look whose features spread over more than this share of the
    #: minimum gap are neither one look nor two: the frame is ambiguous.
    alike_spread: float = 0.8
    #: All cells alike with references: the cells must sit this share of the way from the
    #: midpoint between the references ...
    reference_margin: float = 0.25
    #: ... and references whose brightness-free colours differ by more than this (per
    #: channel, of the brightest) are compared brightness-free too.
    shade_free_difference: float = 0.15
    #: Degrees of hue a ToA sector may differ from the frame's typical diamond (lit and
    #: unlit diamonds share their gold hue; skin and clothes do not). Plain plates on
    #: walk-through pictures and the real room's pixels: within 8.8 degrees of their
    #: frame's median (2,021 plates, 99% within 4.5).
    hue_tolerance: float = 12.0
    #: A ToA cell alone in its look must lie within this many degrees of the other look's
    #: median hue (:func:`_lone_look_unborne`). On walk-through pictures read right, a
    #: lone cell lay at most 4.3 degrees from the other look (268 cells); legs over a lit
    #: diamond that read as a lone unlit plate, 7.1 degrees.
    lone_hue_tolerance: float = 6.0
    #: ... or within this many, for a lone cell darker than the other look by more than
    #: :attr:`lone_darker_doubt` (log of the brightest channel). Of the 129 lone unlit
    #: cells read right above, none was both: darker by 0.16 at most (a real unlit diamond
    #: is 0.13 darker than a lit one, 0.18 under a gamma of 1.4), off by 3.95 degrees at
    #: most. Orange legs over the whole middle of a lit diamond at a steep camera, read as
    #: the one unlit plate among seven lit ones: 0.24 darker and 4.6 degrees off.
    lone_hue_doubt: float = 3.5
    lone_darker_doubt: float = 0.2
    #: Two looks: the gap between them must exceed the spread inside either by this factor.
    #: Frames of two looks read right (as for :attr:`min_gap_toa`): 1.74 at least, 1% under
    #: 2.15.
    gap_over_spread: float = 1.5
    #: A ToA diamond is even in brightness: its sectors' luma spread over more than this
    #: share of their mean is something over part of it (:func:`_uneven_brightness`).
    #: Plain diamonds keep within 1.4% on the real screenshot, 3.1% through JPEG at
    #: quality 70, and 6.8% on walk-through pictures and the real room's pixels (2,021
    #: plain plates, 99% within 3.4%); a player in gold seen from straight above, centred
    #: on a lit plate: 24%.
    uneven_luma: float = 0.1
    #: Lit ToA diamonds are brighter too (:func:`_lit_is_brighter`): the lit plates' mean
    #: brightness (log of the brightest channel) may fall short of the unlit ones' by at
    #: most this much. Frames of two looks read right: lit 0.095 to 0.38 brighter (496
    #: decisions).
    lit_brighter_by: float = -0.02

    def min_gap(self, look: Look) -> float:
        """The smallest gap between two looks' features for cells of ``look``."""
        return self.min_gap_toa if look is Look.TOA_PLATE else self.min_gap_brightness


APPEARANCE_RULES = AppearanceRules()


#: Luma weights of a BGR colour (ITU-R BT.601), for the reader and the locator alike.
LUMA_BGR = np.array([0.114, 0.587, 0.299])


@dataclass(frozen=True)
class Decision:
    """Per-cell verdicts (``lit`` 0/1), confidences, the features and, when the frame
    cannot be read, the reason and the index of the cell that caused it (if one did)."""

    lit: np.ndarray | None
    confidence: np.ndarray
    features: np.ndarray
    reason: str | None = None
    bad_cell: int | None = None
    method: str = "contrast"
    #: per cell: a sector shows something foreign (another hue, two colours, or beyond both
    #: looks): the sign of a figure over it, unlike noise near the threshold
    foreign: np.ndarray | None = None


def sector_stats(pixels: np.ndarray, sectors: tuple[np.ndarray, ...]
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Per cell and sector of ``pixels`` (cells, points, 3): the colour, shape (cells,
    sectors, 3), and the spread of its middle half (the largest channel's gap between the
    quartile points), shape (cells, sectors).

    The colour is the mean of the middle half of the sector's points per channel:
    averaging evens out pixel noise and JPEG ringing; dropping the outer quarters keeps a
    figure over a few points from spoiling it. Sectors of one size are sorted in one call:
    the live loop reads every frame, and a sort per sector and statistic added up."""
    pixels = np.asarray(pixels, np.float64)
    if len({len(idx) for idx in sectors}) == 1:
        ordered = np.sort(pixels[:, np.stack(sectors), :], axis=2)  # (cells, S, P, 3)
        count = ordered.shape[2]
        quarter = count // 4
        colours = ordered[:, :, quarter : count - quarter, :].mean(axis=2)
        spread = (ordered[:, :, count - 1 - quarter] - ordered[:, :, quarter]).max(axis=-1)
        return colours, spread
    colours, spreads = [], []
    for part in (np.sort(pixels[:, idx, :], axis=1) for idx in sectors):
        count = part.shape[1]
        quarter = count // 4
        colours.append(part[:, quarter : count - quarter, :].mean(axis=1))
        spreads.append((part[:, count - 1 - quarter] - part[:, quarter]).max(axis=-1))
    return np.stack(colours, axis=1), np.stack(spreads, axis=1)


def toa_chroma(bgr: np.ndarray, rules: AppearanceRules = APPEARANCE_RULES) -> np.ndarray:
    """The brightness-free ToA cue: log(blue / red + 0.12); higher = paler = lit."""
    bgr = np.asarray(bgr, np.float64)
    return np.log(bgr[..., 0] / np.maximum(bgr[..., 2], 1.0) + rules.toa_red_share)


def point_features(points: np.ndarray, look: Look, on: np.ndarray | None,
                   off: np.ndarray | None, rules: AppearanceRules = APPEARANCE_RULES) -> np.ndarray:
    """Feature of every sampled point (same shape minus the colour axis); higher = more "on"."""
    bgr = np.asarray(points, np.float64)
    if on is not None and off is not None and look is Look.BRIGHTNESS:
        axis = np.asarray(on, np.float64) - np.asarray(off, np.float64)
        return ((bgr - off) @ axis) / float(axis @ axis)
    if look is Look.TOA_PLATE:
        return toa_chroma(bgr, rules) + np.log(bgr.max(axis=-1) + 8.0)
    return np.log(bgr @ LUMA_BGR + 8.0)


@dataclass(frozen=True)
class _Sectors:
    """A frame's cells seen sector by sector: the colours (cells, sectors, 3), each
    sector's spread, its feature, each cell's median feature, how far its sectors stray
    from it, and whether they agree up to the frame's noise (``clean``)."""

    parts: np.ndarray
    spread: np.ndarray
    part_features: np.ndarray
    features: np.ndarray
    deviation: np.ndarray
    clean: np.ndarray


def classify(
    samples: np.ndarray,
    look: Look,
    on: np.ndarray | None = None,
    off: np.ndarray | None = None,
    sectors: tuple[np.ndarray, ...] | None = None,
    rules: AppearanceRules = APPEARANCE_RULES,
) -> Decision:
    """Decide lit/unlit for every cell, or say why it cannot be done.

    Parameters
    ----------
    samples : (cells, points, 3) BGR pixels read in each cell (all cells of one frame).
    look : how the cells show their state.
    on, off : BGR reference colours from calibration, or ``None``.
    sectors : index arrays splitting the points of a cell into parts that must agree
        (a partly covered cell does not); ``None`` reads each cell as one part.
    rules : the thresholds (:class:`AppearanceRules`).

    Returns
    -------
    Decision : ``lit`` is ``None`` when the reader abstains; ``reason`` then says why.
    """
    refs = on is not None and off is not None
    projecting = refs and look is Look.BRIGHTNESS  # features run from 0 (off) to 1 (on)
    pixels = np.asarray(samples, np.float64)
    if sectors is None:
        sectors = (np.arange(pixels.shape[1]),)
    parts, sector_spread = sector_stats(pixels, sectors)
    part_features = point_features(parts, look, on, off, rules)  # (cells, sectors)
    features = np.median(part_features, axis=1)
    gap_min = rules.min_gap_projected if projecting else rules.min_gap(look)
    n = len(features)
    deviation = np.max(np.abs(part_features - features[:, None]), axis=1)
    # sectors of a plain cell agree up to noise: how much is told by the frame's typical cell
    clean = deviation <= max(rules.part_tolerance * gap_min,
                             rules.mix_over_typical * np.median(deviation))
    worst = int(np.argmax(deviation))
    if clean.sum() < max(2, n // 2):
        return Decision(None, np.zeros(n), features, "covered", worst)
    cells = _Sectors(parts, sector_spread, part_features, features, deviation, clean)

    # the looks are learnt from the cells whose parts agree; the others are then read
    # from the parts that fall clearly into one look (a figure hides the rest)
    ranked = np.sort(features[clean])
    gap, low, high = two_looks(ranked)
    spread = max(float(np.ptp(low)), float(np.ptp(high)))
    if gap >= gap_min and gap >= rules.gap_over_spread * spread:
        return _two_looks_decision(cells, gap, low, high, look, on, off, rules)
    return _one_look_decision(cells, gap_min, worst, look, on, off, rules)


def _two_looks_decision(cells: _Sectors, gap: float, low: np.ndarray, high: np.ndarray,
                        look: Look, on: np.ndarray | None, off: np.ndarray | None,
                        rules: AppearanceRules) -> Decision:
    """The cells' looks when the clean cells show two (``low`` and ``high``, ``gap``
    apart): each cell read from its sectors that fall clearly into one look, or the
    frame's reason why not (a cell covered, the looks unlike the references)."""
    parts, part_features = cells.parts, cells.part_features
    refs = on is not None and off is not None
    projecting = refs and look is Look.BRIGHTNESS
    confidence = np.zeros(len(cells.features))
    mid = (low[-1] + high[0]) / 2
    in_high, in_low, foreign = _sectors_in_looks(cells, gap, low, high, mid, look, on, off,
                                                 rules)
    n_high, n_low = in_high.sum(axis=1), in_low.sum(axis=1)
    unreadable = ((n_high > 0) & (n_low > 0)) | (
        np.maximum(n_high, n_low) < rules.min_visible_parts
    )
    if unreadable.any():
        bad = np.flatnonzero(unreadable)
        return Decision(None, confidence, cells.features,
                        "covered", int(bad[np.argmax(cells.deviation[bad])]))
    lit = (n_high > n_low).astype(np.int64)
    seen = np.where(lit[:, None] == 1, in_high, in_low)
    # a sector past the middle, on the other look's side of the gap, is no noise about
    # this cell's look: something covers part of the cell (gold clothes over a lit
    # diamond, in their own shade, read unlit from two sectors while a third leant lit)
    foreign = foreign | np.any(np.where(lit[:, None] == 1, part_features < mid,
                                        part_features > mid), axis=1)
    if look is Look.TOA_PLATE:
        foreign |= _uneven_brightness(parts, rules)
    features = (part_features * seen).sum(axis=1) / seen.sum(axis=1)
    # the features run from 0 (off) to 1 (on) with references: an "on" cluster darker
    # than "off", or an "off" cluster beyond "on", is not the calibrated look at all
    if projecting and (float(np.mean(high)) < 0.0 or float(np.mean(low)) > 1.0):
        return Decision(None, confidence, features, "unlike-references")
    if look is Look.TOA_PLATE and refs and toa_chroma(on, rules) <= toa_chroma(off, rules):
        return Decision(None, confidence, features, "unlike-references")
    lone = _lone_look_unborne(parts, lit, rules) if look is Look.TOA_PLATE and not refs else None
    if lone is not None:
        return Decision(None, confidence, features, "covered", lone)
    if look is Look.TOA_PLATE and not _lit_is_brighter(parts, lit, rules):
        return Decision(None, confidence, features, "ambiguous")
    margin = np.where(seen, np.abs(part_features - mid), np.inf).min(axis=1) / (gap / 2)
    confidence = np.clip(0.5 + 0.5 * margin, 0, 1)
    partial = ~seen.all(axis=1)
    confidence[partial] = np.minimum(confidence[partial], PARTIAL_CONFIDENCE)
    return Decision(lit, np.round(confidence, 3), features, None, None, "contrast", foreign)


def _sectors_in_looks(cells: _Sectors, gap: float, low: np.ndarray, high: np.ndarray,
                      mid: float, look: Look, on: np.ndarray | None, off: np.ndarray | None,
                      rules: AppearanceRules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(cells, sectors) where a sector falls clearly into the high look and into the low
    one (neither when it holds two colours), and per cell whether a sector shows
    something foreign (another hue, two colours, or beyond both looks)."""
    parts, part_features, clean = cells.parts, cells.part_features, cells.clean
    reach, guard = rules.part_reach * gap, rules.part_guard * gap
    # noise and JPEG spread every sector alike: the typical sector of this frame says
    # how much
    typical = float(np.median(cells.spread))
    reach_high, reach_low = (
        max(reach, _noise_reach(parts, typical, clean & side, look, on, off, rules))
        for side in (cells.features > mid, cells.features <= mid))
    in_high = (part_features >= mid + guard) & (part_features <= high[-1] + reach_high)
    in_low = (part_features <= mid - guard) & (part_features >= low[0] - reach_low)
    # a sector half hidden by a figure averages two colours into a third that can pass
    # for the other look: such a sector is spread far wider than noise or JPEG spread a
    # plain one, compared with how far apart the two looks are (colour, per channel)
    mixed = _mixed_sectors(cells.spread, typical, parts, cells.features, clean, mid, rules)
    if look is Look.TOA_PLATE:
        mixed |= _off_hue(parts, rules)
    beyond = (part_features > high[-1] + reach_high) | (part_features < low[0] - reach_low)
    foreign = (mixed | beyond).any(axis=1)
    return in_high & ~mixed, in_low & ~mixed, foreign


def _one_look_decision(cells: _Sectors, gap_min: float, worst: int, look: Look,
                       on: np.ndarray | None, off: np.ndarray | None,
                       rules: AppearanceRules) -> Decision:
    """The cells' look when the clean cells do not show two: the one covered cell that
    kept two looks apart or stands below both, or all of one look (:func:`_all_alike`),
    or the frame's reason why not."""
    parts, features, deviation = cells.parts, cells.features, cells.deviation
    n = len(features)
    confidence = np.zeros(n)
    if not cells.clean.all():
        # a cell evenly mixed from both looks (at a steep camera the player's legs down
        # the middle of the plate behind him, in every sector alike) leaves the two looks
        # unseparated: it is the one covered, not the worst-spread cell (hiding that first
        # hid plain plates of the other look until too few were left to tell them apart)
        odd_one = _evenly_mixed(features, gap_min, rules) if n >= rules.mixed_among else None
        return Decision(None, confidence, features, "covered",
                        worst if odd_one is None else odd_one)
    if look is Look.TOA_PLATE:
        # all alike is decided for every cell at once: a cell with a part of another hue
        # (a figure over it) must not be swept along with the others
        foreign = _off_hue(parts, rules).any(axis=1)
        # ... or sectors spread far beyond the frame's typical cell (noise spreads all alike)
        foreign |= deviation > max(rules.part_tolerance * gap_min,
                                   rules.alike_over_typical * float(np.median(deviation)))
        if foreign.any() and not foreign.all():
            return Decision(None, confidence, features, "covered",
                            int(np.flatnonzero(foreign)[0]))
    odd_one = _below_looks(features, gap_min, rules)
    if odd_one is None:
        odd_one = _between_looks(features, gap_min, rules)
    if odd_one is not None:
        # one cell evenly mixed from both looks (a small figure centred on a plate, seen
        # from above, blends with it in every sector) between two clear looks, or one
        # darker than both (a figure's grey cloak over the whole of a tiny plate at a
        # steep camera): it is covered, not a third look that leaves the frame unreadable
        return Decision(None, confidence, features, "covered", odd_one)
    if float(np.ptp(features)) > gap_min * rules.alike_spread:
        # neither one look nor two clearly separated looks
        return Decision(None, confidence, features, "ambiguous")
    return _all_alike(parts, features, look, on, off, rules)


def two_looks(ranked: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """The widest gap in sorted features and the two clusters on either side of it."""
    gaps = np.diff(ranked)
    split = int(np.argmax(gaps))
    return float(gaps[split]), ranked[: split + 1], ranked[split + 1 :]


def _clear_looks(features: np.ndarray, gap_min: float, rules: AppearanceRules = APPEARANCE_RULES
                 ) -> tuple[float, np.ndarray, np.ndarray] | None:
    """The two looks the cells show clearly (each on two cells at least, the gap between
    them wide and wider than either look's own spread) as (gap, low, high), or None."""
    if len(features) < 4:
        return None
    gap, low, high = two_looks(np.sort(features))
    spread = max(float(np.ptp(low)), float(np.ptp(high)))
    if len(low) >= 2 and len(high) >= 2 and gap >= gap_min \
            and gap >= rules.gap_over_spread * spread:
        return gap, low, high
    return None


def _between_looks(features: np.ndarray, gap_min: float,
                   rules: AppearanceRules = APPEARANCE_RULES) -> int | None:
    """The one cell (of cells whose sectors all agree) whose feature lies inside the gap of
    two clear looks that the other cells show, or None. Left in, it splits the gap in two
    halves neither of which clears the spread test."""
    found = None
    for i in range(len(features)):
        looks = _clear_looks(np.delete(features, i), gap_min, rules)
        if looks is not None and looks[1][-1] < features[i] < looks[2][0]:
            if found is not None:
                return None
            found = int(i)
    return found


def _evenly_mixed(features: np.ndarray, gap_min: float,
                  rules: AppearanceRules = APPEARANCE_RULES) -> int | None:
    """The one cell between two clear looks (:func:`_between_looks`) that lies in the
    middle half of the gap between them, or None: a plate half covered alike in every
    sector. A cell near one look is that look a little off (a lit plate in a darker
    spot of the room), not a mix."""
    odd_one = _between_looks(features, gap_min, rules)
    if odd_one is None:
        return None
    _gap, low, high = _clear_looks(np.delete(features, odd_one), gap_min, rules)
    quarter = (high[0] - low[-1]) / 4
    return odd_one if low[-1] + quarter <= features[odd_one] <= high[0] - quarter else None


def _below_looks(features: np.ndarray, gap_min: float,
                 rules: AppearanceRules = APPEARANCE_RULES) -> int | None:
    """The darkest cell when it lies below the darker of two clear looks that the other
    cells show by more than half the gap between them (something dark over the whole
    plate: a figure's cloak over a tiny plate at a steep camera), or None. Left in, it
    widens the darker look past the spread test. A cell beyond the lighter look is not
    set aside: a plate lit in a brighter spot of the room would be, and the looks are
    then in doubt."""
    darkest = int(np.argmin(features))
    looks = _clear_looks(np.delete(features, darkest), gap_min, rules)
    if looks is not None and features[darkest] < looks[1][0] - looks[0] / 2:
        return darkest
    return None


def _all_alike(
    parts: np.ndarray,
    features: np.ndarray,
    look: Look,
    on: np.ndarray | None,
    off: np.ndarray | None,
    rules: AppearanceRules = APPEARANCE_RULES,
) -> Decision:
    """Every cell shows one look: only references (or, for the ToA plates, the absolute
    fallback) can say which. Brightness may have changed since calibration, so the
    references are compared in brightness-free terms wherever the looks differ in colour."""
    n = len(features)
    none = np.zeros(n)
    colour = np.median(parts.reshape(-1, 3), axis=0)
    if look is Look.TOA_PLATE:
        level = float(toa_chroma(colour, rules))
        if on is not None and off is not None:
            high, low = float(toa_chroma(on, rules)), float(toa_chroma(off, rules))
            if high <= low:
                return Decision(None, none, features, "unlike-references")
            threshold, margin, confidence, method = (
                (high + low) / 2, rules.reference_margin * (high - low), REFERENCE_CONFIDENCE,
                "references",
            )
        else:
            threshold, margin, confidence, method = (
                rules.toa_threshold, rules.toa_margin, FALLBACK_CONFIDENCE, "absolute",
            )
        if abs(level - threshold) < margin:
            return Decision(None, none, features, "ambiguous")
        state = int(level > threshold)
        return Decision(np.full(n, state, np.int64), np.full(n, confidence), features, None,
                        None, method)
    if on is None or off is None:
        return Decision(None, none, features, "no-references")
    # the colours as sampled, and (when the looks differ in colour, not only in brightness)
    # the colours with brightness divided out: the latter decides, the former may not object
    side = _reference_side(colour, on, off, rules)
    shade_on, shade_off = _shade_free(on), _shade_free(off)
    if np.abs(shade_on - shade_off).max() > rules.shade_free_difference:
        shade_side = _reference_side(_shade_free(colour), shade_on, shade_off, rules)
        side = None if side is not None and shade_side != side else shade_side
    if side is None:
        return Decision(None, none, features, "ambiguous")
    return Decision(np.full(n, side, np.int64), np.full(n, REFERENCE_CONFIDENCE), features,
                    None, None, "references")


def _shade_free(colour: np.ndarray) -> np.ndarray:
    colour = np.asarray(colour, np.float64)
    return colour / max(float(colour.max()), 1.0)


def _reference_side(colour: np.ndarray, on: np.ndarray, off: np.ndarray,
                    rules: AppearanceRules = APPEARANCE_RULES) -> int | None:
    """1 when ``colour`` is clearly nearer ``on`` along the off->on axis, 0 when clearly
    nearer ``off``, ``None`` in between."""
    on, off = np.asarray(on, np.float64), np.asarray(off, np.float64)
    axis = on - off
    t = float((colour - off) @ axis / float(axis @ axis))
    if abs(t - 0.5) < rules.reference_margin:
        return None
    return int(t > 0.5)



def _noise_reach(parts: np.ndarray, typical: float, members: np.ndarray, look: Look,
                 on: np.ndarray | None, off: np.ndarray | None,
                 rules: AppearanceRules = APPEARANCE_RULES) -> float:
    """How far the frame's own noise moves a sector's feature at one look's colour (the
    mean colour of ``members``, cells): the feature's change when a channel moves by
    :attr:`AppearanceRules.noise_reach` times the frame's ``typical`` sector spread, the most of the
    three channels.

    Why: the ToA feature's chroma divides by red and reads blue, which an unlit diamond
    has little of: JPEG's coarse colour moves an unlit sector's feature three times as
    far as a lit one's, and a share of the gap between the looks put a plain unlit
    sector beyond its look (foreign, the plate hidden) on one JPEG frame in three."""
    step = rules.noise_reach * typical
    if step <= 0.0 or not members.any():
        return 0.0
    colour = parts[members].mean(axis=(0, 1))
    moved = colour[None, :] + np.vstack([np.eye(3), -np.eye(3)]) * step
    changes = point_features(np.clip(moved, 0.0, 255.0), look, on, off, rules) - \
        point_features(colour[None, :], look, on, off, rules)
    return float(np.max(np.abs(changes)))


def _mixed_sectors(
    spread: np.ndarray,
    typical: float,
    parts: np.ndarray,
    features: np.ndarray,
    clean: np.ndarray,
    mid: float,
    rules: AppearanceRules = APPEARANCE_RULES,
) -> np.ndarray:
    """(cells, sectors) True where a sector's points (``spread``, :func:`sector_stats`)
    spread over more than :attr:`AppearanceRules.mix_spread` of the colour difference
    between the two looks and well beyond the frame's ``typical`` sector (its noise)."""
    high = clean & (features > mid)
    low = clean & (features <= mid)
    contrast = float(np.max(np.abs(parts[high].mean(axis=(0, 1)) - parts[low].mean(axis=(0, 1)))))
    return spread > max(rules.mix_spread * contrast, rules.mix_over_typical * typical, 1.0)


def _off_hue(parts: np.ndarray, rules: AppearanceRules = APPEARANCE_RULES) -> np.ndarray:
    """(cells, sectors) True where a sector's hue is far from the frame's: lit and unlit ToA
    diamonds share their gold hue (they differ in blue, saturation and value), while a
    player's skin or clothes over a diamond do not."""
    hue = _hue_deg(parts)
    typical = float(np.median(hue))
    return np.abs((hue - typical + 180.0) % 360.0 - 180.0) > rules.hue_tolerance


def _hue_deg(bgr: np.ndarray) -> np.ndarray:
    """The hue angle (degrees) of BGR colours (last axis)."""
    b, g, r = bgr[..., 0], bgr[..., 1], bgr[..., 2]
    return np.degrees(np.arctan2(np.sqrt(3.0) * (g - b), 2 * r - g - b))


def _lone_look_unborne(parts: np.ndarray, lit: np.ndarray,
                       rules: AppearanceRules = APPEARANCE_RULES) -> int | None:
    """The one cell that alone shows a look, when the plates' own colour does not bear
    that look out: its chroma not clearly on that look's side of the threshold the
    all-alike fallback decides by (:attr:`AppearanceRules.toa_threshold`,
    :attr:`~AppearanceRules.toa_margin`); else None. Such a cell is covered, not a plate
    of the other state.

    Why: a body over a plate darkens it into a second look of one cell. The player
    centred on the plate just stepped on, in white and gold at 150% display scaling and
    through JPEG, read unlit among six lit plates (chroma -1.11, where this room's lit
    plates showed -0.65 and its unlit ones -1.4), and the overlay marked plates to step
    on in a solved room.

    Nor is a lone cell whose hue strays from the other look's by more than
    :attr:`AppearanceRules.lone_hue_tolerance`: lit and unlit diamonds share their gold
    hue, and orange legs centred over a lit diamond, in their own shade, read unlit
    (chroma -1.29, just clear) among six lit plates, 7.1° off their hue (at 29° and 150%
    display scaling, on both room sources). Nor is a lone cell both darker than a plate
    of the other state is (:attr:`AppearanceRules.lone_darker_doubt`) and off its hue by
    :attr:`AppearanceRules.lone_hue_doubt`: at 68° such legs read unlit among seven lit
    plates 4.6° off and 0.24 darker."""
    cells = np.median(parts, axis=1)  # (cells, 3): each cell's median colour
    brightness = np.log(cells.max(axis=1) + 8.0)
    for state in (0, 1):
        members = np.flatnonzero(lit == state)
        if len(members) != 1:
            continue
        level = float(toa_chroma(cells[members[0]], rules))
        clear = (level > rules.toa_threshold + rules.toa_margin if state
                 else level < rules.toa_threshold - rules.toa_margin)
        others = _hue_deg(cells[lit != state])
        if len(others):
            stray = (float(_hue_deg(cells[members[0]])) - float(np.median(others)) + 180.0) \
                % 360.0 - 180.0
            darker = float(np.median(brightness[lit != state])) - float(brightness[members[0]])
            doubt = (rules.lone_hue_doubt if darker > rules.lone_darker_doubt
                     else rules.lone_hue_tolerance)
            clear = clear and abs(stray) <= doubt
        if not clear:
            return int(members[0])
    return None


def _uneven_brightness(parts: np.ndarray, rules: AppearanceRules = APPEARANCE_RULES) -> np.ndarray:
    """(cells,) True where the sectors' brightness (luma) spreads over more than
    :attr:`AppearanceRules.uneven_luma` of its mean: a figure over part of the diamond,
    not its look.

    Why: JPEG keeps brightness at full resolution and colour at half, and coarsely; the
    ToA feature reads blue, so on a JPEG frame every plain plate's sectors spread, and the
    frame's typical spread hid a figure's. A player in gold seen from straight above,
    centred on a lit plate, read unlit (three sectors unlit, the fourth just short of the
    middle) on a JPEG frame and hidden on the same frame grabbed raw: his clothes and
    dark head spread the sectors' luma by 24% of its mean, where plain diamonds keep
    within 1.4% on the real screenshot (3.1% through JPEG at quality 70) and 5.4% on
    steep drawn rooms at 150% and through JPEG."""
    return _luma_spread(parts) > rules.uneven_luma


def _luma_spread(parts: np.ndarray) -> np.ndarray:
    """(cells,) How far the sectors' luma spreads, as a share of its mean."""
    luma = parts @ LUMA_BGR
    return np.ptp(luma, axis=1) / np.maximum(luma.mean(axis=1), 1.0)


def _lit_is_brighter(parts: np.ndarray, lit: np.ndarray,
                     rules: AppearanceRules = APPEARANCE_RULES) -> bool:
    """A second, independent cue for the ToA plates: lit diamonds are also brighter."""
    if lit.min() == lit.max():
        return False  # one look only: nothing to compare, so no confirmation
    value = np.log(parts.max(axis=2).mean(axis=1) + 8.0)
    return float(value[lit == 1].mean() - value[lit == 0].mean()) > rules.lit_brighter_by
