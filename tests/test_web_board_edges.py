"""The board page's rough edges, each as a person meets it in headless Chromium.

Every installed game is served (chess from its example plugin, when installed). The
page's own Content-Security-Policy is in force in the first test; the others let the
tests' probes run (see ``conftest.board_context``).
"""

from __future__ import annotations

import pickle
import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from playwright.sync_api import expect  # noqa: E402
from test_web_e2e import (  # noqa: E402, F401  (browser and page are fixtures)
    WAIT_MS,
    board_symbols,
    browser,
    choose_searcher,
    open_board,
    page,
    pytestmark,
    screenshot,
    wait_for_status,
)

from gamesearch.plugins import default_registry  # noqa: E402
from gamesearch.web.app import create_app  # noqa: E402
from gamesearch.web.server import BackgroundServer  # noqa: E402
from gamesearch.web.service import Limits  # noqa: E402

__all__ = ["browser", "page", "pytestmark"]

needs_chess = pytest.mark.skipif(
    "chess" not in default_registry().games, reason="the chess example plugin is not installed"
)


def chess_survives_pickling() -> bool:
    """Return whether a chess position works after a pickle round trip (the server's worker
    processes receive positions so)."""
    copy = pickle.loads(pickle.dumps(default_registry().new_game("chess")))
    return copy.result() is None  # the start: not over


needs_chess_searches = pytest.mark.skipif(
    "chess" not in default_registry().games or not chess_survives_pickling(),
    reason="chess positions do not survive pickling, so the server's workers cannot search them",
)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with BackgroundServer(create_app(limits=Limits(seconds=5.0))) as url:
        yield url


def show_values(page: Any) -> None:
    page.get_by_label("Show move values").check()
    page.wait_for_function("!document.getElementById('values-legend').hidden")


def relative_luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG 2's relative luminance of an sRGB colour (0-255 channels)."""

    def linear(channel: float) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(channel) for channel in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: tuple[float, float, float], second: tuple[float, float, float]) -> float:
    """WCAG 2's contrast ratio of two colours, from 1 to 21."""
    light, dark = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def colour(text: str) -> tuple[float, float, float]:
    red, green, blue = (float(part) for part in re.findall(r"[\d.]+", text)[:3])
    return red, green, blue


#: the colour of a value's text and of the first opaque background behind it
TEXT_AND_GROUND = """element => {
    let ground = element;
    while (ground && /rgba\\(.*, 0\\)|transparent/.test(getComputedStyle(ground).backgroundColor)) {
        ground = ground.parentElement;
    }
    return [getComputedStyle(element).color, getComputedStyle(ground).backgroundColor];
}"""


def test_the_page_plays_with_its_own_security_policy_in_force(browser: Any, server: str) -> None:
    strict = browser.new_page()  # no bypass: the page's scripts are held to the policy
    errors: list[str] = []
    strict.on("pageerror", lambda error: errors.append(str(error)))
    strict.on("console", lambda message: message.type == "error" and errors.append(message.text))
    strict.goto(f"{server}/?game=tictactoe&position=XO./.O./X..")
    expect(strict.locator("#status")).to_have_text("X to move (your turn).", timeout=WAIT_MS)
    strict.get_by_role("button", name="empty, row 2, column 1").click()
    expect(strict.locator("#status")).to_have_text("Game over: X wins.", timeout=WAIT_MS)
    strict.close()
    assert errors == []


def test_the_page_opens_on_the_simplest_game(page: Any, server: str) -> None:
    page.goto(server)
    wait_for_status(page, "to move")
    assert page.locator("#game-select").input_value() == "tictactoe"
    assert len(board_symbols(page)) == 9


def test_a_best_value_is_readable_on_a_green_board(page: Any, server: str) -> None:
    open_board(page, server, "game=othello")
    choose_searcher(page, "alphabeta", depth="1")
    show_values(page)
    values = page.locator("#board .cell .value")
    assert values.count() == 4  # the four opening moves
    assert page.locator("#board .cell.best .value").count() >= 1
    for index in range(values.count()):
        text, ground = values.nth(index).evaluate(TEXT_AND_GROUND)
        assert contrast(colour(text), colour(ground)) >= 4.5, (text, ground)
    screenshot(page, "board-othello-values", clip=page.locator("#play").bounding_box())


def test_an_option_with_choices_is_a_menu_of_them(page: Any, server: str) -> None:
    open_board(page, server, "game=othello")
    for name, choices in (("size", ["4", "6", "8"]), ("passes", ["move", "auto"])):
        menu = page.locator(f"select#game-option-{name}")
        assert menu.count() == 1
        assert menu.locator("option").all_inner_texts() == choices
    page.select_option("#game-option-size", "6")
    page.get_by_role("button", name="Start with these settings").click()
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 36")


@needs_chess
def test_the_chess_board_has_coordinates_and_names_its_pieces_and_squares(
    page: Any, server: str
) -> None:
    open_board(page, server, "game=chess")
    assert page.locator("#board-files span").all_inner_texts() == list("abcdefgh")
    assert page.locator("#board-ranks span").all_inner_texts() == list("87654321")
    cells = page.locator("#board .cell")
    assert cells.nth(0).get_attribute("aria-label") == "black rook on a8"
    assert cells.nth(60).get_attribute("aria-label").startswith("white king on e1")
    assert cells.nth(36).get_attribute("aria-label") == "empty square e4"
    screenshot(page, "board-chess-coordinates", clip=page.locator("#play").bounding_box())


@needs_chess_searches
def test_chess_shows_the_best_value_of_each_piece_that_can_move_before_one_is_picked(
    page: Any, server: str
) -> None:
    open_board(page, server, "game=chess")
    choose_searcher(page, "alphabeta", depth="1")
    show_values(page)
    valued = page.locator("#board .cell:has(.value)")
    # the eight pawns and the two knights can move from the start
    assert sorted(valued.evaluate_all("cells => cells.map(c => Number(c.dataset.index))")) == [
        *range(48, 56),
        57,
        62,
    ]
    assert "its best move: value" in valued.first.get_attribute("aria-label")


def test_fit_shows_the_whole_tree_and_the_first_view_shows_the_best_line(
    page: Any, server: str
) -> None:
    open_board(page, server, "game=connect4")
    choose_searcher(page, "minimax", depth="2")
    page.get_by_role("button", name="Show the search tree").click()
    page.wait_for_function("document.querySelectorAll('#tree .tnode').length === 57")
    view = page.locator("#tree-view").bounding_box()

    def inside(box: dict[str, float]) -> bool:
        return (
            box["x"] >= view["x"] - 1
            and box["y"] >= view["y"] - 1
            and box["x"] + box["width"] <= view["x"] + view["width"] + 1
            and box["y"] + box["height"] <= view["y"] + view["height"] + 1
        )

    line = page.locator("#tree .tnode.pv")
    assert line.count() == 3 and all(inside(line.nth(i).bounding_box()) for i in range(3))
    layer = page.locator("#tree-layer")
    before = layer.get_attribute("transform")
    assert not inside(layer.bounding_box())  # 49 leaves: wider than the view at a readable size
    page.get_by_role("button", name="Fit").click()
    assert layer.get_attribute("transform") != before
    assert inside(layer.bounding_box())
    screenshot(page, "tree-fit", full_page=True)


def overlapping(boxes: list[dict[str, float]]) -> list[tuple[int, int]]:
    found = []
    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            b = boxes[j]
            if (
                a["x"] < b["x"] + b["width"] - 0.5
                and b["x"] < a["x"] + a["width"] - 0.5
                and a["y"] < b["y"] + b["height"] - 0.5
                and b["y"] < a["y"] + a["height"] - 0.5
            ):
                found.append((i, j))
    return found


def test_pigs_tree_labels_do_not_overlap_and_its_cells_hold_their_text(
    page: Any, server: str
) -> None:
    open_board(page, server, "game=pig&position=3-5 A%2B4 6 6")
    for index in range(page.locator("#board .cell").count()):
        fits = (
            page.locator("#board .cell")
            .nth(index)
            .evaluate(
                "cell => [...cell.querySelectorAll('.symbol')].every("
                "s => s.getBoundingClientRect().width <= cell.getBoundingClientRect().width + 0.5)"
            )
        )
        assert fits, board_symbols(page)[index]
    assert "6/12" in board_symbols(page)
    choose_searcher(page, "expectiminimax", depth="2")
    page.get_by_role("button", name="Show the search tree").click()
    page.wait_for_selector("#tree .tnode")
    page.get_by_role("button", name="Fit").click()
    labels = page.locator("#tree .tnode text:not(.fold text)")
    boxes = [labels.nth(i).bounding_box() for i in range(labels.count())]
    assert len(boxes) > 10 and overlapping(boxes) == []
    screenshot(page, "tree-pig", full_page=True)


def test_connect_four_has_a_colour_key_for_its_players(page: Any, server: str) -> None:
    open_board(page, server, "game=connect4&position=44")
    key = page.locator("#board-key")
    expect(key).to_be_visible()
    assert key.locator(".key-entry").all_inner_texts() == ["X (moves first)", "O"]
    swatches = key.locator(".key-swatch .disc").evaluate_all(
        "discs => discs.map(d => getComputedStyle(d).backgroundColor)"
    )
    on_board = [
        page.locator(f'#board .cell[data-player="{player}"] .disc').first.evaluate(
            "disc => getComputedStyle(disc).backgroundColor"
        )
        for player in (0, 1)
    ]
    assert swatches == on_board and swatches[0] != swatches[1]


def test_the_hint_and_the_explorer_say_what_budget_gave_their_value(page: Any, server: str) -> None:
    open_board(page, server, "game=connect4&position=4444")
    choose_searcher(page, "iterative")
    page.fill("#engine-seconds", "0.5")
    page.get_by_role("button", name="Hint").click()
    page.wait_for_function("document.getElementById('analysis').textContent.startsWith('Hint')")
    hint = page.locator("#analysis").inner_text()
    assert re.search(r"Found by Iterative deepening within 0\.5 s, searching to depth \d+", hint)
    assert "another budget" in hint
    page.get_by_role("button", name="Show the search tree").click()
    page.wait_for_function("document.getElementById('tree-summary').textContent.includes('value')")
    summary = page.locator("#tree-summary").inner_text()
    assert re.search(r"Its search reached depth \d+, up to 2,000 nodes", summary), summary
    assert "another budget" in summary


def test_a_person_enters_a_real_dies_roll_and_a_link_is_not_rolled_on_opening(
    page: Any, server: str
) -> None:
    rolling = "0-0 A%2B0* 1 1"  # A rolls: the die is to be cast
    page.goto(f"{server}/?game=pig&position={rolling}")
    wait_for_status(page, "The die is to roll")
    page.wait_for_timeout(500)  # time enough for a roll the page should not make
    assert page.locator("#record .record-move").count() == 1  # "Given position" alone
    assert page.locator("#status").inner_text() == (
        "The die is to roll: press “Computer, move now” to roll it."
    )
    rolls = page.get_by_role("group", name="Other moves").get_by_role("button")
    assert rolls.count() == 6 and rolls.first.is_disabled()  # the computer rolls by default
    page.select_option("#player-chance", "human")
    expect(rolls.nth(2)).to_be_enabled()
    rolls.nth(2).click()
    page.wait_for_function("document.querySelectorAll('#record .record-move').length === 2")
    assert page.locator("#record .record-move").nth(1).inner_text() == "chance 3"


def test_three_players_values_are_each_movers_own_and_the_record_has_three_moves_a_row(
    page: Any, server: str
) -> None:
    open_board(page, server, "game=mnk3")
    for index in (1, 2):
        page.select_option(f"#player-{index}", "human")
    for cell in (0, 4, 8):
        page.locator("#board .cell").nth(cell).click()
        page.wait_for_function(
            "count => document.querySelectorAll('#record .record-move').length === count",
            arg=cell // 4 + 2,
        )
    rows = page.locator("#record .record-rows")
    assert rows.locator(".record-number").all_inner_texts() == ["1."]
    assert (
        rows.evaluate("grid => getComputedStyle(grid).gridTemplateColumns.split(' ').length") == 4
    )
    choose_searcher(page, "maxn", depth="2")
    show_values(page)
    legend = page.locator("#values-legend").inner_text()
    assert legend.startswith("Values of each move: the utility A, who moves, gets from it")
    assert "point of view" not in legend


def test_game_over_says_the_margin(page: Any, server: str) -> None:
    open_board(page, server, "game=kalah&position=0,0,0,0,0,0/25/0,0,0,0,0,0/23 N 48")
    assert wait_for_status(page, "Game over") == "Game over: South wins by 2."
