"""Playing on the board page in real headless Chromium (Debian's ``chromium``, driven by
Playwright).

Each test plays on a real local server (127.0.0.1), as a person would: by mouse or by
keyboard alone, reading the status line. The search explorer, the move values, the
game record and the per-game drawings are in ``test_web_board_analysis.py``, which
reuses this module's fixtures and helpers. Screenshots go to ``artifacts/``.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed"
)

import gamesearch_games.connect4  # noqa: E402
import gamesearch_games.tictactoe  # noqa: E402
from gamesearch.boardview import BoardView  # noqa: E402
from gamesearch.plugins import Registry, build_registry, hookimpl, make_plugin_manager  # noqa: E402
from gamesearch.web.app import create_app  # noqa: E402
from gamesearch.web.server import BackgroundServer  # noqa: E402
from gamesearch.web.service import Limits  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
#: how long the page may take to show the answer of one request (a ceiling, not a measure)
WAIT_MS = 30_000

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not Path(CHROMIUM).exists(),
        reason="Debian's chromium is not installed (apt-get install chromium)",
    ),
]


def shipped_games(*plugins: object) -> Registry:
    """Return a registry of the built-in searchers, the shipped games and ``plugins``
    (and nothing else that happens to be installed)."""
    manager = make_plugin_manager(
        plugins=[gamesearch_games.tictactoe, gamesearch_games.connect4, *plugins],
        entry_points=False,
    )
    return build_registry(manager)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with BackgroundServer(create_app(shipped_games(), limits=Limits(seconds=5.0))) as url:
        yield url


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    """Return the test session's Chromium (conftest.py), which the modules that import this
    fixture share."""
    return chromium


@pytest.fixture
def page(board_context: Any) -> Iterator[Any]:
    """Yield the board tests' tab (``conftest.board_context``), blank; a test opens its
    board with ``goto``. Afterwards no script error may have been raised, and the tab is
    put back as it was: a blank page (so no document outlives its test; the board page
    keeps no cookies or storage), the window's size, no permissions, no routes. A tab a
    test left broken is closed, and the next test gets a new one."""
    tab = board_context.pages[0] if board_context.pages else board_context.new_page()
    tab.set_default_timeout(WAIT_MS)
    window = tab.viewport_size
    errors: list[str] = []

    def record(error: Any) -> None:
        errors.append(str(error))

    tab.on("pageerror", record)
    try:
        yield tab
        tab.goto("about:blank")
    except BaseException:
        tab.close()
        raise
    finally:
        tab.remove_listener("pageerror", record)
    tab.unroute_all()
    board_context.clear_permissions()
    if tab.viewport_size != window:
        tab.set_viewport_size(window)
    assert errors == []


def open_board(page: Any, server: str, query: str) -> None:
    page.goto(f"{server}/?{query}")
    wait_for_status(page, "to move", "Game over")


def wait_for_status(page: Any, *fragments: str) -> str:
    """Wait until the status line contains one of ``fragments``; return its text."""
    page.wait_for_function(
        "fragments => fragments.some(f => "
        "document.getElementById('status').textContent.includes(f))",
        arg=list(fragments),
        timeout=WAIT_MS,
    )
    return str(page.locator("#status").inner_text())


def wait_for_reply(page: Any, filled_before: int) -> str:
    """Wait until a move was made on a board that had ``filled_before`` marks, and the
    engine replied or the game ended; return the status line."""
    page.wait_for_function(
        """filledBefore => {
            const filled = [...document.querySelectorAll('#board .cell')]
                .filter(c => c.dataset.symbol).length;
            const status = document.getElementById('status').textContent;
            return filled > filledBefore
                && (status.includes('your turn') || status.includes('Game over'));
        }""",
        arg=filled_before,
        timeout=WAIT_MS,
    )
    return str(page.locator("#status").inner_text())


def board_symbols(page: Any) -> list[str]:
    """Return each cell's symbol, row by row from the top left."""
    return list(
        page.eval_on_selector_all("#board .cell", "cells => cells.map(c => c.dataset.symbol)")
    )


def filled(page: Any) -> int:
    return sum(symbol != "" for symbol in board_symbols(page))


def choose_searcher(page: Any, name: str, **options: str) -> None:
    """Choose the searcher in the set-up and type its options."""
    page.select_option("#searcher-select", name)
    if options:
        details = page.locator("#searcher-details")
        if details.get_attribute("open") is None:
            details.locator("summary").click()
        for option, value in options.items():
            page.fill(f"#searcher-option-{option}", value)


def cells_with(page: Any, css_class: str) -> list[int]:
    """Return the indexes of the cells that have ``css_class``."""
    return list(
        page.eval_on_selector_all(
            f"#board .cell.{css_class}", "cells => cells.map(c => Number(c.dataset.index))"
        )
    )


def screenshot(page: Any, name: str, **options: Any) -> Path:
    """Save a screenshot as ``artifacts/NAME.png`` and ``/tmp/NAME.png``; return the first."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), **options)
    shutil.copyfile(path, Path("/tmp") / f"{name}.png")
    assert path.stat().st_size > 5_000
    return path


# ----------------------------------------------------------------- tic-tac-toe
def test_a_full_tictactoe_game_by_clicking_ends_with_the_status_line_announcing_it(
    page: Any, server: str
) -> None:
    open_board(page, server, "game=tictactoe")
    choose_searcher(page, "alphabeta")
    status = page.locator("#status")
    assert (
        status.get_attribute("role") == "status" and status.get_attribute("aria-live") == "polite"
    )
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
    assert (
        page.evaluate("document.activeElement.getAttribute('aria-label')")
        == "empty, row 1, column 1"
    )
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


def test_the_winning_move_puts_game_over_in_the_status_line_at_once_and_draws_the_line(
    page: Any, server: str
) -> None:
    open_board(page, server, "game=tictactoe&position=XX./OO./...")
    with page.expect_response("**/api/play") as played:
        page.get_by_role("button", name="empty, row 1, column 3").click()
    assert played.value.ok
    # no other request is needed: the answer to the move itself updates the status line
    assert wait_for_status(page, "Game over") == "Game over: X wins."
    assert cells_with(page, "winning") == [0, 1, 2]
    assert cells_with(page, "last-move") == [2]
    line = page.locator("#board-lines line")
    assert line.count() == 1
    first, last = (
        page.locator("#board .cell").nth(0).bounding_box(),
        page.locator("#board .cell").nth(2).bounding_box(),
    )
    area = page.locator("#board-area").bounding_box()
    x1, x2 = (float(line.get_attribute(end)) + area["x"] for end in ("x1", "x2"))
    assert (
        abs(x1 - (first["x"] + first["width"] / 2)) < 2
        and abs(x2 - (last["x"] + last["width"] / 2)) < 2
    )
    assert page.get_by_role("button", name="Hint").is_disabled()
    assert page.get_by_role("button", name="Computer, move now").is_disabled()
    screenshot(page, "board-tictactoe-won", clip=page.locator("#play").bounding_box())


def test_the_computers_game_ending_move_is_announced_with_its_line(page: Any, server: str) -> None:
    # O threatens 3-4-5; X (the human) ignores it and the computer wins at once.
    open_board(page, server, "game=tictactoe&position=X../.OO/X..")
    choose_searcher(page, "alphabeta")
    page.get_by_role("button", name="empty, row 3, column 3").click()
    assert wait_for_status(page, "Game over") == "Game over: O wins."
    assert cells_with(page, "winning") == [3, 4, 5]
    assert page.locator("#analysis").inner_text().startswith("O played 3: O wins in 1 ply")


def test_hint_and_undo_and_the_page_stays_usable_while_the_engine_thinks(
    page: Any, server: str
) -> None:
    open_board(page, server, "game=tictactoe&position=XO./.O./X..")
    choose_searcher(page, "alphabeta")
    page.get_by_role("button", name="Hint").click()
    page.wait_for_function("document.getElementById('analysis').textContent.startsWith('Hint')")
    assert page.locator("#analysis").inner_text() == (
        "Hint for X: 3 (X wins in 1 ply; line 3). Found by Alpha-beta, searching to depth 5 "
        "(exact); a search with another budget (the explorer's, say) may value it otherwise."
    )
    assert cells_with(page, "hinted") == [3]
    page.locator("#board .cell.hinted").click()
    assert wait_for_status(page, "Game over") == "Game over: X wins."
    page.get_by_role("button", name="Undo").click()
    assert (
        board_symbols(page)[3] == ""
        and page.locator("#status").inner_text() == "X to move (your turn)."
    )
    # A search that takes a while: the engine thinks, the page still answers. The engine's
    # move is held back on its way to the server until the page has been tried, so the
    # search takes as long as the test needs, however loaded the machine.
    page.goto(f"{server}/?game=tictactoe&rows=5&cols=5&k=4")
    wait_for_status(page, "to move")
    choose_searcher(page, "iterative")
    page.fill("#engine-seconds", "0.1")
    held: list[Any] = []
    page.route("**/api/move", lambda route: held.append(route))
    page.get_by_role("button", name="Computer, move now").click()
    wait_for_status(page, "X is thinking…")
    assert page.locator("#board").get_attribute("aria-busy") == "true"
    page.locator("#board .cell").nth(12).click(force=True)  # ignored while the engine thinks
    assert filled(page) == 0
    page.get_by_role("button", name="New game", exact=True).click()  # answered at once
    assert wait_for_status(page, "X to move (your turn).")
    assert len(held) == 1
    with page.expect_response("**/api/move", timeout=WAIT_MS) as late_answer:
        held[0].continue_()
    assert late_answer.value.ok
    late_answer.value.finished()
    page.evaluate("() => new Promise(resolve => setTimeout(resolve, 0))")  # let the page handle it
    assert filled(page) == 0  # the late move was dropped
    assert page.locator("#status").inner_text() == "X to move (your turn)."


# ----------------------------------------------------------------- Connect Four
def test_connect_four_columns_fill_from_the_bottom_and_a_full_column_takes_no_click(
    page: Any, server: str
) -> None:
    open_board(page, server, "game=connect4")
    page.select_option("#player-1", "human")
    cells = page.locator("#board .cell")
    assert cells.count() == 42
    assert page.get_by_role("group", name="Columns").get_by_role("button").all_inner_texts() == [
        str(column) for column in range(1, 8)
    ]
    for move in range(6):
        cells.nth(0).click()  # a click on the top cell plays the column
        wait_for_status(page, "O to move" if move % 2 == 0 else "X to move")
    symbols = board_symbols(page)
    assert [symbols[row * 7] for row in range(6)] == ["O", "X", "O", "X", "O", "X"]
    assert cells.nth(0).get_attribute("aria-disabled") == "true"
    assert (
        page.get_by_role("button", name="column 1, full").get_attribute("aria-disabled") == "true"
    )
    cells.nth(0).click(force=True)  # the column is full: nothing happens
    assert board_symbols(page) == symbols
    cells.nth(7 * 3 + 3).click()  # the middle column, clicked half-way up
    wait_for_status(page, "O to move")
    assert board_symbols(page)[7 * 5 + 3] == "X"
    assert cells_with(page, "last-move") == [7 * 5 + 3]
    page.get_by_role(
        "button", name="column 4", exact=True
    ).click()  # the column's number plays it too
    wait_for_status(page, "X to move")
    assert board_symbols(page)[7 * 4 + 3] == "O"
    # the disc that was just played falls from above its column
    dropping = page.locator("#board .cell.dropping")
    assert [
        int(index) for index in dropping.evaluate_all("cells => cells.map(c => c.dataset.index)")
    ] == [7 * 4 + 3]
    assert (
        dropping.locator(".disc").evaluate("disc => getComputedStyle(disc).animationName") == "drop"
    )


def test_connect_four_by_keyboard_the_digit_keys_play_their_column(page: Any, server: str) -> None:
    open_board(page, server, "game=connect4")
    page.select_option("#player-1", "human")
    page.locator("#board .cell").first.focus()
    for key, cell in (("4", 38), ("4", 31), ("5", 39)):
        page.keyboard.press(key)
        page.wait_for_function(
            f"document.querySelectorAll('#board .cell')[{cell}].dataset.symbol !== ''"
        )
    assert (
        board_symbols(page)[38] == "X"
        and board_symbols(page)[31] == "O"
        and board_symbols(page)[39] == "X"
    )
    page.keyboard.press("9")  # no ninth column: nothing happens
    assert filled(page) == 3


def test_connect_four_four_in_a_row_lights_up_and_the_game_is_over(page: Any, server: str) -> None:
    open_board(page, server, "game=connect4&moves=1,1,2,2,3,3")
    page.select_option("#player-1", "human")
    page.get_by_role("button", name="column 4", exact=True).click()
    assert wait_for_status(page, "Game over") == "Game over: X wins."
    assert cells_with(page, "winning") == [35, 36, 37, 38]
    assert cells_with(page, "last-move") == [38]
    assert page.locator("#board-lines line").count() == 1
    assert page.locator('#board .cell[aria-disabled="false"]').count() == 0
    # let the last disc land before the picture (a finished animation leaves the list)
    page.wait_for_function("document.getAnimations().length === 0")
    screenshot(page, "board-connect4-won", clip=page.locator("#play").bounding_box())


def test_the_computer_thinks_about_a_second_by_default_and_the_time_can_be_changed(
    page: Any, server: str
) -> None:
    open_board(page, server, "game=connect4")
    page.select_option("#player-1", "human")
    choose_searcher(page, "iterative")
    assert page.locator("#engine-seconds").input_value() == "1"
    with page.expect_request("**/api/move") as request:
        page.get_by_role("button", name="Computer, move now").click()
    assert json.loads(request.value.post_data)["searcher_options"] == {"seconds": "1"}
    wait_for_status(page, "O to move")
    stats = request.value.response().json()["search"]["stats"]
    assert 0.5 < stats["seconds"] < 2.0, stats
    assert "depth" in page.locator("#analysis").inner_text()
    page.fill("#engine-seconds", "0.25")
    with page.expect_request("**/api/move") as request:
        page.get_by_role("button", name="Computer, move now").click()
    assert json.loads(request.value.post_data)["searcher_options"] == {"seconds": "0.25"}
    wait_for_status(page, "X to move")
    assert request.value.response().json()["search"]["stats"]["seconds"] < 1.0
    # a time given among the searcher's own options wins
    choose_searcher(page, "iterative", seconds="0.1")
    with page.expect_request("**/api/move") as request:
        page.get_by_role("button", name="Computer, move now").click()
    assert json.loads(request.value.post_data)["searcher_options"] == {"seconds": "0.1"}
    wait_for_status(page, "O to move")


# ------------------------------------------------------ games with other moves
def text_only_registry() -> Registry:
    class TextOnly(gamesearch_games.tictactoe.TicTacToe):
        """Tic-tac-toe that offers no board view."""

        name = "textonly"

        def board_view(self) -> None:
            return None

    class TextOnlyPlugin:
        @hookimpl
        def gamesearch_register_games(self, registry: Any) -> None:
            registry.add_game(TextOnly)

    return shipped_games(TextOnlyPlugin())


def test_a_game_without_a_board_view_is_drawn_as_text_with_a_button_per_legal_move(
    page: Any,
) -> None:
    with BackgroundServer(create_app(text_only_registry())) as url:
        page.goto(f"{url}/?game=textonly")
        wait_for_status(page, "X to move (your turn).")
        moves = page.get_by_role("group", name="Legal moves").get_by_role("button")
        assert moves.all_inner_texts() == [f"Play {cell}" for cell in range(9)]
        assert page.locator("#board").is_hidden()
        page.get_by_role("button", name="Play 4").click()
        page.wait_for_function("document.querySelectorAll('#move-list button').length === 7")
        assert page.locator("#text-board").inner_text().splitlines()[1] == ". X ."
        assert page.locator("#status").inner_text() == "X to move (your turn)."
        assert page.get_by_role("group", name="Game record").get_by_role(
            "button"
        ).all_inner_texts() == ["Start", "X 4", "O 0"]


@attrs.frozen
class BoardViewWithExtras(BoardView):
    """A board view that also offers moves that are not cells (as a "pass" would be)."""

    extra_moves: tuple[tuple[str, str], ...] = ()


def extra_moves_registry() -> Registry:
    class CentreButton(gamesearch_games.tictactoe.TicTacToe):
        """Tic-tac-toe whose board view also offers the centre as a button."""

        name = "centrebutton"

        def board_view(self) -> BoardView:
            view = super().board_view()
            return BoardViewWithExtras(
                view.rows, view.cols, view.symbols, view.moves, (("Take the centre", "4"),)
            )

    class CentrePlugin:
        @hookimpl
        def gamesearch_register_games(self, registry: Any) -> None:
            registry.add_game(CentreButton)

    return shipped_games(CentrePlugin())


def test_moves_that_are_not_cells_get_a_button_beside_the_board(page: Any) -> None:
    with BackgroundServer(create_app(extra_moves_registry())) as url:
        page.goto(f"{url}/?game=centrebutton")
        wait_for_status(page, "X to move (your turn).")
        other = page.get_by_role("group", name="Other moves")
        assert other.get_by_role("button").all_inner_texts() == ["Take the centre"]
        page.select_option("#searcher-select", "alphabeta")
        page.get_by_label("Show move values").check()
        page.wait_for_selector("#extra-moves .move-button .value")
        # the button carries the move's value like a cell does: the centre draws
        assert (
            other.get_by_role("button").get_attribute("aria-label")
            == "Take the centre, value 0, a best move"
        )
        other.get_by_role("button").click()
        page.wait_for_function(
            "document.querySelectorAll('#board .cell[data-symbol=\"O\"]').length === 1"
        )
        wait_for_status(page, "X to move (your turn).")  # O (the computer) replied
        assert board_symbols(page)[4] == "X"
        assert other.get_by_role("button").is_disabled()  # the centre is taken
