"""Chess on the board page in real headless Chromium: pieces as glyphs on a checkered
board, moves of two clicks (a piece, then its square), a promotion's four choices as
buttons, castling rights and the 75-move count under the board.

The server and browser come from ``test_web_e2e.py``; screenshots go to ``artifacts/``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip(
    "gamesearch_chess",
    reason="the chess plugin is not installed: pip install -e docs/examples/gamesearch-chess",
)

import gamesearch_chess  # noqa: E402
from test_web_e2e import (  # noqa: E402, F401  (browser and page are fixtures)
    WAIT_MS,
    BackgroundServer,
    board_symbols,
    browser,
    cells_with,
    create_app,
    open_board,
    page,
    pytestmark,
    screenshot,
    shipped_games,
    wait_for_status,
)

from gamesearch.web.service import Limits  # noqa: E402

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


def cell(square: str) -> int:
    """Return the board view's cell of a square named like ``e4`` (rank 8 at the top)."""
    return (8 - int(square[1])) * 8 + "abcdefgh".index(square[0])


def expected_symbols(placement: str) -> list[str]:
    """Return the cells of a FEN's piece placement, row by row from a8 ("" for empty)."""
    cells: list[str] = []
    for char in placement.replace("/", ""):
        cells += [""] * int(char) if char.isdigit() else [char]
    return cells


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The server of the board page with chess (the page fixture opens it)."""
    with BackgroundServer(
        create_app(shipped_games(gamesearch_chess), limits=Limits(seconds=5.0))
    ) as url:
        yield url


def open_position(page: Any, server: str, position: str) -> None:
    open_board(page, server, f"game=chess&position={quote(position)}")
    page.select_option("#player-1", "human")


def test_the_start_shows_the_pieces_as_glyphs_and_the_castling_rights(
    page: Any, server: str
) -> None:
    page.goto(f"{server}/?game=chess")
    wait_for_status(page, "White to move")
    assert board_symbols(page) == expected_symbols(START)
    glyphs = (
        page.locator("#board .cell").nth(cell("e1")).inner_text()
        + page.locator("#board .cell").nth(cell("d8")).inner_text()
    )
    assert "♔" in glyphs and "♛" in glyphs
    assert (
        page.locator("#board-caption").inner_text()
        == "castling KQkq, 0 of 150 plies toward the 75-move rule"
    )


def test_a_move_is_a_click_on_the_piece_then_on_its_square(page: Any, server: str) -> None:
    open_position(page, server, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    knight = page.locator("#board .cell").nth(cell("g1"))
    assert knight.get_attribute("aria-label").endswith(", can move")
    knight.click()
    assert cells_with(page, "selected") == [cell("g1")]
    assert sorted(cells_with(page, "target")) == sorted([cell("f3"), cell("h3")])
    page.locator("#board .cell").nth(cell("f3")).click()
    wait_for_status(page, "Black to move")
    assert board_symbols(page) == expected_symbols("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R")
    assert (
        page.locator("#board-caption").inner_text()
        == "castling KQkq, 1 of 150 plies toward the 75-move rule"
    )


def test_a_promotion_offers_its_four_pieces_as_buttons(page: Any, server: str) -> None:
    open_position(page, server, "8/P7/8/8/8/8/8/k6K w - - 0 1")
    page.locator("#board .cell").nth(cell("a7")).click()
    page.locator("#board .cell").nth(cell("a8")).click()
    buttons = page.locator("#extra-moves button")
    assert sorted(buttons.all_inner_texts()) == [
        "Play a7a8b",
        "Play a7a8n",
        "Play a7a8q",
        "Play a7a8r",
    ]
    screenshot(page, "chess-promotion", clip=page.locator("#play").bounding_box())
    page.get_by_role("button", name="Play a7a8q").click()
    wait_for_status(page, "Black to move")
    assert board_symbols(page)[cell("a8")] == "Q"


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    """The URL of a ``gamesearch serve`` process (its searches run in worker processes,
    which receive each position pickled), searching half a second a move: the computer's
    only reply needs no more."""
    process = subprocess.Popen(
        [str(Path(sys.executable).with_name("gamesearch")), "serve", "--port", "0"]
        + ["--max-seconds", "0.5"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        first_line = process.stdout.readline()
        assert first_line.startswith("gamesearch board on http://127.0.0.1:"), first_line
        yield first_line.split()[3]
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)


def test_a_whole_short_game_against_the_computer_through_gamesearch_serve(
    page: Any, served: str
) -> None:
    # White (the person) mates in two: Rh7 leaves Black (the computer) one move, Kb8,
    # and Rh8 mates; the computer's reply is searched in a worker process
    open_board(page, served, f"game=chess&position={quote('k7/8/1K6/8/8/8/8/7R w - - 0 1')}")
    assert page.locator("#player-1").input_value() == "computer"
    page.locator("#board .cell").nth(cell("h1")).click()
    with page.expect_response("**/api/move") as reply:
        page.locator("#board .cell").nth(cell("h7")).click()
    assert reply.value.status == 200, reply.value.text()
    # the computer's reply comes in a request of its own: wait for the board to show it
    # (the status line read "White to move" before the person's move too)
    replied = expected_symbols("1k6/7R/1K6/8/8/8/8/8")
    page.wait_for_function(
        "symbols => [...document.querySelectorAll('#board .cell')]"
        ".map(c => c.dataset.symbol).join(',') === symbols.join(',')",
        arg=replied,
        timeout=WAIT_MS,
    )
    wait_for_status(page, "White to move (your turn)")
    assert board_symbols(page) == replied
    page.locator("#board .cell").nth(cell("h7")).click()
    page.locator("#board .cell").nth(cell("h8")).click()
    assert wait_for_status(page, "Game over") == "Game over: White wins."
    assert board_symbols(page) == expected_symbols("1k5R/8/1K6/8/8/8/8/8")
