"""Star2: Star1, with every outcome probed before any is searched in full.

A probe of an outcome searches one move only, the first, of the player who moves
after it: that move's value is a lower bound of the outcome's value when the
maximiser moves there, an upper bound when the minimiser does. The probes' bounds
often decide the chance position before any outcome is searched in full; what is
left is Star1's search, with the probes' bounds in place of the result range
(Ballard, "The *-minimax search procedure for trees containing chance nodes",
*Artificial Intelligence* 21, 1983).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

import attrs

from gamesearch import capabilities
from gamesearch.game import Game
from gamesearch.rules import CHANCE
from gamesearch.search.base import RootAnswer, SearchContext
from gamesearch.search.reference.leaves import ChanceReference, expected_leaf, mean
from gamesearch.search.reference.root import full_window, player_value, search_root
from gamesearch.search.reference.star1 import chance_value


def star2(game: Game[Any], depth: float, alpha: Any, beta: Any, context: SearchContext) -> Fraction:
    """Return the expected result of ``game`` in the window ``(alpha, beta)``, fail-soft."""
    context.count_node(game)
    leaf = expected_leaf(game, depth, context)
    if leaf is not None:
        return leaf
    if game.to_move() != CHANCE:
        return player_value(game, depth, alpha, beta, context, star2)  # type: ignore[no-any-return]
    outcomes = capabilities.chance_outcomes(game)
    lows, highs = ([Fraction(bound)] * len(outcomes) for bound in game.rules.result_range)
    for index, (outcome, _) in enumerate(outcomes):
        game.push(outcome)
        if game.result() is None and game.to_move() != CHANCE and depth > 0:
            context.count_node(game)  # the probe: the first move alone
            maximizing = game.to_move() == 0
            game.push(game.legal_moves()[0])
            probe = star2(game, depth - 1, lows[index], highs[index], context)
            game.undo()
            if maximizing and probe > lows[index]:
                lows[index] = probe
            elif not maximizing and probe < highs[index]:
                highs[index] = probe
        game.undo()
        if mean(outcomes, lows) >= beta or mean(outcomes, highs) <= alpha:
            context.count_cutoff()
            return mean(outcomes, lows) if mean(outcomes, lows) >= beta else mean(outcomes, highs)
    return chance_value(game, depth, alpha, beta, context, star2, lows, highs)


@attrs.frozen(kw_only=True)
class ReferenceStar2(ChanceReference):
    """Ballard's Star2 (the reference twin of ``star2`` and ``chance-iterative``)."""

    name: ClassVar[str] = "reference-star2"

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        """Return every root move's (or outcome's) expected result and the best."""
        return search_root(game, context, full_window(star2))


REFERENCE = ReferenceStar2
