"""OpenSpiel's and easyAI's searchers as players of ``benchmarks strength``.

Each plays on the peer library's own game, built by replaying the position's moves
(the tournament starts every game from the start, so the history is the whole game),
and its move is translated back: OpenSpiel's ``connect_four`` and easyAI's
``ConnectFour`` number the columns from 0, as the framework's moves do; OpenSpiel's
``checkers`` (English draughts too) names squares ``a1`` to ``h8`` on the board turned
round and plays each jump of a chain as an action (:func:`spiel_move` asks for the
jumps one by one). Both rules agree on the moves wherever the games are played
(tests/test_benchmarks_strength.py replays random games in both); the game's end is
the framework's (its draw rule), except where OpenSpiel's checkers calls a game over
first (a draw after 40 moves without a capture, where the framework's rule plays on while
men move): its players cannot search on, so a match against them ends the game there, as
OpenSpiel scores it (:class:`SpielEnd`, the players' adjudicator).

- ``openspiel-mcts``: OpenSpiel's ``MCTSBot`` (UCT with ``uct_c`` 1.4 as this framework's
  MCTS, one random rollout a simulation, its solver on). With ``simulations`` it runs that
  many, as the framework's ``mcts:simulations=N`` (equal simulations); with ``seconds``
  it runs as many as its rate so far says fit in that time (it cannot be stopped half-way:
  the rate is measured on every move this process played, starting from a first
  measured move of 100 simulations).
- ``openspiel-alphabeta``: OpenSpiel's ``alpha_beta_search``, deepened one ply at a time
  within the time (:func:`~benchmarks.peers.players.deepen_within`), the benchmark's
  shared window heuristic at the horizon (the same evaluation in every library,
  :func:`benchmarks.workloads.connect4_window_score`), scaled inside OpenSpiel's returns.
- ``easyai-negamax``: easyAI's ``Negamax``, deepened the same way with the same heuristic.
"""

from __future__ import annotations

import importlib.util
import itertools
from collections.abc import Callable, Hashable, Sequence
from typing import Any, ClassVar

import attrs

from benchmarks.checkers import EVALUATION_BOUND as CHECKERS_BOUND
from benchmarks.checkers import coordinates, openspiel_value
from benchmarks.peers.players import OutsidePlayer, deepen_within, process_seconds
from benchmarks.workloads import CONNECT4_EVAL_LIMIT
from gamesearch.arena import MoveRecord
from gamesearch.game import Game
from gamesearch.rules import Outcome

#: simulations of the first move of ``openspiel-mcts`` under a time budget (to measure its rate)
FIRST_SIMULATIONS = 100
#: simulations a second of ``openspiel-mcts`` measured so far, by game name: (simulations, time)
_MCTS_RATE: dict[str, list[float]] = {}


def _column_move(game: Game[Any], column: int) -> Hashable:
    """Return the legal move of Connect Four ``game`` that drops a stone in ``column`` (from 0).

    :raises RuntimeError: when that column is full (the peer chose an illegal move).
    """
    for move in game.legal_moves():
        if move == column:
            return move  # type: ignore[no-any-return]
    raise RuntimeError(f"the peer chose column {column}, not a legal move in {game.to_text()}")


def square_name(square: int) -> str:
    """Return OpenSpiel's name (``a1`` to ``h8``) of the framework's checkers ``square`` (0-31).

    OpenSpiel draws the board turned round (see :func:`benchmarks.checkers.openspiel_pieces`):
    our row ``r`` and column ``c`` are its rank ``r + 1`` and file ``7 - c``.
    """
    row, col = coordinates(square)
    return f"{'abcdefgh'[7 - col]}{row + 1}"


def _steps(move: Sequence[int]) -> list[str]:
    """Return OpenSpiel's actions, as text, of the framework's checkers ``move`` (a step, or
    a chain of jumps: OpenSpiel plays each jump as an action of its own)."""
    return [square_name(a) + square_name(b) for a, b in itertools.pairwise(move)]


def _spiel_action(state: Any, text: str) -> int:
    """Return the legal action of ``state`` written ``text``.

    :raises RuntimeError: when there is none (the two games' rules differ here).
    """
    for action in state.legal_actions():
        if state.action_to_string(action) == text:
            return int(action)
    raise RuntimeError(f"OpenSpiel's checkers has no move {text!r} in\n{state}")


def _replayed(game: Game[Any]) -> tuple[Any, Any, int]:
    """Return OpenSpiel's game (``connect_four`` or ``checkers``), its state after ``game``'s
    moves, and how many of them it played: fewer than all when OpenSpiel's own rules ended
    the game first (its checkers is a draw after 40 moves without a capture, where the
    framework's rules play on while men move)."""
    import pyspiel

    name = type(game).name
    spiel = pyspiel.load_game("connect_four" if name == "connect4" else "checkers")
    state = spiel.new_initial_state()
    for played, move in enumerate(game.history):
        if state.is_terminal():
            return spiel, state, played
        if name == "connect4":
            state.apply_action(int(move))
            continue
        for step in _steps(move):
            state.apply_action(_spiel_action(state, step))
    return spiel, state, len(game.history)


def spiel_state(game: Game[Any]) -> tuple[Any, Any]:
    """Return OpenSpiel's game (``connect_four`` or ``checkers``) and its state after
    ``game``'s moves.

    :raises RuntimeError: when OpenSpiel's own rules ended the game before (see
        :func:`spiel_end`, which a match against OpenSpiel adjudicates by).
    """
    spiel, state, played = _replayed(game)
    if played < len(game.history):
        raise RuntimeError(
            f"OpenSpiel's {type(game).name} ended the game after {played} plies (returns "
            f"{state.returns()}), where this framework's rules play on: {game.to_text()}"
        )
    return spiel, state


def spiel_end(game: Game[Any]) -> Outcome | None:
    """Return how OpenSpiel's own rules end ``game`` when they end it and the framework's do
    not yet (a draw, in checkers, after 40 moves without a capture), else ``None``."""
    if game.is_over():
        return None
    _, state, _ = _replayed(game)
    if not state.is_terminal():
        return None
    first, second = state.returns()[:2]
    if first == second:
        return Outcome.DRAW
    return Outcome.FIRST_WINS if first > second else Outcome.SECOND_WINS


@attrs.frozen
class SpielEnd:
    """Ends a game from ``start`` where OpenSpiel's own rules end it (:func:`spiel_end`): the
    adjudicator (see :func:`gamesearch.arena.play_game`) of a match against OpenSpiel, whose
    players cannot search a game their library calls over."""

    start: Game[Any]

    def __call__(self, moves: Sequence[MoveRecord]) -> Outcome | None:
        """Return OpenSpiel's end of the game ``moves`` played from :attr:`start`, if any."""
        board = self.start.copy()
        for record in moves:
            board.push(board.parse_move(record.move))
        return spiel_end(board)


def spiel_move(game: Game[Any], state: Any, ask: Callable[[Any], int]) -> Hashable:
    """Return the framework's move that the OpenSpiel player ``ask`` (state -> action) chooses
    in ``state``, OpenSpiel's twin of ``game``: in checkers, a chain of jumps is asked for
    jump by jump until one legal move of ``game`` is left.

    :raises RuntimeError: when the chosen actions are no legal move of ``game``.
    """
    if type(game).name == "connect4":
        return _column_move(game, ask(state))
    chosen: list[str] = []
    while True:
        action = ask(state)
        chosen.append(state.action_to_string(action))
        matching = [m for m in game.legal_moves() if _steps(m)[: len(chosen)] == chosen]
        if len(matching) == 1:
            return matching[0]  # type: ignore[no-any-return]
        if not matching:
            raise RuntimeError(f"OpenSpiel's {chosen} is no legal move in {game.to_text()}")
        state = state.clone()
        state.apply_action(action)


@attrs.frozen(kw_only=True)
class SpielPlayer(OutsidePlayer):
    """Base of OpenSpiel's players: refused where OpenSpiel is not installed."""

    name: ClassVar[str] = "openspiel"
    plays: ClassVar[tuple[str, ...]] = ("connect4", "checkers")
    module: ClassVar[str] = "pyspiel"
    install: ClassVar[str] = "pip install 'gamesearch[bench]'"

    def unmet_needs(self, game: Game[Any]) -> list[str]:
        """Return what keeps the player from ``game``: also, its library missing, or a board
        other than 7 by 6."""
        unmet = super().unmet_needs(game)
        if importlib.util.find_spec(self.module) is None:
            unmet.append(f"{self.module!r} is not installed ({self.install})")
        if type(game).name == "connect4" and game.settings != {"width": 7, "height": 6}:
            unmet.append("it plays the 7 by 6 board only")
        return unmet

    def adjudicator(self, game: Game[Any]) -> SpielEnd | None:
        """Return what ends a game of ``game`` where OpenSpiel's rules end it (checkers:
        :class:`SpielEnd`; Connect Four's rules agree: ``None``)."""
        return SpielEnd(game.copy()) if type(game).name == "checkers" else None


@attrs.frozen(kw_only=True)
class SpielMcts(SpielPlayer):
    """OpenSpiel's MCTSBot (UCT, random rollouts, solver), by simulations or time."""

    name: ClassVar[str] = "openspiel-mcts"

    def choose(self, game: Game[Any]) -> tuple[Hashable, int]:
        """Return MCTSBot's move and its simulations (as the nodes)."""
        import numpy
        from open_spiel.python.algorithms import mcts

        spiel, state = spiel_state(game)
        simulations = self.simulations
        rate = _MCTS_RATE.setdefault(type(game).name, [0.0, 0.0])
        if simulations is None:
            simulations = (
                FIRST_SIMULATIONS
                if rate[1] <= 0
                else max(1, round(rate[0] / rate[1] * self.budget_seconds))
            )
        seeds = numpy.random.RandomState(self.seed)
        bot = mcts.MCTSBot(
            spiel,
            uct_c=1.4,
            max_simulations=simulations,
            evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=seeds),
            solve=True,
            random_state=seeds,
        )
        asked = [0]

        def ask(position: Any) -> int:
            began = process_seconds(self.clock)
            action = int(bot.step(position))
            rate[0] += simulations
            rate[1] += process_seconds(self.clock) - began
            asked[0] += simulations
            return action

        return spiel_move(game, state, ask), asked[0]


def spiel_value(state: Any, player: int) -> float:
    """Return the benchmark's shared heuristic of OpenSpiel's Connect Four or checkers
    ``state`` for ``player``, scaled strictly inside OpenSpiel's returns (-1 to 1)."""
    from benchmarks.peers.openspiel import connect4_value

    if state.get_game().get_type().short_name == "connect_four":
        value = connect4_value(state) / (CONNECT4_EVAL_LIMIT + 1)
    else:
        value = openspiel_value(state) / (CHECKERS_BOUND + 1)
    return value if player == 0 else -value


@attrs.frozen(kw_only=True)
class SpielAlphaBeta(SpielPlayer):
    """OpenSpiel's alpha_beta_search, deepened within the time, the window heuristic."""

    name: ClassVar[str] = "openspiel-alphabeta"

    def choose(self, game: Game[Any]) -> tuple[Hashable, int]:
        """Return the deepest search's move within the time (the depth as the nodes: OpenSpiel
        counts none)."""
        from open_spiel.python.algorithms import minimax

        spiel, state = spiel_state(game)
        deepest = spiel.max_game_length() - game.ply

        def ask(position: Any) -> int:
            player = position.current_player()

            def search(depth: int) -> int:
                _, action = minimax.alpha_beta_search(
                    spiel,
                    state=position,
                    value_function=lambda leaf: spiel_value(leaf, player),
                    maximum_depth=depth,
                    maximizing_player_id=player,
                )
                return int(action)

            return int(deepen_within(self.budget_seconds, self.clock, search, deepest)[0])

        return spiel_move(game, state, ask), 0


@attrs.frozen(kw_only=True)
class EasyNegamax(SpielPlayer):
    """easyAI's Negamax, deepened within the time, the window heuristic."""

    name: ClassVar[str] = "easyai-negamax"
    plays: ClassVar[tuple[str, ...]] = ("connect4",)
    module: ClassVar[str] = "easyAI"

    def choose(self, game: Game[Any]) -> tuple[Hashable, int]:
        """Return the deepest search's move within the time (no nodes: easyAI counts none)."""
        from easyAI import Human_Player, Negamax
        from easyAI.games import ConnectFour

        from benchmarks.peers.easyai import connect4_scoring

        board = ConnectFour([Human_Player(), Human_Player()])
        for move in game.history:
            board.play_move(int(move))

        def search(depth: int) -> int:
            return int(Negamax(depth, scoring=connect4_scoring)(board))

        column, _depth = deepen_within(self.budget_seconds, self.clock, search, 42 - game.ply)
        return _column_move(game, column), 0


BOTS = (SpielMcts, SpielAlphaBeta, EasyNegamax)
