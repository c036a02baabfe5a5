"""Grading against any registered searcher: the library's fast cores are recorded playing
every move, the move-ordering exercise is graded against alpha-beta with the game's order,
and a reference whose positions cannot be seen is refused up front."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest

from gamesearch import Searcher
from gamesearch.capabilities import move_order
from gamesearch.cli.grade import load_suite
from gamesearch.errors import InvalidOptionError
from gamesearch.plugins import default_registry
from gamesearch.search.base import INFINITY, RootAnswer, SearchContext
from gamesearch.search.textbook import TextbookAlphaBeta
from gamesearch.testing.grading import Case, grade

SUITE = Path(__file__).resolve().parent.parent / "docs" / "coursework" / "grading" / "ordering.toml"


@attrs.frozen(kw_only=True)
class Student(Searcher):
    """A student's alpha-beta, a full window at each root move, trying moves in legal order
    or (``ordered``) in the game's own order, best first."""

    name: ClassVar[str] = "student"
    ordered: ClassVar[bool] = False

    def moves(self, game: Any) -> Any:
        return move_order(game)() if self.ordered else game.legal_moves()

    def value(self, game: Any, alpha: float, beta: float, context: Any) -> Any:
        context.count_node(game)
        if game.result() is not None:
            return context.finished_value(game)
        first = game.to_move() == 0
        best = -INFINITY if first else INFINITY
        for move in list(self.moves(game)):
            game.push(move)
            value = self.value(game, alpha, beta, context)
            game.undo()
            best = max(best, value) if first else min(best, value)
            alpha, beta = (max(alpha, best), beta) if first else (alpha, min(beta, best))
            if alpha >= beta:
                break
        return best

    def root(self, game: Any, context: SearchContext) -> RootAnswer:
        context.count_node(game)
        values = []
        for move in list(self.moves(game)):
            game.push(move)
            values.append((move, self.value(game, -INFINITY, INFINITY, context)))
            game.undo()
        sign = 1 if game.to_move() == 0 else -1
        best = sign * max(sign * value for _, value in values)
        return context.answer(game, best, [m for m, v in values if v == best], values)


@attrs.frozen(kw_only=True)
class Ordered(Student):
    ordered: ClassVar[bool] = True


@attrs.frozen(kw_only=True)
class SearchesACopy(TextbookAlphaBeta):
    """A reference that searches a copy of the position: the grader sees none of its moves."""

    name: ClassVar[str] = "searches-a-copy"

    def root(self, game: Any, context: SearchContext) -> RootAnswer:
        return super().root(game.copy(), context)


def tictactoe(text: str) -> Any:
    return default_registry().new_game("tictactoe", text)


def test_the_fast_alphabeta_core_is_recorded_like_its_textbook_twin() -> None:
    # with the legal-move order and a full window per root move, the core enters the
    # twin's very positions; the game's shortcuts that skip playing them are withdrawn
    cases = [Case("O to move", tictactoe("X../.X./O.."))]
    fast = grade(Student, cases, "alphabeta:root_window=fresh,ordering=natural").results[0]
    textbook = grade(Student, cases, "textbook-alphabeta").results[0]
    assert fast.passed and fast.output == textbook.output, (fast.output, textbook.output)
    assert fast.output == "value 0, move 8, 445 positions generated: as the reference"


def test_the_move_ordering_exercise_is_graded_against_alphabeta_in_the_games_order() -> None:
    reference, cases = load_suite(SUITE)
    right = grade(Ordered, cases, reference)
    assert (right.score, right.max_score) == (3, 3), right.summary()
    assert right.results[0].output == "value 0, move 8, 316 positions generated: as the reference"
    unordered = grade(Student, cases, reference)
    assert unordered.score == 0, unordered.summary()
    assert unordered.results[0].output.startswith("445 positions generated, the reference 316")


def test_a_reference_whose_moves_cannot_be_seen_is_refused_up_front() -> None:
    case = Case("O to move", tictactoe("X../.X./O.."))
    with pytest.raises(InvalidOptionError, match="cannot be graded against on 'O to move'"):
        grade(Student, [case], SearchesACopy)
    # comparing values and moves only, it grades
    report = grade(Student, [attrs.evolve(case, states="none")], SearchesACopy)
    assert report.results[0].passed, report.results[0].output
