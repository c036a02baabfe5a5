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
