"""``gamesearch match``: a match between two searchers, with random openings from a seed."""

from __future__ import annotations

import argparse
import random
from typing import Any

from gamesearch.arena import GameRecord, play_match
from gamesearch.cli._common import add_game_arguments, integer, load_game, load_searcher, print_json
from gamesearch.cli._output import check_at_least, console, milliseconds, print_table, progress, table
from gamesearch.errors import InvalidOptionError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "match",
        help="play a match between two searchers: wins, draws, losses, nodes and time per move",
        description="Play GAMES games between two searchers from the same position. Each game "
        "opens with random moves drawn from the seed, so games differ; --swap alternates "
        "who plays first. The same seed replays the same match.",
        epilog="examples:\n"
        "  gamesearch match tictactoe --first minimax --second alphabeta --games 10 --swap\n"
        "  gamesearch match tictactoe --first alphabeta:depth=2 --second alphabeta --seed 7 --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--first", required=True, metavar="NAME[:KEY=VALUE,...]",
        help="searcher A, first to move in the first game (e.g. alphabeta:depth=4)",
    )  # fmt: skip
    parser.add_argument(
        "--second", required=True, metavar="NAME[:KEY=VALUE,...]",
        help="searcher B, second to move in the first game",
    )  # fmt: skip
    parser.add_argument(
        "--seat", action="append", default=[], metavar="NAME[:KEY=VALUE,...]",
        help="in a game of more than two players, the searcher of the next seat (third, "
        "fourth, ...): give it once a player after the second",
    )  # fmt: skip
    parser.add_argument("-n", "--games", type=integer, default=10, help="games to play (default: 10)")
    parser.add_argument(
        "--swap", action="store_true", help="alternate who plays first (more players: turn the seats by one a game)"
    )
    parser.add_argument(
        "--opening-plies", type=integer, default=1, metavar="N",
        help="random moves that open each game (default: 1)",
    )  # fmt: skip
    parser.add_argument(
        "--seed", type=integer,
        help="seed of the openings and tie-breaks (default: a random seed, printed)",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the standings and every game as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    check_at_least("--games", args.games)
    check_at_least("--opening-plies", args.opening_plies, 0)
    game = load_game(args)
    first, second = load_searcher(args.first), load_searcher(args.second)
    others = [load_searcher(spec) for spec in args.seat]
    seats = max(2, game.rules.players)
    if 2 + len(others) != seats:
        raise InvalidOptionError(
            f"{game.name!r} has {seats} players: give --first, --second and {seats - 2} --seat, "
            f"not {len(others)} --seat"
        )
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    with progress("match", args.games) as advance:

        def finished(record: GameRecord) -> None:
            advance(f"{record.winner or 'draw'}")

        match = play_match(
            game, first, second, others=others, games=args.games, swap=args.swap,
            opening_plies=args.opening_plies, seed=seed, on_game=finished,
        )  # fmt: skip
    if args.json:
        print_json({"game": game.name, "position": game.to_text(), "seed": seed, **match.as_dict()})
        return 0
    out = console()
    grid = table(
        f"{game.name} match, {args.games} game{'s' if args.games != 1 else ''}, seed {seed}",
        ["searcher", "wins", "draws", "losses", "moves searched", "mean nodes/move", "mean ms/move"],
    )
    for standing in match.standings():
        grid.add_row(
            standing.label, str(standing.wins), str(standing.draws), str(standing.losses),
            f"{standing.moves:,}", f"{standing.mean_nodes:,.0f}", milliseconds(standing.mean_seconds),
        )  # fmt: skip
    print_table(out, grid)
    out.print(f"replay with: --seed {seed}" + (" --swap" if args.swap else ""))
    return 0
