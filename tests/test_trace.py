"""The tree tracer records what the searchers did, node for node."""

from __future__ import annotations

import pytest

from gamesearch import AlphaBeta, BudgetExceededError, IterativeDeepening, Minimax, Scoring
from gamesearch.search.base import Searcher
from gamesearch.trace import TraceNode, TreeTracer
from gamesearch_games.connect4 import ConnectFour
from gamesearch_games.tictactoe import TicTacToe

#: seed 004's example: three empty squares, a full tree of 14 nodes, alpha-beta visits 10
SEED_004_POSITION = "XOX/O.O/.X."

SEARCHERS = [
    Minimax(),
    Minimax(depth=2),
    AlphaBeta(),
    AlphaBeta(scoring=Scoring.PLAIN, ordering="natural", all_best=False),
    AlphaBeta(table=True),
    AlphaBeta(depth=2),
    IterativeDeepening(),
]
POSITIONS = ["", "X...O....", "XO..X....", SEED_004_POSITION, "XOX.O.X..", "XO.XO...."]


def full_tree_size(game: TicTacToe) -> int:
    size = 1
    for move in game.legal_moves():
        game.push(move)
        size += full_tree_size(game)
        game.undo()
    return size


def load(text: str) -> TicTacToe:
    return TicTacToe.from_text(text) if text else TicTacToe()


@pytest.mark.parametrize("searcher", SEARCHERS, ids=repr)
@pytest.mark.parametrize("text", POSITIONS[1:])
def test_the_recorded_tree_has_exactly_the_nodes_the_searcher_counts(
    searcher: Searcher, text: str
) -> None:
    game = load(text)
    tracer = TreeTracer(game)
    result = searcher.search(game, tracer=tracer)
    recorded = sum(len(root.walk()) for root in tracer.roots)
    assert tracer.nodes == recorded == result.stats.nodes
    assert tracer.roots[-1].value == result.value
    assert game.to_text() == load(text).to_text()


@pytest.mark.parametrize("searcher", SEARCHERS[:4], ids=repr)
def test_tracing_changes_neither_the_result_nor_the_statistics(searcher: Searcher) -> None:
    game = TicTacToe.from_text("X...O....")
    plain = searcher.search(game)
    traced = searcher.search(game, tracer=TreeTracer(game))
    assert (traced.value, traced.best_moves) == (plain.value, plain.best_moves)
    assert traced.stats.nodes == plain.stats.nodes
    assert traced.stats.cutoffs == plain.stats.cutoffs


def test_seed_004_position_has_14_nodes_and_alphabeta_visits_10_pruning_4() -> None:
    game = TicTacToe.from_text(SEED_004_POSITION)
    full, pruned = TreeTracer(game), TreeTracer(game)
    Minimax().search(game, tracer=full)
    AlphaBeta().search(game, tracer=pruned)
    assert full.nodes == full_tree_size(game) == 14
    assert pruned.nodes == 10
    cut = [node for node in pruned.roots[0].walk() if node.pruned]
    assert cut, "alpha-beta must mark the moves it cut off"


def subtree_size_after(node: TraceNode, move: int) -> int:
    position = TicTacToe.from_text(node.position or "")
    position.push(move)
    return full_tree_size(position)


@pytest.mark.parametrize("text", POSITIONS[1:])
def test_visited_nodes_plus_pruned_subtrees_make_the_full_tree(text: str) -> None:
    game = load(text)
    tracer = TreeTracer(game)
    AlphaBeta(ordering="natural").search(game, tracer=tracer)
    skipped = sum(
        subtree_size_after(node, move) for node in tracer.roots[0].walk() for move in node.pruned
    )
    assert tracer.nodes + skipped == full_tree_size(game)


@pytest.mark.parametrize("text", POSITIONS[1:])
def test_each_alphabeta_node_value_is_exact_or_the_bound_it_claims(text: str) -> None:
    game = load(text)
    tracer = TreeTracer(game)
    AlphaBeta().search(game, tracer=tracer)
    reference = Minimax()
    kinds = set()
    for node in tracer.roots[0].walk():
        truth = reference.search(TicTacToe.from_text(node.position or "")).value
        kinds.add(node.bound)
        if node.bound == "exact":
            assert node.value == truth
        elif node.bound == "upper":
            assert node.value is not None and truth <= node.value
        else:
            assert node.bound == "lower" and node.value is not None and truth >= node.value
    assert "exact" in kinds


def test_nodes_record_the_side_to_move_and_the_window_on_entry() -> None:
    game = TicTacToe.from_text(SEED_004_POSITION)
    tracer = TreeTracer(game)
    AlphaBeta().search(game, tracer=tracer)
    root = tracer.roots[0]
    assert root.move is None and root.to_move is not None and root.to_move.name == "FIRST"
    assert all(
        child.to_move is not None and child.to_move.name == "SECOND" for child in root.children
    )
    assert any(node.alpha > -(1 << 60) or node.beta < (1 << 60) for node in root.walk()[1:])
    data = root.as_dict()
    assert data["move"] is None and data["alpha"] is None and data["beta"] is None
    assert [child["move"] for child in data["children"]] == [
        str(child.move) for child in root.children
    ]


def test_max_nodes_keeps_counting_past_what_it_records() -> None:
    game = TicTacToe.from_text("X........")
    tracer = TreeTracer(game, max_nodes=25)
    result = AlphaBeta().search(game, tracer=tracer)
    assert tracer.recorded == len(tracer.roots[0].walk()) == 25
    assert tracer.nodes == result.stats.nodes > 25
    assert tracer.is_truncated


def test_iterative_deepening_records_one_root_per_iteration() -> None:
    game = TicTacToe.from_text("XO.......")
    tracer = TreeTracer(game)
    result = IterativeDeepening(table=False).search(game, tracer=tracer)
    assert len(tracer.roots) == result.stats.depth


def test_a_tracer_that_stops_after_some_positions_leaves_the_position_unchanged() -> None:
    game = TicTacToe()
    with pytest.raises(BudgetExceededError, match="the search entered more than 1,000 positions"):
        Minimax().search(game, tracer=TreeTracer(max_nodes=0, stop_after=1000))
    assert game.to_text() == ".../.../..." and game.history == ()


def test_a_tracer_that_stops_after_some_positions_lets_a_small_search_finish() -> None:
    game = TicTacToe.from_text(SEED_004_POSITION)
    counter = TreeTracer(max_nodes=0, stop_after=14)
    assert Minimax().search(game, tracer=counter).stats.nodes == counter.nodes == 14


@pytest.mark.parametrize(
    "searcher", [Minimax(depth=2), AlphaBeta(depth=3), IterativeDeepening(depth=3)], ids=repr
)
def test_each_traced_position_is_its_parent_with_the_move_played_also_in_connect_four(
    searcher: Searcher,
) -> None:
    # Connect Four writes a position as its move sequence: a traced search must keep
    # the history whole for the recorded text to be right.
    game = ConnectFour.from_text("4453")
    tracer = TreeTracer(game)
    searcher.search(game, tracer=tracer)
    checked = 0
    for root in tracer.roots:
        for node in root.walk():
            for child in node.children:
                expected = ConnectFour.from_text(node.position or "")
                expected.apply(child.move)
                assert child.position == expected.to_text()
                checked += 1
    assert checked > 50
