"""Monte Carlo tree search: proofs agree with minimax, seeded runs repeat, budgets hold."""

from __future__ import annotations

import random
from typing import Any

import pytest
from oracle import best_moves, solve_all
from test_unbeatable import human_wins

from gamesearch import (
    AlphaBeta,
    BudgetExceededError,
    InvalidOptionError,
    Player,
    Scoring,
    SearchResult,
    default_registry,
)
from gamesearch.search.mcts import DEFAULT_SIMULATIONS, MonteCarlo
from gamesearch.testing import reachable_positions
from gamesearch_games.connect4 import ConnectFour
from gamesearch_games.tictactoe import TicTacToe

UNFINISHED = [position for position in reachable_positions(TicTacToe()) if not position.is_over()]


def test_a_forced_win_is_proven_with_its_exact_distance() -> None:
    # X to move wins at once at 2; a later win is worth less.
    result = MonteCarlo(seed=1).search(TicTacToe.from_text("XX./OO./..."))
    assert result.is_exact
    assert result.value == 1000 - 5
    assert result.best_moves == (2,) and result.pv == (2,)


def test_a_win_in_three_plies_is_proven_with_its_exact_value() -> None:
    # X plays 4 (the fork: 3-4-5 and 0-4-8 and 1-4-7); O cannot stop both.
    game = TicTacToe.from_text("X../.../O.X")
    values = solve_all(game)
    result = MonteCarlo(seed=2, simulations=5_000).search(game)
    assert result.is_exact
    assert result.value == values[game.key()] > 0
    assert sorted(result.best_moves) == sorted(best_moves(game, values))


def test_the_forced_block_is_the_only_move_that_does_not_lose() -> None:
    # O to move must block X's row at 2; every other move loses at once.
    game = TicTacToe.from_text("XX./O../...")
    values = solve_all(game)
    result = MonteCarlo(seed=3, simulations=5_000).search(game)
    assert result.move == 2
    assert result.is_exact and result.value == values[game.key()]
    assert result.best_moves == (2,)
    losing = [entry.proven for entry in result.visits or () if entry.move != 2]
    assert all(value == 1000 - 5 for value in losing)


def test_a_drawn_position_is_proven_a_draw_with_every_drawing_move() -> None:
    game = TicTacToe.from_text("X../.O./..X")
    result = MonteCarlo(seed=4, simulations=5_000).search(game)
    assert result.is_exact and result.value == 0
    assert sorted(result.best_moves) == [1, 3, 5, 7]


#: the scorings checked on every reachable position: proofs with the distance and without it
EVERY_POSITION_SCORINGS = {Scoring.DISTANCE, Scoring.PLAIN}


@pytest.mark.slow
@pytest.mark.parametrize("scoring", list(Scoring), ids=lambda scoring: scoring.value)
def test_no_proven_value_contradicts_minimax_on_the_reachable_positions(scoring: Scoring) -> None:
    """Distance and plain scoring on every unfinished tic-tac-toe position, the two others
    on a seeded quarter of them: the game's own scoring is distance here (the same search),
    and utility scoring is plain's search with its proven values read as results."""
    values = solve_all(TicTacToe(), scoring)
    searcher = MonteCarlo(simulations=150, seed=5, scoring=scoring)
    positions = UNFINISHED
    if scoring not in EVERY_POSITION_SCORINGS:
        positions = random.Random(23).sample(UNFINISHED, len(UNFINISHED) // 4)
    proven_roots = proven_moves = settled = 0
    for position in positions:
        result = searcher.search(position)
        if result.is_exact:
            proven_roots += 1
            assert result.value == values[position.key()], position.to_text()
            expected = best_moves(position, values)
            assert set(result.best_moves) <= set(expected), position.to_text()
            if result.stats.leaves < 150:  # settled before the budget ran out: every best move
                settled += 1
                assert sorted(result.best_moves) == sorted(expected), position.to_text()
        assert result.move in position.legal_moves()
        for entry in result.visits or ():
            if entry.proven is not None:
                proven_moves += 1
                position.push(entry.move)
                assert entry.proven == values[position.key()], (position.to_text(), entry)
                position.undo()
    # The check means something only if most positions were proven within the budget.
    assert proven_roots > len(positions) * 9 // 10
    assert settled > len(positions) * 9 // 10
    assert proven_moves > proven_roots


@pytest.mark.parametrize("seed", range(5))
def test_connect4_a_win_in_one_is_proven_before_any_move_is_tried_twice(seed: int) -> None:
    # X has three in column 1 and wins at once by playing it again.
    result = MonteCarlo(seed=seed).search(ConnectFour.from_text("121212"))
    assert result.is_exact and result.value == 1000 - 7
    assert result.best_moves == (0,) and result.stats.leaves <= 7


def test_connect4_a_double_threat_is_proven_a_win_in_three_plies() -> None:
    # O to move plays column 4 and threatens columns 2 and 6 in the second row.
    game = ConnectFour.from_text("1455325156737")
    reference = AlphaBeta(depth=3).search(game)  # a proven value: exact at any depth
    result = MonteCarlo(seed=2, simulations=3_000).search(game)
    assert result.is_exact and result.value == reference.value == -(1000 - 16)
    assert result.best_moves == reference.best_moves == (3,)


def test_connect4_the_forced_block_is_chosen_and_every_other_move_proven_lost() -> None:
    # X threatens four in column 1: O must play there; anything else loses at ply 7.
    result = MonteCarlo(seed=3, simulations=1_000).search(ConnectFour.from_text("12121"))
    assert result.move == 0
    assert result.visits is not None
    assert {entry.move: entry.proven for entry in result.visits if entry.move != 0} == {
        move: 1000 - 7 for move in range(1, 7)
    }
    assert abs(result.value) < 1000 - 42  # the block's own value is not proven: a heuristic


def test_connect4_a_drawn_ending_is_proven_a_draw_with_both_drawing_moves() -> None:
    game = ConnectFour.from_text("373444534553633445777776222551")
    reference = AlphaBeta().search(game)
    result = MonteCarlo(seed=4, simulations=3_000).search(game)
    assert result.is_exact and result.value == reference.value == 0
    assert sorted(result.best_moves) == sorted(reference.best_moves) == [0, 5]
    assert result.visits is not None
    assert {entry.move: entry.proven for entry in result.visits} == {0: 0, 1: -(1000 - 32), 5: 0}


class SearchOncePerPosition:
    """A seeded searcher repeats itself: search each position once, then replay the result."""

    def __init__(self, searcher: MonteCarlo) -> None:
        self.searcher = searcher
        self.results: dict[Any, SearchResult] = {}

    def search(self, game: TicTacToe) -> SearchResult:
        if game.key() not in self.results:
            self.results[game.key()] = self.searcher.search(game)
        return self.results[game.key()]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("side", list(Player), ids=lambda player: player.name)
def test_with_2000_simulations_no_human_line_beats_mcts(side: Player, seed: int) -> None:
    engine = SearchOncePerPosition(MonteCarlo(simulations=2_000, seed=seed))
    assert human_wins(TicTacToe(), engine, side) == []  # type: ignore[arg-type]


def test_the_same_seed_repeats_the_move_and_the_statistics() -> None:
    game = TicTacToe(rows=4, cols=4, k=3)
    first, again = (MonteCarlo(simulations=400, seed=9).search(game) for _ in range(2))
    assert (first.move, first.value, first.pv, first.visits) == (
        again.move,
        again.value,
        again.pv,
        again.visits,
    )
    keep = ("nodes", "leaves", "depth", "playout_plies")
    assert [getattr(first.stats, name) for name in keep] == [
        getattr(again.stats, name) for name in keep
    ]
    other = MonteCarlo(simulations=400, seed=10).search(game)
    assert other.visits != first.visits


def test_statistics_count_simulations_tree_nodes_and_playout_plies() -> None:
    result = MonteCarlo(simulations=300, seed=1).search(TicTacToe(rows=4, cols=4, k=3))
    stats = result.stats
    assert stats.leaves == 300  # one scored game per simulation
    assert stats.nodes > 300  # children are created a whole position at a time
    assert stats.playout_plies > 0 and 1 <= stats.depth <= 16
    assert stats.cutoffs == stats.tt_hits == 0
    assert result.visits is not None
    assert sum(entry.visits for entry in result.visits) == 300
    assert [entry.move for entry in result.visits] == list(range(16))
    assert all(-1 <= entry.mean <= 1 for entry in result.visits)
    chosen = max(result.visits, key=lambda entry: entry.visits)
    assert result.move == chosen.move  # nothing proven here: the most visited move


def test_the_default_budget_and_a_time_budget() -> None:
    game = TicTacToe(rows=4, cols=4, k=4)
    assert MonteCarlo(seed=1).search(game).stats.leaves == DEFAULT_SIMULATIONS
    timed = MonteCarlo(seconds=0.05, seed=1).search(game)
    assert timed.move in game.legal_moves() and timed.stats.leaves > 0
    both = MonteCarlo(seconds=60, simulations=50, seed=1).search(game)
    assert both.stats.leaves == 50


@pytest.mark.parametrize("budget", [17, 50, 200])
def test_a_node_budget_caps_the_tree_whatever_the_random_draws(budget: int) -> None:
    # A whole position's children are made at once (16 on the empty 4x4 board): a
    # simulation whose expansion would not fit is not run, the tree stays within budget.
    # 100 simulations fill the tree to within one expansion of the budget (16 nodes at the
    # most), whatever the seed: the rest of them find no room
    game = TicTacToe(rows=4, cols=4, k=4)
    for seed in range(40):
        result = MonteCarlo(max_nodes=budget, simulations=100, seed=seed).search(game)
        assert result.move in game.legal_moves()
        assert budget - 16 < result.stats.nodes <= budget, (seed, result.stats)
        assert result.stats.leaves > 0
    # the root and its 16 children do not fit in 16 nodes: nothing to answer with
    with pytest.raises(BudgetExceededError, match="node budget of 16 exhausted: 17 positions"):
        MonteCarlo(max_nodes=16, seed=1).search(game)
    assert game.history == ()


def test_an_unproven_value_is_a_heuristic_inside_the_bounds() -> None:
    game = TicTacToe(rows=4, cols=4, k=4)
    result = MonteCarlo(simulations=200, seed=1).search(game, move_values=True)
    assert not result.is_exact
    assert abs(result.value) < game.rules.scale.heuristic_bound
    assert result.move_values is not None and len(result.move_values) == 16
    assert all(abs(value) < game.rules.scale.heuristic_bound for _, value in result.move_values)


def test_a_search_leaves_the_position_as_it_found_it() -> None:
    game = TicTacToe.from_text("X../.O./...")
    game.play("8")
    before = (game.key(), game.history, game.ply)
    MonteCarlo(simulations=500, seed=1).search(game, move_values=True)
    assert (game.key(), game.history, game.ply) == before


class _CheckedConnectFour(ConnectFour):
    """Connect Four that compares its board with its history whenever a searcher asks for moves."""

    checked = 0

    def legal_moves(self) -> Any:
        # The oracle: drop the history's stones into plain columns and compare every cell.
        geometry = self._geometry
        columns: list[list[str]] = [[] for _ in range(geometry.width)]
        sequence = self.move_sequence()
        assert sequence is not None and len(sequence) == self.ply
        for index, char in enumerate(sequence):
            columns[int(char) - 1].append("XO"[index % 2])
        for col, stones in enumerate(columns):
            for row in range(geometry.height):
                assert self.cell(col, row) == (stones[row] if row < len(stones) else "."), sequence
        assert self.to_text() == sequence
        type(self).checked += 1
        return super().legal_moves()


def test_every_position_a_simulation_reaches_has_its_whole_history() -> None:
    game = _CheckedConnectFour.from_moves("4453", width=5, height=4)
    before = (game.key(), game.history, game.to_text())
    result = MonteCarlo(simulations=200, seed=3).search(game)
    assert result.stats.playout_plies > 0
    # every expansion and every playout ply asked for the moves of a true position
    assert _CheckedConnectFour.checked >= result.stats.playout_plies
    assert (game.key(), game.history, game.to_text()) == before


def test_a_finished_game_gets_no_move() -> None:
    result = MonteCarlo(seed=1).search(TicTacToe.from_text("XXX/OO./..."))
    assert result.is_game_over and result.move is None and result.value == 1000 - 5


def test_it_is_registered_and_reports_visits_in_json() -> None:
    searcher = default_registry().new_searcher("mcts:simulations=50,seed=2,exploration=0.5")
    assert isinstance(searcher, MonteCarlo)
    assert (searcher.simulations, searcher.seed, searcher.exploration) == (50, 2, 0.5)
    game = TicTacToe()
    data = searcher.search(game).as_dict(game)
    assert sum(entry["visits"] for entry in data["visits"]) == 50
    assert {entry["move"] for entry in data["visits"]} == {str(move) for move in range(9)}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"simulations": "0"}, r"'simulations' must be >= 1: 0"),
        ({"seconds": "-1"}, r"'seconds' must be >= 0.001: -1.0"),
        ({"exploration": "-0.5"}, r"'exploration' must be >= 0: -0.5"),
        ({"simulations": "many"}, r"option 'simulations' must be an integer or none: 'many'"),
        ({"exploration": "nan"}, r"'exploration' must be a finite number: 'nan'"),
        ({"seconds": "nan"}, r"'seconds' must be a finite number or none: 'nan'"),
        ({"seconds": "inf"}, r"'seconds' must be a finite number or none: 'inf'"),
        ({"simulations": 2.5}, r"option 'simulations' must be an integer or none: 2.5"),
        ({"simulations": True}, r"option 'simulations' must be an integer or none: True"),
        ({"playouts": "3"}, r"searcher 'mcts': unknown option 'playouts'"),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(
    options: dict[str, str], message: str
) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        MonteCarlo.configured(options)
