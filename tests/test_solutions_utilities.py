"""Strong solutions of a game with one utility per player: three-player m,n,k on 3x3 stored
whole, and every move's utilities read back as max^n's definition gives them (the
memoised oracle over the rules of tests/test_multiplayer.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run_cli
from test_multiplayer import maxn_oracle, mover_of, moves_of, put
from test_solve import count_positions, random_positions

from gamesearch.errors import UnsupportedGameError
from gamesearch.solutions import (
    Solution,
    SolutionStore,
    TableLookup,
    UtilityPacking,
    solve_game,
)
from gamesearch_games.mnk3 import ThreePlayerMNK
from gamesearch_games.tictactoe import TicTacToe


@pytest.fixture(scope="module")
def mnk3_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return the store of every three-player 3x3 position, solved."""
    path = tmp_path_factory.mktemp("mnk3") / "mnk3.sqlite"
    game = ThreePlayerMNK.new()
    with SolutionStore(path, game) as store:
        summary = solve_game(game, store)
        assert store.is_complete
    assert summary.positions == summary.new
    return path


def test_utilities_pack_into_one_number_and_back() -> None:
    packing = UtilityPacking.of(ThreePlayerMNK.new())
    seen = set()
    for utilities in [(3, 0, 0), (0, 3, 0), (0, 0, 3), (1, 1, 1), (0, 0, 0), (3, 3, 3)]:
        packed = packing.pack(utilities)
        assert packing.unpack(packed) == utilities
        seen.add(packed)
        for mover in range(3):  # a mover ranks a position by its own utility there
            ranked = packing.preference(Solution(packed, 4), mover)
            assert ranked == (utilities[mover] - packing.lowest,)
    assert len(seen) == 6
    with pytest.raises(UnsupportedGameError, match="whole numbers"):
        packing.pack((1.5, 1, 0.5))  # type: ignore[arg-type]


@pytest.mark.slow
def test_every_reachable_three_player_position_is_stored_and_the_start_is_a_draw(
    mnk3_store: Path,
) -> None:
    game = ThreePlayerMNK.new()
    with SolutionStore(mnk3_store, game, create=False) as store:
        assert len(store) == count_positions(game)
        start = store.get(game.key())
    assert start is not None
    assert UtilityPacking.of(game).unpack(start.result) == (1, 1, 1)
    assert start.distance == 9  # nobody can force a line: the board fills


@pytest.mark.slow
def test_stored_utilities_are_the_max_n_definitions_on_random_positions(
    mnk3_store: Path,
) -> None:
    # 25 distinct random positions (the start among them): the position's utilities, the
    # mover's utility as its value, the utilities after each move, and as best moves
    # those that reach the utilities of the first best
    lookup = TableLookup(store=str(mnk3_store))
    for position in random_positions(ThreePlayerMNK.new(), 25, seed=11):
        board = position.to_text().replace("/", "")
        mover, expected = mover_of(board), maxn_oracle(board)
        after = {cell: maxn_oracle(put(board, cell, mover)) for cell in moves_of(board)}
        stored = lookup.search(position, move_values=True)
        assert stored.utilities == expected and stored.value == expected[mover], board
        assert dict(stored.move_values or ()) == {
            cell: utilities[mover] for cell, utilities in after.items()
        }, board
        assert set(stored.best_moves) == {
            cell for cell, utilities in after.items() if utilities == expected
        }, board


@pytest.mark.slow
def test_solve_and_analyze_table_speak_of_utilities(
    capsys: pytest.CaptureFixture[str], mnk3_store: Path
) -> None:
    status, out, _ = run_cli(capsys, "solve", "mnk3", "--store", str(mnk3_store), "--json")
    report = json.loads(out)
    assert status == 0 and report["new_positions"] == 0
    assert report["start"] == {"result": [1, 1, 1], "distance": 9, "value": [1, 1, 1]}
    status, out, _ = run_cli(
        capsys, "analyze", "mnk3", "--table", str(mnk3_store), "-p", "AA./BB./CC.", "--json"
    )
    answer = json.loads(out)
    # A completes the top row at once
    assert status == 0 and answer["best_moves"] == ["2"]
    assert answer["score"]["kind"] == "utilities" and answer["score"]["values"] == [3, 0, 0]


def test_a_two_player_game_still_keeps_its_margin_as_the_number(tmp_path: Path) -> None:
    game = TicTacToe.new(rows=2, cols=2, k=2)
    with SolutionStore(tmp_path / "t.sqlite", game) as store:
        summary = solve_game(game, store)
    assert (summary.start.result, summary.start.distance) == (1, 3)  # X wins on its 2nd move
