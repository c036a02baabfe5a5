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

from gamesearch import Searcher, capabilities, default_registry
from gamesearch.errors import InvalidOptionError
from gamesearch.rules import CHANCE, chance_heuristic, final_utilities
from gamesearch.search.base import INFINITY, RootAnswer, SearchContext
from gamesearch.search.multiplayer import leaf_utilities
from gamesearch.testing.grading import Case, grade, load_searcher_class, recording
from gamesearch_games.pig import Pig
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

    def value(
        self, game: Any, depth: float, alpha: float, beta: float, context: SearchContext
    ) -> float:
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
    report = grade(
        shared,
        [
            attrs.evolve(
                case, options={**case.options, "root_window": "shared", "prune_on_equality": False}
            )
            for case in suite()
        ],
        REFERENCE,
    )
    assert report.score == report.max_score


def test_the_grader_catches_a_searcher_that_prunes_on_equality() -> None:
    result = grade(PrunesOnEquality, suite(), REFERENCE).results[0]
    assert not result.passed and result.score == 0
    assert "5 positions generated, the reference 6" in result.output
    assert (
        "generated position 6 is none (the search stops), the reference's after r w"
        in result.output
    )
    assert (
        "does it prune on equality (alpha >= beta) where only alpha > beta may prune?"
        in result.output
    )


def test_the_grader_catches_a_depth_counted_in_plies_instead_of_rounds() -> None:
    result = grade(CountsPlies, suite(), REFERENCE).results[0]
    assert "value 4, the reference 3" in result.output
    assert "move r is not among the reference's best moves (l)" in result.output
    assert (
        "the search goes 1 move deep, the reference 2: is the depth counted in plies instead of "
        "rounds? "
        "A round is one move of each of the 2 players"
    ) in result.output


def test_the_grader_catches_a_sign_error_and_names_the_first_position_it_shows_in() -> None:
    report = grade(SignError, suite(), REFERENCE)
    assert [result.passed for result in report.results] == [True, False]
    assert report.first_failure is report.results[1]
    assert "value -1, the reference 1 (the opposite sign: values are from the first player's" in (
        report.results[1].output
    )
    assert report.summary().startswith(
        "2 of 3 points, 1 of 2 tests passed; first difference in 'MIN to move at C'"
    )


def test_the_grader_names_the_first_position_whose_value_is_wrong() -> None:
    # the AIMA tree: MAX's root value is right, but from B (MIN to move) the sign flips
    case = Case("MIN's turn inside", TreeGame.from_text(TreeGame().to_text() + "; at B"))
    result = grade(SignError, [case], REFERENCE).results[0]
    assert result.output.startswith(
        "value -3, the reference 3 (the opposite sign: values are from the first player's "
        "point of view, "
        "whoever is to move); the values differ at the position itself (MIN to move); searched "
        "from each of "
        "its moves, the search agrees with the reference"
    )


@attrs.frozen(kw_only=True)
class WrongBelowTheRoot(Student):
    """Takes the smallest value at MAX's positions below the root."""

    def value(
        self, game: Any, depth: float, alpha: float, beta: float, context: SearchContext
    ) -> float:
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
    result = grade(WrongBelowTheRoot, [Case("deep", TreeGame.from_text(tree))], REFERENCE).results[
        0
    ]
    # from B, MIN's values are right but C's (searched below B's root) is not
    assert (
        "the values differ first after a (MIN to move): value 2, the reference 5" in result.output
    )


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
    assert set(data) == {"score", "output", "tests", "execution_time", "stdout_visibility"}
    assert data["score"] == 0 and data["stdout_visibility"] == "hidden"
    assert [set(test) for test in data["tests"]] == [
        {"name", "number", "score", "max_score", "status", "output", "visibility", "tags"}
    ] * 2
    assert [(test["number"], test["visibility"]) for test in data["tests"]] == [
        ("1", "visible"),
        ("2", "visible"),
    ]
    assert [(test["name"], test["max_score"], test["status"]) for test in data["tests"]] == [
        ("whole tree", 2, "failed"),
        ("MIN to move at C", 1, "failed"),
    ]


def test_a_recorded_position_records_each_push_once_and_its_copies_nothing() -> None:
    game = TreeGame.from_text(TREE)
    position, log = recording(game)
    position.push("l")
    position.copy().push("x")
    capabilities.advancer(position)("y")
    assert log == [("l",), ("l", "y")]
    assert game.ply == 0 and type(position.copy()) is TreeGame


def test_a_case_refuses_a_bad_comparison_and_a_bad_time_limit() -> None:
    with pytest.raises(
        InvalidOptionError, match=r"'states' must be one of sequence, set, fewer, none: 'all'"
    ):
        Case("x", TreeGame(), states="all")
    with pytest.raises(InvalidOptionError, match=r"'time_limit' must be > 0 seconds: 0"):
        Case("x", TreeGame(), time_limit=0)


def test_a_student_searcher_without_the_tests_options_fails_the_test_with_why() -> None:
    from gamesearch.search.minimax import Minimax

    result = grade(Minimax, suite()[:1], REFERENCE).results[0]
    assert (
        "the student's searcher does not take the test's options: searcher 'minimax': unknown "
        "option 'rounds'" in (result.output)
    )


# ---------------------------------------------------------------- loading and the CLI
STUDENT_FILE = """
import attrs
from gamesearch import Searcher


@attrs.frozen(kw_only=True)
class Minimal(Searcher):
    name = "minimal"

    def root(self, game, context):
        context.count_node(game)
        return context.answer(game, 0, [game.legal_moves()[0]])
"""


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
        (
            "{folder}/broken.py:Minimal",
            r"importing '.*broken.py' failed: NameError: name 'oops' is not defined",
        ),
        ("no_such_module_here:Minimal", r"cannot import the module 'no_such_module_here'"),
    ],
)
def test_loading_a_student_searcher_says_what_is_wrong(
    tmp_path: Path, spec: str, message: str
) -> None:
    (tmp_path / "mine.py").write_text(STUDENT_FILE)
    (tmp_path / "broken.py").write_text("oops\n")
    with pytest.raises(InvalidOptionError, match=message):
        load_searcher_class(spec.format(folder=tmp_path))


def test_the_grade_command_writes_gradescope_results_for_a_suite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "mine.py").write_text(STUDENT_FILE)
    (tmp_path / "tree.txt").write_text(TREE)
    (tmp_path / "suite.toml").write_text(
        textwrap.dedent(f'''
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
    ''')
    )
    results = tmp_path / "results.json"
    status, out, err = run_cli(
        capsys,
        "grade",
        f"{tmp_path / 'mine.py'}:Minimal",
        "--suite",
        str(tmp_path / "suite.toml"),
        "--results",
        str(results),
    )
    assert status == 1, err
    data = json.loads(results.read_text())
    assert data["score"] == 0 and [test["name"] for test in data["tests"]] == [
        "the whole tree",
        "values only",
    ]
    assert "value 0, the reference 3" in data["tests"][1]["output"]
    assert "0 of 3 points, 0 of 2 tests passed; first difference in 'the whole tree'" in out


@pytest.mark.parametrize(
    ("suite", "message"),
    [
        ('[[test]]\nname = "x"\n', r"test 1 \('x'\) has no 'game'"),
        ('colour = "red"\n[[test]]\ngame = "tree"\n', r"unknown setting 'colour' in the suite"),
        ('[[test]]\ngame = "tree"\nshape = 1\n', r"unknown setting 'shape' in test 1"),
        ("reference = \n", r"the suite .* is not TOML"),
        (
            '[[test]]\ngame = "tree"\nmax_score = "two"\n',
            r"'max_score' in test 1 must be a number: 'two'",
        ),
        (
            '[[test]]\ngame = "tree"\nstates = "all"\n',
            r"test 1: 'states' must be one of sequence, set, fewer, none: 'all'",
        ),
        (
            '[[test]]\ngame = "tree"\noptions = 3\n',
            r"'options' in test 1 must be a table such as \{ depth = 2 \}: 3",
        ),
        ('[[test]]\ngame = "chess960"\n', r"unknown game 'chess960'"),
        ('reference = "alphabeta"\n', r"the suite .* has no \[\[test\]\]"),
        (
            '[[test]]\ngame = "tree"\nutilities = "yes"\n',
            r"'utilities' in test 1 must be true or false: 'yes'",
        ),
        (
            'utilities = 1\n[[test]]\ngame = "tree"\n',
            r"'utilities' in test 1 must be true or false: 1",
        ),
        (
            '[[test]]\ngame = "tree"\nstates_reference = 2\n',
            r"'states_reference' in test 1 must be text",
        ),
    ],
)
def test_the_grade_command_names_what_is_wrong_with_a_suite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suite: str, message: str
) -> None:
    (tmp_path / "mine.py").write_text(STUDENT_FILE)
    (tmp_path / "suite.toml").write_text(suite)
    status, _, err = run_cli(
        capsys, "grade", f"{tmp_path / 'mine.py'}:Minimal", "--suite", str(tmp_path / "suite.toml")
    )
    assert status == 2
    assert re.search(message, err), err


def test_the_grade_command_grades_positions_given_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "tree.txt").write_text(TREE)
    status, out, err = run_cli(
        capsys,
        "grade",
        "tests.test_grading:PrunesOnEquality",
        "--game",
        "tree",
        "--position",
        str(tmp_path / "tree.txt"),
        "--position",
        "A max: a -> 1, b -> 2",
        "--reference",
        REFERENCE,
        "-s",
        "rounds=1",
        "--json",
    )
    assert status == 1, err
    tests = json.loads(out)["tests"]
    assert [(test["name"].split(" (")[0], test["status"]) for test in tests] == [
        ("position 1", "failed"),
        ("position 2", "passed"),
    ]
    assert "does it prune on equality" in tests[0]["output"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--time-limit", "0", "--game", "tree"],
            r"--time-limit must be a number of seconds > 0: 0.0",
        ),
        (
            ["--game", "tree", "--results", "/nonexistent/results.json"],
            r"folder '/nonexistent' does not exist",
        ),
        ([], r"give the tests: --suite SUITE.toml, or --game GAME with --position"),
        (
            ["--suite", "s.toml", "--game", "tree"],
            r"give the tests in --suite or with --game and --position, not both",
        ),
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
        return sum(
            (weight * value for weight, value in zip(weights, values, strict=True)), Fraction(0)
        )

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
        return self.choose(game, values)

    def choose(self, game: Any, values: list[Fraction]) -> Fraction:
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
        best = self.choose(game, [value for _, value in values])
        return context.answer(game, best, [move for move, value in values if value == best], values)


@attrs.frozen(kw_only=True)
class UniformChance(Expectimax):
    mistake: ClassVar[str] = "uniform"


@attrs.frozen(kw_only=True)
class ChanceMinimises(Expectimax):
    mistake: ClassVar[str] = "min"


#: the probabilities have two denominators: expectiminimax's generated positions, each
#: counted once, are still the order a depth-first search generates them in
CHANCE_CASES = [
    Case(
        "a gamble",
        TreeGame.from_text(
            "A max: l -> C, r -> 1; C chance: h 1/2 -> 4, t 1/4 -> -2, x 1/4 -> D; D min: a -> 3, "
            "b -> 0"
        ),
    )
]


def test_the_grader_grades_an_expectimax_against_expectiminimax() -> None:
    assert grade(Expectimax, CHANCE_CASES, "expectiminimax").results[0].passed
    result = grade(UniformChance, CHANCE_CASES, "expectiminimax").results[0]
    # (4 - 2 + 0) / 3 = 2/3 for the gamble: the sure 1 looks better
    assert result.output == (
        "value 1, the reference 3/2; the values differ first after l (chance): value 2/3, the "
        "reference 3/2; "
        "searched from each of its outcomes, the search agrees with the reference; its value is "
        "the plain "
        "mean of its outcomes' values: weigh each outcome by its probability (chance_outcomes()); "
        "move r is not among the reference's best moves (l)"
    )


def test_the_grader_catches_an_expectimax_that_takes_a_chance_position_for_a_minimiser() -> None:
    result = grade(ChanceMinimises, CHANCE_CASES, "expectiminimax").results[0]
    assert result.output.startswith(
        "value 1, the reference 3/2; the values differ first after l (chance): value -2, the "
        "reference 3/2; "
        "searched from each of its outcomes, the search agrees with the reference; its value is "
        "its smallest "
        "outcome's, as if chance were a player: a chance position is worth the "
        "probability-weighted mean of "
        "its outcomes"
    )


def test_a_student_searcher_that_refuses_chance_says_so() -> None:
    result = grade(Student, CHANCE_CASES, "expectiminimax").results[0]
    assert (
        result.output
        == "UnsupportedGameError: searcher 'student' cannot search 'tree': it cannot search games "
        "of chance"
    )


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
class SeveralAgents(Searcher):
    """What a student's searcher of several agents declares: utilities, and a depth in rounds."""

    needs_two_players: ClassVar[bool] = False
    needs_single_value: ClassVar[bool] = False
    rounds: int | None = attrs.field(default=None, metadata={"help": "rounds of every agent"})


@attrs.frozen(kw_only=True)
class GhostMinimax(SeveralAgents):
    """A student's multi-agent minimax: agent 0 maximises its utility, every other agent
    minimises it."""

    name: ClassVar[str] = "student-ghosts"
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
        "value 0, the reference 3; move l is not among the reference's best moves (r); 2 positions "
        "generated, "
        "the reference 10; generated position 2 is after r, the reference's after l x; the search "
        "goes 1 move "
        "deep, the reference 3: is the depth counted in plies instead of rounds? A round is one "
        "move of each "
        "of the 3 players"
    )


def test_a_test_of_a_suite_may_name_its_own_reference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "ghosts.txt").write_text(GHOSTS)
    (tmp_path / "suite.toml").write_text(
        textwrap.dedent("""
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
    """)
    )
    status, _, err = run_cli(
        capsys, "grade", "tests.test_grading:GhostMinimax", "--suite", str(tmp_path / "suite.toml")
    )
    assert status == 2
    assert (
        "'reference' in test 2 ('a wrong reference') must be text such as \"paranoid:rounds=1\": 3"
        in err
    )
    text = (tmp_path / "suite.toml").read_text()
    (tmp_path / "suite.toml").write_text(text[: text.index('[[test]]\nname = "a wrong')])
    status, out, err = run_cli(
        capsys, "grade", "tests.test_grading:GhostMinimax", "--suite", str(tmp_path / "suite.toml")
    )
    assert status == 0, err
    assert (
        "passed  pac-man against two ghosts (1/1): value 3, move r, 10 positions generated: as the "
        "reference" in out
    )


@attrs.frozen(kw_only=True)
class ChanceSignError(Expectimax):
    """MIN takes the largest value too."""

    def choose(self, game: Any, values: list[Fraction]) -> Fraction:
        return max(values)


def test_the_grader_follows_a_wrong_value_through_a_chance_position_to_the_player_who_errs() -> (
    None
):
    result = grade(ChanceSignError, CHANCE_CASES, "expectiminimax").results[0]
    # D is worth min(3, 0) = 0; taken as 3, the gamble is worth 1/2 * 4 - 1/4 * 2 + 1/4 * 3 = 9/4
    assert result.output == (
        "value 9/4, the reference 3/2; the values differ first after l x (MIN to move): value 3, "
        "the reference 0; "
        "searched from each of its moves, the search agrees with the reference; its value is the "
        "largest of its "
        "moves' values, where MIN takes the smallest"
    )


@attrs.frozen(kw_only=True)
class FloatMean(Expectimax):
    """Expectimax in floating point."""

    def mean(self, game: Any, values: list[Fraction]) -> Fraction:
        return float(super().mean(game, values))  # type: ignore[return-value]


def test_a_value_in_floating_point_is_flagged_when_it_is_not_exact() -> None:
    tree = TreeGame.from_text(
        "A max: a -> C, b -> -1; C chance: x 1/3 -> 1, y 1/3 -> 0, z 1/3 -> 0"
    )
    result = grade(FloatMean, [Case("thirds", tree)], "expectiminimax").results[0]
    assert result.output.startswith(
        "value 0.3333333333333333, the reference 1/3 (a float: keep values exact with "
        "fractions.Fraction, "
        "as a float rounds)"
    )
    halves = TreeGame.from_text("A max: a -> C, b -> -1; C chance: x 1/2 -> 1, y 1/2 -> 0")
    assert (
        grade(FloatMean, [Case("halves", halves)], "expectiminimax").results[0].passed
    )  # 0.5 is exact


@attrs.frozen(kw_only=True)
class LooksAhead(Expectimax):
    """A reference that first plays the first move of every position down to the end."""

    def root(self, game: Any, context: SearchContext) -> RootAnswer:
        played = 0
        while game.result() is None:
            game.push(game.legal_moves()[0])
            played += 1
        for _ in range(played):
            game.undo()
        return super().root(game, context)


def test_positions_a_reference_generates_again_count_once_where_first_generated() -> None:
    result = grade(Expectimax, CHANCE_CASES, LooksAhead).results[0]
    assert result.output == "value 3/2, move l, 7 positions generated: as the reference"


def test_a_pruning_search_passes_with_fewer_positions_and_fails_without() -> None:
    pig = Pig.from_text("2-1 B+0 3 3", goal=4, faces=3, horizon=6)
    case = Case("prune", pig, states="fewer")
    result = grade(
        load_searcher_class("gamesearch.search.expectimax:Star1"), [case], "expectiminimax"
    ).results[0]
    assert result.passed and re.fullmatch(
        r"value -1/3, move roll: as the reference; (\d+) positions generated, fewer than the "
        r"reference's 39",
        result.output,
    )
    assert grade(Expectimax, [case], "expectiminimax").results[0].output == (
        "39 positions generated, the reference 39: a pruning search generates fewer (at a chance "
        "position, "
        "stop once the outcomes left cannot bring the mean back inside the window)"
    )


@attrs.frozen(kw_only=True)
class IgnoresDepth(Expectimax):
    """Takes a depth and searches to the end all the same."""

    depth: int | None = attrs.field(default=None, metadata={"help": "ignored"})


def test_a_pruning_search_that_generates_a_position_the_reference_does_not_fails() -> None:
    case = attrs.evolve(CHANCE_CASES[0], options={"depth": 1}, states="fewer")
    result = grade(IgnoresDepth, [case], "expectiminimax").results[0]
    assert re.search(
        r"; the search generates after l \w+, the reference does not$", result.output
    ), result.output


# ---------------------------------------------------------- max^n's utilities
#: three agents, each maximising its own utility: after l, agent 1 picks x (2 for it);
#: after r, agent 1 picks z, where agent 2 then picks t
MAXN = """
agents 3
A agent 0: l -> B, r -> C
B agent 1: x -> (1, 2, 0), y -> (4, 0, 1)
C agent 1: z -> D
D agent 2: t -> (2, 1, 3), u -> (3, 1, 0)
"""


@attrs.frozen(kw_only=True)
class StudentMaxN(SeveralAgents):
    """A student's max^n: each agent takes the utilities best for itself (the first on a tie)."""

    name: ClassVar[str] = "student-maxn"
    gives_utilities: ClassVar[bool] = True
    for_the_root_agent: ClassVar[bool] = False  #: every agent maximises agent 0's utility

    def value(self, game: Any, context: SearchContext) -> tuple[int, ...]:
        context.count_node(game)
        if game.result() is not None:
            return tuple(final_utilities(game))
        mover = 0 if self.for_the_root_agent else game.to_move()
        best = None
        for move in game.legal_moves():
            game.push(move)
            child = self.value(game, context)
            game.undo()
            if best is None or child[mover] > best[mover]:
                best = child
        assert best is not None
        return best

    def root(self, game: Any, context: SearchContext) -> RootAnswer:
        context.count_node(game)
        found = []
        for move in game.legal_moves():
            game.push(move)
            found.append((move, self.value(game, context)))
            game.undo()
        mover = game.to_move()
        move, best = max(found, key=lambda pair: pair[1][mover])
        answer = context.answer(
            game, best[mover], [move], [(move, value[mover]) for move, value in found]
        )
        return attrs.evolve(answer, utilities=best) if self.gives_utilities else answer


@attrs.frozen(kw_only=True)
class MaxNForTheRoot(StudentMaxN):
    for_the_root_agent: ClassVar[bool] = True


@attrs.frozen(kw_only=True)
class MaxNWithoutUtilities(StudentMaxN):
    gives_utilities: ClassVar[bool] = False


def test_the_grader_compares_every_agents_utility_under_maxn() -> None:
    case = Case("three agents", TreeGame.from_text(MAXN), utilities=True)
    assert grade(StudentMaxN, [case], "maxn:pruning=false").results[0].output == (
        "value 2, utilities agent 0 2, agent 1 1, agent 2 3, move r, 7 positions generated: as the "
        "reference"
    )
    result = grade(MaxNForTheRoot, [case], "maxn:pruning=false").results[0]
    assert result.output == (
        "value 4, the reference 2; utilities agent 0 4, agent 1 0, agent 2 1, the reference agent "
        "0 2, agent 1 1, "
        "agent 2 3; move l is not among the reference's best moves (r); the positions are the "
        "reference's but "
        "not the values: does each player take the largest or the smallest value as it should, of "
        "the right "
        "player's utility?"
    )
    assert grade(MaxNWithoutUtilities, [case], "maxn:pruning=false").results[0].output == (
        "no utilities: give one per player in the answer (RootAnswer's utilities)"
    )


def test_a_reference_without_utilities_cannot_grade_them() -> None:
    case = Case("gamble", CHANCE_CASES[0].position, utilities=True)
    with pytest.raises(
        InvalidOptionError, match=r"the reference gives no utilities to compare on 'gamble'"
    ):
        grade(Expectimax, [case], "expectiminimax")


def test_the_generated_positions_may_be_another_searchers() -> None:
    # paranoid prunes C's second move (agent 2 can hold agent 0 to 2 < 1? no: to 2 and x
    # gave 1); the full tree is max^n's without pruning
    case = Case(
        "paranoid", TreeGame.from_text(GHOSTS), {"rounds": 1}, states_reference="maxn:pruning=false"
    )
    assert grade(GhostMinimax, [case], "paranoid").results[0].passed
    result = grade(GhostPlies, [case], "paranoid").results[0]
    assert (
        "the search goes 1 move deep, the reference 3: is the depth counted in plies instead of "
        "rounds?" in (result.output)
    )


@attrs.frozen(kw_only=True)
class GhostOneMore(GhostMinimax):
    """Searches as many moves below the root's move as there are rounds (one move a round)."""

    counts_plies: ClassVar[bool] = True

    def root(self, game: Any, context: SearchContext) -> RootAnswer:
        rounds = self.rounds
        return super(
            GhostOneMore, attrs.evolve(self, rounds=None if rounds is None else rounds + 1)
        ).root(game, context)


def test_a_depth_of_rounds_taken_as_moves_below_the_root_move_is_named_too() -> None:
    ghosts = Path(__file__).resolve().parent.parent / "docs" / "coursework" / "trees" / "ghosts.txt"
    case = Case("two rounds", TreeGame.from_text(ghosts.read_text()), {"rounds": 2})
    result = grade(GhostOneMore, [case], "paranoid").results[0]
    assert result.output.endswith(
        "the search goes 3 moves deep, the reference 4: is the depth counted in plies instead of "
        "rounds? "
        "A round is one move of each of the 3 players"
    )


# ------------------------------------------------------------------ best-reply search
def pass_to(game: Any, player: int) -> int:
    """Pass the turn until ``player`` is to move; return the passes made."""
    passes = 0
    while game.to_move() != player:
        game.make_null_move()
        passes += 1
    return passes


def take_back(game: Any, passes: int) -> None:
    for _ in range(passes):
        game.unmake_null_move()


@attrs.frozen(kw_only=True)
class StudentBestReply(SeveralAgents):
    """A student's best-reply search: between two moves of the root mover, one opponent replies
    (every move of every opponent at one level, the others passing), the worst for the root
    mover."""

    name: ClassVar[str] = "student-brs"
    replies_of_one: ClassVar[bool] = False  #: only the next opponent replies (paranoid of one)

    def value(self, game: Any, player: int, depth: int, context: SearchContext) -> Any:
        context.count_node(game)
        if game.result() is not None or depth == 0:
            return leaf_utilities(game)[player]
        values = []
        if game.to_move() == player:
            for move in game.legal_moves():
                game.push(move)
                values.append(self.value(game, player, depth - 1, context))
                game.undo()
            return max(values)
        first, players = game.to_move(), game.rules.players
        opponents = [
            (first + step) % players
            for step in range(players)
            if (first + step) % players != player
        ]
        for opponent in opponents[:1] if self.replies_of_one else opponents:
            passes = pass_to(game, opponent)
            for move in game.legal_moves():
                game.push(move)
                passed = 0 if game.result() is not None else pass_to(game, player)
                values.append(self.value(game, player, depth - 1, context))
                take_back(game, passed)
                game.undo()
            take_back(game, passes)
        return min(values)

    def root(self, game: Any, context: SearchContext) -> RootAnswer:
        context.count_node(game)
        player, depth = game.to_move(), (self.rounds or 1) * game.rules.players
        values = []
        for move in game.legal_moves():
            game.push(move)
            values.append((move, self.value(game, player, depth - 1, context)))
            game.undo()
        best = max(value for _, value in values)
        return context.answer(game, best, [move for move, value in values if value == best], values)


@attrs.frozen(kw_only=True)
class OneOpponentReplies(StudentBestReply):
    replies_of_one: ClassVar[bool] = True


def test_the_grader_grades_a_best_reply_search_with_the_depth_in_rounds() -> None:
    # values and moves: the library prunes, with windows of its own at the root
    case = Case(
        "best reply",
        default_registry().new_game("mnk3", "AB./.C./..."),
        {"rounds": 1},
        states="none",
    )
    assert grade(StudentBestReply, [case], "brs").results[0].passed
    result = grade(OneOpponentReplies, [case], "brs").results[0]
    assert (
        result.output
        == "value 1013/1000, the reference 1009/1000; move 6 is not among the reference's best "
        "moves (2, 5, 8)"
    )


@attrs.frozen(kw_only=True)
class ChanceToDepth(Expectimax):
    """Expectimax to a depth of players' moves; ``chance_costs``: an outcome takes one off too."""

    depth: int | None = attrs.field(default=None, metadata={"help": "players' moves"})
    chance_costs: ClassVar[bool] = False

    def to_depth(self, game: Any, depth: int, context: SearchContext) -> Fraction:
        context.count_node(game)
        if game.result() is not None:
            return Fraction(game.result())
        if depth == 0:
            return chance_heuristic(game.rules, game.evaluate(), type(game).evaluation_bound)
        at_chance = game.to_move() == CHANCE
        values = []
        for move in game.legal_moves():
            game.push(move)
            values.append(
                self.to_depth(game, depth - (not at_chance or self.chance_costs), context)
            )
            game.undo()
        return self.mean(game, values) if at_chance else self.choose(game, values)

    def root(self, game: Any, context: SearchContext) -> RootAnswer:
        context.count_node(game)
        depth = self.depth or 1
        values = []
        for move in game.legal_moves():
            game.push(move)
            values.append((move, self.to_depth(game, depth - 1, context)))
            game.undo()
        best = self.choose(game, [value for _, value in values])
        return context.answer(game, best, [move for move, value in values if value == best], values)


@attrs.frozen(kw_only=True)
class ChanceCostsDepth(ChanceToDepth):
    chance_costs: ClassVar[bool] = True


def test_the_grader_asks_whether_an_outcome_of_chance_is_counted_as_a_move() -> None:
    # a first line that ends at once; below the roll, D is searched with the one move left
    tree = TreeGame.from_text(
        "A max: a -> 0, b -> C; C chance: h 1/2 -> D, t 1/2 -> 2; D min eval 10: x -> E, y -> 3; E "
        "max eval 20: e -> 5"
    )
    case = Case("to a depth", tree, {"depth": 2})
    assert grade(ChanceToDepth, [case], "expectiminimax").results[0].passed
    assert (
        grade(ChanceCostsDepth, [case], "expectiminimax")
        .results[0]
        .output.endswith(
            "the search goes 2 moves deep, the reference 3: does it count an outcome of chance as "
            "a move? The depth "
            "counts the players' moves only"
        )
    )
