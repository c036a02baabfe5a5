"""aima-python (the ``aima3`` package): ``minimax_decision`` and ``alphabeta_search``.

Its games are immutable states (a dict board per position) and its searchers
return only the move, so nodes are counted in a second, untimed run through a
game whose ``result`` counts. aima has no transposition table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.core import Contender, Run
from benchmarks.workloads import (
    CONNECT4_DEPTHS,
    CONNECT4_SHALLOW_SETS,
    CONNECT4_WIN,
    EMPTY_TICTACTOE,
    TICTACTOE_ALL,
    TICTACTOE_ALPHABETA,
    TICTACTOE_MINIMAX,
    connect4_test_sets,
    connect4_window_score,
    tictactoe_positions,
    tictactoe_winner,
)

LIBRARY = "aima-python"
REQUIRES = "aima3"


def tictactoe_state(game: Any, cells: str) -> Any:
    """Return aima's state of a 9-character position (x = column from 1, y = row from the
    bottom)."""
    from aima3.games import GameState

    board = {
        (index % 3 + 1, 3 - index // 3): cell for index, cell in enumerate(cells) if cell != "."
    }
    winner = tictactoe_winner(cells)
    utility = 0 if winner is None else (1 if winner == "X" else -1)
    to_move = "X" if cells.count("X") == cells.count("O") else "O"
    moves = [move for move in game.initial.moves if move not in board]
    return GameState(to_move=to_move, utility=utility, board=board, moves=moves)


def _counting_game(base: Any) -> Any:
    """Return an instance of a subclass of aima's ``base`` game that counts ``result`` calls."""

    class Counting(base):  # type: ignore[misc]
        calls = 0

        def result(self, state: Any, move: Any) -> Any:
            Counting.calls += 1
            return super().result(state, move)

    return Counting()


def connect4_evaluation(state: Any) -> int:
    """Return the shared window heuristic of aima's Connect Four ``state`` for X.

    A finished game scores on the framework's scale (a win at ply p: 1000 - p).
    """
    board = state.board
    if state.utility:
        return int(state.utility) * (CONNECT4_WIN - len(board))
    if not state.moves:
        return 0
    return connect4_window_score(
        "".join(board.get((col, row), ".") for col in range(1, 8) for row in range(1, 7))
    )


def _contender(
    search: Callable[[Any, Any], Any],
    name: str,
    game_class: Callable[[], Any],
    states: Callable[[Any], Sequence[Any]],
) -> Contender:
    def unfinished(game: Any) -> list[Any]:
        return [state for state in states(game) if not game.terminal_test(state)]

    def prepare() -> Run:
        game = game_class()
        todo = unfinished(game)

        def run() -> None:
            for state in todo:
                search(state, game)

        return run

    def count_nodes() -> int:
        game = _counting_game(game_class)
        todo = unfinished(game)
        for state in todo:
            search(state, game)
        return int(game.calls) + len(todo)  # + the roots

    return Contender(LIBRARY, name, prepare, count_nodes)


def contenders() -> dict[str, Contender]:
    """Return aima-python's contender for each row it can run."""
    from aima3.games import (
        ConnectFour,
        TicTacToe,
        alphabeta_cutoff_search,
        alphabeta_search,
        minimax_decision,
    )

    def tictactoe(positions: Sequence[str]) -> Callable[[Any], list[Any]]:
        return lambda game: [tictactoe_state(game, cells) for cells in positions]

    def start(game: Any) -> list[Any]:
        return [game.initial]

    def cutoff(depth: int) -> Callable[[Any, Any], Any]:
        # aima evaluates the positions deeper than d below the root's children: d = depth - 1
        return lambda state, game: alphabeta_cutoff_search(
            state, game, d=depth - 1, eval_fn=connect4_evaluation
        )

    found = {
        TICTACTOE_MINIMAX: _contender(
            minimax_decision, "minimax_decision", TicTacToe, tictactoe([EMPTY_TICTACTOE])
        ),
        TICTACTOE_ALPHABETA: _contender(
            alphabeta_search, "alphabeta_search", TicTacToe, tictactoe([EMPTY_TICTACTOE])
        ),
        TICTACTOE_ALL: _contender(
            alphabeta_search, "alphabeta_search", TicTacToe, tictactoe(tictactoe_positions())
        ),
    }
    for row, depth in CONNECT4_DEPTHS.items():
        found[row] = _contender(
            cutoff(depth), f"alphabeta_cutoff_search(d={depth - 1})", ConnectFour, start
        )
    for row, positions in connect4_test_sets()[0].items():
        if row not in CONNECT4_SHALLOW_SETS:
            continue  # plain alpha-beta on dict boards needs minutes there
        found[row] = _contender(
            alphabeta_search, "alphabeta_search", ConnectFour, connect4_states(positions)
        )
    return found


def connect4_states(positions: Sequence[str]) -> Callable[[Any], list[Any]]:
    """Return a builder of aima's Connect Four states after each move sequence (columns 1..7)."""

    def build(game: Any) -> list[Any]:
        states = []
        for moves in positions:
            state = game.initial
            for column in moves:
                col = int(column)
                height = sum(1 for x, _ in state.board if x == col)
                state = game.result(state, (col, height + 1))
            states.append(state)
        return states

    return build
