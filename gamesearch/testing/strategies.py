"""Hypothesis strategies: random move sequences and positions of any registered game.

::

    from hypothesis import given
    from gamesearch.testing.strategies import positions

    @given(positions("tictactoe"))
    def test_apply_then_undo_restores_the_position(game): ...

Moves are drawn as indices into ``legal_moves()``, so hypothesis shrinks a failing
example towards shorter games and earlier moves. Needs hypothesis (the ``test`` extra).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from hypothesis import strategies as st

from gamesearch.game import Game
from gamesearch.plugins import Registry, default_registry
from gamesearch.testing.positions import GameLike, start_position


def game_names(registry: Registry | None = None) -> st.SearchStrategy[str]:
    """Return a strategy for the name of a registered game (the default registry if none)."""
    names = sorted((registry or default_registry()).games)
    return st.sampled_from(names)


def _play(
    draw: Any, game: Game[Any], min_plies: int, max_plies: int | None, unfinished: bool = False
) -> list[Hashable]:
    """Play a drawn number of drawn legal moves on ``game``; return them.

    With ``unfinished``, stop before a move that would end the game.
    """
    longest = game.rules.max_plies - game.ply if max_plies is None else max_plies
    length = draw(st.integers(min_value=min(min_plies, longest), max_value=longest))
    played: list[Hashable] = []
    for _ in range(length):
        moves = game.legal_moves()
        if not moves:
            break
        move = moves[draw(st.integers(min_value=0, max_value=len(moves) - 1))]
        game.push(move)
        if unfinished and game.is_over():
            game.undo()
            break
        played.append(move)
    return played


@st.composite
def move_sequences(
    draw: Any,
    game: GameLike,
    *,
    options: Mapping[str, Any] | None = None,
    min_plies: int = 0,
    max_plies: int | None = None,
    registry: Registry | None = None,
) -> tuple[Hashable, ...]:
    """Return a strategy for legal move sequences from the start of ``game``.

    ``game`` is a registered name, a game class (started with ``options``) or a
    position. A sequence is at least ``min_plies`` long unless the game ends first,
    and at most ``max_plies`` (default: until the game could end). A name is looked
    up in ``registry`` (default: the installed plugins' games).
    """
    return tuple(_play(draw, start_position(game, options, registry), min_plies, max_plies))


@st.composite
def positions(
    draw: Any,
    game: GameLike,
    *,
    options: Mapping[str, Any] | None = None,
    min_plies: int = 0,
    max_plies: int | None = None,
    unfinished: bool = False,
    registry: Registry | None = None,
) -> Game[Any]:
    """Return a strategy for positions reached by legal play from the start of ``game``.

    Arguments as for :func:`move_sequences`; the position keeps its move history.
    With ``unfinished``, play stops before a move that would end the game, so the
    position is one to search (random play ends many games early).
    """
    position = start_position(game, options, registry)
    _play(draw, position, min_plies, max_plies, unfinished)
    return position
