"""Iterative deepening: alpha-beta at depth 1, 2, 3, ... until a budget runs out.

Each completed depth replaces the answer, and its best move is tried first at the
next depth. When the budget (nodes or seconds) runs out mid-depth, that depth is
thrown away and the last completed one answers, so a legal move always comes back:
depth 1 is always completed, whatever the budget. Deepening stops early once a
depth reaches the end of every line (the answer is then exact).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from typing import Any, ClassVar

import attrs

from gamesearch.errors import BudgetExceededError
from gamesearch.game import Game
from gamesearch.search.alphabeta import search_root
from gamesearch.search.base import (
    Counters,
    RootAnswer,
    SearchContext,
    Searcher,
    depth_field,
    node_budget_field,
    seconds_field,
)
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
        counters, move_values, tracer = context.counters, context.move_values, context.tracer
        limited = context.budget.is_limited
        table = context.memory.table("bounds", game, self.table_entries) if self.table else None
        answer: RootAnswer | None = None
        depths = range(1, self.depth + 1) if self.depth is not None else itertools.count(1)
        for depth in depths:
            # the first depth always completes; each next one gets what is left
            budget = context.budget.after(counters.nodes) if limited and answer else None
            if budget is not None and budget.nodes_left < 2:
                break  # not even the root and one child fit: a new depth could only overrun
            try:
                answer = search_root(
                    game,
                    depth=depth,
                    scoring=self.scoring,
                    ordering="game",
                    fresh_window=move_values,
                    all_best=True,
                    table=table,
                    counters=counters,
                    tracer=tracer,
                    move_values=move_values,
                    budget=budget,
                    first_moves=answer.best_moves[:1] if answer is not None else (),
                )
            except BudgetExceededError:  # (the search has taken its moves back)
                break
            context.completed_depth(
                depth,
                answer.value,
                answer.best_moves,
                nodes=counters.nodes,
                is_exact=answer.is_exact,
            )
            if answer.is_exact:
                break
        assert answer is not None  # depth 1 runs without a budget
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
