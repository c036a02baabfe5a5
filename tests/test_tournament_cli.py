"""``gamesearch tournament``: tables, JSON, the ratings chart and clear usage errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from clirun import assert_usage_error, run_cli, run_script

PLAYERS = ("--players", "alphabeta:depth=1", "alphabeta", "mcts:simulations=50")


def test_the_json_lists_every_player_pair_and_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(
        capsys, "tournament", "tictactoe", *PLAYERS, "--games", "2", "--seed", "3", "--json"
    )
    assert status == 0, err
    data = json.loads(out)
    assert [player["label"] for player in data["players"]] == list(PLAYERS[1:])
    assert len(data["games"]) == 6 and len(data["pairs"]) == 3
    assert data["seed"] == 3 and data["opening_plies"] == 2


def test_the_tables_rank_players_and_say_how_to_replay(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "tournament", "tictactoe", *PLAYERS, "-n", "2", "--seed", "4")
    assert status == 0
    assert "tictactoe round robin: 3 players, 2 games a pair (6 games), seed 4" in out
    for header in ("Elo", "±95%", "wins", "draws", "losses", "mean ms/move", "mean nodes/move"):
        assert header in out
    assert "points of the row player against the column player" in out
    assert "replay with: --seed 4 --games 2" in out


def test_the_same_seed_gives_the_same_games_with_two_workers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ("tournament", "tictactoe", *PLAYERS, "-n", "2", "--seed", "6", "--json")
    alone = json.loads(run_cli(capsys, *argv)[1])
    parallel = json.loads(run_cli(capsys, *argv, "--workers", "2")[1])
    assert [game["moves"][-1]["move"] for game in alone["games"]] == [
        game["moves"][-1]["move"] for game in parallel["games"]
    ]
    assert [player["elo"] for player in alone["players"]] == [
        player["elo"] for player in parallel["players"]
    ]


def test_plot_saves_a_png_chart(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    chart = tmp_path / "ratings.png"
    status, out, err = run_cli(
        capsys, "tournament", "tictactoe", *PLAYERS, "-n", "2", "--plot", str(chart)
    )
    assert status == 0, err
    assert chart.read_bytes().startswith(b"\x89PNG")
    assert f"ratings chart saved to {chart}" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--players", "alphabeta"), "--players needs at least two searchers: ['alphabeta']"),
        (("--players", "mcts", "mcts"), "each player must differ; repeated: 'mcts'"),
        (("--players", "mcts", "nosuch"), "unknown searcher 'nosuch'"),
        ((*PLAYERS, "--games", "0"), "--games must be >= 1: 0"),
        ((*PLAYERS, "--workers", "0"), "--workers must be >= 1: 0"),
        ((*PLAYERS, "--plot", "chart.gif"), "--plot must end in .png, .svg, .pdf: 'chart.gif'"),
        (
            (*PLAYERS, "--plot", "/no/such/folder/chart.png"),
            "the folder '/no/such/folder' does not exist",
        ),
    ],
)
def test_usage_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    assert_usage_error(capsys, message, "tournament", "tictactoe", *argv)


def test_the_installed_command_has_help_with_an_example() -> None:
    done = run_script("tournament", "--help")
    assert done.returncode == 0
    assert "--players" in done.stdout and "gamesearch tournament connect4" in done.stdout


def test_ctrl_c_prints_the_tables_of_the_games_played_so_far(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import gamesearch.tournament as tournament

    real, calls = tournament._play_job, []

    def interrupt_on_the_fifth(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 5:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(tournament, "_play_job", interrupt_on_the_fifth)
    status, out, err = run_cli(
        capsys,
        "tournament",
        "tictactoe",
        "--players",
        "alphabeta:depth=1",
        "alphabeta:depth=2",
        "mcts:simulations=20",
        "--games",
        "2",
        "--seed",
        "1",
        "--json",
    )
    assert status == 130
    assert len(json.loads(out)["games"]) == 4
    assert err.endswith(
        "gamesearch: interrupted after 4 of 6 games; the figures above are for those 4\n"
    )
