"""Best-reply search: between two moves of the root mover, one opponent replies.

As in paranoid search the root mover maximises its utility and the opponents minimise
it, but all the opponents' moves are tried at one level: the one reply worst for the
root mover is played, the other opponents pass (the game's null move; Schadd &
Winands, "Best reply search for multiplayer games", *IEEE TCIAIG* 3, 2011).
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from gamesearch.capabilities import null_move
from gamesearch.game import Game
from gamesearch.search.base import SearchContext
from gamesearch.search.reference.paranoid import ReferenceParanoid
from gamesearch.search.reference.utilities import utility_leaf


def brs(
    game: Game[Any], depth: float, alpha: Any, beta: Any, player: int, context: SearchContext
) -> tuple[Any, ...]:
    """Return the utilities that decide ``player``'s best-reply value of ``game`` in the
    window ``(alpha, beta)`` (fail-soft, on ``player``'s utility)."""
    context.count_node(game)
    leaf = utility_leaf(game, depth, context)
    if leaf is not None:
        return leaf
    players, first = game.rules.players, game.to_move()
    maximizing, best = first == player, None
    # the root mover moves itself; else every opponent in turn order, from the one to move
    movers = [player] if maximizing else [(first + step) % players for step in range(players)]
    for mover in (mover for mover in movers if maximizing or mover != player):
        passes = pass_to(game, mover)
        for move in game.legal_moves():
            game.push(move)
            passed = 0 if maximizing or game.result() is not None else pass_to(game, player)
            utilities = brs(game, depth - 1, alpha, beta, player, context)
            take_back(game, passed)
            game.undo()
            value = utilities[player]
            if best is None or (value > best[player] if maximizing else value < best[player]):
                best = utilities
            alpha, beta = (max(alpha, value), beta) if maximizing else (alpha, min(beta, value))
            if alpha >= beta:
                break
        take_back(game, passes)
        if alpha >= beta:
            context.count_cutoff()
            break
    assert best is not None
    return best


def pass_to(game: Game[Any], player: int) -> int:
    """Pass the turn (the game's null move) until ``player`` moves; return the passes."""
    passes, (make_null_move, _) = 0, null_move(game)  # type: ignore[misc]  # (BRS needs one)
    while game.to_move() != player and passes < game.rules.players:
        make_null_move()
        passes += 1
    return passes


def take_back(game: Game[Any], passes: int) -> None:
    """Take back ``passes`` passes."""
    for _ in range(passes):
        null_move(game)[1]()  # type: ignore[index]


@attrs.frozen(kw_only=True)
class ReferenceBestReply(ReferenceParanoid):
    """Best-reply search (the reference twin of ``brs``)."""

    name: ClassVar[str] = "reference-brs"
    value_after: ClassVar[Any] = staticmethod(brs)


REFERENCE = ReferenceBestReply
