"""The chess heuristic: material plus piece-square points, in centipawns, White's view.

Each piece is worth its material value plus points for the square it stands on. The
square tables are worked out here from a few plain ideas rather than typed in:

- knights, bishops and queens like the centre (points fall with the distance to it);
- pawns gain as they advance, the d and e pawns most in the centre;
- rooks like the seventh rank and the central files;
- the king hides near a back-rank corner while queens and many pieces are on the
  board, and walks to the centre in the endgame; the two are blended by how much
  material is left (the *phase*).

The tables are for White with square 0 = a1 (python-chess's numbering); Black's are
the same tables mirrored top to bottom.
"""

from __future__ import annotations

from collections.abc import Callable

import chess

#: material in centipawns, by python-chess piece type (index 0 unused)
PIECE_VALUES = (0, 100, 320, 330, 500, 900, 0)
#: the non-pawn material of both sides at the start (the phase is 1 there, 0 without it)
OPENING_MATERIAL = 2 * (2 * 320 + 2 * 330 + 2 * 500 + 900)


def _distance_to_centre(square: int) -> int:
    """Return 0 for the four centre squares up to 6 for a corner (file plus rank steps)."""
    file, rank = chess.square_file(square), chess.square_rank(square)
    return max(3 - file, file - 4) + max(3 - rank, rank - 4)


def _pawn(square: int) -> int:
    rank, file = chess.square_rank(square), chess.square_file(square)
    advance = (0, 0, 4, 8, 16, 30, 55, 0)[rank]
    if 3 <= file <= 4 and 3 <= rank <= 4:  # d and e pawns holding the centre
        return advance + 20
    if 2 <= file <= 5 and 3 <= rank <= 4:
        return advance + 4
    return advance


def _knight(square: int) -> int:
    return 12 - 5 * _distance_to_centre(square)


def _bishop(square: int) -> int:
    return 8 - 3 * _distance_to_centre(square)


def _rook(square: int) -> int:
    rank, file = chess.square_rank(square), chess.square_file(square)
    return (15 if rank == 6 else 0) + (5 if 2 <= file <= 5 else 0)


def _queen(square: int) -> int:
    return 4 - 2 * _distance_to_centre(square)


def _king_sheltered(square: int) -> int:
    rank, file = chess.square_rank(square), chess.square_file(square)
    if rank == 0:
        return (20, 30, 10, 0, 0, 10, 30, 20)[file]
    return -15 * rank


def _king_active(square: int) -> int:
    return 24 - 8 * _distance_to_centre(square)


def _table(points: Callable[[int], int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Return the square points for White and for Black (mirrored) of one piece kind."""
    white = tuple(int(points(square)) for square in chess.SQUARES)
    black = tuple(white[chess.square_mirror(square)] for square in chess.SQUARES)
    return white, black


def _with_material(kind: int, table: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(PIECE_VALUES[kind] + points for points in table)


_TABLES = {
    chess.PAWN: _table(_pawn),
    chess.KNIGHT: _table(_knight),
    chess.BISHOP: _table(_bishop),
    chess.ROOK: _table(_rook),
    chess.QUEEN: _table(_queen),
}
#: by piece type: (White's, Black's) material plus square points, for every piece but the king
PIECE_SQUARE = {
    kind: (_with_material(kind, white), _with_material(kind, black))
    for kind, (white, black) in _TABLES.items()
}
#: the king's square points while sheltering (White's, Black's) and in the endgame
KING_SHELTERED = _table(_king_sheltered)
KING_ACTIVE = _table(_king_active)


def evaluate(board: chess.Board) -> int:
    """Return material plus square points of ``board`` from White's point of view.

    The result lies within about ±11,000 for any position with at most 16 pieces a
    side (nine queens cannot reach more).

    Hot path (every leaf of a search): piece sets are walked bit by bit, lowest bit
    first, without building square lists.
    """
    white = board.occupied_co[chess.WHITE]
    score = 0
    material = 0
    for kind, pieces in (
        (chess.PAWN, board.pawns),
        (chess.KNIGHT, board.knights),
        (chess.BISHOP, board.bishops),
        (chess.ROOK, board.rooks),
        (chess.QUEEN, board.queens),
    ):
        white_table, black_table = PIECE_SQUARE[kind]
        ours, theirs = pieces & white, pieces & ~white
        while ours:
            lowest = ours & -ours
            score += white_table[lowest.bit_length() - 1]
            ours ^= lowest
        while theirs:
            lowest = theirs & -theirs
            score -= black_table[lowest.bit_length() - 1]
            theirs ^= lowest
        if kind != chess.PAWN:
            material += PIECE_VALUES[kind] * chess.popcount(pieces)
    phase = min(material, OPENING_MATERIAL)  # out of OPENING_MATERIAL
    for color, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        king = board.king(color)
        if king is None:
            continue
        sheltered, active = (
            KING_SHELTERED[0 if color else 1][king],
            KING_ACTIVE[0 if color else 1][king],
        )
        score += (
            sign * (sheltered * phase + active * (OPENING_MATERIAL - phase)) // OPENING_MATERIAL
        )
    return score


def capture_order(board: chess.Board, move: chess.Move) -> int:
    """Return the MVV-LVA rank of a capture or promotion (larger: try it sooner).

    Most valuable victim first, then least valuable attacker; a promotion adds the
    value the pawn gains. Quiet moves rank 0.
    """
    rank = 0
    if board.is_capture(move):
        victim = board.piece_type_at(move.to_square) or chess.PAWN  # en passant: a pawn
        attacker = board.piece_type_at(move.from_square) or chess.PAWN
        rank = 10 * PIECE_VALUES[victim] - PIECE_VALUES[attacker] + 10_000
    if move.promotion:
        rank += PIECE_VALUES[move.promotion] - PIECE_VALUES[chess.PAWN] + 10_000
    return rank
