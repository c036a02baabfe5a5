"""What the reference searchers of games of chance share: leaves, means, needs.

A finished game is worth its final result, a position at the horizon its heuristic
mapped strictly inside the result range (:func:`gamesearch.rules.chance_heuristic`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

import attrs

from gamesearch import capabilities
from gamesearch.game import Game
from gamesearch.rules import chance_heuristic
from gamesearch.search.base import SearchContext, Searcher


def expected_leaf(game: Game[Any], depth: float, context: SearchContext) -> Fraction | None:
    """Return the value of a leaf of a game of chance (its final result, or at the horizon
    its heuristic mapped inside the result range), else ``None``."""
    final = game.result()
    if final is None and depth > 0:
        return None
    context.counters.leaves += 1
    if final is not None:
        return Fraction(final)
    context.horizon_reached = True
    return chance_heuristic(
        game.rules, capabilities.heuristic(game)(), capabilities.heuristic_bound(game)
    )


def mean(outcomes: Sequence[tuple[Any, Fraction]], values: Sequence[Fraction]) -> Fraction:
    """Return the probability-weighted mean of one value per outcome."""
    pairs = zip(outcomes, values, strict=True)
    return sum((chance * value for (_, chance), value in pairs), Fraction(0))


@attrs.frozen(kw_only=True)
class ChanceReference(Searcher):
    """What a reference searcher of games of chance needs: chance; its values are
    expected results."""

    name: ClassVar[str] = "reference-chance"
    needs_no_chance: ClassVar[bool] = False
    expected_values: ClassVar[bool] = True
