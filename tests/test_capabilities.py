"""Capabilities as named protocols: which a game offers, searchers refusing a game that
lacks one they need (naming the protocol), and problem files found by declaration."""

from __future__ import annotations

import inspect
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from gamesearch import default_registry
from gamesearch.capabilities import (
    CAPABILITIES,
    MEMBERS,
    Chance,
    EngineHints,
    FastMoves,
    Heuristic,
    MoveOrdering,
    NullMove,
    Presentation,
    ProblemFiles,
    ThreatHints,
    declares,
    offered,
)
from gamesearch.errors import ConformanceError, UnsupportedGameError
from gamesearch.problems import Problem, problem_files_member, read_problems
from gamesearch.testing import check_game
from gamesearch_games.mnk3 import ThreePlayerMNK
from gamesearch_games.pig import Pig
from gamesearch_games.tictactoe import TicTacToe

MINIMAL = Path(__file__).resolve().parent.parent / "docs" / "examples" / "minimal"


def protocol_members(protocol: type) -> set[str]:
    """Return the names a protocol class declares: its annotations and its methods."""
    own = {
        name
        for name, value in vars(protocol).items()
        if not name.startswith("_")
        and (inspect.isfunction(value) or isinstance(value, classmethod))
    }
    return own | set(vars(protocol).get("__annotations__", {}))


@pytest.mark.parametrize("capability", CAPABILITIES, ids=lambda cap: cap.__name__)
def test_each_protocol_lists_the_members_the_framework_looks_for(capability: type) -> None:
    assert set(MEMBERS[capability]) == protocol_members(capability)


def test_the_minimal_game_offers_only_its_player_names_and_tictactoe_what_it_writes() -> None:
    sys.path.insert(0, str(MINIMAL))
    try:
        from tiny_tictactoe import TinyTicTacToe
    finally:
        sys.path.remove(str(MINIMAL))
    assert [cap for cap in CAPABILITIES if offered(TinyTicTacToe, cap)] == [Presentation]
    assert {cap for cap in CAPABILITIES if offered(TicTacToe.new(), cap)} == {
        Heuristic,
        MoveOrdering,
        EngineHints,
        FastMoves,
        Presentation,
    }
    assert offered(Pig, Chance) and not offered(TicTacToe, Chance)
    assert offered(ThreePlayerMNK, NullMove) and not offered(ThreePlayerMNK, EngineHints)
    assert not offered(TicTacToe, ThreatHints)


class PigWithoutOutcomes(Pig):
    """Pig that forgot its chance outcomes (the rules still declare chance)."""

    chance_outcomes = None  # type: ignore[assignment]


def test_a_searcher_of_chance_refuses_a_game_of_chance_without_outcomes_naming_the_protocol() -> (
    None
):
    game = PigWithoutOutcomes.new()
    with pytest.raises(UnsupportedGameError) as caught:
        default_registry().new_searcher("expectiminimax").search(game)
    assert str(caught.value) == (
        "searcher 'expectiminimax' cannot search 'pig': it needs the Chance capability "
        "(chance_outcomes), which this game does not offer"
    )


SUITE = "XX./OO./... | 3 | take the row\n"


class OldStyleProblems(TicTacToe):
    """The old protocol: a read_problems class method found by its name."""

    @classmethod
    def read_problems(cls, text: str) -> list[Problem]:
        return [Problem(name="from the old reader", position="XX./OO./...", best_moves=("2",))]


def test_problem_files_of_the_old_protocol_still_serve_with_a_deprecation_warning() -> None:
    with pytest.warns(DeprecationWarning, match=r"declare the capability .*ProblemFiles"):
        problems = read_problems(OldStyleProblems, SUITE)
    assert [problem.name for problem in problems] == ["from the old reader"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert problem_files_member(TicTacToe, "read_problems") is None
        assert [problem.name for problem in read_problems(TicTacToe, SUITE)] == ["take the row"]


class DeclaredProblems(TicTacToe, ProblemFiles):
    """Declares the capability, and ships one suite whose best move is not legal."""

    suite: Path

    @classmethod
    def read_problems(cls, text: str) -> list[Problem]:
        return [
            Problem(name=f"line {n}", position=line.split("|")[0].strip(), best_moves=("0",))
            for n, line in enumerate(text.splitlines(), 1)
        ]

    @classmethod
    def problem_suites(cls) -> dict[str, Path]:
        return {"broken": cls.suite}


def test_a_declared_problem_file_with_an_illegal_best_move_fails_the_kit(tmp_path: Path) -> None:
    DeclaredProblems.suite = tmp_path / "broken.txt"
    DeclaredProblems.suite.write_text("XX./OO./...\n")
    assert declares(DeclaredProblems, ProblemFiles) and offered(DeclaredProblems, ProblemFiles)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        reader: Any = problem_files_member(DeclaredProblems, "read_problems")
    assert reader("X../.../...")[0].position == "X../.../..."
    with pytest.raises(ConformanceError) as caught:
        check_game(DeclaredProblems)
    assert "suite 'broken', problem 'line 1': '0' is not legal there" in str(caught.value)


def test_a_game_that_declares_problem_files_without_a_reader_fails_the_kit() -> None:
    class HalfDeclared(TicTacToe, ProblemFiles):
        @classmethod
        def problem_suites(cls) -> dict[str, Path]:
            return {}

    with pytest.raises(
        ConformanceError, match=r"declares ProblemFiles but defines no read_problems"
    ):
        check_game(HalfDeclared)
