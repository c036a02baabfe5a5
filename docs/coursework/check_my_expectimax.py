"""The checks of the expectimax coursework: run ``pytest docs/coursework/check_my_expectimax.py``.

Each exercise is compared with the library's expectiminimax, the reference, in every
reachable position of a small game of Pig (first to 4 points with a three-sided
die, 6 moves at most): the same value, the same best moves, and the node counts the
exercise asks for.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from gamesearch import Game, default_registry
from gamesearch.search.expectimax import Expectiminimax
from gamesearch.testing import check_searcher, reachable_positions

HERE = Path(__file__).resolve().parent
SMALL = {"goal": 4, "faces": 3, "horizon": 6}


def _student() -> ModuleType:
    spec = importlib.util.spec_from_file_location("my_expectimax", HERE / "my_expectimax.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("my_expectimax", module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def student() -> ModuleType:
    return _student()


@pytest.fixture(scope="module")
def positions() -> list[Game[Any]]:
    start = default_registry().new_game("pig", None, **SMALL)
    return [game for game in reachable_positions(start) if not game.is_over()]


def test_exercise_1_expectimax_agrees_with_the_reference_in_every_position(
    student: ModuleType, positions: list[Game[Any]]
) -> None:
    report = check_searcher(student.StudentExpectimax(), positions, move_values=False)
    assert report.positions == len(positions)


def test_exercise_1_expectimax_visits_every_node_of_the_tree(student: ModuleType) -> None:
    start = default_registry().new_game("pig", None, **SMALL)
    mine = student.StudentExpectimax().search(start)
    reference = Expectiminimax().search(start)
    assert (mine.value, mine.stats.nodes) == (reference.value, reference.stats.nodes)


def test_exercise_2_star1_agrees_with_the_reference_in_every_position(
    student: ModuleType, positions: list[Game[Any]]
) -> None:
    report = check_searcher(student.StudentExpectimax(pruning=True), positions, move_values=False)
    assert report.positions == len(positions)


def test_exercise_2_star1_visits_fewer_nodes_than_expectimax(student: ModuleType, positions: list[Game[Any]]) -> None:
    pruned = sum(student.StudentExpectimax(pruning=True).search(game).stats.nodes for game in positions)
    full = sum(Expectiminimax().search(game).stats.nodes for game in positions)
    assert pruned < full * 9 // 10, f"{pruned:,} nodes against expectimax's {full:,}: prune more"
