"""``gamesearch batch``: search every position of a file, on local processes or Dask, stored in
SQLite."""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gamesearch.batch import (
    DEFAULT_STORE,
    BatchSummary,
    Executor,
    Expect,
    Record,
    ResultStore,
    Status,
    Task,
    check_worker_count,
    make_executor,
    make_tasks,
    missing_tasks,
    read_positions,
    run_batch,
    summarize,
)
from gamesearch.batch.tasks import game_data_sets
from gamesearch.cli._common import (
    add_clock_argument,
    add_data_argument,
    add_game_arguments,
    check_output_file,
    integer,
    parse_key_values,
    print_json,
    registry,
)
from gamesearch.cli._output import check_at_least, console
from gamesearch.cli._progress import interruptible, progress, report_interruption
from gamesearch.datasets.fetch import find_data_file
from gamesearch.datasets.formats import SEPARATOR
from gamesearch.errors import ClusterLostError, InvalidOptionError, MissingDataError
from gamesearch.search.base import Limit

EXIT_DISAGREEMENT = 1
#: searcher used when none is given
DEFAULT_SEARCHER = "solver"
#: disagreements and failures listed one a line before the summary
SHOWN_PROBLEMS = 10


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "batch",
        help="search every position of a file on local processes or a Dask cluster; results "
        "stored, resumable",
        description="Run one searcher (or several, for a comparison) on every position of FILE "
        "and store one record per position and searcher in an SQLite file: status (done, "
        "failed, over budget), value, best moves, nodes, seconds, the worker, and whether the "
        "value agrees with the one the file gives. FILE holds one position a line in the "
        f"game's notation, optionally followed by '{SEPARATOR}' and the expected final result "
        "(first player's view; an integer or win/draw/loss); a game's plugin may declare "
        "formats of its own (--format), and a file of a data set the plugin publishes (Pons' "
        "Connect Four sets, say) is read in the format its data set declares. Each record "
        "is written "
        "whole in a transaction of its own: Ctrl-C, a killed process or a lost worker loses "
        "only the positions being computed, and the same command run again computes only "
        "what the store is missing. A position on which the searcher raises is stored as "
        "failed with its message; one that exceeds --max-nodes or --seconds as over budget. "
        "Work runs on --workers local processes (default: one per core) or on the Dask "
        "cluster whose scheduler is at --scheduler. A progress bar (a line every few seconds "
        "when standard error is not a terminal) shows the time left; one summary line ends "
        "the run. Ctrl-C stops at once, prints the summary of what is stored and exits with "
        "status 130. The exit status is 1 when a value disagrees with the file or a position "
        "failed.",
        epilog="typical times on a 2-core machine with the default solver:\n"
        "  Test_L3_R1 or Test_L2_R1 (1,000 positions): a second or two with 2 workers;\n"
        "  Test_L1_R1: under a minute; the UCI set (67,557 rows, weakly): about four weeks\n"
        "  here, an afternoon on a hundred such machines (see the docs page on batch work)\n"
        "examples:\n"
        "  gamesearch batch connect4 Test_L2_R1 --workers 2\n"
        "  gamesearch batch connect4 Test_L1_R1 --limit 100 --store l1.sqlite --json\n"
        "  gamesearch batch connect4 connect-4.data --searcher solver:scoring=plain --expect "
        "outcome "
        "--scheduler tcp://10.0.0.5:8786\n"
        "  gamesearch batch tictactoe positions.txt -s alphabeta -s mcts:simulations=500 --seconds "
        "2\n"
        "Dask needs the extra: pip install 'gamesearch[distributed]'.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(parser, position=False)
    parser.add_argument(
        "file",
        metavar="FILE",
        help="positions, one a line, or the name of a file of the game's data set (such as "
        "Test_L2_R1 for connect4)",
    )
    parser.add_argument(
        "-s",
        "--searcher",
        action="append",
        metavar="SPEC",
        help="a searcher with options, e.g. alphabeta:depth=4 (repeatable; default: "
        f"{DEFAULT_SEARCHER})",
    )
    add_executor_arguments(
        parser,
        workers_default=None,
        workers_help=f"local worker processes (default: one per core, {os.cpu_count() or 1} here; "
        "1: this process)",
        store_help=f"the SQLite results file, created if missing (default: {DEFAULT_STORE})",
    )
    parser.set_defaults(store=DEFAULT_STORE)
    parser.add_argument(
        "-n", "--limit", type=integer, metavar="N", help="only the first N positions"
    )
    parser.add_argument("--max-nodes", type=integer, metavar="N", help="each search's node budget")
    parser.add_argument("--seconds", type=float, metavar="S", help="each search's time budget")
    add_clock_argument(parser)
    parser.add_argument(
        "--expect",
        choices=[kind.value for kind in Expect],
        help="what the file's values are: score (the format's own score, such as Pons' score for "
        "connect4), sign (side to move "
        "wins/draws/loses), outcome (first player wins/draws/loses), margin (first player's "
        "final result); default: from the file",
    )
    parser.add_argument(
        "--format",
        metavar="NAME",
        help="the format FILE is in: lines, or one the game's plugin declares (connect4: pons "
        "for Pons' '<moves> <score>' lines, uci for the UCI rows); default: the one the game's "
        "data set declares for a file of that name, else lines",
    )
    parser.add_argument(
        "--output", metavar="FILE.jsonl", help="also write this batch's records as JSON lines"
    )
    add_data_argument(
        parser,
        "the folder holding the game's data files (default: the folder 'gamesearch data fetch' "
        "downloads into)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object (the summary)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    check_at_least("--limit", args.limit)
    if args.output is not None:
        check_output_file(args.output)
    limit = _limit(args)
    options = parse_key_values(args.option)
    registry().new_game(args.game, None, **options)  # a bad game or option fails before any work
    path = _positions_file(args.game, args.file, args.data)
    positions, position_format = read_positions(
        path, args.game, format=args.format, options=options, limit=args.limit, registry=registry()
    )
    searchers = args.searcher or [DEFAULT_SEARCHER]
    for spec in searchers:
        registry().new_searcher(spec)
    tasks = make_tasks(
        args.game,
        positions,
        searchers,
        expect=Expect(args.expect) if args.expect else None,
        position_format=position_format,
        limit=limit,
        options=sorted(options.items()),
    )
    with executor_from(args) as executor, ResultStore(args.store) as store:
        summary, interrupted = run_with_progress(tasks, store, executor, f"batch {path.name}")
        keys = [task.key for task in tasks]
        records = store.records(keys)
        if args.output is not None:
            store.export_jsonl(check_output_file(args.output), keys)
    if args.json:
        print_json(
            {
                "file": path.name,
                "store": args.store,
                "executor": executor.description,
                # each search's budget: max_nodes, seconds and the clock they are measured on
                "limit": None if limit is None else {"clock": "wall", **limit.options()},
                **summary.as_dict(),
            }
        )
    else:
        out = console()
        for line in _problems(records):
            out.print(line)
        out.print(summary.line())
    if interrupted:
        return report_interruption(
            summary.done + summary.failed + summary.over_budget, summary.tasks, "positions"
        )
    return EXIT_DISAGREEMENT if summary.failed or summary.disagreed else 0


def add_executor_arguments(
    parser: argparse.ArgumentParser,
    *,
    workers_default: int | None = 1,
    workers_help: str = "local worker processes (default: 1, this process)",
    store_help: str = "keep every result in this SQLite file; the same command run again computes "
    "only what is missing",
) -> None:
    """Add ``--workers N`` (default 1: this process) or ``--scheduler ADDRESS``, and
    ``--store PATH`` (default: none) for a front end of the batch runner."""
    # the command's own default store, if any, is set with parser.set_defaults(store=...)
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "-w", "--workers", type=integer, default=workers_default, metavar="N", help=workers_help
    )
    where.add_argument(
        "--scheduler", metavar="ADDRESS", help="run on this Dask cluster, e.g. tcp://10.0.0.5:8786"
    )
    parser.add_argument("--store", metavar="PATH", help=store_help)


def executor_from(args: argparse.Namespace) -> Executor:
    """Return the executor of :func:`add_executor_arguments`' options: Dask at
    ``--scheduler``, else ``--workers`` local processes (one worker: this process; none
    given: one per core).

    :raises InvalidOptionError: for a bad number of workers or a scheduler that does not answer.
    :raises MissingDependencyError: for a scheduler without Dask installed.
    """
    if args.scheduler is not None:
        return make_executor(scheduler=args.scheduler)
    if args.workers is not None:
        check_worker_count(args.workers, "--workers")
    return make_executor(args.workers, inline_one=True)


def run_with_progress(
    tasks: list[Task],
    store: ResultStore,
    executor: Executor,
    description: str,
    *,
    each: Callable[[Record], None] | None = None,
    work: Callable[[Task], Record] | None = None,
    unit: str = "positions",
) -> tuple[BatchSummary, bool]:
    """Run ``tasks`` on ``executor`` into ``store`` with a progress display; return the
    summary and whether Ctrl-C stopped the run.

    ``each(record)``, if given, is called as each record is stored; ``work`` computes a
    task (see :func:`~gamesearch.batch.run_batch`); ``unit`` names the tasks on the display.
    """
    started = time.perf_counter()
    todo = len(missing_tasks(tasks, store))
    resumed = len({task.key for task in tasks}) - todo
    computed = 0
    note = f" ({resumed:,} stored before)" if resumed else ""
    with interruptible() as stop, progress(description + note, todo, unit=unit) as bar:

        def stored(record: Record) -> None:
            nonlocal computed
            computed += 1
            if each is not None:
                each(record)
            bar.advance(
                note=record.position if len(record.position) <= 40 else record.position[:37] + "..."
            )

        try:
            run_batch(tasks, store, executor, on_record=stored, work=work)
        except ClusterLostError as error:
            raise ClusterLostError(f"{error}; {_how_to_resume(store, computed, unit)}") from None
    summary = summarize(
        tasks, store, seconds=time.perf_counter() - started, computed=computed, resumed=resumed
    )
    return summary, stop.interrupted


def _how_to_resume(store: ResultStore, computed: int, unit: str) -> str:
    """Return what a run stopped half-way keeps in ``store`` and how to go on from there."""
    if store.path == ":memory:":
        return f"the {computed:,} {unit} computed were not kept (no --store)"
    return (
        f"the {computed:,} {unit} computed are kept in {store.path!r}: run the same command "
        "again to compute only the rest"
    )


def _limit(args: argparse.Namespace) -> Limit | None:
    check_at_least("--max-nodes", args.max_nodes)
    if args.seconds is not None and not args.seconds > 0:
        raise InvalidOptionError(f"--seconds must be > 0: {args.seconds!r}")
    if args.max_nodes is None and args.seconds is None:
        return None
    return Limit(max_nodes=args.max_nodes, seconds=args.seconds, clock=args.clock)


def _positions_file(game: str, name: str, data: Path | None) -> Path:
    """Return the file ``name``, or the file of that name of one of the game's data sets.

    :raises MissingDataError: naming the game's data files, if it has any.
    """
    path = Path(name)
    if path.is_file():
        return path
    data_sets = game_data_sets(registry(), game)
    for data_set in data_sets:
        if data_set.file(name) is not None:
            return find_data_file(data_set, name, data)
    known = [file.name for data_set in data_sets for file in data_set.files]
    listed = f"; the data files of {game} are {', '.join(known)}" if known else ""
    raise MissingDataError(f"no file {name!r}{listed}")


def _problems(records: list[Record]) -> list[str]:
    lines = []
    for record in records:
        if record.status is Status.FAILED:
            lines.append(
                f"failed on line {record.line}: {record.position} ({record.searcher}): "
                f"{record.error}"
            )
        elif record.agrees is False and record.status is Status.DONE:
            found = "an inexact value" if record.found is None else record.found
            lines.append(
                f"disagreement on line {record.line}: {record.position} ({record.searcher}) "
                f"expected {record.expected}, found {found}"
            )
    if len(lines) > SHOWN_PROBLEMS:
        lines = [
            *lines[:SHOWN_PROBLEMS],
            f"... and {len(lines) - SHOWN_PROBLEMS:,} more (see the store)",
        ]
    return lines
