"""The coursework skeleton and its checks: the skeleton fails them with the exercise to do,
a wrong answer is caught by the kit, and the plumbing around the exercises is right."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from gamesearch import Game, Minimax, Scoring
from gamesearch.errors import ConformanceError
from gamesearch.search.base import Counters
from gamesearch.testing import check_searcher, random_positions

COURSEWORK = Path(__file__).resolve().parent.parent / "docs" / "coursework"


@pytest.fixture()
def skeleton() -> Iterator[ModuleType]:
    spec = importlib.util.spec_from_file_location("my_searcher", COURSEWORK / "my_searcher.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module


def test_the_skeleton_fails_the_checks_naming_the_first_exercise() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", str(COURSEWORK / "check_my_searcher.py")],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert run.returncode == 1, run.stdout + run.stderr
    assert "NotImplementedError: exercise 1: write minimax_value" in run.stdout


def test_the_skeleton_checks_exercise_two_with_its_own_message(skeleton: ModuleType) -> None:
    game = random_positions("tictactoe", count=1, seed=3, max_plies=2)[0]
    with pytest.raises(NotImplementedError, match="exercise 2: write alphabeta_value"):
        skeleton.StudentSearcher().search(game)


def minimax_by_the_library(game: Game[Any], scoring: Scoring, counters: Counters) -> int:
    return Minimax(scoring=scoring).search(game).value


def test_the_searcher_around_the_exercises_agrees_with_minimax_given_correct_values(
    skeleton: ModuleType,
) -> None:
    skeleton.minimax_value = minimax_by_the_library
    sample = random_positions("tictactoe", count=40, seed=5, max_plies=9)
    report = check_searcher(skeleton.StudentSearcher(pruning=False), sample)
    assert report.positions == 40


def test_values_from_the_side_to_move_instead_of_the_first_player_are_caught(skeleton: ModuleType) -> None:
    def side_to_move_view(game: Game[Any], scoring: Scoring, counters: Counters) -> int:
        return minimax_by_the_library(game, scoring, counters) * game.to_move().sign

    skeleton.minimax_value = side_to_move_view
    sample = random_positions("tictactoe", count=40, seed=5, max_plies=9)
    with pytest.raises(ConformanceError, match=r"searcher 'student' disagrees with minimax on tictactoe .*: value -?\d+, minimax -?\d+"):
        check_searcher(skeleton.StudentSearcher(pruning=False), sample)
