"""``python -m benchmarks.tiers``: how much of what the whole suite covers the fast tier covers.

Runs the test suite twice under coverage.py (through pytest-cov, on every core): the fast
tier (``make test-fast``) and everything (``make test``), then compares the lines each run
executed in ``gamesearch/`` and ``games/``. The fast tier is worth running before each
commit only while it reaches most of what the whole suite reaches; ``make coverage`` runs
this. Lines run only in subprocesses the tests start are counted by neither run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import coverage
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
#: the tiers ``make test-fast`` leaves out
FAST_TIER = "not slow and not browser and not docs and not build"
#: where the measured code lives, as coverage.py names the installed packages
SOURCES = ("gamesearch", "gamesearch_games")


def measure(data_file: Path, marks: str | None) -> float:
    """Run the suite (only the tests ``marks`` selects, if given) under coverage into
    ``data_file``; return the wall time in seconds.

    :raises subprocess.CalledProcessError: when a test fails.
    """
    command = [sys.executable, "-m", "pytest", "-q", "-n", "auto", "-p", "no:cacheprovider"]
    command += [f"--cov={source}" for source in SOURCES] + ["--cov-report="]
    if marks is not None:
        command += ["-m", marks]
    started = time.perf_counter()
    environment = {**os.environ, "COVERAGE_FILE": str(data_file)}
    subprocess.run(command, cwd=ROOT, env=environment, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def covered_lines(data_file: Path) -> dict[str, set[int]]:
    """Return the executed lines of each measured file, by path relative to the sources."""
    data = coverage.CoverageData(basename=str(data_file))
    data.read()
    found: dict[str, set[int]] = {}
    for path in data.measured_files():
        lines = data.lines(path) or []
        found[path] = set(lines)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Measure both tiers, print the table and return 0."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.tiers",
        description="Run the fast tier and the whole suite under coverage.py and print how "
        "many of the lines the whole suite covers the fast tier covers too.",
    )
    parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        fast_file, full_file = Path(folder) / "fast", Path(folder) / "full"
        fast_seconds = measure(fast_file, FAST_TIER)
        full_seconds = measure(full_file, None)
        fast, full = covered_lines(fast_file), covered_lines(full_file)
    table = Table(title="lines covered: the fast tier against the whole suite")
    for column in ("package", "whole suite", "fast tier", "share"):
        table.add_column(column, justify="left" if column == "package" else "right")
    totals = [0, 0]
    by_package: dict[str, list[int]] = {}
    for path, lines in full.items():
        package = "games" if "/games/" in path else "gamesearch"
        counts = by_package.setdefault(package, [0, 0])
        both = len(lines & fast.get(path, set()))
        counts[0] += len(lines)
        counts[1] += both
        totals[0] += len(lines)
        totals[1] += both
    for package, (whole, shared) in sorted(by_package.items()):
        table.add_row(package, f"{whole:,}", f"{shared:,}", f"{shared / whole:.1%}")
    table.add_row("all", f"{totals[0]:,}", f"{totals[1]:,}", f"{totals[1] / totals[0]:.1%}")
    Console().print(table)
    print(f"wall time: fast tier {fast_seconds:.0f} s, whole suite {full_seconds:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
