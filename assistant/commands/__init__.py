"""One module per subcommand of ``toa-assistant``.

Each module defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``
and is listed in :data:`assistant.cli.COMMAND_MODULES`.
"""
