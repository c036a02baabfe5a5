"""OpenSpiel: its Python searchers (``alpha_beta_search``, ``expectiminimax``) over its C++ games.

``expectiminimax`` on a game without chance nodes is plain minimax. OpenSpiel's
searchers keep no statistics, so nodes are counted in a second, untimed run over
a state wrapper whose ``apply_action`` counts. It has no transposition table in
these searchers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.core import Contender, Run
from benchmarks.workloads import (
    CONNECT4_DEPTHS,
    CONNECT4_MCTS,
    CONNECT4_SHALLOW_SETS,
    EMPTY_TICTACTOE,
    MCTS_SIMULATIONS,
    TICTACTOE_ALL,
    TICTACTOE_ALPHABETA,
    TICTACTOE_MINIMAX,
    connect4_test_sets,
    connect4_window_score,
    tictactoe_move_order,
    tictactoe_positions,
)

LIBRARY = "OpenSpiel"
REQUIRES = "pyspiel"


class CountingState:
    """A pyspiel state that counts the actions applied to it and to its clones."""

    def __init__(self, state: Any, counter: list[int]) -> None:
        self._state = state
        self._counter = counter

    def clone(self) -> CountingState:
        return CountingState(self._state.clone(), self._counter)

    def apply_action(self, action: int) -> None:
        self._counter[0] += 1
        self._state.apply_action(action)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)

    def __str__(self) -> str:
        return str(self._state)


def tictactoe_state(game: Any, cells: str) -> Any:
    """Return OpenSpiel's tic-tac-toe state at ``cells`` (actions are cell indices)."""
    state = game.new_initial_state()
    for cell in tictactoe_move_order(cells):
        state.apply_action(cell)
    return state


def connect4_value(state: Any) -> int:
    """Return the shared window heuristic of OpenSpiel's Connect Four ``state`` for player 0."""
    rows = str(state).split()  # top row first; x moved first
    return connect4_window_score(
        "".join(rows[5 - row][col] for col in range(7) for row in range(6)).upper()
    )


def connect4_state(game: Any, moves: str) -> Any:
    """Return OpenSpiel's Connect Four state after ``moves`` (columns 1..7; actions count from 0)."""
    state = game.new_initial_state()
    for column in moves:
        state.apply_action(int(column) - 1)
    return state


def _contender(
    name: str, search: Callable[[Any, Any], Any], game_name: str, positions: Sequence[str] | None
) -> Contender:
    """Return the contender searching ``positions`` (``None``: the starting position)."""
    import pyspiel

    build = tictactoe_state if game_name == "tic_tac_toe" else connect4_state

    def states() -> tuple[Any, list[Any]]:
        game = pyspiel.load_game(game_name)
        if positions is None:
            return game, [game.new_initial_state()]
        built = (build(game, text) for text in positions)
        return game, [state for state in built if not state.is_terminal()]

    def prepare() -> Run:
        game, todo = states()

        def run() -> None:
            for state in todo:
                search(game, state)

        return run

    def count_nodes() -> int:
        game, todo = states()
        counter = [0]
        for state in todo:
            search(game, CountingState(state, counter))
        return counter[0] + len(todo)  # + the roots

    return Contender(LIBRARY, name, prepare, count_nodes)


def _mcts_contender() -> Contender:
    """Return ``MCTSBot`` (UCT, one random rollout per simulation, solver on) on Connect Four."""
    import numpy
    import pyspiel
    from open_spiel.python.algorithms import mcts

    def prepare() -> Run:
        game = pyspiel.load_game("connect_four")
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=numpy.random.RandomState(1))
        bot = mcts.MCTSBot(
            game, uct_c=1.4, max_simulations=MCTS_SIMULATIONS, evaluator=evaluator,
            solve=True, random_state=numpy.random.RandomState(1),
        )  # fmt: skip
        state = game.new_initial_state()

        def run() -> int:
            bot.step(state)
            return MCTS_SIMULATIONS  # the empty board is never solved within the budget

        return run

    return Contender(LIBRARY, f"MCTSBot(max_simulations={MCTS_SIMULATIONS})", prepare)


def contenders() -> dict[str, Contender]:
    """Return OpenSpiel's contender for each row it can run."""
    from open_spiel.python.algorithms import minimax

    def alpha_beta(game: Any, state: Any) -> Any:
        return minimax.alpha_beta_search(game, state=state, maximum_depth=9)

    def plain_minimax(game: Any, state: Any) -> Any:
        return minimax.expectiminimax(state, 9, None, state.current_player())

    def solve(game: Any, state: Any) -> Any:
        return minimax.alpha_beta_search(game, state=state, maximum_depth=42)

    def depth_limited(depth: int) -> Callable[[Any, Any], Any]:
        return lambda game, state: minimax.alpha_beta_search(
            game, state=state, value_function=connect4_value, maximum_depth=depth
        )

    start = [EMPTY_TICTACTOE]
    connect4: dict[str, Contender] = {
        row: _contender(
            f"alpha_beta_search(maximum_depth={depth})", depth_limited(depth), "connect_four", None
        )
        for row, depth in CONNECT4_DEPTHS.items()
    }
    connect4[CONNECT4_MCTS] = _mcts_contender()
    for row, positions in connect4_test_sets()[0].items():
        if row not in CONNECT4_SHALLOW_SETS:
            continue  # without a table: 19 s for the first 10 of Test_L2_R1
        connect4[row] = _contender(
            "alpha_beta_search(maximum_depth=42)", solve, "connect_four", positions
        )
    return {
        **connect4,
        TICTACTOE_MINIMAX: _contender("expectiminimax", plain_minimax, "tic_tac_toe", start),
        TICTACTOE_ALPHABETA: _contender("alpha_beta_search", alpha_beta, "tic_tac_toe", start),
        TICTACTOE_ALL: _contender(
            "alpha_beta_search", alpha_beta, "tic_tac_toe", tictactoe_positions()
        ),
    }
