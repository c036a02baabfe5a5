"""Connect Four: rules, both text notations, errors, threats and the heuristic."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamesearch import (
    AlphaBeta,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    NothingToUndoError,
    Outcome,
    Player,
    default_registry,
)
from gamesearch.rules import outcome as outcome_of
from gamesearch.rules import terminal_sign
from gamesearch_games.connect4 import ConnectFour

SIZES = [(4, 4), (5, 4), (7, 6), (9, 8)]


def random_position(data: st.DataObject, width: int = 7, height: int = 6) -> ConnectFour:
    game = ConnectFour(width=width, height=height)
    for _ in range(data.draw(st.integers(0, width * height))):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(data.draw(st.sampled_from(moves)))
    return game


def test_connect4_is_registered_with_its_size_options() -> None:
    game = default_registry().new_game("connect4", "44", width="5", height="4")
    assert isinstance(game, ConnectFour)
    assert game.settings == {"width": 5, "height": 4}
    assert game.ply == 2


def test_a_vertical_four_wins_for_the_player_who_made_it() -> None:
    game = ConnectFour.from_text("1212121")
    assert outcome_of(game) is Outcome.FIRST_WINS
    assert game.legal_moves() == ()


@pytest.mark.parametrize(
    ("moves", "outcome"),
    [
        ("1122334", Outcome.FIRST_WINS),  # horizontal
        ("12233434474", Outcome.FIRST_WINS),  # rising diagonal
        ("17665545441", None),  # not yet: three on the falling diagonal
        ("176655454414", Outcome.SECOND_WINS),  # falling diagonal for O
    ],
)
def test_fours_in_every_direction_end_the_game(moves: str, outcome: Outcome | None) -> None:
    assert outcome_of(ConnectFour.from_text(moves)) is outcome


def test_a_full_board_without_four_is_a_draw() -> None:
    game = ConnectFour.from_text("2234114322434311", width=4, height=4)
    assert outcome_of(game) is Outcome.DRAW


def test_moves_are_columns_written_from_one_and_ordered_from_the_centre() -> None:
    game = ConnectFour()
    assert game.legal_moves() == (0, 1, 2, 3, 4, 5, 6)
    assert game.ordered_moves() == (3, 2, 4, 1, 5, 0, 6)
    assert game.parse_move("4") == 3
    assert game.format_move(3) == "4"


def test_a_full_column_is_not_legal() -> None:
    game = ConnectFour.from_text("444444")
    assert 3 not in game.legal_moves()
    with pytest.raises(
        IllegalMoveError, match=r"illegal move '4' in '444444'; legal moves: 1, 2, 3, 5"
    ):
        game.apply(3)
    assert game.ply == 6


def test_a_move_after_the_game_is_over_is_refused() -> None:
    game = ConnectFour.from_text("1212121")
    with pytest.raises(GameOverError, match="the game is over"):
        game.play("3")
    assert game.ply == 7


@pytest.mark.parametrize("text", ["0", "8", "x", "", "12"])
def test_move_text_that_is_not_a_column_is_refused(text: str) -> None:
    with pytest.raises(
        InvalidMoveError, match=rf"move {text!r} is not a column; use a number from 1 to 7"
    ):
        ConnectFour().parse_move(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4480", r"move 3 of '4480' is '8'; columns are 1 to 7"),
        ("..a./..../..../....", r"has 'a' in row 1; use 'X', 'O' or '.'"),
        ("4444444", r"move 7 of '4444444' plays column 4 which is full"),
        ("12121212", r"move 8 of '12121212' comes after the game has ended"),
        ("....\n....\n.X..\n....", r"floating stone in column 2"),
        ("....\n....\n....\nXXX.", r"has 3 X and 0 O; X moves first, so X must have as many"),
        ("....\n....\n....\nOO..", r"has 0 X and 2 O"),
        ("..../XO../XO../XO../XO..", r"must have 5 rows of 4 cells|both X and O"),
        ("X.../XO../XO../XOO.", r"X with four in a row but O has moved since"),
        ("O.../OX../OX../OXXX", r"O with four in a row but X has moved since"),
        ("..../..../XO../XOX", r"must have 4 rows of 4 cells"),
        # a tic-tac-toe grid: its size is named, not an option the user never gave
        ("XX./OO", r"grid 'XX\./OO' is 3 cells wide; a Connect Four board has 4 to 9 columns"),
        (".../.../...", r"is 3 cells wide; a Connect Four board has 4 to 9 columns"),
        ("..../..../....", r"is 3 rows high; a Connect Four board has 4 to 12 rows"),
        ("d4", r"'d4' is not a Connect Four position: expected the columns played"),
    ],
)
def test_bad_position_text_names_the_problem(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        ConnectFour.from_text(text)


def test_columns_written_one_a_space_are_the_same_moves() -> None:
    assert ConnectFour.from_text("4 4 5").to_text() == ConnectFour.from_text("445").to_text()


def test_both_x_and_o_with_four_is_refused() -> None:
    with pytest.raises(InvalidPositionError, match="both X and O with four in a row"):
        ConnectFour.from_text("..../XO../XO../XO../XO..", width=4, height=5)


def test_bad_size_options_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match=r"option 'width' must be <= 9: 10"):
        ConnectFour(width=10)
    with pytest.raises(InvalidOptionError, match=r"option 'height' must be >= 4: 3"):
        ConnectFour.from_text("44", height=3)


def test_undo_on_a_fresh_position_is_refused() -> None:
    with pytest.raises(NothingToUndoError, match="no move to undo"):
        ConnectFour.from_text("44").undo()


def test_the_grid_is_drawn_from_the_top_row() -> None:
    game = ConnectFour.from_text("4453")
    assert game.to_grid() == "......./......./......./......./...O.../..OXX.."
    assert game.render().splitlines()[-2:] == [". . O X X . .", "1 2 3 4 5 6 7"]
    assert game.to_text() == "4453"


def test_a_grid_position_has_no_move_sequence_and_prints_as_a_grid() -> None:
    game = ConnectFour.from_text("..../..../..../..XO")
    assert game.move_sequence() is None
    assert game.to_text() == game.to_grid()
    assert game.to_move() is Player.FIRST


def test_grid_rows_may_be_separated_by_new_lines() -> None:
    lines = "\n".join(["......."] * 4 + ["...O...", "..OXX.."])
    assert ConnectFour.from_text(lines).key() == ConnectFour.from_text("4453").key()


def test_board_view_plays_a_column_from_any_of_its_cells_until_it_is_full() -> None:
    view = ConnectFour.from_text("444444" + "3", width=7, height=6).board_view()
    assert (view.rows, view.cols) == (6, 7)
    assert view.symbols[5 * 7 + 3] == "X"  # bottom row, column 4
    assert view.symbols[4 * 7 + 3] == "O"  # the row above it
    assert view.symbols[5 * 7 + 2] == "X"
    assert view.symbols[0] == ""
    assert view.moves[0] == "1" and view.moves[7 * 5] == "1"
    assert view.moves[3] is None and view.moves[5 * 7 + 3] is None


def test_winning_moves_and_threat_pruning() -> None:
    game = ConnectFour.from_text("121212")  # X has three in column 1, O three in column 2
    assert game.winning_moves() == (0,)
    game.push(4)  # X ignores the win; now O must not ignore its own
    assert game.winning_moves() == (1,)


def test_non_losing_moves_block_a_single_threat_and_give_up_against_two() -> None:
    assert ConnectFour.from_text("12121").non_losing_moves() == (0,)  # block column 1
    assert ConnectFour.from_text("22334").non_losing_moves() == ()  # X threatens 1 and 5


def test_non_losing_moves_never_play_right_under_an_opponent_threat() -> None:
    # O has three on the second row (columns 1, 3, 4) and wants column 2's second cell.
    game = ConnectFour.from_text("71443143")
    assert game.winning_moves() == ()
    assert set(game.legal_moves()) - set(game.non_losing_moves()) == {1}


def test_non_losing_moves_put_the_move_making_most_threats_first() -> None:
    game = ConnectFour.from_text("4455")  # X: 4 and 5 on the bottom row
    assert game.non_losing_moves()[0] in (2, 5)  # three in a row, open at both ends


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_evaluate_stays_inside_the_bound_and_is_symmetric_at_the_start(
    width: int, height: int
) -> None:
    game = ConnectFour(width=width, height=height)
    assert game.evaluate() == 0
    game.push(width // 2)
    assert 0 < game.evaluate() < game.rules.scale.heuristic_bound


def test_depth_limited_alphabeta_blocks_an_immediate_threat() -> None:
    game = ConnectFour.from_text("1213")  # X threatens to build 1-2-3; O must answer
    result = AlphaBeta(depth=4).search(game)
    assert result.move in game.legal_moves()
    assert not result.is_exact


@given(st.data(), st.sampled_from(SIZES))
def test_apply_then_undo_restores_every_position(
    data: st.DataObject, size: tuple[int, int]
) -> None:
    game = random_position(data, *size)
    key, text, ply = game.key(), game.to_text(), game.ply
    for move in game.legal_moves():
        game.apply(move)
        assert game.undo() == move
        assert (game.key(), game.to_text(), game.ply) == (key, text, ply)


@given(st.data(), st.sampled_from(SIZES))
def test_both_notations_round_trip(data: st.DataObject, size: tuple[int, int]) -> None:
    game = random_position(data, *size)
    options = dict(zip(("width", "height"), size, strict=True))
    from_moves = ConnectFour.from_text(game.to_text(), **options)
    from_grid = ConnectFour.from_text(game.to_grid())
    assert from_moves.to_text() == game.to_text()
    assert from_grid.to_grid() == game.to_grid()
    assert from_moves.key() == from_grid.key() == game.key()
    assert from_grid.ply == game.ply and from_grid.to_move() is game.to_move()


@given(st.data(), st.sampled_from(SIZES))
def test_random_playouts_end_with_an_outcome(data: st.DataObject, size: tuple[int, int]) -> None:
    game = ConnectFour(width=size[0], height=size[1])
    while not game.is_over():
        game.apply(data.draw(st.sampled_from(game.legal_moves())))
    assert outcome_of(game) is not None
    assert game.ply <= game.rules.max_plies


@given(st.data())
def test_threat_helpers_agree_with_playing_the_moves(data: st.DataObject) -> None:
    game = random_position(data, 5, 5)
    if game.is_over():
        return
    wins = {move for move in game.legal_moves() if _wins_at_once(game, move)}
    assert set(game.winning_moves()) == wins
    if wins:
        return
    safe = set()
    for move in game.legal_moves():
        game.push(move)
        opponent_wins = not game.is_over() and any(
            _wins_at_once(game, reply) for reply in game.legal_moves()
        )
        game.undo()
        if not opponent_wins:
            safe.add(move)
    assert set(game.non_losing_moves()) == safe


def _wins_at_once(game: ConnectFour, move: int) -> bool:
    game.push(move)
    won = terminal_sign(game) not in (None, 0)
    game.undo()
    return won
