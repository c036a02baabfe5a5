"""Benchmark: from which budget MCTS stops losing at tic-tac-toe, whatever the human replies.

For each budget, seed and side, MCTS plays every line a human could choose (each
reply tried in turn) from the empty board; a (seed, side) pair counts as losing when
some line beats it. Usage::

    python benchmarks/mcts_budget.py [--budgets 200 500 1000 2000 5000] [--seeds 30]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Hashable

from gamesearch import Game, Player, default_registry
from gamesearch.rules import terminal_sign
from gamesearch.search.mcts import MonteCarlo


def worst_result(
    game: Game[int], engine: MonteCarlo, side: Player, choices: dict[Hashable, int]
) -> int:
    """Return the engine's worst result (+1 win, 0 draw, -1 loss) over every human line.

    A seeded search repeats itself, so the engine's move is searched once per position.
    """
    sign = terminal_sign(game)
    if sign is not None:
        return sign * side.sign
    if game.to_move() is side:
        key = game.key()
        if key not in choices:
            move = engine.search(game).move
            assert isinstance(move, int)  # a tic-tac-toe move is a cell index
            choices[key] = move
        game.push(choices[key])
        result = worst_result(game, engine, side, choices)
        game.undo()
        return result
    results = []
    for move in game.legal_moves():
        game.push(move)
        results.append(worst_result(game, engine, side, choices))
        game.undo()
    return min(results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", type=int, nargs="+", default=[200, 500, 1000, 2000, 5000])
    parser.add_argument(
        "--seeds", type=int, default=30, help="seeds 0..N-1 for each budget and side"
    )
    args = parser.parse_args()
    print(f"{'simulations':>11}  {'losing (seed, side) pairs':>26}  {'seconds':>8}")
    for budget in args.budgets:
        started = time.perf_counter()
        losing = sum(
            worst_result(
                default_registry().new_game("tictactoe"),
                MonteCarlo(simulations=budget, seed=seed),
                side,
                {},
            )
            < 0
            for seed in range(args.seeds)
            for side in Player
        )
        seconds = time.perf_counter() - started
        print(f"{budget:>11,}  {f'{losing} of {2 * args.seeds}':>26}  {seconds:>8.1f}")


if __name__ == "__main__":
    main()
