"""The positions the benchmark searches, in a form every library can read.

Tic-tac-toe positions are 9-character cell strings (``X``, ``O``, ``.``, row by
row); each library's adapter builds its own position objects from them.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.floors import (
    OTHELLO_C_POINTS,
    OTHELLO_CORNER_POINTS,
    OTHELLO_MOBILITY_POINTS,
    OTHELLO_X_POINTS,
    othello_board,
)
from gamesearch.plugins import Registry

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
TICTACTOE_LINES = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)


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
    marks = {
        "X": [i for i, cell in enumerate(cells) if cell == "X"],
        "O": [i for i, cell in enumerate(cells) if cell == "O"],
    }
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


#: where the Connect Four test sets are: this variable, else shared/data/connect4 beside
#: the repository
DATA_ENVIRONMENT = "GAMESEARCH_CONNECT4_DATA"


def connect4_test_positions(name: str, count: int) -> tuple[str, ...]:
    """Return the move sequences (columns 1..7) of the first ``count`` positions of a Pons set.

    :raises FileNotFoundError: when the set is in neither data folder.
    """
    folder = os.environ.get(DATA_ENVIRONMENT)
    base = (
        Path(folder)
        if folder
        else Path(__file__).resolve().parents[2] / "shared" / "data" / "connect4"
    )
    path = base / name
    if not path.is_file():
        raise FileNotFoundError(
            f"no Connect Four test set {name!r} in {str(base)!r} (set ${DATA_ENVIRONMENT})"
        )
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


@functools.cache
def _windows_only_connect4(base: type[Any]) -> type[Any]:
    """Return Connect Four whose heuristic is its window-and-centre layer alone.

    That is the heuristic the floor and the peers' adapters compute, so that every
    contender of a depth-limited row searches the same tree.
    """

    class WindowsOnlyConnectFour(base):  # type: ignore[misc]
        def evaluate(self) -> int:
            bound: int = self.evaluation_bound - 1
            total: int = self._window_points(self.stones(0), self.stones(1))
            return max(-bound, min(bound, total))

    return WindowsOnlyConnectFour


def bench_game(registry: Registry, name: str, position: str | None, **options: Any) -> Any:
    """Return ``registry``'s game ``name`` at ``position`` as the rows search it: Connect
    Four with the peers' window heuristic, any other game as registered (with ``options``)."""
    if name != "connect4":
        return registry.new_game(name, position, **options)
    game_class = _windows_only_connect4(registry.game_class(name))
    return (
        game_class.new(**options) if position is None else game_class.from_text(position, **options)
    )


# -------------------------------------------------------------------- Othello
# Othello positions are the game's text: rows from the top (``B``, ``W``, ``.``)
# separated by ``/``, a space and the side to move. Passes are moves.
OTHELLO6_DEPTH = "othello 6x6: alpha-beta depth 9"
OTHELLO6_LATE = "othello 6x6: exact, 4 positions with 12 empty squares"
OTHELLO8_DEPTH = "othello 8x8: alpha-beta depth 8, row-major order"
#: board size, depth and whether the game's move order is used, of each depth-limited Othello row
OTHELLO_DEPTHS = {OTHELLO6_DEPTH: (6, 9, True), OTHELLO8_DEPTH: (8, 8, False)}
#: late 6x6 positions (from random games), Black to move, each solved in 4,000 to 16,000 nodes
OTHELLO6_LATE_POSITIONS = (
    "B..B../BBBB.W/BWBBBW/BWWB.W/BWBBB./..B... B",
    "BBB.B./BBWBWW/BBBWW./BWWW.B/B.W.B./..W... B",
    ".WWWW./BW.W../.BBWBB/.WBWBB/BW.W.B/...WBB B",
    "W.W.B./BWWBB./.BWBWB/BBWW.B/B.WW.B/B..W.. B",
)


def othello_bitboards(text: str) -> tuple[int, int, int]:
    """Return (Black's discs, White's discs, ply) of an Othello position's text.

    Cell ``i`` (row-major from the top left) is bit ``i``; the ply is the discs
    placed since the start plus the fewest passes that give the side to move its
    turn (Black moves at even plies).

    :raises ValueError: for a text that is not rows of ``B``, ``W``, ``.`` and a side.
    """
    *rows, mover = text.replace("/", " ").split()
    cells = "".join(rows)
    if mover not in ("B", "W") or len(cells) != len(rows) ** 2 or set(cells) - set("BW."):
        raise ValueError(f"not an Othello position: {text!r}")
    black = sum(1 << index for index, cell in enumerate(cells) if cell == "B")
    white = sum(1 << index for index, cell in enumerate(cells) if cell == "W")
    placed = (black | white).bit_count() - 4
    turn = 0 if mover == "B" else 1
    return black, white, placed + (turn - placed) % 2


def othello_heuristic(black: int, white: int, size: int) -> int:
    """Return the Othello heuristic for Black on the framework's value scale.

    25 points a corner and 5 a legal move, Black's minus White's, less 15 for a disc
    on the X-square and 5 for one on a C-square of an empty corner, clipped inside ±1000, then
    scaled inside the framework's heuristic range for the board
    size (the framework maps the game's ``evaluate()`` the same way). The peers'
    adapters read their boards into bitboards and score them here; the legal moves
    are memoised by board, as the game and the floor do.
    """
    board = othello_board(size)
    corners = (black & board.corners).bit_count() - (white & board.corners).bit_count()
    mobility = board.move_bits(black, white).bit_count() - board.move_bits(white, black).bit_count()
    total = OTHELLO_CORNER_POINTS * corners + OTHELLO_MOBILITY_POINTS * mobility
    for corner, x_square, c_squares in board.corner_squares:
        if not (black | white) & corner:
            total += OTHELLO_X_POINTS * (bool(white & x_square) - bool(black & x_square))
            total += OTHELLO_C_POINTS * (
                (white & c_squares).bit_count() - (black & c_squares).bit_count()
            )
    total = max(-999, min(999, total))
    limit = 1000 - board.max_plies - 1  # the framework's heuristic bound, less one
    return int(total * limit / 1000)


# ---------------------------------------------------------------------- Kalah
KALAH_DEPTH = "kalah 6x4: alpha-beta depth 8, house order"
KALAH_DEPTH_ORDERED = "kalah 6x4: alpha-beta depth 12, the game's order"
#: depth of each depth-limited Kalah row, and whether it uses the game's move order
KALAH_DEPTHS = {KALAH_DEPTH: (8, False), KALAH_DEPTH_ORDERED: (12, True)}
KALAH_LATE = "kalah 6x4: exact, 4 positions with 14 seeds in the houses"
#: late positions of random games: the game's text, and the houses played from the
#: start (``1`` .. ``6``, each player's own numbering) for libraries that cannot set up a board
KALAH_LATE_POSITIONS = (
    ("0,3,0,0,0,0/17/1,5,0,0,2,3/17 N 28", "4413645345516233163141143516"),
    ("2,0,2,0,0,0/18/2,0,0,1,3,3/17 N 33", "251315446421616461536253314154622"),
    ("1,1,1,1,0,3/23/1,2,0,0,2,2/11 S 36", "534615213154156121354262136221134354"),
    ("0,3,2,1,0,0/22/0,0,4,0,0,4/12 S 42", "453422145461334464423212135413226516214511"),
)


def kalah_position(text: str) -> tuple[tuple[int, ...], int, int]:
    """Return (board in sowing order, side to move, ply) of a Kalah position's text.

    The text is the game's: ``"houses/store/houses/store side ply"``, the first
    player's (``S``) houses from house 1 first.

    :raises ValueError: for a text of another shape.
    """
    try:
        fields, side, ply = text.split()
        south, south_store, north, north_store = fields.split("/")
        board = (
            *map(int, south.split(",")),
            int(south_store),
            *map(int, north.split(",")),
            int(north_store),
        )
    except ValueError:
        raise ValueError(f"not a Kalah position: {text!r}") from None
    if side not in ("S", "N") or len(board) % 2:
        raise ValueError(f"not a Kalah position: {text!r}")
    return board, "SN".index(side), int(ply)


def kalah_heuristic(board: Sequence[int]) -> int:
    """Return the Kalah heuristic for the first player from a 6-pit board in sowing order.

    ``board`` is the first player's houses, their store, the second player's
    houses, their store. 4 points a stored seed and 1 a seed in one's houses, the
    first player's minus the second's (the game's ``evaluate()``).
    """
    pits = len(board) // 2 - 1
    stored = board[pits] - board[-1]
    houses = sum(board[:pits]) - sum(board[pits + 1 : -1])
    return max(-9_999, min(9_999, 4 * stored + houses))
