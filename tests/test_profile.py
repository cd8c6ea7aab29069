"""Calibration profiles: the shipped ToA default, round trips, atomic saves, one-sentence errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.errors import UserError
from assistant.profile import (
    Appearance,
    CaptureTarget,
    GridSpec,
    Profile,
    ProfileError,
    load_profile,
    parse_profile,
    profile_to_json,
    save_profile,
    toa_default_profile,
)

CALIBRATION = Path(__file__).resolve().parents[1] / "calibration"


def _valid() -> dict:
    return {
        "version": 1,
        "name": "browser lights out",
        "grid": {"rows": 4, "columns": 5, "holes": [[1, 1]], "states": 2, "objective": 1},
        "corners": {
            "top_left": [10, 20], "top_right": [210, 20],
            "bottom_right": [210, 170], "bottom_left": [10, 170],
        },
        "capture": {"window_title": "Firefox", "rect": [0, 0, 800, 600]},
        "appearance": {"look": "brightness", "on": "#f5d728", "off": "#962828"},
    }


def test_shipped_toa_profile_is_the_ring_with_auto_locate():
    profile = toa_default_profile()
    assert profile.grid == GridSpec(3, 3, ((1, 1),), 2, 1)
    assert profile.grid.is_toa_ring
    assert profile.corners is None
    assert profile.capture.window_title == "RuneLite|Old School RuneScape"
    assert profile.appearance.look == "toa-plate"
    assert profile.appearance.references_bgr() is None
    assert profile == load_profile(CALIBRATION / "toa.json")


def test_every_shipped_profile_loads():
    files = sorted(CALIBRATION.glob("*.json"))
    assert files
    for path in files:
        assert isinstance(load_profile(path), Profile)


def test_round_trip_through_a_file(tmp_path):
    original = parse_profile(json.dumps(_valid()))
    assert original.grid.holes == ((0, 0),)  # stored 1-based, held 0-based
    assert original.appearance.on == (0xF5, 0xD7, 0x28)
    assert original.appearance.references_bgr() == ((0x28, 0xD7, 0xF5), (0x28, 0x28, 0x96))
    target = tmp_path / "deep" / "browser.json"
    save_profile(original, target)
    assert load_profile(target) == original
    assert json.loads(target.read_text("utf-8")) == profile_to_json(original)
    assert [p.name for p in target.parent.iterdir()] == ["browser.json"]  # no temp file left


def test_with_corners_keeps_everything_else():
    profile = toa_default_profile().with_corners([(1, 2), (3, 2), (3, 4), (1, 4)])
    assert profile.corners == ((1.0, 2.0), (3.0, 2.0), (3.0, 4.0), (1.0, 4.0))
    assert profile.grid == toa_default_profile().grid


def test_saving_replaces_atomically_and_refuses_invalid_profiles(tmp_path):
    target = tmp_path / "p.json"
    save_profile(parse_profile(json.dumps(_valid())), target)
    before = target.read_text("utf-8")
    nowhere = ((0, 0), (0, 0), (0, 0), (0, 0))
    broken = Profile(GridSpec(3, 3), nowhere, CaptureTarget(), Appearance())
    with pytest.raises(ProfileError):
        save_profile(broken, target)
    assert target.read_text("utf-8") == before


def _mutated(path: str, value: object) -> str:
    data = _valid()
    node = data
    keys = path.split(".")
    for key in keys[:-1]:
        node = node[key]
    if value is _DELETE:
        del node[keys[-1]]
    else:
        node[keys[-1]] = value
    return json.dumps(data)


_DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "words"),
    [
        ("version", 2, '"version"'),
        ("version", _DELETE, '"version"'),
        ("grid", [], '"grid"'),
        ("grid.rows", 1, "grid.rows"),
        ("grid.rows", "3", "grid.rows"),
        ("grid.columns", True, "grid.columns"),
        ("grid.holes", [[9, 9]], "hole"),
        ("grid.holes", [[1]], "hole"),
        ("grid.states", 1, "states"),
        ("grid.objective", 5, "objective"),
        ("corners", [1, 2], '"corners"'),
        ("corners.top_left", [1], "corners.top_left"),
        ("corners.top_left", ["a", 1], "corners.top_left"),
        ("corners.top_right", [10, 170], '"corners"'),
        ("capture", "Firefox", '"capture"'),
        ("capture.window_title", "", "window_title"),
        ("capture.window_title", "(", "regular expression"),
        ("capture.rect", [0, 0, 0, 10], "capture.rect"),
        ("capture.rect", [0, 0], "capture.rect"),
        ("appearance.look", "sparkly", "appearance.look"),
        ("appearance.on", "yellow", "appearance.on"),
        ("appearance.off", None, "both"),
        ("appearance.off", "#f5d728", "must differ"),
        ("name", 5, '"name"'),
    ],
)
def test_invalid_fields_give_one_sentence_naming_the_field(path, value, words):
    with pytest.raises(ProfileError) as caught:
        parse_profile(_mutated(path, value), source="my.json")
    message = str(caught.value)
    assert isinstance(caught.value, UserError)
    assert words in message
    assert message.startswith("In my.json, ") and message.endswith(".")
    assert "\n" not in message and message.count(". ") == 0


def test_files_that_are_not_profiles(tmp_path):
    with pytest.raises(ProfileError, match="does not exist"):
        load_profile(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", "utf-8")
    with pytest.raises(ProfileError, match=r"not valid JSON \(line 1, column 2\)"):
        load_profile(bad)
    bad.write_text("[1, 2]", "utf-8")
    with pytest.raises(ProfileError, match="JSON object"):
        load_profile(bad)
    bad.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ProfileError, match="could not be read"):
        load_profile(bad)


def test_three_state_grids_load_but_carry_no_colours():
    data = _valid()
    data["grid"]["states"] = 3
    data["grid"]["objective"] = 0
    with pytest.raises(ProfileError, match="two-state"):
        parse_profile(json.dumps(data))
    data["appearance"] = {"look": "brightness"}
    assert parse_profile(json.dumps(data)).grid.states == 3


def test_look_defaults_follow_the_grid():
    data = _valid()
    del data["appearance"]
    assert parse_profile(json.dumps(data)).appearance.look == "brightness"
    data["grid"] = {"rows": 3, "columns": 3, "holes": [[2, 2]]}
    assert parse_profile(json.dumps(data)).appearance.look == "toa-plate"


def _fresh_interpreter(code: str) -> str:
    """What ``code`` prints when run in an interpreter that has imported nothing yet."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("first, then", [
    ("assistant.profile", "assistant.vision"),
    ("assistant.vision", "assistant.profile"),
    ("assistant.vision.reader", "assistant.profile"),
    ("assistant.profile", "assistant.vision.reader"),
])
def test_the_profile_and_the_reader_import_in_either_order(first, then) -> None:
    """The profile sits a layer under the reader and the reader imports it at the top of
    its modules: whichever is imported first, both load whole (no name is missing from a
    half-loaded module)."""
    printed = _fresh_interpreter(
        f"import {first}\nimport {then}\n"
        "from assistant.vision import Reading, read_frame, follow_frame, locate_ring\n"
        "from assistant.vision.reader import MAX_HIDDEN_IN_SESSION, leaves_a_corner_unread\n"
        "from assistant.profile import GridSpec, Profile, toa_default_profile\n"
        "import numpy as np\n"
        "reading = read_frame(np.zeros((64, 64, 3), np.uint8), toa_default_profile())\n"
        "print(reading.reason)\n"
    )
    assert printed.strip() == "Puzzle not in view."


def test_the_profile_loads_no_stage_of_the_reader() -> None:
    """Importing the profile (a layer under the reader) loads the geometry it checks
    corners with, and none of the reader's stages."""
    printed = _fresh_interpreter(
        "import sys\nimport assistant.profile\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('assistant.vision'))))"
    )
    assert printed.split() == ["assistant.vision", "assistant.vision.geometry"]


def test_the_toa_ring_is_the_puzzle_s_plates() -> None:
    """One definition of the ring: the grid the reader reads without a profile, and the
    shipped profile's, hold exactly the plates of :data:`assistant.puzzle.TOA_PLATES`."""
    from assistant.profile import TOA_RING
    from assistant.puzzle import TOA_PLATES

    assert tuple(TOA_RING.cells) == TOA_PLATES
    assert TOA_RING.is_toa_ring and toa_default_profile().grid == TOA_RING
