"""``gamesearch tournament``: a round robin between searchers, rated by Elo."""

from __future__ import annotations

import argparse
import random
from typing import Any

from gamesearch.cli._common import add_game_arguments, integer, load_game, print_json, registry
from gamesearch.cli._output import check_at_least, console, milliseconds, progress, table
from gamesearch.cli._plot import check_plot_file
from gamesearch.cli._tournament_plot import plot_ratings
from gamesearch.errors import InvalidOptionError
from gamesearch.tournament import PlayedGame, Tournament, run_tournament, schedule


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tournament",
        help="round robin between searchers: wins/draws/losses, Elo ratings, time and nodes",
        description="Every pair of players meets GAMES times, in pairs of games from one random "
        "opening with the first move swapped. Prints each player's results, an Elo rating "
        "fitted to them with its 95% interval, and mean time and nodes per move. The same "
        "seed replays the same tournament, whatever the number of workers (unless a player "
        "has a time budget).",
        epilog="examples:\n"
        '  gamesearch tournament tictactoe --players "alphabeta:depth=1" alphabeta '
        '"mcts:simulations=200" --games 4\n'
        '  gamesearch tournament connect4 --players "alphabeta:depth=2" "alphabeta:depth=4" '
        '"mcts:simulations=1000" --games 10 --seed 1 --workers 2 --plot ratings.png',
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--players", nargs="+", required=True, metavar="NAME[:KEY=VALUE,...]",
        help="two or more searchers, e.g. alphabeta:depth=4 mcts:simulations=1000",
    )  # fmt: skip
    parser.add_argument(
        "-n", "--games", type=integer, default=2, help="games each pair plays (default: 2, one with each first mover)"
    )  # fmt: skip
    parser.add_argument(
        "--opening-plies", type=integer, default=2, metavar="N",
        help="random moves that open each pairing (default: 2)",
    )  # fmt: skip
    parser.add_argument(
        "--seed", type=integer, help="seed of the openings and the players (default: a random seed, printed)"
    )  # fmt: skip
    parser.add_argument(
        "-w", "--workers", type=integer, default=1, help="processes playing games in parallel (default: 1)"
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print players, pairs and every game as JSON")
    parser.add_argument(
        "--plot", metavar="FILE", help="save a chart of the ratings (.png, .svg or .pdf; needs matplotlib)"
    )  # fmt: skip
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    check_at_least("--games", args.games)
    check_at_least("--opening-plies", args.opening_plies, 0)
    check_at_least("--workers", args.workers)
    if len(args.players) < 2:
        raise InvalidOptionError(f"--players needs at least two searchers: {args.players!r}")
    if args.plot is not None:
        check_plot_file(args.plot)
    game = load_game(args)
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    total = len(schedule(len(args.players), args.games, seed))
    with progress("tournament", total) as advance:

        def finished(played: PlayedGame) -> None:
            first, second = played.record.players
            advance(f"{first} vs {second}: {played.record.winner or 'draw'}")

        tournament = run_tournament(
            game, args.players, games=args.games, seed=seed, opening_plies=args.opening_plies,
            workers=args.workers, registry=registry(), on_game=finished,
        )  # fmt: skip
    if args.plot is not None:
        try:
            plot_ratings(tournament, check_plot_file(args.plot))
        except OSError as error:  # the folder changed while the games were played
            raise InvalidOptionError(f"cannot write the plot {args.plot!r}: {error.strerror or error}") from None
    if args.json:
        print_json(tournament.as_dict())
        return 0
    print_tables(tournament)
    if args.plot is not None:
        console().print(f"ratings chart saved to {args.plot}")
    return 0


def print_tables(tournament: Tournament) -> None:
    """Print the standings (best rating first) and the table of results by pair."""
    out = console()
    count = len(tournament.played)
    grid = table(
        f"{tournament.game} round robin: {len(tournament.players)} players, "
        f"{tournament.games_per_pair} games a pair ({count} games), seed {tournament.seed}",
        ["#", "player", "Elo", "±95%", "games", "wins", "draws", "losses", "score",
         "mean ms/move", "mean nodes/move"],
        numeric_from=2,
    )  # fmt: skip
    ranked = sorted(
        zip(tournament.standings(), tournament.ratings(), strict=True), key=lambda pair: -pair[1].elo
    )
    for place, (standing, rating) in enumerate(ranked, start=1):
        points = standing.wins + standing.draws / 2
        grid.add_row(
            str(place), standing.label, f"{rating.elo:+.0f}", f"{rating.interval:.0f}",
            str(standing.games), str(standing.wins), str(standing.draws), str(standing.losses),
            f"{points:g}/{standing.games}", milliseconds(standing.mean_seconds),
            f"{standing.mean_nodes:,.0f}",
        )  # fmt: skip
    out.print(grid)
    cross = table("points of the row player against the column player", ["", *tournament.players])
    scores = {(result.a, result.b): result for result in tournament.pair_results()}
    for row, label in enumerate(tournament.players):
        cells = []
        for col in range(len(tournament.players)):
            if row == col:
                cells.append("-")
                continue
            result = scores[(min(row, col), max(row, col))]
            points = result.score if row < col else result.games - result.score
            cells.append(f"{points:g}/{result.games:g}")
        cross.add_row(label, *cells)
    out.print(cross)
    out.print(f"replay with: --seed {tournament.seed} --games {tournament.games_per_pair}")
