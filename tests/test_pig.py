"""Pig, the in-tree dice game: its rules against OpenSpiel's ``pig``, its notation, its views."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from gamesearch.errors import InvalidPositionError
from gamesearch.rules import CHANCE
from gamesearch.search.expectimax import Expectiminimax
from gamesearch.testing import check_game
from gamesearch_games.pig import Pig

SMALL = {"goal": 4, "faces": 3, "horizon": 6}


def test_the_default_game_keeps_the_protocol_on_a_slice_and_random_games() -> None:
    report = check_game(Pig, max_positions=800, playouts=10)
    assert report.positions >= 800 and report.terminal > 0


def test_a_turn_rolls_banks_and_loses_as_the_rules_say() -> None:
    game = Pig.new(**SMALL)
    assert game.legal_moves() == ("roll", "hold") and game.to_move() == 0
    game.play("roll")
    assert game.to_move() == CHANCE and game.legal_moves() == ("1", "2", "3")
    assert list(game.chance_outcomes()) == [(face, Fraction(1, 3)) for face in ("1", "2", "3")]
    for move in ("3", "roll", "1"):  # a 1 loses the turn total of 3
        game.play(move)
    assert game.to_text() == "0-0 B+0 2 4" and game.to_move() == 1
    for move in ("roll", "2", "roll", "2"):  # 4 reaches the goal: B must hold, and wins
        game.play(move)
    assert game.legal_moves() == ("hold",)
    game.play("hold")
    assert (game.result(), game.to_text()) == (-1, "0-4 A+0 5 9")


def test_the_game_is_a_draw_once_the_players_have_made_horizon_moves_even_after_a_roll() -> None:
    for last, text in (("hold", "2-0 A+0 3 4"), ("roll", "2-0 B+0 3 4")):
        game = Pig.new(goal=4, faces=3, horizon=3)
        for move in ("roll", "2", "hold", last):
            game.play(move)
        assert (game.result(), game.to_text(), game.legal_moves()) == (0, text, ())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0-0 A+0", r"must be the scores, the player to move and their turn total"),
        ("4-4 A+0 3 9", r"both players have reached the goal"),
        ("4-0 A+0 3 5", r"A has won, so the game is over with the other to move"),
        ("0-0 A+0 7 9", r"more moves than the 6 the game lasts"),
        ("0-0 A+2* 6 9", r"the game ended with the last move, so no die rolls"),
        ("2-0 A+2* 3 5", r"the player has reached the goal and must hold, not roll"),
        ("0-0 A+9 3 5", r"a turn total of 9 is more than a player can roll to"),
    ],
)
def test_impossible_positions_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Pig.from_text(text, **SMALL)


def test_the_board_view_shows_the_scores_and_offers_the_moves_as_buttons() -> None:
    game = Pig.from_text("2-0 B+3 3 5", **SMALL)
    view = game.board_view()
    assert view.symbols == ("A", "2", "", "B", "0", "+3", "3/6", "", "")
    assert view.extra_moves == (("Roll", "roll"), ("Hold", "hold"))
    assert "B   0  +3" in game.render() and "B to move" in game.render()


# ------------------------------------------------------------------ OpenSpiel
def _their_game(spiel: Any, options: dict[str, int]) -> Any:
    return spiel.load_game(
        "pig",
        {
            "winscore": options["goal"],
            "diceoutcomes": options["faces"],
            "horizon": options["horizon"],
        },
    )


def _their_action(move: str) -> int:
    """Return OpenSpiel's action for a move: roll 0, stop 1, face f is f - 1."""
    return {"roll": 0, "hold": 1}[move] if move in ("roll", "hold") else int(move) - 1


def test_random_games_follow_openspiels_pig_move_for_move() -> None:
    spiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    chooser = random.Random(5)
    for options in (SMALL, {"goal": 10, "faces": 6, "horizon": 12}):
        for _ in range(30):
            game, state = Pig.new(**options), _their_game(spiel, options).new_initial_state()
            while not game.is_over():
                assert not state.is_terminal()
                if game.to_move() == CHANCE:
                    assert state.is_chance_node()
                    ours = [
                        (_their_action(move), float(probability))
                        for move, probability in game.chance_outcomes()
                    ]
                    assert ours == state.chance_outcomes()
                else:
                    assert state.current_player() == game.to_move()
                    assert (
                        sorted(_their_action(move) for move in game.legal_moves())
                        == state.legal_actions()
                    )
                move = chooser.choice(list(game.legal_moves()))
                game.play(move)
                state.apply_action(_their_action(move))
            assert state.is_terminal() and state.returns()[0] == game.result()


def test_expectiminimax_equals_openspiels_on_positions_of_the_small_game() -> None:
    spiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    minimax = pytest.importorskip("open_spiel.python.algorithms.minimax")
    chooser, checked = random.Random(8), 0
    for _ in range(12):
        game, state = Pig.new(**SMALL), _their_game(spiel, SMALL).new_initial_state()
        for _ in range(chooser.randrange(6)):
            if game.is_over():
                break
            move = chooser.choice(list(game.legal_moves()))
            game.play(move)
            state.apply_action(_their_action(move))
        if game.is_over():
            continue
        # every line ends within the horizon: that depth reaches every end of the game
        theirs, _ = minimax.expectiminimax(state, SMALL["horizon"], lambda _: 0.0, 0)
        assert Expectiminimax().search(game).value == pytest.approx(theirs, abs=1e-12), (
            game.to_text()
        )
        checked += 1
    assert checked >= 8


def test_a_copy_plays_on_without_touching_the_original() -> None:
    game = Pig.new(**SMALL)
    for move in ("roll", "3"):
        game.play(move)
    twin = game.copy()
    for move in ("hold", "roll", "2"):
        twin.play(move)
    assert (game.to_text(), game.history) == ("0-0 A+3 1 2", ("roll", "3"))
    assert (twin.to_text(), twin.history) == ("3-0 B+2 3 5", ("roll", "3", "hold", "roll", "2"))
    for _ in range(3):
        twin.undo()
    assert twin.to_text() == game.to_text() and twin.key() == game.key()
