"""``gamesearch uci-check``: the weak solver against a random sample of the UCI Connect-4 data."""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path
from typing import Any

from gamesearch.cli._common import print_json, registry
from gamesearch.cli._connect4_data import UCI_FILE, find_data_file, print_check, read_uci
from gamesearch.cli._output import check_at_least, progress
from gamesearch.game import Player
from gamesearch.search.nullwindow import solve

EXIT_DISAGREEMENT = 1
OUTCOMES = {1: "win", 0: "draw", -1: "loss"}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "uci-check",
        help="check the weak Connect Four solver against the UCI connect-4.data labels",
        description="Read the UCI Connect-4 data set (every legal 8-ply 7x6 position with the "
        "first player's win/draw/loss), draw a random sample of its rows from the seed, solve "
        "each weakly and compare. A disagreement is printed and makes the exit status 1.",
        epilog="examples:\n  gamesearch uci-check --sample 200 --seed 1\n"
        "  gamesearch uci-check --sample 1000 --json\n"
        f"The file is {UCI_FILE} in $GAMESEARCH_CONNECT4_DATA or shared/data/connect4 beside "
        "the repository, unless --file names it.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("-n", "--sample", type=int, default=200, help="rows to check (default: 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random sample (default: 0)")
    parser.add_argument("--file", type=Path, help=f"the data file (default: {UCI_FILE} in the data folder)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    check_at_least("--sample", args.sample)
    path = find_data_file(str(args.file) if args.file is not None else UCI_FILE)
    started = time.perf_counter()
    rows = list(read_uci(path))
    parse_seconds = time.perf_counter() - started
    sample = random.Random(args.seed).sample(rows, min(args.sample, len(rows)))
    game_class = registry().game_class("connect4")
    nodes: list[int] = []
    seconds: list[float] = []
    disagreements: list[dict[str, Any]] = []
    with progress("checking UCI rows", len(sample)) as advance:
        for row in sample:
            game = game_class.from_text(row.grid)
            began = time.perf_counter()
            value, count = solve(game, weak=True)
            if game.to_move() is Player.SECOND:  # labels are the first player's (8-stone rows: to move)
                value = -value
            seconds.append(time.perf_counter() - began)
            nodes.append(count)
            if value != row.result:
                disagreements.append(
                    {"line": row.line, "position": row.grid, "expected": OUTCOMES[row.result], "found": OUTCOMES[value]}
                )
            advance(f"line {row.line}")
    report = {
        "file": path.name,
        "rows": len(rows),
        "parse_seconds": parse_seconds,
        "seed": args.seed,
        "checked": len(sample),
        "agree": len(sample) - len(disagreements),
        "solve_seconds": sum(seconds),
        "mean_seconds": statistics.fmean(seconds),
        "mean_nodes": statistics.fmean(nodes),
        "disagreements": disagreements,
    }
    if args.json:
        print_json(report)
    else:
        _print_report(report)
    return EXIT_DISAGREEMENT if disagreements else 0


def _print_report(report: dict[str, Any]) -> None:
    print_check(
        f"{report['file']}: weak solver against the labels",
        report["disagreements"],
        [
            ("rows parsed", f"{report['rows']:,} in {report['parse_seconds']:.2f} s"),
            ("rows checked (seed)", f"{report['checked']:,} ({report['seed']})"),
            ("agree with the label", f"{report['agree']:,}"),
            ("solving time", f"{report['solve_seconds']:.2f} s"),
            ("mean time per row", f"{report['mean_seconds'] * 1000:,.1f} ms"),
            ("mean nodes per row", f"{report['mean_nodes']:,.0f}"),
        ],
    )
