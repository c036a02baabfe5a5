"""The engine's tricks that need something of the game: the null move (a pass the game
allows in search) and the games' hints (noisy and forcing moves), each a no-op where the
game lacks it.

The oracles are test_engine_tricks.py's memoised minimax and, for the hints, this file's
plain scans of the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from test_engine_tricks import PassingTicTacToe, assert_exact, minimax_values, sample_positions

from gamesearch import Player
from gamesearch.errors import ConformanceError
from gamesearch.game import allows_null_move
from gamesearch.search.engine import Engine
from gamesearch.testing import check_game
from gamesearch_games.connect4 import ConnectFour
from gamesearch_games.othello import Othello
from gamesearch_games.tictactoe import TicTacToe


# ------------------------------------------------------------- the null move
class StubbornPass(PassingTicTacToe):
    """A null move that forgets to pass the turn."""

    name = "stubborn-pass"

    def make_null_move(self) -> None:
        self.passes += 1

    def unmake_null_move(self) -> None:
        self.passes -= 1


def test_the_kit_checks_a_null_move_and_catches_one_that_keeps_the_turn() -> None:
    assert check_game(PassingTicTacToe(), max_positions=300, playouts=2).positions >= 300
    with pytest.raises(ConformanceError, match="make_null_move\\(\\) left player 0 to move"):
        check_game(StubbornPass(), max_positions=50, playouts=0)


def test_null_move_prunes_with_a_depth_where_the_game_allows_it() -> None:
    game = PassingTicTacToe()
    assert allows_null_move(game)
    plain = Engine(depth=6).search(game)
    pruned = Engine(depth=6, null_move=1).search(game)
    assert pruned.stats.nodes < plain.stats.nodes
    assert pruned.move in game.legal_moves() and not pruned.is_exact


class PassLoses(PassingTicTacToe):
    """A pass is allowed in search but loses at once (as passing in check does in chess)."""

    name = "pass-loses"

    def result(self) -> int | None:
        if self.passes:
            return 1 if self.mover == 0 else -1  # the passer, who moved last, lost
        return super().result()


def test_a_null_move_that_ends_the_game_never_prunes() -> None:
    game = PassLoses()
    game.push(4)
    plain, passing = Engine(depth=5).search(game), Engine(depth=5, null_move=1).search(game)
    assert (passing.value, passing.best_moves) == (plain.value, plain.best_moves)
    assert passing.stats.cutoffs == plain.stats.cutoffs and passing.stats.nodes > plain.stats.nodes


def test_null_move_is_off_without_a_depth_so_the_answer_stays_exact() -> None:
    game = PassingTicTacToe()
    game.push(4)
    values = minimax_values(game)
    assert_exact(Engine(null_move=2), game, values)
    assert Engine(null_move=2).search(game).stats.nodes == Engine().search(game).stats.nodes


@pytest.mark.parametrize(
    "game",
    [TicTacToe(), ConnectFour.from_text("44"), Othello.new(size=6), "zugzwang"],
    ids=["tictactoe", "connect4", "othello", "no-declaration"],
)
def test_null_move_is_a_no_op_where_the_game_does_not_allow_it(game: Any) -> None:
    if game == "zugzwang":  # offers the pass but does not declare zugzwang rare
        game = PassingTicTacToe()
        game.zugzwang_rare = False
    assert not allows_null_move(game)
    with_null, without = Engine(depth=4, null_move=2).search(game), Engine(depth=4).search(game)
    assert (with_null.value, with_null.best_moves, with_null.stats.nodes) == (
        without.value,
        without.best_moves,
        without.stats.nodes,
    )
    assert not Engine(depth=4, null_move=2).tricks_for(game)["null_move"]


# ------------------------------------------------------------ the games' hints
def connect4_wins_at(game: ConnectFour, player: Player, col: int) -> bool:
    """Return whether ``player`` would make four by a stone in column ``col`` (plain grid scan)."""
    height, width = game.settings["height"], game.settings["width"]
    grid = {(c, r): game.cell(c, r) for c in range(width) for r in range(height)}
    row = next(r for r in range(height) if grid[(col, r)] == ".")
    mark = game.player_names[player]
    grid[(col, row)] = mark
    for d_col, d_row in ((1, 0), (0, 1), (1, 1), (1, -1)):
        count = 1
        for step in (1, -1):
            c, r = col + step * d_col, row + step * d_row
            while grid.get((c, r)) == mark:
                count += 1
                c, r = c + step * d_col, r + step * d_row
        if count >= 4:
            return True
    return False


def test_connect4_noisy_moves_are_the_wins_and_the_blocks() -> None:
    for position in sample_positions(ConnectFour(), 40, seed=5):
        mover = position.to_move()
        expected = {
            col
            for col in position.legal_moves()
            if connect4_wins_at(position, mover, col)
            or connect4_wins_at(position, mover.opponent, col)
        }
        assert set(position.noisy_moves()) == expected, position.to_text()


def test_connect4_forcing_moves_make_a_threat_the_opponent_must_block() -> None:
    for position in sample_positions(ConnectFour(), 25, seed=6):
        mover = position.to_move()
        for col in position.legal_moves():
            claimed = position.is_forcing(col)
            position.push(col)
            if position.result() is None:
                threat = any(
                    connect4_wins_at(position, mover, other) for other in position.legal_moves()
                )
                assert claimed == threat, (position.to_text(), col)
            position.undo()


def test_tictactoe_noisy_moves_complete_a_line_for_either_side() -> None:
    game = TicTacToe.from_text("XX./OO./...")
    assert set(game.noisy_moves()) == {2, 5}
    assert TicTacToe.from_text("X../.O./...").noisy_moves() == ()
    assert game.is_forcing(8) is False and TicTacToe.from_text("X../.O./...").is_forcing(2) is True


def test_othello_noisy_moves_are_the_corners() -> None:
    for position in sample_positions(Othello.new(size=6), 30, seed=7):
        corners = {0, 5, 30, 35}
        assert set(position.noisy_moves()) == corners & set(position.legal_moves()), (
            position.to_text()
        )


def test_the_kit_refuses_noisy_moves_that_are_not_legal() -> None:
    class Loud(TicTacToe):
        name = "loud"

        def noisy_moves(self) -> Sequence[int]:
            return (4,) if self.result() is None else ()

    with pytest.raises(
        ConformanceError, match="noisy_moves\\(\\) lists '4', which is not a legal move"
    ):
        check_game(Loud(), max_positions=20, playouts=0)
