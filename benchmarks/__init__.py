"""Benchmarks: this framework against hand-written floors and peer libraries.

A developer tool of the repository, not shipped with the package. From the
repository's root, ``python -m benchmarks`` (or ``make bench``) runs it;
:func:`build_rows` and :func:`run_rows` are the same machinery for use from Python.
"""

from benchmarks.core import Contender, Measurement, Row, Skipped, ratios, run_rows
from benchmarks.rows import build_rows

__all__ = ["Contender", "Measurement", "Row", "Skipped", "build_rows", "ratios", "run_rows"]
