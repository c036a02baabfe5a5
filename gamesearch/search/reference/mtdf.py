"""MTD(f): the value as a sequence of null-window alpha-beta searches.

Each null-window search ``(beta - 1, beta)`` only answers whether the value is at
least ``beta``; its fail-soft answer is a bound, and the next window is set at that
bound, until the lower and the upper bound meet (Plaat, Schaeffer, Pijls & de Bruin,
"Best-first fixed-depth minimax algorithms", *Artificial Intelligence* 87, 1996).
Plaat's version keeps a transposition table so that each pass reuses the last one;
this one is the driver alone, over plain alpha-beta.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from gamesearch.game import Game
from gamesearch.search.base import INFINITY, RootAnswer, SearchContext, Searcher
from gamesearch.search.reference.alphabeta import alphabeta
from gamesearch.search.reference.root import search_root


def mtdf(game: Game[Any], depth: float, context: SearchContext, guess: int = 0) -> int:
    """Return the exact value of ``game`` (first player's view), ``depth`` plies deep,
    found from the first ``guess`` by null-window searches."""
    lower, upper = -INFINITY, INFINITY
    while lower < upper:
        beta = guess + 1 if guess == lower else guess
        guess = alphabeta(game, depth, beta - 1, beta, context)
        if guess < beta:
            upper = guess  # failed low: the value is at most ``guess``
        else:
            lower = guess  # failed high: the value is at least ``guess``
    return guess


@attrs.frozen(kw_only=True)
class ReferenceMTDf(Searcher):
    """MTD(f) over plain alpha-beta (the reference twin of ``mtdf`` and ``solver``)."""

    name: ClassVar[str] = "reference-mtdf"

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        """Return every root move's exact value and the best of them."""
        return search_root(game, context, mtdf)


REFERENCE = ReferenceMTDf
