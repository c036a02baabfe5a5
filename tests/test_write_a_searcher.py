"""A searcher of your own, as docs/write-a-searcher.md shows it: ``SearchContext.children``
plays, counts and scores a position's moves, and the page's alpha-beta (the file the
benchmark row runs) searches the built-in's tree with the built-in's values.

The values are checked against the memoised minimax of ``tests/oracle.py``, the counts
against the built-in ``alphabeta`` (natural order, a fresh window per root move), whose
module says it enters the reference twin's positions.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from oracle import best_moves, solve_all

from benchmarks.rows import USER_SEARCHER_FILE, user_searcher
from gamesearch import BudgetExceededError, Game, Scoring, capabilities, default_registry
from gamesearch.rules import proven_value
from gamesearch.search.base import Limit
from gamesearch.search.context import Counters, SearchContext
from gamesearch.testing import reachable_positions
from gamesearch_games.tictactoe import PlainTicTacToe

REGISTRY = default_registry()
PAGE = Path(__file__).resolve().parent.parent / "docs" / "write-a-searcher.md"
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)
#: the built-in set to search the tree of the page's alpha-beta
SAME_TREE = "alphabeta:ordering=natural,root_window=fresh"
USER_ALPHABETA = user_searcher()


def context_for(game: Game[Any], scoring: Scoring = Scoring.DISTANCE) -> SearchContext:
    """Return a fresh search context rooted at ``game``, without a budget."""
    return SearchContext(scoring, Counters(), root_ply=game.ply)


def test_the_page_lists_the_file_the_benchmark_row_runs() -> None:
    listings = PYTHON_BLOCK.findall(PAGE.read_text())
    source = USER_SEARCHER_FILE.read_text()
    assert any("context.children(game)" in listing for listing in listings)
    assert [listing for listing in listings if listing not in source] == []
    assert Path(USER_ALPHABETA.root.__code__.co_filename) == USER_SEARCHER_FILE


def tictactoe_sample(count: int, seed: int) -> list[Game[Any]]:
    """Return ``count`` unfinished tic-tac-toe positions drawn from every reachable one."""
    every = [p for p in reachable_positions(REGISTRY.new_game("tictactoe")) if not p.is_over()]
    return random.Random(seed).sample(every, count)


def check_against_oracle_and_builtin(game: Game[Any]) -> None:
    before = game.to_text(), game.history
    values = solve_all(game.copy())
    found = USER_ALPHABETA().search(game, move_values=True)
    assert (game.to_text(), game.history) == before
    assert found.value == values[game.key()]
    assert found.best_moves == best_moves(game.copy(), values)
    builtin = REGISTRY.new_searcher(SAME_TREE).search(game, move_values=True)
    assert found.move_values == builtin.move_values
    assert (found.stats.nodes, found.stats.leaves, found.stats.cutoffs, found.stats.depth) == (
        builtin.stats.nodes,
        builtin.stats.leaves,
        builtin.stats.cutoffs,
        builtin.stats.depth,
    )


@pytest.mark.parametrize("game", tictactoe_sample(40, seed=25), ids=lambda game: game.to_text())
def test_the_pages_alphabeta_finds_the_oracles_values_in_the_builtins_tree(game: Game[Any]) -> None:
    check_against_oracle_and_builtin(game)


@pytest.mark.slow
def test_the_pages_alphabeta_is_right_on_every_reachable_tictactoe_position() -> None:
    for game in reachable_positions(REGISTRY.new_game("tictactoe")):
        if not game.is_over():
            check_against_oracle_and_builtin(game)


def walk(game: Game[Any]) -> list[tuple[Any, int | None, str]]:
    """Return what ``children`` gives at ``game``: each move, its value, the position the
    loop's body is in."""
    context = context_for(game)
    return [(move, value, game.to_text()) for move, value in context.children(game)]


@pytest.mark.parametrize("text", ["XX./OO./...", "XOX/OXO/...", ".../.X./...", "XO./XO./..."])
def test_children_give_the_same_with_and_without_the_games_fast_moves(text: str) -> None:
    fast, plain = REGISTRY.new_game("tictactoe", text), PlainTicTacToe.from_text(text)
    assert not capabilities.defines(PlainTicTacToe, "move_results")
    found = walk(fast)
    assert found == walk(plain)
    assert fast.to_text() == plain.to_text() == REGISTRY.new_game("tictactoe", text).to_text()
    for move, value, position in found:
        child = REGISTRY.new_game("tictactoe", text)
        child.push(move)
        if child.is_over():  # scored unplayed, as the finished position is worth
            assert (value, position) == (proven_value(child, Scoring.DISTANCE), fast.to_text())
        else:  # played for the loop's body
            assert (value, position) == (None, child.to_text())


def test_children_count_every_move_entered_and_each_finished_one_as_a_leaf() -> None:
    game = REGISTRY.new_game("tictactoe", "XX./OO./...")  # X wins at 2; 5, 6, 7 and 8 go on
    context = context_for(game)
    entered = 0
    for move, _ in context.children(game):
        entered += 1
        if move == 5:
            break
    assert (context.counters.nodes, context.counters.leaves, context.counters.depth) == (2, 1, 1)
    assert entered == 2


class Stop(Exception):
    pass


@pytest.mark.parametrize("leave_at", range(5))
@pytest.mark.parametrize("how", ["break", "return", "raise"])
def test_leaving_the_loop_takes_the_move_back(leave_at: int, how: str) -> None:
    game = REGISTRY.new_game("tictactoe", "XX./OO./...")  # moves 2 (X wins), 5, 6, 7, 8
    before = game.to_text(), game.history
    context = context_for(game)

    def loop() -> None:
        for index, _ in enumerate(context.children(game)):
            if index == leave_at:
                if how == "raise":
                    raise Stop
                if how == "return":
                    return
                break

    if how == "raise":
        with pytest.raises(Stop):
            loop()
    else:
        loop()
    assert (game.to_text(), game.history) == before


def test_a_users_search_stops_exactly_at_its_node_budget() -> None:
    game = REGISTRY.new_game("tictactoe")
    searcher = USER_ALPHABETA()
    assert searcher.search(game, Limit(max_nodes=34_203)).stats.nodes == 34_203
    with pytest.raises(BudgetExceededError, match=r"node budget of 34,202 exhausted: 34,203 "):
        searcher.search(game, Limit(max_nodes=34_202))
    assert game.to_text() == REGISTRY.new_game("tictactoe").to_text()
    assert game.history == ()


@pytest.mark.parametrize(
    ("name", "scoring"),
    [
        ("tictactoe", Scoring.DISTANCE),
        ("tictactoe", Scoring.PLAIN),
        ("kalah", Scoring.DISTANCE),
        ("kalah", Scoring.PLAIN),
        ("connect4", Scoring.DISTANCE),
    ],
)
def test_finished_value_is_what_the_scale_works_out(name: str, scoring: Scoring) -> None:
    rng = random.Random(7)
    for _ in range(30):
        game = REGISTRY.new_game(name)
        while not game.is_over():
            game.push(rng.choice(list(game.legal_moves())))
        context = context_for(game, scoring)
        assert context.finished_value(game) == proven_value(game, scoring)
    assert context.counters.leaves == 1
    with pytest.raises(ValueError, match="not over"):
        context.finished_value(REGISTRY.new_game(name))


def test_children_refuse_to_score_a_game_with_utilities() -> None:
    game = REGISTRY.new_game("mnk3")
    rng = random.Random(3)
    while all(result is None for _, result in capabilities.move_results(game)()):
        game.push(rng.choice(list(game.legal_moves())))
    before = game.to_text(), game.history
    with pytest.raises(ValueError, match="utilities"):
        list(context_for(game).children(game))
    assert (game.to_text(), game.history) == before
