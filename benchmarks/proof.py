"""``python -m benchmarks.proof``: proof-number search (pns, df-pn) beside the solver.

Each row solves one position with the exact ``solver`` (binary search on the score
with null windows, plain scoring: the margin only, as the proof searchers find it)
and with ``pns`` and ``dfpn``; it prints the margin each found (first player's
view), the positions each entered and the CPU time of one run. The rows of several
positions sum them, each search under a node budget, and count the positions a
searcher could not settle within it: the first positions of Pons' Connect Four set
``Test_L3_R1`` (when the data is there: ``$GAMESEARCH_CONNECT4_DATA`` or the
``gamesearch data fetch connect4`` cache), Othello 8x8 endgames and Hex 4x4 positions
reached by seeded random moves, and five small checkers endgames.
"""

from __future__ import annotations

import argparse
import json
import random
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
#: the node budget of one position of the other sampled rows
ENDGAME_BUDGET = 50_000
#: the seed of the random moves that reach the sampled Othello and Hex positions
SEED = 1
#: small checkers endgames of three to five pieces, Black to move
CHECKERS_ENDGAMES = (
    "B:W18,30:B14,11",
    "B:W14,23:B9",
    "B:W26,27:B22",
    "B:W9,10,17,18:BK6",
    "B:W32:B14,K19",
)


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


def sampled(
    make: Callable[[], Game[Any]], count: int, reached: Callable[[Game[Any]], bool]
) -> list[Game[Any]]:
    """Return ``count`` unfinished positions, each reached from ``make()`` by random moves
    (from :data:`SEED`) until ``reached`` holds."""
    chooser = random.Random(SEED)
    found: list[Game[Any]] = []
    while len(found) < count:
        game = make()
        while not reached(game) and not game.is_over():
            game.push(chooser.choice(list(game.legal_moves())))
        if not game.is_over():
            found.append(game)
    return found


def endgames(count: int) -> Iterator[tuple[str, list[Game[Any]]]]:
    """Yield each sampled row's name and positions: ``count`` Othello 8x8 positions with
    10 empty squares, the checkers endgames, Hex 3x3's start and ``count`` Hex 4x4
    positions after 4 random stones."""
    new = default_registry().new_game

    def empties(game: Game[Any]) -> int:
        return game.to_text().split()[0].count(".")

    othello = sampled(lambda: new("othello"), count, lambda game: empties(game) <= 10)
    yield f"Othello 8x8, {count} endgames of 10 empties", othello
    yield (
        f"checkers, {len(CHECKERS_ENDGAMES)} endgames",
        [new("checkers", text) for text in CHECKERS_ENDGAMES],
    )
    yield "Hex 3x3 start", [new("hex", size="3")]
    hexes = sampled(lambda: new("hex", size="4"), count, lambda game: game.ply >= 4)
    yield f"Hex 4x4, {count} positions after 4 random stones", hexes


def run_row(name: str, positions: list[Game[Any]], budget: int | None) -> dict[str, Any]:
    """Return one row: each searcher's margins (one a position, ``None`` where it gave
    up), its nodes and CPU seconds summed over the positions, and its gave-ups."""
    row: dict[str, Any] = {"workload": name, "positions": len(positions), "searchers": []}
    for searcher in searchers(budget):
        nodes, seconds, gave_up = 0, 0.0, 0
        margins: list[Any] = []  # a margin, or None where the searcher gave up
        for position in positions:
            started = time.process_time()
            try:
                result = searcher.search(position)
            except BudgetExceededError:
                gave_up += 1
                seconds += time.process_time() - started
                margins.append(None)
                continue
            seconds += time.process_time() - started
            nodes += result.stats.nodes
            margins.append(result.margin)
        row["searchers"].append(
            {
                "searcher": searcher.name,
                "margin": margins[0] if len(positions) == 1 else None,
                "margins": margins,
                "nodes": nodes,
                "seconds": round(seconds, 3),
                "gave_up": gave_up,
            }
        )
    return row


def measure(quick: bool, pons: int, samples: int = 3) -> list[dict[str, Any]]:
    """Return every row of the benchmark (``samples`` positions in each sampled row)."""
    rows = [run_row(name, [make()], None) for name, make in starts(quick)]
    positions = pons_positions(pons)
    if positions:
        name = f"Connect Four Test_L3_R1, first {len(positions)} (budget {PONS_BUDGET:,})"
        rows.append(run_row(name, positions, PONS_BUDGET))
    for name, found in endgames(samples):
        rows.append(run_row(f"{name} (budget {ENDGAME_BUDGET:,})", found, ENDGAME_BUDGET))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.proof", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--quick", action="store_true", help="leave out Connect Four 4x4")
    parser.add_argument(
        "--pons", type=int, default=20, help="Test_L3_R1 positions to solve (default: 20)"
    )
    parser.add_argument(
        "--samples",
        type=int,
        default=3,
        help="Othello endgames and Hex 4x4 positions to solve (default: 3)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON list")
    args = parser.parse_args(argv)
    report = measure(args.quick, args.pons, args.samples)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{'workload':<60} {'searcher':<8} {'margin':>6} {'nodes':>10} {'seconds':>8} gave up")
    for row in report:
        for entry in row["searchers"]:
            margin = "" if entry["margin"] is None else entry["margin"]
            print(
                f"{row['workload']:<60} {entry['searcher']:<8} {margin!s:>6} "
                f"{entry['nodes']:>10,} {entry['seconds']:>8.2f} {entry['gave_up']:>7}"
            )
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
