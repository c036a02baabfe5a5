"""Jupyter display: a position as an SVG board, a result as a table, a traced tree as a widget,
and the coursework notebook in docs/ runs from top to bottom."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from gamesearch import AlphaBeta, default_registry
from gamesearch.notebook import board_svg, result_html, tree_widget
from gamesearch.trace import TreeTracer

NOTEBOOK = Path(__file__).resolve().parent.parent / "docs" / "coursework" / "notebook.ipynb"
SVG = "{http://www.w3.org/2000/svg}"


def svg_texts(svg: str) -> list[str]:
    return [element.text or "" for element in ET.fromstring(svg).iter(f"{SVG}text")]


def test_a_tictactoe_position_is_drawn_with_its_marks_its_free_cells_and_who_is_to_move() -> None:
    game = default_registry().new_game("tictactoe", "XOX/O.O/.X.")
    texts = svg_texts(game._repr_svg_() or "")
    assert sorted(texts[:-1]) == sorted(["X", "O", "X", "O", "4", "O", "6", "X", "8"])
    assert texts[-1] == "X to move"


def test_a_finished_connect4_game_says_who_won_and_shows_no_free_moves_as_cells() -> None:
    game = default_registry().new_game("connect4", "1212121")
    texts = svg_texts(board_svg(game) or "")
    assert texts[-1] == "the game is over: X won"
    assert texts.count("X") == 4 and texts.count("O") == 3 and len(texts) == 8


def test_a_game_without_a_grid_view_is_shown_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    game = default_registry().new_game("tictactoe")
    monkeypatch.setattr(game, "board_view", lambda: None)
    assert game._repr_svg_() is None


class Cells(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []

    def handle_data(self, data: str) -> None:
        self.cells.append(data)


def test_a_search_result_is_a_table_of_its_answer_work_and_move_values() -> None:
    game = default_registry().new_game("tictactoe", "XX./OO./...")
    result = AlphaBeta().search(game, move_values=True)
    parser = Cells()
    parser.feed(result._repr_html_())
    cells = parser.cells
    assert cells[cells.index("nodes") + 1] == f"{result.stats.nodes:,}"
    assert cells[cells.index("move") + 1] == "2" and cells[cells.index("searcher") + 1] == "alphabeta"
    assert result.move_values is not None
    values = cells[cells.index("value", cells.index("seconds")) + 1 :]
    assert values == [item for move, value in result.move_values for item in (str(move), str(value))]
    assert result_html(result, game) == result._repr_html_()  # tic-tac-toe moves print as themselves


def test_the_tree_widget_holds_the_traced_tree_in_the_games_notation() -> None:
    pytest.importorskip("anywidget", reason="the notebook extra is not installed")
    game = default_registry().new_game("connect4", "4453")
    tracer = TreeTracer(game)
    AlphaBeta(depth=2).search(game, tracer=tracer)
    widget = tree_widget(tracer)
    assert widget.tree == tracer.roots[-1].as_dict(game.format_move)
    assert len(widget.tree["children"]) == len(game.legal_moves())
    assert {child["move"] for child in widget.tree["children"]} == {"1", "2", "3", "4", "5", "6", "7"}


def test_the_tree_widget_refuses_a_tracer_that_recorded_nothing() -> None:
    pytest.importorskip("anywidget", reason="the notebook extra is not installed")
    with pytest.raises(ValueError, match="the tracer recorded no search"):
        tree_widget(TreeTracer())


def test_the_tree_widget_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "anywidget", None)
    with pytest.raises(ImportError, match=r"pip install 'gamesearch\[notebook\]'"):
        tree_widget(TreeTracer())


def test_the_coursework_notebook_runs_and_shows_a_board_a_table_and_a_widget() -> None:
    nbformat = pytest.importorskip("nbformat", reason="the test extra is not installed")
    nbclient = pytest.importorskip("nbclient", reason="the test extra is not installed")
    pytest.importorskip("ipykernel", reason="the test extra is not installed")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(notebook, timeout=60, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()  # fmt: skip
    kinds = {kind for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs for kind in output.get("data", {})}
    assert {"image/svg+xml", "text/html", "application/vnd.jupyter.widget-view+json"} <= kinds
    errors = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs if output.output_type == "error"]
    assert errors == []
