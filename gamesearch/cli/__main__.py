"""``python -m gamesearch.cli``."""

import sys

from gamesearch.cli import main

sys.exit(main())
