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
from conftest import shared_file

from assistant.commands.detect import load_image
from assistant.demo_room import Camera, Figure
from assistant.puzzle import TOA_PLATES
from assistant.vision import read_frame, standing, unread
from assistant.vision.geometry import GridGeometry
from assistant.vision.standing import Probe, StandingParams, nothing_stands, probe
from assistant.vision.whole import read_whole
from lab.commands.bench_vision import outcome_of, real_room_case
from lab.scene import SceneParams, render_scene

CELLS = list(TOA_PLATES)
GOLD = (40, 170, 215)  # BGR: clothes in a lit diamond's colour
UNLIT_GOLD = (22, 131, 162)  # ... and in an unlit one's
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


@pytest.mark.parametrize("yaw", [0.0, 70.0, 200.0])
@pytest.mark.parametrize("pitch", [0.0, 15.0, 30.0])
def test_at_a_flat_camera_an_empty_plate_is_told_its_look_from_itself(yaw, pitch):
    """Too flat for a body to rise past the plate's frame, the plate itself is compared
    with the plates read, point by point, as each look: an empty one is told its own."""
    scene = _scene(yaw, pitch)
    probes = [_probe(scene, plate) for plate in range(8)]
    assert all("over it" in p.why for p in probes)
    assert all(p.look in (None, int(scene.lit[plate])) for plate, p in enumerate(probes))
    assert sum(p.clear and p.look == scene.lit[plate] for plate, p in enumerate(probes)) >= 7


@pytest.mark.parametrize("pitch", [0.0, 15.0, 30.0, 36.0])
def test_at_a_flat_camera_a_body_over_the_diamond_is_never_told_a_look(pitch):
    """A figure over each plate, in a lit or an unlit diamond's gold or in any colours,
    standing on it or beside it: seen from above it is unlike a plate of either look,
    and the plate is not told (nor ever told wrong)."""
    rng = np.random.default_rng(int(pitch))
    for plate, (r, c) in enumerate(TOA_PLATES):
        for number, (dx, dy) in enumerate(((0.0, 0.0), (0.15, 0.1), (-0.2, 0.2))):
            clothes = (GOLD, UNLIT_GOLD, None)[(plate + number) % 3]
            figure = Figure(tile=(c + dx, r + dy), body=clothes, legs=clothes, height=0.85,
                            seed=int(rng.integers(1 << 30)))
            scene = _scene(float(rng.uniform(0, 360)), pitch, (figure,))
            found = _probe(scene, plate)
            assert found.look in (None, int(scene.lit[plate])), (plate, found.why)
            if scene.coverage[plate] > 0.4:
                assert not found.clear, (plate, found.why)


def test_a_plate_too_small_on_screen_to_be_seen_whole_is_no_evidence():
    camera = Camera(yaw_deg=20.0, pitch_deg=10.0, spacing_px=12.0, look_at=(1.0, 1.0))
    scene = render_scene(SceneParams(seed=3, board="111/0#0/110", camera=camera, ui=False,
                                     lookalikes=False, frame_size=(320, 240)))
    found = _probe(scene, 0)
    assert not found.evidence and not found.clear and found.look is None


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


# --- the real room at flat cameras -----------------------------------------------------

FLAT_ROOM = json.loads((FIXTURE_DIR / "real-room-flat-cameras.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def real_screenshot() -> Path:
    return shared_file("toa", "room_topdown.png")


@pytest.mark.parametrize("name", sorted(FLAT_ROOM["pictures"]))
def test_a_plain_plate_at_a_flat_camera_is_told_from_itself(real_screenshot, name):
    entry = FLAT_ROOM["pictures"][name]
    case = real_room_case(real_screenshot, entry["real_room_seed"])
    reading = read_frame(case.frame)
    trace = [str(step) for step in reading.trace]
    assert outcome_of(reading, case.centres, case.lit) == "right", trace
    assert reading.board.format() == entry["board"]
    assert any(f"standing: {entry['told_over_it']} nothing stands on it: over it: a plate"
               in step for step in trace), trace


def test_without_the_plate_itself_the_flat_cameras_leave_it_unclear(real_screenshot,
                                                                   monkeypatch):
    """The same pictures with the standing stage giving no evidence: the plate stays
    unclear, so it is the comparison over the plate that reads them."""
    monkeypatch.setattr(standing, "probe", _forced(False))
    for entry in FLAT_ROOM["pictures"].values():
        case = real_room_case(real_screenshot, entry["real_room_seed"])
        assert outcome_of(read_frame(case.frame), case.centres, case.lit) == "unclear"


def test_a_whole_diamond_reading_otherwise_than_the_plate_seen_over_it_is_not_told(
        real_screenshot, monkeypatch):
    """Two readings of one plate that disagree leave it unclear: the look seen over the
    plate point by point (forced here to the wrong one) and its whole diamond's."""
    entry = FLAT_ROOM["pictures"]["real-room-17"]
    case = real_room_case(real_screenshot, entry["real_room_seed"])
    right = read_frame(case.frame)
    r, c = (int(x) - 1 for x in entry["told_over_it"].strip("()").split(","))
    truth = int(right.board.format().replace("/", "").replace("#", "")[
        TOA_PLATES.index((r, c))] == "1")

    def wrong_look(*args, **kwargs) -> Probe:
        return Probe(True, 1, 1, 0, True, "forced by the test", 0, 1 - truth)

    monkeypatch.setattr(standing, "probe", wrong_look)
    reading = read_frame(case.frame)
    assert outcome_of(reading, case.centres, case.lit) == "unclear"
    assert (r, c) in reading.unclear


NO_SECTORS = json.loads(
    (FIXTURE_DIR / "real-room-no-plate-read-by-its-sectors.json").read_text("utf-8"))


@pytest.mark.parametrize("name", sorted(NO_SECTORS["pictures"]))
def test_with_no_plate_read_by_its_sectors_the_others_told_whole_are_the_references(
        real_screenshot, name, monkeypatch):
    """Every plate set aside: each is compared with the others as their whole diamonds
    tell them for now, and the picture reads right. Without those references (the first
    telling of the whole diamonds answering nothing) nothing can be compared and the
    picture abstains."""
    entry = NO_SECTORS["pictures"][name]
    case = real_room_case(real_screenshot, entry["real_room_seed"])
    reading = read_frame(case.frame)
    trace = [str(step) for step in reading.trace]
    assert any("the plates' sectors tell no two looks" in step for step in trace), trace
    assert outcome_of(reading, case.centres, case.lit) == "right", trace
    assert reading.board.format() == entry["board"]

    calls = []

    def first_tells_nothing(samples, looks, *args, **kwargs):
        calls.append(len(calls))
        return np.asarray(looks).copy() if len(calls) == 1 else read_whole(
            samples, looks, *args, **kwargs)

    monkeypatch.setattr(unread, "read_whole", first_tells_nothing)
    assert read_frame(case.frame).abstain


# --- plates doubted with it as witnesses --------------------------------------------------

ONE_READ = json.loads(
    (FIXTURE_DIR / "real-room-one-plate-of-a-look-read.json").read_text("utf-8"))


def _without_doubted_witnesses(monkeypatch) -> None:
    def no_witnesses(*args, **kwargs):
        kwargs["provisional"] = None
        return nothing_stands(*args, **kwargs)

    monkeypatch.setattr(unread, "nothing_stands", no_witnesses)


@pytest.mark.parametrize("name", sorted(ONE_READ["pictures"]))
def test_plates_doubted_together_witness_beside_the_one_plate_of_their_look_read(
        real_screenshot, name, monkeypatch):
    """One plate of a look read by its sectors is too few to vouch for a plate compared as
    that look; the plates doubted with it witness as the sectors read them, and the picture
    reads right. Without them each doubted plate stays unclear."""
    entry = ONE_READ["pictures"][name]
    case = real_room_case(real_screenshot, entry["real_room_seed"])
    reading = read_frame(case.frame)
    trace = [str(step) for step in reading.trace]
    assert outcome_of(reading, case.centres, case.lit) == "right", trace
    assert reading.board.format() == entry["board"]
    for cell in entry["told_over_it"]:
        assert any(step.startswith(f"standing: {cell} nothing stands on it: over it: a plate")
                   and "doubted plates witnessing" in step for step in trace), trace

    _without_doubted_witnesses(monkeypatch)
    reading = read_frame(case.frame)
    assert outcome_of(reading, case.centres, case.lit) == "unclear"
    assert sorted(f"({r + 1},{c + 1})" for r, c in reading.unclear) == sorted(
        entry["told_over_it"])


@pytest.mark.parametrize("pitch", [0.0, 15.0, 30.0])
@pytest.mark.parametrize("clothes", [GOLD, UNLIT_GOLD, None])
def test_bodies_alike_over_plates_never_vouch_for_each_other(pitch, clothes):
    """Three figures dressed alike, each on a lit plate, doubted and given the wrong look
    (unlit) by the sectors, with no unlit plate read: they would vouch for one another as
    unlit, but a plate read by its sectors must vouch for every point too, so none is
    told unlit. With one unlit plate read, it must vouch as well."""
    dressed = (0, 1, 2)  # lit in 111/0#0/110, as are 5 and 6; 3, 4 and 7 are unlit
    figures = tuple(Figure(tile=TOA_PLATES[plate][::-1], body=clothes, legs=clothes,
                           skin=clothes, hair=clothes, height=0.9, facing_deg=90.0, seed=7)
                    for plate in dressed)
    geometry_of = {}
    for yaw in (10.0, 100.0, 220.0):
        scene = _scene(yaw, pitch, figures)
        geometry_of[yaw] = GridGeometry(3, 3, scene.homography)
        for unlit_read in ((), (7,)):
            lit = np.array(scene.lit, np.int64)
            unread_now = [*dressed, *(i for i in (3, 4, 7) if i not in unlit_read)]
            lit[unread_now] = -1
            probes = nothing_stands(scene.frame, geometry_of[yaw], CELLS, list(dressed),
                                    lit, unread_now,
                                    provisional=dict.fromkeys(dressed, 0))
            for plate in dressed:
                assert probes[plate].look != 0, (yaw, unlit_read, plate, probes[plate].why)
