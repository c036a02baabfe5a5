"""Checkers on the board page in real headless Chromium: discs with crowns, moves of two
clicks (a piece, then where it goes), the count toward a draw under the board.

The server and browser come from ``test_web_e2e.py``; screenshots go to ``artifacts/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from test_web_e2e import (  # noqa: E402, F401  (browser and page are fixtures)
    BackgroundServer,
    board_symbols,
    browser,
    cells_with,
    choose_searcher,
    create_app,
    open_board,
    page,
    pytestmark,
    screenshot,
    shipped_games,
    wait_for_status,
)

import gamesearch_games.checkers  # noqa: E402
from gamesearch.web.service import Limits  # noqa: E402


def cell(square: int) -> int:
    """Return the board view's cell of a square number (Black at the top, four squares a row)."""
    row = (square - 1) // 4
    return row * 8 + 2 * ((square - 1) % 4) + (row + 1) % 2


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The server of the board page with checkers (the page fixture opens it)."""
    with BackgroundServer(
        create_app(shipped_games(gamesearch_games.checkers), limits=Limits(seconds=5.0))
    ) as url:
        yield url


def open_position(page: Any, server: str, position: str) -> None:
    open_board(page, server, f"game=checkers&position={quote(position)}")
    page.select_option("#player-1", "human")


def test_the_start_shows_discs_on_the_dark_squares_and_no_crown(page: Any, server: str) -> None:
    page.goto(f"{server}/?game=checkers")
    wait_for_status(page, "Black to move")
    symbols = board_symbols(page)
    assert [index for index, symbol in enumerate(symbols) if symbol == "b"] == [
        cell(n) for n in range(1, 13)
    ]
    assert [index for index, symbol in enumerate(symbols) if symbol == "w"] == [
        cell(n) for n in range(21, 33)
    ]
    assert (
        page.locator("#board .disc").count() == 24
        and page.locator("#board .disc.crowned").count() == 0
    )
    assert set(cells_with(page, "dark")) >= {cell(n) for n in range(1, 33)}
    assert page.locator("#board-caption").is_hidden()


def test_a_chain_of_jumps_is_played_by_clicking_the_king_then_its_last_square(
    page: Any, server: str
) -> None:
    open_position(page, server, "B:W14,23:BK9,12")
    king = page.locator("#board .cell").nth(cell(9))
    assert king.locator(".disc.crowned").count() == 1
    assert king.get_attribute("aria-label") == "black king, row 3, column 2, can move"
    assert (
        page.locator("#board .cell").nth(cell(12)).get_attribute("aria-disabled") == "true"
    )  # it must not move
    king.click()
    assert cells_with(page, "selected") == [cell(9)] and cells_with(page, "target") == [cell(27)]
    target = page.locator("#board .cell").nth(cell(27))
    assert target.get_attribute("aria-label").endswith(", plays 9x18x27")
    screenshot(page, "checkers-picked-king", clip=page.locator("#play").bounding_box())
    target.click()
    assert wait_for_status(page, "Game over") == "Game over: Black wins."
    symbols = board_symbols(page)
    assert (
        symbols[cell(27)] == "B"
        and symbols[cell(14)] == symbols[cell(23)] == symbols[cell(9)] == ""
    )
    assert (
        page.get_by_role("group", name="Game record").get_by_role("button").all_inner_texts()[-1]
        == "Black 9x18x27"
    )


def test_a_second_click_elsewhere_drops_the_piece_and_picks_another(page: Any, server: str) -> None:
    open_position(page, server, "B:W32:B14,K19")
    cells = page.locator("#board .cell")
    cells.nth(cell(14)).click()
    assert sorted(cells_with(page, "target")) == sorted([cell(17), cell(18)])
    cells.nth(cell(19)).click()
    assert cells_with(page, "selected") == [cell(19)] and len(cells_with(page, "target")) == 4
    cells.nth(0).click(force=True)  # a light square, which plays nothing: the piece is dropped
    assert cells_with(page, "selected") == [] and cells_with(page, "target") == []
    cells.nth(cell(19)).click()
    cells.nth(cell(15)).click()
    wait_for_status(page, "White to move")
    assert board_symbols(page)[cell(15)] == "B"
    assert (
        page.locator("#board-caption").inner_text()
        == "1 ply without a capture or a man's move (a draw at 80)"
    )


def test_two_chains_between_the_same_squares_are_offered_as_buttons(page: Any, server: str) -> None:
    open_position(page, server, "B:W9,10,17,18:BK6")
    cells = page.locator("#board .cell")
    cells.nth(cell(6)).click()
    cells.nth(cell(6)).click()  # both chains come back to the king's square
    choices = page.get_by_role("group", name="Other moves").get_by_role("button")
    assert choices.all_inner_texts() == ["Play 6x13x22x15x6", "Play 6x15x22x13x6"]
    choices.nth(1).click()
    assert wait_for_status(page, "Game over") == "Game over: Black wins."
    assert board_symbols(page).count("B") == 1 and board_symbols(page).count("w") == 0


def test_the_caption_counts_the_quiet_plies_of_a_given_position(page: Any, server: str) -> None:
    open_position(page, server, "B:WK10:BK20 7 31")
    assert (
        page.locator("#board-caption").inner_text()
        == "7 plies without a capture or a man's move (a draw at 80)"
    )
    assert page.locator("#board .disc.crowned").count() == 2


def test_move_values_show_on_the_squares_the_picked_piece_can_reach(page: Any, server: str) -> None:
    open_position(page, server, "B:W32:B14,K19")
    choose_searcher(page, "alphabeta", depth="2")
    page.get_by_label("Show move values").check()
    page.wait_for_function("!document.getElementById('values-legend').hidden")
    # no piece picked yet: each piece that can move shows the best value of its moves
    valued = page.locator("#board .cell:has(.value)")
    assert sorted(
        int(index) for index in valued.evaluate_all("cells => cells.map(c => c.dataset.index)")
    ) == sorted([cell(14), cell(19)])
    for square in (14, 19):
        label = page.locator("#board .cell").nth(cell(square)).get_attribute("aria-label")
        assert ", its best move: value " in label and ", can move" in label, label
    page.locator("#board .cell").nth(cell(14)).click()
    page.wait_for_function("document.querySelectorAll('#board .cell.target .value').length === 2")
    label = page.locator("#board .cell").nth(cell(18)).get_attribute("aria-label")
    assert ", plays 14-18" in label and ", value " in label
