"""``python -m benchmarks``: this framework, the hand-written floors and the peers, side by side.

Run from the repository's root (``make bench`` does, after installing the peers).
Every error the user can cause ends in one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from benchmarks import build_rows, run_rows
from benchmarks.core import CLOCKS
from benchmarks.report import as_data, print_table, save_plot
from gamesearch.cli._common import integer, print_json
from gamesearch.cli._output import check_at_least, console, progress
from gamesearch.cli._plot import check_plot_file
from gamesearch.errors import GameSearchError, InvalidOptionError

PROG = "python -m benchmarks"
EXIT_USAGE = 2


class OneLineErrorParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        """Print ``message`` as one line naming ``--help`` and exit with status 2."""
        self.exit(EXIT_USAGE, f"{PROG}: error: {message} (see '{PROG} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    """Return the benchmark's argument parser."""
    parser = OneLineErrorParser(
        prog=PROG,
        description="Run the same searches in this framework, in a loop hand-written for each "
        "game (the floor) and in the installed peers (easyAI, aima-python, OpenSpiel), "
        "interleaved, several times each; print median time, nodes, nodes per second and "
        "the ratio to this framework. Peers that are not installed are left out and listed "
        "under the table (pip install 'gamesearch[bench]' adds easyAI and OpenSpiel; "
        "aima-python needs pip install --no-deps aima3). Compare ratios within one run: the "
        "machine's load changes between runs.",
        epilog="playing strength at equal CPU time (its own options: see 'python -m benchmarks "
        "strength --help'):\n  python -m benchmarks strength GAME\n"
        "examples:\n  python -m benchmarks --quick\n"
        "  python -m benchmarks --repeat 7 --json > bench.json\n"
        "  python -m benchmarks --only minimax --plot minimax.png",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "-r", "--repeat", type=integer, default=5, help="runs of each search (default: 5)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="only the rows that take seconds, not minutes"
    )
    parser.add_argument("--only", metavar="TEXT", help="only the rows whose name contains TEXT")
    parser.add_argument("--no-peers", action="store_true", help="leave the peer libraries out")
    parser.add_argument(
        "--clock",
        choices=tuple(CLOCKS),
        default="cpu",
        help="cpu: CPU time of this process (steady on a shared machine, the default); wall: "
        "elapsed",
    )
    parser.add_argument("--json", action="store_true", help="print the results as one JSON object")
    parser.add_argument(
        "--plot", type=Path, metavar="FILE.png", help="also draw the medians into an image"
    )
    return parser


def run(args: argparse.Namespace) -> int:
    """Run the rows ``args`` select, print the table (or JSON) and return 0.

    :raises InvalidOptionError: for ``--repeat`` below 1, an ``--only`` that matches no
        row, or ``--plot`` without matplotlib.
    """
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
            raise InvalidOptionError(
                f"cannot write the plot {str(args.plot)!r}: {error.strerror or error}"
            ) from None
    if args.json:
        print_json(as_data(rows, measurements, skipped, repeat=args.repeat, clock=args.clock))
    else:
        print_table(console(), rows, measurements, skipped, repeat=args.repeat, clock=args.clock)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark with the options ``argv`` (default: ``sys.argv[1:]``); return the exit
    status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    prog, parser, handler = PROG, build_parser(), run
    if argv[:1] == ["strength"]:  # matches at equal CPU time: a command of its own
        from benchmarks import strength

        prog, parser, handler, argv = strength.PROG, strength.build_parser(), strength.run, argv[1:]
    args = parser.parse_args(argv)
    try:
        return handler(args)
    except GameSearchError as error:
        print(f"{prog}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`... --json | head`): stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
