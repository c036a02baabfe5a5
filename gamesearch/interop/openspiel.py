"""gamesearch's games as OpenSpiel games, so OpenSpiel's algorithms run on them.

:func:`load_game` returns a ``pyspiel.Game`` of any registered game that draws its
board as a grid (tic-tac-toe, Connect Four, Othello, Kalah, checkers, ...), and
:func:`register` makes ``pyspiel.load_game("gamesearch_<name>")`` find it::

    import pyspiel
    from gamesearch.interop.openspiel import load_game

    game = load_game("connect4")
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)

- **Actions** are those of the PettingZoo bridge (:mod:`gamesearch.interop.actions`):
  the cells of the board view row by row (or, for moves of two clicks, as checkers'
  are, their first and last cells), then slots for the buttons beside the board;
  an action's text is the move's, in the game's own notation.
- **Players** are the game's; **returns** are the final utilities at the end (+1/0/-1,
  or the margin where results have sizes), 0 for everyone before it.
- **Parameters** are the game's options with a default that is a number, a switch or
  text (``load_game("tictactoe", rows=4, cols=4, k=3)``).
- ``undo_action`` takes the last move back with the game's own undo.

Needs the ``openspiel`` extra (``pip install 'gamesearch[openspiel]'``).
"""

from __future__ import annotations

import ctypes
import functools
from typing import Any

import pyspiel

from gamesearch import capabilities, rules
from gamesearch.errors import IllegalMoveError, UnsupportedGameError
from gamesearch.game import Game
from gamesearch.interop.actions import layout_of
from gamesearch.plugins import Registry, default_registry
from gamesearch.rules import CHANCE

__all__ = ["PREFIX", "GamesearchGame", "GamesearchState", "load_game", "register", "short_name"]

#: what OpenSpiel's names of gamesearch's games start with
PREFIX = "gamesearch_"
#: every creator handed to OpenSpiel's registry, kept here too: the registry lets go
#: of its creators only as the process exits, after the interpreter has stopped, and a
#: creator freed then (its last reference being the registry's) crashes the exit
_CREATORS: list[Any] = []
#: the option types OpenSpiel's parameters can carry
_PARAMETER_TYPES = (bool, int, float, str)


def short_name(game: str) -> str:
    """Return OpenSpiel's name of the gamesearch game ``game``: ``gamesearch_<game>``."""
    return PREFIX + game


def _parameters(game_class: type[Game[Any]]) -> dict[str, Any]:
    """Return the game's options OpenSpiel can carry, with their defaults."""
    return {
        option.name: option.default
        for option in game_class.options
        if isinstance(option.default, _PARAMETER_TYPES)
    }


def _game_type(game_class: type[Game[Any]], players: int) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name(game_class.name),
        long_name=f"gamesearch {game_class.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification=_parameters(game_class),
    )


def register(game: str, *, registry: Registry | None = None) -> str:
    """Register the gamesearch game ``game`` with OpenSpiel (once); return its OpenSpiel name.

    :raises UnknownGameError: for an unregistered game.
    :raises UnsupportedGameError: for a game OpenSpiel cannot be handed (see :func:`load_game`).
    """
    registry = registry if registry is not None else default_registry()
    name = short_name(game)
    if name not in pyspiel.registered_names():
        start = registry.new_game(game)
        _check(start, game)
        creator = functools.partial(GamesearchGame, game, registry)
        _CREATORS.append(creator)
        # and never freed: the list itself goes as the interpreter shuts down, which left
        # the registry's reference the last one when OpenSpiel's own games were loaded too
        # (the openspiel plugin), and the exit crashed
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(creator))
        pyspiel.register_game(_game_type(type(start), start.rules.players), creator)
    return name


def load_game(game: str, *, registry: Registry | None = None, **options: Any) -> pyspiel.Game:
    """Return the gamesearch game ``game``, made with ``options``, as a ``pyspiel.Game``.

    :raises UnknownGameError: for an unregistered game.
    :raises InvalidOptionError: for a bad option.
    :raises UnsupportedGameError: for a game of chance, of more than two players or of
        utilities, or one that draws no grid.
    """
    return pyspiel.load_game(register(game, registry=registry), options)


def _check(start: Game[Any], name: str) -> None:
    """Refuse what the bridge cannot express.

    :raises UnsupportedGameError: naming the game and the reason.
    """
    rules = start.rules
    if rules.chance:
        raise UnsupportedGameError(
            f"game {name!r} has chance; the OpenSpiel bridge exports games without it"
        )
    if rules.players != 2 or rules.utilities:
        raise UnsupportedGameError(
            f"game {name!r} is not a two-player zero-sum game; the OpenSpiel bridge exports "
            "only those"
        )
    layout_of(capabilities.board_view(start), name)


class GamesearchGame(pyspiel.Game):  # type: ignore[misc]
    """A gamesearch game as an OpenSpiel game (made by :func:`load_game`)."""

    def __init__(self, game: str, registry: Registry, params: dict[str, Any] | None = None) -> None:
        self.game_name, self.registry = game, registry
        self.options = dict(params or {})
        start = registry.new_game(game, **self.options)
        _check(start, game)
        self.layout = layout_of(capabilities.board_view(start), game)
        low, high = start.rules.result_range
        info = pyspiel.GameInfo(
            num_distinct_actions=self.layout.count,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=0.0,
            max_game_length=start.rules.max_plies,
        )
        super().__init__(_game_type(type(start), 2), info, params or {})

    def new_initial_state(self) -> GamesearchState:
        """Return the start position as an OpenSpiel state."""
        return GamesearchState(self, self.registry.new_game(self.game_name, **self.options))


class GamesearchState(pyspiel.State):  # type: ignore[misc]
    """One position of a gamesearch game as an OpenSpiel state."""

    def __init__(self, game: GamesearchGame, position: Game[Any]) -> None:
        super().__init__(game)
        self.position = position
        self.layout, self.game_name = game.layout, game.game_name

    def _actions(self) -> dict[int, str]:
        view = capabilities.board_view(self.position)
        assert view is not None  # (checked when the game was made)
        return self.layout.legal(view, self.game_name)

    def current_player(self) -> int:
        """Return the player to move, or OpenSpiel's mark of a finished game."""
        if self.position.result() is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        mover = self.position.to_move()
        assert mover != CHANCE  # (games of chance are refused)
        return mover

    def _legal_actions(self, player: int) -> list[int]:
        """Return the legal actions, in ascending order."""
        return sorted(self._actions())

    def _apply_action(self, action: int) -> None:
        text = self._actions().get(action)
        if text is None:
            raise IllegalMoveError(
                f"action {action} is not legal in {self.position.to_text()!r}; legal "
                f"actions: {sorted(self._actions())}"
            )
        self.position.apply(self.position.parse_move(text))

    def undo_action(self, player: int, action: int) -> None:
        """Take the last move back."""
        self.position.undo()

    def _action_to_string(self, player: int, action: int) -> str:
        text = self._actions().get(action)
        return text if text is not None else f"action {action}"

    def is_terminal(self) -> bool:
        """Return whether the game is over."""
        return self.position.result() is not None

    def returns(self) -> list[float]:
        """Return each player's final utility (0 for both before the end)."""
        utilities = rules.final_utilities(self.position)
        return [0.0, 0.0] if utilities is None else [float(value) for value in utilities]

    def __str__(self) -> str:
        return self.position.to_text()
