"""``gamesearch compare``: several searchers on one position, side by side.

Three views: one row per searcher on a position (the default), the same searchers at
each of several depths (``--depths``), and a table of the first player's opening moves
(``--openings``: plain minimax against textbook alpha-beta after each one). Every search runs once
under a node limit first, so a
search too big to finish is reported as given up instead of running for ever; the
timed runs that follow are untraced.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import attrs

from gamesearch.arena import searcher_label
from gamesearch.cli import _plot
from gamesearch.cli._common import (
    add_game_arguments,
    depth_option,
    integer,
    load_game,
    print_json,
    registry,
)

# What compare measures has a module of its own; its names stay importable from here.
from gamesearch.cli._compare_measure import Row as Row
from gamesearch.cli._compare_measure import agrees as agrees
from gamesearch.cli._compare_measure import guarded_search as guarded_search
from gamesearch.cli._compare_measure import measure as measure
from gamesearch.cli._compare_measure import position_title as position_title
from gamesearch.cli._compare_measure import reference_kind as reference_kind
from gamesearch.cli._compare_measure import reference_rows as reference_rows
from gamesearch.cli._output import (
    check_at_least,
    console,
    milliseconds,
    print_table,
    progress,
    table,
)
from gamesearch.cli._progress import interruptible, report_interruption
from gamesearch.errors import InvalidOptionError
from gamesearch.game import Game
from gamesearch.rules import Scoring
from gamesearch.search import AlphaBeta, Minimax
from gamesearch.search.base import Searcher, json_value
from gamesearch.search.engine import trick_specs
from gamesearch.search.multiplayer import MaxN
from gamesearch.words import number_text

#: positions one search may enter before compare gives up on it
DEFAULT_MAX_NODES = 3_000_000
#: how many best moves a table cell lists before "+N more"
SHOWN_MOVES = 4

#: the exit status when a row disagrees with its reference
EXIT_DISAGREEMENT = 1


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="compare searchers on a position: value, agreement, nodes, cut-offs, time; plots",
        description="Run several searchers on one position and compare value, best moves, "
        "agreement with the row each is checked against (minimax when it can finish, else the "
        "deepest exact searcher), nodes, leaves, cut-offs, table hits and median time. --depths "
        "repeats "
        "the depth-capable searchers at each depth; --openings counts the nodes plain minimax "
        "and textbook alpha-beta need to choose the reply to each opening move. A progress "
        "bar (a line every few seconds when standard error is not a terminal) shows the "
        "searchers done; Ctrl-C stops the searches, prints the rows measured so far (not checked) "
        "and exits with status 130. The exit status is 1 when a row disagrees with the row "
        "it is checked against (not with --tricks, where tricks may change a value).",
        epilog="typical times on a 2-core machine: each example below takes a second or two, the\n"
        "  Connect Four --depths one about 5 s; --repeat multiplies the timed runs. A search\n"
        "  that needs more than --max-nodes gives up on reaching it, and one that answers\n"
        "  within its budget (iterative deepening, MCTS) spends all of it: at the default,\n"
        "  `compare connect4 --searchers iterative` takes about 40 s of processor time\n"
        "  (minutes on a busy machine); give it seconds=N, or a smaller --max-nodes\n"
        "examples:\n"
        "  gamesearch compare tictactoe\n"
        "  gamesearch compare tictactoe --position X...O.... --searchers "
        "minimax,alphabeta:table=on --repeat 5\n"
        "  gamesearch compare tictactoe --openings\n"
        "  gamesearch compare connect4 --depths 1..6 --searchers minimax,alphabeta --plot "
        "depths.png\n"
        "  gamesearch compare othello --option size=6 --depth 6 --tricks\n"
        "  gamesearch compare tictactoe --plot compare.png --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(parser)
    parser.add_argument(
        "-s",
        "--searchers",
        metavar="SPEC,SPEC,...",
        help="searchers with options, e.g. minimax,alphabeta:depth=4,table=on,iterative "
        "(default: every registered searcher that can search the game)",
    )
    parser.add_argument(
        "-d",
        "--depth",
        type=integer,
        help="depth limit for every searcher that takes one (the others are not checked for "
        "agreement)",
    )
    parser.add_argument(
        "-r", "--repeat", type=integer, default=1, help="timed runs per searcher (default: 1)"
    )
    parser.add_argument(
        "--max-nodes",
        type=integer,
        default=DEFAULT_MAX_NODES,
        metavar="N",
        help=f"give up on a search after N nodes (default: {DEFAULT_MAX_NODES:,})",
    )
    view = parser.add_mutually_exclusive_group()
    view.add_argument(
        "--openings",
        action="store_true",
        help="nodes minimax and alpha-beta need to answer each opening move",
    )
    view.add_argument(
        "--depths", metavar="FROM..TO", help="run each depth-capable searcher at each depth"
    )
    view.add_argument(
        "--tricks",
        action="store_true",
        help="the engine with each trick alone and all on against plain alpha-beta at --depth",
    )
    parser.add_argument("--plot", metavar="FILE.png", help="draw the comparison (needs matplotlib)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


# ------------------------------------------------------------------ reading
def split_specs(text: str) -> list[str]:
    """Return the searcher specs of ``"minimax,alphabeta:depth=4,table=on"``.

    A comma-separated part with ``=`` but no ``:`` is one more option of the spec before.

    :raises InvalidOptionError: for an empty list or an option with no searcher before it.
    """
    specs: list[str] = []
    for part in (piece.strip() for piece in text.split(",")):
        if "=" in part and ":" not in part:
            if not specs:
                raise InvalidOptionError(
                    f"searcher option {part!r} comes before any searcher name in {text!r}"
                )
            specs[-1] += "," + part
        elif part:
            specs.append(part)
    if not specs:
        raise InvalidOptionError(f"no searcher named in {text!r}")
    return specs


def searcher_depth(searcher: Searcher) -> int | None:
    """Return the searcher's depth limit (``None`` when it has none or no such option)."""
    option = depth_option(type(searcher))
    return None if option is None else getattr(searcher, option)


def load_searchers(
    text: str | None, depth: int | None, game: Game[Any] | None = None
) -> list[Searcher]:
    """Return the searchers of ``--searchers`` (default: every registered one that can
    search ``game``), ``depth`` applied."""
    found = registry()
    specs = (
        split_specs(text)
        if text
        else [
            name
            for name, kind in found.searchers.items()
            if game is None or not kind().unmet_needs(game)
        ]
    )
    searchers = []
    for spec in specs:
        name = spec.partition(":")[0].strip()
        option = depth_option(found.searcher_class(name))
        extra = {option: depth} if option is not None and depth is not None else {}
        searcher = found.new_searcher(spec, **extra)
        if text or game is None or not searcher.unmet_needs(game):
            searchers.append(searcher)
    return searchers


def _moves(moves: Sequence[str]) -> str:
    shown = ", ".join(moves[:SHOWN_MOVES])
    return shown + (f" +{len(moves) - SHOWN_MOVES} more" if len(moves) > SHOWN_MOVES else "")


# ------------------------------------------------------------------ the views
def run(args: argparse.Namespace) -> int:
    check_at_least("--repeat", args.repeat)
    check_at_least("--max-nodes", args.max_nodes)
    check_at_least("--depth", args.depth)
    if args.openings and args.plot:
        raise InvalidOptionError(
            f"--plot draws the searcher table or --depths, not --openings: {args.plot!r}"
        )
    if args.plot:
        _plot.check_plot_file(args.plot)
    game = load_game(args)
    if args.openings:
        return run_openings(game, args)
    if args.tricks:
        if args.depth is None or args.searchers:
            raise InvalidOptionError(
                "--tricks compares its own searchers at one depth: give --depth, not --searchers"
            )
        args.searchers = ",".join(trick_specs(args.depth))
    searchers = load_searchers(args.searchers, args.depth, game)
    if args.depths:
        return run_depths(game, searchers, args)
    return run_rows(game, searchers, args)


def run_rows(game: Game[Any], searchers: Sequence[Searcher], args: argparse.Namespace) -> int:
    """Print (or write as JSON, or plot) one row per searcher."""
    rows = []
    with interruptible() as stop, progress("compare", len(searchers)) as advance:
        for searcher in searchers:
            rows.append(measure(game, searcher, args.repeat, args.max_nodes))
            advance(searcher.name)
    if (
        stop.interrupted
    ):  # the rows measured so far, checked against none (a reference would search on)
        if rows:
            print_rows(game, rows, {}, args)
        return report_interruption(len(rows), len(searchers), "searchers")
    if args.tricks:  # plain alpha-beta, the first row, has minimax's value at the depth
        references: dict[str, Row | None] = {Scoring.DISTANCE.value: rows[0]}
    else:
        references = reference_rows(game, rows, args.depth, args.max_nodes)
    return print_rows(game, rows, references, args)


def print_rows(
    game: Game[Any],
    rows: Sequence[Row],
    references: dict[str, Row | None],
    args: argparse.Namespace,
) -> int:
    """Print (or write as JSON, or plot) the rows, each checked against its reference
    when there is one; return the exit status: 1 when a row disagrees with its reference
    (with ``--tricks``, where tricks may change a depth-limited value, 0), else 0."""
    base = references.get(Scoring.DISTANCE.value) or next(iter(references.values()), None)
    base_nodes = base.result.stats.nodes if base is not None and base.result is not None else None
    # a row is checked against the reference only when both search to the same depth
    # (in a game with utilities, only max^n rows: paranoid and BRS answer another question)
    data = [
        row_data(
            game,
            row,
            references.get(reference_kind(game, row.searcher))
            if searcher_depth(row.searcher) == args.depth
            and (not game.rules.utilities or isinstance(row.searcher, MaxN))
            else None,
            base_nodes,
        )
        for row in rows
    ]
    if args.plot:
        finished = [row for row in rows if row.result is not None]
        figure = _plot.comparison_figure(
            f"{game.name} {position_title(game)}",
            {row.label: row.result.stats.nodes for row in finished if row.result is not None},
            {row.label: row.median_seconds for row in finished},
        )
        _plot.save(figure, args.plot)
    if args.json:
        print_json(
            {
                "game": game.name,
                "position": game.to_text(),
                "depth": args.depth,
                "repeat": args.repeat,
                "references": {
                    kind: None if ref is None else ref.label for kind, ref in references.items()
                },
                "rows": data,
            }
        )
        return _status(data, args)
    out = console()
    grid = table(
        f"{game.name} {position_title(game)}" + (f", depth {args.depth}" if args.depth else ""),
        [
            "searcher",
            "value",
            "best moves",
            "agrees",
            "nodes",
            "leaves",
            "cut-offs",
            "tt hits",
            "median ms",
            "nodes/s",
            "vs alpha-beta" if args.tricks else "vs ref",
        ],
        numeric_from=4,
    )
    grid.columns[1].justify = "right"  # the value

    def shown(label: str) -> str:
        """Return a row's label as the table shows it (--tricks: without the common depth)."""
        if not args.tricks:
            return label
        return label.replace(f":depth={args.depth},", ":").replace(f":depth={args.depth}", "")

    for entry in data:
        if entry["gave_up"]:
            grid.add_row(
                shown(entry["searcher"]), "-", f"gave up after {args.max_nodes:,} nodes", *["-"] * 8
            )
            continue
        stats = entry["stats"]
        fraction = entry["nodes_vs_reference"]
        grid.add_row(
            shown(entry["searcher"]),
            value_text(entry),
            _moves(entry["best_moves"]),
            {True: "yes", False: "NO", None: "-"}[entry["agrees"]],
            f"{stats['nodes']:,}",
            f"{stats['leaves']:,}",
            f"{stats['cutoffs']:,}",
            f"{stats['tt_hits']:,}",
            milliseconds(entry["median_seconds"]),
            f"{entry['nodes_per_second']:,.0f}",
            "-" if fraction is None else f"{fraction:.3f}",
        )
    print_table(out, grid)
    for kind, reference in references.items():
        which = {"expected": "expected results", "utilities": "each player's utility"}.get(
            kind, f"{kind} scoring"
        )
        if reference is None or reference.result is None:
            out.print(f"checked against ({which}): none could finish; agreement not checked")
            continue
        words = reference.result.describe(game)
        best = reference.result.best_moves
        out.print(
            f"checked against ({which}): {reference.label}, value {reference.result.value_text} "
            f"({words}), best {_moves([game.format_move(move) for move in best])}"
        )
    if args.plot:
        out.print(f"plot written to {args.plot}")
    return _status(data, args)


def _status(data: Sequence[dict[str, Any]], args: argparse.Namespace) -> int:
    """Return 1 when a row disagrees with its reference (not for ``--tricks``), else 0."""
    return (
        EXIT_DISAGREEMENT
        if not args.tricks and any(entry.get("agrees") is False for entry in data)
        else 0
    )


def value_text(entry: dict[str, Any]) -> str:
    """Return a row's value as it is shown (an estimated utility with three decimals)."""
    value = entry["value"]
    return number_text(Fraction(value)) if entry["utilities"] is not None else str(value)


def row_data(
    game: Game[Any], row: Row, reference: Row | None, base_nodes: int | None
) -> dict[str, Any]:
    """Return one row as JSON-ready data."""
    result = row.result
    if result is None:
        return {"searcher": row.label, "gave_up": True}
    data = result.as_dict(game)
    return {
        "searcher": row.label,
        "gave_up": False,
        "value": data["value"],
        "utilities": data["utilities"],
        "best_moves": data["best_moves"],
        "move": data["move"],
        "is_exact": result.is_exact,
        "agrees": agrees(row, reference),
        "reference": None if reference is None else reference.label,
        "stats": data["stats"],
        "median_seconds": row.median_seconds,
        "seconds": list(row.seconds),
        "nodes_per_second": row.nodes_per_second,
        "nodes_vs_reference": None if not base_nodes else result.stats.nodes / base_nodes,
    }


def parse_depths(text: str) -> range:
    """Return the depths of ``"3"`` or ``"1..8"``.

    :raises InvalidOptionError: for other text or depths below 1.
    """
    low, dots, high = text.partition("..")
    try:
        first, last = int(low), int(high) if dots else int(low)
    except ValueError:
        raise InvalidOptionError(f"--depths must be N or FROM..TO, e.g. 1..8: {text!r}") from None
    if first < 1 or last < first:
        raise InvalidOptionError(f"--depths must run from 1 or more upwards, e.g. 1..8: {text!r}")
    return range(first, last + 1)


def run_depths(game: Game[Any], searchers: Sequence[Searcher], args: argparse.Namespace) -> int:
    """Run each depth-capable searcher at each depth of ``--depths``; table, JSON or plot."""
    depths = parse_depths(args.depths)
    capable = [searcher for searcher in searchers if depth_option(type(searcher)) is not None]
    if not capable:
        names = ", ".join(searcher.name for searcher in searchers)
        raise InvalidOptionError(f"--depths needs a searcher with a depth option; none of: {names}")
    points: dict[str, list[dict[str, Any]]] = {}
    given_up: set[str] = set()
    with progress("depths", len(depths) * len(capable)) as advance:
        for depth in depths:
            for searcher in capable:
                option = depth_option(type(searcher)) or "depth"  # every capable one has one
                label = searcher_label(attrs.evolve(searcher, **dict[str, Any]({option: None})))
                advance(f"{label} depth {depth}")
                if label in given_up:
                    continue
                at_depth = attrs.evolve(searcher, **dict[str, Any]({option: depth}))
                row = measure(game, at_depth, args.repeat, args.max_nodes)
                if row.result is None:
                    given_up.add(label)
                    continue
                points.setdefault(label, []).append(
                    {
                        "depth": depth,
                        "value": json_value(row.result.value),
                        "move": game.format_move(row.result.move),
                        "nodes": row.result.stats.nodes,
                        "median_seconds": row.median_seconds,
                        "is_exact": row.result.is_exact,
                    }
                )
    if args.plot:
        figure = _plot.depth_figure(
            f"{game.name} {position_title(game)}",
            {
                label: [(p["depth"], p["nodes"], p["median_seconds"]) for p in series]
                for label, series in points.items()
            },
        )
        _plot.save(figure, args.plot)
    if args.json:
        print_json(
            {
                "game": game.name,
                "position": game.to_text(),
                "repeat": args.repeat,
                "max_nodes": args.max_nodes,
                "searchers": points,
                "gave_up": sorted(given_up),
            }
        )
        return 0
    out = console()
    grid = table(
        f"{game.name} {position_title(game)}: nodes and time by depth",
        ["depth", *[f"{label} nodes" for label in points], *[f"{label} ms" for label in points]],
    )
    for depth in depths:
        by_label = {
            label: next((p for p in series if p["depth"] == depth), None)
            for label, series in points.items()
        }
        nodes = ["-" if p is None else f"{p['nodes']:,}" for p in by_label.values()]
        times = ["-" if p is None else milliseconds(p["median_seconds"]) for p in by_label.values()]
        grid.add_row(str(depth), *nodes, *times)
    print_table(out, grid)
    for label in sorted(given_up):
        out.print(f"{label}: gave up past {args.max_nodes:,} nodes at the deeper depths")
    if args.plot:
        out.print(f"plot written to {args.plot}")
    return 0


def run_openings(game: Game[Any], args: argparse.Namespace) -> int:
    """The openings table: after each first move, the nodes plain minimax and textbook
    alpha-beta (natural order, one shared window, plain scores) visit to choose the reply."""
    minimax = Minimax(scoring=Scoring.PLAIN, depth=args.depth)
    alphabeta = AlphaBeta(
        scoring=Scoring.PLAIN, ordering="natural", all_best=False, depth=args.depth
    )
    openings = [None, *game.legal_moves()]
    rows = []
    with progress("openings", len(openings)) as advance:
        for opening in openings:
            if opening is not None:
                game.push(opening)
            try:
                counts = [
                    guarded_search(game, searcher, args.max_nodes)
                    for searcher in (minimax, alphabeta)
                ]
            finally:
                if opening is not None:
                    game.undo()
            full, pruned = (None if result is None else result.stats.nodes for result in counts)
            rows.append(
                {
                    "opening": None if opening is None else game.format_move(opening),
                    "minimax_nodes": full,
                    "alphabeta_nodes": pruned,
                    "ratio": full / pruned if full and pruned else None,
                }
            )
            advance("start" if opening is None else game.format_move(opening))
    searchers = {"minimax": searcher_label(minimax), "alphabeta": searcher_label(alphabeta)}
    if args.json:
        print_json(
            {"game": game.name, "position": game.to_text(), "searchers": searchers, "rows": rows}
        )
        return 0
    out = console()
    grid = table(
        f"{game.name}: nodes to choose the reply to each opening move",
        ["first move", "minimax nodes", "alpha-beta nodes", "ratio"],
    )
    for row in rows:
        grid.add_row(
            "(none: the start)" if row["opening"] is None else str(row["opening"]),
            *(
                "gave up" if row[key] is None else f"{row[key]:,}"
                for key in ("minimax_nodes", "alphabeta_nodes")
            ),
            "-" if row["ratio"] is None else f"{row['ratio']:.1f}x",
        )
    print_table(out, grid)
    out.print(f"minimax: {searchers['minimax']}; alpha-beta: {searchers['alphabeta']}")
    ratios = [row["ratio"] for row in rows[1:] if row["ratio"] is not None]
    if ratios:
        out.print(
            f"alpha-beta does {min(ratios):.1f} to {max(ratios):.1f} times less work after the "
            "opening moves"
        )
    return 0
