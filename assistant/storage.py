"""Files users keep (settings, calibration profiles): written atomically, never silently lost."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

__all__ = ["atomic_write_bytes", "atomic_write_text", "set_aside"]


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` so that a crash leaves either the old file or the new one.

    The data goes to a temporary file in the same folder, is flushed to disk, then
    replaces the target with :func:`os.replace` (atomic on POSIX and Windows).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, target)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    return target


def atomic_write_text(path: str | os.PathLike[str], text: str) -> Path:
    """:func:`atomic_write_bytes` for UTF-8 text."""
    return atomic_write_bytes(path, text.encode("utf-8"))


def set_aside(path: str | os.PathLike[str]) -> Path:
    """Rename a file that could not be read to ``NAME.corrupt-YYYYmmdd-HHMMSS`` beside it
    and return the new path, so a fresh default can be written without losing the user's
    data."""
    source = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    candidate = source.with_name(f"{source.name}.corrupt-{stamp}")
    counter = 1
    while candidate.exists():
        candidate = source.with_name(f"{source.name}.corrupt-{stamp}-{counter}")
        counter += 1
    os.replace(source, candidate)
    return candidate
