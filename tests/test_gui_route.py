"""The walking route on screen: the overlay's painting of the next plate, the path and the
waypoints, and the steps panel wired into the control window (toggle, feed, fallback)."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from assistant.capture import Rect
from assistant.gui.app import ControlWindow
from assistant.gui.overlay import Overlay, parse_colour
from assistant.gui.session import OverlaySession
from assistant.live import LiveLoop, LiveState
from assistant.settings import Settings, load_settings
from lab.scene import SceneParams, render_scene

AREA = Rect(0, 0, 800, 600)
BOARD = "101/0#0/111"  # from the entrance: two waypoints before the first step


class NoWindows:
    name = "none"

    def unavailable(self):
        return None

    def windows(self):
        return []

    def update(self, window):
        return None


class OneFrame:
    def __init__(self, frame):
        self.frame = frame

    def grab(self, rect):
        return self.frame


def route_state(board: str = BOARD, **options) -> LiveState:
    scene = render_scene(
        SceneParams(seed=5, board=board, frame_size=(800, 600), centre=(400, 300),
                    spacing=70.0)
    )
    loop = LiveLoop(NoWindows(), OneFrame(scene.frame), "x", **options)
    return loop.process(scene.frame, AREA)


def _ring_point(mark) -> tuple[int, int]:
    """A pixel in the middle of a mark's annulus."""
    x = (mark.outer[0][0] + mark.inner[0][0]) / 2
    y = (mark.outer[0][1] + mark.inner[0][1]) / 2
    return round(x), round(y)


def _path_point(state: LiveState) -> tuple[int, int]:
    """The middle of the longest straight piece of the path."""
    pieces = [(a, b) for line in state.route_marks.path for a, b in itertools.pairwise(line)]
    a, b = max(pieces, key=lambda ab: np.linalg.norm(ab[1] - ab[0]))
    x, y = (a + b) / 2
    return round(x), round(y)


@pytest.fixture
def overlay(qtbot):
    widget = Overlay(parse_colour("#FF00FF80"))  # half transparent: strength shows in alpha
    qtbot.addWidget(widget)
    yield widget
    widget.hide()


def test_overlay_draws_the_next_plate_strongest_the_path_and_the_waypoints(overlay) -> None:
    state = route_state()
    assert state.route_marks is not None and len(state.route_marks.waypoints) == 2
    overlay.show_state(state)
    image = overlay.grab().toImage()
    next_plate = state.route_marks.next_plate
    strong = [m for m in state.marks if (m.row, m.col) == next_plate]
    others = [m for m in state.marks if (m.row, m.col) != next_plate]
    assert len(strong) == 1 and others
    strong_alpha = image.pixelColor(*_ring_point(strong[0])).alpha()
    for mark in others:
        assert image.pixelColor(*_ring_point(mark)).alpha() < strong_alpha - 60
    path = image.pixelColor(*_path_point(state))
    assert path.alpha() > 200 and (path.red(), path.green(), path.blue()) == (255, 0, 255)
    for diamond in state.route_marks.waypoint_marks:
        for corner in diamond:
            assert image.pixelColor(*(round(v) for v in corner)).alpha() > 100
    for mark in state.marks:  # the plates themselves stay clear
        assert image.pixelColor(*(int(v) for v in mark.centre)).alpha() == 0


def test_overlay_without_the_route_draws_marks_only(overlay) -> None:
    with_route = route_state()
    state = route_state(show_route=False)
    assert state.route_marks is None
    overlay.show_state(state)
    image = overlay.grab().toImage()
    assert image.pixelColor(*_path_point(with_route)).alpha() == 0
    alphas = {image.pixelColor(*_ring_point(m)).alpha() for m in state.marks}
    assert len(alphas) == 1  # no plate stands out


def test_undecided_marks_stay_dashed_outlines(overlay) -> None:
    state = route_state()
    mark = state.marks[0]
    undecided = type(mark)(mark.row, mark.col, 0, mark.centre, mark.outer, mark.inner, False)
    dashed = LiveState("uncertain", "…", (undecided,), window=AREA)
    overlay.show_state(dashed)
    image = overlay.grab().toImage()
    assert image.pixelColor(*_ring_point(undecided)).alpha() == 0  # not filled
    outline = [image.pixelColor(round(x), round(y)).alpha() for x, y in mark.outer]
    assert max(outline) > 0


# -- the steps panel in the control window ---------------------------------------------------
def make_window(qtbot, tmp_path: Path, settings: Settings | None = None) -> ControlWindow:
    window = ControlWindow(settings or Settings(), backend=NoWindows(),
                           settings_file=tmp_path / "s.toml")
    qtbot.addWidget(window)
    return window


def test_steps_panel_toggle_shows_hides_and_persists(qtbot, tmp_path: Path) -> None:
    window = make_window(qtbot, tmp_path)
    assert not window.steps_panel.isVisible() and not window.panel_toggle.isChecked()
    window.panel_toggle.setChecked(True)
    assert window.steps_panel.isVisible()
    assert load_settings(tmp_path / "s.toml")[0].show_steps_panel is True
    window.panel_toggle.setChecked(False)
    assert not window.steps_panel.isVisible()
    assert load_settings(tmp_path / "s.toml")[0].show_steps_panel is False
    # a new window starts as the file says, at the place the panel was dragged to
    window.steps_panel.moved.emit(123, 45)
    saved = load_settings(tmp_path / "s.toml")[0]
    assert saved.steps_panel_position == (123, 45)
    again = make_window(qtbot, tmp_path, saved.with_changes(show_steps_panel=True))
    assert again.panel_toggle.isChecked() and again.steps_panel.isVisible()
    assert (again.steps_panel.x(), again.steps_panel.y()) == (123, 45)
    again.steps_panel.hide()


def test_a_state_with_a_route_updates_the_panel(qtbot, tmp_path: Path) -> None:
    window = make_window(qtbot, tmp_path)
    window.panel_toggle.setChecked(True)
    state = route_state()
    window.show_state(state)
    lines = window.steps_panel.text_lines()
    assert lines[0] == f"{len(state.route.steps)} steps left."
    assert lines[1].startswith("first click") and "(no plate)" in lines[1]
    view = window.steps_panel.view()
    assert view.next_plate == state.route_marks.next_plate
    assert view.path == state.route.points()[:4]  # entrance, 2 waypoints, the plate
    window.overlay.hide()
    window.steps_panel.hide()


@pytest.mark.parametrize(
    ("how", "words"),
    [
        ("black", "exclusive fullscreen"),
        ("overlay-fails", "overlay could not be shown"),
        ("wayland", "Wayland"),
    ],
)
def test_the_panel_is_the_fallback_when_the_overlay_cannot_be_drawn(
    qtbot, tmp_path: Path, monkeypatch, how: str, words: str
) -> None:
    window = make_window(qtbot, tmp_path)
    assert not window.steps_panel.isVisible()
    state = route_state()
    if how == "black":
        window.show_state(state)
        black = LiveState("blank", "The game window captures as black: switch the game from "
                          "exclusive fullscreen to windowed or borderless, and keep it on "
                          "screen.", window=AREA)
        window.show_state(black)
    elif how == "overlay-fails":
        # the session drives the overlay, then tells the window; here the overlay refuses
        session = OverlaySession("x", backend=NoWindows(), overlay=window.overlay, parent=window)
        session.state_changed.connect(window.show_state)
        window.session = session

        def refuse(state):
            raise RuntimeError("the window system refused the overlay")

        monkeypatch.setattr(window.overlay, "show_state", refuse)
        session._show(state)
    else:
        # capture.platform_problem's sentence on a Wayland session without XWayland
        monkeypatch.setattr("assistant.gui.app.platform_problem",
                            lambda: "This is a Wayland session, which does not let ...")
        window.show_state(state)
    assert window.steps_panel.isVisible()
    assert words in window.status.text() and "steps panel" in window.status.text()
    assert not (tmp_path / "s.toml").exists()  # a fallback, not the player's choice
    if how != "black":
        assert window.steps_panel.text_lines()[0].endswith("steps left.")
    # once the overlay can be drawn again the panel goes away (the player did not ask)
    monkeypatch.undo()
    if window.session is not None:
        window.session._show(state)
    else:
        window.show_state(state)
    assert not window.steps_panel.isVisible()
    assert "steps panel" not in window.status.text()
    window.stop_overlay()
