"""``gamesearch solve-bench``: solve a Connect Four benchmark set and compare with its scores.

A command of the connect4 plugin.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
from collections.abc import Iterable
from typing import Any

import attrs

from gamesearch.batch import Expect, Method, Record, ResultStore, Status, Task, run_task
from gamesearch.cli.kit import (
    add_executor_arguments,
    check_at_least,
    executor_from,
    print_json,
    report_interruption,
    run_with_progress,
)
from gamesearch.search.nullwindow import solve

from .data import (
    FETCH_COMMAND,
    PONS,
    PONS_REFERENCE,
    PonsReference,
    ScoredPosition,
    find_file,
    published_set,
    read_score_file,
)
from .report import add_data_argument, print_check

EXIT_DISAGREEMENT = 1
#: positions in each of Pons' published sets
SET_SIZE = 1000


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "solve-bench",
        help="solve a Connect Four benchmark set (Pons' Test_L*_R*) and check every score",
        description="Solve every position of a file of '<moves> <score>' lines (Pascal Pons' "
        "Connect Four benchmark sets) with the solver searcher's null-window binary search, "
        "a fresh table per position, and compare with the file: positions solved, agreement, "
        "mean and median nodes, mean time, nodes per second, and the ratio to the mean nodes "
        "of Pons' own solver (only when the positions are the ones his mean covers). A "
        "disagreement is printed and makes the exit status 1. A progress bar (or a line every "
        "few seconds when standard error is not a terminal) shows the time left; Ctrl-C "
        "prints the figures of the positions solved so far and exits with status 130. "
        "Positions are solved in this process, on --workers local processes or on a Dask "
        "cluster (--scheduler); with --store each result is kept in that SQLite file as it "
        "comes, and the same command run again solves only the positions missing.",
        epilog="typical times for a whole set of 1000 positions on a 2-core machine (strong):\n"
        "  Test_L3_R1 under a second, Test_L2_R1 2 s, Test_L1_R1 1 min, Test_L2_R2 4 to 11 min,\n"
        "  Test_L1_R2 and Test_L1_R3 hours (about 30 s and minutes a position: use --limit)\n"
        "examples:\n  gamesearch solve-bench Test_L3_R1\n"
        "  gamesearch solve-bench Test_L2_R2 --weak --limit 100\n"
        "  gamesearch solve-bench path/to/Test_L1_R2 --limit 100 --json\n"
        f"A bare set name is looked up in the data folder; '{FETCH_COMMAND}' downloads the sets.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file", metavar="FILE", help="a benchmark file, or a set name such as Test_L2_R1"
    )
    parser.add_argument(
        "--weak", action="store_true", help="only win, draw or loss (compare signs)"
    )
    parser.add_argument("-n", "--limit", type=int, metavar="N", help="only the first N positions")
    add_data_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--each",
        action="store_true",
        help="also print one line per position as it is solved (kept if the run is stopped)",
    )
    add_executor_arguments(parser)
    parser.set_defaults(handler=run)


@attrs.frozen
class SolvedPosition:
    """One benchmark position solved: what the file expects, what the solver found."""

    position: ScoredPosition
    expected: int  #: the file's score (its sign when weak)
    found: int
    nodes: int
    seconds: float

    @property
    def agrees(self) -> bool:
        """Return whether the solver found what the file expects."""
        return self.found == self.expected


def tasks_of(positions: Iterable[ScoredPosition], *, weak: bool = False) -> list[Task]:
    """Return the batch tasks that solve each position (its exact value alone, a fresh
    table per position), compared with the file's score (weak: its sign)."""
    method, expect = (Method.SOLVE_WEAK, Expect.SIGN) if weak else (Method.SOLVE, Expect.SCORE)
    return [
        Task(
            "connect4",
            position.moves,
            line=position.line,
            expected=_sign(position.score) if weak else position.score,
            expect=expect,
            method=method,
            format=None if weak else PONS,
        )
        for position in positions
    ]


def run(args: argparse.Namespace) -> int:
    check_at_least("--limit", args.limit)
    path = find_file(args.file, args.data)
    positions = read_score_file(path)[: args.limit]
    published = published_set(path)
    by_line = {position.line: position for position in positions}
    tasks = tasks_of(positions, weak=args.weak)

    def each(record: Record) -> None:
        if args.each and record.status is Status.DONE:
            print(
                f"line {record.line} {record.position} expected {record.expected} "
                f"found {record.found} nodes {record.nodes} seconds {record.seconds:.4f}",
                flush=True,
            )

    work = functools.partial(
        run_task, solver=solve
    )  # this module's solver, looked up as the command runs
    with executor_from(args) as executor, ResultStore(args.store or ":memory:") as store:
        summary, interrupted = run_with_progress(
            tasks, store, executor, f"solving {path.name}", each=each, work=work
        )
        records = store.records(task.key for task in tasks)
    solved = [
        SolvedPosition(by_line[r.line], r.expected, r.found, r.nodes, r.seconds)
        for r in sorted(records, key=lambda record: record.line)
        if r.status is Status.DONE and r.expected is not None and r.found is not None
    ]
    report = _report(path.name, published, args.weak, solved, planned=len(positions))
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
        return report_interruption(len(solved), len(positions), "positions")
    return EXIT_DISAGREEMENT if report["disagreements"] or summary.failed else 0


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def _report(
    name: str, published: str | None, weak: bool, solved: list[SolvedPosition], *, planned: int
) -> dict[str, Any]:
    nodes = [result.nodes for result in solved]
    total_seconds = sum(result.seconds for result in solved)
    mean_nodes = statistics.fmean(nodes) if nodes else 0.0
    disagreements = [
        {
            "line": r.position.line,
            "position": r.position.moves,
            "expected": r.expected,
            "found": r.found,
        }
        for r in solved
        if not r.agrees
    ]
    pons, ratio, note = _pons_comparison(name, published, weak, len(solved), mean_nodes)
    return {
        "file": name,
        "set": published,
        "mode": "weak" if weak else "strong",
        "positions": len(solved),
        "planned": planned,
        "interrupted": len(solved) < planned,
        "agree": len(solved) - len(disagreements),
        "mean_nodes": mean_nodes,
        "median_nodes": statistics.median(nodes) if nodes else 0,
        "mean_seconds": total_seconds / len(solved) if solved else 0.0,
        "nodes_per_second": sum(nodes) / total_seconds if total_seconds > 0 else 0.0,
        "pons_mean_nodes": None if pons is None else pons.mean_nodes(weak),
        "pons_positions": None if pons is None else pons.positions,
        "ratio_to_pons": ratio,
        "pons_note": note,
        "disagreements": disagreements,
    }


def _pons_comparison(
    name: str, published: str | None, weak: bool, solved: int, mean_nodes: float
) -> tuple[PonsReference | None, float | None, str | None]:
    """Return Pons' reference for the set, the ratio of the mean nodes to his (``None``
    unless the positions solved are exactly those his mean covers) and why not."""
    known = published or (name if name in PONS_REFERENCE else None)
    if known is None:
        return None, None, None
    reference = PONS_REFERENCE[known]
    covers = _covers(reference)
    if published is None:
        return (
            reference,
            None,
            (
                f"no ratio to Pons: this file is not the published {known}, whose {covers} his "
                "mean covers"
            ),
        )
    if solved != reference.positions:
        return (
            reference,
            None,
            (
                f"no ratio to Pons: his mean covers {covers} of {known} and his counts per "
                "position "
                f"are not published, so it is not comparable with these {solved:,}"
            ),
        )
    return reference, mean_nodes / reference.mean_nodes(weak), None


def _covers(reference: PonsReference) -> str:
    if reference.positions == SET_SIZE:
        return f"all {SET_SIZE:,} positions"
    return f"the first {reference.positions:,} positions"


def _print_report(report: dict[str, Any]) -> None:
    pons = report["pons_mean_nodes"]
    ratio = report["ratio_to_pons"]
    covered = (
        "" if pons is None else f" ({_covers(PONS_REFERENCE[report['set'] or report['file']])})"
    )
    print_check(
        f"{report['file']} ({report['mode']})",
        report["disagreements"],
        [
            ("positions solved", f"{report['positions']:,}"),
            ("agree with the file", f"{report['agree']:,}"),
            ("mean nodes", f"{report['mean_nodes']:,.1f}"),
            ("median nodes", f"{report['median_nodes']:,.0f}"),
            ("mean time", f"{report['mean_seconds'] * 1000:,.2f} ms"),
            ("nodes per second", f"{report['nodes_per_second']:,.0f}"),
            (f"Pons' mean nodes{covered}", "-" if pons is None else f"{pons:,.1f}"),
            ("ratio to Pons", "-" if ratio is None else f"{ratio:.2f}"),
        ],
        notes=(report["pons_note"],) if report["pons_note"] else (),
    )
