"""Paranoid search: the root mover against all the other players at once.

The root mover maximises its own utility and every other player minimises it, as if
they had all sided against it; the game becomes a two-sided one, searched by
fail-soft alpha-beta on the root mover's utility (Sturtevant & Korf, "On pruning
techniques for multi-player games", AAAI 2000).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import attrs

from gamesearch.game import Game
from gamesearch.search.base import INFINITY, RootAnswer, SearchContext
from gamesearch.search.reference.root import plies_left
from gamesearch.search.reference.utilities import UtilitiesReference, utilities_answer, utility_leaf


def paranoid(
    game: Game[Any], depth: float, alpha: Any, beta: Any, player: int, context: SearchContext
) -> tuple[Any, ...]:
    """Return the utilities that decide ``player``'s paranoid value of ``game`` in the
    window ``(alpha, beta)`` (fail-soft, on ``player``'s utility)."""
    context.count_node(game)
    leaf = utility_leaf(game, depth, context)
    if leaf is not None:
        return leaf
    maximizing, best = game.to_move() == player, None
    for move in game.legal_moves():
        game.push(move)
        utilities = paranoid(game, depth - 1, alpha, beta, player, context)
        game.undo()
        value = utilities[player]
        if best is None or (value > best[player] if maximizing else value < best[player]):
            best = utilities
        alpha, beta = (max(alpha, value), beta) if maximizing else (alpha, min(beta, value))
        if alpha >= beta:
            context.count_cutoff()
            break
    assert best is not None
    return best


@attrs.frozen(kw_only=True)
class ReferenceParanoid(UtilitiesReference):
    """Paranoid alpha-beta (the reference twin of ``paranoid``)."""

    name: ClassVar[str] = "reference-paranoid"
    #: the search of the position after each root move
    value_after: ClassVar[Callable[..., tuple[Any, ...]]] = staticmethod(paranoid)

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        """Return the root mover's exact utility after every move (a full window each)."""
        context.count_node(game)
        player, found = game.to_move(), []
        for move in game.legal_moves():
            game.push(move)
            depth = plies_left(context) - 1
            found.append(
                (move, self.value_after(game, depth, -INFINITY, INFINITY, player, context))
            )
            game.undo()
        best = max((utilities for _, utilities in found), key=lambda utilities: utilities[player])
        return utilities_answer(game, context, found, best, lambda u: u[player] == best[player])


REFERENCE = ReferenceParanoid
