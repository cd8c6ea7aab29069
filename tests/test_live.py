"""The live loop without a screen: rendered rooms through fake windows and grabs."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from assistant.capture import Rect, WindowInfo, blank_frame_reason, find_window
from assistant.live import LiveLoop, LiveState, Stabilizer
from assistant.puzzle import Board, toa_board
from assistant.session.spot import BODY_SHADOW_SPACINGS, _behind_a_body
from assistant.session.tracker import RELOCATE_EVERY
from assistant.solver import solve
from assistant.vision.geometry import SAMPLE_RADIUS
from assistant.vision.reader import read_frame
from lab.scene import SceneParams, render_scene, screen_board


class FakeBackend:
    name = "fake"

    def __init__(self, windows: list[WindowInfo]) -> None:
        self.list = windows

    def unavailable(self) -> str | None:
        return None

    def windows(self) -> list[WindowInfo]:
        return list(self.list)

    def update(self, window: WindowInfo) -> WindowInfo | None:
        return next((w for w in self.list if w.handle == window.handle), None)


class FakeGrabber:
    """Grabs from ``frame`` as if it were the content of the (single) window of ``backend``."""

    def __init__(self, frame: np.ndarray, backend: FakeBackend | None = None) -> None:
        self.frame = frame
        self.backend = backend
        self.fail = False
        self.grabbed: list[Rect] = []

    def grab(self, rect: Rect) -> np.ndarray:
        if self.fail:
            raise OSError("display went away")
        self.grabbed.append(rect)
        if self.backend is None or not self.backend.list:
            return self.frame
        window = self.backend.list[0].rect
        top, left = rect.top - window.top, rect.left - window.left
        return self.frame[top : top + rect.height, left : left + rect.width]

    def desktop(self) -> Rect:
        return Rect(0, 0, 1920, 1080)


def room(board: str, **overrides) -> np.ndarray:
    params = SceneParams(
        **{"seed": 3, "board": board, "frame_size": (800, 600), "centre": (400, 300),
           "spacing": 70.0, **overrides}
    )
    return render_scene(params)


GAME = WindowInfo("h", "RuneLite - Player", Rect(200, 150, 800, 600))


def make_loop(frame: np.ndarray, windows=(GAME,)) -> tuple[LiveLoop, FakeGrabber]:
    backend = FakeBackend(list(windows))
    grabber = FakeGrabber(frame, backend)
    loop = LiveLoop(backend, grabber, "RuneLite|Old School RuneScape")
    return loop, grabber


def test_marks_land_on_the_plates_to_step_on_after_two_frames() -> None:
    scene = room("111/0#0/110")
    loop, grabber = make_loop(scene.frame)
    first = loop.tick()
    assert first.kind == "no-puzzle" and not first.marks  # nothing shown before 2 frames
    state = loop.tick()
    assert state.kind == "steps"
    seen = screen_board(scene)
    assert state.board.format() == seen
    expected = solve(toa_board(seen)).presses
    assert {(m.row, m.col) for m in state.marks} == {tuple(x) for x in np.argwhere(expected)}
    assert state.status == f"Puzzle found: step on {len(state.marks)} plates."
    for mark in state.marks:
        # The mark's centre is the plate's centre in screen coordinates.
        local = np.array(mark.centre) - (GAME.rect.left, GAME.rect.top)
        distances = np.linalg.norm(scene.plate_centres - local, axis=1)
        assert distances.min() < 3.0
        # The painted annulus stays outside the area the reader samples.
        inner = np.linalg.norm(mark.inner - mark.centre, axis=1)
        assert inner.min() > SAMPLE_RADIUS * 70.0
    assert grabber.grabbed[0] == GAME.rect  # located on a grab of the whole window


def test_changes_show_only_when_stable_and_marks_vanish_when_solved() -> None:
    loop, grabber = make_loop(room("111/0#0/110").frame)
    loop.tick()
    before = loop.tick()
    assert before.kind == "steps"
    grabber.frame = room("111/1#1/111").frame
    assert loop.tick().key == before.key  # one frame of the new state: old one still shown
    after = loop.tick()
    assert after.kind == "solved" and after.status == "All lit." and not after.marks


def test_a_held_change_keeps_its_marks_where_the_plates_stayed() -> None:
    loop, grabber = make_loop(room("111/0#0/110").frame)
    loop.tick()
    before = loop.tick()
    grabber.frame = room("011/0#1/110").frame  # a step; the camera did not move
    held = loop.tick()
    assert held.key == before.key and held.marks == before.marks


def test_marks_the_camera_moved_off_their_plates_leave_while_a_change_is_held() -> None:
    loop, grabber = make_loop(room("111/0#0/110").frame)
    loop.tick()
    before = loop.tick()
    assert before.marks
    # A step, and the camera follows the player by a plate spacing: the old marks would
    # lie between the moved plates, where the reader samples them.
    moved = room("011/0#1/110", centre=(470, 300))
    grabber.frame = moved.frame
    held = loop.tick()
    assert held.key == before.key and held.status == before.status
    assert held.marks == () and held.route_marks is None
    after = loop.tick()
    assert after.board.format() == screen_board(moved)
    origin = np.array([GAME.rect.left, GAME.rect.top])
    for mark in after.marks:
        distances = np.linalg.norm(moved.plate_centres - (np.array(mark.centre) - origin),
                                   axis=1)
        assert distances.min() < 3.0


def test_no_window_minimized_blank_and_failed_grabs_are_reported() -> None:
    loop, grabber = make_loop(room("111/0#0/110").frame, windows=())
    loop.tick()
    state = loop.tick()
    assert state.kind == "no-window" and "RuneLite" in state.status

    minimized = WindowInfo("h", "RuneLite", Rect(0, 0, 800, 600), minimized=True)
    loop, _ = make_loop(room("111/0#0/110").frame, windows=(minimized,))
    loop.tick()
    assert loop.tick().status == "The game window is minimized."

    loop, grabber = make_loop(np.zeros((600, 800, 4), np.uint8))
    loop.tick()
    assert "black" in loop.tick().status

    loop, grabber = make_loop(room("111/0#0/110").frame)
    grabber.fail = True
    loop.tick()
    failed = loop.tick()
    assert failed.kind == "error" and "retrying" in failed.status
    grabber.fail = False
    loop.tick()
    assert loop.tick().kind == "steps"  # survives failed grabs


def test_the_window_is_followed_when_it_moves() -> None:
    scene = room("111/0#0/110")
    loop, _ = make_loop(scene.frame)
    loop.tick()
    first = loop.tick()
    loop.backend.list = [WindowInfo("h", GAME.title, Rect(450, 90, 800, 600))]
    moved = loop.tick()  # same content: shown at once at the new place
    assert moved.kind == "steps"
    shift = np.array(moved.marks[0].centre) - np.array(first.marks[0].centre)
    assert np.allclose(shift, (250, -60), atol=0.5)


def test_a_window_partly_off_screen_is_read_where_visible() -> None:
    scene = room("111/0#0/110")
    window = WindowInfo("h", "RuneLite", Rect(1400, 700, 800, 600))  # desktop is 1920x1080
    loop, grabber = make_loop(scene.frame, windows=(window,))
    loop.tick()
    state = loop.tick()
    assert grabber.grabbed[0] == Rect(1400, 700, 520, 380)
    assert state.kind in ("steps", "no-puzzle")  # part of the room may be cut off
    loop.backend.list = [WindowInfo("h", "RuneLite", Rect(2000, 0, 800, 600))]
    loop.tick()
    assert loop.tick().status == "The game window is off the screen."


def test_profile_rectangle_limits_the_grab() -> None:
    from assistant.profile import CaptureTarget, toa_default_profile

    scene = room("111/0#0/110")
    loop, grabber = make_loop(scene.frame)
    base = toa_default_profile()
    profile = type(base)(
        base.grid,
        None,
        CaptureTarget(base.capture.window_title, (10, 20, 300, 200)),
        base.appearance,
        base.name,
    )
    loop.reader.profile = profile
    loop.tick()
    assert grabber.grabbed[-1] == Rect(210, 170, 300, 200)


def test_once_found_only_the_region_around_the_plates_is_grabbed() -> None:
    scene = room("111/0#0/110")
    loop, grabber = make_loop(scene.frame)
    loop.tick()
    first = loop.tick()
    assert grabber.grabbed[0] == GAME.rect  # located on the whole window
    region = grabber.grabbed[-1]
    assert region.width * region.height < GAME.rect.width * GAME.rect.height / 4
    later = [loop.tick() for _ in range(30)]
    assert all(state.key == first.key for state in later)
    assert all(
        np.allclose([m.centre for m in state.marks], [m.centre for m in first.marks], atol=0.5)
        for state in later
    )
    full = [r for r in grabber.grabbed[2:] if r == GAME.rect]
    # the still view passes the periodic check on the small grab: no search of the window
    assert full == []
    grabber.frame = room("111/1#1/111").frame  # a step changes the board: re-located at once
    loop.tick()
    assert loop.tick().kind == "solved"


def test_the_periodic_check_searches_again_only_when_a_diamond_is_off_its_place(
    monkeypatch,
) -> None:
    """Every RELOCATE_EVERY frames the diamonds are checked where the corners place them
    (vision.locate.ring_in_place, on the small grab); only a failed check costs a search
    of the whole window (a camera creeping away with the board read the same)."""
    import assistant.session.tracker as live

    scene = room("111/0#0/110")
    checked: list[int] = []
    in_place = [True]

    def check(frame, geometry, cells):
        checked.append(len(cells))
        assert frame.shape[0] < GAME.rect.height  # the small grab, not the window
        return in_place[0]

    monkeypatch.setattr(live, "ring_in_place", check)
    loop, grabber = make_loop(scene.frame)
    loop.tick()
    loop.tick()
    start = len(grabber.grabbed)
    for _ in range(RELOCATE_EVERY):
        loop.tick()
    assert checked == [8] and GAME.rect not in grabber.grabbed[start:]
    in_place[0] = False
    start = len(grabber.grabbed)
    states = [loop.tick() for _ in range(RELOCATE_EVERY)]
    assert len(checked) == 2 and grabber.grabbed[start:].count(GAME.rect) == 1
    assert all(state.kind == "steps" for state in states)


def test_own_marks_do_not_change_the_reading() -> None:
    scene = room("100/1#0/011")
    loop, _ = make_loop(scene.frame)
    loop.tick()
    state = loop.tick()
    assert state.marks
    # Paint each mark as the overlay does: the annulus in magenta at 60% opacity.
    annulus = np.zeros(scene.frame.shape[:2], np.uint8)
    origin = np.array([GAME.rect.left, GAME.rect.top])
    for mark in state.marks:
        ring = np.zeros_like(annulus)
        cv2.fillPoly(ring, [np.round(mark.outer - origin).astype(np.int32)], 1)
        cv2.fillPoly(ring, [np.round(mark.inner - origin).astype(np.int32)], 0)
        annulus |= ring
    blended = scene.frame.copy()
    inside = annulus.astype(bool)
    magenta = np.array([255, 0, 255, 255][: blended.shape[2]], np.float64)
    blended[inside] = (0.4 * blended[inside] + 0.6 * magenta).astype(np.uint8)
    again = read_frame(blended)
    assert not again.abstain and again.board == read_frame(scene.frame).board


def test_stabilizer_ignores_a_flickering_reading() -> None:
    stabilizer = Stabilizer(2)
    a = LiveState("steps", "a")
    b = LiveState("solved", "b")
    assert stabilizer.push(a).status != "a"
    assert stabilizer.push(a).status == "a"
    for _ in range(5):
        assert stabilizer.push(b).status == "a"
        assert stabilizer.push(a).status == "a"


def test_stabilizer_shows_a_board_the_history_continued_at_once_after_a_blank() -> None:
    """The reader missing every other frame (a steep camera, bodies on the plates) kept
    the overlay blank: each reading was held back a frame and each miss blanked it again.
    A certain board the session's history explained from the boards before is shown at
    once after a blank; one the history could not explain (the frame alone decided) is
    held back as before, and so is the first board of a session."""
    board = Board.parse("111/0#0/110")
    lost = LiveState("no-puzzle", "Puzzle not in view.")
    continued = LiveState("steps", "c", board=board, continued=True)
    alone = LiveState("steps", "a", board=board)

    stabilizer = Stabilizer(2)
    assert stabilizer.push(continued).kind == "no-puzzle"  # a session's first board waits
    assert stabilizer.push(continued) is continued
    stabilizer.push(lost)
    assert stabilizer.push(lost).kind == "no-puzzle"
    assert stabilizer.push(continued) is continued  # back at once
    assert stabilizer.push(lost) is continued  # one miss is held back as ever
    assert stabilizer.push(continued) is continued

    stabilizer = Stabilizer(2)
    stabilizer.push(alone)
    stabilizer.push(alone)
    stabilizer.push(lost)
    stabilizer.push(lost)
    assert stabilizer.push(alone).kind == "no-puzzle"  # the frame alone: held back
    assert stabilizer.push(alone) is alone


def test_a_room_read_every_other_frame_keeps_its_marks_after_a_blank() -> None:
    """Through the live loop: the room read, then lost for two frames (the overlay goes
    blank: nothing tells where the plates are), then read and lost in turn. The board
    follows from the one seen before, so each frame that reads it shows its marks."""
    scene = room("111/0#0/110")
    noise = np.random.default_rng(5).integers(0, 256, scene.frame.shape, np.uint8)
    loop, grabber = make_loop(scene.frame)
    loop.tick()
    assert loop.tick().kind == "steps"
    grabber.frame = noise
    loop.tick()
    assert loop.tick().kind == "no-puzzle"
    for _ in range(3):
        grabber.frame = scene.frame
        shown = loop.tick()
        assert shown.kind == "steps" and len(shown.marks) == 3
        grabber.frame = noise
        loop.tick()


def test_find_window_by_pattern_skips_our_own_windows() -> None:
    windows = [
        WindowInfo(1, "ToA Light Assistant", Rect(0, 0, 1, 1)),
        WindowInfo(2, "Old School RuneScape", Rect(0, 0, 1, 1)),
    ]
    assert find_window("runescape|assistant", windows, exclude=("ToA Light Assistant",)).handle == 2
    assert find_window("[unclosed", [WindowInfo(3, "a [unclosed b", Rect(0, 0, 1, 1))]).handle == 3
    assert find_window("nothing", windows) is None


@pytest.mark.parametrize("value", [0, 128])
def test_flat_frames_are_explained(value: int) -> None:
    assert blank_frame_reason(np.full((50, 50, 4), value, np.uint8))
    assert blank_frame_reason(room("111/0#0/110").frame) is None


def test_a_failed_grab_while_locating_again_is_a_failed_grab_not_an_exception() -> None:
    """Found by the soak run (issue 12): the region grab succeeds, the whole-window grab
    that locates the grid again raises; that error used to escape the loop."""
    scene = room("111/0#0/110")
    loop, grabber = make_loop(scene.frame)
    loop.tick()
    assert loop.tick().kind == "steps"
    region = grabber.grabbed[-1]
    real_grab = grabber.grab

    def whole_window_fails(rect: Rect) -> np.ndarray:
        if rect == GAME.rect:
            raise OSError("display went away")
        noise = np.random.default_rng(0).integers(0, 255, (rect.height, rect.width, 3))
        return noise.astype(np.uint8)  # the plates gone from the region: locate again

    grabber.grab = whole_window_fails
    state = loop.observe()
    assert state.kind == "error" and "retrying" in state.status and loop.failures == 1
    grabber.grab = real_grab
    assert region.width < GAME.rect.width
    loop.tick()
    assert loop.tick().kind == "steps"


class _TickingGrabber(FakeGrabber):
    """A grabber on a clock that each grab moves on by ``grab_seconds``."""

    def __init__(self, frame: np.ndarray, backend: FakeBackend, grab_seconds: float) -> None:
        super().__init__(frame, backend)
        self.now = 0.0
        self.grab_seconds = grab_seconds
        self.whole_grabbed_at: list[float] = []

    def grab(self, rect: Rect) -> np.ndarray:
        self.now += self.grab_seconds
        if rect == GAME.rect:
            self.whole_grabbed_at.append(self.now)
        return super().grab(rect)


def _timed_loop(frame: np.ndarray, grab_seconds: float):
    """A loop on a fake clock, and the ``seconds`` its history is told per reading."""
    backend = FakeBackend([GAME])
    grabber = _TickingGrabber(frame, backend, grab_seconds)
    loop = LiveLoop(backend, grabber, "RuneLite", clock=lambda: grabber.now)
    told: list[float | None] = []
    update = loop.history.update

    def spy(reading, seconds=None, *args, **kwargs):
        told.append(seconds)
        return update(reading, seconds, *args, **kwargs)

    loop.history.update = spy
    return loop, grabber, told


def test_the_time_between_readings_is_the_time_between_their_pictures() -> None:
    """A slow read (every fallback of the search, on a loaded PC) must not shorten the
    time to the next picture: the steps allowed between two readings are bounded by the
    time between their grabs, not between the ends of their reads."""
    loop, grabber, told = _timed_loop(room("111/0#0/110").frame, grab_seconds=0.1)
    loop.tick()
    loop.tick()
    read = loop.reader.step

    def slow_read(*args, **kwargs):
        result = read(*args, **kwargs)
        grabber.now += 0.7
        return result

    loop.reader.step = slow_read
    loop.tick()  # grabbed 0.1 s after the frame before, read in 0.7 s
    loop.reader.step = read
    loop.tick()  # grabbed at once after that read: 0.8 s after the picture before
    assert told[-2:] == [pytest.approx(0.1), pytest.approx(0.8)]


def test_a_reading_made_on_the_reader_s_own_grab_takes_that_grab_s_time() -> None:
    """When the tracked read sees a change, the reader grabs the whole window to search
    again and reads that picture: the reading's time is that grab's."""
    loop, grabber, told = _timed_loop(room("111/0#0/110").frame, grab_seconds=0.05)
    loop.tick()
    loop.tick()
    before = grabber.now  # the last reading's picture (a tracked grab)
    grabber.frame = room("111/1#1/111").frame  # a step: the tracked read changes
    loop.tick()
    assert loop.last_observed.reading.board_text == "111/1#1/111"
    assert grabber.whole_grabbed_at[-1] == pytest.approx(before + 0.1)
    assert told[-1] == pytest.approx(0.1)  # to the whole grab, not the tracked one (0.05)


class _User32:
    """Records SetWindowDisplayAffinity calls; answers as Windows would."""

    def __init__(self, result: int = 1) -> None:
        self.calls: list[tuple[int, int]] = []
        self.result = result

    def SetWindowDisplayAffinity(self, hwnd: int, affinity: int) -> int:
        self.calls.append((hwnd, affinity))
        return self.result


class _DpiCalls:
    """Answers DPI-awareness calls as a Windows version would (``None``: no such call),
    recording them."""

    def __init__(self, context=None, shcore=None, system=None) -> None:
        self.calls: list[tuple[str, object]] = []
        self.answers = {"SetProcessDpiAwarenessContext": context,
                        "SetProcessDpiAwareness": shcore, "SetProcessDPIAware": system}

    def __getattr__(self, name):
        answer = self.__dict__["answers"].get(name)
        if answer is None:
            raise AttributeError(name)

        def call(*args):
            self.calls.append((name, getattr(args[0], "value", args[0]) if args else None))
            return answer
        return call


def test_windows_rectangles_are_asked_for_in_physical_pixels_first() -> None:
    """At 125-150% display scaling a process that is not DPI aware is told scaled-down
    window rectangles while mss grabs physical pixels: the process is made per-monitor
    aware (v2 where Windows has it, else v1, else system-wide) before any window is
    measured; an awareness already set (Qt did it) is left as it is."""
    import ctypes

    from assistant.capture import make_dpi_aware

    v2 = _DpiCalls(context=1)
    assert make_dpi_aware(platform="win32", user32=v2, shcore=_DpiCalls()) == "per-monitor v2"
    assert v2.calls == [("SetProcessDpiAwarenessContext", ctypes.c_void_p(-4).value)]
    # Windows 8.1 (no context call); Windows 10 1607 (no v2: the call fails)
    for user32 in (_DpiCalls(system=1), _DpiCalls(context=0, system=1)):
        shcore = _DpiCalls(shcore=0)  # S_OK
        assert make_dpi_aware(platform="win32", user32=user32, shcore=shcore) == "per-monitor"
        assert shcore.calls == [("SetProcessDpiAwareness", 2)]
        assert ("SetProcessDPIAware", None) not in user32.calls
    # Windows 7: neither newer call exists
    old = _DpiCalls(system=1)
    assert make_dpi_aware(platform="win32", user32=old, shcore=_DpiCalls()) == "system"
    assert old.calls == [("SetProcessDPIAware", None)]
    # already aware (Qt's application set v2 first): both calls refuse, nothing else tried
    already, refused = _DpiCalls(context=0, system=1), _DpiCalls(shcore=0x80070005)
    assert make_dpi_aware(platform="win32", user32=already, shcore=refused) is None
    assert [name for name, _ in already.calls] == ["SetProcessDpiAwarenessContext"]
    untouched = _DpiCalls(context=1, shcore=0, system=1)
    assert make_dpi_aware(platform="linux", user32=untouched, shcore=untouched) is None
    assert make_dpi_aware(platform="darwin", user32=untouched, shcore=untouched) is None
    assert untouched.calls == []


def test_the_window_backend_makes_the_process_dpi_aware_before_listing(monkeypatch) -> None:
    from assistant import capture

    order: list[str] = []
    monkeypatch.setattr(capture, "make_dpi_aware", lambda: order.append("aware"))
    monkeypatch.setattr(capture, "platform_problem", lambda: None)
    backend = capture.PyWinCtlBackend()
    backend.unavailable()
    backend.unavailable()
    assert order == ["aware"]


def test_the_overlay_is_left_out_of_captures_only_where_windows_can() -> None:
    """WDA_EXCLUDEFROMCAPTURE (0x11) from Windows 10 2004 (build 19041); older builds would
    treat it as WDA_MONITOR and put a black box in the capture, so they are not asked;
    other systems have no such switch."""
    from assistant.capture import exclude_from_capture

    user32 = _User32()
    assert exclude_from_capture(42, platform="win32", windows_build=22631, user32=user32)
    assert user32.calls == [(42, 0x11)]
    older = _User32()
    assert not exclude_from_capture(42, platform="win32", windows_build=18363, user32=older)
    assert older.calls == []
    refused = _User32(result=0)
    assert not exclude_from_capture(7, platform="win32", windows_build=19041, user32=refused)
    assert refused.calls == [(7, 0x11)]
    assert not exclude_from_capture(42, platform="linux", user32=user32)
    assert not exclude_from_capture(42, platform="darwin", user32=user32)
    assert len(user32.calls) == 1


def test_a_plate_just_above_another_hidden_one_of_its_view_is_behind_a_body() -> None:
    """The spot's samples (x, y, view, 0.3 of a spacing, moved): in a column of hidden
    plates of one view the lowest is where a body stands; the plates above it, up to
    BODY_SHADOW_SPACINGS, may be hidden by that body alone. Another view, a plate beside
    it or one too far up the screen is not behind it."""
    near = 0.3 * 50  # a spacing of 50 px
    samples = np.array([
        (365, 243, 1, near, 0),  # feet
        (366, 208, 1, near, 0),  # the plate behind
        (365, 179, 1, near, 0),  # and the one behind that
        (365, 60, 1, near, 0),  # far up the screen above them: another body's
        (365, 150, 2, near, 0),  # another view
        (365 + near + 1, 200, 3, near, 0),  # beside the feet of view 3, not behind
        (365, 230, 3, near, 0),
    ], float)
    assert BODY_SHADOW_SPACINGS * 50 < 179 - 60
    assert _behind_a_body(samples).tolist() == [False, True, True, False, False, False,
                                               False]



def test_every_live_reading_says_which_search_answered() -> None:
    """The reading the loop acts on carries its trace: on a search, every search tried
    and the one that answered; on a tracked frame, that it was read at the corners the
    last search placed (and the reader's own notes after)."""
    scene = room("111/0#0/110")
    loop, _grabber = make_loop(scene.frame)
    loop.tick()
    searched = loop.last_observed.reading
    texts = [str(step) for step in searched.trace]
    # a session's first search goes on to five diamonds if six are not found
    assert "search: a fresh search (on five diamonds too): read" in texts
    assert texts[-1] == "search: answered by a fresh search (on five diamonds too)"
    # the reader's own answer, once: the read at the new corners made to compare with
    # is not part of it
    assert [step.stage for step in searched.trace].count("answer") == 1
    loop.tick()
    tracked = loop.last_observed.reading
    assert str(tracked.trace[0]) == "track: read at the corners the last search placed"
    assert tracked.trace[-1].stage == "answer"


def test_a_frame_nothing_reads_says_every_search_tried() -> None:
    """Out of view: each search the loop tried is named with why it abstained, and
    that none read the ring."""
    scene = room("111/0#0/110")
    loop, grabber = make_loop(scene.frame)
    loop.tick()
    grabber.frame = np.random.default_rng(0).integers(0, 256, scene.frame.shape, np.uint8)
    loop.tick()
    reading = loop.last_observed.reading
    texts = [str(step) for step in reading.trace]
    assert texts[-1] == "search: no search read the ring"
    assert any(text.startswith("search: a fresh search") and "abstained" in text
               for text in texts)
