"""The web board's perfect play: a server started with solution tables answers every move's
exact value from them (through Starlette's test client, no browser)."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gamesearch.cli import main
from gamesearch.errors import InvalidDataError
from gamesearch.search.reference.maxn import ReferenceMaxN
from gamesearch.search.reference.minimax import ReferenceMinimax
from gamesearch.solutions import SolutionStore, solve_game
from gamesearch_games.mnk3 import ThreePlayerMNK
from gamesearch_games.tictactoe import TicTacToe

pytest.importorskip("starlette", reason="the web extra is not installed")
from starlette.testclient import TestClient  # noqa: E402

from gamesearch.web.app import create_app  # noqa: E402
from gamesearch.web.perfect import check_tables  # noqa: E402
from gamesearch.web.service import Limits  # noqa: E402


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Return two complete tables: tic-tac-toe, and three-player m,n,k on 3x2 (small)."""
    folder = tmp_path_factory.mktemp("tables")
    paths = []
    for game, name in (
        (TicTacToe.new(), "t.sqlite"),
        (ThreePlayerMNK.new(rows=3, cols=2), "m.sqlite"),
    ):
        path = folder / name
        with SolutionStore(path, game) as store:
            solve_game(game, store)
        paths.append(str(path))
    return paths


@pytest.fixture(scope="module")
def client(tables: list[str]) -> Iterator[TestClient]:
    limits = Limits(max_nodes=20_000, seconds=5.0, tables=tables)
    with TestClient(create_app(limits=limits), base_url="http://127.0.0.1") as test_client:
        yield test_client


def analyze(client: TestClient, **body: Any) -> Any:
    response = client.post("/api/analyze", json={"searcher": "table", **body})
    assert response.status_code == 200, response.text
    return response.json()


def test_the_catalogue_offers_perfect_play_for_the_games_and_options_of_the_tables(
    client: TestClient, tables: list[str]
) -> None:
    data = client.get("/api/games").json()
    assert data["searchers"]["table"]["options"] == []
    assert data["games"]["tictactoe"]["tables"] == [{"cols": 3, "k": 3, "rows": 3}]
    assert "table" in data["games"]["tictactoe"]["searchers"]
    assert data["games"]["mnk3"]["tables"] == [{"cols": 2, "k": 3, "rows": 3}]
    assert data["games"]["connect4"]["tables"] == []
    assert "table" not in data["games"]["connect4"]["searchers"]
    assert "tables" not in data["limits"]  # the server's files are not shown
    assert tables[0] not in json.dumps(data)


@pytest.mark.parametrize("position", [".../.../...", "X.O/.X./...", "XO./.X./..O", "XOX/OOX/X.."])
def test_every_move_value_is_the_exact_one_answered_at_once(
    client: TestClient, position: str
) -> None:
    answer = analyze(client, game="tictactoe", position=position)
    game = TicTacToe.from_text(position)
    exact = ReferenceMinimax().search(game, move_values=True)
    assert answer["value"] == exact.value and answer["is_exact"]
    assert set(answer["best_moves"]) == {str(move) for move in exact.best_moves}
    found = {entry["move"]: entry["value"] for entry in answer["moves"]}
    assert found == {str(move): value for move, value in exact.move_values or ()}
    assert answer["stats"]["nodes"] == 1 + len(game.legal_moves())  # read, not searched


def test_a_three_player_table_answers_max_n_utilities(client: TestClient) -> None:
    position = "A./B./.."
    answer = analyze(client, game="mnk3", options={"rows": 3, "cols": 2}, position=position)
    game = ThreePlayerMNK.from_text(position, rows=3, cols=2)
    exact = ReferenceMaxN().search(game, move_values=True)
    assert exact.utilities is not None
    assert answer["score"]["values"] == list(exact.utilities)
    assert set(answer["best_moves"]) == {str(move) for move in exact.best_moves}


def test_the_engine_plays_a_perfect_move(client: TestClient) -> None:
    response = client.post(
        "/api/move", json={"game": "tictactoe", "position": "XX./OO./...", "searcher": "table"}
    )
    assert response.status_code == 200, response.text
    assert response.json()["move"] == "2"  # X completes the top row


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            {"game": "tictactoe", "options": {"rows": 4, "cols": 4}},
            "no solution table for tictactoe (cols=4, k=3, rows=4): its tables of tictactoe "
            "are for tictactoe (cols=3, k=3, rows=3)",
        ),
        ({"game": "connect4"}, "it has tables for tictactoe (cols=3, k=3, rows=3), mnk3"),
        (
            {"game": "tictactoe", "searcher_options": {"store": "/etc/passwd"}},
            "perfect play takes no searcher options (the table answers): store",
        ),
    ],
)
def test_a_position_without_a_table_gets_a_clear_error(
    client: TestClient, body: dict[str, Any], message: str
) -> None:
    response = client.post("/api/analyze", json={"searcher": "table", **body})
    assert response.status_code == 422 and message in response.json()["error"], response.text


def test_a_server_without_tables_says_how_to_start_one_with_perfect_play() -> None:
    with TestClient(create_app(limits=Limits()), base_url="http://127.0.0.1") as plain:
        assert "table" not in plain.get("/api/games").json()["searchers"]
        response = plain.post("/api/analyze", json={"game": "tictactoe", "searcher": "table"})
    assert response.status_code == 422
    assert "started without a solution table (gamesearch serve --table FILE)" in response.text


def test_serve_refuses_a_table_that_is_not_complete_or_not_a_store(tmp_path: Path) -> None:
    game = TicTacToe.new()
    with SolutionStore(tmp_path / "half.sqlite", game):
        pass  # made, nothing solved: not complete
    with pytest.raises(InvalidDataError, match="is not complete: run 'gamesearch solve tictactoe"):
        check_tables([str(tmp_path / "half.sqlite")])
    notes = tmp_path / "notes.txt"
    notes.write_text("notes\n")
    with pytest.raises(InvalidDataError, match="is not a solution store"):
        check_tables([str(notes)])
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(["serve", "--port", "0", "--table", str(tmp_path / "missing.sqlite")])
    assert status != 0 and "no solution store" in err.getvalue()
