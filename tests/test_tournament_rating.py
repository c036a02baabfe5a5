"""Elo ratings fitted to results: the Bradley-Terry model with one virtual draw each."""

from __future__ import annotations

import math

import pytest

from gamesearch.rating import ELO_SCALE, Result, expected_score, fit_ratings


def test_a_400_point_lead_means_ten_to_one_odds() -> None:
    assert expected_score(400, 0) == pytest.approx(10 / 11)
    assert expected_score(0, 0) == 0.5


def test_even_results_give_equal_ratings_around_zero() -> None:
    ratings = fit_ratings("abc", [Result(0, 1, 4, 2), Result(1, 2, 4, 2), Result(0, 2, 4, 2)])
    assert [rating.elo for rating in ratings] == pytest.approx([0, 0, 0], abs=1e-9)
    assert ratings[0].error == pytest.approx(ratings[1].error) and ratings[0].error > 0


def strength_of_the_winner(wins: int, games: int) -> float:
    """Solve the two-player fit's equation by bisection (independent of Newton's method).

    With strengths +s and -s, the winner's likelihood equation is
    ``wins - games * sigmoid(2s) + (1/2 - sigmoid(s)) = 0`` (the last term is the virtual draw).
    """

    def sigmoid(value: float) -> float:
        return 1 / (1 + math.exp(-value))

    low, high = 0.0, 20.0
    for _ in range(200):
        middle = (low + high) / 2
        if wins - games * sigmoid(2 * middle) + 0.5 - sigmoid(middle) > 0:
            low = middle
        else:
            high = middle
    return low


@pytest.mark.parametrize(("wins", "games"), [(3, 4), (7, 10), (5, 5)])
def test_two_players_are_rated_as_the_likelihood_equation_says(wins: int, games: int) -> None:
    winner, loser = fit_ratings(["winner", "loser"], [Result(0, 1, games, wins)])
    expected = strength_of_the_winner(wins, games) * ELO_SCALE
    assert winner.elo == pytest.approx(expected, rel=1e-6)
    assert loser.elo == pytest.approx(-expected, rel=1e-6)


def test_a_player_who_won_everything_gets_a_finite_rating_on_top() -> None:
    ratings = fit_ratings("abc", [Result(0, 1, 6, 6), Result(0, 2, 6, 6), Result(1, 2, 6, 3)])
    assert ratings[0].elo > ratings[1].elo == pytest.approx(ratings[2].elo)
    assert math.isfinite(ratings[0].elo) and sum(rating.elo for rating in ratings) == pytest.approx(
        0
    )


def test_more_games_narrow_the_interval() -> None:
    few = fit_ratings("ab", [Result(0, 1, 4, 3)])
    many = fit_ratings("ab", [Result(0, 1, 400, 300)])
    assert many[0].interval < few[0].interval / 5
    assert many[0].interval == pytest.approx(1.959964 * many[0].error)


def test_a_result_naming_an_unknown_player_is_refused() -> None:
    with pytest.raises(
        ValueError, match=r"a result must name two different players 0..1: Result\(a=0, b=2"
    ):
        fit_ratings("ab", [Result(0, 2, 1, 1)])
