"""The committed synthetic pictures (tests/fixtures/rooms) and their expected results."""

from __future__ import annotations

import json

import numpy as np
import pytest
from fixtures.rooms import FIXTURE_DIR, FIXTURES, render_fixture

from assistant.commands.detect import load_image
from assistant.profile import Appearance, GridSpec, Profile, toa_default_profile
from assistant.vision import read_frame

EXPECTED = json.loads((FIXTURE_DIR / "expected.json").read_text("utf-8"))


def test_every_fixture_is_listed_and_small():
    assert set(EXPECTED) == {f.name for f in FIXTURES}
    sizes = [(FIXTURE_DIR / entry["file"]).stat().st_size for entry in EXPECTED.values()]
    assert sum(sizes) < 600_000


@pytest.mark.parametrize("name", [f.name for f in FIXTURES])
def test_renderer_still_draws_the_recorded_truth(name):
    fixture = next(f for f in FIXTURES if f.name == name)
    frame, truth = render_fixture(fixture)
    stored = load_image(FIXTURE_DIR / EXPECTED[name]["file"])
    assert frame.shape == stored.shape
    for key, value in truth.items():
        if isinstance(value, list):
            assert np.allclose(np.array(value, float), np.array(EXPECTED[name][key], float),
                               atol=0.02), key
        else:
            assert value == EXPECTED[name][key], key


@pytest.mark.parametrize("name", [f.name for f in FIXTURES if f.family != "screen-grid"])
def test_room_fixtures_read_as_expected(name):
    entry = EXPECTED[name]
    frame = load_image(FIXTURE_DIR / entry["file"])
    auto = read_frame(frame)
    calibrated = read_frame(frame, toa_default_profile().with_corners(entry["corners"]))
    if entry["expect"] == "abstain":
        assert auto.abstain and calibrated.abstain
        return
    assert auto.board.format() == entry["screen_board"]
    assert calibrated.board.format() == entry["board"]
    assert np.allclose(np.array([t.centre for t in calibrated.tiles]),
                       np.array(entry["plate_centres"]), atol=0.05)


def test_browser_grid_fixture_with_its_profile():
    entry = EXPECTED["browser-grid"]
    frame = load_image(FIXTURE_DIR / entry["file"])
    rows, cols = len(entry["board"].split("/")), len(entry["board"].split("/")[0])
    profile = Profile(GridSpec(rows, cols), tuple(map(tuple, entry["corners"])),
                      appearance=Appearance("brightness", tuple(entry["on_rgb"]),
                                            tuple(entry["off_rgb"])))
    assert read_frame(frame, profile).board.format() == entry["board"]
