"""``python -m benchmarks.tiers``: how much of what the whole suite covers the fast tier covers.

Runs the test suite twice under coverage.py (through pytest-cov, on every core): the fast
tier (``make test-fast``) and everything (``make test``), then compares the lines each run
executed in ``gamesearch/`` and ``games/``. The fast tier is worth running before each
commit only while it reaches most of what the whole suite reaches; ``make coverage`` runs
this. Lines run only in subprocesses the tests start are counted by neither run.

A run in which a test fails prints pytest's report of the failures and exits with status 1
(a failing test covers less than it should, so the share would mislead).

    python -m benchmarks.tiers                         # both tiers, then the table
    python -m benchmarks.tiers --keep cov/             # keep both runs' data and output
    python -m benchmarks.tiers --keep cov/ -- --durations=40   # options for pytest
    python -m benchmarks.tiers --keep cov/ --fast-only # the fast tier again, against the
                                                       # whole suite's data kept in cov/
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
#: what ``make test-fast`` passes pytest: the tiers it leaves out, and fewer hypothesis
#: examples where a test names no count (the profile of tests/conftest.py)
FAST_TIER = (
    "-m",
    "not slow and not browser and not docs and not build",
    "--hypothesis-profile=fast",
)
#: where the measured code lives, as coverage.py names the installed packages
SOURCES = ("gamesearch", "gamesearch_games")


def output_file(data_file: Path) -> Path:
    """Return where :func:`measure` keeps pytest's output of the run into ``data_file``."""
    return data_file.with_name(f"{data_file.name}-pytest.txt")


class SuiteFailed(Exception):
    """A measured run of the suite had failing tests (or pytest could not run them)."""


def measure(data_file: Path, pytest_options: Sequence[str] = ()) -> float:
    """Run the suite with ``pytest_options`` (a tier's and the caller's) under coverage
    into ``data_file``, and write pytest's output beside it (``<data_file>-pytest.txt``:
    coverage.py erases ``<data_file>.*`` as a run starts); return the wall time in seconds.

    :raises SuiteFailed: when a test fails or pytest stops with an error; the message
        holds pytest's output from its first report of a failure on (all of it when
        there is none).
    """
    command = [sys.executable, "-m", "pytest", "-q", "-n", "auto", "-p", "no:cacheprovider"]
    command += ["-p", "no:nbmake"]  # a plugin the suite does not use (see the Makefile)
    command += [f"--cov={source}" for source in SOURCES] + ["--cov-report="]
    command += pytest_options
    started = time.perf_counter()
    environment = {**os.environ, "COVERAGE_FILE": str(data_file)}
    finished = subprocess.run(
        command,
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
    )
    output_file(data_file).write_text(finished.stdout)
    if finished.returncode != 0:
        output = finished.stdout
        # pytest -q prints a progress line of dots first; the report starts at the first
        # section header (FAILURES, ERRORS, short test summary info)
        report = output.find("\n=")
        raise SuiteFailed(output[report + 1 :] if report >= 0 else output)
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
    """Measure both tiers (or the fast one, against kept data), print the table; return 0,
    1 when a test failed (after printing pytest's report), 2 on a wrong command line."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.tiers",
        description="Run the fast tier and the whole suite under coverage.py and print how "
        "many of the lines the whole suite covers the fast tier covers too.",
    )
    parser.add_argument(
        "--keep",
        metavar="FOLDER",
        type=Path,
        help="keep the coverage data of both runs in FOLDER (files fast and full) and "
        "pytest's output beside them (fast-pytest.txt, full-pytest.txt)",
    )
    parser.add_argument(
        "--fast-only",
        action="store_true",
        help="run only the fast tier and compare it with the whole suite's data kept in "
        "the --keep folder by an earlier run",
    )
    parser.add_argument(
        "pytest_options", nargs="*", metavar="PYTEST_OPTION", help="options passed to pytest"
    )
    arguments = parser.parse_args(argv)
    if arguments.fast_only and (arguments.keep is None or not (arguments.keep / "full").exists()):
        parser.error("--fast-only needs --keep naming a folder where an earlier run kept its data")
    with tempfile.TemporaryDirectory() as scratch:
        folder = arguments.keep if arguments.keep is not None else Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        fast_file, full_file = folder.resolve() / "fast", folder.resolve() / "full"
        try:
            fast_seconds = measure(fast_file, [*FAST_TIER, *arguments.pytest_options])
            full_seconds = (
                None if arguments.fast_only else measure(full_file, arguments.pytest_options)
            )
        except SuiteFailed as failed:
            print(failed, file=sys.stderr)
            print("a test failed: no share is measured until every test passes", file=sys.stderr)
            return 1
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
    whole_suite = "kept" if full_seconds is None else f"{full_seconds:.0f} s"
    print(f"wall time: fast tier {fast_seconds:.0f} s, whole suite {whole_suite}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
