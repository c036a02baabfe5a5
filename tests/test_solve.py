"""Strong solutions: `gamesearch solve` stores every reachable position's exact value, and
`analyze --table` answers from the store, as independent oracles and the solver do."""

from __future__ import annotations

import contextlib
import io
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from clirun import assert_usage_error, run_cli
from oracle import solve_all

from gamesearch import Game, capabilities, solutions
from gamesearch.cli import main
from gamesearch.search.nullwindow import Solver
from gamesearch.solutions import SolutionStore, TableLookup, solve_game
from gamesearch_games.connect4 import ConnectFour
from gamesearch_games.kalah import Kalah
from gamesearch_games.othello import Othello
from gamesearch_games.tictactoe import TicTacToe


def every_position(
    game: Game[Any], keep: Callable[[Game[Any]], Any] = Game.copy
) -> dict[object, Any]:
    """Return a copy of every position reachable from ``game`` (or what ``keep`` makes of
    it: a count needs no copies), by future key (the key a store keeps; Kalah's leaves the
    ply out)."""
    found: dict[object, Any] = {}
    key_of = capabilities.future_key(game)

    def walk() -> None:
        key = key_of()
        if key in found:
            return
        found[key] = keep(game)
        for move in game.legal_moves():
            game.push(move)
            walk()
            game.undo()

    walk()
    return found


def count_positions(game: Game[Any]) -> int:
    """Return how many positions are reachable from ``game`` (by future key)."""
    return len(every_position(game.copy(), keep=lambda position: None))


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Return the tic-tac-toe store `gamesearch solve` makes, and what it printed."""
    store_path = tmp_path_factory.mktemp("solve") / "t.sqlite"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["solve", "tictactoe", "--store", str(store_path)])
    assert status == 0
    return store_path, out.getvalue()


def test_solve_stores_the_5478_tictactoe_positions_and_says_how_compactly(
    solved: tuple[Path, str],
) -> None:
    store_path, out = solved
    assert "Solved tictactoe: 5,478 positions (5,478 new)" in out and "bytes per position" in out
    assert "The starting position: draw" in out
    with SolutionStore(store_path, TicTacToe.new(), create=False) as store:
        assert len(store) == 5478 and store.is_complete


@pytest.mark.slow
def test_every_stored_tictactoe_value_is_the_oracle_value(solved: tuple[Path, str]) -> None:
    store_path = solved[0]
    values = solve_all(TicTacToe.new())  # the oracle: memoised minimax, distance scoring
    with SolutionStore(store_path, TicTacToe.new(), create=False) as store:
        assert len(store) == 5478 and store.is_complete
        for key, position in every_position(TicTacToe.new()).items():
            solution = store.get(key)
            assert solution is not None
            assert solution.value(position.ply, position) == values[key], position.to_text()


def test_a_second_run_finds_the_store_complete_and_says_so_in_json(
    capsys: pytest.CaptureFixture[str], solved: tuple[Path, str]
) -> None:
    store = str(solved[0])
    status, out, _ = run_cli(capsys, "solve", "tictactoe", "--store", store, "--json")
    report = json.loads(out)
    assert status == 0 and report["positions"] == 5478 and report["new_positions"] == 0
    assert report["start"] == {"result": 0, "distance": 9, "value": 0}
    assert 0 < report["bytes_per_position"] < 40


def test_a_solve_stopped_half_way_resumes_where_it_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(solutions, "REPORT_EVERY", 100)  # the first report stops it
    path = tmp_path / "t.sqlite"
    game = TicTacToe.new(rows=3, cols=3, k=2)  # a small board: 1,000 positions or so

    def stop_early(fraction: float, solved: int) -> None:
        raise KeyboardInterrupt

    with SolutionStore(path, game) as store, pytest.raises(KeyboardInterrupt):
        solve_game(game, store, report=stop_early)
    assert game.ply == 0 and game.key() == TicTacToe.new().key()
    with SolutionStore(path, game) as store:
        kept = len(store)
        assert 0 < kept and not store.is_complete
        summary = solve_game(game, store)
        assert summary.new == summary.positions - kept > 0
    fresh = tmp_path / "fresh.sqlite"
    with SolutionStore(fresh, game) as store:
        solve_game(game, store)
    with SolutionStore(path, game) as resumed, SolutionStore(fresh, game) as whole:
        assert sorted(resumed.rows()) == sorted(whole.rows())


def test_analyze_table_answers_every_move_as_the_solver_does(
    capsys: pytest.CaptureFixture[str], solved: tuple[Path, str]
) -> None:
    store = str(solved[0])
    status, out, _ = run_cli(
        capsys, "analyze", "tictactoe", "--table", store, "-p", "XX./OO./...", "--json"
    )
    answer = json.loads(out)
    expected = Solver().search(TicTacToe.from_text("XX./OO./..."), move_values=True)
    assert status == 0 and answer["best_moves"] == ["2"]
    assert answer["value"] == expected.value
    assert expected.move_values is not None
    found = {entry["move"]: entry["value"] for entry in answer["moves"]}
    assert found == {str(move): value for move, value in expected.move_values}


def random_positions(game: Game[Any], samples: int, seed: int) -> Iterator[Game[Any]]:
    """Yield ``samples`` distinct unfinished positions, each after a random number of random
    moves from ``game``. A position drawn again is not yielded again (three-player 3x3's
    seed 11 drew the start three times)."""
    rng = random.Random(seed)
    drawn: set[object] = set()
    while len(drawn) < samples:
        position = game.copy()
        for _ in range(rng.randrange(position.rules.max_plies)):
            if position.is_over():
                break
            position.push(rng.choice(position.legal_moves()))
        if position.is_over() or position.key() in drawn:
            continue
        drawn.add(position.key())
        yield position


def check_against_solver(game: Game[Any], store_path: Path, samples: int, seed: int) -> None:
    """Check the store's answer on ``samples`` random positions against the solver's
    (value, best moves and every move's value)."""
    lookup = TableLookup(store=str(store_path))
    for position in random_positions(game, samples, seed):
        exact = Solver().search(position, move_values=True)
        stored = lookup.search(position, move_values=True)
        assert stored.value == exact.value, position.to_text()
        assert stored.utilities == exact.utilities, position.to_text()
        assert set(stored.best_moves) == set(exact.best_moves), position.to_text()
        assert dict(stored.move_values or ()) == dict(exact.move_values or ()), position.to_text()


def test_stored_tictactoe_values_agree_with_the_solver_on_random_positions(
    solved: tuple[Path, str],
) -> None:
    check_against_solver(TicTacToe.new(), solved[0], 20, seed=5)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "positions", "start"),
    [
        (ConnectFour.new(width=4, height=4), 161_029, 0),
        (Kalah.new(pits=3, seeds=3), 27_104, 2),
        (Othello.new(size=4), 65_509, -8),
    ],
    ids=["connect4-4x4", "kalah-3-3", "othello-4x4"],
)
def test_small_boards_are_solved_whole_and_agree_with_the_solver(
    tmp_path: Path, game: Game[Any], positions: int, start: int
) -> None:
    path = tmp_path / "store.sqlite"
    with SolutionStore(path, game) as store:
        summary = solve_game(game, store)
    assert summary.positions == positions == count_positions(game)
    assert summary.start.result == start
    check_against_solver(game, path, 12, seed=3)


def test_bad_input_gets_one_clear_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, solved: tuple[Path, str]
) -> None:
    store = str(solved[0])
    assert_usage_error(
        capsys,
        "game 'connect4': unknown option 'cols'",
        "solve",
        "connect4",
        "-o",
        "cols=4",
        "--store",
        store,
    )
    assert_usage_error(
        capsys,
        "holds tictactoe (cols=3, k=3, rows=3), not connect4 (height=4, width=4)",
        "solve",
        "connect4",
        "-o",
        "width=4",
        "-o",
        "height=4",
        "--store",
        store,
    )
    assert_usage_error(capsys, "cannot solve 'pig'", "solve", "pig", "--store", store)
    not_a_store = tmp_path / "notes.txt"
    not_a_store.write_text("some notes\n")
    assert_usage_error(
        capsys, "is not a solution store", "solve", "tictactoe", "--store", str(not_a_store)
    )
    assert_usage_error(
        capsys, "no solution store", "analyze", "tictactoe", "--table", str(tmp_path / "x.db")
    )
    assert_usage_error(
        capsys,
        "give --table or --searcher, not both",
        "analyze",
        "tictactoe",
        "--table",
        store,
        "--searcher",
        "solver",
    )
    assert_usage_error(
        capsys, "the store", "analyze", "tictactoe", "-o", "rows=4", "--table", store
    )
