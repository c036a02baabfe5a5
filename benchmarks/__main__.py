"""``python -m benchmarks``: run the benchmark (see ``python -m benchmarks --help``)."""

import sys

from benchmarks.cli import main

sys.exit(main())
