"""Whether the floor behind a plate on screen shows that nothing stands on it
(assistant/vision/standing.py), and the committed frames that keep the rule
(tests/fixtures/standing): a plate set aside for part of it is told from its whole
diamond only on that evidence.

The rooms and figures here are drawn by this project's renderer: a statement about its
model of a standing body (legs, torso, head rising up the screen from the plate). The
real room's pictures are measured by ``bench-vision --real-room``."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from assistant.commands.detect import load_image
from assistant.demo_room import Camera, Figure
from assistant.puzzle import TOA_PLATES
from assistant.vision import read_frame, standing
from assistant.vision.geometry import GridGeometry
from assistant.vision.standing import Probe, StandingParams, nothing_stands, probe
from lab.commands.bench_vision import outcome_of
from lab.scene import SceneParams, render_scene

CELLS = list(TOA_PLATES)
GOLD = (40, 170, 215)  # BGR: clothes in a lit diamond's colour
FIXTURE_DIR = Path(__file__).resolve().parent / "fixtures" / "standing"
EXPECTED = json.loads((FIXTURE_DIR / "expected.json").read_text("utf-8"))


def _scene(yaw: float, pitch: float, figures: tuple[Figure, ...] = ()):
    camera = Camera(yaw_deg=yaw, pitch_deg=pitch, spacing_px=60.0, look_at=(1.0, 1.0))
    return render_scene(SceneParams(seed=3, board="111/0#0/110", camera=camera,
                                    figures=figures, ui=False, lookalikes=False,
                                    frame_size=(640, 480)))


def _probe(scene, plate: int, references: list[int] | None = None) -> Probe:
    """The probe of ``plate`` with every other plate (or ``references``) read truly."""
    others = [i for i in range(8) if i != plate] if references is None else references
    looks = {i: int(scene.lit[i]) for i in others}
    return probe(scene.frame, GridGeometry(3, 3, scene.homography), CELLS, plate, looks,
                 [plate])


@pytest.mark.parametrize("yaw", [0.0, 90.0, 200.0, 300.0])
def test_the_empty_floor_behind_the_plates_shows_nothing_standing(yaw):
    """Nearly every plate: the room's yellow statue by the middle plate of one side may
    stand in the band behind it, and then that plate is rightly not cleared."""
    scene = _scene(yaw, 55.0)
    probes = [_probe(scene, plate) for plate in range(8)]
    assert all(p.evidence for p in probes)
    assert sum(p.clear for p in probes) >= 7, [p.why for p in probes]


@pytest.mark.parametrize("yaw", [0.0, 35.0, 200.0])
@pytest.mark.parametrize("pitch", [45.0, 55.0, 68.0])
def test_a_figure_standing_on_a_plate_is_never_cleared(yaw, pitch):
    """Gold clothes (a lit diamond's colour) over each plate in turn: the body rising up
    the screen from the plate is never taken for the floor the ring predicts there."""
    for plate, (r, c) in enumerate(TOA_PLATES):
        figure = Figure(tile=(c, r), body=GOLD, legs=GOLD, height=0.85, seed=plate)
        found = _probe(_scene(yaw, pitch, (figure,)), plate)
        assert not found.clear, (plate, found.why)


@pytest.mark.parametrize("pitch", [45.0, 60.0])
def test_a_figure_in_front_reaching_over_the_plate_is_never_cleared(pitch):
    """A body standing on the floor in front of a plate (towards the camera: down the
    screen at this yaw) rises over the plate; the band in front of its frame shows it."""
    for plate, (r, c) in enumerate(TOA_PLATES[:5]):
        figure = Figure(tile=(c, r + 0.55), body=GOLD, legs=GOLD, height=0.9, seed=plate)
        scene = _scene(0.0, pitch, (figure,))
        assert scene.coverage[plate] > 0.2  # the body does hide part of the diamond
        found = _probe(scene, plate)
        assert not found.clear, (plate, found.why)


def test_a_camera_too_flat_for_a_body_to_rise_past_the_plate_is_no_evidence():
    found = _probe(_scene(20.0, 15.0), 0)
    assert not found.evidence and not found.clear


def test_one_plate_read_is_too_few_to_vouch_for_the_floor():
    scene = _scene(90.0, 55.0)
    assert _probe(scene, 0).clear
    assert not _probe(scene, 0, references=[1]).clear


def test_nothing_stands_reports_each_suspect_and_keeps_out_of_the_columns_over_others():
    """The references keep out of the screen column over every plate set aside: with a
    figure on plate 3 set aside too, plate 0 (beside it) is still judged on the rest."""
    r, c = TOA_PLATES[3]
    scene = _scene(90.0, 55.0, (Figure(tile=(c, r), body=GOLD, legs=GOLD, seed=1),))
    lit = np.array(scene.lit, np.int64)
    lit[[0, 3]] = -1
    probes = nothing_stands(scene.frame, GridGeometry(3, 3, scene.homography), CELLS,
                            [0, 3], lit, [0, 3])
    assert set(probes) == {0, 3}
    assert not probes[3].clear


def test_the_parameters_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        StandingParams().vouch_lab = 30.0  # type: ignore[misc]


# --- the committed frames ----------------------------------------------------------------


def _outcome(name: str) -> tuple[str, object]:
    entry = EXPECTED[name]
    frame = load_image(FIXTURE_DIR / entry["file"])
    reading = read_frame(frame)
    return outcome_of(reading, np.array(entry["plate_centres"]), np.array(entry["lit"])), \
        reading


def test_every_standing_fixture_is_listed_and_small():
    files = {p.name for p in FIXTURE_DIR.glob("*.png")}
    assert files == {entry["file"] for entry in EXPECTED.values()}
    assert sum((FIXTURE_DIR / f).stat().st_size for f in files) < 450_000


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_standing_fixtures_read_as_expected(name):
    outcome, reading = _outcome(name)
    if EXPECTED[name]["expect"] == "right":
        assert outcome == "right", [str(step) for step in reading.trace]
    else:
        assert outcome != "wrong", [str(step) for step in reading.trace]
        assert outcome != "right"  # the plates under the bodies are not read


def _forced(clear: bool):
    def fake(*args, **kwargs) -> Probe:
        return Probe(True, 1, 1, 0, clear, "forced by the test")
    return fake


def test_the_plain_far_plate_is_read_only_on_the_evidence(monkeypatch):
    """Without evidence that nothing stands on it the far plate stays unclear: it is the
    standing stage that reads the fixture whole."""
    monkeypatch.setattr(standing, "probe", _forced(False))
    outcome, _ = _outcome("plain-far-plate-through-jpeg")
    assert outcome == "unclear"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_no_plate_under_a_body_is_cleared(monkeypatch, name):
    """Every probe the reader makes on the fixtures: none clears a plate a drawn body is
    over (told whole, such a plate reads wrong), and the plain far plate is cleared."""
    made: list[tuple[int, Probe]] = []
    centres = np.array(EXPECTED[name]["plate_centres"])

    def recorded(bgr, geometry, cells, suspect, *args, **kwargs) -> Probe:
        found = probe(bgr, geometry, cells, suspect, *args, **kwargs)
        r, c = cells[suspect]
        at = geometry.to_image(np.array([[c, r]], np.float64))[0]
        made.append((int(np.argmin(np.hypot(*(centres - at).T))), found))
        return found

    monkeypatch.setattr(standing, "probe", recorded)
    _outcome(name)
    under = set(EXPECTED[name]["figure_over"])
    assert not [plate for plate, found in made if plate in under and found.clear]
    if EXPECTED[name]["expect"] == "right":
        assert any(found.clear for _, found in made)
