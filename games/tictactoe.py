"""Tic-tac-toe and its m,n,k generalisation (k in a row on an m-by-n board).

Positions are text, one character a cell, row by row: ``X``, ``O`` or ``.``; rows
may be separated by ``/`` (``"X.O/.X./..O"``). Moves are cell indices counted
row-major from 0 (0..8 on the 3x3 board). X moves first and is the first player.

:class:`PlainTicTacToe` is the game as its rules say it, on a list of cells. The game
registered as ``tictactoe`` is :class:`TicTacToe`: the same game with the bitboards of
:mod:`.tictactoe_fast` in front (its speed, move order, heuristic, engine hints and fast
moves); ``tests/test_tictactoe_fast.py`` checks that the two agree everywhere.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from gamesearch.errors import InvalidOptionError
from gamesearch.game import Option, resolve_options
from gamesearch.looks import BoardLook
from gamesearch.plugins import hookimpl
from gamesearch.rules import Player, Rules

from .grid import CROSS, EMPTY, NOUGHT, CellGrid, split_rows
from .tictactoe_fast import Bitboards


def winning_lines(rows: int, cols: int, k: int) -> list[tuple[int, ...]]:
    """Return the cells of every row, column and diagonal of ``k`` cells on the board."""
    lines = []
    for row in range(rows):
        for col in range(cols):
            for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if 0 <= row + d_row * (k - 1) < rows and 0 <= col + d_col * (k - 1) < cols:
                    lines.append(
                        tuple((row + d_row * i) * cols + col + d_col * i for i in range(k))
                    )
    return lines


def has_line(cells: Sequence[str], mark: str, lines: Iterable[tuple[int, ...]]) -> bool:
    """Return whether ``mark`` fills one of ``lines`` of ``cells``."""
    return any(all(cells[cell] == mark for cell in line) for line in lines)


class PlainTicTacToe(CellGrid):
    """Tic-tac-toe on a list of cells, ``rows`` x ``cols``, ``k`` in a row wins (3,3,3 by
    default)."""

    name = "tictactoe"
    player_names = ("X", "O")
    options = (
        Option("rows", int, 3, "board rows", minimum=1, maximum=20),
        Option("cols", int, 3, "board columns", minimum=1, maximum=20),
        Option("k", int, 3, "marks in a row that win", minimum=1, maximum=20),
    )

    def __init__(self, rows: int = 3, cols: int = 3, k: int = 3) -> None:
        settings = resolve_options(self.options, {"rows": rows, "cols": cols, "k": k})
        longest = max(settings["rows"], settings["cols"])
        if settings["k"] > longest:
            raise InvalidOptionError(f"option 'k' must fit on the board (at most {longest}): {k!r}")
        self._new_board(settings["rows"], settings["cols"], settings["k"])

    def _new_board(self, rows: int, cols: int, k: int) -> None:
        self.rows, self.cols, self.k = rows, cols, k
        self.lines = winning_lines(rows, cols, k)
        self.board = [EMPTY] * (rows * cols)

    @property
    def rules(self) -> Rules:
        return Rules(max_plies=self.rows * self.cols, alternating=True)

    @property
    def ply(self) -> int:
        return sum(mark != EMPTY for mark in self.board)  # also of a position read from text

    def to_move(self) -> Player:
        return Player.FIRST if self.ply % 2 == 0 else Player.SECOND

    def legal_moves(self) -> Sequence[int]:
        if self.result() is not None:
            return ()
        return tuple(cell for cell, mark in enumerate(self.board) if mark == EMPTY)

    def make_move(self, move: int) -> None:
        self.board[move] = CROSS if self.to_move() == Player.FIRST else NOUGHT

    def unmake_move(self, move: int) -> None:
        self.board[move] = EMPTY

    def result(self) -> int | None:
        if has_line(self.board, CROSS, self.lines):
            return 1
        if has_line(self.board, NOUGHT, self.lines):
            return -1
        return None if EMPTY in self.board else 0

    def key(self) -> Hashable:
        return "".join(self.board)

    def cell(self, index: int) -> str:
        """Return ``"X"``, ``"O"`` or ``"."`` for a cell index."""
        return self.board[index]

    def _rows(self) -> list[str]:
        return split_rows("".join(self.board), self.cols)

    def _set_cells(self, cells: str) -> None:
        self.board = list(cells)

    def _winners(self, cells: str) -> tuple[bool, bool]:
        return has_line(cells, CROSS, self.lines), has_line(cells, NOUGHT, self.lines)


class TicTacToe(Bitboards, PlainTicTacToe):
    """Tic-tac-toe on a ``rows`` x ``cols`` board, ``k`` in a row wins (3,3,3 by default):
    the plain game on bitboards (see :mod:`.tictactoe_fast`)."""

    name = "tictactoe"


@hookimpl
def gamesearch_register_games(registry: Any) -> None:
    """Register tic-tac-toe (the m,n,k-game)."""
    registry.add_game(TicTacToe)


@hookimpl
def gamesearch_register_board_looks(registry: Any) -> None:
    """Draw X and O as marks; k in a row (the option ``k``, 3 by default) wins."""
    registry.add_board_look(
        TicTacToe.name, BoardLook(kind="marks", win_length=3, win_length_option="k")
    )
