"""Minimax, read as the definition: every line to the end, or to the horizon.

The first player maximises the value, the second minimises it (von Neumann, 1928;
Russell & Norvig, *Artificial Intelligence: A Modern Approach*, 4th ed., section 5.2).
A finished game is worth its proven value, a position at the horizon its heuristic.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from gamesearch.game import Game
from gamesearch.search.base import RootAnswer, SearchContext, Searcher
from gamesearch.search.reference.root import search_root


def minimax(game: Game[Any], depth: float, context: SearchContext) -> int:
    """Return the minimax value of ``game`` searched ``depth`` plies deep (first player's
    view)."""
    context.count_node(game)
    if game.result() is not None:
        return context.finished_value(game)
    if depth == 0:
        return context.horizon_value(game)
    values = []
    for move in game.legal_moves():
        game.push(move)
        values.append(minimax(game, depth - 1, context))
        game.undo()
    return max(values) if game.to_move() == 0 else min(values)


@attrs.frozen(kw_only=True)
class ReferenceMinimax(Searcher):
    """Minimax as the definition reads (the reference twin of ``minimax``)."""

    name: ClassVar[str] = "reference-minimax"

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        """Return every root move's minimax value and the best of them."""
        return search_root(game, context, minimax)


REFERENCE = ReferenceMinimax
