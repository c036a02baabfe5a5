"""The tic-tac-toe plugin: text in and out, moves, validation, heuristic."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamesearch import (
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    NothingToUndoError,
    Outcome,
    Player,
)
from gamesearch.rules import outcome as outcome_of
from gamesearch.rules import proven_value
from gamesearch_games.tictactoe import TicTacToe


def test_the_empty_board_has_x_to_move_and_nine_moves_centre_corners_edges_first() -> None:
    game = TicTacToe()
    assert game.to_move() is Player.FIRST
    assert tuple(game.legal_moves()) == tuple(range(9))
    assert tuple(game.ordered_moves()) == (4, 0, 2, 6, 8, 1, 3, 5, 7)
    assert game.to_text() == ".../.../..."


@pytest.mark.parametrize("text", ["X.O.X...O", "X.O/.X./..O", "x.o/.x./..o", " X.O\n.X.\n..O "])
def test_positions_parse_with_or_without_row_separators(text: str) -> None:
    game = TicTacToe.from_text(text)
    assert game.to_text() == "X.O/.X./..O"
    assert game.to_move() is Player.FIRST
    assert game.ply == 4


def test_positions_parse_from_a_list_of_cells_like_the_seed_engine() -> None:
    game = TicTacToe.from_cells(["X", "", "O", "", "X", "", "", "", None])
    assert game.to_text() == "X.O/.X./..."


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X.O.X...", r"has 8 cells; a 3x3 board needs 9"),
        ("X.O.Z...O", r"has 'Z' at cell 4; use 'X', 'O' or '\.'"),
        ("XXX......", r"has 3 X and 0 O; X moves first"),
        ("OO.......", r"has 0 X and 2 O"),
        ("XXXOOO...", r"has both X and O winning"),
        ("XXXOO.O..", r"has X winning but O has moved since"),
        ("OOOXX.X.X", r"has O winning but X has moved since"),
        ("X.O/.X/..O", r"must have 3 rows of 3 cells"),
    ],
)
def test_bad_positions_are_refused_with_the_problem_named(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        TicTacToe.from_text(text)


def test_bad_cells_in_a_list_are_named() -> None:
    with pytest.raises(InvalidPositionError, match=r"cell 1 is 'Q'"):
        TicTacToe.from_cells(["X", "Q", "", "", "", "", "", "", ""])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rows": 0}, r"option 'rows' must be >= 1: 0"),
        ({"k": 5}, r"option 'k' must fit on the board \(at most 3\): 5"),
        ({"cols": "wide"}, r"option 'cols' must be an integer: 'wide'"),
        ({"size": 3}, r"unknown option 'size'; valid options: cols, k, rows"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        TicTacToe.new(**options)


def test_an_illegal_move_raises_and_changes_nothing() -> None:
    game = TicTacToe.from_text("X.O/.X./...")
    before = (game.key(), game.history)
    with pytest.raises(
        IllegalMoveError, match=r"illegal move '0' in 'X\.O/\.X\./\.\.\.'; legal moves: 1, 3"
    ):
        game.apply(0)
    with pytest.raises(
        InvalidMoveError, match=r"move 'b2' is not a cell index; use a number from 0 to 8"
    ):
        game.play("b2")
    with pytest.raises(InvalidMoveError, match=r"cell '9' is off the board"):
        game.play("9")
    assert (game.key(), game.history) == before


def test_no_move_after_the_game_is_over() -> None:
    game = TicTacToe.from_text("XXX/OO./...")
    with pytest.raises(GameOverError, match=r"the game is over \(X won\)"):
        game.play("5")
    assert outcome_of(game) is Outcome.FIRST_WINS
    assert game.legal_moves() == ()


def test_undo_past_the_start_raises() -> None:
    game = TicTacToe.from_text("X........")
    with pytest.raises(NothingToUndoError, match=r"no move to undo in 'X\.\./\.\.\./\.\.\.'"):
        game.undo()


def test_copy_is_independent() -> None:
    game = TicTacToe()
    game.play("4")
    twin = game.copy()
    twin.play("0")
    assert game.to_text() == ".../.X./..." and twin.to_text() == "O../.X./..."
    assert twin.history == (4, 0) and game.history == (4,)


def test_outcomes_and_scores() -> None:
    assert outcome_of(TicTacToe.from_text("OOO/XX./X..")) is Outcome.SECOND_WINS
    draw = TicTacToe.from_text("XOX/XOO/OXX")
    assert outcome_of(draw) is Outcome.DRAW and proven_value(draw) == 0
    assert proven_value(TicTacToe.from_text("OOO/XX./X..")) == -(1000 - 6)
    with pytest.raises(ValueError, match="the game is not over"):
        proven_value(TicTacToe())


def test_the_heuristic_counts_open_lines_and_stays_inside_the_bounds() -> None:
    assert TicTacToe().evaluate() == 0
    assert TicTacToe.from_text(".../.X./...").evaluate() == 4  # four open lines through the centre
    assert TicTacToe.from_text("O../.X./...").evaluate() < 4
    big = TicTacToe(rows=20, cols=20, k=3)
    for move in range(0, 400, 3):
        big.push(move)
    assert abs(big.evaluate()) < big.rules.scale.heuristic_bound


def test_m_n_k_boards_detect_wins_of_k_in_a_row() -> None:
    game = TicTacToe.from_text("XXXX/OOO./..../....", k=4)
    assert outcome_of(game) is Outcome.FIRST_WINS
    large = TicTacToe(rows=6, cols=7, k=4)  # too big for lookup tables: scans lines
    for move in (0, 7, 1, 8, 2, 9):
        large.play(str(move))
    assert not large.is_over()
    large.play("3")
    assert outcome_of(large) is Outcome.FIRST_WINS


small_boards = st.sampled_from([(3, 3, 3), (4, 4, 3), (4, 4, 4), (3, 5, 3)])


@given(
    board=small_boards, choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=25)
)
def test_apply_then_undo_restores_key_text_and_side_to_move(
    board: tuple[int, int, int], choices: list[int]
) -> None:
    rows, cols, k = board
    game = TicTacToe(rows=rows, cols=cols, k=k)
    trail = []
    for choice in choices:
        moves = game.legal_moves()
        if not moves:
            break
        trail.append((game.key(), game.to_text(), game.to_move()))
        game.apply(moves[choice % len(moves)])
        assert TicTacToe.from_text(game.to_text(), rows=rows, cols=cols, k=k).key() == game.key()
    while trail:
        game.undo()
        assert (game.key(), game.to_text(), game.to_move()) == trail.pop()


@given(board=small_boards, seed=st.integers(min_value=0, max_value=2**32))
def test_random_playouts_end_with_an_outcome_and_no_legal_moves(
    board: tuple[int, int, int], seed: int
) -> None:
    import random

    rows, cols, k = board
    rng = random.Random(seed)
    game = TicTacToe(rows=rows, cols=cols, k=k)
    while game.legal_moves():
        game.apply(rng.choice(game.legal_moves()))
    assert outcome_of(game) is not None
    assert game.ply <= rows * cols


@given(
    board=small_boards, choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=25)
)
def test_advance_is_push_then_result_and_retract_takes_it_back(
    board: tuple[int, int, int], choices: list[int]
) -> None:
    rows, cols, k = board
    fused, plain = TicTacToe(rows=rows, cols=cols, k=k), TicTacToe(rows=rows, cols=cols, k=k)
    played = []
    for choice in choices:
        moves = plain.legal_moves()
        if not moves:
            break
        move = moves[choice % len(moves)]
        plain.push(move)
        played.append(move)
        assert fused.advance(move) == plain.result()
        assert (fused.key(), fused.ply, fused.to_move(), fused.to_text()) == (
            plain.key(),
            plain.ply,
            plain.to_move(),
            plain.to_text(),
        )
        assert fused.history == plain.history  # the history stays whole
    for move in reversed(played):
        fused.retract(move)
        plain.undo()
        assert (fused.key(), fused.ply, fused.legal_moves()) == (
            plain.key(),
            plain.ply,
            plain.legal_moves(),
        )
