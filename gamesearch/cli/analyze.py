"""``gamesearch analyze``: value, best moves and every move's value in one position."""

from __future__ import annotations

import argparse
from typing import Any

import attrs
from rich.text import Text

from gamesearch.cli._common import add_game_arguments, load_game, load_searcher, print_json
from gamesearch.cli._output import console, print_table, table
from gamesearch.errors import BudgetExceededError, InvalidOptionError
from gamesearch.game import Game, describe_value
from gamesearch.search.base import SearchResult

#: analyze's node budget for searchers that take one (alpha-beta: about 5-30 s)
DEFAULT_MAX_NODES = 5_000_000


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="analyse a position: value, best moves, each move's value, statistics",
        description="Search one position and report its value, best moves, every legal "
        "move's value, the principal variation and the search statistics.",
        epilog="examples:\n  gamesearch analyze tictactoe\n"
        "  gamesearch analyze tictactoe --position X.O/.X./... --json\n"
        "  gamesearch analyze tictactoe -o rows=4 -o cols=4 --searcher alphabeta --depth 4",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(parser)
    parser.add_argument(
        "-s",
        "--searcher",
        default="alphabeta",
        metavar="NAME[:KEY=VALUE,...]",
        help="searcher and its options, e.g. alphabeta:table=on (default: alphabeta)",
    )
    parser.add_argument("-d", "--depth", type=int, help="search depth in plies (searchers that take one)")
    parser.add_argument("--seed", type=int, help="break ties among best moves at random from this seed")
    parser.add_argument(
        "--max-nodes",
        type=int,
        default=DEFAULT_MAX_NODES,
        metavar="N",
        help="give up after N nodes, for searchers with a max_nodes option "
        f"(default: {DEFAULT_MAX_NODES:,}); a game too big to search to the end then says so",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def analysis(game: Game[Any], result: SearchResult) -> dict[str, Any]:
    """Return the ``analyze --json`` object for ``result`` of a search of ``game``."""
    data = result.as_dict(game)
    stats = data["stats"]
    return {
        "game": game.name,
        "position": game.to_text(),
        "to_move": game.player_names[game.to_move()],
        "move": data["move"],
        "value": result.value,
        "margin": result.margin,
        "best_moves": data["best_moves"],
        "pv": data["pv"],
        "moves": data["moves"] or [],
        "stats": {key: stats[key] for key in ("nodes", "leaves", "cutoffs", "tt_hits", "depth", "seconds")},
        "is_exact": result.is_exact,
        "is_game_over": result.is_game_over,
        "description": describe_value(game, result.value, is_exact=result.is_exact),
    }


def run(args: argparse.Namespace) -> int:
    game = load_game(args)
    if args.max_nodes < 1:
        raise InvalidOptionError(f"--max-nodes must be at least 1: {args.max_nodes!r}")
    searcher_options: dict[str, Any] = {"seed": args.seed}
    if args.depth is not None:
        searcher_options["depth"] = args.depth
    searcher = load_searcher(args.searcher, **searcher_options)
    if getattr(searcher, "max_nodes", False) is None:  # it takes a budget and has none
        searcher = attrs.evolve(searcher, max_nodes=args.max_nodes)
    try:
        result = searcher.search(game, move_values=True)
    except BudgetExceededError:
        where = repr(game.to_text()) if game.to_text() else "the starting position"
        raise BudgetExceededError(
            f"{searcher.name} gave up after {args.max_nodes:,} nodes on {where}: too big "
            "to search to the end; give --depth N, or --searcher iterative:seconds=5, "
            "or a larger --max-nodes"
        ) from None
    data = analysis(game, result)
    if args.json:
        print_json(data)
        return 0
    out = console()
    out.print(game.render())
    out.print()
    if result.is_game_over:
        out.print(f"The game is over: {data['description']} (value {result.value}).")
        return 0
    out.print(f"{data['to_move']} to move. Value {result.value}: {data['description']}.")
    out.print(f"Best move{'s' if len(data['best_moves']) > 1 else ''}: {', '.join(data['best_moves'])}")
    out.print(f"Chosen: {data['move']}   line: {' '.join(data['pv'])}")
    grid = table(None, ["move", "value", "meaning"], numeric_from=1)
    for entry in data["moves"]:
        words = describe_value(game, entry["value"], is_exact=result.is_exact)
        best = entry["move"] in data["best_moves"]
        grid.add_row(Text(entry["move"], style="bold" if best else ""), str(entry["value"]), Text(words))
    grid.columns[2].justify = "left"
    print_table(out, grid)
    stats = result.stats
    out.print(
        f"Searcher {searcher.name}: {stats.nodes:,} nodes, {stats.leaves:,} leaves, "
        f"{stats.cutoffs:,} cut-offs, {stats.tt_hits:,} table hits, depth {stats.depth}, "
        f"{stats.seconds:.3f} s ({stats.nodes_per_second:,.0f} nodes/s)"
    )
    return 0
