"""The engine cannot be beaten from the empty board, whatever the human replies."""

from __future__ import annotations

import pytest

from gamesearch import AlphaBeta, IterativeDeepening, Outcome, Player, Searcher
from gamesearch.rules import outcome as outcome_of
from gamesearch_games.tictactoe import TicTacToe


def human_wins(game: TicTacToe, engine: Searcher, engine_side: Player) -> list[str]:
    """Return every line in which the human (trying all replies) beats the engine."""
    outcome = outcome_of(game)
    if outcome is not None:
        lost = Outcome.SECOND_WINS if engine_side is Player.FIRST else Outcome.FIRST_WINS
        return [" ".join(map(str, game.history))] if outcome is lost else []
    if game.to_move() is engine_side:
        game.push(engine.search(game).move)
        found = human_wins(game, engine, engine_side)
        game.undo()
        return found
    found = []
    for move in game.legal_moves():
        game.push(move)
        found += human_wins(game, engine, engine_side)
        game.undo()
    return found


@pytest.mark.parametrize(
    "engine", [AlphaBeta(table=True), AlphaBeta(seed=3), IterativeDeepening()], ids=repr
)
@pytest.mark.parametrize("engine_side", list(Player), ids=lambda player: player.name)
def test_no_human_line_beats_the_engine(engine: Searcher, engine_side: Player) -> None:
    assert human_wins(TicTacToe(), engine, engine_side) == []
