"""The coursework skeleton and its checks: the skeleton fails them with the exercise to do,
a wrong answer is caught by the kit, and the plumbing around the exercises is right."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from gamesearch import Game, Minimax, Player, Scoring
from gamesearch.cli.grade import load_suite
from gamesearch.errors import ConformanceError
from gamesearch.rules import proven_value
from gamesearch.search.base import INFINITY, Counters
from gamesearch.testing import check_searcher, random_positions
from gamesearch.testing.grading import Case, GradeReport, grade
from tests.clirun import run_cli

COURSEWORK = Path(__file__).resolve().parent.parent / "docs" / "coursework"


@pytest.fixture()
def skeleton(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """Return a fresh import of the skeleton (each test may fill in its exercises)."""
    monkeypatch.syspath_prepend(str(COURSEWORK))
    monkeypatch.delitem(sys.modules, "my_searcher", raising=False)
    return importlib.import_module("my_searcher")


@pytest.mark.slow
def test_the_skeleton_fails_the_checks_naming_the_first_exercise() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-x",
            "-q",
            "-p",
            "no:cacheprovider",
            str(COURSEWORK / "check_my_searcher.py"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "NotImplementedError: exercise 1: write minimax_value" in run.stdout


def test_the_skeleton_checks_exercise_two_with_its_own_message(skeleton: ModuleType) -> None:
    game = random_positions("tictactoe", count=1, seed=3, max_plies=2)[0]
    with pytest.raises(NotImplementedError, match="exercise 2: write alphabeta_value"):
        skeleton.StudentSearcher().search(game)


def minimax_by_the_library(game: Game[Any], scoring: Scoring, counters: Counters) -> int:
    return Minimax(scoring=scoring).search(game).value


@pytest.mark.slow
def test_the_searcher_around_the_exercises_agrees_with_minimax_given_correct_values(
    skeleton: ModuleType,
) -> None:
    skeleton.minimax_value = minimax_by_the_library
    sample = random_positions("tictactoe", count=40, seed=5, max_plies=9)
    report = check_searcher(skeleton.StudentSearcher(pruning=False), sample)
    assert report.positions == 40


def test_values_from_the_side_to_move_instead_of_the_first_player_are_caught(
    skeleton: ModuleType,
) -> None:
    def side_to_move_view(game: Game[Any], scoring: Scoring, counters: Counters) -> int:
        return minimax_by_the_library(game, scoring, counters) * game.to_move().sign

    skeleton.minimax_value = side_to_move_view
    sample = random_positions("tictactoe", count=40, seed=5, max_plies=9)
    with pytest.raises(
        ConformanceError,
        match=r"searcher 'student' disagrees with minimax on tictactoe .*: value -?\d+, minimax "
        r"-?\d+",
    ):
        check_searcher(skeleton.StudentSearcher(pruning=False), sample)


# ------------------------------------------------------------ graded by gamesearch grade
PAGE = (COURSEWORK.parent / "coursework.md").read_text().replace("\n", " ")


def suite(name: str) -> tuple[str, list[Case]]:
    """Return the reference and the tests of the suite ``grading/NAME.toml``, as the command
    reads them."""
    return load_suite(COURSEWORK / "grading" / f"{name}.toml")


def output_of(report: GradeReport, name: str) -> str:
    """Return what the grader says of the test ``name`` of ``report``."""
    return next(result.output for result in report.results if result.name == name)


def assert_the_skeleton_fails(
    capsys: pytest.CaptureFixture[str],
    folder: Path,
    student: str,
    name: str,
    exercise: str,
    tests: int,
    points: int,
    first: str,
) -> None:
    """Grade ``student`` (``FILE.py:Class`` of the coursework) on the suite ``name`` with the
    command, as shipped: every test fails with the exercise to do, nothing is scored, and
    the results are written as Gradescope reads them."""
    results = folder / "results.json"
    status, out, err = run_cli(
        capsys,
        "grade",
        str(COURSEWORK / student),
        "--suite",
        str(COURSEWORK / "grading" / f"{name}.toml"),
        "--results",
        str(results),
    )
    assert status == 1, err
    data = json.loads(results.read_text())
    assert data["score"] == 0 and len(data["tests"]) == tests
    file = student.split(":")[0]
    assert all(
        test["output"].startswith(f"NotImplementedError: {exercise} in {file}")
        for test in data["tests"]
    )
    assert f"0 of {points} points, 0 of {tests} tests passed; first difference in {first!r}" in out


def minimax(game: Game[Any], scoring: Scoring, counters: Counters, mistake: str = "") -> int:
    """Exercise 1 answered (``mistake``: "sign" gives values from the side to move's point of
    view)."""
    counters.nodes += 1
    if game.is_over():
        value = proven_value(game, scoring)
        return -value if mistake == "sign" and game.to_move() == Player.SECOND else value
    values = []
    for move in game.legal_moves():
        game.push(move)
        values.append(minimax(game, scoring, counters, mistake))
        game.undo()
    value = max(values) if game.to_move() == Player.FIRST else min(values)
    return value


def alphabeta(
    game: Game[Any],
    alpha: float,
    beta: float,
    scoring: Scoring,
    counters: Counters,
    mistake: str = "",
) -> float:
    """Exercise 2 answered (``mistake``: "strict" prunes only once alpha > beta)."""
    counters.nodes += 1
    if game.is_over():
        return proven_value(game, scoring)
    maximising = game.to_move() == Player.FIRST
    best = -INFINITY if maximising else INFINITY
    for move in game.legal_moves():
        game.push(move)
        value = alphabeta(game, alpha, beta, scoring, counters, mistake)
        game.undo()
        if maximising:
            best, alpha = max(best, value), max(alpha, value)
        else:
            best, beta = min(best, value), min(beta, value)
        if alpha > beta or (alpha == beta and mistake != "strict"):
            break
    return best


@pytest.mark.parametrize(
    ("student", "name", "exercise", "tests", "first"),
    [
        ("StudentMinimax", "minimax", "exercise 1: write minimax_value", 4, "AIMA Figure 5.2"),
        ("StudentSearcher", "alphabeta", "exercise 2: write alphabeta_value", 5, "AIMA Figure 5.2"),
        (
            "StudentDepthLimited",
            "depth-limited",
            "exercise 3: write depth_limited_value",
            5,
            "a tree, one move deep",
        ),
    ],
)
def test_the_skeleton_fails_its_suites_naming_the_exercise(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    student: str,
    name: str,
    exercise: str,
    tests: int,
    first: str,
) -> None:
    assert_the_skeleton_fails(
        capsys, tmp_path, f"my_searcher.py:{student}", name, exercise, tests, tests + 2, first
    )


def test_right_answers_pass_both_suites_node_for_node(skeleton: ModuleType) -> None:
    skeleton.minimax_value = minimax
    skeleton.alphabeta_value = alphabeta
    for student, name in (
        (skeleton.StudentMinimax, "minimax"),
        (skeleton.StudentSearcher, "alphabeta"),
    ):
        reference, cases = suite(name)
        report = grade(student, cases, reference)
        points = len(cases) + 2  # two tests of two points each
        assert (report.score, report.max_score) == (points, points), report.summary()


#: the alpha-beta suite's test of AIMA Figure 5.5 (one window for the root moves)
FIGURE_5_5 = "AIMA Figure 5.5: one window shared by the root moves"


def test_a_minimax_handed_in_as_alphabeta_scores_0_on_figure_5_5(skeleton: ModuleType) -> None:
    # exercise 2 answered with exercise 1: no pruning at all
    skeleton.alphabeta_value = lambda game, alpha, beta, scoring, counters: minimax(
        game, scoring, counters
    )
    reference, cases = suite("alphabeta")
    report = grade(skeleton.StudentSearcher, cases, reference)
    result = next(result for result in report.results if result.name == FIGURE_5_5)
    assert (result.score, result.passed) == (0, False), result.output
    # C's first leaf (2) is below B's 3: the reference cuts c2 and c3, the minimax does not
    assert result.output.startswith(
        "12 positions generated, the reference 10; generated position 7 is after a2 c2, the "
        "reference's after a3"
    ), result.output
    # the right alpha-beta passes it, with the textbook's value
    skeleton.alphabeta_value = alphabeta
    right = grade(skeleton.StudentSearcher, cases, reference)
    passed = next(result for result in right.results if result.name == FIGURE_5_5)
    assert passed.passed and passed.output.startswith("value 3, move a1"), passed.output


def test_an_alphabeta_that_prunes_only_once_alpha_exceeds_beta_is_caught(
    skeleton: ModuleType,
) -> None:
    skeleton.alphabeta_value = lambda *args: alphabeta(*args, mistake="strict")
    reference, cases = suite("alphabeta")
    report = grade(skeleton.StudentSearcher, cases, reference)
    failure = report.first_failure
    assert failure is not None and failure.name == "tic-tac-toe, O to move"
    message = (
        "the search generates positions the reference skips: does it miss cut-offs (or prune only "
        "once "
        "alpha > beta where the reference prunes on equality)?"
    )
    assert failure.output.endswith(message) and message in PAGE


def test_a_minimax_with_values_from_the_side_to_move_is_caught_with_its_sign(
    skeleton: ModuleType,
) -> None:
    skeleton.minimax_value = lambda *args: minimax(*args, mistake="sign")
    reference, cases = suite("minimax")
    report = grade(skeleton.StudentMinimax, cases, reference)
    output = next(
        result.output
        for result in report.results
        if result.name == "tic-tac-toe, two moves from the end"
    )
    # O's move 8 wins for X: the finished position, O to move, is scored for O
    message = (
        "inside its search, after 7 6 8 (O to move) is worth -991, the reference 991: the opposite "
        "sign: a finished "
        "game's value is from the first player's point of view, whoever is to move"
    )
    assert message in output and message in PAGE
