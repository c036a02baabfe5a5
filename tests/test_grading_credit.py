"""Partial credit per test (the value, then the move, then the positions generated) and time
limits as a multiple of the reference's time."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest

from gamesearch import Searcher
from gamesearch.cli.grade import load_suite
from gamesearch.errors import InvalidOptionError
from gamesearch.plugins import default_registry
from gamesearch.search.base import RootAnswer, SearchContext
from gamesearch.testing.grading import Case, grade

REFERENCE = "textbook-minimax"


@attrs.frozen(kw_only=True)
class Student(Searcher):
    """A student's minimax with switches: its moves reversed (the same value and best move,
    other positions), a wrong move reported, a wrong value, or a long wait first."""

    name: ClassVar[str] = "student"
    reversed_moves: ClassVar[bool] = False
    wrong_move: ClassVar[bool] = False
    wrong_value: ClassVar[bool] = False
    waits: ClassVar[float] = 0.0

    def value(self, game: Any, context: Any) -> Any:
        context.count_node(game)
        if game.result() is not None:
            return context.finished_value(game)
        values = []
        moves = list(game.legal_moves())
        for move in reversed(moves) if self.reversed_moves else moves:
            game.push(move)
            values.append(self.value(game, context))
            game.undo()
        return max(values) if game.to_move() == 0 else min(values)

    def root(self, game: Any, context: SearchContext) -> RootAnswer:
        time.sleep(self.waits)
        context.count_node(game)
        values = []
        for move in game.legal_moves():
            game.push(move)
            values.append((move, self.value(game, context)))
            game.undo()
        sign = 1 if game.to_move() == 0 else -1
        best = sign * max(sign * value for _, value in values)
        moves = [m for m, v in values if v == best]
        if self.wrong_move:
            moves = [next(m for m, v in values if v != best)]
        return context.answer(game, best + self.wrong_value, moves, values)


def student(**switches: Any) -> type[Searcher]:
    return attrs.frozen(kw_only=True)(type("Variant", (Student,), switches))


#: X to move, three squares left: the two best moves win, the third draws; O's reply
#: below each is a choice, so a reversed move order generates other positions
POSITION = "XO./.XO/..."


def case(**settings: Any) -> Case:
    position = default_registry().new_game("tictactoe", POSITION)
    return Case("X to move", position, max_score=3, **settings)


@pytest.mark.parametrize(
    ("switches", "partial", "none_states"),
    [
        ({}, 3, 3),
        ({"reversed_moves": True}, 2, 3),  # the value and the move, not the positions
        ({"wrong_move": True}, 1, 1.5),  # the value only
        ({"wrong_value": True}, 0, 0),
    ],
)
def test_partial_credit_gives_the_value_then_the_move_then_the_positions(
    switches: dict[str, bool], partial: float, none_states: float
) -> None:
    searcher = student(**switches)
    whole = grade(searcher, [case()], REFERENCE).results[0]
    assert whole.score == (3 if not switches else 0), whole.output
    part = grade(searcher, [case(partial_credit=True)], REFERENCE).results[0]
    assert part.score == partial, part.output
    assert part.passed is (partial == 3)
    values_and_moves = grade(searcher, [case(partial_credit=True, states="none")], REFERENCE)
    assert values_and_moves.results[0].score == none_states, values_and_moves.results[0].output


def test_a_time_factor_limits_the_student_to_a_multiple_of_the_references_time() -> None:
    limits = Case("t", default_registry().new_game("tictactoe", None), time_factor=5)
    assert limits.student_time_limit(1.0) == 5.0
    assert limits.student_time_limit(0.001) == 1.0  # never below a second
    assert attrs.evolve(limits, time_factor=100).student_time_limit(1.0) == 10.0  # time_limit
    assert limits.student_time_limit(0.5) == 2.5
    with pytest.raises(InvalidOptionError, match="'time_factor' must be > 0"):
        attrs.evolve(limits, time_factor=0)
    started = time.perf_counter()
    result = grade(student(waits=30.0), [case(time_factor=3)], REFERENCE).results[0]
    assert result.score == 0 and result.output == "timed out after 1 s", result.output
    assert time.perf_counter() - started < 10


def test_a_suite_sets_partial_credit_and_the_time_factor(tmp_path: Path) -> None:
    suite = tmp_path / "suite.toml"
    suite.write_text(
        'reference = "textbook-alphabeta"\npartial_credit = true\ntime_factor = 4\n'
        '[[test]]\ngame = "tictactoe"\nposition = "XO./.XO/..."\n'
        '[[test]]\ngame = "tictactoe"\npartial_credit = false\ntime_factor = 2\n'
    )
    _, cases = load_suite(suite)
    assert [(c.partial_credit, c.time_factor) for c in cases] == [(True, 4.0), (False, 2.0)]
    suite.write_text('[[test]]\ngame = "tictactoe"\npartial_credit = "yes"\n')
    with pytest.raises(InvalidOptionError, match="'partial_credit' in test 1 must be true or"):
        load_suite(suite)
