"""Benchmarks: this framework against hand-written floors and peer libraries.

``gamesearch bench`` runs it; :func:`build_rows` and :func:`run_rows` are the
same machinery for use from Python.
"""

from gamesearch.bench.core import Contender, Measurement, Row, Skipped, ratios, run_rows
from gamesearch.bench.rows import build_rows

__all__ = ["Contender", "Measurement", "Row", "Skipped", "build_rows", "ratios", "run_rows"]
