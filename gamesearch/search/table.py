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

Each kind of search has its entry type, and a table says which it holds
(``TranspositionTable[BoundsEntry]``): :data:`BoundsEntry` (``alphabeta``,
``iterative``), :data:`EngineEntry` (``engine``) and :data:`ExactEntry` (``pvs``,
``mtdf``, ``solver``). A memory hands out a table by its :class:`TableKind`, which
carries the entry type: ``memory.table(BOUNDS, game, entries)`` is a table of bounds.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, Generic, overload

import attrs

from gamesearch.options import option_field

if TYPE_CHECKING:  # (a default for the entry type: a table named without one holds Any)
    from typing_extensions import TypeVar

    Entry = TypeVar("Entry", default=Any)
else:
    from typing import TypeVar

    Entry = TypeVar("Entry")

#: alpha-beta's entry: ``(depth, lower, upper)``, bounds on the first player's value of a
#: search ``depth`` plies deep; the depth is negated when the subtree met a horizon
BoundsEntry = tuple[int, int, int]
#: the engine's entry: ``(depth, lower, upper, best move)``, bounds for the side to move;
#: the depth is ``inf`` for the game's true bounds and ``-1`` for a value of one path
EngineEntry = tuple[float, int, int, Hashable]
#: the exact searchers' entry: ``(lower, upper, best move or None)`` for the side to move
ExactEntry = tuple[int, int, Hashable | None]


@attrs.define
class TranspositionTable(Generic[Entry]):
    """A bounded map from position keys to entries of one type (see the module docstring).

    When it holds ``max_entries``, the older half of its entries is dropped before the
    next store (:func:`make_room`): never wrong, because an entry only ever saves work.
    """

    max_entries: int = 1 << 22
    entries: dict[Hashable, Entry] = attrs.field(factory=dict)
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


def settle(entry: tuple[Any, ...], alpha: int, beta: int) -> tuple[int | None, int, int]:
    """Return what the bounds of a table ``entry`` (``lower`` and ``upper`` its second and
    third fields, as in every entry of bounds) tell a search of the window ``(alpha, beta)``.

    The answer is ``(value, alpha, beta)``: the value the entry settles (``None`` when it
    settles none: then the window is narrowed to the bounds). The caller has checked
    that the entry answers at the depth searched. Written for the hot loops (called on
    a usable entry only).
    """
    lower, upper = entry[1], entry[2]
    if lower >= beta or lower == upper:
        return lower, alpha, beta
    if upper <= alpha:
        return upper, alpha, beta
    return None, lower if lower > alpha else alpha, upper if upper < beta else beta


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


@attrs.frozen
class TableKind(Generic[Entry]):
    """A kind of table in a :class:`SearchMemory`: its name, and the type of its entries."""

    name: str


#: the tables of bounds of ``alphabeta`` and ``iterative``
BOUNDS: TableKind[BoundsEntry] = TableKind("bounds")
#: the tables of the exact searchers (``pvs``, ``mtdf``, ``solver``)
EXACT: TableKind[ExactEntry] = TableKind("exact")


def engine_kind(settings: str) -> TableKind[EngineEntry]:
    """Return the kind of the engine's tables for ``settings`` (its tricks: each set of
    tricks has tables of its own)."""
    return TableKind(f"engine:{settings}")


@attrs.define
class SearchMemory:
    """What lives across searches: transposition tables, one per kind of table, game and size.

    Searchers are configurations and keep nothing between calls; a caller who wants
    a table kept from one search to the next holds a memory and passes it
    (``searcher.search(game, memory=memory)``), and can look at it or :meth:`clear` it.
    Without one, every search starts from an empty memory.
    """

    tables: dict[tuple[Any, ...], TranspositionTable[Any]] = attrs.field(factory=dict)

    @overload
    def table(
        self, kind: TableKind[Entry], game: Any, max_entries: int
    ) -> TranspositionTable[Entry]: ...

    @overload
    def table(self, kind: str, game: Any, max_entries: int) -> TranspositionTable[Any]: ...

    def table(
        self, kind: TableKind[Any] | str, game: Any, max_entries: int
    ) -> TranspositionTable[Any]:
        """Return the table of ``kind`` (:data:`BOUNDS`, :data:`EXACT`, ...; or its name) for
        ``game``'s kind and size, made with ``max_entries`` when it is new."""
        name = kind if isinstance(kind, str) else kind.name
        identity = (name, *table_identity(game))
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
