"""``gamesearch tree``: the search tree as a searcher walked it, with its alpha-beta windows.

In a game of chance, chance positions are marked and each outcome below one carries
its probability.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import subprocess
import sys
from typing import Any

import attrs
from rich.console import Console
from rich.text import Text
from rich.tree import Tree

from gamesearch import capabilities
from gamesearch.cli._common import (
    add_game_arguments,
    check_output_file,
    default_searcher_spec,
    depth_option,
    integer,
    load_game,
    load_searcher,
    print_json,
    write_output,
)
from gamesearch.cli._output import PIPE_WIDTH, check_at_least, console
from gamesearch.errors import BudgetExceededError, InvalidOptionError, MissingDependencyError
from gamesearch.game import Game
from gamesearch.rules import Player
from gamesearch.search import Minimax
from gamesearch.search.base import INFINITY, Limit, Searcher, SearchResult, json_value
from gamesearch.search.expectimax import Expectiminimax
from gamesearch.search.mcts import MonteCarlo
from gamesearch.search.multiplayer import BestReply, MaxN, Paranoid
from gamesearch.search.negamax import ExactSearcher
from gamesearch.trace import TraceNode, TreeTracer
from gamesearch.words import number_text

FORMATS = ("text", "dot", "json", "svg")
#: the searcher `tree` draws when neither the command line nor the game names one
DEFAULT_SEARCHER = "alphabeta"
#: positions a search may enter before `tree` gives up on it
SEARCH_LIMIT = 2_000_000
#: positions a search to the end may enter, when no depth is given, before `tree`
#: picks a depth instead (about a second of tracing)
END_OF_GAME_LIMIT = 200_000
#: the deepest depth `tree` tries when it picks one
DEEPEST_PICKED = 64
GRAPHVIZ_HINT = (
    "graphviz's 'dot' program is needed for --format svg but was not found on PATH; "
    "install it (Debian/Ubuntu: apt-get install graphviz; macOS: brew install graphviz) "
    "or write Graphviz source with --format dot"
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tree",
        help="draw the search tree: each node's move, window on entry, value, pruned moves",
        description="Search one position with a tracer and draw the tree the searcher walked: "
        "each node's move, the alpha-beta window it was entered with, the value it returned "
        "(a bound when it fell outside the window) and the moves cut off unsearched. The "
        "header compares the node count with the full minimax tree.",
        epilog="examples:\n"
        "  gamesearch tree tictactoe --position XOX/O.O/.X.\n"
        "  gamesearch tree tictactoe --position XOX/O.O/.X. --searcher minimax --format json\n"
        "  gamesearch tree tictactoe --position XO./.X./... --format svg --output tree.svg",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(parser)
    parser.add_argument(
        "-s",
        "--searcher",
        metavar="NAME[:KEY=VALUE,...]",
        help="searcher and its options (default: the game's own if it can be drawn, else "
        "alphabeta); "
        "mcts, and pvs, mtdf and solver without a depth, cannot be drawn",
    )
    parser.add_argument(
        "-d", "--depth", type=integer, help="search depth in plies (searchers that take one)"
    )
    parser.add_argument(
        "-f", "--format", choices=FORMATS, default="text", help="output format (default: text)"
    )
    parser.add_argument(
        "--max-nodes",
        type=integer,
        default=200,
        metavar="N",
        help="draw at most N nodes; the rest are counted, not drawn (default: 200). Without a "
        f"depth, a game too big to search to the end within {END_OF_GAME_LIMIT:,} nodes is drawn "
        "at the deepest depth whose tree fits in N nodes",
    )
    parser.add_argument("--output", metavar="FILE", help="write to FILE instead of standard output")
    parser.set_defaults(handler=run)


def trace(
    game: Game[Any], searcher: Searcher, max_nodes: int | None, stop_after: int | None = None
) -> tuple[SearchResult, TreeTracer]:
    """Return the result of ``searcher`` on ``game`` and the tracer that recorded it.

    :raises BudgetExceededError: when the search enters more than ``stop_after``
        positions (default: :data:`SEARCH_LIMIT`).
    """
    limit = SEARCH_LIMIT if stop_after is None else stop_after
    tracer = TreeTracer(game, max_nodes=max_nodes, stop_after=limit)
    result = searcher.search(game, tracer=tracer)
    if tracer.nodes > limit:  # the searcher caught the tracer's stop as its own budget running out
        raise BudgetExceededError(
            f"the search entered more than {limit:,} positions; give a depth limit or a position "
            "nearer the end"
        )
    return result, tracer


def refusal(searcher: Searcher) -> str | None:
    """Return why ``tree`` cannot draw ``searcher``'s tree, or ``None`` when it can.

    A tree is drawn only when the searcher reports every position it counts.
    """
    if isinstance(searcher, MonteCarlo):
        return (
            f"tree cannot draw {searcher.name!r}: it grows its tree by random playouts, not by "
            "a depth-first search; draw alphabeta, minimax or iterative instead"
        )
    if isinstance(searcher, (Paranoid, BestReply)):
        return (
            f"tree cannot draw {searcher.name!r}: it does not report the positions it visits; "
            "draw maxn instead (every player's utilities at every node)"
        )
    if isinstance(searcher, ExactSearcher) and searcher.depth is None:
        return (
            f"tree cannot draw {searcher.name!r} searching to the end: it does not report every "
            "position it visits; draw alphabeta, minimax or iterative instead, or give a depth "
            f"({searcher.name}:depth=4 searches as alpha-beta)"
        )
    return None


def choose_searcher(game: Game[Any], spec: str | None, depth: int | None) -> Searcher:
    """Return the searcher to draw: ``spec``, else the game's own when it can be drawn,
    else :data:`DEFAULT_SEARCHER`; ``depth`` applied.

    :raises GameSearchError: for a bad spec, or a searcher ``tree`` cannot draw.
    """
    if spec is None:
        named, extra = default_searcher_spec(game, DEFAULT_SEARCHER, depth)
        searcher = load_searcher(named, **extra)
        if refusal(searcher) is not None:  # the game's own searcher cannot be drawn
            searcher = load_searcher(
                DEFAULT_SEARCHER, **({} if depth is None else {"depth": depth})
            )
    else:
        searcher = load_searcher(spec, **({} if depth is None else {"depth": depth}))
    reason = refusal(searcher)
    if reason is not None:
        raise InvalidOptionError(reason)
    return searcher


def has_open_depth(searcher: Searcher) -> bool:
    """Return whether ``searcher`` takes a depth limit and has none."""
    option = depth_option(type(searcher))
    return option is not None and getattr(searcher, option) is None


def pick_depth(game: Game[Any], searcher: Searcher, max_nodes: int) -> tuple[Searcher, str]:
    """Return ``searcher`` limited to the deepest depth whose search enters at most
    ``max_nodes`` positions (depth 1 when none does), and a sentence saying so."""
    option = depth_option(type(searcher)) or "depth"
    chosen = 0  # the deepest depth that fits so far (0: none yet)
    for depth in range(1, DEEPEST_PICKED + 1):
        counter = TreeTracer(max_nodes=0, stop_after=max_nodes)  # counts, records nothing
        try:
            result = attrs.evolve(searcher, **dict[str, Any]({option: depth})).search(
                game, tracer=counter
            )
        except BudgetExceededError:
            break
        if counter.nodes > max_nodes:  # the searcher caught the stop as its own budget running out
            break
        chosen = depth
        if result.is_exact:  # it reached every end of the game: deeper adds nothing
            break
    why = (
        f"the deepest whose tree fits in --max-nodes {max_nodes:,}"
        if chosen
        else f"though even that tree has more than --max-nodes {max_nodes:,} nodes"
    )
    chosen = max(chosen, 1)
    note = (
        f"a search to the end enters more than {END_OF_GAME_LIMIT:,} positions, so the tree is "
        "drawn "
        f"to depth {chosen}, {why} (give --depth N for another depth)"
    )
    return attrs.evolve(searcher, **dict[str, Any]({option: chosen})), note


def trace_with_depth(
    game: Game[Any], searcher: Searcher, max_nodes: int
) -> tuple[Searcher, SearchResult, TreeTracer, str | None]:
    """Return the searcher drawn, its result, the tracer and a note on the depth ``tree`` picked.

    A searcher that takes a depth and was given none searches to the end when that takes at
    most :data:`END_OF_GAME_LIMIT` positions; otherwise :func:`pick_depth` chooses its depth.

    :raises BudgetExceededError: when a search enters more than :data:`SEARCH_LIMIT` positions.
    """
    if not has_open_depth(searcher):
        return (searcher, *trace(game, searcher, max_nodes), None)
    try:
        limit = min(SEARCH_LIMIT, max(END_OF_GAME_LIMIT, max_nodes))
        return (searcher, *trace(game, searcher, max_nodes, stop_after=limit), None)
    except BudgetExceededError:
        limited, note = pick_depth(game, searcher, max_nodes)
        return (limited, *trace(game, limited, max_nodes), note)


def check_counts(searcher: Searcher, result: SearchResult, tracer: TreeTracer) -> None:
    """Refuse to draw a tree whose traced positions are not the ones the searcher counted.

    :raises InvalidOptionError: naming both counts.
    """
    if tracer.nodes != result.stats.nodes:
        raise InvalidOptionError(
            f"tree cannot draw {searcher.name!r}: it reported {tracer.nodes:,} positions but "
            f"counted {result.stats.nodes:,}; draw alphabeta, minimax or iterative instead"
        )


def full_searcher(game: Game[Any], depth: int | None) -> Searcher:
    """Return the searcher that walks the full tree: minimax, expectiminimax in a game of
    chance, max^n without pruning in a game with utilities."""
    if game.rules.utilities:
        return MaxN(depth=depth, pruning=False)
    return Expectiminimax(depth=depth) if game.rules.chance else Minimax(depth=depth)


def full_tree_nodes(game: Game[Any], depth: int | None) -> int | None:
    """Return the nodes plain minimax (expectiminimax) visits, the full tree, or ``None`` when
    too many."""
    try:
        return full_searcher(game, depth).search(game, Limit(max_nodes=SEARCH_LIMIT)).stats.nodes
    except BudgetExceededError:
        return None


def run(args: argparse.Namespace) -> int:
    check_at_least("--max-nodes", args.max_nodes)
    if args.output:
        check_output_file(args.output)
    game = load_game(args)
    searcher = choose_searcher(game, args.searcher, args.depth)
    if args.format == "svg" and shutil.which("dot") is None:
        raise MissingDependencyError(GRAPHVIZ_HINT)
    searcher, result, tracer, note = trace_with_depth(game, searcher, args.max_nodes)
    check_counts(searcher, result, tracer)
    depth = getattr(searcher, "depth", None)
    full = (
        full_tree_nodes(game, depth)
        if searcher.name != full_searcher(game, depth).name
        else result.stats.nodes
    )
    if note is not None and args.format != "text":
        print(f"gamesearch tree: {note}", file=sys.stderr)
    if args.format == "json":
        data = tree_data(game, searcher, result, tracer, full, note)
        if args.output:
            write_output(args.output, json.dumps(data, indent=2) + "\n")
        else:
            print_json(data)
        return 0
    if args.format in ("dot", "svg"):
        source = to_dot(game, tracer)
        output = source if args.format == "dot" else render_svg(source)
        if args.output:
            write_output(args.output, output)
        else:
            sys.stdout.write(output)
        return 0
    out = (
        console()
        if not args.output
        else Console(file=io.StringIO(), width=PIPE_WIDTH, highlight=False, markup=False)
    )
    out.print(capabilities.render(game))
    out.print(summary(game, searcher, result, tracer, full))
    if note is not None:
        out.print(note[0].upper() + note[1:] + ".")
    for number, root in enumerate(tracer.roots, start=1):
        if len(tracer.roots) > 1:  # iterative deepening: one tree per iteration
            out.print(f"iteration {number}:")
        out.print(to_rich_tree(game, root))
    if tracer.is_truncated:
        out.print(
            f"... {tracer.nodes - tracer.recorded:,} more nodes not drawn (--max-nodes "
            f"{args.max_nodes})"
        )
    if args.output:
        assert isinstance(out.file, io.StringIO)
        write_output(args.output, out.file.getvalue())
    return 0


def summary(
    game: Game[Any], searcher: Searcher, result: SearchResult, tracer: TreeTracer, full: int | None
) -> str:
    """Return the header line: the searcher's own counts and the full tree's size."""
    stats = result.stats
    words = result.describe(game)
    line = (
        f"{searcher.name} on {game.to_text()}: value {result.value_text} ({words}), best "
        f"{', '.join(game.format_move(move) for move in result.best_moves) or 'none'}\n"
        f"{tracer.nodes:,} nodes traced, the searcher counted {stats.nodes:,} "
        f"({stats.leaves:,} leaves, {stats.cutoffs:,} cut-offs, {stats.tt_hits:,} table hits)"
    )
    full_name = full_searcher(game, None).name
    if full is not None and searcher.name != full_name:
        line += f"; the full {full_name} tree has {full:,} nodes ({stats.nodes / full:.0%} visited)"
    return line


def _window(node: TraceNode) -> str:
    low = "-inf" if node.alpha <= -INFINITY else str(node.alpha)
    high = "+inf" if node.beta >= INFINITY else str(node.beta)
    return f"[{low}, {high}]"


def _value_text(node: TraceNode) -> str:
    if node.value is None:
        return "?"
    if isinstance(node.value, tuple):  # one utility per player
        return "(" + ", ".join(number_text(value) for value in node.value) + ")"
    return {"exact": "", "upper": "<= ", "lower": ">= "}.get(node.bound, "") + str(node.value)


def _mover(game: Game[Any], player: int | None) -> str:
    return "" if player is None else capabilities.player_names(game)[player]


def _node_label(game: Game[Any], node: TraceNode, mover: int | None) -> Text:
    """Return one node's line: the move and who played it, window, value."""
    label = Text()
    if node.move is None:
        label.append("root", style="bold")
        label.append(" (chance)" if node.is_chance else f" ({_mover(game, node.to_move)} to move)")
    else:
        label.append(f"{_mover(game, mover)} {game.format_move(node.move)}".strip(), style="bold")
        if node.probability is not None:
            label.append(f" (p {node.probability})")
        if node.is_chance:
            label.append("  chance", style="italic")
    if isinstance(node.value, tuple):
        label.append(f"  utilities {_value_text(node)}")
    else:
        label.append(f"  window {_window(node)}  value {_value_text(node)}")
    if node.bound == "cut":
        label.append(" (moves pruned: the mover's best so far)", style="dim")
    elif node.bound != "exact" and node.value is not None:
        label.append(f" ({node.bound} bound)", style="dim")
    if not node.is_expanded and node.value is not None:
        label.append("  leaf", style="dim")
    return label


def to_rich_tree(game: Game[Any], root: TraceNode) -> Tree:
    """Return ``root``'s subtree drawn with indentation guides (pruned moves in red)."""
    drawing = Tree(_node_label(game, root, None))
    pending = [(root, drawing)]
    while pending:
        node, branch = pending.pop()
        for child in node.children:
            pending.append((child, branch.add(_node_label(game, child, node.to_move))))
        if node.pruned:
            moves = ", ".join(game.format_move(move) for move in node.pruned)
            branch.add(Text(f"pruned: {moves} (never searched)", style="red"))
    return drawing


def to_dot(game: Game[Any], tracer: TreeTracer) -> str:
    """Return Graphviz source of the traced tree: boxes where the first player moves,
    ellipses where the second does, diamonds at chance positions (their edges carry the
    outcomes' probabilities), pruned moves as dashed grey nodes."""
    lines = [
        "digraph search {",
        '  node [fontname="Helvetica", fontsize=10];',
        '  edge [fontname="Helvetica", fontsize=9];',
    ]
    numbers: dict[int, str] = {}

    def name(node: TraceNode) -> str:
        return numbers.setdefault(id(node), f"n{len(numbers)}")

    for root in tracer.roots:
        for node in root.walk():
            shape = (
                "diamond"
                if node.is_chance
                else "box"
                if node.to_move is Player.FIRST
                else "ellipse"
            )
            fill = ', style=filled, fillcolor="#eeeeee"' if not node.is_expanded else ""
            label = (
                _value_text(node)
                if isinstance(node.value, tuple)
                else f"{_value_text(node)}\\n{_window(node)}"
            )
            lines.append(f'  {name(node)} [shape={shape}, label="{label}"{fill}];')
            for child in node.children:
                odds = "" if child.probability is None else f"\\np {child.probability}"
                lines.append(
                    f"  {name(node)} -> {name(child)} "
                    f'[label="{game.format_move(child.move)}{odds}"];'
                )
            for move in node.pruned:
                cut = f"{name(node)}_cut_{len(lines)}"
                lines.append(f'  {cut} [shape=plaintext, fontcolor=grey, label="pruned"];')
                lines.append(
                    f"  {name(node)} -> {cut} [style=dashed, color=grey, "
                    f'label="{game.format_move(move)}"];'
                )
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_svg(source: str) -> str:
    """Return ``source`` laid out as SVG by Graphviz's ``dot``.

    :raises MissingDependencyError: when ``dot`` is not installed (or fails).
    """
    program = shutil.which("dot")
    if program is None:
        raise MissingDependencyError(GRAPHVIZ_HINT)
    done = subprocess.run(
        [program, "-Tsvg"], input=source, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise MissingDependencyError(f"graphviz's 'dot' failed: {done.stderr.strip()!r}")
    return done.stdout


def tree_data(
    game: Game[Any],
    searcher: Searcher,
    result: SearchResult,
    tracer: TreeTracer,
    full: int | None,
    depth_note: str | None = None,
) -> dict[str, Any]:
    """Return the ``tree --json`` object (``depth_note``: why ``tree`` picked the depth)."""
    stats = result.as_dict(game)["stats"]
    return {
        "game": game.name,
        "position": game.to_text(),
        "searcher": searcher.name,
        "value": json_value(result.value),
        "utilities": result.as_dict(game)["utilities"],
        "best_moves": [game.format_move(move) for move in result.best_moves],
        "nodes": tracer.nodes,
        "recorded": tracer.recorded,
        "is_truncated": tracer.is_truncated,
        "full_tree_nodes": full,
        "depth_note": depth_note,
        "stats": stats,
        "trees": [root.as_dict(game.format_move) for root in tracer.roots],
    }
