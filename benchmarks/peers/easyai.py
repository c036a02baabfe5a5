"""easyAI: ``Negamax`` (alpha-beta negamax), with and without its ``TranspositionTable``.

The games are easyAI's own (``easyAI.games``), as a user would take them; the
tic-tac-toe one is given the ``ttentry`` its table needs. easyAI keeps no
statistics, so nodes are counted in a second, untimed run through a game whose
``make_move`` counts. It has no plain (unpruned) minimax.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.core import Contender, Run
from benchmarks.workloads import (
    CONNECT4_DEPTHS,
    CONNECT4_WIN,
    EMPTY_TICTACTOE,
    TICTACTOE_ALL,
    TICTACTOE_ALPHABETA,
    TICTACTOE_TABLE,
    connect4_window_score,
    tictactoe_positions,
)

LIBRARY = "easyAI"
REQUIRES = "easyAI"
#: easyAI's players are 1 and 2; the board holds the player number, 0 when empty
PLAYER_NUMBERS = {".": 0, "X": 1, "O": 2}


def _game_class(base: Any, counting: bool) -> Any:
    """Return easyAI's game ``base`` with a table key (and a move counter when asked)."""

    class BenchGame(base):  # type: ignore[misc]
        moves_made = 0

        def ttentry(self) -> Any:
            return (tuple(self.board), self.current_player)

        if counting:

            def make_move(self, move: Any) -> None:
                BenchGame.moves_made += 1
                super().make_move(move)

    return BenchGame


def connect4_scoring(game: Any) -> float:
    """Return the shared window heuristic of easyAI's Connect Four ``game`` for the side to move.

    A finished game scores on the framework's scale (a win at ply p: 1000 - p).
    """
    board = game.board
    if game.lose():
        return int((board > 0).sum()) - CONNECT4_WIN
    if board.min() > 0:
        return 0
    cells = "".join(".XO"[stone] for stone in board.T.flat)  # column by column from the bottom
    value = connect4_window_score(cells)
    return value if game.current_player == 1 else -value


def tictactoe_game(game_class: Any, cells: str) -> Any:
    """Return an easyAI tic-tac-toe game at the 9-character position ``cells``."""
    from easyAI import Human_Player

    game = game_class([Human_Player(), Human_Player()])
    game.board = [PLAYER_NUMBERS[cell] for cell in cells]
    game.current_player = 1 if cells.count("X") == cells.count("O") else 2
    return game


def _contender(
    name: str,
    make_ai: Callable[[Any], Callable[[Any], Any]],
    build: Callable[[bool], Sequence[Any]],
) -> Contender:
    def games(counting: bool) -> list[Any]:
        return [game for game in build(counting) if not game.is_over()]

    def search_all(todo: list[Any]) -> None:
        for game in todo:
            make_ai(game)(game)

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
    from easyAI import Human_Player, Negamax
    from easyAI.AI import TranspositionTable
    from easyAI.games import ConnectFour, TicTacToe

    def tictactoe(positions: Sequence[str]) -> Callable[[bool], list[Any]]:
        def build(counting: bool) -> list[Any]:
            game_class = _game_class(TicTacToe, counting)  # one class: one move counter
            return [tictactoe_game(game_class, cells) for cells in positions]

        return build

    def connect4(counting: bool) -> list[Any]:
        return [_game_class(ConnectFour, counting)([Human_Player(), Human_Player()])]

    def full(game: Any) -> Any:
        return Negamax(game.board.count(0))  # depth: every empty cell, a full search

    def full_with_table(game: Any) -> Any:
        return Negamax(game.board.count(0), tt=TranspositionTable())

    start = tictactoe([EMPTY_TICTACTOE])
    found = {
        TICTACTOE_ALPHABETA: _contender("Negamax(9)", full, start),
        TICTACTOE_TABLE: _contender("Negamax(9, tt=TranspositionTable())", full_with_table, start),
        TICTACTOE_ALL: _contender("Negamax(empty cells)", full, tictactoe(tictactoe_positions())),
    }

    def depth_limited(depth: int) -> Callable[[Any], Any]:
        return lambda game: Negamax(depth, scoring=connect4_scoring)

    for row, depth in CONNECT4_DEPTHS.items():
        found[row] = _contender(
            f"Negamax({depth}, window heuristic)", depth_limited(depth), connect4
        )
    return found
