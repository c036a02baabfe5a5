"""Every searcher agrees with the reference on every reachable tic-tac-toe position."""

from __future__ import annotations

import itertools

import pytest
from oracle import best_moves, solve_all, walked_with

from gamesearch import AlphaBeta, IterativeDeepening, Minimax, Scoring, Searcher
from gamesearch.testing import reachable_positions
from gamesearch_games.tictactoe import TicTacToe

POSITIONS = reachable_positions(TicTacToe())
VALUES = {scoring: solve_all(TicTacToe(), scoring) for scoring in Scoring}
UNFINISHED = [position for position in POSITIONS if not position.is_over()]

ALPHABETA_SWITCHES = [
    dict(ordering=ordering, root_window=window, table=table)
    for ordering, window, table in itertools.product(
        ("game", "natural"), ("shared", "fresh"), (False, True)
    )
]


def test_the_oracle_sees_5478_positions() -> None:
    assert len(POSITIONS) == 5_478
    assert len(UNFINISHED) == 5_478 - 958


def check_every_position(searcher: Searcher, scoring: Scoring, *, exact_set: bool = True) -> None:
    values = VALUES[scoring]
    for position in walked_with(scoring, UNFINISHED):
        result = searcher.search(position)
        expected = best_moves(position, values)
        assert result.value == values[position.key()], position.to_text()
        assert result.is_exact
        if exact_set:
            assert sorted(result.best_moves) == sorted(expected), position.to_text()
        else:
            assert set(result.best_moves) <= set(expected), position.to_text()
        assert result.move in expected


@pytest.mark.slow
@pytest.mark.parametrize("scoring", list(Scoring), ids=lambda scoring: scoring.value)
def test_minimax_agrees_with_the_oracle_on_every_position(scoring: Scoring) -> None:
    """Every unfinished position (one in ``GAME_SCORING_STEP`` with the game's own scoring,
    which is distance's: ``oracle.walked_with``)."""
    check_every_position(Minimax(scoring=scoring), scoring)


#: the fast tier checks two combinations that between them set every switch both ways
FAST_SWITCHES = [
    dict(ordering="game", root_window="shared", table=False),
    dict(ordering="natural", root_window="fresh", table=True),
]


@pytest.mark.parametrize(
    "switches",
    [
        pytest.param(switches, marks=() if switches in FAST_SWITCHES else pytest.mark.slow)
        for switches in ALPHABETA_SWITCHES
    ],
    ids=lambda switches: "-".join(map(str, switches.values())),
)
def test_alphabeta_agrees_with_minimax_on_every_position(switches: dict[str, object]) -> None:
    check_every_position(AlphaBeta(**switches), Scoring.DISTANCE)


def test_alphabeta_with_plain_scores_agrees_with_minimax_on_every_position() -> None:
    check_every_position(AlphaBeta(scoring=Scoring.PLAIN, table=True), Scoring.PLAIN)


def test_alphabeta_without_all_best_still_picks_a_best_move_everywhere() -> None:
    check_every_position(AlphaBeta(all_best=False), Scoring.DISTANCE, exact_set=False)


@pytest.mark.slow
def test_iterative_deepening_agrees_with_minimax_on_every_position() -> None:
    check_every_position(IterativeDeepening(), Scoring.DISTANCE)


def test_move_values_are_the_exact_value_of_every_root_move() -> None:
    values = VALUES[Scoring.DISTANCE]
    for searcher in (Minimax(), AlphaBeta(), AlphaBeta(table=True), IterativeDeepening()):
        for position in UNFINISHED[::7]:
            result = searcher.search(position, move_values=True)
            assert result.move_values is not None
            for move, value in result.move_values:
                position.push(move)
                assert value == values[position.key()]
                position.undo()
