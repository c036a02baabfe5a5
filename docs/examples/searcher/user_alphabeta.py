"""Alpha-beta written as a searcher of your own: docs/write-a-searcher.md lists this file.

The benchmark row "tic-tac-toe: alpha-beta written as a user's searcher" runs it against
the built-in ``alphabeta`` set to search the very same tree (``ordering=natural``,
``root_window=fresh``), and a test checks that the page lists it as it is.
"""

from typing import Any, ClassVar

import attrs

from gamesearch import Game, Searcher
from gamesearch.search.base import INFINITY, RootAnswer, SearchContext


def alphabeta(game: Game[Any], alpha: int, beta: int, context: SearchContext) -> int:
    """Return the value of the unfinished ``game`` for the first player: exact when it lies
    inside ``(alpha, beta)``, else a bound on that side (Knuth and Moore, 1975)."""
    maximizing = game.to_move() == 0
    best = -INFINITY if maximizing else INFINITY
    for _move, value in context.children(game):
        if value is None:  # the game goes on: the move is played, search on from there
            value = alphabeta(game, alpha, beta, context)
        if maximizing:
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
        elif value < best:
            best = value
            if value < beta:
                beta = value
        if alpha >= beta:  # the other moves cannot change the value above
            context.count_cutoff()
            break
    return best


@attrs.frozen(kw_only=True)
class UserAlphaBeta(Searcher):
    """Alpha-beta to the end of the game, each root move with a window of its own."""

    name: ClassVar[str] = "user-alphabeta"

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        context.count_node(game)
        values = []
        for move, value in context.children(game):
            if value is None:
                value = alphabeta(game, -INFINITY, INFINITY, context)
            values.append((move, value))
        pick = max if game.to_move() == 0 else min
        best = pick(value for _, value in values)
        return context.answer(game, best, [move for move, value in values if value == best], values)
