"""The multi-agent coursework, graded by ``gamesearch grade``: the skeleton fails both suites
naming its exercise, right answers (written here, not shipped) pass them, and the usual
mistakes (the depth counted in moves instead of rounds, a sign error, pruning where the
whole tree is asked for, max^n for the wrong player) are caught with the message the
pages quote."""

from __future__ import annotations

import importlib
import sys
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from gamesearch import Game
from gamesearch.search.base import SearchContext
from gamesearch.search.multiplayer import leaf_utilities
from gamesearch.testing.grading import GradeReport, grade
from tests.test_docs_coursework import assert_the_skeleton_fails, output_of, suite

COURSEWORK = Path(__file__).resolve().parent.parent / "docs" / "coursework"
PAGES = " ".join(
    (COURSEWORK / page).read_text() for page in ("multi-agent.md", "paranoid-vs-maxn.md")
).replace("\n", " ")


@pytest.fixture()
def skeleton(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """Return a fresh import of the skeleton (each test may fill in its exercises)."""
    monkeypatch.syspath_prepend(str(COURSEWORK))
    monkeypatch.delitem(sys.modules, "my_multi_agent", raising=False)
    return importlib.import_module("my_multi_agent")


# ------------------------------------------------- the answers, and the usual mistakes
def paranoid(
    game: Game[Any], player: int, rounds_left: int, context: SearchContext, mistake: str = ""
) -> int | Fraction:
    """Exercise 1 answered (``mistake``: "plies" takes a round off after every move, "sign"
    lets the other players maximise too, "prune" prunes as alpha-beta where the whole
    tree is asked for)."""
    return _paranoid(game, player, rounds_left, context, mistake, -float("inf"), float("inf"))


def _paranoid(
    game: Game[Any],
    player: int,
    rounds_left: int,
    context: SearchContext,
    mistake: str,
    alpha: float,
    beta: float,
) -> int | Fraction:
    context.count_node(game)
    plies = mistake == "plies"
    if game.result() is not None or (rounds_left <= 0 and (plies or game.to_move() == player)):
        return leaf_utilities(game)[player]
    maximising = game.to_move() == player or mistake == "sign"
    best: int | Fraction | None = None
    for move in game.legal_moves():
        game.push(move)
        left = rounds_left - 1 if plies else rounds_left - (game.to_move() == player)
        value = _paranoid(game, player, left, context, mistake, alpha, beta)
        game.undo()
        if best is None or (value > best if maximising else value < best):
            best = value
        alpha, beta = (max(alpha, value), beta) if maximising else (alpha, min(beta, value))
        if mistake == "prune" and alpha >= beta:
            break
    assert best is not None
    return best


def maxn(
    game: Game[Any], player: int, rounds_left: int, context: SearchContext, mistake: str = ""
) -> tuple[int | Fraction, ...]:
    """Exercise 2 answered (``mistake``: "root" has every player maximise the root player's
    utility, "plies" takes a round off after every move)."""
    context.count_node(game)
    plies = mistake == "plies"
    if game.result() is not None or (rounds_left <= 0 and (plies or game.to_move() == player)):
        return leaf_utilities(game)
    mover = player if mistake == "root" else game.to_move()
    best: tuple[int | Fraction, ...] | None = None
    for move in game.legal_moves():
        game.push(move)
        left = rounds_left - 1 if plies else rounds_left - (game.to_move() == player)
        child = maxn(game, player, left, context, mistake)
        game.undo()
        if best is None or child[mover] > best[mover]:
            best = child
    assert best is not None
    return best


def graded(skeleton: ModuleType, exercise: str, mistake: str = "") -> GradeReport:
    """Return the report of the exercise's suite with its answer (or ``mistake``) filled in."""
    if exercise == "paranoid":
        skeleton.paranoid_value = lambda *args: paranoid(*args, mistake=mistake)
        return grade(skeleton.StudentParanoid, *reversed(suite("multi-agent")))
    skeleton.maxn_value = lambda *args: maxn(*args, mistake=mistake)
    return grade(skeleton.StudentMaxN, *reversed(suite("maxn")))


# ------------------------------------------------------------------------ the tests
@pytest.mark.parametrize(
    ("student", "name", "exercise", "tests", "points"),
    [
        ("StudentParanoid", "multi-agent", "exercise 1: write paranoid_value", 5, 6),
        ("StudentMaxN", "maxn", "exercise 2: write maxn_value", 4, 5),
    ],
)
def test_the_skeleton_fails_its_suite_naming_the_exercise(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    student: str,
    name: str,
    exercise: str,
    tests: int,
    points: int,
) -> None:
    first = "two ghosts, one round" if name == "multi-agent" else "two ghosts, two rounds"
    assert_the_skeleton_fails(
        capsys, tmp_path, f"my_multi_agent.py:{student}", name, exercise, tests, points, first
    )


def test_a_right_paranoid_search_passes_every_test_node_for_node(skeleton: ModuleType) -> None:
    report = graded(skeleton, "paranoid")
    assert (report.score, report.max_score) == (6, 6), report.summary()
    assert (
        output_of(report, "two ghosts, one round")
        == "value 3, move right, 12 positions generated: as the reference"
    )


def test_a_right_maxn_passes_every_test_with_every_players_utility(skeleton: ModuleType) -> None:
    report = graded(skeleton, "maxn")
    assert (report.score, report.max_score) == (5, 5), report.summary()
    assert output_of(report, "mnk3, C to move") == (
        "value 1, utilities A 1, B 1, C 1, move 1, 48 positions generated: as the reference"
    )


ROUNDS = (
    "is the depth counted in plies instead of rounds? A round is one move of each of the 3 players"
)


@pytest.mark.parametrize("exercise", ["paranoid", "maxn"])
def test_a_depth_counted_in_moves_is_caught_as_such_in_every_test(
    skeleton: ModuleType, exercise: str
) -> None:
    report = graded(skeleton, exercise, "plies")
    assert report.score == 0
    assert all(result.output.endswith(ROUNDS) for result in report.results), report.results
    assert ROUNDS in PAGES


def test_a_paranoid_sign_error_is_caught_by_its_values(skeleton: ModuleType) -> None:
    report = graded(skeleton, "paranoid", "sign")
    failure = report.first_failure
    assert failure is not None and failure.name == "two ghosts, one round"
    message = (
        "the positions are the reference's but not the values: does each player take the largest "
        "or the smallest "
        "value as it should, of the right player's utility?"
    )
    assert failure.output.startswith("value 8, the reference 3; ") and failure.output.endswith(
        message
    )
    assert message in PAGES


def test_a_paranoid_search_that_prunes_is_told_it_skips_positions_of_the_whole_tree(
    skeleton: ModuleType,
) -> None:
    report = graded(skeleton, "paranoid", "prune")
    # the values are right: only the positions generated differ
    assert all(
        result.output.startswith(("value", "1", "2", "3", "4", "5", "6", "7", "8", "9"))
        for result in report.results
    )
    message = (
        "the search skips positions maxn:pruning=false generates: "
        "this test asks for every one of them (no pruning)"
    )
    failures = [result for result in report.results if not result.passed]
    assert failures and all(result.output.endswith(message) for result in failures)
    assert all("value" not in result.output.split(";")[0] for result in failures)


def test_a_maxn_for_the_root_player_is_caught_by_the_utilities(skeleton: ModuleType) -> None:
    report = graded(skeleton, "maxn", "root")
    # A and B play for C, the root mover, and let C win
    message = "value 3, the reference 1; utilities A 0, B 0, C 3, the reference A 1, B 1, C 1"
    assert output_of(report, "mnk3, C to move").startswith(message)
    assert message in PAGES
