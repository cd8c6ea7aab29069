"""Where on the window the camera keeps the player: learnt from the plates the player
stood on and from the point a turn or zoom of the camera pivoted about.

The game's camera keeps the player at one place on screen (the "spot"), so once that place
is known the floor under it is where the player stands, on a plate or between plates (a
waypoint), and the board history can tell a step from a turn of the camera by it
(:mod:`assistant.session.history`). How the view moved from frame to frame is
:class:`assistant.session.camera.ViewMotion`'s.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from assistant.capture import Rect
from assistant.puzzle import TOA_PLATES
from assistant.route import Tile
from assistant.route_overlay import tile_point
from assistant.session.camera import (
    CARDINAL_TOLERANCE_DEG,
    ViewMotion,
    camera_pivot,
    off_cardinal_deg,
    plate_pinned,
)
from assistant.vision.geometry import GridGeometry
from assistant.vision.reader import Reading

__all__ = ["SPOT_NEAR_SPACINGS", "SPOT_SAMPLES_KEPT", "SpotLearner"]

#: Samples of where the camera draws the player kept (plates hidden in still views).
SPOT_SAMPLES_KEPT = 40
#: How near a sample of the spot another of the same place lies, in plate spacings.
SPOT_NEAR_SPACINGS = 0.3
#: How far up the screen a standing body hides the floor behind it, in plate spacings:
#: its height seen from the steepest camera (68 degrees from straight down), with room
#: for a tall figure and a raised weapon (a spacing is two tiles, a body about two tall).
BODY_SHADOW_SPACINGS = 2.0
#: A turn or zoom's pivot (:func:`camera_pivot`) is where the player stands only on a
#: floor tile's middle (tiles are half a spacing): within this many spacings of one, and
#: within this many spacings of the ring's middle (the room around the plates); the tile
#: is then the sample (:meth:`SpotLearner._learn_pivot`). Drawn and screenshot rooms at 55-68°: a
#: pivot lies 0.01-0.12 of a spacing from the player, 0.34 at worst (three plates hidden,
#: a zoom of 16%: 0.19 off a tile's middle, so left out)
PIVOT_ON_TILE_SPACINGS = 0.1
PIVOT_IN_ROOM_SPACINGS = 2.5


class SpotLearner:
    """Samples of where the camera draws the player, and the spot they give.

    ``learnt`` is the spot (area pixels), None until a sample gives one; ``trusted``
    whether it has samples from two views, or one that stayed put while the camera
    moved (only the player's plate does). Samples are ``(x, y, view, how near counts as
    the same place, 1 when the rest of the ring moved meanwhile)``."""

    def __init__(self) -> None:
        self.samples: deque[tuple[float, float, int, float, int]] = deque(
            maxlen=SPOT_SAMPLES_KEPT)
        self.learnt: tuple[float, float] | None = None
        self.trusted = False
        self._size: tuple[int, int] | None = None  # the area the samples are in
        self._last_hidden: list[np.ndarray] = []  # where plates were hidden a frame before
        # the ring's view a frame before, and its grab's offset (_pinned)
        self._pinning_view: tuple[GridGeometry, tuple[int, int]] | None = None
        # a turn or zoom's pivot waiting for a still frame after it (_learn_pivot):
        # (x, y, how near counts as the same place) on the area
        self._pending_pivot: tuple[float, float, float] | None = None
        # the spot assumed from the way in until one is learnt (at_way_in)
        self._way_in: tuple[float, float] | None = None

    def at_way_in(self, geometry: GridGeometry, offset: tuple[int, int], way_in: Tile | None,
                  stepped: bool, still: bool) -> tuple[float, float] | None:
        """Until the spot is learnt from a plate stood on: where the camera draws a player
        who waited at the way in (area pixels), fixed at the first still view with the
        way in known, before any step. The camera keeps the player there, so the floor
        tile under it follows the player's first walks, to a waypoint too, with the view;
        the way in is an assumption (ADR 60), and this only carries it along."""
        if self._way_in is None and not stepped and way_in is not None and still:
            x, y = geometry.to_image(np.array([tile_point(way_in)]))[0]
            self._way_in = (float(x + offset[0]), float(y + offset[1]))
        return self._way_in

    def _forget_another_size(self, area: Rect) -> None:
        """The spot is in the area's pixels: a resized window starts learning again."""
        if self._size != (area.width, area.height):
            self.samples.clear()
            self._last_hidden = []
            self.learnt = None
            self.trusted = False
            self._way_in = None
            self._size = (area.width, area.height)

    def spot(self, area: Rect) -> tuple[float, float] | None:
        """Where the camera draws the player (area pixels), once learnt (:meth:`learn`):
        the place where still hidden plates were seen in the most views, the nearest the
        middle of the area of equals; a view where the plate may be hidden from behind by
        a body (above another still hidden plate of that view, :func:`_behind_a_body`)
        counts half, and a place the ring turned or zoomed about (:func:`plate_pinned`) one
        view more: the plate behind the player's, which the body hides at the same place
        on the window after every step, gathers views as fast as the player's does and
        lay nearer the middle (at a steep camera it took the spot from the pinned one,
        and a step onto a plate out of its reach was not told).
        Computed again only when a sample is added."""
        self._forget_another_size(area)
        if not self.samples or self.learnt is not None:
            return self.learnt
        samples = np.array(self.samples)
        points, views, near = samples[:, :2], samples[:, 2], samples[:, 3]
        # a plate a body may hide from behind counts half a view (a team-mate standing on
        # the plate in front of the player's, on screen, is the same column)
        weights = np.where(_behind_a_body(samples), 0.5, 1.0)
        middle = np.array([area.width / 2, area.height / 2])
        best, best_score = None, None
        for index, point in enumerate(points):
            together = np.hypot(*(points - point).T) <= near[index]
            per_view: dict[float, float] = {}
            for view, weight in zip(views[together], weights[together], strict=True):
                per_view[view] = max(per_view.get(view, 0.0), weight)
            pinned = float(np.any(samples[together, 4] > 0))
            score = (sum(per_view.values()) + pinned, -float(np.hypot(*(point - middle))))
            if best_score is None or score > best_score:
                best, best_score = together, score
        x, y = np.median(points[best], axis=0)
        self.learnt = (float(x), float(y))
        self.trusted = bool(best_score[0] >= 2) or bool(np.any(samples[best, 4] > 0))
        return self.learnt

    def learn(self, reading: Reading, view: np.ndarray | None, area: Rect,
              offset: tuple[int, int], views: ViewMotion, stepped: bool) -> None:
        """Learn where on the window the camera draws the player, so a player on the
        plain floor between plates (a waypoint) is placed too (:func:`player_place`).

        The camera keeps the player at one place on screen: while the player stands on a
        plate, that plate stays put on screen whatever the camera does (it turns, pitches
        and zooms about the player), and it is the same place at every plate. A plate
        passed while walking moves with the camera; a team-mate's plate stays put only
        while the view does, and lands elsewhere after the player's next step. So a
        sample is a hidden plate where a hidden plate was a frame before, and the spot is
        where samples from the most views gather. A view lasts while the camera stays
        put (:data:`~assistant.session.camera.VIEW_MOVED_PX`): a second search of an
        unmoved view is no second view (it used to count as one, so a team-mate's plate
        nearer the window's middle was trusted as the spot two frames after the first
        step). Only once a step has
        been seen: before it, the player waits off the plates, and at a low camera the
        body hides the plate behind it, a tile or more from the feet; or when a turn or
        zoom moved the ring about the plate on the floor (:func:`plate_pinned`)."""
        self._forget_another_size(area)
        if view is None:
            self._last_hidden, self._pinning_view = [], None
            self._pending_pivot = None
            return
        self._learn_pivot(reading, offset, views)
        geometry = reading.geometry
        hidden, still_plates = [], []
        for cell in reading.hidden:
            if cell not in TOA_PLATES:
                continue
            here = np.array(geometry.cell_centre(*cell)) + offset
            spacing = geometry.local_spacing(*cell)
            hidden.append(here)
            # still: within a pixel or two (a camera turning about the player moves even
            # the plates near the player by more), or a tenth of what the view's corners
            # moved, up to 6% of a spacing (the reader places a plate to a few pixels at a
            # steep camera, and a pitch that moves the corners by 30 pixels moves a plate
            # a spacing from the player by 10 or more)
            shift = min(0.1 * (views.shift or 0.0), 0.06 * spacing)
            if any(np.hypot(*(here - before)) <= max(2.0, 0.03 * spacing, shift)
                   for before in self._last_hidden):
                still_plates.append((here, spacing, cell))
        camera_moved = views.camera_moved
        if stepped and camera_moved and len(still_plates) >= 2:
            # two hidden plates kept put through a move of the camera: only a pitch does
            # that (about the floor's line through the player, a team-mate's plate beside
            # his on it), and it singles out neither; the view goes on as the one before
            # (without this, at a steep camera a team-mate's plate beside the player's,
            # both sampled again after a pitch, was trusted as the spot in two views)
            views.views -= 1
        self._add_still_samples(still_plates, hidden, geometry, offset, views, stepped)
        self._last_hidden = hidden
        self._pinning_view = (geometry, offset)

    def _add_still_samples(self, still_plates: list, hidden: list[np.ndarray],
                           geometry: GridGeometry, offset: tuple[int, int],
                           views: ViewMotion, stepped: bool) -> None:
        """The samples :meth:`learn` takes from the hidden plates that stayed put
        (``still_plates``: place, spacing and cell each; ``hidden``: every hidden plate's
        place) in this view."""
        view_number = views.views
        for here, spacing, cell in still_plates:
            if any(v == view_number and abs(x - here[0]) < 1 and abs(y - here[1]) < 1
                   for x, y, v, _n, _m in self.samples):
                continue  # one sample per plate and view
            # the ring moved about it (the camera turned or zoomed about the player):
            # no team-mate's plate stays put through that. But a plate hidden behind a
            # body (another hidden plate just below it on the window) may be another
            # plate each view: a quarter turn about the player's corner plate lays one
            # neighbour where the other was, both hidden behind the body at a steep
            # camera (that place, trusted as the spot after the turn, left the next step
            # out of its reach; the player's own plate, placed
            # 3 px apart in the two views, did not count as still). On the floor a
            # quarter turn cannot tell them apart: the ring looks the same turned by any
            # quarter, and either plate stays put under one of them. Such a plate pins
            # the spot only when the floor tells (a zoom, a turn the labels follow: the
            # player's plate above a team-mate's on the screen), as before a step
            kept_put = len(still_plates) == 1 and views.shift is not None \
                and views.shift > max(4.0, 0.1 * spacing) \
                and not views.keeps_its_row(here, spacing)
            measured = not stepped or _above_another(here, spacing, hidden)
            moved = kept_put and (not measured or self._pinned(
                cell, geometry, offset, after_a_step=stepped))
            # (the hidden plates are remembered before a step too: the step's own frame
            # is read before the history says it was one)
            if stepped or moved:
                self.samples.append((float(here[0]), float(here[1]), view_number,
                                     SPOT_NEAR_SPACINGS * spacing, int(moved)))
                self.learnt = None

    def _learn_pivot(self, reading: Reading, offset: tuple[int, int],
                     views: ViewMotion) -> None:
        """Learn the spot from a turn or zoom of the camera about the player, plate hidden
        or not (:func:`camera_pivot`): the floor point the views
        before and after show at one place is where the player stands. Before the first
        step the player waits on plain floor, no plate hidden, and the history cannot
        tell the first step onto a plate whose neighbours are hidden too until it knows
        where the player stood (:meth:`assistant.session.session.Session._replay`).

        Such a point is the player's only while the player stood still through the
        camera's move: a walk in the same frame (a turn while walking) moves it. So the
        view must have stayed put into the frame before the move, or stay put into the
        frame after it (the pivot waits for it); a walk of a tile takes the game 0.6 s,
        several frames, which then move too. And it lies on a floor tile's middle, in the
        room around the ring; a plate there may show (at a steep camera the body hides
        the plate behind it more than its own). Not after a view along the room's axes
        came from one that was not: a compass snap turns by 45° or more, which the
        labels' quarter turns show as a smaller turn about another point (:func:`plate_pinned`)."""
        pending, self._pending_pivot = self._pending_pivot, None
        camera_moved = views.camera_moved
        if pending is not None and not camera_moved:
            self._add_pivot_sample(*pending, views.views)
        if not camera_moved or self._pinning_view is None:
            return
        before, before_offset = self._pinning_view
        geometry = reading.geometry
        if off_cardinal_deg(geometry) <= CARDINAL_TOLERANCE_DEG < off_cardinal_deg(before):
            return
        pivot = camera_pivot(before, geometry, (offset[0] - before_offset[0],
                                                offset[1] - before_offset[1]))
        if pivot is None:
            return
        floor = np.array(pivot.floor)
        tile = np.round(floor * 2) / 2
        middle = (geometry.cols - 1) / 2
        if np.abs(floor - tile).max() > PIVOT_ON_TILE_SPACINGS \
                or np.abs(tile - middle).max() > PIVOT_IN_ROOM_SPACINGS:
            return
        x, y = geometry.to_image(tile[None])[0]
        sample = (float(x + offset[0]), float(y + offset[1]),
                  SPOT_NEAR_SPACINGS * geometry.local_spacing(*_nearest_plate(tile)))
        if views.moved_before:
            self._pending_pivot = sample
        else:
            self._add_pivot_sample(*sample, views.views)

    def _add_pivot_sample(self, x: float, y: float, near: float, view: int) -> None:
        """A turn or zoom's pivot as a sample of the spot that pins it (:meth:`spot`)."""
        self.samples.append((x, y, view, near, 1))
        self.learnt = None

    def _pinned(self, cell: tuple[int, int], geometry: GridGeometry,
                offset: tuple[int, int], *, after_a_step: bool = False) -> bool:
        """Whether a hidden plate that stayed put on the window through a turn or zoom of
        the camera since the frame before stands where the camera keeps the player
        (:func:`plate_pinned`); False without a view before."""
        if self._pinning_view is None:
            return False
        before, before_offset = self._pinning_view
        return plate_pinned(cell, before, before_offset, geometry, offset,
                            after_a_step=after_a_step)


def _just_below(upper: np.ndarray, lower: np.ndarray, spacing: np.ndarray | float,
                near: np.ndarray | float) -> np.ndarray:
    """Whether window points ``lower`` lie just below points ``upper`` (broadcast, (..., 2)
    each), as the player's own plate lies below the plates the body hides behind it: up
    to the body's height (:data:`BODY_SHADOW_SPACINGS` of ``spacing``) and within
    ``near`` pixels across."""
    below = lower[..., 1] - upper[..., 1]
    return ((below > 0) & (below <= BODY_SHADOW_SPACINGS * spacing)
            & (np.abs(lower[..., 0] - upper[..., 0]) <= near))


def _above_another(here: np.ndarray, spacing: float, hidden: list[np.ndarray]) -> bool:
    """Whether another hidden plate of the view lies just below ``here`` on the window
    (:func:`_just_below`, the rule :func:`_behind_a_body` applies to the spot's samples)."""
    return bool(len(hidden)) and bool(np.any(_just_below(
        here, np.array(hidden, np.float64), spacing, SPOT_NEAR_SPACINGS * spacing)))


def _behind_a_body(samples: np.ndarray) -> np.ndarray:
    """Per sample of the spot (rows of x, y, view, near, moved; near is
    SPOT_NEAR_SPACINGS of a spacing): whether another still hidden plate of its view
    lies just below it on screen.

    Why: a standing body rises up the screen from its feet, so at a steep camera the
    player hides the plates behind them as well as their own, and those stay put too
    while the player stands. The player's own plate is the lowest of such a column; a
    plate behind it, counted as a whole view of the spot, won a tie of views and moved the
    spot a plate up the screen at a steep camera, and the history then restarted at the
    next step."""
    points, view, near = samples[:, :2], samples[:, 2], samples[:, 3]
    spacing = near / SPOT_NEAR_SPACINGS
    # [i, j]: sample j lies just below sample i, in the same view
    below = _just_below(points[:, None, :], points[None, :, :], spacing[:, None],
                        near[:, None])
    return np.any((view[None, :] == view[:, None]) & below, axis=1)


def _nearest_plate(point: np.ndarray) -> tuple[int, int]:
    """The ring's plate nearest a grid point (x = column, y = row)."""
    return min(TOA_PLATES, key=lambda cell: (cell[1] - point[0]) ** 2 + (cell[0] - point[1]) ** 2)

