"""Coursework skeleton: write minimax and alpha-beta yourself, then prove them with the kit.

Fill in the two functions marked EXERCISE, then grade each exercise (from the folder
this file is in)::

    gamesearch grade my_searcher.py:StudentMinimax --suite grading/minimax.toml
    gamesearch grade my_searcher.py:StudentSearcher --suite grading/alphabeta.toml

and run the checks, which compare your searcher with the reference in every
reachable position of tic-tac-toe and of a small Nim::

    pytest docs/coursework/check_my_searcher.py

The searcher classes at the bottom are done for you: each searches every move of the
root position with your function and reports the best ones, so the grader and the kit
can compare your values and best moves with the reference in every position.

Rules of the game API you need (see the Game reference):

- ``game.is_over()`` tells whether the game has ended; then
  ``proven_value(game, scoring)`` (from ``gamesearch.rules``) is its value: positive
  when the first player won, negative when the second won, 0 for a draw;
- ``game.to_move()`` is ``Player.FIRST`` (who maximises) or ``Player.SECOND`` (who
  minimises);
- ``game.legal_moves()`` lists the moves; ``game.push(move)`` plays one and
  ``game.undo()`` takes it back. Leave the position as you found it.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from gamesearch import Game, Player, Scoring, Searcher
from gamesearch.search.base import INFINITY, Counters, RootAnswer, SearchContext


def minimax_value(game: Game[Any], scoring: Scoring, counters: Counters) -> int:
    """EXERCISE 1: return the minimax value of ``game``, searched to the end.

    Count every position you enter, this one included, with ``counters.nodes += 1``.
    """
    counters.nodes += 1
    raise NotImplementedError("exercise 1: write minimax_value in my_searcher.py")


def alphabeta_value(
    game: Game[Any], alpha: int, beta: int, scoring: Scoring, counters: Counters
) -> int:
    """EXERCISE 2: return the value of ``game`` as minimax would, skipping what cannot matter.

    ``alpha`` is what the first player is already sure of, ``beta`` what the second
    player is already sure of. Try the moves in ``legal_moves()`` order and stop
    trying the moves of a position as soon as ``alpha >= beta``. Count nodes as in
    exercise 1.
    """
    counters.nodes += 1
    raise NotImplementedError("exercise 2: write alphabeta_value in my_searcher.py")


@attrs.frozen(kw_only=True)
class StudentSearcher(Searcher):
    """Your searcher: each root move is searched with your function, with a full window
    or (``root_window="shared"``) the window the moves before it leave."""

    name: ClassVar[str] = "student"
    pruning: bool = attrs.field(
        default=True,
        metadata={"help": "use alphabeta_value (exercise 2), not minimax_value (exercise 1)"},
    )
    root_window: str = attrs.field(
        default="fresh",
        validator=attrs.validators.in_(("fresh", "shared")),
        metadata={
            "help": "fresh: a full window for each root move; shared: each root move narrows "
            "the window for the next, as AIMA's alpha-beta search does"
        },
    )

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        context.count_node(game)  # the root
        counters = context.counters
        first, shared = game.to_move() == Player.FIRST, self.root_window == "shared"
        alpha, beta = -INFINITY, INFINITY
        values = []
        for move in game.legal_moves():
            game.push(move)
            try:
                if self.pruning:
                    value = alphabeta_value(game, alpha, beta, self.scoring, counters)
                else:
                    value = minimax_value(game, self.scoring, counters)
            finally:
                game.undo()
            values.append((move, value))
            if shared and first:
                alpha = max(alpha, value)
            elif shared:
                beta = min(beta, value)
        sign = 1 if first else -1
        best = sign * max(sign * value for _, value in values)
        best_moves = [move for move, value in values if value == best]
        exact = not (shared and self.pruning)  # a shared window gives later moves bounds
        return context.answer(
            game,
            best,
            best_moves[:1] if not exact else best_moves,
            values,
            best_moves_complete=exact,
            move_values_exact=exact,
        )


@attrs.frozen(kw_only=True)
class StudentMinimax(StudentSearcher):
    """Exercise 1: your searcher with minimax_value."""

    name: ClassVar[str] = "student-minimax"
    pruning: bool = attrs.field(
        default=False,
        metadata={"help": "use alphabeta_value (exercise 2), not minimax_value (exercise 1)"},
    )
