"""The benchmark subcommands of ``toa-assistant`` (``bench``, ``bench-vision``,
``bench-walk``, ``bench-live``, ``bench-lightup``), in a source checkout only.

Each module defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``,
like the product's commands (assistant/commands), and is listed in
:data:`assistant.cli.LAB_COMMANDS`.
"""
