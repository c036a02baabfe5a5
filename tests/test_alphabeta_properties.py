"""hypothesis: alpha-beta with every switch combination equals minimax on 4x4 boards."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import best_moves, solve_all

from gamesearch import AlphaBeta, IterativeDeepening
from gamesearch.search.engine import Engine
from gamesearch.search.table import BOUNDS, SearchMemory
from gamesearch_games.tictactoe import TicTacToe

SWITCHES = [
    AlphaBeta(ordering=ordering, root_window=window, all_best=all_best, table=table)
    for ordering, window, all_best, table in itertools.product(
        ("game", "natural"), ("shared", "fresh"), (True, False), (False, True)
    )
]


@st.composite
def crowded_positions(draw: st.DrawFn, k: int) -> TicTacToe:
    """A 4x4 position reached by legal play with at least 7 marks (small enough to solve)."""
    game = TicTacToe(rows=4, cols=4, k=k)
    marks = draw(st.integers(min_value=7, max_value=15))
    while game.ply < marks and not game.is_over():
        moves = game.legal_moves()
        game.push(moves[draw(st.integers(min_value=0, max_value=len(moves) - 1))])
    return game


@pytest.mark.slow
@settings(max_examples=25)
@given(game=st.one_of(crowded_positions(k=3), crowded_positions(k=4)))
def test_every_alphabeta_switch_combination_equals_minimax(game: TicTacToe) -> None:
    # the test oracle: memoised minimax (the searcher Minimax searches the tree, 20 times
    # slower on these positions)
    values = solve_all(game)
    value, best = values[game.key()], [] if game.is_over() else sorted(best_moves(game, values))
    for searcher in SWITCHES:
        result = searcher.search(game)
        assert result.value == value, searcher
        if searcher.all_best or searcher.root_window == "fresh":
            assert sorted(result.best_moves) == best, searcher
        else:
            assert set(result.best_moves) <= set(best), searcher


def test_each_kind_of_search_keeps_its_own_typed_entries_in_a_memory() -> None:
    # alphabeta and iterative share the tables of bounds, (depth, lower, upper); the
    # engine's tables, (depth, lower, upper, best move), are its own
    game = TicTacToe.from_text("XO.......")
    memory = SearchMemory()
    AlphaBeta(table=True).search(game, memory=memory)
    IterativeDeepening().search(game, memory=memory)
    Engine(iterative=True, table=True).search(game, memory=memory)
    bounds = memory.table(BOUNDS, game, 1)
    assert bounds is memory.table("bounds", game, 1) and len(memory.tables) == 2
    assert all(
        len(entry) == 3 and all(isinstance(part, int) for part in entry)
        for entry in bounds.entries.values()
    )
    (engine_table,) = (table for table in memory.tables.values() if table is not bounds)
    assert all(len(entry) == 4 for entry in engine_table.entries.values())
    assert len(bounds) > 0 and len(engine_table) > 0
