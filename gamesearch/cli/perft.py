"""``gamesearch perft``: count the leaves of a game's legal-move tree to a depth."""

from __future__ import annotations

import argparse
import time
from typing import Any

from rich.text import Text

from gamesearch.cli._common import add_game_arguments, integer, load_game, print_json
from gamesearch.cli._output import check_at_least, console, print_table, progress, table
from gamesearch.testing import perft  # (the function: the module of that name would shadow it)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "perft",
        help="count the move sequences of a given length: a check of a game's move generation",
        description="Count the leaves of the legal-move tree DEPTH plies below a position "
        "(every sequence of DEPTH legal moves; a game that ends sooner adds nothing). "
        "Compare the count with published figures to check a game's move generation; "
        "--divide gives the count below each first move, to find where two counts part.",
        epilog="examples:\n"
        "  gamesearch perft checkers --depth 6\n"
        "  gamesearch perft checkers --position 'W:W18,24,K10:B12,16,K22' --depth 3 --divide\n"
        "  gamesearch perft tictactoe --depth 9 --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(parser)
    parser.add_argument(
        "-d", "--depth", type=integer, required=True, metavar="N", help="plies to count down (>= 1)"
    )
    parser.add_argument(
        "--divide", action="store_true", help="also give the count below each legal move"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    check_at_least("--depth", args.depth)
    game = load_game(args)
    first_moves = len(game.legal_moves())
    started = time.perf_counter()
    with progress(f"perft {args.depth}", first_moves) as advance:
        counts = perft(game, args.depth, divide=True, on_move=lambda move, count: advance(move))
    seconds = time.perf_counter() - started
    nodes = sum(counts.values())
    if args.json:
        data: dict[str, Any] = {
            "game": game.name,
            "options": game.settings,
            "position": game.to_text(),
            "depth": args.depth,
            "nodes": nodes,
            "seconds": round(seconds, 6),
        }
        if args.divide:
            data["divide"] = counts
        print_json(data)
        return 0
    out = console()
    where = (
        "start"
        if not game.ply and game.to_text() == type(game).new(**game.settings).to_text()
        else game.to_text()
    )
    rate = f", {nodes / seconds:,.0f} leaves/s" if seconds > 0 else ""
    out.print(
        f"{game.name} ({where}): perft {args.depth} = {nodes:,} leaves ({seconds:.3f} s{rate})"
    )
    if args.divide:
        grid = table(None, ["move", "leaves"])
        for move, count in counts.items():
            grid.add_row(Text(move), f"{count:,}")
        print_table(out, grid)
    return 0
