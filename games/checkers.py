"""Checkers (English draughts) on the 8x8 board.

Each side starts with twelve men on the dark squares of its first three rows; Black
moves first. A man steps one square diagonally forward onto an empty square; a king
(a crowned man) steps one square diagonally in any direction. A piece captures by
jumping over an enemy piece diagonally next to it onto the empty square beyond, and
goes on jumping with the same piece while it can: the whole chain is one move.
Capturing is compulsory: when any capture is open, the mover must take one (any one:
not necessarily the longest) and must finish its chain. A piece cannot be jumped twice
in one move, and the captured pieces leave the board when the move ends. A man that
reaches the far row is crowned and its move ends there, even in the middle of a chain
of jumps.

A player with no legal move (no piece left, or every piece blocked) loses. Otherwise
the game is drawn once ``draw_plies`` plies in a row (80 by default: 40 moves each)
were played with neither a capture nor a move of a man, so a game where only kings
shuffle ends. There is no other draw rule (no repetition rule): this one ends every
game, and the longest game is bounded by it (see :func:`longest_game`).

Squares are numbered 1 to 32 as in every checkers book: the board is seen with Black
at the top, square 1 is the top row's leftmost dark square and the numbers run along
each row from left to right, four to a row, so Black starts on 1-12 and White on
21-32. A move is written with the squares it stops on: ``11-15`` for a step,
``15x22`` for a capture and ``15x22x29`` for a chain of jumps (the full chain, so a
move's text names it alone; :meth:`Checkers.parse_move` also reads the short form
``15x29`` when only one capture goes from 15 to 29).

A position is written in the PDN form of Portable Draughts Notation: the side to move,
then White's and Black's pieces, a king's square after ``K``, as in
``B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12`` (the start).
Ranges such as ``B1-12`` are read too. Two numbers may follow after a space, as in a
chess FEN: the plies played since the last capture or move of a man, then the ply
(the moves played since the start); they are written whenever either is not 0. Any
other text is read as moves from the start, such as ``"11-15 23-19"``.

Each side's pieces and the kings are integer bitboards, square ``n`` being bit
``n - 1``; the steps and jumps from every square are tables built once.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import pairwise
from typing import Any, ClassVar

from gamesearch.boardview import BoardView
from gamesearch.errors import InvalidPositionError
from gamesearch.game import Game, Option, resolve_options
from gamesearch.looks import BoardLook
from gamesearch.plugins import hookimpl
from gamesearch.rules import PLAYERS, Player, Rules

from .checkers_board import ALL_DIRECTIONS as ALL_DIRECTIONS
from .checkers_board import BACK_ROW_POINTS as BACK_ROW_POINTS
from .checkers_board import BACK_ROWS as BACK_ROWS
from .checkers_board import BLACK as BLACK
from .checkers_board import CENTRE as CENTRE
from .checkers_board import CENTRE_POINTS as CENTRE_POINTS
from .checkers_board import CROWN_ROWS as CROWN_ROWS
from .checkers_board import DEFAULT_DRAW_PLIES as DEFAULT_DRAW_PLIES
from .checkers_board import EMPTY_DARK as EMPTY_DARK
from .checkers_board import EMPTY_LIGHT as EMPTY_LIGHT
from .checkers_board import FORWARD as FORWARD
from .checkers_board import FULL as FULL
from .checkers_board import JUMPED as JUMPED
from .checkers_board import JUMPS as JUMPS
from .checkers_board import KING as KING
from .checkers_board import KING_POINTS as KING_POINTS
from .checkers_board import KING_SYMBOLS as KING_SYMBOLS
from .checkers_board import MAN_POINTS as MAN_POINTS
from .checkers_board import MAN_SYMBOLS as MAN_SYMBOLS
from .checkers_board import ROW_POINTS as ROW_POINTS
from .checkers_board import SIDE_LETTERS as SIDE_LETTERS
from .checkers_board import SQUARES as SQUARES
from .checkers_board import START_BLACK as START_BLACK
from .checkers_board import START_WHITE as START_WHITE
from .checkers_board import STEPS as STEPS
from .checkers_board import WHITE as WHITE

# The board, its tables and the questions asked of whole bitboards have a module of
# their own; their names stay importable from here.
from .checkers_board import Move as Move
from .checkers_board import bits_of as bits_of
from .checkers_board import can_capture as can_capture
from .checkers_board import can_move as can_move
from .checkers_board import column_of as column_of
from .checkers_board import extend_jumps as extend_jumps
from .checkers_board import longest_game as longest_game
from .checkers_board import progress_left as progress_left
from .checkers_board import row_of as row_of
from .checkers_board import square_at as square_at
from .checkers_text import move_text, read_move, read_pieces


@functools.cache
def _rules(draw_plies: int) -> Rules:
    return Rules(max_plies=longest_game(draw_plies), alternating=True, result_range=(-1, 1))


class Checkers(Game[Move]):
    """English draughts on the 8x8 board; Black (squares 1-12) moves first."""

    name = "checkers"
    player_names = ("Black", "White")
    options = (
        Option(
            "draw_plies",
            int,
            DEFAULT_DRAW_PLIES,
            "plies in a row without a capture or a man's move that draw the game",
            minimum=2,
            maximum=400,
        ),
    )
    #: the searcher analyze and the web board use first: far too big to search to the end
    default_searcher: ClassVar[str | None] = "iterative"
    #: :meth:`evaluate` stays strictly inside plus or minus this
    evaluation_bound: ClassVar[int] = 10_000
    #: whether a side can move: :func:`can_move`, for code that finds the game by its name
    can_move = staticmethod(can_move)

    def __init__(self, draw_plies: int = DEFAULT_DRAW_PLIES) -> None:
        settings = resolve_options(self.options, {"draw_plies": draw_plies})
        self.draw_plies: int = settings["draw_plies"]
        self._black, self._white, self._kings = START_BLACK, START_WHITE, 0
        self._turn = BLACK
        #: plies played since the last capture or move of a man
        self._quiet = 0
        #: the ply of the position the history starts from
        self._origin_ply = 0
        #: by move of the history: (pieces captured, of which kings, quiet plies before,
        #: whether the move crowned its man)
        self._undo: list[tuple[int, int, int, bool]] = []
        #: the legal moves of the position, once worked out (``None``: not yet)
        self._moves: tuple[Move, ...] | None = None

    # ----------------------------------------------------------------- creation
    @classmethod
    def new(cls, **options: Any) -> Checkers:
        """Return the starting position for these options.

        :raises InvalidOptionError: for an unknown option or a bad value.
        """
        return cls(**resolve_options(cls.options, options))

    @classmethod
    def from_text(cls, text: str, **options: Any) -> Checkers:
        """Return the position written in PDN form, or reached by the moves ``text`` lists.

        ``"W:W18,24,K10:B12,16,K22"``: the side to move (``B`` or ``W``), then each
        side's squares after its letter, kings after ``K``, ranges like ``1-12``
        allowed; a final ``.`` is ignored. Two numbers may follow after a space: the
        plies since the last capture or man's move, and the ply.

        :raises InvalidPositionError: for a bad field or square, a square given twice,
            more than twelve pieces a side, a man on the row where it would have been
            crowned, a count of quiet plies beyond the draw rule, or a ply so late that
            the game could outlast the longest one; for a list of moves, the first one
            that cannot be played.
        :raises InvalidOptionError: for a bad option.
        """
        if not isinstance(text, str):
            raise InvalidPositionError(
                f"a position must be text, not {type(text).__name__}: {text!r}"
            )
        if ":" not in text:
            game = super().from_text(text, **options)
            assert isinstance(game, Checkers)
            return game
        game = cls.new(**options)
        parts = text.split()
        fen = parts[0].rstrip(".")
        fields = fen.split(":")
        shape = (
            "the side to move ('B' or 'W'), then 'W' and 'B' each followed by its squares "
            "(kings after 'K'), separated by ':', and optionally the quiet plies and the ply"
        )
        if len(fields) != 3 or fields[0].upper() not in SIDE_LETTERS or len(parts) not in (1, 3):
            raise InvalidPositionError(f"position {text!r} must be {shape}")
        black, white, kings = read_pieces(text, fields[1:], cls.player_names)
        game._black, game._white, game._kings = black, white, kings
        game._turn = SIDE_LETTERS.index(fields[0].upper())
        if len(parts) == 3:
            game._set_counts(text, parts[1], parts[2])
        return game

    def _set_counts(self, text: str, quiet_text: str, ply_text: str) -> None:
        """Set the quiet plies and the ply of a position read from ``text``.

        :raises InvalidPositionError: when they are no whole numbers, or out of range.
        """
        if not (
            quiet_text.isascii()
            and quiet_text.isdigit()
            and ply_text.isascii()
            and ply_text.isdigit()
        ):
            raise InvalidPositionError(
                f"position {text!r}: the quiet plies and the ply must be whole numbers, "
                f"not {quiet_text!r} and {ply_text!r}"
            )
        quiet, ply = int(quiet_text), int(ply_text)
        if quiet > self.draw_plies:
            raise InvalidPositionError(
                f"position {text!r} has {quiet} quiet plies; the game is drawn after "
                f"{self.draw_plies}"
            )
        self._quiet = quiet
        latest = self.rules.max_plies - self.plies_left()
        if ply > latest:
            raise InvalidPositionError(
                f"position {text!r} has ply {ply}; with its pieces and quiet plies the game "
                f"could then outlast the longest game ({self.rules.max_plies} plies), so its ply "
                f"is at most {latest}"
            )
        self._origin_ply = ply

    def copy(self) -> Checkers:
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._history = self._history.copy()
        twin._undo = self._undo.copy()
        return twin

    @property
    def settings(self) -> dict[str, Any]:
        return {"draw_plies": self.draw_plies}

    # ------------------------------------------------------------ state queries
    @property
    def rules(self) -> Rules:
        return _rules(self.draw_plies)

    @property
    def ply(self) -> int:
        return self._origin_ply + len(self._history)

    @property
    def quiet_plies(self) -> int:
        """Return the plies played since the last capture or move of a man."""
        return self._quiet

    def to_move(self) -> Player:
        return PLAYERS[self._turn]

    def pieces(self) -> tuple[int, int, int]:
        """Return the bitboards of Black's pieces, White's pieces and the kings
        (square ``n`` is bit ``n - 1``)."""
        return self._black, self._white, self._kings

    def plies_left(self) -> int:
        """Return the most plies the game can still last (see :func:`longest_game`)."""
        men = (self._black | self._white) & ~self._kings
        steps = sum(7 - row_of(square) for square in bits_of(men & self._black))
        steps += sum(row_of(square) for square in bits_of(men & self._white))
        pieces = (self._black | self._white).bit_count()
        return self.draw_plies - self._quiet + progress_left(steps, pieces) * (self.draw_plies + 1)

    # Hot path from here to unmake_move(): bitboards and the tables above; the moves of
    # a position are worked out once (result() and legal_moves() both ask for them).
    def _generate(self) -> tuple[Move, ...]:
        turn = self._turn
        if turn == BLACK:
            mine, theirs = self._black, self._white
        else:
            mine, theirs = self._white, self._black
        kings = self._kings
        empty = FULL ^ (mine | theirs)
        found: list[Move] = []
        men_jumps, king_jumps, crown = JUMPS[turn], JUMPS[KING], CROWN_ROWS[turn]
        bits = mine
        while bits:
            low = bits & -bits
            bits ^= low
            square = low.bit_length() - 1
            if kings & low:
                table, stop = king_jumps, 0
            else:
                table, stop = men_jumps, crown
            for over, landing, landing_bit in table[square]:
                if over & theirs and landing_bit & empty:
                    path = (square, landing)
                    if landing_bit & stop:
                        found.append(path)
                    else:  # the piece has left its square: a king may come back to it
                        extend_jumps(path, landing, over, theirs, empty | low, table, stop, found)
        if found:
            return tuple(found)
        men_steps, king_steps = STEPS[turn], STEPS[KING]
        bits = mine
        while bits:
            low = bits & -bits
            bits ^= low
            for target, move in (king_steps if kings & low else men_steps)[low.bit_length() - 1]:
                if target & empty:
                    found.append(move)
        return tuple(found)

    def legal_moves(self) -> Sequence[Move]:
        if self._quiet >= self.draw_plies:
            return ()
        moves = self._moves
        if moves is None:
            moves = self._moves = self._generate()
        return moves

    def result(self) -> int | None:
        # At a search's horizon only whether the mover can move matters: the shifts of
        # can_move() answer that without listing the moves.
        moves = self._moves
        turn = self._turn
        if moves is not None:
            can = bool(moves)
        elif turn == BLACK:
            can = can_move(self._black, self._white, self._kings, BLACK)
        else:
            can = can_move(self._white, self._black, self._kings, WHITE)
        if not can:
            return -1 if turn == BLACK else 1
        if self._quiet >= self.draw_plies:
            return 0
        return None

    def key(self) -> int:
        return (
            self._black
            | self._white << 32
            | self._kings << 64
            | self._turn << 96
            | self._quiet << 97
            | (self._origin_ply + len(self._history)) << 106
        )

    def make_move(self, move: Move) -> None:
        start, end = move[0], move[-1]
        start_bit, end_bit = 1 << start, 1 << end
        captured = 0
        previous = start
        for square in move[1:]:
            captured |= JUMPED[previous * SQUARES + square]
            previous = square
        kings = self._kings
        was_king = kings & start_bit
        captured_kings = kings & captured
        crowned = False
        if was_king:
            kings ^= start_bit ^ end_bit
        elif end_bit & CROWN_ROWS[self._turn]:
            kings |= end_bit
            crowned = True
        self._kings = kings & ~captured
        if self._turn == BLACK:
            self._black ^= start_bit ^ end_bit
            self._white ^= captured
        else:
            self._white ^= start_bit ^ end_bit
            self._black ^= captured
        self._undo.append((captured, captured_kings, self._quiet, crowned))
        self._quiet = self._quiet + 1 if was_king and not captured else 0
        self._turn ^= 1
        self._moves = None

    def unmake_move(self, move: Move) -> None:
        captured, captured_kings, self._quiet, crowned = self._undo.pop()
        start_bit, end_bit = 1 << move[0], 1 << move[-1]
        self._turn = turn = self._turn ^ 1
        if turn == BLACK:
            self._black ^= start_bit ^ end_bit
            self._white |= captured
        else:
            self._white ^= start_bit ^ end_bit
            self._black |= captured
        kings = self._kings
        if crowned:
            kings &= ~end_bit
        elif kings & end_bit:
            kings ^= start_bit ^ end_bit
        self._kings = kings | captured_kings
        self._moves = None

    # ------------------------------------------------------ search capabilities
    def is_capture(self, move: Move) -> bool:
        """Return whether ``move`` jumps (captures); every move of a position or none does."""
        return JUMPED[move[0] * SQUARES + move[1]] != 0

    def is_crowning(self, move: Move) -> bool:
        """Return whether the legal ``move`` crowns a man."""
        return not self._kings >> move[0] & 1 and bool(1 << move[-1] & CROWN_ROWS[self._turn])

    def ordered_moves(self) -> Sequence[Move]:
        """Return the legal moves: the longest chains of jumps first; without a capture,
        the moves that crown first, then the men's moves, then the kings'."""
        moves = self.legal_moves()
        if len(moves) < 2:
            return moves
        if self.is_capture(moves[0]):
            return sorted(moves, key=len, reverse=True)
        kings, crown = self._kings, CROWN_ROWS[self._turn]

        def rank(move: Move) -> int:
            if kings >> move[0] & 1:
                return 2
            return 0 if 1 << move[1] & crown else 1

        return sorted(moves, key=rank)

    def noisy_moves(self) -> Sequence[Move]:
        """Return the legal moves that change the position sharply: captures and crownings."""
        moves = self.legal_moves()
        if moves and self.is_capture(moves[0]):
            return moves
        return [move for move in moves if self.is_crowning(move)]

    def is_forcing(self, move: Move) -> bool:
        """Return whether the legal ``move`` leaves the opponent a capture, which the
        opponent must then play (an offer or an exchange)."""
        start_bit, end_bit = 1 << move[0], 1 << move[-1]
        captured = 0
        for before, after in pairwise(move):
            captured |= JUMPED[before * SQUARES + after]
        kings = self._kings & ~captured
        if kings & start_bit or end_bit & CROWN_ROWS[self._turn]:
            kings = (kings & ~start_bit) | end_bit
        if self._turn == BLACK:
            mover, other = self._black ^ start_bit ^ end_bit, self._white & ~captured
        else:
            mover, other = self._white ^ start_bit ^ end_bit, self._black & ~captured
        return can_capture(other, mover, kings, self._turn ^ 1)

    # ---------------------------------------------------------------- heuristic
    def evaluate(self) -> int:
        """Return a heuristic value for Black: material (a king is worth one and a half
        men), the men's advance, the men guarding their back row and the centre."""
        black, white, kings = self._black, self._white, self._kings
        black_men, white_men = black & ~kings, white & ~kings
        total = MAN_POINTS * (black_men.bit_count() - white_men.bit_count())
        total += KING_POINTS * ((black & kings).bit_count() - (white & kings).bit_count())
        advance = 0
        for row in range(1, 7):
            row_bits = 0b1111 << (4 * row)
            advance += (
                row * (black_men & row_bits).bit_count()
                - (7 - row) * (white_men & row_bits).bit_count()
            )
        total += ROW_POINTS * advance
        total += BACK_ROW_POINTS * (
            (black_men & BACK_ROWS[BLACK]).bit_count() - (white_men & BACK_ROWS[WHITE]).bit_count()
        )
        total += CENTRE_POINTS * ((black & CENTRE).bit_count() - (white & CENTRE).bit_count())
        bound = self.evaluation_bound - 1
        return max(-bound, min(bound, total))

    # --------------------------------------------------------------------- text
    def _symbol(self, square: int) -> str:
        bit = 1 << square
        if self._black & bit:
            return KING_SYMBOLS[BLACK] if self._kings & bit else MAN_SYMBOLS[BLACK]
        if self._white & bit:
            return KING_SYMBOLS[WHITE] if self._kings & bit else MAN_SYMBOLS[WHITE]
        return ""

    def to_text(self) -> str:
        def squares(side_bits: int) -> str:
            return ",".join(
                f"K{square + 1}" if self._kings >> square & 1 else str(square + 1)
                for square in bits_of(side_bits)
            )

        text = f"{SIDE_LETTERS[self._turn]}:W{squares(self._white)}:B{squares(self._black)}"
        if self._quiet or self.ply:
            text += f" {self._quiet} {self.ply}"
        return text

    def render(self) -> str:
        """Return the board with Black at the top (``b``/``w`` men, ``B``/``W`` kings,
        ``.`` an empty dark square) and the numbers of each row's squares."""
        lines = []
        for row in range(8):
            cells = []
            for col in range(8):
                square = square_at(row, col)
                cells.append(EMPTY_LIGHT if square is None else self._symbol(square) or EMPTY_DARK)
            lines.append(f"{' '.join(cells)}   {4 * row + 1}-{4 * row + 4}")
        quiet = f", {self._quiet} quiet plies" if self._quiet else ""
        lines.append(f"{self.player_names[self._turn]} to move{quiet}")
        return "\n".join(lines)

    def board_view(self) -> BoardView:
        """Return the 8x8 grid (``b``/``w`` men, ``B``/``W`` kings, ``""`` elsewhere);
        each legal move is played by a click on its piece then on its last square, and
        the caption counts the quiet plies toward a draw."""
        symbols = []
        for row in range(8):
            for col in range(8):
                square = square_at(row, col)
                symbols.append("" if square is None else self._symbol(square))
        paths = tuple(
            (
                self.format_move(move),
                tuple(8 * row_of(square) + column_of(square) for square in move),
            )
            for move in self.legal_moves()
        )
        caption = ""
        if self._quiet:
            plies = "ply" if self._quiet == 1 else "plies"
            caption = (
                f"{self._quiet} {plies} without a capture or a man's move "
                f"(a draw at {self.draw_plies})"
            )
        return BoardView(8, 8, tuple(symbols), (None,) * 64, paths=paths, caption=caption)

    def parse_move(self, text: str) -> Move:
        """Return the move written ``text``: the squares it stops on, joined by ``-``
        (a step) or ``x`` (a capture); a capture may give its first and last squares
        alone when no other capture of the position joins them.

        :raises InvalidMoveError: for a square off 1-32, squares no piece could go
            between, or a short capture that is no legal move (or that several are).
        """
        return read_move(text, self.legal_moves)

    def format_move(self, move: Move) -> str:
        return move_text(move)


@hookimpl
def gamesearch_register_games(registry: Any) -> None:
    """Register checkers."""
    registry.add_game(Checkers)


@hookimpl
def gamesearch_register_board_looks(registry: Any) -> None:
    """Draw men and kings as discs (a king crowned) on a checkered board."""
    registry.add_board_look(
        Checkers.name,
        BoardLook(
            kind="discs",
            checkered=True,
            crowned=("B", "W"),
            names={"b": "black man", "B": "black king", "w": "white man", "W": "white king"},
        ),
    )
