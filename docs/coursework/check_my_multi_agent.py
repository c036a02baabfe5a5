"""The checks of the multi-agent coursework: run ``pytest docs/coursework/check_my_multi_agent.py``.

Each test names the exercise it checks. Your searchers are compared with the
library's on positions of three-player m,n,k: the values and best moves with
``paranoid`` and ``maxn`` searching the same number of rounds, and the positions you
enter with the full tree (``maxn`` without pruning visits every position).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from gamesearch import default_registry

sys.path.insert(0, str(Path(__file__).parent))
from my_multi_agent import StudentMaxN, StudentParanoid  # noqa: E402  (the file next to this one)

REGISTRY = default_registry()
#: (position, rounds): 3x3 positions, and a 4x4 one searched one round deep
POSITIONS = [
    ("AB./.C./...", 1), ("AB./.C./...", 2), ("ABC/.../...", 1), ("AC./.B./A..", 1),
    ("A.B/.C./..A", 2), ("AB../C.../..../....", 1),
]  # fmt: skip


def game_at(text: str) -> Any:
    return REGISTRY.new_game("mnk3") if not text else REGISTRY.game_class("mnk3").from_text(text)


def full_tree(text: str, rounds: int) -> int:
    return int(REGISTRY.new_searcher(f"maxn:rounds={rounds},pruning=false").search(game_at(text)).stats.nodes)


@pytest.mark.parametrize(("text", "rounds"), POSITIONS)
def test_exercise_1_paranoid_value_agrees_with_the_library(text: str, rounds: int) -> None:
    game = game_at(text)
    mine = StudentParanoid(rounds=rounds).search(game)
    library = REGISTRY.new_searcher(f"paranoid:rounds={rounds}").search(game)
    nodes = full_tree(text, rounds)
    # fewer positions than the full tree: the search stopped early (the usual cause first)
    assert mine.stats.nodes == nodes, (
        f"exercise 1: {mine.stats.nodes} positions entered, the full tree of {rounds} round(s) has {nodes}"
        + (" (is the depth counted in moves instead of rounds?)" if mine.stats.nodes < nodes else "")
    )
    assert mine.value == library.value, f"exercise 1: value {mine.value}, paranoid {library.value} at {text!r}"
    assert mine.best_moves == library.best_moves, f"exercise 1: best moves differ at {text!r}"


@pytest.mark.parametrize(("text", "rounds"), POSITIONS)
def test_exercise_2_maxn_value_agrees_with_the_library(text: str, rounds: int) -> None:
    game = game_at(text)
    mine = StudentMaxN(rounds=rounds).search(game)
    library = REGISTRY.new_searcher(f"maxn:rounds={rounds},pruning=false").search(game)
    assert mine.value == library.value, f"exercise 2: value {mine.value}, maxn {library.value} at {text!r}"
    assert set(library.best_moves) <= set(mine.best_moves), f"exercise 2: best moves differ at {text!r}"
    assert mine.stats.nodes == library.stats.nodes, (
        f"exercise 2: {mine.stats.nodes} positions entered, the full tree has {library.stats.nodes}"
    )
