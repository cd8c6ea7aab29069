"""Whether the floor above a plate on screen shows that nothing stands on it.

The reader sets a plate aside for something over *part* of it (no diamond's shape found
there, a shade, part of it foreign, its edge against its middle). That happens to plain
plates through strong JPEG at a steep, far camera, and to plates under a body: legs, a
stroke or clothes in the plate's own colours pass the cover test
(:mod:`assistant.vision.cover`) while the diamond's whole colour reads the wrong look.
The diamond alone cannot tell the two apart; the picture round it can.

A figure standing on a plate rises on screen from it: at a pitched camera its body
covers the floor and the plates *behind* the plate (up the screen), well past the plate's
purple frame. Where nothing stands there, the floor behind the plate looks the way the
ring's geometry predicts: the floor is tiled with the plates' period, so the floor at an
offset behind this plate looks like the floor at the same offset from the other plates
(and a plate's diamond there like the diamonds of its look). This module measures that
and says *nothing stands on it* only on positive evidence:

* the camera is pitched enough that a standing figure of the least height would rise
  over a long enough stretch of the floor past the plate's frame; at a camera flatter
  than that (below about 38 degrees from straight down) a body hides only its own plate,
  the floor behind says nothing, and the plate itself is compared instead: its frame and
  diamond point by point with the plates read, the diamond as each look, and it must be
  a plate of one look (a body over it from above is unlike a plate of either);
* nearly every probed point behind the plate (a band as wide as a body across the plate,
  from just past its frame to where a figure's legs and waist would reach) is vouched for
  by the same offset behind at least two other plates that were read, in colour (Lab);
* those other plates' probed points are not in the screen column over any plate set
  aside (whose own body could vouch for a body) and in the room's floor.

Anything short of that (too few plates to compare with, the band past the picture's
edge, a plate too small on screen, points not vouched for) is no evidence, and the plate stays
covered or unclear. The comparison is relative, as everywhere in the reader: JPEG,
gamma, a client's colours and the camera spoil every plate's surroundings alike.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from assistant.vision.geometry import GridGeometry, pixels_at
from assistant.vision.trace import note

__all__ = ["STANDING", "Probe", "StandingParams", "nothing_stands", "probe",
           "smoothed_frame"]

#: The 3x3 ring's places (row, column), the centre left out: the plates' lattice.
_RING = frozenset((r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1))


@dataclass(frozen=True)
class StandingParams:
    """What *nothing stands on it* needs. Grid units are plate spacings (a floor tile is
    0.5); Lab units run 0-100 from black to white.

    Measured on the real screenshot's pixels through a game camera with nobody on the
    plates (`bench-vision --real-room`: yaw any, pitch 0-68 degrees, the room a quarter
    of the frame to nine tenths, gamma 0.8-1.25, JPEG 30-95), and on this project's drawn
    walk-throughs (player and team-mates over and beside plates, every pitch and steep
    cameras, `bench-walk`): see docs/adr/0075-standing-figure-evidence.md."""

    #: the least height of a standing figure (a player is 0.82-1.0 in the drawn model,
    #: 1.6-2 floor tiles in the game) ...
    figure_height: float = 0.8
    #: ... and the tallest (the screen column its body hides, for the references to
    #: keep out of)
    tallest_figure: float = 1.0
    #: a body over part of the plate may stand this far in front of its centre (towards
    #: the camera), so it rises that much less far behind it
    feet_in_front: float = 0.15
    #: the band probed behind the plate runs from just past its purple frame (0.26) to
    #: where a figure of the least height reaches, not past the room's floor
    #: (:attr:`room_margin`); the band in front of it from its frame this far towards
    #: the camera (a body standing in front that reaches over the plate passes there) ...
    band_start: float = 0.32
    front_band: float = 0.25
    #: ... and this wide either side of the plate's centre (a body over part of the plate
    #: stands within the frame's reach and is a third of a spacing wide)
    band_half_width: float = 0.45
    #: the band must span this much floor (grid units) and this many pixels up the
    #: screen, or a figure would not show in it: no evidence
    least_band: float = 0.15
    least_band_px: float = 6.0
    #: the band is sampled this densely on screen (pixels between points, at most)
    sample_px: float = 1.5
    #: a probed colour within this of a reference's (Lab; the nearest of the reference's
    #: pixel and its eight neighbours) is vouched for by it: plain floor at the same
    #: offsets through JPEG 30-95 and gamma keeps within it, so the unvouched shares
    #: below stay small on plain plates
    vouch_lab: float = 12.0
    #: each probed point needs this many references vouching for it
    vouchers: int = 2
    #: a figure shows as unvouched points: this share of a band's comparable points
    #: (plain plates of the real room, where there was evidence: 0-0.026; drawn bodies
    #: over a plate's diamond: 0.19 and more) ...
    unvouched_share: float = 0.05
    #: ... or a run up the screen this long (a share of the band's rows, at least two
    #: rows) in one column: a leg, an arm, a stroke (real room: up to 0.32 of the rows,
    #: a tile joint through JPEG; drawn bodies over a diamond: 0.78 and more)
    run_share: float = 0.4
    #: at least this share of the band comparable (in the picture, in the room's floor,
    #: with enough references)
    comparable_share: float = 0.6
    #: a screen column over a plate set aside (its own body's place) is this wide either
    #: side and reaches this far behind it past the tallest figure (grid units), for the
    #: references to keep out of
    column_half_width: float = 0.6
    column_margin: float = 0.35
    #: the room's floor reaches this far past the ring's outer plates' centres (0.73 on
    #: the real screenshot; walls beyond)
    room_margin: float = 0.7
    #: at a camera too flat for a figure to rise past the plate's frame, the band over the
    #: plate itself reaches this far from its centre either way (its frame, 0.26-0.3,
    #: and a little floor; by design), and ...
    plate_half_band: float = 0.34
    #: ... at most this share of its comparable points may be unlike a plate of the look
    #: told (plain real-room plates told at flat cameras: at most 0.025), ...
    over_plate_share: float = 0.08
    #: ... and its diamond's points must be nearer in colour to the diamonds of that look
    #: than of the other, this share of them and the median point by this much Lab (plain
    #: real-room plates: 0.66-0.98 of the points, the median 3.0-8.8 nearer). Drawn
    #: figures over or beside a plate at 0-36 degrees, in a lit or unlit diamond's gold
    #: or any colours (1,920 probes): 75 told, all their own plate's look, none with a
    #: body over more than 0.36 of the diamond (tests/test_vision_standing.py)
    nearer_share: float = 0.65
    nearer_lab: float = 2.0
    #: points within this of a plate's centre are its frame (within :data:`_DIAMOND` its
    #: diamond, whose look matters)
    frame_radius: float = 0.3


#: The parameters the reader uses.
STANDING = StandingParams()
_DIAMOND = 0.21  # |u| + |v| of a diamond with its bevel, grid units


@dataclass(frozen=True)
class Probe:
    """What the bands behind and in front of one plate showed: ``evidence`` (they could
    show a figure at all), how many points were ``comparable`` of ``points``, how many of
    those ``unvouched``, the ``longest_run`` of unvouched points up the screen, and
    ``clear`` (nothing stands on it); ``why`` in words, for the trace."""

    evidence: bool
    points: int
    comparable: int
    unvouched: int
    clear: bool
    why: str
    longest_run: int = 0
    #: at a flat camera, the look the plate itself showed (0 unlit, 1 lit), else None
    look: int | None = None


def _lab(bgr: np.ndarray) -> np.ndarray:
    shape = bgr.shape
    flat = np.clip(bgr.reshape(-1, 1, 3), 0, 255).astype(np.float32) / 255.0
    return cv2.cvtColor(flat, cv2.COLOR_BGR2LAB).reshape(shape).astype(np.float64)


def _up_the_screen(geometry: GridGeometry, place: np.ndarray) -> tuple[np.ndarray, float, float]:
    """At a floor point: the unit floor direction that runs up the screen, the camera's
    tangent of pitch there and its pixels per grid unit across the view (from the
    placement's local Jacobian: a pitched view shortens the floor along the screen's
    vertical by the cosine of the pitch)."""
    step = 0.05
    image = geometry.to_image(place + np.array([(0.0, 0.0), (step, 0.0), (0.0, step)]))
    jacobian = np.column_stack([image[1] - image[0], image[2] - image[0]]) / step
    singular = np.linalg.svd(jacobian, compute_uv=False)
    across, along = float(singular[0]), float(singular[1])
    cosine = min(1.0, along / max(across, 1e-9))
    tangent = float(np.sqrt(max(0.0, 1.0 - cosine * cosine)) / max(cosine, 1e-6))
    try:
        up = np.linalg.solve(jacobian, np.array([0.0, -1.0]))
    except np.linalg.LinAlgError:
        return np.zeros(2), 0.0, across
    norm = float(np.linalg.norm(up))
    return (up / norm if norm > 0 else up), tangent, across


def _kind(points: np.ndarray, looks: dict[tuple[int, int], int],
          params: StandingParams) -> np.ndarray:
    """Per floor point (N, 2; x = column, y = row), what the ring predicts there:
    0 plain floor, 1 a plate's frame, 2 an unlit diamond, 3 a lit diamond, -1 nothing to
    predict (outside the room's floor, or a diamond whose look is not known)."""
    nearest = np.rint(points).astype(np.int64)
    offset = points - nearest
    # the look of the plate at each lattice place (-1 not read, -2 no plate there)
    board = np.full((3, 3), -2, np.int64)
    for r, c in _RING:
        board[r, c] = looks.get((r, c), -1)
    on_board = ((nearest >= 0) & (nearest <= 2)).all(axis=1)
    column, row = np.clip(nearest[:, 0], 0, 2), np.clip(nearest[:, 1], 0, 2)
    look = np.where(on_board, board[row, column], -2)
    framed = (look > -2) & (np.hypot(offset[:, 0], offset[:, 1]) < params.frame_radius)
    diamond = framed & (np.abs(offset).sum(axis=1) < _DIAMOND)
    kinds = np.where(framed, 1, 0)
    kinds = np.where(diamond, np.where(look >= 0, 2 + look, -1), kinds)
    low, high = -params.room_margin, 2.0 + params.room_margin
    outside = ((points < low) | (points > high)).any(axis=1)
    kinds[outside] = -1
    return kinds


def _to_room_edge(place: np.ndarray, direction: np.ndarray, params: StandingParams) -> float:
    """How far from ``place`` along ``direction`` the room's floor goes on (grid units)."""
    low, high = -params.room_margin, 2.0 + params.room_margin
    reach = np.inf
    for axis in range(2):
        if direction[axis] > 1e-9:
            reach = min(reach, (high - place[axis]) / direction[axis])
        elif direction[axis] < -1e-9:
            reach = min(reach, (low - place[axis]) / direction[axis])
    return float(reach)


def _longest_runs(flags: np.ndarray) -> int:
    """The longest run of True down the first axis of ``flags`` (rows, columns)."""
    best = np.zeros(flags.shape[1], np.int64)
    run = np.zeros(flags.shape[1], np.int64)
    for row in flags:
        run = np.where(row, run + 1, 0)
        best = np.maximum(best, run)
    return int(best.max()) if len(best) else 0


class _Scene:
    """One frame's plates as the bands are compared: the picture (blurred 3x3), the
    placement, the plates read and the screen columns the references keep out of."""

    _SHIFTS = np.array([(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)], np.float64)

    def __init__(self, smooth: np.ndarray, geometry: GridGeometry,
                 cells: list[tuple[int, int]], looks: dict[int, int], hiding: list[int],
                 params: StandingParams, provisional: dict[int, int] | None = None) -> None:
        self.smooth, self.geometry, self.cells, self.looks = smooth, geometry, cells, looks
        self.params = params
        self.place_looks = {cells[i]: look for i, look in looks.items()}
        self.columns = {i: _column(geometry, cells[i]) for i in hiding}
        # a doubted plate witnesses only for a look too few plates read show: more
        # witnesses of one look bring its nearest colours nearer, whatever the plate is
        read_of = [sum(1 for look in looks.values() if look == which) for which in (0, 1)]
        self.provisional = {i: look for i, look in (provisional or {}).items()
                            if i not in looks and read_of[look] < params.vouchers}

    def colours(self, floor: np.ndarray, spread: bool = False
                ) -> tuple[np.ndarray, np.ndarray]:
        """Lab colours at floor points (with their eight neighbouring pixels when
        ``spread``) and whether each lies inside the picture."""
        image = self.geometry.to_image(floor)
        height, width = self.smooth.shape[:2]
        inside = ((image[:, 0] >= 1) & (image[:, 0] <= width - 2)
                  & (image[:, 1] >= 1) & (image[:, 1] <= height - 2))
        if spread:
            image = image[:, None, :] + self._SHIFTS[None]
        return _lab(pixels_at(self.smooth, image)), inside

    def in_a_column(self, floor: np.ndarray, but: int | None = None) -> np.ndarray:
        """Per floor point: inside the screen column over a plate set aside (``but`` that
        one's own)."""
        params = self.params
        hit = np.zeros(len(floor), bool)
        for index, (centre, direction, tangent) in self.columns.items():
            if index == but:
                continue
            d = floor - centre
            a = d @ direction
            b = d @ np.array([-direction[1], direction[0]])
            hit |= ((a >= -params.column_margin)
                    & (a <= params.tallest_figure * tangent + params.column_margin)
                    & (np.abs(b) <= params.column_half_width))
        return hit

    def judge(self, suspect: int, offsets: np.ndarray, shape: tuple[int, int]
              ) -> tuple[int, int, int, int]:
        """A band at ``offsets`` (rows * columns, 2) from the suspect plate: its points,
        those comparable, those unvouched, and the longest unvouched run up the screen."""
        kinds, comparable, unvouched, _ = self.compare(suspect, offsets)
        run = _longest_runs(unvouched.reshape(shape))
        return len(kinds), int(comparable.sum()), int(unvouched.sum()), run

    def compare(self, suspect: int, offsets: np.ndarray, suspect_look: int | None = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Per point of a band at ``offsets`` from the suspect plate: what the ring
        predicts there (:func:`_kind`), whether it is comparable, whether unvouched, and
        how far (Lab) its colour is from the references' at the same offset, as many of
        them as must vouch for it (inf where fewer are comparable). ``suspect_look``: the
        look the suspect's own diamond is compared as (a band over the plate itself).

        Over the plate itself the plates doubted with it witness too, each as the look
        the sectors' decision gave it (``provisional``), for a look the doubts left fewer
        plates read of than must vouch, but never alone: every point needs a plate read
        by its sectors among its vouchers. Such a look is then still compared; two bodies
        alike over two plates never vouch for each other."""
        params = self.params
        place_looks = self.place_looks if suspect_look is None else {
            **self.place_looks, self.cells[suspect]: suspect_look}
        points = np.array(self.cells[suspect][::-1], np.float64) + offsets
        kinds = _kind(points, place_looks, params)
        lab, inside = self.colours(points)
        votes = np.zeros(len(points), np.int64)
        witnesses = np.zeros(len(points), np.int64)
        read_votes = np.zeros(len(points), np.int64)
        read_witnesses = np.zeros(len(points), np.int64)
        distances, read_distances = [], []
        witnesses_now = dict.fromkeys(self.looks, None)
        if suspect_look is not None:
            witnesses_now.update({i: look for i, look in self.provisional.items()})
        for index, own_look in witnesses_now.items():
            if index == suspect:
                continue
            looks_there = place_looks if own_look is None else {
                **place_looks, self.cells[index]: own_look}
            there = np.array(self.cells[index][::-1], np.float64) + offsets
            their_lab, their_inside = self.colours(there, spread=True)
            same = ((_kind(there, looks_there, params) == kinds)
                    & ~self.in_a_column(there, but=index) & their_inside)
            nearest = np.linalg.norm(their_lab - lab[:, None, :], axis=2).min(axis=1)
            vouched = same & (nearest <= params.vouch_lab)
            witnesses += same
            votes += vouched
            distances.append(np.where(same, nearest, np.inf))
            if own_look is None:
                read_witnesses += same
                read_votes += vouched
                read_distances.append(distances[-1])
        comparable = inside & (kinds >= 0) & (witnesses >= params.vouchers) \
            & (read_witnesses >= 1)
        unvouched = comparable & ((votes < params.vouchers) | (read_votes < 1))
        if len(distances) >= params.vouchers and read_distances:
            distance = np.maximum(np.sort(np.array(distances), axis=0)[params.vouchers - 1],
                                  np.min(np.array(read_distances), axis=0))
        else:
            distance = np.full(len(points), np.inf)
        return kinds, comparable, unvouched, distance


def probe(bgr: np.ndarray, geometry: GridGeometry, cells: list[tuple[int, int]],
          suspect: int, looks: dict[int, int], unread: list[int],
          params: StandingParams = STANDING, smoothed: np.ndarray | None = None,
          provisional: dict[int, int] | None = None) -> Probe:
    """The bands behind (or, at a camera too flat for that, over) and in front of plate
    ``cells[suspect]`` against the same bands of the plates read (``looks``: index into
    ``cells`` to 0 unlit / 1 lit). ``unread``: the plates set aside (indices), whose
    screen columns the references keep out of. ``smoothed``: the frame already blurred
    3x3 (worked out once per frame). ``provisional``: the looks the sectors' decision gave
    the plates doubted (:meth:`_Scene.compare`)."""
    here = np.array(cells[suspect][::-1], np.float64)
    up, tangent, pixels = _up_the_screen(geometry, here)
    if not np.any(up):
        return Probe(False, 0, 0, 0, False, "the placement gives no direction up the screen")
    reach = min(params.figure_height * tangent - params.feet_in_front,
                _to_room_edge(here, up, params))
    span = reach - params.band_start
    cosine = 1.0 / np.sqrt(1.0 + tangent * tangent)
    rise_px = span * pixels * cosine  # floor behind the plate shortened up the screen
    # too flat for a figure of the least height to rise past the frame at all: the band
    # behind says nothing, and a body standing on the plate covers the plate itself
    flat = params.figure_height * tangent - params.feet_in_front - params.band_start \
        < params.least_band
    if not flat and (span < params.least_band or rise_px < params.least_band_px):
        return Probe(False, 0, 0, 0, False, "too little floor behind the plate, within the "
                     "room and on screen, for a figure to show in")
    if flat and pixels * params.plate_half_band * cosine < params.least_band_px:
        return Probe(False, 0, 0, 0, False, "the plate is too small on screen to be seen "
                     "whole")
    if smoothed is None:
        smoothed = smoothed_frame(bgr)
    scene = _Scene(smoothed, geometry, cells, looks, sorted(set(unread) | {suspect}), params,
                   provisional)
    across = np.array([-up[1], up[0]])
    count = comparable = unvouched = longest = 0
    clear, why, told = True, [], None
    if flat:
        # too flat for a body standing on the plate to rise past its frame: it covers
        # the plate itself from above, which must then look like a plate of one look
        told, found, words = _over_the_plate(scene, suspect, up, across, pixels, cosine)
        count, comparable, unvouched, longest = found
        clear, why = told is not None, [words]
    # behind the plate, where a body standing on it rises; in front of its frame, where
    # a body standing in front passes on its way up over the plate
    bands = [("in front", -params.band_start, -params.band_start - params.front_band)]
    if not flat:
        bands.insert(0, ("behind", params.band_start, reach))
    for name, start, end in bands:
        rows, columns, offsets = _band(start, end, up, across, pixels, cosine,
                                       params.band_half_width, params)
        points, seen, unlike, run = scene.judge(suspect, offsets, (rows, columns))
        count, comparable, unvouched = count + points, comparable + seen, unvouched + unlike
        longest = max(longest, run)
        if seen < params.comparable_share * points:
            clear = False
            why.append(f"{name}: only {seen} of {points} points comparable")
            continue
        least_run = max(2, int(np.ceil(params.run_share * rows)))
        clear &= unlike <= params.unvouched_share * seen and run < least_run
        why.append(f"{name}: {unlike} of {seen} points unlike the floor the ring "
                   f"predicts there, the longest run up the screen {run} of {rows}")
    return Probe(True, count, comparable, unvouched, bool(clear), "; ".join(why), longest,
                 told if clear else None)


def _band(start: float, end: float, up: np.ndarray, across: np.ndarray, pixels: float,
          cosine: float, half_width: float, params: StandingParams
          ) -> tuple[int, int, np.ndarray]:
    """A band of floor offsets from ``start`` to ``end`` up the screen and ``half_width``
    either side, as dense on screen as :attr:`StandingParams.sample_px` asks: its rows,
    its columns and the offsets (rows * columns, 2)."""
    columns = int(np.clip(np.ceil(2 * half_width * pixels / params.sample_px), 7, 61))
    side = np.linspace(-half_width, half_width, columns)
    rows = int(np.clip(np.ceil(abs(end - start) * pixels * cosine / params.sample_px), 4, 40))
    along = np.linspace(start, end, rows)
    offsets = (along[:, None, None] * up + side[None, :, None] * across).reshape(-1, 2)
    return rows, columns, offsets


def _over_the_plate(scene: _Scene, suspect: int, up: np.ndarray, across: np.ndarray,
                    pixels: float, cosine: float
                    ) -> tuple[int | None, tuple[int, int, int, int], str]:
    """At a flat camera: the plate itself and the floor about it, compared point by
    point with the other plates read, its diamond as each look in turn. The plate is of
    a look when its diamond is clearly nearer in colour to that look's diamonds than to
    the other's (:func:`_closer_look`) and, compared as that look, nearly every point is
    vouched for and no run up the screen is not: a body over it from above is unlike a
    plate of either look. Returns the look told (None: not told), the counts (points,
    comparable, unvouched, longest run) under it and the words."""
    params = scene.params
    half = params.plate_half_band
    rows, columns, offsets = _band(-half, half, up, across, pixels, cosine, half, params)
    least_run = max(2, int(np.ceil(params.run_share * rows)))
    found, distance = {}, {}
    for look in (0, 1):
        kinds, comparable, unvouched, distance[look] = scene.compare(suspect, offsets, look)
        diamond = kinds >= 2  # the same points as either look
        found[look] = (int(comparable.sum()), int(unvouched.sum()),
                       _longest_runs(unvouched.reshape(rows, columns)),
                       int((diamond & comparable).sum()), int(diamond.sum()))
    told = _closer_look(distance, diamond, params)
    if told is not None:
        seen, unvouched, run, seen_diamond, in_diamond = found[told]
        if not (seen >= params.comparable_share * len(offsets)
                and seen_diamond >= params.comparable_share * max(in_diamond, 1)
                and unvouched <= params.over_plate_share * seen and run < least_run):
            told = None
    words = "; ".join(f"as {('unlit', 'lit')[look]} {unvouched} of {seen} points unlike a "
                      f"plate, the longest run {run} of {rows}"
                      for look, (seen, unvouched, run, _, _) in found.items())
    verdict = "no plate of one look" if told is None else f"a plate {('unlit', 'lit')[told]}"
    witnessing = [f"({r + 1},{c + 1}) {('unlit', 'lit')[look]}" for index, look
                  in sorted(scene.provisional.items()) if index != suspect
                  for r, c in [scene.cells[index]]]
    if witnessing:
        words += "; doubted plates witnessing as the sectors read them: " + ", ".join(
            witnessing)
    seen, unvouched, run = found[1 if told is None else told][:3]
    return told, (len(offsets), seen, unvouched, run), f"over it: {verdict} ({words})"


def _closer_look(distance: dict[int, np.ndarray], diamond: np.ndarray,
                 params: StandingParams) -> int | None:
    """The look whose diamonds the suspect's diamond points are nearer to in colour (Lab,
    as many references as must vouch), clearly: most of the points and by the median
    point; None when neither is."""
    both = diamond & np.isfinite(distance[0]) & np.isfinite(distance[1])
    if both.sum() < 4:
        return None
    nearer_lit = float((distance[1][both] < distance[0][both]).mean())
    apart = float(np.median(distance[0][both]) - np.median(distance[1][both]))
    if nearer_lit >= params.nearer_share and apart >= params.nearer_lab:
        return 1
    if nearer_lit <= 1 - params.nearer_share and -apart >= params.nearer_lab:
        return 0
    return None


def _column(geometry: GridGeometry, cell: tuple[int, int]
            ) -> tuple[np.ndarray, np.ndarray, float]:
    """The floor a figure standing on ``cell`` hides: its place, the floor direction up
    the screen there and the tangent of pitch (how far behind it a height reaches)."""
    place = np.array(cell[::-1], np.float64)
    up, tangent, _pixels = _up_the_screen(geometry, place)
    return place, up, tangent


def smoothed_frame(bgr: np.ndarray) -> np.ndarray:
    """The frame blurred 3x3, as the bands are sampled (worked out once per frame)."""
    return cv2.blur(np.ascontiguousarray(bgr[..., :3]), (3, 3))


def nothing_stands(bgr: np.ndarray, geometry: GridGeometry, cells: list[tuple[int, int]],
                   suspects: list[int], lit: np.ndarray, unread: list[int],
                   params: StandingParams = STANDING, smoothed: np.ndarray | None = None,
                   provisional: dict[int, int] | None = None) -> dict[int, Probe]:
    """For each of ``suspects`` (plates set aside for something over part of them): the
    :class:`Probe` of the floor behind and in front of it (over it, at a flat camera).
    ``lit``: every plate's look as read (-1 not read); ``unread``: the plates set aside;
    ``smoothed``: :func:`smoothed_frame` of ``bgr``, when the caller has it already;
    ``provisional``: the looks the sectors' decision gave the plates doubted."""
    looks = {i: int(v) for i, v in enumerate(lit) if v >= 0}
    probes: dict[int, Probe] = {}
    if smoothed is None and suspects:
        smoothed = smoothed_frame(bgr)
    for index in suspects:
        probes[index] = found = probe(bgr, geometry, cells, index, looks, unread, params,
                                      smoothed, provisional)
        r, c = cells[index]
        note("standing", f"({r + 1},{c + 1}) " + ("nothing stands on it: " if found.clear
                                                   else "no evidence nothing stands on it: ")
             + found.why)
    return probes
