"""The board page as an analysis board, in real headless Chromium: move values on the
board, the search explorer's graphical tree, the game record with its link, and the
drawings each game gets. Fixtures and helpers come from ``test_web_e2e.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from oracle import solve_all  # noqa: E402
from test_web_e2e import (  # noqa: E402, F401  (page and server are fixtures)
    BackgroundServer,
    board_symbols,
    cells_with,
    choose_searcher,
    create_app,
    gamesearch_games,
    hookimpl,
    open_board,
    page,
    pytestmark,
    screenshot,
    server,
    shipped_games,
    wait_for_status,
)

from gamesearch.errors import BudgetExceededError  # noqa: E402
from gamesearch.looks import BoardLook  # noqa: E402
from gamesearch.plugins import build_registry, make_plugin_manager  # noqa: E402
from gamesearch.web import service  # noqa: E402

TREE_NODES = service.Limits().tree_nodes


def cell_values(page: Any) -> dict[int, tuple[str, bool]]:
    """Return {cell index: (value shown, marked best)} for the cells that show a value."""
    pairs = page.eval_on_selector_all(
        "#board .cell",
        """cells => cells.filter(c => c.querySelector('.value')).map(
            c => [Number(c.dataset.index), c.querySelector('.value').textContent,
                  c.classList.contains('best')])""",
    )
    return {index: (text, best) for index, text, best in pairs}


def show_values(page: Any) -> None:
    page.get_by_label("Show move values").check()
    page.wait_for_function(
        "document.querySelector('#values-legend') && "
        "!document.getElementById('values-legend').hidden"
    )


def explore(page: Any) -> str:
    """Press the explorer's button; return its summary once the tree (or a refusal) is in."""
    page.get_by_role("button", name="Show the search tree").click()
    page.wait_for_function(
        """() => {
            const text = document.getElementById('tree-summary').textContent;
            const error = document.getElementById('error').textContent;
            return (text && text !== 'Searching…') || error;
        }"""
    )
    return str(page.locator("#tree-summary").inner_text())


def tree_nodes(page: Any) -> Any:
    return page.locator("#tree .tnode:not(.pruned)")


def layer_transform(page: Any) -> tuple[float, float, float]:
    """Return the tree's pan (x, y) and zoom factor."""
    text = page.locator("#tree-layer").get_attribute("transform")
    x, y, k = (float(number) for number in re.findall(r"-?[\d.]+(?:e-?\d+)?", text))
    return x, y, k


# ---------------------------------------------------------------- move values
def test_move_values_on_the_cells_are_the_exact_values_and_the_best_move_is_marked(
    page: Any, server: str
) -> None:
    position = "XO./.O./X.."
    open_board(page, server, f"game=tictactoe&position={position}")
    choose_searcher(page, "alphabeta")
    show_values(page)
    game = gamesearch_games.tictactoe.TicTacToe.from_text(position)
    values = solve_all(game)
    expected = {}
    for move in game.legal_moves():
        game.push(move)
        expected[move] = values[game.key()]
        game.undo()
    best = max(expected.values())  # X is to move: X maximises
    shown = cell_values(page)
    assert {index: int(text) for index, (text, _) in shown.items()} == expected
    assert {index for index, (_, is_best) in shown.items() if is_best} == {
        move for move, value in expected.items() if value == best
    }
    legend = page.locator("#values-legend").inner_text()
    assert legend.startswith("Values of each move, from X's point of view")
    assert "X to move: X wins in 1 ply." in legend
    assert (
        page.get_by_role(
            "button", name=f"empty, row 2, column 1, value {best}, a best move"
        ).count()
        == 1
    )
    # the values follow the game: after a move, the next position's values are shown
    page.get_by_role("button", name="empty, row 3, column 2").click()  # blocks O; O replies
    page.wait_for_function("document.querySelectorAll('#board .cell .value').length === 3")
    assert {cell for cell, symbol in enumerate(board_symbols(page)) if symbol == ""} == set(
        cell_values(page)
    )
    page.get_by_label("Show move values").uncheck()
    assert cell_values(page) == {}


def test_connect_four_shows_each_columns_value_under_its_number(page: Any, server: str) -> None:
    open_board(page, server, "game=connect4&moves=1,1,2,2,3,3")
    choose_searcher(page, "alphabeta", depth="4")
    show_values(page)
    columns = page.get_by_role("group", name="Columns").get_by_role("button")
    labels = columns.evaluate_all("buttons => buttons.map(b => b.getAttribute('aria-label'))")
    assert labels[3] == "column 4, value 993, a best move"  # X wins at once: 1000 - 7 plies
    assert all("a best move" not in label for index, label in enumerate(labels) if index != 3)
    assert page.locator("#columns .column.best .number").inner_text() == "4"
    assert "X to move: X wins in 1 ply" in page.locator("#values-legend").inner_text()
    screenshot(page, "board-connect4-values", clip=page.locator("#play").bounding_box())


def test_monte_carlo_tree_search_shows_its_visits_on_the_cells(page: Any, server: str) -> None:
    open_board(page, server, "game=tictactoe")
    choose_searcher(page, "mcts", simulations="300", seed="7")
    show_values(page)
    shown = cell_values(page)
    visits = {index: int(text) for index, (text, _) in shown.items()}
    assert set(visits) == set(range(9)) and 290 <= sum(visits.values()) <= 300
    marked = [index for index, (_, is_best) in shown.items() if is_best]
    assert len(marked) == 1 and visits[marked[0]] == max(visits.values())
    assert page.locator("#values-legend").inner_text().startswith("Visits of each move")
    title = page.locator("#board .cell .value").first.get_attribute("title")
    assert re.fullmatch(r"\d+ visits, mean result -?\d\.\d\d", title), title


# ---------------------------------------------------------------- the explorer
def test_the_explorer_uses_the_searcher_and_depth_of_the_set_up(page: Any, server: str) -> None:
    open_board(page, server, "game=connect4")
    choose_searcher(page, "minimax", depth="2")
    with page.expect_request("**/api/tree") as request:
        summary = explore(page)
    assert request.value.post_data_json["searcher"] == "minimax"
    assert request.value.post_data_json["searcher_options"] == {"depth": "2"}
    # minimax to depth 2 on seven columns: the root, 7 replies and 7 x 7 answers
    assert summary.startswith("Minimax visited 57 nodes; ")
    assert tree_nodes(page).count() == 57
    assert page.locator("#tree .edge").count() == 56
    choose_searcher(page, "alphabeta", depth="2")
    summary = explore(page)
    match = re.match(r"Alpha-beta visited (\d+) nodes and cut off (\d+) branches", summary)
    assert match is not None, summary
    visited, cut = int(match[1]), int(match[2])
    assert visited < 57 and cut > 0
    assert tree_nodes(page).count() == visited
    assert page.locator("#tree .tnode.pruned").count() == cut


def test_a_tree_too_big_to_draw_is_searched_to_the_deepest_depth_that_fits(
    page: Any, server: str
) -> None:
    open_board(page, server, "game=connect4")
    choose_searcher(page, "alphabeta")
    summary = explore(page)
    match = re.search(r"this is the search to depth (\d+), the deepest that fits", summary)
    assert match is not None, summary
    depth = int(match[1])
    visited = int(re.match(r"Alpha-beta visited ([\d,]+) nodes", summary)[1].replace(",", ""))
    assert visited <= TREE_NODES
    registry, limits = shipped_games(), service.Limits()
    request = {
        "game": "connect4",
        "searcher": "alphabeta",
        "searcher_options": {"depth": depth + 1},
    }
    with pytest.raises(BudgetExceededError, match="more than 2,000 nodes"):
        service.search_tree(service.read_search(registry, request, limits), limits)
    assert page.locator("#error").inner_text() == ""
    # iterative deepening has no depth: it stops itself within what the server draws
    choose_searcher(page, "iterative")
    summary = explore(page)
    assert summary.startswith(f"Iterative deepening visited {TREE_NODES:,} nodes"), summary
    assert "the tree drawn is its last iteration" in summary


def test_the_explorer_says_the_game_is_over_on_a_finished_game(page: Any, server: str) -> None:
    open_board(page, server, "game=tictactoe&position=XXX/OO./...")
    assert explore(page) == "The game is over (X won): there is no search tree to show."
    assert page.locator("#tree-view").is_hidden()
    answer = page.request.post(
        f"{server}/api/tree",
        data={"game": "tictactoe", "position": "XXX/OO./...", "searcher": "minimax"},
    )
    assert answer.status == 422
    assert answer.json()["error"] == (
        "the game is over (first player won); there is no tree to search in 'XXX/OO./...'"
    )


def test_the_tree_is_drawn_as_nodes_and_edges_that_can_be_stepped_through(
    page: Any, server: str
) -> None:
    open_board(page, server, "game=tictactoe&position=.../OOX/XXO")
    choose_searcher(page, "minimax")
    assert explore(page).startswith("Minimax visited 14 nodes; ")
    assert tree_nodes(page).count() == 14 and page.locator("#tree .tnode.pruned").count() == 0
    choose_searcher(page, "alphabeta")
    assert explore(page).startswith("Alpha-beta visited 10 nodes and cut off 2 branches")
    assert tree_nodes(page).count() == 10
    pruned = page.locator("#tree .tnode.pruned")
    assert pruned.count() == 2
    assert float(pruned.first.evaluate("node => getComputedStyle(node).opacity")) < 0.5
    assert page.locator("#tree .edge.pruned").count() == 2
    assert page.locator("#step-count").inner_text() == "Node 10 of 10"
    page.get_by_role("button", name="First node").click()
    assert page.locator("#step-count").inner_text() == "Node 1 of 10"
    current = page.locator("#tree .tnode.current")
    assert current.get_attribute("aria-label").startswith("start, X to move: value …")
    assert tree_nodes(page).count() == 1
    page.get_by_role("button", name="Next node").click()
    assert (
        page.locator("#tree .tnode.current")
        .get_attribute("aria-label")
        .startswith("X plays 0: value …")
    )
    assert page.locator("#node-details").inner_text().startswith("X plays 0: value …")
    # the keyboard steps too, with the tree focused
    page.locator("#tree-view").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.locator("#step-count").inner_text() == "Node 4 of 10"
    page.keyboard.press("ArrowLeft")
    assert page.locator("#step-count").inner_text() == "Node 3 of 10"
    page.keyboard.press("End")
    assert page.locator("#step-count").inner_text() == "Node 10 of 10"
    assert page.locator("#tree .tnode.pending").count() == 0
    # one node is in the tab order, the current one; Enter shows it on the board
    assert page.locator('#tree .tnode[tabindex="0"]').count() == 1
    assert page.locator('#tree .tnode.current[tabindex="0"]').count() == 1
    assert (
        page.locator("#tree .tnode.current")
        .get_attribute("aria-label")
        .startswith("O plays 0: value -992")
    )
    page.keyboard.press("Enter")
    page.wait_for_function("!document.getElementById('preview-banner').hidden")
    assert page.locator("#preview-text").inner_text() == (
        "Showing a position from the search tree, after 1 0: value -992."
    )
    assert board_symbols(page)[:3] == ["O", "X", ""]
    screenshot(page, "board-explorer", clip=page.locator("#explorer").bounding_box())


def test_branches_fold_and_the_tree_pans_and_zooms(page: Any, server: str) -> None:
    open_board(page, server, "game=tictactoe&position=.../OOX/XXO")
    choose_searcher(page, "minimax")
    explore(page)
    fold = page.get_by_role("button", name="fold the branch below 0")
    fold.click()
    assert tree_nodes(page).count() == 14 - 4  # the node for 0 stays, its 4 descendants go
    unfold = page.get_by_role("button", name="unfold the branch below 0")
    assert unfold.text_content() == "+4" and unfold.get_attribute("aria-expanded") == "false"
    unfold.press("Enter")  # the keyboard unfolds it again
    assert tree_nodes(page).count() == 14
    # drag the background to pan
    x, y, k = layer_transform(page)
    box = page.locator("#tree-view").bounding_box()
    page.mouse.move(box["x"] + 20, box["y"] + box["height"] - 20)
    page.mouse.down()
    page.mouse.move(box["x"] + 120, box["y"] + box["height"] - 60, steps=5)
    page.mouse.up()
    moved = layer_transform(page)
    assert (
        moved[0] == pytest.approx(x + 100) and moved[1] == pytest.approx(y - 40) and moved[2] == k
    )
    # the wheel and the + key zoom; 0 fits the tree back
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -200)
    page.wait_for_function(
        f"!document.getElementById('tree-layer').getAttribute('transform').endsWith('scale({k})')"
    )
    assert layer_transform(page)[2] > k
    page.locator("#tree-view").focus()
    page.keyboard.press("0")
    assert layer_transform(page) == pytest.approx((x, y, k))
    page.keyboard.press("+")
    assert layer_transform(page)[2] == pytest.approx(k * 1.25)
    page.get_by_role("button", name="Fit").click()
    assert layer_transform(page) == pytest.approx((x, y, k))


def test_big_trees_start_folded_below_the_second_ply_and_unfold_as_they_are_stepped(
    page: Any, server: str
) -> None:
    open_board(page, server, "game=connect4")
    choose_searcher(page, "minimax", depth="3")
    assert explore(page).startswith("Minimax visited 400 nodes")  # 1 + 7 + 49 + 343
    shown = tree_nodes(page).count()
    assert shown < 400
    page.get_by_role("button", name="First node").click()
    for _ in range(3):
        page.get_by_role("button", name="Next node").click()
    # node 4 is the first leaf, three plies down: its branch is unfolded to show it
    current = page.locator("#tree .tnode.current")
    assert current.count() == 1
    assert re.match(r"X plays \d: value -?\d+ ", current.get_attribute("aria-label"))
    assert tree_nodes(page).count() == 4  # every node visited so far is drawn
    page.get_by_role("button", name="Unfold all").click()
    page.get_by_role("button", name="Whole tree").click()
    assert tree_nodes(page).count() == 400


def test_clicking_a_node_shows_its_position_on_the_board(page: Any, server: str) -> None:
    open_board(page, server, "game=tictactoe&position=.../OOX/XXO")
    choose_searcher(page, "alphabeta")
    explore(page)
    node = page.locator('#tree .tnode[aria-label^="X plays 0:"]')
    node.click()
    page.wait_for_function("!document.getElementById('preview-banner').hidden")
    assert board_symbols(page)[:3] == ["X", "", ""]
    assert (
        page.locator("#preview-text")
        .inner_text()
        .startswith("Showing a position from the search tree, after 0: value ")
    )
    assert (
        page.locator("#tree .tnode.selected").get_attribute("aria-label").startswith("X plays 0:")
    )
    assert cells_with(page, "last-move") == [0]
    assert page.locator('#board .cell[aria-disabled="false"]').count() == 0  # a look, not a move
    screenshot(page, "board-tree-node", full_page=True)
    page.keyboard.press("Escape")
    page.wait_for_function("document.getElementById('preview-banner').hidden")
    assert board_symbols(page)[:3] == ["", "", ""]
    # a cut-off branch shows the position its move would have made; the keyboard works too
    page.locator("#tree .tnode.pruned").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "document.getElementById('preview-text').textContent.includes('cut off unsearched')"
    )
    assert sum(symbol != "" for symbol in board_symbols(page)) == 8
    page.get_by_role("button", name="Back to the game").click()
    assert page.locator("#status").inner_text() == "X to move (your turn)."


# -------------------------------------------------------- the record and links
def test_the_move_list_goes_back_to_any_move_and_the_link_reopens_it(
    page: Any, server: str
) -> None:
    open_board(page, server, "game=tictactoe")
    page.select_option("#player-1", "human")
    for cell, status in ((4, "O to move"), (0, "X to move"), (8, "O to move")):
        page.locator("#board .cell").nth(cell).click()
        wait_for_status(page, status)
    record = page.get_by_role("group", name="Game record")
    assert record.get_by_role("button").all_inner_texts() == ["Start", "X 4", "O 0", "X 8"]
    record.get_by_role("button", name="move 2: O plays 0").click()
    assert board_symbols(page) == ["O", "", "", "", "X", "", "", "", ""]
    assert page.locator("#status").inner_text() == "X to move (your turn)."
    assert page.locator(".record-move.later").all_inner_texts() == ["X 8"]
    link = page.locator("#share-link").input_value()
    assert link == page.url
    query = parse_qs(urlsplit(link).query)
    assert query == {
        "game": ["tictactoe"],
        "rows": ["3"],
        "cols": ["3"],
        "k": ["3"],
        "moves": ["4,0,8"],
        "at": ["2"],
    }
    shown = board_symbols(page)
    screenshot(page, "board-record", full_page=True)
    # the arrow keys step through the record
    record.focus()
    page.keyboard.press("ArrowRight")
    assert board_symbols(page)[8] == "X"
    page.keyboard.press("Home")
    assert board_symbols(page) == [""] * 9
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    # a new move from an earlier position replaces the moves after it
    page.locator("#board .cell").nth(2).click()
    wait_for_status(page, "O to move")
    assert record.get_by_role("button").all_inner_texts() == ["Start", "X 4", "O 0", "X 2"]
    assert "at" not in parse_qs(urlsplit(page.url).query)
    # the link opens the same game at the same move in a page loaded afresh
    page.goto(link)
    wait_for_status(page, "X to move")
    assert board_symbols(page) == shown
    assert page.locator(".record-move.current").inner_text() == "O 0"


def test_a_link_to_a_position_starts_the_record_there(page: Any, server: str) -> None:
    open_board(page, server, "game=tictactoe&position=XO./.O./X..&moves=3")
    assert wait_for_status(page, "Game over") == "Game over: X wins."
    assert page.get_by_role("group", name="Game record").get_by_role(
        "button"
    ).all_inner_texts() == ["Given position", "X 3"]
    assert cells_with(page, "winning") == [0, 3, 6]
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page.get_by_role("button", name="Copy link").click()
    page.wait_for_function("document.getElementById('copy-done').textContent === 'Copied.'")
    assert page.evaluate("navigator.clipboard.readText()") == page.url
    assert parse_qs(urlsplit(page.url).query)["position"] == ["XO./.O./X.."]


# ------------------------------------------------------------ drawings by game
def lookalike_registry() -> Any:
    """Tic-tac-toe under other names, with the looks their plugin declares (and one under
    Othello's name that declares none: a name alone draws nothing)."""

    def renamed(name: str) -> type:
        return type(
            name.title(),
            (gamesearch_games.tictactoe.TicTacToe,),
            {"name": name, "__doc__": f"{name} stand-in"},
        )

    class LookalikePlugin:
        @hookimpl
        def gamesearch_register_games(self, registry: Any) -> None:
            for name in ("stones", "draughts", "othello", "squares"):
                registry.add_game(renamed(name))

        @hookimpl
        def gamesearch_register_board_looks(self, registry: Any) -> None:
            registry.add_board_look("stones", BoardLook(kind="discs"))
            registry.add_board_look("draughts", BoardLook(kind="discs", checkered=True))

    return build_registry(
        make_plugin_manager(
            plugins=[gamesearch_games.tictactoe, LookalikePlugin()], entry_points=False
        )
    )


@pytest.fixture(scope="module")
def lookalike_server() -> Iterator[str]:
    with BackgroundServer(create_app(lookalike_registry())) as url:
        yield url


@pytest.mark.parametrize(
    ("game", "look"),
    [("stones", "discs"), ("draughts", "discs"), ("othello", "grid"), ("squares", "grid")],
)
def test_each_game_gets_the_drawing_its_plugin_declares_and_others_a_plain_grid(
    page: Any, lookalike_server: str, game: str, look: str
) -> None:
    page.goto(f"{lookalike_server}/?game={game}&rows=4&cols=4&position=XO../.X../..O./....")
    wait_for_status(page, "to move")
    board = page.locator("#board")
    assert board.get_attribute("data-look") == look
    assert board.get_attribute("data-checkered") == str(game == "draughts").lower()
    assert board_symbols(page)[:2] == ["X", "O"]
    dark = cells_with(page, "dark")
    assert dark == ([1, 3, 4, 6, 9, 11, 12, 14] if game == "draughts" else [])
    first = page.locator("#board .cell").first
    if look == "discs":
        assert first.locator(".disc").count() == 1
    if look == "grid":  # the symbol itself, in the first player's colour
        assert first.inner_text() == "X"
        assert first.evaluate("cell => getComputedStyle(cell).color") == "rgb(31, 95, 191)"
    screenshot(page, f"board-look-{game}", clip=page.locator("#play").bounding_box())


@pytest.mark.parametrize("width", [420, 1280])
def test_the_connect_four_board_fits_inside_its_panel_at_any_window_width(
    page: Any, server: str, width: int
) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    open_board(page, server, "game=connect4&moves=4,4,3")
    board, panel = page.locator("#board").bounding_box(), page.locator("#play").bounding_box()
    assert panel["x"] <= board["x"] and board["x"] + board["width"] <= panel["x"] + panel["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    columns = page.locator("#columns .column")
    assert columns.nth(6).bounding_box()["x"] == pytest.approx(
        page.locator("#board .cell").nth(6).bounding_box()["x"]
    )
    if width == 420:
        screenshot(page, "board-connect4-phone", full_page=True)
