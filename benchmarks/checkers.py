"""The checkers row: depth-limited alpha-beta from the start, against a floor and OpenSpiel.

The floor is a plain recursive negamax over a move generator of its own, written
for speed in one closure: the boards are three integers passed down the recursion
(no make and unmake, no history), the moves are tuples of bits. At the horizon it asks
only whether the mover can move, with the game's own bitboard test (``can_move``), as
the game's ``result()`` does. It searches the
framework's tree node for node: the game's move order (longest chains of jumps first;
else crowning moves, then the men's, then the kings'), the game's heuristic at the
horizon and the framework's values for a finished game, so its nodes and value
equal ``alphabeta:depth=N,all_best=off`` (tests/test_checkers_bench.py checks it).

OpenSpiel's ``checkers`` plays each jump of a chain as an action of its own (the
mover stays the same), so its tree is not the same: it is compared per node, with
the same heuristic read off its board.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from benchmarks.core import FLOOR, Contender
from benchmarks.floors import proven_scale
from gamesearch.plugins import default_registry

CHECKERS_DEPTH = "checkers: alpha-beta depth 8"
DEPTH = 8
#: row name -> (in ``--quick``, note), added to the benchmark's rows
ROWS: dict[str, tuple[bool, str]] = {
    CHECKERS_DEPTH: (
        True,
        "start, the game's move order (longest captures, then crowning) and heuristic "
        "(material, advance, back row, centre); OpenSpiel plays each jump of a chain as "
        "an action, so its tree differs: compare nodes/s",
    ),
}

SQUARES = 32
FULL = (1 << SQUARES) - 1
DRAW_PLIES = 80  #: the game's default draw rule
#: heuristic points, as the game's: a man, a king, a row advanced, a man on its back row,
#: a piece on a central square
MAN, KING, ROW, BACK, CENTRE = 100, 150, 3, 6, 4
EVALUATION_BOUND = 10_000
#: directions (rows, columns) by number: 0 and 1 go down the board (Black's way), 2 and 3 up
DIRECTIONS = ((1, -1), (1, 1), (-1, -1), (-1, 1))
MEN_DIRECTIONS = ((0, 1), (2, 3))  # Black's men, White's men
KING_DIRECTIONS = (0, 1, 2, 3)


def square_of(row: int, col: int) -> int:
    """Return the square index (0 to 31) at ``row`` and ``col``, or -1 off the dark squares."""
    if 0 <= row < 8 and 0 <= col < 8 and (row + col) % 2 == 1:
        return row * 4 + col // 2
    return -1


def coordinates(square: int) -> tuple[int, int]:
    """Return the (row, column) of a square index; row 0 is Black's back row."""
    row = square >> 2
    return row, 2 * (square & 3) + (0 if row & 1 else 1)


def _neighbours() -> tuple[tuple[int, int], ...]:
    """Return, at ``square * 4 + direction``, the next square and the one beyond (-1: none)."""
    table = []
    for square in range(SQUARES):
        row, col = coordinates(square)
        for d_row, d_col in DIRECTIONS:
            table.append(
                (square_of(row + d_row, col + d_col), square_of(row + 2 * d_row, col + 2 * d_col))
            )
    return tuple(table)


NEIGHBOURS = _neighbours()
ROW_MASKS = tuple(0b1111 << (4 * row) for row in range(8))
CROWN_ROW = (ROW_MASKS[7], ROW_MASKS[0])
CENTRE_MASK = sum(
    1 << square
    for square in range(SQUARES)
    if all(2 <= value <= 5 for value in coordinates(square))
)


def checkers_heuristic(black: int, white: int, kings: int) -> int:
    """Return the game's heuristic for Black: material, the men's advance, back rows, centre."""
    black_men, white_men = black & ~kings, white & ~kings
    total = MAN * (black_men.bit_count() - white_men.bit_count())
    total += KING * ((black & kings).bit_count() - (white & kings).bit_count())
    total += ROW * sum(
        row * (black_men & ROW_MASKS[row]).bit_count()
        - (7 - row) * (white_men & ROW_MASKS[row]).bit_count()
        for row in range(8)
    )
    total += BACK * (
        (black_men & ROW_MASKS[0]).bit_count() - (white_men & ROW_MASKS[7]).bit_count()
    )
    total += CENTRE * ((black & CENTRE_MASK).bit_count() - (white & CENTRE_MASK).bit_count())
    return max(1 - EVALUATION_BOUND, min(EVALUATION_BOUND - 1, total))


def checkers_max_plies(draw_plies: int) -> int:
    """Return the longest game as the game declares it: each of the 144 rows the men
    can advance and the 22 captures may be followed by ``draw_plies`` quiet plies."""
    return draw_plies + (144 + 22) * (draw_plies + 1)


#: a position: Black's pieces, White's pieces, kings, side to move (0: Black), quiet plies, ply
Position = tuple[int, int, int, int, int, int]
START: Position = ((1 << 12) - 1, FULL ^ ((1 << 20) - 1), 0, 0, 0, 0)


def checkers_searcher(draw_plies: int = DRAW_PLIES) -> tuple[Callable[..., int], Callable[[], int]]:
    """Return (negamax, node count) of the floor's alpha-beta.

    ``negamax(mine, theirs, kings, turn, quiet, ply, depth_left, alpha, beta)`` returns
    the fail-soft value for ``turn``, the side to move (its pieces are ``mine``).
    """
    win, _, _ = proven_scale(checkers_max_plies(draw_plies))
    checkers: Any = default_registry().games["checkers"]
    can_move: Callable[[int, int, int, int], bool] = checkers.can_move
    neighbours = NEIGHBOURS
    nodes = 0

    # Hot loop from here on: locals only, one list of moves per node.
    def chain(
        low: int,
        square: int,
        jumps: int,
        captured: int,
        directions: tuple[int, ...],
        stop: int,
        theirs: int,
        open_squares: int,
        found: list[tuple[int, int, int, int, int]],
    ) -> None:
        """Append every whole chain of jumps that goes on from ``square`` (the piece ``low``
        started elsewhere); ``stop`` is the row that crowns a man and ends its move."""
        extended = False
        for direction in directions:
            over, landing = neighbours[square * 4 + direction]
            if (
                landing >= 0
                and theirs >> over & 1
                and not captured >> over & 1
                and open_squares >> landing & 1
            ):
                extended = True
                if stop >> landing & 1:
                    found.append((jumps + 1, low, 1 << landing, captured | 1 << over, 1))
                else:
                    chain(
                        low,
                        landing,
                        jumps + 1,
                        captured | 1 << over,
                        directions,
                        stop,
                        theirs,
                        open_squares,
                        found,
                    )
        if not extended:
            found.append((jumps, low, 1 << square, captured, 0 if stop else 1))

    def moves_of(
        mine: int, theirs: int, kings: int, turn: int
    ) -> list[tuple[int, int, int, int, int]]:
        """Return the moves ``(jumps, from bit, to bit, captured bits, a king after it)`` in the
        game's order."""
        empty = FULL & ~(mine | theirs)
        captures: list[tuple[int, int, int, int, int]] = []
        crown_row = CROWN_ROW[turn]
        men_directions: tuple[int, ...] = MEN_DIRECTIONS[turn]
        directions: tuple[int, ...]
        bits = mine
        while bits:
            low = bits & -bits
            bits ^= low
            square = low.bit_length() - 1
            if kings & low:
                directions, stop = KING_DIRECTIONS, 0
            else:
                directions, stop = men_directions, crown_row
            for direction in directions:
                over, landing = neighbours[square * 4 + direction]
                if landing >= 0 and theirs >> over & 1 and empty >> landing & 1:
                    if stop >> landing & 1:
                        captures.append((1, low, 1 << landing, 1 << over, 1))
                    else:  # the piece has left its square: a king may come back to it
                        chain(
                            low,
                            landing,
                            1,
                            1 << over,
                            directions,
                            stop,
                            theirs,
                            empty | low,
                            captures,
                        )
        if captures:
            captures.sort(key=lambda move: -move[0])
            return captures
        crowning: list[tuple[int, int, int, int, int]] = []
        men: list[tuple[int, int, int, int, int]] = []
        king_moves: list[tuple[int, int, int, int, int]] = []
        bits = mine
        while bits:
            low = bits & -bits
            bits ^= low
            square = low.bit_length() - 1
            if kings & low:
                for direction in KING_DIRECTIONS:
                    target = neighbours[square * 4 + direction][0]
                    if target >= 0 and empty >> target & 1:
                        king_moves.append((0, low, 1 << target, 0, 1))
            else:
                for direction in men_directions:
                    target = neighbours[square * 4 + direction][0]
                    if target >= 0 and empty >> target & 1:
                        if crown_row >> target & 1:
                            crowning.append((0, low, 1 << target, 0, 1))
                        else:
                            men.append((0, low, 1 << target, 0, 0))
        return crowning + men + king_moves

    def negamax(
        mine: int,
        theirs: int,
        kings: int,
        turn: int,
        quiet: int,
        ply: int,
        depth_left: int,
        alpha: int,
        beta: int,
    ) -> int:
        nonlocal nodes
        nodes += 1
        if depth_left == 0:  # whether the mover can move is all a leaf needs
            if not can_move(mine, theirs, kings, turn):
                return ply - win  # lost at this ply
            if quiet >= draw_plies:
                return 0
            if turn == 0:
                return checkers_heuristic(mine, theirs, kings)
            return -checkers_heuristic(theirs, mine, kings)
        moves = moves_of(mine, theirs, kings, turn)
        if not moves:
            return ply - win
        if quiet >= draw_plies:
            return 0
        best = -(1 << 62)
        for _, start, end, captured, king in moves:
            moved = kings & start
            new_kings = (kings & ~captured & ~start) | (end if king else 0)
            value = -negamax(
                theirs & ~captured,
                mine ^ start ^ end,
                new_kings,
                turn ^ 1,
                quiet + 1 if moved and not captured else 0,
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
        return best

    def count() -> int:
        return nodes

    return negamax, count


def checkers_alphabeta(depth: int, position: Position = START) -> tuple[int, int]:
    """Return (value for Black, nodes) of the floor's depth-limited alpha-beta from ``position``."""
    negamax, count = checkers_searcher()
    black, white, kings, turn, quiet, ply = position
    mine, theirs = (black, white) if turn == 0 else (white, black)
    unbounded = 1 << 62
    value = negamax(mine, theirs, kings, turn, quiet, ply, depth, -unbounded, unbounded)
    return (value if turn == 0 else -value), count()


def add_contenders(framework: dict[str, Contender], floor: dict[str, Contender]) -> None:
    """Add the framework's and the floor's contenders of the checkers row."""
    from benchmarks.rows import framework_contender

    framework[CHECKERS_DEPTH] = framework_contender(
        f"alphabeta:depth={DEPTH},all_best=off", "checkers", [None]
    )
    floor[CHECKERS_DEPTH] = Contender(
        FLOOR, "bitboard negamax", lambda: lambda: checkers_alphabeta(DEPTH)[1]
    )


# ----------------------------------------------------------------------- OpenSpiel
#: OpenSpiel's board characters: its first player's men and kings (our Black), then its second's
OPENSPIEL_PIECES = {"o": (0, False), "8": (0, True), "+": (1, False), "*": (1, True)}


def openspiel_pieces(state: Any) -> tuple[int, int, int]:
    """Return Black's pieces, White's and the kings of OpenSpiel's checkers ``state``.

    OpenSpiel draws its first player (who moves first: our Black) at the bottom, so its
    board is ours turned round: its row ``i`` from the top and column ``j`` are our row
    ``7 - i`` and column ``7 - j``.
    """
    sides, kings = [0, 0], 0
    for index, line in enumerate(str(state).split("\n")[:8]):
        for col, symbol in enumerate(line[1:9]):
            piece = OPENSPIEL_PIECES.get(symbol)
            if piece is not None:
                bit = 1 << square_of(7 - index, 7 - col)
                sides[piece[0]] |= bit
                if piece[1]:
                    kings |= bit
    return sides[0], sides[1], kings


def openspiel_value(state: Any) -> int:
    """Return the shared heuristic of OpenSpiel's checkers ``state`` for its first player."""
    return checkers_heuristic(*openspiel_pieces(state))


def openspiel_contenders(
    contender: Callable[[str, Callable[[Any, Any], Any], str, Any], Contender],
) -> dict[str, Contender]:
    """Return OpenSpiel's contender of the checkers row, built by the adapter's ``contender``."""
    from open_spiel.python.algorithms import minimax

    def search(game: Any, state: Any) -> Any:
        return minimax.alpha_beta_search(
            game, state=state, value_function=openspiel_value, maximum_depth=DEPTH
        )

    return {
        CHECKERS_DEPTH: contender(
            f"alpha_beta_search(maximum_depth={DEPTH})", search, "checkers", None
        )
    }
