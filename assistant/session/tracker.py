"""Following the ring from frame to frame, and when to search the whole window again.

Once the ring's corners are known (a calibrated profile, or a search of the whole window)
only the region around the grid is grabbed and read at those corners, a read of a few
milliseconds. The tracker searches again, on a grab of the whole window, when the read at
the corners abstains or reads something new, and every :data:`RELOCATE_EVERY` frames when
a diamond is off its place (the relocation schedule). The search itself tries, in order,
the ring's last view followed, a fresh search, the last view turned, zoomed or pitched
about the player, and searches on fewer diamonds (:meth:`LiveReader._search`); the
reading's trace (:mod:`assistant.vision.trace`) names each try, what it decided and
which one answered (``search:``), and marks the reads at the corners (``track:``) and a
read kept when the search found nothing (``keep:``).

Frames come in as values (:class:`assistant.session.frames.Frame`). When the whole window
is needed the tracker does not grab it: :meth:`LiveReader.step` answers
:class:`WholeWindowNeeded`, and the caller grabs it and hands it to
:meth:`LiveReader.read_whole`. Each answer carries the frame its reading was made on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from assistant.capture import Rect
from assistant.profile import Profile, toa_default_profile
from assistant.session.frames import Frame
from assistant.vision.geometry import GridGeometry
from assistant.vision.locate import (
    LAST_VIEW_AGREEMENT,
    MIN_DIAMONDS_AFTER_LAST_VIEW,
    agrees_with_last_view,
    plate_in_the_middle,
    ring_in_place,
    same_places,
    whole_diamonds,
)
from assistant.vision.reader import (
    MAX_HIDDEN_IN_SESSION,
    Reading,
    follow_frame,
    leaves_a_corner_unread,
    read_frame,
)
from assistant.vision.trace import TraceStep, apart, note, recording

__all__ = ["FIVE_DIAMOND_SEARCHES", "FRESH_SEARCH_HIDING", "RELOCATE_EVERY", "FrameRead",
           "LiveReader", "WholeWindowNeeded"]

#: A ring followed from the last view that hides this many plates or more is searched for
#: afresh too, and the fresh reading taken when it hides only some of them
#: (:meth:`LiveReader._fresh_if_more_read`)
FRESH_SEARCH_HIDING = 3
#: Auto-located rings are checked at least this often (frames) to be where their corners
#: place them (a camera creeping away without changing the board read), and searched for
#: again when they are not.
RELOCATE_EVERY = 30
#: The search on five diamonds (:data:`assistant.vision.locate.MIN_DIAMONDS_AFTER_LAST_VIEW`)
#: goes on for this many searches after one found the ring (about a second at the loop's
#: 10 fps), no longer: it costs two searches on six (about 50 ms on a 1920x1080 frame), and
#: a puzzle gone from view for good would pay it on every frame. After them, the fresh
#: search itself goes on to five diamonds (LiveReader._no_ring_lately), through the gold
#: it found.
FIVE_DIAMOND_SEARCHES = 10


@dataclass(frozen=True)
class FrameRead:
    """A reading and the frame it was made on (its geometry is in that frame's pixels)."""

    reading: Reading
    frame: Frame


@dataclass(frozen=True)
class WholeWindowNeeded:
    """The tracker must search the whole window: grab it and hand it to
    :meth:`LiveReader.read_whole` with this. ``frame`` is the grab read at the corners,
    ``tracked`` its reading when that read abstained or read something new (it stands
    when the search finds nothing and the view has not moved), else None."""

    frame: Frame
    tracked: Reading | None = None


def _tried(name: str, attempt: Reading) -> bool:
    """Note one search of :meth:`LiveReader._search` in the trace; whether it read."""
    note("search", f"{name}: " + ("read" if not attempt.abstain
                                  else f"abstained ({attempt.reason})"))
    return not attempt.abstain


class LiveReader:
    """Reads successive frames of one window cheaply.

    Once the grid's corners are known (from a calibrated profile, or auto-located once),
    only the region around the grid is grabbed (:meth:`region`) and read at those
    corners, a calibrated read of a few milliseconds. Auto-located corners are checked by
    locating again, on a grab of the whole window, whenever the read abstains or its board
    changes, and whenever the check every :data:`RELOCATE_EVERY` frames finds a diamond
    off its place, so camera moves are followed.
    Plates the search could not see (someone stands on them) stay hidden in the tracked
    reads until one shows its whole diamond again; it is then read at the same corners.
    Corners are kept relative to the captured window area, so moving the window costs
    nothing.
    """

    def __init__(self, profile: Profile | None = None, *, track: bool = True) -> None:
        self.profile = profile or toa_default_profile()
        self.track = track  # False: locate on the whole window every frame (the baseline)
        self._fixed = self.profile.corners is not None
        self._corners = np.array(self.profile.corners, np.float64) if self._fixed else None
        self._since_locate = 0
        self._last_board: str | None = None
        self._window_size: tuple[int, int] | None = None
        # where the ring was last seen, kept through abstentions: the camera follows the
        # player, so the ring is found again from there (follow_frame)
        self._last_seen: GridGeometry | None = None
        #: where the camera keeps the player in the window area (pixels), once the live
        #: loop trusts it: a pitch turns the camera about that place (follow_frame)
        self.spot: tuple[float, float] | None = None
        # ... placed from plates on every side of the ring, or that view moved rigidly (a
        # corner and both its neighbours unread leave it placed there by the others
        # alone: it is not moved rigidly)
        self._last_seen_sure = True
        # searches since one found the ring (read, or too covered to read: a crowd at the
        # start of a session), None before any: while it is about, a search on five
        # diamonds may go on (FIVE_DIAMOND_SEARCHES)
        self._searches_since_found: int | None = None
        #: searches of the whole window so far (a fresh locate, then following the ring
        #: from where it was last seen): the costly part of a frame, counted for the
        #: benchmarks (a camera change should cost at most one)
        self.relocations = 0
        # the cells the last search did not read (hidden), kept hidden by reads at its
        # corners
        self._set_aside: tuple[tuple[int, int], ...] = ()
        # ... those of them still to check for a whole diamond (_freed)
        self._recheck: tuple[tuple[int, int], ...] = ()
        #: the frame the last reading was made on (its geometry's pixels): the grab
        #: passed in, or the whole window grabbed to locate the grid again
        self.frame_read: np.ndarray | None = None

    @property
    def fixed(self) -> bool:
        """The corners are the player's calibration: the view read never moves."""
        return self._fixed

    def region(self, width: int, height: int) -> Rect | None:
        """The part of a ``width`` x ``height`` window area to grab (relative to it), or
        None for all of it. A changed window size forgets auto-located corners."""
        if self._window_size != (width, height) and not self._fixed:
            self._corners = None
            self._last_seen = None
            self._searches_since_found = None
        self._window_size = (width, height)
        if self._corners is None or (not self.track and not self._fixed):
            return None
        grid = self.profile.grid
        tl, tr, _, bl = self._corners
        spacing = max(
            np.linalg.norm(tr - tl) / max(grid.cols - 1, 1),
            np.linalg.norm(bl - tl) / max(grid.rows - 1, 1),
        )
        low = np.floor(self._corners.min(axis=0) - spacing)
        high = np.ceil(self._corners.max(axis=0) + spacing)
        left, top = max(0, int(low[0])), max(0, int(low[1]))
        right, bottom = min(width, int(high[0])), min(height, int(high[1]))
        if right - left < 16 or bottom - top < 16:
            return None
        return Rect(left, top, right - left, bottom - top)

    def step(self, frame: Frame) -> FrameRead | WholeWindowNeeded:
        """Read ``frame``: at the corners known when they are, with a search of the frame
        when it is the whole window. When the whole window must be searched and ``frame``
        is not all of it, :class:`WholeWindowNeeded` (then :meth:`read_whole`)."""
        pixels, offset = frame.pixels, frame.origin
        self.frame_read = pixels
        if self._fixed:
            return FrameRead(read_frame(pixels, self._at(offset),
                                        max_hidden=MAX_HIDDEN_IN_SESSION), frame)
        if self._corners is None or (offset == (0, 0)
                                     and pixels.shape[:2] == self._full_shape()):
            if offset != (0, 0):
                return WholeWindowNeeded(frame)
            return FrameRead(self._locate(pixels)[0], frame)
        self._since_locate += 1
        reading = self._tracked_read(pixels, offset)
        # a changed board or hidden set: a step, or the camera moved under the old corners
        if reading.abstain or reading.board_text != self._last_board:
            return WholeWindowNeeded(frame, reading)
        if self._since_locate >= RELOCATE_EVERY:
            # now and then: has the camera crept away under the corners with the board
            # read the same? The diamonds seen are checked where the corners place them,
            # on this grab; only when one has moved is the ring searched for again
            seen = tuple((tile.row, tile.col) for tile in reading.tiles if not tile.hidden)
            if reading.geometry is None or not ring_in_place(pixels, reading.geometry, seen):
                return WholeWindowNeeded(frame)
            self._since_locate = 0
        # a plate set aside shows its whole diamond again: whatever covered it has gone,
        # and the view is the same (the board read at the corners is), so it is read at
        # the same corners, no search needed
        freed = self._freed(pixels, reading)
        if freed:
            self._set_aside = tuple(c for c in self._set_aside if c not in freed)
            self._recheck = tuple(c for c in self._recheck if c not in freed)
            reading = self._tracked_read(pixels, offset)
            if reading.abstain:
                return WholeWindowNeeded(frame)
            self._last_board = reading.board_text
        return FrameRead(reading, frame)

    def read_whole(self, needed: WholeWindowNeeded, whole: Frame) -> FrameRead:
        """Search ``whole``, the whole window grabbed after :meth:`step` asked for it; a
        tracked read that abstained or read something new stands when the search finds
        nothing and the view has not moved (:meth:`_locate_or_keep`)."""
        if needed.tracked is None:
            return FrameRead(self._locate(whole.pixels)[0], whole)
        # the search's reading on the whole window, or the tracked read kept on its grab
        reading, _ = self._locate_or_keep(needed.frame.pixels, needed.frame.origin,
                                          needed.tracked, whole.pixels)
        return FrameRead(reading, whole if self.frame_read is whole.pixels else needed.frame)

    def read(
        self, frame: np.ndarray, offset: tuple[int, int], grab_all: Callable[[], np.ndarray]
    ) -> tuple[Reading, tuple[int, int]]:
        """:meth:`step` and, when asked for, :meth:`read_whole` on ``grab_all()``, for
        callers that hold the whole picture (tests feeding pictures): the reading and the
        offset of the frame it was made on."""
        answer = self.step(Frame(frame, offset))
        if isinstance(answer, WholeWindowNeeded):
            answer = self.read_whole(answer, Frame(grab_all()))
        return answer.reading, answer.frame.origin

    def _confirmed_by_last_view(self, frame: np.ndarray, reading: Reading) -> Reading:
        """``reading``, a fresh search's that placed the ring on six diamonds but had more
        plates partly covered than such a ring may hide (three): when its placement
        agrees with the last view moved on the floor
        (:func:`assistant.vision.locate.agrees_with_last_view`), it is no squashed
        lattice, and it is read at its corners with up to four hidden, the plates it did
        not match set aside. ``reading`` otherwise.

        Why: a player and a team-mate on or beside the plates at a steep camera cover
        two plates and part of two more; such frames after a step were blank."""
        geometry = reading.geometry
        if geometry is None or len(reading.unmatched) != 2:
            return reading
        if not agrees_with_last_view(frame, self._last_seen, geometry):
            return reading
        if plate_in_the_middle(frame, geometry):
            # the last view moved by a whole plate agrees too: six gold blobs (four
            # plates, the way-in arrow on the border, a figure's gold) placed the ring a
            # row off, its middle on a covered plate, its far row on the border tiles
            return reading
        confirmed = read_frame(frame, self.profile.with_corners(geometry.corners()),
                               max_hidden=MAX_HIDDEN_IN_SESSION, set_aside=reading.unmatched)
        return reading if confirmed.abstain else confirmed

    def _locate_or_keep(
        self, frame: np.ndarray, offset: tuple[int, int], tracked: Reading,
        whole: np.ndarray,
    ) -> tuple[Reading, tuple[int, int]]:
        """Search ``whole`` (the window) again after a tracked read of ``frame`` that
        abstained or read something new; when the search finds nothing but the tracked
        read did, and every plate it read shows
        its diamond where the corners place it, the view has not moved: the tracked
        reading stands, at the same corners.

        Why: a team-mate walking over the plates of a still view can cover one plate more
        than a search may leave hidden on the diamonds it has left (a ring fitted to six
        hides at most three), while the corners, placed when fewer were covered, still
        place every plate; the frames went blank until the team-mate moved on. A camera
        that moved fails the check (its diamonds are off their old places), and a plate
        the old corners put on the plain floor makes the tracked read abstain."""
        corners, set_aside, recheck = self._corners, self._set_aside, self._recheck
        located, at = self._locate(whole)
        if not located.abstain or tracked.abstain or tracked.geometry is None:
            return located, at
        seen = tuple((tile.row, tile.col) for tile in tracked.tiles if not tile.hidden)
        if not ring_in_place(frame, tracked.geometry, seen):
            return located, at
        self._corners, self._set_aside, self._recheck = corners, set_aside, recheck
        self._last_board = tracked.board_text
        self.frame_read = frame
        kept = TraceStep("keep", "the search found nothing; every plate the tracked read "
                         "read shows its diamond at its corners: the view has not moved")
        return replace(tracked, trace=(*located.trace, kept, *tracked.trace)), offset

    def _freed(self, frame: np.ndarray, reading: Reading) -> tuple[tuple[int, int], ...]:
        """The set-aside plates that show a whole diamond in this tracked frame (each is
        checked until it is freed or the next search)."""
        if not self._recheck or reading.geometry is None:
            return ()
        whole = whole_diamonds(frame, reading.geometry, self._recheck)
        return tuple(cell for cell, free in zip(self._recheck, whole, strict=True) if free)

    def _tracked_read(self, frame: np.ndarray, offset: tuple[int, int]) -> Reading:
        """A read at the corners the locator found, as careful as the locator: the plates
        it set aside stay hidden, and a plate with something over part of it is hidden."""
        reading = read_frame(frame, self._at(offset), max_hidden=MAX_HIDDEN_IN_SESSION,
                             set_aside=self._set_aside)
        return replace(reading, trace=(TraceStep("track", "read at the corners the last "
                                                 "search placed"), *reading.trace))

    def _full_shape(self) -> tuple[int, int] | None:
        return None if self._window_size is None else self._window_size[::-1]

    def _at(self, offset: tuple[int, int]) -> Profile:
        return self.profile.with_corners(self._corners - np.array(offset, np.float64))

    def forget_last_view(self) -> None:
        """Search the next frame afresh, as at a session's start: where the ring was last
        seen says nothing about a view long after (the loop's FORGET_VIEW_SECONDS)."""
        self._last_seen = None
        self._last_seen_sure = True
        self._searches_since_found = None
        if not self._fixed:
            self._corners = None

    def _fresh_if_more_read(self, frame: np.ndarray, followed: Reading) -> Reading:
        """``followed``, a reading of the ring followed from the last view, or a fresh
        search's of the same ring when that hides only some of the plates it hides.

        Why: a follow sets aside every plate whose diamond is not whole where the moved
        ring puts it, and the reads at its corners keep them hidden; a player on a corner
        plate at a steep camera covers part of both its neighbours, and with all three
        of the step's plates hidden the step went undecided until the player walked on.
        A fresh search reads a neighbour from the part of its diamond that shows. Asked
        only when the follow hides three plates or more (a step onto a corner at a steep
        camera; a crowd), so a frame costs at most one search more."""
        if followed.abstain or followed.geometry is None \
                or len(followed.hidden) < FRESH_SEARCH_HIDING:
            return followed
        fresh = read_frame(frame, self.profile, max_hidden=MAX_HIDDEN_IN_SESSION)
        if fresh.abstain or fresh.geometry is None \
                or not set(fresh.hidden) < set(followed.hidden) \
                or not same_places(fresh.geometry.homography, followed.geometry.homography,
                                   LAST_VIEW_AGREEMENT):
            return followed
        return fresh

    def _no_ring_lately(self) -> bool:
        """Whether no search found the ring in the last :data:`FIVE_DIAMOND_SEARCHES`.

        Why: a session starts with the player at the way in and team-mates about the
        plates; at a steep camera and 125-150% display scaling three of them hid three
        diamonds in whole sessions' first frames, and the overlay stayed blank until the
        player stepped. Then the fresh search goes on to five diamonds, on the gold blobs
        it has found (no second pass over the picture: on a 1920x1080 frame out of view,
        8.4 ms against 8.3), and the lattice must show the plates' frames about most of
        its places. Found a moment ago, a five-diamond search comes later instead, after
        the last view was followed."""
        return (self._searches_since_found is None
                or self._searches_since_found >= FIVE_DIAMOND_SEARCHES)

    def _locate(self, frame: np.ndarray) -> tuple[Reading, tuple[int, int]]:
        """Search the whole frame for the ring: the searches below in order, each tried
        only while none has read it. The reading's trace holds every search tried, what
        each of them decided and which one answered."""
        with recording() as steps:
            reading, source = self._search(frame)
            note("search", f"answered by {source}" if source else "no search read the ring")
        return replace(reading, trace=tuple(steps)), (0, 0)

    def _search(self, frame: np.ndarray) -> tuple[Reading, str | None]:
        """The searches of :meth:`_locate`: the reading and the name of the search that
        read it (None when none did)."""
        self.frame_read = frame
        self._since_locate = 0
        self.relocations += 1
        reading, source = self._first_searches(frame)
        if reading.abstain:
            reading, source = self._last_searches(frame, reading, source)
        self._remember(frame, reading)
        return reading, source

    def _first_searches(self, frame: np.ndarray) -> tuple[Reading, str | None]:
        """The last view followed, a fresh search, the last view turned or zoomed: the
        reading and the search that read it (None when none did)."""
        source = None
        # from where the ring was last seen first: the camera follows the player, so the
        # floor has mostly shifted, and following it costs a quarter of a fresh search
        # and keeps the plates' labels; a turn or zoom it cannot follow is searched afresh
        reading = None
        if self._last_seen is not None:
            reading = follow_frame(frame, self._last_seen, self.profile,
                                   previous_sure=self._last_seen_sure)
            followed = reading
            reading = self._fresh_if_more_read(frame, reading)
            if _tried("the last view followed", followed):
                source = ("a fresh search (it hides fewer plates than the follow)"
                          if reading is not followed else "the last view followed")
        if reading is None or reading.abstain:
            # no ring found a moment ago (a session's first frames, the room come back
            # into view): on five diamonds too, if not six (_no_ring_lately)
            fewer = MIN_DIAMONDS_AFTER_LAST_VIEW if self._no_ring_lately() else None
            reading = read_frame(frame, self.profile, max_hidden=MAX_HIDDEN_IN_SESSION,
                                 fewer_diamonds=fewer)
            name = "a fresh search" + (" (on five diamonds too)" if fewer else "")
            source = name if _tried(name, reading) else None
        if reading.abstain and self._last_seen is not None:
            # the camera turned or zoomed about the player, and bodies leave a fresh search
            # too few diamonds: the ring turned or scaled on the floor last seen (a fresh
            # search, when it works, reads more plates: it is tried first)
            turned = follow_frame(frame, self._last_seen, self.profile, turned=True,
                                  zoomed=True, previous_sure=self._last_seen_sure)
            if _tried("the last view turned or zoomed", turned):
                reading, source = turned, "the last view turned or zoomed"
        return reading, source

    def _last_searches(self, frame: np.ndarray, reading: Reading,
                       source: str | None) -> tuple[Reading, str | None]:
        """When :meth:`_first_searches` did not read the ring (``reading``): searches on
        fewer diamonds, the last view pitched about the player or moved with a plate more
        hidden, and thin strokes cut away, each while none has read it."""
        if (reading.abstain and not reading.found and not self._no_ring_lately()):
            # the camera pitched about the player (no motion of the last view on the floor
            # places that ring), and his gold clothes and a team-mate's have merged three
            # diamonds with their bodies: a search on the five left (after the last view
            # was followed; with no ring found lately, the fresh search went on to five)
            pitched = read_frame(frame, self.profile, max_hidden=MAX_HIDDEN_IN_SESSION,
                                 diamonds_needed=MIN_DIAMONDS_AFTER_LAST_VIEW)
            if _tried("a search on five diamonds", pitched):
                reading, source = pitched, "a search on five diamonds"
        if reading.abstain and self._last_seen is not None and self.spot is not None:
            # the camera pitched about the player: no motion of the floor reproduces the
            # tilt, but the last view's camera turned about its horizontal axis does, and
            # it needs only four diamonds (a close zoom with the bottom row under the chat
            # panel and the player on a plate)
            pitched = follow_frame(frame, self._last_seen, self.profile,
                                   previous_sure=self._last_seen_sure, pitched_about=self.spot)
            if _tried("the last view pitched about the player", pitched):
                reading, source = pitched, "the last view pitched about the player"
        if reading.abstain and reading.found and self._last_seen is not None:
            reading = self._confirmed_by_last_view(frame, reading)
            if _tried("the found ring confirmed by the last view", reading):
                source = "the found ring confirmed by the last view"
        if reading.abstain and self._last_seen is not None and self._last_seen_sure:
            # the last view moved rigidly, with a fifth plate hidden: the bottom row under
            # the chat panel at a close zoom, the player on one plate and a statue or a
            # team-mate over another leave three plates to read, which still tell the
            # step (only now: where more can be read, more is)
            more = follow_frame(frame, self._last_seen, self.profile, hide_more=True)
            if _tried("the last view moved rigidly, a fifth plate hidden", more):
                reading, source = more, "the last view moved rigidly, a fifth plate hidden"
        if reading.abstain:
            # nothing read the ring: a team-mate's weapon across two plates may have
            # joined their diamonds to each other and to his body (a far, steep view
            # with team-mates on the plates), so search once more with thin strokes cut
            # away, on five diamonds if not six, as the searches before it went; only a
            # reading is taken (pieces of figures are candidates in this search)
            cut = read_frame(frame, self.profile, max_hidden=MAX_HIDDEN_IN_SESSION,
                             fewer_diamonds=MIN_DIAMONDS_AFTER_LAST_VIEW, cut_strokes=True)
            if _tried("a search with thin strokes cut away", cut):
                reading, source = cut, "a search with thin strokes cut away"
        return reading, source

    def _remember(self, frame: np.ndarray, reading: Reading) -> None:
        """Keep what a search found for the frames after it: the corners to read at, the
        last view to follow, the plates it set aside."""
        if reading.found:
            self._searches_since_found = 0
        elif self._searches_since_found is not None:
            self._searches_since_found += 1
        if reading.found and not reading.abstain and reading.corners is not None:
            self._corners = np.array(reading.corners, np.float64)
            self._last_seen = reading.geometry
            self._last_seen_sure = (reading.moved_rigidly
                                    or not leaves_a_corner_unread(reading.hidden))
            # the next frames are read at these corners, which may read a plate the search
            # set aside (or the other way round): compare them with such a read of this
            # frame, or an unchanged view would cost a second search
            self._set_aside = reading.hidden
            self._recheck = reading.hidden
            with apart():
                tracked = self._tracked_read(frame, (0, 0))
            self._last_board = reading.board_text if tracked.abstain else tracked.board_text
        else:
            self._corners = None
            self._last_board = None

