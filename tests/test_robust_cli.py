"""Issue 12: commands that used to hang, crash or end in a riddle."""

from __future__ import annotations

import pytest

from assistant.capture import display_problem, x_display_reachable


@pytest.mark.parametrize(
    "args",
    [
        ["demo", "--seconds", "-1"],
        ["run", "--seconds", "-3"],
        ["demo", "--seconds", "nan"],
        ["bench-live", "--seconds", "0"],
        ["bench-live", "--soak", "0"],
    ],
)
def test_durations_must_be_positive(cli, args) -> None:
    code, out, err = cli(*args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "must be a positive" in err


def test_an_unreachable_display_is_one_sentence(cli, monkeypatch) -> None:
    monkeypatch.setenv("DISPLAY", ":197")  # nothing listens there
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert x_display_reachable(":197") is False
    assert "cannot be reached" in display_problem()
    for command in ([], ["manual"], ["demo"]):
        code, out, err = cli(*command)
        assert code == 2 and out == "" and err.count("\n") == 1
        assert "The display :197 (DISPLAY) cannot be reached" in err
    assert x_display_reachable("weird display name") is None
