"""Alpha-beta: minimax's value, skipping the moves that cannot change it.

``alpha`` is what the maximiser is sure of elsewhere, ``beta`` what the minimiser is
sure of; once ``alpha >= beta`` the remaining moves of a position are skipped (Knuth &
Moore, "An analysis of alpha-beta pruning", *Artificial Intelligence* 6, 1975).
Fail-soft: a value inside ``(alpha, beta)`` is exact, one at or below ``alpha`` an
upper bound, one at or above ``beta`` a lower bound.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from gamesearch.game import Game
from gamesearch.search.base import INFINITY, RootAnswer, SearchContext, Searcher
from gamesearch.search.reference.repetition import repeated_on_line
from gamesearch.search.reference.root import search_root


def alphabeta(game: Game[Any], depth: float, alpha: int, beta: int, context: SearchContext) -> int:
    """Return the value of ``game`` searched ``depth`` plies deep with the window
    ``(alpha, beta)`` (first player's view; fail-soft, see the module); a position seen
    before on the line from the root is a draw in a game that declares repetition."""
    context.count_node(game)
    if game.result() is not None:
        return context.finished_value(game)
    if repeated_on_line(game, context.root_ply):
        context.counters.leaves += 1
        return 0
    if depth == 0:
        return context.horizon_value(game)
    maximizing = game.to_move() == 0
    best = -INFINITY if maximizing else INFINITY
    for move in game.legal_moves():
        game.push(move)
        value = alphabeta(game, depth - 1, alpha, beta, context)
        game.undo()
        if maximizing:
            best, alpha = max(best, value), max(alpha, value)
        else:
            best, beta = min(best, value), min(beta, value)
        if alpha >= beta:
            context.count_cutoff()
            break
    return best


def full_window(game: Game[Any], depth: float, context: SearchContext) -> int:
    """Return the exact value of ``game`` (alpha-beta with the window fully open)."""
    return alphabeta(game, depth, -INFINITY, INFINITY, context)


@attrs.frozen(kw_only=True)
class ReferenceAlphaBeta(Searcher):
    """Alpha-beta as Knuth and Moore wrote it (the reference twin of ``alphabeta``)."""

    name: ClassVar[str] = "reference-alphabeta"

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        """Return every root move's exact value (a full window each) and the best."""
        return search_root(game, context, full_window)


REFERENCE = ReferenceAlphaBeta
