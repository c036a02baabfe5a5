"""Proof-number search (pns) and df-pn agree with independent oracles and the solver."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import attrs
import pytest
from oracle import best_moves, solve_all

from gamesearch import Game, Scoring
from gamesearch.errors import BudgetExceededError, InvalidOptionError, UnsupportedGameError
from gamesearch.search.base import Budget, Counters, SearchContext
from gamesearch.search.nullwindow import Solver
from gamesearch.search.proof import (
    DISPROVEN,
    PROVEN,
    UNKNOWN,
    DepthFirstProofNumberSearch,
    ProofNumberSearch,
    ProofQuestion,
    ProofSearcher,
    answer,
)
from gamesearch_games.connect4 import ConnectFour
from gamesearch_games.connect4.data import data_dir, read_score_file
from gamesearch_games.kalah import Kalah
from gamesearch_games.mnk3 import ThreePlayerMNK
from gamesearch_games.othello import Othello
from gamesearch_games.pig import Pig
from gamesearch_games.tictactoe import TicTacToe

PROOF_SEARCHERS: list[ProofSearcher] = [
    ProofNumberSearch(),
    DepthFirstProofNumberSearch(),
    DepthFirstProofNumberSearch(epsilon=0.0),
    ProofNumberSearch(threats=False),
    DepthFirstProofNumberSearch(threats=False),
    ProofNumberSearch(scoring=Scoring.PLAIN),
    DepthFirstProofNumberSearch(scoring=Scoring.PLAIN),
]
IDS = [
    "pns",
    "dfpn",
    "dfpn-epsilon-0",
    "pns-no-threats",
    "dfpn-no-threats",
    "pns-plain",
    "dfpn-plain",
]


def reachable(game: Game[Any]) -> list[Game[Any]]:
    """Return one copy of every position reachable from ``game`` (unfinished ones)."""
    seen: dict[object, Game[Any]] = {}

    def walk() -> None:
        if game.key() in seen or game.is_over():
            return
        seen[game.key()] = game.copy()
        for move in game.legal_moves():
            game.push(move)
            walk()
            game.undo()

    walk()
    return list(seen.values())


def check_against_oracle(searcher: ProofSearcher, positions: list[Game[Any]]) -> None:
    values = solve_all(TicTacToe.new(), searcher.scoring)
    for position in positions:
        before = position.key(), position.history
        result = searcher.search(position)
        assert (position.key(), position.history) == before
        assert result.value == values[position.key()], position.to_text()
        assert set(result.best_moves) == set(best_moves(position, values)), position.to_text()
        assert result.is_exact


@pytest.mark.parametrize("searcher", PROOF_SEARCHERS, ids=IDS)
def test_proof_searchers_agree_with_the_oracle_on_tictactoe_positions_after_three_moves(
    searcher: ProofSearcher,
) -> None:
    positions = []
    for moves in itertools.islice(itertools.permutations(range(9), 3), 0, 504, 29):
        position = TicTacToe.new()
        for move in moves:
            position.push(move)
        positions.append(position)
    check_against_oracle(searcher, positions)


@pytest.mark.slow
@pytest.mark.parametrize("searcher", PROOF_SEARCHERS[:2], ids=IDS[:2])
def test_proof_searchers_agree_with_the_oracle_on_every_tictactoe_position(
    searcher: ProofSearcher,
) -> None:
    positions = reachable(TicTacToe.new())
    assert len(positions) == 5478 - 958  # every position less the finished ones
    check_against_oracle(searcher, positions)


def test_the_answer_of_a_proof_question_says_win_draw_and_loss_in_two_questions() -> None:
    game = TicTacToe.new()
    for move in (4, 0, 8):  # X at the centre and a corner, O at a corner
        game.push(move)
    context = SearchContext(Scoring.PLAIN, Counters())
    win = ProofQuestion(game, game.to_move(), 1, context)  # O to move: can O win?
    draw = ProofQuestion(game, game.to_move(), 0, context)  # ... or hold the draw?
    assert answer(win, "pns") == answer(win, "dfpn") == DISPROVEN
    assert answer(draw, "dfpn") == PROVEN


def test_a_spent_budget_says_unknown_and_leaves_the_position_as_it_was() -> None:
    game = ConnectFour.new(width=5, height=4)
    for method, searcher in (("pns", ProofNumberSearch), ("dfpn", DepthFirstProofNumberSearch)):
        context = SearchContext(Scoring.PLAIN, Counters(), budget=Budget(max_nodes=50))
        question = ProofQuestion(game, game.to_move(), 1, context)
        assert answer(question, method) == UNKNOWN
        assert game.ply == 0 and game.key() == ConnectFour.new(width=5, height=4).key()
        with pytest.raises(BudgetExceededError, match="node budget of 50 exhausted"):
            searcher(max_nodes=50).search(game)
        assert game.ply == 0


@pytest.mark.parametrize("game", [Pig.new(), ThreePlayerMNK.new()], ids=["chance", "three players"])
@pytest.mark.parametrize("searcher", PROOF_SEARCHERS[:2], ids=IDS[:2])
def test_a_game_of_chance_or_of_three_players_is_refused_at_once(
    searcher: ProofSearcher, game: Game[Any]
) -> None:
    with pytest.raises(UnsupportedGameError, match=f"searcher {searcher.name!r} cannot search"):
        searcher.search(game)


def test_a_negative_epsilon_is_refused() -> None:
    with pytest.raises(InvalidOptionError, match="epsilon"):
        DepthFirstProofNumberSearch.configured({"epsilon": "-1"})


@pytest.mark.parametrize("searcher", PROOF_SEARCHERS[:2], ids=IDS[:2])
def test_proof_searchers_agree_with_the_solver_on_late_othello_and_kalah_positions(
    searcher: ProofSearcher,
) -> None:
    othello = Othello.new(size=4)
    for move in othello.legal_moves()[:1]:
        othello.push(move)
    for _ in range(5):
        othello.push(othello.legal_moves()[-1])
    kalah = Kalah.new(pits=3, seeds=2)
    kalah.push(kalah.legal_moves()[0])
    for game in (othello, kalah):
        for scoring in Scoring:
            exact = Solver(scoring=scoring).search(game, move_values=True)
            found = attrs.evolve(searcher, scoring=scoring).search(game, move_values=True)
            assert found.margin == exact.margin and found.value == exact.value
            assert set(found.best_moves) == set(exact.best_moves)
            assert dict(found.move_values or ()) == dict(exact.move_values or ())


@pytest.mark.slow
@pytest.mark.parametrize("searcher", PROOF_SEARCHERS[:2], ids=IDS[:2])
def test_proof_searchers_find_othello_4x4_lost_by_8_and_kalah_3_3_won_by_2(
    searcher: ProofSearcher,
) -> None:
    for game, margin in ((Othello.new(size=4), -8), (Kalah.new(pits=3, seeds=3), 2)):
        exact = Solver().search(game)
        found = searcher.search(game)
        assert found.margin == exact.margin == margin
        assert set(found.best_moves) == set(exact.best_moves)


PONS = data_dir() / "Test_L3_R1"


@pytest.mark.slow
@pytest.mark.skipif(not PONS.is_file(), reason=f"no Connect Four data in {data_dir()}")
@pytest.mark.parametrize("searcher", PROOF_SEARCHERS[:2], ids=IDS[:2])
def test_proof_searchers_agree_with_pons_scores_on_the_test_l3_r1_positions_they_finish(
    searcher: ProofSearcher,
) -> None:
    finished = 0
    for scored in read_score_file(Path(PONS))[:60]:
        game = ConnectFour.from_text(scored.moves)
        try:
            found = attrs.evolve(searcher, scoring=Scoring.PLAIN, max_nodes=20_000).search(game)
        except BudgetExceededError:
            continue
        finished += 1
        assert found.margin is not None
        mover_margin = found.margin if game.to_move() == 0 else -found.margin
        assert mover_margin == (scored.score > 0) - (scored.score < 0), scored.line
    assert finished >= 30
