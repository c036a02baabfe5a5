"""OpenSpiel: its Python searchers (``alpha_beta_search``, ``expectiminimax``) over its C++ games.

``expectiminimax`` on a game without chance nodes is plain minimax. OpenSpiel's
searchers keep no statistics, so nodes are counted in a second, untimed run over
a state wrapper whose ``apply_action`` counts. It has no transposition table in
these searchers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from benchmarks import checkers
from benchmarks.core import Contender, Run
from benchmarks.workloads import (
    CONNECT4_DEPTHS,
    CONNECT4_MCTS,
    CONNECT4_SHALLOW_SETS,
    EMPTY_TICTACTOE,
    KALAH_DEPTH,
    KALAH_DEPTHS,
    KALAH_LATE,
    KALAH_LATE_POSITIONS,
    MCTS_SIMULATIONS,
    OTHELLO8_DEPTH,
    OTHELLO_DEPTHS,
    TICTACTOE_ALL,
    TICTACTOE_ALPHABETA,
    TICTACTOE_MINIMAX,
    connect4_test_sets,
    connect4_window_score,
    kalah_heuristic,
    othello_heuristic,
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


#: a row of OpenSpiel's Othello board text read as bits of Black's (``x``) or White's (``o``) discs
BLACK_DIGITS = str.maketrans({"x": "1", "o": "0", "-": "0"})
WHITE_DIGITS = str.maketrans({"x": "0", "o": "1", "-": "0"})


def othello_discs(state: Any) -> tuple[int, int]:
    """Return the bitboards of Black's and White's discs in OpenSpiel's 8x8 Othello ``state``.

    Cell ``i`` (row-major from a1, OpenSpiel's action ``i``) is bit ``i``. The board
    is read from the state's text (a heading, a line of column letters, then eight
    rows ``1 - - - o x - - - 1``), the quickest way out of OpenSpiel.
    """
    lines = str(state).split("\n")
    cells = "".join(line[2:17:2] for line in lines[2:10])[::-1]  # cell 63 first
    return int(cells.translate(BLACK_DIGITS), 2), int(cells.translate(WHITE_DIGITS), 2)


def othello_value(state: Any) -> int:
    """Return the shared Othello heuristic of OpenSpiel's 8x8 ``state`` for Black (player 0)."""
    black, white = othello_discs(state)
    return othello_heuristic(black, white, 8)


def kalah_board(state: Any) -> list[int]:
    """Return OpenSpiel's mancala ``state`` as a board in sowing order, first player's houses first.

    OpenSpiel keeps the second player's store at index 0, the first player's houses
    at 1..6, their store at 7 and the second player's houses at 8..13.
    """
    tensor = state.observation_tensor()
    return [int(seeds) for seeds in tensor[1:14]] + [int(tensor[0])]


def kalah_value(state: Any) -> int:
    """Return the shared Kalah heuristic of OpenSpiel's mancala ``state`` for player 0."""
    return kalah_heuristic(kalah_board(state))


def kalah_state(game: Any, moves: str) -> Any:
    """Return OpenSpiel's mancala state after ``moves`` (houses 1..6 of the side to move)."""
    state = game.new_initial_state()
    for house in moves:
        state.apply_action(int(house) + (7 if state.current_player() else 0))
    return state


def connect4_state(game: Any, moves: str) -> Any:
    """Return OpenSpiel's Connect Four state after ``moves`` (columns 1..7; actions count from
    0)."""
    state = game.new_initial_state()
    for column in moves:
        state.apply_action(int(column) - 1)
    return state


def _contender(
    name: str, search: Callable[[Any, Any], Any], game_name: str, positions: Sequence[str] | None
) -> Contender:
    """Return the contender searching ``positions`` (``None``: the starting position)."""
    import pyspiel

    build = {"tic_tac_toe": tictactoe_state, "mancala": kalah_state}.get(game_name, connect4_state)

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
        evaluator = mcts.RandomRolloutEvaluator(
            n_rollouts=1, random_state=numpy.random.RandomState(1)
        )
        bot = mcts.MCTSBot(
            game,
            uct_c=1.4,
            max_simulations=MCTS_SIMULATIONS,
            evaluator=evaluator,
            solve=True,
            random_state=numpy.random.RandomState(1),
        )
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

    def depth_limited_with(value: Callable[[Any], int], depth: int) -> Callable[[Any, Any], Any]:
        return lambda game, state: minimax.alpha_beta_search(
            game, state=state, value_function=value, maximum_depth=depth
        )

    def solve_to_the_end(game: Any, state: Any) -> Any:
        return minimax.alpha_beta_search(game, state=state, maximum_depth=game.max_game_length())

    othello_depth = OTHELLO_DEPTHS[OTHELLO8_DEPTH][1]
    kalah_depth = KALAH_DEPTHS[KALAH_DEPTH][0]
    new_games = {
        OTHELLO8_DEPTH: _contender(
            f"alpha_beta_search(maximum_depth={othello_depth})",
            depth_limited_with(othello_value, othello_depth),
            "othello",
            None,
        ),
        KALAH_DEPTH: _contender(
            f"alpha_beta_search(maximum_depth={kalah_depth}) on mancala",
            depth_limited_with(kalah_value, kalah_depth),
            "mancala",
            None,
        ),
        KALAH_LATE: _contender(
            "alpha_beta_search(maximum_depth=1000) on mancala",
            solve_to_the_end,
            "mancala",
            [moves for _, moves in KALAH_LATE_POSITIONS],
        ),
    }
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
        **new_games,
        **checkers.openspiel_contenders(_contender),
        TICTACTOE_MINIMAX: _contender("expectiminimax", plain_minimax, "tic_tac_toe", start),
        TICTACTOE_ALPHABETA: _contender("alpha_beta_search", alpha_beta, "tic_tac_toe", start),
        TICTACTOE_ALL: _contender(
            "alpha_beta_search", alpha_beta, "tic_tac_toe", tictactoe_positions()
        ),
    }
