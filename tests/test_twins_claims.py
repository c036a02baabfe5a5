"""A result says what it knows: whether its best-move set is complete, and whether its
move values are exact, checked against an independent oracle.

A root window shared by the root moves (``textbook-alphabeta:root_window=shared``)
leaves the moves after the best with bounds only, and pruning on equality then cuts
off a move that ties the best before it shows its value: the set misses tied best
moves, and the result must say so. The oracle is a memoised minimax over the graph of
positions, written here apart from every searcher.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from gamesearch import Game, Scoring, default_registry
from gamesearch.rules import proven_value
from gamesearch.testing import reachable_positions

REGISTRY = default_registry()
#: small games whose every position the oracle solves at once
SMALL = [
    pytest.param("kalah", {"pits": 2, "seeds": 3}, id="kalah-2-3"),
    pytest.param("kalah", {"pits": 3, "seeds": 2}, id="kalah-3-2", marks=pytest.mark.slow),
]


def solve(game: Game[Any], values: dict[Any, int]) -> int:
    """Return the exact value of ``game`` (first player's view, distance scoring),
    filling ``values`` by position key (the key includes the ply where values need it)."""
    key = game.key()
    if key not in values:
        if game.result() is not None:
            values[key] = proven_value(game, Scoring.DISTANCE)
        else:
            children = []
            for move in game.legal_moves():
                game.push(move)
                children.append(solve(game, values))
                game.undo()
            values[key] = max(children) if game.to_move() == 0 else min(children)
    return values[key]


def oracle_best_moves(game: Game[Any], values: dict[Any, int]) -> set[Any]:
    """Return every move of ``game`` that keeps its exact value."""
    best = solve(game, values)
    found = set()
    for move in game.legal_moves():
        game.push(move)
        if solve(game, values) == best:
            found.add(move)
        game.undo()
    return found


def unfinished_positions(name: str, options: dict[str, Any]) -> list[Game[Any]]:
    """Return (a copy of) every unfinished position reachable in the game ``name`` with
    ``options``, walked once per process for all the searchers."""
    return [position.copy() for position in _unfinished(name, tuple(sorted(options.items())))]


@functools.cache
def _unfinished(name: str, options: tuple[tuple[str, Any], ...]) -> tuple[Game[Any], ...]:
    start = REGISTRY.new_game(name, **dict(options))
    return tuple(position for position in reachable_positions(start) if not position.is_over())


@functools.cache
def oracle_values(name: str, options: tuple[tuple[str, Any], ...]) -> dict[Any, int]:
    """Return the oracle's memory of exact values for the game ``name`` with ``options``,
    one per process: each searcher's test fills in what the ones before it have not."""
    return {}


@pytest.mark.parametrize(("name", "options"), SMALL)
def test_a_shared_root_window_says_when_its_best_moves_may_miss_a_tie(
    name: str, options: dict[str, Any]
) -> None:
    searcher = REGISTRY.new_searcher("textbook-alphabeta:root_window=shared")
    values = oracle_values(name, tuple(sorted(options.items())))
    missed = 0
    for position in unfinished_positions(name, options):
        result = searcher.search(position)
        best = oracle_best_moves(position, values)
        assert result.value == solve(position, values)
        assert result.move in best and set(result.best_moves) <= best
        assert not result.move_values_exact  # the moves after the best got bounds
        if set(result.best_moves) != best:
            missed += 1
            assert not result.best_moves_complete, position.to_text()
    assert missed > 0  # the case the claim is for does come up


@pytest.mark.parametrize(("name", "options"), SMALL)
@pytest.mark.parametrize(
    "spec",
    [
        "textbook-alphabeta",
        "textbook-alphabeta:root_window=shared,prune_on_equality=false",
        "alphabeta",
        "alphabeta:all_best=false",
        "pvs:all_best=false",
        "engine",
    ],
)
def test_a_result_that_claims_its_best_moves_complete_has_them_all(
    spec: str, name: str, options: dict[str, Any]
) -> None:
    searcher = REGISTRY.new_searcher(spec)
    values = oracle_values(name, tuple(sorted(options.items())))
    claimed = 0
    for position in unfinished_positions(name, options):
        result = searcher.search(position)
        best = oracle_best_moves(position, values)
        assert result.value == solve(position, values)
        assert result.move in best and set(result.best_moves) <= best
        if result.best_moves_complete:
            claimed += 1
            assert set(result.best_moves) == best, position.to_text()
        valued = searcher.search(position, move_values=True)
        assert valued.move_values_exact  # asked for, every root move gets its exact value
        for move, value in valued.move_values or ():
            position.push(move)
            assert value == solve(position, values)
            position.undo()
    if spec.endswith("all_best=false"):
        assert claimed == 0
    else:
        assert claimed > 0


def test_a_result_in_json_says_what_it_knows() -> None:
    game = REGISTRY.new_game("kalah", pits=2, seeds=3)
    found = REGISTRY.new_searcher("textbook-alphabeta:root_window=shared").search(game)
    data = found.as_dict(game)
    assert data["best_moves_complete"] is found.best_moves_complete
    assert data["move_values_exact"] is False
