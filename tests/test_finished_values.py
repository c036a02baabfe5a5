"""The search cores' table of finished values agrees with the value scale's definition."""

from __future__ import annotations

import pytest

from gamesearch.plugins import default_registry
from gamesearch.rules import Scoring
from gamesearch.search.base import FINISHED_TABLE_ENTRIES, finished_values


def expected(result: int, ply: int, max_plies: int, scoring: Scoring) -> int:
    """The documented scale: sign(r) * ((|r| - 1) * (max_plies + 1) + win - ply), win the
    smallest power of ten from 1000 on with win - max_plies >= win / 2; plain scoring drops ply;
    utility scoring is the result itself; these games' own scoring is distance."""
    if result == 0 or scoring is Scoring.UTILITY:
        return result
    win = 1000
    while win - max_plies < win / 2:
        win *= 10
    size = (
        (abs(result) - 1) * (max_plies + 1)
        + win
        - (ply if scoring in (Scoring.DISTANCE, Scoring.GAME) else 0)
    )
    return size if result > 0 else -size


@pytest.mark.parametrize("scoring", list(Scoring))
@pytest.mark.parametrize(
    ("name", "options"),
    [("tictactoe", {}), ("connect4", {}), ("othello", {"size": 6}), ("kalah", {})],
)
def test_every_finished_value_is_the_scales(
    name: str, options: dict[str, int], scoring: Scoring
) -> None:
    game = default_registry().new_game(name, None, **options)
    rules = game.rules
    largest = max(abs(end) for end in rules.result_range)
    values = finished_values(game, scoring)
    plies = range(0, rules.max_plies + 1, max(1, rules.max_plies // 40))  # Kalah has thousands
    for ply in plies:
        for result in range(-largest, largest + 1):
            assert values[ply][result] == expected(result, ply, rules.max_plies, scoring), (
                ply,
                result,
            )
    assert finished_values(game, scoring) is values  # worked out once


def test_a_large_scale_is_filled_as_needed() -> None:
    game = default_registry().new_game("kalah", None)
    rules = game.rules
    largest = max(abs(end) for end in rules.result_range)
    assert (rules.max_plies + 1) * (2 * largest + 1) > FINISHED_TABLE_ENTRIES  # the case under test
    values = finished_values(game, Scoring.DISTANCE)
    assert values[rules.max_plies][-largest] == expected(
        -largest, rules.max_plies, rules.max_plies, Scoring.DISTANCE
    )
    with pytest.raises(KeyError):
        finished_values(default_registry().new_game("tictactoe", None), Scoring.DISTANCE)[3][2]
