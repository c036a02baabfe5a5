"""The registered tic-tac-toe (bitboards, games/tictactoe_fast.py) and the plain one it is
built on (a list of cells, games/tictactoe.py) are the same game.

On every reachable 3x3 position the two give the same legal moves, whose turn, result,
text and (as a partition of positions) the same keys; the fast moves answer what playing
the plain game's moves gives; the reference minimax finds the same value and best moves
in both. Larger m,n,k boards, up to those too big for the fast game's tables, are
walked along random games.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from gamesearch import capabilities
from gamesearch.search.reference import twin
from gamesearch.testing import check_game
from gamesearch_games.tictactoe import PlainTicTacToe, TicTacToe

#: m,n,k boards beyond 3x3: with full tables (and a memo of move results beyond 9 cells),
#: and with a line scan beyond 16 cells
SIZES = [
    (3, 4, 3),
    pytest.param(4, 4, 3, marks=pytest.mark.slow),
    (5, 5, 4),
    (6, 7, 4),
]


def plain_results(plain: PlainTicTacToe, ordered_moves: Any) -> list[tuple[int, int | None]]:
    """Return the plain game's moves (in ``ordered_moves`` order) with the result after each."""
    found = []
    for move in ordered_moves:
        plain.push(move)
        found.append((move, plain.result()))
        plain.undo()
    return found


def assert_same_position(plain: PlainTicTacToe, fast: TicTacToe, results: bool = True) -> None:
    """Assert that ``plain`` and ``fast`` answer every question alike (see the module);
    ``results`` false leaves out the fast moves' results (each plays every move)."""
    where = plain.to_text()
    assert fast.to_text() == where
    assert tuple(fast.legal_moves()) == tuple(plain.legal_moves()), where
    assert fast.result() == plain.result(), where
    assert fast.to_move() == plain.to_move() and fast.ply == plain.ply, where
    assert fast.rules == plain.rules
    assert sorted(fast.ordered_moves()) == list(plain.legal_moves()), where
    assert fast.render() == plain.render() and fast.board_view() == plain.board_view()
    if not results:
        return
    assert list(fast.move_results()) == plain_results(plain, plain.legal_moves()), where
    ordered = fast.ordered_moves()
    assert list(fast.move_results(ordered=True)) == plain_results(plain, ordered), where


def walk(plain: PlainTicTacToe, fast: TicTacToe, keys: dict[Any, Any], seen: set[Any]) -> None:
    """Visit every position reachable from ``plain`` and ``fast`` in step, checking each once;
    ``keys`` maps each fast key to the plain key of its position."""
    assert keys.setdefault(fast.key(), plain.key()) == plain.key(), plain.to_text()
    if plain.key() in seen:
        return
    seen.add(plain.key())
    assert_same_position(plain, fast)
    for move in plain.legal_moves():
        plain.push(move)
        if fast.ply % 2:
            fast.push(move)  # the core pair on odd plies, the fast pair on even ones
            walk(plain, fast, keys, seen)
            fast.undo()
        else:
            assert fast.advance(move) == plain.result()
            walk(plain, fast, keys, seen)
            fast.retract(move)
        plain.undo()


@pytest.mark.slow
def test_the_fast_and_the_plain_game_agree_on_every_reachable_position() -> None:
    keys: dict[Any, Any] = {}
    seen: set[Any] = set()
    walk(PlainTicTacToe(), TicTacToe(), keys, seen)
    assert len(seen) == 5_478
    assert len(set(keys.values())) == len(keys) == 5_478  # equal keys: the same position


#: the minimax check searches one position in this many of the unfinished ones from ply 3
#: on (494 of 4,438): the walk above already finds the same moves, results and positions
#: after each move in both games on every reachable position, which is all a minimax
#: over the public moves sees; this search checks that the two agree as a whole tree
MINIMAX_STEP = 9


@pytest.mark.slow
def test_the_reference_minimax_finds_the_same_values_and_best_moves_in_both() -> None:
    minimax = twin("minimax")()
    positions: list[str] = []
    seen: set[Any] = set()

    def collect(game: PlainTicTacToe) -> None:
        if game.key() in seen:
            return
        seen.add(game.key())
        if not game.is_over() and game.ply >= 3:
            positions.append(game.to_text())
        for move in game.legal_moves():
            game.push(move)
            collect(game)
            game.undo()

    collect(PlainTicTacToe())
    assert len(positions) == 4_438
    for text in positions[::MINIMAX_STEP]:
        plain = minimax.search(PlainTicTacToe.from_text(text))
        fast = minimax.search(TicTacToe.from_text(text))
        assert (plain.value, set(plain.best_moves)) == (fast.value, set(fast.best_moves)), text
        assert plain.stats.nodes == fast.stats.nodes, text


@pytest.mark.parametrize(("rows", "cols", "k"), SIZES)
def test_random_games_on_larger_boards_agree_move_by_move(rows: int, cols: int, k: int) -> None:
    chooser = random.Random(f"{rows}x{cols}x{k}")
    large = rows * cols > 25  # (the plain game scans every line of the board for a result)
    for _ in range(1 if large else 4):
        plain, fast = PlainTicTacToe(rows, cols, k), TicTacToe(rows, cols, k)
        while True:
            assert_same_position(plain, fast, results=not large or plain.ply % 8 == 0)
            moves = plain.legal_moves()
            if not moves:
                break
            move = chooser.choice(moves)
            plain.push(move)
            fast.push(move)
        assert plain.key() == PlainTicTacToe.from_text(fast.to_text(), k=k).key()
        while plain.history:
            assert plain.undo() == fast.undo()
            assert_same_position(plain, fast, results=False)


def test_text_in_and_out_is_shared_and_the_pickle_keeps_the_board() -> None:
    fast = TicTacToe.from_text("X.O/.X./..O")
    assert PlainTicTacToe.from_text("X.O/.X./..O").key() == "X.O.X...O"
    assert pickle.loads(pickle.dumps(fast)).key() == fast.key()
    assert fast.copy().to_text() == fast.to_text() and fast.settings == fast.copy().settings
    settings = {"rows": 3, "cols": 4, "k": 3}
    assert TicTacToe.from_text("XX../OO../....").settings == settings


@pytest.mark.slow
def test_the_plain_game_is_a_whole_game_of_the_core_members_only() -> None:
    check_game(PlainTicTacToe, max_positions=600, playouts=5)
    assert not capabilities.offered(PlainTicTacToe, capabilities.FastMoves)
    assert not capabilities.offered(PlainTicTacToe, capabilities.Heuristic)
    for capability in (capabilities.FastMoves, capabilities.MoveOrdering, capabilities.Heuristic):
        assert capabilities.offered(TicTacToe, capability)
