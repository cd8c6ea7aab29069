"""What the room around the ring tells the session: the statue's side, and the room band.

The ring alone looks the same from every side, so a quarter turn of the camera (a snap
of the compass) and a step can look alike. The room's statue stands on one side of the
plates (:func:`assistant.vision.statue.statue_side`) and the floor and walls around the
ring differ from side to side (:func:`assistant.vision.surroundings.room_band`): either,
seen in two readings, tells the labels' quarter turn between them (the board history's
``landmark`` and ``room_turns``). Before the player has stood on a plate the route starts
at the way in, across from the statue.
"""

from __future__ import annotations

import numpy as np

from assistant.session.camera import quarter_turns_between, turn_side
from assistant.vision.geometry import GridGeometry
from assistant.vision.reader import Reading
from assistant.vision.statue import statue_side
from assistant.vision.surroundings import RoomBand, room_band, turns_between

__all__ = ["SAME_VIEW_PX", "RoomWatch", "StatueWatch"]

#: The view's corners within this (pixels) of the kept room band's view: the same view and
#: labels, whose band is not sampled again (:meth:`RoomWatch.band`; a tracked read
#: places the corners where the search did, to the pixel).
SAME_VIEW_PX = 0.5


class StatueWatch:
    """The side of the plates the room's statue stands on
    (:data:`assistant.vision.statue.STATUE_SIDES`), as the frames show it."""

    def __init__(self) -> None:
        # the side, in the labels of the geometry it was last carried to, and that
        # geometry (follow)
        self.side: tuple[int, int] | None = None
        self._geometry: GridGeometry | None = None
        # the view (its corners on the area, as bytes) the statue was last looked for in,
        # and the side seen there with all four sides in view (seen)
        self._sighting: tuple[bytes | None, tuple[int, int] | None] = (None, None)

    def forget(self) -> None:
        """A frame without the ring: the camera may have turned anyhow."""
        self.side, self._geometry = None, None

    def seen(self, reading: Reading, view: np.ndarray | None,
             pixels: np.ndarray) -> tuple[int, int] | None:
        """The statue's side as the frame read (``pixels``) shows it, all four sides in
        view, in the reading's labels (for the history: it tells the labels' turn, a
        snap's too). Looked for once per view, on the first frame of it (a search's grab
        of the whole window): the tracked frames after it are read at the same corners, on
        a grab around the plates that the statue's side may leave."""
        if view is None:
            return None
        key = np.round(view, 1).tobytes()
        if self._sighting[0] != key:
            side = statue_side(pixels, reading.geometry, all_sides=True, hidden=reading.hidden)
            self._sighting = (key, side)
        return self._sighting[1]

    def follow(self, geometry: GridGeometry, hidden: tuple[tuple[int, int], ...],
               pixels: np.ndarray) -> tuple[int, int] | None:
        """The side of the plates the statue stands on, in ``geometry``'s labels: seen in
        the frame read (``pixels``), or else carried from the last geometry it was known
        in through the camera's turn since (the statue leaves the grab around the plates,
        or someone stands in front of it, while the view moves). None until it has been
        seen, and again after a frame without the puzzle (the camera may have turned
        anyhow).

        Why: before the player has stood on a plate the route starts at the way in, the
        open side across from the statue; the ring alone looks the same from every side."""
        known = self._geometry
        if known is not None and np.array_equal(known.homography, geometry.homography):
            return self.side  # a still view: once per view, not per frame
        seen = statue_side(pixels, geometry, hidden=hidden)
        if seen is None and self.side is not None and known is not None:
            seen = turn_side(self.side, quarter_turns_between(known, geometry))
        self.side, self._geometry = seen, geometry
        return seen


class RoomWatch:
    """The room around the ring in the last reading the history took, to tell the labels'
    quarter turn since by (:func:`assistant.vision.surroundings.turns_between`)."""

    def __init__(self) -> None:
        # the view (corners on the area) and the room around the ring there (keep)
        self._before: tuple[np.ndarray, RoomBand] | None = None

    def forget(self) -> None:
        self._before = None

    def band(self, reading: Reading, view: np.ndarray | None, pixels: np.ndarray,
             fixed: bool) -> RoomBand | None:
        """The room around the ring in the frame read (``pixels``; :func:`room_band`, in
        the reading's labels), for the history to tell the labels' quarter turn since the
        reading before by; None without a ring read, with the corners a calibration fixed
        (``fixed``: such a view never turns), and in the view of the band kept
        (:meth:`keep`): there the labels are the same as long as the view stays, tracked
        frames are read on a grab around the plates that cuts off much of the band, and
        a frame of the tracked loop costs no more."""
        if view is None or fixed or self._in_kept_view(view):
            return None
        return room_band(pixels, reading.geometry)

    def turns(self, band: RoomBand | None) -> frozenset[int] | None:
        """The labels' quarter turns since the band kept that ``band`` allows (None: the
        room does not tell)."""
        if band is None or self._before is None:
            return None
        return turns_between(self._before[1], band)

    def _in_kept_view(self, view: np.ndarray) -> bool:
        kept = self._before
        return (kept is not None and kept[0].shape == view.shape
                and float(np.abs(kept[0] - view).max()) <= SAME_VIEW_PX)

    def keep(self, view: np.ndarray | None, band: RoomBand | None) -> None:
        """Keep the band of the reading the history took, to compare the next one with
        (the first of its view's: a search's grab of the whole window)."""
        if view is None:
            self._before = None
        elif band is not None:
            self._before = (view, band)
        elif not self._in_kept_view(view):
            self._before = None
