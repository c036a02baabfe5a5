"""The public Connect Four reference data: where it is, how to read it, how it scores.

Two formats (see ``shared/data/connect4/README.md``):

- Pascal Pons' benchmark sets (``Test_L*_R*``): lines ``<moves> <score>``, the score
  from the side to move's point of view, ``cells/2 + 1`` minus the winner's stones
  (22 minus the stones on 7x6), negative for a loss, 0 for a draw;
- the UCI "Connect-4" data set (``connect-4.data``): 42 comma-separated cells
  column by column, bottom to top (``x``, ``o``, ``b``), then ``win``/``loss``/``draw``
  for the first player, who is also the side to move (8 stones on every board).

The data folder is ``$GAMESEARCH_CONNECT4_DATA`` or ``shared/data/connect4`` beside the
repository checkout.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from gamesearch.cli._output import console, table
from gamesearch.errors import InvalidPositionError, MissingDataError
from gamesearch.game import Game

DATA_ENVIRONMENT = "GAMESEARCH_CONNECT4_DATA"
UCI_FILE = "connect-4.data"
UCI_LABELS = {"win": 1, "draw": 0, "loss": -1}
UCI_WIDTH, UCI_HEIGHT = 7, 6


def data_dir() -> Path:
    """Return the Connect Four data folder (it may not exist)."""
    configured = os.environ.get(DATA_ENVIRONMENT)
    if configured:
        return Path(configured)
    repository = Path(__file__).resolve().parents[2]
    return repository.parent / "shared" / "data" / "connect4"


def find_data_file(name: str) -> Path:
    """Return ``name`` as a path, or the file of that name in the data folder.

    :raises MissingDataError: when neither exists.
    """
    path = Path(name)
    if path.is_file():
        return path
    candidate = data_dir() / name
    if candidate.is_file():
        return candidate
    raise MissingDataError(
        f"no file {name!r} here or in the data folder {str(data_dir())!r} "
        f"(set ${DATA_ENVIRONMENT} to the folder holding the Test_L*_R* files)"
    )


@attrs.frozen
class ScoredPosition:
    """One benchmark line: the moves from the empty board and the expected score."""

    line: int  #: 1-based line number in the file
    moves: str
    score: int


def read_score_file(path: Path) -> list[ScoredPosition]:
    """Return every ``<moves> <score>`` line of a benchmark file.

    :raises InvalidPositionError: naming the first malformed line.
    """
    positions = []
    with path.open(encoding="ascii") as lines:
        for number, line in enumerate(lines, 1):
            fields = line.split()
            if not fields:
                continue
            try:
                moves, score = fields
                positions.append(ScoredPosition(number, moves, int(score)))
            except ValueError:
                raise InvalidPositionError(
                    f"line {number} of {str(path)!r} is {line.strip()!r}; expected '<moves> <score>'"
                ) from None
    return positions


def benchmark_score(game: Game[Any], value: int) -> int:
    """Return the benchmark score of ``value`` (an exact distance value for ``game``'s
    side to move): ``(cells + 2 - p) // 2`` for a win ending at ply ``p``, negative for
    a loss, 0 for a draw (22 minus the winner's stones on 7x6)."""
    if value == 0:
        return 0
    end_ply = game.win_score - abs(value)
    score = (game.max_plies + 2 - end_ply) // 2
    return score if value > 0 else -score


@attrs.frozen
class UciRow:
    """One row of the UCI data: the board as grid text and the first player's result."""

    line: int
    grid: str  #: rows from the top, ``/`` between them, ``X``/``O``/``.``
    result: int  #: +1 win, 0 draw, -1 loss for the first player


def parse_uci_row(text: str, line: int = 0) -> UciRow:
    """Return the row ``text`` (43 comma-separated fields) as grid text and result.

    :raises InvalidPositionError: for a wrong field count, cell or label.
    """
    fields = text.strip().split(",")
    if len(fields) != UCI_WIDTH * UCI_HEIGHT + 1:
        raise InvalidPositionError(
            f"UCI row {line} has {len(fields)} fields; expected {UCI_WIDTH * UCI_HEIGHT + 1}: {text.strip()!r}"
        )
    *cells, label = fields
    if label not in UCI_LABELS:
        raise InvalidPositionError(f"UCI row {line} ends with {label!r}; expected win, loss or draw")
    symbols = {"x": "X", "o": "O", "b": "."}
    rows = []
    for row in reversed(range(UCI_HEIGHT)):
        cells_of_row = []
        for col in range(UCI_WIDTH):
            cell = cells[col * UCI_HEIGHT + row]
            if cell not in symbols:
                raise InvalidPositionError(f"UCI row {line} has cell {cell!r}; expected x, o or b")
            cells_of_row.append(symbols[cell])
        rows.append("".join(cells_of_row))
    return UciRow(line, "/".join(rows), UCI_LABELS[label])


def read_uci(path: Path) -> Iterator[UciRow]:
    """Yield every row of a UCI ``connect-4.data`` file.

    :raises InvalidPositionError: naming the first malformed row.
    """
    with path.open(encoding="ascii") as lines:
        for number, text in enumerate(lines, 1):
            if text.strip():
                yield parse_uci_row(text, number)


def print_check(title: str, disagreements: list[dict[str, Any]], rows: list[tuple[str, str]]) -> None:
    """Print each disagreement (``line``, ``position``, ``expected``, ``found``) on one line,
    then a two-column table of ``rows`` under ``title``."""
    out = console()
    for wrong in disagreements:
        out.print(
            f"disagreement on line {wrong['line']}: {wrong['position']} expected {wrong['expected']}, "
            f"found {wrong['found']}"
        )
    grid = table(title, ("measure", "value"))
    for name, value in rows:
        grid.add_row(name, value)
    out.print(grid)
