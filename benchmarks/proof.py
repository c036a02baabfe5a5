"""``python -m benchmarks.proof``: proof-number search (pns, df-pn) beside the solver.

Each row solves one position with the exact ``solver`` (binary search on the score
with null windows, plain scoring: the margin only, as the proof searchers find it)
and with ``pns`` and ``dfpn``; it prints the margin each found (first player's
view), the positions each entered and the CPU time of one run. The Connect Four
row sums the first positions of Pons' ``Test_L3_R1`` set (when the data is there:
``$GAMESEARCH_CONNECT4_DATA`` or the ``gamesearch data fetch connect4`` cache) and
counts the positions a proof search could not settle within its node budget.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

from gamesearch.datasets import find_data_file
from gamesearch.errors import BudgetExceededError, MissingDataError
from gamesearch.game import Game
from gamesearch.plugins import default_registry
from gamesearch.rules import Scoring
from gamesearch.search.base import Searcher
from gamesearch.search.nullwindow import Solver
from gamesearch.search.proof import DepthFirstProofNumberSearch, ProofNumberSearch

#: the node budget of one Connect Four position (a proof search that needs more gives up)
PONS_BUDGET = 20_000


def searchers(budget: int | None = None) -> list[Searcher]:
    """Return the solver, pns and dfpn, plain-scored (each with the node budget, if any)."""
    return [
        Solver(scoring=Scoring.PLAIN, max_nodes=budget),
        ProofNumberSearch(scoring=Scoring.PLAIN, max_nodes=budget),
        DepthFirstProofNumberSearch(scoring=Scoring.PLAIN, max_nodes=budget),
    ]


def starts(quick: bool) -> Iterator[tuple[str, Callable[[], Game[Any]]]]:
    """Yield each row's name and a function making its position."""
    new = default_registry().new_game
    yield "tic-tac-toe start", lambda: new("tictactoe")
    yield "Othello 4x4 start", lambda: new("othello", size="4")
    yield "Kalah(3,3) start", lambda: new("kalah", pits="3", seeds="3")
    if not quick:
        yield "Connect Four 4x4 start", lambda: new("connect4", width="4", height="4")


def pons_positions(count: int) -> list[Game[Any]]:
    """Return the first ``count`` positions of Test_L3_R1 (none without the data)."""
    registry = default_registry()
    data_set = registry.data_sets.get("connect4")
    if data_set is None:
        return []
    try:
        path = find_data_file(data_set, "Test_L3_R1")
    except MissingDataError:
        return []
    lines = [line.split()[0] for line in path.read_text().splitlines() if line.strip()]
    return [registry.new_game("connect4", moves) for moves in lines[:count]]


def run_row(name: str, positions: list[Game[Any]], budget: int | None) -> dict[str, Any]:
    """Return one row: each searcher's margins, nodes, CPU seconds and gave-ups."""
    row: dict[str, Any] = {"workload": name, "positions": len(positions), "searchers": []}
    for searcher in searchers(budget):
        nodes, seconds, margins, gave_up = 0, 0.0, [], 0
        for position in positions:
            started = time.process_time()
            try:
                result = searcher.search(position)
            except BudgetExceededError:
                gave_up += 1
                seconds += time.process_time() - started
                continue
            seconds += time.process_time() - started
            nodes += result.stats.nodes
            margins.append(result.margin)
        row["searchers"].append(
            {
                "searcher": searcher.name,
                "margin": margins[0] if len(positions) == 1 and margins else None,
                "nodes": nodes,
                "seconds": round(seconds, 3),
                "gave_up": gave_up,
            }
        )
    return row


def measure(quick: bool, pons: int) -> list[dict[str, Any]]:
    """Return every row of the benchmark."""
    rows = [run_row(name, [make()], None) for name, make in starts(quick)]
    positions = pons_positions(pons)
    if positions:
        name = f"Connect Four Test_L3_R1, first {len(positions)} (budget {PONS_BUDGET:,})"
        rows.append(run_row(name, positions, PONS_BUDGET))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.proof", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--quick", action="store_true", help="leave out Connect Four 4x4")
    parser.add_argument(
        "--pons", type=int, default=20, help="Test_L3_R1 positions to solve (default: 20)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON list")
    args = parser.parse_args(argv)
    report = measure(args.quick, args.pons)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{'workload':<52} {'searcher':<8} {'margin':>6} {'nodes':>10} {'seconds':>8} gave up")
    for row in report:
        for entry in row["searchers"]:
            margin = "" if entry["margin"] is None else entry["margin"]
            print(
                f"{row['workload']:<52} {entry['searcher']:<8} {margin!s:>6} "
                f"{entry['nodes']:>10,} {entry['seconds']:>8.2f} {entry['gave_up']:>7}"
            )
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
