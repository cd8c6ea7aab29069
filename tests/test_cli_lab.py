"""The benchmark commands live in the lab (lab/ in the repository), outside the installed
package: from a checkout they run; without the lab (the executable, an installed wheel)
each says in one sentence where it runs, exit status 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.cli import LAB_COMMANDS

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def without_lab(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lab made unimportable, as in the executable (None in sys.modules stops an
    import of it; its modules already imported are dropped for the test)."""
    for name in [name for name in sys.modules if name == "lab" or name.startswith("lab.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "lab", None)


@pytest.mark.parametrize("command", sorted(LAB_COMMANDS.values()))
def test_without_the_lab_each_benchmark_says_where_it_runs(cli, without_lab, command):
    code, out, err = cli(command, "--json", "--seed", "3")
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0] == (
        f"toa-assistant: {command} runs from a source checkout of the repository only "
        f"(e.g. 'make {command}'): the lab it needs is not part of the executable or an "
        "installed package."
    )


def test_without_the_lab_the_rest_of_the_command_line_is_unchanged(cli, without_lab):
    code, out, _ = cli("--help")
    assert code == 0
    for command in (*LAB_COMMANDS.values(), "solve", "detect", "demo"):
        assert command in out
    assert "runs from a source checkout of the repository only" in " ".join(out.split())
    code, out, err = cli("solve", "--preset", "toa", "111/0#0/110", "--bogus")
    assert code == 2 and out == ""
    assert "Unrecognized arguments: --bogus." in err
    code, out, _ = cli("solve", "--preset", "toa", "111/0#0/110")
    assert code == 0 and out


def test_from_the_checkout_the_benchmarks_are_the_labs(cli):
    """In-process (the tests import the lab from the checkout): the real commands."""
    import lab.commands.bench_lightup

    code, out, _ = cli("bench-lightup", "--help")
    assert code == 0
    assert "--puzzles" in out
    assert sys.modules["lab.commands.bench_lightup"] is lab.commands.bench_lightup


def test_the_installed_command_finds_the_lab_of_its_checkout(tmp_path: Path):
    """Started outside the repository, with nothing on PYTHONPATH: the assistant package
    (installed in editable mode from this checkout) finds the lab beside itself."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    result = subprocess.run(
        [sys.executable, "-m", "assistant", "bench-lightup", "--help"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "--puzzles" in result.stdout
    assert "source checkout" not in result.stdout


def test_the_product_never_imports_the_lab():
    """scripts/check_structure.py: no module of assistant/ imports the lab (the command
    line loads the benchmark commands by name)."""
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        import check_structure
    finally:
        sys.path.remove(str(REPO / "scripts"))
    assert not [line for line in check_structure.breaches() if "imports the lab" in line]
