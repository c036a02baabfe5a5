"""The positions the benchmark searches, in a form every library can read.

Tic-tac-toe positions are 9-character cell strings (``X``, ``O``, ``.``, row by
row); each library's adapter builds its own position objects from them.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

EMPTY_TICTACTOE = "." * 9

# The rows' names: every library's adapter offers its contenders under these.
TICTACTOE_MINIMAX = "tic-tac-toe: full minimax"
TICTACTOE_ALPHABETA = "tic-tac-toe: full alpha-beta"
TICTACTOE_TABLE = "tic-tac-toe: alpha-beta + table"
TICTACTOE_ALL = "tic-tac-toe: 5,478 positions"
CONNECT4_DEPTH6 = "connect four: alpha-beta depth 6"
CONNECT4_DEPTH8 = "connect four: alpha-beta depth 8"
CONNECT4_MCTS = "connect four: MCTS 1,000 simulations"
CONNECT4_END_EASY = "connect four: 100 positions of Test_L3_R1"
CONNECT4_MIDDLE_EASY = "connect four: 100 positions of Test_L2_R1"
#: the Pascal Pons test set each solving row reads, and how many of its positions
CONNECT4_TEST_SETS = {
    CONNECT4_END_EASY: ("Test_L3_R1", 100),
    CONNECT4_MIDDLE_EASY: ("Test_L2_R1", 100),
}
#: the solving rows plain alpha-beta with a table finishes in seconds (Test_L2_R1 takes minutes)
CONNECT4_SHALLOW_SETS = (CONNECT4_END_EASY,)
MCTS_SIMULATIONS = 1000
#: depth of each depth-limited Connect Four row
CONNECT4_DEPTHS = {CONNECT4_DEPTH6: 6, CONNECT4_DEPTH8: 8}


@functools.cache
def tictactoe_positions() -> tuple[str, ...]:
    """Return every position reachable from the empty 3x3 board (5,478, finished ones too)."""
    found: dict[str, None] = {}

    def visit(cells: list[str], mover: str) -> None:
        text = "".join(cells)
        if text in found:
            return
        found[text] = None
        if tictactoe_winner(text) is not None or "." not in text:
            return
        for index, cell in enumerate(cells):
            if cell == ".":
                cells[index] = mover
                visit(cells, "O" if mover == "X" else "X")
                cells[index] = "."

    visit(list(EMPTY_TICTACTOE), "X")
    return tuple(found)


#: the eight lines of the 3x3 board as cell indices
TICTACTOE_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def tictactoe_winner(cells: str) -> str | None:
    """Return ``"X"`` or ``"O"`` when that side holds a line of ``cells``, else ``None``."""
    for first, second, third in TICTACTOE_LINES:
        if cells[first] != "." and cells[first] == cells[second] == cells[third]:
            return cells[first]
    return None


def tictactoe_bitboards(cells: str) -> tuple[int, int]:
    """Return the (X, O) bitboards of a cell string, cell ``i`` as bit ``i``."""
    crosses = sum(1 << index for index, cell in enumerate(cells) if cell == "X")
    noughts = sum(1 << index for index, cell in enumerate(cells) if cell == "O")
    return crosses, noughts


def tictactoe_move_order(cells: str) -> tuple[int, ...]:
    """Return cell indices that, played X first and alternately, reach ``cells``.

    No position before the last is finished (a winner's line is completed last),
    so libraries that build positions by playing moves can reach every position.

    :raises ValueError: when no such order exists (the position is unreachable).
    """
    marks = {"X": [i for i, cell in enumerate(cells) if cell == "X"],
             "O": [i for i, cell in enumerate(cells) if cell == "O"]}  # fmt: skip
    total = len(marks["X"]) + len(marks["O"])
    played = list(EMPTY_TICTACTOE)
    order: list[int] = []

    def extend(mover: str) -> bool:
        if len(order) == total:
            return True
        for cell in marks[mover]:
            if played[cell] == ".":
                played[cell] = mover
                order.append(cell)
                finished = tictactoe_winner("".join(played)) is not None
                if (not finished or len(order) == total) and extend("O" if mover == "X" else "X"):
                    return True
                order.pop()
                played[cell] = "."
        return False

    if not extend("X"):
        raise ValueError(f"no move order reaches the tic-tac-toe position {cells!r}")
    return tuple(order)


# ---------------------------------------------------------------- Connect Four
#: Connect Four cell strings hold 42 characters, column by column from the left,
#: each column from the bottom: cell ``6 * col + row``; ``X`` moved first.
CONNECT4_WINDOW_CELLS = tuple(
    tuple(6 * (col + i * d_col) + row + i * d_row for i in range(4))
    for col in range(7)
    for row in range(6)
    for d_col, d_row in ((1, 0), (0, 1), (1, 1), (1, -1))
    if 0 <= col + 3 * d_col < 7 and 0 <= row + 3 * d_row < 6
)
#: the framework's Connect Four scale: a win at ply p is worth 1000 - p; heuristic
#: values stay strictly inside 1000 - 42
CONNECT4_WIN = 1000
CONNECT4_EVAL_LIMIT = CONNECT4_WIN - 42 - 1


def connect4_window_score(cells: str) -> int:
    """Return the shared window heuristic for the first player, from a 42-character cell string.

    Every window of four held by one side only scores 1, 4 or 16 for 1, 2 or 3
    stones, each centre-column stone 3; first player minus second, clipped to the
    heuristic range. The peers' adapters read their boards into a cell string and
    score it here: the same evaluation in every library.
    """
    points, total = (0, 1, 4, 16), 0
    for first, second, third, fourth in CONNECT4_WINDOW_CELLS:
        window = cells[first] + cells[second] + cells[third] + cells[fourth]
        crosses, noughts = window.count("X"), window.count("O")
        if crosses and not noughts:
            total += points[crosses]
        elif noughts and not crosses:
            total -= points[noughts]
    centre = cells[18:24]
    total += 3 * (centre.count("X") - centre.count("O"))
    return max(-CONNECT4_EVAL_LIMIT, min(CONNECT4_EVAL_LIMIT, total))


#: where the Connect Four test sets are: this variable, else shared/data/connect4 beside the repository
DATA_ENVIRONMENT = "GAMESEARCH_CONNECT4_DATA"


def connect4_test_positions(name: str, count: int) -> tuple[str, ...]:
    """Return the move sequences (columns 1..7) of the first ``count`` positions of a Pons set.

    :raises FileNotFoundError: when the set is in neither data folder.
    """
    folder = os.environ.get(DATA_ENVIRONMENT)
    base = Path(folder) if folder else Path(__file__).resolve().parents[2] / "shared" / "data" / "connect4"
    path = base / name
    if not path.is_file():
        raise FileNotFoundError(f"no Connect Four test set {name!r} in {str(base)!r} (set ${DATA_ENVIRONMENT})")
    lines = path.read_text().splitlines()[:count]
    return tuple(line.split()[0] for line in lines)


@functools.cache
def connect4_test_sets() -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
    """Return (the positions of each solving row whose set is found, why the others are missing)."""
    found, missing = {}, {}
    for row, (name, count) in CONNECT4_TEST_SETS.items():
        try:
            found[row] = connect4_test_positions(name, count)
        except FileNotFoundError as error:
            missing[row] = str(error)
    return found, missing
