"""The benchmarks' results files: one CSV per benchmark, one row per run and part, so a
benchmark's history is data that can be compared and plotted, never prose.

A file is checked before a run of minutes (its header must be the benchmark's own) and
appended to after it; a file with other columns is left untouched with one sentence (exit
status 2), as rows under the wrong header would be misread later."""

from __future__ import annotations

import csv
import subprocess
from pathlib import Path

from assistant.errors import UserError

__all__ = ["ResultsError", "check_results_file", "current_commit", "record_results"]


class ResultsError(UserError):
    """A results file that cannot be used."""


def check_results_file(path: Path, columns: tuple[str, ...], benchmark: str) -> bool:
    """Whether the results file at ``path`` is new (absent or empty); one sentence when it
    holds other columns than ``columns`` (``benchmark`` names whose file it should be)."""
    path = Path(path)
    if not path.exists() or path.stat().st_size == 0:
        return True
    try:
        with path.open(newline="", encoding="utf-8") as existing:
            header = next(csv.reader(existing), [])
    except (OSError, UnicodeDecodeError, csv.Error):
        header = []
    if tuple(header) != columns:
        raise ResultsError(f"{path} is not a {benchmark} results file (its first line is not "
                           f"{','.join(columns)}).")
    return False


def record_results(path: Path, rows: list[dict], columns: tuple[str, ...],
                   benchmark: str) -> None:
    """Append ``rows`` to the results file at ``path``, writing its header when the file
    is new or empty."""
    path = Path(path)
    new = check_results_file(path, columns, benchmark)
    try:
        with path.open("a", newline="", encoding="utf-8") as out:
            writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
            if new:
                writer.writeheader()
            writer.writerows(rows)
    except OSError as error:
        raise ResultsError(f"Could not write the results file {path}: "
                           f"{error.strerror}.") from None


def current_commit() -> str:
    """The short commit of the source checkout, or "unknown" (no git, or the executable)."""
    try:
        done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, cwd=Path(__file__).resolve().parent, timeout=10,
                              check=False)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else "unknown"
