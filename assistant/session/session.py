"""One step of a live session: a frame in, the reading and what the session's memory
makes of it out.

:class:`Session` holds everything a live session remembers between frames, in the order
each frame goes through it: the tracker reads the frame (:mod:`assistant.session.tracker`;
when it needs the whole window it says so, and the caller grabs it), the view's motion
and where the camera keeps the player are learnt from the reading
(:mod:`assistant.session.camera`, :mod:`assistant.session.spot`), the statue and the room
around the ring tell the labels' turn (:mod:`assistant.session.landmarks`), and the board
history explains the reading by the ones before (:mod:`assistant.session.history`). What
to solve and what to paint is the live loop's (:mod:`assistant.live`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from assistant.capture import Rect
from assistant.profile import Profile
from assistant.route import Tile
from assistant.route_overlay import entrance_opposite, hides_from_behind, player_place
from assistant.session.camera import (
    ViewMotion,
    floor_under_place,
    pan_bound,
    turn_free,
    turns_within_pan,
)
from assistant.session.frames import Frame
from assistant.session.history import BoardHistory, Inference
from assistant.session.landmarks import RoomWatch, StatueWatch
from assistant.session.moves import cell_at
from assistant.session.spot import SpotLearner
from assistant.session.tracker import FrameRead, LiveReader, WholeWindowNeeded
from assistant.vision.geometry import GridGeometry
from assistant.vision.reader import MAX_HIDDEN_IN_SESSION, Reading

__all__ = ["FORGET_VIEW_SECONDS", "SESSION_LOG_KEPT", "Session", "SessionStep"]

#: Seconds without a reading after which the ring's last view is forgotten: the next
#: room is searched afresh, not followed from where the last one was (another raid's
#: puzzle, minutes later; a follow of that view fitted a ring on the wrong plates).
FORGET_VIEW_SECONDS = 5.0
#: Readings kept to tell the history again once the spot is trusted (:meth:`_replay`):
#: a session's first steps, about ten seconds of the live loop at 10 fps.
SESSION_LOG_KEPT = 100


@dataclass(frozen=True)
class SessionStep:
    """What one frame told the session: ``reading`` (with the plate under the player
    hidden once the spot is trusted), ``frame`` the frame it was made on (its geometry is
    in that frame's pixels, which start at ``frame.origin`` in the area), and
    ``inference`` what the history makes of it (None when the reading abstains)."""

    reading: Reading
    frame: Frame
    inference: Inference | None
    #: the history's board follows from the boards before (its frame alone did not decide)
    continued: bool


class Session:
    """The memory of one live session (see the module docstring). ``profile`` and
    ``track`` are the tracker's (:class:`assistant.session.tracker.LiveReader`)."""

    def __init__(self, profile: Profile | None = None, *, track: bool = True) -> None:
        self.tracker = LiveReader(profile, track=track)
        self.history = BoardHistory()
        self.spot = SpotLearner()
        self.views = ViewMotion()
        self.statue = StatueWatch()
        self.room = RoomWatch()
        # the time of the last reading the history took (None: none, or not known)
        self._last_reading_at: float | None = None
        # the last reading's grid and offset, for the anchor before (_player_anchors)
        self._anchor_view: tuple[GridGeometry, tuple[int, int]] | None = None
        # the boards possible a reading before, and whether a step has been seen: the
        # spot is learnt only from plates the player stood on after a step (spot.learn)
        self._boards_before: frozenset[str] | None = None
        self.stepped = False
        # what the history was told since its frame alone last decided, until the spot is
        # trusted (_replay); None: not kept until the history's frame alone decides again
        self._session_log: list[_Told] | None = []

    def read(self, frame: Frame, area: Rect) -> FrameRead | WholeWindowNeeded:
        """Read ``frame`` (a grab of ``area``, the captured window area), or ask for the
        whole area (then :meth:`read_whole`). A frame long after the last reading
        (:data:`FORGET_VIEW_SECONDS`) is searched afresh, not followed from that view."""
        if self._last_reading_at is not None and frame.grabbed_at is not None \
                and frame.grabbed_at - self._last_reading_at > FORGET_VIEW_SECONDS:
            self.tracker.forget_last_view()
        spot = self.spot.spot(area)  # computed again only when a sample was added
        self.tracker.spot = spot if self.spot.trusted else None
        return self.tracker.step(frame)

    def read_whole(self, needed: WholeWindowNeeded, whole: Frame) -> FrameRead:
        """The reading :meth:`read` asked the whole area for, on ``whole``."""
        return self.tracker.read_whole(needed, whole)

    def step(self, read: FrameRead, area: Rect) -> SessionStep:
        """Learn from a reading of :meth:`read` and tell the history: the reading as the
        session sees it and what the history makes of it."""
        offset, raw = read.frame.origin, read.reading
        view = self._view_corners(raw, offset)  # None when the reading abstains
        reading = self._players_plate_hidden(raw, view, area, offset)
        now = read.frame.grabbed_at
        # None: not known (the first reading, or a frame without a time): a gap of any length
        since = None if self._last_reading_at is None or now is None \
            else now - self._last_reading_at
        self._note_view(view, raw.hidden)
        # (from the plates the reader itself found hidden: the plate hidden under a spot
        # learnt wrong must not teach that spot again)
        trusted_before = self.spot.trusted
        self.spot.learn(raw, view, area, offset, self.views, self.stepped)
        landmark = self.statue.seen(reading, view, read.frame.pixels)
        band = self.room.band(raw, view, read.frame.pixels, self.tracker.fixed)
        room_turns = self.room.turns(band)
        pan_turns = self._pan_turns(raw, view, area, offset, since)
        told = _Told(raw, since, landmark, raw.geometry if view is not None else None,
                     area, offset, room_turns, pan_turns)
        if self._trusted_spot(area) and not trusted_before and self._session_log and all(
                (logged.area.width, logged.area.height) == (area.width, area.height)
                for logged in self._session_log):
            inference = self._replay(told)
        else:
            inference = self.history.update(reading, since, landmark,
                                            self._player_anchors(reading, view, area, offset),
                                            self._player_point(reading, view, area, offset),
                                            room_turns, pan_turns)
            self._log_reading(told)
        if inference is not None:
            self._last_reading_at = now
            self.room.keep(view, band)
        self._note_step(inference)
        return SessionStep(reading, read.frame, inference, not self.history.restarted)

    def reset(self) -> None:
        """Forget what earlier frames showed (another window or puzzle)."""
        self.history.reset()
        self._last_reading_at = None
        self._session_log = []
        self.room.forget()

    def player_place(self, reading: Reading, frame: Frame, area: Rect,
                     ) -> tuple[tuple[int, int] | None, Tile | None, Tile | None]:
        """Where the player is on a ToA ring read on ``frame``: ``(plate, tile, way in)``,
        the plate None off the plates, the tile None when nothing tells, the way in
        (across from the statue) None when the statue was not seen; see
        :func:`assistant.route_overlay.player_place`."""
        geometry, offset = reading.geometry, frame.origin
        # the view's middle, in the pixels of the frame the reading was made on
        centre = (area.width / 2 - offset[0], area.height / 2 - offset[1])
        spot = self.spot.spot(area)
        statue = None if spot is not None \
            else self.statue.follow(geometry, reading.hidden, frame.pixels)
        way_in = None if statue is None else entrance_opposite(statue)
        if spot is None:
            spot = self.spot.at_way_in(geometry, offset, way_in, self.stepped,
                                       self.views.still)
        in_frame = None if spot is None else (spot[0] - offset[0], spot[1] - offset[1])
        # an unclear plate may have someone on it whose clothes pass the cover test: where
        # the player stands is told by a place that stays put, not by the verdict
        player, tile = player_place(geometry, list(reading.hidden), centre, in_frame)
        if (way_in is not None and player is not None and not self.stepped
                and hides_from_behind(geometry, way_in, player)):
            # before any step the player waits at the way in, and a body there hides the
            # plate behind it on screen: that plate is not where the player stands
            player, tile = None, None
        return player, tile, way_in

    def _note_step(self, inference: Inference | None) -> None:
        """Whether a step has been seen: the boards possible now (whatever the camera's
        turn) share none with those of the frame before. A hidden plate seen again only
        narrows them; a step changes every one."""
        if inference is None:
            return
        boards = (inference.board,) if inference.board is not None else inference.candidates
        now = frozenset(turn_free(board) for board in boards)
        if self._boards_before is not None and now.isdisjoint(self._boards_before):
            self.stepped = True
        self._boards_before = now

    def _view_corners(self, reading: Reading, offset: tuple[int, int]) -> np.ndarray | None:
        """The ring's corner plates on the captured area (pixels), which name the view;
        None without a ToA ring read in this frame."""
        geometry = reading.geometry
        if geometry is None or reading.abstain or not self.tracker.profile.grid.is_toa_ring:
            return None
        return geometry.corners() + np.array(offset, np.float64)

    def _note_view(self, view: np.ndarray | None,
                   hidden: tuple[tuple[int, int], ...] = ()) -> None:
        """How far the view moved since the frame before (:class:`ViewMotion`); a frame
        without the ring forgets the view and the statue's side (the camera may have
        turned anyhow)."""
        if view is None:
            self.statue.forget()
        self.views.note(view, hidden)

    def _trusted_spot(self, area: Rect) -> bool:
        """Whether the spot where the camera keeps the player is trusted (it is computed
        again only when a sample was added)."""
        self.spot.spot(area)
        return self.spot.trusted

    def _log_reading(self, told: _Told) -> None:
        """Keep what the history was told since its frame alone last decided, while the
        spot where the camera keeps the player is not trusted (:meth:`_replay`)."""
        if self.history.restarted:
            self._session_log = []
        if self.spot.trusted or self._session_log is None \
                or len(self._session_log) >= SESSION_LOG_KEPT:
            # nothing to replay, or too long: the log starts again at the next restart
            self._session_log = None
            return
        self._session_log.append(told)

    def _replay(self, now: _Told) -> Inference | None:
        """Tell the history again what it was told since its frame alone last decided,
        now with the spot: the session's first step is often onto a plate whose two
        neighbours were hidden too, and only where the player stood (off the plates at
        the way in, then on that plate, still) tells that it was a step. Returns this
        frame's inference."""
        entries = [*self._session_log, now]
        self._session_log = None
        self.history.reset()
        spot = self.spot.spot(now.area)  # (every entry's area is of this size)
        before: tuple[GridGeometry, tuple[int, int]] | None = None
        inference = None
        for read, since, landmark, geometry, _area, offset, room_turns, pan_turns in entries:
            if geometry is None:
                inference = self.history.update(read, since, landmark, room_turns=room_turns)
                continue  # (no ring read: nothing tells a pan either)
            here = floor_under_place(spot, geometry, offset)
            anchors = None if before is None else (floor_under_place(spot, *before), here)
            before = (geometry, offset)
            inference = self.history.update(_with_plate_hidden_at(read, here), since,
                                            landmark, anchors, here, room_turns, pan_turns)
        if now.geometry is not None:
            self._anchor_view = (now.geometry, now.offset)
        return inference

    def _pan_turns(self, reading: Reading, view: np.ndarray | None, area: Rect,
                   offset: tuple[int, int], since: float | None) -> frozenset[int] | None:
        """The quarter turns of the labels since the last reading the history took
        (``since`` seconds ago) through which the floor under some place of the window
        moved little enough for a camera that follows the player
        (:func:`assistant.session.camera.turns_within_pan`); None when that tells nothing (no
        ring read now or then, no time between known, or corners a calibration fixed)."""
        if view is None or self._anchor_view is None or since is None or self.tracker.fixed:
            return None
        before, before_offset = self._anchor_view
        if np.array_equal(before.homography, reading.geometry.homography) \
                and tuple(before_offset) == tuple(offset):
            return None  # a still view: every turn keeps some place (the ring's middle)
        allowed = turns_within_pan(before, reading.geometry, (area.width, area.height),
                                   before_offset, offset, pan_bound(since))
        return None if len(allowed) == 4 else allowed

    def _player_anchors(
        self, reading: Reading, view: np.ndarray | None, area: Rect, offset: tuple[int, int]
    ) -> tuple[tuple[float, float], tuple[float, float]] | None:
        """The grid point under the spot where the camera keeps the player, in the last
        reading's labels and in this one's, for the history to tell a snap's quarter
        turn. Until the spot is trusted (:meth:`SpotLearner.spot`), only a view that stayed
        put tells anything; None without a reading before. The spot is a place on the window, so
        the one learnt now serves the reading before as well."""
        if view is None:
            return None
        geometry = reading.geometry
        before, self._anchor_view = self._anchor_view, (geometry, offset)
        spot = self.spot.spot(area)
        if before is None:
            return None
        if spot is None or not self.spot.trusted:
            if not self.views.still or self.tracker.fixed:
                return None
            # the whole view stayed put (corners a calibration fixed tell nothing), so the
            # floor under every place of it did, under the player wherever the camera keeps
            # it too. The grid's middle stands for the spot not learnt yet: fixed by every
            # quarter turn, it rules out no snap.
            middle = ((geometry.cols - 1) / 2, (geometry.rows - 1) / 2)
            return middle, middle

        return floor_under_place(spot, *before), floor_under_place(spot, geometry, offset)

    def _player_point(self, reading: Reading, view: np.ndarray | None, area: Rect,
                      offset: tuple[int, int]) -> tuple[float, float] | None:
        """The grid point under the spot where the camera keeps the player, in this
        reading's labels, once the spot is trusted (None before, and without a ring read):
        a step a moment ago was near it (:data:`assistant.session.moves.STEP_REACH`)."""
        spot = self.spot.spot(area)
        if view is None or spot is None or not self.spot.trusted:
            return None
        return floor_under_place(spot, reading.geometry, offset)

    def _players_plate_hidden(self, reading: Reading, view: np.ndarray | None, area: Rect,
                              offset: tuple[int, int]) -> Reading:
        """``reading`` with the plate under the player hidden, once the spot where the camera
        keeps the player is trusted: a plate whose centre lies within
        :data:`assistant.session.moves.STANDING_RADIUS` of the floor under the spot
        (:meth:`_player_point`) has the player on it, and is not read whatever it shows
        (when one more hidden plate is allowed).

        Why: a player in olive-gold trousers, centred on a lit plate, left a blob of a
        diamond's size and place that read *unlit*; the history then explained the next
        turn with that board, and the marks were wrong (a walk-through on the
        screenshot's floor). The step onto the plate tells its state anyway."""
        return _with_plate_hidden_at(reading, self._player_point(reading, view, area, offset))


class _Told(NamedTuple):
    """What the live loop told the history about one frame (:meth:`Session._replay`)."""

    reading: Reading  # as read, before the plate under the player is hidden
    seconds: float | None
    landmark: tuple[int, int] | None
    geometry: GridGeometry | None  # None: no ToA ring read in the frame
    area: Rect
    offset: tuple[int, int]
    room_turns: frozenset[int] | None = None  # the labels' quarter turn the room told
    pan_turns: frozenset[int] | None = None  # those a camera following the player allows



def _with_plate_hidden_at(reading: Reading, point: tuple[float, float] | None) -> Reading:
    """``reading`` with the plate the player stands on hidden (``point``: the grid point
    under the player), when one more hidden plate is allowed."""
    if point is None or len(reading.hidden) >= MAX_HIDDEN_IN_SESSION:
        return reading
    standing = cell_at(point, reading.partial or reading.board)
    return reading if standing is None else reading.with_hidden((standing,))

