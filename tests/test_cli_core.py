"""`gamesearch games` and `gamesearch analyze`, in-process and as the installed command."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

import gamesearch.cli._common
from gamesearch.cli import main
from gamesearch.plugins import Registry, default_registry
from gamesearch_games.openspiel import is_bridged


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_analyze_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", "tictactoe", "--position", "XX./OO./...", "--json")
    data = json.loads(out)
    assert status == 0
    assert {
        "game",
        "position",
        "to_move",
        "move",
        "value",
        "best_moves",
        "pv",
        "moves",
        "stats",
    } <= set(data)
    assert set(data["stats"]) == {"nodes", "leaves", "cutoffs", "tt_hits", "depth", "seconds"}
    assert data["move"] == "2" and data["best_moves"] == ["2"] and data["to_move"] == "X"
    assert {entry["move"]: entry["value"] for entry in data["moves"]}["2"] == 995
    assert len(data["moves"]) == 5


def test_analyze_prints_value_best_moves_and_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", "tictactoe", "--searcher", "minimax:scoring=plain")
    assert status == 0
    assert "Value 0: draw" in out
    assert "549,946 nodes" in out


def test_analyze_with_depth_and_seed(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys,
        "analyze",
        "tictactoe",
        "-o",
        "rows=4",
        "-o",
        "cols=4",
        "--depth",
        "2",
        "--seed",
        "1",
        "--json",
    )
    data = json.loads(out)
    assert status == 0 and data["stats"]["depth"] == 2 and data["is_exact"] is False


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["analyze", "shogi"], "unknown game 'shogi'"),
        (["analyze", "tictactoe", "--position", "XXXX"], "position 'XXXX' has 4 cells"),
        (["analyze", "tictactoe", "--searcher", "oracle"], "unknown searcher 'oracle'"),
        (["analyze", "tictactoe", "-o", "rows"], "option 'rows' must be written KEY=VALUE"),
        (["analyze", "tictactoe", "--depth", "0"], "'depth' must be >= 1: 0"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_games_lists_games_and_searchers(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "games", "--json")
    data = json.loads(out)
    assert status == 0
    assert "tictactoe" in data["games"] and "alphabeta" in data["searchers"]
    assert {option["name"] for option in data["games"]["tictactoe"]["options"]} == {
        "rows",
        "cols",
        "k",
    }


def test_games_lists_only_the_games_and_searchers_named(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "games", "kalah", "alphabeta", "openspiel.", "--json")
    data = json.loads(out)
    assert status == 0
    bridged = {name for name in default_registry().games if is_bridged(name)}
    assert set(data["games"]) == {"kalah"} | bridged
    assert set(data["searchers"]) == {"alphabeta"}
    status, out, err = run(capsys, "games", "kalah", "nosuch")
    assert status == 2 and "no game or searcher is called nosuch" in err
    status, out, _ = run(capsys, "games", "mcts")
    assert status == 0 and "Searchers" in out and "Games" not in out


def test_games_fits_the_terminal_and_names_each_games_default_searcher(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "90")
    # the in-tree games' table (OpenSpiel's long names and parameters, when installed,
    # narrow its last column: they are listed in tests/test_openspiel_games.py)
    own = Registry()
    for name, game_class in default_registry().games.items():
        if not is_bridged(name):
            own.add_game(game_class)
    for searcher_class in default_registry().searchers.values():
        own.add_searcher(searcher_class)
    monkeypatch.setattr(gamesearch.cli._common, "default_registry", lambda: own)
    status, out, _ = run(capsys, "games")
    assert status == 0
    assert max(len(line) for line in out.splitlines()) <= 90
    text = " ".join(
        line.replace("│", " ").strip() for line in out.split("Searchers")[0].splitlines()
    )
    words = " ".join(text.split())
    assert "Default searcher: solver." in words  # Connect Four's own
    assert "Default searcher: alphabeta." in words  # tic-tac-toe names none
    assert "Kalah: each side a row of houses (option pits, 6) of seeds (seeds, 4" in words


@pytest.mark.slow
def test_the_installed_console_script_runs() -> None:
    command = shutil.which("gamesearch") or str(
        __import__("pathlib").Path(sys.executable).parent / "gamesearch"
    )
    done = subprocess.run(
        [command, "analyze", "tictactoe", "--json"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["value"] == 0
    bad = subprocess.run([command, "analyze", "shogi"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and bad.stderr.startswith("gamesearch: error: unknown game 'shogi'")


def test_an_argument_error_from_argparse_is_one_line_too(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["analyze", "tictactoe", "--depth", "deep"])
    err = capsys.readouterr().err
    assert stop.value.code == 2
    assert (
        err
        == "gamesearch: error: argument -d/--depth: must be an integer: 'deep' (see 'gamesearch "
        "analyze --help')\n"
    )


@pytest.mark.slow
def test_output_piped_into_a_reader_that_stops_early_ends_quietly() -> None:
    command = str(__import__("pathlib").Path(sys.executable).parent / "gamesearch")
    done = subprocess.run(
        f"'{command}' tree tictactoe -p X.O/.X./... -s minimax -f json | head -c 10",
        shell=True,
        capture_output=True,
        text=True,
        check=False,
    )
    # about 100 kB of JSON: more than a pipe holds, so the writer meets a closed pipe
    assert done.stderr == "" and len(done.stdout) == 10


@pytest.mark.parametrize("searcher", ["alphabeta", "minimax"])
def test_analyze_gives_up_clearly_on_a_game_too_big_to_search_to_the_end(
    capsys: pytest.CaptureFixture[str], searcher: str
) -> None:
    status, out, err = run(
        capsys, "analyze", "connect4", "--searcher", searcher, "--max-nodes", "2000"
    )
    assert status == 2 and out == ""
    assert err == (
        f"gamesearch: error: {searcher} gave up after 2,000 nodes on the starting position: too "
        "big "
        "to search to the end; give --depth N, or --searcher iterative:seconds=5, or a larger "
        "--max-nodes\n"
    )


def test_the_node_budget_of_alphabeta_raises_and_leaves_the_position_alone() -> None:
    from gamesearch import AlphaBeta, BudgetExceededError
    from gamesearch_games.tictactoe import TicTacToe

    game = TicTacToe()
    with pytest.raises(BudgetExceededError, match="node budget of 100 exhausted"):
        AlphaBeta(max_nodes=100).search(game)
    assert game.history == () and game.ply == 0
    assert AlphaBeta(max_nodes=100_000).search(game).stats.nodes < 100_000
