"""``gamesearch analyze``: value, best moves and every move's value in one position."""

from __future__ import annotations

import argparse
import contextlib
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import attrs

from gamesearch.cli._common import (
    add_clock_argument,
    add_game_arguments,
    default_searcher_spec,
    depth_option,
    game_default_searcher,
    integer,
    load_game,
    load_searcher,
    print_json,
    registry,
)
from gamesearch.cli._progress import progress
from gamesearch.errors import BudgetExceededError, InvalidOptionError

if TYPE_CHECKING:  # (the search machinery is imported when the command runs, not to parse it)
    from gamesearch.game import Game
    from gamesearch.search.base import Iteration, IterationListener, Searcher, SearchResult

#: analyze's node budget for a searcher named with --searcher (alpha-beta: about 5-30 s)
DEFAULT_MAX_NODES = 5_000_000
#: the searcher analyze uses when neither the command line nor the game names one
DEFAULT_SEARCHER = "alphabeta"
#: node budget of the default searcher before analyze falls back (the solver: about 2 s)
DEFAULT_EXACT_NODES = 500_000
#: search time the default searcher gets to finish before analyze falls back
EXACT_SECONDS = 1.0
#: the fallback: iterative deepening (or MCTS) under this time budget, in seconds
FALLBACK_SECONDS = 1.0
#: seconds between two updates of the progress bar
TICK_SECONDS = 0.1


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="analyse a position: value, best moves, each move's value, statistics",
        description="Search one position and report its value, best moves, every legal "
        "move's value, the principal variation and the search statistics.",
        epilog="examples:\n  gamesearch analyze tictactoe\n"
        "  gamesearch analyze tictactoe --position X.O/.X./... --json\n"
        "  gamesearch analyze tictactoe -o rows=4 -o cols=4 --searcher alphabeta --depth 4\n"
        "  gamesearch analyze connect4 --position 4453\n"
        "  gamesearch analyze tictactoe --table tictactoe.sqlite",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(parser)
    parser.add_argument(
        "-s",
        "--searcher",
        metavar="NAME[:KEY=VALUE,...]",
        help="searcher and its options, e.g. alphabeta:table=on (default: the game's own "
        f"searcher (for the time it names, if it names one), else {DEFAULT_SEARCHER}, for up "
        f"to {EXACT_SECONDS:g} s and "
        f"{DEFAULT_EXACT_NODES:,} nodes; when it cannot finish in that, iterative deepening "
        f"answers in {FALLBACK_SECONDS:g} s more, not exactly; to search deeper, name one, "
        "e.g. iterative:seconds=10)",
    )
    parser.add_argument(
        "-d", "--depth", type=integer, help="search depth in plies (searchers that take one)"
    )
    parser.add_argument(
        "--seed", type=integer, help="break ties among best moves at random from this seed"
    )
    parser.add_argument(
        "--max-nodes",
        type=integer,
        metavar="N",
        help=f"give up after about N nodes (default: {DEFAULT_MAX_NODES:,} for a searcher named "
        f"with --searcher, which then says the game is too big; {DEFAULT_EXACT_NODES:,} for the "
        f"default searcher, which then hands over to iterative deepening, as it does after "
        f"{EXACT_SECONDS:g} s)",
    )
    parser.add_argument(
        "--table",
        metavar="FILE",
        help="answer from a solution store made by 'gamesearch solve': every move's exact "
        "value at once, no search",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also name the searcher that answered by its spec (NAME:KEY=VALUE,...)",
    )
    add_clock_argument(parser)
    parser.set_defaults(handler=run)


def searcher_words(searcher: Searcher, *, verbose: bool = False) -> str:
    """Return the searcher in words, with its limits: ``"iterative-deepening alpha-beta
    (within 3 s)"``; ``verbose`` adds its spec in brackets."""
    from gamesearch.arena import searcher_label

    summary = (type(searcher).__doc__ or searcher.name).strip().splitlines()[0]
    for stop in (";", ":", " (", "."):
        summary = summary.partition(stop)[0]
    summary = summary[:1].lower() + summary[1:] if not summary[1:2].isupper() else summary
    limits = []
    if searcher.depth is not None:
        limits.append(f"to depth {searcher.depth}")
    if searcher.seconds is not None:
        clock = " of processor time" if searcher.clock == "cpu" else ""
        limits.append(f"within {searcher.seconds:g} s{clock}")
    if searcher.max_nodes is not None:
        limits.append(f"up to {searcher.max_nodes:,} nodes")
    words = summary + (f" ({', '.join(limits)})" if limits else "")
    return f"{words} [{searcher_label(searcher)}]" if verbose else words


def budgeted_search(
    game: Game[Any],
    searcher: Searcher,
    max_nodes: int,
    seconds: float | None = None,
    on_iteration: IterationListener | None = None,
) -> SearchResult:
    """Return ``searcher``'s result on ``game`` with every move's value, within ``max_nodes``
    and ``seconds`` (each unless the searcher has a budget of its own of that kind: a game
    whose searcher names its time, as chess's does, keeps it); a deepening searcher tells
    ``on_iteration`` of each depth it completes.

    :raises BudgetExceededError: when the search gives up.
    """
    from gamesearch.search.base import Limit

    limit = Limit(
        max_nodes=max_nodes if searcher.max_nodes is None else None,
        seconds=seconds if searcher.seconds is None else None,
    )
    return searcher.search(game, limit, move_values=True, on_iteration=on_iteration)


def depth_status(game: Game[Any], iteration: Iteration) -> str:
    """Return what the progress line says of a completed depth: the depth, the best move so
    far (and how many others are as good), its value and the nodes per second so far,
    e.g. ``"depth 6, best 4, value 0, 7,185 nodes/s"``."""
    from gamesearch.words import number_text

    first, *others = iteration.best_moves or (None,)
    best = "no move" if first is None else f"best {game.format_move(first)}"
    if others:
        best += f" (or {len(others)} other{'s' if len(others) > 1 else ''})"
    rate = iteration.nodes / iteration.seconds if iteration.seconds > 0 else 0.0
    return (
        f"depth {iteration.depth}{' (exact)' if iteration.is_exact else ''}, {best}, "
        f"value {number_text(iteration.value)}, {rate:,.0f} nodes/s"
    )


@contextlib.contextmanager
def _searching(game: Game[Any], what: str, seconds: float) -> Iterator[IterationListener]:
    """Show the progress of a search of about ``seconds`` in the block, naming ``what``
    searches: a bar on a terminal's standard error that fills as the
    time passes, and lines elsewhere (see :mod:`gamesearch.cli._progress`); yield the
    listener that puts each completed depth (:func:`depth_status`) beside it."""
    display = progress(f"searching with {what} (up to {seconds:g} s)", seconds, unit="s")
    with display, _clock(display):
        yield lambda iteration: display.set_status(depth_status(game, iteration))


@contextlib.contextmanager
def _clock(display: Any) -> Iterator[None]:
    """Advance ``display`` with the time spent in the block (a thread ticks it)."""
    started = time.monotonic()
    stop = threading.Event()

    def tick() -> None:
        while not stop.wait(TICK_SECONDS):
            display.set_completed(min(display.total, time.monotonic() - started))

    ticker = threading.Thread(target=tick, name="analyze clock", daemon=True)
    ticker.start()
    try:
        yield
    finally:
        stop.set()
        ticker.join()


@attrs.frozen
class Answer:
    """What analyze searched with: the result, the searcher that gave it, whether the game
    named that searcher and, when the default searcher gave up, that searcher and its budget."""

    result: SearchResult
    searcher: Searcher
    is_game_default: bool = False
    gave_up: Searcher | None = None
    gave_up_after: int | None = None
    ran_out: str = ""  #: the budget the searcher that gave up spent: "500,000 nodes", "1 s"


def search_position(game: Game[Any], args: argparse.Namespace) -> Answer:
    """Return the answer for ``game``: ``--searcher`` under its node budget, or the default
    searcher under :data:`DEFAULT_EXACT_NODES`, then iterative deepening under
    :data:`FALLBACK_SECONDS` when it gives up.

    :raises BudgetExceededError: when a searcher named with ``--searcher`` gives up.
    :raises GameSearchError: for a bad searcher or option.
    """
    if args.table is not None:
        if args.searcher is not None:
            raise InvalidOptionError("give --table or --searcher, not both")
        from gamesearch.solutions import TableLookup

        table = TableLookup(store=args.table)
        return Answer(table.search(game, move_values=True), table)
    if args.searcher is not None:
        searcher = load_searcher(args.searcher, seed=args.seed, depth=args.depth, clock=args.clock)
        budget = args.max_nodes or DEFAULT_MAX_NODES
        try:
            if searcher.seconds is None:  # (no time to show a bar against)
                return Answer(budgeted_search(game, searcher, budget), searcher)
            with _searching(game, searcher.name, searcher.seconds) as listener:
                return Answer(budgeted_search(game, searcher, budget, None, listener), searcher)
        except BudgetExceededError:
            where = repr(game.to_text()) if game.to_text() else "the starting position"
            raise BudgetExceededError(
                f"{searcher.name} gave up after {budget:,} nodes on {where}: too big "
                "to search to the end; give --depth N, or --searcher "
                f"{'mcts' if game.rules.utilities else 'iterative'}:seconds=5, "
                "or a larger --max-nodes"
            ) from None
    spec, depth_options = default_searcher_spec(game, DEFAULT_SEARCHER, args.depth)
    searcher = load_searcher(spec, seed=args.seed, clock=args.clock, **depth_options)
    is_game_default = spec == game_default_searcher(game)
    budget = args.max_nodes or DEFAULT_EXACT_NODES
    # a depth the user asks for is searched to the end; otherwise the time is capped too
    seconds = None if args.depth is not None else EXACT_SECONDS
    if searcher.answers_within_budget and seconds is not None:
        seconds += FALLBACK_SECONDS  # it answers in time itself: no fallback to wait for
    try:
        shown = searcher.seconds if searcher.seconds is not None else seconds or EXACT_SECONDS
        with _searching(game, searcher.name, shown) as listener:
            result = budgeted_search(game, searcher, budget, seconds, listener)
        return Answer(result, searcher, is_game_default=is_game_default)
    except BudgetExceededError as error:
        # (iterative refuses chance and several players: MCTS answers in time for those)
        name = (
            "mcts"
            if game.rules.utilities
            else "chance-iterative"
            if game.rules.chance
            else "iterative"
        )
        depth = args.depth if depth_option(registry().searcher_class(name)) else None
        fallback = load_searcher(
            name, seconds=FALLBACK_SECONDS, seed=args.seed, depth=depth, clock=args.clock
        )
        with _searching(game, name, FALLBACK_SECONDS) as listener:
            result = fallback.search(game, move_values=True, on_iteration=listener)
        ran_out = (
            f"{budget:,} nodes"
            if str(error).startswith("node budget") or seconds is None
            else f"{seconds:g} s"
        )
        return Answer(result, fallback, gave_up=searcher, gave_up_after=budget, ran_out=ran_out)


def how_searched(answer: Answer, *, verbose: bool = False) -> str | None:
    """Return one sentence naming the searcher that answered and whether the answer is exact,
    or ``None`` when the user chose the searcher (or the plain default answered)."""
    result = answer.result
    exact = (
        "exact"
        if result.is_exact
        else "proven (a forced end found within the depth limit)"
        if result.score.kind == "proven"
        else f"not exact (a heuristic estimate at depth {result.stats.depth})"
    )
    label = searcher_words(answer.searcher, verbose=verbose)
    if answer.gave_up is None:
        return (
            f"Answered by {label}, the game's default searcher: {exact}."
            if answer.is_game_default
            else None
        )
    instead = "Monte Carlo tree search" if answer.searcher.name == "mcts" else "iterative deepening"
    return (
        f"{searcher_words(answer.gave_up, verbose=verbose)} gave up after {answer.ran_out}, "
        f"so {instead} "
        f"answered within {FALLBACK_SECONDS:g} s: {exact}."
    )


def analysis(game: Game[Any], result: SearchResult, answer: Answer | None = None) -> dict[str, Any]:
    """Return the ``analyze --json`` object for ``result`` of a search of ``game``.

    When analyze chose the searcher itself (the game's default searcher, or iterative
    deepening after the default gave up), ``answer`` adds ``searcher`` (its spec) and
    ``gave_up`` (``null``, or the searcher that gave up and its node budget); with ``--clock
    cpu``, ``clock`` and ``cpu_seconds`` (the processor time of the search).
    """
    from gamesearch import views
    from gamesearch.arena import searcher_label

    searched: dict[str, Any] = {}
    if answer is not None and (answer.is_game_default or answer.gave_up is not None):
        searched = {
            "searcher": searcher_label(answer.searcher),
            "gave_up": None
            if answer.gave_up is None
            else {
                "searcher": searcher_label(answer.gave_up),
                "max_nodes": answer.gave_up_after,
            },
        }
    if answer is not None and answer.searcher.clock == "cpu":  # (--clock cpu)
        searched["clock"] = "cpu"
        searched["cpu_seconds"] = result.stats.cpu_seconds
    return {**searched, **views.analysis(game, result)}


def run(args: argparse.Namespace) -> int:
    from rich.text import Text

    from gamesearch import capabilities
    from gamesearch.cli._output import check_at_least, console, print_table, table
    from gamesearch.words import describe_value, number_text

    check_at_least("--max-nodes", args.max_nodes)
    game = load_game(args)
    answer = search_position(game, args)
    result, searcher = answer.result, answer.searcher
    data = analysis(game, result, answer)
    if args.json:
        print_json(data)
        return 0
    out = console()
    out.print(capabilities.render(game))
    out.print()
    if result.is_game_over:
        out.print(f"The game is over: {data['description']} (value {result.value_text}).")
        return 0
    mover = "Chance decides" if data["to_move"] == "chance" else f"{data['to_move']} to move"
    out.print(f"{mover}. Value {result.value_text}: {data['description']}.")
    out.print(
        f"Best move{'s' if len(data['best_moves']) > 1 else ''}: {', '.join(data['best_moves'])}"
    )
    out.print(f"Chosen: {data['move']}   line: {' '.join(data['pv'])}")
    sentence = how_searched(answer, verbose=args.verbose)
    if sentence is not None:
        out.print(sentence)
    grid = table(None, ["move", "value", "meaning"], numeric_from=1)
    for entry, (_, value) in zip(data["moves"], result.move_values or (), strict=False):
        if result.utilities is None:
            words, shown = describe_value(game, value, is_exact=result.is_exact), str(value)
        else:  # the mover's own utility after the move
            shown = number_text(value)
            words = f"{data['to_move']} gets {shown}" + ("" if result.is_exact else " (estimate)")
        best = entry["move"] in data["best_moves"]
        grid.add_row(Text(entry["move"], style="bold" if best else ""), shown, Text(words))
    grid.columns[2].justify = "left"
    print_table(out, grid)
    stats = result.stats
    out.print(
        f"Searcher {searcher.name}: {stats.nodes:,} nodes, {stats.leaves:,} leaves, "
        f"{stats.cutoffs:,} cut-offs, {stats.tt_hits:,} table hits, depth {stats.depth}, "
        f"{stats.seconds:.3f} s ({stats.nodes_per_second:,.0f} nodes/s)"
        + (f", {stats.cpu_seconds:.3f} s of processor time" if searcher.clock == "cpu" else "")
    )
    return 0
