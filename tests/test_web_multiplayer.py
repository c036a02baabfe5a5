"""The browser board on a game of three players: A plays against two computers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from test_web_e2e import (
    board_symbols,
    browser,
    choose_searcher,
    open_board,
    page,
    pytestmark,
    screenshot,
    wait_for_status,
)  # noqa: E402, F401

import gamesearch_games.mnk3  # noqa: E402
from gamesearch.plugins import build_registry, make_plugin_manager  # noqa: E402
from gamesearch.web.app import create_app  # noqa: E402
from gamesearch.web.server import BackgroundServer  # noqa: E402
from gamesearch.web.service import Limits  # noqa: E402

__all__ = ["browser", "page", "pytestmark"]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    manager = make_plugin_manager(plugins=[gamesearch_games.mnk3], entry_points=False)
    with BackgroundServer(create_app(build_registry(manager), limits=Limits(seconds=5.0))) as url:
        yield url


def test_a_three_player_game_against_two_computers_runs_to_its_end(page: Any, server: str) -> None:
    open_board(page, server, "game=mnk3")
    # alpha-beta cannot search three players: the page takes the game's own searcher
    assert page.locator("#searcher-select").input_value() == "maxn"
    assert [page.locator(f"#player-{index}").input_value() for index in range(3)] == [
        "human",
        "computer",
        "computer",
    ]
    assert "C (moves third)" in page.locator("#players").inner_text()
    status = page.locator("#status")
    assert status.inner_text() == "A to move (your turn)."
    # two plies deep rather than to the end of the board: the game ends all the same
    choose_searcher(page, "maxn", depth="2")
    for _ in range(4):
        if "Game over" in status.inner_text():
            break
        marks = sum(symbol != "" for symbol in board_symbols(page))
        page.locator('#board .cell[aria-disabled="false"]').first.click()
        page.wait_for_function(
            """marks => {
                const filled = [...document.querySelectorAll('#board .cell')]
                    .filter(c => c.dataset.symbol).length;
                const status = document.getElementById('status').textContent;
                return (filled >= marks + 3 && status.includes('your turn'))
                    || status.includes('Game over');
            }""",
            arg=marks,
        )
    text = wait_for_status(page, "Game over")
    assert text in (
        "Game over: a draw.",
        "Game over: B wins.",
        "Game over: C wins.",
        "Game over: A wins.",
    ), text
    assert set(board_symbols(page)) <= {"A", "B", "C", ""}
    screenshot(page, "board-mnk3", clip=page.locator("#play").bounding_box())
