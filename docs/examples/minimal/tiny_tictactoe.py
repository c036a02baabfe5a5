"""Tic-tac-toe as the smallest complete gamesearch plugin: the eight core members only.

Every searcher, the command line, the web board and the conformance kit work on it;
text notation is the framework's default (the moves from the start, e.g. ``"4 0 8"``).
Register it with a plugin manager, or put ``tiny = "tiny_tictactoe"`` in the
``[project.entry-points.gamesearch]`` table of your package.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamesearch import Game, Player, Rules, hookimpl

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class TinyTicTacToe(Game[int]):
    """Tic-tac-toe on a list of nine cells: 0 empty, 1 for X, -1 for O."""

    name = "tiny-tictactoe"
    player_names = ("X", "O")
    rules = Rules(max_plies=9, alternating=True)  # results +1/0/-1 (the default range)

    def __init__(self, **options: Any) -> None:
        self.cells = [0] * 9

    def to_move(self) -> Player:
        return Player.SECOND if len(self._history) % 2 else Player.FIRST  # X moves first

    def legal_moves(self) -> Sequence[int]:
        if self.result() is not None:
            return ()
        return [cell for cell in range(9) if not self.cells[cell]]

    def make_move(self, move: int) -> None:
        # push() has already put the move in the history: an odd length means X moved
        self.cells[move] = 1 if len(self._history) % 2 else -1

    def unmake_move(self, move: int) -> None:
        self.cells[move] = 0

    def result(self) -> int | None:
        cells = self.cells
        for a, b, c in LINES:
            if cells[a] and cells[a] == cells[b] == cells[c]:
                return cells[a]  # +1: X won, -1: O won
        return None if 0 in cells else 0

    def key(self) -> tuple[int, ...]:
        return tuple(self.cells)


@hookimpl
def gamesearch_register_games(registry: Any) -> None:
    """Register the tiny tic-tac-toe."""
    registry.add_game(TinyTicTacToe)
