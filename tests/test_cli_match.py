"""``gamesearch match``: standings of two searchers over several games."""

from __future__ import annotations

import json
from typing import Any

import pytest
from clirun import assert_usage_error, run_cli, run_script


def test_minimax_against_alphabeta_is_all_draws(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(
        capsys,
        "match",
        "tictactoe",
        "--first",
        "minimax",
        "--second",
        "alphabeta",
        "--games",
        "4",
        "--swap",
        "--seed",
        "5",
        "--json",
    )
    assert status == 0, err
    data = json.loads(out)
    assert data["seed"] == 5
    assert [(entry["label"], entry["draws"], entry["wins"]) for entry in data["standings"]] == [
        ("minimax", 4, 0),
        ("alphabeta", 4, 0),
    ]
    assert [game["first"] for game in data["games"]] == ["minimax", "alphabeta"] * 2
    assert all(game["outcome"] == "draw" for game in data["games"])
    assert data["standings"][0]["mean_nodes"] > data["standings"][1]["mean_nodes"]


def test_the_same_seed_replays_the_same_match(capsys: pytest.CaptureFixture[str]) -> None:
    argv = (
        "match",
        "tictactoe",
        "--first",
        "alphabeta",
        "--second",
        "alphabeta:depth=1",
        "--games",
        "3",
        "--seed",
        "11",
        "--opening-plies",
        "2",
        "--json",
    )
    first = json.loads(run_cli(capsys, *argv)[1])
    again = json.loads(run_cli(capsys, *argv)[1])
    moves = [[move["move"] for move in game["moves"]] for game in first["games"]]
    assert moves == [[move["move"] for move in game["moves"]] for game in again["games"]]
    assert all(
        game["moves"][0]["is_random"] and game["moves"][1]["is_random"] for game in first["games"]
    )


def test_the_table_names_both_searchers_and_the_seed_to_replay(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run_cli(
        capsys,
        "match",
        "tictactoe",
        "--first",
        "alphabeta:depth=2",
        "--second",
        "minimax",
        "-n",
        "2",
    )
    assert status == 0
    assert "alphabeta:depth=2" in out and "minimax" in out and "mean nodes/move" in out
    assert "replay with: --seed " in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ("--first", "nope", "--second", "minimax"),
            "unknown searcher 'nope'; available searchers: ",
        ),
        (("--first", "minimax", "--second", "alphabeta:depth=0"), "'depth' must be >= 1: 0"),
        (("--first", "minimax", "--second", "minimax", "--games", "0"), "--games must be >= 1: 0"),
        (
            ("--first", "minimax", "--second", "minimax", "--opening-plies", "-1"),
            "--opening-plies must be >= 0: -1",
        ),
        (("--first", "minimax", "--second", "minimax", "-p", "XXX/.../..."), "X moves first"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    assert_usage_error(capsys, message, "match", "tictactoe", *argv)


def test_unknown_game_through_the_installed_script() -> None:
    done = run_script("match", "shogi", "--first", "minimax", "--second", "minimax")
    assert done.returncode == 2
    assert done.stderr.startswith("gamesearch: error: unknown game 'shogi'; available games: ")
    assert "tictactoe" in done.stderr and done.stderr.count("\n") == 1


def test_help_shows_an_example() -> None:
    done = run_script("match", "--help")
    assert done.returncode == 0
    assert "gamesearch match tictactoe --first minimax --second alphabeta" in done.stdout


def test_ctrl_c_prints_the_table_of_the_games_played_so_far(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import gamesearch.cli.match as match

    real, calls = match.play_match_game, []

    def interrupt_on_the_fourth(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(match, "play_match_game", interrupt_on_the_fourth)
    status, out, err = run_cli(
        capsys,
        "match",
        "tictactoe",
        "--first",
        "alphabeta:depth=1",
        "--second",
        "mcts:simulations=20",
        "--games",
        "6",
        "--seed",
        "3",
        "--json",
    )
    assert status == 130
    assert len(json.loads(out)["games"]) == 3
    assert err.endswith(
        "gamesearch: interrupted after 3 of 6 games; the figures above are for those 3\n"
    )
