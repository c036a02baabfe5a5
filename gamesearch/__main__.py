"""``python -m gamesearch``."""

import sys

from gamesearch.cli import main

sys.exit(main())
