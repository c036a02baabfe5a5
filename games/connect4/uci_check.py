"""``gamesearch uci-check``: the weak solver against a random sample of the UCI Connect-4 data.

A command of the connect4 plugin.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from gamesearch.batch import Expect, Method, ResultStore, Status, Task, run_task
from gamesearch.cli.kit import (
    add_executor_arguments,
    check_at_least,
    executor_from,
    print_json,
    report_interruption,
    run_with_progress,
)
from gamesearch.search.nullwindow import solve

from .data import FETCH_COMMAND, UCI_FILE, UciRow, find_file, read_uci
from .report import add_data_argument, print_check

EXIT_DISAGREEMENT = 1
OUTCOMES = {1: "win", 0: "draw", -1: "loss"}
#: rows checked by default: about a minute on a 2-core machine with the default seed
DEFAULT_SAMPLE = 5


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "uci-check",
        help="check the weak Connect Four solver against the UCI connect-4.data labels",
        description="Read the UCI Connect-4 data set (every legal 8-ply 7x6 position with the "
        "first player's win/draw/loss), draw a random sample of its rows from the seed, solve "
        "each weakly and compare. A disagreement is printed and makes the exit status 1. "
        "A row takes from a millisecond to a few minutes (36 s on average on a 2-core "
        "machine, a few slow rows making most of it); the default sample of "
        f"{DEFAULT_SAMPLE} rows takes about a minute. A progress bar (or a line every few "
        "seconds when standard error is not a terminal) shows the time left; Ctrl-C prints "
        "the figures of the rows checked so far and exits with status 130. Rows are solved in "
        "this process, on --workers local processes or on a Dask cluster (--scheduler); with "
        "--store each result is kept in that SQLite file as it comes, and the same command "
        "run again solves only the rows missing.",
        epilog="examples:\n  gamesearch uci-check\n"
        "  gamesearch uci-check --sample 20 --seed 1      # 10 minutes or so\n"
        "  gamesearch uci-check --sample 100 --json       # about an hour\n"
        f"The file is {UCI_FILE} in the data folder, unless --file names it; "
        f"'{FETCH_COMMAND}' downloads it.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "-n",
        "--sample",
        type=int,
        default=DEFAULT_SAMPLE,
        help=f"rows to check (default: {DEFAULT_SAMPLE}, about a minute)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the random sample (default: 0)"
    )
    parser.add_argument(
        "--file", type=Path, help=f"the data file (default: {UCI_FILE} in the data folder)"
    )
    add_data_argument(parser)
    add_executor_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def tasks_of(rows: Iterable[UciRow]) -> list[Task]:
    """Return the batch tasks that solve each row weakly (a fresh table per row), compared
    with its label (the first player's win, draw or loss)."""
    return [
        Task(
            "connect4",
            row.grid,
            line=row.line,
            expected=row.result,
            expect=Expect.OUTCOME,
            method=Method.SOLVE_WEAK,
        )
        for row in rows
    ]


def run(args: argparse.Namespace) -> int:
    check_at_least("--sample", args.sample)
    path = find_file(str(args.file) if args.file is not None else UCI_FILE, args.data)
    started = time.perf_counter()
    rows = read_uci(path)
    parse_seconds = time.perf_counter() - started
    sample = random.Random(args.seed).sample(rows, min(args.sample, len(rows)))
    tasks = tasks_of(sample)
    work = functools.partial(
        run_task, solver=solve
    )  # this module's solver, looked up as the command runs
    with executor_from(args) as executor, ResultStore(args.store or ":memory:") as store:
        summary, interrupted = run_with_progress(
            tasks, store, executor, "checking UCI rows", work=work, unit="rows"
        )
        records = store.records(task.key for task in tasks)
    checked = [
        record for record in records if record.status is Status.DONE and record.found is not None
    ]
    seconds = [record.seconds for record in checked]
    disagreements = [
        {
            "line": r.line,
            "position": r.position,
            "expected": OUTCOMES[r.expected or 0],
            "found": OUTCOMES[r.found or 0],
        }
        for r in checked
        if not r.agrees
    ]
    report = {
        "file": path.name,
        "rows": len(rows),
        "parse_seconds": parse_seconds,
        "seed": args.seed,
        "sample": len(sample),
        "checked": len(checked),
        "interrupted": len(checked) < len(sample),
        "agree": len(checked) - len(disagreements),
        "solve_seconds": sum(seconds),
        "mean_seconds": statistics.fmean(seconds) if seconds else 0.0,
        "mean_nodes": statistics.fmean(r.nodes for r in checked) if checked else 0.0,
        "disagreements": disagreements,
    }
    if args.json:
        print_json(report)
    else:
        _print_report(report)
    for record in records:
        if record.status is not Status.DONE:
            print(
                f"failed on line {record.line}: {record.position}: {record.error}", file=sys.stderr
            )
    if interrupted:
        return report_interruption(len(checked), len(sample), "rows")
    return EXIT_DISAGREEMENT if disagreements or summary.failed else 0


def _print_report(report: dict[str, Any]) -> None:
    print_check(
        f"{report['file']}: weak solver against the labels",
        report["disagreements"],
        [
            ("rows parsed", f"{report['rows']:,} in {report['parse_seconds']:.2f} s"),
            (
                "rows checked (seed)",
                f"{report['checked']:,} of {report['sample']:,} ({report['seed']})",
            ),
            ("agree with the label", f"{report['agree']:,}"),
            ("solving time", f"{report['solve_seconds']:.2f} s"),
            ("mean time per row", _per_row(report["mean_seconds"])),
            ("mean nodes per row", f"{report['mean_nodes']:,.0f}"),
        ],
    )


def _per_row(seconds: float) -> str:
    return f"{seconds:,.1f} s" if seconds >= 1 else f"{seconds * 1000:,.1f} ms"
