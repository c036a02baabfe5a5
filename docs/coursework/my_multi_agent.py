"""Coursework skeleton: search a game of three players, with the depth counted in rounds.

Fill in the two functions marked EXERCISE, then grade each exercise (from the folder
this file is in)::

    gamesearch grade my_multi_agent.py:StudentParanoid --suite grading/multi-agent.toml
    gamesearch grade my_multi_agent.py:StudentMaxN --suite grading/maxn.toml

The games are three-player m,n,k (``mnk3``: A, B and C take turns) and explicit game
trees of three agents; each position's result is one utility per player. The
searcher classes at the bottom are done for you: each searches every root move with
your function and reports the best ones.

What you need of the game API (see the Game reference):

- ``game.to_move()`` is the player to move: 0 (A), 1 (B) or 2 (C);
- ``game.legal_moves()`` lists the moves; ``game.push(move)`` plays one and
  ``game.undo()`` takes it back. Leave the position as you found it;
- ``game.result()`` is ``None`` while the game goes on;
- ``leaf_utilities(game)`` (given) is the utility tuple to score a leaf with: the final
  utilities of a finished game, or the heuristic's at the horizon;
- ``context.count_node(game)`` counts a position you enter (do it for every one).

A *round* is one move of every player. ``rounds_left`` says how many rounds are still
to be searched; the search stops at the first position where no round is left and
it is the searching player's turn again.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any, ClassVar

import attrs

from gamesearch import Game, Searcher
from gamesearch.search.base import RootAnswer, SearchContext

Utilities = tuple[int | Fraction, ...]


def paranoid_value(
    game: Game[Any], player: int, rounds_left: int, context: SearchContext
) -> int | Fraction:
    """EXERCISE 1: return ``player``'s utility of ``game`` when ``player`` maximises it and
    every other player minimises it (CS188's multi-agent minimax: one maximiser against
    all the others), searched ``rounds_left`` rounds deep.

    A round ends when the turn comes back to ``player``: take one off ``rounds_left``
    then, not after every move. Stop at a finished game, or when no round is left at
    ``player``'s turn, and score the position with ``leaf_utilities(game)[player]``.
    """
    context.count_node(game)
    raise NotImplementedError("exercise 1: write paranoid_value in my_multi_agent.py")


def maxn_value(game: Game[Any], player: int, rounds_left: int, context: SearchContext) -> Utilities:
    """EXERCISE 2: return the max^n utilities of ``game`` searched ``rounds_left`` rounds deep:
    the player to move takes the move whose utilities are best *for itself* (the first
    such move in ``legal_moves()`` order on a tie), whatever they give the others.

    ``player`` moved at the root: the rounds are counted as in exercise 1, at its turns.
    Score a leaf with the whole tuple ``leaf_utilities(game)``.
    """
    context.count_node(game)
    raise NotImplementedError("exercise 2: write maxn_value in my_multi_agent.py")


@attrs.frozen(kw_only=True)
class _Student(Searcher):
    """What both searchers share: every root move searched, the best for the root mover."""

    needs_two_players: ClassVar[bool] = False
    needs_single_value: ClassVar[bool] = False
    rounds: int = attrs.field(
        default=1, metadata={"help": "rounds to search (one move of every player each)"}
    )

    def value_after(
        self, game: Game[Any], player: int, context: SearchContext
    ) -> Utilities | int | Fraction:
        """Return the value of the position a root move reached (for ``player``)."""
        raise NotImplementedError

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        context.count_node(game)  # the root
        player = game.to_move()
        found: list[tuple[Hashable, Utilities | int | Fraction]] = []
        for move in game.legal_moves():
            game.push(move)
            try:
                found.append((move, self.value_after(game, player, context)))
            finally:
                game.undo()
        values = [
            (move, value[player] if isinstance(value, tuple) else value) for move, value in found
        ]
        best = max(value for _, value in values)
        best_moves = [move for move, value in values if value == best]
        answer = context.answer(game, best, best_moves, values)
        chosen = found[[move for move, _ in found].index(best_moves[0])][1]
        if isinstance(chosen, tuple):  # max^n: every player's utility of the first best move
            answer = attrs.evolve(answer, utilities=chosen)
        return answer


@attrs.frozen(kw_only=True)
class StudentParanoid(_Student):
    """Exercise 1: every root move searched with your paranoid_value."""

    name: ClassVar[str] = "student-paranoid"

    def value_after(self, game: Game[Any], player: int, context: SearchContext) -> int | Fraction:
        # the root mover has moved: the first round is under way
        return paranoid_value(game, player, self.rounds - (game.to_move() == player), context)


@attrs.frozen(kw_only=True)
class StudentMaxN(_Student):
    """Exercise 2: every root move searched with your maxn_value."""

    name: ClassVar[str] = "student-maxn"

    def value_after(self, game: Game[Any], player: int, context: SearchContext) -> Utilities:
        return maxn_value(game, player, self.rounds - (game.to_move() == player), context)
