"""Transposition tables: bounds on a position's value, stored with the depth searched.

An entry is ``(depth, lower, upper)``: the value of a search ``depth`` plies deep
from the position (``inf`` for a search to the end of the game) lies in
``[lower, upper]``. A probe answers only for the same depth, so a table kept across
searches never changes a result: it only saves work (a depth-5 bound is never
passed off as a depth-3 value, the mistake that makes easyAI's shared table change
depth-limited answers).

The exact searchers (:mod:`gamesearch.search.negamax`) search only to the end of
the game, so their entries need no depth: ``(lower, upper, best_move)`` with
``lower``/``upper`` from the side to move's point of view and the move that last
proved a lower bound (``None`` if none did), tried first when the position comes back.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from typing import Any

import attrs

from gamesearch.options import option_field


@attrs.define
class TranspositionTable:
    """A bounded map from position keys to bounds (see the module docstring for the layouts).

    When it holds ``max_entries``, the older half of its entries is dropped before the
    next store (:func:`make_room`): never wrong, because an entry only ever saves work.
    """

    max_entries: int = 1 << 22
    entries: dict[Hashable, tuple[float, int, int]] = attrs.field(factory=dict)
    stores: int = 0

    def __len__(self) -> int:
        return len(self.entries)

    def clear(self) -> None:
        """Forget every entry."""
        self.entries.clear()


def make_room(entries: dict[Hashable, Any]) -> None:
    """Make room in a full table: forget the older half of its entries, keep the newer.

    Entries are kept in the order they were first stored, and the newer ones are those
    of the positions being searched now: they are the ones worth keeping.
    """
    for position in list(itertools.islice(entries, len(entries) // 2 + 1)):
        del entries[position]


def table_entries_field(default: int) -> Any:
    """Return the attrs field of a searcher's table size (whole number >= 1)."""

    return option_field(
        default,
        "largest number of table entries; when full, the older half is dropped",
        minimum=1,
    )


def table_identity(game: Any) -> tuple[Any, ...]:
    """Return what separates the key spaces of different games and board sizes."""
    return (type(game), tuple(sorted(game.settings.items())))


@attrs.define
class SearchMemory:
    """What lives across searches: transposition tables, one per kind of table, game and size.

    Searchers are configurations and keep nothing between calls; a caller who wants
    a table kept from one search to the next holds a memory and passes it
    (``searcher.search(game, memory=memory)``), and can look at it or :meth:`clear` it.
    Without one, every search starts from an empty memory.
    """

    tables: dict[tuple[Any, ...], TranspositionTable] = attrs.field(factory=dict)

    def table(self, kind: str, game: Any, max_entries: int) -> TranspositionTable:
        """Return the table of ``kind`` (``"bounds"``, ``"exact"``, ...) for ``game``'s kind
        and size, made with ``max_entries`` when it is new."""
        identity = (kind, *table_identity(game))
        table = self.tables.get(identity)
        if table is None:
            table = self.tables[identity] = TranspositionTable(max_entries=max_entries)
        return table

    def entries(self) -> int:
        """Return how many entries all the tables hold."""
        return sum(len(table) for table in self.tables.values())

    def clear(self) -> None:
        """Forget every table."""
        self.tables.clear()
