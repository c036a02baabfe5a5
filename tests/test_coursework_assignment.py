"""The sample assignment in docs/coursework/assignment/, graded end to end as Gradescope would.

A submission is the starter file ``docs/coursework/my_searcher.py`` with its three
exercises written here: rightly (every point), with one planted bug (points lost on
that bug's question, the other question's kept), or hostile (0 on the question it is
in, the grader and the other question unharmed).
"""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest

from tests.clirun import run_cli

ROOT = Path(__file__).resolve().parent.parent
STARTER = ROOT / "docs" / "coursework" / "my_searcher.py"
ASSIGNMENT = ROOT / "docs" / "coursework" / "assignment" / "assignment.toml"

#: exercise 1, written rightly; each bug below replaces one of its lines
MINIMAX = """\
    counters.nodes += 1
    if game.is_over():
        return proven_value(game, scoring)
    values = []
    for move in list(game.legal_moves()):
        game.push(move)
        values.append(minimax_value(game, scoring, counters))
        game.undo()
    return max(values) if game.to_move() == Player.FIRST else min(values)
"""

#: exercise 2, written rightly
ALPHABETA = """\
    counters.nodes += 1
    if game.is_over():
        return proven_value(game, scoring)
    first = game.to_move() == Player.FIRST
    best = -INFINITY if first else INFINITY
    for move in list(game.legal_moves()):
        game.push(move)
        value = alphabeta_value(game, alpha, beta, scoring, counters)
        game.undo()
        if first:
            best = max(best, value)
            alpha = max(alpha, best)
        else:
            best = min(best, value)
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best
"""

#: the order a depth-limited search looks at a position in, and the same order reversed
#: (a finished game at the horizon is then evaluated instead of scored)
HORIZON = """\
    if game.is_over():
        return proven_value(game, scoring)
    if depth == 0:
        return evaluation(game)
"""
EVALUATED_FIRST = """\
    if depth == 0:
        return evaluation(game)
    if game.is_over():
        return proven_value(game, scoring)
"""
#: exercise 3, written rightly: exercise 2 with a horizon
DEPTH_LIMITED = ALPHABETA.replace(
    "    if game.is_over():\n        return proven_value(game, scoring)\n", HORIZON
).replace("alphabeta_value(game, alpha, beta,", "depth_limited_value(game, depth - 1, alpha, beta,")
MOVERS_EVALUATION = "return evaluation(game) * (1 if game.to_move() == Player.FIRST else -1)"

LOOP = "for move in list(game.legal_moves()):"
SCORE = "return proven_value(game, scoring)"
MOVERS = "return proven_value(game, scoring) * (1 if game.to_move() == Player.FIRST else -1)"
NO_UNDO = ("        game.undo()\n    return max", "        pass\n    return max")
AB_LOOP = LOOP + "\n        game.push(move)\n        value"

#: (the bug, the question it belongs to, the line it changes, what it becomes)
BUGS = [
    ("max and min swapped", 1, "max(values) if", "min(values) if"),
    ("a finished game worth 0", 1, SCORE, "return 0"),
    ("the raw result, not the score", 1, SCORE, "return game.result()"),
    ("only the first move", 1, LOOP, LOOP.replace("()):", "())[:1]:")),
    ("moves in reverse order", 1, LOOP, LOOP.replace("()):", "())[::-1]:")),
    ("no undo", 1, *NO_UNDO),
    ("the mover's point of view", 1, SCORE, MOVERS),
    ("prunes only once alpha > beta", 2, "if alpha >= beta:", "if alpha > beta:"),
    ("never prunes", 2, "if alpha >= beta:", "if False:"),
    ("alpha never raised", 2, "alpha = max(alpha, best)", "alpha = alpha"),
    ("beta never lowered", 2, "beta = min(beta, best)", "beta = beta"),
    ("alpha-beta's moves reversed", 2, AB_LOOP, AB_LOOP.replace("()):", "())[::-1]:")),
    ("the window passed swapped", 2, "(game, alpha, beta,", "(game, beta, alpha,"),
    ("the depth off by one", 3, "if depth == 0:", "if depth == 1:"),
    ("the evaluation from the mover's side", 3, "return evaluation(game)", MOVERS_EVALUATION),
    ("a finished game evaluated at the horizon", 3, HORIZON, EVALUATED_FIRST),
]
#: the question of each exercise, and its points
EXERCISES = {1: MINIMAX, 2: ALPHABETA, 3: DEPTH_LIMITED}
POINTS = {1: 4.0, 2: 6.0, 3: 5.0}


def written(
    minimax: str = MINIMAX,
    alphabeta: str = ALPHABETA,
    top: str = "",
    depth_limited: str = DEPTH_LIMITED,
) -> str:
    """Return the starter file with its exercises written as ``minimax``, ``alphabeta`` and
    ``depth_limited``."""
    text = STARTER.read_text()
    raising = (
        "    counters.nodes += 1\n"
        '    raise NotImplementedError("exercise {}: write {} in my_searcher.py")\n'
    )
    names = ("minimax_value", "alphabeta_value", "depth_limited_value")
    for number, (name, body) in enumerate(
        zip(names, (minimax, alphabeta, depth_limited), strict=True), 1
    ):
        exercise = raising.format(number, name)
        assert exercise in text, name
        text = text.replace(exercise, body)
    text = text.replace(
        "\nfrom gamesearch.search.base",
        "\nfrom gamesearch.rules import proven_value\nfrom gamesearch.search.base",
        1,
    )
    return text.replace("\n\ndef evaluation", f"\n{top}\n\ndef evaluation", 1)


def grade_submission(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, assignment: Path = ASSIGNMENT
) -> list[dict[str, object]]:
    """Return the tests of results.json for a submission of ``text`` as my_searcher.py,
    graded on ``assignment`` (default: the sample's)."""
    submission = tmp_path / "submission"
    submission.mkdir()
    (submission / "my_searcher.py").write_text(text)
    results = tmp_path / "results.json"
    status, _, err = run_cli(
        capsys,
        "grade",
        "--assignment",
        str(assignment),
        "--submission",
        str(submission),
        "--results",
        str(results),
    )
    assert status in (0, 1), err
    assert sorted(path.name for path in submission.iterdir()) == ["my_searcher.py"]
    tests = json.loads(results.read_text())["tests"]
    assert isinstance(tests, list)
    return tests


def points(tests: list[dict[str, object]], question: int) -> tuple[float, float]:
    mine = [test for test in tests if str(test["number"]).startswith(f"{question}.")]
    return (
        sum(float(str(test["score"])) for test in mine),
        sum(float(str(test["max_score"])) for test in mine),
    )


@pytest.mark.slow
def test_the_right_solution_gets_every_point(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tests = grade_submission(tmp_path, capsys, written())
    assert [points(tests, question) for question in (1, 2, 3)] == [
        (4.0, 4.0),
        (6.0, 6.0),
        (5.0, 5.0),
    ]
    assert [test["visibility"] for test in tests].count("after_due_date") == 6


@pytest.mark.slow
@pytest.mark.parametrize(("bug", "question", "line", "changed"), BUGS, ids=[b[0] for b in BUGS])
def test_each_planted_bug_loses_points_on_its_question_only(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    bug: str,
    question: int,
    line: str,
    changed: str,
) -> None:
    exercise = EXERCISES[question]
    assert line in exercise and line != changed, bug
    mistaken = exercise.replace(line, changed, 1)
    name = {1: "minimax", 2: "alphabeta", 3: "depth_limited"}[question]
    tests = grade_submission(tmp_path, capsys, written(**{name: mistaken}))
    scored, most = points(tests, question)
    assert scored < most, (bug, tests)
    for other in {1, 2, 3} - {question}:
        assert points(tests, other) == (POINTS[other], POINTS[other]), (bug, tests)


#: hostile code put in exercise 1 only: question 1 gets 0, the others every point
HOSTILE = {
    "os._exit in the search": "    import os\n    os._exit(3)\n",
    "sys.exit in the search": "    import sys\n    sys.exit(0)\n",
    "a search that never ends": "    while True:\n        pass\n",
    "a print per node without end": "    while True:\n        print('x' * 10000)\n",
    "the grader's environment": "    import os\n    raise RuntimeError(os.environ.get('HOME'))\n",
    "the reference searcher": (
        "    from gamesearch import default_registry\n"
        "    return default_registry().new_searcher('textbook-minimax').search(game).value\n"
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("hostile", sorted(HOSTILE))
def test_hostile_code_in_one_question_costs_that_question_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], hostile: str
) -> None:
    minimax = HOSTILE[hostile] + MINIMAX
    # code that never returns makes each of question 1's tests wait out its time limit:
    # a copy of the assignment gives them 2 s instead of 10 (question 2 keeps its 10)
    copy = tmp_path / "assignment"
    shutil.copytree(ASSIGNMENT.parent, copy)
    suite = copy / "q1-minimax.toml"
    assert "\ntime_limit = 10\n" in suite.read_text()
    suite.write_text(suite.read_text().replace("\ntime_limit = 10\n", "\ntime_limit = 2\n"))
    tests = grade_submission(tmp_path, capsys, written(minimax=minimax), copy / ASSIGNMENT.name)
    assert points(tests, 1) == (0.0, 4.0), tests
    assert points(tests, 2) == (6.0, 6.0) and points(tests, 3) == (5.0, 5.0), tests
    assert all(test["output"] for test in tests)


@pytest.mark.slow
def test_an_exit_at_import_gets_zero_everywhere_and_results_are_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    top = textwrap.dedent(
        """
        import os
        os._exit(3)
        """
    )
    tests = grade_submission(tmp_path, capsys, written(top=top))
    assert [points(tests, question) for question in (1, 2, 3)] == [
        (0.0, 4.0),
        (0.0, 6.0),
        (0.0, 5.0),
    ]
    assert all("exit status 3" in str(test["output"]) for test in tests)
