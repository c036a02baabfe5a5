"""Boards of cells as text and on the web board, for games whose moves are cell indices
(the m,n,k games): one character a cell, row by row, rows perhaps separated by ``/``.

:class:`CellGrid` gives such a game its text in and out, its drawing and its move
parsing from three members of its own: ``cell(index)``, ``_set_cells(cells)`` and
``_winners(cells)`` (and, for speed, ``_rows()``: every row's text at once).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Self

from gamesearch.boardview import BoardView
from gamesearch.errors import InvalidMoveError, InvalidPositionError
from gamesearch.game import Game, check_alternating_counts, resolve_options

EMPTY, CROSS, NOUGHT = ".", "X", "O"


def read_rows(text: str, options: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """Return the rows of the board ``text`` and ``options`` with the board size it implies.

    Without ``rows`` and ``cols`` in ``options`` the size is taken from the rows of the
    text, or else is the square board of its cells when ``k`` fits on it (9 cells: 3x3).

    :raises InvalidPositionError: for a ``text`` that is not text.
    """
    if not isinstance(text, str):
        raise InvalidPositionError(f"a position must be text, not {type(text).__name__}: {text!r}")
    rows = "".join(text.split()).upper().split("/")
    if "rows" in options or "cols" in options:
        return rows, options
    if len(rows) > 1:
        return rows, {**options, "rows": len(rows), "cols": len(rows[0])}
    side = round(len(rows[0]) ** 0.5)
    try:
        fits = side * side == len(rows[0]) and side >= int(options.get("k", 3))
    except (TypeError, ValueError):
        fits = False  # the bad k is reported when the game is built
    return rows, {**options, "rows": side, "cols": side} if fits else options


def checked_cells(text: str, rows: list[str], height: int, width: int) -> str:
    """Return the cells of ``rows`` (read from ``text``) on a ``height`` x ``width`` board.

    :raises InvalidPositionError: for rows of the wrong size, a wrong number of cells or a
        character other than ``X``, ``O`` and ``.``.
    """
    if len(rows) > 1 and (len(rows) != height or any(len(row) != width for row in rows)):
        raise InvalidPositionError(
            f"position {text!r} must have {height} rows of {width} cells separated by '/'"
        )
    cells = "".join(rows)
    if len(cells) != height * width:
        raise InvalidPositionError(
            f"position {text!r} has {len(cells)} cells; a {height}x{width} board needs "
            f"{height * width}"
        )
    for index, symbol in enumerate(cells):
        if symbol not in (EMPTY, CROSS, NOUGHT):
            raise InvalidPositionError(
                f"position {text!r} has {symbol!r} at cell {index}; use 'X', 'O' or '.'"
            )
    return cells


def cells_text(cells: Sequence[str | None]) -> str:
    """Return a list of cells, each ``"X"``, ``"O"`` or empty (``"."``, ``""`` or ``None``),
    as one line of board text.

    :raises InvalidPositionError: for anything else.
    """
    if isinstance(cells, str) or not isinstance(cells, Sequence):
        raise InvalidPositionError(f"cells must be a list of 'X', 'O' or empty cells: {cells!r}")
    for index, cell in enumerate(cells):
        if cell not in (None, "", EMPTY, CROSS, NOUGHT):
            raise InvalidPositionError(
                f"cell {index} is {cell!r}; cells must be 'X', 'O' or empty ('', '.', None)"
            )
    return "".join(cell or EMPTY for cell in cells)


def split_rows(cells: str, cols: int) -> list[str]:
    """Return the board ``cells`` (one character a cell) cut into rows of ``cols`` cells."""
    return [cells[start : start + cols] for start in range(0, len(cells), cols)]


def bitboard_rows(
    first: int, second: int, cols: int, cells: int, memo: dict[int, str], cell: Callable[[int], str]
) -> list[str]:
    """Return each row's text, from the top, of a board held as two bitboards (``first``
    and ``second``, cell ``i`` bit ``i``, ``cols`` cells a row), each row looked up in
    ``memo`` by its bits (``first << cols | second``), else written by ``cell(index)``
    and kept: at most 3 ** cols rows."""
    mask, rows = (1 << cols) - 1, []
    for shift in range(0, cells, cols):
        bits = (first >> shift & mask) << cols | second >> shift & mask
        text = memo.get(bits)
        if text is None:
            text = memo[bits] = "".join(cell(shift + col) for col in range(cols))
        rows.append(text)
    return rows


def cell_board_view(rows: int, cols: int, cells: Sequence[str], legal: Iterable[int]) -> BoardView:
    """Return the grid of a game whose moves are cell indices: each cell's mark (``""`` for
    ``.``), a click on a cell of a ``legal`` move playing it."""
    playable = set(legal)
    symbols = tuple(symbol.replace(EMPTY, "") for symbol in cells)
    moves = tuple(str(index) if index in playable else None for index in range(rows * cols))
    return BoardView(rows, cols, symbols, moves)


def parse_cell(text: str, cells: int) -> int:
    """Return the cell index written as ``text`` on a board of ``cells`` cells.

    :raises InvalidMoveError: for text that is no number, or a cell off the board.
    """
    try:
        move = int(str(text).strip())
    except ValueError:
        raise InvalidMoveError(
            f"move {text!r} is not a cell index; use a number from 0 to {cells - 1}"
        ) from None
    if not 0 <= move < cells:
        raise InvalidMoveError(
            f"cell {text!r} is off the board; use a number from 0 to {cells - 1}"
        )
    return move


class CellGrid(Game[int]):
    """A game on a ``rows`` x ``cols`` board of cells marked ``X``, ``O`` or ``.``, X first,
    whose moves are cell indices: its text, drawing and move parsing."""

    rows: int
    cols: int

    def cell(self, index: int) -> str:
        """Return ``"X"``, ``"O"`` or ``"."`` for a cell index."""
        raise NotImplementedError

    def _rows(self) -> list[str]:
        """Return each row's ``"X"``, ``"O"`` and ``"."``, from the top (a game may answer
        faster than by asking :meth:`cell` for each: the kit writes the text of every
        position it checks dozens of times)."""
        return split_rows(
            "".join(self.cell(index) for index in range(self.rows * self.cols)), self.cols
        )

    def _set_cells(self, cells: str) -> None:
        """Set the board to ``cells``, one ``X``, ``O`` or ``.`` a cell (already checked)."""
        raise NotImplementedError

    def _winners(self, cells: str) -> tuple[bool, bool]:
        """Return whether X and whether O has won on the board ``cells``."""
        raise NotImplementedError

    @classmethod
    def new(cls, **options: Any) -> Self:
        return cls(**resolve_options(cls.options, options, owner=f"game {cls.name!r}"))

    @classmethod
    def from_text(cls, text: str, **options: Any) -> Self:
        """Return the position written row by row with ``X``, ``O`` and ``.``.

        Rows may be separated by ``/``. Without options the board size is taken from the
        text: from its rows, or else the square board of its cells (16 cells: 4x4).

        :raises InvalidPositionError: for bad characters, a wrong length, impossible
            turn counts or winners.
        """
        rows, options = read_rows(text, options)
        game = cls.new(**options)
        cells = checked_cells(text, rows, game.rows, game.cols)
        crosses, noughts = cells.count(CROSS), cells.count(NOUGHT)
        check_alternating_counts(f"position {text!r}", crosses, noughts, *game._winners(cells))
        game._set_cells(cells)
        return game

    @classmethod
    def from_cells(cls, cells: Sequence[str | None], **options: Any) -> Self:
        """Return the position given as a list of cells, each ``"X"``, ``"O"`` or empty
        (``"."``, ``""`` or ``None``).

        :raises InvalidPositionError: as :meth:`from_text`.
        """
        return cls.from_text(cells_text(cells), **options)

    def to_text(self) -> str:
        return "/".join(self._rows())

    def render(self) -> str:
        return "\n".join(" ".join(row) for row in self._rows())

    def board_view(self) -> BoardView:
        """Return the grid; a click on an empty cell plays that cell while the game goes on."""
        cells = "".join(self._rows())
        return cell_board_view(self.rows, self.cols, cells, self.legal_moves())

    def parse_move(self, text: str) -> int:
        return parse_cell(text, self.rows * self.cols)
