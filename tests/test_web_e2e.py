"""The board page in real headless Chromium (Debian's ``chromium``, driven by Playwright).

Each test plays on a real local server, as a person would: by mouse or by keyboard
alone, reading the status line. A screenshot of the page is saved to
``artifacts/web-board.png``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from gamesearch.web.app import create_app  # noqa: E402
from gamesearch.web.server import BackgroundServer  # noqa: E402
from gamesearch.web.service import Limits  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: how long the page may take to show the answer of one request (a ceiling, not a measure)
WAIT_MS = 30_000

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed (apt-get install chromium)"
)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with BackgroundServer(create_app(limits=Limits(seconds=5.0))) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 1000})
    new_page = context.new_page()
    errors: list[str] = []
    new_page.on("pageerror", lambda error: errors.append(str(error)))
    new_page.set_default_timeout(WAIT_MS)
    yield new_page
    context.close()
    assert errors == []


def open_board(page: Any, server: str, query: str) -> None:
    page.goto(f"{server}/?{query}")
    wait_for_status(page, "to move")


def wait_for_status(page: Any, *fragments: str) -> str:
    """Wait until the status line contains one of ``fragments``; return its text."""
    page.wait_for_function(
        "fragments => fragments.some(f => document.getElementById('status').textContent.includes(f))",
        arg=list(fragments),
        timeout=WAIT_MS,
    )
    return page.locator("#status").inner_text()


def wait_for_reply(page: Any, filled_before: int) -> str:
    """Wait until a move was made on a board that had ``filled_before`` marks, and the
    engine replied or the game ended; return the status line."""
    page.wait_for_function(
        """filledBefore => {
            const filled = [...document.querySelectorAll('#board .cell')].filter(c => c.textContent).length;
            const status = document.getElementById('status').textContent;
            return filled > filledBefore && (status.includes('your turn') || status.includes('Game over'));
        }""",
        arg=filled_before,
        timeout=WAIT_MS,
    )
    return page.locator("#status").inner_text()


def filled(page: Any) -> int:
    return sum(symbol != "" for symbol in board_symbols(page))


def board_symbols(page: Any) -> list[str]:
    return page.locator("#board .cell").all_inner_texts()


def choose_searcher(page: Any, name: str) -> None:
    page.select_option("#searcher-select", name)


def test_a_full_tictactoe_game_by_clicking_ends_with_the_status_line_announcing_it(page: Any, server: str) -> None:
    open_board(page, server, "game=tictactoe")
    choose_searcher(page, "alphabeta")
    status = page.locator("#status")
    assert status.get_attribute("role") == "status" and status.get_attribute("aria-live") == "polite"
    assert status.inner_text() == "X to move (your turn)."
    for _ in range(5):
        if "Game over" in status.inner_text():
            break
        before = board_symbols(page)
        occupied = page.locator('#board .cell[aria-disabled="true"]')
        if occupied.count():  # clicking a taken cell does nothing
            occupied.first.click(force=True)
            assert board_symbols(page) == before
        page.locator('#board .cell[aria-disabled="false"]').first.click()
        wait_for_reply(page, len(before) - before.count(""))
    text = status.inner_text()
    assert text in ("Game over: a draw.", "Game over: O wins."), text
    assert page.locator('#board .cell[aria-disabled="false"]').count() == 0


def test_a_full_tictactoe_game_with_the_keyboard_alone(page: Any, server: str) -> None:
    open_board(page, server, "game=tictactoe")
    page.locator("#searcher-select").focus()
    page.keyboard.press("Home")  # alphabeta is listed first
    for _ in range(60):  # Tab through the page to the first cell of the board
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('cell')"):
            break
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "empty, row 1, column 1"
    keys = ["Enter", "Space"]
    for turn in range(5):
        for _ in range(9):  # arrow right (round the board) to the next free cell
            if page.evaluate("document.activeElement.getAttribute('aria-disabled')") == "false":
                break
            page.keyboard.press("ArrowRight")
        marks = filled(page)
        page.keyboard.press(keys[turn % 2])
        if "Game over" in wait_for_reply(page, marks):
            break
    assert wait_for_status(page, "Game over") in ("Game over: a draw.", "Game over: O wins.")
    assert page.evaluate("document.activeElement.classList.contains('cell')")


def test_connect_four_columns_fill_from_the_bottom_and_a_full_column_takes_no_click(page: Any, server: str) -> None:
    open_board(page, server, "game=connect4")
    page.select_option("#player-1", "human")
    cells = page.locator("#board .cell")
    assert cells.count() == 42
    column = 1  # the first column; cells are listed row by row from the top
    for move in range(6):
        cells.nth(column - 1).click()  # a click on the top cell plays the column
        wait_for_status(page, "O to move" if move % 2 == 0 else "X to move")
    symbols = board_symbols(page)
    assert [symbols[row * 7] for row in range(6)] == ["O", "X", "O", "X", "O", "X"]
    assert cells.nth(0).get_attribute("aria-disabled") == "true"
    cells.nth(0).click(force=True)  # the column is full: nothing happens
    assert board_symbols(page) == symbols
    cells.nth(7 * 3 + 3).click()  # the middle column, clicked half-way up
    wait_for_status(page, "O to move")
    assert board_symbols(page)[7 * 5 + 3] == "X"
    choose_searcher(page, "iterative")
    page.locator("#searcher-details summary").click()
    page.fill("#searcher-option-seconds", "0.3")
    page.get_by_role("button", name="Computer, move now").click()
    wait_for_status(page, "X to move")
    assert filled(page) == 8
    assert page.locator("#analysis").inner_text().startswith("O played ")


def test_the_explorer_shows_14_nodes_for_minimax_and_10_with_alpha_beta(page: Any, server: str) -> None:
    open_board(page, server, "game=tictactoe&position=.../OOX/XXO")
    assert board_symbols(page) == ["", "", "", "O", "O", "X", "X", "X", "O"]
    summary = page.locator("#tree-summary")
    page.get_by_label("Alpha-beta pruning").uncheck()
    page.get_by_role("button", name="Show the search tree").click()
    page.wait_for_function("document.getElementById('tree-summary').textContent.startsWith('Minimax')")
    assert summary.inner_text().startswith("Minimax visited 14 nodes")
    assert page.locator("#tree .pruned").count() == 0
    page.get_by_label("Alpha-beta pruning").check()
    page.wait_for_function("document.getElementById('tree-summary').textContent.startsWith('Alpha-beta')")
    assert summary.inner_text().startswith("Alpha-beta visited 10 nodes and cut off 2 branches")
    assert page.locator("#tree .pruned").count() == 2
    assert page.locator("#step-count").inner_text() == "Node 10 of 10"
    page.get_by_role("button", name="First node").click()
    assert page.locator("#step-count").inner_text() == "Node 1 of 10"
    assert page.locator("#tree .node.current").inner_text().startswith("start, X to move: value …")
    page.get_by_role("button", name="Next node").click()
    assert page.locator("#step-count").inner_text() == "Node 2 of 10"
    assert page.locator("#tree .node.current").inner_text().startswith("X plays 0: value …")
    page.get_by_role("button", name="Whole tree").click()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-board.png"), full_page=True)
    assert (ARTIFACTS / "web-board.png").stat().st_size > 10_000


def test_hint_and_undo_and_the_page_stays_usable_while_the_engine_thinks(page: Any, server: str) -> None:
    open_board(page, server, "game=tictactoe&position=XO./.O./X..")
    choose_searcher(page, "alphabeta")
    page.get_by_role("button", name="Hint").click()
    page.wait_for_function("document.getElementById('analysis').textContent.startsWith('Hint')")
    assert page.locator("#analysis").inner_text() == "Hint for X: 3 (X wins in 1 ply; line 3)."
    assert page.locator("#board .cell.hinted").get_attribute("aria-label") == "empty, row 2, column 1"
    page.get_by_role("button", name="empty, row 2, column 1").click()
    assert wait_for_status(page, "Game over") == "Game over: X wins."
    page.get_by_role("button", name="Undo").click()
    assert board_symbols(page)[3] == "" and page.locator("#status").inner_text() == "X to move (your turn)."
    # A search that takes a while: the engine thinks, the page still answers.
    page.goto(f"{server}/?game=tictactoe&rows=5&cols=5&k=4")
    wait_for_status(page, "to move")
    choose_searcher(page, "iterative")
    page.locator("#searcher-details summary").click()
    page.fill("#searcher-option-seconds", "2")
    with page.expect_response("**/api/move", timeout=WAIT_MS) as late_answer:
        page.get_by_role("button", name="Computer, move now").click()
        wait_for_status(page, "X is thinking…")
        assert page.locator("#board").get_attribute("aria-busy") == "true"
        page.locator("#board .cell").nth(12).click(force=True)  # ignored while the engine thinks
        assert filled(page) == 0
        page.get_by_role("button", name="New game", exact=True).click()  # answered at once
        assert wait_for_status(page, "X to move (your turn).")
    assert late_answer.value.ok
    late_answer.value.finished()
    page.evaluate("() => new Promise(resolve => setTimeout(resolve, 0))")  # let the page handle it
    assert filled(page) == 0  # the late move was dropped
    assert page.locator("#status").inner_text() == "X to move (your turn)."


def test_a_game_without_a_board_view_is_drawn_as_text_with_a_button_per_legal_move(browser: Any) -> None:
    from games.tictactoe import TicTacToe
    from gamesearch.plugins import build_registry, hookimpl, make_plugin_manager

    class TextOnly(TicTacToe):
        """Tic-tac-toe that offers no board view."""

        name = "textonly"

        def board_view(self) -> None:
            return None

    class TextOnlyPlugin:
        @hookimpl
        def gamesearch_register_games(self, registry: Any) -> None:
            registry.add_game(TextOnly)

    registry = build_registry(make_plugin_manager(plugins=[TextOnlyPlugin()]))
    with BackgroundServer(create_app(registry)) as url:
        page = browser.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(f"{url}/?game=textonly")
        wait_for_status(page, "X to move (your turn).")
        moves = page.get_by_role("group", name="Legal moves").get_by_role("button")
        assert moves.all_inner_texts() == [f"Play {cell}" for cell in range(9)]
        assert page.locator("#board").is_hidden()
        page.get_by_role("button", name="Play 4").click()
        page.wait_for_function("document.querySelectorAll('#move-list button').length === 7")
        assert page.locator("#text-board").inner_text().splitlines()[1] == ". X ."
        assert page.locator("#status").inner_text() == "X to move (your turn)."
        page.close()
