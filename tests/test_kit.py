"""The in-tree games and searchers, tested through the conformance kit (so the kit is proven on
them)."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gamesearch import AlphaBeta, Game, Scoring, Searcher, default_registry
from gamesearch.search.reference.minimax import ReferenceMinimax
from gamesearch.testing import (
    Reference,
    check_game,
    check_position,
    check_search,
    check_searcher,
    depth_option,
    random_positions,
    reachable_positions,
    with_depth,
)
from gamesearch.testing.snapshot import Snapshot
from gamesearch.testing.strategies import move_sequences, positions
from gamesearch_games.openspiel import is_bridged
from gamesearch_games.tictactoe import TicTacToe

#: every registered game but OpenSpiel's (tests/test_openspiel_games.py walks those, on
#: smaller walks: each of their positions costs milliseconds)
GAMES = sorted(name for name in default_registry().games if not is_bridged(name))
SEARCHERS = sorted(default_registry().searchers)
#: searchers with a depth option are checked for exact agreement, the others (Monte Carlo)
#: for legal answers and for agreement wherever they say their answer is exact
EXACT = [name for name in SEARCHERS if depth_option(default_registry().searcher_class(name))]
APPROXIMATE = [name for name in SEARCHERS if name not in EXACT]
#: depth of the searches compared on random positions of every game (keeps the suite fast)
SAMPLE_DEPTH = 3
SAMPLE_SIZE = 25


@pytest.fixture(scope="module")
def tictactoe_positions() -> list[TicTacToe]:
    return reachable_positions(TicTacToe())  # type: ignore[return-value]


@pytest.fixture(scope="module")
def tictactoe_reference() -> Reference:
    return Reference()


def accepts(searcher_name: str, game_name: str) -> bool:
    """Return whether the searcher takes the game (the refusals are checked in
    tests/test_chance.py and tests/test_multiplayer.py)."""
    registry = default_registry()
    return not registry.searcher_class(searcher_name)().unmet_needs(registry.new_game(game_name))


#: the searchers that take tic-tac-toe, and every (game, searcher) pair where the searcher
#: takes the game (minimax, the reference, cannot search a game with utilities)
EXACT_FOR_TICTACTOE = [name for name in EXACT if accepts(name, "tictactoe")]
APPROXIMATE_FOR_TICTACTOE = [name for name in APPROXIMATE if accepts(name, "tictactoe")]
EXACT_PAIRS = [
    (game, name)
    for game in GAMES
    for name in EXACT
    if accepts(name, game) and not default_registry().new_game(game).rules.utilities
]
APPROXIMATE_PAIRS = [(game, name) for game in GAMES for name in APPROXIMATE if accepts(name, game)]


def searcher_without_depth(name: str) -> Searcher:
    return with_depth(default_registry().searcher_class(name), None)


@pytest.mark.slow
def test_the_kit_walks_all_5478_tictactoe_positions_and_finds_958_finished() -> None:
    report = check_game(TicTacToe)
    assert (report.positions, report.terminal, report.is_exhaustive) == (5_478, 958, True)
    assert report.longest == 9


#: (positions, playouts, seed) of the walk of a registered game: 300 positions depth first
#: and 10 random games show that it keeps the protocol, and each in-tree game's own tests
#: walk it further (tests/test_<game>.py, the plugins' own tests, tic-tac-toe's every
#: position above)
WALK = (300, 10, 0)
#: ... but Connect Four, which no other test walks, and the games whose positions cost
#: milliseconds each to check (chess: a FEN and dozens of moves apiece). Chess's seed 1
#: plays a random game of 131 plies that ends in a mate (seed 0's lasts 633 plies to a
#: draw, four fifths of the test's time; the plugin's tests walk such games).
OTHER_WALKS = {"connect4": (1500, 10, 0), "chess": (100, 1, 1)}


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_every_registered_game_keeps_the_protocol(name: str) -> None:
    """Walk each registered game as ``WALK`` says (or ``OTHER_WALKS``)."""
    positions, playouts, seed = OTHER_WALKS.get(name, WALK)
    report = check_game(name, max_positions=positions, playouts=playouts, seed=seed)
    assert report.positions > 0
    assert report.terminal > 0  # the playouts reach finished games


#: the searchers the walk of every tic-tac-toe position checks on one position in this
#: many (219 of 5,478), each from its own place in the list: minimax and its textbook
#: version, whose family tests/test_searchers_agree.py checks on every position against
#: an oracle of its own (minimax itself, with the distance, plain and utility scorings),
#: and proof-number search, whose family df-pn stands for here on every position (and
#: tests/test_proof.py checks both on every position against its oracle)
SAMPLED_ON_TICTACTOE = {"minimax": 25, "textbook-minimax": 25, "pns": 25}


@pytest.mark.slow
@pytest.mark.parametrize("name", EXACT_FOR_TICTACTOE)
def test_every_registered_exact_searcher_agrees_with_minimax_on_every_tictactoe_position(
    name: str, tictactoe_positions: list[TicTacToe], tictactoe_reference: Reference
) -> None:
    """Every exact searcher on every position (but those of ``SAMPLED_ON_TICTACTOE``)."""
    searcher = searcher_without_depth(name)
    step = SAMPLED_ON_TICTACTOE.get(name, 1)
    sample = tictactoe_positions[EXACT_FOR_TICTACTOE.index(name) % step :: step]
    report = check_searcher(searcher, sample, reference=tictactoe_reference, move_values=False)
    assert report.positions == len(sample)


@pytest.mark.parametrize("name", APPROXIMATE_FOR_TICTACTOE)
def test_every_approximate_searcher_answers_legally_and_proves_only_minimax_values_on_tictactoe(
    name: str, tictactoe_positions: list[TicTacToe], tictactoe_reference: Reference
) -> None:
    searcher = default_registry().searcher_class(name)()
    sample = tictactoe_positions[::100]
    report = check_searcher(searcher, sample, reference=tictactoe_reference, exact=False)
    assert report.positions == len(sample)


@pytest.mark.parametrize("name", EXACT_FOR_TICTACTOE)
def test_every_exact_searcher_gives_minimax_move_values_on_sampled_tictactoe_positions(
    name: str, tictactoe_positions: list[TicTacToe], tictactoe_reference: Reference
) -> None:
    sample = tictactoe_positions[1::90]
    check_searcher(searcher_without_depth(name), sample, reference=tictactoe_reference)


@functools.cache
def sampled_positions(game_name: str) -> tuple[Game[Any], ...]:
    """Return the seeded random positions of ``game_name`` every exact searcher is checked on
    (drawn once per process: a random chess game of hundreds of plies costs a second)."""
    return tuple(random_positions(game_name, count=SAMPLE_SIZE, seed=11))


@functools.cache
def depth_limited_reference(game_name: str) -> Reference:
    """Return the reference minimax to ``SAMPLE_DEPTH`` for ``game_name``'s positions, one per
    game and process, so that it searches each position once for all the exact searchers."""
    return Reference(depth=SAMPLE_DEPTH)


@pytest.mark.slow
@pytest.mark.parametrize(("game_name", "searcher_name"), EXACT_PAIRS)
def test_every_exact_searcher_agrees_with_depth_limited_minimax_on_random_positions_of_every_game(
    game_name: str, searcher_name: str
) -> None:
    searcher = with_depth(default_registry().searcher_class(searcher_name), SAMPLE_DEPTH)
    sample = [position.copy() for position in sampled_positions(game_name)]
    report = check_searcher(searcher, sample, reference=depth_limited_reference(game_name))
    assert report.positions == SAMPLE_SIZE


#: the simulations of an approximate searcher on random positions of every game: its
#: answers are checked for legality alone (no reference here), which does not depend on
#: the budget (Monte Carlo's default is 1,000 a search)
APPROXIMATE_SIMULATIONS = 200


@pytest.mark.slow
@pytest.mark.parametrize(("game_name", "searcher_name"), APPROXIMATE_PAIRS)
def test_every_approximate_searcher_answers_legally_on_random_positions_of_every_game(
    game_name: str, searcher_name: str
) -> None:
    searcher_class = default_registry().searcher_class(searcher_name)
    searcher = searcher_class(simulations=APPROXIMATE_SIMULATIONS)
    sample = random_positions(game_name, count=5, seed=11)
    report = check_searcher(searcher, sample, exact=False)
    assert report.positions == 5


@pytest.mark.slow
def test_textbook_alphabeta_reports_one_of_the_best_moves_and_the_kit_accepts_it(
    tictactoe_positions: list[TicTacToe],
) -> None:
    searcher = AlphaBeta(scoring=Scoring.PLAIN, ordering="natural", all_best=False)
    reference = Reference(scoring=Scoring.PLAIN)
    report = check_searcher(
        searcher,
        tictactoe_positions[::10],
        reference=reference,
        exact_best_moves=False,
        move_values=False,
    )
    assert report.nodes < report.reference_nodes


def test_a_searcher_is_checked_against_minimax_with_its_own_scoring_and_depth() -> None:
    plain = Reference.like(AlphaBeta(scoring=Scoring.PLAIN, depth=2))
    assert plain.minimax == ReferenceMinimax(scoring=Scoring.PLAIN, depth=2)


@settings(max_examples=40)
@given(name=st.sampled_from(GAMES), data=st.data())
def test_random_positions_of_every_registered_game_keep_the_protocol(name: str, data: Any) -> None:
    game = data.draw(positions(name))
    check_position(game)


@settings(max_examples=40)
@given(moves=move_sequences("tictactoe"))
def test_a_move_sequence_replays_to_the_position_it_describes(moves: tuple[int, ...]) -> None:
    game = TicTacToe()
    for move in moves:
        game.apply(move)
    assert game.history == moves
    for _ in moves:
        game.undo()
    assert Snapshot.of(game) == Snapshot.of(TicTacToe())


@settings(max_examples=30)
@given(game=positions(TicTacToe, options={"rows": 4, "cols": 4}, min_plies=9))
def test_alphabeta_agrees_with_minimax_on_hypothesis_positions_of_4x4_tictactoe(
    game: TicTacToe,
) -> None:
    check_search(AlphaBeta(table=True), game)


#: the fewest plies a small Connect Four position is searched after: play stops before a
#: move that would end the game, as early as ply 6 (14 empty cells), where the reference
#: minimax walks a far larger tree (the test took 30 s in one run); from ply 12 on, at
#: most 8 of the 20 cells are empty
LATE_CONNECT_FOUR = 12


@pytest.mark.slow
@settings(max_examples=15)
@given(
    game=positions(
        "connect4", options={"width": 5, "height": 4}, min_plies=LATE_CONNECT_FOUR, unfinished=True
    )
)
def test_alphabeta_agrees_with_minimax_on_hypothesis_positions_of_small_connect_four(
    game: Game[Any],
) -> None:
    assume(game.ply >= LATE_CONNECT_FOUR)
    assert not game.is_over()
    check_search(AlphaBeta(table=True), game, move_values=False)
