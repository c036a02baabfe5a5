"""Benchmark: does one more ply of depth-limited search play better?

For each depth ``d`` of the range, a searcher at depth ``d + 1`` plays one at depth
``d`` (``gamesearch tournament`` with two players): games in pairs from one random
opening, each side moving first once, ties broken at random from the seed. Prints
the deeper player's wins, draws and losses, its score with a 95% interval (normal
approximation over the games' points), the Elo difference fitted by the tournament
with its 95% interval, and each side's mean time per move. Usage::

    python benchmarks/depth_ladder.py connect4 --depths 1..6 --games 40 --seed 1 --workers 2
    python benchmarks/depth_ladder.py tictactoe -o rows=4 -o cols=4 -o k=4 --depths 1..5
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from gamesearch.plugins import default_registry
from gamesearch.rating import score_interval
from gamesearch.tournament import run_tournament


def depth_range(text: str) -> range:
    """Return the depths ``"1..6"`` names (both ends included).

    :raises argparse.ArgumentTypeError: for text that is not two positive integers joined by ``..``.
    """
    low, sep, high = text.partition("..")
    if not (sep and low.isdigit() and high.isdigit()) or not 1 <= int(low) <= int(high):
        raise argparse.ArgumentTypeError(f"depths must look like 1..6: {text!r}")
    return range(int(low), int(high) + 1)


def option(text: str) -> tuple[str, Any]:
    """Return ``("rows", 4)`` for ``"rows=4"`` (integers are converted).

    :raises argparse.ArgumentTypeError: for text without ``=``.
    """
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"a game option looks like key=value: {text!r}")
    return key, int(value) if value.lstrip("-").isdigit() else value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a registered game, e.g. connect4")
    parser.add_argument(
        "-o", "--option", type=option, action="append", default=[], help="game option key=value"
    )
    parser.add_argument(
        "--searcher", default="alphabeta", help="the searcher, given depth=d (default: alphabeta)"
    )
    parser.add_argument(
        "--depths", type=depth_range, default=range(1, 7), help="d from..to (default: 1..6)"
    )
    parser.add_argument("--games", type=int, default=40, help="games at each depth (default: 40)")
    parser.add_argument(
        "--opening-plies", type=int, default=2, help="random opening moves (default: 2)"
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="seed of the openings and tie-breaks (default: 1)"
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="processes playing games (default: 1)"
    )
    args = parser.parse_args()
    registry = default_registry()
    game = registry.new_game(args.game, **dict(args.option))
    options = ", ".join(f"{key}={value}" for key, value in args.option)
    print(
        f"{args.game}{f' ({options})' if options else ''}: {args.searcher} at depth d+1 against "
        "depth d, "
        f"{args.games} games each, {args.opening_plies} random opening plies, seed {args.seed}"
    )
    header = (
        f"{'d':>2}  {'wins':>4} {'draws':>5} {'losses':>6}  {'score of d+1 (95%)':>22}  "
        f"{'Elo d+1 - d (95%)':>18}  {'ms/move d':>9}  {'ms/move d+1':>11}"
    )
    print(header)
    started = time.perf_counter()
    for depth in args.depths:
        shallow, deep = f"{args.searcher}:depth={depth}", f"{args.searcher}:depth={depth + 1}"
        tournament = run_tournament(
            game,
            [shallow, deep],
            games=args.games,
            seed=args.seed,
            opening_plies=args.opening_plies,
            workers=args.workers,
            registry=registry,
        )
        points = [played.score(1) for played in tournament.played]
        mean, low, high = score_interval(points)
        shallow_standing, deep_standing = tournament.standings()
        _, deep_rating = tournament.ratings()
        # Two ratings sum to zero, so the difference is twice one of them, its error too.
        elo, elo_half = 2 * deep_rating.elo, 2 * deep_rating.interval
        print(
            f"{depth:>2}  {deep_standing.wins:>4} {deep_standing.draws:>5} "
            f"{deep_standing.losses:>6}  "
            f"{f'{mean:.0%} ({low:.0%}-{high:.0%})':>22}  {f'{elo:+.0f} ± {elo_half:.0f}':>18}  "
            f"{shallow_standing.mean_seconds * 1000:>9.1f}  "
            f"{deep_standing.mean_seconds * 1000:>11.1f}",
            flush=True,
        )
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
