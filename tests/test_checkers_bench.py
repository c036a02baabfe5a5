"""The checkers benchmark row: the floor, the shared heuristic and the OpenSpiel adapter.

The floor is an independent search of the same tree, so it must report the framework's
value and node count exactly. No test here times anything.
"""

from __future__ import annotations

import importlib.util
import random
from itertools import pairwise

import pytest

from benchmarks import build_rows
from benchmarks.checkers import (
    CHECKERS_DEPTH,
    checkers_alphabeta,
    checkers_heuristic,
    checkers_max_plies,
    openspiel_pieces,
    openspiel_value,
)
from benchmarks.floors import proven_scale
from gamesearch import AlphaBeta
from gamesearch.search.base import heuristic
from gamesearch_games.checkers import Checkers

needs_openspiel = pytest.mark.skipif(
    importlib.util.find_spec("pyspiel") is None, reason="OpenSpiel (pyspiel) is not installed"
)


def random_games(count: int, seed: int) -> list[list[Checkers]]:
    """Return the positions of ``count`` random games, each game's in order."""
    chance, games = random.Random(seed), []
    for _ in range(count):
        game, positions = Checkers(), []
        while True:
            positions.append(game.copy())
            if game.result() is not None:
                break
            game.push(chance.choice(list(game.legal_moves())))
        games.append(positions)
    return games


def floor_position(game: Checkers) -> tuple[int, int, int, int, int, int]:
    black, white, kings = game.pieces()
    return black, white, kings, game.to_move(), game.quiet_plies, game.ply


def alphabeta(depth: int, game: Checkers) -> tuple[int, int]:
    result = AlphaBeta(depth=depth, all_best=False).search(game)
    return result.value, result.stats.nodes


@pytest.mark.parametrize("depth", [1, 2, 3, 5, 6])
def test_the_floor_searches_the_frameworks_tree_from_the_start(depth: int) -> None:
    assert checkers_alphabeta(depth) == alphabeta(depth, Checkers())


def test_the_floor_searches_the_frameworks_tree_from_random_positions() -> None:
    positions = [
        game for line in random_games(6, seed=4) for game in line[::7] if game.result() is None
    ]
    assert len(positions) > 60 and any(game.quiet_plies for game in positions)
    for game in positions:
        assert checkers_alphabeta(3, floor_position(game)) == alphabeta(3, game), game.to_text()


def test_the_floor_scores_quiet_draws_and_blocked_sides_as_the_framework() -> None:
    for text in ("B:W28,K32:BK1,5 78 100", "B:W29:B22,25,K31 79 101", "W:WK10:BK20 77 31"):
        game = Checkers.from_text(text)
        assert checkers_alphabeta(4, floor_position(game)) == alphabeta(4, game)


def test_the_shared_heuristic_is_the_framework_evaluation() -> None:
    for line in random_games(4, seed=8):
        for game in line:
            assert checkers_heuristic(*game.pieces()) == heuristic(game)()


def test_the_floors_value_scale_is_the_frameworks() -> None:
    for draw_plies in (80, 10):
        game = Checkers(draw_plies=draw_plies)
        scale = game.rules.scale
        assert checkers_max_plies(draw_plies) == game.rules.max_plies
        assert proven_scale(game.rules.max_plies) == (
            scale.win,
            scale.stride,
            scale.heuristic_bound,
        )


def test_the_row_holds_the_framework_and_the_floor() -> None:
    rows, _ = build_rows(peers=False, quick=True, only="checkers")
    assert [row.name for row in rows] == [CHECKERS_DEPTH]
    assert [item.library for item in rows[0].contenders] == ["gamesearch", "floor"]
    assert rows[0].contenders[0].searcher == "alphabeta:depth=8,all_best=off"


# ------------------------------------------------------------------- OpenSpiel
def openspiel_actions(move: tuple[int, ...]) -> list[str]:
    """Return OpenSpiel's action texts of our ``move``: one a jump (its board is ours turned
    round)."""

    def cell(square: int) -> str:
        row = square // 4
        col = 2 * (square % 4) + (row + 1) % 2
        return f"{'abcdefgh'[7 - col]}{row + 1}"

    return [cell(start) + cell(end) for start, end in pairwise(move)]


@needs_openspiel
def test_openspiel_checkers_plays_our_checkers() -> None:
    import pyspiel

    spiel = pyspiel.load_game("checkers")
    chains = finished = openspiel_draws = 0
    for line in random_games(12, seed=1):
        state = spiel.new_initial_state()
        for game, after in pairwise(line):
            if state.is_terminal():  # OpenSpiel's draw rule: 40 plies without a capture
                assert state.returns() == [0.0, 0.0] and game.quiet_plies < 80
                openspiel_draws += 1
                break
            assert openspiel_pieces(state) == game.pieces()
            assert openspiel_value(state) == game.evaluate()
            assert state.current_player() == game.to_move()
            firsts = sorted({tuple(openspiel_actions(move)[:1]) for move in game.legal_moves()})
            assert (
                sorted((state.action_to_string(action),) for action in state.legal_actions())
                == firsts
            )
            move = after.history[-1]
            for text in openspiel_actions(move):
                actions = {
                    state.action_to_string(action): action for action in state.legal_actions()
                }
                state.apply_action(actions[text])
            chains += len(move) > 2
        else:
            last = line[-1]
            assert openspiel_pieces(state) == last.pieces()
            if last.result() != 0:
                assert state.is_terminal() and state.returns()[0] == last.result()
            finished += 1
    assert chains and finished > openspiel_draws
