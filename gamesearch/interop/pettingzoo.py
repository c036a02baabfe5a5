"""gamesearch's games as PettingZoo environments, and gamesearch's searchers as their policies.

:func:`env` returns an AEC environment (PettingZoo's agent-environment cycle: one
agent acts at a time) of any registered game that draws its board as a grid::

    from gamesearch.interop.pettingzoo import env, SearcherPolicy

    game = env("connect4")
    game.reset(seed=1)
    engine = SearcherPolicy(game, "alphabeta:depth=4")
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        action = None if termination or truncation else engine.act(observation, info)
        game.step(action)

- **Agents** are ``player_0``, ``player_1``, ... in the game's order of players.
- **Actions** (:mod:`gamesearch.interop.actions`) are the cells of the game's board
  view, row by row from the top left (a click on a cell), then
  :data:`~gamesearch.interop.actions.EXTRA_ACTIONS` slots for the buttons beside the
  board (a pass), in the order the game lists them. Where several cells play the same
  move (every cell of a Connect Four column), the first of them stands for it. Moves
  of two clicks (checkers) are numbered by their first and last cells.
- **Observations** are ``{"observation": array, "action_mask": array}``: the array has
  one plane per player, the observing agent's first (1 where the cell holds that
  player's piece), and a last plane holding the cells that show a number (Kalah's
  seeds); the mask marks the legal actions of the agent to move.
- **Rewards** come at the end only: each player's final utility (+1/0/-1 in a game
  of wins and losses, the margin where results have sizes, as in Kalah).
- **Chance**: the environment draws the chance outcomes itself (from the seed of
  ``reset``), so agents see only positions where a player moves.
- **Infos** carry the position (``"position"``, its text) and the moves played from
  the start (``"moves"``, their text), so a policy can rebuild the exact position.

Needs the ``pettingzoo`` extra (``pip install 'gamesearch[pettingzoo]'``).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from gamesearch import capabilities, rules
from gamesearch.errors import IllegalMoveError, UnsupportedGameError
from gamesearch.game import Game, draw_outcome
from gamesearch.interop.actions import layout_of
from gamesearch.plugins import Registry, default_registry
from gamesearch.rules import CHANCE
from gamesearch.search.base import Searcher

__all__ = ["GameEnv", "RandomPolicy", "SearcherPolicy", "env"]


def env(
    game: str, *, render_mode: str | None = None, registry: Registry | None = None, **options: Any
) -> GameEnv:
    """Return a PettingZoo AEC environment of the registered game named ``game``, made
    with the game's ``options`` (``env("tictactoe", rows=4, cols=4, k=3)``).

    ``render_mode`` may be ``"ansi"`` (:meth:`GameEnv.render` returns the board as text).

    :raises UnknownGameError: for an unregistered game.
    :raises InvalidOptionError: for a bad game option.
    :raises UnsupportedGameError: for a game that draws no grid.
    """
    return GameEnv(game, render_mode=render_mode, registry=registry, **options)


class GameEnv(AECEnv):  # type: ignore[misc]
    """A gamesearch game as a PettingZoo AEC environment (see the module's docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "gamesearch_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        *,
        render_mode: str | None = None,
        registry: Registry | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise UnsupportedGameError(
                f"render mode {render_mode!r} is not offered; expected 'ansi' or none"
            )
        self.render_mode = render_mode
        self.registry = registry if registry is not None else default_registry()
        self.game_name = game
        self.options = dict(options)
        self.metadata = {**GameEnv.metadata, "name": f"gamesearch_{game}_v0"}
        self.game: Game[Any] = self.registry.new_game(game, **options)
        view = capabilities.board_view(self.game)
        self.layout = layout_of(view, game)
        assert view is not None
        self.rows, self.cols = view.rows, view.cols
        players = self.game.rules.players
        self.possible_agents = [f"player_{index}" for index in range(players)]
        self._planes = players + 1
        actions = self.layout.count
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        0.0, np.inf, (self.rows, self.cols, self._planes), np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._player_of = _symbol_owner(self.game, self.registry)
        self._chooser = random.Random()
        self._moves: list[str] = []

    # ----------------------------------------------------------- PettingZoo's API
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """Return the observation space of ``agent`` (the same object every time)."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Return the action space of ``agent``: one action per cell, then the buttons."""
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game from the start position; ``seed`` seeds the chance draws."""
        if seed is not None:
            self._chooser = random.Random(seed)
        self.game = self.registry.new_game(self.game_name, **self.options)
        self._moves = []
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._draw_chance()
        self._update_infos()
        self.agent_selection = self._mover_agent()

    def step(self, action: Any) -> None:
        """Play ``action`` for the agent to move (``None`` once the game is over).

        :raises IllegalMoveError: for an action the mask does not allow.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self.move_of(int(action))
        self._clear_rewards()
        self.game.apply(move)
        self._moves.append(self.game.format_move(move))
        self._draw_chance()
        utilities = rules.final_utilities(self.game)
        if utilities is not None:
            for index, other in enumerate(self.agents):
                self.rewards[other] = float(utilities[index])
                self.terminations[other] = True
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()
        self._update_infos()
        self.agent_selection = self._mover_agent()

    def observe(self, agent: str) -> dict[str, Any]:
        """Return ``agent``'s observation: the board planes and its action mask."""
        index = self.possible_agents.index(agent)
        view = capabilities.board_view(self.game)
        assert view is not None  # (checked when the environment was made)
        planes = np.zeros((self.rows, self.cols, self._planes), np.float32)
        players = len(self.possible_agents)
        for cell, symbol in enumerate(view.symbols):
            row, col = divmod(cell, self.cols)
            owner = self._player_of(symbol)
            if owner is not None:
                planes[row, col, (owner - index) % players] = 1.0
            elif symbol.isdigit():
                planes[row, col, players] = float(symbol)
        mask = np.zeros(self.layout.count, np.int8)
        if self.game.result() is None and self.possible_agents[self.game.to_move()] == agent:
            for action in self.layout.legal(view, self.game_name):
                mask[action] = 1
        return {"observation": planes, "action_mask": mask}

    def render(self) -> str | None:
        """Return the board as text when the render mode is ``"ansi"`` (else nothing)."""
        return capabilities.render(self.game) if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to release."""

    # --------------------------------------------------------------- actions
    def move_of(self, action: int) -> Hashable:
        """Return the game's move that ``action`` plays in the current position.

        :raises IllegalMoveError: for an action that is not legal here.
        """
        view = capabilities.board_view(self.game)
        assert view is not None
        text = self.layout.legal(view, self.game_name).get(action)
        if text is None:
            raise IllegalMoveError(
                f"action {action} is not legal in {self.game.to_text()!r}; legal actions: "
                f"{sorted(self.layout.legal(view, self.game_name))}"
            )
        move: Hashable = self.game.parse_move(text)
        return move

    def action_of(self, move: Hashable) -> int:
        """Return the action that plays the legal ``move`` in the current position.

        :raises IllegalMoveError: for a move no action plays.
        """
        view = capabilities.board_view(self.game)
        assert view is not None
        text = self.game.format_move(move)
        for action, action_text in self.layout.legal(view, self.game_name).items():
            if action_text == text:
                return action
        raise IllegalMoveError(f"move {text!r} is no action in {self.game.to_text()!r}")

    # ---------------------------------------------------------------- helpers
    def _draw_chance(self) -> None:
        game = self.game
        while game.result() is None and game.to_move() == CHANCE:
            outcome = draw_outcome(game, self._chooser)
            game.apply(outcome)
            self._moves.append(game.format_move(outcome))

    def _mover_agent(self) -> str:
        """Return the agent to move; once the game is over, the next agent still listed
        (each steps once with ``None``, as PettingZoo asks)."""
        if self.game.result() is None:
            return self.possible_agents[self.game.to_move()]
        current = getattr(self, "agent_selection", None)
        if current in self.agents:
            return self.agents[(self.agents.index(current) + 1) % len(self.agents)]
        return self.agents[0] if self.agents else self.possible_agents[0]

    def _update_infos(self) -> None:
        info = {"position": self.game.to_text(), "moves": tuple(self._moves)}
        self.infos = {agent: dict(info) for agent in self.agents}


def _symbol_owner(game: Game[Any], registry: Registry) -> Any:
    """Return a function from a board-view symbol to the player whose piece it is (or
    ``None``), by the rule the game's board look declares (see :class:`BoardLook`)."""
    look = registry.board_look(type(game).name)
    names = [name.lower() for name in capabilities.player_names(game)]

    def owner(symbol: str) -> int | None:
        if not symbol or symbol.isdigit():
            return None
        if look.player_of == "case":
            return 0 if symbol.isupper() else 1
        lowered = symbol.lower()
        for index, name in enumerate(names):
            if name == lowered or name.startswith(lowered[:1]):
                return index
        return None

    return owner


# -------------------------------------------------------------------- policies
class SearcherPolicy:
    """A gamesearch searcher as a policy of a :class:`GameEnv`: :meth:`act` rebuilds the
    position from the info's moves and returns the action of the searcher's move."""

    def __init__(self, environment: GameEnv, searcher: str | Searcher) -> None:
        self.environment = environment
        self.searcher = (
            environment.registry.new_searcher(searcher) if isinstance(searcher, str) else searcher
        )

    def act(self, observation: Any, info: dict[str, Any]) -> int:
        """Return the action the searcher chooses in the position ``info`` names.

        :raises UnsupportedGameError: when the searcher cannot search the game.
        """
        environment = self.environment
        game = environment.registry.new_game(environment.game_name, **environment.options)
        for text in info["moves"]:
            game.play(text)
        move = self.searcher.search(game).move
        view = capabilities.board_view(game)
        assert view is not None and move is not None
        text = game.format_move(move)
        return next(
            action
            for action, name in environment.layout.legal(view, environment.game_name).items()
            if name == text
        )


class RandomPolicy:
    """A policy that plays a legal action chosen at random (from ``seed``)."""

    def __init__(self, seed: int | None = None) -> None:
        self.chooser = random.Random(seed)

    def act(self, observation: Any, info: dict[str, Any]) -> int:
        """Return one of the actions ``observation``'s mask allows, at random."""
        legal = [int(action) for action in np.flatnonzero(observation["action_mask"])]
        return self.chooser.choice(legal)
