"""A search that does not leave its positions as it found them is told so: the position it
was given, where it left it and the move, at the student's own line (not a value that
differs, nor a line of the game's code); and a trusted class's searches run in the one
runner the sandbox uses (its output captured per test)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest

from gamesearch import Searcher, default_registry
from gamesearch.search.base import RootAnswer, SearchContext
from gamesearch.testing.grading import Case, StudentFile, grade
from gamesearch_games.tree import TreeGame

#: AIMA's Figure 5.2: MAX's three moves, each to a MIN position of three leaves
FIGURE_5_2 = """
A max: a1 -> B, a2 -> C, a3 -> D
B min: b1 -> 3, b2 -> 12, b3 -> 8
C min: c1 -> 2, c2 -> 4, c3 -> 6
D min: d1 -> 14, d2 -> 5, d3 -> 2
"""


@attrs.frozen(kw_only=True)
class Minimax(Searcher):
    """A student's minimax, with a switch for each way of leaving a position changed."""

    name: ClassVar[str] = "student"
    #: how the moves below the root are taken back: "once" (right), "never" or "twice"
    undo: ClassVar[str] = "once"
    chatty: ClassVar[bool] = False

    def value(self, game: Any, context: Any) -> Any:
        context.count_node(game)
        if game.result() is not None:
            return context.finished_value(game)
        values = []
        for move in list(game.legal_moves()):
            game.push(move)
            values.append(self.value(game, context))
            if self.undo != "never":
                game.undo()
            if self.undo == "twice":
                game.undo()
        return max(values) if game.to_move() == 0 else min(values)

    def root(self, game: Any, context: SearchContext) -> RootAnswer:
        if self.chatty:
            print("searching", game.to_text())
        context.count_node(game)
        values = []
        for move in list(game.legal_moves()):
            game.push(move)
            values.append((move, self.value(game, context)))
            game.undo()
        pick = max if game.to_move() == 0 else min
        best = pick(value for _, value in values)
        return context.answer(game, best, [move for move, value in values if value == best])


def student(undo: str = "once", chatty: bool = False) -> type[Searcher]:
    return attrs.frozen(kw_only=True)(type("Graded", (Minimax,), {"undo": undo, "chatty": chatty}))


def tictactoe(text: str) -> Any:
    return default_registry().new_game("tictactoe", text)


def only_output(searcher: type[Searcher], case: Case) -> str:
    result = grade(searcher, [case], "textbook-minimax:scoring=game").results[0]
    assert result.score == 0 and not result.passed
    return result.output


def test_a_push_without_its_undo_names_the_position_given_and_where_it_was_left() -> None:
    case = Case("two moves from the end", tictactoe("XOX/OXO/..."), states="none")
    found = only_output(student(undo="never"), case)
    # below the root's 6, the search plays 7 and 8 on top of it; the root takes back 8,
    # thinking it takes back 6, and plays 7 and 8 from there
    assert found == (
        "the search leaves the position it was given ('XOX/OXO/...') changed: it ends at "
        "'XOX/OXO/OXX', with 7 6 8 still played: a push() without its undo()? Each push(move) "
        "needs a game.undo() once that move is searched"
    ), found
    assert "value" not in found


def test_a_move_the_game_cannot_play_after_a_missing_undo_is_reported_at_the_students_line() -> (
    None
):
    case = Case("AIMA Figure 5.2", TreeGame.from_text(FIGURE_5_2))
    found = only_output(student(undo="never"), case)
    assert found.startswith("the game cannot play b2 after a1 b1 ("), found
    assert "is it a legal move there? A push() without its undo() leaves the search" in found
    assert found.endswith(f"of {Path(__file__).name})"), found
    assert "tree.py" not in found


def test_an_undo_too_many_names_the_position_given() -> None:
    case = Case("two moves from the end", tictactoe("XOX/OXO/..."))
    found = only_output(student(undo="twice"), case)
    assert found.startswith(
        "undo() at the position the search was given ('XOX/OXO/...'): one undo() too many, or "
        "an undo() without its push() (line "
    ), found
    assert found.endswith(f"of {Path(__file__).name})"), found


def test_an_undo_too_many_that_never_reaches_the_root_is_told_it_recurses_in_place() -> None:
    # the search climbs back above its position and searches it again, for ever
    found = only_output(student(undo="twice"), Case("O to move", tictactoe("X../.X./O..")))
    assert found == (
        "the search recursed deeper than Python allows, though no position it played is more "
        "than 6 moves below the position given: does it take back more moves than it plays "
        "(an undo() too many), or search a position again from itself?"
    ), found


def test_a_long_line_left_played_is_cut() -> None:
    found = only_output(student(undo="never"), Case("O to move", tictactoe("X../.X./O..")))
    assert "with 1 2 3 5 7 8 8 7 ... (17 moves) still played: a push() without its undo()?" in (
        found
    ), found


def test_the_right_search_passes_and_a_trusted_class_s_output_is_kept_per_test() -> None:
    cases = [
        Case("two moves from the end", tictactoe("XOX/OXO/..."), states="none"),
        Case("O to move", tictactoe("X../.X./O.."), states="none"),
    ]
    report = grade(student(chatty=True), cases, "textbook-minimax:scoring=game")
    assert [result.passed for result in report.results] == [True, True], report.results
    assert [result.printed for result in report.results] == [
        "searching XOX/OXO/...\n",
        "searching X../.X./O..\n",
    ]


#: a student's file that takes its moves back once too often, below the root
TWICE = """
from typing import Any, ClassVar

import attrs

from gamesearch import Searcher


@attrs.frozen(kw_only=True)
class Twice(Searcher):
    name: ClassVar[str] = "twice"

    def value(self, game: Any, context: Any, below_root: bool) -> Any:
        context.count_node(game)
        if game.result() is not None:
            return context.finished_value(game)
        values = []
        for move in list(game.legal_moves()):
            game.push(move)
            values.append(self.value(game, context, True))
            game.undo()
            if below_root:
                game.undo()
        return max(values) if game.to_move() == 0 else min(values)

    def root(self, game: Any, context: Any) -> Any:
        value = self.value(game, context, False)
        return context.answer(game, value, list(game.legal_moves())[:1], [])
"""


@pytest.mark.slow
def test_a_students_file_in_the_sandbox_gets_the_same_message(tmp_path: Path) -> None:
    path = tmp_path / "twice.py"
    path.write_text(textwrap.dedent(TWICE))
    case = Case("two moves from the end", tictactoe("XOX/OXO/..."))
    result = grade(StudentFile(str(path), "Twice"), [case], "textbook-minimax").results[0]
    assert result.score == 0
    assert result.output == (
        "undo() at the position the search was given ('XOX/OXO/...'): one undo() too many, or "
        "an undo() without its push() (line 23 of twice.py)"
    ), result.output
