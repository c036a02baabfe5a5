"""Repetition draws in the exact searchers beside alpha-beta (pvs, mtdf, solver, pns, dfpn)
and in MCTS: the line rule on the houses of ``tests/test_repetition.py``, whose every
position is searched to the end by the oracle there, and the tables' guard.
"""

from __future__ import annotations

from typing import Any

import pytest

from gamesearch import default_registry
from gamesearch.search import negamax, proof
from gamesearch.search.reference.negamax import ReferencePVS
from gamesearch.search.repetition import LineWatch
from gamesearch.search.table import SearchMemory
from tests.test_repetition import ROOMS, CrossedHouse, House, positions_by_key, rule_value

REGISTRY = default_registry()

#: the exact searchers that keep no history of their own: each applies the line rule
EXACT_SEARCHERS = ["pvs", "pvs:all_best=false", "mtdf", "solver", "pns", "dfpn", "reference-pvs"]
#: the searchers whose tables are kept across searches (the exact table of the memory)
KEPT_TABLES = ["pvs", "mtdf", "solver"]
STARTS = [room for room in ROOMS if House.doors[room]]


def searcher(spec: str) -> Any:
    """Return the searcher of ``spec``, the reference twin included (it is not registered)."""
    return ReferencePVS() if spec == "reference-pvs" else REGISTRY.new_searcher(spec)


@pytest.mark.slow
@pytest.mark.parametrize("spec", EXACT_SEARCHERS)
@pytest.mark.parametrize("house", [House, CrossedHouse])
@pytest.mark.parametrize("start", STARTS)
def test_the_exact_searchers_give_the_value_of_the_games_own_rule_from_every_room(
    spec: str, house: type[House], start: str
) -> None:
    game = house(start)
    expected = rule_value(game.copy())
    result = searcher(spec).search(game, move_values=spec == "solver")
    assert (result.value, result.is_exact) == (expected, True)
    assert game.room == start and not game.history  # the game is left as it was
    twin = ReferencePVS().search(game)
    if result.best_moves_complete:
        assert set(result.best_moves) == set(twin.best_moves)
    else:
        assert set(result.best_moves) <= set(twin.best_moves)


@pytest.mark.parametrize("house", [House, CrossedHouse])
def test_mcts_proves_the_value_of_the_games_own_rule_from_every_room(house: type[House]) -> None:
    # a simulation that repeats a room ends in a draw: the tree is finite and proven
    mcts = REGISTRY.new_searcher("mcts:simulations=20000,seed=3")
    for start in STARTS:
        game = house(start)
        result = mcts.search(game)
        assert (result.value, result.is_exact) == (rule_value(game.copy()), True), start
        assert set(result.best_moves) <= set(ReferencePVS().search(game).best_moves)


def kept_table_values(spec: str) -> list[tuple[int, int]]:
    """Return, for each pair of crossed-house positions that share a key, the value of the
    second searched with the table of the first, and its value from a fresh search."""
    found = []
    table_searcher = searcher(spec)
    for games in positions_by_key(7):
        for one in games:
            for other in games:
                if other is not one:
                    memory = SearchMemory()
                    table_searcher.search(one, memory=memory)
                    kept = table_searcher.search(other, memory=memory).value
                    found.append((kept, table_searcher.search(other).value))
    return found


@pytest.mark.slow
@pytest.mark.parametrize("spec", KEPT_TABLES)
def test_a_kept_exact_table_lets_no_value_of_one_path_into_another(spec: str) -> None:
    values = kept_table_values(spec)
    assert len(values) == 170
    assert all(kept == fresh for kept, fresh in values)


class SharingWatch(LineWatch):
    """A line watch that lets every search share its table, whatever the history before
    its root: the guard's second half off."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.shares_values = True


def sharing_watch(game: Any, advance: Any, retract: Any) -> LineWatch:
    """Return a :class:`SharingWatch` of ``game``'s line (the houses declare repetition)."""
    return SharingWatch(game, game.repetition_key, advance, retract)


@pytest.mark.slow
def test_without_the_guard_the_exact_table_hands_values_of_one_history_to_another(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the test above can fail: a table shared by a search whose history has a room twice
    # (one more visit draws) hands its values to searches where that room is open
    monkeypatch.setattr(negamax, "watch_line", sharing_watch)
    values = kept_table_values("pvs")
    assert sum(kept != fresh for kept, fresh in values) > 0


class LoopHouse(House):
    """The house whose key forgets the ply, as chess's forgets the move counters: the
    keys of a line form cycles, and only the history tells the repetitions apart."""

    name = "loop-house"

    def key(self) -> Any:
        return self.repetition_key()


class CrossedLoopHouse(CrossedHouse):
    """The crossed house whose key forgets the ply (see :class:`LoopHouse`)."""

    name = "crossed-loop-house"

    def key(self) -> Any:
        return self.repetition_key()


LOOPS = [LoopHouse, CrossedLoopHouse]


@pytest.mark.slow
@pytest.mark.parametrize(
    "spec", [*EXACT_SEARCHERS, "alphabeta:table=true", "mcts:simulations=20000,seed=3"]
)
def test_every_searcher_gives_the_rules_value_where_the_keys_form_cycles(spec: str) -> None:
    for house in LOOPS:
        for start in STARTS:
            game = house(start)
            result = searcher(spec).search(game)
            assert (result.value, result.is_exact) == (rule_value(game.copy()), True), start


class GoingRound(Exception):
    """Raised by a proof search that has asked whose turn it is far too often."""


#: more questions "whose turn?" than pns asks on a house (it asks some hundreds)
TURNS = 100_000


@pytest.mark.slow
def test_a_proof_table_keyed_by_position_alone_goes_round_the_cycles_for_ever(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the proof tables are keyed by the line: keyed by the position alone, pns's tree is
    # a graph with cycles, and its walk down to a most-proving position never ends
    def position_keys(game: Any, watch: LineWatch | None) -> Any:
        advance, retract, _ = moves(game, watch)
        return advance, retract, game.key

    asked = [0]
    is_or_node = proof.ProofQuestion.is_or_node

    def counted(question: proof.ProofQuestion) -> bool:
        asked[0] += 1
        if asked[0] > TURNS:
            raise GoingRound
        return is_or_node(question)

    monkeypatch.setattr(proof.ProofQuestion, "is_or_node", counted)
    game = LoopHouse("cellar")
    keyed_by_line = REGISTRY.new_searcher("pns").search(game)
    assert keyed_by_line.value == rule_value(game.copy()) and asked[0] < TURNS
    asked[0] = 0
    moves = proof.line_moves
    monkeypatch.setattr(proof, "line_moves", position_keys)
    with pytest.raises(GoingRound):
        REGISTRY.new_searcher("pns").search(game)
    assert not game.history  # the search put the game back
