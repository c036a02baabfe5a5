"""The grader's sandbox: hostile submissions get 0 points, a message, and harm nothing.

Each test writes a tiny student file into ``tmp_path`` and grades it as a file (in the
sandbox). The oracle of the right answer is a plain minimax written here, and the
AIMA Figure 5.2 tree's values worked out by hand.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import textwrap
from pathlib import Path
from typing import Any

import pytest

from gamesearch.testing.grading import Case, GradeReport, Limits, StudentFile, grade
from gamesearch_games.tree import TreeGame
from tests.clirun import run_cli

FIGURE_5_2 = """A max: a1 -> B, a2 -> C, a3 -> D
B min: b1 -> 3, b2 -> 12, b3 -> 8
C min: c1 -> 2, c2 -> 4, c3 -> 6
D min: d1 -> 14, d2 -> 5, d3 -> 2
"""

#: a submission: ROOT is the body of its search (``game`` and ``context`` given), TOP its
#: module-level code
TEMPLATE = """\
from typing import Any, ClassVar

import attrs

from gamesearch import Searcher
from gamesearch.search.base import RootAnswer, SearchContext

TOP


def value(game: Any, context: SearchContext) -> int:
    context.count_node(game)
    if game.is_over():
        return game.score(context.scoring)
    values = []
    for move in game.legal_moves():
        game.push(move)
        values.append(value(game, context))
        game.undo()
    return max(values) if game.to_move() == 0 else min(values)


@attrs.frozen(kw_only=True)
class Submission(Searcher):
    name: ClassVar[str] = "submission"

    def root(self, game: Any, context: SearchContext) -> RootAnswer:
        ROOT
"""

RIGHT = """context.count_node(game)
        values = []
        for move in game.legal_moves():
            game.push(move)
            values.append((move, value(game, context)))
            game.undo()
        pick = max if game.to_move() == 0 else min
        best = pick(v for _, v in values)
        return context.answer(game, best, [m for m, v in values if v == best], values)"""

QUICK = Limits(import_seconds=20)


def submission(folder: Path, root: str = RIGHT, top: str = "", raw: str | None = None) -> Path:
    """Return the path of a student file: the template with ``root`` and ``top``, or ``raw``."""
    text = raw if raw is not None else TEMPLATE.replace("TOP", top).replace("ROOT", root)
    path = folder / "submission.py"
    path.write_text(text)
    return path


def cases() -> list[Case]:
    return [
        Case("AIMA Figure 5.2", TreeGame.from_text(FIGURE_5_2), max_score=2),
        Case("MIN to move at B", TreeGame.from_text(FIGURE_5_2 + "at B")),
    ]


def graded(path: Path, limits: Limits = QUICK, class_name: str = "Submission") -> GradeReport:
    return grade(StudentFile(str(path), class_name), cases(), "textbook-minimax", limits=limits)


def assert_zero(report: GradeReport, *fragments: str) -> str:
    """Assert every test scored 0 and its output says each of ``fragments``; return it."""
    assert report.score == 0
    assert report.max_score == 3
    outputs = [result.output for result in report.results]
    for output in outputs:
        for fragment in fragments:
            assert fragment in output, output
    json.dumps(report.as_gradescope())  # results.json can be written
    return outputs[0]


def test_a_right_submission_gets_every_point_in_the_sandbox(tmp_path: Path) -> None:
    report = graded(submission(tmp_path))
    assert (report.score, report.max_score) == (3, 3)
    # the hand-worked minimax value of Figure 5.2, the textbook's: a tree is scored by utility
    assert report.results[0].output.startswith("value 3, move a1"), report.results[0].output


def test_a_syntax_error_gets_zero_with_its_line(tmp_path: Path) -> None:
    path = submission(tmp_path, raw="def broken(:\n    pass\n")
    assert_zero(graded(path), "submission.py has a syntax error at line 1")


def test_a_renamed_class_gets_zero_naming_the_classes_there_are(tmp_path: Path) -> None:
    path = submission(tmp_path)
    report = graded(path, class_name="StudentSearcher")
    assert_zero(report, "has no class 'StudentSearcher'; it has Submission")


def test_sys_exit_at_import_gets_zero_and_the_grader_goes_on(tmp_path: Path) -> None:
    path = submission(tmp_path, top="import sys\nsys.exit(0)")
    assert_zero(graded(path), "importing submission.py failed", "sys.exit(0)")


def test_os_exit_at_import_gets_zero_with_the_exit_status(tmp_path: Path) -> None:
    path = submission(tmp_path, top="import os\nos._exit(3)")
    assert_zero(graded(path), "exit status 3")


@pytest.mark.slow
def test_a_loop_at_import_is_stopped_at_the_import_time_limit(tmp_path: Path) -> None:
    path = submission(tmp_path, top="while True:\n    pass")
    assert_zero(graded(path, Limits(import_seconds=1)), "took longer than 1 s", "__main__")


@pytest.mark.slow
def test_left_over_test_code_searching_connect_four_at_import_is_stopped(tmp_path: Path) -> None:
    top = textwrap.dedent(
        """
        from gamesearch.search.base import SearchContext as _Context
        from gamesearch_games.connect4 import ConnectFour


        def _forever(game):
            for move in game.legal_moves():
                game.push(move)
                _forever(game)
                game.undo()


        _forever(ConnectFour.new())
        """
    )
    path = submission(tmp_path, top=top)
    assert_zero(graded(path, Limits(import_seconds=1)), "took longer than 1 s")


def test_replacing_the_graders_own_functions_at_import_is_refused(tmp_path: Path) -> None:
    top = textwrap.dedent(
        """
        import gamesearch.testing.grading as grading

        grading.grade_case = lambda case, *args: None
        """
    )
    path = submission(tmp_path, top=top, root="raise RuntimeError('no search here')")
    assert_zero(graded(path), "gamesearch.testing is not allowed in a graded submission")


def test_subclassing_the_textbook_reference_is_refused(tmp_path: Path) -> None:
    raw = textwrap.dedent(
        """
        from gamesearch.search.textbook import TextbookMinimax

        class Submission(TextbookMinimax):
            pass
        """
    )
    path = submission(tmp_path, raw=raw)
    assert_zero(graded(path), "is not allowed in a graded submission")


@pytest.mark.parametrize(
    "reached",
    [
        # gamesearch's own package names its searchers: they are there, but disabled
        "gamesearch.Minimax().search(game).answer",
        # the kit's names are read from its package when first used: they cannot be
        "gamesearch.testing.check_search(Submission(), game)",
    ],
)
def test_a_framework_searcher_reached_without_an_import_refuses_to_search(
    tmp_path: Path, reached: str
) -> None:
    root = f"import gamesearch\n        return {reached}"
    path = submission(tmp_path, root=root)
    assert_zero(graded(path), "not allowed in a graded submission")


def test_asking_the_registry_for_the_reference_is_refused(tmp_path: Path) -> None:
    root = (
        "from gamesearch import default_registry\n"
        "        return default_registry().new_searcher('textbook-minimax').search(game)"
    )
    path = submission(tmp_path, root=root)
    assert_zero(graded(path), "not allowed in a graded submission")


def test_the_references_answers_are_not_in_the_students_process(tmp_path: Path) -> None:
    root = textwrap.dedent(
        """\
        import sys
                frame = sys._getframe()
                while frame is not None:
                    for name in ("expected", "full"):
                        if name in frame.f_locals:
                            raise RuntimeError("found the answer in " + frame.f_code.co_name)
                    frame = frame.f_back
                raise RuntimeError("no answer to copy")"""
    )
    path = submission(tmp_path, root=root)
    assert_zero(graded(path), "RuntimeError: no answer to copy")


def test_patching_the_recording_changes_nothing(tmp_path: Path) -> None:
    top = textwrap.dedent(
        """
        import sys

        runner = sys.modules["__main__"]
        runner.recording = lambda game, copies=False: (game, [("a1",), ("a1", "b1")])
        runner.search = lambda *args, **kwargs: {"value": 3, "move": "a1"}
        """
    )
    root = "return context.answer(game, 3, ['a1'], [])"  # the answer, and no search
    report = graded(submission(tmp_path, top=top, root=root))
    assert "0 positions generated, the reference 12" in report.results[0].output
    assert report.score == 0


def test_an_exception_in_the_search_gets_zero_at_the_students_line(tmp_path: Path) -> None:
    path = submission(tmp_path, root="return {}['no such key']")
    output = assert_zero(graded(path), "KeyError: 'no such key'")
    assert "of submission.py)" in output


@pytest.mark.slow
def test_a_huge_allocation_fails_at_the_memory_limit(tmp_path: Path) -> None:
    path = submission(tmp_path, root="block = bytearray(1536 * 1024 * 1024)\n        return None")
    assert_zero(graded(path, Limits(import_seconds=20, memory_mb=1024)), "out of memory")


def test_the_graders_environment_is_not_the_students(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECRET_TOKEN", "do-not-show-me-42")
    root = "import os\n        raise RuntimeError(os.environ.get('SECRET_TOKEN', 'no secret'))"
    report = graded(submission(tmp_path, root=root))
    assert_zero(report, "RuntimeError: no secret")
    assert "do-not-show-me-42" not in json.dumps(report.as_gradescope())


def test_the_working_directory_is_neither_read_nor_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    grader = tmp_path / "grader"
    grader.mkdir()
    (grader / "results.json").write_text("{}")
    (grader / "keep.txt").write_text("the instructor's file")
    monkeypatch.chdir(grader)
    root = textwrap.dedent(
        f"""\
        import os
                open("planted.txt", "w").write("mine")
                for name in ("results.json", "keep.txt", {str(grader / "keep.txt")!r}):
                    try:
                        os.remove(name)
                    except OSError:
                        pass
                raise RuntimeError("removed what it could")"""
    )
    students = tmp_path / "student"
    students.mkdir()
    assert_zero(graded(submission(students, root=root)), "removed what it could")
    assert sorted(path.name for path in grader.iterdir()) == ["keep.txt", "results.json"]
    assert (grader / "keep.txt").read_text() == "the instructor's file"


@pytest.mark.slow
def test_the_student_gets_no_network(tmp_path: Path) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        root = (
            "import socket\n"
            f"        socket.create_connection(('127.0.0.1', {port}), timeout=2)\n"
            "        raise RuntimeError('connected')"
        )
        report = graded(submission(tmp_path, root=root))
        # a connection the student made waits in the listening queue, even once closed:
        # the grading is over, so an empty queue means none was made
        server.setblocking(False)
        connections: list[Any] = []
        with contextlib.suppress(BlockingIOError):
            connections.append(server.accept())
    if report.notes:  # a machine without network namespaces: the report says so
        assert "network was not isolated" in report.notes[0]
        pytest.skip("this machine cannot make a network namespace")
    output = assert_zero(report)
    assert "connected" not in output and not connections
    assert "Error" in output


def test_a_process_started_in_a_session_of_its_own_is_refused(tmp_path: Path) -> None:
    root = textwrap.dedent(
        """\
        import subprocess
                subprocess.Popen(["sleep", "37.5"], start_new_session=True)
                raise RuntimeError("started")"""
    )
    assert_zero(graded(submission(tmp_path, root=root)), "Resource temporarily unavailable")
    for entry in Path("/proc").iterdir():
        try:
            assert b"37.5" not in (entry / "cmdline").read_bytes()
        except OSError:
            pass


@pytest.mark.slow
def test_a_print_per_node_is_cut_at_the_output_limit(tmp_path: Path) -> None:
    root = "while True:\n            print('x' * 10000)"
    report = graded(
        submission(tmp_path, root=root), Limits(import_seconds=20, output_bytes=200_000)
    )
    assert_zero(report, "wrote more than 200000 bytes")
    printed = report.results[0].printed
    assert printed.startswith("xxxx") and "cut here" in printed
    assert len(printed) < 3000


def test_what_the_student_prints_is_shown_per_test_and_truncated(tmp_path: Path) -> None:
    root = "print('looking at', game.to_move())\n        " + RIGHT
    report = graded(submission(tmp_path, root=root), Limits(import_seconds=20, shown_output=20))
    assert report.score == 3
    tests = report.as_gradescope()["tests"]
    assert "Your code printed:\nlooking at 0" in tests[0]["output"]
    assert "Your code printed:\nlooking at 1" in tests[1]["output"]
    assert "cut here" not in tests[0]["output"]


def test_the_grade_command_writes_results_for_a_file_that_does_not_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = submission(tmp_path, raw="oops(\n")
    results = tmp_path / "results.json"
    status, out, _ = run_cli(
        capsys,
        "grade",
        f"{path}:Submission",
        "--game",
        "tree",
        "-p",
        FIGURE_5_2,
        "--results",
        str(results),
    )
    assert status == 1
    data = json.loads(results.read_text())
    assert data["score"] == 0
    assert "syntax error" in data["tests"][0]["output"]
    assert "syntax error" in out


@pytest.mark.slow
def test_a_search_that_never_ends_is_killed_at_the_time_limit_and_the_next_test_runs(
    tmp_path: Path,
) -> None:
    root = (
        "if game.to_move() == 0:\n            while True:\n                pass\n        " + RIGHT
    )
    path = submission(tmp_path, root=root)
    tests = [
        # (the time limit starts once the child has imported the file: it is in the loop)
        Case("loops", TreeGame.from_text(FIGURE_5_2), time_limit=0.2),
        Case("answers", TreeGame.from_text(FIGURE_5_2 + "at B")),
    ]
    report = grade(StudentFile(str(path), "Submission"), tests, "textbook-minimax", limits=QUICK)
    assert [result.score for result in report.results] == [0, 1]
    assert report.results[0].output == "timed out after 0.2 s"


@pytest.mark.slow
def test_a_search_that_spends_the_cpu_limit_is_stopped_with_why(tmp_path: Path) -> None:
    root = "while True:\n            pass"
    path = submission(tmp_path, root=root)
    tests = [Case("loops", TreeGame.from_text(FIGURE_5_2), time_limit=30)]
    limits = Limits(import_seconds=2, cpu_seconds=1)
    report = grade(StudentFile(str(path), "Submission"), tests, "textbook-minimax", limits=limits)
    assert report.score == 0
    assert report.results[0].output == "the submission used up its CPU time"


def test_a_search_over_copies_is_recorded_and_graded(tmp_path: Path) -> None:
    # aima-python style: each child is a copy of the position with the move played
    top = textwrap.dedent(
        """
        def copied(game, context):
            context.count_node(game)
            if game.is_over():
                return game.score(context.scoring)
            values = []
            for move in game.legal_moves():
                child = game.copy()
                child.push(move)
                values.append(copied(child, context))
            return max(values) if game.to_move() == 0 else min(values)
        """
    )
    root = RIGHT.replace(
        "values.append((move, value(game, context)))",
        "values.append((move, copied(game, context)))",
    )
    report = graded(submission(tmp_path, top=top, root=root))
    assert (report.score, report.max_score) == (3, 3), report.results[0].output


def test_the_json_output_stays_parsable_whatever_the_student_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = "print('{not json')\n        " + RIGHT
    path = submission(tmp_path, root=root)
    status, out, _ = run_cli(
        capsys, "grade", f"{path}:Submission", "--game", "tree", "-p", FIGURE_5_2, "--json"
    )
    assert status == 0
    data = json.loads(out)
    assert "Your code printed:\n{not json" in data["tests"][0]["output"]


def test_the_sandbox_starts_in_an_empty_folder_of_its_own(tmp_path: Path) -> None:
    root = "import os\n        raise RuntimeError(sorted(os.listdir('.')))"
    (tmp_path / "helper.py").write_text("HELP = 1\n")
    output = assert_zero(graded(submission(tmp_path, root=root)))
    assert "['helper.py', 'submission.py']" in output
    assert os.getcwd() != str(tmp_path)
