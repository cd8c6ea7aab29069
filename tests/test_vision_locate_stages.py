"""The ring search as stages (assistant.vision.ring): one definition of the ring, every
threshold a documented field of its stage's frozen parameters, and a trace that says
which candidates were tried and which named rule took or turned down each."""

from __future__ import annotations

import ast
import dataclasses
import inspect
from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.puzzle import TOA_PLATES
from assistant.vision import locate
from assistant.vision.ring import (
    blobs,
    candidates,
    checks,
    decide,
    follow,
    frames,
    motions,
    pitched,
    refit,
    shape,
)
from assistant.vision.trace import recording

FIXTURES = Path(__file__).parent / "fixtures" / "rooms"

#: every stage's parameters: (module, the dataclass, its instance)
STAGE_PARAMS = [
    (shape, shape.FitParams, shape.FIT),
    (blobs, blobs.BlobParams, blobs.BLOBS),
    (candidates, candidates.CandidateParams, candidates.CANDIDATES),
    (refit, refit.RefitParams, refit.REFIT),
    (frames, frames.FrameParams, frames.FRAMES),
    (decide, decide.DecisionParams, decide.DECISION),
    (motions, motions.MotionParams, motions.MOTION),
    (pitched, pitched.PitchParams, pitched.PITCH),
    (follow, follow.FollowParams, follow.FOLLOW),
    (checks, checks.CheckParams, checks.CHECKS),
]


def test_the_ring_is_the_puzzle_s_toa_ring_in_its_order():
    """The search's ring is :data:`TOA_PLATES`, place for place: a reading's plate i is the
    puzzle's plate i, and a grid point (x, y) is (column, row)."""
    assert list(TOA_PLATES) == shape.RING_CELLS
    assert list(TOA_PLATES) == locate.RING_CELLS
    assert [(int(y), int(x)) for x, y in shape.RING] == list(TOA_PLATES)


@pytest.mark.parametrize(("module", "params", "instance"), STAGE_PARAMS,
                         ids=[module.__name__.rsplit(".", 1)[1] for module, *_ in STAGE_PARAMS])
def test_every_threshold_is_a_documented_field_of_frozen_stage_parameters(
        module, params, instance):
    """Each stage's thresholds are one frozen dataclass's fields, each with a ``#:``
    comment above it saying what it is and what it was measured on (or that it was set)."""
    assert dataclasses.is_dataclass(params) and params.__dataclass_params__.frozen
    assert isinstance(instance, params) and instance == params()
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(instance, dataclasses.fields(params)[0].name, None)
    source = inspect.getsource(params).splitlines()
    tree = ast.parse(inspect.getsource(params))
    body = tree.body[0].body
    fields = [node for node in body if isinstance(node, ast.AnnAssign)]
    assert [field.target.id for field in fields] == [f.name for f in dataclasses.fields(params)]
    for field in fields:
        above = source[field.lineno - 2].strip()
        assert above.startswith("#:"), f"{params.__name__}.{field.target.id} has no comment"


def test_the_public_constants_are_the_stage_parameters():
    """The names other modules import from assistant.vision.locate are the fields' values."""
    assert locate.MIN_DIAMONDS == shape.FIT.min_diamonds == 6
    assert shape.FIT.min_diamonds_after_last_view == locate.MIN_DIAMONDS_AFTER_LAST_VIEW
    assert shape.FIT.exact_ring_fit == locate.EXACT_RING_FIT
    assert shape.FIT.loose_fit == locate.LOOSE_FIT
    assert shape.FIT.max_roll_skew == locate.MAX_ROLL_SKEW
    assert checks.CHECKS.in_place_tolerance == locate.IN_PLACE_TOLERANCE
    assert follow.FOLLOW.last_view_agreement == locate.LAST_VIEW_AGREEMENT


def test_the_rules_are_named_once_with_a_verdict_each():
    names = [rule.name for rule in (*decide.PLACEMENT_RULES, decide.BORNE_OUT)]
    names += [rule.name for rule in (*decide.ANSWER_RULES, decide.ONE_RING)]
    assert len(names) == len(set(names))
    assert {rule.verdict for rule in decide.PLACEMENT_RULES} == {
        decide.TAKEN, decide.TURNED_DOWN, decide.PASSED_OVER}


def _search_trace(picture: np.ndarray) -> tuple[tuple, list[str]]:
    with recording() as steps:
        found = locate.locate_ring(picture)
    return found, [str(step) for step in steps]


def test_a_trace_names_the_candidate_taken_and_the_rule_that_took_it():
    picture = cv2.imread(str(FIXTURES / "full-ui.png"))
    (fit, why), trace = _search_trace(picture)
    assert fit is not None and why is None
    assert trace[0].startswith("locate: full resolution, 6 diamonds: ")
    assert "locate: candidate 1 (near, 8 diamonds, fit " in trace[1]
    assert trace[1].endswith(": taken: borne out by the picture")
    assert trace[-1] == "locate: answer: one ring taken: a ring on 8 diamonds"


def _gold_lattice_on_grey(framed: bool) -> np.ndarray:
    """Eight gold diamonds on the ToA ring's lattice over an even grey floor, with the
    plates' purple frames or without (a look-alike: an inventory, a tiled pattern)."""
    picture = np.full((400, 400, 3), (120, 128, 132), np.uint8)
    for row, column in TOA_PLATES:
        centre = np.array([110 + 90 * column, 110 + 90 * row])
        if framed:
            octagon = centre + 0.28 * 90 * np.array(
                [(np.cos(a), np.sin(a)) for a in np.linspace(0, 2 * np.pi, 9)[:-1] + np.pi / 8])
            cv2.fillPoly(picture, [octagon.astype(np.int32)], (150, 60, 140))
        diamond = centre + 0.165 * 90 * np.array([(1, 0), (0, 1), (-1, 0), (0, -1)])
        cv2.fillPoly(picture, [diamond.astype(np.int32)], (40, 180, 230))
    return picture


def test_a_lattice_without_frames_is_turned_down_by_its_rule_in_the_trace():
    """The same gold lattice is the ring in purple frames, and a look-alike turned down
    by the rule on frames without them; the trace says which rule and which answer."""
    (fit, why), trace = _search_trace(_gold_lattice_on_grey(framed=True))
    assert fit is not None, trace
    assert any(step.endswith("taken: borne out by the picture") for step in trace), trace
    (fit, why), trace = _search_trace(_gold_lattice_on_grey(framed=False))
    assert fit is None and why == "not-found"
    assert any(": turned down: no purple frames, and not seen past them" in step
               for step in trace), trace
    assert "locate: answer: no candidate taken: turned-down" in trace


def test_a_follow_notes_each_motion_tried_and_how_it_placed_the_ring():
    picture = cv2.imread(str(FIXTURES / "full-ui.png"))
    fit, _why = locate.locate_ring(picture)
    with recording() as steps:
        followed = locate.follow_ring(picture, fit.geometry, turned=True)
    trace = [str(step) for step in steps]
    assert followed is not None and followed.rigid
    assert trace and trace[0].startswith("follow: shift: ") and trace[0].endswith(
        "on 8 diamonds, rigidly"), trace
