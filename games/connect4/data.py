"""The public Connect Four reference data: where it comes from, where it is kept, how to read it.

Two formats, each declared to the framework as a position format of ``connect4``
(``gamesearch batch connect4 FILE --format NAME``):

- ``pons``, Pascal Pons' benchmark sets (``Test_L*_R*``): lines ``<moves> <score>``,
  the score from the side to move's point of view, ``cells/2 + 1`` minus the winner's
  stones (22 minus the stones on 7x6), negative for a loss, 0 for a draw;
- ``uci``, the UCI "Connect-4" data set (``connect-4.data``): 42 comma-separated cells
  column by column, bottom to top (``x``, ``o``, ``b``), then ``win``/``loss``/``draw``
  for the first player, who is also the side to move (8 stones on every board).

``gamesearch data fetch connect4`` downloads them (:data:`CONNECT4`) into the user's
cache folder. A file is looked up in the folder given with ``--data``, else in
``$GAMESEARCH_CONNECT4_DATA``, else in the cache folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from gamesearch.datasets.fetch import DataSet, RemoteFile, data_folder, file_sha256, find_data_file
from gamesearch.datasets.formats import Expect, PositionFormat, PositionLine, text_lines
from gamesearch.errors import InvalidDataError, InvalidPositionError
from gamesearch.game import Game

UCI_FILE = "connect-4.data"
UCI_LABELS = {"win": 1, "draw": 0, "loss": -1}
UCI_WIDTH, UCI_HEIGHT = 7, 6

_PONS = "http://blog.gamesolver.org/data/"
_UCI = "https://archive.ics.uci.edu/ml/machine-learning-databases/connect-4/"

#: the position formats of the two kinds of file (see the module's description)
PONS, UCI = "pons", "uci"

#: Pons' six benchmark sets and the UCI data set, as published (checksums of the files)
CONNECT4 = DataSet(
    "connect4",
    "Pascal Pons' Connect Four benchmark sets and the UCI Connect-4 data set (6.1 MB)",
    (
        RemoteFile(
            "Test_L3_R1",
            _PONS + "Test_L3_R1",
            "fae47639d993cc91f074d0b642a5f2bb251d31b15cea9df496d672c01fb2efec",
            37836,
            format=PONS,
        ),
        RemoteFile(
            "Test_L2_R1",
            _PONS + "Test_L2_R1",
            "52b9ee96ab6e92fd755ca4c545792c07c548a5a994fd32beec2775939d071b3c",
            26122,
            format=PONS,
        ),
        RemoteFile(
            "Test_L2_R2",
            _PONS + "Test_L2_R2",
            "a0bb9983650ad5b6c6080da47c31065f6efa11bfadf2e1149af1619d7d65b745",
            22936,
            format=PONS,
        ),
        RemoteFile(
            "Test_L1_R1",
            _PONS + "Test_L1_R1",
            "003b7f5cc2b9b2d07ee2663cf92dfe99a50d7f4f57c556b6f35048e1bfaedb68",
            15102,
            format=PONS,
        ),
        RemoteFile(
            "Test_L1_R2",
            _PONS + "Test_L1_R2",
            "ba3df3282804270661239d0fc357761a5c7cc31bbd581f3c502222abffa31113",
            14480,
            format=PONS,
        ),
        RemoteFile(
            "Test_L1_R3",
            _PONS + "Test_L1_R3",
            "7b6eb6c7c9e7342f8065188cac01a25df2413a5b77de062cf14a4a8b237b140a",
            9918,
            format=PONS,
        ),
        RemoteFile(
            "connect-4.names",
            _UCI + "connect-4.names",
            "dc366b892f457153057eb51e9f10b1e76cca02a71e4198481d3abbc95293653f",
            1890,
        ),
        RemoteFile(
            UCI_FILE,
            _UCI + "connect-4.data.Z",
            "063152e6eadbb424c7ef4645df76e493a43812edd9c992400983da4fa54f8cba",
            5968100,
            compression="compress",
            download_sha256="14c886b817783ac9b642f42ec78a2e67f727a3d41c94913af8954d454eee2367",
            download_size=403464,
            format=UCI,
        ),
    ),
    game="connect4",
)
DATA_ENVIRONMENT = CONNECT4.environment_variable
FETCH_COMMAND = CONNECT4.fetch_command()


@attrs.frozen
class PonsReference:
    """Pons' own solver on one benchmark set: mean nodes over its first ``positions`` lines,
    as ``source`` (the address of the page that gives them) prints them."""

    positions: int
    strong_nodes: float
    weak_nodes: float
    source: str

    def mean_nodes(self, weak: bool) -> float:
        """Return his mean nodes per position, weak (win/draw/loss) or strong."""
        return self.weak_nodes if weak else self.strong_nodes


#: Pons' page of his final solver (Part 12, lower-bound transposition table): its benchmark
#: table gives the mean nodes per position over each whole set, strong and weak
PONS_PART12_PAGE = (
    "http://blog.gamesolver.org/solving-connect-four/12-lower-bound-transposition-table/"
)

#: Pons' Part 12 solver, as his page prints it (his node counts per position are not
#: published: only these means, to four figures)
PONS_REFERENCE = {
    "Test_L3_R1": PonsReference(1000, 51.28, 29.36, PONS_PART12_PAGE),
    "Test_L2_R1": PonsReference(1000, 449.6, 532.7, PONS_PART12_PAGE),
    "Test_L2_R2": PonsReference(1000, 39_900, 20_210, PONS_PART12_PAGE),
    "Test_L1_R1": PonsReference(1000, 3_298, 22_230, PONS_PART12_PAGE),
    "Test_L1_R2": PonsReference(1000, 1_201_000, 538_700, PONS_PART12_PAGE),
    "Test_L1_R3": PonsReference(1000, 65_920_000, 38_120_000, PONS_PART12_PAGE),
}


def data_dir(data: Path | None = None) -> Path:
    """Return the folder the Connect Four data is kept in: ``data`` if given, else
    ``$GAMESEARCH_CONNECT4_DATA`` if set, else the user's cache folder."""
    return data_folder(CONNECT4, data)


def find_file(name: str, data: Path | None = None) -> Path:
    """Return ``name`` as a path, or the Connect Four data file of that name.

    :raises MissingDataError: naming the folder looked in and the command that
        downloads the file.
    :raises InvalidDataError: when ``name`` is a folder.
    """
    return find_data_file(CONNECT4, name, data)


def published_set(path: Path) -> str | None:
    """Return the name of the benchmark set whose published file ``path`` is byte for byte,
    or ``None``."""
    size = path.stat().st_size
    candidates = [
        file for file in CONNECT4.files if file.name in PONS_REFERENCE and file.size == size
    ]
    if not candidates:
        return None
    checksum = file_sha256(path)
    return next((file.name for file in candidates if file.sha256 == checksum), None)


@attrs.frozen
class ScoredPosition:
    """One benchmark line: the moves from the empty board and the expected score."""

    line: int  #: 1-based line number in the file
    moves: str
    score: int


def read_score_file(path: Path) -> list[ScoredPosition]:
    """Return every ``<moves> <score>`` line of a benchmark file (blank lines skipped).

    :raises InvalidPositionError: naming the first malformed line.
    :raises InvalidDataError: when the file is not text or holds no line at all.
    """
    positions = []
    for number, line in text_lines(path):
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
    if not positions:
        raise InvalidDataError(f"{str(path)!r} holds no '<moves> <score>' line")
    return positions


def benchmark_score(game: Game[Any], value: int) -> int:
    """Return the benchmark score of ``value`` (an exact distance value for ``game``'s
    side to move): ``(cells + 2 - p) // 2`` for a win ending at ply ``p``, negative for
    a loss, 0 for a draw (22 minus the winner's stones on 7x6)."""
    if value == 0:
        return 0
    end_ply = game.rules.scale.win - abs(value)
    score = (game.rules.max_plies + 2 - end_ply) // 2
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
            f"UCI row {line} has {len(fields)} fields; expected {UCI_WIDTH * UCI_HEIGHT + 1}: "
            f"{text.strip()!r}"
        )
    *cells, label = fields
    if label not in UCI_LABELS:
        raise InvalidPositionError(
            f"UCI row {line} ends with {label!r}; expected win, loss or draw"
        )
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


def read_uci(path: Path) -> list[UciRow]:
    """Return every row of a UCI ``connect-4.data`` file (blank lines skipped).

    :raises InvalidPositionError: naming the first malformed row.
    :raises InvalidDataError: when the file is not text or holds no row at all.
    """
    rows = [parse_uci_row(text, number) for number, text in text_lines(path) if text.strip()]
    if not rows:
        raise InvalidDataError(f"{str(path)!r} holds no UCI row (42 cells and a label per line)")
    return rows


def _pons_lines(path: Path, game: Game[Any]) -> list[PositionLine]:
    return [
        PositionLine(position.line, position.moves, position.score)
        for position in read_score_file(path)
    ]


def _uci_lines(path: Path, game: Game[Any]) -> list[PositionLine]:
    return [PositionLine(row.line, row.grid, row.result) for row in read_uci(path)]


#: Pons' benchmark lines, their scores for the side to move
PONS_FORMAT = PositionFormat(
    name=PONS,
    game="connect4",
    description="Pascal Pons' benchmark lines '<moves> <score>', his score for the side to move",
    expect=Expect.SCORE,
    read=_pons_lines,
    score=benchmark_score,
)
#: the UCI rows, their labels the first player's outcome
UCI_FORMAT = PositionFormat(
    name=UCI,
    game="connect4",
    description="the UCI connect-4.data rows: 42 cells and the first player's win, draw or loss",
    expect=Expect.OUTCOME,
    read=_uci_lines,
)
