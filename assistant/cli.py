"""The ``toa-assistant`` command line: one program, one subcommand per module.

Bad input never ends in a traceback: every user error becomes one sentence on
standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import codecs
import importlib
import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import NoReturn

from assistant import __version__
from assistant.errors import UserError

__all__ = ["COMMAND_MODULES", "LAB_COMMANDS", "build_parser", "main", "use_utf8_output"]

#: Subcommand modules, in the order ``--help`` lists them: under ``assistant.commands``, or
#: under ``lab.commands`` for those in :data:`LAB_COMMANDS`.
COMMAND_MODULES: tuple[str, ...] = (
    "solve",
    "manual",
    "bench",
    "run",
    "demo",
    "calibrate",
    "bench_live",
    "detect",
    "bench_vision",
    "bench_walk",
    "lightup",
    "analyze",
    "bench_lightup",
)

#: The benchmark commands, by module: they live in the lab (lab/commands in the
#: repository), which is neither installed nor bundled into the executable. Their names
#: here let the command line say so when the lab is not there.
LAB_COMMANDS: dict[str, str] = {
    "bench": "bench",
    "bench_live": "bench-live",
    "bench_vision": "bench-vision",
    "bench_walk": "bench-walk",
    "bench_lightup": "bench-lightup",
}

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose errors are one sentence and exit status 2."""

    def error(self, message: str) -> NoReturn:
        message = one_line(message)
        sentence = message[:1].upper() + message[1:]
        if not sentence.endswith("."):
            sentence += "."
        self.exit(EXIT_USAGE, f"{self.prog}: {sentence} See '{self.prog} --help'.\n")


def _load(name: str) -> ModuleType | SimpleNamespace:
    if name in LAB_COMMANDS:
        return _lab_command(name)
    return importlib.import_module(f"assistant.commands.{name}")


def _lab_command(name: str) -> ModuleType | SimpleNamespace:
    """The lab's command module, or a stand-in that says where it runs when the lab is
    not here (the executable, an installed package)."""
    _find_lab()
    try:
        return importlib.import_module(f"lab.commands.{name}")
    except ModuleNotFoundError as error:
        if error.name not in ("lab", "lab.commands", f"lab.commands.{name}"):
            raise  # the lab is here, something it needs is not: not ours to hide
    command = LAB_COMMANDS[name]

    def run(_args: argparse.Namespace) -> int:
        raise UserError(
            f"{command} runs from a source checkout of the repository only (e.g. 'make "
            f"{command}'): the lab it needs is not part of the executable or an installed "
            "package."
        )

    return SimpleNamespace(
        NAME=command,
        HELP="A benchmark; it runs from a source checkout of the repository only.",
        add_arguments=lambda parser: parser.set_defaults(_lab_missing=True),
        run=run,
    )


def _find_lab() -> None:
    """Make the lab importable when this assistant package runs from a checkout of the
    repository (an editable install or ``python -m assistant`` there): the checkout's
    folder goes at the end of the import path, so it shadows nothing installed."""
    if "lab" in sys.modules or importlib.util.find_spec("lab") is not None:
        return
    checkout = Path(__file__).resolve().parents[1]
    if (checkout / "lab" / "__init__.py").is_file() and str(checkout) not in sys.path:
        sys.path.append(str(checkout))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="toa-assistant",
        description=(
            "Solve the Tombs of Amascut light puzzle (and any Lights Out grid) exactly; "
            "without a subcommand, start the assistant."
        ),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        module = _load(name)
        command = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(_run=module.run)
    return parser


def _default_run(_args: argparse.Namespace) -> int:
    """No subcommand: start the graphical assistant."""
    from assistant.capture import display_problem

    if display_problem():
        raise UserError(display_problem())
    from assistant.gui.app import main as gui_main

    return gui_main([])


def use_utf8_output(platform: str | None = None) -> None:
    """On Windows, write standard output and error as UTF-8 when they are not a console.

    Why: Windows gives a redirected stream (``> file``, a pipe) the ANSI code page, cp1252
    on Western systems, which cannot encode "→", "≤" or a picture's Cyrillic or Chinese
    name: ``print`` would raise in the middle of the output. A console needs nothing
    (Python writes it as UTF-16), and neither do Linux and macOS (UTF-8 already)."""
    if (platform or sys.platform) != "win32":
        return
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        if encoding is None or not hasattr(stream, "reconfigure"):
            continue  # no stream at all (a windowed start), or not a text file
        if codecs.lookup(encoding).name != "utf-8":
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    use_utf8_output()
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown and not getattr(args, "_lab_missing", False):
        # what parse_args does; a lab command without its lab takes any arguments, so that
        # it can say where it runs instead of what it does not know
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    run = getattr(args, "_run", _default_run)
    try:
        return int(run(args) or 0)
    except (UserError, OSError) as error:
        # UserError subclasses (BoardError, ProfileError, ...) carry user sentences;
        # OSError covers unreadable or unwritable files.
        message = one_line(_sentence(error))
        print(f"toa-assistant: {message}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


def one_line(text: str) -> str:
    """A message on one line: control characters the user typed (a newline in a board,
    a NUL in a title) are shown escaped, never printed."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def _sentence(error: BaseException) -> str:
    if isinstance(error, OSError) and not isinstance(error, UserError):
        where = f" {error.filename!s}" if getattr(error, "filename", None) else ""
        reason = error.strerror or str(error)
        return f"Could not use{where}: {reason}."
    text = str(error).strip() or error.__class__.__name__
    return text if text.endswith((".", "!", "?")) else text + "."
