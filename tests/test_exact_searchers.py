"""The exact searchers (pvs, mtdf, solver) agree with minimax, strong and weak."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import best_moves, solve_all, walked_with

from gamesearch import Game, Minimax, Scoring, Searcher, default_registry
from gamesearch.rules import proven_value
from gamesearch.search.negamax import PrincipalVariationSearch, make_exact_core
from gamesearch.search.nullwindow import MTDf, Solver, solve
from gamesearch.search.table import SearchMemory, TranspositionTable
from gamesearch.testing import reachable_positions
from gamesearch.trace import TreeTracer
from gamesearch_games.connect4 import ConnectFour
from gamesearch_games.kalah import Kalah
from gamesearch_games.othello import Othello
from gamesearch_games.tictactoe import TicTacToe

EXACT = [PrincipalVariationSearch, MTDf, Solver]
POSITIONS = [position for position in reachable_positions(TicTacToe()) if not position.is_over()]
VALUES = {scoring: solve_all(TicTacToe(), scoring) for scoring in Scoring}


def test_the_exact_searchers_are_registered() -> None:
    searchers = default_registry().searchers
    for searcher_class in EXACT:
        assert searchers[searcher_class.name] is searcher_class


#: the fast tier checks each searcher with one scoring, and each scoring on some searcher
FAST_PAIRS = {
    (PrincipalVariationSearch, Scoring.DISTANCE),
    (MTDf, Scoring.PLAIN),
    (Solver, Scoring.DISTANCE),
}


@pytest.mark.parametrize(
    ("searcher_class", "scoring"),
    [
        pytest.param(
            searcher_class,
            scoring,
            marks=() if (searcher_class, scoring) in FAST_PAIRS else pytest.mark.slow,
            id=f"{searcher_class.name}-{scoring.value}",
        )
        for searcher_class in EXACT
        for scoring in Scoring
    ],
)
def test_exact_searchers_agree_with_minimax_on_every_tictactoe_position(
    searcher_class: type[Searcher], scoring: Scoring
) -> None:
    """Every unfinished position (one in ``GAME_SCORING_STEP`` with the game's own scoring,
    which is distance's: ``oracle.walked_with``)."""
    searcher = searcher_class(scoring=scoring)
    values = VALUES[scoring]
    for position in walked_with(scoring, POSITIONS):
        result = searcher.search(position)
        assert result.value == values[position.key()], position.to_text()
        assert sorted(result.best_moves) == sorted(best_moves(position, values)), position.to_text()
        assert result.is_exact


def minimax_result(game: ConnectFour, scoring: Scoring) -> tuple[int, list[int]]:
    values = solve_all(game, scoring)
    return values[game.key()], sorted(best_moves(game, values))


def connect4_positions(width: int, height: int, fewest: int) -> st.SearchStrategy[ConnectFour]:
    """Random unfinished positions with at least ``fewest`` stones (so minimax can finish)."""

    @st.composite
    def build(draw: st.DrawFn) -> ConnectFour:
        game = ConnectFour(width=width, height=height)
        length = draw(st.integers(fewest, width * height - 1))
        while game.ply < length and not game.is_over():
            game.push(draw(st.sampled_from(game.legal_moves())))
        return game

    return build().filter(lambda game: not game.is_over())


@settings(max_examples=25)
@given(connect4_positions(4, 4, 4), st.sampled_from(EXACT), st.sampled_from(list(Scoring)))
def test_exact_searchers_agree_with_minimax_on_random_4x4_positions(
    game: ConnectFour, searcher_class: type[Searcher], scoring: Scoring
) -> None:
    result = searcher_class(scoring=scoring).search(game, move_values=True)
    value, best = minimax_result(game, scoring)
    assert result.value == value
    assert sorted(result.best_moves) == best


@settings(max_examples=15)
@given(connect4_positions(5, 4, 8), st.sampled_from(EXACT), st.sampled_from(list(Scoring)))
def test_exact_searchers_agree_with_minimax_on_random_5x4_positions(
    game: ConnectFour, searcher_class: type[Searcher], scoring: Scoring
) -> None:
    result = searcher_class(scoring=scoring).search(game)
    value, best = minimax_result(game, scoring)
    assert result.value == value
    assert sorted(result.best_moves) == best


@pytest.mark.parametrize("searcher_class", EXACT, ids=lambda cls: cls.name)
def test_exact_searchers_agree_with_the_minimax_searcher_late_in_a_7x6_game(
    searcher_class: type[Searcher],
) -> None:
    game = ConnectFour.from_text("7422341735647741166133573473242566")  # Test_L3_R1, 8 cells left
    reference = Minimax().search(game, move_values=True)
    result = searcher_class().search(game, move_values=True)
    assert result.value == reference.value
    assert result.best_moves == reference.best_moves  # both in the game's move order
    assert sorted(result.move_values or ()) == sorted(reference.move_values or ())


def test_the_principal_variation_plays_out_the_solved_value() -> None:
    game = ConnectFour.from_text("4453", width=5, height=4)
    result = Solver().search(game)
    replay = game.copy()
    for move in result.pv:
        replay.apply(move)
    assert replay.is_over()
    assert proven_value(replay) == result.value


def test_a_kept_table_never_changes_a_result() -> None:
    searcher, memory = Solver(), SearchMemory()
    game = ConnectFour.from_text("44", width=5, height=4)
    first = searcher.search(game, move_values=True, memory=memory)
    again = searcher.search(game, move_values=True, memory=memory)
    assert (again.value, again.best_moves, again.pv, again.move_values) == (
        first.value,
        first.best_moves,
        first.pv,
        first.move_values,
    )
    assert again.stats.nodes < first.stats.nodes
    assert (
        Solver().search(game).stats.nodes == Solver().search(game).stats.nodes
    )  # no memory: no table kept


@pytest.mark.parametrize("searcher_class", EXACT, ids=lambda cls: cls.name)
def test_an_exact_search_leaves_the_position_as_it_was_and_reports_to_a_tracer(
    searcher_class: type[Searcher],
) -> None:
    game = ConnectFour.from_text("2231", width=4, height=4)
    before = (game.key(), game.history, game.to_text())
    tracer = TreeTracer()
    result = searcher_class().search(game, tracer=tracer)
    assert (game.key(), game.history, game.to_text()) == before
    assert result.stats.nodes > 0


def test_a_win_at_once_is_found_without_a_search() -> None:
    game = ConnectFour.from_text("121212")
    value, nodes = solve(game)
    assert value == game.rules.scale.win - 7
    assert nodes == 1


def test_the_weak_solver_only_tells_the_outcome() -> None:
    game = ConnectFour.from_text("121212", width=4, height=4)
    result = Solver(scoring=Scoring.PLAIN).search(game)
    assert result.value == game.rules.scale.win
    assert result.best_moves == (0,)


def test_without_all_best_the_first_best_move_is_enough() -> None:
    game = ConnectFour.from_text("2233", width=5, height=4)
    every = Solver().search(game)
    one = Solver(all_best=False).search(game)
    assert one.value == every.value
    assert one.best_moves == every.best_moves[:1]


def values_still_possible(
    game: Game[object], scoring: Scoring, ply: int, *, threats: bool
) -> list[int]:
    """Return, ascending, the value of every way ``game`` can still end after ``ply`` plies,
    for the side to move then, by the documented scale: a result ``r`` at ply ``p`` is worth
    ``sign(r) * ((|r| - 1) * (max_plies + 1) + win - p)``, without the ``- p`` when plain.

    With ``threats`` (a game whose hints the solver uses) the side to move wins only on
    its own moves and loses only on the opponent's: wins end at ``ply + 1, ply + 3, ...``,
    losses at ``ply + 2, ply + 4, ...``; there the distance always counts.
    """
    longest, win = game.rules.max_plies, game.rules.scale.win
    if threats:
        wins = [win - end for end in range(ply + 1, longest + 1) if (end - ply) % 2 == 1]
        losses = [end - win for end in range(ply + 1, longest + 1) if (end - ply) % 2 == 0]
        return sorted([*losses, 0, *wins])
    found = {0}
    for margin in range(1, game.rules.largest_margin + 1):
        for end in range(ply + 1, longest + 1) if scoring is Scoring.DISTANCE else [ply]:
            magnitude = (
                (margin - 1) * (longest + 1) + win - (end if scoring is Scoring.DISTANCE else 0)
            )
            found |= {magnitude, -magnitude}
    return sorted(found)


@pytest.mark.parametrize(
    ("game", "threats"),
    [
        (TicTacToe(), False),
        (ConnectFour(width=4, height=4), True),
        (Othello.new(size=4), False),
        (Othello.new(size=4, passes="auto"), False),
        (Kalah.new(pits=3, seeds=2), False),  # 5,905 values at the start
    ],
    ids=["tictactoe", "connect4", "othello", "othello-auto", "kalah"],
)
@pytest.mark.parametrize(
    "scoring",
    [Scoring.DISTANCE, Scoring.PLAIN],  # the scorings an exact core is given
    ids=lambda scoring: scoring.value,
)
def test_the_solvers_candidate_values_are_every_value_still_possible_made_once(
    game: Game[object], threats: bool, scoring: Scoring
) -> None:
    """The values the solver halves its interval over, at every ply (and past the longest
    game), equal the brute-force list; each ply's list is made once, shared and read-only."""
    longest = game.rules.max_plies
    with make_exact_core(game, TranspositionTable(), scoring=scoring) as core:
        for ply in sorted({0, 1, 2, longest // 2, longest - 1, longest, longest + 1}):
            values = core.candidates(ply)
            expected = values_still_possible(game, scoring, ply, threats=threats)
            assert list(values) == expected, ply
            assert len(values) == len(expected)
            assert values[-1] == expected[-1]
            assert (values[1:4], values[::-7]) == (tuple(expected[1:4]), tuple(expected[::-7]))
            with pytest.raises(IndexError, match="index .*out of range"):
                values[len(expected)]
            with pytest.raises(TypeError):
                values[0] = 1  # type: ignore[index]
            assert core.candidates(ply) is values
