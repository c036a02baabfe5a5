"""Max^n: in a game of several players, each player picks the move best for itself.

A position is worth a tuple of utilities, one per player: the tuple of the move its
mover likes best, the first such move on a tie (Luckhardt & Irani, "An algorithmic
solution of N-person games", AAAI 1986). With two players and a zero sum it is
minimax.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from gamesearch.game import Game
from gamesearch.search.base import RootAnswer, SearchContext
from gamesearch.search.reference.root import plies_left
from gamesearch.search.reference.utilities import UtilitiesReference, utilities_answer, utility_leaf


def maxn(game: Game[Any], depth: float, context: SearchContext) -> tuple[Any, ...]:
    """Return the max^n utilities of ``game``, ``depth`` plies deep."""
    context.count_node(game)
    leaf = utility_leaf(game, depth, context)
    if leaf is not None:
        return leaf
    mover, best = game.to_move(), None
    for move in game.legal_moves():
        game.push(move)
        utilities = maxn(game, depth - 1, context)
        game.undo()
        if best is None or utilities[mover] > best[mover]:
            best = utilities
    assert best is not None
    return best


@attrs.frozen(kw_only=True)
class ReferenceMaxN(UtilitiesReference):
    """Max^n as defined (the reference twin of ``maxn``)."""

    name: ClassVar[str] = "reference-maxn"

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        """Return the root mover's utility of every move; the best moves reach the very
        utilities of the first best."""
        context.count_node(game)
        found = []
        for move in game.legal_moves():
            game.push(move)
            found.append((move, maxn(game, plies_left(context) - 1, context)))
            game.undo()
        mover = game.to_move()
        best = max((utilities for _, utilities in found), key=lambda utilities: utilities[mover])
        return utilities_answer(game, context, found, best, lambda utilities: utilities == best)


REFERENCE = ReferenceMaxN
