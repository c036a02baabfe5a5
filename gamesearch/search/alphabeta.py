"""Alpha-beta: minimax's values with fewer nodes.

Twin: :mod:`gamesearch.search.reference.alphabeta`, with the same values and the same
best-move set (with ``all_best=False`` the first best move only, and the result says
its set is not complete). Differences: two loops, one per side (a third, for both
sides, when the game answers ``move_results()``); finished children scored in the
parent's loop, unplayed with ``move_results()``; the game's move order; a root window
shared by the root moves, one point wider than the best so that ties keep exact
values (the other moves get bounds: ``move_values_exact`` false); a table of bounds
that stores ``±depth`` (negative: the entry rests on a horizon); a budget that wraps
the move call. With ``ordering=natural``, ``root_window=fresh`` and no table it
enters the twin's very positions (the same node count).

``alpha`` is what the maximiser is already sure of, ``beta`` what the minimiser is
already sure of; once they cross, the remaining moves of a position cannot change
the decision and are skipped (Knuth & Moore, 1975; *AIMA* section 5.3). Switches:

- ``ordering``: ``game`` (the game's ``ordered_moves()``, best first) or ``natural``;
- ``root_window``: ``shared`` (each root move narrows the window for the next) or
  ``fresh`` (each root move gets a full window, as seed 000's engine does);
- ``all_best``: keep the exact set of best root moves (a shared window that is one
  point wider); off reproduces the textbook node counts but knows only one best move;
- ``table``: a transposition table of bounds kept across searches of this searcher;
- ``depth``: a horizon where ``evaluate()`` stands in for the rest of the game.

In a game with repetition draws a position repeated on the line is a draw, and the
table stores no value that rests on one (:mod:`gamesearch.search.repetition`). The
loop itself is :func:`gamesearch.search.alphabeta_core.search_root`.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar, Literal

import attrs

from gamesearch.game import Game
from gamesearch.options import option_field

# The loop has a module of its own; its names stay importable from here.
from gamesearch.search.alphabeta_core import _loops as _loops
from gamesearch.search.alphabeta_core import search_root as search_root
from gamesearch.search.base import Counters, RootAnswer, SearchContext, Searcher
from gamesearch.search.table import BOUNDS, SearchMemory, table_entries_field

Ordering = Literal["game", "natural"]
RootWindow = Literal["shared", "fresh"]


@attrs.frozen(kw_only=True)
class AlphaBeta(Searcher):
    """Alpha-beta pruning with move ordering, optional depth limit and table."""

    name: ClassVar[str] = "alphabeta"
    ordering: str = option_field(
        "game",
        "game: the game's move order, best first; natural: legal-move order",
        choices=("game", "natural"),
    )
    root_window: str = option_field(
        "shared",
        "shared: root moves narrow one window; fresh: full window per root move",
        choices=("shared", "fresh"),
    )
    all_best: bool = attrs.field(
        default=True, metadata={"help": "find every best root move (off: textbook node counts)"}
    )
    table: bool = attrs.field(
        default=False,
        metadata={
            "help": "use a transposition table of bounds (kept across searches given a memory)"
        },
    )
    table_entries: int = table_entries_field(1 << 22)

    def _principal_variation(
        self, game: Game[Any], move: Hashable, answer: RootAnswer, memory: SearchMemory
    ) -> tuple[Hashable, ...]:
        # The follow-up searches share a scratch table (see _follow_up), dropped after.
        scratch = SearchMemory()
        return super()._principal_variation(game, move, answer, scratch)

    def _follow_up(self, game: Game[Any], depth: int | None, memory: SearchMemory) -> Hashable:
        """Return the first best move of ``game`` searched ``depth`` plies deep (for the PV).

        Each follow-up searches a subtree of the one before it, so they share one
        scratch table: after the first, they are mostly table hits. A table only ever
        saves work (see :mod:`gamesearch.search.table`), so the line is the same.
        """
        answer = search_root(
            game,
            depth=depth,
            scoring=self.scoring,
            ordering=self.ordering,
            fresh_window=self.root_window == "fresh",
            all_best=self.all_best,
            table=memory.table(BOUNDS, game, self.table_entries),
            counters=Counters(),
        )
        return answer.best_moves[0]

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        tracer = context.tracer
        # (search_root's compiled kind for this search, called without search_root's call)
        kind = _loops(
            self.table, tracer is not None, self.depth is not None, game.rules.alternating
        )
        return kind(
            game,
            depth=self.depth,
            scoring=self.scoring,
            ordering=self.ordering,
            fresh_window=self.root_window == "fresh" or context.move_values,
            all_best=self.all_best,
            table=context.memory.table(BOUNDS, game, self.table_entries) if self.table else None,
            counters=context.counters,
            tracer=tracer,
            move_values=context.move_values,
            budget=context.budget if context.budget.is_limited else None,
        )
