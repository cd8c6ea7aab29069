"""Frame in, reading out: where the cells are, lit or unlit, or why it cannot say.

The reader is a line of stages, each in its own module, each noting what it decided in
the reading's trace (:mod:`assistant.vision.trace`):

1. *place the grid*: a profile's four corner-cell centres (calibrated), or for the ToA
   ring :func:`~assistant.vision.locate.locate_ring` (auto-locate), or, in a live
   session, :func:`~assistant.vision.locate.follow_ring` from the last view (here);
2. *is it placed surely*: how many plates such a ring may leave unread, and the refits
   of a ring a covered plate's blob may have bent (:mod:`assistant.vision.placing`);
3. *read the plates* (:mod:`assistant.vision.plates`, deciding with
   :mod:`assistant.vision.appearance`);
4. *settle the plates left unread*: covered, unclear or outside
   (:mod:`assistant.vision.unread`, :mod:`assistant.vision.cover`);
5. *answer or abstain* (:mod:`assistant.vision.reading`): here, the retries of a located
   ring that did not read.

Both ways of placing end in the same reading of the plates, so a reading is as
trustworthy in one mode as in the other. The reader never guesses: a plate with something
standing on it (the player's own character after every step, a team-mate) is reported
*hidden*, up to :data:`MAX_HIDDEN` of them, the others still read; when more are covered,
the grid is out of view or the looks do not separate, the reading abstains with a
sentence a player understands. What a hidden plate shows is for the live loop to infer
from the frames before (:mod:`assistant.session.history`), never for one picture.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from assistant.profile import TOA_RING, GridSpec, Profile
from assistant.vision.appearance import Look
from assistant.vision.geometry import GridGeometry, geometry_from_corners
from assistant.vision.locate import (
    EXACT_RING_FIT,
    MIN_DIAMONDS,
    MIN_DIAMONDS_AFTER_LAST_VIEW,
    RingFit,
    bent_by_one_blob,
    follow_ring,
    locate_ring,
    same_places,
)
from assistant.vision.placing import (
    PLACING_RULES,
    another_ring_fits,
    corner_placed_by_the_others,
    hidden_allowed,
    leaves_a_corner_unread,
    unless_corner_unplaced,
    unless_pulled_blob_reads_otherwise,
)
from assistant.vision.plates import read_cells
from assistant.vision.reading import (
    MAX_HIDDEN,
    MAX_HIDDEN_IN_SESSION,
    NOT_IN_VIEW,
    FrameError,
    Reading,
    TileReading,
    abstain,
    as_bgr,
)
from assistant.vision.trace import note, recording

__all__ = [
    "MAX_HIDDEN",
    "MAX_HIDDEN_IN_SESSION",
    "NOT_IN_VIEW",
    "FrameError",
    "Reading",
    "TileReading",
    "as_bgr",
    "follow_frame",
    "leaves_a_corner_unread",
    "read_frame",
]

#: the profile's colours for lit and unlit (BGR), when it has them
_References = tuple[tuple[int, int, int], tuple[int, int, int]] | None


def read_frame(frame: np.ndarray, profile: Profile | None = None, *,
               max_hidden: int = MAX_HIDDEN,
               set_aside: tuple[tuple[int, int], ...] | None = None,
               diamonds_needed: int = MIN_DIAMONDS,
               fewer_diamonds: int | None = None, cut_strokes: bool = False) -> Reading:
    """:func:`_read_frame` with the notes its stages made (:attr:`Reading.trace`)."""
    with recording() as steps:
        reading = _read_frame(frame, profile, max_hidden=max_hidden, set_aside=set_aside,
                              diamonds_needed=diamonds_needed, fewer_diamonds=fewer_diamonds,
                              cut_strokes=cut_strokes)
        note("answer", _summary(reading))
    return replace(reading, trace=tuple(steps))


def _summary(reading: Reading) -> str:
    """The reading in a few words, for the trace."""
    if reading.abstain:
        return f"abstained: {reading.reason}"
    parts = [f"board {reading.board_text}"]
    for name, cells in (("covered", reading.covered), ("unclear", reading.unclear),
                        ("outside", reading.outside)):
        if cells:
            parts.append(f"{name} " + ", ".join(f"({r + 1},{c + 1})" for r, c in cells))
    return "; ".join(parts)


def _how_to_read(profile: Profile | None) -> tuple[GridSpec, Look, _References]:
    """The grid, its cells' look and the reference colours: the profile's, or without
    one the ToA ring read by its contrast."""
    grid = profile.grid if profile is not None else TOA_RING
    look = Look(profile.appearance.look) if profile is not None else Look.TOA_PLATE
    refs = profile.appearance.references_bgr() if profile is not None else None
    return grid, look, refs


def _read_frame(frame: np.ndarray, profile: Profile | None = None, *,
                max_hidden: int = MAX_HIDDEN,
                set_aside: tuple[tuple[int, int], ...] | None = None,
                diamonds_needed: int = MIN_DIAMONDS,
                fewer_diamonds: int | None = None, cut_strokes: bool = False) -> Reading:
    """Read the puzzle in a BGR or BGRA frame; at most ``max_hidden`` cells hidden (the
    live loop, whose history fills them in, allows :data:`MAX_HIDDEN_IN_SESSION`).
    ``diamonds_needed``: how many plates must show a diamond to locate the ring
    (:func:`assistant.vision.locate.locate_ring`); ``fewer_diamonds``: how many, when none
    is found on that many (the same search goes on through the gold it found);
    ``cut_strokes``: also among diamonds a thin stroke joins (the live loop's last try).

    With a profile that has corners, the grid is placed by them (calibrated mode);
    without corners (or without a profile) the ToA ring is located automatically.
    Generic grids need corners: there is nothing to locate them by.

    ``set_aside``: the corners are where the locator placed the ring in an earlier frame
    of the same view, and these cells are the ones it did not read (hidden). The reading
    is then as careful as the locator's own: those cells stay hidden, and so does a cell
    with something foreign over part of it (a player standing on a plate reads as an
    unlit plate from what shows around the feet). A player's clicked corners are not that
    exact, so calibrated reads skip that check.
    """
    bgr = as_bgr(frame)
    whole = frame if frame.ndim == 3 else bgr  # BGRA stays whole: contiguous, fast to resize
    grid, look, refs = _how_to_read(profile)
    if grid.states != 2:
        note("reader", f"a grid of {grid.states} states: not read")
        return abstain(
            f"The reader reads on/off grids only; this profile has {grid.states} states.",
            "calibrated",
        )
    if profile is not None and profile.corners is not None:
        geometry = geometry_from_corners(grid.rows, grid.cols, np.array(profile.corners))
        note("placing", "placed by the profile's corners" if set_aside is None else
             f"placed by an earlier view's corners, {len(set_aside)} plate(s) unread there")
        if set_aside is not None:
            return read_cells(bgr, geometry, grid, look, refs, "auto",
                              unmatched=tuple(set_aside), max_hidden=max_hidden)
        return read_cells(bgr, geometry, grid, look, refs, "calibrated", unmatched=(),
                          max_hidden=max_hidden)
    if not grid.is_toa_ring:
        note("placing", "a grid without corners that is not the ToA ring: nothing to "
             "locate it by")
        return abstain(
            "This profile has no corner positions: calibrate the grid first.", "calibrated"
        )
    fit, why = locate_ring(whole, diamonds_needed=diamonds_needed, fewer_needed=fewer_diamonds,
                           cut_strokes=cut_strokes)
    if fit is None:
        note("placing", "two rings found" if why == "several" else "no ring found")
        reason = (
            "Two puzzle-like patterns are in view: calibrate to pick one."
            if why == "several"
            else NOT_IN_VIEW
        )
        return abstain(reason, "auto")
    reading = _read_located(bgr, fit, grid, look, refs, max_hidden)
    if reading.abstain and reading.found:
        return _read_again(whole, bgr, fit, reading, grid, look, refs, max_hidden,
                           diamonds_needed, cut_strokes)
    return reading


def _read_again(whole: np.ndarray, bgr: np.ndarray, fit: RingFit, reading: Reading,
                grid: GridSpec, look: Look, refs: _References, max_hidden: int,
                diamonds_needed: int, cut_strokes: bool) -> Reading:
    """``reading``, of the ring the locator found, which abstained; or the first that
    reads of: the ring five diamonds place exactly, when the fit was loose
    (:func:`_tight_core_on_five`); the ring through the other diamonds when one blob
    alone bends the fit (:func:`assistant.vision.locate.bent_by_one_blob`); the ring a
    search on as many diamonds as were asked for finds (:func:`_unless_read_on_as_many`)."""
    if fit.fit_error > EXACT_RING_FIT and diamonds_needed > MIN_DIAMONDS_AFTER_LAST_VIEW:
        core = _tight_core_on_five(whole, fit, cut_strokes)
        if core is not None:
            tighter = _read_located(bgr, core, grid, look, refs, max_hidden)
            if not tighter.abstain:
                note("reader", "answered by the ring five diamonds place exactly (the "
                     f"fit on {sum(fit.matched)} was loose, {fit.fit_error:.3f})")
                return tighter
    bent = bent_by_one_blob(fit)
    if bent is not None:
        # the ring through the other diamonds, that blob's plate not seen
        tighter = _read_located(bgr, bent, grid, look, refs, max_hidden)
        if not tighter.abstain:
            note("reader", "answered by the ring through the other diamonds: one blob "
                 "alone bent the fit")
            return tighter
    if sum(fit.matched) < diamonds_needed:
        return _unless_read_on_as_many(whole, bgr, reading, grid, look, refs, max_hidden,
                                       diamonds_needed, cut_strokes)
    return reading


def _unless_read_on_as_many(whole: np.ndarray, bgr: np.ndarray, reading: Reading,
                            grid: GridSpec, look: Look, refs: _References,
                            max_hidden: int, diamonds_needed: int, cut_strokes: bool
                            ) -> Reading:
    """``reading``, made on a ring the search found on fewer diamonds than it was asked
    for and could not read, or a reading of the ring a search on as many as were asked
    finds without going on to fewer, when that reads.

    Why: a small frame's search at half resolution on as many diamonds comes after the
    one on fewer (:func:`assistant.vision.locate.locate_ring`: a body's gold merged with
    a diamond counts as one at half, and the fewer whole ones at full resolution place
    the ring better). Where full resolution scattered the blurred diamonds' centres and
    found only five, the lattice through them hid four plates, and a session's first
    frame went blank, while the half-resolution search placed the ring on seven
    (at 68 degrees, through JPEG). Asked
    only when the ring on fewer is not read, so a frame costs a search more only then."""
    more, _why = locate_ring(whole, diamonds_needed=diamonds_needed, cut_strokes=cut_strokes)
    if more is None or sum(more.matched) < diamonds_needed:
        return reading
    again = _read_located(bgr, more, grid, look, refs, max_hidden)
    if again.abstain:
        return reading
    note("reader", f"answered by the ring a search on {diamonds_needed} diamonds found")
    return again


def _read_located(bgr: np.ndarray, fit: RingFit, grid: GridSpec, look: Look,
                  refs: _References, max_hidden: int) -> Reading:
    """Read the ring the locator placed (``fit``), as sure of its places as its diamonds
    make it."""
    unmatched = tuple(
        cell for cell, seen in zip(grid.cells, fit.matched, strict=True) if not seen
    )
    if another_ring_fits(bgr, fit, unmatched):
        # the six other diamonds also fit a sheared ring whose missing corners lie
        # elsewhere, this camera makes that shear look like a plain view, and the plates'
        # frames do not tell the two apart
        note("placing", "two opposite corners unmatched, and a sheared ring fits the six "
             "diamonds as well")
        return abstain(
            "Two opposite corner plates are covered: the plates cannot be placed for sure.",
            "auto",
        )
    allowed = hidden_allowed(max_hidden, unmatched)

    def read_at(geometry: GridGeometry, surely: bool) -> Reading:
        return read_cells(bgr, geometry, grid, look, refs, "auto", unmatched=unmatched,
                          max_hidden=allowed, placed_surely=surely, placed_here=True)

    note("placing", f"ring located on {len(grid.cells) - len(unmatched)} diamonds, fit "
         f"error {fit.fit_error:.3f}; at most {allowed} plates may be unread")
    reading = read_at(fit.geometry, len(unmatched) <= 1)
    reading = unless_pulled_blob_reads_otherwise(reading, fit, read_at, allowed)
    reading, unfitted, fit_error = corner_placed_by_the_others(reading, fit, unmatched,
                                                               read_at)
    return replace(unless_corner_unplaced(reading, unfitted, fit_error),
                   unmatched=unmatched)


def _tight_core_on_five(whole: np.ndarray, fit: RingFit, cut_strokes: bool) -> RingFit | None:
    """The ring a search on five diamonds places exactly, when it is ``fit``'s own ring.

    Why: a search on six takes a body's blob beside a covered plate among its diamonds,
    and the loose fit it pulls (0.013-0.027 of the spacing) puts the covered places off
    their plates, which then read as floor or doubt: four covered where the truth hides
    one or two, and the frame abstains (seen at steep cameras on both room sources). The
    five diamonds read whole fit the ring to 0.002-0.003, and their frames show about
    seven or eight places."""
    core, _why = locate_ring(whole, diamonds_needed=MIN_DIAMONDS_AFTER_LAST_VIEW,
                             cut_strokes=cut_strokes)
    if core is None or core.fit_error > EXACT_RING_FIT:
        return None
    same = same_places(fit.geometry.homography, core.geometry.homography,
                       PLACING_RULES.same_ring)
    return core if same else None


def follow_frame(frame: np.ndarray, previous: GridGeometry,
                 profile: Profile | None = None, *, turned: bool = False,
                 zoomed: bool = False, hide_more: bool = False,
                 previous_sure: bool = True,
                 pitched_about: tuple[float, float] | None = None) -> Reading:
    """Read the ToA ring by following it from ``previous``, the place the live loop last
    saw it, when locating afresh finds nothing: after a step the camera has moved with
    the player, and the player and team-mates may leave too few diamonds for a fresh
    search (:func:`assistant.vision.locate.follow_ring`; ``turned``, ``zoomed``: also a
    ring the camera turned or zoomed about the player; ``pitched_about``: only the ring
    the camera pitched about the player standing at that spot). The plates keep their
    labels.
    ``hide_more``: a rigid placement may hide
    :attr:`~assistant.vision.placing.PlacingRules.max_hidden_rigid` plates, not a
    session's four (the live loop's last try: a reading of fewer plates only where
    nothing reads more). ``previous_sure``: False when ``previous`` placed a corner plate
    and both its neighbours from the other plates alone (:func:`leaves_a_corner_unread`);
    moved rigidly, its error there grows with the move, so the placement counts as a
    fitted one."""
    bgr = as_bgr(frame)
    whole = frame if frame.ndim == 3 else bgr
    grid, look, refs = _how_to_read(profile)
    if not grid.is_toa_ring or grid.states != 2:
        return abstain(NOT_IN_VIEW, "auto")
    fit = follow_ring(whole, previous, turned=turned, zoomed=zoomed,
                      pitched_about=pitched_about)
    if fit is None:
        note("placing", "the ring is not found near the last view")
        return abstain(NOT_IN_VIEW, "auto")
    unmatched = tuple(
        cell for cell, seen in zip(grid.cells, fit.matched, strict=True) if not seen
    )
    # the last view moved rigidly is a whole ring, however few diamonds placed it (no
    # lattice squashed through them): it may hide as many as a session allows (three
    # plates under the client's chat panel and the player on a fourth, after a step),
    # or one more when asked (a statue over a fifth, at a close zoom)
    rigid = fit.rigid and previous_sure
    rigid_allowed = PLACING_RULES.max_hidden_rigid if hide_more else MAX_HIDDEN_IN_SESSION
    allowed = rigid_allowed if rigid else hidden_allowed(MAX_HIDDEN_IN_SESSION, unmatched)

    def read_at(geometry: GridGeometry, surely: bool) -> Reading:
        return read_cells(bgr, geometry, grid, look, refs, "auto", unmatched=unmatched,
                          max_hidden=allowed, placed_surely=surely)

    note("placing", "ring followed from the last view on "
         f"{len(grid.cells) - len(unmatched)} diamonds"
         + (", moved rigidly" if rigid else f", fit error {fit.fit_error:.3f}")
         + f"; at most {allowed} plates may be unread")
    reading = read_at(fit.geometry, len(unmatched) <= 1)
    if rigid:
        return replace(reading, moved_rigidly=not reading.abstain)
    reading = unless_pulled_blob_reads_otherwise(reading, fit, read_at, allowed)
    reading, unfitted, fit_error = corner_placed_by_the_others(reading, fit, unmatched,
                                                               read_at)
    return unless_corner_unplaced(reading, unfitted, fit_error)
