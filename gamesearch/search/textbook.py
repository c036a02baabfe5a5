"""Textbook minimax and alpha-beta: short, readable, and the reference for the fast cores.

Written for reading, not for speed (the fast cores are in :mod:`gamesearch.search.minimax`
and :mod:`gamesearch.search.alphabeta`): plain recursion over the public protocol
(``push``, ``undo``, ``result``, ``legal_moves``), no tables, no ordering. The
conformance kit checks every searcher against :class:`TextbookMinimax`, so it shares
no code with the searchers it checks. Both are written against the public searcher
API (:meth:`Searcher.root`), as a searcher of your own would be.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, ClassVar

import attrs

from gamesearch.game import Game
from gamesearch.search.base import RootAnswer, SearchContext, Searcher


def minimax_value(game: Game[Any], depth: float, context: SearchContext) -> int:
    """Return the minimax value of ``game`` searched ``depth`` plies deep (AIMA, Figure 5.3).

    The first player maximises, the second minimises; a finished game is worth its
    proven value, a position at the horizon its heuristic estimate.
    """
    context.count_node(game)
    if game.result() is not None:
        return context.finished_value(game)
    if depth == 0:
        return context.horizon_value(game)
    values = []
    for move in game.legal_moves():
        game.push(move)
        try:
            values.append(minimax_value(game, depth - 1, context))
        finally:
            game.undo()
    return max(values) if game.to_move() == 0 else min(values)


def alphabeta_value(game: Game[Any], depth: float, alpha: float, beta: float, context: SearchContext) -> int:
    """Return the value of ``game`` if it lies inside ``(alpha, beta)``, else a bound beyond
    the window (AIMA, Figure 5.7: the moves left once ``alpha >= beta`` cannot matter)."""
    context.count_node(game)
    if game.result() is not None:
        return context.finished_value(game)
    if depth == 0:
        return context.horizon_value(game)
    maximizing = game.to_move() == 0
    best = -math.inf if maximizing else math.inf
    for move in game.legal_moves():
        game.push(move)
        try:
            value = alphabeta_value(game, depth - 1, alpha, beta, context)
        finally:
            game.undo()
        if maximizing:
            best, alpha = max(best, value), max(alpha, value)
        else:
            best, beta = min(best, value), min(beta, value)
        if alpha >= beta:
            context.count_cutoff()
            break
    return int(best)


def _search_root(
    game: Game[Any], context: SearchContext, depth: int | None, value_of: Callable[[float], int]
) -> RootAnswer:
    """Return the answer of the root: each move's value by ``value_of(depth - 1)`` (first
    player's view), the best of them for the side to move, and every move of that value."""
    context.count_node(game)  # the root
    below = math.inf if depth is None else depth - 1
    values = []
    for move in game.legal_moves():
        game.push(move)
        try:
            values.append((move, value_of(below)))
        finally:
            game.undo()
    pick = max if game.to_move() == 0 else min
    best = pick(value for _, value in values)
    return context.answer(game, best, [move for move, value in values if value == best], values)


@attrs.frozen(kw_only=True)
class TextbookMinimax(Searcher):
    """Textbook minimax (AIMA Figure 5.3), plain recursion: the kit's reference."""

    name: ClassVar[str] = "textbook-minimax"

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        return _search_root(game, context, self.depth, lambda depth: minimax_value(game, depth, context))


@attrs.frozen(kw_only=True)
class TextbookAlphaBeta(Searcher):
    """Textbook alpha-beta (AIMA Figure 5.7), every root move with a full window."""

    name: ClassVar[str] = "textbook-alphabeta"

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        # a full window per root move: each root value is exact
        return _search_root(
            game, context, self.depth,
            lambda depth: alphabeta_value(game, depth, -math.inf, math.inf, context),
        )  # fmt: skip
