"""Coursework skeleton: write minimax, alpha-beta and alpha-beta to a depth yourself, then
prove them with the kit.

Fill in the four functions marked EXERCISE, then grade each exercise (from the folder
this file is in)::

    gamesearch grade my_searcher.py:StudentMinimax --suite grading/minimax.toml
    gamesearch grade my_searcher.py:StudentSearcher --suite grading/alphabeta.toml
    gamesearch grade my_searcher.py:StudentDepthLimited --suite grading/depth-limited.toml
    gamesearch grade my_searcher.py:StudentEvaluated --suite grading/evaluation.toml

and run the checks, which compare your searcher with the reference in every
reachable position of tic-tac-toe, of a small Kalah and of the textbook's trees::

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
  ``game.undo()`` takes it back. Leave the position as you found it;
- ``evaluation(game)`` (below, given) estimates a position that is not finished, from
  the first player's point of view like every value.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, ClassVar

import attrs

from gamesearch import Game, Player, Scoring, Searcher
from gamesearch.search.base import INFINITY, Counters, RootAnswer, SearchContext, heuristic


def evaluation(game: Game[Any]) -> int:
    """Return the game's estimate of ``game``, a position that is not finished: positive
    when it looks good for the first player, whoever is to move, and always between the
    values of a lost and of a won game. Given: do not change it (the grader's reference
    scores its horizon with the same estimate)."""
    return heuristic(game)()


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


def depth_limited_value(
    game: Game[Any],
    depth: float,
    alpha: int,
    beta: int,
    scoring: Scoring,
    counters: Counters,
    evaluate: Callable[[Game[Any]], int] = evaluation,
) -> int:
    """EXERCISE 3: return the value of ``game`` as exercise 2 does, looking ``depth`` moves
    ahead only.

    A finished game is scored as in exercise 2, whatever the depth left. A position
    that is not finished, reached with no depth left (``depth == 0``), is worth
    ``evaluate(game)`` (the game's ``evaluation`` unless you are given another: exercise
    4 gives yours), not searched further. Any other position searches each of its moves
    with one less depth (``depth - 1``) and the same ``evaluate``, pruning as in exercise
    2. Count nodes as in exercise 1.
    """
    counters.nodes += 1
    raise NotImplementedError("exercise 3: write depth_limited_value in my_searcher.py")


def my_evaluation(game: Game[Any]) -> int:
    """EXERCISE 4: return your own estimate of ``game``, a Connect Four position that is
    not finished, for the depth-limited search of exercise 3 (``StudentEvaluated``).

    Like every value, it is from the first player's (X's) point of view, whoever is to
    move: positive when X looks better off, negative when O does. It must be an ``int``
    strictly between ``-game.evaluation_bound`` and ``game.evaluation_bound`` (the
    values of a lost and of a won game lie beyond), give a position and its mirror image
    (the columns in reverse order) the same value, and leave ``game`` as it found it.
    ``game.cell(col, row)`` is ``"X"``, ``"O"`` or ``"."`` (row 0 at the bottom), and
    ``game.settings`` the board's size (``{"width": 5, "height": 4}``).
    """
    raise NotImplementedError("exercise 4: write my_evaluation in my_searcher.py")


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

    def child_value(self, game: Game[Any], alpha: int, beta: int, counters: Counters) -> int:
        """Return the value of ``game``, a root move's position, with your function."""
        if self.pruning:
            return alphabeta_value(game, alpha, beta, self.scoring, counters)
        return minimax_value(game, self.scoring, counters)

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        context.count_node(game)  # the root
        counters = context.counters
        first, shared = game.to_move() == Player.FIRST, self.root_window == "shared"
        alpha, beta = -INFINITY, INFINITY
        values = []
        for move in game.legal_moves():
            game.push(move)
            try:
                value = self.child_value(game, alpha, beta, counters)
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


@attrs.frozen(kw_only=True)
class StudentDepthLimited(StudentSearcher):
    """Exercise 3: your searcher with depth_limited_value, ``depth`` moves deep (the
    whole game without a depth)."""

    name: ClassVar[str] = "student-depth-limited"

    def child_value(self, game: Game[Any], alpha: int, beta: int, counters: Counters) -> int:
        """Return the value of ``game``, a root move's position, with depth_limited_value
        (the root's move spent one move of the depth)."""
        depth = math.inf if self.depth is None else self.depth
        return depth_limited_value(game, depth - 1, alpha, beta, self.scoring, counters)


@attrs.frozen(kw_only=True)
class StudentEvaluated(StudentDepthLimited):
    """Exercise 4: your depth_limited_value, ``depth`` moves deep, with your my_evaluation
    at its horizon."""

    name: ClassVar[str] = "student-evaluated"

    def child_value(self, game: Game[Any], alpha: int, beta: int, counters: Counters) -> int:
        """Return the value of ``game``, a root move's position, with depth_limited_value
        and my_evaluation."""
        depth = math.inf if self.depth is None else self.depth
        return depth_limited_value(
            game, depth - 1, alpha, beta, self.scoring, counters, evaluate=my_evaluation
        )
