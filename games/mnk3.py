"""Three-player m,n,k: tic-tac-toe's generalisation with three players, A, B and C.

The rules are the m,n,k-game's (k in a row on an m-by-n board: rows, columns or
diagonals) with three players who take turns, A first, then B, then C, each putting
its own mark on an empty cell. The first player to complete a line of k of its own
marks wins. Scoring, one utility per player: the winner gets 3 and the others 0; a
full board with no line gives 1 to each (every result adds up to 3, a constant sum).

Positions are text, one character a cell, row by row: ``A``, ``B``, ``C`` or ``.``,
rows separated by ``/`` (``"AB./.C./..."``); whose turn it is follows from the
counts (A has as many marks as B, or one more; B as many as C, or one more). Moves
are cell indices counted row-major from 0.

In search only, the turn can be passed (:meth:`ThreePlayerMNK.make_null_move`):
best-reply search uses it to let one opponent reply out of turn.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from gamesearch.boardview import BoardView
from gamesearch.errors import InvalidOptionError, InvalidPositionError
from gamesearch.game import Option, UtilitiesGame, resolve_options
from gamesearch.plugins import hookimpl
from gamesearch.rules import Rules

from .grid import cell_board_view, parse_cell

EMPTY = "."
MARKS = ("A", "B", "C")
#: the winner's utility, a loser's, and each player's in a drawn (full) board
WIN, LOSS, DRAW = 3, 0, 1


class _Geometry:
    """Everything that depends only on (rows, cols, k): the rules and the lines."""

    def __init__(self, rows: int, cols: int, k: int) -> None:
        self.rows, self.cols, self.k = rows, cols, k
        self.cells = rows * cols
        self.rules = Rules(
            max_plies=self.cells,
            players=3,
            alternating=True,
            result_range=(LOSS, WIN),
            utilities=True,
            constant_sum=WIN + 2 * LOSS,
        )
        lines = []
        for row in range(rows):
            for col in range(cols):
                for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_row, end_col = row + d_row * (k - 1), col + d_col * (k - 1)
                    if 0 <= end_row < rows and 0 <= end_col < cols:
                        lines.append(
                            tuple((row + d_row * i) * cols + col + d_col * i for i in range(k))
                        )
        self.lines = tuple(sorted(set(lines)))
        self.lines_through = tuple(
            tuple(line for line in self.lines if cell in line) for cell in range(self.cells)
        )


@functools.lru_cache(maxsize=8)
def _geometry(rows: int, cols: int, k: int) -> _Geometry:
    return _Geometry(rows, cols, k)


class ThreePlayerMNK(UtilitiesGame[int]):
    """Three-player m,n,k: A, B and C take turns; k in a row wins (3 to the winner, 1 each if
    full)."""

    name = "mnk3"
    options = (
        Option("rows", int, 3, "board rows", minimum=1, maximum=8),
        Option("cols", int, 3, "board columns", minimum=1, maximum=8),
        Option("k", int, 3, "marks in a row that win", minimum=1, maximum=8),
    )
    player_names = MARKS
    evaluation_bound = 1000
    default_searcher = "maxn"

    def __init__(self, rows: int = 3, cols: int = 3, k: int = 3) -> None:
        if k > max(rows, cols):
            raise InvalidOptionError(
                f"option 'k' must be at most the longer side ({max(rows, cols)}): {k!r}"
            )
        self._geometry = _geometry(rows, cols, k)
        self._cells = [EMPTY] * self._geometry.cells
        self._turn = 0
        self._filled = 0
        self._results: list[tuple[int, ...] | None] = [None]

    @classmethod
    def new(cls, **options: Any) -> ThreePlayerMNK:
        return cls(**resolve_options(cls.options, options))

    @property
    def rules(self) -> Rules:
        return self._geometry.rules

    @property
    def settings(self) -> dict[str, Any]:
        geometry = self._geometry
        return {"rows": geometry.rows, "cols": geometry.cols, "k": geometry.k}

    @classmethod
    def from_text(cls, text: str, **options: Any) -> ThreePlayerMNK:
        """Return the position written row by row with ``A``, ``B``, ``C`` and ``.``, rows
        separated by ``/``; without ``rows``/``cols`` options the size is the text's.

        :raises InvalidPositionError: for bad characters, a wrong shape, impossible
            counts or winners.
        """
        if not isinstance(text, str):
            raise InvalidPositionError(
                f"a position must be text, not {type(text).__name__}: {text!r}"
            )
        rows_text = "".join(text.split()).split("/")
        if "rows" not in options and "cols" not in options:
            options = {**options, "rows": len(rows_text), "cols": len(rows_text[0])}
        game = cls.new(**options)
        geometry = game._geometry
        if len(rows_text) != geometry.rows or any(len(row) != geometry.cols for row in rows_text):
            raise InvalidPositionError(
                f"position {text!r} must have {geometry.rows} rows of {geometry.cols} cells "
                "separated by '/'"
            )
        game._set_cells("".join(rows_text).upper(), text)
        return game

    def _set_cells(self, cells: str, original: str) -> None:
        for index, symbol in enumerate(cells):
            if symbol != EMPTY and symbol not in MARKS:
                raise InvalidPositionError(
                    f"position {original!r} has {symbol!r} at cell {index}; use 'A', 'B', 'C' or "
                    "'.'"
                )
        counts = [cells.count(mark) for mark in MARKS]
        if not counts[0] - 1 <= counts[2] <= counts[1] <= counts[0]:
            raise InvalidPositionError(
                f"position {original!r} has {counts[0]} A, {counts[1]} B and {counts[2]} C; they "
                "take "
                "turns from A, so A has as many marks as B or one more, and B as C or one more"
            )
        lines = self._geometry.lines
        winners = [
            mark
            for mark in MARKS
            if any(all(cells[cell] == mark for cell in line) for line in lines)
        ]
        filled = sum(counts)
        last = MARKS[(filled - 1) % 3] if filled else None
        if len(winners) > 1:
            raise InvalidPositionError(
                f"position {original!r} has lines of {' and '.join(winners)}"
            )
        if winners and winners[0] != last:
            raise InvalidPositionError(
                f"position {original!r} has a line of {winners[0]}, but {last} has moved since"
            )
        self._cells = list(cells)
        self._filled = filled
        self._turn = filled % 3
        self._results = [self._outcome(MARKS.index(winners[0]) if winners else None)]
        self._history = []

    def _outcome(self, winner: int | None) -> tuple[int, ...] | None:
        """Return the utilities once ``winner`` has a line (or the board is full), else ``None``."""
        if winner is not None:
            return tuple(WIN if player == winner else LOSS for player in range(3))
        if self._filled == self._geometry.cells:
            return (DRAW, DRAW, DRAW)
        return None

    # ----------------------------------------------------------------- the core
    @property
    def ply(self) -> int:
        """Return the marks on the board (the plies since the empty board)."""
        return self._filled

    def to_move(self) -> int:
        return self._turn

    def legal_moves(self) -> Sequence[int]:
        if self._results[-1] is not None:
            return ()
        cells = self._cells
        return tuple(index for index in range(len(cells)) if cells[index] == EMPTY)

    def make_move(self, move: int) -> None:
        mover = self._turn
        mark = MARKS[mover]
        cells = self._cells
        cells[move] = mark
        self._filled += 1
        won = any(
            all(cells[cell] == mark for cell in line) for line in self._geometry.lines_through[move]
        )
        self._results.append(self._outcome(mover if won else None))
        self._turn = (mover + 1) % 3

    def unmake_move(self, move: int) -> None:
        self._turn = (self._turn - 1) % 3
        self._cells[move] = EMPTY
        self._filled -= 1
        self._results.pop()

    def make_null_move(self) -> None:
        """Pass the turn to the next player (in search only; never a legal move)."""
        self._turn = (self._turn + 1) % 3

    def unmake_null_move(self) -> None:
        """Take back :meth:`make_null_move`."""
        self._turn = (self._turn - 1) % 3

    def result(self) -> tuple[int, ...] | None:  # type: ignore[override]
        return self._results[-1]

    def key(self) -> tuple[str, int]:
        return ("".join(self._cells), self._turn)

    def evaluate(self) -> tuple[int, ...]:
        """Return, for each player, the lines still open to it alone, each worth 4 to the
        power of its marks there (at most ``evaluation_bound - 1``)."""
        cells = self._cells
        scores = [0, 0, 0]
        for line in self._geometry.lines:
            owner = None
            marks = 0
            for cell in line:
                symbol = cells[cell]
                if symbol == EMPTY:
                    continue
                if owner is None:
                    owner = symbol
                elif symbol != owner:
                    owner = EMPTY  # blocked: two players' marks
                    break
                marks += 1
            if owner is not None and owner != EMPTY:
                scores[MARKS.index(owner)] += 4**marks
        limit = self.evaluation_bound - 1
        return tuple(min(limit, score) for score in scores)

    # ----------------------------------------------------------------- text
    def to_text(self) -> str:
        cols = self._geometry.cols
        cells = "".join(self._cells)
        return "/".join(cells[start : start + cols] for start in range(0, len(cells), cols))

    def render(self) -> str:
        return "\n".join(" ".join(row) for row in self.to_text().split("/"))

    def board_view(self) -> BoardView:
        """Return the grid; a click on an empty cell plays it while the game goes on."""
        geometry = self._geometry
        return cell_board_view(geometry.rows, geometry.cols, self._cells, self.legal_moves())

    def parse_move(self, text: str) -> int:
        return parse_cell(text, self._geometry.cells)

    def format_move(self, move: int) -> str:
        return str(move)


@hookimpl
def gamesearch_register_games(registry: Any) -> None:
    """Register three-player m,n,k."""
    registry.add_game(ThreePlayerMNK)
