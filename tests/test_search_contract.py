"""What every search promises besides its value: position untouched, stats, ties, budgets."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from gamesearch import AlphaBeta, IterativeDeepening, Minimax, Scoring, Searcher, default_registry
from gamesearch.errors import BudgetExceededError, InvalidOptionError
from gamesearch.rules import outcome as outcome_of
from gamesearch.search.base import Limit
from gamesearch.search.table import SearchMemory
from gamesearch_games.tictactoe import TicTacToe

SEARCHERS: list[Searcher] = [
    Minimax(),
    Minimax(depth=2),
    AlphaBeta(),
    AlphaBeta(depth=2, table=True),
    IterativeDeepening(max_nodes=500),
]


@pytest.mark.parametrize("searcher", SEARCHERS, ids=repr)
def test_a_search_leaves_the_position_exactly_as_it_found_it(searcher: Searcher) -> None:
    game = TicTacToe.from_text("X../.O./...")
    game.play("8")
    before = (game.key(), game.to_text(), game.history, game.ply)
    searcher.search(game, move_values=True)
    assert (game.key(), game.to_text(), game.history, game.ply) == before


class Explodes:
    """A tracer that stops the search half-way, as a crash inside a search would."""

    def __init__(self, after: int) -> None:
        self.entered = 0
        self.after = after

    def enter(self, move: Any, depth: int, alpha: int, beta: int) -> None:
        self.entered += 1
        if self.entered > self.after:
            raise RuntimeError("boom")

    def leave(self, value: int) -> None:
        pass

    def prune(self, moves: Any) -> None:
        pass


@pytest.mark.parametrize("searcher", [Minimax(), AlphaBeta(table=True)], ids=repr)
def test_a_search_that_raises_still_restores_the_position(searcher: Searcher) -> None:
    game = TicTacToe.from_text("X........")
    before = (game.key(), game.history)
    with pytest.raises(RuntimeError, match="boom"):
        searcher.search(game, tracer=Explodes(after=50))
    assert (game.key(), game.history) == before


@pytest.mark.parametrize("searcher", [AlphaBeta(max_nodes=100), Minimax(max_nodes=100)], ids=repr)
def test_a_search_out_of_budget_restores_the_position(searcher: Searcher) -> None:
    game = TicTacToe.from_text("X../.../...")
    before = (game.key(), game.to_text(), game.history)
    with pytest.raises(BudgetExceededError, match="node budget of 100 exhausted"):
        searcher.search(game)
    assert (game.key(), game.to_text(), game.history) == before


#: one small position of each kind of game, for the searchers that accept it
BUDGET_POSITIONS = (
    ("tictactoe", "X........", {}),
    ("pig", None, {"goal": 5, "faces": 3, "horizon": 6}),
    ("mnk3", "AB./C../...", {}),
    ("kalah", None, {"pits": 3, "seeds": 3}),
)
REGISTRY = default_registry()


@pytest.mark.parametrize("name", sorted(REGISTRY.searchers))
def test_every_searcher_honours_a_node_budget_given_as_a_limit(name: str) -> None:
    """A searcher that answers within its budget stops there; any other gives up at once,
    naming the budget, and leaves the position as it was."""
    searcher = REGISTRY.new_searcher(name)
    games = [REGISTRY.new_game(game, text, **options) for game, text, options in BUDGET_POSITIONS]
    game = next(game for game in games if not searcher.unmet_needs(game))
    before = (game.key(), game.history)
    if searcher.answers_within_budget:
        result = searcher.search(game, Limit(max_nodes=50))
        assert result.move in game.legal_moves() and result.stats.nodes <= 51, result.stats
    else:
        with pytest.raises(BudgetExceededError, match="node budget of 50 exhausted"):
            searcher.search(game, Limit(max_nodes=50))
    assert (game.key(), game.history) == before


def test_minimax_within_its_node_budget_answers_as_without_one() -> None:
    game = TicTacToe.from_text("XO./.X./...")
    unbounded = Minimax().search(game)
    bounded = Minimax(max_nodes=unbounded.stats.nodes).search(game)
    assert (bounded.value, bounded.best_moves, bounded.stats.nodes) == (
        unbounded.value,
        unbounded.best_moves,
        unbounded.stats.nodes,
    )
    with pytest.raises(BudgetExceededError):
        Minimax(max_nodes=unbounded.stats.nodes - 1).search(game)


@pytest.mark.parametrize("searcher", SEARCHERS, ids=repr)
def test_a_finished_game_gets_no_move_and_its_score(searcher: Searcher) -> None:
    game = TicTacToe.from_text("XXX/OO./...")
    result = searcher.search(game)
    assert result.is_game_over
    assert result.move is None and result.best_moves == () and result.pv == ()
    assert result.value == 1000 - 5


def test_the_principal_variation_starts_with_the_move_and_is_legal() -> None:
    game = TicTacToe.from_text("XX./OO./...")
    result = AlphaBeta().search(game)
    assert result.move == 2 and result.pv == (2,)
    line = AlphaBeta().search(TicTacToe()).pv
    replay = TicTacToe()
    for move in line:
        replay.apply(move)
    assert outcome_of(replay) is not None


@pytest.mark.parametrize("searcher", [*SEARCHERS, AlphaBeta(table=True)], ids=repr)
def test_the_line_read_after_the_game_moved_on_is_the_line_of_the_searched_position(
    searcher: Searcher,
) -> None:
    # The principal variation is worked out when first read, on a copy of the
    # position: playing on (or searching again) in between must not change it.
    game = TicTacToe.from_text("X../.O./...")
    expected = searcher.search(game.copy()).pv
    result = searcher.search(game)
    game.apply(result.move)
    searcher.search(game)
    game.apply(game.legal_moves()[0])
    assert result.pv == expected and result.pv[0] == result.move
    assert result.pv is result.pv  # worked out once


@pytest.mark.parametrize(("name", "text"), [("tictactoe", "X../.O./..."), ("connect4", "4453")])
def test_positions_and_results_whose_line_is_still_to_come_can_be_pickled(
    name: str, text: str
) -> None:
    # (what a process pool sends to its workers and gets back)
    game = default_registry().new_game(name, text)
    copied = pickle.loads(pickle.dumps(game))
    assert (copied.key(), copied.to_text(), copied.history) == (
        game.key(),
        game.to_text(),
        game.history,
    )
    copied.apply(copied.legal_moves()[0])
    assert copied.key() != game.key()
    result = AlphaBeta(table=True, depth=4).search(game)
    assert pickle.loads(pickle.dumps(result)) == result
    assert pickle.loads(pickle.dumps(result)).pv == AlphaBeta(depth=4).search(game).pv


class TurnsNotDeclared(TicTacToe):
    """Tic-tac-toe that does not promise alternating turns: searchers ask to_move() everywhere."""

    turns_alternate = False


@pytest.mark.slow
@pytest.mark.parametrize(
    "searcher",
    [
        Minimax(),
        Minimax(depth=3),
        AlphaBeta(),
        AlphaBeta(ordering="natural", all_best=False),
        AlphaBeta(table=True, depth=4),
        IterativeDeepening(max_nodes=2_000),
    ],
    ids=repr,
)
def test_a_game_without_alternating_turns_gets_the_same_searches(searcher: Searcher) -> None:
    # the distinct positions of 60 random draws (52: the start, the dearest search, was
    # drawn 7 times, and a search repeated proves nothing more)
    rng = random.Random(3)
    searched: set[tuple[int, ...]] = set()
    for _ in range(60):
        moves = rng.sample(range(9), rng.randrange(0, 7))
        declared, undeclared = TicTacToe(), TurnsNotDeclared()
        for move in moves:
            if declared.is_over():
                break
            declared.push(move)
            undeclared.push(move)
        if declared.history in searched:
            continue
        searched.add(declared.history)
        expected, found = searcher.search(declared), searcher.search(undeclared)
        assert (found.value, found.best_moves, found.pv) == (
            expected.value,
            expected.best_moves,
            expected.pv,
        )
        assert (found.stats.nodes, found.stats.leaves) == (
            expected.stats.nodes,
            expected.stats.leaves,
        )


def test_the_fastest_win_is_preferred_and_the_slowest_loss() -> None:
    # X can win now at 2 or later; distance scoring takes the immediate win.
    game = TicTacToe.from_text("XX./OO./...")
    assert AlphaBeta().search(game).best_moves == (2,)
    plain = AlphaBeta(scoring=Scoring.PLAIN).search(game)
    assert plain.value == 1000


def test_ties_are_deterministic_by_default_and_random_from_a_seed() -> None:
    game = TicTacToe()
    assert {AlphaBeta().search(game).move for _ in range(5)} == {4}
    chosen = [AlphaBeta(seed=seed).search(game).move for seed in range(30)]
    assert len(set(chosen)) > 1
    assert chosen == [AlphaBeta(seed=seed).search(game).move for seed in range(30)]
    assert set(chosen) <= set(AlphaBeta().search(game).best_moves)


def test_depth_limited_alphabeta_equals_depth_limited_minimax() -> None:
    rng = random.Random(5)
    for _ in range(40):
        game = TicTacToe(rows=4, cols=4, k=3)
        for _ in range(rng.randrange(0, 6)):
            if game.is_over():
                break
            game.push(rng.choice(game.legal_moves()))
        if game.is_over():
            continue
        for depth in (1, 2, 3):
            reference = Minimax(depth=depth).search(game)
            for table in (False, True):
                result = AlphaBeta(depth=depth, table=table).search(game)
                assert result.value == reference.value
                assert sorted(result.best_moves) == sorted(reference.best_moves)


def test_a_transposition_table_kept_across_searches_never_changes_a_result() -> None:
    rng = random.Random(11)
    shared, memory = AlphaBeta(depth=3, table=True), SearchMemory()
    searched = 0
    while searched < 300:
        game = TicTacToe(rows=4, cols=4, k=3)
        for _ in range(rng.randrange(0, 8)):
            if game.is_over():
                break
            game.push(rng.choice(game.legal_moves()))
        if game.is_over():
            continue
        depth = rng.choice((1, 2, 3))
        with_table = shared if depth == 3 else AlphaBeta(depth=depth, table=True)
        fresh = AlphaBeta(depth=depth).search(game)
        reused = with_table.search(game, memory=memory)  # one memory for every depth
        assert (reused.value, reused.best_moves) == (fresh.value, fresh.best_moves)
        searched += 1
    assert memory.entries() > 0


def test_a_small_table_is_emptied_when_full_and_still_gives_the_same_answers() -> None:
    small, reference, memory = AlphaBeta(table=True, table_entries=50), AlphaBeta(), SearchMemory()
    for text in (".........", "X........", "X...O....", "XO..X...."):
        game = TicTacToe.from_text(text)
        found, expected = small.search(game, memory=memory), reference.search(game)
        assert (found.value, found.best_moves) == (expected.value, expected.best_moves)
        assert 0 < memory.entries() <= 50


def test_iterative_deepening_always_returns_a_legal_move_within_a_tiny_budget() -> None:
    game = TicTacToe(rows=5, cols=5, k=4)
    result = IterativeDeepening(max_nodes=1).search(game)
    assert result.move in game.legal_moves()
    assert result.stats.depth >= 1
    timed = IterativeDeepening(seconds=0.05).search(game)
    assert timed.move in game.legal_moves()


def test_iterative_deepening_stops_once_the_answer_is_exact() -> None:
    result = IterativeDeepening().search(TicTacToe.from_text("XO./XO./..."))
    assert result.is_exact and result.best_moves == (6,)


def test_stats_count_nodes_leaves_cutoffs_and_time() -> None:
    stats = AlphaBeta(table=True).search(TicTacToe()).stats
    assert stats.nodes > stats.leaves > 0
    assert stats.cutoffs > 0 and stats.tt_hits > 0
    assert stats.depth == 9
    assert stats.seconds > 0 and stats.nodes_per_second > 0


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: AlphaBeta(depth=0), r"'depth' must be >= 1: 0"),
        (
            lambda: AlphaBeta(ordering="random"),
            r"option 'ordering' must be one of game, natural: 'random'",
        ),
        (
            lambda: AlphaBeta(scoring="fast"),
            r"option 'scoring' must be one of game, distance, plain, utility: 'fast'",
        ),
        (lambda: IterativeDeepening(seconds=-1), r"'seconds' must be >= 0.001: -1"),
    ],
)
def test_bad_searcher_options_are_refused_with_a_clear_message(make: Any, message: str) -> None:
    with pytest.raises((ValueError, InvalidOptionError), match=message):
        make()
