"""Hex: the rules (chains, the swap), the protocol, and the small boards solved: the first
player wins every size (Nash's strategy-stealing argument), the winning first moves as
an independent memoised minimax finds them."""

from __future__ import annotations

import re

import pytest
from oracle import solve_all

from gamesearch.errors import InvalidMoveError, InvalidPositionError
from gamesearch.looks import BoardLook
from gamesearch.notebook import board_svg, hexes_geometry
from gamesearch.plugins import default_registry
from gamesearch.search.nullwindow import Solver
from gamesearch.testing import check_game
from gamesearch_games.hex import SWAP, Hex


def touching(size: int, first: int, second: int) -> bool:
    """Return whether two cells touch by the rule of the game's page: (r, c) touches
    (r, c-1), (r, c+1), (r-1, c), (r+1, c), (r-1, c+1) and (r+1, c-1)."""
    (row, col), (other_row, other_col) = divmod(first, size), divmod(second, size)
    steps = {(0, -1), (0, 1), (-1, 0), (1, 0), (-1, 1), (1, -1)}
    return (other_row - row, other_col - col) in steps


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
    assert view.moves[1] is None and view.moves[0] == "a1"
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


def test_the_board_view_names_each_free_cell_by_its_move_and_shows_the_stones() -> None:
    game = Hex.from_text("B../.W./...")
    view = game.board_view()
    assert (view.rows, view.cols) == (3, 3)
    assert view.symbols == ("B", "", "", "", "W", "", "", "", "")
    assert view.moves == (None, "b1", "c1", "a2", None, "c2", "a3", "b3", "c3")
    for index, move in enumerate(view.moves):  # a click plays the cell it is drawn on
        assert move is None or game.parse_move(move) == index
    assert Hex.from_text("B../.../...", swap=True).board_view().extra_moves == (("Swap", "swap"),)


def test_hex_declares_the_hexagons_look_with_each_players_sides() -> None:
    look = default_registry().board_look("hex")
    assert look.kind == "hexes"
    assert look.as_dict()["edges"] == {"top": 0, "bottom": 0, "left": 1, "right": 1}


@pytest.mark.parametrize("size", [1, 2, 3, 5])
def test_the_drawn_hexagons_share_a_side_exactly_where_the_cells_touch(size: int) -> None:
    corners = hexes_geometry(size, size, 48.0)
    rounded = [{(round(x, 6), round(y, 6)) for x, y in cell} for cell in corners]
    for first in range(size * size):
        for second in range(first + 1, size * size):
            shared = len(rounded[first] & rounded[second])
            assert shared == (2 if touching(size, first, second) else 0), (first, second)


def test_the_notebook_draws_hexagons_stones_and_the_four_coloured_sides() -> None:
    svg = board_svg(Hex.from_text("B../.W./...")) or ""
    assert svg.count("<polygon") == 9 and svg.count("<circle") == 2
    black, white = "#151515", "#fafafa"
    colours = {
        side: colour
        for colour, side in re.findall(
            r'<polyline[^>]*stroke="(#[0-9a-f]+)"[^>]*data-side="(\w+)"', svg
        )
    }
    assert colours == {"top": black, "bottom": black, "left": white, "right": white}
    assert ">b1</text>" in svg and "Black to move" in svg


def test_a_look_giving_a_colour_to_no_side_of_the_board_is_refused() -> None:
    with pytest.raises(ValueError, match=r"board sides \['north'\] are not among top, right"):
        BoardLook(kind="hexes", edges={"north": 0})
