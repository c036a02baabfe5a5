"""The bitboard geometry of one Othello board size, worked out once per size: the masks,
the rays from every cell, the move orders and the memo of legal moves that
:class:`~gamesearch_games.othello.Othello` and its hot loop use.
"""

from __future__ import annotations

import functools

#: entries of the legal-move memo kept per board size before it is emptied
MOVES_MEMO_SIZE = 1 << 18


class Geometry:
    """Everything that depends only on the board size: masks, rays, orders, memo."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.cells = cells = size * size
        self.full = full = (1 << cells) - 1
        first_column = sum(1 << (row * size) for row in range(size))
        last_column = first_column << (size - 1)
        not_first, not_last = full & ~first_column, full & ~last_column
        #: (shift, mask): a positive shift moves bits to higher cells; the mask drops the
        #: bits that wrapped round into the wrong column
        self.directions = (
            (1, not_first),
            (-1, not_last),
            (size, full),
            (-size, full),
            (size + 1, not_first),
            (size - 1, not_last),
            (1 - size, not_first),
            (-1 - size, not_last),
        )
        #: by cell: the cells' bits along each of the eight directions, nearest first
        self.rays = tuple(self._rays(cell) for cell in range(cells))
        half = size // 2
        centre = (half - 1, half)
        self.white_start = self.bit(centre[0], centre[0]) | self.bit(centre[1], centre[1])
        self.black_start = self.bit(centre[0], centre[1]) | self.bit(centre[1], centre[0])
        self.centre = self.white_start | self.black_start
        edge = (0, size - 1)
        self.corners = sum(self.bit(row, col) for row in edge for col in edge)
        #: by corner: its bit, its X-square's bit and its two C-squares' bits
        self.corner_neighbours = tuple(
            (
                self.bit(row, col),
                self.bit(row + down, col + right),
                self.bit(row + down, col) | self.bit(row, col + right),
            )
            for row, down in ((0, 1), (size - 1, -1))
            for col, right in ((0, 1), (size - 1, -1))
        )
        self.order = tuple(sorted(range(cells), key=self._priority))
        self.rank = {cell: index for index, cell in enumerate(self.order)}
        #: a row's text by its bits, ``black << size | white`` (at most 3 ** size rows)
        self.row_texts: dict[int, str] = {}
        #: legal-move bits by ``mine << cells | theirs`` (bounded: emptied when full)
        self.moves_memo: dict[int, int] = {}
        #: by legal-move bits: the cells in natural order, and in :attr:`order`
        self.natural_memo: dict[int, tuple[int, ...]] = {}
        self.ordered_memo: dict[int, tuple[int, ...]] = {}

    def bit(self, row: int, col: int) -> int:
        """Return the bit of the cell in ``row`` and ``col`` (0 = top, left)."""
        return 1 << (row * self.size + col)

    def _rays(self, cell: int) -> tuple[tuple[int, ...], ...]:
        rays = []
        for shift, mask in self.directions:
            ray, bit = [], 1 << cell
            while True:
                bit = (bit << shift if shift > 0 else bit >> -shift) & mask
                if not bit:
                    break
                ray.append(bit)
            if len(ray) >= 2:  # a flip needs an opponent's disc and one's own behind it
                rays.append(tuple(ray))
        return tuple(rays)

    def _priority(self, cell: int) -> tuple[int, int]:
        """Corners first, then edges, then the inside; cells next to a corner last."""
        row, col = divmod(cell, self.size)
        last = self.size - 1
        on_edge_row, on_edge_col = row in (0, last), col in (0, last)
        near_row, near_col = row in (1, last - 1), col in (1, last - 1)
        if on_edge_row and on_edge_col:
            rank = 0
        elif (on_edge_row or near_row) and (on_edge_col or near_col):
            rank = 3  # gives the opponent a way into the corner
        elif on_edge_row or on_edge_col:
            rank = 1
        else:
            rank = 2
        return (rank, cell)

    # Hot path: called for every node, several times; bit operations only.
    def move_bits(self, mine: int, theirs: int) -> int:
        """Return the bits of the cells where the owner of ``mine`` may place a disc."""
        memo_key = mine << self.cells | theirs
        found = self.moves_memo.get(memo_key)
        if found is not None:
            return found
        empty = self.full & ~(mine | theirs)
        found = 0
        steps = self.size - 3  # a line of the opponent's discs is at most size - 2 long
        for shift, mask in self.directions:
            allowed = mask & theirs
            if shift > 0:
                line = (mine << shift) & allowed
                for _ in range(steps):
                    line |= (line << shift) & allowed
                found |= (line << shift) & mask & empty
            else:
                back = -shift
                line = (mine >> back) & allowed
                for _ in range(steps):
                    line |= (line >> back) & allowed
                found |= (line >> back) & mask & empty
        memo = self.moves_memo
        if len(memo) >= MOVES_MEMO_SIZE:
            memo.clear()
        memo[memo_key] = found
        return found

    def natural_moves(self, bits: int) -> tuple[int, ...]:
        """Return the cells of ``bits`` in natural order (memoised, bounded)."""
        memo = self.natural_memo
        if len(memo) >= MOVES_MEMO_SIZE:
            memo.clear()
        found = memo[bits] = tuple(cells_of(bits))
        return found

    def ordered_moves(self, bits: int) -> tuple[int, ...]:
        """Return the cells of ``bits`` in :attr:`order` (memoised, bounded)."""
        memo = self.ordered_memo
        if len(memo) >= MOVES_MEMO_SIZE:
            memo.clear()
        found = memo[bits] = tuple(sorted(cells_of(bits), key=self.rank.__getitem__))
        return found

    def flips(self, cell: int, mine: int, theirs: int) -> int:
        """Return the bits of the opponent's discs a disc on ``cell`` turns over."""
        flipped = 0
        for ray in self.rays[cell]:
            run = 0
            for bit in ray:
                if bit & theirs:
                    run |= bit
                else:
                    if bit & mine:
                        flipped |= run
                    break
        return flipped


@functools.cache
def geometry_for(size: int) -> Geometry:
    return Geometry(size)


def cells_of(bits: int) -> list[int]:
    """Return the cell indices of the set bits of ``bits``, lowest first."""
    cells = []
    while bits:
        low = bits & -bits
        cells.append(low.bit_length() - 1)
        bits ^= low
    return cells
