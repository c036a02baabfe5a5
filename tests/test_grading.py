"""The grader: a student's searcher against the reference, value, move and generated positions."""

from __future__ import annotations

import json
import re
import textwrap
import time
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest

from gamesearch import Searcher
from gamesearch.errors import InvalidOptionError
from gamesearch.game import CHANCE
from gamesearch.search.base import INFINITY, RootAnswer, SearchContext
from gamesearch.testing.grading import Case, grade, load_searcher_class, recording
from gamesearch_games.tree import TreeGame
from tests.clirun import run_cli

#: values below two plies (one round of the two agents) come from the evaluations; at C
#: the MIN player faces F (3) and G (1), so alpha = beta = 3 there after F
TREE = """
A max: l -> B, r -> C
B min eval 2: x -> D, y -> E
C min eval 4: z -> F, w -> G
D max eval 3: d -> 3
E max eval 5: e -> 5
F max eval 3: f -> 3
G max eval 1: g -> 1
"""
REFERENCE = "textbook-alphabeta:root_window=shared,prune_on_equality=false"


@attrs.frozen(kw_only=True)
class Student(Searcher):
    """A student's alpha-beta written against the public searcher API: the right one."""

    name: ClassVar[str] = "student"
    rounds: int | None = attrs.field(default=None, metadata={"help": "rounds of every agent"})
    prunes_on_equality: ClassVar[bool] = False
    counts_plies: ClassVar[bool] = False
    answers_for_the_mover: ClassVar[bool] = False

    def value(self, game: Any, depth: float, alpha: float, beta: float, context: SearchContext) -> float:
        context.count_node(game)
        if game.result() is not None:
            return context.finished_value(game)
        if depth == 0:
            return context.horizon_value(game)
        maximizing = game.to_move() == 0
        best = -INFINITY if maximizing else INFINITY
        for move in game.legal_moves():
            game.push(move)
            value = self.value(game, depth - 1, alpha, beta, context)
            game.undo()
            if maximizing:
                best, alpha = max(best, value), max(alpha, value)
            else:
                best, beta = min(best, value), min(beta, value)
            if alpha > beta or (self.prunes_on_equality and alpha == beta):
                break
        return best

    def root(self, game: Any, context: SearchContext) -> RootAnswer:
        context.count_node(game)
        players = 1 if self.counts_plies else game.rules.players
        depth = float("inf") if self.rounds is None else self.rounds * players
        maximizing = game.to_move() == 0
        alpha, beta = -INFINITY, INFINITY
        values = []
        for move in game.legal_moves():
            game.push(move)
            value = self.value(game, depth - 1, alpha, beta, context)
            game.undo()
            values.append((move, int(value)))
            alpha, beta = (max(alpha, value), beta) if maximizing else (alpha, min(beta, value))
        best = max(v for _, v in values) if maximizing else min(v for _, v in values)
        first = next(move for move, v in values if v == best)
        if self.answers_for_the_mover and not maximizing:
            best = -best
        return context.answer(game, best, [first], values)


@attrs.frozen(kw_only=True)
class PrunesOnEquality(Student):
    prunes_on_equality: ClassVar[bool] = True


@attrs.frozen(kw_only=True)
class CountsPlies(Student):
    counts_plies: ClassVar[bool] = True


@attrs.frozen(kw_only=True)
class SignError(Student):
    answers_for_the_mover: ClassVar[bool] = True


@attrs.frozen(kw_only=True)
class NeverEnds(Student):
    def root(self, game: Any, context: SearchContext) -> RootAnswer:
        while True:
            time.sleep(0.01)


@attrs.frozen(kw_only=True)
class Crashes(Student):
    def root(self, game: Any, context: SearchContext) -> RootAnswer:
        return {}["no such key"]  # type: ignore[no-any-return]


def suite() -> list[Case]:
    return [
        Case("whole tree", TreeGame.from_text(TREE), {"rounds": 1}, max_score=2),
        Case("MIN to move at C", TreeGame.from_text(TREE + "at C"), {"rounds": 1}),
    ]


def test_the_grader_passes_the_right_searcher_with_every_point() -> None:
    report = grade(Student, suite(), REFERENCE)
    assert [result.passed for result in report.results] == [True, True]
    assert (report.score, report.max_score, report.first_failure) == (3, 3, None)
    assert report.results[0].output == "value 3, move l, 6 positions generated: as the reference"


def test_the_grader_passes_the_reference_searcher_itself() -> None:
    shared = load_searcher_class("gamesearch.search.textbook:TextbookAlphaBeta")
    report = grade(shared, [attrs.evolve(case, options={**case.options, "root_window": "shared",
                                                         "prune_on_equality": False})
                            for case in suite()], REFERENCE)  # fmt: skip
    assert report.score == report.max_score


def test_the_grader_catches_a_searcher_that_prunes_on_equality() -> None:
    result = grade(PrunesOnEquality, suite(), REFERENCE).results[0]
    assert not result.passed and result.score == 0
    assert "5 positions generated, the reference 6" in result.output
    assert "generated position 6 is none (the search stops), the reference's after r w" in result.output
    assert "does it prune on equality (alpha >= beta) where only alpha > beta may prune?" in result.output


def test_the_grader_catches_a_depth_counted_in_plies_instead_of_rounds() -> None:
    result = grade(CountsPlies, suite(), REFERENCE).results[0]
    assert "value 4, the reference 3" in result.output
    assert "move r is not among the reference's best moves (l)" in result.output
    assert (
        "the search goes 1 moves deep, the reference 2: is the depth counted in plies instead of rounds? "
        "A round is one move of each of the 2 players"
    ) in result.output


def test_the_grader_catches_a_sign_error_and_names_the_first_position_it_shows_in() -> None:
    report = grade(SignError, suite(), REFERENCE)
    assert [result.passed for result in report.results] == [True, False]
    assert report.first_failure is report.results[1]
    assert "value -997, the reference 997 (the opposite sign: values are from the first player's" in (
        report.results[1].output
    )
    assert report.summary().startswith("2 of 3 points, 1 of 2 tests passed; first difference in 'MIN to move at C'")


def test_the_grader_names_the_first_position_whose_value_is_wrong() -> None:
    # the AIMA tree: MAX's root value is right, but from B (MIN to move) the sign flips
    case = Case("MIN's turn inside", TreeGame.from_text(TreeGame().to_text() + "; at B"))
    result = grade(SignError, [case], REFERENCE).results[0]
    assert result.output.startswith(
        "value -1004, the reference 1004 (the opposite sign: values are from the first player's point of view, "
        "whoever is to move); the values differ at the position itself (MIN to move); searched from each of "
        "its moves, the search agrees with the reference"
    )


@attrs.frozen(kw_only=True)
class WrongBelowTheRoot(Student):
    """Takes the smallest value at MAX's positions below the root."""

    def value(self, game: Any, depth: float, alpha: float, beta: float, context: SearchContext) -> float:
        if game.result() is None and game.to_move() == 0 and depth != 0:
            context.count_node(game)
            values = []
            for move in game.legal_moves():
                game.push(move)
                values.append(self.value(game, depth - 1, -INFINITY, INFINITY, context))
                game.undo()
            return min(values)
        return super().value(game, depth, alpha, beta, context)


def test_the_grader_follows_the_first_move_whose_value_differs() -> None:
    tree = "A max: a -> B, b -> 0; B min: x -> C, y -> 7; C max: p -> 5, q -> 2"
    result = grade(WrongBelowTheRoot, [Case("deep", TreeGame.from_text(tree))], REFERENCE).results[0]
    # from B, MIN's values are right but C's (searched below B's root) is not
    assert "the values differ first after a (MIN to move): value 1001, the reference 1013" in result.output


def test_the_time_limit_stops_a_search_that_never_ends() -> None:
    started = time.perf_counter()
    case = attrs.evolve(suite()[0], time_limit=0.3)
    result = grade(NeverEnds, [case], REFERENCE).results[0]
    assert result.output == "timed out after 0.3 s" and result.score == 0
    assert time.perf_counter() - started < 5


def test_an_exception_in_the_students_search_is_reported_with_its_line() -> None:
    result = grade(Crashes, suite()[:1], REFERENCE).results[0]
    assert result.output.startswith("KeyError: 'no such key' (line ")
    assert "test_grading.py" in result.output


def test_results_are_written_as_gradescope_expects() -> None:
    data = grade(CountsPlies, suite(), REFERENCE).as_gradescope()
    assert set(data) == {"score", "output", "tests"} and data["score"] == 0
    assert [set(test) for test in data["tests"]] == [{"name", "score", "max_score", "status", "output"}] * 2
    assert [(test["name"], test["max_score"], test["status"]) for test in data["tests"]] == [
        ("whole tree", 2, "failed"), ("MIN to move at C", 1, "failed"),
    ]  # fmt: skip


def test_a_recorded_position_records_each_push_once_and_its_copies_nothing() -> None:
    game = TreeGame.from_text(TREE)
    position, log = recording(game)
    position.push("l")
    position.copy().push("x")
    position.advance("y")
    assert log == [("l",), ("l", "y")]
    assert game.ply == 0 and type(position.copy()) is TreeGame


def test_a_case_refuses_a_bad_comparison_and_a_bad_time_limit() -> None:
    with pytest.raises(InvalidOptionError, match=r"'states' must be one of sequence, set, fewer, none: 'all'"):
        Case("x", TreeGame(), states="all")
    with pytest.raises(InvalidOptionError, match=r"'time_limit' must be > 0 seconds: 0"):
        Case("x", TreeGame(), time_limit=0)


def test_a_student_searcher_without_the_tests_options_fails_the_test_with_why() -> None:
    from gamesearch.search.minimax import Minimax

    result = grade(Minimax, suite()[:1], REFERENCE).results[0]
    assert "the student's searcher does not take the test's options: searcher 'minimax' has no option 'rounds'" in (
        result.output
    )


# ---------------------------------------------------------------- loading and the CLI
STUDENT_FILE = '''
import attrs
from gamesearch import Searcher


@attrs.frozen(kw_only=True)
class Minimal(Searcher):
    name = "minimal"

    def root(self, game, context):
        context.count_node(game)
        return context.answer(game, 0, [game.legal_moves()[0]])
'''


def test_a_student_searcher_is_loaded_from_a_file(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(STUDENT_FILE)
    assert load_searcher_class(f"{tmp_path / 'mine.py'}:Minimal").name == "minimal"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mine.py", r"a student searcher is written FILE.py:Class or module:Class: 'mine.py'"),
        ("{folder}/none.py:Minimal", r"no file '.*none.py'"),
        ("{folder}/mine.py:Other", r"'.*mine.py' has no class 'Other'"),
        ("{folder}/mine.py:attrs", r"'attrs' in '.*mine.py' is not a Searcher class"),
        ("{folder}/broken.py:Minimal", r"importing '.*broken.py' failed: NameError: name 'oops' is not defined"),
        ("no_such_module_here:Minimal", r"cannot import the module 'no_such_module_here'"),
    ],
)
def test_loading_a_student_searcher_says_what_is_wrong(tmp_path: Path, spec: str, message: str) -> None:
    (tmp_path / "mine.py").write_text(STUDENT_FILE)
    (tmp_path / "broken.py").write_text("oops\n")
    with pytest.raises(InvalidOptionError, match=message):
        load_searcher_class(spec.format(folder=tmp_path))


def test_the_grade_command_writes_gradescope_results_for_a_suite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "mine.py").write_text(STUDENT_FILE)
    (tmp_path / "tree.txt").write_text(TREE)
    (tmp_path / "suite.toml").write_text(textwrap.dedent(f'''
        reference = "{REFERENCE}"
        time_limit = 5
        options = {{ depth = 2 }}

        [[test]]
        name = "the whole tree"
        game = "tree"
        position = "tree.txt"
        max_score = 2

        [[test]]
        name = "values only"
        game = "tree"
        position = "tree.txt"
        states = "none"
    '''))
    results = tmp_path / "results.json"
    status, out, err = run_cli(
        capsys, "grade", f"{tmp_path / 'mine.py'}:Minimal", "--suite", str(tmp_path / "suite.toml"),
        "--results", str(results),
    )  # fmt: skip
    assert status == 1, err
    data = json.loads(results.read_text())
    assert data["score"] == 0 and [test["name"] for test in data["tests"]] == ["the whole tree", "values only"]
    assert "value 0, the reference 3" in data["tests"][1]["output"]
    assert "0 of 3 points, 0 of 2 tests passed; first difference in 'the whole tree'" in out


@pytest.mark.parametrize(
    ("suite", "message"),
    [
        ('[[test]]\nname = "x"\n', r"test 1 \('x'\) has no 'game'"),
        ('colour = "red"\n[[test]]\ngame = "tree"\n', r"unknown setting 'colour' in the suite"),
        ('[[test]]\ngame = "tree"\nshape = 1\n', r"unknown setting 'shape' in test 1"),
        ("reference = \n", r"the suite .* is not TOML"),
        ('[[test]]\ngame = "tree"\nmax_score = "two"\n', r"'max_score' in test 1 must be a number: 'two'"),
        ('[[test]]\ngame = "tree"\nstates = "all"\n', r"test 1: 'states' must be one of sequence, set, fewer, none: 'all'"),
        ('[[test]]\ngame = "tree"\noptions = 3\n', r"'options' in test 1 must be a table such as \{ depth = 2 \}: 3"),
        ('[[test]]\ngame = "chess960"\n', r"unknown game 'chess960'"),
        ('reference = "alphabeta"\n', r"the suite .* has no \[\[test\]\]"),
    ],
)
def test_the_grade_command_names_what_is_wrong_with_a_suite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suite: str, message: str
) -> None:
    (tmp_path / "mine.py").write_text(STUDENT_FILE)
    (tmp_path / "suite.toml").write_text(suite)
    status, _, err = run_cli(capsys, "grade", f"{tmp_path / 'mine.py'}:Minimal", "--suite", str(tmp_path / "suite.toml"))
    assert status == 2
    assert re.search(message, err), err


def test_the_grade_command_grades_positions_given_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "tree.txt").write_text(TREE)
    status, out, err = run_cli(
        capsys, "grade", "tests.test_grading:PrunesOnEquality", "--game", "tree", "--position", str(tmp_path / "tree.txt"),
        "--position", "A max: a -> 1, b -> 2", "--reference", REFERENCE, "-s", "rounds=1", "--json",
    )  # fmt: skip
    assert status == 1, err
    tests = json.loads(out)["tests"]
    assert [(test["name"].split(" (")[0], test["status"]) for test in tests] == [
        ("position 1", "failed"), ("position 2", "passed"),
    ]  # fmt: skip
    assert "does it prune on equality" in tests[0]["output"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--time-limit", "0", "--game", "tree"], r"--time-limit must be a number of seconds > 0: 0.0"),
        (["--game", "tree", "--results", "/nonexistent/results.json"], r"folder '/nonexistent' does not exist"),
        ([], r"give the tests: --suite SUITE.toml, or --game GAME with --position"),
        (["--suite", "s.toml", "--game", "tree"], r"give the tests in --suite or with --game and --position, not both"),
    ],
)
def test_the_grade_command_refuses_bad_arguments_before_any_work(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, _, err = run_cli(capsys, "grade", "tests.test_grading:Student", *argv)
    assert status == 2
    assert re.search(message, err), err


# ---------------------------------------------------------------- games of chance
@attrs.frozen(kw_only=True)
class Expectimax(Searcher):
    """A student's expectimax: chance nodes are worth their outcomes' mean, by probability."""

    name: ClassVar[str] = "student-expectimax"
    needs_no_chance: ClassVar[bool] = False
    expected_values: ClassVar[bool] = True
    mistake: ClassVar[str] = ""  #: "uniform": the outcomes' plain mean; "min": chance minimises

    def mean(self, game: Any, values: list[Fraction]) -> Fraction:
        if self.mistake == "uniform":
            return sum(values, Fraction(0)) / len(values)
        if self.mistake == "min":
            return min(values)
        weights = [probability for _, probability in game.chance_outcomes()]
        return sum((weight * value for weight, value in zip(weights, values)), Fraction(0))

    def value(self, game: Any, context: SearchContext) -> Fraction:
        context.count_node(game)
        if game.result() is not None:
            return Fraction(game.result())
        values = []
        for move in game.legal_moves():
            game.push(move)
            values.append(self.value(game, context))
            game.undo()
        if game.to_move() == CHANCE:
            return self.mean(game, values)
        return max(values) if game.to_move() == 0 else min(values)

    def root(self, game: Any, context: SearchContext) -> RootAnswer:
        context.count_node(game)
        values = []
        for move in game.legal_moves():
            game.push(move)
            values.append((move, self.value(game, context)))
            game.undo()
        if game.to_move() == CHANCE:  # every outcome, and their mean
            mean = self.mean(game, [value for _, value in values])
            return context.answer(game, mean, [move for move, _ in values], values)
        best = (max if game.to_move() == 0 else min)(value for _, value in values)
        return context.answer(game, best, [move for move, value in values if value == best], values)


@attrs.frozen(kw_only=True)
class UniformChance(Expectimax):
    mistake: ClassVar[str] = "uniform"


@attrs.frozen(kw_only=True)
class ChanceMinimises(Expectimax):
    mistake: ClassVar[str] = "min"


#: the probabilities have two denominators: expectiminimax's generated positions, each
#: counted once, are still the order a depth-first search generates them in
CHANCE_CASES = [Case("a gamble", TreeGame.from_text(
    "A max: l -> C, r -> 1; C chance: h 1/2 -> 4, t 1/4 -> -2, x 1/4 -> D; D min: a -> 3, b -> 0"
))]  # fmt: skip


def test_the_grader_grades_an_expectimax_against_expectiminimax() -> None:
    assert grade(Expectimax, CHANCE_CASES, "expectiminimax").results[0].passed
    result = grade(UniformChance, CHANCE_CASES, "expectiminimax").results[0]
    # (4 - 2 + 0) / 3 = 2/3 for the gamble: the sure 1 looks better
    assert result.output == (
        "value 1, the reference 3/2; the values differ first after l (chance): value 2/3, the reference 3/2; "
        "searched from each of its outcomes, the search agrees with the reference; its value is the plain "
        "mean of its outcomes' values: weigh each outcome by its probability (chance_outcomes()); "
        "move r is not among the reference's best moves (l)"
    )


def test_the_grader_catches_an_expectimax_that_takes_a_chance_position_for_a_minimiser() -> None:
    result = grade(ChanceMinimises, CHANCE_CASES, "expectiminimax").results[0]
    assert result.output.startswith(
        "value 1, the reference 3/2; the values differ first after l (chance): value -2, the reference 3/2; "
        "searched from each of its outcomes, the search agrees with the reference; its value is its smallest "
        "outcome's, as if chance were a player: a chance position is worth the probability-weighted mean of "
        "its outcomes"
    )


def test_a_student_searcher_that_refuses_chance_says_so() -> None:
    result = grade(Student, CHANCE_CASES, "expectiminimax").results[0]
    assert result.output == "UnsupportedGameError: searcher 'student' cannot search 'tree': it cannot search games of chance"


# ------------------------------------------------------------ several agents
#: CS188's multi-agent search: agent 0 maximises its score, the ghosts (agents 1 and 2)
#: minimise it; one round is a move of each of the three
GHOSTS = """
agents 3
A agent 0: l -> B, r -> C
B agent 1: x -> D, y -> E
C agent 1: z -> F
D agent 2: p -> 4, q -> 1
E agent 2: s -> 6
F agent 2: t -> 3, u -> 8
"""


@attrs.frozen(kw_only=True)
class GhostMinimax(Searcher):
    """A student's multi-agent minimax: agent 0 maximises its utility, every other agent minimises it."""

    name: ClassVar[str] = "student-ghosts"
    needs_two_players: ClassVar[bool] = False
    needs_single_value: ClassVar[bool] = False
    rounds: int | None = attrs.field(default=None, metadata={"help": "rounds of every agent"})
    counts_plies: ClassVar[bool] = False

    def value(self, game: Any, depth: float, context: SearchContext) -> int:
        context.count_node(game)
        if game.result() is not None:
            return int(game.result()[0])
        if depth == 0:
            return int(game.evaluate()[0])
        values = []
        for move in game.legal_moves():
            game.push(move)
            values.append(self.value(game, depth - 1, context))
            game.undo()
        return max(values) if game.to_move() == 0 else min(values)

    def root(self, game: Any, context: SearchContext) -> RootAnswer:
        context.count_node(game)
        agents = 1 if self.counts_plies else game.rules.players
        depth = float("inf") if self.rounds is None else self.rounds * agents
        values = []
        for move in game.legal_moves():
            game.push(move)
            values.append((move, self.value(game, depth - 1, context)))
            game.undo()
        best = max(value for _, value in values)
        return context.answer(game, best, [move for move, value in values if value == best], values)


@attrs.frozen(kw_only=True)
class GhostPlies(GhostMinimax):
    counts_plies: ClassVar[bool] = True


def test_the_grader_catches_a_depth_in_plies_among_three_agents() -> None:
    case = Case("three agents, one round", TreeGame.from_text(GHOSTS), {"rounds": 1})
    assert grade(GhostMinimax, [case], "paranoid").results[0].output == (
        "value 3, move r, 10 positions generated: as the reference"
    )
    result = grade(GhostPlies, [case], "paranoid").results[0]
    assert result.output == (
        "value 0, the reference 3; move l is not among the reference's best moves (r); 2 positions generated, "
        "the reference 10; generated position 2 is after r, the reference's after l x; the search goes 1 moves "
        "deep, the reference 3: is the depth counted in plies instead of rounds? A round is one move of each "
        "of the 3 players"
    )


def test_a_test_of_a_suite_may_name_its_own_reference(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ghosts.txt").write_text(GHOSTS)
    (tmp_path / "suite.toml").write_text(textwrap.dedent('''
        reference = "textbook-alphabeta"

        [[test]]
        name = "pac-man against two ghosts"
        game = "tree"
        position = "ghosts.txt"
        reference = "paranoid"
        options = { rounds = 1 }

        [[test]]
        name = "a wrong reference"
        game = "tree"
        position = "ghosts.txt"
        reference = 3
    '''))
    status, _, err = run_cli(capsys, "grade", "tests.test_grading:GhostMinimax", "--suite", str(tmp_path / "suite.toml"))
    assert status == 2
    assert "'reference' in test 2 ('a wrong reference') must be text such as \"paranoid:rounds=1\": 3" in err
    text = (tmp_path / "suite.toml").read_text()
    (tmp_path / "suite.toml").write_text(text[: text.index("[[test]]\nname = \"a wrong")])
    status, out, err = run_cli(capsys, "grade", "tests.test_grading:GhostMinimax", "--suite", str(tmp_path / "suite.toml"))
    assert status == 0, err
    assert "passed  pac-man against two ghosts (1/1): value 3, move r, 10 positions generated: as the reference" in out
