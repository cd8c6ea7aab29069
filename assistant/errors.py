"""The one exception type the command line turns into a single sentence and exit status 2."""

from __future__ import annotations

__all__ = ["UserError", "check_seconds"]


class UserError(ValueError):
    """Bad input from the user: the message is one sentence that says what and where.

    Library modules raise their own subclasses (``BoardError``, ``ProfileError``, ...);
    the command line catches them and prints only the message, never a traceback. It
    is a ``ValueError`` so library callers may treat it as one.
    """


def check_seconds(seconds: float | None, option: str = "--seconds") -> None:
    """A duration option: None (no limit) or a positive, finite number of seconds."""
    if seconds is None:
        return
    if not (seconds > 0 and seconds < 10**7):  # also NaN and infinity
        raise UserError(f"{option} must be a positive number of seconds, not {seconds:g}.")
