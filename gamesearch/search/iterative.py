"""Iterative deepening: alpha-beta at depth 1, 2, 3, ... until a budget runs out.

Twin: :mod:`gamesearch.search.reference.alphabeta` at the deepest completed depth,
with the same values and best moves there. Differences: the depths one after another,
each trying the last one's best move first; under a budget the last completed depth
answers; it stops once a depth reaches the end of every line.

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
from gamesearch.search.alphabeta import search_root
from gamesearch.search.base import (
    Budget,
    Counters,
    RootAnswer,
    SearchContext,
    Searcher,
    depth_field,
    node_budget_field,
    seconds_field,
)
from gamesearch.search.deepening import deepen
from gamesearch.search.table import SearchMemory, table_entries_field


@attrs.frozen(kw_only=True)
class IterativeDeepening(Searcher):
    """Iterative-deepening alpha-beta under a node or time budget; always answers."""

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

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        counters = context.counters
        table = context.memory.table("bounds", game, self.table_entries) if self.table else None

        def search_depth(depth: int, rest: Budget | None, last: RootAnswer | None) -> RootAnswer:
            return search_root(
                game,
                depth=depth,
                scoring=self.scoring,
                ordering="game",
                fresh_window=context.move_values,
                all_best=True,
                table=table,
                counters=counters,
                tracer=context.tracer,
                move_values=context.move_values,
                budget=rest,
                first_moves=last.best_moves[:1] if last is not None else (),
            )

        def completed(depth: int, answer: RootAnswer) -> None:
            context.completed_depth(
                depth,
                answer.value,
                answer.best_moves,
                nodes=counters.nodes,
                is_exact=answer.is_exact,
            )

        answer, _ = deepen(
            search_depth, context.budget, lambda: counters.nodes, self.depth, completed
        )
        return answer

    def _follow_up(self, game: Game[Any], depth: int | None, memory: SearchMemory) -> Hashable:
        # The principal variation's follow-up searches reuse the iterations' table: the
        # last iteration stored these very positions at these depths, so they are mostly
        # table hits and the answer does not overrun a time budget.
        table = memory.table("bounds", game, self.table_entries) if self.table else None
        return search_root(
            game,
            depth=depth,
            scoring=self.scoring,
            ordering="game",
            fresh_window=False,
            all_best=False,
            table=table,
            counters=Counters(),
        ).best_moves[0]
