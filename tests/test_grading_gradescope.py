"""Gradescope: per-test visibility and tags, an assignment of several questions graded in one
run into one results.json, and the autograder package (setup.sh, run_autograder)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from gamesearch.errors import InvalidOptionError
from gamesearch.testing.grading import Case
from gamesearch_games.tree import TreeGame
from tests.clirun import run_cli
from tests.test_grading_sandbox import FIGURE_5_2, RIGHT, TEMPLATE

SUITE = f'''
reference = "textbook-minimax"
tags = ["minimax"]

[[test]]
name = "Figure 5.2"
game = "tree"
position = """{FIGURE_5_2}"""
max_score = 2

[[test]]
name = "hidden: MIN at B"
game = "tree"
position = """{FIGURE_5_2}at B"""
visibility = "hidden"
tags = ["minimax", "min player"]
'''

ASSIGNMENT = """
title = "Adversarial search"
stdout_visibility = "visible"

[[question]]
name = "Q1 minimax"
student = "first.py:Submission"
suite = "suite.toml"
weight = 6

[[question]]
name = "Q2 minimax again"
student = "second.py:Submission"
suite = "suite.toml"
"""


def student(root: str = RIGHT, top: str = "") -> str:
    return TEMPLATE.replace("TOP", top).replace("ROOT", root)


def course(tmp_path: Path, first: str, second: str | None) -> tuple[Path, Path]:
    """Return an assignment file and a submission folder holding ``first`` and ``second``."""
    (tmp_path / "suite.toml").write_text(SUITE)
    assignment = tmp_path / "assignment.toml"
    assignment.write_text(ASSIGNMENT)
    submission = tmp_path / "submission"
    submission.mkdir()
    (submission / "first.py").write_text(first)
    if second is not None:
        (submission / "second.py").write_text(second)
    return assignment, submission


def grade_course(
    capsys: pytest.CaptureFixture[str], assignment: Path, submission: Path, results: Path
) -> tuple[int, dict[str, object]]:
    status, _, _ = run_cli(
        capsys,
        "grade",
        "--assignment",
        str(assignment),
        "--submission",
        str(submission),
        "--results",
        str(results),
    )
    return status, json.loads(results.read_text())


def test_a_case_takes_gradescopes_visibilities_and_refuses_others() -> None:
    position = TreeGame.from_text(FIGURE_5_2)
    for visibility in ("visible", "hidden", "after_due_date", "after_published"):
        assert Case("t", position, visibility=visibility).visibility == visibility
    with pytest.raises(InvalidOptionError, match="'visibility' must be one of visible, hidden"):
        Case("t", position, visibility="secret")


def test_an_assignment_grades_every_question_into_one_results_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = student(top="import sys\nsys.exit(0)")
    assignment, submission = course(tmp_path, student(), hostile)
    status, data = grade_course(capsys, assignment, submission, tmp_path / "results.json")
    assert status == 1
    tests = data["tests"]
    assert isinstance(tests, list)
    assert [test["number"] for test in tests] == ["1.1", "1.2", "2.1", "2.2"]
    # question 1 is worth 6 points (its suite's 3 scaled), question 2 its suite's own 3
    assert [(test["score"], test["max_score"]) for test in tests] == [
        (4.0, 4.0),
        (2.0, 2.0),
        (0.0, 2.0),
        (0.0, 1.0),
    ]
    assert data["score"] == 6.0
    assert [test["visibility"] for test in tests] == ["visible", "hidden"] * 2
    assert tests[1]["tags"] == ["minimax", "min player"] and tests[0]["tags"] == ["minimax"]
    assert tests[0]["name"] == "Q1 minimax: Figure 5.2"
    assert "sys.exit(0)" in tests[2]["output"]
    assert data["stdout_visibility"] == "visible"
    assert isinstance(data["execution_time"], float)
    # the other question's files are untouched by the hostile one
    assert sorted(path.name for path in submission.iterdir()) == ["first.py", "second.py"]


def test_a_question_without_its_file_gets_zero_saying_which_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assignment, submission = course(tmp_path, student(), None)
    _, data = grade_course(capsys, assignment, submission, tmp_path / "results.json")
    tests = data["tests"]
    assert isinstance(tests, list)
    assert tests[2]["output"] == "no file second.py in the submission: hand in second.py"
    assert data["score"] == 6.0


def test_a_wrong_assignment_is_a_usage_error_naming_what_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assignment, submission = course(tmp_path, student(), None)
    assignment.write_text(ASSIGNMENT.replace('student = "first.py', 'student = "dir/first.py'))
    status, _, err = run_cli(
        capsys, "grade", "--assignment", str(assignment), "--submission", str(submission)
    )
    assert status == 2
    assert "'student' in question 1 is written FILE.py:Class" in err


def gradescope_package(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path]:
    """Write the Gradescope package of a course's assignment into ``autograder/source``
    under ``tmp_path`` and check its files; return the autograder folder and a submission."""
    (tmp_path / "course").mkdir()
    assignment, submission = course(tmp_path / "course", student(), student())
    root = tmp_path / "autograder"
    status, out, _ = run_cli(
        capsys,
        "grade",
        "--assignment",
        str(assignment),
        "--gradescope-package",
        str(root / "source"),
    )
    assert status == 0
    source = root / "source"
    for name in ("setup.sh", "run_autograder"):
        assert (source / name).stat().st_mode & stat.S_IXUSR, name
        assert str(source / name) in out
    assert (source / "requirements.txt").read_text().startswith("gamesearch==")
    assert (source / "assignment" / "suite.toml").read_text() == SUITE
    return root, submission


def test_the_gradescope_package_holds_its_scripts_and_the_assignment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gradescope_package(tmp_path, capsys)


@pytest.mark.slow  # runs the package's script, which starts the grader's processes
def test_the_gradescope_package_runs_the_assignment_as_gradescope_would(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, submission = gradescope_package(tmp_path, capsys)
    source = root / "source"
    (root / "submission").symlink_to(submission)
    environment = {
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.defpath}",
        "AUTOGRADER": str(root),
    }
    finished = subprocess.run(
        ["bash", str(source / "run_autograder")],
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr
    data = json.loads((root / "results" / "results.json").read_text())
    assert data["score"] == 9.0
