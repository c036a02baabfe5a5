"""The checkers board as bitboards: the square numbers, the step and jump tables built
once, and the questions asked of whole bitboards (can a side capture, can it move, how
long can a game last) that :mod:`checkers <gamesearch_games.checkers>` and its hot
loop use.

Square ``n`` (1 to 32, numbered as in every checkers book) is bit ``n - 1``; the moves
of :class:`~gamesearch_games.checkers.Checkers` are tuples of such squares.
"""

from __future__ import annotations

from typing import Any

#: a move: the squares (0 to 31, square number minus 1) the piece stops on, first to last
Move = tuple[int, ...]

SQUARES = 32
FULL = (1 << SQUARES) - 1
BLACK, WHITE = 0, 1
SIDE_LETTERS = ("B", "W")
#: the symbols of the board view: Black's men and kings, White's men and kings
MAN_SYMBOLS, KING_SYMBOLS = ("b", "w"), ("B", "W")
EMPTY_DARK, EMPTY_LIGHT = ".", " "
START_BLACK = (1 << 12) - 1  # squares 1-12
START_WHITE = FULL ^ ((1 << 20) - 1)  # squares 21-32
DEFAULT_DRAW_PLIES = 80
#: heuristic points: a man, a king, each row a man has advanced, a man on its own back
#: row, a piece on one of the eight central squares
MAN_POINTS, KING_POINTS, ROW_POINTS, BACK_ROW_POINTS, CENTRE_POINTS = 100, 150, 3, 6, 4


def row_of(square: int) -> int:
    """Return the row of ``square`` (0 to 31), 0 being the top (Black's back row)."""
    return square // 4


def column_of(square: int) -> int:
    """Return the column of ``square`` (0 to 31), 0 being the left edge."""
    row = square // 4
    return 2 * (square % 4) + (1 if row % 2 == 0 else 0)


def square_at(row: int, col: int) -> int | None:
    """Return the square (0 to 31) at ``row`` and ``col``, or ``None`` off the board or on a
    light square."""
    if not (0 <= row < 8 and 0 <= col < 8) or (row + col) % 2 == 0:
        return None
    return row * 4 + col // 2


def _row_bits(row: int) -> int:
    return 0b1111 << (4 * row)


#: the directions a piece may go, as (rows, columns): Black's men go down, White's up
FORWARD = (((1, -1), (1, 1)), ((-1, -1), (-1, 1)))
ALL_DIRECTIONS = FORWARD[BLACK] + FORWARD[WHITE]
#: the row where each side's men are crowned
CROWN_ROWS = (_row_bits(7), _row_bits(0))
BACK_ROWS = (_row_bits(0), _row_bits(7))
CENTRE = sum(
    1 << square
    for square in range(SQUARES)
    if 2 <= row_of(square) <= 5 and 2 <= column_of(square) <= 5
)


def _tables(directions: tuple[tuple[int, int], ...]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Return, by square, the steps ``(target bit, move)`` and jumps ``(jumped bit,
    landing square, landing bit)`` along ``directions``."""
    steps, jumps = [], []
    for square in range(SQUARES):
        row, col = row_of(square), column_of(square)
        square_steps, square_jumps = [], []
        for drow, dcol in directions:
            near = square_at(row + drow, col + dcol)
            if near is None:
                continue
            square_steps.append((1 << near, (square, near)))
            far = square_at(row + 2 * drow, col + 2 * dcol)
            if far is not None:
                square_jumps.append((1 << near, far, 1 << far))
        steps.append(tuple(square_steps))
        jumps.append(tuple(square_jumps))
    return tuple(steps), tuple(jumps)


_BY_KIND = (_tables(FORWARD[BLACK]), _tables(FORWARD[WHITE]), _tables(ALL_DIRECTIONS))
#: by kind (0: Black's man, 1: White's man, 2: a king of either side), by square
STEPS: tuple[tuple[Any, ...], ...] = tuple(steps for steps, _ in _BY_KIND)
JUMPS: tuple[tuple[Any, ...], ...] = tuple(jumps for _, jumps in _BY_KIND)
KING = 2
#: the bit of the square jumped over from ``a`` to ``b`` at ``a * 32 + b`` (0: not a jump)
JUMPED = [0] * (SQUARES * SQUARES)
for _square in range(SQUARES):
    for _jumped, _landing, _ in JUMPS[KING][_square]:
        JUMPED[_square * SQUARES + _landing] = _jumped


def bits_of(bits: int) -> list[int]:
    """Return the squares of the set bits of ``bits``, lowest first."""
    squares = []
    while bits:
        low = bits & -bits
        squares.append(low.bit_length() - 1)
        bits ^= low
    return squares


# Hot path: the chain of jumps of one piece, depth first; every chain is kept whole.
def extend_jumps(
    path: Move,
    square: int,
    jumped: int,
    theirs: int,
    empty: int,
    table: Any,
    crown: int,
    found: list[Move],
) -> None:
    """Append to ``found`` every complete chain of jumps that goes on from ``path``.

    ``jumped`` holds the pieces already jumped (they stay on the board until the move
    ends, so they can be neither jumped again nor landed on); ``crown`` is the row
    that ends a man's move (0 for a king).
    """
    extended = False
    for over, landing, landing_bit in table[square]:
        if over & theirs and not over & jumped and landing_bit & empty:
            extended = True
            longer = path + (landing,)
            if landing_bit & crown:
                found.append(longer)
            else:
                extend_jumps(longer, landing, jumped | over, theirs, empty, table, crown, found)
    if not extended:
        found.append(path)


_EVEN_ROWS = sum(0b1111 << (4 * row) for row in range(0, 8, 2))
_ODD_ROWS = FULL ^ _EVEN_ROWS
_LEFT_EDGE = sum(1 << (4 * row) for row in range(8))  # the first square of each row
_RIGHT_EDGE = _LEFT_EDGE << 3  # the last square of each row


# Hot path: a few shifts of whole bitboards, no loop. Square s of an even row (0, 2, ...)
# has its neighbours below at s + 4 and s + 5 and above at s - 4 and s - 3; of an odd
# row at s + 3, s + 4 and s - 5, s - 4; a jump lands at s + 7, s + 9, s - 9 or s - 7.
def _jump_targets(down: int, up: int, theirs: int) -> int:
    """Return the squares where the pieces ``down`` (going down the board) and ``up``
    (going up) would land by jumping over a piece of ``theirs``, empty or not."""
    landings = 0
    if down:
        even, odd = down & _EVEN_ROWS, down & _ODD_ROWS
        landings |= ((even & ~_LEFT_EDGE) << 4 & theirs) << 3 | (
            (odd & ~_LEFT_EDGE) << 3 & theirs
        ) << 4
        landings |= ((even & ~_RIGHT_EDGE) << 5 & theirs) << 4 | (
            (odd & ~_RIGHT_EDGE) << 4 & theirs
        ) << 5
    if up:
        even, odd = up & _EVEN_ROWS, up & _ODD_ROWS
        landings |= ((even & ~_LEFT_EDGE) >> 4 & theirs) >> 5 | (
            (odd & ~_LEFT_EDGE) >> 5 & theirs
        ) >> 4
        landings |= ((even & ~_RIGHT_EDGE) >> 3 & theirs) >> 4 | (
            (odd & ~_RIGHT_EDGE) >> 4 & theirs
        ) >> 3
    return landings


def can_capture(mine: int, theirs: int, kings: int, turn: int) -> bool:
    """Return whether the side whose pieces are ``mine`` (``turn``: 0 Black, 1 White,
    Black's men going down the board) has a capture."""
    down = mine & kings if turn else mine
    up = mine if turn else mine & kings
    return bool(_jump_targets(down, up, theirs) & FULL & ~(mine | theirs))


def can_move(mine: int, theirs: int, kings: int, turn: int) -> bool:
    """Return whether the side whose pieces are ``mine`` (``turn``: 0 Black, 1 White,
    Black's men going down the board) has a legal move: a step or a capture."""
    empty = FULL & ~(mine | theirs)
    down = mine & kings if turn else mine
    up = mine if turn else mine & kings
    if down:
        even, odd = down & _EVEN_ROWS, down & _ODD_ROWS
        if (down << 4 | (even & ~_RIGHT_EDGE) << 5 | (odd & ~_LEFT_EDGE) << 3) & empty:
            return True
    if up:
        even, odd = up & _EVEN_ROWS, up & _ODD_ROWS
        if (up >> 4 | (even & ~_RIGHT_EDGE) >> 3 | (odd & ~_LEFT_EDGE) >> 5) & empty:
            return True
    return bool(_jump_targets(down, up, theirs) & empty)


def progress_left(men_steps: int, pieces: int) -> int:
    """Return the captures and man moves a position can still see, at most.

    ``men_steps`` is the rows the men still have to go to be crowned (each man's move
    takes one or two of them) and ``pieces`` the pieces on the board (each capture
    takes at least one, and the game ends before a side has none).
    """
    return men_steps + max(0, pieces - 2)


def longest_game(draw_plies: int) -> int:
    """Return the longest game in plies from the start with this draw rule.

    Each ply is either quiet (no capture, no man moved: at most ``draw_plies`` in a
    row) or makes progress (a capture or a man's move: at most :func:`progress_left`
    of them), so a position with ``quiet`` quiet plies behind it ends within
    ``draw_plies - quiet + progress * (draw_plies + 1)`` plies.
    """
    steps = 2 * sum(7 - row_of(square) for square in range(12))
    return draw_plies + progress_left(steps, 24) * (draw_plies + 1)
