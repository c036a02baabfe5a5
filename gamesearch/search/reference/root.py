"""What the reference searchers share: the root loop, and alpha-beta over a search.

Each root move is searched with a window of its own, so every root move's value is
exact and the best moves are all the moves of the best value.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import Any

import attrs

from gamesearch import capabilities
from gamesearch.game import Game
from gamesearch.rules import CHANCE
from gamesearch.search.base import INFINITY, RootAnswer, SearchContext

#: ``value(game, depth, context)``: the value of the position a root move reached
ChildValue = Callable[[Game[Any], float, SearchContext], Any]


def plies_left(context: SearchContext) -> float:
    """Return the horizon of the search in plies (``math.inf``: to the end of the game)."""
    return math.inf if context.depth_limit is None else context.depth_limit


def search_root(game: Game[Any], context: SearchContext, value: ChildValue) -> RootAnswer:
    """Return the answer at the root: each move's ``value`` (first player's view), the best
    for the side to move and every move of that value; at a chance position the mean of
    the outcomes (each one a "best move"). A player's move costs one ply, chance none."""
    context.count_node(game)
    is_chance = game.to_move() == CHANCE
    depth = plies_left(context) - (0 if is_chance else 1)
    values: list[tuple[Hashable, Any]] = []
    for move in game.legal_moves():
        game.push(move)
        values.append((move, value(game, depth, context)))
        game.undo()
    if is_chance:
        odds = dict(capabilities.chance_outcomes(game))
        mean = sum(odds[move] * child for move, child in values)
        return context.answer(game, mean, [move for move, _ in values], values)
    pick = max if game.to_move() == 0 else min
    best = pick(child for _, child in values)
    return context.answer(game, best, [move for move, child in values if child == best], values)


def player_value(
    game: Game[Any], depth: float, alpha: Any, beta: Any, context: SearchContext, search: Any
) -> Any:
    """Return the fail-soft alpha-beta value of a player's position (first player's view),
    each child's by ``search(game, depth, alpha, beta, context)``."""
    maximizing = game.to_move() == 0
    best: Any = -INFINITY if maximizing else INFINITY
    for move in game.legal_moves():
        game.push(move)
        value = search(game, depth - 1, alpha, beta, context)
        game.undo()
        if maximizing:
            best, alpha = max(best, value), max(alpha, value)
        else:
            best, beta = min(best, value), min(beta, value)
        if alpha >= beta:
            context.count_cutoff()
            break
    return best


def full_window(search: Any) -> ChildValue:
    """Return the function that values a position by ``search`` with every result's window."""
    return lambda game, depth, context: search(game, depth, *game.rules.result_range, context)


def estimate(answer: RootAnswer) -> RootAnswer:
    """Return ``answer`` marked as an estimate: not exact, one of the best moves perhaps,
    each move's value a guess."""
    return attrs.evolve(answer, is_exact=False, best_moves_complete=False, move_values_exact=False)
