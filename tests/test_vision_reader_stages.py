"""The reader's stages: every decision on the reading path notes itself in the trace (which
stage placed the ring, why each plate was set aside and what it is, which retry
answered), and each stage's thresholds are a frozen rules object that the stage reads."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest
from conftest import shared_file

from assistant.puzzle import TOA_PLATES
from assistant.vision import read_frame, reader
from assistant.vision import whole as whole_module
from assistant.vision.appearance import APPEARANCE_RULES, Look, classify
from assistant.vision.cover import COVER_PARAMS, covered
from assistant.vision.geometry import SAMPLE_OFFSETS, SAMPLE_SECTORS, pixels_at
from assistant.vision.placing import PLACING_RULES, hidden_allowed
from assistant.vision.plates import PLATE_RULES, shaded
from assistant.vision.reading import abstain
from assistant.vision.unread import FLOOR_RULES, plain_floor
from assistant.vision.whole import WHOLE_RULES, read_whole
from lab.scene import perturbed_params, render_scene

CELLS = list(TOA_PLATES)


@pytest.fixture(scope="module")
def clean():
    """The real screenshot (nobody on the plates) and its reading."""
    frame = cv2.imread(str(shared_file("toa", "room_topdown.png")))
    reading = read_frame(frame)
    assert reading.board_text == "111/0#0/110"
    return frame, reading


def _samples(frame: np.ndarray, reading) -> np.ndarray:
    points = reading.geometry.sample_points(CELLS, SAMPLE_OFFSETS, inside_diamond=True)
    return pixels_at(frame, points)


def test_a_reading_names_the_stage_that_placed_the_ring_and_the_answer(clean) -> None:
    _frame, reading = clean
    texts = [str(step) for step in reading.trace]
    placing = [t for t in texts if t.startswith("placing: ")]
    assert len(placing) == 1 and placing[0].startswith(
        "placing: ring located on 8 diamonds, fit error ")
    assert any(t.startswith("locate: answer: ") for t in texts[:texts.index(placing[0])])
    assert texts[-1] == "answer: board 111/0#0/110"


def test_no_ring_says_so_before_the_answer() -> None:
    reading = read_frame(np.zeros((64, 64, 3), np.uint8))
    texts = [str(step) for step in reading.trace]
    assert texts[-2:] == ["placing: no ring found", "answer: abstained: Puzzle not in view."]
    assert all(t.startswith("locate: ") for t in texts[:-2])


def test_every_plate_not_read_says_why_it_was_set_aside_and_what_it_is() -> None:
    """The drawn figure family: a picture with a plate said covered notes, for each plate
    not read, the reason it was set aside (read stage) and the verdict on it (cover
    stage)."""
    for seed in range(40):
        scene = render_scene(perturbed_params("figure", seed))
        reading = read_frame(scene.frame)
        if reading.covered and not reading.outside:
            break
    else:
        pytest.fail("no drawn figure covered a plate")
    for r, c in reading.hidden:
        place = f"({r + 1},{c + 1})"
        steps = [(step.stage, step.text) for step in reading.trace]
        assert any(stage == "read" and text.startswith(f"{place} set aside: ")
                   for stage, text in steps) or \
            ("read", "the plates' sectors tell no two looks: no plate in view is read") in steps
        assert any((stage == "cover" and text.startswith(f"{place} covered: "))
                   or (stage == "cover" and text.startswith(f"{place} unclear: "))
                   for stage, text in steps), steps


def test_the_retry_that_answered_is_named(clean, monkeypatch) -> None:
    """A located ring that does not read is read again at the ring through the other
    diamonds when one blob alone bends the fit; the trace says that retry answered."""
    frame, _reading = clean
    first = []
    read_located = reader._read_located

    def abstain_first(bgr, fit, *args):
        if not first:
            first.append(fit)
            return abstain("Can't tell lit from unlit.", "auto", found=True)
        return read_located(bgr, fit, *args)

    monkeypatch.setattr(reader, "_read_located", abstain_first)
    monkeypatch.setattr(reader, "bent_by_one_blob", lambda fit: fit)
    reading = read_frame(frame)
    assert reading.board_text == "111/0#0/110"
    assert ("reader: answered by the ring through the other diamonds: one blob alone bent "
            "the fit") in [str(step) for step in reading.trace]


def test_the_rules_are_frozen() -> None:
    for rules in (APPEARANCE_RULES, COVER_PARAMS, PLATE_RULES, FLOOR_RULES, PLACING_RULES,
                  WHOLE_RULES):
        field = dataclasses.fields(rules)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(rules, field, 0)


def test_each_stage_reads_its_own_rules(clean) -> None:
    """Each stage's verdict on the clean room turns when its rules are made strict: the
    rules objects are what the stages compare with, not copies of numbers kept elsewhere."""
    frame, reading = clean
    geometry = reading.geometry
    samples = _samples(frame, reading)
    lit = np.array([int(tile.lit) for tile in reading.tiles])

    plain = classify(samples, Look.TOA_PLATE, sectors=SAMPLE_SECTORS)
    strict = classify(samples, Look.TOA_PLATE, sectors=SAMPLE_SECTORS,
                      rules=dataclasses.replace(APPEARANCE_RULES, uneven_luma=-1.0))
    assert not plain.foreign.any() and strict.foreign.all()

    read = {i: int(lit[i]) for i in range(1, len(CELLS))}
    assert covered(frame, geometry, CELLS, [0], read) == {0: False}
    assert covered(frame, geometry, CELLS, [0], read,
                   dataclasses.replace(COVER_PARAMS, diamond_share=0.0)) == {0: True}

    assert not shaded(samples, lit).any()
    assert shaded(samples, lit, dataclasses.replace(PLATE_RULES, shaded_below_rest=-1.0)).any()

    assert not plain_floor(frame, geometry, [CELLS[0]])
    assert plain_floor(frame, geometry, [CELLS[0]],
                       dataclasses.replace(FLOOR_RULES, like_share=0.0))

    unmatched = (CELLS[0], CELLS[1])
    assert hidden_allowed(4, unmatched) == PLACING_RULES.max_hidden_on_six
    assert hidden_allowed(4, unmatched,
                          dataclasses.replace(PLACING_RULES, max_hidden_on_six=1)) == 1

    looks = lit.copy()
    looks[0] = -1
    assert read_whole(samples, looks)[0] == lit[0]
    assert read_whole(samples, looks, dataclasses.replace(WHOLE_RULES, lab=-1.0))[0] == -1



#: A picture of the real room (bench-vision's real-room camera of this seed: small, far,
#: JPEG) where one diamond's chroma, spoilt by the compression, splits the chroma on its
#: own; the luma still splits the plates cleanly.
_SPOILT_CHROMA_SEED = 700_259


def test_the_luma_tells_what_one_spoilt_diamond_keeps_the_chroma_from_telling(
        monkeypatch) -> None:
    """Four plates set aside; the whole diamonds' chroma splits one spoilt plate from the
    rest and tells nothing, the luma tells two more unlit: one plate left unclear instead
    of an abstention. Without the luma pass the picture abstains."""
    from lab.commands.bench_vision import outcome_of, real_room_case

    case = real_room_case(shared_file("toa", "room_topdown.png"), _SPOILT_CHROMA_SEED)
    reading = read_frame(case.frame)
    assert outcome_of(reading, case.centres, case.lit) == "unclear"
    assert len(reading.unclear) == 1
    told = [str(step) for step in reading.trace if "told from its whole diamond" in str(step)]
    assert len(told) == 3, told

    def chroma_only(samples, looks, rules=WHOLE_RULES, appearance=None):
        return whole_module.read_whole(samples, looks, dataclasses.replace(
            rules, luma_gap=99.0))
    monkeypatch.setattr("assistant.vision.unread.read_whole", chroma_only)
    assert read_frame(case.frame).abstain


#: A picture of the real room (bench-vision's real-room camera of this seed: a flat
#: camera, the room two fifths of the frame, JPEG 30) where the locator saw no diamond at
#: one plate (row 1, column 1), nobody on it.
_NO_DIAMOND_SEEN_SEED = 2_100_153


def test_a_plate_the_locator_saw_no_diamond_at_is_told_where_nothing_stands_on_it() -> None:
    """The plate is doubted like one with something over part of it: at this flat camera
    the plate itself, compared point by point with the plates told, is a lit plate, and
    its whole diamond reads lit. Two other plates stay unclear."""
    from lab.commands.bench_vision import outcome_of, real_room_case

    case = real_room_case(shared_file("toa", "room_topdown.png"), _NO_DIAMOND_SEEN_SEED)
    reading = read_frame(case.frame)
    trace = [str(step) for step in reading.trace]
    assert outcome_of(reading, case.centres, case.lit) == "unclear", trace
    assert (0, 0) in reading.unmatched and reading.tiles[0].lit is True
    assert any(step.startswith("standing: (1,1) nothing stands on it: over it: a plate lit")
               for step in trace), trace
    assert "read: (1,1) told from its whole diamond: lit" in trace


def test_a_plate_set_aside_by_the_caller_is_never_told_whole() -> None:
    """Under corners kept from an earlier view, the plates the live loop set aside stay
    unread until the locator sees their diamonds again (read_frame's ``set_aside``): the
    same picture with the same ring leaves the plate the locator saw no diamond at unread,
    where a fresh search clears it over itself and tells it."""
    from assistant.profile import toa_default_profile
    from lab.commands.bench_vision import real_room_case

    case = real_room_case(shared_file("toa", "room_topdown.png"), _NO_DIAMOND_SEEN_SEED)
    fresh = read_frame(case.frame)
    kept = toa_default_profile().with_corners(fresh.geometry.corners())
    again = read_frame(case.frame, kept, set_aside=((0, 0),))
    assert fresh.tiles[0].lit is not None
    assert again.abstain or again.tiles[0].lit is None
