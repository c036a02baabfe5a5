"""The dice game on the command line and the browser board: analyze, compare, tree, play,
match and the web API, with chance positions and their probabilities."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import pytest
from clirun import run_cli

from gamesearch.arena import play_game
from gamesearch.search.expectimax import Star2
from gamesearch_games.pig import Pig

SMALL = ("-o", "goal=4", "-o", "faces=3", "-o", "horizon=6")


def test_analyze_gives_the_expected_result_as_an_exact_fraction(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run_cli(capsys, "analyze", "pig", *SMALL, "--searcher", "star2", "--json")
    assert status == 0, err
    data = json.loads(out)
    assert (data["value"], data["margin"], data["is_exact"]) == ("8/27", "8/27", True)
    assert data["description"] == "expected result +8/27 (+0.296)"
    assert [entry["move"] for entry in data["moves"]] == ["roll", "hold"]


def test_analyze_of_a_chance_position_lists_every_outcome(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run_cli(capsys, "analyze", "pig", *SMALL, "--position", "2-0 A+0* 4 6")
    assert status == 0, err
    assert "Chance decides. Value 2/3: expected result +2/3 (+0.667)." in out
    assert "Best moves: 1, 2, 3" in out


def test_compare_runs_the_searchers_of_chance_against_expectiminimax(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run_cli(capsys, "compare", "pig", "--depth", "3", "--json")
    assert status == 0, err
    data = json.loads(out)
    assert data["references"] == {"expected": "expectiminimax:depth=3"}
    rows = {row["searcher"].split(":")[0]: row for row in data["rows"]}
    assert set(rows) == {"expectiminimax", "star1", "star2", "chance-iterative", "mcts"}
    for name in ("star1", "star2", "chance-iterative"):
        assert rows[name]["agrees"] is True and rows[name]["value"] == "1741/3600"
    assert rows["star1"]["stats"]["nodes"] < rows["expectiminimax"]["stats"]["nodes"]


@pytest.mark.slow
def test_compare_leaves_the_searchers_of_chance_out_of_a_game_without_chance(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run_cli(
        capsys, "compare", "tictactoe", "--position", "XOX/O.O/.X.", "--json"
    )
    assert status == 0, err
    names = {row["searcher"].split(":")[0] for row in json.loads(out)["rows"]}
    assert "minimax" in names and not names & {
        "expectiminimax",
        "star1",
        "star2",
        "chance-iterative",
    }
    status, out, err = run_cli(capsys, "compare", "tictactoe", "--searchers", "minimax,star2")
    assert (
        status != 0
        and "searcher 'star2' cannot search 'tictactoe': it searches games of chance only" in err
    )


def test_compare_names_a_searcher_that_refuses_chance(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "compare", "pig", "--searchers", "alphabeta:depth=2")
    assert status != 0
    assert "searcher 'alphabeta' cannot search 'pig': it cannot search games of chance" in err


def test_tree_draws_chance_positions_with_their_outcomes_probabilities(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run_cli(
        capsys,
        "tree",
        "pig",
        *SMALL,
        "--position",
        "0-0 A+2* 2 3",
        "--searcher",
        "expectiminimax",
        "--depth",
        "1",
    )
    assert status == 0, err
    assert "root (chance)  window [-inf, +inf]  value 2/3" in out
    assert "1 (p 1/3)  window [-inf, +inf]  value 0" in out
    assert (
        "A roll  chance" not in out and "B roll  chance  window [-inf, +inf]  value 0  leaf" in out
    )
    assert "the full expectiminimax tree" not in out  # it is the full tree


def test_tree_json_and_dot_carry_the_probabilities(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(
        capsys,
        "tree",
        "pig",
        *SMALL,
        "--position",
        "0-0 A+2* 2 3",
        "--depth",
        "1",
        "--format",
        "json",
    )
    assert status == 0, err
    data = json.loads(out)
    root = data["trees"][0]
    assert (data["searcher"], data["value"], root["to_move"]) == ("star2", "2/3", "chance")
    assert {child["probability"] for child in root["children"]} == {"1/3"}
    assert data["nodes"] == data["stats"]["nodes"]
    status, out, err = run_cli(
        capsys,
        "tree",
        "pig",
        *SMALL,
        "--position",
        "0-0 A+2* 2 3",
        "--depth",
        "1",
        "--format",
        "dot",
    )
    assert 'n0 [shape=diamond, label="2/3' in out and '[label="1\\np 1/3"]' in out


def test_play_rolls_the_die_itself_from_the_seed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    transcripts = []
    for _ in range(2):
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        status, out, err = run_cli(
            capsys,
            "play",
            "pig",
            *SMALL,
            "--human",
            "none",
            "--opponent",
            "star2:depth=2",
            "--seed",
            "4",
        )
        assert status == 0, err
        assert "Game over" in out
        # the moves of each sitting, without the search timings
        moves = [
            line.split(": value")[0]
            for line in out.splitlines()
            if " plays " in line or line.startswith("Chance: ")
        ]
        transcripts.append(moves)
    assert transcripts[0] == transcripts[1] and any(
        line.startswith("Chance: ") for line in transcripts[0]
    )


def test_a_match_draws_the_outcomes_and_records_them_as_chance_moves() -> None:
    record = play_game(Pig.new(goal=4, faces=3, horizon=6), Star2(depth=2), Star2(depth=1), seed=3)
    again = play_game(Pig.new(goal=4, faces=3, horizon=6), Star2(depth=2), Star2(depth=1), seed=3)
    assert [move.move for move in record.moves] == [move.move for move in again.moves]
    chance = [move for move in record.as_dict()["moves"] if move["player"] == "chance"]
    assert chance and all(move["move"] in ("1", "2", "3") and move["is_random"] for move in chance)
    json.dumps(record.as_dict())  # values of chance searches are written exactly


# ------------------------------------------------------------------ web board
starlette = pytest.importorskip("starlette", reason="the web extra is not installed")
from starlette.testclient import TestClient  # noqa: E402
from test_web_api import SMALL as LIMITS  # noqa: E402
from test_web_api import post  # noqa: E402

from gamesearch.web.app import create_app  # noqa: E402

OPTIONS = {"goal": 4, "faces": 3, "horizon": 6}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The browser board's API, with the budgets of the web API's own tests."""
    with TestClient(create_app(limits=LIMITS), base_url="http://127.0.0.1") as test_client:
        yield test_client


def test_the_board_offers_the_outcomes_of_a_roll_as_buttons(client: TestClient) -> None:
    state = post(
        client, "/api/play", game="pig", options=OPTIONS, position="0-0 A+0 0 0", move="roll"
    )
    assert (state["to_move"], state["status"], state["position"]) == (
        "chance",
        "chance to move",
        "0-0 A+0* 1 1",
    )
    extra = state["board"]["extra_moves"]
    assert extra == [{"label": f"rolled {face}", "move": face} for face in ("1", "2", "3")]


def test_the_computer_draws_an_outcome_at_a_chance_position(client: TestClient) -> None:
    answer = post(
        client, "/api/move", game="pig", options=OPTIONS, position="0-0 A+0* 1 1", searcher="star2"
    )
    assert answer["move"] in ("1", "2", "3") and answer["search"]["to_move"] == "chance"
    assert answer["search"]["description"] == "an outcome of probability 1/3"


def test_the_board_analyses_and_draws_the_tree_of_the_dice_game(client: TestClient) -> None:
    analysis = post(
        client,
        "/api/analyze",
        game="pig",
        options=OPTIONS,
        position="0-0 A+0 0 0",
        searcher="star1",
    )
    assert (analysis["value"], analysis["best_moves"]) == ("8/27", ["roll"])
    assert [entry["value"] for entry in analysis["moves"]] == ["8/27", "-20/81"]
    tree = post(
        client,
        "/api/tree",
        game="pig",
        options=OPTIONS,
        position="0-0 A+2* 2 3",
        searcher="expectiminimax",
        searcher_options={"depth": 1},
    )
    assert (tree["value"], tree["root"]["to_move"]) == ("2/3", "chance")
    assert [child["probability"] for child in tree["root"]["children"]] == ["1/3"] * 3
