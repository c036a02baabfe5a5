"""Iterative deepening: the engine with deepening and a table, and no other trick.

``iterative`` is a preset of :class:`~gamesearch.search.engine.Engine`:
``iterative:depth=6`` searches as ``engine:depth=6,iterative=true,follow=root,table=true``
does (``table=false`` leaves the table out), which is plain alpha-beta's loops
(:func:`gamesearch.search.alphabeta.search_root`) under the one deepening driver
(:mod:`gamesearch.search.deepening`).

Twin: :mod:`gamesearch.search.reference.alphabeta` at the deepest completed depth,
with the same values and best moves there. Differences: the depths one after another,
each trying the last one's best move first; under a budget the last completed depth
answers; it stops once a depth reaches the end of every line; and alpha-beta's own
differences (:mod:`gamesearch.search.alphabeta`).

Each completed depth replaces the answer, and its best move is tried first at the
next depth. When the budget (nodes or seconds) runs out mid-depth, that depth is
thrown away and the last completed one answers, so a legal move always comes back:
depth 1 is always completed, whatever the budget. Deepening stops early once a
depth reaches the end of every line (the answer is then exact).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

import attrs

from gamesearch.game import Game
from gamesearch.search.base import (
    RootAnswer,
    SearchContext,
    Searcher,
    depth_field,
    node_budget_field,
    seconds_field,
)
from gamesearch.search.engine import Engine
from gamesearch.search.table import SearchMemory, table_entries_field


@attrs.frozen(kw_only=True)
class IterativeDeepening(Searcher):
    """Iterative-deepening alpha-beta under a node or time budget; always answers (the
    engine with deepening and a table of bounds)."""

    name: ClassVar[str] = "iterative"
    answers_within_budget: ClassVar[bool] = True
    depth: int | None = depth_field("deepest iteration (default: until exact or out of budget)")
    max_nodes: int | None = node_budget_field(
        "node budget for the whole search (answers with the last completed depth)"
    )
    seconds: float | None = seconds_field(
        "time budget in seconds (answers with the last completed depth)"
    )
    table: bool = attrs.field(
        default=True, metadata={"help": "share a transposition table of bounds between iterations"}
    )
    table_entries: int = table_entries_field(1 << 20)

    @property
    def engine(self) -> Engine:
        """Return the engine this preset searches with: deepening with the last best move
        first, the table as asked, the same scoring, seed and limits, and no other trick."""
        return Engine(
            scoring=self.scoring,
            seed=self.seed,
            depth=self.depth,
            max_nodes=self.max_nodes,
            seconds=self.seconds,
            clock=self.clock,
            iterative=True,
            follow="root",
            table=self.table,
            table_entries=self.table_entries,
        )

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        return self.engine.root(game, context)

    def _follow_up(self, game: Game[Any], depth: int | None, memory: SearchMemory) -> Hashable:
        # The principal variation's follow-up searches reuse the iterations' table: the
        # last iteration stored these very positions at these depths, so they are mostly
        # table hits and the answer does not overrun a time budget.
        return self.engine._follow_up(game, depth, memory)
