"""Walk-through sessions: the frames a player's capture shows while solving the ToA room.

One session starts from a board (given or random), the player enters near the entrance (or
already stands on a plate) and steps on every plate of the answer in a random order. Between
plates the player walks over plain floor tiles (never across another plate, which would step
on it); after each step the character stands centred on the plate, and the board shown is
already toggled. The camera follows the player (the room pans with every step) and now and
then turns, zooms or pitches in one jump (a compass snap lands it looking along the room's
axes, as the game's does). Team-mates stand around the room, sometimes on a
plate. Every frame comes with its exact truth: the room board, the board as labelled on
screen, where the player is, and which plates figures hide (from the renderer's masks).

Everything is deterministic from ``seed``. Qt-free; ``python -m lab.walkthrough`` writes
one session as PNGs for eyeballing.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from assistant.demo_room import Camera, Figure, draw_figures, random_figure
from assistant.puzzle import TOA_PLATES, toa_board
from assistant.solver import solve
from lab.scene import Scene, SceneParams, plate_coverage, render_scene, screen_board

__all__ = [
    "DEFAULT_SCREENSHOT",
    "ENTRANCE",
    "EVENTS",
    "PlannedFrame",
    "WalkFrame",
    "draw_frame",
    "walk_plan",
    "walk_through",
    "walk_through_sequences",
]

#: ``../shared/toa/room_topdown.png`` beside the checkout (read, never copied into the repo).
DEFAULT_SCREENSHOT = Path(__file__).resolve().parents[2] / "shared" / "toa" / "room_topdown.png"
#: Where the player enters: the plain floor tile below the bottom row's middle plate.
ENTRANCE = (1.0, 2.5)
EVENTS = ("start", "walking", "stepped", "turn", "zoom", "pitch", "idle")
#: At most this many plates hidden (diamond coverage > 0.5) by all figures of a frame.
MAX_HIDDEN = 2
_HIDDEN_SHARE = 0.5
#: Chance that a team-mate waits on a plate (most wait on plain floor, to keep off them).
ON_PLATE_CHANCE = 0.15
#: The live loop's frame at 10 fps: frames of a player standing (and of the camera
#: moving about one) follow each other this far apart.
FRAME_SECONDS = 0.1
#: Seconds per floor tile: running (two tiles a game tick of 0.6 s) or walking (one).
SECONDS_PER_TILE = {"run": 0.3, "walk": 0.6}
#: Chance that a session's player runs (the game's default once run is switched on).
RUN_CHANCE = 0.7
#: A player stands this long at most (seconds, uniform from nothing) after the frames of
#: standing before clicking the next plate.
MAX_PAUSE_SECONDS = 1.0
_TILE_RANGE = range(-1, 6)  # floor tiles in half grid units: -0.5 .. 2.5


@dataclass(frozen=True)
class WalkFrame:
    """One frame of a session and its truth."""

    scene: Scene  # frame (BGR uint8) + truth (room board, plate centres, homography, coverage)
    room_board: str  # the room's layout, e.g. "111/0#0/110"
    screen_board: str  # the same truth labelled as on screen (scene.screen_board convention)
    player_tile: tuple[float, float]  # grid units
    player_plate: int | None  # TOA_PLATES index the player stands on, None off the plates
    hidden: tuple[int, ...]  # TOA_PLATES indices whose diamond coverage > 0.5
    event: str  # one of EVENTS
    camera: Camera | None = None
    step: int = -1  # how many plates of the answer have been stepped on (-1 before any)
    out_of_view: tuple[int, ...] = ()  # plates with less than half their diamond in view
    figures: tuple[Figure, ...] = ()  # every figure drawn, the player first
    #: seconds since the session's first frame, when the frame was grabbed: the player
    #: walks at the game's pace (:data:`SECONDS_PER_TILE`), and a frame on screen follows
    #: the one before by the live loop's frame at least (:data:`FRAME_SECONDS`)
    time: float = 0.0


def _plate_at(tile: tuple[int, int]) -> int | None:
    """TOA_PLATES index of a tile given in half grid units, or None for plain floor."""
    i, j = tile
    if i % 2 or j % 2:
        return None
    cell = (j // 2, i // 2)
    return TOA_PLATES.index(cell) if cell in TOA_PLATES else None


def _plate_tile(index: int) -> tuple[int, int]:
    r, c = TOA_PLATES[index]
    return (2 * c, 2 * r)


def _to_grid(tile: tuple[int, int]) -> tuple[float, float]:
    return (tile[0] / 2, tile[1] / 2)


def _path(start: tuple[int, int], goal: tuple[int, int]) -> list[tuple[int, int]]:
    """Shortest 8-connected tile path over plain floor from ``start`` to ``goal`` (both may
    be plates; no other plate is crossed). Same start and goal: off and back on."""
    if start == goal:
        for di, dj in ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)):
            off = (start[0] + di, start[1] + dj)
            if off[0] in _TILE_RANGE and off[1] in _TILE_RANGE and _plate_at(off) is None:
                return [start, off, goal]
    previous: dict[tuple[int, int], tuple[int, int] | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            break
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                nxt = (here[0] + di, here[1] + dj)
                if nxt in previous or nxt[0] not in _TILE_RANGE or nxt[1] not in _TILE_RANGE:
                    continue
                if nxt != goal and _plate_at(nxt) is not None:
                    continue
                previous[nxt] = here
                queue.append(nxt)
    path = [goal]
    while previous[path[-1]] is not None:
        path.append(previous[path[-1]])  # type: ignore[arg-type]
    return path[::-1]


def _transit_points(
    path: list[tuple[int, int]], count: int
) -> list[tuple[tuple[float, float], float]]:
    """``count`` positions (grid units) along ``path`` between its ends, evenly by length,
    each with the walking direction (radians); positions on a plate snap to the nearest
    plain tile of the path."""
    pts = np.array([_to_grid(t) for t in path])
    seg = np.linalg.norm(np.diff(pts, axis=0), axis=1)
    total = float(seg.sum())
    plain = [p for t, p in zip(path, pts, strict=True) if _plate_at(t) is None]
    out = []
    for k in range(1, count + 1):
        at = total * k / (count + 1)
        i = int(np.searchsorted(np.cumsum(seg), at, side="left"))
        i = min(i, len(seg) - 1)
        before = float(np.cumsum(seg)[i] - seg[i])
        t = (at - before) / seg[i] if seg[i] > 0 else 0.0
        pos = pts[i] + (pts[i + 1] - pts[i]) * t
        direction = pts[i + 1] - pts[i]
        on_plate = any(
            abs(pos[0] - c) < 0.3 and abs(pos[1] - r) < 0.3 for r, c in TOA_PLATES
        )
        if on_plate and plain:
            pos = min(plain, key=lambda p: float(np.linalg.norm(p - pos)))
        out.append(((float(pos[0]), float(pos[1])), math.atan2(direction[1], direction[0])))
    return out


def _along_route(route: list[tuple[int, int]], tiles: float) -> tuple[float, float]:
    """The floor point (grid units) ``tiles`` moves before the end of ``route`` along it
    (each move to any of the 8 tiles around is one), its start at the most."""
    back = min(max(tiles, 0.0), len(route) - 1.0)
    whole = int(back)
    end = np.array(_to_grid(route[-1 - whole]), np.float64)
    if back > whole:
        start = np.array(_to_grid(route[-2 - whole]), np.float64)
        end = end + (start - end) * (back - whole)
    return float(end[0]), float(end[1])


def _hidden(coverage: np.ndarray) -> tuple[int, ...]:
    return tuple(int(i) for i in np.flatnonzero(coverage > _HIDDEN_SHARE))


def walk_through(start_board: str | None, seed: int, **options: Any) -> list[WalkFrame]:
    """The frames of one session solving the room from ``start_board`` (random when None),
    drawn: :func:`walk_plan` with the same arguments, each frame :func:`draw_frame`."""
    return [draw_frame(planned) for planned in walk_plan(start_board, seed, **options)]


@dataclass(frozen=True)
class PlannedFrame:
    """One frame of a session before it is drawn: the scene to render (its figures the
    player then every team-mate, before :func:`draw_frame` leaves out those that would
    hide too many plates) and the truth that needs no pixels. Planning a session makes
    every random draw; drawing its frames makes none, so any one frame can be drawn
    alone, the same as among all of them."""

    params: SceneParams
    player_tile: tuple[float, float]
    player_plate: int | None
    event: str
    camera: Camera
    step: int
    time: float


def draw_frame(planned: PlannedFrame) -> WalkFrame:
    """The frame ``planned`` describes, rendered, with its truth."""
    params = planned.params
    player, *mates = params.figures
    figures = _cap_hidden(planned.camera, params.frame_size, player, mates, params.ui)
    scene = render_scene(replace(params, figures=figures))
    return WalkFrame(
        scene=scene,
        room_board=scene.board,
        screen_board=screen_board(scene),
        player_tile=planned.player_tile,
        player_plate=planned.player_plate,
        hidden=_hidden(scene.coverage),
        event=planned.event,
        camera=planned.camera,
        step=planned.step,
        out_of_view=tuple(int(i) for i in np.flatnonzero(scene.plate_visible_fraction < 0.5)),
        figures=figures,
        time=planned.time,
    )


def walk_plan(
    start_board: str | None,
    seed: int,
    *,
    source: str = "synthetic",
    pitch_range: tuple[float, float] = (0.0, 68.0),
    teammates: int | tuple[int, int] = (0, 3),
    frames_per_stand: int = 3,
    walking_frames: int = 2,
    approach_frame: bool = False,
    camera_events: bool = True,
    start_on_plate: bool = False,
    frame_size: tuple[int, int] = (960, 640),
    screenshot: Path | str | None = None,
    ui: bool = True,
    capture_effects: bool = True,
    display_scale: float = 1.0,
    jpeg: bool = True,
) -> list[PlannedFrame]:
    """The frames of one session solving the room from ``start_board`` (random when None),
    planned (:class:`PlannedFrame`; :func:`walk_through` draws them).

    ``source``: ``"synthetic"`` (the drawn room) or ``"screenshot"`` (the real top-down
    screenshot as the floor texture; ``screenshot`` is its path, default
    :data:`DEFAULT_SCREENSHOT`). ``teammates``: a count or an inclusive range.
    ``frames_per_stand`` frames standing on each plate (the first is ``"stepped"``) and at
    the start; ``walking_frames`` frames in transit before each step, evenly along the
    route, and with ``approach_frame`` a live loop's frames (a tenth of a second apart)
    from just before the plate toggles (the body a tile short of it) until the body
    stands on it, as a loop grabbing 10 frames a second has them. Every frame has its
    grab time (``time``). With
    ``camera_events`` idle frames may turn, zoom or pitch the camera in one jump.
    ``ui``: draw the client's panels (the game view is then the top-left 76% and the
    player is centred in it). ``capture_effects``: mild noise and JPEG on some frames.
    ``jpeg=False``: no JPEG on any frame, as the live loop grabs them (raw pixels), the
    session otherwise the same frame for frame (the same random draws are made).
    ``display_scale``: the session's Windows display scaling with a client that is not
    DPI-aware, every frame stretched by it (:func:`lab.scene.display_scaled`).
    """
    if source not in ("synthetic", "screenshot"):
        raise ValueError(f"source is 'synthetic' or 'screenshot', not {source!r}")
    if frames_per_stand < 1 or walking_frames < 0:
        raise ValueError("frames_per_stand must be at least 1 and walking_frames at least 0")
    lo_pitch, hi_pitch = (float(v) for v in pitch_range)
    if not 0.0 <= lo_pitch <= hi_pitch <= 85.0:
        raise ValueError(f"pitch_range must lie within 0-85 degrees, not {pitch_range}")
    if not 1.0 <= display_scale <= 3.0:
        raise ValueError(f"display_scale must lie within 1-3, not {display_scale}")
    shot: str | None = None
    if source == "screenshot":
        path = Path(screenshot) if screenshot is not None else DEFAULT_SCREENSHOT
        if not path.is_file():
            raise FileNotFoundError(
                f"source='screenshot' needs the real room screenshot, not found at {path} "
                "(pass screenshot=Path(...); it lives in ../shared/toa and is never copied "
                "into the repository)."
            )
        shot = str(path)

    rng = np.random.default_rng([seed, 20240611])
    if start_board is None:
        values = rng.integers(0, 2, size=8)
        while values.all():
            values = rng.integers(0, 2, size=8)
        grid = np.zeros((3, 3), np.int64)
        for (r, c), v in zip(TOA_PLATES, values, strict=True):
            grid[r, c] = v
        board = toa_board(grid)
    else:
        board = toa_board(start_board)
    presses = solve(board).presses
    assert presses is not None  # every ToA board has exactly one answer
    answer = [i for i, (r, c) in enumerate(TOA_PLATES) if presses[r, c]]
    order = [answer[int(k)] for k in rng.permutation(len(answer))]

    width, height = frame_size
    centre = (width * 0.38, height * 0.38) if ui else (width / 2, height / 2)
    room_seed = int(rng.integers(0, 2**31))
    cam = Camera(
        yaw_deg=float(rng.uniform(0, 360)),
        pitch_deg=float(rng.uniform(lo_pitch, hi_pitch)),
        spacing_px=float(rng.uniform(45, 110)),
        look_at=ENTRANCE,
        screen_centre=centre,
    )
    noise_level = float(rng.uniform(0, 3)) if capture_effects else 0.0

    # where everyone starts
    if start_on_plate:
        start_plate: int | None = int(rng.integers(0, 8))
        here = _plate_tile(start_plate)
    else:
        start_plate = None
        here = (int(ENTRANCE[0] * 2), int(ENTRANCE[1] * 2))
    player = random_figure(rng, _to_grid(here), facing_deg=-90.0)
    count = teammates if isinstance(teammates, int) else int(
        rng.integers(teammates[0], teammates[1] + 1)
    )
    taken = {here}
    mates: list[Figure] = []
    for _ in range(max(0, min(7, count))):
        plates_free = [t for t in (_plate_tile(i) for i in range(8)) if t not in taken]
        plain_free = [
            (i, j) for i in _TILE_RANGE for j in _TILE_RANGE
            if _plate_at((i, j)) is None and (i, j) not in taken
        ]
        pool = plates_free if (rng.random() < ON_PLATE_CHANCE and plates_free) else plain_free
        tile = pool[int(rng.integers(0, len(pool)))]
        taken.add(tile)
        mates.append(random_figure(rng, _to_grid(tile)))

    frames: list[PlannedFrame] = []
    state = {"cam": cam, "board": board, "step": -1, "time": 0.0}
    # the clock has its own draws, so the frames are the same whatever their times
    clock_rng = np.random.default_rng([seed, 20240611, 1])
    approach_rng = np.random.default_rng([seed, 20240611, 2])
    per_tile = SECONDS_PER_TILE["run" if clock_rng.random() < RUN_CHANCE else "walk"]

    def tick(at_least: float = FRAME_SECONDS, at: float | None = None) -> None:
        """The next frame's time: ``at`` (seconds), but no sooner than ``at_least`` after
        the frame before (the first frame is at 0)."""
        if frames:
            earliest = frames[-1].time + at_least
            state["time"] = earliest if at is None else max(at, earliest)

    def camera_event() -> str | None:
        if not camera_events or rng.random() >= 0.35:
            return None
        kind = int(rng.integers(0, 4))
        c = state["cam"]
        if kind == 3 and hi_pitch - lo_pitch < 5:
            kind = 2
        if kind == 0:
            # the compass's "Look North / East / South / West": along one of the room's
            # axes, the nearest one turned a quarter either way
            nearest = round(c.yaw_deg / 90.0)
            state["cam"] = replace(c, yaw_deg=float((nearest + rng.choice([-1, 1])) * 90 % 360))
            return "turn"
        if kind == 1:
            turn = rng.uniform(15, 40) * rng.choice([-1, 1])
            state["cam"] = replace(c, yaw_deg=float((c.yaw_deg + turn) % 360))
            return "turn"
        if kind == 2:
            spacing = float(np.clip(c.spacing_px * rng.uniform(0.8, 1.25), 40, 130))
            state["cam"] = replace(c, spacing_px=spacing)
            return "zoom"
        delta = rng.uniform(10, 30) * rng.choice([-1, 1])
        pitch = float(np.clip(c.pitch_deg + delta, lo_pitch, hi_pitch))
        if abs(pitch - c.pitch_deg) < 3:
            pitch = float(np.clip(c.pitch_deg - delta, lo_pitch, hi_pitch))
        state["cam"] = replace(c, pitch_deg=pitch)
        return "pitch"

    def emit(pos: tuple[float, float], facing: float, stride: float, event: str,
             plate: int | None, draws: np.random.Generator = rng) -> None:
        c = replace(state["cam"], look_at=pos)
        state["cam"] = c
        body = replace(player, tile=pos, facing_deg=math.degrees(facing), stride=stride)
        quality = int(draws.integers(70, 96)) if capture_effects and draws.random() < 0.3 \
            else None
        noise = noise_level if draws.random() < 0.3 else 0.0
        params = SceneParams(
            seed=int(draws.integers(0, 2**31)),
            board=state["board"].format(),
            frame_size=frame_size,
            camera=c,
            figures=(body, *mates),
            room_seed=room_seed,
            screenshot=shot,
            noise_sigma=noise,
            jpeg_quality=quality if jpeg else None,
            display_scale=display_scale,
            ui=ui,
        )
        frames.append(PlannedFrame(
            params=params,
            player_tile=pos,
            player_plate=plate,
            event=event,
            camera=c,
            step=state["step"],
            time=float(state["time"]),
        ))

    def stand(pos: tuple[float, float], facing: float, plate: int | None, first: str) -> None:
        for k in range(frames_per_stand):
            event = first if k == 0 else (camera_event() or "idle")
            if k:
                tick()
            emit(pos, facing, 0.0, event, plate)

    facing = -math.pi / 2
    stand(_to_grid(here), facing, start_plate, "start")
    for number, target in enumerate(order):
        goal = _plate_tile(target)
        route = _path(here, goal)
        # the player stands a while, then walks the route at the session's pace (a move
        # to any of the 8 tiles around takes one tile's time); walking frames are grabbed
        # where the player is at their time, the step is seen on the first frame after
        # the player entered the plate
        leave = state["time"] + float(clock_rng.uniform(0.0, MAX_PAUSE_SECONDS))
        travel = (len(route) - 1) * per_tile
        arrival = leave + travel  # the body reaches the plate's middle
        # with approach frames the plate toggles on the game tick the player enters its
        # tile, while the body on screen is still a tile short of its middle
        toggled = arrival - per_tile + float(approach_rng.uniform(0.0, FRAME_SECONDS))
        transit = _transit_points(route, walking_frames)
        for k, (pos, direction) in enumerate(transit):
            if approach_frame:  # where the body is then, before the frame before the step
                at = leave + (toggled - FRAME_SECONDS - leave) * (k + 1) / (len(transit) + 1)
                if at < frames[-1].time + FRAME_SECONDS \
                        or at > toggled - 2 * FRAME_SECONDS:
                    continue  # a short walk: no room for this frame before the step
                tick(at=at)
                pos = _along_route(route, (arrival - state["time"]) / per_tile)
            else:
                tick(at=leave + travel * (k + 1) / (len(transit) + 1))
            facing = direction
            emit(pos, facing, 0.8 if k % 2 == 0 else -0.8, "walking", None)
        last = np.subtract(_to_grid(route[-1]), _to_grid(route[-2]))
        facing = math.atan2(last[1], last[0])
        r, c = TOA_PLATES[target]
        if approach_frame:
            # a live loop's frames about the toggle (their own draws), a frame apart: the
            # frame before shows the plate untoggled, the body a frame's walk further back;
            # then the body walks on to the plate's middle
            tick(at=toggled - FRAME_SECONDS)
            while state["time"] < arrival - 1e-9:
                if state["time"] >= toggled - 1e-9 and state["step"] < number:
                    state["board"] = state["board"].press(r, c)
                    state["step"] = number
                emit(_along_route(route, (arrival - state["time"]) / per_tile), facing, 0.8,
                     "walking", None, approach_rng)
                tick()
            if state["step"] < number:  # (a body already at the plate when it toggled)
                state["board"] = state["board"].press(r, c)
                state["step"] = number
        else:
            tick(at=arrival + float(clock_rng.uniform(0.0, FRAME_SECONDS)))
        if not approach_frame:
            state["board"] = state["board"].press(r, c)
            state["step"] = number
        here = goal
        # a team-mate on plain floor wanders to another plain tile now and then
        for m, mate in enumerate(mates):
            if _plate_at((round(mate.tile[0] * 2), round(mate.tile[1] * 2))) is None and (
                rng.random() < 0.25
            ):
                occupied = {(round(f.tile[0] * 2), round(f.tile[1] * 2)) for f in mates}
                plain = [
                    (i, j) for i in _TILE_RANGE for j in _TILE_RANGE
                    if _plate_at((i, j)) is None and (i, j) not in occupied and (i, j) != here
                ]
                tile = plain[int(rng.integers(0, len(plain)))]
                mates[m] = replace(mate, tile=_to_grid(tile))
        stand(_to_grid(goal), facing, target, "stepped")
    return frames


def _cap_hidden(
    camera: Camera, frame_size: tuple[int, int], player: Figure, mates: list[Figure], ui: bool
) -> tuple[Figure, ...]:
    """The figures to draw: team-mates left out (for this frame) while all figures together
    would hide more than :data:`MAX_HIDDEN` plates; the player shrinks if alone too many."""
    width, height = frame_size
    viewport = (0, 0, int(width * 0.76), int(height * 0.76)) if ui else (0, 0, width, height)
    homography = camera.homography(frame_size)
    scratch = np.zeros((height, width, 3), np.uint8)

    def mask_of(figure: Figure) -> np.ndarray:
        return draw_figures(scratch, camera, [figure])

    def hidden_by(masks: list[np.ndarray]) -> tuple[int, ...]:
        union = np.bitwise_or.reduce(masks) if len(masks) > 1 else masks[0]
        return _hidden(plate_coverage(homography, union, viewport)[0])

    own = mask_of(player)
    kept = [(mate, mask_of(mate)) for mate in mates]
    while kept and len(hidden_by([own, *(m for _, m in kept)])) > MAX_HIDDEN:
        scores = [len(hidden_by([own, m])) + float(m.mean()) / 255 for _, m in kept]
        kept.pop(int(np.argmax(scores)))
    while len(hidden_by([own, *(m for _, m in kept)])) > MAX_HIDDEN and player.height > 0.5:
        player = replace(player, height=player.height * 0.9)
        own = mask_of(player)
    return (player, *(mate for mate, _ in kept))


def walk_through_sequences(n: int, seed: int, **kw: object) -> list[list[WalkFrame]]:
    """``n`` sessions with random start boards, seeds drawn from ``seed``."""
    rng = np.random.default_rng([seed, 7])
    return [
        walk_through(None, int(rng.integers(0, 2**31)), **kw)  # type: ignore[arg-type]
        for _ in range(n)
    ]


def main(argv: list[str] | None = None) -> int:
    import cv2

    parser = argparse.ArgumentParser(
        prog="python -m lab.walkthrough", description="Write one session's frames as PNGs."
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--board", default=None, help="start board, e.g. 111/0#0/110")
    parser.add_argument("--source", choices=("synthetic", "screenshot"), default="synthetic")
    parser.add_argument("--screenshot", type=Path, default=None)
    parser.add_argument("--pitch", type=float, nargs=2, default=(0.0, 68.0))
    parser.add_argument("--teammates", type=int, nargs=2, default=(0, 3))
    parser.add_argument("--start-on-plate", action="store_true")
    args = parser.parse_args(argv)
    frames = walk_through(
        args.board, args.seed, source=args.source, screenshot=args.screenshot,
        pitch_range=tuple(args.pitch), teammates=tuple(args.teammates),
        start_on_plate=args.start_on_plate,
    )
    args.out.mkdir(parents=True, exist_ok=True)
    lines = []
    for k, f in enumerate(frames):
        name = f"{k:02d}_{f.event}.png"
        cv2.imwrite(str(args.out / name), f.scene.frame)
        lines.append(
            f"{name} room={f.room_board} screen={f.screen_board} player={f.player_tile} "
            f"plate={f.player_plate} hidden={list(f.hidden)} out_of_view={list(f.out_of_view)} "
            f"yaw={f.camera.yaw_deg:.0f} pitch={f.camera.pitch_deg:.0f} "
            f"spacing={f.camera.spacing_px:.0f} coverage={np.round(f.scene.coverage, 2).tolist()}"
            if f.camera is not None else name
        )
    (args.out / "truth.txt").write_text("\n".join(lines) + "\n")
    print(f"{len(frames)} frames in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
