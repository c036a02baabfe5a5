"""A search frees what it built at once: nothing is left to Python's cyclic garbage collector.

A search core made of closures that call themselves (or each other) through their closure
cells is a reference cycle; left unbroken, every search leaves its cells, functions and
table entries for the collector, which costs time in a run of many small searches. Each
built-in searcher is taken from the registry, so a new one is covered without a change here.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from gamesearch import default_registry
from gamesearch.errors import BudgetExceededError
from gamesearch.game import Game
from gamesearch.search.base import Limit

REGISTRY = default_registry()

#: small positions of games whose rules differ: alternating turns, chance, three
#: players with utilities, a move that ends in one's own store moving again (Kalah)
SMALL_POSITIONS: tuple[tuple[str, str | None, dict[str, Any]], ...] = (
    ("tictactoe", "XOX......", {}),
    ("pig", None, {"goal": 5, "faces": 3, "horizon": 6}),
    ("mnk3", "AB./C../...", {}),
    ("kalah", None, {"pits": 2, "seeds": 2}),
)


def option_sets(name: str) -> Iterator[dict[str, Any]]:
    """Yield the searcher ``name``'s default options, then with its table switched the other
    way and with a depth, where it has those options."""
    fields = {field.name: field for field in REGISTRY.searcher_class(name).option_fields()}
    yield {}
    variants: list[dict[str, Any]] = []
    if "table" in fields:
        variants.append({"table": not fields["table"].default})
    if "depth" in fields:
        variants.append({"depth": 2})
        if "table" in fields:
            variants.append({"depth": 2, "table": not fields["table"].default})
    yield from variants


SEARCHER_OPTIONS = [
    pytest.param(name, options, id=",".join([name, *(f"{key}={value}" for key, value in options.items())]))
    for name in sorted(REGISTRY.searchers)
    for options in option_sets(name)
]


def accepted_positions(name: str, options: dict[str, Any]) -> list[Game[Any]]:
    """Return the small positions whose game the searcher accepts (at least one)."""
    searcher = REGISTRY.new_searcher(name, **options)
    games = [REGISTRY.new_game(game, position, **game_options) for game, position, game_options in SMALL_POSITIONS]
    accepted = [game for game in games if not searcher.unmet_needs(game)]
    assert accepted, f"no small position of a game that {name!r} accepts"
    return accepted


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


@pytest.mark.parametrize(("name", "options"), SEARCHER_OPTIONS)
def test_a_search_leaves_nothing_to_the_garbage_collector(name: str, options: dict[str, Any]) -> None:
    searcher = REGISTRY.new_searcher(name, **options)
    for game in accepted_positions(name, options):

        def search() -> None:
            searcher.search(game).pv  # the line too: some searchers work it out when read
            searcher.search(game, move_values=True)

        assert left_to_collector(search) == Counter(), f"{name} on {type(game).name}"


@pytest.mark.parametrize("name", sorted(REGISTRY.searchers))
def test_a_search_stopped_by_its_node_budget_leaves_nothing_to_the_garbage_collector(name: str) -> None:
    searcher = REGISTRY.new_searcher(name)
    game = accepted_positions(name, {})[0]

    def search() -> None:
        try:  # (iterative deepening and MCTS answer with what they have)
            searcher.search(game, Limit(nodes=3))
        except BudgetExceededError:
            pass

    assert left_to_collector(search) == Counter()
