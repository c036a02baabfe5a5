"""The floors: searches hand-specialised for one game, in plain Python.

Each floor does a row's search the way someone would write it for that game
alone: bitboards passed as arguments, no game object, no protocol, no statistics
beyond the node count. The gap between a floor and the framework is the price of
the framework's generality. Every function here is a hot loop, written for speed.

Node counts follow the framework's convention (every position entered, root
included), so a floor and the matching framework searcher report the same count.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

# ----------------------------------------------------------------- tic-tac-toe
#: the eight lines of the 3x3 board, cells numbered 0..8 row by row
TICTACTOE_LINES = (0o7, 0o70, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124)
#: ``TICTACTOE_WINS[board]``: does this set of marks hold a line?
TICTACTOE_WINS = tuple(
    any(board & line == line for line in TICTACTOE_LINES) for board in range(512)
)
TICTACTOE_CELLS = tuple(1 << cell for cell in range(9))
TICTACTOE_FULL = 0o777


def tictactoe_minimax() -> tuple[int, int]:
    """Return (value for X, nodes) of plain win/draw/loss minimax from the empty board."""
    wins, cells = TICTACTOE_WINS, TICTACTOE_CELLS
    nodes = 0

    def negamax(mover: int, other: int, free: int) -> int:
        # value for the side to move; ``other`` has just moved
        nonlocal nodes
        nodes += 1
        if wins[other]:
            return -1
        if not free:
            return 0
        best = -2
        for cell in cells:
            if free & cell:
                value = -negamax(other, mover | cell, free ^ cell)
                if value > best:
                    best = value
        return best

    value = negamax(0, 0, TICTACTOE_FULL)
    return value, nodes


def tictactoe_alphabeta(crosses: int = 0, noughts: int = 0) -> tuple[int, int]:
    """Return (value for X, nodes) of win/draw/loss alpha-beta from a position.

    Natural move order; the root's moves share one window (each narrows it for the
    next), as the framework's ``alphabeta:ordering=natural,all_best=off`` does.
    """
    wins, cells = TICTACTOE_WINS, TICTACTOE_CELLS
    nodes = 0

    def negamax(mover: int, other: int, free: int, alpha: int, beta: int) -> int:
        nonlocal nodes
        nodes += 1
        if wins[other]:
            return -1
        if not free:
            return 0
        best = -2
        for cell in cells:
            if free & cell:
                value = -negamax(other, mover | cell, free ^ cell, -beta, -alpha)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
        return best

    x_to_move = crosses.bit_count() == noughts.bit_count()
    mover, other = (crosses, noughts) if x_to_move else (noughts, crosses)
    value = negamax(mover, other, TICTACTOE_FULL ^ crosses ^ noughts, -2, 2)
    return (value if x_to_move else -value), nodes


def tictactoe_alphabeta_table() -> tuple[int, int]:
    """Return (value for X, nodes) of alpha-beta with a table of bounds, empty board."""
    wins, cells = TICTACTOE_WINS, TICTACTOE_CELLS
    table: dict[int, tuple[int, int]] = {}
    nodes = 0

    def negamax(mover: int, other: int, free: int, alpha: int, beta: int) -> int:
        nonlocal nodes
        nodes += 1
        if wins[other]:
            return -1
        if not free:
            return 0
        key = mover << 9 | other
        bounds = table.get(key)
        if bounds is not None:
            lower, upper = bounds
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            alpha, beta = max(alpha, lower), min(beta, upper)
        window_alpha, best = alpha, -2
        for cell in cells:
            if free & cell:
                value = -negamax(other, mover | cell, free ^ cell, -beta, -alpha)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
        if best <= window_alpha:
            table[key] = (-2, best)
        elif best >= beta:
            table[key] = (best, 2)
        else:
            table[key] = (best, best)
        return best

    value = negamax(0, 0, TICTACTOE_FULL, -2, 2)
    return value, nodes


def tictactoe_solve_all(positions: Sequence[tuple[int, int]]) -> int:
    """Return the total nodes of :func:`tictactoe_alphabeta` over ``(crosses, noughts)`` positions.

    A finished position costs no search (0 nodes), as in the framework.
    """
    wins = TICTACTOE_WINS
    total = 0
    for crosses, noughts in positions:
        if not (wins[crosses] or wins[noughts] or crosses | noughts == TICTACTOE_FULL):
            total += tictactoe_alphabeta(crosses, noughts)[1]
    return total


# ---------------------------------------------------------------- Connect Four
# 7x6 board, column-major, 7 bits a column (6 cells and an empty guard bit above,
# so shifts along a line never wrap into the next column).
CONNECT4_WIDTH, CONNECT4_HEIGHT, CONNECT4_STRIDE = 7, 6, 7
CONNECT4_CELLS = CONNECT4_WIDTH * CONNECT4_HEIGHT
CONNECT4_ORDER = (3, 2, 4, 1, 5, 0, 6)  # centre first
CONNECT4_BOTTOMS = tuple(1 << col * CONNECT4_STRIDE for col in range(CONNECT4_WIDTH))
CONNECT4_TOPS = tuple(bottom << CONNECT4_HEIGHT - 1 for bottom in CONNECT4_BOTTOMS)
CONNECT4_COLUMNS = tuple(bottom * 0b111111 for bottom in CONNECT4_BOTTOMS)
CONNECT4_WINDOWS = tuple(
    sum(1 << (col + i * d_col) * CONNECT4_STRIDE + row + i * d_row for i in range(4))
    for col in range(CONNECT4_WIDTH)
    for row in range(CONNECT4_HEIGHT)
    for d_col, d_row in ((1, 0), (0, 1), (1, 1), (1, -1))
    if 0 <= col + 3 * d_col < CONNECT4_WIDTH and 0 <= row + 3 * d_row < CONNECT4_HEIGHT
)
#: the window heuristic: points for a window of four held by one side, by its stones
CONNECT4_WINDOW_POINTS = (0, 1, 4, 16)
CONNECT4_CENTRE_POINTS = 3
CONNECT4_WIN = 1000  #: a win at ply p is worth 1000 - p (the framework's scale)
CONNECT4_EVAL_LIMIT = CONNECT4_WIN - CONNECT4_CELLS - 1  #: heuristic values stay within ±this


def connect4_has_four(stones: int) -> bool:
    """Return whether ``stones`` hold four in a row (vertical, horizontal, two diagonals)."""
    for step in (1, 7, 6, 8):
        pair = stones & (stones >> step)
        if pair & (pair >> 2 * step):
            return True
    return False


def connect4_evaluate(crosses: int, noughts: int) -> int:
    """Return the window heuristic for the first player (windows plus centre stones)."""
    points, total = CONNECT4_WINDOW_POINTS, 0
    for window in CONNECT4_WINDOWS:
        mine, theirs = crosses & window, noughts & window
        if mine:
            if not theirs:
                total += points[mine.bit_count()]
        elif theirs:
            total -= points[theirs.bit_count()]
    centre = CONNECT4_COLUMNS[3]
    total += CONNECT4_CENTRE_POINTS * (
        (crosses & centre).bit_count() - (noughts & centre).bit_count()
    )
    return max(-CONNECT4_EVAL_LIMIT, min(CONNECT4_EVAL_LIMIT, total))


def connect4_alphabeta(depth: int) -> tuple[int, int]:
    """Return (value for the first player, nodes) of depth-limited alpha-beta, empty board.

    Centre-first order, the root's moves sharing one window, a win at ply ``p``
    worth ``1000 - p``, the window heuristic at the horizon: the framework's
    ``alphabeta:depth=N,all_best=off`` on ``connect4``.
    """
    order, bottoms, tops, columns = (
        CONNECT4_ORDER,
        CONNECT4_BOTTOMS,
        CONNECT4_TOPS,
        CONNECT4_COLUMNS,
    )
    has_four, evaluate = connect4_has_four, connect4_evaluate
    nodes = 0

    def negamax(mover: int, other: int, ply: int, depth_left: int, alpha: int, beta: int) -> int:
        # value for the side to move; ``other`` has just moved
        nonlocal nodes
        nodes += 1
        if has_four(other):
            return ply - CONNECT4_WIN
        if ply == CONNECT4_CELLS:
            return 0
        if depth_left == 0:
            return evaluate(mover, other)  # the heuristic is antisymmetric: the mover's view
        mask = mover | other
        best = -CONNECT4_WIN
        for col in order:
            if not mask & tops[col]:
                stone = (mask + bottoms[col]) & columns[col]
                value = -negamax(other, mover | stone, ply + 1, depth_left - 1, -beta, -alpha)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
        return best

    value = negamax(0, 0, 0, depth, -CONNECT4_WIN - 1, CONNECT4_WIN + 1)
    return value, nodes


def connect4_bitboards(moves: str) -> tuple[int, int, int]:
    """Return (stones of the side to move, stones of the other side, ply) after ``moves``
    (columns 1..7)."""
    mover = other = 0
    for column in moves:
        col = int(column) - 1
        mask = mover | other
        stone = (mask + CONNECT4_BOTTOMS[col]) & CONNECT4_COLUMNS[col]
        mover, other = other, mover | stone
    return mover, other, len(moves)


def connect4_solve(positions: Sequence[tuple[int, int, int]]) -> tuple[list[int], int]:
    """Return (first player's values, total nodes) of exact alpha-beta with a table of bounds.

    ``positions`` come from :func:`connect4_bitboards`; one table serves them all. A
    win at ply ``p`` is worth ``1000 - p``; centre-first order; the root is not
    stored, its moves share one window: the framework's
    ``alphabeta:table=on,all_best=off`` over the same positions.
    """
    order, bottoms, tops, columns = (
        CONNECT4_ORDER,
        CONNECT4_BOTTOMS,
        CONNECT4_TOPS,
        CONNECT4_COLUMNS,
    )
    has_four, unbounded = connect4_has_four, CONNECT4_WIN + 1
    table: dict[int, tuple[int, int]] = {}
    nodes = 0

    def negamax(mover: int, other: int, ply: int, alpha: int, beta: int) -> int:
        nonlocal nodes
        nodes += 1
        if has_four(other):
            return ply - CONNECT4_WIN
        if ply == CONNECT4_CELLS:
            return 0
        key = other << 49 | mover
        bounds = table.get(key)
        if bounds is not None:
            lower, upper = bounds
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            alpha, beta = max(alpha, lower), min(beta, upper)
        window_alpha, best, mask = alpha, -unbounded, mover | other
        for col in order:
            if not mask & tops[col]:
                stone = (mask + bottoms[col]) & columns[col]
                value = -negamax(other, mover | stone, ply + 1, -beta, -alpha)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
        if best <= window_alpha:
            table[key] = (-unbounded, best)
        elif best >= beta:
            table[key] = (best, unbounded)
        else:
            table[key] = (best, best)
        return best

    values = []
    for mover, other, ply in positions:
        best, mask = -unbounded, mover | other
        for col in order:  # the root: not stored, its moves share the window
            if not mask & tops[col]:
                stone = (mask + bottoms[col]) & columns[col]
                best = max(best, -negamax(other, mover | stone, ply + 1, -unbounded, -best))
        nodes += 1
        values.append(best if ply % 2 == 0 else -best)
    return values, nodes


# --------------------------------------------------------------------- scales
def proven_scale(max_plies: int) -> tuple[int, int, int]:
    """Return (win, stride, heuristic bound) of the framework's values for a longest game.

    A game won by ``r`` at ply ``p`` is worth ``(r - 1) * stride + win - p``; heuristic
    values stay strictly inside the heuristic bound.
    """
    win = 1000
    while win - max_plies < win // 2:
        win *= 10
    return win, max_plies + 1, win - max_plies


# -------------------------------------------------------------------- Othello
# size x size board, row-major from the top left: cell ``i`` is bit ``i``; one
# integer a colour. Passes are moves (turns alternate); a player without a disc to
# place passes, and the game ends when neither can place one.
OTHELLO_CORNER_POINTS, OTHELLO_MOBILITY_POINTS = 25, 5
#: a disc on the X-square / a C-square of an empty corner costs its owner this much
OTHELLO_X_POINTS, OTHELLO_C_POINTS = 15, 5
OTHELLO_EVALUATION_BOUND = 1000  #: the game's evaluate() stays strictly inside ±this
#: entries of a board size's legal-move memo before it is emptied (the game's figure)
OTHELLO_MEMO_SIZE = 1 << 18


class OthelloBoard:
    """The masks, rays and move orders of one Othello board size."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.cells = cells = size * size
        self.full = full = (1 << cells) - 1
        left = sum(1 << (row * size) for row in range(size))
        not_left, not_right = full & ~left, full & ~(left << (size - 1))
        self.directions = (
            (1, not_left),
            (-1, not_right),
            (size, full),
            (-size, full),
            (size + 1, not_left),
            (size - 1, not_right),
            (1 - size, not_left),
            (-1 - size, not_right),
        )
        self.rays = tuple(self._rays(cell) for cell in range(cells))
        half = size // 2
        self.white = 1 << ((half - 1) * size + half - 1) | 1 << (half * size + half)
        self.black = 1 << ((half - 1) * size + half) | 1 << (half * size + half - 1)
        last = size - 1
        self.corners = 1 | 1 << last | 1 << (last * size) | 1 << (cells - 1)
        #: (corner, X-square, C-squares) bits of the four corners
        self.corner_squares = (
            (1, 1 << (size + 1), 1 << 1 | 1 << size),
            (1 << last, 1 << (size + last - 1), 1 << (last - 1) | 1 << (size + last)),
            (
                1 << (last * size),
                1 << ((last - 1) * size + 1),
                1 << ((last - 1) * size) | 1 << (last * size + 1),
            ),
            (1 << (cells - 1), 1 << (cells - size - 2), 1 << (cells - 2) | 1 << (cells - size - 1)),
        )
        self.natural = tuple(range(cells))
        self.ordered = tuple(sorted(range(cells), key=self._priority))
        self.max_plies = 2 * (cells - 4)
        #: legal-move bits by ``mine << cells | theirs``
        self.moves_memo: dict[int, int] = {}

    def _rays(self, cell: int) -> tuple[tuple[int, ...], ...]:
        rays = []
        for shift, mask in self.directions:
            ray, bit = [], 1 << cell
            while True:
                bit = (bit << shift if shift > 0 else bit >> -shift) & mask
                if not bit:
                    break
                ray.append(bit)
            if len(ray) >= 2:
                rays.append(tuple(ray))
        return tuple(rays)

    def _priority(self, cell: int) -> tuple[int, int]:
        """Corners, edges, the inside, then the cells next to a corner (the game's order)."""
        row, col = divmod(cell, self.size)
        last = self.size - 1
        edge_row, edge_col = row in (0, last), col in (0, last)
        near_row, near_col = row in (1, last - 1), col in (1, last - 1)
        if edge_row and edge_col:
            return (0, cell)
        if (edge_row or near_row) and (edge_col or near_col):
            return (3, cell)
        return (1 if edge_row or edge_col else 2, cell)

    def move_bits(self, mine: int, theirs: int) -> int:
        """Return the cells where the owner of ``mine`` may place a disc, as bits.

        Memoised by board in :attr:`moves_memo` (emptied when full), as the game does.
        """
        memo_key = mine << self.cells | theirs
        found = self.moves_memo.get(memo_key)
        if found is not None:
            return found
        empty = self.full & ~(mine | theirs)
        found = 0
        steps = range(self.size - 3)
        for shift, mask in self.directions:
            allowed = mask & theirs
            if shift > 0:
                line = (mine << shift) & allowed
                for _ in steps:
                    line |= (line << shift) & allowed
                found |= (line << shift) & mask & empty
            else:
                back = -shift
                line = (mine >> back) & allowed
                for _ in steps:
                    line |= (line >> back) & allowed
                found |= (line >> back) & mask & empty
        if len(self.moves_memo) >= OTHELLO_MEMO_SIZE:
            self.moves_memo.clear()
        self.moves_memo[memo_key] = found
        return found


@functools.cache
def othello_board(size: int) -> OthelloBoard:
    """Return the board of one size (one per size, so its move memo lasts across searches)."""
    return OthelloBoard(size)


def othello_searcher(
    size: int, *, ordered: bool = True, table: bool = False
) -> tuple[OthelloBoard, Callable[[int, int, int, float, int, int], int], Callable[[], int]]:
    """Return (board, negamax, node count) of a passes-as-moves Othello alpha-beta.

    ``negamax(mover, other, ply, depth_left, alpha, beta)`` returns the fail-soft
    value for the side to move of the position reached (``other`` has just moved;
    ``depth_left`` may be ``inf``): a finished game scores on the framework's scale,
    the heuristic at the horizon is the game's ``evaluate()`` mapped inside it.
    ``ordered`` tries the game's move order (else row-major), ``table`` keeps a
    dict of bounds of the non-root positions, as the framework's alpha-beta does.
    """
    board = othello_board(size)
    win, stride, heuristic_bound = proven_scale(board.max_plies)
    limit, bound = heuristic_bound - 1, OTHELLO_EVALUATION_BOUND
    clip = bound - 1
    order, rays, corners = (board.ordered if ordered else board.natural), board.rays, board.corners
    corner_squares = board.corner_squares
    cells, memo = board.cells, board.moves_memo
    memo_get, generate = memo.get, board.move_bits
    entries: dict[int, tuple[int, int]] = {}
    probe = entries.get
    unbounded = 1 << 62
    nodes = 0

    def evaluate(mover: int, other: int, mine: int, theirs: int) -> int:
        total = OTHELLO_CORNER_POINTS * (
            (mover & corners).bit_count() - (other & corners).bit_count()
        ) + OTHELLO_MOBILITY_POINTS * (mine.bit_count() - theirs.bit_count())
        occupied = mover | other
        for corner, x_square, c_squares in corner_squares:
            if not occupied & corner:
                total += OTHELLO_X_POINTS * (bool(other & x_square) - bool(mover & x_square))
                total += OTHELLO_C_POINTS * (
                    (other & c_squares).bit_count() - (mover & c_squares).bit_count()
                )
        total = max(-clip, min(clip, total))
        return int(total * limit / bound) if bound > limit else total

    def negamax(mover: int, other: int, ply: int, depth_left: float, alpha: int, beta: int) -> int:
        nonlocal nodes
        nodes += 1
        mine = memo_get(mover << cells | other)
        if mine is None:
            mine = generate(mover, other)
        if not mine:
            theirs = generate(other, mover)
            if not theirs:  # no one can move: the game is over
                result = mover.bit_count() - other.bit_count()
                if result > 0:
                    return (result - 1) * stride + win - ply
                return 0 if result == 0 else (result + 1) * stride - win + ply
        if depth_left == 0:
            return evaluate(mover, other, mine, generate(other, mover) if mine else theirs)
        if table:
            key = (
                mover << cells | other
            ) << 8 | ply  # Black moves at even plies: the ply tells the side
            bounds = probe(key)
            if bounds is not None:
                lower, upper = bounds
                if lower >= beta or lower == upper:
                    return lower
                if upper <= alpha:
                    return upper
                alpha, beta = max(alpha, lower), min(beta, upper)
            window_alpha = alpha
        if not mine:  # a pass
            best = -negamax(other, mover, ply + 1, depth_left - 1, -beta, -alpha)
        else:
            best = -unbounded
            for cell in order:
                bit = 1 << cell
                if mine & bit:
                    flipped = 0
                    for ray in rays[cell]:
                        run = 0
                        for square in ray:
                            if square & other:
                                run |= square
                            else:
                                if square & mover:
                                    flipped |= run
                                break
                    value = -negamax(
                        other ^ flipped,
                        mover | bit | flipped,
                        ply + 1,
                        depth_left - 1,
                        -beta,
                        -alpha,
                    )
                    if value > best:
                        best = value
                        if value > alpha:
                            alpha = value
                            if alpha >= beta:
                                break
        if table:
            if best <= window_alpha:
                entries[key] = (-unbounded, best)
            elif best >= beta:
                entries[key] = (best, unbounded)
            else:
                entries[key] = (best, best)
        return best

    def count() -> int:
        return nodes

    return board, negamax, count


def othello_alphabeta(
    size: int, depth: int, position: tuple[int, int, int] | None = None, *, ordered: bool = True
) -> tuple[int, int]:
    """Return (value for Black, nodes) of depth-limited alpha-beta on Othello.

    ``position`` is (Black's discs, White's discs, ply), Black to move at even plies
    (``None``: the start). ``ordered`` tries the game's move order (corners first),
    else row-major order. The root's moves share one window: the framework's
    ``alphabeta:depth=N,all_best=off`` (with ``ordering=natural`` when not ordered).
    """
    board, negamax, count = othello_searcher(size, ordered=ordered)
    black, white, ply = position if position is not None else (board.black, board.white, 0)
    mover, other = (black, white) if ply % 2 == 0 else (white, black)
    unbounded = 1 << 62
    value = negamax(mover, other, ply, depth, -unbounded, unbounded)
    return (value if ply % 2 == 0 else -value), count()


def othello_solve(size: int, positions: Sequence[tuple[int, int, int]]) -> tuple[list[int], int]:
    """Return (values for Black, total nodes) of exact alpha-beta with a dict of bounds.

    Each position (as in :func:`othello_alphabeta`) gets a fresh table; the root is
    not stored and its moves share one window: the framework's
    ``alphabeta:table=on,all_best=off`` searching each position.
    """
    unbounded, values, nodes = 1 << 62, [], 0
    for black, white, ply in positions:
        _, negamax, count = othello_searcher(size, table=True)
        mover, other = (black, white) if ply % 2 == 0 else (white, black)
        value = negamax(mover, other, ply, float("inf"), -unbounded, unbounded)
        values.append(value if ply % 2 == 0 else -value)
        nodes += count()
    return values, nodes


# ---------------------------------------------------------------------- Kalah
# The board is a list in sowing order: the first player's houses, their store, the
# second player's houses, their store. A move whose last seed lands in the mover's
# store gives them another move, so turns do not alternate: the value is negated
# only where the side to move changes.
KALAH_STORE_POINTS, KALAH_HOUSE_POINTS = 4, 1
KALAH_EVALUATION_BOUND = 10_000  #: the game's evaluate() stays strictly inside ±this


def kalah_max_plies(pits: int, seeds: int) -> int:
    """Return the longest Kalah game with these options, as the game declares it."""
    total = 2 * pits * seeds
    return pits * total * (total + 1) // 2 + total


def kalah_searcher(
    pits: int, seeds: int, *, ordered: bool = False, table: bool = False, distance: bool = True
) -> tuple[Callable[[list[int], int, bool, int, float, int, int], int], Callable[[], int]]:
    """Return (negamax, node count) of a Kalah alpha-beta.

    ``negamax(board, turn, over, ply, depth_left, alpha, beta)`` returns the
    fail-soft value for ``turn`` (0: the first player), the side to move at
    ``board`` (``over``: the game has ended there; ``depth_left`` may be ``inf``).
    A finished game scores on the framework's scale, the heuristic at the horizon
    is the game's ``evaluate()`` (mapped inside the scale if need be). ``ordered``
    tries the game's move order (moves that end in the mover's store first, then
    from the house nearest the store), else house order; ``table`` keeps a dict of
    bounds of the non-root positions, as the framework's alpha-beta does. Without
    ``distance`` a finished game's value does not depend on its ply (plain scoring).
    """
    win, stride, heuristic_bound = proven_scale(kalah_max_plies(pits, seeds))
    plies_off = 1 if distance else 0
    bound = KALAH_EVALUATION_BOUND
    clip, limit = bound - 1, heuristic_bound - 1
    slots, lap = 2 * pits + 2, 2 * pits + 1
    entries: dict[tuple[int, ...], tuple[int, int]] = {}
    probe = entries.get
    unbounded = 1 << 62
    nodes = 0

    def sow(board: list[int], house: int, turn: int) -> tuple[list[int], int, bool]:
        """Return the board after the mover sows ``house``, the next mover, whether it is over."""
        board = board.copy()
        if turn:
            start, store, skipped = pits + 1 + house, 2 * pits + 1, pits
        else:
            start, store, skipped = house, pits, 2 * pits + 1
        seeds_left, board[start] = board[start], 0
        index = start
        while seeds_left:
            index += 1
            if index == slots:
                index = 0
            if index != skipped:
                board[index] += 1
                seeds_left -= 1
        if index != store:
            opposite = 2 * pits - index
            if board[index] == 1 and store - pits <= index < store and board[opposite]:
                board[store] += board[opposite] + 1
                board[index] = board[opposite] = 0
            turn ^= 1
        south, north = sum(board[:pits]), sum(board[pits + 1 : lap])
        if south and north:
            return board, turn, False
        board[pits] += south
        board[lap] += north
        board[:pits] = board[pits + 1 : lap] = [0] * pits
        return board, turn, True

    def negamax(
        board: list[int], turn: int, over: bool, ply: int, depth_left: float, alpha: int, beta: int
    ) -> int:
        nonlocal nodes
        nodes += 1
        if over:
            result = board[pits] - board[lap]
            if turn:
                result = -result
            if result > 0:
                return (result - 1) * stride + win - plies_off * ply
            return 0 if result == 0 else (result + 1) * stride - win + plies_off * ply
        if depth_left == 0:
            stored = board[pits] - board[lap]
            houses = sum(board[:pits]) - sum(board[pits + 1 : lap])
            total = max(-clip, min(clip, KALAH_STORE_POINTS * stored + KALAH_HOUSE_POINTS * houses))
            if bound > limit:  # the framework maps the heuristic inside its range
                total = int(total * limit / bound)
            return -total if turn else total
        if table:
            key = (*board, turn, ply)
            bounds = probe(key)
            if bounds is not None:
                lower, upper = bounds
                if lower >= beta or lower == upper:
                    return lower
                if upper <= alpha:
                    return upper
                alpha, beta = max(alpha, lower), min(beta, upper)
            window_alpha = alpha
        offset = pits + 1 if turn else 0
        moves = [house for house in range(pits) if board[offset + house]]
        if ordered:
            moves.sort(key=lambda house: (board[offset + house] % lap != pits - house, -house))
        best = -unbounded
        for house in moves:
            child, next_turn, finished = sow(board, house, turn)
            if next_turn == turn:  # another move: the same side's values carry over
                value = negamax(child, next_turn, finished, ply + 1, depth_left - 1, alpha, beta)
            else:
                value = -negamax(child, next_turn, finished, ply + 1, depth_left - 1, -beta, -alpha)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if table:
            if best <= window_alpha:
                entries[key] = (-unbounded, best)
            elif best >= beta:
                entries[key] = (best, unbounded)
            else:
                entries[key] = (best, best)
        return best

    def count() -> int:
        return nodes

    return negamax, count


def kalah_alphabeta(
    depth: int, pits: int = 6, seeds: int = 4, *, ordered: bool = False
) -> tuple[int, int]:
    """Return (value for the first player, nodes) of depth-limited alpha-beta on Kalah.

    From the start, in house order or (``ordered``) the game's order. The root's
    moves share one window: the framework's ``alphabeta:depth=N,all_best=off`` (with
    ``ordering=natural`` when not ordered).
    """
    negamax, count = kalah_searcher(pits, seeds, ordered=ordered)
    row, unbounded = [seeds] * pits, 1 << 62
    value = negamax(row + [0] + row + [0], 0, False, 0, depth, -unbounded, unbounded)
    return value, count()


def kalah_solve(
    positions: Sequence[tuple[Sequence[int], int, int]],
    *,
    ordered: bool = True,
    distance: bool = True,
) -> tuple[list[int], int]:
    """Return (values for the first player, total nodes) of exact alpha-beta with a dict of bounds.

    ``positions`` are (board in sowing order, side to move, ply) of unfinished
    6-house games of 4 seeds. Each gets a fresh table; the root is not stored and
    its moves share one window: the framework's ``alphabeta:table=on,all_best=off``
    (``scoring=plain`` without ``distance``: the margin only, not when it comes).
    """
    unbounded, values, nodes = 1 << 62, [], 0
    for board, turn, ply in positions:
        negamax, count = kalah_searcher(6, 4, ordered=ordered, table=True, distance=distance)
        value = negamax(list(board), turn, False, ply, float("inf"), -unbounded, unbounded)
        values.append(-value if turn else value)
        nodes += count()
    return values, nodes
