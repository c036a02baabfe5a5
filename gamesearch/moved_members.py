"""The defaults of the capability members :class:`~gamesearch.game.Game` once carried, kept
for one release: reading such a member on a game that does not define it answers what it used
to, with a :class:`DeprecationWarning` naming the function of :mod:`gamesearch.capabilities` to
call instead."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from gamesearch.capabilities import (
    MEMBERS,
    advance_results,
    advancer,
    board_view,
    default_searcher,
    forcing_test,
    heuristic,
    heuristic_bound,
    move_order,
    move_results,
    noisy_moves,
    non_losing_moves,
    outcomes_of,
    player_names,
    position_files,
    render,
    retractor,
    winning_moves,
)


def no_null_move(game: Any) -> Callable[[], None]:
    """Return a null move that raises :class:`NotImplementedError`: what ``make_null_move``
    answered on a game without one."""

    def refuse() -> None:
        raise NotImplementedError(f"{type(game).__name__} offers no null move")

    return refuse


#: what ``game.<member>`` answered when ``Game`` had a default (a callable or a value)
_DEFAULTS: dict[str, Callable[[Any], Any]] = {
    "evaluate": heuristic,
    "evaluation_bound": heuristic_bound,
    "ordered_moves": move_order,
    "noisy_moves": noisy_moves,
    "is_forcing": forcing_test,
    "make_null_move": no_null_move,
    "unmake_null_move": no_null_move,
    "winning_moves": winning_moves,
    "non_losing_moves": non_losing_moves,
    "chance_outcomes": outcomes_of,
    "advance": advancer,
    "retract": retractor,
    "move_results": move_results,
    "advance_results": advance_results,
    "render": lambda game: lambda: render(game),
    "board_view": lambda game: lambda: board_view(game),
    "player_names": player_names,
    "default_searcher": default_searcher,
    "position_files": position_files,
}
#: for each capability member :class:`~gamesearch.game.Game` once carried: the function
#: of this module to call instead
REPLACEMENTS: dict[str, str] = {
    "evaluate": "heuristic(game)()",
    "evaluation_bound": "heuristic_bound(game)",
    "ordered_moves": "move_order(game)()",
    "noisy_moves": "noisy_moves(game)()",
    "is_forcing": "forcing_test(game)(move)",
    "make_null_move": "null_move(game)",
    "unmake_null_move": "null_move(game)",
    "winning_moves": "winning_moves(game)()",
    "non_losing_moves": "non_losing_moves(game)()",
    "advance": "advancer(game)",
    "retract": "retractor(game)",
    "move_results": "move_results(game)()",
    "advance_results": "advance_results(game)",
    "chance_outcomes": "chance_outcomes(game)",
    "render": "render(game)",
    "board_view": "board_view(game)",
    "player_names": "player_names(game)",
    "default_searcher": "default_searcher(game)",
    "position_files": "position_files(game)",
}


def moved_member(game: Any, member: str) -> Any:
    """Return the default of a capability member ``Game`` once carried, with a
    :class:`DeprecationWarning` naming the function to call instead.

    :raises AttributeError: when ``member`` is no such member.
    """
    if member not in REPLACEMENTS:
        raise AttributeError(f"{type(game).__name__!r} object has no attribute {member!r}")
    owner = next(capability for capability, names in MEMBERS.items() if member in names)
    warnings.warn(
        f"Game.{member} has moved to the {owner.__name__} capability: call "
        f"gamesearch.capabilities.{REPLACEMENTS[member]} (a game that offers it defines "
        f"{member} itself); the default on Game goes in the next release",
        DeprecationWarning,
        stacklevel=3,
    )
    return _DEFAULTS[member](game)
