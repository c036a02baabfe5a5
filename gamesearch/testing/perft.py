"""Perft: count the leaves of the legal-move tree, a check of any game's move generation.

``perft(game, depth)`` is the number of move sequences of exactly ``depth`` plies that
can be played from the position (a game that ends sooner adds nothing). Published
figures exist for many games (chess, checkers, Othello), so a plugin that reproduces
them generates exactly the legal moves, no more and no fewer; ``divide=True`` gives the
count below each first move, which finds the move where two generators part::

    from gamesearch.testing import perft

    assert perft("checkers", 6) == 36_768
    perft("checkers", 2, divide=True)  # {"9-13": 7, "9-14": 7, ...}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, overload

from gamesearch import capabilities
from gamesearch.errors import InvalidOptionError
from gamesearch.game import Game
from gamesearch.testing.positions import GameLike, start_position


@overload
def perft(
    game: GameLike,
    depth: int,
    *,
    divide: Literal[False] = False,
    options: Mapping[str, Any] | None = None,
    on_move: Callable[[str, int], None] | None = None,
) -> int: ...


@overload
def perft(
    game: GameLike,
    depth: int,
    *,
    divide: Literal[True],
    options: Mapping[str, Any] | None = None,
    on_move: Callable[[str, int], None] | None = None,
) -> dict[str, int]: ...


def perft(
    game: GameLike,
    depth: int,
    *,
    divide: bool = False,
    options: Mapping[str, Any] | None = None,
    on_move: Callable[[str, int], None] | None = None,
) -> int | dict[str, int]:
    """Return the number of leaves ``depth`` plies below ``game``, or with ``divide`` the
    count below each legal move (by move text, in the order of ``legal_moves()``).

    ``game`` is a position (left as it was), a game class or a registered name
    (started with ``options``). ``perft(game, 0)`` is 1: the position itself. A finished
    game has no moves, so it counts only at depth 0. ``on_move(text, count)`` is called
    after each first move is counted (a progress report for long counts).

    :raises InvalidOptionError: for a negative depth, or a depth of 0 with ``divide``.
    :raises UnknownGameError: for a name no plugin registered.
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise InvalidOptionError(f"perft depth must be a whole number >= 0: {depth!r}")
    if divide and depth == 0:
        raise InvalidOptionError("perft divide needs a depth >= 1: 0 plies have no first move")
    position = start_position(game, options)
    if depth == 0:
        return 1
    counts: dict[str, int] = {}
    for move in list(position.legal_moves()):
        position.push(move)
        try:
            count = _leaves(position, depth - 1)
        finally:
            capabilities.retractor(position)(move)
        text = position.format_move(move)
        counts[text] = count
        if on_move is not None:
            on_move(text, count)
    return counts if divide else sum(counts.values())


# Hot loop: bound methods in locals; the last ply is counted without being played.
def _leaves(game: Game[Any], depth: int) -> int:
    """Return the leaves ``depth`` plies below ``game`` (``depth`` >= 0)."""
    if depth == 0:
        return 1
    moves = game.legal_moves()
    if depth == 1:
        return len(moves)
    push, retract = game.push, capabilities.retractor(game)
    total = 0
    for move in moves:
        push(move)
        total += _leaves(game, depth - 1)
        retract(move)
    return total
