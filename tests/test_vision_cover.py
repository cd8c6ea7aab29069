"""A plate the reader does not read is covered (something stands on it) or unclear (in view,
no sign of anything on it, its look not told): never "someone stands on it" without a body there.

The pictures nobody stands in are the one real screenshot's own pixels seen through a game
camera, compressed as a shared screenshot is (``bench-vision``'s real-room pictures); those
with someone on a plate are the drawn figure family, whose masks say which plates a body
is over."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from conftest import shared_file

from assistant.puzzle import TOA_PLATES, toa_board
from assistant.vision import read_frame
from assistant.vision.cover import covered
from assistant.vision.geometry import geometry_from_corners
from assistant.vision.reader import Reading, TileReading
from assistant.vision.whole import read_whole
from lab.commands.bench_vision import outcome_of, real_room_case
from lab.scene import perturbed_params, render_scene

CELLS = list(TOA_PLATES)


@pytest.fixture(scope="module")
def screenshot():
    return shared_file("toa", "room_topdown.png")


def test_nobody_on_the_plates_is_never_covered_and_never_wrong(screenshot):
    """The real room through turned, pitched (to 68 degrees), zoomed-out cameras, gamma
    and JPEG 30-95: no plate is ever said covered, none is read wrong, and most pictures
    are read whole (bench-vision measures the share on more pictures)."""
    outcomes = []
    for seed in range(60):
        case = real_room_case(screenshot, 9_000 + seed)
        reading = read_frame(case.frame)
        outcomes.append(outcome_of(reading, case.centres, case.lit))
        assert not reading.covered, (seed, [str(step) for step in reading.trace])
    assert "wrong" not in outcomes and "covered" not in outcomes
    assert outcomes.count("right") >= 50, outcomes


def _figure_mask(scene, plate: int) -> bool:
    """Whether the drawn figure's pixels fall on the plate's frame or diamond."""
    mask = scene.extra["occluder"] > 0
    r, c = TOA_PLATES[plate]
    ring = np.array([(c + 0.27 * np.cos(a), r + 0.27 * np.sin(a))
                     for a in np.linspace(0, 2 * np.pi, 32, endpoint=False)], np.float64)
    polygon = cv2.perspectiveTransform(ring.reshape(-1, 1, 2), scene.homography)
    plate_mask = np.zeros(mask.shape, np.uint8)
    cv2.fillPoly(plate_mask, [np.round(polygon).astype(np.int32)], 1)
    return bool(np.any(mask & (plate_mask > 0)))


def test_a_plate_said_covered_has_a_figure_over_it_and_none_is_read_wrong():
    """The drawn figure family (a player over up to 30% of a plate, the head and body
    reaching over the plate above on screen): every plate said covered has the figure
    over its frame or diamond, most plates under the figure are said covered, and no
    plate is read wrong."""
    under, said_covered = 0, 0
    for seed in range(60):
        scene = render_scene(perturbed_params("figure", seed))
        reading = read_frame(scene.frame)
        assert outcome_of(reading, scene.plate_centres, scene.lit) != "wrong"
        for tile in reading.tiles:
            index = int(np.argmin(np.hypot(*(scene.plate_centres - tile.centre).T)))
            if tile.hidden and not tile.unclear:
                assert _figure_mask(scene, index), (seed, index)
            if scene.coverage[index] >= 0.2:
                under += 1
                said_covered += tile.hidden and not tile.unclear
    assert said_covered >= 0.8 * under


def test_covered_needs_colours_no_read_plate_shows():
    """On a clean room two plates are set aside by hand: one with a patch of skin and
    cloth drawn over it is covered, one left as it is is not (nothing over it)."""
    scene = render_scene(perturbed_params("baseline", 3))
    frame = scene.frame.copy()
    geometry = geometry_from_corners(3, 3, scene.corners)
    body, plain = 1, 6
    x, y = scene.plate_centres[body]
    size = int(0.12 * np.linalg.norm(scene.plate_centres[0] - scene.plate_centres[1]))
    cv2.ellipse(frame, (int(x), int(y - size)), (size, 2 * size), 0, 0, 360, (90, 140, 60), -1)
    cv2.circle(frame, (int(x), int(y - 3 * size)), size, (110, 150, 200), -1)
    read = {i: int(scene.lit[i]) for i in range(8) if i not in (body, plain)}
    verdicts = covered(frame, geometry, CELLS, [body, plain], read)
    assert verdicts == {body: True, plain: False}
    assert covered(frame, geometry, CELLS, [body], {0: 1}) == {body: False}  # too few


def test_whole_diamonds_tell_the_looks_the_sectors_did_not():
    """Plates whose median colours split into two looks, by the ToA feature or by luma
    with every lit plate the yellower, are told; a split against a plate read, or one
    where chroma and luma disagree, tells nothing."""
    lit, unlit = np.array([66, 159, 188], float), np.array([22, 131, 162], float)
    looks = np.array([1, 0, 1, 1, 0, 1, 0, 1])
    samples = np.array([np.tile(lit if v else unlit, (12, 1)) for v in looks])
    samples += np.random.default_rng(1).normal(0, 2, samples.shape)
    asked = looks.copy()
    asked[[1, 3]] = -1
    assert list(read_whole(samples, asked)) == list(looks)
    assert list(read_whole(samples, np.full(8, -1))) == list(looks)  # none read
    against = looks.copy()
    against[[1, 3]] = -1
    against[0] = 0  # read unlit, but its diamond is the lit one
    assert list(read_whole(samples, against)) == list(against)
    # JPEG washes the unlit diamonds' blue into the frame's: luma still splits them
    washed = samples.copy()
    washed[looks == 0] = np.tile([60, 140, 165], (12, 1))
    assert list(read_whole(washed, np.full(8, -1))) == list(looks)
    # ... but not when the brighter plates are the less yellow ones
    swapped = samples.copy()
    swapped[looks == 0] = np.tile([120, 150, 175], (12, 1))
    assert (read_whole(swapped, np.full(8, -1)) == -1).all()


def test_an_unclear_plate_is_its_own_verdict_in_board_json_and_sentence():
    board = toa_board("111/0#0/110")
    partial = board.with_states(np.where(np.arange(9).reshape(3, 3) == 1, 0, board.states))
    tiles = tuple(TileReading(r, c, None if (r, c) in ((0, 1), (2, 2)) else
                              bool(board.states[r, c]), 1.0, (0.0, 0.0),
                              hidden=(r, c) in ((0, 1), (2, 2)), unclear=(r, c) == (0, 1))
                  for r, c in CELLS)
    reading = Reading(True, False, None, None, tiles, None, None, "auto", "contrast",
                      hidden=((0, 1), (2, 2)), partial=partial, unclear=((0, 1),))
    assert reading.board_text == "1?1/0#0/11?"
    assert reading.covered == ((2, 2),)
    record = reading.to_json()
    assert record["hidden"] == [[3, 3]] and record["unclear"] == [[1, 2]]
    assert "row 1, column 2 is in view but cannot be told lit from unlit" in reading.note
    assert "row 3, column 3 is hidden: someone stands on it" in reading.note
    assert len(reading.completions()) == 4
    # the live loop knows someone stands on the unclear one: covered now
    stood = reading.with_hidden(((0, 1),))
    assert stood.unclear == () and stood.covered == ((0, 1), (2, 2))
    assert not next(t for t in stood.tiles if (t.row, t.col) == (0, 1)).unclear


def _between_looks(screenshot) -> np.ndarray:
    """The real screenshot with the top plate's diamond painted halfway between its lit
    and unlit colours: in plain view, nothing over it, its look not told."""
    from lab.commands.bench_vision import SCREENSHOT_CENTRES

    image = cv2.imread(str(screenshot), cv2.IMREAD_COLOR)
    x, y = (round(float(v)) for v in SCREENSHOT_CENTRES[1])
    ys, xs = np.mgrid[-9:10, -9:10]
    inside = np.abs(xs) + np.abs(ys) <= 9
    # BGR, halfway between the lit (66, 159, 188) and the unlit (22, 131, 162) diamond
    image[y + ys[inside], x + xs[inside]] = (44, 145, 175)
    return image


def test_a_plate_between_the_looks_is_unclear_not_covered(screenshot):
    reading = read_frame(_between_looks(screenshot))
    assert not reading.abstain
    assert reading.unclear == ((0, 1),) and reading.covered == ()
    assert reading.board_text == "1?1/0#0/110"
    assert any(step.stage == "cover" and "unclear" in step.text for step in reading.trace)


def test_detect_says_unclear_in_json_and_words(cli, screenshot, tmp_path):
    """detect's JSON lists a plate in view that cannot be told under "unclear", never
    "hidden"; the sentence says it cannot be told lit from unlit; --trace says why."""
    import json

    picture = tmp_path / "unclear.png"
    cv2.imwrite(str(picture), _between_looks(screenshot))
    code, out, _err = cli("detect", "--json", "--trace", str(picture))
    record = json.loads(out)
    assert code == 1  # no answer from one picture: the plate is not guessed
    assert record["unclear"] == [[1, 2]] and record["hidden"] == []
    assert any("unclear" in step for step in record["trace"])
    code, out, _err = cli("detect", "--trace", str(picture))
    assert "cannot be told lit from unlit" in out and "someone stands" not in out
    assert "cover: (1,2) unclear" in out
