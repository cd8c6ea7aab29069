"""The one exception type the command line turns into a single sentence and exit status 2."""

from __future__ import annotations

__all__ = ["UserError"]


class UserError(ValueError):
    """Bad input from the user: the message is one sentence that says what and where.

    Library modules raise their own subclasses (``BoardError``, ``ProfileError``, ...);
    the command line catches them and prints only the message, never a traceback. It
    is a ``ValueError`` so library callers may treat it as one.
    """
