"""The known tic-tac-toe figures, reproduced by the framework's searchers."""

from __future__ import annotations

from gamesearch import AlphaBeta, Minimax, Scoring
from gamesearch_games.tictactoe import TicTacToe


def count_games(game: TicTacToe) -> int:
    if game.is_over():
        return 1
    total = 0
    for move in game.legal_moves():
        game.push(move)
        total += count_games(game)
        game.undo()
    return total


def reachable_positions(game: TicTacToe, seen: dict[int, TicTacToe]) -> None:
    if game.key() in seen:
        return
    seen[game.key()] = game.copy()
    for move in game.legal_moves():
        game.push(move)
        reachable_positions(game, seen)
        game.undo()


def test_there_are_255168_possible_games() -> None:
    assert count_games(TicTacToe()) == 255_168


def test_there_are_5478_reachable_positions_of_which_958_are_terminal() -> None:
    seen: dict[int, TicTacToe] = {}
    reachable_positions(TicTacToe(), seen)
    assert len(seen) == 5_478
    assert sum(position.is_over() for position in seen.values()) == 958


def test_plain_minimax_visits_549946_nodes_from_the_empty_board() -> None:
    result = Minimax(scoring=Scoring.PLAIN).search(TicTacToe())
    assert result.stats.nodes == 549_946
    assert result.stats.leaves == 255_168
    assert result.value == 0


def test_alphabeta_in_natural_order_with_a_shared_window_visits_18297_nodes() -> None:
    searcher = AlphaBeta(scoring=Scoring.PLAIN, ordering="natural", all_best=False)
    result = searcher.search(TicTacToe())
    assert result.stats.nodes == 18_297
    assert result.value == 0


def test_seed_engine_count_16553_with_centre_first_order_and_a_fresh_root_window() -> None:
    # Seed 000's engine: centre-corner-edge order, 10 - depth scores, a full window
    # for each root move, and the root itself not counted.
    searcher = AlphaBeta(scoring=Scoring.DISTANCE, ordering="game", root_window="fresh")
    result = searcher.search(TicTacToe())
    assert result.stats.nodes - 1 == 16_553
