"""Connect Four on a ``width`` x ``height`` board (7x6 by default), four in a row wins.

Moves are column indices from 0 inside the program and written ``1`` .. ``width``
(1 = leftmost) in text. A position is text in one of two notations:

- the community's move sequence, the columns played from the empty board, first
  player first: ``"4453"``;
- a grid of rows from top to bottom, ``.`` empty, ``X`` first player, ``O`` second,
  rows separated by ``/`` or new lines: ``"......./......./.../...XO.."``.

The board is two integers (Pascal Pons' layout): ``mask`` has a bit for every
stone and ``current`` one for every stone of the player to move. Each column takes
``height + 1`` bits, bottom first; the extra bit stays empty so that shifts along a
line never wrap into the next column.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamesearch.boardview import BoardView
from gamesearch.errors import (
    InvalidMoveError,
    InvalidPositionError,
)
from gamesearch.game import Game, Option, check_alternating_counts, resolve_options
from gamesearch.rules import Player, Rules

# The geometry of a board size has a module of its own; its names stay importable from here.
from .geometry import GEOMETRIES_KEPT as GEOMETRIES_KEPT
from .geometry import LINE_END_MEMO_SIZE as LINE_END_MEMO_SIZE
from .geometry import Geometry, cells_above, geometry_for, odd_row_mask
from .geometry import four_in_a_row_test as four_in_a_row_test
from .geometry import threat_finder as threat_finder

EMPTY, CROSS, NOUGHT = ".", "X", "O"
#: heuristic points for a window of four holding only one side's stones, by stone count
WINDOW_POINTS = (0, 1, 4, 16)
#: heuristic points for each stone in the centre column
CENTRE_POINTS = 3


class ConnectFour(Game[int]):
    """Connect Four: drop stones into columns, four in a row wins (7x6 by default)."""

    name = "connect4"
    default_searcher = "solver"  #: analyze tries the exact solver first
    player_names = (CROSS, NOUGHT)
    evaluation_bound = 950
    options = (
        Option("width", int, 7, "columns", minimum=4, maximum=9),
        Option("height", int, 6, "rows", minimum=4, maximum=12),
    )

    # _four .. _ordered repeat _geometry's for the hot path. _open is the ply of the
    # position when advance() found it unfinished (-1 otherwise): the move lists need
    # not test it for four in a row again. Only advance() sets it; every other change
    # that can raise the ply (make_move) sets -1, and a ply only comes back down to it
    # by taking moves back, to the very position advance() found.
    __slots__ = (
        "_geometry",
        "_current",
        "_mask",
        "_ply",
        "_history",
        "_origin",
        "_open",
        "_four",
        "_bottoms",
        "_columns",
        "_cells",
        "_top_mask",
        "_natural",
        "_ordered",
    )

    def __init__(self, width: int = 7, height: int = 6) -> None:
        settings = resolve_options(self.options, {"width": width, "height": height})
        self._use_geometry(geometry_for(settings["width"], settings["height"]))
        self._current = 0  # stones of the player to move
        self._mask = 0  # every stone
        self._ply = 0
        #: the moves from the empty board to the start of ``_history``; None if unknown
        self._origin: tuple[int, ...] | None = ()

    def _use_geometry(self, geometry: Geometry) -> None:
        self._open = -1
        self._geometry = geometry
        self._four = geometry.has_four
        self._bottoms, self._columns = geometry.bottoms, geometry.column_masks
        self._cells, self._top_mask = geometry.cells, geometry.top_mask
        self._natural, self._ordered = geometry.natural_moves, geometry.ordered_moves

    def __getstate__(self) -> tuple[Any, ...]:
        """Return what pickles the position (the board size, not its tables)."""
        geometry = self._geometry
        return (
            geometry.width,
            geometry.height,
            self._current,
            self._mask,
            self._ply,
            self._history,
            self._origin,
        )

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        width, height, self._current, self._mask, self._ply, self._history, self._origin = state
        self._use_geometry(geometry_for(width, height))

    # ----------------------------------------------------------------- creation
    @classmethod
    def new(cls, **options: Any) -> ConnectFour:
        return cls(**resolve_options(cls.options, options, owner=f"game {cls.name!r}"))

    @classmethod
    def from_text(cls, text: str, **options: Any) -> ConnectFour:
        """Return the position written as a move sequence (``"4453"``) or a grid.

        Text made only of digits (or empty) is a move sequence; text with ``.``,
        ``X``, ``O``, ``/`` or line breaks is a grid of rows from the top, whose size
        gives the board size unless options say otherwise.

        :raises InvalidPositionError: naming the bad character, column or row.
        :raises InvalidOptionError: for a bad width or height.
        """
        if not isinstance(text, str):
            raise InvalidPositionError(
                f"a position must be text, not {type(text).__name__}: {text!r}"
            )
        stripped = text.strip()
        if not stripped or (stripped.isascii() and stripped.isdigit()):
            return cls.from_moves(stripped, **options)
        words = stripped.split()
        if all(word.isascii() and word.isdigit() for word in words):
            if any(len(word) > 1 for word in words):
                raise InvalidPositionError(
                    f"{text!r} mixes columns written together and apart; write them together "
                    "('4453') or one a space ('4 4 5 3')"
                )
            return cls.from_moves("".join(words), **options)
        if not any(separator in stripped for separator in "/\n"):  # a grid has rows
            raise InvalidPositionError(
                f"{text!r} is not a Connect Four position: expected the columns played from "
                "the empty board ('4453' or '4 4 5 3') or a grid of rows from the top ('X', 'O', "
                "'.', rows separated by '/')"
            )
        return cls.from_grid(stripped, **options)

    @classmethod
    def from_moves(cls, moves: str, **options: Any) -> ConnectFour:
        """Return the position after the columns ``moves`` (``"4453"``) from the empty board.

        :raises InvalidPositionError: for a character that is not a column, a column
            off the board or full, or a move after the game has ended.
        """
        game = cls(**options)
        width = game._geometry.width
        for index, char in enumerate(moves):
            where = f"move {index + 1} of {moves!r}"
            if not "1" <= char <= str(width):
                raise InvalidPositionError(f"{where} is {char!r}; columns are 1 to {width}")
            column = int(char) - 1
            if game.is_over():
                raise InvalidPositionError(f"{where} comes after the game has ended")
            if game._mask & game._geometry.tops[column]:
                raise InvalidPositionError(f"{where} plays column {char} which is full")
            game.push(column)
        game._origin, game._history = tuple(game._history), []
        return game

    @classmethod
    def from_grid(cls, grid: str, **options: Any) -> ConnectFour:
        """Return the position drawn as rows from the top (``/`` or new line between rows).

        :raises InvalidPositionError: for a bad character, rows of unequal length,
            floating stones, impossible stone counts or winners.
        """
        rows = [row.strip() for row in grid.replace("\n", "/").strip().strip("/").split("/")]
        if "width" not in options and "height" not in options:
            for name, size in (("width", len(rows[0])), ("height", len(rows))):
                option = next(option for option in cls.options if option.name == name)
                assert option.minimum is not None and option.maximum is not None
                if not option.minimum <= size <= option.maximum:
                    across = f"{size} cells wide" if name == "width" else f"{size} rows high"
                    raise InvalidPositionError(
                        f"grid {grid!r} is {across}; a Connect Four board has "
                        f"{option.minimum} to {option.maximum} {option.help} (rows from the "
                        "top, separated by '/')"
                    )
            options = {**options, "width": len(rows[0]), "height": len(rows)}
        game = cls(**options)
        geometry = game._geometry
        if len(rows) != geometry.height or any(len(row) != geometry.width for row in rows):
            raise InvalidPositionError(
                f"grid {grid!r} must have {geometry.height} rows of {geometry.width} cells"
            )
        stones = [0, 0]
        for top_index, row_text in enumerate(rows):
            row = geometry.height - 1 - top_index
            for col, symbol in enumerate(row_text):
                if symbol.upper() in (CROSS, NOUGHT):
                    stones[symbol.upper() == NOUGHT] |= geometry.bit(col, row)
                elif symbol != EMPTY:
                    raise InvalidPositionError(
                        f"grid {grid!r} has {symbol!r} in row {top_index + 1}; use 'X', 'O' or '.'"
                    )
        game._set_stones(stones[0], stones[1], grid)
        return game

    def _set_stones(self, crosses: int, noughts: int, original: str) -> None:
        geometry = self._geometry
        mask = crosses | noughts
        for col, column_mask in enumerate(geometry.column_masks):
            column = (mask & column_mask) >> (col * geometry.stride)
            if column & (column + 1):  # not a run of ones from the bottom
                raise InvalidPositionError(
                    f"grid {original!r} has a floating stone in column {col + 1}"
                )
        count_x, count_o = crosses.bit_count(), noughts.bit_count()
        check_alternating_counts(
            f"grid {original!r}",
            count_x,
            count_o,
            geometry.has_four(crosses),
            geometry.has_four(noughts),
            won="with four in a row",
            pieces="stones",
        )
        self._ply = count_x + count_o
        self._mask = mask
        self._current = noughts if self._ply & 1 else crosses
        self._history = []
        self._origin = None

    def copy(self) -> ConnectFour:
        twin = object.__new__(type(self))
        twin._use_geometry(self._geometry)
        twin._current, twin._mask, twin._ply = self._current, self._mask, self._ply
        twin._history = self._history.copy()
        twin._origin = self._origin
        return twin

    @property
    def settings(self) -> dict[str, Any]:
        return {"width": self._geometry.width, "height": self._geometry.height}

    # ------------------------------------------------------------ state queries
    @property
    def ply(self) -> int:
        return self._ply

    @property
    def rules(self) -> Rules:
        return self._geometry.rules

    def to_move(self) -> Player:
        return Player.SECOND if self._ply & 1 else Player.FIRST

    def stones(self, player: Player) -> int:
        """Return the bitboard of ``player``'s stones."""
        mover_is_second = self._ply & 1
        if int(player) == mover_is_second:
            return self._current
        return self._current ^ self._mask

    # Hot path from here to retract(): bit operations and table look-ups, no allocation.
    def legal_moves(self) -> Sequence[int]:
        mask = self._mask
        if self._open != self._ply and self._four(self._current ^ mask):  # the last mover won
            return ()
        return self._natural[mask & self._top_mask]  # () once the board is full

    def ordered_moves(self) -> Sequence[int]:
        """Return the legal columns from the centre outwards."""
        mask = self._mask
        if self._open != self._ply and self._four(self._current ^ mask):
            return ()
        return self._ordered[mask & self._top_mask]

    def result(self) -> int | None:
        if self._four(self._current ^ self._mask):
            return 1 if self._ply & 1 else -1  # the player who just moved has won
        return 0 if self._ply == self._cells else None

    def key(self) -> int:
        # Unique per position (Pons): mask + current + bottom row encodes every
        # column's stones and height, and the stone count gives the side to move.
        return self._current + self._mask

    def make_move(self, move: int) -> None:
        mask = self._mask
        self._current ^= mask
        self._mask = mask | (mask + self._bottoms[move])
        self._ply += 1
        self._open = -1

    def unmake_move(self, move: int) -> None:
        mask = self._mask
        # the column's top stone: its stones plus the bottom cell carry to the cell above it
        mask ^= ((mask & self._columns[move]) + self._bottoms[move]) >> 1
        self._mask = mask
        self._current ^= mask
        self._ply -= 1

    def advance(self, move: int) -> int | None:
        # push() and result() fused.
        self._history.append(move)
        mask = self._mask
        current = self._current ^ mask  # the stones of the player to move next
        mask |= mask + self._bottoms[move]
        self._current, self._mask = current, mask
        self._ply = ply = self._ply + 1
        if self._four(current ^ mask):
            self._open = -1
            return 1 if ply & 1 else -1
        if ply == self._cells:
            self._open = -1
            return 0
        self._open = ply
        return None

    def retract(self, move: int) -> None:
        self._history.pop()
        mask = self._mask
        # the column's top stone: its stones plus the bottom cell carry to the cell above it
        mask ^= ((mask & self._columns[move]) + self._bottoms[move]) >> 1
        self._mask = mask
        self._current ^= mask
        self._ply -= 1

    def winning_moves(self) -> Sequence[int]:
        """Return the columns where the player to move completes four at once."""
        geometry, mask = self._geometry, self._mask
        playable = (mask + geometry.bottom_mask) & geometry.board_mask
        wins = geometry.winning_cells(self._current, mask) & playable
        if not wins:
            return ()
        return tuple(col for col in geometry.order if wins & geometry.column_masks[col])

    def non_losing_moves(self) -> Sequence[int]:
        """Return the moves that leave the opponent no win at once, best first.

        A move is dropped when the opponent could then win at once: beside an
        opponent threat (unless it blocks one) or right under one. With two
        threats to block there is nothing left. The rest are ordered by the
        threats the move creates for its player (Pons' move score), then centre first.
        """
        geometry, mask, current = self._geometry, self._mask, self._current
        memo, remember = geometry.line_end_memo.get, geometry.remember_line_ends
        empty = geometry.board_mask ^ mask
        playable = (mask + geometry.bottom_mask) & geometry.board_mask
        opponent = current ^ mask
        found = memo(opponent)
        opponent_wins = (remember(opponent) if found is None else found) & empty
        forced = playable & opponent_wins
        if forced:
            if forced & (forced - 1):  # two threats: one cannot block both
                return ()
            playable = forced
        playable &= ~(opponent_wins >> 1)  # never play right under an opponent threat
        if not playable & (playable - 1):  # no move or one: nothing to order
            return geometry.single_moves[playable.bit_length()]
        order, ranked = geometry.order, []
        for rank, column_mask in enumerate(geometry.ordered_column_masks):
            move = playable & column_mask
            if move:
                after = current | move
                found = memo(after)
                if found is None:
                    found = remember(after)
                ranked.append(((found & empty).bit_count() << 4) | (15 - rank))
        ranked.sort(reverse=True)
        return [order[15 - (item & 15)] for item in ranked]

    # ---------------------------------------------------------------- heuristic
    #: points for a threat (an empty cell completing four) on a row that suits its
    #: owner: odd rows (1, 3, 5 from the bottom) for the first player, even rows for the second
    GOOD_THREAT_POINTS = 48
    #: points for a threat on a row of the other parity
    OTHER_THREAT_POINTS = 16
    #: points for two threats of one side in one column, one right above the other
    STACKED_THREAT_POINTS = 96
    #: the value, for the side to move, of a position where it completes four next move
    WIN_NEXT_POINTS = 800
    #: the value, for the side that just moved, of two of its threats the mover cannot both block
    WIN_SOON_POINTS = 700
    #: points for the side whose threats suit its rows when the other side's do not
    ZUGZWANG_POINTS = 60
    #: forced blocks evaluate() looks past before it scores a position
    FORCED_PLIES = 1

    def evaluate(self) -> int:
        """Return a heuristic value for the first player, strictly inside ``±evaluation_bound``.

        Three layers, first player minus second:

        - a win one or two plies away that no search depth can miss: the side to move
          completes four at once (``±WIN_NEXT_POINTS``), or the side that just moved
          has two threats the mover can reach and can block only one, or a threat
          right above the only one it can block (``±WIN_SOON_POINTS``). When the
          mover has exactly one move that does not lose at once (a block), the
          position after it is scored instead (up to ``FORCED_PLIES`` blocks in a
          row; worked out on the bitboards, the game itself is never changed);
        - threats, the empty cells that would complete a side's four: those on the
          rows the side can expect to get by zugzwang (odd rows for the first
          player, even rows for the second, counting from 1 at the bottom) are worth
          more, two threats of one side one above the other more again, and a side
          with such a threat while the other has none of its own kind gets a bonus
          (the side that can expect to win the zugzwang at the end); a threat above
          an opponent's threat in its column counts for nothing, as the lower one is
          reached first;
        - windows of four held by one side only (1, 4, 16 points for 1 to 3 stones)
          and 3 points per stone in the centre column.
        """
        return self._evaluate(self._current, self._mask, self._ply, self.FORCED_PLIES)

    def _evaluate(self, current: int, mask: int, ply: int, forced_plies: int) -> int:
        """Return :meth:`evaluate`'s value for the position of ``current`` (the mover's
        stones), ``mask`` and ``ply``, playing out up to ``forced_plies`` forced blocks
        first (hot path: bit operations on copies of the bitboards, the game untouched)."""
        geometry = self._geometry
        opponent = current ^ mask
        playable = (mask + geometry.bottom_mask) & geometry.board_mask
        mover_threats = geometry.winning_cells(current, mask)
        opponent_threats = geometry.winning_cells(opponent, mask)
        mover_sign = -1 if ply & 1 else 1  # +1 when the first player is to move
        if mover_threats & playable:
            return mover_sign * self.WIN_NEXT_POINTS
        forced = opponent_threats & playable
        if forced:
            if forced & (forced - 1) or (forced << 1) & opponent_threats:
                return -mover_sign * self.WIN_SOON_POINTS
            if forced_plies > 0:  # the only move that does not lose at once: look past it
                if ply + 1 == geometry.cells:  # the block fills the board (it cannot win)
                    return 0
                return self._evaluate(opponent, mask | forced, ply + 1, forced_plies - 1)
        if mover_sign > 0:
            crosses, noughts, cross_threats, nought_threats = (
                current,
                opponent,
                mover_threats,
                opponent_threats,
            )
        else:
            crosses, noughts, cross_threats, nought_threats = (
                opponent,
                current,
                opponent_threats,
                mover_threats,
            )
        total = self._threat_points(cross_threats, nought_threats) + self._window_points(
            crosses, noughts
        )
        bound = self.evaluation_bound - 1
        return max(-bound, min(bound, total))

    def _threat_points(self, cross_threats: int, nought_threats: int) -> int:
        """Return the threat layer of :meth:`evaluate` (first player minus second)."""
        if not (cross_threats or nought_threats):
            return 0
        geometry = self._geometry
        odd_rows = odd_row_mask(geometry.width, geometry.height)  # rows 1, 3, 5 from the bottom
        # A threat above any threat of the opponent in its column is never reached first.
        cross_live = cross_threats & ~cells_above(nought_threats, geometry)
        nought_live = nought_threats & ~cells_above(cross_threats, geometry)
        good, other = self.GOOD_THREAT_POINTS, self.OTHER_THREAT_POINTS
        total = (
            good * (cross_live & odd_rows).bit_count()
            + other * (cross_live & ~odd_rows).bit_count()
        )
        total -= (
            good * (nought_live & ~odd_rows).bit_count()
            + other * (nought_live & odd_rows).bit_count()
        )
        cross_odd, nought_even = cross_live & odd_rows, nought_live & ~odd_rows
        if cross_odd and not nought_even:
            total += self.ZUGZWANG_POINTS
        elif nought_even and not cross_odd:
            total -= self.ZUGZWANG_POINTS
        stacked = self.STACKED_THREAT_POINTS
        total += stacked * (cross_live & (cross_live << 1)).bit_count()
        total -= stacked * (nought_live & (nought_live << 1)).bit_count()
        return total

    def _window_points(self, crosses: int, noughts: int) -> int:
        """Return the window and centre layer of :meth:`evaluate` (first player minus second)."""
        total = 0
        for window in self._geometry.windows:
            mine, theirs = crosses & window, noughts & window
            if mine:
                if not theirs:
                    total += WINDOW_POINTS[mine.bit_count()]
            elif theirs:
                total -= WINDOW_POINTS[theirs.bit_count()]
        centre = self._geometry.centre_mask
        return total + CENTRE_POINTS * (
            (crosses & centre).bit_count() - (noughts & centre).bit_count()
        )

    # --------------------------------------------------------------------- text
    def cell(self, col: int, row: int) -> str:
        """Return ``"X"``, ``"O"`` or ``"."`` for the cell at column ``col``, row ``row`` (0 =
        bottom)."""
        bit = self._geometry.bit(col, row)
        if not self._mask & bit:
            return EMPTY
        return CROSS if self.stones(Player.FIRST) & bit else NOUGHT

    def move_sequence(self) -> str | None:
        """Return the columns played from the empty board (``"4453"``), or ``None`` when
        the position was given as a grid and its move order is unknown."""
        if self._origin is None:
            return None
        return "".join(str(col + 1) for col in (*self._origin, *self._history))

    def to_grid(self) -> str:
        """Return the rows from the top, ``/`` between rows (``"......./...X..."``)."""
        geometry = self._geometry
        return "/".join(
            "".join(self.cell(col, row) for col in range(geometry.width))
            for row in reversed(range(geometry.height))
        )

    def to_text(self) -> str:
        """Return the move sequence when known (built from moves), else the grid."""
        sequence = self.move_sequence()
        return self.to_grid() if sequence is None else sequence

    def render(self) -> str:
        geometry = self._geometry
        lines = [
            " ".join(self.cell(col, row) for col in range(geometry.width))
            for row in reversed(range(geometry.height))
        ]
        lines.append(" ".join(str(col + 1) for col in range(geometry.width)))
        return "\n".join(lines)

    def board_view(self) -> BoardView:
        """Return the grid; a click on any cell of a column plays it while it is not full."""
        geometry = self._geometry
        legal = set(self.legal_moves())
        symbols, moves = [], []
        for row in reversed(range(geometry.height)):
            for col in range(geometry.width):
                symbols.append(self.cell(col, row).replace(EMPTY, ""))
                moves.append(str(col + 1) if col in legal else None)
        return BoardView(geometry.height, geometry.width, tuple(symbols), tuple(moves))

    def parse_move(self, text: str) -> int:
        width = self._geometry.width
        stripped = str(text).strip()
        if not (stripped.isascii() and stripped.isdigit()) or not 1 <= int(stripped) <= width:
            raise InvalidMoveError(f"move {text!r} is not a column; use a number from 1 to {width}")
        return int(stripped) - 1

    def format_move(self, move: int) -> str:
        return str(move + 1)

    # ------------------------------------------------------ what an engine asks
    def noisy_moves(self) -> Sequence[int]:
        """Return the columns that win at once or block the opponent's win at once, centre first."""
        geometry, mask, current = self._geometry, self._mask, self._current
        if self._four(current ^ mask):
            return ()
        playable = (mask + geometry.bottom_mask) & geometry.board_mask
        sharp = playable & (
            geometry.winning_cells(current, mask) | geometry.winning_cells(current ^ mask, mask)
        )
        if not sharp:
            return ()
        return tuple(col for col in geometry.order if sharp & geometry.column_masks[col])

    def is_forcing(self, move: int) -> bool:
        """Return whether the stone dropped in column ``move`` makes a four the opponent
        must block on the next move (a playable cell that completes it)."""
        geometry, mask = self._geometry, self._mask
        cell = (mask + geometry.bottoms[move]) & geometry.column_masks[move]
        after = mask | cell
        playable = (after + geometry.bottom_mask) & geometry.board_mask
        return bool(geometry.winning_cells(self._current | cell, after) & playable)
