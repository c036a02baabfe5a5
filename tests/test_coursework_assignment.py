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
        return evaluate(game)
"""
EVALUATED_FIRST = """\
    if depth == 0:
        return evaluate(game)
    if game.is_over():
        return proven_value(game, scoring)
"""
#: exercise 3, written rightly: exercise 2 with a horizon
DEPTH_LIMITED = (
    ALPHABETA.replace(
        "    if game.is_over():\n        return proven_value(game, scoring)\n", HORIZON
    )
    .replace(
        "alphabeta_value(game, alpha, beta,", "depth_limited_value(game, depth - 1, alpha, beta,"
    )
    .replace("scoring, counters)", "scoring, counters, evaluate)")
)
MOVERS_EVALUATION = "return evaluate(game) * (1 if game.to_move() == Player.FIRST else -1)"

#: exercise 4, written rightly: Connect Four's stones weighted by how central their column
#: is (the same for a column and its mirror image), X's counted up and O's down
EVALUATION = """\
    width, height = game.settings["width"], game.settings["height"]
    value = 0
    for col in range(width):
        weight = width - abs(2 * col - (width - 1))
        for row in range(height):
            mark = game.cell(col, row)
            if mark == "X":
                value += weight
            elif mark == "O":
                value -= weight
    return value
"""

LOOP = "for move in list(game.legal_moves()):"
SCORE = "return proven_value(game, scoring)"
MOVERS = "return proven_value(game, scoring) * (1 if game.to_move() == Player.FIRST else -1)"
NO_UNDO = ("        game.undo()\n    return max", "        pass\n    return max")
AB_LOOP = LOOP + "\n        game.push(move)\n        value"

WEIGHT = "weight = width - abs(2 * col - (width - 1))"
MOVERS_VALUE = "    return value if game.to_move() == Player.FIRST else -value\n"

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
    ("the evaluation from the mover's side", 3, "return evaluate(game)", MOVERS_EVALUATION),
    ("a finished game evaluated at the horizon", 3, HORIZON, EVALUATED_FIRST),
    ("the evaluation from the mover's side", 4, "    return value\n", MOVERS_VALUE),
    ("weights that are not mirror images", 4, WEIGHT, "weight = col + 1"),
    ("a value that is not an int", 4, "    return value\n", "    return value / 2\n"),
    ("values beyond a won game's", 4, "    return value\n", "    return value * 1000\n"),
    (
        "a move left played",
        4,
        "    value = 0\n",
        "    value = 0\n    game.push(game.legal_moves()[0])\n",
    ),
]
#: the question of each exercise, and its points
EXERCISES = {1: MINIMAX, 2: ALPHABETA, 3: DEPTH_LIMITED, 4: EVALUATION}
POINTS = {1: 4.0, 2: 6.0, 3: 5.0, 4: 7.0}
#: the questions whose points a bug in another may cost: question 4 searches with
#: exercise 3's function
USES = {3: {4}}


def written(
    minimax: str = MINIMAX,
    alphabeta: str = ALPHABETA,
    top: str = "",
    depth_limited: str = DEPTH_LIMITED,
    evaluation: str = EVALUATION,
) -> str:
    """Return the starter file with its exercises written as ``minimax``, ``alphabeta``,
    ``depth_limited`` and ``evaluation``."""
    text = STARTER.read_text()
    raising = (
        "    counters.nodes += 1\n"
        '    raise NotImplementedError("exercise {}: write {} in my_searcher.py")\n'
    )
    names = ("minimax_value", "alphabeta_value", "depth_limited_value", "my_evaluation")
    for number, (name, body) in enumerate(
        zip(names, (minimax, alphabeta, depth_limited, evaluation), strict=True), 1
    ):
        exercise = raising.format(number, name)
        if name == "my_evaluation":  # (it counts no nodes)
            exercise = exercise.replace("    counters.nodes += 1\n", "")
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


def of_question(tests: list[dict[str, object]], question: int) -> list[dict[str, object]]:
    """Return the tests of question ``question`` (named ``Qn ...`` in the sample)."""
    return [test for test in tests if str(test["name"]).startswith(f"Q{question} ")]


def points(tests: list[dict[str, object]], question: int) -> tuple[float, float]:
    mine = of_question(tests, question)
    return (
        sum(float(str(test["score"])) for test in mine),
        sum(float(str(test["max_score"])) for test in mine),
    )


@pytest.mark.slow
def test_the_right_solution_gets_every_point(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tests = grade_submission(tmp_path, capsys, written())
    assert [points(tests, question) for question in (1, 2, 3, 4)] == [
        (4.0, 4.0),
        (6.0, 6.0),
        (5.0, 5.0),
        (7.0, 7.0),
    ], tests
    assert [test["visibility"] for test in tests].count("after_due_date") == 9


@pytest.mark.slow
def test_a_search_that_ignores_the_evaluation_it_is_given_costs_question_4_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # exercise 3 stays right with the game's evaluation, but question 4's is never called
    ignoring = DEPTH_LIMITED.replace("return evaluate(game)", "return evaluation(game)")
    tests = grade_submission(tmp_path, capsys, written(depth_limited=ignoring))
    assert [points(tests, question) for question in (1, 2, 3)] == [
        (4.0, 4.0),
        (6.0, 6.0),
        (5.0, 5.0),
    ], tests
    searched = [test for test in tests if str(test["number"]) in ("4.1", "4.2", "4.3")]
    assert all(test["score"] == 0 for test in searched), tests
    assert "the search never called my_evaluation()" in str(searched[0]["output"])
    assert points(tests, 4) == (3.0, 7.0), tests  # the tests of the evaluation alone pass


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
    name = {1: "minimax", 2: "alphabeta", 3: "depth_limited", 4: "evaluation"}[question]
    # the first bug of each question is graded on the whole assignment, the others on
    # their question (and the questions that use its function) only
    first = next(planted for planted in BUGS if planted[1] == question)[0] == bug
    graded = set(POINTS) if first else {question} | USES.get(question, set())
    tests = grade_submission(tmp_path, capsys, written(**{name: mistaken}), only(tmp_path, graded))
    assert {question for question in POINTS if of_question(tests, question)} == graded, tests
    scored, most = points(tests, question)
    assert scored < most, (bug, tests)
    for other in graded - {question} - USES.get(question, set()):
        assert points(tests, other) == (POINTS[other], POINTS[other]), (bug, tests)


def only(tmp_path: Path, questions: set[int]) -> Path:
    """Return a copy of the sample assignment with only the questions ``questions``."""
    head, *blocks = ASSIGNMENT.read_text().split("\n[[question]]\n")
    assert [block.startswith(f'name = "Q{number} ') for number, block in enumerate(blocks, 1)] == [
        True
    ] * len(POINTS)
    copy = tmp_path / "assignment"
    shutil.copytree(ASSIGNMENT.parent, copy)
    kept = [block for number, block in enumerate(blocks, 1) if number in questions]
    (copy / ASSIGNMENT.name).write_text(head + "".join(f"\n[[question]]\n{b}" for b in kept))
    return copy / ASSIGNMENT.name


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


#: the hostile code that never returns: it waits out the time limit of each test it is in
NEVER_RETURNS = {"a search that never ends", "a print per node without end"}
NEVER_RETURNS_EVALUATION = {"an evaluation that never returns"}
#: the time limit of each test of the question hostile code that never returns is in,
#: instead of 10 s: what these tests check (0 on that question, the others untouched)
#: does not depend on how long the grader waits
WAITED = 0.2


def shortened(tmp_path: Path, suite_name: str, seconds: float = WAITED) -> Path:
    """Return a copy of the sample assignment whose suite ``suite_name`` gives each test
    ``seconds`` instead of 10: code that never returns waits out each of its time limits."""
    copy = tmp_path / "assignment"
    shutil.copytree(ASSIGNMENT.parent, copy)
    suite = copy / suite_name
    assert "\ntime_limit = 10\n" in suite.read_text()
    suite.write_text(
        suite.read_text().replace("\ntime_limit = 10\n", f"\ntime_limit = {seconds:g}\n")
    )
    return copy / ASSIGNMENT.name


def timed_out(tests: list[dict[str, object]], question: int) -> bool:
    """Return whether every test of ``question`` says it timed out after the shortened limit."""
    return all(
        f"timed out after {WAITED:g} s" in str(test["output"])
        for test in of_question(tests, question)
    )


@pytest.mark.slow
@pytest.mark.parametrize("hostile", sorted(HOSTILE))
def test_hostile_code_in_one_question_costs_that_question_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], hostile: str
) -> None:
    minimax = HOSTILE[hostile] + MINIMAX
    # the code that returns keeps the suite's 10 s, so its 0 cannot come from a time limit
    copy = shortened(tmp_path, "q1-minimax.toml") if hostile in NEVER_RETURNS else ASSIGNMENT
    tests = grade_submission(tmp_path, capsys, written(minimax=minimax), copy)
    assert points(tests, 1) == (0.0, 4.0), tests
    assert [points(tests, question) for question in (2, 3, 4)] == [
        (6.0, 6.0),
        (5.0, 5.0),
        (7.0, 7.0),
    ], tests
    assert all(test["output"] for test in tests)
    if hostile == "a search that never ends":
        assert timed_out(tests, 1), tests


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


#: hostile code put in exercise 4 (my_evaluation) only: question 4 gets 0, the others
#: every point
HOSTILE_EVALUATION = {
    "os._exit in the evaluation": "    import os\n    os._exit(3)\n",
    "an evaluation that never returns": "    while True:\n        pass\n",
    "the grader's environment in the evaluation": (
        "    import os\n    raise RuntimeError(os.environ.get('HOME'))\n"
    ),
    "the reference searcher in the evaluation": (
        "    from gamesearch import default_registry\n"
        "    searcher = default_registry().new_searcher('textbook-alphabeta', depth=1)\n"
        "    return searcher.search(game).value\n"
    ),
    "the grader's check of the values patched away": (
        "    import sys\n"
        "    sys.modules['__main__'].checked_value = lambda name, value: value\n"
        "    return 0.5\n"
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("hostile", sorted(HOSTILE_EVALUATION))
def test_hostile_code_in_the_evaluation_costs_question_4_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], hostile: str
) -> None:
    never = hostile in NEVER_RETURNS_EVALUATION
    copy = shortened(tmp_path, "q4-evaluation.toml") if never else ASSIGNMENT
    evaluation = HOSTILE_EVALUATION[hostile] + EVALUATION
    tests = grade_submission(tmp_path, capsys, written(evaluation=evaluation), copy)
    assert points(tests, 4) == (0.0, 7.0), tests
    assert [points(tests, question) for question in (1, 2, 3)] == [
        (4.0, 4.0),
        (6.0, 6.0),
        (5.0, 5.0),
    ], tests
    assert all(test["output"] for test in tests)
    assert timed_out(tests, 4) == never, tests
    print(hostile, "|", [test["output"] for test in tests if str(test["number"]) == "4.1"][0])
