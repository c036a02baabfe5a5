"""Benchmark: MCTS simulations per second on Connect Four, beside OpenSpiel's MCTSBot.

Each run is one search of the empty 7x6 board with the same budget, UCT with one
random playout per simulation and the solver on: this framework's ``mcts``,
OpenSpiel's Python ``MCTSBot`` and its C++ ``MCTSBot`` (through pyspiel). Runs are
interleaved and timed in CPU time of this process (steadier than wall time on a
shared machine); the medians are printed. Needs the ``bench`` extra (``make bench``
installs it). Usage::

    python benchmarks/mcts_speed.py [--simulations 2000] [--runs 7]

``python -m benchmarks --only MCTS`` has the same comparison at 1,000 simulations
without the C++ bot.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from gamesearch import default_registry
from gamesearch.search.mcts import MonteCarlo

#: UCT constant of every contender (this framework's default)
EXPLORATION = 1.4


def contenders(simulations: int) -> dict[str, Callable[[int], None]]:
    """Return a search of the empty board by each contender, given a seed."""
    import numpy
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("connect_four")

    def ours(seed: int) -> None:
        MonteCarlo(simulations=simulations, seed=seed, exploration=EXPLORATION).search(
            default_registry().new_game("connect4")
        )

    def python_bot(seed: int) -> None:
        evaluator = mcts.RandomRolloutEvaluator(1, numpy.random.RandomState(seed))
        bot = mcts.MCTSBot(
            game,
            EXPLORATION,
            simulations,
            evaluator,
            solve=True,
            random_state=numpy.random.RandomState(seed),
        )
        bot.step(game.new_initial_state())

    def cpp_bot(seed: int) -> None:
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        bot = pyspiel.MCTSBot(game, evaluator, EXPLORATION, simulations, 1000, True, seed, False)
        bot.step(game.new_initial_state())

    return {
        f"gamesearch mcts:simulations={simulations}": ours,
        f"OpenSpiel Python MCTSBot(max_simulations={simulations})": python_bot,
        f"OpenSpiel C++ MCTSBot(max_simulations={simulations})": cpp_bot,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    searches = contenders(args.simulations)
    seconds: dict[str, list[float]] = {name: [] for name in searches}
    for seed in range(args.runs):
        for name, search in searches.items():
            started = time.process_time()
            search(seed)
            seconds[name].append(time.process_time() - started)
    ours = statistics.median(next(iter(seconds.values())))
    print(
        f"Connect Four, empty board, {args.simulations:,} simulations, median of {args.runs} runs "
        "(CPU time)"
    )
    for name, values in seconds.items():
        median = statistics.median(values)
        print(
            f"  {name:<50} {median * 1000:8.1f} ms  {args.simulations / median:10,.0f} "
            "simulations/s"
            f"  {median / ours:6.2f}x gamesearch's time"
        )


if __name__ == "__main__":
    main()
