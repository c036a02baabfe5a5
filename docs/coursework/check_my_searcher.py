"""The checks of the coursework: run ``pytest docs/coursework/check_my_searcher.py``.

Each test names the exercise it checks. The conformance kit compares your searcher
with the reference minimax in every reachable position of tic-tac-toe, of a small
Kalah (where a player may move twice in a row) and of the textbook's trees (scored by
their utilities), and the node counts tell whether your alpha-beta really prunes;
exercise 3 is compared with the reference minimax searching as deep, with the same
evaluation. It needs nothing but ``pip install gamesearch``.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

from gamesearch import AlphaBeta, Minimax, Scoring, default_registry
from gamesearch.testing import Reference, check_searcher, reachable_positions

sys.path.insert(0, str(Path(__file__).parent))
from my_searcher import StudentDepthLimited, StudentSearcher  # noqa: E402  (the file next to this one)

PLAIN = Scoring.PLAIN


@functools.cache
def positions(game: str, **options: Any) -> list[Any]:
    return reachable_positions(default_registry().new_game(game, **options))


@functools.cache
def reference(scoring: Scoring, depth: int | None = None) -> Reference:
    return Reference(scoring=scoring, depth=depth)


def tree(name: str) -> Any:
    return default_registry().new_game("tree", (Path(__file__).parent / "trees" / name).read_text())


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
        # a tree's own scoring is its utilities: the reference scores them so too
        check_searcher(
            StudentSearcher(), reachable_positions(tree(name)), reference=reference(Scoring.GAME)
        )


def test_exercise_2_alphabeta_visits_exactly_the_nodes_of_the_reference_alphabeta() -> None:
    expected = AlphaBeta(scoring=PLAIN, ordering="natural", root_window="fresh")
    assert nodes_from_the_start(StudentSearcher(scoring=PLAIN)) == nodes_from_the_start(expected)


def test_exercise_3_depth_limited_agrees_with_the_reference_in_every_tictactoe_position() -> None:
    check_searcher(
        StudentDepthLimited(depth=2),
        positions("tictactoe"),
        reference=reference(Scoring.DISTANCE, depth=2),
    )


def test_exercise_3_depth_limited_agrees_with_the_reference_in_every_node_of_the_tree() -> None:
    # two moves down, some lines of horizon.txt end the game and others are evaluated
    for depth in (1, 2):
        check_searcher(
            StudentDepthLimited(depth=depth),
            reachable_positions(tree("horizon.txt")),
            reference=reference(Scoring.GAME, depth=depth),
        )
