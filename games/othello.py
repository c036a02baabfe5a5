"""Othello on a 4x4, 6x6 or 8x8 board: outflank the opponent's discs to turn them over.

The game starts with four discs in the centre, White on the diagonal from the top left
(d4 and e5 on 8x8), and Black moves first. A move places a disc of the mover's colour so
that it closes at least one straight line (row, column or diagonal) of the opponent's
discs with another disc of the mover's colour at its far end; every disc so closed in is
turned over. A player without such a move passes; the game ends when neither player can
move, and its result is Black's discs minus White's.

The option ``passes`` says how a pass is played: ``"move"`` (the default) makes it an
explicit move written ``pass``, so turns alternate; ``"auto"`` skips a player who cannot
move, so the same player may move twice in a row.

Moves are cell indices counted row-major from the top left (0 .. size*size - 1) inside
the program and written as a column letter and a row number from the top (``a1`` is the
top-left corner, ``d3`` one of Black's four first moves on 8x8). A position is text: the
rows from the top, ``B`` Black, ``W`` White, ``.`` empty, separated by ``/``, then a space
and the side to move: ``"..../.WB./.BW./.... B"`` is the 4x4 start.

A pass is a ply, so with pass moves the same board and side to move can come up at
different plies (after no pass or after two); the ply is part of the position. It is the
discs placed since the start plus the passes, and the text gives it as a third field
only when the board and the side to move do not tell it (two passes or more):
``"BBBB/BBBB/WWBB/.WBB W 13"``.

Each colour's discs are one integer bitboard, cell ``i`` being bit ``i``; the rays from
every cell and the masks that stop shifts from wrapping round the board are built once
per board size.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, ClassVar

from gamesearch.boardview import BoardView
from gamesearch.errors import InvalidMoveError, InvalidPositionError
from gamesearch.game import Game, Option, resolve_options
from gamesearch.looks import BoardLook
from gamesearch.plugins import hookimpl
from gamesearch.rules import PLAYERS, Player, Rules

# The geometry of a board size has a module of its own; its names stay importable from here.
from .grid import bitboard_rows
from .othello_geometry import MOVES_MEMO_SIZE as MOVES_MEMO_SIZE
from .othello_geometry import geometry_for

EMPTY, BLACK_SYMBOL, WHITE_SYMBOL = ".", "B", "W"
#: the move of a player who has no disc to place (with ``passes="move"``)
PASS = -1
PASS_TEXT = "pass"
SIZES = (4, 6, 8)
PASS_STYLES = ("move", "auto")
#: heuristic points per corner disc, per legal move of difference, per disc of difference
CORNER_POINTS, MOBILITY_POINTS = 25, 5
#: what a disc next to an empty corner costs its owner (it can give the corner away):
#: on the diagonal neighbour (the "X-square") and on an edge neighbour (a "C-square")
X_SQUARE_POINTS, C_SQUARE_POINTS = 15, 5
COLUMN_LETTERS = "abcdefgh"


@functools.cache
def _rules(size: int, passes: str) -> Rules:
    placements = size * size - 4
    # Each pass is followed by a placement (the other player can move), so at most one
    # pass per placement when passes are moves.
    return Rules(
        max_plies=2 * placements if passes == "move" else placements,
        alternating=passes == "move",
        result_range=(-size * size, size * size),
    )


class Othello(Game[int]):
    """Othello on a ``size`` x ``size`` board (8 by default); Black moves first."""

    name = "othello"
    player_names = ("Black", "White")
    options = (
        Option("size", int, 8, "board side", choices=SIZES),
        Option(
            "passes",
            str,
            "move",
            "how a player without a move passes: "
            "'move' (an explicit move 'pass') or 'auto' (skipped)",
            choices=PASS_STYLES,
        ),
    )
    #: the searcher the web board offers first: the full boards are far too big to search
    #: to the end, and iterative deepening answers within a time limit; with every trick
    #: the game offers, as it beat ``iterative`` at equal processor time a move (see
    #: docs/engine-tricks.md, "Each trick at 0.1 s a move")
    default_searcher: ClassVar[str | None] = (
        "engine:iterative=true,aspiration=50,killers=true,history=true,lmr=true,"
        "quiescence=true,table=true"
    )
    #: :meth:`evaluate` stays strictly inside plus or minus this
    evaluation_bound: ClassVar[int] = 1000

    def __init__(self, size: int = 8, passes: str = "move") -> None:
        settings = resolve_options(self.options, {"size": size, "passes": passes})
        self.size: int = settings["size"]
        self.passes: str = settings["passes"]
        size, passes = self.size, self.passes
        self._geometry = geometry = geometry_for(size)
        self._is_auto = passes == "auto"
        self._black, self._white = geometry.black_start, geometry.white_start
        self._turn = 0  # 0: Black to move, 1: White
        #: the discs each move of the history turned over (0 for a pass)
        self._flipped: list[int] = []
        #: the passes played since the start (always 0 with automatic passes)
        self._passes = 0
        #: the cells where the player to move may place a disc, as bits; -1: not known yet
        self._moves = -1

    # ----------------------------------------------------------------- creation
    @classmethod
    def new(cls, **options: Any) -> Othello:
        """Return the starting position for these options.

        :raises InvalidOptionError: for an unknown option or a bad value.
        """
        return cls(**resolve_options(cls.options, options))

    @classmethod
    def from_text(cls, text: str, **options: Any) -> Othello:
        """Return the position written as rows from the top and the side to move.

        ``"..../.WB./.BW./.... B"``: ``B`` Black, ``W`` White, ``.`` empty, rows
        separated by ``/`` (or spaces or new lines), then ``B`` or ``W`` for the side to
        move, then (optional) the ply. Without a ``size`` option the number of rows
        gives the board size. Without a ply, the position has the fewest passes that
        give the side to move its turn (none or one).

        :raises InvalidPositionError: for a bad character, a wrong shape, a missing
            side to move, an empty centre square, a ply that no game reaches, or (with
            automatic passes) a side to move that has no move while the other side has one.
        :raises InvalidOptionError: for a bad option.
        """
        if not isinstance(text, str):
            raise InvalidPositionError(
                f"a position must be text, not {type(text).__name__}: {text!r}"
            )
        parts = text.replace("/", " ").split()
        ply_text = parts.pop() if parts and parts[-1].isascii() and parts[-1].isdigit() else None
        if len(parts) < 2 or parts[-1].upper() not in (BLACK_SYMBOL, WHITE_SYMBOL):
            raise InvalidPositionError(
                f"position {text!r} must be rows of 'B', 'W' and '.' then the side to move, "
                "'B' or 'W', and the ply if need be"
            )
        rows, mover = parts[:-1], parts[-1].upper()
        if "size" not in options:
            options = {**options, "size": len(rows)}
        game = cls.new(**options)
        size = game.size
        if len(rows) != size or any(len(row) != size for row in rows):
            raise InvalidPositionError(f"position {text!r} must have {size} rows of {size} cells")
        geometry = game._geometry
        black = white = 0
        for row, row_text in enumerate(rows):
            for col, symbol in enumerate(row_text.upper()):
                if symbol == BLACK_SYMBOL:
                    black |= geometry.bit(row, col)
                elif symbol == WHITE_SYMBOL:
                    white |= geometry.bit(row, col)
                elif symbol != EMPTY:
                    raise InvalidPositionError(
                        f"position {text!r} has {symbol!r} in row {row + 1}; use 'B', 'W' or '.'"
                    )
        if (black | white) & geometry.centre != geometry.centre:
            raise InvalidPositionError(
                f"position {text!r} has an empty centre square; the four centre discs are never "
                "taken away"
            )
        game._black, game._white, game._moves = black, white, -1
        game._turn = 0 if mover == BLACK_SYMBOL else 1
        game._passes = game._passes_for(text, ply_text)
        if game._is_auto and not game._has_moves(game._turn) and game._has_moves(1 - game._turn):
            name = game.player_names[game._turn]
            raise InvalidPositionError(
                f"position {text!r} has {name} to move without a move; with automatic passes "
                f"{game.player_names[1 - game._turn]} moves"
            )
        return game

    def _passes_for(self, text: str, ply_text: str | None) -> int:
        """Return the passes of the position ``text`` set up from its ply (``None``: the fewest).

        :raises InvalidPositionError: when no game reaches the board at that ply.
        """
        placed = (self._black | self._white).bit_count() - 4
        if self._is_auto:
            if ply_text is not None and int(ply_text) != placed:
                raise InvalidPositionError(
                    f"position {text!r} has {placed} discs placed, so its ply is {placed}, not "
                    f"{ply_text}"
                )
            return 0
        # Turns alternate, so the ply's parity is the side to move's.
        passes = (self._turn - placed) % 2 if ply_text is None else int(ply_text) - placed
        if passes < 0 or passes % 2 != (self._turn - placed) % 2 or passes > placed:
            name = self.player_names[self._turn]
            raise InvalidPositionError(
                f"no game reaches position {text!r} with {name} to move at ply "
                f"{placed + passes if ply_text is None else ply_text}: the ply is the {placed} "
                "discs "
                "placed plus the passes, its parity gives the side to move, and each pass follows "
                "a disc"
            )
        return passes

    def copy(self) -> Othello:
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._history = self._history.copy()
        twin._flipped = self._flipped.copy()
        return twin

    def __getstate__(self) -> dict[str, Any]:
        """Return what pickles the position (the board size, not its tables)."""
        state = dict(self.__dict__)
        del state["_geometry"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._geometry = geometry_for(self.size)

    @property
    def settings(self) -> dict[str, Any]:
        return {"size": self.size, "passes": self.passes}

    # ------------------------------------------------------------ state queries
    @property
    def rules(self) -> Rules:
        return _rules(self.size, self.passes)

    @property
    def ply(self) -> int:
        return (self._black | self._white).bit_count() - 4 + self._passes

    def to_move(self) -> Player:
        return PLAYERS[self._turn]

    def discs(self) -> tuple[int, int]:
        """Return the bitboards of Black's and White's discs (cell ``i`` is bit ``i``)."""
        return self._black, self._white

    def _has_moves(self, player: int) -> bool:
        black, white = self._black, self._white
        if player == 0:
            return bool(self._geometry.move_bits(black, white))
        return bool(self._geometry.move_bits(white, black))

    # Hot path from here to unmake_move(): bitboards and memo look-ups. The mover's
    # move bits are kept until the next move or take-back (result() and then
    # legal_moves() of the same node ask for them both).
    def _mover_bits(self) -> int:
        bits = self._moves
        if bits < 0:
            if self._turn == 0:
                bits = self._geometry.move_bits(self._black, self._white)
            else:
                bits = self._geometry.move_bits(self._white, self._black)
            self._moves = bits
        return bits

    def legal_moves(self) -> Sequence[int]:
        bits = self._mover_bits()
        if bits:
            found = self._geometry.natural_memo.get(bits)
            return found if found is not None else self._geometry.natural_moves(bits)
        if not self._is_auto and self._has_moves(1 - self._turn):
            return (PASS,)
        return ()

    def ordered_moves(self) -> Sequence[int]:
        """Return the legal moves: corners first, then edges, then the inside, and the
        cells next to an empty corner last."""
        bits = self._mover_bits()
        if bits:
            found = self._geometry.ordered_memo.get(bits)
            return found if found is not None else self._geometry.ordered_moves(bits)
        return self.legal_moves()

    def result(self) -> int | None:
        if self._mover_bits() or self._has_moves(1 - self._turn):
            return None
        return self._black.bit_count() - self._white.bit_count()

    def key(self) -> tuple[int, int, int, int]:
        return (self._black, self._white, self._turn, self._passes)

    def make_move(self, move: int) -> None:
        self._moves = -1
        if move == PASS:
            self._flipped.append(0)
            self._turn ^= 1
            self._passes += 1
            return
        geometry, bit = self._geometry, 1 << move
        if self._turn == 0:
            mine, theirs = self._black, self._white
        else:
            mine, theirs = self._white, self._black
        flipped = geometry.flips(move, mine, theirs)
        mine |= bit | flipped
        theirs ^= flipped
        if self._turn == 0:
            self._black, self._white = mine, theirs
        else:
            self._white, self._black = mine, theirs
        self._flipped.append(flipped)
        # With automatic passes a player without a move is skipped: the mover moves
        # again when only they can move. Otherwise (or once no one can) turns alternate.
        if (
            self._is_auto
            and not geometry.move_bits(theirs, mine)
            and geometry.move_bits(mine, theirs)
        ):
            return
        self._turn ^= 1

    def advance(self, move: int) -> int | None:
        # push() and result() in one call for the searchers; the move goes into the
        # history as push() puts it (retract() is the base class's unmake-and-pop).
        self._history.append(move)
        self.make_move(move)
        if self._mover_bits() or self._has_moves(1 - self._turn):
            return None
        return self._black.bit_count() - self._white.bit_count()

    def unmake_move(self, move: int) -> None:
        flipped = self._flipped.pop()
        self._moves = -1
        if move == PASS:
            self._turn ^= 1
            self._passes -= 1
            return
        bit = 1 << move
        if self._black & bit:  # the disc on the move's cell is the mover's
            self._black ^= bit | flipped
            self._white |= flipped
            self._turn = 0
        else:
            self._white ^= bit | flipped
            self._black |= flipped
            self._turn = 1

    # ---------------------------------------------------------------- heuristic
    def evaluate(self) -> int:
        """Return a heuristic value for Black: corners, mobility and discs next to empty
        corners (the disc count itself says little before the end, so it is left out)."""
        geometry, black, white = self._geometry, self._black, self._white
        corners = (black & geometry.corners).bit_count() - (white & geometry.corners).bit_count()
        mobility = (
            geometry.move_bits(black, white).bit_count()
            - geometry.move_bits(white, black).bit_count()
        )
        total = CORNER_POINTS * corners + MOBILITY_POINTS * mobility
        occupied = black | white
        for corner, x_square, c_squares in geometry.corner_neighbours:
            if not occupied & corner:
                total += X_SQUARE_POINTS * (bool(white & x_square) - bool(black & x_square))
                total += C_SQUARE_POINTS * (
                    (white & c_squares).bit_count() - (black & c_squares).bit_count()
                )
        bound = self.evaluation_bound - 1
        return max(-bound, min(bound, total))

    # --------------------------------------------------------------------- text
    def cell(self, index: int) -> str:
        """Return ``"B"``, ``"W"`` or ``"."`` for a cell index."""
        if self._black >> index & 1:
            return BLACK_SYMBOL
        if self._white >> index & 1:
            return WHITE_SYMBOL
        return EMPTY

    def _rows(self) -> list[str]:
        """Return each row's text, from the top (through the geometry's memo of row texts:
        the kit writes the text of each position it checks dozens of times)."""
        size = self.size
        memo = self._geometry.row_texts
        return bitboard_rows(self._black, self._white, size, size * size, memo, self.cell)

    def to_text(self) -> str:
        text = "/".join(self._rows()) + " " + (BLACK_SYMBOL, WHITE_SYMBOL)[self._turn]
        return text if self._passes < 2 else f"{text} {self.ply}"

    def render(self) -> str:
        size = self.size
        lines = ["  " + " ".join(COLUMN_LETTERS[:size])]
        for row, text in enumerate(self._rows(), 1):
            lines.append(f"{row} {' '.join(text)}")
        lines.append(
            f"Black {self._black.bit_count()}, White {self._white.bit_count()}; "
            f"{self.player_names[self._turn]} to move"
        )
        return "\n".join(lines)

    def board_view(self) -> BoardView:
        """Return the grid; a click on a cell where the mover may place a disc plays it,
        and a forced pass is offered as a move beside the board."""
        size = self.size
        moves = self.legal_moves()
        playable = set(moves)
        symbols = tuple(symbol.replace(EMPTY, "") for symbol in "".join(self._rows()))
        clicks = tuple(
            self.format_move(index) if index in playable else None for index in range(size * size)
        )
        extra = ((PASS_TEXT, PASS_TEXT),) if PASS in playable else ()
        return BoardView(size, size, symbols, clicks, extra_moves=extra)

    def parse_move(self, text: str) -> int:
        size = self.size
        written = str(text).strip().lower()
        last = f"{COLUMN_LETTERS[size - 1]}{size}"
        if written == PASS_TEXT:
            if self._is_auto:
                raise InvalidMoveError(
                    f"move {text!r} is not a move with automatic passes; use a cell from a1 to "
                    f"{last}"
                )
            return PASS
        column, row_text = written[:1], written[1:]
        if not (column and column in COLUMN_LETTERS[:size] and row_text.isdigit()):
            also = "" if self._is_auto else " or 'pass'"
            raise InvalidMoveError(
                f"move {text!r} is not a cell; use a cell from a1 to {last}{also}"
            )
        row = int(row_text)
        if not 1 <= row <= size:
            raise InvalidMoveError(f"cell {text!r} is off the board; rows run from 1 to {size}")
        return (row - 1) * size + COLUMN_LETTERS.index(column)

    def format_move(self, move: int) -> str:
        if move == PASS:
            return PASS_TEXT
        row, col = divmod(move, self.size)
        return f"{COLUMN_LETTERS[col]}{row + 1}"

    # ------------------------------------------------------ what an engine asks
    def noisy_moves(self) -> Sequence[int]:
        """Return the legal moves that take a corner (a disc that can never be flipped back)."""
        corners = self._mover_bits() & self._geometry.corners
        if not corners:
            return ()
        return tuple(cell for cell in self.ordered_moves() if corners >> cell & 1)


@hookimpl
def gamesearch_register_games(registry: Any) -> None:
    """Register Othello."""
    registry.add_game(Othello)


@hookimpl
def gamesearch_register_board_looks(registry: Any) -> None:
    """Draw the stones as discs on a board whose squares are named a1 (top left) to h8."""
    registry.add_board_look(Othello.name, BoardLook(kind="discs", coordinates="from-top"))
