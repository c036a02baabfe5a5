"""Nim's own tests: the conformance kit does the heavy lifting, the rest is Nim's theory."""

from __future__ import annotations

import functools
import operator

import pytest
from hypothesis import given, settings

from gamesearch import (
    AlphaBeta,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    Minimax,
)
from gamesearch.testing import check_game, check_searcher, reachable_positions
from gamesearch.testing.strategies import positions

# Run from the gamesearch repository, these tests need the plugin installed first.
pytest.importorskip(
    "gamesearch_nim",
    reason="the example plugin is not installed: pip install -e docs/examples/gamesearch-nim",
)
from gamesearch_nim import Nim  # noqa: E402


def test_nim_keeps_the_protocol_in_every_position_of_a_small_game() -> None:
    report = check_game(Nim, options={"heaps": "1,2,3"})
    assert report.is_exhaustive and report.positions == 50


def test_nim_keeps_the_protocol_in_random_games_of_the_default_heaps() -> None:
    check_game(Nim, max_positions=300, playouts=30)


def test_alphabeta_agrees_with_minimax_in_every_position_of_a_small_game() -> None:
    check_searcher(AlphaBeta(), reachable_positions(Nim.new(heaps="1,2,3")))


@pytest.mark.parametrize("heaps", ["1,2,3", "2,2", "3,5", "1,1,1", "4"])
def test_the_side_to_move_loses_exactly_when_the_xor_of_the_heaps_is_zero(heaps: str) -> None:
    for game in reachable_positions(Nim.new(heaps=heaps)):
        result = Minimax().search(game)
        wins = result.value * game.to_move().sign > 0
        assert wins == (functools.reduce(operator.xor, game.heaps) != 0), game.to_text()


@settings(max_examples=30, deadline=None)
@given(game=positions(Nim, options={"heaps": "2,3,4"}))
def test_the_first_move_alphabeta_chooses_leaves_a_zero_xor_when_one_exists(game: Nim) -> None:
    result = AlphaBeta().search(game)
    if game.is_over() or functools.reduce(operator.xor, game.heaps) == 0:
        return
    game.apply(result.move)
    assert functools.reduce(operator.xor, game.heaps) == 0


def test_a_position_is_read_against_the_starting_heaps() -> None:
    game = Nim.from_text("1,4,5@1")
    assert (game.heaps, game.ply, game.settings) == ((1, 4, 5), 1, {"heaps": "3,4,5"})
    assert Nim.from_text("7,7").settings == {"heaps": "7,7"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3,x,5", r"position '3,x,5' must be heap sizes and '@' moves played"),
        ("3,4@0", r"position '3,4@0' has 2 heaps; the game started with 3"),
        ("3,9,5@1", r"9 objects in heap B, which started with 4"),
        ("1,4,5@3", r"3 moves cannot take 2 objects"),
        ("3,4,5@1", r"1 moves cannot take 0 objects"),
    ],
)
def test_impossible_positions_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Nim.from_text(text)


@pytest.mark.parametrize("text", ["D1", "A0", "A", "1A", ""])
def test_bad_move_text_names_the_valid_heaps(text: str) -> None:
    with pytest.raises(InvalidMoveError, match=rf"move {text!r} must be a heap letter from A to C"):
        Nim.new().parse_move(text)


def test_bad_heaps_option_says_what_is_valid() -> None:
    with pytest.raises(
        InvalidOptionError, match=r"option 'heaps': heaps '3,,4' must be 1 to 26 sizes"
    ):
        Nim.new(heaps="3,,4")
