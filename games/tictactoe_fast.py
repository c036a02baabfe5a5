"""Tic-tac-toe's speed: the rules of :class:`~gamesearch_games.tictactoe.PlainTicTacToe` on
bitboards and tables, with move ordering, a heuristic, engine hints and fast moves.

:class:`Bitboards` holds the board as two integers and replaces the plain game's core
members (whose turn, legal moves, make and unmake, result, key) with table look-ups;
the registered game, :class:`~gamesearch_games.tictactoe.TicTacToe`, is the plain game
with this class in front. Same moves, results and values as the plain game; differences:

- each side's marks are one integer bitboard, held as the marks of the side to move and
  of the side that just moved (they swap places on every move, so no move needs to ask
  whose turn it is; the ply is the number of marks);
- only the side that just moved can have completed a line, so ``result()`` looks up one
  board in a table of the boards that hold a line;
- tables that depend only on the board size (winning lines, legal moves and move orders
  by occupied cells, the wins, each position's moves with the result after each) are
  built once per size and shared;
- the key is the pair of bitboards in one integer.

``tests/test_tictactoe_fast.py`` checks the two on every reachable position.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

from gamesearch.game import Game
from gamesearch.rules import Player, Rules

from .grid import CROSS, EMPTY, NOUGHT, bitboard_rows

#: the players, read once: to_move() is asked at every position of a search written
#: over the public API, and CPython 3.11 reads an enum member from its class slowly
_FIRST, _SECOND = Player.FIRST, Player.SECOND
#: boards with at most this many cells get full lookup tables (2**cells entries)
TABLE_CELLS = 16
#: the bit of each cell (a look-up is faster than a shift on the hot path)
BITS = tuple(1 << cell for cell in range(20 * 20))
#: boards with at most this many cells keep their move results in a flat table
#: (4**cells entries: 2 MB on 3x3)
FLAT_RESULTS_CELLS = 9
#: positions of a larger board whose move results are kept before the memo is emptied
MOVE_RESULTS_MEMO_SIZE = 1 << 15
#: board sizes whose tables are kept at once (a 16-cell board's take about 16 MB)
GEOMETRIES_KEPT = 4

#: a position's moves, each with the result after it (``None``: the game goes on)
MoveResults = tuple[tuple[int, int | None], ...]


class _LineScan:
    """Win test for boards too large for a lookup table: ``scan[board]`` like a table."""

    __slots__ = ("lines",)

    def __init__(self, lines: tuple[int, ...]) -> None:
        self.lines = lines

    def __getitem__(self, board: int) -> int:
        return board.bit_count() if any(board & line == line for line in self.lines) else 0


class _BoundedMemo(dict[int, tuple[MoveResults, MoveResults] | None]):
    """The move results of a board too large for a flat table: ``None`` for a position
    not seen yet, emptied when full."""

    __slots__ = ()

    def __missing__(self, key: int) -> None:
        return None


class _Geometry:
    """Everything that depends only on (rows, cols, k): lines, orders, lookup tables."""

    def __init__(self, rows: int, cols: int, k: int) -> None:
        self.rows, self.cols, self.k = rows, cols, k
        self.cells = rows * cols
        #: a row's text by its bits, ``crosses << cols | noughts`` (at most 3 ** cols rows)
        self.row_texts: dict[int, str] = {}
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
                empty_cells(board, range(self.cells)) for board in range(size)
            ]
            self.ordered_moves: list[tuple[int, ...]] | None = [
                empty_cells(board, self.order) for board in range(size)
            ]
        else:
            self.wins = _LineScan(self.lines)
            self.natural_moves = None
            self.ordered_moves = None

        #: by position (:meth:`Bitboards.key`): its moves with the result after each, in
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
                (cell, after(cell)) for cell in empty_cells(mover | other, range(self.cells))
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


def empty_cells(occupied: int, cells: Iterable[int]) -> tuple[int, ...]:
    """Return the ``cells`` (in their order) whose bit is not set in ``occupied``."""
    return tuple(cell for cell in cells if not occupied >> cell & 1)


def cell_marks(cells: str) -> tuple[int, int]:
    """Return the bitboards of X's and O's marks on the board ``cells`` (cell ``i``: bit ``i``)."""
    crosses = sum(BITS[index] for index, symbol in enumerate(cells) if symbol == CROSS)
    noughts = sum(BITS[index] for index, symbol in enumerate(cells) if symbol == NOUGHT)
    return crosses, noughts


@functools.lru_cache(maxsize=GEOMETRIES_KEPT)
def _geometry(rows: int, cols: int, k: int) -> _Geometry:
    return _Geometry(rows, cols, k)


class Bitboards(Game[int]):
    """The core members of the m,n,k game on bitboards, and the capabilities that speed it up.

    Put in front of the plain game (``class TicTacToe(Bitboards, PlainTicTacToe)``): it
    answers the plain game's board hooks (``_new_board``, ``_set_cells``, ``cell``) with
    its own board, so the plain game's text, options and drawing work unchanged.
    """

    evaluation_bound = 500

    # _wins, _cells, _full, _natural, _ordered and _move_results repeat _geometry's for the hot
    # path.
    __slots__ = (
        "rows",
        "cols",
        "k",
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
    rows: int
    cols: int
    k: int

    # ----------------------------------------------------- the plain game's board hooks
    def _new_board(self, rows: int, cols: int, k: int) -> None:
        self.rows, self.cols, self.k = rows, cols, k
        self._use_geometry(_geometry(rows, cols, k))
        self._mover = self._other = 0  # marks of the side to move, of the side that just moved

    def _set_cells(self, cells: str) -> None:
        """Set the board to ``cells``, one ``X``, ``O`` or ``.`` a cell (already checked)."""
        crosses, noughts = cell_marks(cells)
        if crosses.bit_count() == noughts.bit_count():
            self._mover, self._other = crosses, noughts
        else:
            self._mover, self._other = noughts, crosses

    def _winners(self, cells: str) -> tuple[bool, bool]:
        crosses, noughts = cell_marks(cells)
        return bool(self._wins[crosses]), bool(self._wins[noughts])

    def cell(self, index: int) -> str:
        """Return ``"X"``, ``"O"`` or ``"."`` for a cell index."""
        crosses, noughts = self.marks()
        if crosses >> index & 1:
            return CROSS
        if noughts >> index & 1:
            return NOUGHT
        return EMPTY

    def _rows(self) -> list[str]:
        crosses, noughts = self.marks()  # (through the geometry's memo of row texts)
        memo = self._geometry.row_texts
        return bitboard_rows(crosses, noughts, self.cols, self._cells, memo, self.cell)

    def _use_geometry(self, geometry: _Geometry) -> None:
        self._geometry = geometry
        self._wins = geometry.wins
        self._cells = geometry.cells
        self._full = geometry.full
        self._natural = geometry.natural_moves
        self._ordered = geometry.ordered_moves
        self._move_results = geometry.move_results

    def __getstate__(self) -> tuple[Any, ...]:
        """Return what pickles the position (the board size, not its tables)."""
        return (self.rows, self.cols, self.k, self._mover, self._other, self._history)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        rows, cols, k, mover, other, self._history = state
        self._new_board(rows, cols, k)
        self._mover, self._other = mover, other

    def copy(self) -> Bitboards:
        # (every search copies its root: the slots are copied here without a call)
        twin = object.__new__(type(self))
        twin.rows, twin.cols, twin.k = self.rows, self.cols, self.k
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
    def rules(self) -> Rules:
        return self._geometry.rules

    # ------------------------------------------------------------ state queries
    @property
    def ply(self) -> int:
        return (self._mover | self._other).bit_count()

    def to_move(self) -> Player:
        return _FIRST if self._mover.bit_count() == self._other.bit_count() else _SECOND

    def marks(self) -> tuple[int, int]:
        """Return the bitboards of X's and O's marks (cell ``i`` is bit ``i``)."""
        if self._mover.bit_count() == self._other.bit_count():
            return self._mover, self._other
        return self._other, self._mover

    # Hot path from here to advance_results(): table look-ups, no allocation, no nested
    # calls. Only the side that just moved (``_other``) can have completed a line.
    def legal_moves(self) -> Sequence[int]:
        if self._wins[self._other]:
            return ()  # a full board has no empty cell: the tables give () already
        table = self._natural
        if table is not None:
            return table[self._mover | self._other]
        return empty_cells(self._mover | self._other, range(self._cells))

    def ordered_moves(self) -> Sequence[int]:
        if self._wins[self._other]:
            return ()
        table = self._ordered
        if table is not None:
            return table[self._mover | self._other]
        return empty_cells(self._mover | self._other, self._geometry.order)

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
