"""Exercise 4 of the coursework, graded: the student's own Connect Four evaluation at the
horizon of their depth-limited search (``grading/evaluation.toml``). The right solution
gets every point; each planted bug loses points with a message that names it, whether it
is in the evaluation (the mover's point of view, weights that are not mirror images, a
float, values beyond a won game's, a move left played) or in how the search calls it
(never, on a finished game, before the horizon, at some horizon positions only). The
reference searches with the values the student's evaluation gave, in the grader's own
process, which never imports the student's file."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gamesearch.cli.grade import load_suite
from gamesearch.errors import InvalidOptionError
from gamesearch.testing.grading import GradeReport, StudentFile, grade, load_searcher_class
from tests.test_coursework_assignment import (
    BUGS,
    DEPTH_LIMITED,
    EVALUATED_FIRST,
    EVALUATION,
    HORIZON,
    written,
)

SUITE = Path(__file__).resolve().parent.parent / "docs" / "coursework" / "grading"
#: the suite's tests, by what they ask
FROM_THE_START = "Connect Four 5x4 from the start, two moves deep"
AT_THE_HORIZON = "a win at the horizon, two moves deep"
MIDDLE_GAME = "the middle game, three moves deep"
X_AHEAD = "X plainly ahead, O to move: a positive value"
O_AHEAD = "O plainly ahead, X to move: a negative value"
MIRROR = "a position and its mirror image: the same value"
SEARCHES = (FROM_THE_START, AT_THE_HORIZON, MIDDLE_GAME)


def graded(
    tmp_path: Path, evaluation: str = EVALUATION, depth_limited: str = DEPTH_LIMITED
) -> GradeReport:
    """Return the report of the starter file with exercises 3 and 4 written so."""
    path = tmp_path / "my_searcher.py"
    path.write_text(written(depth_limited=depth_limited, evaluation=evaluation))
    reference, cases = load_suite(SUITE / "evaluation.toml")
    return grade(load_searcher_class(f"{path}:StudentEvaluated"), cases, reference)


def failed(report: GradeReport) -> dict[str, str]:
    """Return the output of each test ``report`` failed, by name."""
    return {result.name: result.output for result in report.results if not result.passed}


@pytest.mark.slow
def test_the_right_solution_gets_every_point(tmp_path: Path) -> None:
    report = graded(tmp_path)
    assert report.score == report.max_score == 7, report.summary()
    outputs = [result.output for result in report.results]
    assert outputs[2] == "value 3, move 2, 118 positions generated: as the reference"
    assert outputs[3] == "my_evaluation() gives '...../...../.O.O./.XXX.' 5: as it should"


@pytest.mark.slow
def test_the_sandboxed_file_gets_every_point_and_never_enters_the_grader(tmp_path: Path) -> None:
    path = tmp_path / "my_searcher.py"
    path.write_text(written())
    reference, cases = load_suite(SUITE / "evaluation.toml")
    report = grade(StudentFile(str(path), "StudentEvaluated"), cases, reference)
    assert report.score == report.max_score == 7, report.summary()
    # the reference searched with the recorded values: the student's file was not imported
    assert not [
        module
        for module in list(sys.modules.values())
        if str(getattr(module, "__file__", None) or "").startswith(str(tmp_path))
    ]


#: each planted bug of exercise 4: the tests it fails, and what the first one says
EXPECTED = {
    "the evaluation from the mover's side": (
        {X_AHEAD},
        "my_evaluation() gives '...../...../.O.O./.XXX.' (O to move) -5, but X is plainly "
        "ahead there: the value must be positive. An evaluation is from the first player's "
        "point of view, whoever is to move",
    ),
    "weights that are not mirror images": (
        {MIRROR},
        "my_evaluation() gives '...../...../.X.../OXO.X' 5 but its mirror image "
        "'...../...../...X./X.OXO' 1: a position and its mirror image are worth the same",
    ),
    "a value that is not an int": (
        {*SEARCHES, X_AHEAD, O_AHEAD, MIRROR},
        "TypeError: my_evaluation() returned 0.0 (a float): an evaluation returns an int",
    ),
    "values beyond a won game's": (
        {*SEARCHES, X_AHEAD, O_AHEAD, MIRROR},
        "my_evaluation() returned -2000 (after 1 2), outside the range of an evaluation of "
        "this game: it must stay strictly between -950 and 950, the values of a lost and of "
        "a won game",
    ),
    "a move left played": (
        set(SEARCHES),
        "the search leaves the position it was given ('') changed",
    ),
}


@pytest.mark.parametrize(
    ("bug", "line", "changed"),
    [bug[::2] + bug[3:] for bug in BUGS if bug[1] == 4],
    ids=[bug[0] for bug in BUGS if bug[1] == 4],
)
def test_each_bug_of_the_evaluation_loses_points_and_is_named(
    tmp_path: Path, bug: str, line: str, changed: str
) -> None:
    report = graded(tmp_path, EVALUATION.replace(line, changed, 1))
    names, first = EXPECTED[bug]
    outputs = failed(report)
    assert set(outputs) == names, report.summary()
    assert next(iter(outputs.values())).startswith(first), outputs


def test_a_search_that_never_calls_the_evaluation_it_is_given_is_told_so(tmp_path: Path) -> None:
    ignoring = DEPTH_LIMITED.replace("return evaluate(game)", "return evaluation(game)")
    outputs = failed(graded(tmp_path, depth_limited=ignoring))
    assert set(outputs) == set(SEARCHES)
    assert outputs[FROM_THE_START] == (
        "the search never called my_evaluation(), though the reference evaluates the "
        "position after 1 1 at its horizon: does the search score a position reached with no "
        "depth left with the evaluation it is given (my_evaluation)?"
    )


def test_a_finished_game_evaluated_at_the_horizon_is_named(tmp_path: Path) -> None:
    outputs = failed(
        graded(tmp_path, depth_limited=DEPTH_LIMITED.replace(HORIZON, EVALUATED_FIRST))
    )
    assert set(outputs) == {AT_THE_HORIZON}, outputs  # (O blocks or X wins: 1 5 wins)
    assert outputs[AT_THE_HORIZON].startswith(
        "the search called my_evaluation() on a finished game (after 1 5): a finished game is "
        "scored by its result, whatever the depth left"
    ), outputs


def test_an_evaluation_before_the_horizon_is_named(tmp_path: Path) -> None:
    early = DEPTH_LIMITED.replace("if depth == 0:", "if depth == 1:")
    outputs = failed(graded(tmp_path, depth_limited=early))
    assert set(outputs) == set(SEARCHES), outputs
    assert outputs[FROM_THE_START] == (
        "the search called my_evaluation() 1 move deep (after 1), before its horizon at depth "
        "2: only a position reached with no depth left is evaluated; the others are searched"
    )


def test_horizon_positions_left_unevaluated_are_named(tmp_path: Path) -> None:
    # my_evaluation while the first column is empty, the game's own evaluation after
    some = DEPTH_LIMITED.replace(
        "return evaluate(game)",
        'return (evaluate if game.cell(0, 0) == "." else evaluation)(game)',
    )
    outputs = failed(graded(tmp_path, depth_limited=some))
    assert outputs[FROM_THE_START] == (
        "the reference evaluates the position after 1 1 at its horizon, but the search never "
        "called my_evaluation() there (9 such positions): does it evaluate every unfinished "
        "position it reaches with no depth left?"
    ), outputs


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ("sign = 1", r"test 1 \('t'\): 'sign' and 'same_as' check an 'evaluation': name it"),
        ('evaluation = "f"\nsign = 2', r"test 1 \('t'\): 'sign' must be 1 or -1: 2"),
        ('evaluation = "f"\nsign = true', r"test 1 \('t'\): 'sign' must be 1 or -1: True"),
    ],
)
def test_a_suite_checking_an_evaluation_wrongly_is_refused(
    tmp_path: Path, settings: str, message: str
) -> None:
    suite = tmp_path / "suite.toml"
    suite.write_text(f'[[test]]\nname = "t"\ngame = "tictactoe"\n{settings}\n')
    with pytest.raises(InvalidOptionError, match=message):
        load_suite(suite)
