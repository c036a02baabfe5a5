"""The board page as the server ships it: its modules, its headers, and what the API tells it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
from starlette.testclient import TestClient  # noqa: E402

import gamesearch_games.connect4  # noqa: E402
import gamesearch_games.kalah  # noqa: E402
import gamesearch_games.pig  # noqa: E402
import gamesearch_games.tictactoe  # noqa: E402
import gamesearch_games.tree  # noqa: E402
from gamesearch.plugins import build_registry, make_plugin_manager  # noqa: E402
from gamesearch.web.app import create_app  # noqa: E402
from gamesearch.web.service import Limits  # noqa: E402

STATIC = Path(__file__).resolve().parent.parent / "gamesearch" / "web" / "static"
#: a module's imports: import { a, b } from "./x.js";
IMPORT = re.compile(r'^import\s[^;]*?from\s+"\./([\w-]+\.js)";', re.MULTILINE)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(limits=Limits(seconds=5.0)), base_url="http://127.0.0.1") as test:
        yield test


def test_the_page_loads_its_script_as_a_module_and_every_module_it_imports_is_served(
    client: TestClient,
) -> None:
    page = client.get("/").text
    [entry] = re.findall(r'<script type="module" src="/static/([\w-]+\.js)"></script>', page)
    seen, todo = set(), [entry]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        answer = client.get(f"/static/{name}")
        assert answer.status_code == 200, name
        assert "javascript" in answer.headers["content-type"], name
        todo += IMPORT.findall(answer.text)
    on_disk = {path.name for path in STATIC.glob("*.js")}
    assert seen == on_disk  # every module is reached, none is left over


@pytest.mark.parametrize("path", sorted(STATIC.glob("*.js")), ids=lambda path: path.name)
def test_no_module_of_the_page_is_over_600_lines(path: Path) -> None:
    assert len(path.read_text().splitlines()) <= 600


def test_every_name_a_module_imports_is_exported_by_that_module() -> None:
    exported = {
        path.name: set(
            re.findall(
                r"^export (?:async )?(?:function|const|let) ([\w$]+)", path.read_text(), re.M
            )
        )
        for path in STATIC.glob("*.js")
    }
    for path in STATIC.glob("*.js"):
        for names, module in re.findall(
            r'^import \{([^}]*)\} from "\./([\w-]+\.js)";', path.read_text(), re.MULTILINE
        ):
            wanted = {name.strip() for name in names.split(",") if name.strip()}
            assert wanted <= exported[module], (path.name, module, wanted - exported[module])


@pytest.mark.parametrize("path", ["/", "/api/games", "/static/main.js", "/api/nothing"])
def test_every_answer_forbids_framing_by_another_site_and_sniffing(
    client: TestClient, path: str
) -> None:
    headers = client.get(path).headers
    policy = headers["content-security-policy"]
    assert "frame-ancestors 'self'" in policy and "default-src 'self'" in policy
    assert headers["x-frame-options"] == "SAMEORIGIN"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


def test_a_refused_host_gets_the_headers_too() -> None:
    with TestClient(create_app(), base_url="http://evil.example") as other:
        answer = other.get("/")
    assert answer.status_code == 400 and answer.headers["x-frame-options"] == "SAMEORIGIN"


def catalogue_of(*plugins: Any) -> dict[str, Any]:
    registry = build_registry(make_plugin_manager(plugins=list(plugins), entry_points=False))
    with TestClient(create_app(registry), base_url="http://127.0.0.1") as test:
        return test.get("/api/games").json()  # type: ignore[no-any-return]


def test_the_page_opens_on_the_simplest_game() -> None:
    shipped = catalogue_of(
        gamesearch_games.connect4,
        gamesearch_games.kalah,
        gamesearch_games.pig,
        gamesearch_games.tree,
        gamesearch_games.tictactoe,
    )
    assert shipped["default_game"] == "tictactoe"  # the tree has no board, pig has chance
    assert catalogue_of(gamesearch_games.kalah, gamesearch_games.connect4)["default_game"] == (
        "connect4"  # kalah's players do not take turns
    )
    assert catalogue_of(gamesearch_games.pig)["default_game"] == "pig"


def test_the_installed_catalogue_gives_each_game_its_plugins_look(client: TestClient) -> None:
    games = client.get("/api/games").json()["games"]
    assert games["connect4"]["look"]["kind"] == "drop"
    assert games["tictactoe"]["look"]["win_length_option"] == "k"
    assert games["othello"]["look"]["coordinates"] == "from-top"
    assert games["checkers"]["look"]["crowned"] == ["B", "W"]
    assert games["kalah"]["look"]["kind"] == "grid"


def test_a_finished_game_says_who_won_and_by_how_much(client: TestClient) -> None:
    end = "0,0,0,0,0,0/25/0,0,0,0,0,0/23 N 48"  # North has no seeds left: South 25, North 23
    state = client.post("/api/position", json={"game": "kalah", "position": end}).json()
    assert (state["is_over"], state["result_words"]) == (True, "South wins by 2")
    won = client.post("/api/position", json={"game": "tictactoe", "position": "XXX/OO./..."})
    assert won.json()["result_words"] == "X wins"  # a win is a win: no margin
    draw = client.post("/api/position", json={"game": "tictactoe", "position": "XOX/XOO/OXX"})
    assert draw.json()["result_words"] == "a draw"
    going = client.post("/api/new", json={"game": "tictactoe"}).json()
    assert going["result_words"] is None


def test_the_tree_says_the_depth_its_search_reached(client: TestClient) -> None:
    body = {
        "game": "tictactoe",
        "position": "XOX/OXO/...",
        "searcher": "iterative",
        "searcher_options": {"max_nodes": "2000"},
    }
    tree = client.post("/api/tree", json=body).json()
    assert tree["depth"] == 3
