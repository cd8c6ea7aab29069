"""``toa-assistant bench-walk``: the reader and the live loop through whole walk-throughs.

Each session (:func:`lab.walkthrough.walk_through`) starts from a random board; the
player steps on each plate of the answer, stands centred on it, and the camera follows,
turns, zooms and pitches; team-mates stand around. Two things are measured:

* single pictures, split by frames with the player on a plate and off it: right (every
  plate read right), hidden (someone's plates reported hidden, all others right), wrong
  (any plate read wrong), abstain;
* sequences, through :class:`assistant.sequence.PictureSequence` (the live loop itself):
  per frame, right (the marks are exactly the plates to step on, or none when all are
  lit), uncertain (only marks every possibility agrees on, the rest shown as undecided),
  wrong (a mark that should not be there, or a missing one shown as certain), blank
  (nothing shown), and settling (the frame right after a change, which the stabiliser
  holds back by design). Judged frames not fully right are also counted by what the
  live loop told the player (:func:`shortfall_reason`): where the target is missed;
  each of them is kept with its session, frame and truth (:func:`missed_frame`;
  ``--frames`` lists them), so a kind of moment can be looked into without replaying
  every session.

The sessions take turns at Windows display scaling of 100%, 125% and 150% with a client
stretched by it (:data:`DISPLAY_SCALES`), as are the steep floor's pictures. About three
frames in ten go through JPEG, as a saved screenshot may (``detect``); the live loop
grabs raw pixels, and ``--raw-grabs`` walks the same sessions, frame for frame, without
it: the two runs side by side say what JPEG costs and what the live loop itself gets.

Marks are compared with the truth by screen position, so the verdict does not depend on
which corner the reader calls row 1, column 1. All of this is measured on rooms this
project draws (and on the real screenshot's floor, when ``../shared`` is present): a
statement about that model of the game, not about the game.
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import re
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from assistant.errors import UserError
from assistant.puzzle import TOA_PLATES, toa_board
from assistant.sequence import PictureSequence
from assistant.solver import solve
from assistant.vision import read_frame
from assistant.vision.geometry import GridGeometry
from lab import results as results_file
from lab.results import current_commit
from lab.walkthrough import DEFAULT_SCREENSHOT, WalkFrame, walk_through

__all__ = ["HELP", "NAME", "RESULTS_COLUMNS", "judge_picture", "judge_state", "merge_parts",
           "record_results", "results_rows", "run", "run_sessions", "session_groups",
           "share_interval", "shortfall_reason", "walk_sessions"]

NAME = "bench-walk"
HELP = "Measure reading and live marks through generated walk-throughs (player on the plates)."

PICTURE_OUTCOMES = ("right", "hidden", "wrong", "abstain")
#: with --steep, pictures of the empty floor per session asked for
FLOOR_PICTURES_PER_SESSION = 5
SEQUENCE_OUTCOMES = ("right", "uncertain", "wrong", "blank", "settling")


#: Windows display scaling of the sessions, in turn: most players are on Windows, often
#: at 125% or 150%, and a client that is not DPI-aware is stretched by it
#: (:func:`lab.scene.display_scaled`). A third each is this project's guess at the
#: field, not a measurement of it.
DISPLAY_SCALES = (1.0, 1.25, 1.5)


def display_scale_of(number: int) -> float:
    """The display scaling of session (or floor picture) ``number``."""
    return DISPLAY_SCALES[number % len(DISPLAY_SCALES)]


class BenchError(UserError):
    """Benchmark options that cannot be used."""


#: How far (grid units: a plate spacing is 1) from a plate's centre, on the floor, a mark
#: or a read tile may be and still be on that plate: the plate's own tile reaches 0.25,
#: the plain tile between two plates starts at 0.5.
ON_PLATE_RADIUS = 0.35
#: The room's plate centres on the floor (x = column, y = row), in TOA_PLATES order.
_PLATES_ON_FLOOR = np.array([(c, r) for r, c in TOA_PLATES], np.float64)


def plate_at(scene, point: tuple[float, float]) -> int | None:
    """The room plate (TOA_PLATES order) under a picture point, or None: the point taken
    back to the floor through the scene's camera and measured there.

    Why on the floor: at a steep camera the plates are three times closer on screen from
    front to back than across, and a distance in pixels against the shortest spacing
    counted a mark well inside a plate's diamond (0.14 of a spacing off across the
    screen) as off every plate (at 68 degrees)."""
    floor = GridGeometry(3, 3, scene.homography).to_grid(np.array([point]))[0]
    distance = np.hypot(*(_PLATES_ON_FLOOR - floor).T)
    index = int(np.argmin(distance))
    return index if distance[index] <= ON_PLATE_RADIUS else None


def judge_picture(frame: WalkFrame) -> str:
    """One picture read alone: right / hidden / wrong / abstain."""
    return judge_scene(frame.scene)


def truth_steps(frame: WalkFrame) -> set[int]:
    """The plates (room order) the answer steps on."""
    presses = solve(toa_board(frame.room_board)).presses
    return {i for i, (r, c) in enumerate(TOA_PLATES) if presses[r, c]}


def judge_state(state, frame: WalkFrame) -> str:
    """One frame of a sequence: right / uncertain / wrong / blank (before settling)."""
    steps = truth_steps(frame)
    if state.kind == "solved":
        return "right" if not steps else "wrong"
    if state.kind not in ("steps", "uncertain") or not state.marks:
        # no marks on screen (a held-back change whose marks the camera moved off their
        # plates is shown without them): the player sees nothing to step on
        return "blank"
    certain, undecided = set(), set()
    for mark in state.marks:
        index = plate_at(frame.scene, mark.centre)
        if index is None:
            return "wrong"
        (certain if mark.certain else undecided).add(index)
    if not certain <= steps:
        return "wrong"
    if state.kind == "steps":
        return "right" if certain == steps else "wrong"
    return "uncertain" if steps <= certain | undecided else "wrong"


def _read_plates(observed, frame: WalkFrame) -> np.ndarray:
    """The room's plates this observation read (visible, lit or unlit), by position."""
    read = np.zeros(8, bool)
    reading = observed.reading if observed is not None else None
    if reading is None or reading.abstain:
        return read
    for tile in reading.tiles:
        index = None if tile.hidden else plate_at(frame.scene, _on_picture(observed, tile))
        if index is not None:
            read[index] = True
    return read


def _on_picture(state, tile) -> tuple[float, float]:
    """A tile's centre in the picture (the reading may have been made on a grab of a part
    of it: the tracked region around the plates)."""
    ox, oy = state.origin or (0, 0)
    left, top = (state.window.left, state.window.top) if state.window else (0, 0)
    return tile.centre[0] + ox - left, tile.centre[1] + oy - top


def _undecided_plates(state, frame: WalkFrame) -> list[int]:
    """The room's plates the state leaves undecided, by position."""
    if state.reading is None:
        return []
    where = {(t.row, t.col): _on_picture(state, t) for t in state.reading.tiles}
    found = (plate_at(frame.scene, where[cell]) for cell in state.undecided if cell in where)
    return [index for index in found if index is not None]


#: with --consecutive, the time between two raids' puzzles (minutes of other rooms)
RAID_GAP_SECONDS = 300.0


def between_raids(sequence: PictureSequence, shape: tuple[int, ...], seed: int) -> None:
    """The live loop of one app run between two raids' puzzles: minutes pass, and it
    sees a frame of somewhere else (no puzzle in it) before the next room."""
    sequence.pause(RAID_GAP_SECONDS)
    elsewhere = np.random.default_rng([seed, 300]).integers(0, 256, shape, dtype=np.uint8)
    sequence.feed(elsewhere)


def run_sessions(sessions: int, seed: int, source: str, consecutive: bool = False,
                 jobs: int = 1, strides: tuple[int, ...] = (1,), judge_pictures: bool = True,
                 **options) -> dict:
    """Walk ``sessions`` sessions; returns the counts and timings. ``consecutive``: the
    sessions of each display scaling run through one live loop, one raid after another
    (as one run of the app does: what it learnt of the window, the spot where the camera
    keeps the player, holds for the next raid); otherwise each session starts a new loop
    (the first raid of a run). ``jobs`` > 1 walks the sessions in that many processes:
    the same sessions and the same counts, sooner (a pooled figure over hundreds of
    sessions is what tells the share fully right to within a few tenths of a percent).
    ``strides``: each session is drawn once and walked through the live loop once per
    stride, keeping every stride-th walking frame (:func:`thinned`); the result holds
    the sequences' counts per stride under ``"strides"``. ``judge_pictures`` False walks
    the live loop only: no picture is also read alone (its counts stay 0)."""
    groups = session_groups(sessions, jobs, consecutive)
    if len(groups) == 1:
        return merge_parts([walk_sessions(groups[0], seed, source, consecutive, options,
                                          strides, judge_pictures)])
    context = multiprocessing.get_context("spawn")  # never fork a process with threads
    with ProcessPoolExecutor(len(groups), mp_context=context) as pool:
        futures = [pool.submit(walk_sessions, group, seed, source, consecutive, options,
                               strides, judge_pictures)
                   for group in groups]
        return merge_parts([future.result() for future in futures])


def session_groups(sessions: int, jobs: int, consecutive: bool) -> list[list[int]]:
    """Session numbers per process, each group in order. With ``consecutive`` the
    sessions of one display scaling are one run of the app and stay in one group."""
    jobs = max(1, min(jobs, sessions))
    if consecutive:
        jobs = min(jobs, len(DISPLAY_SCALES))
        return [[n for n in range(sessions) if n % len(DISPLAY_SCALES) % jobs == job]
                for job in range(jobs)]
    return [list(range(job, sessions, jobs)) for job in range(jobs)]


def thinned(walk: list[WalkFrame], stride: int) -> list[tuple[int, WalkFrame]]:
    """The frames of a session the live loop gets when it keeps every ``stride``-th frame
    while the player walks (0: none; the frames of a player standing are all kept), each
    with its index in the session. Their grab times stay what they were, so the loop
    sees the gaps as they are: a loaded PC grabbing a frame or two a second, or a
    screenshot taken only while the player stands on each plate."""
    kept, walking = [], 0
    for index, frame in enumerate(walk):
        if frame.event == "walking":
            walking += 1
            if not stride or walking % stride:
                continue
        else:
            walking = 0
        kept.append((index, frame))
    return kept


class _SequenceTally:
    """The counts of the live loop walked over the sessions at one stride."""

    def __init__(self) -> None:
        self.frames = {where: dict.fromkeys(SEQUENCE_OUTCOMES, 0) for where in ("on", "off")}
        self.never_seen = 0
        # per walk-through event: frames and searches of the whole picture in them
        self.searches: dict[str, list[int]] = {}
        self.ms: list[float] = []
        self.wrong: list[dict] = []
        # per display scaling and per session: frames fully right and frames judged (as
        # the share overall); sessions are the independent draws the interval is taken over
        self.by_scale = {str(scale): [0, 0] for scale in DISPLAY_SCALES}
        self.by_session: dict[int, list[int]] = {}
        # judged frames not fully right, by what the live loop said (shortfall_reason),
        # and each of them with its truth (missed_frame)
        self.shortfall: dict[str, int] = {}
        self.missed: list[dict] = []
        self.runs: dict[float, PictureSequence] = {}  # with consecutive: the app's loop

    def walk(self, number: int, walk: list[WalkFrame], stride: int, scale: float,
             consecutive: bool, walk_seed: int) -> None:
        """One session's frames (thinned to ``stride``) through the live loop, judged."""
        sequence = self.runs.get(scale) or PictureSequence()
        if consecutive:
            if scale in self.runs:
                between_raids(sequence, walk[0].scene.frame.shape, walk_seed)
            self.runs[scale] = sequence
        held_before = False
        ever_seen = np.zeros(8, bool)  # room plates the reader has read (not hidden)
        session = self.by_session.setdefault(number, [0, 0])
        for index, frame in thinned(walk, stride):
            where = "on" if frame.player_plate is not None else "off"
            started = time.perf_counter()
            before = sequence.loop.reader.relocations
            state = sequence.feed(frame.scene.frame, frame.time)
            self.ms.append((time.perf_counter() - started) * 1000)
            count = self.searches.setdefault(frame.event, [0, 0])
            count[0] += 1
            count[1] += sequence.loop.reader.relocations - before
            observed = sequence.loop.last_observed
            held = observed is not None and observed.key != state.key
            ever_seen |= _read_plates(observed, frame)
            outcome = judge_state(state, frame)
            # the stabiliser holds a new observation back for one frame by design; a
            # hold longer than that is judged like any frame
            if outcome != "right" and held and not held_before:
                outcome = "settling"
            held_before = held and outcome == "settling"
            unseen = (outcome == "uncertain"
                      and not ever_seen[_undecided_plates(state, frame)].all())
            self.never_seen += unseen
            if outcome != "settling" and not unseen:
                for tally in (self.by_scale[str(scale)], session):
                    tally[0] += outcome == "right"
                    tally[1] += 1
                if outcome != "right":
                    why = shortfall_reason(outcome, state)
                    self.shortfall[why] = self.shortfall.get(why, 0) + 1
                    trace = () if observed is None or observed.reading is None \
                        else observed.reading.trace
                    self.missed.append(missed_frame(number, index, frame, why, trace))
            self.frames[where][outcome] += 1
            if outcome == "wrong":
                self.wrong.append({"session": number, "frame": index, "event": frame.event,
                                   "display_scale": scale})

    def counts(self) -> dict:
        return {"sequences": self.frames, "never_seen": self.never_seen, "ms": self.ms,
                "wrong": self.wrong, "searches": self.searches,
                "by_display_scale": self.by_scale, "by_session": self.by_session,
                "shortfall": self.shortfall, "missed": self.missed}


def walk_sessions(numbers: list[int], seed: int, source: str, consecutive: bool,
                  options: dict, strides: tuple[int, ...] = (1,),
                  judge_pictures: bool = True) -> dict:
    """Walk the sessions ``numbers`` (in order) and count (``options`` go to
    :func:`walk_through`); each session is drawn once, its pictures judged alone, and
    its frames walked through the live loop once per stride (``judge_pictures``
    False: no picture judged alone). The ``ms`` list of every
    frame's time is kept so that parts walked apart merge into one median."""
    pictures = {where: dict.fromkeys(PICTURE_OUTCOMES, 0) for where in ("on", "off")}
    wrong_pictures: list[dict] = []  # single pictures read wrong, each with its moment
    tallies = {stride: _SequenceTally() for stride in strides}
    for number in numbers:
        scale = display_scale_of(number)
        walk_seed = seed * 100_003 + number
        walk = walk_through(None, walk_seed, source=source, display_scale=scale,
                            **{"approach_frame": True, **options})
        for index, frame in enumerate(walk if judge_pictures else ()):
            where = "on" if frame.player_plate is not None else "off"
            verdict = judge_picture(frame)
            pictures[where][verdict] += 1
            if verdict == "wrong":
                trace = read_frame(frame.scene.frame).trace  # (rare: read again for it)
                wrong_pictures.append(missed_frame(number, index, frame,
                                                   "wrong single picture", trace))
        for stride, tally in tallies.items():
            tally.walk(number, walk, stride, scale, consecutive, walk_seed)
    return {"pictures": pictures, "wrong_pictures": wrong_pictures,
            "strides": {str(stride): tally.counts() for stride, tally in tallies.items()}}


def merge_parts(parts: list[dict]) -> dict:
    """One result from parts walked apart (:func:`walk_sessions`): counts added, frames
    listed by session and frame, and per stride one median over every frame's time and
    the share fully right with its interval over the sessions (:func:`share_interval`)."""
    def added(items: list[dict]) -> dict:
        total: dict = {}
        for item in items:
            for name, value in item.items():
                if isinstance(value, dict):
                    inner = total.setdefault(name, dict.fromkeys(value, 0))
                    for k, n in value.items():
                        inner[k] += n
                elif isinstance(value, list):
                    total[name] = [a + b for a, b in zip(total.get(name, [0] * len(value)),
                                                         value, strict=True)]
                else:
                    total[name] = total.get(name, 0) + value
        return total

    def listed(items: list[list[dict]]) -> list[dict]:
        return sorted((item for group in items for item in group),
                      key=lambda item: (item["session"], item["frame"]))

    def stride_of(key: str) -> dict:
        walked = [part["strides"][key] for part in parts]
        ms = [t for item in walked for t in item["ms"]]
        by_session = {n: item["by_session"][n] for item in walked for n in item["by_session"]}
        tallies = [by_session[n] for n in sorted(by_session)]
        right, judged = sum(t[0] for t in tallies), sum(t[1] for t in tallies)
        shortfall = added([item["shortfall"] for item in walked])
        return {"sequences": added([item["sequences"] for item in walked]),
                "never_seen": sum(item["never_seen"] for item in walked),
                "ms_per_frame": statistics.median(ms) if ms else 0.0,
                "wrong": listed([item["wrong"] for item in walked]),
                "searches": added([item["searches"] for item in walked]),
                "by_display_scale": added([item["by_display_scale"] for item in walked]),
                "fully_right": {"right": right, "judged": judged,
                                "share": right / judged if judged else None,
                                "interval": share_interval(tallies)},
                "by_session": tallies,
                "shortfall": dict(sorted(shortfall.items(),
                                         key=lambda item: (-item[1], item[0]))),
                "missed": listed([item["missed"] for item in walked])}

    return {"pictures": added([part["pictures"] for part in parts]),
            "wrong_pictures": listed([part["wrong_pictures"] for part in parts]),
            "strides": {key: stride_of(key) for key in parts[0]["strides"]}}


#: resamples of the sessions for the interval, and the interval's coverage
BOOTSTRAP_RESAMPLES = 4000
INTERVAL_COVERAGE = 0.95


def share_interval(tallies: list[list[int]], coverage: float = INTERVAL_COVERAGE,
                   resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0,
                   ) -> list[float] | None:
    """The share fully right with the sessions resampled: a percentile bootstrap over
    sessions of (frames right) / (frames judged), as ``[low, high]``.

    Why sessions and not frames: the frames of one session are not independent (one hard
    moment misses several frames in a row, one camera holds for many), so the frames'
    binomial interval is too narrow. Forty sessions' figure moves by about a percent
    from one seed to the next; this says by how much, so that a row under a target is
    not read as a regression, nor one over it as proof. None with fewer than two
    sessions judged."""
    rows = np.array([t for t in tallies if t[1] > 0], dtype=float).reshape(-1, 2)
    if len(rows) < 2:
        return None
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(rows), size=(resamples, len(rows)))
    shares = rows[picks, 0].sum(axis=1) / rows[picks, 1].sum(axis=1)
    tail = (1 - coverage) / 2
    low, high = np.quantile(shares, [tail, 1 - tail])
    return [float(low), float(high)]


def missed_frame(session: int, index: int, frame: WalkFrame, why: str,
                 trace: tuple = ()) -> dict:
    """A judged frame that was not fully right, with the truth that says what kind of
    moment it was: before the player's first step (arriving at the room, team-mates
    about) or after, the plate the player stands on, the plates bodies hide and those
    out of view (under a client panel, past the picture's edge), as room plate numbers.

    Why: the tally by what the loop said does not tell a session's first frames from
    the frames after a step, which need different work, and without the frame a missed
    moment must be found by replaying every session. ``trace``: the reading's trace
    (which search answered, what each stage decided), so the stage to look at is named."""
    return {"session": session, "frame": index, "event": frame.event,
            "before_first_step": frame.step < 0, "player_plate": frame.player_plate,
            "hidden": list(frame.hidden), "out_of_view": list(frame.out_of_view),
            "why": why, "trace": [str(step) for step in trace]}


def describe_missed(missed: dict) -> str:
    """One line for ``--frames``: where a frame was missed and what the loop said."""
    where = ("before the first step" if missed["before_first_step"] else "after a step")
    player = ("off the plates" if missed["player_plate"] is None
              else f"on plate {missed['player_plate']}")
    covered = f", hidden {missed['hidden']}" if missed["hidden"] else ""
    away = f", out of view {missed['out_of_view']}" if missed["out_of_view"] else ""
    line = (f"session {missed['session']}, frame {missed['frame']} ({missed['event']}, "
            f"{where}, player {player}{covered}{away}): {missed['why']}")
    steps = missed.get("trace") or []
    return line + "".join(f"\n        {step}" for step in steps)


_PLACE = re.compile(r"row \d+, column \d+")


def shortfall_reason(outcome: str, state) -> str:
    """A judged frame that was not fully right, as a kind: what the live loop told the
    player, with the plates' places left out (so frames of one kind count together).
    The tally says where the target is missed without a session being replayed."""
    if outcome == "uncertain":
        count = len(state.undecided)
        return f"uncertain: {count} hidden plate{'s' * (count != 1)} undecided"
    if outcome == "wrong":
        return "wrong"
    sentence = re.split(r"(?<=\.) |; | \(", state.status or "", maxsplit=1)[0]
    return f"{outcome}: {_PLACE.sub('…', sentence).rstrip('.…')}"


#: walk-through events that change the view (idle frames and the first do not)
VIEW_CHANGES = ("walking", "stepped", "turn", "zoom", "pitch")


def searches_per_change(searches: dict[str, list[int]]) -> tuple[int, int]:
    """All searches of the whole picture in a run, and the changes of the view."""
    return (sum(n for _frames, n in searches.values()),
            sum(searches.get(event, [0, 0])[0] for event in VIEW_CHANGES))


def floor_pictures(count: int, seed: int, source: str,
                   pitch_range: tuple[float, float] = (55.0, 68.0)) -> dict:
    """Single pictures of the room with nobody in it through random cameras in
    ``pitch_range`` (any yaw, zoom and place, with or without the client's panels):
    right / hidden / wrong / abstain. The steep cameras' target (at most 2% abstain) is
    about the floor itself; people on it are hidden plates, measured by the sessions."""
    from lab.scene import Camera, SceneParams, render_scene

    rng = np.random.default_rng([seed, 68])
    counts = dict.fromkeys(PICTURE_OUTCOMES, 0)
    width, height = 960, 640
    for number in range(count):
        ui = bool(rng.random() < 0.5)
        camera = Camera(
            yaw_deg=float(rng.uniform(0, 360)), pitch_deg=float(rng.uniform(*pitch_range)),
            spacing_px=float(rng.uniform(45, 110)),
            look_at=(float(rng.uniform(0, 2)), float(rng.uniform(0, 2))),
            screen_centre=(width * 0.38, height * 0.38) if ui else (width / 2, height / 2),
        )
        values = rng.integers(0, 2, 8)
        board = "{}{}{}/{}#{}/{}{}{}".format(*values)
        scene = render_scene(SceneParams(
            seed=number, room_seed=int(rng.integers(0, 2**31)), board=board, camera=camera,
            ui=ui, frame_size=(width, height), display_scale=display_scale_of(number),
            screenshot=str(DEFAULT_SCREENSHOT) if source == "screenshot" else None,
        ))
        counts[judge_scene(scene)] += 1
    return counts


def judge_scene(scene) -> str:
    """One picture of a scene read alone: right / hidden / wrong / abstain."""
    reading = read_frame(scene.frame)
    if reading.abstain:
        return "abstain"
    seen: set[int] = set()
    for tile in reading.tiles:
        index = plate_at(scene, tile.centre)
        if index is None or index in seen:
            return "wrong"
        seen.add(index)
        if not tile.hidden and bool(tile.lit) != bool(scene.lit[index]):
            return "wrong"
    return "hidden" if reading.hidden else "right"


def describe_share(fully_right: dict, sessions: int) -> str:
    """The share fully right as printed: with its interval over the sessions, or alone
    where one session gives none."""
    right, judged, interval = (fully_right[k] for k in ("right", "judged", "interval"))
    text = f"{100 * right / max(judged, 1):.1f}% of {judged} settled frames"
    if interval is None:
        return text
    low, high = interval
    return (f"{text}, {100 * INTERVAL_COVERAGE:.0f}% interval over the {sessions} sessions "
            f"{100 * low:.1f}-{100 * high:.1f}%")


#: the columns of the results file (``--record-results``): one row per run, source and
#: stride, so the benchmark's history is data that can be compared and plotted
RESULTS_COLUMNS = ("date", "commit", "options", "seed", "source", "sessions", "stride",
                   "judged", "fully_right_pct", "uncertain", "blank", "wrong")


def stride_kinds(walked: dict) -> dict[str, int]:
    """The judged frames not fully right at one stride, by kind: uncertain, blank, wrong."""
    kinds = {"uncertain": 0, "blank": 0, "wrong": 0}
    for why, count in walked["shortfall"].items():
        kind = why.split(":")[0]
        kinds[kind] = kinds.get(kind, 0) + count
    return kinds


def results_rows(results: dict, *, date: str, commit: str, options: str, seed: int,
                 sessions: int) -> list[dict]:
    """One row per source and stride of ``results`` (source -> :func:`merge_parts`)."""
    rows = []
    for source, result in results.items():
        for stride, walked in result["strides"].items():
            judged = walked["fully_right"]["judged"]
            share = 100 * walked["fully_right"]["right"] / judged if judged else None
            rows.append({"date": date, "commit": commit, "options": options, "seed": seed,
                         "source": source, "sessions": sessions, "stride": int(stride),
                         "judged": judged,
                         "fully_right_pct": "" if share is None else f"{share:.1f}",
                         **stride_kinds(walked)})
    return rows


def check_results_file(path: Path) -> bool:
    """Whether the results file at ``path`` is new (absent or empty); one sentence (exit
    2) when it holds other columns, checked before a run of minutes rather than after."""
    return results_file.check_results_file(path, RESULTS_COLUMNS, NAME)


def record_results(path: Path, rows: list[dict]) -> None:
    """Append ``rows`` to the results file at ``path`` (:func:`lab.results.record_results`)."""
    results_file.record_results(path, rows, RESULTS_COLUMNS, NAME)


def run_options(args: argparse.Namespace) -> str:
    """The options that change what a run measures, as written in the results file."""
    flags = [name for name in ("steep", "consecutive", "raw_grabs") if getattr(args, name)]
    return " ".join(f"--{name.replace('_', '-')}" for name in flags)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sessions", type=int, default=40,
                        help="walk-throughs per source (default 40)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sessions")
    parser.add_argument("--source", choices=("synthetic", "screenshot", "both"), default="both",
                        help="rooms drawn by the renderer, built from the real screenshot's "
                             "floor (needs ../shared), or both (default)")
    parser.add_argument("--steep", action="store_true",
                        help="only steep cameras: pitch 55-68 degrees from straight down")
    parser.add_argument("--consecutive", action="store_true",
                        help="the sessions of each display scaling one raid after another "
                             "through one live loop, as one run of the app (default: each "
                             "session a new loop, the first raid of a run)")
    parser.add_argument("--raw-grabs", action="store_true",
                        help="no frame through JPEG, as the live loop grabs the screen (raw "
                             "pixels); the sessions are otherwise the same, frame for frame "
                             "(default: JPEG on about 3 frames in 10, as saved screenshots)")
    parser.add_argument("--stride", type=int, nargs="+", default=[1], metavar="K",
                        help="keep every K-th frame while the player walks (0: none, only "
                             "the frames of a player standing, as one screenshot per step); "
                             "several K walk each session once per K (default 1: every "
                             "frame)")
    parser.add_argument("--frames", action="store_true",
                        help="also list every judged frame not fully right, with its "
                             "session, frame and truth (JSON output always holds them)")
    parser.add_argument("--no-pictures", action="store_true",
                        help="walk the live loop only: no frame is also read as a single "
                             "picture (sooner, where the loop is what is measured)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="walk the sessions in this many processes (default 1); the "
                             "counts are the same, only sooner")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    parser.add_argument("--record-results", type=Path, metavar="PATH",
                        help="append one row per source and stride to this CSV results "
                             "file (docs/bench-results.csv is the project's)")


def run(args: argparse.Namespace) -> int:
    if args.sessions < 1:
        raise BenchError("--sessions must be at least 1.")
    if args.jobs < 1:
        raise BenchError("--jobs must be at least 1.")
    if any(stride < 0 for stride in args.stride):
        raise BenchError("--stride takes 0 (no walking frames) or a positive number.")
    strides = tuple(dict.fromkeys(args.stride))
    sources = ["synthetic", "screenshot"] if args.source == "both" else [args.source]
    if "screenshot" in sources and not Path(DEFAULT_SCREENSHOT).exists():
        if args.source == "screenshot":
            raise BenchError(f"The real screenshot {DEFAULT_SCREENSHOT} is not there.")
        sources.remove("screenshot")
    if args.record_results is not None:
        check_results_file(args.record_results)
    options: dict = {"pitch_range": (55.0, 68.0)} if args.steep else {}
    if args.raw_grabs:
        options["jpeg"] = False
    started = time.perf_counter()
    results = {source: run_sessions(args.sessions, args.seed, source, args.consecutive,
                                    jobs=args.jobs, strides=strides,
                                    judge_pictures=not args.no_pictures, **options)
               for source in sources}
    if args.steep:
        for source in sources:
            results[source]["floor_alone"] = floor_pictures(
                FLOOR_PICTURES_PER_SESSION * args.sessions, args.seed, source)
    elapsed = time.perf_counter() - started
    if args.record_results is not None:
        record_results(args.record_results, results_rows(
            results, date=datetime.date.today().isoformat(), commit=current_commit(),
            options=run_options(args), seed=args.seed, sessions=args.sessions))
    wrong = any(r["wrong_pictures"] or r.get("floor_alone", {}).get("wrong")
                or any(walked["wrong"] for walked in r["strides"].values())
                for r in results.values())
    if args.json:
        print(json.dumps({"sessions": args.sessions, "seed": args.seed, "steep": args.steep,
                          "consecutive": args.consecutive, "raw_grabs": args.raw_grabs,
                          "pictures_judged": not args.no_pictures,
                          "strides": list(strides), "seconds": round(elapsed, 1),
                          "results": results}))
        return 1 if wrong else 0
    out = sys.stdout
    for source, result in results.items():
        print(f"{source} rooms, {args.sessions} walk-throughs"
              f"{' (steep cameras)' if args.steep else ''}"
              f"{', one raid after another per display scaling' if args.consecutive else ''}"
              f"{', raw grabs (no JPEG)' if args.raw_grabs else ''}:",
              file=out)
        floor = result.get("floor_alone")
        if floor:
            total = sum(floor.values())
            print(f"  the floor alone, nobody on it, {total} pictures at 55-68 degrees: "
                  + " / ".join(f"{floor[k]} {k}" for k in PICTURE_OUTCOMES)
                  + f" ({100 * floor['abstain'] / total:.1f}% abstain; target <= 2%)",
                  file=out)
        if not args.no_pictures:
            _print_table("single pictures", result["pictures"], PICTURE_OUTCOMES, out)
        for picture in result["wrong_pictures"]:  # always: a wrong reading must be found
            print(f"    {describe_missed(picture)}", file=out)
        for stride in strides:
            _print_stride(stride, result["strides"][str(stride)], args, out)
        if len(strides) > 1:
            _print_strides(result["strides"], strides, out)
    print(f"measured in {elapsed:.1f} s", file=out)
    return 1 if wrong else 0


def _print_table(title: str, table: dict, outcomes: tuple[str, ...], out) -> None:
    print(f"  {title:<22}" + "".join(f"{k:>10}" for k in outcomes), file=out)
    for where, label in (("on", "player on a plate"), ("off", "player off the plates")):
        print(f"  {label:<22}" + "".join(f"{table[where][k]:>10}" for k in outcomes),
              file=out)


def _stride_name(stride: int) -> str:
    if stride == 0:
        return "no walking frames"
    return "every walking frame" if stride == 1 else f"every {stride}th walking frame"


def _print_stride(stride: int, walked: dict, args: argparse.Namespace, out) -> None:
    """The live loop's counts at one stride, as the loop told the player."""
    _print_table(f"live loop, {_stride_name(stride)}", walked["sequences"], SEQUENCE_OUTCOMES,
                 out)
    seq = {k: sum(walked["sequences"][w][k] for w in ("on", "off")) for k in SEQUENCE_OUTCOMES}
    print(f"  fully right: {describe_share(walked['fully_right'], args.sessions)} "
          f"(excepting {walked['never_seen']} uncertain frames with a plate the reader "
          "has never seen undecided); "
          f"wrong: {seq['wrong']}; live loop {walked['ms_per_frame']:.2f} ms per frame "
          "(median)", file=out)
    for frame in walked["wrong"]:  # always: a wrong mark must be found
        print(f"    wrong: session {frame['session']}, frame {frame['frame']} "
              f"({frame['event']})", file=out)
    print("  fully right by display scaling: " + ", ".join(
        f"{100 * float(scale):.0f}% {100 * right / max(judged_here, 1):.1f}% of {judged_here}"
        for scale, (right, judged_here) in walked["by_display_scale"].items()), file=out)
    if walked["shortfall"]:
        print("  not fully right, by what the loop said: " + "; ".join(
            f"{count} {why}" for why, count in walked["shortfall"].items()), file=out)
        early = sum(missed["before_first_step"] for missed in walked["missed"])
        print(f"  of them before the player's first step: {early} of "
              f"{len(walked['missed'])}", file=out)
    if args.frames:
        for missed in walked["missed"]:
            print(f"    {describe_missed(missed)}", file=out)
    total, changes = searches_per_change(walked["searches"])
    by_event = ", ".join(f"{event} {n}/{frames}" for event, (frames, n)
                         in sorted(walked["searches"].items()))
    print(f"  searches of the whole picture: {total} for {changes} changes of the view "
          f"({total / max(changes, 1):.2f} per change; searches/frames by event: "
          f"{by_event})", file=out)


def _print_strides(by_stride: dict, strides: tuple[int, ...], out) -> None:
    """Per stride, the settled frames judged: fully right, uncertain, blank, wrong."""
    print(f"  {'walking frames kept':<22}{'judged':>8}{'right':>8}{'uncertain':>11}"
          f"{'blank':>8}{'wrong':>7}", file=out)
    for stride in strides:
        walked = by_stride[str(stride)]
        judged = walked["fully_right"]["judged"]
        kinds = stride_kinds(walked)
        share = 100 * walked["fully_right"]["right"] / max(judged, 1)
        label = "all" if stride == 1 else ("none" if stride == 0 else f"1 in {stride}")
        print(f"  {label:<22}{judged:>8}{share:>7.1f}%{kinds['uncertain']:>11}"
              f"{kinds['blank']:>8}{kinds['wrong']:>7}", file=out)
