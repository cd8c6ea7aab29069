"""The executable's entry point: the same ``main`` as the ``toa-assistant`` console script."""

import sys

from assistant.cli import main

if __name__ == "__main__":
    sys.exit(main())
