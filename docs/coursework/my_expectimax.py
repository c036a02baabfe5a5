"""Coursework skeleton: write expectimax and Star1 pruning yourself, then have them graded.

Fill in the three functions marked EXERCISE, then grade each exercise (from the
folder this file is in)::

    gamesearch grade my_expectimax.py:StudentExpectimax --suite grading/expectimax.toml
    gamesearch grade my_expectimax.py:StudentStar1 --suite grading/star1.toml
    gamesearch grade my_expectimax.py:StudentExpectimaxToDepth --suite grading/expectimax-depth.toml

The searcher classes at the bottom are done for you: each values every move (or, at a
roll of the die, every outcome) of the root position with your function and reports
the best ones, so the grader can compare your values, your best moves and the
positions you generate with the library's expectiminimax, on positions of a small
game of Pig and on explicit game trees.

What you need of the game API (see the Game reference):

- ``game.result()`` is ``None`` while the game goes on, else the final result: in
  Pig +1 when the first player won, -1 when the second won, 0 for a draw; in a game
  tree the leaf's utility;
- ``game.to_move()`` is ``Player.FIRST`` (who maximises), ``Player.SECOND`` (who
  minimises) or ``CHANCE`` (the die decides);
- at a chance position, ``game.chance_outcomes()`` lists ``(move, probability)``
  pairs, each probability an exact ``Fraction``, together summing to 1;
- ``game.legal_moves()`` lists the moves (at a chance position: the outcomes);
  ``game.push(move)`` plays one and ``game.undo()`` takes it back. Leave the
  position as you found it.

Values are exact fractions: the expected final result, first player's point of view.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any, ClassVar

import attrs

from gamesearch import Game, Player, Searcher
from gamesearch.game import CHANCE, chance_heuristic
from gamesearch.search.base import Counters, RootAnswer, SearchContext


def expectimax_value(game: Game[Any], counters: Counters) -> Fraction:
    """EXERCISE 1: return the expected result of ``game``, searched to the end.

    A finished game is worth its result; a chance position the probability-weighted
    mean of its outcomes' values; otherwise the first player takes the largest value
    among the moves and the second the smallest. Count every position you enter, this
    one included, with ``counters.nodes += 1``.
    """
    counters.nodes += 1
    raise NotImplementedError("exercise 1: write expectimax_value in my_expectimax.py")


def star1_value(
    game: Game[Any],
    alpha: Fraction,
    beta: Fraction,
    low: Fraction,
    high: Fraction,
    counters: Counters,
) -> Fraction:
    """EXERCISE 2: return the value of ``game`` as expectimax would, skipping what cannot matter.

    Every value lies between ``low`` and ``high`` (the game's lowest and highest
    result). At a player's position, prune as alpha-beta does (stop once
    ``alpha >= beta``). At a chance position, after the outcomes searched so far,
    the rest can only bring the mean down to ``low`` or up to ``high``: when even
    ``high`` for every outcome left cannot lift the mean above ``alpha``, or even
    ``low`` cannot bring it below ``beta``, stop and return that bound. Search each
    outcome with the window its own value must fall in for the mean to land inside
    ``(alpha, beta)`` (Ballard's Star1). Outside the window a value may be a bound, as
    in alpha-beta. Count nodes as in exercise 1.
    """
    counters.nodes += 1
    raise NotImplementedError("exercise 2: write star1_value in my_expectimax.py")


def estimate(game: Game[Any]) -> Fraction:
    """Return the value of ``game`` at the horizon: its heuristic estimate, mapped strictly
    inside the result range as the library's searchers map it (given)."""
    return chance_heuristic(game.rules, game.evaluate(), type(game).evaluation_bound)


def expectimax_to_depth(game: Game[Any], depth: int, counters: Counters) -> Fraction:
    """EXERCISE 3: return the expectimax value of ``game`` searched ``depth`` moves deep.

    ``depth`` counts the players' moves still to search: a player's move takes one off,
    an outcome of chance takes none. A finished game is worth its result; a position
    with no depth left (a chance position too) is worth ``estimate(game)``. Count nodes
    as in exercise 1.
    """
    counters.nodes += 1
    raise NotImplementedError("exercise 3: write expectimax_to_depth in my_expectimax.py")


@attrs.frozen(kw_only=True)
class StudentExpectimax(Searcher):
    """Exercise 1: every root move (or outcome) searched with your expectimax_value."""

    name: ClassVar[str] = "my-expectimax"
    needs_no_chance: ClassVar[bool] = False
    expected_values: ClassVar[bool] = True

    def value_after(
        self, game: Game[Any], chance_moved: bool, low: Fraction, high: Fraction, counters: Counters
    ) -> Fraction:
        """Return the value of the position a root move (``chance_moved``: an outcome) reached."""
        return expectimax_value(game, counters)

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        low, high = (Fraction(bound) for bound in game.rules.result_range)
        at_chance = game.to_move() == CHANCE
        values: list[tuple[Hashable, Fraction]] = []
        context.counters.nodes += 1  # the root
        for move in game.legal_moves():
            game.push(move)
            try:
                value = self.value_after(game, at_chance, low, high, context.counters)
            finally:
                game.undo()
            values.append((move, value))
        if at_chance:  # no one chooses: every outcome, and their mean
            odds = dict(game.chance_outcomes())
            mean = sum((odds[move] * value for move, value in values), Fraction(0))
            return context.answer(game, mean, [move for move, _ in values], values)
        pick = max if game.to_move() == Player.FIRST else min
        best = pick(value for _, value in values)
        return context.answer(game, best, [move for move, value in values if value == best], values)


@attrs.frozen(kw_only=True)
class StudentStar1(StudentExpectimax):
    """Exercise 2: every root move (or outcome) searched with your star1_value."""

    name: ClassVar[str] = "my-star1"

    def value_after(
        self, game: Game[Any], chance_moved: bool, low: Fraction, high: Fraction, counters: Counters
    ) -> Fraction:
        # a full window: every root move gets its exact value
        return star1_value(game, low, high, low, high, counters)


@attrs.frozen(kw_only=True)
class StudentExpectimaxToDepth(StudentExpectimax):
    """Exercise 3: every root move (or outcome) searched with your expectimax_to_depth."""

    name: ClassVar[str] = "my-expectimax-to-depth"
    depth: int | None = attrs.field(
        default=2, metadata={"help": "players' moves to search (chance is free)"}
    )

    def value_after(
        self, game: Game[Any], chance_moved: bool, low: Fraction, high: Fraction, counters: Counters
    ) -> Fraction:
        depth = 2 if self.depth is None else self.depth
        # a player's move at the root takes one off the depth, an outcome none
        return expectimax_to_depth(game, depth if chance_moved else depth - 1, counters)
