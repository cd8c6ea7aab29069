"""Stage 1 of the ring search: the gold blobs in a picture that could be diamonds.

Every plate has a gold diamond, and so do statues, items and the UI: this stage keeps
compact, solid gold blobs of a diamond's possible size, and splits off the diamonds that
a figure's clothes or a weapon's stroke join to other gold (the lattice, later, picks what
fits). Frames wider than :attr:`BlobParams.half_resolution_above` are searched at half
resolution first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from assistant.vision.ring.shape import DIAMOND_AREA, Blobs


@dataclass(frozen=True)
class BlobParams:
    """Which gold blobs are diamonds. Measured on the drawn rooms (cameras straight down
    to 68 degrees, display scaling 100-150%) and the real screenshot's floor."""

    #: HSV range of "gold-ish" (OpenCV's H 0-180), loose for any client, brightness or
    #: gamma: the diamonds of the drawn rooms and the real screenshot, lit and unlit
    gold_low: tuple[int, int, int] = (9, 95, 35)
    #: ... to this
    gold_high: tuple[int, int, int] = (40, 255, 255)
    #: plate spacings searched (pixels, full resolution): blobs from a quarter of the
    #: smaller one's diamond to twice the larger one's are kept (a bound set, not measured)
    spacings_px: tuple[int, int] = (25, 150)
    #: frames whose larger side is over this (pixels) are searched at half resolution
    #: first; plates spaced less than ~32 px vanish at half
    half_resolution_above: int = 1400
    #: the largest blobs kept, at most (a bound on the search's cost, set, not measured)
    max_candidates: int = 160
    #: a diamond's box is at most this many times as long as it is wide ...
    compact_elongation: float = 3.2
    #: ... except the farthest diamonds of a 68-degree view, seen along grazing rays
    #: (boxes 3.3 times as wide as high measured on drawn rooms), taken up to this when
    #: flat (a camera without roll squeezes the floor along the screen's y) and convex
    max_elongation: float = 4.5
    #: ... convex: far squeezed diamonds measured 0.79-0.87 of their hull, the click
    #: arrow on the floor (as flat) 0.47-0.5
    squeezed_solidity: float = 0.7
    #: a gold blob is split into its bright part (a diamond joined to a figure's brown or
    #: ochre clothes, at a steep camera) when its bright and dark parts differ this much
    #: in 8-bit value
    two_tone: int = 60
    #: openings this many pixels across cut a weapon's or staff's thin stroke (about 0.03
    #: of a spacing wide; a diamond is 0.33 across) away from the diamonds it joins
    stroke_cuts: tuple[int, ...] = (3, 5)
    #: only blobs less solid than this are cut (a whole diamond measures 0.85 or more,
    #: even far and squeezed)
    cut_below_solidity: float = 0.8
    #: a piece counts when the shape it was cut from is at least this much larger
    cut_from_larger: float = 1.5
    #: pieces kept of one blob, the largest (a staff across two plates makes two)
    most_pieces: int = 4
    #: a whole diamond fills its convex hull (0.86-0.95 measured at 55-68 degrees); one
    #: with a figure's legs over its middle is a U of the right size and place (0.48)
    whole_solidity: float = 0.7


BLOBS = BlobParams()


def gold_blobs(frame: np.ndarray, factor: int, *, split: bool = True,
                cut_strokes: bool = False) -> Blobs:
    """Gold blobs that could be diamonds. ``split``: also the bright parts of two-tone
    blobs (:func:`_bright_parts`), for searches, where the lattice picks what fits; not
    for checks that one place shows a *whole* diamond, which a bright part of a figure
    over the plate must not pass. ``cut_strokes``: also the diamonds a weapon's thin
    stroke joins to others (:func:`_cut_strokes`), for a fresh search only: a follow
    matches blobs to the last view's places, where the pieces of a cut figure could
    match a place its diamond does not."""
    height, width = frame.shape[:2]
    if factor > 1:
        # resize all channels (a BGRA frame from mss is contiguous; its BGR view is not,
        # and OpenCV would copy it first), then drop alpha from the small copy
        small = cv2.resize(frame, (width // factor, height // factor),
                           interpolation=cv2.INTER_AREA)
        small = np.ascontiguousarray(small[..., :3])
    else:
        small = np.ascontiguousarray(frame[..., :3])
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    mask = cv2.inRange(hsv, BLOBS.gold_low, BLOBS.gold_high)
    # outer boundaries at every depth: a diamond inside a gold overlay ring is still found
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    outer: list[tuple[np.ndarray, float]] = []
    if hierarchy is not None:
        links = hierarchy[0]
        holes = np.zeros(len(contours))
        for index, link in enumerate(links):
            if link[3] >= 0:  # a hole: count its area against its component
                holes[link[3]] += cv2.contourArea(contours[index])
        outer = [(contours[i], holes[i]) for i in range(len(contours)) if links[i][3] < 0]
    least, most = BLOBS.spacings_px
    limits = (DIAMOND_AREA * least**2 * 0.25 / factor**2,
              DIAMOND_AREA * most**2 * 2.0 / factor**2)
    found: list[tuple[float, float, float, float]] = []
    cut = 0
    for contour, hole_area in outer:
        blob = _diamond_blob(contour, hole_area, mask, limits)
        parts = _bright_parts(contour, mask, hsv[..., 2], limits) if split else []
        if cut_strokes and (blob is None or blob[3] < BLOBS.cut_below_solidity):
            pieces = _parts_without_strokes(contour, mask, limits, hsv[..., 2])
            cut += len(pieces)
            parts = parts + pieces
        if blob is not None:
            found.append(blob)
            # a diamond joined to a figure can still be compact: its bright part, well
            # off the blob's centre, is a candidate too, and the lattice picks what fits
            # (a lit diamond's brighter middle sits on its centre: no new candidate)
            parts = [part for part in parts if part[2] < 0.7 * blob[2]
                     and math.hypot(part[0] - blob[0], part[1] - blob[1])
                     > 0.5 * math.sqrt(part[2])]
        found.extend(parts)
    centres = [((cx + 0.5) * factor - 0.5, (cy + 0.5) * factor - 0.5)
               for cx, cy, _a, _s in found]
    areas = [area * factor**2 for _x, _y, area, _s in found]
    solidity = [value for _x, _y, _a, value in found]
    if len(areas) > BLOBS.max_candidates:
        keep = np.argsort(areas)[::-1][:BLOBS.max_candidates]
        centres = [centres[i] for i in keep]
        areas = [areas[i] for i in keep]
        solidity = [solidity[i] for i in keep]
    return Blobs(np.array(centres, np.float64).reshape(-1, 2), np.array(areas, np.float64),
                 np.array(solidity, np.float64), cut)


def _diamond_blob(
    contour: np.ndarray, hole_area: float, mask: np.ndarray, limits: tuple[float, float]
) -> tuple[float, float, float, float] | None:
    """(x, y, pixel area, solidity) of a compact, solid gold blob of a diamond's possible
    size, or None for anything else (text strokes, lines, overlay rings, letters)."""
    min_area, max_area = limits
    if len(contour) < 3:
        return None
    _x, _y, w, h = cv2.boundingRect(contour)
    box = w * h
    if box < min_area * 0.8 or box > max_area * 2.5:
        return None
    m = cv2.moments(contour)
    area = max(m["m00"], 0.0) + 0.5 * cv2.arcLength(contour, True)  # pixel count
    if not min_area <= area <= max_area:
        return None
    elongation = max(w, h) / max(min(w, h), 1)
    if area < 0.3 * box or elongation > BLOBS.max_elongation:
        return None  # not compact: text strokes, lines, rings
    if m["m00"] <= 0 or hole_area > 0.2 * m["m00"]:
        return None  # a ring (an overlay mark around a plate), not a diamond
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    if mask[min(int(cy + 0.5), mask.shape[0] - 1), min(int(cx + 0.5), mask.shape[1] - 1)] == 0:
        return None  # hollow: an overlay ring or a letter, not a diamond
    hull = cv2.contourArea(cv2.convexHull(contour))
    solidity = float(m["m00"] / hull) if hull > 0 else 1.0
    if elongation > BLOBS.compact_elongation and (h > w or solidity < BLOBS.squeezed_solidity):
        return None  # a squeezed diamond is flat (the camera never rolls) and convex
    return cx, cy, area, solidity


def _bright_parts(
    contour: np.ndarray, mask: np.ndarray, value: np.ndarray, limits: tuple[float, float],
    *, cut_strokes: bool = False,
) -> list[tuple[float, float, float, float]]:
    """The diamond-like blobs among the bright part of a two-tone gold blob (``cut_strokes``:
    only those left when thin strokes are cut away from that part)."""
    x, y, w, h = cv2.boundingRect(contour)
    if w * h < limits[0] * 2 or w * h > limits[1] * 10:
        return []
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [contour], -1, 255, thickness=-1, offset=(-x, -y))
    inside &= mask[y:y + h, x:x + w]
    values = value[y:y + h, x:x + w][inside > 0]
    if len(values) < 8:
        return []
    level, _ = cv2.threshold(values.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright_values, dark_values = values[values > level], values[values <= level]
    if not len(bright_values) or not len(dark_values) or (
            bright_values.mean() - dark_values.mean() < BLOBS.two_tone):
        return []
    bright = np.where(value[y:y + h, x:x + w] > level, inside, 0).astype(np.uint8)
    parts, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if cut_strokes:  # the bright part may be diamonds joined by a bright weapon
        return [(bx + x, by + y, area, solidity)
                for bx, by, area, solidity in _cut_strokes(bright, limits)]
    found = []
    for part in parts:
        blob = _diamond_blob(part, 0.0, bright, limits)
        if blob is not None:
            found.append((blob[0] + x, blob[1] + y, blob[2], blob[3]))
    return found


def _parts_without_strokes(
    contour: np.ndarray, mask: np.ndarray, limits: tuple[float, float], value: np.ndarray
) -> list[tuple[float, float, float, float]]:
    """The diamond-like blobs left when thin strokes are opened away from a gold blob, or
    from its bright part (a bright weapon across diamonds joined to a darker body)."""
    x, y, w, h = cv2.boundingRect(contour)
    if w * h < limits[0] * 2 or w * h > limits[1] * 10:
        return []  # too small to hold two diamonds, or a panel, not a figure
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [contour], -1, 255, thickness=-1, offset=(-x, -y))
    inside &= mask[y:y + h, x:x + w]
    pieces = [(bx + x, by + y, area, solidity)
              for bx, by, area, solidity in _cut_strokes(inside, limits)]
    pieces += _bright_parts(contour, mask, value, limits, cut_strokes=True)
    # a weapon joins a few diamonds, and the bits of clothes cut off with them are smaller
    return sorted(pieces, key=lambda piece: piece[2], reverse=True)[:BLOBS.most_pieces]


def _cut_strokes(inside: np.ndarray, limits: tuple[float, float]
                 ) -> list[tuple[float, float, float, float]]:
    """Diamond-like blobs (in ``inside``'s pixels) that openings of :data:`BLOBS.stroke_cuts`
    part from the shapes joined to them: a piece counts only where the shape it was cut
    from is far larger (a lone diamond, opened, is itself again and no new candidate)."""
    _count, labels, stats, _centres = cv2.connectedComponentsWithStats(inside, connectivity=8)
    found: list[tuple[float, float, float, float]] = []
    for size in BLOBS.stroke_cuts:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        opened = cv2.morphologyEx(inside, cv2.MORPH_OPEN, kernel)
        parts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for part in parts:
            blob = _diamond_blob(part, 0.0, opened, limits)
            if blob is None:
                continue
            x, y, area, _solidity = blob
            shape = labels[min(int(y + 0.5), labels.shape[0] - 1),
                           min(int(x + 0.5), labels.shape[1] - 1)]
            if stats[shape, cv2.CC_STAT_AREA] < BLOBS.cut_from_larger * area:
                continue  # not cut from anything: the shape is this diamond
            if all(math.hypot(x - fx, y - fy) > 0.5 * math.sqrt(area)
                   for fx, fy, _a, _s in found):
                found.append(blob)
    return found
