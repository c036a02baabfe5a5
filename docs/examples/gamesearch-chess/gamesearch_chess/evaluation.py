"""The chess heuristic: PeSTO's tapered piece-square evaluation, in centipawns, White's view.

Each piece is worth points for its kind and its square twice over, once as the
middlegame values it and once as the endgame does (:mod:`gamesearch_chess.pesto`, the
published figures); the two sums are blended by the *phase*, the pieces left (a knight
or bishop 1, a rook 2, a queen 4: 24 at the start, where the middlegame's sum counts
alone, 0 with only kings and pawns, where the endgame's does).

The two points of a piece on a square are kept in one integer (the middlegame's
times 2**20 plus the endgame's), so a position's two sums cost one addition a piece;
they are taken apart once at the end.
"""

from __future__ import annotations

import chess

from gamesearch_chess.pesto import (
    ENDGAME,
    ENDGAME_MATERIAL,
    MIDDLEGAME,
    MIDDLEGAME_MATERIAL,
    PHASE_WEIGHTS,
)

#: material in centipawns, by python-chess piece type (index 0 unused): the order of captures
PIECE_VALUES = (0, 100, 320, 330, 500, 900, 0)
#: the phase with every piece on the board (a larger count, promotions', is cut to it)
FULL_PHASE = 24
#: what a minor piece, a rook and a queen add to the phase (a bishop counts as a knight)
_MINOR, _ROOK, _QUEEN = (PHASE_WEIGHTS[kind] for kind in (chess.KNIGHT, chess.ROOK, chess.QUEEN))
assert PHASE_WEIGHTS[chess.BISHOP] == _MINOR and not PHASE_WEIGHTS[chess.PAWN]
#: the shift that packs a piece's middlegame points above its endgame points
_SHIFT = 20
_HALF = 1 << (_SHIFT - 1)
_LOW = (1 << _SHIFT) - 1


def _packed(kind: int, white: bool) -> tuple[int, ...]:
    """Return the packed points of a piece of ``kind`` on each square (python-chess's
    numbering, a1 = 0), White's pieces or Black's (mirrored)."""
    packed = []
    for square in chess.SQUARES:
        mine = square if not white else chess.square_mirror(square)  # (the tables start at a8)
        middle = MIDDLEGAME_MATERIAL[kind] + MIDDLEGAME[kind][mine]
        end = ENDGAME_MATERIAL[kind] + ENDGAME[kind][mine]
        packed.append((middle << _SHIFT) + end)
    return tuple(packed)


#: by piece type: (White's, Black's) packed points on each square
PACKED = {kind: (_packed(kind, True), _packed(kind, False)) for kind in chess.PIECE_TYPES}


def unpack(total: int) -> tuple[int, int]:
    """Return the middlegame and endgame sums held in a sum of packed points."""
    end = ((total + _HALF) & _LOW) - _HALF
    return (total - end) >> _SHIFT, end


def evaluate(board: chess.Board) -> int:
    """Return PeSTO's tapered evaluation of ``board`` from White's point of view.

    The result lies within about ±11,000 for any position with at most 16 pieces a
    side (nine queens cannot reach more).

    Hot path (every leaf of a search): piece sets are walked bit by bit, lowest bit
    first, without building square lists.
    """
    white = board.occupied_co[chess.WHITE]
    total = 0
    for kind, pieces in (
        (chess.PAWN, board.pawns),
        (chess.KNIGHT, board.knights),
        (chess.BISHOP, board.bishops),
        (chess.ROOK, board.rooks),
        (chess.QUEEN, board.queens),
        (chess.KING, board.kings),
    ):
        white_table, black_table = PACKED[kind]
        ours, theirs = pieces & white, pieces & ~white
        while ours:
            lowest = ours & -ours
            total += white_table[lowest.bit_length() - 1]
            ours ^= lowest
        while theirs:
            lowest = theirs & -theirs
            total -= black_table[lowest.bit_length() - 1]
            theirs ^= lowest
    phase = min(
        FULL_PHASE,
        _MINOR * chess.popcount(board.knights | board.bishops)
        + _ROOK * chess.popcount(board.rooks)
        + _QUEEN * chess.popcount(board.queens),
    )
    middle, end = unpack(total)
    blend = middle * phase + end * (FULL_PHASE - phase)
    # rounded toward zero, so that a position and its colours swapped are worth opposite values
    return blend // FULL_PHASE if blend >= 0 else -(-blend // FULL_PHASE)


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
