"""The grader's hints follow what the test's reference does: each hint is given to the bug it
names and withheld from the others (pruning rule, depth, horizon)."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from gamesearch import Searcher, default_registry
from gamesearch.search.base import INFINITY, RootAnswer, SearchContext
from gamesearch.testing.grading import Case, grade
from gamesearch.testing.grading_diagnosis import pruning_rule
from gamesearch_games.tree import TreeGame

#: the hint of a search that prunes on equality where the reference prunes only beyond it
EQUALITY_WHERE_STRICT = "does it prune on equality (alpha >= beta) where only alpha > beta"
#: the hint of a search that prunes only beyond equality where the reference prunes on it
STRICT_WHERE_EQUALITY = "prune only once alpha > beta where the reference prunes on equality"
ROUNDS = "is the depth counted in plies instead of rounds?"

#: a tree with evaluations: searched one move deep, B is worth 2 and C 4 (their evaluations)
TREE = """
A max: l -> B, r -> C
B min eval 2: x -> D, y -> E
C min eval 4: z -> F, w -> G
D max eval 3: d -> 3
E max eval 5: e -> 5
F max eval 3: f -> 3
G max eval 1: g -> 1
"""


@attrs.frozen(kw_only=True)
class Student(Searcher):
    """A student's depth-limited alpha-beta (a full window at each root move), with switches
    for the usual bugs."""

    name: ClassVar[str] = "student"
    #: when to stop trying a position's moves: "equality", "strict", "never" or "early"
    rule: ClassVar[str] = "equality"
    extra_depth: ClassVar[int] = 0
    horizon_zero: ClassVar[bool] = False

    def value(self, game: Any, depth: float, alpha: float, beta: float, context: Any) -> Any:
        context.count_node(game)
        if game.result() is not None:
            return context.finished_value(game)
        if depth == 0:
            return 0 if self.horizon_zero else context.horizon_value(game)
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
            if self.rule == "early" and alpha > -INFINITY and beta < INFINITY:
                break  # gives up at the first move once both sides have a bound
            if (self.rule == "equality" and alpha >= beta) or (
                self.rule == "strict" and alpha > beta
            ):
                break
        return best

    def root(self, game: Any, context: SearchContext) -> RootAnswer:
        context.count_node(game)
        depth = float("inf") if self.depth is None else self.depth + self.extra_depth
        values = []
        for move in game.legal_moves():
            game.push(move)
            values.append((move, self.value(game, depth - 1, -INFINITY, INFINITY, context)))
            game.undo()
        sign = 1 if game.to_move() == 0 else -1
        best = sign * max(sign * value for _, value in values)
        return context.answer(game, best, [m for m, v in values if v == best], values)


def student(**switches: Any) -> type[Searcher]:
    return attrs.frozen(kw_only=True)(
        type("Buggy", (Student,), {key: value for key, value in switches.items()})
    )


def tictactoe(text: str) -> Any:
    return default_registry().new_game("tictactoe", text)


def output(searcher: type[Searcher], reference: str, case: Case) -> str:
    result = grade(searcher, [case], reference).results[0]
    assert not result.passed
    return result.output


def test_the_pruning_rule_is_read_off_the_reference() -> None:
    new = default_registry().new_searcher
    assert pruning_rule(new("textbook-alphabeta")) == "equality"
    assert pruning_rule(new("textbook-alphabeta:prune_on_equality=false")) == "strict"
    assert pruning_rule(new("textbook-minimax")) == "none"
    assert pruning_rule(new("maxn:pruning=false")) == "none"
    assert pruning_rule(new("alphabeta")) == "equality"
    assert pruning_rule(new("mcts")) is None


def test_pruning_too_early_is_not_told_to_prune_beyond_equality() -> None:
    # the reference prunes on equality: a search that skips more has another bug
    case = Case("O to move", tictactoe("X../.X./O.."))
    found = output(student(rule="early"), "textbook-alphabeta", case)
    assert "does it stop trying a position's moves too early" in found, found
    assert EQUALITY_WHERE_STRICT not in found


def test_pruning_on_equality_against_a_strict_reference_is_told_so() -> None:
    case = Case("O to move", tictactoe("X../.X./O.."))
    found = output(student(rule="equality"), "textbook-alphabeta:prune_on_equality=false", case)
    assert EQUALITY_WHERE_STRICT in found, found


def test_missing_cut_offs_names_equality_only_where_the_reference_prunes_on_it() -> None:
    case = Case("O to move", tictactoe("X../.X./O.."))
    strict = output(student(rule="strict"), "textbook-alphabeta", case)
    assert STRICT_WHERE_EQUALITY in strict, strict
    never = output(student(rule="never"), "textbook-alphabeta:prune_on_equality=false", case)
    assert "does it miss cut-offs" in never and STRICT_WHERE_EQUALITY not in never, never


def test_a_search_that_prunes_against_minimax_is_told_the_test_searches_every_move() -> None:
    case = Case("O to move", tictactoe("X../.X./O.."))
    found = output(student(rule="equality"), "textbook-minimax", case)
    assert "does it prune? This test searches every move" in found, found
    assert EQUALITY_WHERE_STRICT not in found


def test_a_depth_off_by_one_without_rounds_gets_the_depth_hint_not_the_rounds_hint() -> None:
    case = Case("depth 2", tictactoe("X../.X./O.."), {"depth": 2})
    found = output(student(extra_depth=1), "textbook-alphabeta", case)
    assert "the search goes 3 moves deep, the reference 2: is the depth off by one?" in found
    assert ROUNDS not in found


def test_a_horizon_worth_0_is_named_with_the_position_and_its_evaluation() -> None:
    one = Case("one move deep", TreeGame.from_text(TREE), {"depth": 1})
    found = output(student(horizon_zero=True), "textbook-alphabeta", one)
    assert found.startswith("value 0, the reference 4"), found
    assert (
        "the values differ at the position itself (MAX to move); after l the depth is spent: "
        "the reference scores that position by its evaluation, 2 (value 2), the search gives "
        "it 0: does the search stop there and score it by its evaluation "
        "(context.horizon_value(game), or evaluation(game) in the starter file)?"
    ) in found, found
    two = Case("two moves deep", TreeGame.from_text(TREE), {"depth": 2})
    found = output(student(horizon_zero=True), "textbook-alphabeta", two)
    assert "the values differ after l (MIN to move); after l x the depth is spent" in found, found
    assert "its evaluation, 3 (value 3), the search gives it 0" in found, found
