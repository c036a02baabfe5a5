"""Hex: connect your two sides of a rhombus of hexagons before the other player connects theirs.

The board is ``size`` x ``size`` hexagonal cells in a rhombus. Black moves first and
joins the top row to the bottom row; White joins the left column to the right column.
Each move puts a stone of the mover's colour on an empty cell. A cell at row ``r`` and
column ``c`` touches six others: ``(r, c-1)``, ``(r, c+1)``, ``(r-1, c)``, ``(r+1, c)``,
``(r-1, c+1)`` and ``(r+1, c-1)``. The game cannot end in a draw: a full board always
holds exactly one winning chain (Gale's theorem), so the result is +1 (Black wins) or
-1 (White wins). By Nash's strategy-stealing argument the first player wins every
board with best play.

With the ``swap`` option (the pie rule), White's first move may be ``swap``: White
takes Black's first stone as its own, reflected across the long diagonal (the stone on
``(r, c)`` becomes White's on ``(c, r)``), and Black moves next. A first move that wins
is then taken, so Black must choose one that is neither too strong nor too weak.

Moves are cells, written as the column's letter and the row's number from the top left
(``a1``, ``b3``), or the cell's index counted row-major from 0; ``swap`` is the pie move.
Positions are text, one character a cell, row by row: ``B``, ``W`` or ``.``, rows
separated by ``/`` (``"B../.W./..."``), then `` swapped`` when White took the first stone;
whose turn it is follows from the counts (Black moves when both have as many stones, or
after a swap when White has one more).

Each side's stones are one integer bitboard; a move's win is found by growing the
mover's chain from its starting side across its stones (a few shifts of the bitboard).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from gamesearch.boardview import BoardView
from gamesearch.errors import InvalidMoveError, InvalidPositionError
from gamesearch.game import Game, Option, resolve_options
from gamesearch.looks import BoardLook
from gamesearch.plugins import hookimpl
from gamesearch.rules import Player, Rules

EMPTY, BLACK, WHITE = ".", "B", "W"
#: the pie move: White takes Black's first stone
SWAP = -1
SWAP_TEXT = "swap"
#: what follows the board in the text of a position after the swap
SWAPPED = "swapped"
LETTERS = "abcdefghijklmnopqrstuvwxyz"


class _Geometry:
    """Everything that depends only on the board size: masks of the sides, the order of
    moves, the neighbours' shifts."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.cells = size * size
        self.full = (1 << self.cells) - 1
        rows = [sum(1 << (row * size + col) for col in range(size)) for row in range(size)]
        cols = [sum(1 << (row * size + col) for row in range(size)) for col in range(size)]
        self.top, self.bottom = rows[0], rows[-1]
        self.left, self.right = cols[0], cols[-1]
        self.not_left, self.not_right = self.full & ~cols[0], self.full & ~cols[-1]
        centre = (size - 1) / 2
        # the centre first: the short diagonal's cells are the strongest
        self.order = tuple(
            sorted(
                range(self.cells),
                key=lambda cell: (
                    abs(cell // size - centre) + abs(cell % size - centre),
                    abs(cell // size + cell % size - 2 * centre),
                    cell,
                ),
            )
        )

    def spread(self, stones: int) -> int:
        """Return ``stones`` and every cell next to one of them."""
        size = self.size
        grown = stones | stones << size | stones >> size
        grown |= (stones << 1 | stones >> (size - 1)) & self.not_left  # (r, c+1), (r-1, c+1)
        grown |= (stones >> 1 | stones << (size - 1)) & self.not_right  # (r, c-1), (r+1, c-1)
        return grown & self.full

    def joins(self, stones: int, start: int, end: int) -> bool:
        """Return whether ``stones`` hold a chain from side ``start`` to side ``end``."""
        reached = stones & start
        while reached:
            if reached & end:
                return True
            grown = self.spread(reached) & stones
            if grown == reached:
                return False
            reached = grown
        return False

    def mirror(self, cell: int) -> int:
        """Return the cell reflected across the long diagonal: ``(r, c)`` to ``(c, r)``."""
        row, col = divmod(cell, self.size)
        return col * self.size + row


@functools.lru_cache(maxsize=16)
def _geometry(size: int) -> _Geometry:
    return _Geometry(size)


class Hex(Game[int]):
    """Hex on a ``size`` x ``size`` rhombus: Black joins top and bottom, White left and right."""

    name = "hex"
    player_names = ("Black", "White")
    options = (
        Option("size", int, 3, "cells on each side of the board", minimum=1, maximum=11),
        Option("swap", bool, False, "the pie rule: White's first move may take Black's stone"),
    )

    def __init__(self, size: int = 3, swap: bool = False) -> None:
        settings = resolve_options(self.options, {"size": size, "swap": swap})
        self.size: int = settings["size"]
        self.swap: bool = settings["swap"]
        self._geometry = _geometry(self.size)
        self._stones = [0, 0]  # Black's, White's
        self._swapped = False
        self._winners: list[int | None] = [None]  # the result after each move

    @classmethod
    def new(cls, **options: Any) -> Hex:
        """Return the empty board of these options.

        :raises InvalidOptionError: for an unknown option or a bad value.
        """
        return cls(**resolve_options(cls.options, options))

    @classmethod
    def from_text(cls, text: str, **options: Any) -> Hex:
        """Return the position written as ``text`` (rows of ``B``, ``W`` and ``.``, joined
        by ``/``); without a ``size`` option the number of rows gives it.

        :raises InvalidPositionError: for a board of the wrong size, another symbol, or
            stone counts that no game reaches.
        """
        board, _, marker = text.strip().partition(" ")
        if marker.strip() not in ("", SWAPPED):
            raise InvalidPositionError(
                f"position {text!r} ends in {marker.strip()!r}; only {SWAPPED!r} may follow "
                "the board"
            )
        rows = board.split("/")
        if "size" not in options:
            options = {**options, "size": len(rows)}
        game = cls.new(**options)
        size = game.size
        if len(rows) != size or any(len(row) != size for row in rows):
            raise InvalidPositionError(
                f"position {text!r} is not {size} rows of {size} cells joined by '/'"
            )
        stones = [0, 0]
        for index, symbol in enumerate("".join(rows).upper()):
            if symbol in (BLACK, WHITE):
                stones[symbol == WHITE] |= 1 << index
            elif symbol != EMPTY:
                raise InvalidPositionError(
                    f"position {text!r} has {symbol!r} at cell {index}; use 'B', 'W' or '.'"
                )
        black, white = (board.bit_count() for board in stones)
        swapped = bool(marker.strip())
        if swapped and not game.swap:
            raise InvalidPositionError(f"position {text!r} is swapped; give the option swap=true")
        if (white - black if swapped else black - white) not in (0, 1) or (swapped and not white):
            more = "White has as many as Black or one more" if swapped else "Black has as many "
            more += "" if swapped else "as White or one more"
            raise InvalidPositionError(
                f"position {text!r} has {black} black and {white} white stones: {more}"
            )
        geometry = game._geometry
        won = [geometry.joins(stones[0], geometry.top, geometry.bottom)]
        won.append(geometry.joins(stones[1], geometry.left, geometry.right))
        if all(won):
            raise InvalidPositionError(f"position {text!r} has both sides joined")
        game._stones, game._swapped = stones, swapped
        game._winners = [1 if won[0] else -1 if won[1] else None]
        return game

    @property
    def rules(self) -> Rules:
        return _rules(self.size, self.swap)

    @property
    def settings(self) -> dict[str, Any]:
        return {"size": self.size, "swap": self.swap}

    @property
    def ply(self) -> int:
        return self._stones[0].bit_count() + self._stones[1].bit_count() + self._swapped

    def to_move(self) -> Player:
        return Player.FIRST if self.ply % 2 == 0 else Player.SECOND

    def legal_moves(self) -> Sequence[int]:
        return self._moves(tuple(range(self._geometry.cells)))

    def ordered_moves(self) -> Sequence[int]:
        """Return the legal moves, the cells nearest the centre first."""
        return self._moves(self._geometry.order)

    def _moves(self, cells: Sequence[int]) -> Sequence[int]:
        if self._winners[-1] is not None:
            return ()
        taken = self._stones[0] | self._stones[1]
        moves = [cell for cell in cells if not taken >> cell & 1]
        if self.swap and self.ply == 1:
            moves.append(SWAP)
        return moves

    def result(self) -> int | None:
        return self._winners[-1]

    def key(self) -> int:
        cells = self._geometry.cells
        return self._stones[0] | self._stones[1] << cells | self._swapped << 2 * cells

    def make_move(self, move: int) -> None:
        geometry = self._geometry
        if move == SWAP:
            (cell,) = (index for index in range(geometry.cells) if self._stones[0] >> index & 1)
            self._stones = [0, 1 << geometry.mirror(cell)]
            self._swapped = True
            self._winners.append(None)
            return
        player = self.ply % 2
        stones = self._stones[player] | 1 << move
        self._stones[player] = stones
        if player == 0:
            won = geometry.joins(stones, geometry.top, geometry.bottom)
        else:
            won = geometry.joins(stones, geometry.left, geometry.right)
        self._winners.append((1 if player == 0 else -1) if won else None)

    def unmake_move(self, move: int) -> None:
        self._winners.pop()
        if move == SWAP:
            cell = self._stones[1].bit_length() - 1
            self._stones = [1 << self._geometry.mirror(cell), 0]
            self._swapped = False
            return
        player = 0 if self._stones[0] >> move & 1 else 1
        self._stones[player] ^= 1 << move

    def copy(self) -> Hex:
        twin = object.__new__(type(self))
        twin.size, twin.swap, twin._geometry = self.size, self.swap, self._geometry
        twin._stones, twin._swapped = self._stones.copy(), self._swapped
        twin._winners = self._winners.copy()
        twin._history = self._history.copy()
        return twin

    def _cells(self) -> list[str]:
        black, white = self._stones
        return [
            BLACK if black >> cell & 1 else WHITE if white >> cell & 1 else EMPTY
            for cell in range(self._geometry.cells)
        ]

    def to_text(self) -> str:
        cells, size = "".join(self._cells()), self.size
        board = "/".join(cells[start : start + size] for start in range(0, len(cells), size))
        return f"{board} {SWAPPED}" if self._swapped else board

    def render(self) -> str:
        """Return the board as text, each row shifted half a cell right of the one above
        (the rhombus of hexagons), with the column letters and row numbers."""
        size = self.size
        lines = ["   " + " ".join(LETTERS[:size])]
        board = self.to_text().split(" ")[0]
        for row, text in enumerate(board.split("/")):
            lines.append(f"{' ' * row}{row + 1:>2} " + " ".join(text))
        if self._swapped:
            lines.append("(White took Black's first stone)")
        return "\n".join(lines)

    def board_view(self) -> BoardView:
        """Return the cells row by row, as the rhombus's rows from the top (the board
        page and the notebook draw them as hexagons, each row half a cell right of the
        one above: :data:`LOOK`); a click on an empty cell plays it (its move text,
        ``b2``), the swap is a button of its own."""
        legal = set(self.legal_moves())
        return BoardView(
            self.size,
            self.size,
            tuple(symbol.replace(EMPTY, "") for symbol in self._cells()),
            tuple(
                self.format_move(cell) if cell in legal else None
                for cell in range(self._geometry.cells)
            ),
            (("Swap", SWAP_TEXT),) if SWAP in legal else (),
        )

    def parse_move(self, text: str) -> int:
        """Return the move written as ``text``: ``a1`` (column letter, row number), a cell
        index, or ``swap``.

        :raises InvalidMoveError: for text that names no cell of this board.
        """
        word, size = str(text).strip().lower(), self.size
        if word == SWAP_TEXT:
            return SWAP
        if word.isdigit() and int(word) < size * size:
            return int(word)
        if len(word) >= 2 and word[0] in LETTERS[:size] and word[1:].isdigit():
            row = int(word[1:]) - 1
            if 0 <= row < size:
                return row * size + LETTERS.index(word[0])
        raise InvalidMoveError(
            f"move {text!r} is not a cell of the {size}x{size} board; write a column letter "
            f"a-{LETTERS[size - 1]} and a row number 1-{size} (a1), or 'swap'"
        )

    def format_move(self, move: int) -> str:
        if move == SWAP:
            return SWAP_TEXT
        row, col = divmod(move, self.size)
        return f"{LETTERS[col]}{row + 1}"


@functools.lru_cache(maxsize=32)
def _rules(size: int, swap: bool) -> Rules:
    return Rules(max_plies=size * size + swap)


#: how the board page and the notebook draw Hex: hexagons in a rhombus, Black's sides
#: (the top and bottom rows) in black, White's (the left and right columns) in white
LOOK = BoardLook(kind="hexes", edges={"top": 0, "bottom": 0, "left": 1, "right": 1})


@hookimpl
def gamesearch_register_games(registry: Any) -> None:
    """Register Hex."""
    registry.add_game(Hex)


@hookimpl
def gamesearch_register_board_looks(registry: Any) -> None:
    """Declare Hex's drawing: a rhombus of hexagons with each player's sides coloured."""
    registry.add_board_look(Hex.name, LOOK)
