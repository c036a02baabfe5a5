"""Jupyter display: a position as an SVG board, a result as a table, a traced tree as a widget,
and the coursework notebook in docs/ runs from top to bottom."""

from __future__ import annotations

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from gamesearch import AlphaBeta, default_registry
from gamesearch.notebook import (
    _ESM,
    PLAYER_COLOURS,
    board_svg,
    result_html,
    show_in_notebooks,
    tree_widget,
)
from gamesearch.trace import TreeTracer

NOTEBOOK = Path(__file__).resolve().parent.parent / "docs" / "coursework" / "notebook.ipynb"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def shell() -> Iterator[Any]:
    """Yield a running IPython shell with the drawings registered, closed afterwards."""
    interactive = pytest.importorskip("IPython.core.interactiveshell", reason="no IPython")
    running = interactive.InteractiveShell.instance()
    try:
        assert show_in_notebooks() is True  # the running shell is found
        yield running
    finally:
        interactive.InteractiveShell.clear_instance()


def shown(shell: Any, thing: object) -> dict[str, Any]:
    """Return what IPython's display shows of ``thing``, by media type."""
    data, _ = shell.display_formatter.format(thing)
    return dict(data)


def svg_texts(svg: str) -> list[str]:
    return [element.text or "" for element in ET.fromstring(svg).iter(f"{SVG}text")]


def test_a_tictactoe_position_is_drawn_with_its_marks_its_free_cells_and_who_is_to_move(
    shell: Any,
) -> None:
    game = default_registry().new_game("tictactoe", "XOX/O.O/.X.")
    texts = svg_texts(shown(shell, game)["image/svg+xml"])
    assert sorted(texts[:-1]) == sorted(["X", "O", "X", "O", "4", "O", "6", "X", "8"])
    assert texts[-1] == "X to move"


def svg_discs(svg: str) -> list[str]:
    return [element.get("fill", "") for element in ET.fromstring(svg).iter(f"{SVG}circle")]


def test_connect4_is_drawn_with_discs_and_each_column_number_once_where_a_disc_lands() -> None:
    game = default_registry().new_game("connect4", "4453")
    svg = board_svg(game) or ""
    assert sorted(svg_discs(svg)) == sorted([PLAYER_COLOURS[0]] * 2 + [PLAYER_COLOURS[1]] * 2)
    assert svg_texts(svg) == [
        "4",
        "3",
        "5",
        "1",
        "2",
        "6",
        "7",
        "X to move",
    ]  # row by row from the top


def test_a_finished_connect4_game_says_who_won_and_shows_no_free_moves() -> None:
    game = default_registry().new_game("connect4", "1212121")
    svg = board_svg(game) or ""
    assert svg_texts(svg) == ["the game is over: X won"]
    assert sorted(svg_discs(svg)) == sorted([PLAYER_COLOURS[0]] * 4 + [PLAYER_COLOURS[1]] * 3)


def test_a_game_without_a_grid_view_is_shown_as_text(
    shell: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = default_registry().new_game("tictactoe")
    monkeypatch.setattr(game, "board_view", lambda: None)
    assert board_svg(game) is None
    assert shown(shell, game) == {"text/plain": repr(game)}


def test_outside_ipython_nothing_is_registered() -> None:
    assert show_in_notebooks() is False


def test_the_extension_registers_the_drawings_with_the_shell_it_is_loaded_in(shell: Any) -> None:
    shell.display_formatter.formatters["image/svg+xml"].type_printers.clear()
    game = default_registry().new_game("tictactoe")
    assert "image/svg+xml" not in shown(shell, game)
    shell.extension_manager.load_extension("gamesearch.notebook")
    assert shown(shell, game)["image/svg+xml"] == board_svg(game)


@pytest.mark.slow
def test_importing_gamesearch_in_ipython_shows_positions_as_drawings() -> None:
    pytest.importorskip("IPython", reason="no IPython")
    script = (
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "shell = InteractiveShell.instance()\n"
        "import gamesearch\n"
        "game = gamesearch.default_registry().new_game('tictactoe')\n"
        "print(sorted(shell.display_formatter.format(game)[0]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split("\n")[-2] == "['image/svg+xml', 'text/plain']"


class Cells(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []

    def handle_data(self, data: str) -> None:
        self.cells.append(data)


def test_a_search_result_is_a_table_of_its_answer_work_and_move_values(shell: Any) -> None:
    game = default_registry().new_game("tictactoe", "XX./OO./...")
    result = AlphaBeta().search(game, move_values=True)
    parser = Cells()
    parser.feed(shown(shell, result)["text/html"])
    cells = parser.cells
    assert cells[cells.index("nodes") + 1] == f"{result.stats.nodes:,}"
    assert (
        cells[cells.index("move") + 1] == "2" and cells[cells.index("searcher") + 1] == "alphabeta"
    )
    assert result.move_values is not None
    values = cells[cells.index("value", cells.index("seconds")) + 1 :]
    assert values == [
        item for move, value in result.move_values for item in (str(move), str(value))
    ]
    assert (
        result_html(result, game) == shown(shell, result)["text/html"]
    )  # tic-tac-toe moves print as themselves


def test_the_tree_widget_holds_the_traced_tree_in_the_games_notation() -> None:
    pytest.importorskip("anywidget", reason="the notebook extra is not installed")
    game = default_registry().new_game("connect4", "4453")
    tracer = TreeTracer(game)
    AlphaBeta(depth=2).search(game, tracer=tracer)
    widget = tree_widget(tracer)
    assert widget.tree == tracer.roots[-1].as_dict(game.format_move)
    assert len(widget.tree["children"]) == len(game.legal_moves())
    assert {child["move"] for child in widget.tree["children"]} == {
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
    }


def test_the_tree_widget_refuses_a_tracer_that_recorded_nothing() -> None:
    pytest.importorskip("anywidget", reason="the notebook extra is not installed")
    with pytest.raises(ValueError, match="the tracer recorded no search"):
        tree_widget(TreeTracer())


def test_the_tree_widget_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "anywidget", None)
    with pytest.raises(ImportError, match=r"pip install 'gamesearch\[notebook\]'"):
        tree_widget(TreeTracer())


@pytest.mark.docs
def test_the_coursework_notebook_runs_and_shows_a_board_a_table_and_a_widget() -> None:
    nbformat = pytest.importorskip("nbformat", reason="the test extra is not installed")
    nbclient = pytest.importorskip("nbclient", reason="the test extra is not installed")
    pytest.importorskip("ipykernel", reason="the test extra is not installed")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(
        notebook,
        timeout=60,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    ).execute()
    kinds = {
        kind
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        for kind in output.get("data", {})
    }
    assert {"image/svg+xml", "text/html", "application/vnd.jupyter.widget-view+json"} <= kinds
    errors = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.output_type == "error"
    ]
    assert errors == []


CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

STUB_MODEL = """(tree) => {
  const saved = {};
  window.model = {
    get: (name) => (name === "tree" ? tree : saved[name]),
    set: (name, value) => { saved[name] = value; },
    save_changes: () => {},
    on: () => {},
    saved,
  };
  window.widgetRender({ model: window.model, el: document.getElementById("el") });
}"""


@pytest.mark.browser
@pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (apt-get install chromium)",
)
def test_the_tree_widget_draws_every_node_in_chromium_and_a_click_folds_it_and_shows_it(
    chromium: Any,
) -> None:
    game = default_registry().new_game("tictactoe", "XOX/O.O/.X.")
    tracer = TreeTracer(game)
    AlphaBeta().search(game, tracer=tracer)
    tree = tracer.roots[-1].as_dict(game.format_move)
    nodes, pruned = (
        len(tracer.roots[-1].walk()),
        sum(bool(node.pruned) for node in tracer.roots[-1].walk()),
    )
    script = _ESM.replace("export default { render };", "window.widgetRender = render;")
    assert script != _ESM
    page = chromium.new_page()
    try:
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.set_content('<div id="el"></div>')
        page.add_script_tag(content=script)
        page.evaluate(STUB_MODEL, tree)
        assert page.locator("#el li").count() == nodes + pruned
        cut = page.evaluate(
            "[...document.querySelectorAll('#el li')].filter(li => "
            "li.textContent.startsWith('pruned:')).length"
        )
        assert cut == pruned == 2
        first_move = page.locator("#el > ul > li > ul > li > span").first
        first_move.click()
        assert page.locator("#el > ul > li > ul > li").first.locator(":scope > ul").is_hidden()
        assert (
            first_move.text_content()
            == f"4  window [-inf, +inf]  value {tree['children'][0]['value']}"
        )
        assert page.locator("#el pre").inner_text() == tree["children"][0]["position"]
        assert page.evaluate("window.model.saved.selected") == tree["children"][0]["position"]
        assert errors == []
    finally:
        page.close()
