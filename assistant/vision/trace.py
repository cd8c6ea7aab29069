"""Which stage of the reader decided what, for one reading.

The reader is a line of stages (locate the ring, place it, read each plate, set aside the
plates it cannot read, decide), each with rules that accept or turn down what the stage
before gave it. A reading carries the notes its stages made (:attr:`Reading.trace`), so
a frame that went wrong can be explained without a debugger: ``detect --trace`` prints
them, and they are logged at DEBUG.

Notes are collected per call of the reader (a context variable, so threads and nested
calls keep their own): a stage calls :func:`note`, the reader's entry point wraps its
work in :func:`recording`. Outside a recording a note costs one lookup and is dropped.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

__all__ = ["TraceStep", "apart", "note", "recording"]

log = logging.getLogger("assistant.vision")


@dataclass(frozen=True)
class TraceStep:
    """One note: the stage that made it and what it decided, in words."""

    stage: str
    text: str

    def __str__(self) -> str:
        return f"{self.stage}: {self.text}"


_steps: ContextVar[list[TraceStep] | None] = ContextVar("reader_trace", default=None)


def note(stage: str, text: str) -> None:
    """Record what ``stage`` decided (dropped outside :func:`recording`)."""
    steps = _steps.get()
    if steps is not None:
        steps.append(TraceStep(stage, text))
        log.debug("%s: %s", stage, text)


@contextmanager
def recording() -> Iterator[list[TraceStep]]:
    """Collect the notes made inside the block (a nested recording collects its own, and
    hands them on to the outer one when it ends)."""
    outer = _steps.get()
    steps: list[TraceStep] = []
    token = _steps.set(steps)
    try:
        yield steps
    finally:
        _steps.reset(token)
        if outer is not None:
            outer.extend(steps)


@contextmanager
def apart() -> Iterator[None]:
    """Notes made inside the block go to no recording outside it: a read made only to
    compare with (not the one answered with) would otherwise read as part of the answer."""
    token = _steps.set(None)
    try:
        yield
    finally:
        _steps.reset(token)
