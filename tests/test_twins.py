"""Every searcher the framework registers agrees with its readable twin, the reference.

The twins live in :mod:`gamesearch.search.reference`; ``TWINS`` names the twin of each
registered searcher. A pair must give the same value and, wherever the fast searcher
says its set is complete (``best_moves_complete``), the same set of best moves (else
some of them); the same value for each root move where it says those are exact; and
the same node count where the fast module says it enters the twin's positions.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import best_moves, solve_all

from gamesearch import Game, Searcher, SearchResult, default_registry
from gamesearch.search import reference
from gamesearch.search.reference import PROOF_TWINS, TWINS, twin
from gamesearch.search.table import table_identity
from gamesearch.testing import reachable_positions
from gamesearch.testing.strategies import positions
from gamesearch_games.openspiel import is_bridged

REGISTRY = default_registry()
#: the searchers twinned with a searcher (the proof-number searchers' twins are proof
#: functions, paired in tests/test_proof_reference.py)
SEARCHERS = sorted(set(REGISTRY.searchers) - set(PROOF_TWINS))
#: searchers whose answers are estimates (compared with their twin where they claim a proof)
SAMPLING = {"mcts"}
EXACT = [name for name in SEARCHERS if name not in SAMPLING]
#: (fast searcher and its options, twin options): pairs whose modules say they enter the
#: very same positions
SAME_TREE = [
    ("minimax", {}),
    ("textbook-minimax", {}),
    ("textbook-alphabeta", {}),
    ("alphabeta", {"ordering": "natural", "root_window": "fresh"}),
]
#: the horizon each in-tree game is searched to in the random-position checks
DEPTHS = {"tree": None, "tictactoe": None, "pig": 2, "mnk3": 2, "chess": 1}


def applicable(name: str, game: Game[Any]) -> bool:
    """Return whether the searcher ``name`` and its twin can both search ``game``."""
    return not REGISTRY.searchers[name]().unmet_needs(game) and not twin(name)().unmet_needs(game)


#: the twins' answers, by twin, depth, game, its settings, position and move_values
ANSWERS: dict[tuple[Any, ...], SearchResult] = {}


def twin_answer(name: str, game: Game[Any], depth: int | None, move_values: bool) -> SearchResult:
    """Return the twin of ``name``'s result for ``game`` (searched once, then kept)."""
    identity = (twin(name), depth, game.name, table_identity(game), game.key(), move_values)
    if identity not in ANSWERS:
        ANSWERS[identity] = twin(name)(depth=depth).search(game, move_values=move_values)
    return ANSWERS[identity]


def compare(name: str, game: Game[Any], depth: int | None, **options: Any) -> None:
    """Assert that the searcher ``name`` agrees with its twin on ``game`` (see the module)."""
    fast = REGISTRY.searchers[name](depth=depth, **options)
    found, expected = fast.search(game), twin_answer(name, game, depth, False)
    where = f"{name} on {game.name} {game.to_text()!r}"
    assert found.value == expected.value, where
    if found.best_moves_complete:
        assert set(found.best_moves) == set(expected.best_moves), where
    else:
        assert found.best_moves and set(found.best_moves) <= set(expected.best_moves), where
    valued = fast.search(game, move_values=True)
    if valued.move_values_exact:
        wanted = twin_answer(name, game, depth, True).move_values
        assert dict(valued.move_values or ()) == dict(wanted or ()), where


def test_every_registered_searcher_has_a_reference_twin() -> None:
    missing = sorted(set(REGISTRY.searchers) - set(TWINS) - set(PROOF_TWINS))
    assert not missing, f"searchers without a reference twin: {missing}"
    # and no twin of a searcher that is not registered
    assert sorted({*TWINS, *PROOF_TWINS}) == sorted(REGISTRY.searchers)
    for name in SEARCHERS:
        assert issubclass(twin(name), Searcher)
        assert twin(name).__module__ == TWINS[name].__name__


def test_an_unknown_searcher_has_no_twin() -> None:
    with pytest.raises(KeyError, match="no reference twin for searcher 'nosuch'"):
        twin("nosuch")


def test_the_reference_is_at_least_eleven_short_modules_each_citing_its_source() -> None:
    folder = Path(reference.__file__).parent
    ideas = {module.__name__ for module in TWINS.values()}
    assert len(ideas) >= 11
    for path in folder.glob("*.py"):
        assert len(path.read_text().splitlines()) <= 80, path.name
    for module_name in ideas:
        docstring = importlib.import_module(module_name).__doc__ or ""
        assert re.search(r"\b(19|20)\d\d\b", docstring), f"{module_name} cites no source"


@pytest.mark.parametrize("name", sorted(REGISTRY.searchers))
def test_every_fast_module_opens_by_naming_its_twin(name: str) -> None:
    module = inspect.getmodule(REGISTRY.searchers[name])
    assert module is not None
    tree = ast.parse(inspect.getsource(module))
    opening = "\n".join((ast.get_docstring(tree) or "").split("\n\n")[:3])
    idea = {**TWINS, **PROOF_TWINS}[name].__name__.rsplit(".", 1)[1]
    assert re.search(rf"reference\.{idea}\b", opening), f"{module.__name__} does not name {idea}"


# ------------------------------------------------------------- a small tree, whole
LATE_TICTACTOE = [
    position
    for position in reachable_positions(REGISTRY.new_game("tictactoe"))
    if position.ply >= 6 and not position.is_over()
]


#: the searchers that search tic-tac-toe
TICTACTOE = [name for name in EXACT if applicable(name, LATE_TICTACTOE[0])]


@pytest.mark.parametrize("name", TICTACTOE)
def test_each_two_player_searcher_agrees_with_its_twin_late_in_tictactoe(name: str) -> None:
    for position in LATE_TICTACTOE[::25]:
        compare(name, position, None)


@pytest.mark.parametrize(("name", "options"), SAME_TREE, ids=[name for name, _ in SAME_TREE])
def test_a_searcher_that_claims_its_twins_tree_enters_as_many_positions(
    name: str, options: dict[str, Any]
) -> None:
    for position in LATE_TICTACTOE[::20]:
        fast = REGISTRY.searchers[name](**options).search(position)
        assert fast.stats.nodes == twin(name)().search(position).stats.nodes, position.to_text()


def test_expectiminimax_enters_as_many_positions_as_its_twin() -> None:
    game = REGISTRY.new_game("pig")
    for depth in (1, 2, 3):
        fast = REGISTRY.searchers["expectiminimax"](depth=depth).search(game)
        assert fast.stats.nodes == twin("expectiminimax")(depth=depth).search(game).stats.nodes


# ------------------------------------------------------------- random positions
PAIRS = [
    (game_name, name)
    for game_name in sorted(REGISTRY.games)
    if not is_bridged(game_name)  # (tests/test_openspiel_games.py searches OpenSpiel's)
    for name in EXACT
    if applicable(name, REGISTRY.new_game(game_name))
]


def game_depth(game_name: str) -> int | None:
    """Return the horizon a game's random positions are searched to (``None``: the end)."""
    return DEPTHS.get(game_name, 2)


@pytest.mark.parametrize(("game_name", "name"), PAIRS, ids=[f"{g}-{n}" for g, n in PAIRS])
@settings(max_examples=4)
@given(data=st.data())
def test_each_searcher_agrees_with_its_twin_on_random_positions(
    game_name: str, name: str, data: Any
) -> None:
    late = {"tictactoe": 4, "tree": 0}.get(game_name, 0)
    game = data.draw(positions(game_name, min_plies=late, max_plies=12, unfinished=True))
    if not game.is_over():
        compare(name, game, game_depth(game_name))


@pytest.mark.slow
@pytest.mark.parametrize(("game_name", "name"), PAIRS, ids=[f"{g}-{n}" for g, n in PAIRS])
@settings(max_examples=25)
@given(data=st.data())
def test_each_searcher_agrees_with_its_twin_on_many_random_positions(
    game_name: str, name: str, data: Any
) -> None:
    game = data.draw(positions(game_name, max_plies=30, unfinished=True))
    if not game.is_over():
        depth = game_depth(game_name)
        compare(name, game, None if game.ply >= 4 and depth is None else (depth or 3))


#: the walk of the unfinished tic-tac-toe positions checks one in this many, in depth-first
#: order and the start first (1,130 of 4,520): tests/test_kit.py checks every searcher's
#: value and best moves against the reference minimax on every one of them (minimax
#: itself on one in 25), so this walk adds the twin's move values and complete best-move
#: sets on a quarter of them. (The searchers that keep no memory go down to the end of
#: the game from each position: their whole walk enters 2.1 million positions four times
#: over, with and without move values, the searcher and its twin.)
TICTACTOE_STEP = 4


@pytest.mark.slow
@pytest.mark.parametrize("name", TICTACTOE)
def test_each_two_player_searcher_agrees_with_its_twin_on_a_quarter_of_tictactoe(
    name: str,
) -> None:
    every = [p for p in reachable_positions(REGISTRY.new_game("tictactoe")) if not p.is_over()]
    assert len(every) == 5_478 - 958
    for position in every[::TICTACTOE_STEP]:
        compare(name, position, None)


# ------------------------------------------------------------- sampling
WIN_NOW = ["XX./OO./...", "X.X/OO./...", "OXO/XX./O.."]


@pytest.mark.parametrize("text", WIN_NOW)
def test_mcts_and_its_twin_take_a_winning_move_where_there_is_one(text: str) -> None:
    game = REGISTRY.new_game("tictactoe", text)
    best = set(best_moves(game, solve_all(game)))
    found = REGISTRY.searchers["mcts"](seed=3, simulations=400).search(game)
    expected = twin("mcts")(seed=3, simulations=400).search(game)
    assert found.move in best and expected.move in best
    if found.best_moves_complete:  # proven and settled: minimax's whole set
        assert set(found.best_moves) == best
    assert not expected.best_moves_complete and not expected.is_exact
