"""``gamesearch solve-bench``: solve a Connect Four benchmark set and compare with its scores."""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from gamesearch.cli._common import print_json, registry
from gamesearch.cli._connect4_data import benchmark_score, find_data_file, print_check, read_score_file
from gamesearch.cli._output import check_at_least, progress
from gamesearch.search.nullwindow import solve

#: Pascal Pons' mean nodes per position (his Part 12 solver, data README): strong, weak
PONS_MEAN_NODES = {
    "Test_L3_R1": (51.28, 29.36),
    "Test_L2_R1": (449.6, 532.7),
    "Test_L2_R2": (39_907, 20_205),
    "Test_L1_R1": (3_298, 22_232),
    "Test_L1_R2": (1_200_785, 538_682),
    "Test_L1_R3": (66.08e6, 40.98e6),
}
EXIT_DISAGREEMENT = 1


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "solve-bench",
        help="solve a Connect Four benchmark set (Pons' Test_L*_R*) and check every score",
        description="Solve every position of a file of '<moves> <score>' lines (Pascal Pons' "
        "Connect Four benchmark sets) with the solver searcher's null-window binary search, "
        "a fresh table per position, and compare with the file: positions solved, agreement, "
        "mean and median nodes, mean time, nodes per second, and Pons' mean nodes for the set. "
        "A disagreement is printed and makes the exit status 1.",
        epilog="examples:\n  gamesearch solve-bench Test_L3_R1\n"
        "  gamesearch solve-bench Test_L2_R2 --weak --limit 100\n"
        "  gamesearch solve-bench ../shared/data/connect4/Test_L1_R2 --limit 100 --json\n"
        "A bare set name is looked up in $GAMESEARCH_CONNECT4_DATA or shared/data/connect4 "
        "beside the repository.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", metavar="FILE", help="a benchmark file, or a set name such as Test_L2_R1")
    parser.add_argument("--weak", action="store_true", help="only win, draw or loss (compare signs)")
    parser.add_argument("-n", "--limit", type=int, metavar="N", help="only the first N positions")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--each", action="store_true",
        help="also print one line per position as it is solved (kept if the run is stopped)",
    )  # fmt: skip
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    check_at_least("--limit", args.limit)
    path = find_data_file(args.file)
    positions = read_score_file(path)[: args.limit]
    new_game = registry().new_game
    nodes: list[int] = []
    seconds: list[float] = []
    disagreements: list[dict[str, Any]] = []
    with progress(f"solving {path.name}", len(positions)) as advance:
        for position in positions:
            game = new_game("connect4", position.moves)
            started = time.perf_counter()
            value, count = solve(game, weak=args.weak)
            seconds.append(time.perf_counter() - started)
            nodes.append(count)
            expected = _sign(position.score) if args.weak else position.score
            found = value if args.weak else benchmark_score(game, value)
            if found != expected:
                disagreements.append(
                    {"line": position.line, "position": position.moves, "expected": expected, "found": found}
                )
            if args.each:
                print(
                    f"line {position.line} {position.moves} expected {expected} found {found} "
                    f"nodes {count} seconds {seconds[-1]:.4f}",
                    flush=True,
                )
            advance(position.moves)
    report = _report(path.name, args.weak, nodes, seconds, disagreements)
    if args.json:
        print_json(report)
    else:
        _print_report(report)
    return EXIT_DISAGREEMENT if disagreements else 0


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def _report(
    name: str, weak: bool, nodes: list[int], seconds: list[float], disagreements: list[dict[str, Any]]
) -> dict[str, Any]:
    solved = len(nodes)
    total_seconds = sum(seconds)
    mean_nodes = statistics.fmean(nodes) if nodes else 0.0
    reference = PONS_MEAN_NODES.get(name)
    pons = None if reference is None else reference[1 if weak else 0]
    return {
        "file": name,
        "mode": "weak" if weak else "strong",
        "positions": solved,
        "agree": solved - len(disagreements),
        "mean_nodes": mean_nodes,
        "median_nodes": statistics.median(nodes) if nodes else 0,
        "mean_seconds": total_seconds / solved if solved else 0.0,
        "nodes_per_second": sum(nodes) / total_seconds if total_seconds > 0 else 0.0,
        "pons_mean_nodes": pons,
        "ratio_to_pons": mean_nodes / pons if pons else None,
        "disagreements": disagreements,
    }


def _print_report(report: dict[str, Any]) -> None:
    ratio = report["ratio_to_pons"]
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
            ("Pons' mean nodes (whole set)", "-" if ratio is None else f"{report['pons_mean_nodes']:,.1f}"),
            ("ratio to Pons", "-" if ratio is None else f"{ratio:.2f}"),
        ],
    )
