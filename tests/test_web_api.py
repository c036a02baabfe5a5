"""The web board's JSON API, through Starlette's test client and a real local server."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from web_gate import gated_registry

from gamesearch.cli import main
from gamesearch.plugins import default_registry

pytest.importorskip("starlette", reason="the web extra is not installed")
from starlette.testclient import TestClient  # noqa: E402

from gamesearch.web.app import create_app  # noqa: E402
from gamesearch.web.server import BackgroundServer  # noqa: E402
from gamesearch.web.service import Limits, read_search  # noqa: E402

SMALL = Limits(max_nodes=20_000, seconds=5.0, body_bytes=2_000, text_chars=200)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(limits=SMALL), base_url="http://127.0.0.1") as test_client:
        yield test_client


def post(client: TestClient, path: str, **body: Any) -> Any:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.text
    return response.json()


# ------------------------------------------------------------------- answers
def test_games_lists_every_game_and_searcher_with_its_options_and_the_limits(
    client: TestClient,
) -> None:
    data = client.get("/api/games").json()
    registry = default_registry()
    assert set(data["games"]) == set(registry.games)
    assert set(data["searchers"]) == set(registry.searchers)
    tictactoe = data["games"]["tictactoe"]
    assert tictactoe["player_names"] == ["X", "O"]
    assert {
        "name": "rows",
        "type": "int",
        "default": 3,
        "help": "board rows",
        "minimum": 1,
        "maximum": 20,
        "choices": None,
    } in tictactoe["options"]
    assert data["limits"]["max_nodes"] == SMALL.max_nodes


def test_new_game_draws_an_empty_board_where_every_cell_is_a_move(client: TestClient) -> None:
    state = post(client, "/api/new", game="tictactoe", options={"rows": 3, "cols": 4, "k": 3})
    assert state["position"] == "..../..../...."
    assert state["status"] == "X to move"
    board = state["board"]
    assert (board["rows"], board["cols"]) == (3, 4)
    assert [cell["move"] for cell in board["cells"]] == [str(index) for index in range(12)]
    assert {cell["symbol"] for cell in board["cells"]} == {""}


def test_play_returns_the_next_position_and_leaves_no_move_on_occupied_cells(
    client: TestClient,
) -> None:
    state = post(client, "/api/play", game="tictactoe", position="X../.O./...", move="8")
    assert state["position"] == "X../.O./..X"
    assert state["to_move"] == "O"
    cells = state["board"]["cells"]
    assert [cells[index]["move"] for index in (0, 4, 8)] == [None, None, None]
    assert cells[8]["symbol"] == "X"


@pytest.mark.parametrize(
    ("position", "status", "winner"),
    [
        ("XXX/OO./...", "X wins", "X"),
        ("XXO/OOX/XOX", "draw", None),
        ("X../.O./...", "X to move", None),
    ],
)
def test_position_reports_whose_turn_it_is_and_how_the_game_ended(
    client: TestClient, position: str, status: str, winner: str | None
) -> None:
    state = post(client, "/api/position", game="tictactoe", position=position)
    assert (state["status"], state["winner"]) == (status, winner)
    assert state["is_over"] is (status != "X to move")
    if state["is_over"]:
        assert state["legal_moves"] == []
        assert all(cell["move"] is None for cell in state["board"]["cells"])


def test_analyze_answers_the_same_fields_as_the_analyze_command(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    position = "X.O/.X./..."
    assert main(["analyze", "tictactoe", "--position", position, "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    answer = post(client, "/api/analyze", game="tictactoe", position=position)
    for data in (expected, answer):
        data["stats"].pop("seconds")
    assert answer == expected
    assert answer["best_moves"] == ["8"]


def test_engine_move_plays_the_move_that_stops_the_threat(client: TestClient) -> None:
    answer = post(client, "/api/move", game="tictactoe", position="X.O/.X./...", searcher="minimax")
    assert answer["move"] == "8"
    assert answer["state"]["position"] == "X.O/.X./..O"
    assert answer["search"]["description"] == "draw"


def test_searcher_options_reach_the_searcher(client: TestClient) -> None:
    answer = post(
        client,
        "/api/analyze",
        game="tictactoe",
        searcher="alphabeta",
        searcher_options={"depth": 1},
    )
    assert answer["stats"]["depth"] == 1
    assert answer["is_exact"] is False


# ---------------------------------------------------------------------- tree
def count_nodes(node: dict[str, Any]) -> int:
    return 1 + sum(count_nodes(child) for child in node["children"])


@pytest.mark.parametrize(
    ("searcher", "nodes", "pruned"), [("minimax", 14, 0), ("alphabeta", 10, 2)]
)
def test_tree_of_a_three_empty_square_position_has_14_nodes_and_alpha_beta_visits_10(
    client: TestClient, searcher: str, nodes: int, pruned: int
) -> None:
    tree = post(client, "/api/tree", game="tictactoe", position=".../OOX/XXO", searcher=searcher)
    assert (tree["nodes"], tree["pruned"], tree["value"]) == (nodes, pruned, 0)
    assert count_nodes(tree["root"]) == nodes
    root = tree["root"]
    assert (root["move"], root["position"], root["alpha"], root["beta"]) == (
        None,
        ".../OOX/XXO",
        None,
        None,
    )
    assert sorted(child["move"] for child in root["children"]) == ["0", "1", "2"]
    direct = (
        default_registry()
        .new_searcher(searcher)
        .search(default_registry().new_game("tictactoe", ".../OOX/XXO"))
    )
    assert direct.stats.nodes == nodes


def test_a_tree_larger_than_the_server_draws_is_refused(client: TestClient) -> None:
    response = client.post("/api/tree", json={"game": "tictactoe", "searcher": "minimax"})
    assert response.status_code == 422
    assert response.json()["error"].startswith("the search tree has more than 2,000 nodes")


# -------------------------------------------------------------------- budget
def test_a_searcher_with_a_budget_of_its_own_answers_within_the_servers_node_budget() -> None:
    limits = Limits(max_nodes=3_000, seconds=30.0)
    with TestClient(create_app(limits=limits), base_url="http://127.0.0.1") as small_client:
        body = {
            "game": "tictactoe",
            "options": {"rows": 5, "cols": 5, "k": 4},
            "searcher": "iterative",
        }
        answer = post(small_client, "/api/analyze", **body)
    assert answer["move"] in [str(cell) for cell in range(25)]
    assert answer["stats"]["nodes"] <= limits.max_nodes + 1
    assert answer["is_exact"] is False


def test_a_budget_limited_search_of_the_empty_connect_four_board_returns_a_legal_move() -> None:
    limits = Limits(max_nodes=5_000, seconds=30.0)
    with TestClient(create_app(limits=limits), base_url="http://127.0.0.1") as small_client:
        state = post(small_client, "/api/new", game="connect4")
        answer = post(small_client, "/api/move", game="connect4", searcher="iterative")
    assert answer["move"] in state["legal_moves"]
    assert answer["search"]["stats"]["nodes"] <= limits.max_nodes + 1
    assert answer["state"]["ply"] == 1


@pytest.mark.parametrize(
    ("searcher", "options", "budget"),
    [
        ("iterative", {}, {"max_nodes": 3_000, "seconds": 2.0}),
        ("iterative", {"max_nodes": 10, "seconds": 0.5}, {"max_nodes": 10, "seconds": 0.5}),
        ("mcts", {}, {"max_nodes": 3_000, "seconds": 2.0}),
        ("alphabeta", {"depth": 3}, {"max_nodes": 3_000, "seconds": 2.0}),
    ],
)
def test_searchers_get_the_servers_budget_as_ceiling(
    searcher: str, options: dict[str, Any], budget: dict[str, Any]
) -> None:
    body = {"game": "tictactoe", "searcher": searcher, "searcher_options": options}
    search = read_search(default_registry(), body, Limits(max_nodes=3_000, seconds=2.0))
    assert {name: getattr(search.searcher, name) for name in budget} == budget


def test_an_exhaustive_search_that_outgrows_the_budget_is_stopped_with_a_422(
    client: TestClient,
) -> None:
    response = client.post("/api/analyze", json={"game": "tictactoe", "searcher": "minimax"})
    assert response.status_code == 422
    assert response.json()["type"] == "BudgetExceededError"
    assert re.fullmatch(
        r"search stopped: node budget of 20,000 exhausted: 20,\d\d\d positions entered in "
        r"[\d.]+ s \(this server's budget\); set a depth or use the 'iterative' searcher",
        response.json()["error"],
    )


# -------------------------------------------------------------------- errors
ERRORS = [
    ("/api/new", {"game": "shogi"}, 422, r"unknown game 'shogi'; available games: .*tictactoe"),
    ("/api/new", {}, 400, r"field 'game' is required"),
    ("/api/new", {"game": 3}, 400, r"field 'game' must be a string: 3"),
    (
        "/api/new",
        {"game": "tictactoe", "options": {"rows": 0}},
        422,
        r"option 'rows' must be >= 1: 0",
    ),
    ("/api/new", {"game": "tictactoe", "options": {"size": 3}}, 422, r"unknown option 'size'"),
    (
        "/api/new",
        {"game": "tictactoe", "options": {"rows": [3]}},
        400,
        r"options value 'rows' must be a string",
    ),
    (
        "/api/new",
        {"game": "tictactoe", "options": "rows=3"},
        400,
        r"field 'options' must be an object",
    ),
    ("/api/position", {"game": "tictactoe", "position": "XXX/XXX/..."}, 422, r"has 6 X and 0 O"),
    (
        "/api/position",
        {"game": "tictactoe", "position": "X" * 300},
        400,
        r"'position' has 300 characters; at most 200",
    ),
    (
        "/api/play",
        {"game": "tictactoe", "position": "X../.../...", "move": "0"},
        422,
        r"illegal move '0'",
    ),
    (
        "/api/play",
        {"game": "tictactoe", "move": "centre"},
        422,
        r"move 'centre' is not a cell index",
    ),
    ("/api/play", {"game": "tictactoe"}, 400, r"field 'move' is required"),
    (
        "/api/play",
        {"game": "tictactoe", "position": "XXX/OO./...", "move": "8"},
        422,
        r"the game is over",
    ),
    (
        "/api/move",
        {"game": "tictactoe", "position": "XXX/OO./..."},
        422,
        r"the game is over .*no move to make",
    ),
    (
        "/api/analyze",
        {"game": "tictactoe", "searcher": "oracle"},
        422,
        r"unknown searcher 'oracle'",
    ),
    (
        "/api/tree",
        {"game": "tictactoe", "position": ".../OOX/XXO", "searcher": "mcts"},
        422,
        r"searcher 'mcts' does not report the tree it walks; "
        r"choose minimax, alphabeta or iterative",
    ),
    (
        "/api/analyze",
        {"game": "tictactoe", "searcher": "mcts", "searcher_options": {"seconds": 9}},
        422,
        r"option 'seconds' asks for 9; this server allows at most 5.0",
    ),
    (
        "/api/analyze",
        {"game": "tictactoe", "searcher_options": {"depth": 0}},
        422,
        r"'depth' must be >= 1",
    ),
    (
        "/api/analyze",
        {"game": "tictactoe", "searcher": "iterative", "searcher_options": {"max_nodes": 10**9}},
        422,
        r"option 'max_nodes' asks for 1000000000; this server allows at most 20000",
    ),
    (
        "/api/analyze",
        {"game": "tictactoe", "searcher": "iterative", "searcher_options": {"seconds": 60}},
        422,
        r"option 'seconds' asks for 60; this server allows at most 5.0",
    ),
]


@pytest.mark.parametrize(("path", "body", "status", "message"), ERRORS)
def test_a_bad_request_gets_a_json_error_naming_the_problem(
    client: TestClient, path: str, body: dict[str, Any], status: int, message: str
) -> None:
    response = client.post(path, json=body)
    assert response.status_code == status
    assert response.headers["content-type"] == "application/json"
    assert "error" in response.json()
    assert re.search(message, response.json()["error"]), response.json()


@pytest.mark.parametrize(
    ("content", "status", "message"),
    [
        (b"{", 400, r"the request body is not valid JSON"),
        (b"[1, 2]", 400, r"the request body must be a JSON object, not list"),
        (b"\xff\xfe", 400, r"the request body must be JSON encoded as UTF-8"),
        (b" " * 3_000, 413, r"request body of 3,000 bytes is over this server's limit of 2,000"),
    ],
)
def test_a_body_that_is_not_a_small_json_object_is_refused(
    client: TestClient, content: bytes, status: int, message: str
) -> None:
    response = client.post(
        "/api/analyze", content=content, headers={"content-type": "application/json"}
    )
    assert response.status_code == status
    assert re.search(message, response.json()["error"]), response.json()


def test_unknown_routes_and_methods_answer_json_errors(client: TestClient) -> None:
    missing = client.get("/api/nothing")
    assert (missing.status_code, missing.json()["error"]) == (404, "not found")
    wrong_method = client.get("/api/analyze")
    assert (wrong_method.status_code, wrong_method.json()["error"]) == (405, "method not allowed")


def test_the_page_and_its_static_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert (
        'role="status"' in page.text and '<script type="module" src="/static/main.js">' in page.text
    )
    assert client.get("/static/main.js").status_code == 200
    assert client.get("/static/board.css").status_code == 200


# ----------------------------------------------------- concurrency, workers
def open_gate(stem: Path) -> None:
    (stem.parent / (stem.name + ".open")).touch()


def wait_started(stem: Path) -> bool:
    deadline = time.monotonic() + 30
    while not (stem.parent / (stem.name + ".started")).exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def fetch(url: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def test_a_long_search_runs_off_the_event_loop_and_other_requests_are_answered_meanwhile(
    tmp_path: Path,
) -> None:
    stem = tmp_path / "gate"
    app = create_app(gated_registry(), Limits(workers=1, seconds=30.0))
    body = {"game": "tictactoe", "searcher": "gate", "searcher_options": {"path": str(stem)}}
    with BackgroundServer(app) as url, ThreadPoolExecutor(max_workers=1) as pool:
        long_search = pool.submit(fetch, f"{url}/api/move", body)
        assert wait_started(stem)
        # The gated search holds its worker until the gate opens: these answers prove the loop is
        # free.
        assert fetch(f"{url}/api/health")[1]["searches_in_flight"] == 1
        assert fetch(f"{url}/api/new", {"game": "tictactoe"})[0] == 200
        assert not long_search.done()
        open_gate(stem)
        status, answer = long_search.result(timeout=60)
    assert (status, answer["move"]) == (200, "0")


def test_searches_beyond_the_workers_and_the_queue_get_a_503(tmp_path: Path) -> None:
    stem = tmp_path / "gate"
    app = create_app(gated_registry(), Limits(workers=1, queue=1, seconds=30.0))
    body = {"game": "tictactoe", "searcher": "gate", "searcher_options": {"path": str(stem)}}
    with BackgroundServer(app) as url, ThreadPoolExecutor(max_workers=2) as pool:
        try:
            waiting = [pool.submit(fetch, f"{url}/api/move", body) for _ in range(2)]
            assert wait_started(stem)
            while fetch(f"{url}/api/health")[1]["searches_in_flight"] < 2:
                time.sleep(0.01)
            status, error = fetch(f"{url}/api/move", body)
        finally:
            open_gate(stem)
        assert [future.result(timeout=60)[0] for future in waiting] == [200, 200]
    assert status == 503
    assert (
        error["error"]
        == "2 searches are running or waiting, this server's limit; try again shortly"
    )


def test_concurrent_requests_each_get_the_answer_for_their_own_position() -> None:
    positions = [
        "X../.../...",
        ".X./.../...",
        "X.O/.X./...",
        "XO./.X./..O",
        "X../.O./..X",
        "XOX/.O./...",
    ]
    registry = default_registry()
    searcher = registry.new_searcher("alphabeta")
    expected = {
        text: searcher.search(registry.new_game("tictactoe", text), move_values=True)
        for text in positions
    }
    with (
        BackgroundServer(create_app(limits=Limits(workers=4))) as url,
        ThreadPoolExecutor(max_workers=8) as pool,
    ):
        bodies = [{"game": "tictactoe", "position": text} for text in positions * 5]
        answers = list(pool.map(lambda body: fetch(f"{url}/api/analyze", body), bodies))
    for body, (status, answer) in zip(bodies, answers, strict=True):
        result = expected[body["position"]]
        assert status == 200
        assert answer["position"] == body["position"]
        assert (answer["value"], answer["best_moves"]) == (
            result.value,
            [str(move) for move in result.best_moves],
        )
        assert [entry["value"] for entry in answer["moves"]] == [
            value for _, value in result.move_values
        ]
