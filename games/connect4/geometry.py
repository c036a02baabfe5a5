"""The bitboard geometry of one Connect Four board size, worked out once per size.

Each column takes ``height + 1`` bits, bottom first (Pascal Pons' layout, see
:mod:`.game`); :class:`Geometry` holds the masks, the windows of four, the memo of line
ends and the tests of four in a row that :class:`~.game.ConnectFour` and its hot loop
use, and :func:`geometry_for` keeps the last few sizes built.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from gamesearch.rules import Rules

#: line-end memo entries kept per board size before it is emptied
LINE_END_MEMO_SIZE = 1 << 20


class Geometry:
    """Masks and orders that depend only on the board size, built once per size."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells = width * height
        self.rules = Rules(max_plies=self.cells, alternating=True)
        stride = height + 1
        self.stride = stride
        column = (1 << height) - 1
        self.column_masks = tuple(column << (col * stride) for col in range(width))
        self.bottoms = tuple(1 << (col * stride) for col in range(width))
        self.tops = tuple(1 << (col * stride + height - 1) for col in range(width))
        self.bottom_mask = sum(self.bottoms)
        self.board_mask = self.bottom_mask * column
        centre = (width - 1) / 2
        self.order = tuple(sorted(range(width), key=lambda col: (abs(col - centre), col)))
        #: by ``bit_length`` of a lone playable cell: the one-move tuple of its column
        self.single_moves = ((),) + tuple((bit // stride,) for bit in range(width * stride))
        self.ordered_column_masks = tuple(self.column_masks[col] for col in self.order)
        self.has_four = four_in_a_row_test(height)
        #: the top cell of every column: ``mask & top_mask`` says which columns are full
        self.top_mask = sum(self.tops)
        full_columns = [
            sum(top for col, top in enumerate(self.tops) if chosen >> col & 1)
            for chosen in range(1 << width)
        ]
        #: by ``mask & top_mask``: the playable columns in natural order, and centre first
        self.natural_moves = {full: self._open_columns(full, range(width)) for full in full_columns}
        self.ordered_moves = {full: self._open_columns(full, self.order) for full in full_columns}
        self.windows = tuple(self._windows())
        self._line_ends = threat_finder(height)
        #: memo of line ends by stones: a player's stones recur in many positions
        self.line_end_memo: dict[int, int] = {}
        middle = width // 2
        self.centre_mask = self.column_masks[middle] if width % 2 else 0

    def _open_columns(self, full: int, columns: Sequence[int]) -> tuple[int, ...]:
        return tuple(col for col in columns if not full & self.tops[col])

    def _windows(self) -> Sequence[int]:
        """Return every line of four cells as a bit mask."""
        stride, windows = self.stride, []
        for col in range(self.width):
            for row in range(self.height):
                for d_col, d_row in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    end_col, end_row = col + 3 * d_col, row + 3 * d_row
                    if 0 <= end_col < self.width and 0 <= end_row < self.height:
                        windows.append(
                            sum(
                                1 << ((col + i * d_col) * stride + row + i * d_row)
                                for i in range(4)
                            )
                        )
        return windows

    def remember_line_ends(self, stones: int) -> int:
        """Return the cells completing four for ``stones`` and memoise them (a bounded memo)."""
        found = self._line_ends(stones)
        memo = self.line_end_memo
        if len(memo) >= LINE_END_MEMO_SIZE:
            memo.clear()
        memo[stones] = found
        return found

    def winning_cells(self, stones: int, mask: int) -> int:
        """Return the empty cells (not in ``mask``) where ``stones`` would complete four."""
        found = self.line_end_memo.get(stones)
        if found is None:
            found = self.remember_line_ends(stones)
        return found & (self.board_mask ^ mask)

    def bit(self, col: int, row: int) -> int:
        """Return the bit of the cell in column ``col``, row ``row`` (0 = bottom)."""
        return 1 << (col * self.stride + row)


#: board sizes whose tables and line-end memo are kept at once
GEOMETRIES_KEPT = 4


@functools.lru_cache(maxsize=GEOMETRIES_KEPT)
def geometry_for(width: int, height: int) -> Geometry:
    return Geometry(width, height)


def threat_finder(height: int) -> Callable[[int], int]:
    """Return ``line_ends(stones)`` for boards ``height`` rows high: every cell, empty
    or not, where one more stone would give ``stones`` four in a row.

    Hot path (threat pruning and move ordering, several calls per node): the shift
    distances are closure constants and the code is unrolled, about 40 integer
    operations a call.
    """
    row1, row2, row3 = height + 1, 2 * (height + 1), 3 * (height + 1)  # horizontal
    up1, up2, up3 = height + 2, 2 * (height + 2), 3 * (height + 2)  # rising diagonal
    down1, down2, down3 = height, 2 * height, 3 * height  # falling diagonal

    def line_ends(stones: int) -> int:
        found = (stones << 1) & (stones << 2) & (stones << 3)  # three right below
        left, right = stones << row1, stones >> row1
        pair = left & (stones << row2)
        found |= pair & ((stones << row3) | right)
        pair = right & (stones >> row2)
        found |= pair & ((stones >> row3) | left)
        left, right = stones << up1, stones >> up1
        pair = left & (stones << up2)
        found |= pair & ((stones << up3) | right)
        pair = right & (stones >> up2)
        found |= pair & ((stones >> up3) | left)
        left, right = stones << down1, stones >> down1
        pair = left & (stones << down2)
        found |= pair & ((stones << down3) | right)
        pair = right & (stones >> down2)
        found |= pair & ((stones >> down3) | left)
        return found

    return line_ends


def four_in_a_row_test(height: int) -> Callable[[int], bool]:
    """Return ``has_four(stones)`` for boards ``height`` rows high: do ``stones`` hold four
    in a row? (Hot path: the shift distances are closure constants, the loop unrolled.)"""
    across, falling, rising = height + 1, height, height + 2
    across2, falling2, rising2 = 2 * across, 2 * falling, 2 * rising

    def has_four(stones: int) -> bool:
        pair = stones & (stones >> 1)
        if pair & (pair >> 2):
            return True
        pair = stones & (stones >> across)
        if pair & (pair >> across2):
            return True
        pair = stones & (stones >> falling)
        if pair & (pair >> falling2):
            return True
        pair = stones & (stones >> rising)
        return bool(pair & (pair >> rising2))

    return has_four


@functools.cache
def odd_row_mask(width: int, height: int) -> int:
    """Return the cells of rows 1, 3, 5, ... counted from 1 at the bottom (the first player's
    rows)."""
    rows = sum(1 << row for row in range(0, height, 2))
    return sum(rows << (col * (height + 1)) for col in range(width))


def cells_above(cells: int, geometry: Geometry) -> int:
    """Return the cells above any of ``cells`` in the same column (a bit smear up each column)."""
    board = geometry.board_mask
    above = (cells << 1) & board
    for _ in range(geometry.height - 2):
        above |= (above << 1) & board  # one row at a time: the empty bit atop each column stops it
    return above
