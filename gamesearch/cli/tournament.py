"""``gamesearch tournament``: a round robin between searchers, rated by Elo."""

from __future__ import annotations

import argparse
import contextlib
import random
from typing import Any

import attrs

from gamesearch.batch import ResultStore
from gamesearch.batch.games import played_from_dict, played_to_dict, run_key
from gamesearch.cli._common import (
    add_clock_argument,
    add_game_arguments,
    integer,
    load_game,
    print_json,
    registry,
    spec_on_clock,
)
from gamesearch.cli._output import check_at_least, console, milliseconds, progress, table
from gamesearch.cli._plot import check_plot_file
from gamesearch.cli._progress import interruptible, report_interruption
from gamesearch.cli._tournament_plot import plot_ratings
from gamesearch.cli.batch import add_executor_arguments, executor_from
from gamesearch.errors import InvalidOptionError
from gamesearch.tournament import PlayedGame, Tournament, run_tournament, schedule, seats_of


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tournament",
        help="round robin between searchers: wins/draws/losses, Elo ratings, time and nodes",
        description="In a two-player game every pair of players meets GAMES times, in pairs of "
        "games from one random opening with the first move swapped. In a game of N players "
        "(more than two) every group of N players meets GAMES times, in blocks of N games "
        "from one random opening with the seats turned by one each game, so each player "
        "sits once in every seat; the blocks go through every seating order in turn (N! "
        "games: 6 for three players). Points are shared by rank: against each other player "
        "of a game, 1 for a larger utility, 1/2 for an equal one. Prints each player's "
        "results, an Elo rating fitted to the results of every pair inside every game, with "
        "its 95% interval, and mean time and nodes per move. The same "
        "seed replays the same tournament, whatever the number of workers or machines "
        "(unless a player has a time budget). Games run in this process, on --workers local "
        "processes or on the Dask cluster whose scheduler is at --scheduler. With --store, "
        "each game is written to that SQLite file as it ends and the tables are computed from "
        "the file; the same command (same --seed) run again plays only the games missing. "
        "Ctrl-C stops the tournament, prints the tables of the games already played and exits "
        "with status 130; the games already stored stay in the store.",
        epilog="typical times on a 2-core machine:\n"
        "  the tic-tac-toe example below: about a second; the Connect Four one (30 games):\n"
        "  under half a minute with 2 workers; the three-player m,n,k one (24 games): about two "
        "seconds;\n"
        "  time grows with the games and the players' budgets\n"
        "examples:\n"
        '  gamesearch tournament tictactoe --players "alphabeta:depth=1" alphabeta '
        '"mcts:simulations=200" --games 4\n'
        '  gamesearch tournament connect4 --players "alphabeta:depth=2" "alphabeta:depth=4" '
        '"mcts:simulations=1000" --games 10 --seed 1 --workers 2 --plot ratings.png\n'
        '  gamesearch tournament connect4 --players "alphabeta:depth=2" "alphabeta:depth=4" '
        "--games 40 "
        "--seed 1 --scheduler tcp://10.0.0.5:8786 --store ratings.sqlite\n"
        '  gamesearch tournament mnk3 -o rows=4 -o cols=4 --players "maxn:rounds=1" '
        '"paranoid:rounds=1" '
        '"brs:rounds=1" "mcts:simulations=200" --games 6 --seed 1',
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--players",
        nargs="+",
        required=True,
        metavar="NAME[:KEY=VALUE,...]",
        help="two or more searchers (at least one a seat in a game of more players), "
        "e.g. alphabeta:depth=4 mcts:simulations=1000",
    )
    parser.add_argument(
        "-n",
        "--games",
        type=integer,
        help="games each pair (each group, in a game of more players) plays (default: one in each "
        "seat: "
        "2 for two players)",
    )
    parser.add_argument(
        "--opening-plies",
        type=integer,
        default=2,
        metavar="N",
        help="random moves that open each pairing or block (default: 2)",
    )
    parser.add_argument(
        "--seed",
        type=integer,
        help="seed of the openings and the players (default: a random seed, printed)",
    )
    add_executor_arguments(
        parser,
        workers_help="processes playing games in parallel (default: 1)",
        store_help="write each game to this SQLite file as it ends; a rerun with the same seed "
        "plays only the rest",
    )
    parser.add_argument(
        "--json", action="store_true", help="print players, pairs and every game as JSON"
    )
    parser.add_argument(
        "--plot",
        metavar="FILE",
        help="save a chart of the ratings (.png, .svg or .pdf; needs matplotlib)",
    )
    add_clock_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.games is not None:
        check_at_least("--games", args.games)
    check_at_least("--opening-plies", args.opening_plies, 0)
    if len(args.players) < 2:
        raise InvalidOptionError(f"--players needs at least two searchers: {args.players!r}")
    if args.plot is not None:
        check_plot_file(args.plot)
    game = load_game(args)
    seats = seats_of(game)
    if len(args.players) < seats:
        raise InvalidOptionError(
            f"{game.name!r} is a game of {seats} players: --players needs at least {seats} "
            "searchers, "
            f"one a seat: {args.players!r}"
        )
    games = seats if args.games is None else args.games
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    total = len(schedule(len(args.players), games, seed, seats=seats))
    players = [spec_on_clock(spec.strip(), args.clock) for spec in args.players]
    run_id = run_key(
        "tournament",
        game=game.name,
        start=game.to_text(),
        players=players,
        games=games,
        seed=seed,
        opening_plies=args.opening_plies,
    )
    with contextlib.ExitStack() as resources:
        store = resources.enter_context(ResultStore(args.store)) if args.store is not None else None
        executor = resources.enter_context(executor_from(args))
        done = (
            {}
            if store is None
            else {n: played_from_dict(data) for n, data in store.games(run_id).items()}
        )
        so_far = dict(done)  # every game ended, for the tables if Ctrl-C stops the rest
        with progress(
            "tournament" + (f" ({len(done)} games stored before)" if done else ""),
            total - len(done),
        ) as advance:

            def finished(played: PlayedGame) -> None:
                so_far[played.scheduled.number] = played
                if store is not None:
                    store.add_game(run_id, played.scheduled.number, played_to_dict(played))
                advance(f"{' vs '.join(played.record.players)}: {played.record.winner or 'draw'}")

            with interruptible() as stop:
                tournament = run_tournament(
                    game,
                    players,
                    games=games,
                    seed=seed,
                    opening_plies=args.opening_plies,
                    registry=registry(),
                    on_game=finished,
                    executor=executor,
                    done=done,
                )
        if stop.interrupted:  # the tables of the games that ended before Ctrl-C
            if so_far:
                partial = Tournament(
                    game=game.name,
                    start=game.to_text(),
                    players=tuple(players),
                    games_per_pair=games,
                    opening_plies=args.opening_plies,
                    seed=seed,
                    played=tuple(so_far[n] for n in sorted(so_far)),
                    seats=seats,
                )
                if args.json:
                    print_json(partial.as_dict())
                else:
                    print_tables(partial)
            return report_interruption(len(so_far), total, "games")
        if store is not None:  # the tables come from the games as stored
            stored = store.games(run_id)
            tournament = attrs.evolve(
                tournament, played=tuple(played_from_dict(stored[n]) for n in range(total))
            )
    if args.plot is not None:
        try:
            plot_ratings(tournament, check_plot_file(args.plot))
        except OSError as error:  # the folder changed while the games were played
            raise InvalidOptionError(
                f"cannot write the plot {args.plot!r}: {error.strerror or error}"
            ) from None
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
    seats = "" if tournament.seats == 2 else f" of {tournament.seats}-player games"
    utilities = tournament.has_utilities
    grid = table(
        f"{tournament.game} round robin{seats}: {len(tournament.players)} players, "
        f"{tournament.describe()} ({count} games), seed {tournament.seed}",
        [
            "#",
            "player",
            "Elo",
            "±95%",
            "games",
            "wins",
            "draws",
            "losses",
            "score",
            *(["mean utility"] if utilities else []),
            "mean ms/move",
            "mean nodes/move",
        ],
        numeric_from=2,
    )
    ranked = sorted(
        zip(tournament.standings(), tournament.ratings(), strict=True),
        key=lambda pair: -pair[1].elo,
    )
    for place, (standing, rating) in enumerate(ranked, start=1):
        mean_utility = standing.mean_utility
        grid.add_row(
            str(place),
            standing.label,
            f"{rating.elo:+.0f}",
            f"{rating.interval:.0f}",
            str(standing.games),
            str(standing.wins),
            str(standing.draws),
            str(standing.losses),
            f"{_points(standing.points)}/{standing.games}",
            *([f"{mean_utility:.3g}" if mean_utility is not None else "-"] if utilities else []),
            milliseconds(standing.mean_seconds),
            f"{standing.mean_nodes:,.0f}",
        )
    out.print(grid)
    title = "points of the row player against the column player"
    if tournament.seats > 2:
        title += ", in the games they played together"
    cross = table(title, ["", *tournament.players])
    scores = {(result.a, result.b): result for result in tournament.pair_results()}
    for row, label in enumerate(tournament.players):
        cells = []
        for col in range(len(tournament.players)):
            if row == col:
                cells.append("-")
                continue
            result = scores.get((min(row, col), max(row, col)))
            if result is None:  # a partial tournament: these two have not met yet
                cells.append("0/0")
                continue
            points = result.score if row < col else result.games - result.score
            cells.append(f"{_points(points)}/{result.games:g}")
        cross.add_row(label, *cells)
    out.print(cross)
    out.print(f"replay with: --seed {tournament.seed} --games {tournament.games_per_pair}")


def _points(points: float) -> str:
    """Return points as printed: whole and half points as they are, others to two decimals."""
    return f"{round(points, 2):g}"
