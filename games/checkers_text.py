"""Checkers text: a position's pieces in the PDN form of Portable Draughts Notation
(each side's squares after its letter, kings after ``K``, ranges like ``1-12``), and
moves written as the squares they stop on (``11-15``, ``15x22x29``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise

from gamesearch.errors import InvalidMoveError, InvalidPositionError

from .checkers_board import (
    BLACK,
    CROWN_ROWS,
    JUMPED,
    KING,
    SIDE_LETTERS,
    SQUARES,
    STEPS,
    WHITE,
    Move,
    bits_of,
)


def read_pieces(
    text: str, side_fields: Sequence[str], player_names: Sequence[str]
) -> tuple[int, int, int]:
    """Return Black's pieces, White's pieces and the kings (bitboards) that the two
    ``side_fields`` of the position ``text`` give, such as ``W18,24,K10`` and ``B12,16``.

    :raises InvalidPositionError: for a side given twice or not at all, a bad square, a
        square given twice, more than twelve pieces a side, or a man on the row where
        it would have been crowned.
    """
    pieces, kings = [0, 0], 0
    letters = [field[:1].upper() for field in side_fields]
    if sorted(letters) != sorted(SIDE_LETTERS):
        raise InvalidPositionError(
            f"position {text!r} must give White's pieces after 'W' and Black's after 'B', once each"
        )
    for field in side_fields:
        side = SIDE_LETTERS.index(field[:1].upper())
        for word in filter(None, (item.strip() for item in field[1:].split(","))):
            is_king = word[:1].upper() == "K"
            for square in _read_squares(text, word[1:] if is_king else word):
                bit = 1 << square
                if (pieces[0] | pieces[1]) & bit:
                    raise InvalidPositionError(
                        f"position {text!r} puts two pieces on square {square + 1}"
                    )
                pieces[side] |= bit
                if is_king:
                    kings |= bit
    for side in (BLACK, WHITE):
        name = player_names[side]
        if pieces[side].bit_count() > 12:
            raise InvalidPositionError(
                f"position {text!r} gives {name} {pieces[side].bit_count()} pieces; a side has "
                "at most 12"
            )
        crowned_men = pieces[side] & ~kings & CROWN_ROWS[side]
        if crowned_men:
            squares = ", ".join(str(square + 1) for square in bits_of(crowned_men))
            raise InvalidPositionError(
                f"position {text!r} has a man of {name} on {squares}, the row where it is "
                "crowned; write a king as K and its square"
            )
    return pieces[BLACK], pieces[WHITE], kings


def _read_squares(text: str, word: str) -> list[int]:
    """Return the squares (0 to 31) of ``word``, a square number or a range like ``1-12``.

    :raises InvalidPositionError: naming ``word`` when it is neither, or off 1-32.
    """
    low, dash, high = word.partition("-")
    numbers = [low, high] if dash else [low]
    if not all(number.strip().isascii() and number.strip().isdigit() for number in numbers):
        raise InvalidPositionError(
            f"position {text!r}: {word!r} is not a square number (1 to 32) or a range"
        )
    first, last = int(numbers[0]), int(numbers[-1])
    if not (1 <= first <= last <= SQUARES):
        raise InvalidPositionError(
            f"position {text!r}: {word!r} is no square from 1 to 32 or range of them from low to "
            "high"
        )
    return list(range(first - 1, last))


def read_move(text: str, legal_moves: Callable[[], Sequence[Move]]) -> Move:
    """Return the move written ``text``: the squares it stops on, joined by ``-`` (a step)
    or ``x`` (a capture); a capture may give its first and last squares alone when no
    other capture of the position (of ``legal_moves()``) joins them.

    :raises InvalidMoveError: for a square off 1-32, squares no piece could go
        between, or a short capture that is no legal move (or that several are).
    """
    written = str(text).strip().lower()
    separator = "x" if "x" in written else "-"
    words = written.split(separator)
    if len(words) < 2 or not all(
        word.strip().isascii() and word.strip().isdigit() for word in words
    ):
        raise InvalidMoveError(
            f"move {text!r} is not a move; write the squares (1 to 32) it stops on, "
            "like 11-15 or 15x22x29"
        )
    numbers = [int(word) for word in words]
    if not all(1 <= number <= SQUARES for number in numbers):
        raise InvalidMoveError(
            f"move {text!r} names a square off the board; squares run from 1 to 32"
        )
    move = tuple(number - 1 for number in numbers)
    if len(move) == 2 and move[1] in (target for _, (_, target) in STEPS[KING][move[0]]):
        return move
    if all(JUMPED[a * SQUARES + b] for a, b in pairwise(move)):
        return move
    if len(move) == 2:  # the short form of a chain of jumps
        chains = [
            m
            for m in legal_moves()
            if m[0] == move[0] and m[-1] == move[1] and JUMPED[m[0] * SQUARES + m[1]] != 0
        ]
        if len(chains) == 1:
            return chains[0]
        if chains:
            raise InvalidMoveError(
                f"move {text!r} could be {', '.join(move_text(m) for m in chains)}; "
                "write the squares of the whole chain"
            )
    raise InvalidMoveError(
        f"move {text!r} is not a move: a piece steps to a diagonal neighbour or jumps two "
        "squares diagonally"
    )


def move_text(move: Move) -> str:
    """Return ``move`` as written: its squares joined by ``x`` for a capture, else ``-``."""
    separator = "x" if JUMPED[move[0] * SQUARES + move[1]] else "-"
    return separator.join(str(square + 1) for square in move)
