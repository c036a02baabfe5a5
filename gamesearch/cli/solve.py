"""``gamesearch solve``: the exact value of every reachable position, into a store."""

from __future__ import annotations

import argparse
from typing import Any

from gamesearch.cli._common import add_game_arguments, load_game, print_json
from gamesearch.cli._output import console
from gamesearch.cli._progress import EXIT_INTERRUPTED, duration, interruptible, progress
from gamesearch.solutions import (
    SolutionStore,
    SolveSummary,
    UtilityPacking,
    check_solvable,
    solve_game,
)
from gamesearch.words import describe_result, describe_value


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve a game strongly: every reachable position's exact value, into a file",
        description="Walk every position reachable from the start of GAME and store its exact "
        "value (the final result under best play and the plies to it) in an SQLite file. "
        "A run stopped with Ctrl-C keeps what it solved: run the same command again to go "
        "on. 'gamesearch analyze GAME --table FILE' then answers every move's value at once.",
        epilog="examples:\n  gamesearch solve tictactoe --store tictactoe.sqlite\n"
        "  gamesearch solve connect4 -o width=4 -o height=4 --store connect4-4x4.sqlite\n"
        "  gamesearch analyze tictactoe --table tictactoe.sqlite",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(parser, position=False)
    parser.add_argument(
        "--store",
        required=True,
        metavar="FILE",
        help="the SQLite file to write (made if missing; a file of the same game and options "
        "is completed, one of another game is refused)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    game = load_game(args)
    check_solvable(game)
    name = type(game).name
    with SolutionStore(args.store, game) as store:
        already = len(store) if store.is_complete else None
        with interruptible() as stop, progress(f"solving {name}", 100, unit="%") as bar:

            def report(fraction: float, solved: int) -> None:
                bar.set_completed(round(100 * fraction, 1), f"{solved:,} positions")

            summary = solve_game(game, store, report=report)
        if stop.interrupted:
            print(
                f"gamesearch: interrupted; {len(store):,} positions are stored in "
                f"{args.store!r}: run the same command to go on",
                flush=True,
            )
            return EXIT_INTERRUPTED
    _print(game, args, summary, already)
    return 0


def _print(game: Any, args: argparse.Namespace, summary: SolveSummary, already: int | None) -> None:
    start = summary.start
    utilities = None
    if game.rules.utilities:  # max^n: the utilities best play reaches
        utilities = UtilityPacking.of(game).unpack(start.result)
        value: Any = list(utilities)
        words = f"{describe_result(game, utilities)} in {start.distance} plies"
    else:
        value = start.value(game.ply, game)
        words = describe_value(game, value, is_exact=True)
    if args.json:
        print_json(
            {
                "game": type(game).name,
                "options": game.settings,
                "store": args.store,
                "positions": summary.positions,
                "new_positions": summary.new,
                "seconds": round(summary.seconds, 3),
                "bytes_per_position": round(summary.bytes_per_position, 1),
                "start": {
                    "result": start.result if utilities is None else list(utilities),
                    "distance": start.distance,
                    "value": value,
                },
                "description": words,
            }
        )
        return
    out = console()
    kept = "" if already is None else " (the store was complete already)"
    out.print(
        f"Solved {type(game).name}: {summary.positions:,} positions ({summary.new:,} new) in "
        f"{duration(summary.seconds)}{kept}; {args.store}: "
        f"{summary.bytes_per_position:.1f} bytes per position."
    )
    if utilities is not None:
        out.print(f"The starting position under max^n play: {words}.")
        return
    out.print(f"The starting position: {words} (result {start.result}, {start.distance} plies).")
