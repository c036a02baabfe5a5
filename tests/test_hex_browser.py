"""Hex on the board page, in real headless Chromium: a rhombus of hexagons whose sides
wear their players' colours, played by clicking a cell. Fixtures and helpers come from
``test_web_e2e.py``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from test_web_e2e import (  # noqa: E402, F401  (browser and page are fixtures)
    BackgroundServer,
    board_symbols,
    browser,
    choose_searcher,
    create_app,
    open_board,
    page,
    pytestmark,
    screenshot,
    wait_for_reply,
)

import gamesearch_games.hex  # noqa: E402
from gamesearch.plugins import build_registry, make_plugin_manager  # noqa: E402
from gamesearch.web.service import Limits  # noqa: E402


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    manager = make_plugin_manager(plugins=[gamesearch_games.hex], entry_points=False)
    with BackgroundServer(create_app(build_registry(manager), limits=Limits(seconds=5.0))) as url:
        yield url


def centres(page: Any) -> list[tuple[float, float]]:
    """Return the centre of each cell as drawn on the page, row by row."""
    boxes = page.eval_on_selector_all(
        "#board .cell",
        "cells => cells.map(c => { const b = c.getBoundingClientRect(); "
        "return [b.left + b.width / 2, b.top + b.height / 2, b.width]; })",
    )
    return [(x, y) for x, y, _ in boxes]


def test_hex_is_a_rhombus_of_hexagons_with_coloured_sides_and_a_click_plays_a_cell(
    page: Any, server: str
) -> None:
    open_board(page, server, "game=hex&size=3")
    choose_searcher(page, "solver")
    board = page.locator("#board")
    assert board.get_attribute("data-look") == "hexes"
    # each row starts half a cell right of the one above, a little less than a cell lower
    at = centres(page)
    width = page.locator("#board .cell").first.bounding_box()["width"]
    for row in (1, 2):
        shift_x, shift_y = at[3 * row][0] - at[3 * (row - 1)][0], at[3 * row][1] - at[0][1]
        assert abs(shift_x - width / 2) < 2 and 0 < shift_y < row * width
    assert (
        page.locator("#board .cell").first.evaluate("c => getComputedStyle(c).clipPath") != "none"
    )
    sides = page.eval_on_selector_all(
        "#board-lines .board-edge", "lines => lines.map(l => [l.dataset.side, l.dataset.player])"
    )
    assert dict(sides) == {"top": "0", "bottom": "0", "left": "1", "right": "1"}
    # Black plays the centre by clicking it; the computer (White) answers on another cell
    page.get_by_label("empty, row 2, column 2").click()
    wait_for_reply(page, 1)  # both stones on the board, Black to move again
    symbols = board_symbols(page)
    assert symbols[4] == "B" and symbols.count("W") == 1 and symbols.count("B") == 1
    assert page.locator('#board .cell[data-index="4"] .disc').count() == 1
    assert page.locator('#board .cell[data-index="4"]').get_attribute("aria-disabled") == "true"
    screenshot(page, "board-look-hex", clip=page.locator("#play").bounding_box())
