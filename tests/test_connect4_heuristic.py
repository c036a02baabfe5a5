"""Connect Four's evaluation: inside its bound, symmetric, alert to wins a ply or two away,
aware of row parity, and worth more with every ply of search."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch import AlphaBeta, Player
from gamesearch.tournament import run_tournament
from gamesearch_games.connect4 import ConnectFour

SIZES = [(7, 6), (4, 4), (5, 4), (9, 12), (8, 7)]


def random_position(width: int, height: int, seed: int, plies: int) -> ConnectFour:
    """Return the position after up to ``plies`` random moves (stopping at the end of the game)."""
    draw, game = random.Random(seed), ConnectFour(width=width, height=height)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(draw.choice(list(moves)))
    return game


def mirrored(game: ConnectFour) -> ConnectFour:
    """Return the same position with the columns in the opposite order."""
    width = game.settings["width"]
    twin = ConnectFour(**game.settings)
    for move in game.history:
        twin.push(width - 1 - move)
    return twin


@settings(max_examples=300, deadline=None)
@given(size=st.sampled_from(SIZES), seed=st.integers(0, 10**9), plies=st.integers(0, 108))
def test_the_evaluation_is_strictly_inside_the_bound_and_blind_to_mirroring(
    size: tuple[int, int], seed: int, plies: int
) -> None:
    game = random_position(*size, seed, plies)
    if game.is_over():
        return
    value = game.evaluate()
    assert (
        isinstance(value, int)
        and -game.rules.scale.heuristic_bound < value < game.rules.scale.heuristic_bound
    )
    assert mirrored(game).evaluate() == value


def test_the_empty_board_is_even_and_the_centre_stone_is_worth_something() -> None:
    game = ConnectFour()
    assert game.evaluate() == 0
    game.push(3)
    assert game.evaluate() > 0


@pytest.mark.parametrize("moves", ["112233", "7766554", "4455667", "1121314"])
def test_a_side_to_move_that_completes_four_next_move_is_scored_as_all_but_won(moves: str) -> None:
    game = ConnectFour.from_text(moves)
    assert game.winning_moves()  # the independent check: a move wins at once
    side = 1 if game.ply % 2 == 0 else -1
    assert side * game.evaluate() == ConnectFour.WIN_NEXT_POINTS


def test_two_threats_the_mover_cannot_both_block_are_scored_as_a_win_for_the_other_side() -> None:
    game = ConnectFour()
    for column in (3, 3, 4, 4, 2):  # X: columns 3, 4, 5 (1-based) on the bottom row, O on 4 and 5
        game.push(column)
    assert game.to_move() is Player.SECOND and not game.winning_moves()
    game.push(1)  # the independent check: whichever end O blocks, X wins at the other
    assert game.winning_moves() == (5,)
    game.undo()
    game.push(5)
    assert game.winning_moves() == (1,)
    game.undo()
    assert game.evaluate() == ConnectFour.WIN_SOON_POINTS


def test_a_threat_counts_more_on_its_owners_rows_and_not_at_all_above_an_opponents() -> None:
    game = ConnectFour()
    cell = game._geometry.bit  # rows from 0 at the bottom: row 2 is the third, odd, row
    odd, even = cell(1, 2), cell(1, 3)
    assert game._threat_points(odd, 0) > game._threat_points(even, 0) > 0  # the first player's
    assert game._threat_points(0, even) < game._threat_points(0, odd) < 0  # the second player's
    below = cell(1, 1)
    assert game._threat_points(odd, below) == game._threat_points(0, below)


@pytest.mark.slow
@pytest.mark.parametrize(("shallow", "deep"), [(1, 2), (2, 4)])
def test_the_deeper_search_takes_more_than_half_the_points(shallow: int, deep: int) -> None:
    # 20 games in pairs from random openings, colours swapped. Closer pairs need more
    # games than a test can afford: docs/tournament.md has every depth against the next.
    players = [f"alphabeta:depth={shallow}", f"alphabeta:depth={deep}"]
    tournament = run_tournament(ConnectFour(), players, games=20, seed=3)
    points = sum(played.score(1) for played in tournament.played)
    assert points > 10, points


def test_a_forced_block_is_scored_by_the_position_after_it_leaving_the_game_untouched() -> None:
    game = ConnectFour.from_text("16263")  # X: 1, 2, 3 on the bottom row; O must block at 4
    assert game.to_move() is Player.SECOND and not game.winning_moves()
    blocked = game.copy()
    blocked.push(3)
    assert (
        not blocked.winning_moves() and len(blocked.non_losing_moves()) > 1
    )  # nothing forced after it
    before = (game.key(), game.history, game.ply, game.legal_moves())
    assert game.evaluate() == blocked.evaluate()
    assert (game.key(), game.history, game.ply, game.legal_moves()) == before


def test_the_evaluation_at_depth_eight_from_the_start_picks_a_move_and_says_it_is_not_exact() -> (
    None
):
    result = AlphaBeta(depth=8).search(ConnectFour())
    assert result.move in range(7) and not result.is_exact
    assert abs(result.value) < ConnectFour().rules.scale.heuristic_bound
