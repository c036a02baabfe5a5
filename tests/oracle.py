"""An independent test oracle: memoised minimax over a small game's position graph."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gamesearch import Game, Player, Scoring
from gamesearch.rules import proven_value


def solve_all(game: Game[int], scoring: Scoring = Scoring.DISTANCE) -> dict[object, int]:
    """Return the exact value of every position reachable from ``game``, by key."""
    values: dict[object, int] = {}

    def value(position: Game[int]) -> int:
        key = position.key()
        if key in values:
            return values[key]
        if position.is_over():
            result = proven_value(position, scoring)
        else:
            children = []
            for move in position.legal_moves():
                position.push(move)
                children.append(value(position))
                position.undo()
            result = max(children) if position.to_move() == Player.FIRST else min(children)
        values[key] = result
        return result

    value(game)
    return values


def best_moves(position: Game[int], values: dict[object, int]) -> tuple[int, ...]:
    """Return the exact set of optimal moves of ``position`` in legal-move order."""
    children: list[tuple[int, int]] = []
    for move in position.legal_moves():
        position.push(move)
        children.append((move, values[position.key()]))
        position.undo()
    pick: Callable[..., int] = max if position.to_move() == Player.FIRST else min
    best = pick(value for _, value in children)
    return tuple(move for move, value in children if value == best)


#: tic-tac-toe's own scoring is distance (``Scoring.GAME`` resolves to it), so a walk of
#: every position with ``Scoring.GAME`` repeats the walk with ``Scoring.DISTANCE`` search
#: for search: it checks the resolution on one position in this many
GAME_SCORING_STEP = 16


def walked_with(scoring: Scoring, positions: Sequence[Game[int]]) -> Sequence[Game[int]]:
    """Return the tic-tac-toe ``positions`` a walk of every position checks with ``scoring``:
    every one, but one in ``GAME_SCORING_STEP`` with the game's own scoring (see there)."""
    if scoring is not Scoring.GAME:
        return positions
    assert all(position.rules.scale.resolve(scoring) is Scoring.DISTANCE for position in positions)
    return positions[::GAME_SCORING_STEP]
