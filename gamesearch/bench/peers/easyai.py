"""easyAI: ``Negamax`` (alpha-beta negamax), with and without its ``TranspositionTable``.

The games are easyAI's own (``easyAI.games``), as a user would take them; the
tic-tac-toe one is given the ``ttentry`` its table needs. easyAI keeps no
statistics, so nodes are counted in a second, untimed run through a game whose
``make_move`` counts. It has no plain (unpruned) minimax.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from gamesearch.bench.core import Contender, Run
from gamesearch.bench.workloads import (
    EMPTY_TICTACTOE,
    TICTACTOE_ALL,
    TICTACTOE_ALPHABETA,
    TICTACTOE_TABLE,
    tictactoe_positions,
)

LIBRARY = "easyAI"
REQUIRES = "easyAI"
#: easyAI's players are 1 and 2; the board holds the player number, 0 when empty
PLAYER_NUMBERS = {".": 0, "X": 1, "O": 2}


def _tictactoe_class(counting: bool) -> type:
    from easyAI.games import TicTacToe

    class BenchTicTacToe(TicTacToe):  # type: ignore[misc]
        """easyAI's tic-tac-toe, with a table key (and a move counter when asked)."""

        moves_made = 0

        def ttentry(self) -> tuple[int, ...]:
            return (*self.board, self.current_player)

        if counting:

            def make_move(self, move: Any) -> None:
                BenchTicTacToe.moves_made += 1
                super().make_move(move)

    return BenchTicTacToe


def tictactoe_game(game_class: type, cells: str) -> Any:
    """Return an easyAI tic-tac-toe game at the 9-character position ``cells``."""
    from easyAI import Human_Player

    game = game_class([Human_Player(), Human_Player()])
    game.board = [PLAYER_NUMBERS[cell] for cell in cells]
    game.current_player = 1 if cells.count("X") == cells.count("O") else 2
    return game


def _contender(
    name: str, make_ai: Callable[[int], Callable[[Any], Any]], positions: Sequence[str]
) -> Contender:
    def games(counting: bool) -> list[Any]:
        game_class = _tictactoe_class(counting)
        built = (tictactoe_game(game_class, cells) for cells in positions)
        return [game for game in built if not game.is_over()]

    def search_all(todo: list[Any]) -> None:
        for game in todo:
            make_ai(game.board.count(0))(game)  # depth: every empty cell, a full search

    def prepare() -> Run:
        todo = games(False)
        return lambda: search_all(todo)

    def count_nodes() -> int:
        todo = games(True)
        search_all(todo)
        return int(type(todo[0]).moves_made) + len(todo) if todo else 0

    return Contender(LIBRARY, name, prepare, count_nodes)


def contenders() -> dict[str, Contender]:
    """Return easyAI's contender for each row it can run."""
    from easyAI import Negamax
    from easyAI.AI import TranspositionTable

    start = [EMPTY_TICTACTOE]
    return {
        TICTACTOE_ALPHABETA: _contender("Negamax(9)", Negamax, start),
        TICTACTOE_TABLE: _contender(
            "Negamax(9, tt=TranspositionTable())",
            lambda depth: Negamax(depth, tt=TranspositionTable()),
            start,
        ),
        TICTACTOE_ALL: _contender("Negamax(empty cells)", Negamax, tictactoe_positions()),
    }
