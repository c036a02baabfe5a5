"""``python -m benchmarks.garbage``: does a search free what it built at once?

A search core made of closures that call themselves (or each other) through their closure
cells is a reference cycle; left unbroken, every search leaves its cells, functions and
table entries to Python's cyclic garbage collector, which costs time in a run of many
small searches (the 5,478-position row of ``python -m benchmarks``). This command runs
every registered searcher, with its table and depth switched where it has them, on small
positions of games whose rules differ, once to the end and once stopped by a node budget,
and prints what each search left to the collector. It exits with status 1 when any
search left something.

    python -m benchmarks.garbage              # every searcher
    python -m benchmarks.garbage --only mcts  # the searchers whose name contains "mcts"

``tests/test_search_garbage.py`` keeps one cheap guard on alpha-beta; this is the sweep.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from gamesearch import default_registry
from gamesearch.errors import BudgetExceededError
from gamesearch.game import Game
from gamesearch.search.base import Limit, Searcher

#: small positions of games whose rules differ: alternating turns, chance, three
#: players with utilities, a move that ends in one's own store moving again (Kalah)
SMALL_POSITIONS: tuple[tuple[str, str | None, dict[str, Any]], ...] = (
    ("tictactoe", "XOX......", {}),
    ("pig", None, {"goal": 5, "faces": 3, "horizon": 6}),
    ("mnk3", "AB./C../...", {}),
    ("kalah", None, {"pits": 2, "seeds": 2}),
)


def left_to_collector(search: Callable[[], object]) -> Counter[str]:
    """Return the kinds (type names) of the objects one call of ``search`` leaves to the
    cyclic garbage collector, and how many of each (empty: everything was freed at once).

    ``search`` is called once before, so that what lives on by design (caches, lazily
    built tables) is in place; the collector's state is restored afterwards.
    """
    search()
    was_enabled, debug_flags = gc.isenabled(), gc.get_debug()
    gc.collect()
    gc.disable()
    try:
        search()
        gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector finds is kept in gc.garbage
        gc.collect()
        return Counter(type(found).__name__ for found in gc.garbage)
    finally:
        gc.set_debug(debug_flags)
        gc.garbage.clear()
        if was_enabled:
            gc.enable()


def option_sets(searcher_class: type[Searcher]) -> Iterator[dict[str, Any]]:
    """Yield a searcher's default options, then with its table switched the other way and
    with a depth, where it has those options."""
    fields = {field.name: field for field in searcher_class.option_fields()}
    yield {}
    if "table" in fields:
        yield {"table": not fields["table"].default}
    if "depth" in fields:
        yield {"depth": 2}
        if "table" in fields:
            yield {"depth": 2, "table": not fields["table"].default}


def accepted_positions(searcher: Searcher) -> list[Game[Any]]:
    """Return the small positions whose game ``searcher`` accepts."""
    registry = default_registry()
    games = [
        registry.new_game(game, position, **options) for game, position, options in SMALL_POSITIONS
    ]
    return [game for game in games if not searcher.unmet_needs(game)]


def full_searches(searcher: Searcher, game: Game[Any]) -> Callable[[], None]:
    """Return a call that searches ``game`` to the end, its line and every move's value too."""

    def search() -> None:
        searcher.search(game).pv  # noqa: B018 (some searchers work the line out when read)
        searcher.search(game, move_values=True)

    return search


def stopped_search(searcher: Searcher, game: Game[Any]) -> Callable[[], None]:
    """Return a call that searches ``game`` until a budget of three nodes runs out."""

    def search() -> None:
        try:  # (iterative deepening and MCTS answer with what they have)
            searcher.search(game, Limit(max_nodes=3))
        except BudgetExceededError:
            pass

    return search


def sweep(only: str | None = None) -> list[tuple[str, str, str, Counter[str]]]:
    """Return ``(searcher spec, game, kind of search, what was left)`` for every search."""
    registry = default_registry()
    found = []
    for name, searcher_class in registry.searchers.items():
        if only is not None and only not in name:
            continue
        for options in option_sets(searcher_class):
            spec = ",".join(f"{key}={value}" for key, value in options.items())
            spec = f"{name}:{spec}" if spec else name
            searcher = registry.new_searcher(name, **options)
            for game in accepted_positions(searcher):
                found.append(
                    (spec, game.name, "full", left_to_collector(full_searches(searcher, game)))
                )
                if not options:
                    left = left_to_collector(stopped_search(searcher, game))
                    found.append((spec, game.name, "stopped", left))
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Run the sweep, print one row per searcher and return 0, or 1 when a search left garbage."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.garbage",
        description="Check that every search frees what it built at once, leaving nothing "
        "to Python's cyclic garbage collector (a cost in runs of many small searches).",
    )
    parser.add_argument(
        "--only", metavar="TEXT", help="only the searchers whose name contains TEXT"
    )
    args = parser.parse_args(argv)
    results = sweep(args.only)
    if not results:
        print(f"no searcher matches --only {args.only!r}", file=sys.stderr)
        return 2
    table = Table(title="what each search left to the garbage collector")
    for column in ("searcher", "game", "search", "left"):
        table.add_column(column)
    for spec, game, kind, left in results:
        words = ", ".join(f"{count} {kind}" for kind, count in sorted(left.items())) or "nothing"
        table.add_row(spec, game, kind, words if not left else f"[red]{words}[/red]")
    Console().print(table)
    failed = sum(1 for *_, left in results if left)
    print(f"{len(results)} searches, {failed} left something to the collector")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
