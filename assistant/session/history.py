"""What a hidden cell shows, told by the frames before it and the puzzle's own rules.

One picture never guesses a hidden cell (:mod:`assistant.vision.reader`). Over a session it
need not: a step changes a known set of cells (the plate and its two ring neighbours on the
ToA board, the cell and its orthogonal neighbours on a generic grid), so the visible cells
that changed since the last frame tell which cell was stepped on, and with it the state of
the one the player now stands on.

:class:`BoardHistory` keeps a *belief*: every board the session could be showing. A new
reading narrows it to the completions of that reading (one per assignment of its hidden
cells) that some board of the belief reaches in at most :data:`MAX_STEPS_BETWEEN` steps.
When one completion is left the board is certain; when several are, the overlay shows only
what every one of them agrees on. When none is left (frames were missed, the reader was
confused), the history is dropped and the reading alone decides.

Labels follow the screen (row 1, column 1 is the top-left cell as seen), so a turn of the
camera relabels the cells. The ring alone cannot tell a quarter turn from none (a step
and a quarter turn about the player both shift the labelled lattice by whole plates), and
the compass snaps the camera in one frame to look along one of the room's axes (the room
around the ring can tell the turn: ``room_turns``, below). So one
transition is explained either by a turn under 45° (the quarter turns that bring the
previous grid's axes nearest the new ones, :func:`quarter_turns_between`) with up to
:data:`MAX_STEPS_BETWEEN` steps, or by a snap of any quarter turn with no step in the same
frame (a reading missed before it may have held one). A view that does not look along
the room's axes (:func:`off_cardinal_deg`) is no snap's, when the readings are a frame
apart (further apart, a smooth turn may have passed 45°). Steps are the player's own, made by
entering a plate: when the live loop knows where the camera keeps the player on screen
(``anchors``: the floor point under that spot in both readings, the spot learnt from
plates the player stood on) and that floor point has not moved through the smooth turn,
the player stood still and no step (nor a snap that would move it) is allowed. The camera
keeps the player in view, so a step between frames a moment apart was onto a plate in the
picture (a low, close camera leaves a whole row of three out) and, once the spot is learnt,
near the player (``player``). A
team-mate who walks onto a plate breaks this model: a change of a plate in view then has
no explanation, the history is dropped and the frame alone decides (only a step whose
three plates are all hidden would go unseen). Within that model the true board is always
among the candidates, so the overlay is never wrong, only sometimes shows less; a
constraint that could exclude the truth (such as "a snap moves nobody, so the same plates
stay hidden", false at oblique views, where a standing body hides the plate behind it) is
never used. Exhaustively over the ToA board,
one step onto a plate seen the frame before (the player walks over plain floor between
plates) is always decided. Between two successive frames of the live loop (a tenth of a
second at 10 fps) at most one step happens: a step takes a game tick. Readings further
apart (the reader abstained in between, the loop runs slowly, grabs failed, the window
was minimised) allow one more step per half tick of the time between them
(:data:`SECONDS_PER_STEP`), any snap of the camera, and the floor under the player as
much more pan: a gap widens what the history admits, never narrows it. A pan further
than a walk in the time known is taken for a gap too (the screen stalled, or the times
given are not the pictures'). Between readings whose time is not known (pictures without
capture times) any number of steps and camera moves are admitted, so such a reading is
decided by itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from assistant.puzzle import Board
from assistant.route import is_toa_board
from assistant.session.camera import (
    CARDINAL_TOLERANCE_DEG,
    off_cardinal_deg,
    pan_bound,
    quarter_turns_between,
    turn_board,
    turn_cell,
    turn_point,
    turn_side,
)
from assistant.session.moves import (
    LEFT,
    ON_A_PLATE_RADIUS,
    STANDING_RADIUS,
    STEP_REACH,
    cell_at,
    cells_out_of_reach,
    left_behind,
    step_deltas,
    stepped_cells,
    still_on,
    walkable_deltas,
)
from assistant.vision.geometry import GridGeometry
from assistant.vision.reader import Reading

__all__ = [
    "FRAME_SECONDS",
    "GAME_TICK_SECONDS",
    "MAX_STEPS_BETWEEN",
    "RUN_SECONDS_PER_TILE",
    "SECONDS_PER_STEP",
    "STEP_SPACING_SECONDS",
    "STILL_TOLERANCE",
    "UNBOUNDED_STEPS",
    "WALK_GRID_UNITS_PER_SECOND",
    "WALK_SLACK_TILES",
    "BoardHistory",
    "Inference",
]


#: Steps that may happen between two successive readings of the live loop: one. A step
#: is entering a plate, and the player enters at most one tile per game tick (0.6 s;
#: running moves two tiles, but two plates are never next to each other), so two frames
#: a tenth of a second apart never have two steps between them; a plate crossed on the
#: way to another is stepped on a tick before the other.
MAX_STEPS_BETWEEN = 1
#: Seconds of a game tick: the most one more step can take ...
GAME_TICK_SECONDS = 0.6
#: ... and what is counted for one more step when readings are further apart than the
#: loop's frames (half a tick: twice as cautious).
SECONDS_PER_STEP = GAME_TICK_SECONDS / 2
#: Two steps are a game tick apart at least (plates are never next to each other: the
#: player enters the next one a tick later at a run), so a step seen between two readings
#: less than this apart from the reading before the last step's is no step of the
#: player's: a walk over plates that hides one and then the next is no pair of steps a
#: tenth of a second apart, nor a step onto a hidden plate a moment after a step seen.
#: That reading was taken before the last step showed, so the two are a tick apart at
#: least, less how much later the last step reached the screen than this one: three
#: quarters of a tick leaves 0.15 s for that (a frame and a half of the live loop).
STEP_SPACING_SECONDS = GAME_TICK_SECONDS * 0.75
#: The steps of a transition whose time is not known (pictures without capture times, a
#: clock the screen did not keep to): more than any grid's steps can make a difference
#: with, so every board the steps reach is admitted (:meth:`BoardHistory.steps_within`).
UNBOUNDED_STEPS = 1 << 30
#: The live loop's frame at its 10 fps: the time between readings a frame apart.
FRAME_SECONDS = 0.1
#: Seconds per floor tile at a run (two tiles a game tick): the fastest a player walks.
RUN_SECONDS_PER_TILE = GAME_TICK_SECONDS / 2
#: Tiles a walk between two readings may be longer than the floor under the player's spot
#: says: the body on screen trails the game's own place by up to two tiles at either end
#: (the plate toggles on the tick the player enters it, the body gets there later), and
#: the spot and the placement are a fraction of a tile off.
WALK_SLACK_TILES = 5.0
#: How far (grid units) the floor under the player's spot may seem to move between two
#: readings of a player who stood still: the readings' own placement ...
STILL_TOLERANCE = 0.04
#: ... and at most half of what a walking player covers in the time between (one tile a
#: tick: 0.08 in a tenth of a second), so a slow walk seen by fast frames is no stillness
WALK_GRID_UNITS_PER_SECOND = 0.5 / GAME_TICK_SECONDS




@dataclass(frozen=True)
class Inference:
    """The board(s) a reading may show once the session's history is taken into account.

    ``board`` is the one board left (visible cells as read, hidden ones inferred), or
    ``None`` when ``candidates`` (two or more boards) are all still possible.
    ``inferred`` are the hidden cells whose state history decided; ``undecided`` those it
    could not. Cells count from 0.
    """

    board: Board | None
    candidates: tuple[Board, ...]
    inferred: tuple[tuple[int, int], ...] = ()
    undecided: tuple[tuple[int, int], ...] = ()

    @property
    def certain(self) -> bool:
        return self.board is not None



@dataclass(frozen=True)
class _Transition:
    """What one reading's transition allows (:meth:`BoardHistory._reachable`): the
    reading's completions, the smooth turn's quarter turns and its steps, the landmark's
    side, the snaps still possible (None: any) and their steps, the floor under the
    player's spot before and now, this reading's time, the quarter turns the room and a
    pan allow (None: any), whether the player stood still, and the walk allowed."""

    completions: tuple[Board, ...]
    smooth_turn: int
    steps: int
    landmark: tuple[int, int] | None = None
    snaps: frozenset[int] | None = None
    snap_steps: int = 0
    anchors: tuple[tuple[float, float], tuple[float, float]] | None = None
    now: float | None = None
    room_turns: frozenset[int] | None = None
    pan_turns: frozenset[int] | None = None
    stood_still: bool = False
    walk: tuple[tuple[tuple[float, float], tuple[float, float]], float] | None = None


class BoardHistory:
    """The belief of one live session (see the module docstring).

    ``max_steps`` bounds the steps one transition may explain; :meth:`update` takes each
    reading in order (with its frame, for the room picture) and returns what it shows.
    """

    def __init__(self, max_steps: int = MAX_STEPS_BETWEEN) -> None:
        self.max_steps = max_steps
        # every board the session could be showing, with the cells its last step may have
        # been onto (None: not known, as for a board the frame alone decided)
        self._belief: dict[Board, frozenset] = {}
        # per board of the belief, the sides of the grid the landmark may be on, in its
        # labels (None: not known): seen in an earlier reading, carried through the turns
        # of the labels that explain the boards since
        self._sides: dict[Board, frozenset] = {}
        # per board of the belief, the time of the reading before the transition its last
        # step was seen in (None: no step seen, or the time is not known): the next step
        # comes STEP_SPACING_SECONDS after it at the earliest
        self._step_window: dict[Board, float | None] = {}
        self._geometry: GridGeometry | None = None
        self._missed = 0  # readings missed since the last one (miss)
        self._now: float | None = None  # the last reading's time on the history's clock
        # whether the last reading's frame alone decided (the first of a session, or one
        # no board of the belief explained): what came before it no longer counts
        self.restarted = True

    def reset(self) -> None:
        """Forget the session (the puzzle left the view, another window was chosen)."""
        self._belief = {}
        self._sides = {}
        self._step_window = {}
        self._geometry = None
        self._missed = 0
        self._now = None
        self.restarted = True

    @property
    def belief(self) -> tuple[Board, ...]:
        return tuple(self._belief)

    def miss(self) -> None:
        """A frame without a reading: a step may have happened unseen in it, before a
        snap of the camera that the next reading shows (:meth:`update`)."""
        if self._belief:
            self._missed += 1

    def update(self, reading: Reading, seconds: float | None = FRAME_SECONDS,
               landmark: tuple[int, int] | None = None,
               anchors: tuple[tuple[float, float], tuple[float, float]] | None = None,
               player: tuple[float, float] | None = None,
               room_turns: frozenset[int] | None = None,
               pan_turns: frozenset[int] | None = None,
               ) -> Inference | None:
        """Narrow the belief by one reading; ``None`` when it abstains. ``seconds`` since
        the last reading that did not abstain bound the steps in between (one, and one more
        per :data:`SECONDS_PER_STEP`: :meth:`steps_within`); ``None`` is a time not known, a
        gap of any length, in which any number of steps and camera moves may have happened:
        every board the steps reach is admitted (the reading decides by itself, and a hidden
        cell stays undecided).

        ``landmark``: the side of the grid (an outward direction (dx, dy), in this
        reading's labels) on which a fixed feature of the room stands, when the frame
        shows it (the ToA room's statue, :func:`assistant.vision.statue.statue_side`).
        Seen in this reading and an earlier one, it tells the quarter turns of the labels
        between them, a snap's as well as a smooth turn's (the side seen earlier is kept
        per board of the belief, turned as each explanation since turned the labels): the
        ring alone cannot, so a step onto a plate whose new board is a quarter turn of the
        old one would otherwise stay undecided.

        ``anchors``: the grid point under the spot where the camera keeps the player, in
        the last reading's labels and in this one's. When it has not moved (through the
        smooth turn) and the readings are a moment apart, the player stood still: no step
        and no other snap (:meth:`_still_turns`). When the point it stands still on is a
        cell's centre, the player stands on that cell, so the last step was onto it (the
        player entered it and has not left it): boards whose last step was another cell
        are dropped (not when that would drop them all, which this model cannot explain).

        ``player``: the grid point under the spot where the camera keeps the player, in
        this reading's labels, once that spot is learnt. A step of this transition (one
        step, readings a moment apart) was onto a cell within :data:`STEP_REACH` of it;
        without it, onto a cell in the picture (:meth:`_reachable`). A plate further than
        that from it is not the one the player stands on (:func:`assistant.session.moves.still_on`).

        ``room_turns``: the quarter turns of the labels since the last reading that the
        room around the ring allows (:func:`assistant.vision.surroundings.turns_between`;
        None: it does not tell). Only they explain this reading, smooth or snapped; when
        none of them does, the room was misread (not the history), and it is not used.

        ``pan_turns``: the quarter turns of the labels since the last reading through which
        the floor under some place of the picture moved by :func:`pan_bound` at most
        (:func:`assistant.session.camera.turns_within_pan`; None: not known). Between
        readings a moment apart only
        they explain this reading: the floor under the player's spot moves no further
        (with ``anchors``, the floor under that spot itself). When none of them does,
        nothing does (the frame alone decides)."""
        completions = reading.completions()
        if not completions:
            self.miss()
            return None
        reach = STEP_REACH  # how far from the player's spot a plate stood on may be
        reached: dict[Board, frozenset] = {}
        sides: dict[Board, frozenset] = {}
        windows: dict[Board, float | None] = {}
        now = self._clock_after(seconds)
        if self._belief and self._compatible(completions[0]):
            reached, sides, windows, reach, now = self._explained(
                reading, completions, seconds, now, landmark, anchors, player, room_turns,
                pan_turns)
        # no history, or none that explains this frame: the frame alone decides
        self.restarted = not reached
        if not reached:
            reached = {board: frozenset({None}) for board in completions}
            sides = {board: frozenset({landmark}) for board in completions}
        if player is not None:
            reached = {board: still_on(last, player, board, reach)
                       for board, last in reached.items()}
        self._belief = reached
        self._sides = {board: sides[board] for board in reached}
        self._step_window = {board: windows.get(board) for board in reached}
        self._geometry = reading.geometry
        self._missed = 0
        self._now = now
        return self._inference(reading)

    def _explained(
        self, reading: Reading, completions: tuple[Board, ...], seconds: float | None,
        now: float | None, landmark: tuple[int, int] | None,
        anchors: tuple[tuple[float, float], tuple[float, float]] | None,
        player: tuple[float, float] | None, room_turns: frozenset[int] | None,
        pan_turns: frozenset[int] | None,
    ) -> tuple[dict, dict, dict, float, float | None]:
        """The completions the belief explains (:meth:`update`, its arguments): the boards
        kept with their last steps, the landmark's sides and their step windows, how far
        from the player's spot a plate stood on may be, and this reading's time on the
        history's clock (None when the pan shows more time passed than the clock says)."""
        reach = STEP_REACH
        steps = self.steps_within(seconds)
        if steps > self.max_steps:
            pan_turns = None  # time enough for the player to walk anywhere
        elif anchors is not None:
            pan_turns = self._anchored_pan_turns(
                completions[0], anchors, pan_turns, pan_bound(seconds))
        if pan_turns is not None and not pan_turns:
            # the floor under the player moved further than a walk in the time known,
            # however the labels turned: more time passed on screen than the clock
            # says (the game stalled, pictures not taken at the times given). A gap,
            # not evidence against a step: any number of steps, any camera move
            steps, pan_turns, now = self.steps_within(None), None, None
        turn = self._turn(reading)
        still = self._still_turns(completions[0], anchors, seconds, steps)
        # None: any snap; none at all a frame apart in a view no snap gives
        snaps = None if steps > self.max_steps or self._may_be_snapped(reading) \
            else frozenset()
        standing = None
        stood_still = still is not None and turn in still
        if stood_still:
            steps, snaps = 0, still if snaps is None else snaps  # the player stood still
            standing = cell_at(anchors[1], completions[0])
            reach = STANDING_RADIUS
        # a snap (a click on the compass) takes no step in its own frame; a reading
        # missed before it may have held one (the player steps, then snaps the camera
        # a frame later), and more time between admits the steps of that time
        snap_steps = steps if self._missed else steps - self.max_steps
        out_of_reach = cells_out_of_reach(completions[0], reading, player)
        # the steps of a transition are a walk: from where the player was to where
        # the player is, in the time between, at a run at most
        walk = None
        if player is not None and anchors is not None and now is not None \
                and seconds is not None and is_toa_board(completions[0]):
            walk = (anchors, seconds / RUN_SECONDS_PER_TILE + WALK_SLACK_TILES)
        transition = _Transition(completions, turn, steps, landmark, snaps, snap_steps,
                                 anchors, now, room_turns, pan_turns, stood_still, walk)
        reached, sides, windows = self._explain(transition, out_of_reach)
        if standing is not None:
            on_it = {board: last for board, last in reached.items()
                     if None in last or standing in last}
            reached = on_it or reached
        elif player is not None and cell_at(player, completions[0], ON_A_PLATE_RADIUS):
            # the body on a plate's middle has entered it: a board that took no step
            # since the player was seen off every plate explains nothing
            stepped = {board: last for board, last in reached.items()
                       if last != frozenset({LEFT})}
            reached = stepped or reached
        return reached, sides, windows, reach, now

    def _explain(self, transition: _Transition,
                 out_of_reach: frozenset) -> tuple[dict, dict, dict]:
        """:meth:`_reachable`, without the room's turns when they explain nothing, and
        without the landmark when it contradicts every explanation left."""
        reached, sides, windows = self._reachable(transition, out_of_reach)
        if not reached and transition.room_turns is not None:
            reached, sides, windows = self._reachable(
                replace(transition, room_turns=None), out_of_reach)
        if not reached and transition.landmark is not None:
            # the side seen contradicts every explanation the ring allows: a
            # side was misread (a body in gold standing in front of another
            # side, its head beyond the plates at a low camera), not the whole
            # history; which of the two readings, this one or the one the side
            # was carried from, is not known, so the side is forgotten on both
            reached, sides, windows = self._reachable(
                replace(transition, landmark=None, room_turns=None), out_of_reach)
            sides = {board: frozenset({None}) for board in reached}
        return reached, sides, windows


    def steps_within(self, seconds: float | None) -> int:
        """The most steps a transition of ``seconds`` may hold: :attr:`max_steps`, and one
        more per :data:`SECONDS_PER_STEP`. A time not known (None, or not finite) is a gap
        of any length: as many steps as can change the board at all (every board the
        grid's steps reach is admitted; :func:`assistant.session.moves.step_deltas` lists
        no more)."""
        if seconds is None or not math.isfinite(seconds):
            return UNBOUNDED_STEPS
        return self.max_steps + int(max(seconds, 0.0) // SECONDS_PER_STEP)

    def _clock_after(self, seconds: float | None) -> float | None:
        """This reading's time on the history's clock: 0 for a session's first reading,
        the last one's plus ``seconds`` after it, None once a time is not known."""
        if not self._belief:
            return 0.0
        if self._now is None or seconds is None or not math.isfinite(seconds):
            return None
        return self._now + max(seconds, 0.0)

    @staticmethod
    def _may_be_snapped(reading: Reading) -> bool:
        """Whether this view could be a snap's: a snap looks along the room's axes
        (:data:`CARDINAL_TOLERANCE_DEG`). A view between them came by a smooth turn, whose
        quarter turns of the labels are known, when the readings are a frame apart; a
        view without a geometry rules nothing out."""
        geometry = reading.geometry
        return geometry is None or off_cardinal_deg(geometry) <= CARDINAL_TOLERANCE_DEG

    def _turn(self, reading: Reading) -> int:
        """The quarter turns of a smooth camera turn since the last reading."""
        if reading.geometry is None or self._geometry is None:
            return 0
        if np.array_equal(reading.geometry.homography, self._geometry.homography):
            return 0  # a still view, read at the same corners (most frames)
        return quarter_turns_between(self._geometry, reading.geometry)

    def _still_turns(self, board: Board,
                     anchors: tuple[tuple[float, float], tuple[float, float]] | None,
                     seconds: float | None, steps: int) -> frozenset[int] | None:
        """The quarter turns of the labels through which the floor under the player's spot
        has not moved since the last reading (within :data:`STILL_TOLERANCE`); None when
        that cannot be told (no anchors, no time between, or time enough for unseen
        steps). When the smooth turn is one of them, the player stood still: no step (a
        step is entering a plate), and no snap but these (a snap turns the camera about
        the player). A wrong spot only makes a turn or zoom look like a move (the floor
        under any spot stays put when the camera does), never a move look still."""
        if anchors is None or steps > self.max_steps:
            return None
        before, now = anchors
        tolerance = min(STILL_TOLERANCE, 0.5 * WALK_GRID_UNITS_PER_SECOND * max(seconds, 0.0))
        turns = range(4) if board.rows == board.cols else range(1)
        return frozenset(t for t in turns
                         if math.dist(turn_point(before, board.rows, t), now) <= tolerance)

    def _compatible(self, board: Board) -> bool:
        before = next(iter(self._belief))
        return (before.k, before.objective) == (board.k, board.objective) and sorted(
            before.shape
        ) == sorted(board.shape)

    @staticmethod
    def _anchored_pan_turns(board: Board,
                            anchors: tuple[tuple[float, float], tuple[float, float]],
                            pan_turns: frozenset[int] | None, most: float) -> frozenset[int]:
        """``pan_turns`` narrowed to the quarter turns of the labels through which the floor
        under the player's spot (``anchors``) moved by ``most`` at most
        (:func:`assistant.session.camera.pan_bound`):
        a snap of the camera about a player on a corner plate must not pass for a step
        onto the plate beside it, taken with a pan of two plates in a tenth of a second."""
        before, now = anchors
        turns = range(4) if board.rows == board.cols else range(1)
        near = frozenset(t for t in turns
                         if math.dist(turn_point(before, board.rows, t), now) <= most)
        return near if pan_turns is None else pan_turns & near

    def _reachable(
        self, transition: _Transition, out_of_reach: frozenset = frozenset(),
    ) -> tuple[dict[Board, frozenset], dict[Board, frozenset], dict[Board, float | None]]:
        """The completions some board of the belief reaches: by the smooth turn and up to
        ``steps`` steps, or by any other quarter turn (a snap) and up to ``snap_steps``
        (those of the time beyond its own frame). When the landmark is seen by this reading
        and was by an earlier one, only the turns that carry it from the side it had on a board
        of the belief (carried through the turns that explained that board since) to the
        side seen now explain a completion from that board, smooth or snapped (the statue
        seen two frames ago, hidden by a team-mate in the last, still tells a snap from a
        step). ``snaps``: the snaps still possible (None: any). Returns the completions kept
        and, per completion, the landmark's possible sides. (The names are the fields of
        ``transition``.)

        Each completion kept comes with the cells its last step may have been onto, in
        this reading's labels: kept from the board it was reached from without a step,
        the cell stepped on when one step explains it, not known (None) past one step.

        ``out_of_reach``: cells no single step of this transition was onto, when it allows
        one step (:func:`assistant.session.moves.cells_out_of_reach`); with more time
        between, they are not used.
        ``anchors`` (as for :meth:`update`): nor a cell the player moved away from
        (:data:`AWAY_TOLERANCE`). ``now``: this reading's time on the history's clock
        (None: not known); a board whose last step was seen less than
        :data:`STEP_SPACING_SECONDS` before it explains nothing by another step. Returns
        also, per completion kept, when its last step's transition began (the window the
        next step is measured from; None when no step was seen or the time is not known).
        ``room_turns``, ``pan_turns``: only these quarter turns explain anything (None:
        any). ``walk``: the floor under the player's spot in the last reading's labels and
        in this one's, and the most tiles walked between: a step is entering a plate, so
        the steps of a turn of the labels are the plates of a walk that long from the
        one point (turned) to the other (:func:`assistant.session.moves.walkable_deltas`).
        ``stood_still``: the player stood still through this transition
        (:meth:`_still_turns`); then no snap explains a board whose player is on a cell
        off the grid's middle (:meth:`_on_a_cell_off_the_middle`).
        """
        explanations = self._explanations(transition)
        if explanations is None:
            return {}, {}, {}  # too many unseen steps: anything is possible, the frame decides
        landmark, now, anchors = transition.landmark, transition.now, transition.anchors
        kept: dict[Board, frozenset] = {}
        sides: dict[Board, frozenset] = {}
        windows: dict[Board, float | None] = {}
        if not explanations:
            return kept, sides, windows
        # every explanation's turned belief at once: one array operation per completion
        turned_all = np.stack([turned for turned, *_rest in explanations])
        for candidate in transition.completions:
            flat = candidate.states[candidate.present].astype(np.int64)
            deltas = (flat - turned_all) % candidate.k
            stepped_all = deltas.any(axis=1).tolist()
            last: set = set()
            seen: set = set()
            starts: list[float | None] = []
            for (_turned, before, turn, allowed, n, carried), delta, stepped in zip(
                    explanations, deltas, stepped_all, strict=True):
                if stepped and self._too_soon(before, now):
                    continue
                if delta.tobytes() in allowed:
                    after = self._last_steps_after(candidate, delta, before, turn, n,
                                                   out_of_reach, anchors)
                    if after:
                        last |= after
                        seen |= carried
                        starts.append(self._now if stepped
                                      else self._step_window.get(before))
            if last:
                kept[candidate] = frozenset(last)
                sides[candidate] = frozenset({landmark}) if landmark is not None \
                    else frozenset(seen)
                # the most the next step may be allowed: unknown beats any time, an
                # earlier window a later one
                windows[candidate] = None if None in starts else min(starts)
        return kept, sides, windows

    def _explanations(self, transition: _Transition) -> list[tuple] | None:
        """The belief turned as each explanation of :meth:`_reachable` turns it (once, not
        per completion), with the changes its steps allow and the landmark's sides
        carried with it; None when too many steps were unseen to list their changes."""
        completions, smooth_turn = transition.completions, transition.smooth_turn
        steps, snap_steps, snaps = transition.steps, transition.snap_steps, transition.snaps
        room_turns, pan_turns = transition.room_turns, transition.pan_turns
        deltas = step_deltas(completions[0], steps)
        if deltas is None:
            return None
        snap_deltas = step_deltas(completions[0], snap_steps)
        turns = [(smooth_turn, deltas, steps)]
        if completions[0].rows == completions[0].cols:
            # (who hides which plate is no constraint here: a standing body hides the plate
            # behind it, and which plate that is changes with the view)
            turns += [(t, snap_deltas, snap_steps) for t in range(4)
                      if t != smooth_turn and (snaps is None or t in snaps)]
        explanations = []
        shape, present = completions[0].shape, completions[0].present.tobytes()
        for turn, allowed, n in turns:
            if allowed is None or (room_turns is not None and turn not in room_turns) \
                    or (pan_turns is not None and turn not in pan_turns):
                continue
            if transition.walk is not None:
                (start, end), budget = transition.walk
                allowed = allowed & walkable_deltas(
                    completions[0], turn_point(start, completions[0].rows, turn), end, budget)
            for before in self._belief:
                if transition.stood_still and turn != smooth_turn \
                        and self._on_a_cell_off_the_middle(before, transition.now):
                    continue  # a snap about that player would have moved the view
                carried = frozenset(None if side is None else turn_side(side, turn)
                                    for side in self._sides.get(before, {None}))
                if transition.landmark is not None and None not in carried \
                        and transition.landmark not in carried:
                    continue  # this turn takes the landmark elsewhere than it is seen
                turned = turn_board(before, turn)
                if turned.shape != shape or turned.present.tobytes() != present:
                    continue  # (a grid that is not square, turned a quarter)
                explanations.append((turned.states[turned.present].astype(np.int64), before,
                                     turn, allowed, n, carried))
        return explanations

    def _on_a_cell_off_the_middle(self, before: Board, now: float | None) -> bool:
        """Whether the player of ``before`` stands on the cell its last step was onto, and
        that cell is not the grid's middle: the step was seen less than a game tick ago
        (counted from the reading before its transition), and the body on screen reaches
        a plate no sooner than the plate toggles, so it cannot have walked on since to
        rest anywhere else (the next tile is a tick's run further).

        Why: a snap turns the camera about the player, and a view that stayed put through
        a quarter turn has the player on the one point every quarter turn fixes, the grid's
        middle. Before the spot where the camera keeps the player is learnt, a still view
        along the room's axes otherwise lets a snap turn the labels (half a turn: the
        plates hidden at the top and bottom of the screen swapped), and the frames after
        a step stay undecided."""
        window = self._step_window.get(before)
        if window is None or now is None or now - window >= GAME_TICK_SECONDS:
            return False
        middle = ((before.rows - 1) / 2, (before.cols - 1) / 2)
        return all(isinstance(cell, tuple) and cell != middle for cell in self._belief[before])

    def _too_soon(self, before: Board, now: float | None) -> bool:
        """Whether a step from ``before`` now would follow its last step by less than
        :data:`STEP_SPACING_SECONDS` (counted from the reading before that step's
        transition, the earliest it can have been)."""
        window = self._step_window.get(before)
        return window is not None and now is not None and now - window < STEP_SPACING_SECONDS

    def _last_steps_after(self, candidate: Board, delta: np.ndarray, before: Board,
                          turn: int, steps: int, out_of_reach: frozenset = frozenset(),
                          anchors: tuple[tuple[float, float], tuple[float, float]] | None
                          = None) -> set:
        """The cells the last step may have been onto, for ``candidate`` reached from
        ``before`` (turned ``turn`` quarters) by ``delta`` within ``steps`` steps; empty
        when no step the player can have taken explains it (one step of a transition a
        moment long onto a cell out of view, :meth:`_reachable`)."""
        if not delta.any():  # no step: the last one is the board before's, relabelled
            return {cell if cell in (None, LEFT) else turn_cell(cell, before.shape, turn)
                    for cell in self._belief[before]}
        if steps == 1:
            cells = set(stepped_cells(candidate, delta)) - out_of_reach
            return cells - left_behind(cells, anchors, candidate, turn)
        return {None}


    def _inference(self, reading: Reading) -> Inference:
        belief = self.belief
        hidden = reading.hidden
        if len(belief) == 1:
            return Inference(belief[0], belief, inferred=hidden)
        undecided = tuple(
            cell for cell in hidden if len({int(b.states[cell]) for b in belief}) > 1
        )
        inferred = tuple(cell for cell in hidden if cell not in undecided)
        return Inference(None, belief, inferred=inferred, undecided=undecided)

