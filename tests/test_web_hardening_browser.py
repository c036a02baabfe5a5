"""Requests from other origins and rebound host names, in real headless Chromium.

A page of another origin on this machine (the server's own health page reached as
``localhost`` rather than ``127.0.0.1``: another origin to the browser) posts to the
board's server as a no-cors ``text/plain`` form would; a name that DNS rebinds
to 127.0.0.1 (Chromium's host resolver rules) loads the board. Neither reaches a search.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_gate import gated_registry

pytest.importorskip("starlette", reason="the web extra is not installed")
playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed"
)

# the board tests' tab (test_web_e2e.page): it lets the page's own scripts past the
# answers' Content-Security-Policy, which would stop another origin's fetch in the browser
# before it reached the server, whose own checks are under test; conftest.py's Chromium
# resolves rebound.test to 127.0.0.1, as a DNS rebinding would
from test_web_e2e import page  # noqa: E402

from gamesearch.web.app import create_app  # noqa: E402
from gamesearch.web.server import BackgroundServer  # noqa: E402
from gamesearch.web.service import Limits  # noqa: E402

__all__ = ["page"]

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not Path(CHROMIUM).exists(),
        reason="Debian's chromium is not installed (apt-get install chromium)",
    ),
]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with BackgroundServer(create_app(gated_registry(), Limits(seconds=5.0))) as url:
        yield url


def other_origin_page(page: Any, server: str) -> None:
    page.goto(server.replace("127.0.0.1", "localhost") + "/api/health")


def gate_body(stem: Path) -> str:
    return json.dumps(
        {"game": "tictactoe", "searcher": "gate", "searcher_options": {"path": str(stem)}}
    )


def test_a_no_cors_text_post_from_another_origin_runs_no_search(
    page: Any, server: str, tmp_path: Path
) -> None:
    stem = tmp_path / "gate"
    other_origin_page(page, server)
    sent = page.evaluate(
        """async ([url, body]) => {
            const answer = await fetch(url, {method: "POST", mode: "no-cors", body,
                                             headers: {"Content-Type": "text/plain"}});
            return answer.type;
        }""",
        [f"{server}/api/analyze", gate_body(stem)],
    )
    assert sent == "opaque"  # the browser sent it; the server must have refused it
    time.sleep(0.5)
    assert not (stem.parent / "gate.started").exists()


def test_a_cross_origin_json_post_gets_no_answer_and_runs_no_search(
    page: Any, server: str, tmp_path: Path
) -> None:
    stem = tmp_path / "gate"
    other_origin_page(page, server)
    outcome = page.evaluate(
        """async ([url, body]) => {
            try {
                const headers = {"Content-Type": "application/json"};
                await fetch(url, {method: "POST", body, headers});
                return "answered";
            } catch (error) { return "blocked"; }
        }""",
        [f"{server}/api/analyze", gate_body(stem)],
    )
    assert outcome == "blocked"
    time.sleep(0.5)
    assert not (stem.parent / "gate.started").exists()


def test_the_boards_own_page_still_posts_searches(page: Any, server: str) -> None:
    page.goto(f"{server}/api/health")
    answer = page.evaluate(
        """async url => {
            const body = JSON.stringify({game: "tictactoe", position: "X.O/.X./..."});
            const headers = {"Content-Type": "application/json"};
            const answer = await fetch(url, {method: "POST", headers, body});
            return [answer.status, await answer.json()];
        }""",
        f"{server}/api/analyze",
    )
    assert answer[0] == 200 and answer[1]["best_moves"] == ["8"]


def test_a_name_rebound_to_this_machine_reads_nothing(page: Any, server: str) -> None:
    port = server.rsplit(":", 1)[1]
    response = page.goto(f"http://rebound.test:{port}/api/health")
    assert response.status == 400
    assert page.content().find("requests for the host name") >= 0
