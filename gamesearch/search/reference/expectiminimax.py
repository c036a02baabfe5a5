"""Expectiminimax: minimax with positions where chance moves.

A chance position is worth the mean of its outcomes' values, each weighted by its
probability; elsewhere the first player maximises and the second minimises (Michie,
"Game-playing and game-learning automata", 1966; Russell & Norvig, *AIMA*, section
5.5). Values are expected final results, exact fractions. ``depth`` counts the
players' moves only: an outcome of chance costs none.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

import attrs

from gamesearch import capabilities
from gamesearch.game import Game
from gamesearch.rules import CHANCE
from gamesearch.search.base import RootAnswer, SearchContext
from gamesearch.search.reference.leaves import ChanceReference, expected_leaf
from gamesearch.search.reference.root import search_root


def expectiminimax(game: Game[Any], depth: float, context: SearchContext) -> Fraction:
    """Return the expected final result of ``game`` (first player's view), ``depth``
    players' moves deep."""
    context.count_node(game)
    leaf = expected_leaf(game, depth, context)
    if leaf is not None:
        return leaf
    if game.to_move() == CHANCE:
        mean = Fraction(0)
        for outcome, probability in capabilities.chance_outcomes(game):
            game.push(outcome)
            mean += probability * expectiminimax(game, depth, context)
            game.undo()
        return mean
    values = []
    for move in game.legal_moves():
        game.push(move)
        values.append(expectiminimax(game, depth - 1, context))
        game.undo()
    return max(values) if game.to_move() == 0 else min(values)


@attrs.frozen(kw_only=True)
class ReferenceExpectiminimax(ChanceReference):
    """Expectiminimax as defined (the reference twin of ``expectiminimax``)."""

    name: ClassVar[str] = "reference-expectiminimax"

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        """Return every root move's (or outcome's) expected result and the best."""
        return search_root(game, context, expectiminimax)


REFERENCE = ReferenceExpectiminimax
