"""The floors: searches hand-specialised for one game, in plain Python.

Each floor does a row's search the way someone would write it for that game
alone: bitboards passed as arguments, no game object, no protocol, no statistics
beyond the node count. The gap between a floor and the framework is the price of
the framework's generality. Every function here is a hot loop, written for speed.

Node counts follow the framework's convention (every position entered, root
included), so a floor and the matching framework searcher report the same count.
"""

from __future__ import annotations

from collections.abc import Sequence

# ----------------------------------------------------------------- tic-tac-toe
#: the eight lines of the 3x3 board, cells numbered 0..8 row by row
TICTACTOE_LINES = (0o7, 0o70, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124)
#: ``TICTACTOE_WINS[board]``: does this set of marks hold a line?
TICTACTOE_WINS = tuple(any(board & line == line for line in TICTACTOE_LINES) for board in range(512))
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
    total += CONNECT4_CENTRE_POINTS * ((crosses & centre).bit_count() - (noughts & centre).bit_count())
    return max(-CONNECT4_EVAL_LIMIT, min(CONNECT4_EVAL_LIMIT, total))


def connect4_alphabeta(depth: int) -> tuple[int, int]:
    """Return (value for the first player, nodes) of depth-limited alpha-beta, empty board.

    Centre-first order, the root's moves sharing one window, a win at ply ``p``
    worth ``1000 - p``, the window heuristic at the horizon: the framework's
    ``alphabeta:depth=N,all_best=off`` on ``connect4``.
    """
    order, bottoms, tops, columns = CONNECT4_ORDER, CONNECT4_BOTTOMS, CONNECT4_TOPS, CONNECT4_COLUMNS
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
    """Return (stones of the side to move, stones of the other side, ply) after ``moves`` (columns 1..7)."""
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
    order, bottoms, tops, columns = CONNECT4_ORDER, CONNECT4_BOTTOMS, CONNECT4_TOPS, CONNECT4_COLUMNS
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
