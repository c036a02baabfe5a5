"""What a search works out once instead of at every search: what a game class offers
(:class:`~gamesearch.capabilities.GameClass`), the searcher's unlimited budget, the
players' names read only when a result's score is; none of it may hide what differs
from one game or one search to the next."""

from __future__ import annotations

import pickle
import time
from typing import Any

import pytest

from gamesearch import capabilities
from gamesearch.capabilities import CAPABILITIES, MEMBERS, GameClass, fast_moves, game_class
from gamesearch.errors import BudgetExceededError, UnsupportedGameError
from gamesearch.rules import Scoring
from gamesearch.search.alphabeta import AlphaBeta
from gamesearch.search.base import Counters
from gamesearch.search.expectimax import Expectiminimax
from gamesearch.search.minimax import Minimax
from gamesearch_games.mnk3 import ThreePlayerMNK
from gamesearch_games.pig import Pig
from gamesearch_games.tictactoe import PlainTicTacToe, TicTacToe

FRAMEWORK = ("gamesearch.game", "gamesearch.capabilities", "typing", "abc", "builtins")


def own_by_reading_the_bases(cls: type, member: str) -> bool:
    """Return whether ``cls`` has ``member`` of its own: the first base (in method order)
    that holds it is not the framework's, and does not set it to ``None``."""
    holder = next((base for base in cls.__mro__ if member in base.__dict__), None)
    return (
        holder is not None
        and holder.__module__ not in FRAMEWORK
        and holder.__dict__[member] is not None
    )


@pytest.mark.parametrize(
    "cls", [TicTacToe, PlainTicTacToe, ThreePlayerMNK, Pig], ids=lambda c: c.__name__
)
def test_a_class_record_holds_the_members_and_capabilities_its_bases_give(cls: type) -> None:
    record = game_class(cls)
    for capability, members in MEMBERS.items():
        for member in members:
            assert (member in record.own) == own_by_reading_the_bases(cls, member), member
        declared = capability in cls.__mro__
        expected = declared or (
            capability is not capabilities.ProblemFiles
            and any(own_by_reading_the_bases(cls, member) for member in members)
        )
        assert (capability in record.offers) == expected, capability.__name__
    fast = [own_by_reading_the_bases(cls, member) for member in MEMBERS[capabilities.FastMoves]]
    assert record.fast_moves == all(fast)
    assert record.repeats == own_by_reading_the_bases(cls, "repetition_key")
    assert game_class(cls()) is record  # one record a class, an instance or the class asked


def test_a_subclass_gets_a_record_of_its_own_that_sees_a_withdrawn_member() -> None:
    class WithoutHeuristic(TicTacToe):
        evaluate = None  # (withdrawn: the default serves again)
        evaluation_bound = None

    assert capabilities.Heuristic in game_class(TicTacToe).offers
    assert capabilities.Heuristic not in game_class(WithoutHeuristic).offers
    assert capabilities.heuristic(WithoutHeuristic())() == 0
    assert set(CAPABILITIES) >= game_class(WithoutHeuristic).offers


def test_values_of_members_are_read_from_each_game_not_from_its_class_record() -> None:
    # an instance may set what its class declares (a bound or names that follow its options)
    first, second = TicTacToe(), TicTacToe()
    second.evaluation_bound = 7  # type: ignore[misc]
    second.player_names = ("Ann", "Bob")  # type: ignore[misc]
    assert capabilities.heuristic_bound(first) == 500
    assert capabilities.heuristic_bound(second) == 7
    assert capabilities.player_names(first) == ("X", "O")
    assert capabilities.player_names(second) == ("Ann", "Bob")
    # ... but an attribute set on an instance alone offers nothing: offering is the class's
    game = PlainTicTacToe()
    game.evaluate = lambda: 5  # type: ignore[attr-defined]
    assert capabilities.Heuristic not in game_class(game).offers
    assert capabilities.heuristic(game)() == 0


def test_fast_moves_are_the_games_own_bound_to_that_game_or_the_defaults() -> None:
    game, other = TicTacToe(), TicTacToe()
    advance, retract, results, descend, own_results = fast_moves(game)
    assert own_results
    assert advance.__self__ is game and retract.__self__ is game  # type: ignore[attr-defined]
    assert results() == game.move_results()
    plain = PlainTicTacToe()
    advance, retract, results, descend, own_results = fast_moves(plain)
    assert not own_results
    # the defaults play the core's moves: the same results as playing them
    expected = []
    for move in plain.legal_moves():
        plain.push(move)
        expected.append((move, plain.result()))
        plain.undo()
    assert list(results()) == expected
    assert advance(4) is None and tuple(plain.history) == (4,)
    retract(4)
    assert not plain.history and plain.to_text() == other.to_text()


def test_a_searcher_refuses_a_game_from_its_class_record_and_its_rules() -> None:
    class NoOutcomes(Pig):
        chance_outcomes = None

    with pytest.raises(UnsupportedGameError, match="Chance capability"):
        Expectiminimax().search(NoOutcomes())
    # a game's rules are read at each search: a 2-player searcher takes a 2-player game
    assert AlphaBeta().unmet_needs(TicTacToe()) == []
    assert Minimax().unmet_needs(Pig()) == ["it cannot search games of chance"]


def test_one_unlimited_budget_serves_every_search_but_a_time_budget_starts_at_each() -> None:
    unlimited = AlphaBeta()
    context = unlimited._context(TicTacToe(), Counters())
    assert context.budget is unlimited._context(TicTacToe(), Counters()).budget
    assert not context.budget.is_limited
    timed = AlphaBeta(seconds=0.2, clock="wall")
    first = timed._context(TicTacToe(), Counters()).budget
    time.sleep(0.25)  # longer than the budget: a budget made with the searcher would be spent
    second = timed._context(TicTacToe(), Counters()).budget
    assert second is not first and second.started > first.started
    assert timed.search(TicTacToe()).value == 0  # the empty board is a draw, found in time
    with pytest.raises(BudgetExceededError):
        AlphaBeta(max_nodes=10).search(TicTacToe())


def test_a_results_score_names_the_players_of_the_game_searched_when_it_is_read() -> None:
    game = TicTacToe.from_text("XX.OO....")  # X to move wins at once
    game.player_names = ("Ann", "Bob")  # type: ignore[misc]
    result = AlphaBeta().search(game)
    game.push(2)
    finished = AlphaBeta().search(game)
    assert result.score.words().startswith("Ann wins")
    assert finished.score.words().startswith("Ann wins")
    # a pickled result carries its score (the game it was read from is not pickled)
    again: Any = pickle.loads(pickle.dumps(result))
    assert again.score == result.score and again.score.words() == result.score.words()
    assert again._presented is None


def test_scorings_are_keys_that_survive_pickling() -> None:
    table = {scoring: scoring.value for scoring in Scoring}
    for scoring in Scoring:
        assert table[pickle.loads(pickle.dumps(scoring))] == scoring.value
    assert isinstance(game_class(TicTacToe), GameClass)
