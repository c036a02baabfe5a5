"""``python -m benchmarks.against OTHER``: this tree's benchmark rows against another tree's.

A change to a search core must keep every row of ``python -m benchmarks`` within a few per
cent of where it was. Timings from two separate runs cannot be compared on a shared
machine, so this command runs the benchmark of both trees in the same rounds, one after
the other (``--rounds`` times, the order swapped each round), each with its own
interpreter, and compares per row the median over the rounds of

- the floor's ratio (the hand-written loop's time over the framework's: the framework's
  overhead, steady under load), where the row has a floor;
- the framework's own median time, where it has none.

``OTHER`` is a checkout of the tree to compare against, with its own ``.venv`` (for
example ``git worktree add /tmp/before main && make -C /tmp/before run``)::

    python -m benchmarks.against /tmp/before --only tic-tac-toe --rounds 7
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from benchmarks.core import FLOOR, FRAMEWORK

ROOT = Path(__file__).resolve().parent.parent


def interpreter(tree: Path) -> Path:
    """Return the Python of ``tree``'s own virtual environment.

    :raises SystemExit: when it has none.
    """
    python = tree / ".venv" / "bin" / "python"
    if not python.is_file():
        raise SystemExit(
            f"{tree} has no .venv: create it with 'make -C {tree} run' and run this again"
        )
    return python


def one_run(tree: Path, options: Sequence[str]) -> dict[str, dict[str, float]]:
    """Return ``{row: {"ratio": floor ratio or None, "seconds": framework median}}`` of one
    ``python -m benchmarks --no-peers --json`` run in ``tree``."""
    command = [str(interpreter(tree)), "-m", "benchmarks", "--no-peers", "--json", *options]
    done = subprocess.run(command, cwd=tree, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the benchmark failed in {tree}:\n{done.stderr}")
    data = json.loads(done.stdout)
    rows: dict[str, dict[str, Any]] = {}
    for result in data["results"]:
        row = rows.setdefault(result["row"], {"ratio": None, "seconds": None})
        if result["library"] == FRAMEWORK:
            row["seconds"] = result["median_seconds"]
        elif result["library"] == FLOOR:
            row["ratio"] = result["ratio"]
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    """Run both trees' benchmarks in rounds, print the comparison and return 0."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.against",
        description="Run this tree's and another tree's benchmark rows in the same rounds "
        "and compare their floor ratios (or the framework's time, for rows without a floor).",
    )
    parser.add_argument("other", type=Path, help="a checkout of the tree to compare against")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each tree (default: 5)")
    parser.add_argument("--repeat", type=int, default=3, help="--repeat of each run (default: 3)")
    parser.add_argument("--only", metavar="TEXT", help="only the rows whose name contains TEXT")
    parser.add_argument("--quick", action="store_true", help="only the rows that take seconds")
    parser.add_argument("--json", action="store_true", help="print the medians as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.repeat < 1:
        parser.error("--rounds and --repeat must be at least 1")
    options = ["--repeat", str(args.repeat)]
    options += ["--only", args.only] if args.only else []
    options += ["--quick"] if args.quick else []
    trees = {"before": args.other.resolve(), "now": ROOT}
    runs: dict[str, list[dict[str, dict[str, float]]]] = {"before": [], "now": []}
    for number in range(args.rounds):
        order = ("before", "now") if number % 2 == 0 else ("now", "before")
        for which in order:
            runs[which].append(one_run(trees[which], options))
        print(f"round {number + 1} of {args.rounds} done", file=sys.stderr)
    summary = {}
    for row in runs["now"][0]:
        medians = {}
        for which in trees:
            found = [run[row] for run in runs[which] if row in run]
            ratios = [item["ratio"] for item in found if item["ratio"] is not None]
            seconds = [item["seconds"] for item in found if item["seconds"] is not None]
            medians[which] = {
                "ratio": statistics.median(ratios) if ratios else None,
                "seconds": statistics.median(seconds) if seconds else None,
            }
        summary[row] = medians
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    table = Table(title=f"{args.rounds} rounds, each tree's rows run one after the other")
    columns = ("row", "floor ratio before", "now", "now / before", "framework ms, before / now")
    for column in columns:
        table.add_column(column, justify="left" if column == "row" else "right")
    for row, medians in summary.items():
        before, now = medians["before"], medians["now"]
        change = "-"
        if before["ratio"] and now["ratio"]:
            change = f"{now['ratio'] / before['ratio']:.3f}"
        elif before["seconds"] and now["seconds"]:
            change = f"{before['seconds'] / now['seconds']:.3f} (time)"
        ms = [
            "-" if value["seconds"] is None else f"{value['seconds'] * 1000:.1f}"
            for value in (before, now)
        ]
        table.add_row(
            row,
            "-" if before["ratio"] is None else f"{before['ratio']:.3f}",
            "-" if now["ratio"] is None else f"{now['ratio']:.3f}",
            change,
            f"{ms[0]} / {ms[1]}",
        )
    Console().print(table)
    print("now / before above 1: faster than before (a floor ratio is floor time over ours)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
