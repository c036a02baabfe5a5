"""The board's perfect play in real headless Chromium: a server started with a tic-tac-toe
solution table opens tic-tac-toe in perfect play and shows every move's exact value.
Fixtures and helpers come from ``test_web_e2e.py`` and ``test_web_board_analysis.py``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from oracle import solve_all  # noqa: E402
from test_web_board_analysis import cell_values  # noqa: E402
from test_web_e2e import (  # noqa: E402, F401  (browser and page are fixtures)
    BackgroundServer,
    browser,
    create_app,
    open_board,
    page,
    pytestmark,
    shipped_games,
)

from gamesearch.solutions import SolutionStore, solve_game  # noqa: E402
from gamesearch.web.service import Limits  # noqa: E402
from gamesearch_games.tictactoe import TicTacToe  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Return the address of a board served with a tic-tac-toe solution table."""
    path = tmp_path_factory.mktemp("table") / "tictactoe.sqlite"
    game = TicTacToe.new()
    with SolutionStore(path, game) as store:
        solve_game(game, store)
    limits = Limits(seconds=5.0, tables=(str(Path(path)),))
    with BackgroundServer(create_app(shipped_games(), limits=limits)) as url:
        yield url


def test_tictactoe_opens_in_perfect_play_with_every_moves_exact_value(
    page: Any,  # noqa: F811  (the fixture imported above)
    server: str,
) -> None:
    position = "XO./.O./X.."
    open_board(page, server, f"game=tictactoe&position={position}")
    assert page.locator("#searcher-select").input_value() == "table"
    assert page.get_by_label("Show move values").is_checked()
    page.wait_for_function("document.querySelectorAll('#board .cell .value').length === 5")
    game = TicTacToe.from_text(position)
    values = solve_all(game)  # the oracle: memoised minimax, distance scoring
    expected = {}
    for move in game.legal_moves():
        game.push(move)
        expected[move] = values[game.key()]
        game.undo()
    shown = cell_values(page)
    assert {index: int(text) for index, (text, _) in shown.items()} == expected
    best = max(expected.values())  # X is to move: X maximises
    assert {index for index, (_, is_best) in shown.items() if is_best} == {
        move for move, value in expected.items() if value == best
    }
