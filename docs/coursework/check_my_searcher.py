"""The checks of the coursework: run ``pytest docs/coursework/check_my_searcher.py``.

Each test names the exercise it checks. The conformance kit compares your searcher
with the reference minimax in every reachable position of tic-tac-toe, of a small
Kalah (where a player may move twice in a row) and of the textbook's trees (scored by
their utilities), and the node counts tell whether your alpha-beta really prunes. It
needs nothing but ``pip install gamesearch``.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

from gamesearch import AlphaBeta, Minimax, Scoring, default_registry
from gamesearch.testing import Reference, check_searcher, reachable_positions

sys.path.insert(0, str(Path(__file__).parent))
from my_searcher import StudentSearcher  # noqa: E402  (the file next to this one)

PLAIN = Scoring.PLAIN


@functools.cache
def positions(game: str, **options: Any) -> list[Any]:
    return reachable_positions(default_registry().new_game(game, **options))


@functools.cache
def reference(scoring: Scoring) -> Reference:
    return Reference(scoring=scoring)


def nodes_from_the_start(searcher: Any) -> int:
    return int(searcher.search(default_registry().new_game("tictactoe")).stats.nodes)


def test_exercise_1_minimax_agrees_with_the_reference_in_every_tictactoe_position() -> None:
    check_searcher(
        StudentSearcher(pruning=False),
        positions("tictactoe"),
        reference=reference(Scoring.DISTANCE),
    )


def test_exercise_1_minimax_visits_every_node_of_the_game_tree() -> None:
    assert nodes_from_the_start(
        StudentSearcher(pruning=False, scoring=PLAIN)
    ) == nodes_from_the_start(Minimax(scoring=PLAIN))


def test_exercise_2_alphabeta_agrees_with_the_reference_in_every_tictactoe_position() -> None:
    check_searcher(StudentSearcher(), positions("tictactoe"), reference=reference(Scoring.DISTANCE))


def test_exercise_2_alphabeta_agrees_with_the_reference_in_every_small_kalah_position() -> None:
    check_searcher(
        StudentSearcher(),
        positions("kalah", pits=2, seeds=3),
        reference=reference(Scoring.DISTANCE),
    )


def test_exercise_2_alphabeta_agrees_with_the_reference_in_every_node_of_the_trees() -> None:
    for name in ("aima-figure-5-2.txt", "two-rounds.txt"):
        text = (Path(__file__).parent / "trees" / name).read_text()
        tree = default_registry().new_game("tree", text)
        # a tree's own scoring is its utilities: the reference scores them so too
        check_searcher(
            StudentSearcher(), reachable_positions(tree), reference=reference(Scoring.GAME)
        )


def test_exercise_2_alphabeta_visits_exactly_the_nodes_of_the_reference_alphabeta() -> None:
    expected = AlphaBeta(scoring=PLAIN, ordering="natural", root_window="fresh")
    assert nodes_from_the_start(StudentSearcher(scoring=PLAIN)) == nodes_from_the_start(expected)
