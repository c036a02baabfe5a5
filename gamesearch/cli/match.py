"""``gamesearch match``: a match between two searchers, with random openings from a seed."""

from __future__ import annotations

import argparse
import contextlib
import random
from collections.abc import Sequence
from typing import Any

from gamesearch.arena import GameRecord, MatchGame, MatchRecord, match_games, searcher_label
from gamesearch.batch import ResultStore
from gamesearch.batch.games import play_match_game, record_from_dict, record_to_dict, run_key
from gamesearch.cli._common import (
    add_clock_argument,
    add_game_arguments,
    integer,
    load_game,
    load_searcher,
    print_json,
)
from gamesearch.cli._output import (
    check_at_least,
    console,
    milliseconds,
    print_table,
    progress,
    table,
)
from gamesearch.cli._progress import interruptible, report_interruption
from gamesearch.cli.batch import add_executor_arguments, executor_from
from gamesearch.errors import GameSearchError, InvalidOptionError
from gamesearch.game import Game
from gamesearch.search.base import Searcher


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "match",
        help="play a match between two searchers: wins, draws, losses, nodes and time per move",
        description="Play GAMES games between two searchers from the same position. Each game "
        "opens with random moves drawn from the seed, so games differ; --swap alternates "
        "who plays first. The same seed replays the same match, in this process, on --workers "
        "local processes or on the Dask cluster whose scheduler is at --scheduler. With "
        "--store, each game is written to that SQLite file as it ends; the same command (same "
        "--seed) run again plays only the games missing. Ctrl-C stops the match, prints the "
        "table of the games already played and exits with status 130; the games already "
        "stored stay in the store.",
        epilog="typical times on a 2-core machine: the tic-tac-toe examples, under a second;\n"
        "  Connect Four between alphabeta:depth=4 players, under a second a game\n"
        "examples:\n"
        "  gamesearch match tictactoe --first minimax --second alphabeta --games 10 --swap\n"
        "  gamesearch match tictactoe --first alphabeta:depth=2 --second alphabeta --seed 7 "
        "--json\n"
        "  gamesearch match connect4 --first alphabeta:depth=4 --second mcts:simulations=1000 "
        "--games 40 "
        "--swap --seed 1 --workers 2 --store match.sqlite",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--first",
        required=True,
        metavar="NAME[:KEY=VALUE,...]",
        help="searcher A, first to move in the first game (e.g. alphabeta:depth=4)",
    )
    parser.add_argument(
        "--second",
        required=True,
        metavar="NAME[:KEY=VALUE,...]",
        help="searcher B, second to move in the first game",
    )
    parser.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="NAME[:KEY=VALUE,...]",
        help="in a game of more than two players, the searcher of the next seat (third, "
        "fourth, ...): give it once a player after the second",
    )
    parser.add_argument(
        "-n", "--games", type=integer, default=10, help="games to play (default: 10)"
    )
    parser.add_argument(
        "--swap",
        action="store_true",
        help="alternate who plays first (more players: turn the seats by one a game)",
    )
    parser.add_argument(
        "--opening-plies",
        type=integer,
        default=1,
        metavar="N",
        help="random moves that open each game (default: 1)",
    )
    parser.add_argument(
        "--seed",
        type=integer,
        help="seed of the openings and tie-breaks (default: a random seed, printed)",
    )
    add_executor_arguments(
        parser,
        workers_help="processes playing games in parallel (default: 1)",
        store_help="write each game to this SQLite file as it ends; a rerun with the same seed "
        "plays only the rest",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the standings and every game as JSON"
    )
    add_clock_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    check_at_least("--games", args.games)
    check_at_least("--opening-plies", args.opening_plies, 0)
    game = load_game(args)
    first = load_searcher(args.first, clock=args.clock)
    second = load_searcher(args.second, clock=args.clock)
    others = [load_searcher(spec, clock=args.clock) for spec in args.seat]
    seats = max(2, game.rules.players)
    if 2 + len(others) != seats:
        raise InvalidOptionError(
            f"{game.name!r} has {seats} players: give --first, --second and {seats - 2} --seat, "
            f"not {len(others)} --seat"
        )
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    searchers, played = [first, second, *others], dict[int, GameRecord]()
    with interruptible() as stop:
        match = _play(args, game, searchers, seed, played)
    if stop.interrupted:  # the table of the games that ended before Ctrl-C
        match = _record(
            searchers, match_games(searchers, games=args.games, swap=args.swap, seed=seed), played
        )
        if match.games:
            _print(args, game, match, seed)
        return report_interruption(len(played), args.games, "games")
    _print(args, game, match, seed)
    return 0


def _print(args: argparse.Namespace, game: Game[Any], match: MatchRecord, seed: int) -> None:
    """Print the match's table (or its JSON with ``--json``)."""
    if args.json:
        print_json({"game": game.name, "position": game.to_text(), "seed": seed, **match.as_dict()})
        return
    out = console()
    grid = table(
        f"{game.name} match, {args.games} game{'s' if args.games != 1 else ''}, seed {seed}",
        [
            "searcher",
            "wins",
            "draws",
            "losses",
            "moves searched",
            "mean nodes/move",
            "mean ms/move",
        ],
    )
    for standing in match.standings():
        grid.add_row(
            standing.label,
            str(standing.wins),
            str(standing.draws),
            str(standing.losses),
            f"{standing.moves:,}",
            f"{standing.mean_nodes:,.0f}",
            milliseconds(standing.mean_seconds),
        )
    print_table(out, grid)
    out.print(f"replay with: --seed {seed}" + (" --swap" if args.swap else ""))


def _play(
    args: argparse.Namespace,
    game: Game[Any],
    searchers: list[Searcher],
    seed: int,
    records: dict[int, GameRecord],
) -> MatchRecord:
    """Play the match's games on the executor the arguments name, storing each one as it
    ends when ``--store`` is given, and return the match (with the stored games).

    ``records`` collects every game as it ends (by its number), so that what was played
    is known when Ctrl-C stops the match.
    """
    plan = match_games(searchers, games=args.games, swap=args.swap, seed=seed)
    run_id = run_key(
        "match",
        game=game.name,
        start=game.to_text(),
        players=[searcher_label(searcher) for searcher in searchers],
        games=args.games,
        swap=args.swap,
        seed=seed,
        opening_plies=args.opening_plies,
    )
    with contextlib.ExitStack() as resources:
        store = resources.enter_context(ResultStore(args.store)) if args.store is not None else None
        executor = resources.enter_context(executor_from(args))
        if store is not None:
            records.update((n, record_from_dict(data)) for n, data in store.games(run_id).items())
        jobs = [
            (game, planned, args.opening_plies) for planned in plan if planned.number not in records
        ]
        with progress(
            "match" + (f" ({len(records)} games stored before)" if records else ""), len(jobs)
        ) as advance:
            for finished in executor.map_unordered(play_match_game, jobs):
                number = finished.item[1].number
                if finished.result is None:
                    raise GameSearchError(
                        f"game {number + 1} of the match was lost: {finished.error}"
                    )
                if store is not None:
                    store.add_game(run_id, number, record_to_dict(finished.result))
                records[number] = finished.result
                advance(f"{finished.result.winner or 'draw'}")
    return _record(searchers, plan, records)


def _record(
    searchers: list[Searcher], plan: Sequence[MatchGame], records: dict[int, GameRecord]
) -> MatchRecord:
    """Return the match of the planned games that were played, in the plan's order."""
    labels = tuple(searcher_label(searcher) for searcher in searchers)
    played = [planned for planned in plan if planned.number in records]
    return MatchRecord(
        labels, tuple(records[p.number] for p in played), tuple(p.turn for p in played)
    )
