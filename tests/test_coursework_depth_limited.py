"""Exercise 3 of the coursework, graded: alpha-beta to a depth with the game's evaluation
(``grading/depth-limited.toml``, against textbook-alphabeta with the same depth). The right
solution gets every point; each of the three usual bugs loses points with the hint that
names it (the depth off by one, the evaluation from the mover's side, a finished game
evaluated at the horizon instead of scored)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamesearch import default_registry
from gamesearch.cli.grade import load_suite
from gamesearch.testing.grading import GradeReport, grade, load_searcher_class
from tests.test_coursework_assignment import (
    DEPTH_LIMITED,
    EVALUATED_FIRST,
    HORIZON,
    MOVERS_EVALUATION,
    written,
)

SUITE = Path(__file__).resolve().parent.parent / "docs" / "coursework" / "grading"


def graded(tmp_path: Path, depth_limited: str = DEPTH_LIMITED) -> GradeReport:
    """Return the report of the starter file with exercise 3 written as ``depth_limited``."""
    path = tmp_path / "my_searcher.py"
    path.write_text(written(depth_limited=depth_limited))
    reference, cases = load_suite(SUITE / "depth-limited.toml")
    return grade(load_searcher_class(f"{path}:StudentDepthLimited"), cases, reference)


def output(report: GradeReport, name: str) -> str:
    (result,) = [result for result in report.results if result.name == name]
    assert not result.passed and result.score == 0, result
    return result.output


def test_the_right_solution_gets_every_point(tmp_path: Path) -> None:
    report = graded(tmp_path)
    assert report.score == report.max_score == 7, report.summary()
    # the reference's value where a game ends at the horizon is the game's score
    assert [result.output for result in report.results][2] == (
        "value 995, move 2, 5 positions generated: as the reference"
    )


def test_a_depth_off_by_one_is_told_so(tmp_path: Path) -> None:
    report = graded(tmp_path, DEPTH_LIMITED.replace("if depth == 0:", "if depth == 1:"))
    assert report.score == 0, report.summary()
    found = output(report, "tic-tac-toe, O to move, two moves deep")
    assert found.startswith("value -2, the reference 5;"), found
    assert (
        "the search goes 1 move deep, the reference 2: is the depth off by one? depth=2 "
        "searches 2 moves below the position, and a position there is scored by its evaluation"
    ) in found, found


def test_an_evaluation_from_the_movers_side_is_named_at_the_horizon(tmp_path: Path) -> None:
    report = graded(tmp_path, DEPTH_LIMITED.replace("return evaluate(game)", MOVERS_EVALUATION))
    # the trees two moves deep and the win at the horizon have MAX to move at the horizon
    assert report.score == 2, report.summary()
    found = output(report, "a tree, one move deep")
    assert found == (
        "value -1, the reference 6; the values differ at the position itself (MAX to move); "
        "after a1 the depth is spent: the reference scores that position by its evaluation, "
        "1 (value 1), the search gives it -1 (the opposite sign: an evaluation is from the "
        "first player's point of view, whoever is to move): does the search stop there and "
        "score it by its evaluation (context.horizon_value(game), or evaluation(game) in the "
        "starter file)?; move a1 is not among the reference's best "
        "moves (a2)"
    ), found
    found = output(report, "tic-tac-toe, O to move, two moves deep")
    assert "after 8 1 the depth is spent" in found and "the search gives it -4 (the opposite" in (
        found
    ), found


def test_a_finished_game_evaluated_at_the_horizon_is_told_to_be_scored(tmp_path: Path) -> None:
    report = graded(tmp_path, DEPTH_LIMITED.replace(HORIZON, EVALUATED_FIRST))
    assert report.score == 3, report.summary()
    found = output(report, "tic-tac-toe, a win at the horizon")
    assert found == (
        "value 6, the reference 995; the values differ at the position itself (X to move); "
        "after 2 the game is over: the reference scores it as a finished game (value 995), "
        "the search gives it 6, its evaluation (6): does the search look at the depth before "
        "it looks whether the game is over? A finished game is scored, whatever the depth left"
    ), found
    found = output(report, "a tree, two moves deep: games end at the horizon")
    assert "after a1 b1 the game is over: the reference scores it as a finished game (value 4)" in (
        found
    ), found


@pytest.mark.parametrize(("depth", "values"), [(1, {"a1": 1, "a2": 6}), (2, {"a1": 3, "a2": 2})])
def test_the_horizon_trees_values_are_the_hand_worked_ones(
    depth: int, values: dict[str, int]
) -> None:
    # worked by hand from docs/coursework/trees/horizon.txt: one move deep B and C are
    # worth their evaluations (1, 6); two moves deep B = min(4, D's evaluation 3) and
    # C = min(E's evaluation 5, 2), the leaves 4 and 2 ending the game at the horizon
    _, cases = load_suite(SUITE / "depth-limited.toml")
    case = cases[depth - 1]
    assert case.options == {"depth": depth}
    reference = default_registry().new_searcher("textbook-alphabeta", depth=depth)
    result = reference.search(case.position, move_values=True)
    assert dict(result.move_values or ()) == values
