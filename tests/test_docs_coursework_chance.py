"""The expectimax coursework: the skeleton fails its checks naming the first exercise, the
searcher around the exercises is right given right values, and a wrong answer is caught."""

from __future__ import annotations

import importlib
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from gamesearch import Game
from gamesearch.errors import ConformanceError
from gamesearch.game import CHANCE
from gamesearch.search.base import Counters
from gamesearch.search.expectimax import Expectiminimax
from gamesearch.testing import check_searcher, reachable_positions
from gamesearch_games.pig import Pig

COURSEWORK = Path(__file__).resolve().parent.parent / "docs" / "coursework"
SMALL = {"goal": 4, "faces": 3, "horizon": 6}


@pytest.fixture()
def skeleton(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """Return a fresh import of the skeleton (each test may replace its functions)."""
    monkeypatch.syspath_prepend(str(COURSEWORK))
    monkeypatch.delitem(sys.modules, "my_expectimax", raising=False)
    return importlib.import_module("my_expectimax")


def test_the_skeleton_fails_the_checks_naming_the_first_exercise() -> None:
    checks = str(COURSEWORK / "check_my_expectimax.py")
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", checks]
    run = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert (run.returncode, "NotImplementedError: exercise 1: write expectimax_value" in run.stdout) == (1, True), (
        run.stdout + run.stderr
    )


def test_the_skeleton_names_exercise_two_when_pruning(skeleton: ModuleType) -> None:
    with pytest.raises(NotImplementedError, match="exercise 2: write star1_value"):
        skeleton.StudentExpectimax(pruning=True).search(Pig.new(**SMALL))


def by_the_library(game: Game[Any], counters: Counters) -> Fraction:
    return Fraction(Expectiminimax().search(game).value)


def best_outcome(game: Game[Any], counters: Counters) -> Fraction:
    """A wrong expectimax: a roll of the die is worth its best outcome, not the mean."""
    if game.to_move() != CHANCE or game.is_over():
        return by_the_library(game, counters)
    values = []
    for move in game.legal_moves():
        game.push(move)
        values.append(by_the_library(game, counters))
        game.undo()
    return max(values)


@pytest.fixture(scope="module")
def positions() -> list[Game[Any]]:
    return [game for game in reachable_positions(Pig.new(**SMALL)) if not game.is_over()][::4]


def test_the_searcher_around_the_exercises_agrees_with_the_reference_given_right_values(
    skeleton: ModuleType, positions: list[Game[Any]]
) -> None:
    skeleton.expectimax_value = by_the_library
    assert check_searcher(skeleton.StudentExpectimax(), positions).positions == len(positions)


def test_the_checks_catch_an_expectimax_that_takes_the_best_outcome_of_a_roll(
    skeleton: ModuleType, positions: list[Game[Any]]
) -> None:
    skeleton.expectimax_value = best_outcome
    with pytest.raises(ConformanceError, match=r"searcher 'my-expectimax' disagrees with expectiminimax on pig .*: value .*, expectiminimax "):
        check_searcher(skeleton.StudentExpectimax(), positions, move_values=False)
