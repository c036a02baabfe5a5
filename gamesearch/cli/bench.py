"""``gamesearch bench``: this framework, the hand-written floors and the peers, side by side."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from gamesearch.bench import build_rows, run_rows
from gamesearch.bench.core import CLOCKS
from gamesearch.bench.report import as_data, print_table, save_plot
from gamesearch.cli._common import integer, print_json
from gamesearch.cli._output import check_at_least, console, progress
from gamesearch.cli._plot import check_plot_file
from gamesearch.errors import InvalidOptionError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="benchmark the searchers against hand-written floors and peer libraries",
        description="Run the same searches in this framework, in a loop hand-written for each "
        "game (the floor) and in the installed peers (easyAI, aima-python, OpenSpiel), "
        "interleaved, several times each; print median time, nodes, nodes per second and "
        "the ratio to this framework. Peers that are not installed are left out and listed "
        "under the table (pip install 'gamesearch[bench]' adds easyAI and OpenSpiel; "
        "aima-python needs pip install --no-deps aima3). Compare ratios within one run: the "
        "machine's load changes between runs.",
        epilog="examples:\n  gamesearch bench --quick\n"
        "  gamesearch bench --repeat 7 --json > bench.json\n"
        "  gamesearch bench --only minimax --plot minimax.png",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("-r", "--repeat", type=integer, default=5, help="runs of each search (default: 5)")
    parser.add_argument("--quick", action="store_true", help="only the rows that take seconds, not minutes")
    parser.add_argument("--only", metavar="TEXT", help="only the rows whose name contains TEXT")
    parser.add_argument("--no-peers", action="store_true", help="leave the peer libraries out")
    parser.add_argument(
        "--clock", choices=tuple(CLOCKS), default="cpu",
        help="cpu: CPU time of this process (steady on a shared machine, the default); wall: elapsed",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the results as one JSON object")
    parser.add_argument("--plot", type=Path, metavar="FILE.png", help="also draw the medians into an image")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    check_at_least("--repeat", args.repeat)
    if args.plot is not None:
        check_plot_file(args.plot)
    rows, skipped = build_rows(quick=args.quick, peers=not args.no_peers, only=args.only)
    if not rows:
        raise InvalidOptionError(f"no benchmark row matches --only {args.only!r}")
    total = args.repeat * sum(len(row.contenders) for row in rows)
    with progress("bench", total) as advance:
        measurements = run_rows(rows, repeat=args.repeat, clock=args.clock, progress=advance)
    if args.plot is not None:
        try:
            save_plot(measurements, check_plot_file(args.plot))
        except OSError as error:  # the folder changed while the benchmark ran
            raise InvalidOptionError(f"cannot write the plot {str(args.plot)!r}: {error.strerror or error}") from None
    if args.json:
        print_json(as_data(rows, measurements, skipped, repeat=args.repeat, clock=args.clock))
    else:
        print_table(console(), rows, measurements, skipped, repeat=args.repeat, clock=args.clock)
    return 0
