"""The multi-agent coursework: the skeleton fails its checks naming the exercise, a right
answer passes them, and the usual mistakes (the depth counted in moves instead of
rounds, a maximiser that maximises the wrong player's utility) are caught with the
right message."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from gamesearch import Game
from gamesearch.search.base import SearchContext
from gamesearch.search.multiplayer import leaf_utilities

COURSEWORK = Path(__file__).resolve().parent.parent / "docs" / "coursework"


@pytest.fixture()
def checks() -> Iterator[ModuleType]:
    """The check module, with the skeleton it imports (each test gets fresh ones)."""
    sys.modules.pop("my_multi_agent", None)
    spec = importlib.util.spec_from_file_location("check_my_multi_agent", COURSEWORK / "check_my_multi_agent.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("my_multi_agent", None)


def paranoid(game: Game[Any], player: int, rounds_left: int, context: SearchContext, *, plies: bool = False) -> int | Fraction:
    """A right answer to exercise 1 (or, with ``plies``, one that counts moves, not rounds)."""
    context.count_node(game)
    if game.result() is not None or (rounds_left <= 0 and (plies or game.to_move() == player)):
        return leaf_utilities(game)[player]
    values = []
    for move in game.legal_moves():
        game.push(move)
        left = rounds_left - 1 if plies else rounds_left - (game.to_move() == player)
        values.append(paranoid(game, player, left, context, plies=plies))
        game.undo()
    return max(values) if game.to_move() == player else min(values)


def maxn(game: Game[Any], player: int, rounds_left: int, context: SearchContext) -> tuple[int | Fraction, ...]:
    """A right answer to exercise 2."""
    context.count_node(game)
    if game.result() is not None or (rounds_left == 0 and game.to_move() == player):
        return leaf_utilities(game)
    mover = game.to_move()
    best = None
    for move in game.legal_moves():
        game.push(move)
        child = maxn(game, player, rounds_left - (game.to_move() == player), context)
        game.undo()
        if best is None or child[mover] > best[mover]:
            best = child
    assert best is not None
    return best


def run_checks(checks: ModuleType, name: str) -> list[str]:
    """Run every test of the check module called ``name``; return the failures' messages."""
    failures = []
    test: Callable[..., None] = getattr(checks, name)
    for text, rounds in checks.POSITIONS:
        try:
            test(text, rounds)
        except AssertionError as error:
            failures.append(str(error))
    return failures


def test_the_skeleton_fails_the_checks_naming_the_first_exercise() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", str(COURSEWORK / "check_my_multi_agent.py")],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert run.returncode == 1, run.stdout + run.stderr
    assert "NotImplementedError: exercise 1: write paranoid_value in my_multi_agent.py" in run.stdout


def test_right_answers_pass_both_exercises(checks: ModuleType) -> None:
    skeleton = sys.modules["my_multi_agent"]
    skeleton.paranoid_value = paranoid
    skeleton.maxn_value = maxn
    assert run_checks(checks, "test_exercise_1_paranoid_value_agrees_with_the_library") == []
    assert run_checks(checks, "test_exercise_2_maxn_value_agrees_with_the_library") == []


def test_a_depth_counted_in_moves_is_caught_as_such(checks: ModuleType) -> None:
    sys.modules["my_multi_agent"].paranoid_value = lambda *args: paranoid(*args, plies=True)
    failures = run_checks(checks, "test_exercise_1_paranoid_value_agrees_with_the_library")
    assert failures
    assert any("is the depth counted in moves instead of rounds?" in failure for failure in failures)


def test_a_maxn_that_maximises_the_root_players_utility_is_caught(checks: ModuleType) -> None:
    def wrong(game: Game[Any], player: int, rounds_left: int, context: SearchContext) -> tuple[int | Fraction, ...]:
        context.count_node(game)
        if game.result() is not None or (rounds_left == 0 and game.to_move() == player):
            return leaf_utilities(game)
        children = []
        for move in game.legal_moves():
            game.push(move)
            children.append(wrong(game, player, rounds_left - (game.to_move() == player), context))
            game.undo()
        return max(children, key=lambda utilities: utilities[player])  # everyone helps the root player

    sys.modules["my_multi_agent"].maxn_value = wrong
    failures = run_checks(checks, "test_exercise_2_maxn_value_agrees_with_the_library")
    assert failures and all(failure.startswith("exercise 2: value") for failure in failures)
