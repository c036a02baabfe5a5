"""Hex: the rules (chains, the swap), the protocol, and the small boards solved: the first
player wins every size (Nash's strategy-stealing argument), the winning first moves as
an independent memoised minimax finds them."""

from __future__ import annotations

import pytest
from oracle import solve_all

from gamesearch.errors import InvalidMoveError, InvalidPositionError
from gamesearch.plugins import default_registry
from gamesearch.search.nullwindow import Solver
from gamesearch.testing import check_game
from gamesearch_games.hex import SWAP, Hex


def winning_first_moves(game: Hex) -> list[str]:
    """Return the first moves after which the oracle says the first player wins."""
    values = solve_all(game)
    found = []
    for move in game.legal_moves():
        game.push(move)
        if values[game.key()] > 0:
            found.append(game.format_move(move))
        game.undo()
    return found


def test_hex_is_registered_with_its_options() -> None:
    game = default_registry().new_game("hex", None, size=3, swap=True)
    assert isinstance(game, Hex) and game.settings == {"size": 3, "swap": True}


@pytest.mark.parametrize(
    ("position", "result"),
    [
        ("BW./BW./B..", 1),  # a column joins top and bottom
        (".B./BW./.W.", None),  # (0,1) and (1,0) touch, but the bottom row is empty
        (".B./BW./BW.", 1),  # the chain bends along the short diagonal
        ("BW./.BW/..B", None),  # the long diagonal's cells do not touch
        ("WWW/BB./B..", -1),  # White's top row joins left and right
    ],
)
def test_a_chain_wins_only_through_touching_cells(position: str, result: int | None) -> None:
    assert Hex.from_text(position).result() == result


def test_the_swap_takes_black_s_stone_reflected_and_black_moves_next() -> None:
    game = Hex.new(size=3, swap=True)
    game.push(game.parse_move("b1"))  # row 1, column b
    assert game.format_move(SWAP) in [game.format_move(move) for move in game.legal_moves()]
    view = game.board_view()  # the board page: the cells, and the swap as a button
    assert view.extra_moves == (("Swap", "swap"),) and view.symbols[1] == "B"
    assert view.moves[1] is None and view.moves[0] == "0"
    game.push(SWAP)
    assert game.to_text() == ".../W../... swapped"  # White's stone on row 2, column a
    assert game.to_move() == 0 and game.ply == 2 and SWAP not in game.legal_moves()
    assert Hex.from_text(game.to_text(), swap=True).key() == game.key()
    game.undo()
    assert game.to_text() == ".B./.../..."
    assert SWAP not in Hex.new(size=3).legal_moves()


def test_bad_text_and_moves_are_refused_with_what_to_write() -> None:
    with pytest.raises(InvalidPositionError, match="use 'B', 'W' or '.'"):
        Hex.from_text("BX./.../...")
    with pytest.raises(InvalidPositionError, match="Black has as many as White or one more"):
        Hex.from_text("WW./.../...")
    with pytest.raises(InvalidPositionError, match="give the option swap=true"):
        Hex.from_text(".../W../... swapped")
    with pytest.raises(InvalidMoveError, match="a column letter a-c and a row number 1-3"):
        Hex.new(size=3).parse_move("d1")


@pytest.mark.slow
@pytest.mark.parametrize("options", [{"size": 3}, {"size": 3, "swap": True}, {"size": 5}])
def test_hex_keeps_the_game_protocol(options: dict[str, object]) -> None:
    report = check_game(Hex, options=options, max_positions=3000, playouts=10)
    assert report.positions >= 3000


@pytest.mark.parametrize(
    ("size", "winning"),
    [
        (1, ["a1"]),
        (2, ["b1", "a2"]),  # the two cells of the short diagonal
        (3, ["c1", "a2", "b2", "c2", "a3"]),
    ],
)
def test_the_first_player_wins_every_small_board_with_these_first_moves(
    size: int, winning: list[str]
) -> None:
    game = Hex.new(size=size)
    assert winning_first_moves(game.copy()) == winning
    found = Solver().search(game, move_values=True)
    assert found.margin == 1  # Black, the first player, wins
    assert found.move_values is not None
    solver_wins = {game.format_move(move) for move, value in found.move_values if value > 0}
    assert solver_wins == set(winning)


def test_with_the_swap_the_second_player_wins_3x3() -> None:
    game = Hex.new(size=3, swap=True)
    assert Solver().search(game).margin == -1  # every winning first move is taken
    assert winning_first_moves(game) == []
