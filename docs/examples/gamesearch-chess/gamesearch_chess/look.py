"""How the web board draws chess: glyphs on a checkered board, with its coordinates.

The plugin registers :data:`LOOK` for chess (``gamesearch_register_board_looks``); the
board page reads the pieces of the board view's cells by these letters, as FEN writes
them (upper case White, lower case Black).
"""

from __future__ import annotations

from gamesearch.looks import BoardLook

#: the pieces as glyphs, and their names for a screen reader
GLYPHS = {
    "K": "♔", "Q": "♕", "R": "♖", "B": "♗", "N": "♘", "P": "♙",
    "k": "♚", "q": "♛", "r": "♜", "b": "♝", "n": "♞", "p": "♟",
}  # fmt: skip
PIECE_NAMES = {
    symbol: f"{'white' if symbol.isupper() else 'black'} {name}"
    for letter, name in zip(
        "kqrbnp", ("king", "queen", "rook", "bishop", "knight", "pawn"), strict=True
    )
    for symbol in (letter.upper(), letter)
}


#: the look registered for chess: pieces by glyph, the player by the letter's case, and
#: the a-h and 1-8 coordinates counted from White's side
LOOK = BoardLook(
    kind="pieces",
    checkered=True,
    glyphs=GLYPHS,
    names=PIECE_NAMES,
    player_of="case",
    coordinates="from-bottom",
)
