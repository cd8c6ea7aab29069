"""Shared test set-up: Qt runs offscreen unless a test provides a real X server, and
every test that uses a Qt fixture is marked ``gui`` so ``pytest -m "not gui"`` runs the
core anywhere."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

#: ../shared beside the checkout: the real screenshot and reference puzzles live there and
#: are never copied into the repository.
SHARED = Path(__file__).resolve().parents[1].parent / "shared"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}

_QT_FIXTURES = {"qapp", "qtbot", "qtmodeltester", "qapp_args", "qapp_cls"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if _QT_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.gui)
    # the tests that take minutes (building the executable in CI) first: on several cores
    # (make test) they then run beside the rest of the suite, not after it
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def shared_file(*parts: str) -> Path:
    """A file under ../shared, or skip (fail in CI) with the reason when it is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        message = f"{path} is not present (../shared is read, never copied into the repo)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture
def cli(capsys):
    """Run ``toa-assistant ARGS`` in-process; returns ``(exit status, stdout, stderr)``.

    argparse's own errors leave through SystemExit, which is turned into its status."""
    from assistant.cli import main

    def run(*args: str) -> tuple[int, str, str]:
        try:
            code = main(list(args))
        except SystemExit as stop:
            code = stop.code
        out, err = capsys.readouterr()
        return code, out, err

    return run
