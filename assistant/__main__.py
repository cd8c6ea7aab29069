"""``python -m assistant`` runs the same program as the ``toa-assistant`` script."""

import sys

from assistant.cli import main

sys.exit(main())
