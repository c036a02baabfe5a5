"""The typed score a search answers: proven, heuristic, expected or utilities, with a point
of view, words, a JSON form and an order, checked against positions worked out here."""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from typing import Any

import pytest
from clirun import run_cli

from gamesearch.game import Game
from gamesearch.plugins import default_registry
from gamesearch.score import Expected, Heuristic, Proven, Utilities

REGISTRY = default_registry()


def _best_end(game: Game[Any]) -> tuple[int, int]:
    """The oracle: ``(result, plies)`` of best play with distance, first player's view:
    the mover takes the best result, then the fastest win or the slowest loss."""

    @cache
    def solve(key: Any, ply: int) -> tuple[int, int]:
        result = game.result()
        if result is not None:
            return result, 0
        mover_sign = 1 if game.to_move() == 0 else -1
        ends = []
        for move in list(game.legal_moves()):
            game.push(move)
            outcome, plies = solve(game.key(), game.ply)
            game.undo()
            ends.append((outcome, plies + 1))

        def preference(end: tuple[int, int]) -> tuple[int, int]:
            outcome, plies = end
            own = outcome * mover_sign
            return (own, -plies if own > 0 else plies)

        return max(ends, key=preference)

    return solve(game.key(), game.ply)


@pytest.mark.parametrize("position", ["XO./.X./...", "X../.O./...", "XO./OX./...", "XX./OO./..."])
def test_an_exact_search_answers_the_proven_end_of_best_play(position: str) -> None:
    game = REGISTRY.new_game("tictactoe", position)
    result, plies = _best_end(game)
    score = REGISTRY.new_searcher("alphabeta").search(game).score
    assert isinstance(score, Proven)
    assert (score.margin, score.plies if result else 0) == (result, plies if result else 0)


def test_a_forced_win_found_by_a_depth_limited_search_is_proven() -> None:
    game = REGISTRY.new_game("connect4", "445566")  # X plays 7 (or 3) and wins at once
    result = REGISTRY.new_searcher("alphabeta:depth=2").search(game)
    assert not result.is_exact  # other moves met the horizon
    assert result.score == Proven(1, 1)
    assert result.score.words() == "X wins in 1 ply"


def test_analyze_says_a_forced_end_found_within_a_depth_limit_is_proven(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run_cli(capsys, "analyze", "connect4", "-p", "445566", "--depth", "2")
    assert status == 0, err
    assert "X wins in 1 ply" in out and "heuristic estimate" not in out


def test_a_horizon_value_is_a_heuristic_with_its_depth() -> None:
    game = REGISTRY.new_game("connect4")
    result = REGISTRY.new_searcher("alphabeta:depth=3").search(game)
    assert result.score == Heuristic(result.value, 3)  # type: ignore[arg-type]
    assert result.score.words() == f"estimate {result.value:+d} at depth 3"


def test_a_game_of_chance_answers_an_exact_fraction_shown_as_a_decimal_beside_it() -> None:
    game = REGISTRY.new_game("pig", None, goal=2, faces=2)
    result = REGISTRY.new_searcher("expectiminimax").search(game)
    score = result.score
    assert isinstance(score, Expected) and score.is_exact
    assert score.value == result.value and isinstance(score.value, Fraction)
    decimal = f"{float(score.value):+.3f}"
    assert score.words() == f"expected result {decimal} (+{score.value})"
    assert score.as_dict()["value"] == str(score.value)


def test_three_players_answer_one_utility_each() -> None:
    game = REGISTRY.new_game("mnk3", "AB../C.../..../....")
    result = REGISTRY.new_searcher("maxn:rounds=1").search(game)
    assert result.utilities is not None
    assert result.score == Utilities(result.utilities, result.is_exact)
    assert result.score.pov(2).rank() == (0, result.utilities[2], 0)


def test_points_of_view_and_order() -> None:
    win_fast, win_slow, win_big = Proven(1, 3), Proven(1, 5), Proven(2, 9)
    loss_fast, loss_slow, draw = Proven(-1, 2), Proven(-1, 6), Proven(0, None)
    estimate = Heuristic(40, 4)
    ranked = [loss_fast, loss_slow, Heuristic(-40, 4), draw, estimate, win_slow, win_fast, win_big]
    assert sorted(reversed(ranked)) == ranked
    assert win_fast.pov(1) == Proven(-1, 3, player=1) and win_fast.pov(1).pov(0) == win_fast
    assert win_fast.pov(1) < win_fast.pov(1).pov(0)
    assert estimate.pov(1).estimate == -40
    assert Expected(Fraction(1, 3)).pov(1).value == Fraction(-1, 3)
    assert Proven(3, 12, names=("Black", "White"), has_margins=True).pov(1).words() == (
        "Black wins by 3 in 12 plies"
    )


@pytest.mark.slow
def test_analyze_json_carries_the_score_beside_value_and_margin(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run_cli(capsys, "analyze", "tictactoe", "-p", "XO./.X./...", "--json")
    assert status == 0, err
    data = json.loads(out)
    assert data["score"] == {
        "kind": "proven",
        "margin": 1,
        "plies": 4,
        "player": 0,
        "words": "X wins in 4 plies",
    }
    assert data["margin"] == 1 and isinstance(data["value"], int)


@pytest.mark.slow
def test_the_web_api_carries_the_score() -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from starlette.testclient import TestClient

    from gamesearch.web.app import create_app

    with TestClient(create_app(REGISTRY), base_url="http://127.0.0.1") as client:
        response = client.post(
            "/api/analyze",
            json={"game": "connect4", "searcher": "alphabeta", "searcher_options": {"depth": 2}},
        )
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["score"]["kind"] == "heuristic" and data["score"]["depth"] == 2
    assert data["score"]["estimate"] == data["value"] and data["margin"] is None
