"""The session's memory apart from the live loop (assistant/session): frames are values,
the tracker asks for the whole window instead of grabbing it, each reading names the frame
it was made on, and the loop imports nothing of the reader's internals."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np

from assistant.session.camera import VIEW_MOVED_PX, ViewMotion
from assistant.session.frames import Frame
from assistant.session.tracker import FrameRead, LiveReader, WholeWindowNeeded
from lab.scene import SceneParams, render_scene

ROOT = Path(__file__).resolve().parent.parent


def room(board: str):
    return render_scene(SceneParams(seed=3, board=board, frame_size=(800, 600),
                                    centre=(400, 300), spacing=70.0))


def _region(reader: LiveReader, pixels: np.ndarray, at: float) -> Frame:
    rect = reader.region(pixels.shape[1], pixels.shape[0])
    assert rect is not None  # the corners are known: only the plates' region is grabbed
    return Frame(pixels[rect.top:rect.bottom, rect.left:rect.right], (rect.left, rect.top), at)


def test_the_tracker_asks_for_the_whole_window_and_names_the_frame_it_read() -> None:
    """The first frame (the whole window) is searched; the next, a grab around the plates,
    is read at the corners and named as read on that grab; after a step the tracked read
    changes and the tracker asks for the whole window instead of grabbing it, and the
    reading of the whole window handed to it is named as made on that frame, with the
    search in its trace."""
    before, after = room("111/0#0/110"), room("111/1#1/111")
    reader = LiveReader()
    whole = Frame(before.frame, (0, 0), 1.0)
    reader.region(800, 600)
    first = reader.step(whole)
    assert isinstance(first, FrameRead) and first.frame is whole
    assert not first.reading.abstain and reader.relocations == 1
    tracked_frame = _region(reader, before.frame, 2.0)
    tracked = reader.step(tracked_frame)
    assert isinstance(tracked, FrameRead) and tracked.frame is tracked_frame
    assert tracked.reading.trace[0].stage == "track"
    assert reader.relocations == 1  # no search of the whole window
    stepped = reader.step(_region(reader, after.frame, 3.0))
    assert isinstance(stepped, WholeWindowNeeded) and stepped.tracked is not None
    assert reader.relocations == 1  # asked for, not searched yet
    later = Frame(after.frame, (0, 0), 3.5)
    read = reader.read_whole(stepped, later)
    assert read.frame is later and read.frame.grabbed_at == 3.5
    assert read.reading.board_text == "111/1#1/111" and reader.relocations == 2
    assert any(step.stage == "search" for step in read.reading.trace)


def test_the_view_s_motion_is_measured_on_the_corners_read_in_both_frames() -> None:
    """A hidden corner's place is the fit's guess: the view's shift is measured on the
    corners read in both frames, and a frame without the ring forgets the view."""
    views = ViewMotion()
    corners = np.array([[100.0, 100.0], [300.0, 100.0], [300.0, 300.0], [100.0, 300.0]])
    views.note(corners)
    assert views.shift is None and views.views == 1
    guessed = corners.copy()
    guessed[0] += 6.0  # the top-left corner hidden, its place guessed 6 px off
    views.note(guessed, hidden=((0, 0),))
    assert views.shift == 0.0 and views.still and not views.camera_moved
    views.note(corners + VIEW_MOVED_PX + 1)
    assert views.camera_moved and views.views == 2
    views.note(None)
    assert views.corners is None and views.shift is None and views.moved_before


def test_the_live_loop_imports_nothing_of_the_reader_s_internals() -> None:
    """live.py is the loop alone: from the reading wing it imports only the vision
    package's public names; the session's package imports no Qt."""
    tree = ast.parse((ROOT / "assistant" / "live.py").read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not {name for name in imported if name and name.startswith("assistant.vision.")}
    for path in (ROOT / "assistant" / "session").glob("*.py"):
        assert "PyQt6" not in path.read_text(encoding="utf-8"), path.name
