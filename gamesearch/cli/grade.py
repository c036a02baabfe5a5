"""``gamesearch grade``: grade a student's searcher against a reference on a suite of tests.

A suite is a TOML file: settings for every test, then one ``[[test]]`` table a test::

    reference = "textbook-alphabeta:root_window=shared,prune_on_equality=false"
    time_limit = 5            # seconds per test (default 10)
    states = "sequence"       # compare generated positions: sequence, set, fewer or none
    options = { rounds = 1 }  # searcher options of every test
    states_reference = "maxn:pruning=false"   # whose generated positions (default: the reference's)
    utilities = true          # compare each player's utility too (max^n)
    partial_credit = true     # a third of a test's points for the value, two for the move too
    time_factor = 5           # the student may take 5 times the reference's time (at least 1 s)
    evaluation = "my_evaluation"  # the student's evaluation: each call recorded, the
                              # reference searches with the values it returned

    [[test]]
    name = "AIMA Figure 5.2"
    game = "tree"
    position = "trees/aima-figure-5-2.txt"   # text, or a file next to the suite
    max_score = 2             # default 1; a test may also set options, states, time_limit,
                              # game_options, utilities, a reference and a states_reference

A test of an ``evaluation`` alone sets ``sign = 1`` (or -1: the sign the position's
value must have) or ``same_as = "..."`` (its mirror image, worth the same), and is not
searched. A test (or the suite) may set ``visibility`` (Gradescope's visible, hidden,
after_due_date or after_published) and ``tags``. An assignment file (``--assignment``)
lists questions, each a student's ``FILE.py:Class``, a suite and a weight, graded in
one run into one results.json; ``--gradescope-package DIR`` writes Gradescope's
autograder for it.

Exit status 0 when every test passed, 1 when one failed, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
from pathlib import Path
from typing import Any

import attrs

from gamesearch import __version__
from gamesearch.cli._common import check_output_file, write_output
from gamesearch.cli._output import console
from gamesearch.cli.grade_files import command_line_cases, load_assignment, load_suite
from gamesearch.errors import InvalidOptionError
from gamesearch.testing.grading import (
    CaseResult,
    GradeReport,
    Limits,
    StudentFile,
    grade,
    load_searcher_class,
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "grade",
        help="grade a student's searcher against a reference: values, moves, generated positions",
        description="Search every test position of a suite with the student's searcher and "
        "with the reference, and compare the value, the move and the positions each "
        "generates (in order, by default). A student's FILE.py is graded in a sandbox: a "
        "process of its own with limits on time, memory and output, no network where the "
        "system allows, an empty folder and none of the grader's environment; a test it "
        "fails, however it fails, scores 0 with the reason. Prints each test's points and "
        "what differs; --results writes Gradescope's results.json. Exit status 1 when a "
        "test failed.",
        epilog="examples:\n"
        "  gamesearch grade my_searcher.py:MySearcher --suite suite.toml --results results.json\n"
        "  gamesearch grade my_searcher.py:MySearcher --game tree --position tree.txt "
        "--reference textbook-alphabeta -s depth=2\n"
        "  gamesearch grade --assignment assignment.toml --submission DIR --results results.json\n"
        "  gamesearch grade --assignment assignment.toml --gradescope-package autograder/",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "student",
        nargs="?",
        metavar="FILE.py:CLASS",
        help="the student's searcher class (or module:Class); not with --assignment",
    )
    parser.add_argument(
        "--assignment",
        metavar="ASSIGNMENT.toml",
        help="grade every question of an assignment in one run: a TOML file with a title, "
        "stdout_visibility and one [[question]] table a question (name, student = "
        '"FILE.py:Class" in the submission, suite, weight: the question\'s points)',
    )
    parser.add_argument(
        "--submission",
        metavar="DIR",
        default=".",
        help="with --assignment: the folder of the student's files (default: here)",
    )
    parser.add_argument(
        "--gradescope-package",
        metavar="DIR",
        help="with --assignment: write Gradescope's autograder there (setup.sh, "
        "run_autograder, requirements.txt and the assignment's files) instead of grading",
    )
    parser.add_argument(
        "--suite",
        metavar="SUITE.toml",
        help="the tests, a TOML file: reference, time_limit, states (sequence, set, fewer or none) "
        "and options for every test, then one [[test]] table a test (name, game, position, "
        "options, max_score, ...)",
    )
    parser.add_argument("--game", help="without a suite: the game of the tests")
    parser.add_argument(
        "-p",
        "--position",
        action="append",
        default=[],
        metavar="TEXT",
        help="without a suite: one test's position, text or a file "
        "(repeatable; default: the start)",
    )
    parser.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="without a suite: a game option",
    )
    parser.add_argument(
        "-s",
        "--searcher-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a searcher option both searchers get in every test (e.g. -s depth=2, -s rounds=1)",
    )
    parser.add_argument(
        "--reference",
        metavar="NAME[:KEY=VALUE,...]",
        help="the reference searcher (default: the suite's, else textbook-alphabeta)",
    )
    parser.add_argument(
        "--time-limit", type=float, metavar="SECONDS", help="seconds per test (default: 10)"
    )
    parser.add_argument("--results", metavar="FILE", help="write Gradescope's results.json there")
    parser.add_argument(
        "--json", action="store_true", help="print the results as JSON (results.json's format)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.results is not None:
        check_output_file(args.results, "--results")  # a bad path fails before any work
    if args.time_limit is not None and not (math.isfinite(args.time_limit) and args.time_limit > 0):
        raise InvalidOptionError(
            f"--time-limit must be a number of seconds > 0: {args.time_limit!r}"
        )
    if args.assignment is not None:
        return run_assignment(args)
    if args.gradescope_package is not None:
        raise InvalidOptionError("--gradescope-package needs --assignment ASSIGNMENT.toml")
    if args.student is None:
        raise InvalidOptionError(
            "give the student's searcher (FILE.py:Class), or an --assignment to grade"
        )
    student = _student(args.student)
    if args.suite is not None:
        if args.game is not None or args.position or args.option:
            raise InvalidOptionError(
                "give the tests in --suite or with --game and --position, not both"
            )
        reference, cases = load_suite(Path(args.suite), args)
    elif args.game is not None:
        reference, cases = args.reference or "textbook-alphabeta", command_line_cases(args)
    else:
        raise InvalidOptionError(
            "give the tests: --suite SUITE.toml, or --game GAME with --position"
        )
    report = grade(student, cases, reference, limits=Limits())
    if args.results is not None:
        write_output(args.results, json.dumps(report.as_gradescope(), indent=2) + "\n", "--results")
    if args.json:
        print(json.dumps(report.as_gradescope(), indent=2))
    else:
        print_report(report, args.student, reference)
    return 0 if report.first_failure is None else 1


def _student(spec: str) -> Any:
    """Return the student's searcher: a file, to grade in the sandbox, or (a module's
    class, installed and so trusted) the class itself."""
    student = StudentFile.from_spec(spec)
    return student if student.is_file else load_searcher_class(spec)


def print_report(report: GradeReport, student: str, reference: str) -> None:
    """Print one line a test, then the total."""
    out = console()
    out.print(f"{student} against {reference}, {len(report.results)} tests")
    for result in report.results:
        verdict = "passed" if result.passed else "FAILED"
        out.print(
            f"{verdict}  {result.name} ({result.score:g}/{result.max_score:g}): {result.output}"
        )
    out.print(report.summary())


def grade_assignment(
    path: Path, submission: Path, limits: Limits | None = None
) -> tuple[GradeReport, list[str], str]:
    """Return the report of every question of the assignment ``path`` on the student's files
    in ``submission``, with the tests' numbers (``question.test``) and the
    ``stdout_visibility``. Each question is graded in a sandbox of its own.

    :raises InvalidOptionError: when the assignment or a suite is wrong (not the student).
    """
    _, visibility, questions = load_assignment(path)
    results: list[CaseResult] = []
    numbers: list[str] = []
    notes: list[str] = []
    for index, question in enumerate(questions, 1):
        reference, cases = load_suite(question.suite)
        file_name, _, class_name = question.student.rpartition(":")
        file = submission / file_name
        if file.is_file():
            report = grade(StudentFile(str(file), class_name), cases, reference, limits=limits)
        else:
            missing = f"no file {file_name} in the submission: hand in {file_name}"
            report = GradeReport(
                tuple(
                    CaseResult(case.name, 0.0, case.max_score, missing, False, case.visibility)
                    for case in cases
                )
            )
        factor = (
            1.0
            if question.weight is None or not report.max_score
            else (question.weight / report.max_score)
        )
        for number, result in enumerate(report.results, 1):
            results.append(
                attrs.evolve(
                    result,
                    name=f"{question.name}: {result.name}",
                    score=result.score * factor,
                    max_score=result.max_score * factor,
                )
            )
            numbers.append(f"{index}.{number}")
        notes.extend(note for note in report.notes if note not in notes)
    return GradeReport(tuple(results), tuple(notes)), numbers, visibility


def run_assignment(args: argparse.Namespace) -> int:
    """Grade an assignment (or write its Gradescope package); return the exit status."""
    if args.student is not None or args.suite is not None or args.game is not None:
        raise InvalidOptionError(
            "an --assignment names its students and suites: give no FILE.py:Class, --suite "
            "or --game with it"
        )
    path = Path(args.assignment)
    if args.gradescope_package is not None:
        load_assignment(path)  # a wrong assignment fails before anything is written
        for written in write_gradescope_package(path, Path(args.gradescope_package)):
            print(written)
        return 0
    submission = Path(args.submission)
    if not submission.is_dir():
        raise InvalidOptionError(f"--submission must be a folder: {args.submission!r}")
    report, numbers, visibility = grade_assignment(path, submission, Limits())
    data = json.dumps(report.as_gradescope(stdout_visibility=visibility, numbers=numbers), indent=2)
    if args.results is not None:
        write_output(args.results, data + "\n", "--results")
    if args.json:
        print(data)
    else:
        print_report(report, str(submission), path.name)
    return 0 if report.first_failure is None else 1


#: what Gradescope runs once to build the autograder's image
SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image.
set -euo pipefail
cd "$(dirname "$0")"
python3 -m pip install -r requirements.txt
"""
#: what Gradescope runs for every submission (AUTOGRADER: its folder, /autograder there)
RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for every submission: the student's files are in submission/,
# and results/results.json is what the student sees.
root="${{AUTOGRADER:-/autograder}}"
cd "$root/source/assignment"
mkdir -p "$root/results"
gamesearch grade --assignment {assignment} --submission "$root/submission" \\
    --results "$root/results/results.json"
status=$?
# 0: every test passed, 1: some failed; both wrote results.json
[ "$status" -le 1 ]
"""


def write_gradescope_package(assignment: Path, folder: Path) -> list[Path]:
    """Write Gradescope's autograder for ``assignment`` into ``folder``: ``setup.sh``,
    ``run_autograder``, ``requirements.txt`` and a copy of the assignment's folder
    (its suites and trees) as ``assignment/``; return the files written.

    :raises InvalidOptionError: when ``folder`` cannot be written.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
        copy = folder / "assignment"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(
            assignment.parent,
            copy,
            ignore=shutil.ignore_patterns("__pycache__", "results.json", ".*"),
        )
        files = {
            folder / "setup.sh": SETUP_SH,
            folder / "run_autograder": RUN_AUTOGRADER.format(assignment=assignment.name),
            folder / "requirements.txt": f"gamesearch=={__version__}\n",
        }
        for path, text in files.items():
            path.write_text(text, encoding="utf-8")
            if path.suffix != ".txt":
                path.chmod(0o755)
    except OSError as error:
        raise InvalidOptionError(
            f"cannot write the Gradescope package to {str(folder)!r}: {error.strerror or error}"
        ) from None
    return [*files, copy]
