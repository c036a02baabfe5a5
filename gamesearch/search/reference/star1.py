"""Star1: expectiminimax's values, cutting off chance positions with the result bounds.

At a chance position the outcomes searched, and the result range for the others, bound
the mean; once that is outside ``(alpha, beta)`` the rest are skipped (Ballard, "The
*-minimax search procedure for trees containing chance nodes", *AI* 21, 1983).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, ClassVar

import attrs

from gamesearch import capabilities
from gamesearch.game import Game
from gamesearch.rules import CHANCE
from gamesearch.search.base import RootAnswer, SearchContext
from gamesearch.search.reference.leaves import ChanceReference, expected_leaf, mean
from gamesearch.search.reference.root import full_window, player_value, search_root


def chance_value(
    game: Game[Any],
    depth: float,
    alpha: Any,
    beta: Any,
    context: SearchContext,
    search: Callable[..., Fraction],
    lows: list[Fraction],
    highs: list[Fraction],
) -> Fraction:
    """Return the mean of the chance position ``game``'s outcomes, outcome ``i`` known to
    lie in ``[lows[i], highs[i]]``, or a bound beyond ``(alpha, beta)`` once they decide it."""
    outcomes = capabilities.chance_outcomes(game)
    for index, (outcome, chance) in enumerate(outcomes):
        low, high = mean(outcomes, lows), mean(outcomes, highs)
        # where this outcome's value still decides the mean, the others at their bounds
        child_alpha = max(lows[index], highs[index] + (alpha - high) / chance)
        child_beta = min(highs[index], lows[index] + (beta - low) / chance)
        game.push(outcome)
        value = search(game, depth, child_alpha, child_beta, context)
        game.undo()
        if value > child_alpha:
            lows[index] = value  # exact, or a lower bound
        if value < child_beta:
            highs[index] = value  # exact, or an upper bound
        low, high = mean(outcomes, lows), mean(outcomes, highs)
        if low >= beta or high <= alpha:
            context.count_cutoff()
            return low if low >= beta else high
    return mean(outcomes, lows)


def star1(game: Game[Any], depth: float, alpha: Any, beta: Any, context: SearchContext) -> Fraction:
    """Return the expected result of ``game`` in the window ``(alpha, beta)``, fail-soft."""
    context.count_node(game)
    leaf = expected_leaf(game, depth, context)
    if leaf is not None:
        return leaf
    if game.to_move() != CHANCE:
        return player_value(game, depth, alpha, beta, context, star1)  # type: ignore[no-any-return]
    count = len(capabilities.chance_outcomes(game))
    lows, highs = ([Fraction(bound)] * count for bound in game.rules.result_range)
    return chance_value(game, depth, alpha, beta, context, star1, lows, highs)


@attrs.frozen(kw_only=True)
class ReferenceStar1(ChanceReference):
    """Ballard's Star1 (the reference twin of ``star1``)."""

    name: ClassVar[str] = "reference-star1"

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        """Return every root move's (or outcome's) expected result and the best."""
        return search_root(game, context, full_window(star1))


REFERENCE = ReferenceStar1
