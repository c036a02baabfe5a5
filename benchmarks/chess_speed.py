"""Benchmark: depth-limited alpha-beta on chess from the start, nodes per second.

Three searches of the starting position to the same depth, interleaved, CPU time of
this process, medians printed:

- **gamesearch**: ``alphabeta:depth=N,ordering=natural,all_best=off`` on the chess
  plugin (python-chess's boards and move generation, the plugin's heuristic);
- **the floor**: the same alpha-beta written as a plain loop straight on a
  ``chess.Board`` (its ``generate_legal_moves``, ``push`` and ``pop``), with the same
  end-of-game test and the same heuristic, so it searches exactly the same tree: the
  ratio of the two is the framework's overhead (the goal: within 2x);
- **OpenSpiel**: its Python ``alpha_beta_search`` over its C++ ``chess`` game, with
  the plugin's heuristic on the position's FEN (scaled into OpenSpiel's ±1 results).
  Its move order differs, so its tree does: compare nodes per second. Nodes are the
  actions applied, counted in a second, untimed run.

Needs the chess plugin (``pip install -e docs/examples/gamesearch-chess``) and, for
OpenSpiel, the ``bench`` extra. Usage::

    python -m benchmarks.chess_speed [--depth 3] [--runs 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import chess
from gamesearch_chess import SEVENTY_FIVE_MOVES
from gamesearch_chess.evaluation import evaluate

from benchmarks.peers.openspiel import CountingState
from gamesearch import default_registry
from gamesearch.search.base import INFINITY

#: the search's value of a win (the framework's scale for chess, at ply 0)
WIN = default_registry().new_game("chess").rules.scale.win


def floor_search(board: chess.Board, depth: int) -> tuple[int, int]:
    """Return ``(value, nodes)`` of alpha-beta to ``depth`` on ``board`` (White's view).

    The framework's search, written as one function on python-chess: natural move
    order, fail-soft, the root's moves sharing one window, a win worth
    ``WIN - ply`` and the plugin's heuristic at the horizon.
    """
    nodes = 1
    push, pop, generate = board.push, board.pop, board.generate_legal_moves

    def result() -> int | None:
        if not any(generate()):
            return (-1 if board.turn else 1) if board.is_check() else 0
        if board.halfmove_clock >= SEVENTY_FIVE_MOVES or board.is_insufficient_material():
            return 0
        return None

    def value(ply: int, depth_left: int, alpha: int, beta: int) -> int:
        nonlocal nodes
        best = -INFINITY if board.turn else INFINITY
        for move in list(generate()):
            push(move)
            nodes += 1
            sign = result()
            if sign is not None:
                score = sign * (WIN - ply - 1)
            elif depth_left == 1:
                score = evaluate(board)
            else:
                score = value(ply + 1, depth_left - 1, alpha, beta)
            pop()
            if board.turn:
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            break
            elif score < best:
                best = score
                if score < beta:
                    beta = score
                    if alpha >= beta:
                        break
        return best

    return value(board.ply(), depth, -INFINITY, INFINITY), nodes


def contenders(depth: int) -> dict[str, Callable[[], int]]:
    """Return each contender's search of the start, returning the nodes it visited."""
    registry = default_registry()
    searcher = registry.new_searcher(f"alphabeta:depth={depth},ordering=natural,all_best=off")

    def ours() -> int:
        return searcher.search(registry.new_game("chess")).stats.nodes

    def floor() -> int:
        return floor_search(chess.Board(), depth)[1]

    searches = {
        f"gamesearch alphabeta:depth={depth},ordering=natural,all_best=off": ours,
        "floor: the same loop on python-chess": floor,
    }
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax
    except ImportError:
        print(
            "OpenSpiel is not installed (pip install 'gamesearch[bench]'): left out",
            file=sys.stderr,
        )
        return searches
    game = pyspiel.load_game("chess")

    def heuristic(state: Any) -> float:
        return float(evaluate(chess.Board(str(state))) / WIN)

    def openspiel() -> int:
        counter = [0]
        state = CountingState(game.new_initial_state(), counter)
        minimax.alpha_beta_search(game, state, heuristic, depth, 0)
        return counter[0] + 1  # the actions applied, and the root

    searches[f"OpenSpiel alpha_beta_search(maximum_depth={depth}), C++ chess"] = openspiel
    return searches


def measure(depth: int, runs: int) -> list[dict[str, Any]]:
    """Return each contender's nodes, median CPU seconds and nodes per second."""
    searches = contenders(depth)
    nodes = {name: search() for name, search in searches.items()}  # untimed: the counts
    seconds: dict[str, list[float]] = {name: [] for name in searches}
    for _ in range(runs):
        for name, search in searches.items():
            started = time.process_time()
            search()
            seconds[name].append(time.process_time() - started)
    rows: list[dict[str, Any]] = []
    for name in searches:
        median = statistics.median(seconds[name])
        rows.append(
            {
                "searcher": name,
                "nodes": nodes[name],
                "seconds": median,
                "nodes_per_second": nodes[name] / median if median > 0 else 0.0,
            }
        )
    ours = rows[0]["nodes_per_second"]
    for row in rows:
        row["vs_gamesearch"] = row["nodes_per_second"] / ours if ours else 0.0
    return rows


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its table (or JSON); return the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.chess_speed", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--depth", type=int, default=3, help="plies to search (default: 3)")
    parser.add_argument(
        "--runs", type=int, default=5, help="timed runs of each contender (default: 5)"
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    if args.depth < 1 or args.runs < 1:
        parser.error(f"--depth and --runs must be >= 1: {args.depth!r}, {args.runs!r}")
    rows = measure(args.depth, args.runs)
    if args.json:
        print(json.dumps({"depth": args.depth, "runs": args.runs, "rows": rows}, indent=2))
        return 0
    print(
        f"chess, starting position, alpha-beta to depth {args.depth}, median of {args.runs} runs "
        "(CPU time)"
    )
    for row in rows:
        print(
            f"  {row['searcher']:<62} {row['nodes']:>9,} nodes {row['seconds'] * 1000:9.1f} ms"
            f" {row['nodes_per_second']:>10,.0f} nodes/s {row['vs_gamesearch']:6.2f}x gamesearch's "
            "speed"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
