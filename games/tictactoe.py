"""Tic-tac-toe and its m,n,k generalisation (k in a row on an m-by-n board).

Positions are text, one character a cell, row by row: ``X``, ``O`` or ``.``; rows
may be separated by ``/`` (``"X.O/.X./..O"``). Moves are cell indices counted
row-major from 0 (0..8 on the 3x3 board). X moves first and is the first player.

Each side's marks are one integer bitboard, held as the marks of the side to move
and of the side that just moved (they swap places on every move, so no move needs to
ask whose turn it is). Tables that depend only on the board size (winning lines,
move orders, win lookup) are built once per size and shared.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

from gamesearch.boardview import BoardView
from gamesearch.errors import (
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
)
from gamesearch.game import Game, Option, check_alternating_counts, resolve_options
from gamesearch.looks import BoardLook
from gamesearch.plugins import hookimpl
from gamesearch.rules import Player, Rules

EMPTY, CROSS, NOUGHT = ".", "X", "O"
#: boards with at most this many cells get full lookup tables (2**cells entries)
TABLE_CELLS = 16
#: the bit of each cell (a look-up is faster than a shift on the hot path)
BITS = tuple(1 << cell for cell in range(20 * 20))


#: a position's moves, each with the result after it (``None``: the game goes on)
MoveResults = tuple[tuple[int, int | None], ...]


class _LineScan:
    """Win test for boards too large for a lookup table: ``scan[board]`` like a table."""

    __slots__ = ("lines",)

    def __init__(self, lines: tuple[int, ...]) -> None:
        self.lines = lines

    def __getitem__(self, board: int) -> int:
        return board.bit_count() if any(board & line == line for line in self.lines) else 0


class _Geometry:
    """Everything that depends only on (rows, cols, k): lines, orders, lookup tables."""

    def __init__(self, rows: int, cols: int, k: int) -> None:
        self.rows, self.cols, self.k = rows, cols, k
        self.cells = rows * cols
        self.rules = Rules(max_plies=self.cells, alternating=True)
        self.full = (1 << self.cells) - 1
        self.lines = tuple(self._winning_lines())
        lines_through = [
            sum(1 for line in self.lines if line >> cell & 1) for cell in range(self.cells)
        ]
        centre_row, centre_col = (rows - 1) / 2, (cols - 1) / 2

        def priority(cell: int) -> tuple[int, float, int]:
            row, col = divmod(cell, cols)
            distance = (row - centre_row) ** 2 + (col - centre_col) ** 2
            return (-lines_through[cell], distance, cell)

        # Centre, corners, edges on 3x3: cells on more winning lines first, then
        # nearer the centre. (Plain distance would put edges before corners.)
        self.order = tuple(sorted(range(self.cells), key=priority))
        if self.cells <= TABLE_CELLS:
            size = 1 << self.cells
            # a board's marks when they make a line, else 0 (the count tells who moved last)
            self.wins: list[int] | _LineScan = [
                board.bit_count() if self._has_line(board) else 0 for board in range(size)
            ]
            self.natural_moves: list[tuple[int, ...]] | None = [
                self._empty(board, range(self.cells)) for board in range(size)
            ]
            self.ordered_moves: list[tuple[int, ...]] | None = [
                self._empty(board, self.order) for board in range(size)
            ]
        else:
            self.wins = _LineScan(self.lines)
            self.natural_moves = None
            self.ordered_moves = None

        #: by position (:meth:`TicTacToe.key`): its moves with the result after each, in
        #: natural order and in :attr:`order` (``None`` until first asked for); a flat
        #: table on boards of up to FLAT_RESULTS_CELLS cells, a bounded memo beyond
        self.move_results: list[tuple[MoveResults, MoveResults] | None] | _BoundedMemo = (
            [None] * (1 << 2 * self.cells) if self.cells <= FLAT_RESULTS_CELLS else _BoundedMemo()
        )

    def remember_move_results(self, key: int) -> tuple[MoveResults, MoveResults]:
        """Return the moves of the position of ``key`` with the result after each, in
        natural order and in :attr:`order`, and keep them in :attr:`move_results`."""
        mover, other = key & self.full, key >> self.cells
        wins, full = self.wins, self.full
        if wins[other]:
            found: tuple[MoveResults, MoveResults] = ((), ())
        else:
            sign = 1 if mover.bit_count() == other.bit_count() else -1  # X to move: X wins

            def after(cell: int) -> int | None:
                marks = mover | 1 << cell
                if wins[marks]:
                    return sign
                return 0 if marks | other == full else None

            natural = tuple(
                (cell, after(cell)) for cell in self._empty(mover | other, range(self.cells))
            )
            found = (natural, tuple(sorted(natural, key=lambda pair: self.order.index(pair[0]))))
        memo = self.move_results
        if isinstance(memo, _BoundedMemo) and len(memo) >= MOVE_RESULTS_MEMO_SIZE:
            memo.clear()
        memo[key] = found
        return found

    def _winning_lines(self) -> Iterable[int]:
        rows, cols, k = self.rows, self.cols, self.k
        for row in range(rows):
            for col in range(cols):
                for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_row, end_col = row + d_row * (k - 1), col + d_col * (k - 1)
                    if 0 <= end_row < rows and 0 <= end_col < cols:
                        yield sum(
                            1 << ((row + d_row * i) * cols + col + d_col * i) for i in range(k)
                        )

    def _has_line(self, board: int) -> bool:
        return any(board & line == line for line in self.lines)

    @staticmethod
    def _empty(occupied: int, cells: Iterable[int]) -> tuple[int, ...]:
        return tuple(cell for cell in cells if not occupied >> cell & 1)


class _BoundedMemo(dict[int, tuple["MoveResults", "MoveResults"] | None]):
    """The move results of a board too large for a flat table: ``None`` for a position
    not seen yet, emptied when full."""

    __slots__ = ()

    def __missing__(self, key: int) -> None:
        return None


def _square_size(cells: int, options: dict[str, Any]) -> dict[str, Any]:
    """Return ``options`` with rows and cols of the square board of ``cells`` cells, when
    there is one that k fits on (so "X.O.X...." is 3x3 and 16 cells are 4x4)."""
    side = round(cells**0.5)
    try:
        k = int(options.get("k", 3))
    except (TypeError, ValueError):
        return options  # the bad k is reported when the game is built
    if side * side == cells and side >= k:
        return {**options, "rows": side, "cols": side}
    return options


#: boards with at most this many cells keep their move results in a flat table
#: (4**cells entries: 2 MB on 3x3)
FLAT_RESULTS_CELLS = 9
#: positions of a larger board whose move results are kept before the memo is emptied
MOVE_RESULTS_MEMO_SIZE = 1 << 15
#: board sizes whose tables are kept at once (a 16-cell board's take about 16 MB)
GEOMETRIES_KEPT = 4


@functools.lru_cache(maxsize=GEOMETRIES_KEPT)
def _geometry(rows: int, cols: int, k: int) -> _Geometry:
    return _Geometry(rows, cols, k)


class TicTacToe(Game[int]):
    """Tic-tac-toe on a ``rows`` x ``cols`` board, ``k`` in a row wins (3,3,3 by default)."""

    name = "tictactoe"
    player_names = ("X", "O")
    evaluation_bound = 500
    options = (
        Option("rows", int, 3, "board rows", minimum=1, maximum=20),
        Option("cols", int, 3, "board columns", minimum=1, maximum=20),
        Option("k", int, 3, "marks in a row that win", minimum=1, maximum=20),
    )

    # _wins, _cells, _full, _natural, _ordered and _move_results repeat _geometry's for the hot
    # path.
    # The ply is not stored: it is the number of marks (X has as many as O, or one more).
    __slots__ = (
        "_geometry",
        "_mover",
        "_other",
        "_history",
        "_wins",
        "_cells",
        "_full",
        "_natural",
        "_ordered",
        "_move_results",
    )

    def __init__(self, rows: int = 3, cols: int = 3, k: int = 3) -> None:
        settings = resolve_options(self.options, {"rows": rows, "cols": cols, "k": k})
        longest = max(settings["rows"], settings["cols"])
        if settings["k"] > longest:
            raise InvalidOptionError(f"option 'k' must fit on the board (at most {longest}): {k!r}")
        self._use_geometry(_geometry(settings["rows"], settings["cols"], settings["k"]))
        self._mover = self._other = 0  # marks of the side to move, of the side that just moved

    def _use_geometry(self, geometry: _Geometry) -> None:
        self._geometry = geometry
        self._wins = geometry.wins
        self._cells = geometry.cells
        self._full = geometry.full
        self._natural = geometry.natural_moves
        self._ordered = geometry.ordered_moves
        self._move_results = geometry.move_results

    # ----------------------------------------------------------------- creation
    @classmethod
    def new(cls, **options: Any) -> TicTacToe:
        return cls(**resolve_options(cls.options, options))

    @property
    def rules(self) -> Rules:
        return self._geometry.rules

    @classmethod
    def from_text(cls, text: str, **options: Any) -> TicTacToe:
        """Return the position written row by row with ``X``, ``O`` and ``.``.

        Rows may be separated by ``/``. Without options the board size is taken
        from the text when it is square (9 cells: 3x3, 16 cells: 4x4, ...).

        :raises InvalidPositionError: for bad characters, a wrong length, impossible
            turn counts or winners.
        """
        if not isinstance(text, str):
            raise InvalidPositionError(
                f"a position must be text, not {type(text).__name__}: {text!r}"
            )
        stripped = "".join(text.split())
        rows_text = stripped.split("/")
        if "rows" not in options and "cols" not in options:
            if len(rows_text) > 1:
                options = {**options, "rows": len(rows_text), "cols": len(rows_text[0])}
            else:
                options = _square_size(len(stripped), options)
        game = cls.new(**options)
        rows, cols = game._geometry.rows, game._geometry.cols
        if len(rows_text) > 1 and (
            len(rows_text) != rows or any(len(row) != cols for row in rows_text)
        ):
            raise InvalidPositionError(
                f"position {text!r} must have {rows} rows of {cols} cells separated by '/'"
            )
        game._set_cells("".join(rows_text), text)
        return game

    @classmethod
    def from_cells(cls, cells: Sequence[str | None], **options: Any) -> TicTacToe:
        """Return the position given as a list of cells, each ``"X"``, ``"O"`` or empty.

        An empty cell is ``"."``, ``""`` or ``None``.

        :raises InvalidPositionError: as :meth:`from_text`.
        """
        if isinstance(cells, str) or not isinstance(cells, Sequence):
            raise InvalidPositionError(
                f"cells must be a list of 'X', 'O' or empty cells: {cells!r}"
            )
        symbols = []
        for index, cell in enumerate(cells):
            if cell in (None, "", EMPTY):
                symbols.append(EMPTY)
            elif cell in (CROSS, NOUGHT):
                symbols.append(cell)
            else:
                raise InvalidPositionError(
                    f"cell {index} is {cell!r}; cells must be 'X', 'O' or empty ('', '.', None)"
                )
        if "rows" not in options and "cols" not in options:
            options = _square_size(len(symbols), options)
        game = cls.new(**options)
        game._set_cells("".join(symbols), cells)
        return game

    def _set_cells(self, cells: str, original: object) -> None:
        geometry = self._geometry
        if len(cells) != geometry.cells:
            raise InvalidPositionError(
                f"position {original!r} has {len(cells)} cells; a {geometry.rows}x{geometry.cols} "
                f"board needs {geometry.cells}"
            )
        boards = [0, 0]
        for index, symbol in enumerate(cells.upper()):
            if symbol == CROSS:
                boards[0] |= 1 << index
            elif symbol == NOUGHT:
                boards[1] |= 1 << index
            elif symbol != EMPTY:
                raise InvalidPositionError(
                    f"position {original!r} has {symbol!r} at cell {index}; use 'X', 'O' or '.'"
                )
        crosses, noughts = boards[0].bit_count(), boards[1].bit_count()
        check_alternating_counts(
            f"position {original!r}",
            crosses,
            noughts,
            bool(geometry.wins[boards[0]]),
            bool(geometry.wins[boards[1]]),
        )
        self._mover, self._other = boards if crosses == noughts else boards[::-1]
        self._history = []

    def __getstate__(self) -> tuple[Any, ...]:
        """Return what pickles the position (the board size, not its tables)."""
        geometry = self._geometry
        return (geometry.rows, geometry.cols, geometry.k, self._mover, self._other, self._history)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        rows, cols, k, self._mover, self._other, self._history = state
        self._use_geometry(_geometry(rows, cols, k))

    def copy(self) -> TicTacToe:
        # (every search copies its root: the slots are copied here without a call)
        twin = object.__new__(type(self))
        twin._geometry, twin._wins, twin._cells, twin._full = (
            self._geometry,
            self._wins,
            self._cells,
            self._full,
        )
        twin._natural, twin._ordered, twin._move_results = (
            self._natural,
            self._ordered,
            self._move_results,
        )
        twin._mover, twin._other = self._mover, self._other
        twin._history = self._history.copy()
        return twin

    @property
    def settings(self) -> dict[str, Any]:
        geometry = self._geometry
        return {"rows": geometry.rows, "cols": geometry.cols, "k": geometry.k}

    # ------------------------------------------------------------ state queries
    @property
    def ply(self) -> int:
        return (self._mover | self._other).bit_count()

    def to_move(self) -> Player:
        return Player.FIRST if self._mover.bit_count() == self._other.bit_count() else Player.SECOND

    def marks(self) -> tuple[int, int]:
        """Return the bitboards of X's and O's marks (cell ``i`` is bit ``i``)."""
        if self._mover.bit_count() == self._other.bit_count():
            return self._mover, self._other
        return self._other, self._mover

    # Hot path from here to undo(): table look-ups, no allocation, no nested calls.
    # Only the side that just moved (``_other``) can have completed a line.
    def legal_moves(self) -> Sequence[int]:
        if self._wins[self._other]:
            return ()  # a full board has no empty cell: the tables give () already
        table = self._natural
        if table is not None:
            return table[self._mover | self._other]
        return _Geometry._empty(self._mover | self._other, range(self._cells))

    def ordered_moves(self) -> Sequence[int]:
        if self._wins[self._other]:
            return ()
        table = self._ordered
        if table is not None:
            return table[self._mover | self._other]
        return _Geometry._empty(self._mover | self._other, self._geometry.order)

    def result(self) -> int | None:
        other = self._other
        marks = self._wins[other]
        if marks:
            return 1 if marks > self._mover.bit_count() else -1  # X moved last
        return 0 if other | self._mover == self._full else None

    def key(self) -> int:
        # The marks' counts tell whose the mover's are, so the pair is the position.
        return self._mover | self._other << self._cells

    def make_move(self, move: int) -> None:
        self._mover, self._other = self._other, self._mover | BITS[move]

    def unmake_move(self, move: int) -> None:
        # the mark is set (it was made), so ^ takes it off
        self._other, self._mover = self._mover, self._other ^ BITS[move]

    def advance(self, move: int) -> int | None:
        # push() and result() fused: the mover is the only one who can have won.
        self._history.append(move)
        board = self._mover | BITS[move]
        self._mover = other = self._other
        self._other = board
        marks = self._wins[board]  # the mover's marks if they make a line, else 0
        if marks:
            return 1 if marks > other.bit_count() else -1  # X moved last
        return 0 if board | other == self._full else None

    def retract(self, move: int) -> None:
        self._history.pop()
        self._other, self._mover = self._mover, self._other ^ BITS[move]

    def move_results(self, ordered: bool = False) -> Sequence[tuple[int, int | None]]:
        # A memo of the board size's: a position's answer is worked out once.
        key = self._mover | self._other << self._cells
        found = self._move_results[key]
        if found is None:
            found = self._geometry.remember_move_results(key)
        return found[ordered]

    def advance_results(self, move: int, ordered: bool = False) -> Sequence[tuple[int, int | None]]:
        # advance() and move_results() fused (the game goes on after ``move``)
        self._history.append(move)
        board = self._mover | BITS[move]
        self._mover = other = self._other
        self._other = board
        key = other | board << self._cells
        found = self._move_results[key]
        if found is None:
            found = self._geometry.remember_move_results(key)
        return found[ordered]

    # ---------------------------------------------------------------- heuristic
    def evaluate(self) -> int:
        """Return the open-lines heuristic: squared marks on lines only one side uses."""
        crosses, noughts = self.marks()
        total = 0
        for line in self._geometry.lines:
            mine, theirs = crosses & line, noughts & line
            if mine and not theirs:
                total += mine.bit_count() ** 2
            elif theirs and not mine:
                total -= theirs.bit_count() ** 2
        bound = self.evaluation_bound - 1
        return max(-bound, min(bound, total))

    # --------------------------------------------------------------------- text
    def cell(self, index: int) -> str:
        """Return ``"X"``, ``"O"`` or ``"."`` for a cell index."""
        crosses, noughts = self.marks()
        if crosses >> index & 1:
            return CROSS
        if noughts >> index & 1:
            return NOUGHT
        return EMPTY

    def to_text(self) -> str:
        geometry = self._geometry
        rows = (
            "".join(self.cell(row * geometry.cols + col) for col in range(geometry.cols))
            for row in range(geometry.rows)
        )
        return "/".join(rows)

    def render(self) -> str:
        geometry = self._geometry
        return "\n".join(
            " ".join(self.cell(row * geometry.cols + col) for col in range(geometry.cols))
            for row in range(geometry.rows)
        )

    def board_view(self) -> BoardView:
        """Return the grid; a click on an empty cell plays that cell while the game goes on."""
        geometry = self._geometry
        cells = [self.cell(index) for index in range(geometry.cells)]
        return cell_board_view(geometry.rows, geometry.cols, cells, self.legal_moves())

    def parse_move(self, text: str) -> int:
        return parse_cell(text, self._geometry.cells)

    def format_move(self, move: int) -> str:
        return str(move)

    # ------------------------------------------------------ what an engine asks
    def noisy_moves(self) -> Sequence[int]:
        """Return the empty cells that complete a line for either side, in move order."""
        mover, other = self._mover, self._other
        if self._wins[other]:
            return ()
        empty = self._full ^ (mover | other)
        sharp = 0
        for line in self._geometry.lines:
            for marks in (mover, other):
                missing = line & ~marks
                if missing and not missing & (missing - 1) and missing & empty:
                    sharp |= missing
        return tuple(cell for cell in self._geometry.order if sharp >> cell & 1)

    def is_forcing(self, move: int) -> bool:
        """Return whether the mark on cell ``move`` leaves a line one mark short with its
        last cell empty: the opponent must block it at once."""
        marks = self._mover | 1 << move
        empty = self._full ^ (marks | self._other)
        for line in self._geometry.lines:
            missing = line & ~marks
            if line >> move & 1 and missing and not missing & (missing - 1) and missing & empty:
                return True
        return False


def cell_board_view(rows: int, cols: int, cells: Sequence[str], legal: Iterable[int]) -> BoardView:
    """Return the grid of a game whose moves are cell indices: each cell's mark (``""`` for
    ``.``), a click on a cell of a ``legal`` move playing it (used by m,n,k games)."""
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
