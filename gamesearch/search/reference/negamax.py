"""Principal variation search in negamax form.

Negamax scores a position from the side to move's point of view, so one function
serves both players: a position is worth the most of its children's values, negated
where the other player moves next (Knuth & Moore, 1975). Principal variation search
gives the first move the full window and every other move a null window ``(alpha,
alpha + 1)``, which only asks "is it better?"; a move that answers yes is searched
again in full (Marsland, "A review of game-tree pruning", *ICCA Journal* 9, 1986).
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from gamesearch.game import Game
from gamesearch.search.base import INFINITY, RootAnswer, SearchContext, Searcher
from gamesearch.search.reference.repetition import repeated_on_line
from gamesearch.search.reference.root import search_root


def pvs(game: Game[Any], depth: float, alpha: int, beta: int, context: SearchContext) -> int:
    """Return the value of ``game`` for the side to move, ``depth`` plies deep, with the
    window ``(alpha, beta)`` (fail-soft: exact inside it, a bound outside)."""
    context.count_node(game)
    mover = game.to_move()
    sign = 1 if mover == 0 else -1
    if game.result() is not None:
        return sign * context.finished_value(game)
    if repeated_on_line(game, context.root_ply):  # a draw (reference.repetition)
        context.counters.leaves += 1
        return 0
    if depth == 0:
        return sign * context.horizon_value(game)
    best = -INFINITY
    for index, move in enumerate(game.legal_moves()):
        game.push(move)
        if index == 0:
            value = value_for(mover, game, depth - 1, alpha, beta, context)
        else:
            value = value_for(mover, game, depth - 1, alpha, alpha + 1, context)
            if alpha < value < beta:  # better than the first: search it again in full
                value = value_for(mover, game, depth - 1, alpha, beta, context)
        game.undo()
        best, alpha = max(best, value), max(alpha, value)
        if alpha >= beta:
            context.count_cutoff()
            break
    return best


def value_for(
    mover: int, game: Game[Any], depth: float, alpha: int, beta: int, context: SearchContext
) -> int:
    """Return :func:`pvs`'s value of ``game`` for ``mover``: negated, window and value,
    when the other player is to move (a player who moves again keeps its sign)."""
    if game.to_move() == mover:
        return pvs(game, depth, alpha, beta, context)
    return -pvs(game, depth, -beta, -alpha, context)


def first_player_value(game: Game[Any], depth: float, context: SearchContext) -> int:
    """Return the exact value of ``game`` from the first player's point of view."""
    sign = 1 if game.to_move() == 0 else -1
    return sign * pvs(game, depth, -INFINITY, INFINITY, context)


@attrs.frozen(kw_only=True)
class ReferencePVS(Searcher):
    """Principal variation search, negamax form (the reference twin of ``pvs``)."""

    name: ClassVar[str] = "reference-pvs"

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        """Return every root move's exact value and the best of them."""
        return search_root(game, context, first_player_value)


REFERENCE = ReferencePVS
