"""The expectimax coursework, graded by ``gamesearch grade``: the skeleton fails both suites
naming its exercise, right answers (written here, not shipped) pass them, and the usual
mistakes are caught with the message the page quotes."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from gamesearch import Game, Player
from gamesearch.rules import CHANCE, chance_heuristic
from gamesearch.search.base import Counters
from gamesearch.search.expectimax import Star2
from gamesearch.testing.grading import GradeReport, grade
from tests.test_docs_coursework import assert_the_skeleton_fails, output_of, suite

COURSEWORK = Path(__file__).resolve().parent.parent / "docs" / "coursework"
PAGE = (COURSEWORK / "expectimax.md").read_text()


@pytest.fixture()
def skeleton(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """Return a fresh import of the skeleton (each test may fill in its exercises)."""
    monkeypatch.syspath_prepend(str(COURSEWORK))
    monkeypatch.delitem(sys.modules, "my_expectimax", raising=False)
    return importlib.import_module("my_expectimax")


# ------------------------------------------------- the answers, and the usual mistakes
def expectimax(game: Game[Any], counters: Counters, mistake: str = "") -> Fraction:
    """Exercise 1 answered (``mistake``: "uniform", "min" or "sign" makes it a usual mistake)."""
    counters.nodes += 1
    if game.result() is not None:
        return Fraction(game.result() or 0)
    values = []
    for move in game.legal_moves():
        game.push(move)
        values.append(expectimax(game, counters, mistake))
        game.undo()
    if game.to_move() == CHANCE:
        if mistake == "uniform":  # every outcome as likely as the others
            return sum(values, Fraction(0)) / len(values)
        if mistake == "min":  # chance as a player who minimises
            return min(values)
        return sum(
            (odds * value for (_, odds), value in zip(game.chance_outcomes(), values, strict=True)),
            Fraction(0),
        )
    if mistake == "sign":  # the second player maximises too
        return max(values)
    return max(values) if game.to_move() == Player.FIRST else min(values)


def star1(
    game: Game[Any],
    alpha: Fraction,
    beta: Fraction,
    low: Fraction,
    high: Fraction,
    counters: Counters,
    mistake: str = "",
) -> Fraction:
    """Exercise 2 answered (``mistake``: "player-window" prunes a chance position as if it
    were a player's, searching each outcome in the position's own window)."""
    counters.nodes += 1
    if game.result() is not None:
        return Fraction(game.result() or 0)
    if game.to_move() == CHANCE:
        known, rest = Fraction(0), Fraction(1)
        for move, odds in game.chance_outcomes():
            rest -= odds
            floor = max(low, (alpha - known - high * rest) / odds)
            ceiling = min(high, (beta - known - low * rest) / odds)
            if mistake == "player-window":
                floor, ceiling = alpha, beta
            game.push(move)
            value = star1(game, floor, ceiling, low, high, counters, mistake)
            game.undo()
            if value <= floor and floor > low:  # the mean falls below alpha whatever comes next
                return known + odds * value + high * rest
            if value >= ceiling and ceiling < high:  # above beta
                return known + odds * value + low * rest
            known += odds * value
        return known
    maximising = game.to_move() == Player.FIRST
    best: Fraction | None = None
    for move in game.legal_moves():
        game.push(move)
        value = star1(game, alpha, beta, low, high, counters, mistake)
        game.undo()
        if best is None or (value > best if maximising else value < best):
            best = value
        alpha, beta = (max(alpha, value), beta) if maximising else (alpha, min(beta, value))
        if alpha >= beta:
            break
    assert best is not None
    return best


def graded(skeleton: ModuleType, exercise: str, answer: Callable[..., Fraction]) -> GradeReport:
    """Return the report of the exercise's suite with ``answer`` filled in."""
    if exercise == "expectimax":
        skeleton.expectimax_value = answer
        return grade(skeleton.StudentExpectimax, *reversed(suite("expectimax")))
    skeleton.star1_value = answer
    return grade(skeleton.StudentStar1, *reversed(suite("star1")))


# ------------------------------------------------------------------------ the tests
@pytest.mark.parametrize(
    ("student", "name", "exercise", "tests", "points"),
    [
        ("StudentExpectimax", "expectimax", "exercise 1: write expectimax_value", 4, 6),
        ("StudentStar1", "star1", "exercise 2: write star1_value", 5, 7),
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
    assert_the_skeleton_fails(
        capsys,
        tmp_path,
        f"my_expectimax.py:{student}",
        name,
        exercise,
        tests,
        points,
        "Pig from the start",
    )


def test_a_right_expectimax_passes_every_test_node_for_node(skeleton: ModuleType) -> None:
    report = graded(skeleton, "expectimax", expectimax)
    assert (report.score, report.max_score) == (6, 6), report.summary()
    # the whole tree of the small Pig: 1,786 positions with the root, which is not generated
    assert (
        output_of(report, "Pig from the start")
        == "value 8/27, move roll, 1785 positions generated: as the reference"
    )
    assert (
        output_of(report, "three gambles")
        == "value 3/2, move bet, 12 positions generated: as the reference"
    )


def test_a_right_star1_passes_every_test_with_fewer_positions(skeleton: ModuleType) -> None:
    report = graded(skeleton, "star1", star1)
    assert (report.score, report.max_score) == (7, 7), report.summary()
    # D (3 positions) is skipped
    assert output_of(report, "a tree where Star1 cuts") == (
        "value 5/2, move go: as the reference; 11 positions generated, fewer than the reference's "
        "14"
    )
    assert output_of(report, "Pig from the start").startswith(
        "value 8/27, move roll: as the reference; "
    )
    assert output_of(report, "Pig from the start").endswith(
        " positions generated, fewer than the reference's 1785"
    )


@pytest.mark.parametrize(
    ("mistake", "name", "message"),
    [
        # the gambles are not equally likely: the plain mean prefers the dare
        (
            "uniform",
            "three gambles",
            (
                "its value is the plain mean of its outcomes' values: weigh each outcome "
                "by its probability (chance_outcomes())"
            ),
        ),
        (
            "min",
            "three gambles",
            (
                "its value is its smallest outcome's, as if chance were a player: a chance "
                "position is worth the probability-weighted mean of its outcomes"
            ),
        ),
        (
            "sign",
            "three gambles",
            "its value is the largest of its moves' values, where MIN takes the smallest",
        ),
        (
            "sign",
            "Pig, B to move",
            "its value is the largest of its moves' values, where B takes the smallest",
        ),
    ],
)
def test_the_usual_mistakes_in_expectimax_are_named_as_the_page_says(
    skeleton: ModuleType, mistake: str, name: str, message: str
) -> None:
    report = graded(
        skeleton, "expectimax", lambda game, counters: expectimax(game, counters, mistake)
    )
    assert message in output_of(report, name)
    assert message in PAGE.replace("\n", " ")


def test_an_expectimax_handed_in_for_star1_is_told_to_prune(skeleton: ModuleType) -> None:
    def no_pruning(
        game: Game[Any],
        alpha: Fraction,
        beta: Fraction,
        low: Fraction,
        high: Fraction,
        counters: Counters,
    ) -> Fraction:
        return expectimax(game, counters)

    report = graded(skeleton, "star1", no_pruning)
    message = (
        "1785 positions generated, the reference 1785: a pruning search generates fewer (at a "
        "chance position, "
        "stop once the outcomes left cannot bring the mean back inside the window)"
    )
    assert output_of(report, "Pig from the start") == message
    assert message in PAGE.replace("\n", " ")
    assert output_of(report, "three gambles").endswith(": as the reference")  # values only there


def test_a_star1_that_prunes_a_chance_position_as_a_players_is_caught_by_its_value(
    skeleton: ModuleType,
) -> None:
    # E's first outcome (0) is below alpha (2), but the mean may still rise above it
    report = graded(skeleton, "star1", lambda *args: star1(*args, mistake="player-window"))
    assert [result.name for result in report.results if not result.passed] == [
        "a tree where Star1 cuts"
    ]
    assert output_of(report, "a tree where Star1 cuts").startswith(
        "value 3, the reference 5/2; the values differ at the position itself (MAX to move); "
        "searched from each of "
        "its moves, the search agrees with the reference; inside its search, after go (MAX to "
        "move) is worth 3, "
        "the reference 5/2"
    )


def test_the_librarys_star2_passes_the_star1_suite_as_the_page_says() -> None:
    report = grade(Star2, *reversed(suite("star1")))
    assert (report.score, report.max_score) == (7, 7), report.summary()
    assert "gamesearch.search.expectimax:Star2`) passes the same suite" in PAGE.replace("\n", " ")


def expectimax_to_depth(
    game: Game[Any], depth: int, counters: Counters, mistake: str = ""
) -> Fraction:
    """Exercise 3 answered (``mistake``: "chance-costs" takes a move off for an outcome of chance
    too)."""
    counters.nodes += 1
    if game.result() is not None:
        return Fraction(game.result() or 0)
    if depth == 0:
        return Fraction(chance_heuristic(game.rules, game.evaluate(), type(game).evaluation_bound))
    at_chance = game.to_move() == CHANCE
    below = depth - 1 if not at_chance or mistake == "chance-costs" else depth
    values = []
    for move in game.legal_moves():
        game.push(move)
        values.append(expectimax_to_depth(game, below, counters, mistake))
        game.undo()
    if at_chance:
        return sum(
            (odds * value for (_, odds), value in zip(game.chance_outcomes(), values, strict=True)),
            Fraction(0),
        )
    return max(values) if game.to_move() == Player.FIRST else min(values)


def test_the_skeleton_fails_the_depth_suite_naming_exercise_three(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert_the_skeleton_fails(
        capsys,
        tmp_path,
        "my_expectimax.py:StudentExpectimaxToDepth",
        "expectimax-depth",
        "exercise 3: write expectimax_to_depth",
        3,
        5,
        "two rolls, two moves",
    )


def test_a_right_expectimax_to_a_depth_passes_every_test(skeleton: ModuleType) -> None:
    skeleton.expectimax_to_depth = expectimax_to_depth
    report = grade(skeleton.StudentExpectimaxToDepth, *reversed(suite("expectimax-depth")))
    assert (report.score, report.max_score) == (5, 5), report.summary()
    # D and E are searched with the one move left, F and G are worth their estimates
    assert (
        output_of(report, "two rolls, two moves")
        == "value 5/18, move go, 8 positions generated: as the reference"
    )


def test_an_outcome_of_chance_counted_as_a_move_is_named(skeleton: ModuleType) -> None:
    skeleton.expectimax_to_depth = lambda *args: expectimax_to_depth(*args, mistake="chance-costs")
    report = grade(skeleton.StudentExpectimaxToDepth, *reversed(suite("expectimax-depth")))
    message = (
        "the search goes 2 moves deep, the reference 3: does it count an outcome of chance as a "
        "move? The depth "
        "counts the players' moves only"
    )
    assert output_of(report, "two rolls, two moves").endswith(message) and message in PAGE.replace(
        "\n", " "
    )
    assert all(
        result.output.endswith(message[message.index(": does it") :]) for result in report.results
    )
