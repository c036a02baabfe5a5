"""Textbook minimax and alpha-beta with the switches courses count by, and a tracer.

Twins: :mod:`gamesearch.search.reference.minimax` (the same values, best moves and
node counts) and :mod:`gamesearch.search.reference.alphabeta` (the same values; with
the default switches the same best moves and node counts). Differences: every
position entered is reported to a tracer (``gamesearch tree`` draws them); a horizon
in rounds as well as plies; and the two switches below, which change the node counts
to the ones courses publish. Plain recursion over the public protocol (``push``,
``undo``, ``result``, ``legal_moves``) and the public searcher API
(:meth:`Searcher.root`), no tables, no ordering; the grader's suites use them.

Two switches of :class:`TextbookAlphaBeta` make its node counts match the ones courses
publish:

- ``prune_on_equality``: on (the default, *AIMA* Figure 5.7), the remaining moves of a
  position are skipped as soon as ``alpha >= beta``; off, only once ``alpha > beta``
  (the rule of autograders that count generated states, such as Berkeley CS188's);
- ``root_window``: ``fresh`` (the default) searches each root move with a full window,
  so every root move gets its exact value; ``shared`` lets each root move narrow the
  window for the next, as the textbook's ``alpha-beta-search`` does: the moves after
  the best then get bounds, and a tied best move is missed unless
  ``prune_on_equality`` is off (the result says so: ``best_moves_complete``,
  ``move_values_exact``).

Both take ``depth`` (plies) or ``rounds`` (one move of every player each), the way
multi-agent course projects count their depth.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import Any, ClassVar

import attrs

from gamesearch.game import Game
from gamesearch.options import option_field
from gamesearch.search.base import INFINITY, RootAnswer, SearchContext, Searcher
from gamesearch.search.multiplayer import _rounds_field
from gamesearch.search.table import SearchMemory


def _enter(
    context: SearchContext, game: Game[Any], move: Hashable | None, alpha: int, beta: int
) -> None:
    """Count the position ``game`` holds as entered and tell the tracer, if any."""
    context.count_node(game)
    if context.tracer is not None:
        context.tracer.enter(move, game.ply, alpha, beta)


def _leave(context: SearchContext, value: int) -> int:
    """Tell the tracer, if any, that the position last entered is worth ``value``; return it."""
    if context.tracer is not None:
        context.tracer.leave(value)
    return value


def minimax_value(
    game: Game[Any], depth: float, context: SearchContext, move: Hashable | None = None
) -> int:
    """Return the minimax value of ``game`` searched ``depth`` plies deep (AIMA, Figure 5.3).

    The first player maximises, the second minimises; a finished game is worth its
    proven value, a position at the horizon its heuristic estimate. ``move`` is the
    move that led here (for the tracer).
    """
    _enter(context, game, move, -INFINITY, INFINITY)
    if game.result() is not None:
        return _leave(context, context.finished_value(game))
    if depth == 0:
        return _leave(context, context.horizon_value(game))
    values = []
    for child in game.legal_moves():
        game.push(child)
        try:
            values.append(minimax_value(game, depth - 1, context, child))
        finally:
            game.undo()
    return _leave(context, max(values) if game.to_move() == 0 else min(values))


def alphabeta_value(
    game: Game[Any],
    depth: float,
    alpha: int,
    beta: int,
    context: SearchContext,
    move: Hashable | None = None,
    *,
    prune_on_equality: bool = True,
) -> int:
    """Return the value of ``game`` if it lies inside ``(alpha, beta)``, else a bound beyond
    the window (AIMA, Figure 5.7: the moves left once ``alpha >= beta`` cannot matter).

    With ``prune_on_equality`` false the moves left are skipped only once ``alpha >
    beta``; the value is then exact whenever it lies in the closed window ``[alpha, beta]``.
    """
    _enter(context, game, move, alpha, beta)
    if game.result() is not None:
        return _leave(context, context.finished_value(game))
    if depth == 0:
        return _leave(context, context.horizon_value(game))
    maximizing = game.to_move() == 0
    best = -INFINITY if maximizing else INFINITY
    moves = list(game.legal_moves())
    for index, child in enumerate(moves):
        game.push(child)
        try:
            value = alphabeta_value(
                game, depth - 1, alpha, beta, context, child, prune_on_equality=prune_on_equality
            )
        finally:
            game.undo()
        if maximizing:
            best, alpha = max(best, value), max(alpha, value)
        else:
            best, beta = min(best, value), min(beta, value)
        if alpha > beta or (prune_on_equality and alpha == beta):
            context.count_cutoff()
            if context.tracer is not None and index + 1 < len(moves):
                context.tracer.prune(moves[index + 1 :])
            break
    return _leave(context, best)


def _search_root(
    game: Game[Any],
    context: SearchContext,
    depth: int | None,
    value_of: Callable[[Hashable, float, int, int], int],
    *,
    shared_window: bool = False,
    ties_are_exact: bool = True,
) -> RootAnswer:
    """Return the answer of the root: each move's value by ``value_of(move, depth - 1, alpha,
    beta)`` (first player's view), the best of them for the side to move, and every move of
    that value.

    With ``shared_window`` each move's window is narrowed by the moves before it; the
    moves worth the best value are then all known only when ``ties_are_exact`` (a move
    tying the best may otherwise be worth less): else only the first best is reported.
    """
    _enter(context, game, None, -INFINITY, INFINITY)
    below = math.inf if depth is None else depth - 1
    maximizing = game.to_move() == 0
    alpha, beta = -INFINITY, INFINITY
    values = []
    for move in game.legal_moves():
        game.push(move)
        try:
            value = value_of(move, below, alpha, beta)
        finally:
            game.undo()
        values.append((move, value))
        if shared_window:
            if maximizing:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
    pick = max if maximizing else min
    best = pick(value for _, value in values)
    best_moves = [move for move, value in values if value == best]
    if shared_window and not ties_are_exact:
        best_moves = best_moves[:1]
    _leave(context, best)
    return context.answer(
        game,
        best,
        best_moves,
        values,
        best_moves_complete=not shared_window or ties_are_exact,
        move_values_exact=not shared_window,
    )


@attrs.frozen(kw_only=True)
class _Textbook(Searcher):
    """What both textbook searchers share: a horizon in plies or in rounds."""

    name: ClassVar[str] = "textbook"
    rounds: int | None = _rounds_field()  # the option multi-player searchers share

    def horizon_plies(self, game: Game[Any]) -> int | None:
        """Return the plies to search below the root: ``rounds`` times the players, else
        ``depth``."""
        return self.depth if self.rounds is None else self.rounds * game.rules.players

    def _follow_up(self, game: Game[Any], depth: int | None, memory: SearchMemory) -> Hashable:
        # the principal variation's follow-up searches count their horizon in plies
        return super(_Textbook, attrs.evolve(self, rounds=None))._follow_up(game, depth, memory)


@attrs.frozen(kw_only=True)
class TextbookMinimax(_Textbook):
    """Textbook minimax (AIMA Figure 5.3), plain recursion, with a tracer."""

    name: ClassVar[str] = "textbook-minimax"

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        context.depth_limit = self.horizon_plies(game)
        return _search_root(
            game,
            context,
            context.depth_limit,
            lambda move, depth, alpha, beta: minimax_value(game, depth, context, move),
        )


@attrs.frozen(kw_only=True)
class TextbookAlphaBeta(_Textbook):
    """Textbook alpha-beta (AIMA Figure 5.7), plain recursion, with the switches courses count
    by."""

    name: ClassVar[str] = "textbook-alphabeta"
    prune_on_equality: bool = attrs.field(
        default=True,
        metadata={
            "help": "skip the remaining moves once alpha >= beta (off: only once alpha > beta)"
        },
    )
    root_window: str = option_field(
        "fresh",
        "fresh: full window per root move; shared: root moves narrow one window",
        choices=("fresh", "shared"),
    )

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        # with move_values asked for, every root move needs its exact value: a fresh window
        shared = self.root_window == "shared" and not context.move_values
        context.depth_limit = self.horizon_plies(game)
        return _search_root(
            game,
            context,
            context.depth_limit,
            lambda move, depth, alpha, beta: alphabeta_value(
                game, depth, alpha, beta, context, move, prune_on_equality=self.prune_on_equality
            ),
            shared_window=shared,
            ties_are_exact=not self.prune_on_equality,
        )
