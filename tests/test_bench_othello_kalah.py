"""The Othello and Kalah benchmark rows: floors, shared heuristics and the OpenSpiel adapter.

The floors are independent searches of the same trees, so they must report the
framework's values and node counts exactly. No test here times anything.
"""

from __future__ import annotations

import importlib.util
import random
from typing import Any

import pytest

from benchmarks import build_rows, floors
from benchmarks.workloads import (
    KALAH_DEPTH,
    KALAH_DEPTHS,
    KALAH_LATE_POSITIONS,
    OTHELLO6_LATE_POSITIONS,
    OTHELLO8_DEPTH,
    OTHELLO_DEPTHS,
    kalah_heuristic,
    kalah_position,
    othello_bitboards,
    othello_heuristic,
)
from gamesearch import AlphaBeta, Scoring
from gamesearch.search.base import heuristic
from gamesearch_games.kalah import Kalah
from gamesearch_games.othello import PASS, Othello

needs_openspiel = pytest.mark.skipif(
    importlib.util.find_spec("pyspiel") is None, reason="OpenSpiel (pyspiel) is not installed"
)


def random_othello_positions(size: int, count: int) -> list[Othello]:
    """Return unfinished positions of random games, a few at every stage of the game."""
    found = []
    for number in range(count):
        chance, game = random.Random(number), Othello.new(size=size)
        stop = chance.randrange(size * size)
        while game.result() is None and len(game.history) < stop:
            game.push(chance.choice(list(game.legal_moves())))
        if game.result() is None:
            found.append(game)
    return found


def alphabeta(depth: int | None, game: Any, **switches: Any) -> tuple[int, int]:
    result = AlphaBeta(depth=depth, all_best=False, **switches).search(game)
    return result.value, result.stats.nodes


@pytest.mark.parametrize("depth", [1, 2, 5, 7])
def test_the_othello_6x6_floor_matches_the_framework_in_the_games_order(depth: int) -> None:
    assert floors.othello_alphabeta(6, depth) == alphabeta(depth, Othello.new(size=6))


@pytest.mark.parametrize("depth", [1, 4])
def test_the_othello_8x8_floor_matches_the_framework_in_row_major_order(depth: int) -> None:
    expected = alphabeta(depth, Othello.new(), ordering="natural")
    assert floors.othello_alphabeta(8, depth, ordered=False) == expected


@pytest.mark.parametrize("game", random_othello_positions(6, 12), ids=str)
def test_the_othello_floor_matches_the_framework_from_positions_with_passes(game: Othello) -> None:
    position = (*game.discs(), game.ply)
    assert floors.othello_alphabeta(6, 4, position) == alphabeta(4, game)


@pytest.mark.slow
def test_the_othello_solving_floor_matches_the_framework_on_the_late_positions() -> None:
    games = [Othello.from_text(text, size=6) for text in OTHELLO6_LATE_POSITIONS[:2]]
    results = [alphabeta(None, game, table=True) for game in games]
    values, nodes = floors.othello_solve(
        6, [othello_bitboards(text) for text in OTHELLO6_LATE_POSITIONS[:2]]
    )
    assert values == [value for value, _ in results]
    assert nodes == sum(count for _, count in results)
    # exact disc margins: White wins the first by 10 discs, Black the second by 26
    assert [game.rules.scale.margin(value) for game, value in zip(games, values, strict=True)] == [
        -10,
        26,
    ]


@pytest.mark.parametrize(
    ("depth", "ordered"), [(1, False), (4, False), (7, False), (3, True), (9, True)]
)
def test_the_kalah_floor_matches_the_framework(depth: int, ordered: bool) -> None:
    expected = alphabeta(depth, Kalah.new(), ordering="game" if ordered else "natural")
    assert floors.kalah_alphabeta(depth, ordered=ordered) == expected


def test_the_kalah_floor_scores_a_finished_game_by_its_margin() -> None:
    # 2 houses of 1 seed: South plays house 2 (into the store), then house 1 captures
    # and empties its row; every line ends within the 6 plies
    game = Kalah.new(pits=2, seeds=1)
    assert AlphaBeta(depth=6).search(game).is_exact
    assert floors.kalah_alphabeta(6, pits=2, seeds=1) == alphabeta(6, game, ordering="natural")
    assert floors.kalah_alphabeta(6, pits=2, seeds=1, ordered=True) == alphabeta(6, game)


@pytest.mark.slow
def test_the_kalah_solving_floor_matches_the_framework_on_the_late_positions() -> None:
    games = [Kalah.from_text(text) for text, _ in KALAH_LATE_POSITIONS]
    results = [alphabeta(None, game, table=True) for game in games]
    values, nodes = floors.kalah_solve([kalah_position(text) for text, _ in KALAH_LATE_POSITIONS])
    assert values == [value for value, _ in results]
    assert nodes == sum(count for _, count in results)
    # exact seed margins: North wins the first by 4, a draw, South wins the others by 20 and 14
    assert [game.rules.scale.margin(value) for game, value in zip(games, values, strict=True)] == [
        -4,
        0,
        20,
        14,
    ]
    # and with plain scoring (the row's search): the same margins, not how soon
    plain = [alphabeta(None, game, table=True, scoring=Scoring.PLAIN) for game in games]
    values, nodes = floors.kalah_solve(
        [kalah_position(text) for text, _ in KALAH_LATE_POSITIONS], distance=False
    )
    assert (values, nodes) == ([value for value, _ in plain], sum(count for _, count in plain))
    assert [game.rules.scale.margin(value) for game, value in zip(games, values, strict=True)] == [
        -4,
        0,
        20,
        14,
    ]


def test_the_kalah_late_positions_are_reached_by_their_moves() -> None:
    for text, moves in KALAH_LATE_POSITIONS:
        game = Kalah.new()
        for house in moves:
            game.play(house)
        assert game.to_text() == text and game.result() is None
        assert kalah_position(text) == (game.board(), game.to_move(), game.ply)
    with pytest.raises(ValueError, match=r"not a Kalah position: '1,2/0/3 S'"):
        kalah_position("1,2/0/3 S")


def test_the_floors_value_scale_is_the_framework_s() -> None:
    for game in (Othello.new(size=6), Othello.new(), Kalah.new()):
        scale = game.rules.scale
        assert floors.proven_scale(game.rules.max_plies) == (
            scale.win,
            scale.stride,
            scale.heuristic_bound,
        )
    assert floors.kalah_max_plies(6, 4) == Kalah.new().rules.max_plies
    assert floors.othello_board(6).max_plies == Othello.new(size=6).rules.max_plies


def test_the_late_positions_are_read_as_the_game_reads_them() -> None:
    for text in OTHELLO6_LATE_POSITIONS:
        game = Othello.from_text(text, size=6)
        assert othello_bitboards(text) == (*game.discs(), game.ply)
        assert 10 <= text.count(".") <= 12 and game.result() is None
    with pytest.raises(ValueError, match=r"not an Othello position: 'BW\. B'"):
        othello_bitboards("BW. B")


@pytest.mark.parametrize("size", [6, 8])
def test_the_shared_othello_heuristic_is_the_framework_evaluation(size: int) -> None:
    for game in random_othello_positions(size, 30):
        assert othello_heuristic(*game.discs(), size) == heuristic(game)()


def test_the_shared_kalah_heuristic_is_the_game_evaluation() -> None:
    chance, game = random.Random(3), Kalah.new()
    while game.result() is None:
        assert kalah_heuristic(game.board()) == game.evaluate()
        game.push(chance.choice(list(game.legal_moves())))


def test_the_new_rows_hold_the_framework_and_the_floor() -> None:
    rows, _ = build_rows(peers=False, only="othello")
    assert [row.name for row in rows] == [
        "othello 6x6: alpha-beta depth 9",
        "othello 6x6: exact, 4 positions with 12 empty squares",
        "othello 8x8: alpha-beta depth 8, row-major order",
    ]
    assert all([item.library for item in row.contenders] == ["gamesearch", "floor"] for row in rows)
    rows, _ = build_rows(peers=False, quick=True, only="kalah")
    assert [row.name for row in rows] == [
        KALAH_DEPTH,
        "kalah 6x4: exact, 4 positions with 14 seeds in the houses",
    ]


# ------------------------------------------------------------------- OpenSpiel
@needs_openspiel
def test_openspiel_othello_plays_our_othello() -> None:
    import pyspiel

    from benchmarks.peers.openspiel import othello_discs, othello_value

    spiel = pyspiel.load_game("othello")
    for number in range(20):
        chance, game, state = random.Random(number), Othello.new(), spiel.new_initial_state()
        while not state.is_terminal():
            assert game.result() is None
            moves = [
                64 if move == PASS else move for move in game.legal_moves()
            ]  # OpenSpiel's pass is 64
            assert (moves, state.current_player()) == (state.legal_actions(), game.to_move())
            assert othello_discs(state) == game.discs()
            assert othello_value(state) == heuristic(game)()
            action = chance.choice(moves)
            state.apply_action(action)
            game.push(PASS if action == 64 else action)
        result = game.result()
        assert result is not None and state.returns()[0] == (result > 0) - (result < 0)


@needs_openspiel
def test_openspiel_mancala_plays_our_kalah() -> None:
    import pyspiel

    from benchmarks.peers.openspiel import kalah_board, kalah_value

    spiel = pyspiel.load_game("mancala")
    for number in range(40):
        chance, game, state = random.Random(number), Kalah.new(), spiel.new_initial_state()
        while not state.is_terminal():
            assert game.result() is None
            offset = 8 if game.to_move() else 1  # OpenSpiel's houses: 1..6 and 8..13
            moves = list(game.legal_moves())
            assert [action - offset for action in state.legal_actions()] == moves
            assert (kalah_board(state), kalah_value(state)) == (list(game.board()), game.evaluate())
            assert state.current_player() == game.to_move()
            house = chance.choice(moves)
            state.apply_action(house + offset)
            game.push(house)
        result = game.result()
        assert result is not None and state.returns()[0] == (result > 0) - (result < 0)


@needs_openspiel
@pytest.mark.parametrize(("game_name", "depth"), [("othello", 3), ("mancala", 5)])
def test_openspiel_searches_the_framework_s_tree(game_name: str, depth: int) -> None:
    import pyspiel
    from open_spiel.python.algorithms import minimax

    from benchmarks.peers.openspiel import CountingState, kalah_value, othello_value

    spiel, counter = pyspiel.load_game(game_name), [0]
    value_function = othello_value if game_name == "othello" else kalah_value
    value, _ = minimax.alpha_beta_search(
        spiel,
        state=CountingState(spiel.new_initial_state(), counter),
        value_function=value_function,
        maximum_depth=depth,
    )
    game = Othello.new() if game_name == "othello" else Kalah.new()
    assert (value, counter[0] + 1) == alphabeta(depth, game, ordering="natural")


@needs_openspiel
def test_openspiel_reaches_the_kalah_late_positions_and_finds_the_same_winners() -> None:
    import pyspiel
    from open_spiel.python.algorithms import minimax

    from benchmarks.peers.openspiel import kalah_board, kalah_state

    spiel = pyspiel.load_game("mancala")
    for text, moves in KALAH_LATE_POSITIONS[:2]:
        state, game = kalah_state(spiel, moves), Kalah.from_text(text)
        assert (kalah_board(state), state.current_player()) == (list(game.board()), game.to_move())
        value, _ = minimax.alpha_beta_search(
            spiel, state=state, maximum_depth=spiel.max_game_length()
        )
        margin = game.rules.scale.margin(alphabeta(None, game, table=True)[0])
        assert margin is not None
        first_player_value = value if game.to_move() == 0 else -value
        assert first_player_value == (margin > 0) - (margin < 0)


@needs_openspiel
def test_openspiel_runs_the_othello_8x8_and_kalah_rows_with_the_framework_s_counts() -> None:
    from benchmarks.peers import openspiel

    found = openspiel.contenders()
    assert (
        found[OTHELLO8_DEPTH].searcher
        == f"alpha_beta_search(maximum_depth={OTHELLO_DEPTHS[OTHELLO8_DEPTH][1]})"
    )
    kalah = found[KALAH_DEPTH]
    assert kalah.count_nodes is not None
    depth, _ = KALAH_DEPTHS[KALAH_DEPTH]
    assert kalah.count_nodes() == alphabeta(depth, Kalah.new(), ordering="natural")[1]
