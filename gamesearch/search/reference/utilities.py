"""What the reference searchers of games with utilities share: leaves, answer, needs.

A finished game is worth its utilities, a position at the horizon the heuristic's
mapped strictly inside the result range
(:func:`gamesearch.search.multiplayer.leaf_utilities`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, ClassVar

import attrs

from gamesearch.game import Game
from gamesearch.search.base import RootAnswer, SearchContext, Searcher
from gamesearch.search.multiplayer import leaf_utilities


def utility_leaf(game: Game[Any], depth: float, context: SearchContext) -> tuple[Any, ...] | None:
    """Return the utilities of a leaf of a game with utilities (final, or the heuristic's
    mapped inside the result range at the horizon), else ``None``."""
    if game.result() is None and depth > 0:
        return None
    context.counters.leaves += 1
    context.horizon_reached = context.horizon_reached or game.result() is None
    return leaf_utilities(game)


def utilities_answer(
    game: Game[Any],
    context: SearchContext,
    found: list[tuple[Hashable, tuple[Any, ...]]],
    best: tuple[Any, ...],
    is_best: Callable[[tuple[Any, ...]], bool],
) -> RootAnswer:
    """Return the answer of a search of utilities: ``best`` (the root mover's utility is
    the value), the moves whose utilities ``is_best``, each move's utility for the mover."""
    mover = game.to_move()
    values = [(move, utilities[mover]) for move, utilities in found]
    best_moves = [move for move, utilities in found if is_best(utilities)]
    answer = context.answer(game, best[mover], best_moves, values)
    return attrs.evolve(answer, utilities=best)


@attrs.frozen(kw_only=True)
class UtilitiesReference(Searcher):
    """What a reference searcher of utilities needs: one utility per player, any players."""

    name: ClassVar[str] = "reference-utilities"
    needs_two_players: ClassVar[bool] = False
    needs_single_value: ClassVar[bool] = False
    needs_utilities: ClassVar[bool] = True
