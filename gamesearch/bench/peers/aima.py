"""aima-python (the ``aima3`` package): ``minimax_decision`` and ``alphabeta_search``.

Its games are immutable states (a dict board per position) and its searchers
return only the move, so nodes are counted in a second, untimed run through a
game whose ``result`` counts. aima has no transposition table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from gamesearch.bench.core import Contender, Run
from gamesearch.bench.workloads import (
    EMPTY_TICTACTOE,
    TICTACTOE_ALL,
    TICTACTOE_ALPHABETA,
    TICTACTOE_MINIMAX,
    tictactoe_positions,
    tictactoe_winner,
)

LIBRARY = "aima-python"
REQUIRES = "aima3"


def tictactoe_state(game: Any, cells: str) -> Any:
    """Return aima's state of a 9-character position (x = column from 1, y = row from the bottom)."""
    from aima3.games import GameState

    board = {
        (index % 3 + 1, 3 - index // 3): cell for index, cell in enumerate(cells) if cell != "."
    }
    winner = tictactoe_winner(cells)
    utility = 0 if winner is None else (1 if winner == "X" else -1)
    to_move = "X" if cells.count("X") == cells.count("O") else "O"
    moves = [move for move in game.initial.moves if move not in board]
    return GameState(to_move=to_move, utility=utility, board=board, moves=moves)


def _counting_game(base: type) -> Any:
    """Return an instance of a subclass of aima's ``base`` game that counts ``result`` calls."""

    class Counting(base):  # type: ignore[misc]
        calls = 0

        def result(self, state: Any, move: Any) -> Any:
            Counting.calls += 1
            return super().result(state, move)

    return Counting()


def _contender(search: Callable[[Any, Any], Any], name: str, positions: Sequence[str]) -> Contender:
    from aima3.games import TicTacToe

    def states(game: Any) -> list[Any]:
        built = (tictactoe_state(game, cells) for cells in positions)
        return [state for state in built if not game.terminal_test(state)]

    def prepare() -> Run:
        game = TicTacToe()
        todo = states(game)

        def run() -> None:
            for state in todo:
                search(state, game)

        return run

    def count_nodes() -> int:
        game = _counting_game(TicTacToe)
        todo = states(game)
        for state in todo:
            search(state, game)
        return int(game.calls) + len(todo)  # + the roots

    return Contender(LIBRARY, name, prepare, count_nodes)


def contenders() -> dict[str, Contender]:
    """Return aima-python's contender for each row it can run."""
    from aima3.games import alphabeta_search, minimax_decision

    start = [EMPTY_TICTACTOE]
    return {
        TICTACTOE_MINIMAX: _contender(minimax_decision, "minimax_decision", start),
        TICTACTOE_ALPHABETA: _contender(alphabeta_search, "alphabeta_search", start),
        TICTACTOE_ALL: _contender(alphabeta_search, "alphabeta_search", tictactoe_positions()),
    }
