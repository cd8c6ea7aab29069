"""The live loop (no Qt, pictures as frames) through rendered walk-throughs: the player
stands on each plate of the answer, the camera follows, turns, zooms and pitches, and
team-mates stand around. After the stabiliser's one-frame hold every frame shows exactly
the right marks, or (a hidden plate undecided) only marks every possibility agrees on."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from conftest import shared_file
from walks import walk_through

from assistant.sequence import PictureSequence
from assistant.vision.trace import TraceStep
from lab.commands.bench_walk import (
    between_raids,
    describe_missed,
    display_scale_of,
    judge_state,
    missed_frame,
    plate_at,
    run_sessions,
    shortfall_reason,
)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_walk_through_never_shows_a_wrong_mark(seed):
    result = run_sessions(1, seed, "synthetic")
    walked = result["strides"]["1"]
    assert walked["wrong"] == [] and result["wrong_pictures"] == []
    sequences = walked["sequences"]
    # how often the loop shows a full answer is measured by bench-walk; here: it does,
    # on this session
    right = sequences["on"]["right"] + sequences["off"]["right"]
    assert right > 0
    # every judged frame not fully right is told by kind, once
    judged = sum(sequences[w][k] for w in ("on", "off") for k in sequences[w]
                 if k != "settling") - walked["never_seen"]
    assert sum(walked["shortfall"].values()) == judged - right
    # ... and kept frame by frame with its truth, the same frames
    missed = walked["missed"]
    assert len(missed) == judged - right
    tally: dict[str, int] = {}
    for frame in missed:
        tally[frame["why"]] = tally.get(frame["why"], 0) + 1
    assert tally == walked["shortfall"]


def test_the_bench_keeps_each_missed_frame_with_the_moment_it_was():
    """bench-walk --frames: a frame not fully right says its session and frame, whether
    the player had stepped yet, and which plates bodies hid or were out of view."""
    arriving = SimpleNamespace(event="walking", step=-1, player_plate=None, hidden=(5, 6),
                               out_of_view=())
    missed = missed_frame(10, 3, arriving, "uncertain: 2 hidden plates undecided")
    assert missed == {"session": 10, "frame": 3, "event": "walking",
                      "before_first_step": True, "player_plate": None, "hidden": [5, 6],
                      "out_of_view": [], "why": "uncertain: 2 hidden plates undecided",
                      "trace": []}
    assert describe_missed(missed) == (
        "session 10, frame 3 (walking, before the first step, player off the plates, "
        "hidden [5, 6]): uncertain: 2 hidden plates undecided")
    standing = SimpleNamespace(event="idle", step=0, player_plate=4, hidden=(4,),
                               out_of_view=(0, 1, 2))
    assert describe_missed(missed_frame(2, 7, standing, "blank: Puzzle not in view")) == (
        "session 2, frame 7 (idle, after a step, player on plate 4, hidden [4], "
        "out of view [0, 1, 2]): blank: Puzzle not in view")
    # with the reading's trace, each step on a line of its own under the frame
    traced = missed_frame(2, 7, standing, "blank: Puzzle not in view",
                          (TraceStep("search", "a fresh search: read"),
                           TraceStep("search", "answered by a fresh search")))
    assert describe_missed(traced).splitlines()[1:] == [
        "        search: a fresh search: read", "        search: answered by a fresh search"]


def test_the_bench_keeps_each_wrong_single_picture_with_its_moment(monkeypatch):
    """A single picture read wrong was only counted: a run could have one in each
    room source, and finding it took a scan of every frame. Each is now kept with its
    session and frame, like a sequence's missed frame, and printed whatever the options."""
    import lab.commands.bench_walk as bench

    calls = []

    def judged(frame):
        calls.append(frame)
        return "wrong" if len(calls) == 4 else "right"

    monkeypatch.setattr(bench, "judge_picture", judged)
    result = run_sessions(1, 1, "synthetic")
    assert [(p["session"], p["frame"], p["why"]) for p in result["wrong_pictures"]] == [
        (0, 3, "wrong single picture")]


def test_the_bench_tells_a_shortfall_by_kind_without_the_plates_places():
    """Frames that missed the target count together by what the loop said, so a bench run
    says which kind of frame to work on without replaying sessions."""
    def state(status, undecided=()):
        return SimpleNamespace(status=status, undecided=undecided)

    covered = [shortfall_reason("blank", state(f"Plate at row {r}, column 3 is covered."))
               for r in (1, 2)]
    assert covered == ["blank: Plate at … is covered"] * 2
    assert shortfall_reason("blank", state(
        "Too much of the puzzle is covered (plates at row 1, column 1, row 2, column 1); "
        "at most 3 may be hidden.")) == "blank: Too much of the puzzle is covered"
    assert shortfall_reason("blank", state("Looking for the puzzle…")) == \
        "blank: Looking for the puzzle"
    assert shortfall_reason("uncertain", state(
        "Plate at row 1, column 2 is hidden (someone stands on it); marked plates are "
        "certain.", ((0, 1),))) == "uncertain: 1 hidden plate undecided"
    assert shortfall_reason("uncertain", state("…", ((0, 1), (2, 1)))) == \
        "uncertain: 2 hidden plates undecided"


def test_the_bench_takes_turns_at_display_scaling():
    """bench-walk's sessions take turns at 100%, 125% and 150% display scaling (a client
    stretched by Windows): the second session is stretched, and shows no wrong mark."""
    walked = run_sessions(2, 1, "synthetic", judge_pictures=False, frames_per_stand=1,
                          walking_frames=1)["strides"]["1"]
    assert walked["wrong"] == []
    judged = {scale: n for scale, (_right, n) in walked["by_display_scale"].items()}
    assert judged["1.0"] > 0 and judged["1.25"] > 0 and judged["1.5"] == 0


def test_consecutive_sessions_run_through_one_loop_per_display_scaling(monkeypatch):
    """bench-walk --consecutive: the sessions of one display scaling are one run of the
    app, raid after raid (the first and the fourth at 100%): the second starts with what the
    first learnt, the spot where the camera keeps the player, and shows no wrong mark."""
    import lab.commands.bench_walk as bench

    loops = []
    real = bench.between_raids

    def spy(sequence, shape, seed):
        loops.append((sequence.loop.session.spot.trusted, sequence.frames))
        real(sequence, shape, seed)

    monkeypatch.setattr(bench, "between_raids", spy)
    result = run_sessions(4, 6, "synthetic", consecutive=True, judge_pictures=False,
                          pitch_range=(55.0, 68.0), frames_per_stand=2, walking_frames=1)
    assert result["strides"]["1"]["wrong"] == []
    assert len(loops) == 1  # the last session joins the first's loop; the middle two start theirs
    trusted, frames_before = loops[0]
    assert trusted and frames_before > 0


def test_raw_grabs_run_the_same_sessions_without_jpeg(monkeypatch, capsys):
    """bench-walk --raw-grabs: every session is walked with jpeg=False (the pixels the live
    loop grabs), and the JSON says so. --no-pictures: the loop is walked, and no frame is
    also read as a single picture."""
    import json

    import lab.commands.bench_walk as bench
    from assistant.cli import main

    asked = []
    real = bench.walk_through

    def spy(*args, **kwargs):
        asked.append(kwargs.get("jpeg", True))
        return real(*args, **kwargs)

    monkeypatch.setattr(bench, "walk_through", spy)
    assert main(["bench-walk", "--sessions", "1", "--source", "synthetic", "--raw-grabs",
                 "--no-pictures", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["raw_grabs"] is True and asked == [False]
    synthetic = out["results"]["synthetic"]
    assert synthetic["strides"]["1"]["wrong"] == []
    assert synthetic["strides"]["1"]["fully_right"]["judged"] > 0
    assert out["pictures_judged"] is False
    assert not any(n for where in ("on", "off") for n in synthetic["pictures"][where].values())


def test_a_view_that_placed_a_corner_from_the_other_plates_is_not_moved_rigidly():
    """At 63° under 150% display scaling, a search after a turn
    placed the ring with a corner plate and both its neighbours unread: their places
    came from the other five, the corner 6 pixels off. Two frames on, that view shifted
    with the walk onto four diamonds on the far side was taken as the ring itself, with
    four plates hidden: the corner's undecided mark lay 11 pixels off (0.4 of the
    foreshortened spacing), judged wrong. Such a view now counts as a fitted one."""
    walk = walk_through(None, 5, source="synthetic", display_scale=1.5)
    sequence = PictureSequence(interval=0.1)
    for frame in walk[:13]:
        sequence.feed(frame.scene.frame)
        assert judge_state(sequence.loop.last_observed, frame) != "wrong", frame.event


def test_a_walk_through_on_the_real_screenshots_floor_never_shows_a_wrong_mark():
    shared_file("toa", "room_topdown.png")
    result = run_sessions(1, 3, "screenshot")
    assert result["strides"]["1"]["wrong"] == [] and result["wrong_pictures"] == []


def test_holds_last_one_frame_and_marks_follow_the_camera():
    """A session with every camera event: the shown state differs from the observation in
    no two frames running, and a frame whose observation is shown is judged right or
    uncertain, never wrong."""
    walk = walk_through(None, 21, source="synthetic", pitch_range=(0, 50), teammates=(0, 2))
    assert {"turn", "zoom", "pitch"} & {frame.event for frame in walk}
    sequence = PictureSequence(interval=0.1)
    held_before = False
    for frame in walk:
        state = sequence.feed(frame.scene.frame)
        held = sequence.held
        assert not (held and held_before)
        if not held:
            assert judge_state(state, frame) != "wrong"
        held_before = held


def test_a_player_standing_still_through_a_turn_has_stepped_on_nothing():
    """At pitch 68° with four people, two plates hidden by team-mates since the first
    frame come into view when the camera turns, while the player stands on the plate just
    stepped on and two others are hidden. A step onto a hidden plate would explain the
    change as well, but the floor under the player's spot (learnt when the camera turned
    about the player) has not moved: no step, so the board is decided, and right."""
    walk = walk_through(None, 25, source="synthetic")
    assert [f.event for f in walk[5:10]] == ["stepped", "turn", "idle", "walking", "walking"]
    sequence = PictureSequence(interval=0.1)
    states = [sequence.feed(frame.scene.frame) for frame in walk[:10]]
    for index in (7, 8, 9):  # after the stabiliser's frame
        assert judge_state(states[index], walk[index]) == "right", index
    assert sequence.loop.session.spot.trusted


def test_a_compass_snap_at_the_start_is_told_by_the_room_around_the_ring():
    """The real screenshot's floor at 58°: the first frame reads
    every plate, then the camera snaps a quarter turn while two plates are hidden. A smooth
    turn with a step onto one of them explained the new reading too, and the overlay stayed
    undecided for seven frames. The floor around the ring, compared with the frame before
    under each relabelling, tells the snap's turn: every frame after the stabiliser's is
    right."""
    shared_file("toa", "room_topdown.png")
    walk = walk_through(None, 2 * 100_003 + 12, source="screenshot", pitch_range=(55.0, 68.0))
    assert [f.event for f in walk[:2]] == ["start", "turn"]
    sequence = PictureSequence(interval=0.1)
    states = [sequence.feed(frame.scene.frame) for frame in walk[:5]]
    assert sequence.loop.last_observed.reading.hidden
    for index in range(1, 5):
        assert judge_state(states[index], walk[index]) == "right", index


def test_a_view_that_stayed_put_tells_a_player_stood_still_before_the_spot_is_learnt(
        monkeypatch):
    """The frame after a session's first step: where the camera keeps the player is
    not learnt yet, but the whole view stayed put, so the floor under the player did too:
    the history is told the player stood still (the same grid point before and after), and
    the board the step showed stays certain, and right. (That a still player rules out a
    step onto hidden plates is tested exhaustively in test_inference; a walk-through frame
    whose step hides the stepped plate's whole trio before the spot is learnt is rare.)"""
    from assistant.session.history import BoardHistory

    anchors_seen = []
    update = BoardHistory.update

    def spy(self, reading, seconds=None, landmark=None, anchors=None, player=None,
            room_turns=None, pan_turns=None):
        anchors_seen.append(anchors)
        return update(self, reading, seconds, landmark, anchors, player, room_turns,
                      pan_turns)

    monkeypatch.setattr(BoardHistory, "update", spy)
    walk = walk_through(None, 0, source="synthetic")
    assert [f.event for f in walk[4:7]] == ["walking", "stepped", "idle"]
    sequence = PictureSequence(interval=0.1)
    states = [sequence.feed(frame.scene.frame) for frame in walk[:7]]
    assert sequence.loop.last_observed.reading.hidden  # the player hides plates
    assert not sequence.loop.session.spot.trusted
    before, now = anchors_seen[-1]
    assert before == now  # still: the same grid point under the (unlearnt) spot
    assert judge_state(states[6], walk[6]) == "right"


def test_the_spot_is_trusted_only_where_the_camera_draws_the_player():
    """A walk-through on the screenshot's floor (pitch 40-50°): after
    the first step three plates stay hidden in a still view, and the view is searched
    again when the read changes. That second search is no second view: the spot is not
    trusted until a view after the next step, and once trusted it is where the camera
    draws the player (a team-mate's plate nearer the window's middle was trusted, and
    the frames after the second step stayed undecided)."""
    shared_file("toa", "room_topdown.png")
    walk = walk_through(None, 100_003 + 6, source="screenshot")
    sequence = PictureSequence(interval=0.1)
    for index, frame in enumerate(walk[:23]):
        state = sequence.feed(frame.scene.frame)
        loop = sequence.loop
        if loop.session.spot.trusted:
            x, y = loop.session.spot.learnt
            cx, cy = frame.camera.screen_centre
            assert abs(x - cx) < 8 and abs(y - cy) < 8, (index, loop.session.spot.learnt)
        if index >= 16 and not sequence.held:  # (the stabiliser holds a step's frame)
            assert judge_state(state, frame) == "right", index


def test_the_plate_under_the_player_is_never_read():
    """A walk-through on the screenshot's floor: the player,
    in olive-gold trousers, steps onto a lit plate and stands centred on it; the trousers
    over the diamond read as an unlit plate, the history took that board through the turn
    after it, and the marks were wrong for two frames. Once the spot where the camera
    keeps the player is known, the plate under it is hidden, not read, and the step onto
    it tells its state."""
    shared_file("toa", "room_topdown.png")
    walk = walk_through(None, 2 * 100_003 + 16, source="screenshot")
    assert [frame.event for frame in walk[20:23]] == ["stepped", "turn", "idle"]
    sequence = PictureSequence(interval=0.1)
    for index, frame in enumerate(walk[:23]):
        state = sequence.feed(frame.scene.frame)
        assert judge_state(state, frame) != "wrong" or sequence.held, index
    loop = sequence.loop
    assert loop.session.spot.trusted
    assert len(loop.last_observed.reading.hidden) == 1  # the player's plate
    assert judge_state(state, walk[22]) == "right"


def test_once_the_spot_is_trusted_the_first_step_is_told_again():
    """Drawn room, pitch 56°, three people: the first step is onto
    a plate whose two neighbours are hidden too, before the spot where the camera keeps
    the player is known; the step cannot be told from standing still, and a plate stays
    undecided through the next steps. Once the spot is trusted the history is told the
    session again with the player's place in every frame: off the plates at the way in,
    then still on that plate, so the step was made, and every frame after is right."""
    walk = walk_through(None, 4 * 100_003 + 31, source="synthetic")
    assert walk[5].event == "stepped" and walk[5].player_plate == 2
    sequence = PictureSequence(interval=0.1)
    trusted_at = None
    for index, frame in enumerate(walk):
        state = sequence.feed(frame.scene.frame)
        if trusted_at is None and sequence.loop.session.spot.trusted:
            trusted_at = index
        if trusted_at is not None and not sequence.held:
            assert judge_state(state, frame) == "right", index
    assert trusted_at is not None and trusted_at <= len(walk) - 2  # frames judged after it


def test_a_pitch_about_the_player_trusts_the_spot():
    """On the screenshot's floor the player stands on the first plate
    stepped on and pitches the camera from 51° to 68°; the plate under the player moves by
    three pixels as the reader places it at the new pitch, the rest of the ring by tens.
    That is the spot, trusted there, and the session's first step (onto a plate hidden
    with one of its neighbours) is told from the frame after the pitch on."""
    shared_file("toa", "room_topdown.png")
    walk = walk_through(None, 4 * 100_003 + 13, source="screenshot")
    assert [frame.event for frame in walk[5:8]] == ["stepped", "idle", "pitch"]
    sequence = PictureSequence(interval=0.1)
    for index, frame in enumerate(walk):
        state = sequence.feed(frame.scene.frame)
        if index == 7:
            assert sequence.loop.session.spot.trusted
        if index >= 7 and not sequence.held:
            assert judge_state(state, frame) == "right", index


def _spot_and_marks_right(walk, right_from: int, trusted_from: int | None = None,
                          each=None) -> None:
    """Feed a session to a new loop: wherever the spot where the camera keeps the player
    is trusted (from frame ``trusted_from`` on it must be) it lies within 10 px of where
    the camera draws the player, and from frame ``right_from`` on every frame not held
    back is right. ``each(index, loop)`` checks more after each frame."""
    sequence = PictureSequence(interval=0.1)
    for index, frame in enumerate(walk):
        state = sequence.feed(frame.scene.frame)
        loop = sequence.loop
        if each is not None:
            each(index, loop)
        if trusted_from is not None and index >= trusted_from:
            assert loop.session.spot.trusted, index
        if loop.session.spot.trusted:
            x, y = loop.session.spot.learnt
            cx, cy = frame.camera.screen_centre
            assert abs(x - cx) < 10 and abs(y - cy) < 10, (index, (x, y))
        if index >= right_from and not sequence.held:
            assert judge_state(state, frame) == "right", index


def test_a_hidden_corner_s_guessed_place_does_not_move_the_view():
    """The screenshot's floor at a steep camera (64°, client panels,
    150% display scaling): after the first step three plates are hidden, the player's,
    the corner behind the player and a team-mate's. In the still frame after the step
    the fit on the five plates left put the hidden corner 6 px from where the frame
    before had guessed it, which counted as the camera turning about the player; the
    team-mate's plate, which had stayed put, was trusted as the player's spot at once
    and every frame after stayed undecided. Measured on the corners read in both
    frames the view stood still, and the spot is learnt where the camera draws the
    player."""
    shared_file("toa", "room_topdown.png")
    walk = walk_through(None, 2 * 100_003 + 2, source="screenshot", display_scale=1.5,
                        pitch_range=(55.0, 68.0))
    assert [frame.event for frame in walk[5:8]] == ["stepped", "idle", "idle"]

    def still_after_the_step(index, loop):
        if index == 6:
            shift = loop.session.views.shift
            assert shift is not None and shift < 4, shift

    _spot_and_marks_right(walk, right_from=6, each=still_after_the_step)


def test_a_snap_about_a_player_on_a_corner_plate_is_not_taken_for_a_step() -> None:
    """At a steep camera the player stands on a corner plate when the camera snaps
    a quarter turn about them, and the player's plate and the one beside it are hidden.
    "No snap, one step onto the plate beside" explained the frame as well, with the floor
    under the player's (learnt) spot panning two spacings in a tenth of a second, and the
    frames after the snap stayed undecided. The pan rules that out: they are right."""
    walk = walk_through(None, 10 * 100_003 + 6, source="synthetic",
                        pitch_range=(55.0, 68.0))
    assert [f.event for f in walk[7:10]] == ["turn", "walking", "walking"]
    sequence = PictureSequence(interval=0.1)
    states = [sequence.feed(frame.scene.frame) for frame in walk[:10]]
    assert sequence.loop.session.spot.trusted
    assert [judge_state(states[i], walk[i]) for i in (8, 9)] == ["right", "right"]


def test_a_plate_hidden_behind_the_player_is_not_taken_for_the_spot():
    """Drawn room, 64°, 125% display scaling: standing on a
    corner plate, the player hides the two plates behind them up the screen as well, and
    they stay put while the player stands. After a snap about the player those plates
    were sampled as the spot in one more view than the player's own (whose hidden place
    the fit had moved by 4 px), the spot moved a plate up the screen, and the history
    restarted at the next step: four frames undecided. The lowest plate of such a column
    is the player's."""
    walk = walk_through(None, 11 * 100_003 + 22, source="synthetic", display_scale=1.25,
                        pitch_range=(55.0, 68.0))
    assert [frame.event for frame in walk[10:13]] == ["stepped", "idle", "turn"]
    _spot_and_marks_right(walk, right_from=10)


def test_a_pitch_that_keeps_two_hidden_plates_put_trusts_neither():
    """The screenshot's floor, 66° then 55°: after the
    first step the player's plate and a team-mate's beside it, on the same screen row, are
    hidden, and the camera pitches about the player, which keeps that whole row put. Both
    plates were sampled again in the pitched view and the team-mate's, nearer the
    window's middle, was trusted as the spot; the next step was then out of its reach and
    two plates stayed undecided for the rest of the session. A pitch singles out neither:
    the spot is trusted only where the camera draws the player, and every frame from the
    one after the first step on is right or held back."""
    shared_file("toa", "room_topdown.png")
    walk = walk_through(None, 29 * 100_003 + 3, source="screenshot",
                        pitch_range=(55.0, 68.0))
    assert [frame.event for frame in walk[5:8]] == ["stepped", "idle", "pitch"]
    _spot_and_marks_right(walk, right_from=6)


def test_the_first_step_is_onto_the_plate_the_player_covers_not_one_read():
    """Drawn room, 66°, 125% display scaling: before
    the first step three plates are hidden; the player steps onto an edge plate and
    covers it and the plate behind it. A step onto the corner beside it, read in the
    frame, explained the change as well (with a plate unseen before the step), and four
    frames stayed undecided until the spot was learnt. The player entered the plate
    stepped on a moment ago and covers it: every frame from the step's on is right or
    held back."""
    walk = walk_through(None, 30 * 100_003 + 34, source="synthetic",
                        display_scale=display_scale_of(34), pitch_range=(55.0, 68.0))
    assert [frame.event for frame in walk[4:7]] == ["walking", "stepped", "idle"]
    _spot_and_marks_right(walk, right_from=5)


def test_a_whole_diamond_the_moved_ring_just_missed_keeps_the_refit():
    """Drawn room, 59°, the bottom row by the chat panel: the
    follow's refit took in a whole diamond the tight moved ring had just missed (0.04 of
    the spacing past its tolerance) and read four plates. Taking the moved ring there,
    as for a half-covered diamond's blob, made the frames after the
    next step blank. A blob as solid as a whole diamond keeps the refit: those frames
    show the right marks."""
    walk = walk_through(None, 10 * 100_003 + 18, source="synthetic",
                        display_scale=display_scale_of(18), pitch_range=(55.0, 68.0))
    sequence = PictureSequence(interval=0.1)
    states = [sequence.feed(frame.scene.frame) for frame in walk[:13]]
    assert walk[10].event == "stepped"
    for index in (10, 11, 12):
        assert judge_state(states[index], walk[index]) == "right", index


def test_a_shift_a_row_off_through_gold_beyond_the_ring_is_not_followed():
    """The screenshot's floor, 55°, 125% display
    scaling: after the step onto plate 7 a team-mate hides plate 1 and the player's face
    and belt lie on the middle tile. The true shift matched six diamonds with that gold in
    its middle; one a row off, through the statue's gold beyond the ring, matched six too,
    and since a placement with gold in its middle was no rival, the row-off one was
    followed: four off-floor places hidden, the four plates read under other labels, and
    two frames marked wrongly. Gold with no plate's frame in the middle keeps the true
    shift a rival: the follow is unsure, the fresh search reads six plates, and every
    frame after the step's shows the right marks (but the next step's, held back by the
    stabiliser)."""
    shared_file("toa", "room_topdown.png")
    walk = walk_through(None, 59 * 100_003 + 29, source="screenshot",
                        display_scale=display_scale_of(29), pitch_range=(55.0, 68.0))
    sequence = PictureSequence(interval=0.1)
    states = [sequence.feed(frame.scene.frame) for frame in walk[:28]]
    assert walk[20].event == walk[25].event == "stepped" and walk[20].player_plate == 7
    for index in (21, 22, 23, 24, 26, 27):
        assert judge_state(states[index], walk[index]) == "right", index


def test_a_shift_whose_rival_one_proposer_found_framed_is_no_rival():
    """Drawn room, 67°, 150% display scaling, zoomed out:
    after the step onto plate 7 the player's body covers the whole column of plates on
    the left of the screen, and five diamonds show. The ring a column off, through the
    way-in arrow on the border, matched five too, with the true ring's middle-row diamond
    in its middle: a plate's diamond, so no ring and no rival. But of the diamonds that
    proposed it only one found that diamond's frame, and the best was chosen before the
    one spoke for the others: a proposer that missed the frame was taken as the best,
    the true ring counted as its rival, and the follow was unsure. Three frames went
    blank ("Puzzle not in view") until the player walked on."""
    walk = walk_through(None, 301 * 100_003 + 71, source="synthetic",
                        display_scale=display_scale_of(71), pitch_range=(55.0, 68.0))
    sequence = PictureSequence(interval=0.1)
    states = [sequence.feed(frame.scene.frame) for frame in walk[:18]]
    assert walk[15].event == "stepped" and walk[15].player_plate == 7
    for index in (16, 17):
        assert judge_state(states[index], walk[index]) == "right", index


def test_a_frame_found_by_one_proposer_alone_does_not_turn_down_the_best_shift():
    """Drawn room, a pitch from 61° to 68° after the step onto
    plate 0: the shift from the last view only approximates the pitched ring, and one of
    the diamonds proposing it found a plate's frame in its middle (a neighbour's, seen
    through the pitch). Taken as the best on the diamonds it matched, it was the ring,
    and the pitched frames read right; when that one proposer turned it down, they went
    blank. It still speaks for the placement among the rivals, and decides between
    placements matching as many diamonds."""
    walk = walk_through(None, 301 * 100_003 + 82, source="synthetic",
                        display_scale=display_scale_of(82), pitch_range=(55.0, 68.0))
    sequence = PictureSequence(interval=0.1)
    states = [sequence.feed(frame.scene.frame) for frame in walk[:20]]
    assert walk[16].event == "pitch" and walk[15].player_plate == 0
    for index in (17, 18, 19):
        assert judge_state(states[index], walk[index]) == "right", index


def test_a_ring_bent_by_one_blob_is_read_at_the_others_ring():
    """A session's first frame (drawn room, 59°, 85 px spacing, three
    team-mates): a team-mate's gold trousers near a covered plate were matched as its
    diamond, and the ring fitted through all eight blobs (0.020 of the spacing) put the
    places a few pixels off; five plates read as covered and the session's first frame
    went blank, while the next frame of the same view read right. The seven other
    diamonds fit the ring exactly; read there, that plate is hidden and every other
    plate read is right."""
    from assistant.vision import read_frame
    from assistant.vision.reader import MAX_HIDDEN_IN_SESSION

    walk = walk_through(None, 301 * 100_003 + 131, source="synthetic",
                        display_scale=display_scale_of(131), pitch_range=(55.0, 68.0))
    first = walk[0].scene
    reading = read_frame(first.frame, max_hidden=MAX_HIDDEN_IN_SESSION, fewer_diamonds=5)
    assert not reading.abstain and 1 <= len(reading.hidden) <= 2
    for tile in reading.tiles:
        assert tile.hidden or tile.lit == bool(first.lit[plate_at(first, tile.centre)])


def test_the_spot_learnt_in_one_raid_tells_the_next_raids_first_step():
    """One run of the app through two raids (drawn
    rooms, 150% display scaling): the second raid's first step is onto an edge plate,
    and the player covers it and the corner plate beside it. A new loop cannot tell the
    step from standing still (the spot is not learnt yet); the loop that learnt the spot
    in the first raid tells it once the player stands on the plate, and every frame of
    the second raid after the first is right or held back one frame."""
    first, second = (walk_through(None, 14 * 100_003 + number, source="synthetic",
                                  display_scale=1.5, pitch_range=(55.0, 68.0))
                     for number in (32, 35))
    assert [frame.event for frame in second[5:8]] == ["stepped", "idle", "pitch"]
    fresh = PictureSequence(interval=0.1)
    alone = [judge_state(fresh.feed(frame.scene.frame), frame) for frame in second[:8]]
    assert alone[6:8] == ["uncertain", "uncertain"]
    sequence = PictureSequence(interval=0.1)
    for frame in first:
        sequence.feed(frame.scene.frame)
    assert sequence.loop.session.spot.trusted
    between_raids(sequence, second[0].scene.frame.shape, seed=5)
    for index, frame in enumerate(second):
        state = sequence.feed(frame.scene.frame)
        if index >= 3 and not sequence.held:
            assert judge_state(state, frame) == "right", index


def test_a_ring_one_row_off_is_not_confirmed_by_the_last_view():
    """Drawn room, 49°, 125% display scaling:
    before the first step a fresh search fitted a ring one row off through six gold
    blobs (four plates, the way-in arrow on the border tiles, a figure's gold), too
    covered to read; the last view moved by a whole plate agreed with it, so it was read
    with four plates hidden, its far row on the border, and the overlay marked places
    off the plates. Its middle sits in a covered plate's purple frame, which the ring's
    never does: it is not confirmed, and no frame of the session is wrong."""
    walk = walk_through(None, 35 * 100_003 + 19, source="synthetic",
                        display_scale=display_scale_of(19))
    sequence = PictureSequence(interval=0.1)
    for frame in walk:
        state = sequence.feed(frame.scene.frame)
        assert judge_state(state, frame) != "wrong"


def test_a_team_mate_in_front_of_the_player_does_not_take_the_spot():
    """On the screenshot's floor a team-mate stands on the plate just in
    front of the player's, on screen, so the player's plate sits above another still
    hidden plate of that view, as a plate behind a body does. Such a view counts half for
    the player's spot rather than nothing: the spot keeps its trust through the next
    step (onto a plate whose neighbour is hidden too), and those frames are right."""
    shared_file("toa", "room_topdown.png")
    walk = walk_through(None, 9 * 100_003 + 9, source="screenshot")
    assert [frame.event for frame in walk[15:18]] == ["stepped", "idle", "idle"]
    _spot_and_marks_right(walk, right_from=11, trusted_from=11)


def test_the_next_raids_room_is_searched_afresh_not_followed_from_the_last():
    """One run of the app through two raids (drawn
    rooms, 100%): minutes after the first raid's puzzle, the next room was followed from
    where the last ring had been, and a follow fitted a ring on the wrong plates (its four
    corners "hidden"); the first frames' marks were wrong. The last view is forgotten
    after FORGET_VIEW_SECONDS without a reading: no frame of the second raid is wrong."""
    first, second = (walk_through(None, 14 * 100_003 + number, source="synthetic",
                                  pitch_range=(55.0, 68.0)) for number in (9, 12))
    sequence = PictureSequence(interval=0.1)
    for frame in first:
        sequence.feed(frame.scene.frame)
    between_raids(sequence, second[0].scene.frame.shape, seed=12)
    for index, frame in enumerate(second):
        state = sequence.feed(frame.scene.frame)
        assert judge_state(state, frame) != "wrong", index


def test_a_pitch_after_a_step_onto_a_column_hidden_by_the_body_shows_no_wrong_mark():
    """A walk-through (drawn and screenshot rooms
    alike): the player steps onto the bottom-right plate with the camera at 68° looking
    up its column, so his body hides all three plates of the column on screen, and a
    team-mate stands on the bottom-left plate. The camera pitches to 55° about the
    player: the team-mate's plate, at the player's height on screen, stays put as his
    does, and was trusted as the spot on that one sample (a view that moved about it);
    the session told again from it showed a wrong answer for one frame. A pitch keeps
    the row through the player put, so such a sample no longer trusts the spot alone."""
    walk = walk_through(None, 20 * 100_003 + 30, source="synthetic",
                        pitch_range=(55.0, 68.0))
    sequence = PictureSequence(interval=0.1)
    for frame in walk[:7]:
        state = sequence.feed(frame.scene.frame)
    assert walk[6].event == "pitch"
    assert judge_state(state, walk[6]) != "wrong"


@pytest.mark.parametrize(("number", "options"), [
    (31 * 100_003 + 23, {"display_scale": 1.5}),
    (6 * 100_003 + 5, {"display_scale": 1.5, "pitch_range": (55.0, 68.0)}),
])
def test_a_step_onto_a_corner_is_told_by_a_neighbour_read_from_what_shows(number, options):
    """In the drawn room, at shallow and steep cameras alike, the first step is
    onto a corner plate, and the player standing on it covers part of both its
    neighbours. The ring followed from the last view sets all three aside (a diamond not
    whole where the moved ring puts it), which left the step undecided until the player
    walked on; a fresh search of the same ring reads a neighbour from the part of its
    diamond that shows, and the frames after the step are right."""
    walk = walk_through(None, number, source="synthetic", **options)
    assert walk[5].event == "stepped" and walk[5].player_plate in (0, 2, 5, 7)  # a corner
    sequence = PictureSequence(interval=0.1)
    for index, frame in enumerate(walk[:8]):
        state = sequence.feed(frame.scene.frame)
        if index in (6, 7):
            assert judge_state(state, frame) == "right", index


def test_a_zoom_about_the_player_after_the_first_step_pins_the_spot():
    """Drawn room, 150% display scaling: a plate hidden
    since the first frame is one of the first step's plate's neighbours, so after the
    step every plate that changed is one never seen or one now hidden, and "no step"
    explains the frame as well; no step being told, the spot where the camera keeps the
    player was never learnt, and the two frames after the step stayed undecided. The
    camera then zooms about the player: the player's plate stays put on the floor while
    the ring moves about it. That pins the spot, the session is told again from it, and
    every frame from the zoom on is right."""
    walk = walk_through(None, 58 * 100_003 + 32, source="synthetic", display_scale=1.5)
    assert [frame.event for frame in walk[5:8]] == ["stepped", "zoom", "idle"]
    assert walk[0].hidden == (4,) and walk[5].player_plate == 2  # 4 is a neighbour of 2
    _spot_and_marks_right(walk, right_from=6, trusted_from=6)


@pytest.mark.parametrize("number", [8, 29, 37])
def test_a_pan_that_lays_one_hidden_plate_where_another_was_pins_nothing(number):
    """Drawn room at a steep camera: before the first step
    the camera follows the walking player by a spacing, and a hidden plate lands where
    another hidden plate was on the window. A first try at pinning the spot before a
    step, told by what moved on the window, took that plate for the player's; told on
    the floor, the pan moves every plate alike and pins nothing: wherever the spot is
    trusted it is where the camera draws the player."""
    walk = walk_through(None, 51 * 100_003 + number, source="synthetic",
                        display_scale=display_scale_of(number), pitch_range=(55.0, 68.0))
    assert walk[3].event == "walking" and walk[3].step == -1
    _spot_and_marks_right(walk[:12], right_from=len(walk))


def test_a_quarter_turn_that_lays_a_neighbour_where_another_was_pins_nothing():
    """The screenshot's floor at 58°: the player stands
    on a corner plate, the body hiding the plates behind it up the screen, and the camera
    turns a quarter about the player. The corner's other neighbour lands where the first
    one was on the window, hidden behind the body again, while the reader placed the
    player's own plate 3 px apart in the two views: one hidden plate stayed put, which
    was taken for the ring turning about the player's, and that place was trusted as
    the spot at once. The next step was then out of its reach: nine frames undecided. A
    plate with another hidden plate just below it on the window pins nothing: wherever
    the spot is trusted it is where the camera draws the player, and every frame from
    the turn on is right."""
    shared_file("toa", "room_topdown.png")
    walk = walk_through(None, 64 * 100_003 + 32, source="screenshot",
                        display_scale=display_scale_of(32), pitch_range=(55.0, 68.0))
    assert [frame.event for frame in walk[5:8]] == ["stepped", "idle", "turn"]
    assert walk[7].player_plate == 2 and abs(walk[7].camera.yaw_deg
                                             - walk[6].camera.yaw_deg) > 80
    _spot_and_marks_right(walk[:23], right_from=7)


def test_a_place_the_camera_zoomed_about_outweighs_one_nearer_the_window_s_middle():
    """Drawn room, 65°, 150% display scaling: a zoom
    right after the first step pinned the player's plate, and the next frame the reader
    hid the plate behind the player too, nearer the window's middle. After the next step
    both places had been seen in two views, the nearer one was taken for the spot, and
    the step after that, onto a plate out of its reach, was not told: two frames
    undecided. The place the ring turned or zoomed about counts one view more: the spot
    stays on the player and every frame from the zoom on is right."""
    walk = walk_through(None, 61 * 100_003 + 35, source="synthetic",
                        display_scale=display_scale_of(35), pitch_range=(55.0, 68.0))
    assert [frame.event for frame in walk[5:8]] == ["stepped", "zoom", "idle"]
    _spot_and_marks_right(walk[:20], right_from=6, trusted_from=6)


def test_a_still_view_along_the_room_s_axes_after_the_first_step_is_no_snap():
    """Drawn room, 67°, the camera snapped north: the
    first step is onto the plate at the bottom of the screen, hidden behind a team-mate
    before and under the player after, the plate at the top hidden too. The next frames'
    view stayed put, and before the spot is learnt the history let a snap turn the labels
    by half (the two hidden plates swapped): two frames undecided. A snap turns the camera
    about the player, who stands on the plate stepped onto a moment ago: the board stays
    the stepped one (exhaustively in test_inference)."""
    walk = walk_through(None, 55 * 100_003 + 14, source="synthetic",
                        display_scale=display_scale_of(14), pitch_range=(55.0, 68.0))
    assert [frame.event for frame in walk[5:8]] == ["stepped", "idle", "idle"]
    assert walk[6].camera.yaw_deg % 90 == 0 and walk[6].player_plate == 6
    sequence = PictureSequence(interval=0.1)
    states = [sequence.feed(frame.scene.frame) for frame in walk[:8]]
    assert not sequence.loop.session.spot.trusted
    assert [judge_state(states[index], walk[index]) for index in (6, 7)] == ["right", "right"]


def test_a_turn_before_the_first_step_pins_the_spot_with_no_plate_hidden():
    """Drawn room: the player waits at the way in, on plain floor,
    no plate hidden, and the camera turns about the player on the third frame. The floor
    point the two views show at one place is where the player stands, so the spot where
    the camera keeps the player is trusted from that frame, where it is drawn."""
    walk = walk_through(None, 21 * 100_003 + 3, source="synthetic", display_scale=1.0)
    assert [frame.event for frame in walk[:6]] == [
        "start", "idle", "turn", "walking", "walking", "stepped"]
    assert all(not frame.hidden for frame in walk[:3])
    sequence = PictureSequence(interval=0.1)
    for frame in walk[:2]:
        sequence.feed(frame.scene.frame)
    assert not sequence.loop.session.spot.trusted
    _spot_and_marks_right(walk[:12], right_from=1, trusted_from=2)


def _turned_while_walking(walk, index: int, turn: float, walked: float):
    """Frame ``index`` of ``walk`` drawn again with the camera turned by ``turn`` degrees
    and the player (and the camera with it) ``walked`` grid units up the room from there."""
    from dataclasses import replace

    from lab.scene import render_scene

    scene = walk[index].scene
    camera = scene.params.camera
    x, y = camera.look_at
    moved = replace(camera, yaw_deg=camera.yaw_deg + turn, look_at=(x, y - walked))
    player, *others = scene.params.figures
    figures = (replace(player, tile=moved.look_at), *others)
    return render_scene(replace(scene.params, camera=moved, figures=figures)).frame


def test_a_turn_while_walking_does_not_pin_the_spot():
    """A turn of the camera while the player walks turns the floor about another point
    than the player's (assistant.session.camera.camera_pivot): the loop takes a pivot only
    when the view stood still into the frame before it or stands still after it (a walk of
    a tile takes the game several frames). Walking through the turn: no spot; standing through the
    same turn: the spot, where the camera draws the player. (A turn of 36° while running
    a third of a spacing a frame lays the pivot on a floor tile's middle, where the loop
    would take it for the player's.)"""
    walk = walk_through(None, 21 * 100_003 + 3, source="synthetic", display_scale=1.0)
    for walked, trusted in ((0.33, False), (0.0, True)):
        sequence = PictureSequence(interval=0.1)
        sequence.feed(walk[0].scene.frame)
        frames = [_turned_while_walking(walk, 0, 0.0, walked),
                  _turned_while_walking(walk, 0, 36.0, 2 * walked),
                  _turned_while_walking(walk, 0, 36.0, 3 * walked)]
        for frame in frames:
            sequence.feed(frame)
        loop = sequence.loop
        assert loop.session.spot.trusted is trusted, walked
        if trusted:
            x, y = loop.session.spot.learnt
            cx, cy = walk[0].camera.screen_centre
            assert abs(x - cx) < 10 and abs(y - cy) < 10


def test_the_body_on_the_first_plate_tells_the_step_a_plate_hidden_all_along_beside_it():
    """Drawn room, 65° then 42°: a team-mate hides the
    bottom middle plate in every frame but the first step's; the spot is learnt from a
    zoom about the waiting player (a pivot), and the first step is onto the corner plate
    beside the hidden one, which it toggles. In the step's frame the hidden plate showed;
    "no step, and the hidden plate was as now" explained that frame as well as the step,
    and the next frames too, though the player's body stood on the corner plate's middle,
    which it had entered since waiting off the plates. The session stayed undecided to
    its end; now every frame from the one after the step is right."""
    walk = walk_through(None, 60 * 100_003 + 39, source="synthetic", display_scale=1.0)
    assert [frame.event for frame in walk[:7]] == [
        "start", "idle", "zoom", "walking", "walking", "stepped", "pitch"]
    assert all(6 in frame.hidden for frame in walk[:5]) and walk[5].player_plate == 7
    _spot_and_marks_right(walk, right_from=6, trusted_from=2)


def test_the_frames_after_a_pitch_at_a_close_zoom_are_read_from_four_diamonds():
    """Drawn room: at a close zoom the camera pitches from 68° to
    41° about the player on a plate, and the bottom row goes under the chat panel and
    beyond the game view's edge: four diamonds are left. No fresh search and no motion
    of the floor placed the ring, and the frames went blank until the player walked on;
    the last view's camera pitched about the player's spot places it, and both frames
    after the pitch show the right marks."""
    walk = walk_through(None, 47 * 100_003 + 3, source="synthetic", display_scale=1.0)
    assert [frame.event for frame in walk[25:28]] == ["stepped", "pitch", "idle"]
    assert walk[26].camera.pitch_deg < walk[25].camera.pitch_deg - 20
    assert len(walk[26].out_of_view) == 3 and walk[26].player_plate is not None
    sequence = PictureSequence(interval=0.1)
    for index, frame in enumerate(walk[:28]):
        state = sequence.feed(frame.scene.frame)
        if index in (26, 27):
            assert sequence.loop.reader.spot is not None, index
            assert judge_state(state, frame) == "right", index


def test_a_ring_followed_where_its_frames_are_too_thin_to_show_is_read():
    """Drawn room, 64°, a zoom out after a step with the
    player and the plate behind him hidden: the frames' band is a pixel or two deep on
    screen and shows purple at too few places for a follow's check, so the ring moved
    by the zoom was turned down and the frame went blank. Where the band is too thin to
    show, an even floor between the places stands for it, and the frame is right."""
    from assistant.vision.locate import _frames_too_thin

    walk = walk_through(None, 14 * 100_003 + 29, source="synthetic",
                        display_scale=display_scale_of(29), pitch_range=(55.0, 68.0))
    assert walk[21].event == "zoom" and walk[21].hidden == (5, 6)
    sequence = PictureSequence(interval=0.1)
    for frame in walk[:22]:
        state = sequence.feed(frame.scene.frame)
    reading = sequence.loop.last_observed.reading
    assert not reading.abstain and _frames_too_thin(reading.geometry.homography)
    assert judge_state(state, walk[21]) == "right"


def test_a_tiny_unlit_diamond_through_jpeg_is_not_read_lit_among_two_unlit_plates():
    """The real floor's room, 65°, 40 px a spacing:
    after a zoom out, a frame saved as JPEG (quality 75) took the purple frames' blue into
    the tiny diamonds' colour, which JPEG keeps at half resolution. Four plates were set
    aside as covered and an unlit plate read lit beside one lit and two unlit plates,
    darker than both unlit ones; the history took it for a step onto that plate, and
    two frames later the overlay marked a plate wrongly. A plate read lit that is no
    brighter than two unlit plates is doubted now: no frame of the session is wrong."""
    shared_file("toa", "room_topdown.png")
    walk = walk_through(None, 70 * 100_003 + 18, source="screenshot",
                        display_scale=display_scale_of(18), pitch_range=(55.0, 68.0))
    assert walk[6].event == "zoom" and walk[6].scene.params.jpeg_quality is not None
    sequence = PictureSequence(interval=0.1)
    for index, frame in enumerate(walk[:12]):
        state = sequence.feed(frame.scene.frame)
        assert judge_state(state, frame) != "wrong", index
        if index == 6:
            reading = sequence.loop.last_observed.reading
            lit_read = [tile for tile in reading.tiles if tile.lit and not tile.hidden]
            assert reading.abstain or all(
                frame.scene.lit[plate_at(frame.scene, tile.centre)] for tile in lit_read)
    assert judge_state(state, walk[11]) == "right"


def test_a_session_s_first_frame_whose_ring_on_five_diamonds_is_unread_is_read_on_seven():
    """A session's first frame (drawn room, 68°, JPEG): at the start
    the live loop's search goes on to five diamonds when six are not found, and a small
    frame is searched at half resolution on six only after that. At full resolution the
    blurred diamonds' centres scattered and five placed a lattice that hid four plates;
    the frame went blank, where one picture read alone was read (the half-resolution
    search placed the ring on seven). A ring on fewer diamonds that cannot be read gives
    way to the search on as many as were asked for."""
    from assistant.vision import read_frame
    from assistant.vision.reader import MAX_HIDDEN_IN_SESSION

    walk = walk_through(None, 70 * 100_003 + 24, source="synthetic",
                        display_scale=display_scale_of(24), pitch_range=(55.0, 68.0))
    first = walk[0].scene
    reading = read_frame(first.frame, max_hidden=MAX_HIDDEN_IN_SESSION, fewer_diamonds=5)
    assert not reading.abstain and len(reading.hidden) == 1
    for tile in reading.tiles:
        assert tile.hidden or tile.lit == bool(first.lit[plate_at(first, tile.centre)])
