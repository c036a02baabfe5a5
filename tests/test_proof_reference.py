"""The readable twins of pns and df-pn answer every proof question as the fast cores do."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from gamesearch import Game, Scoring
from gamesearch.search.base import Counters, SearchContext
from gamesearch.search.proof import PROVEN, ProofQuestion, answer
from gamesearch.search.reference import dfpn as reference_dfpn
from gamesearch.search.reference import pns as reference_pns
from gamesearch_games.kalah import Kalah
from gamesearch_games.othello import Othello
from gamesearch_games.tictactoe import TicTacToe


def positions() -> list[Game[Any]]:
    """Return tic-tac-toe after some openings of three moves, a late Othello 4x4 and a
    Kalah(3,1)."""
    found: list[Game[Any]] = []
    for moves in itertools.islice(itertools.permutations(range(9), 3), 0, 504, 37):
        game = TicTacToe.new()
        for move in moves:
            game.push(move)
        found.append(game)
    othello = Othello.new(size=4)
    for _ in range(7):
        othello.push(othello.legal_moves()[0])
    found.append(othello)
    found.append(Kalah.new(pits=3, seeds=1))
    return found


def core_says(game: Game[Any], target: int, method: str, epsilon: float = 0.25) -> bool:
    context = SearchContext(Scoring.PLAIN, Counters())
    return answer(ProofQuestion(game, game.to_move(), target, context), method, epsilon) == PROVEN


@pytest.mark.parametrize("target", [1, 0])
def test_the_readable_pns_answers_as_the_fast_core(target: int) -> None:
    for game in positions():
        before = game.key()
        assert reference_pns.prove(game, target) == core_says(game, target, "pns"), game.to_text()
        assert game.key() == before


@pytest.mark.parametrize("epsilon", [0.0, 0.25])
@pytest.mark.parametrize("target", [1, 0])
def test_the_readable_dfpn_answers_as_the_fast_core(target: int, epsilon: float) -> None:
    for game in positions():
        before = game.key()
        expected = core_says(game, target, "dfpn", epsilon)
        assert reference_dfpn.prove(game, target, epsilon) == expected, game.to_text()
        assert game.key() == before
