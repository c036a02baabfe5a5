"""The tree widget shows a static drawing and a sentence where no widget front end runs."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from gamesearch import AlphaBeta, default_registry, notebook
from gamesearch.notebook import tree_svg, tree_widget
from gamesearch.search.base import INFINITY
from gamesearch.trace import TreeTracer

SVG = "{http://www.w3.org/2000/svg}"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def traced(position: str = "XO./.X./...", depth: int = 2) -> tuple[Any, TreeTracer]:
    game = default_registry().new_game("tictactoe", position)
    tracer = TreeTracer(game)
    AlphaBeta(depth=depth).search(game, tracer=tracer)
    return game, tracer


def expected_lines(node: Any, game: Any) -> list[str]:
    """The oracle: the lines of a traced node and its subtree, walked recursively from the
    tracer's own nodes, in the widget's order (node, children, pruned moves)."""
    move = "root" if node.move is None else game.format_move(node.move)
    window = (
        f"[{'-inf' if node.alpha <= -INFINITY else node.alpha}, "
        f"{'+inf' if node.beta >= INFINITY else node.beta}]"
    )
    bound = f" ({node.bound} bound)" if node.bound in ("upper", "lower") else ""
    lines = [f"{move}  window {window}  value {node.value}{bound}"]
    for child in node.children:
        lines.extend(expected_lines(child, game))
    if node.pruned:
        lines.append("pruned: " + ", ".join(game.format_move(move) for move in node.pruned))
    return lines


def count_nodes(node: Any) -> int:
    return 1 + sum(count_nodes(child) for child in node.children)


def drawn_lines(svg: str) -> list[tuple[float, str]]:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return [(float(text.get("x", 0)), text.text or "") for text in root.iter(f"{SVG}text")]


def test_the_static_drawing_lists_every_node_as_the_widget_does_indented_by_ply() -> None:
    game, tracer = traced()
    root = tracer.roots[-1]
    drawn = drawn_lines(tree_svg(root.as_dict(game.format_move)))
    assert [text for _, text in drawn] == expected_lines(root, game)
    assert drawn[0][0] < drawn[1][0]  # a child sits to the right of its parent
    assert any(text.startswith("pruned: ") for _, text in drawn)  # alpha-beta cut something


def test_a_big_tree_is_drawn_in_part_and_the_rest_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(notebook, "SVG_TREE_NODES", 5)
    game, tracer = traced(depth=3)
    root = tracer.roots[-1]
    drawn = [text for _, text in drawn_lines(tree_svg(root.as_dict(game.format_move)))]
    nodes = [text for text in drawn if "  window " in text]
    assert (
        len(nodes) == 5
        and nodes == [line for line in expected_lines(root, game) if "  window " in line][:5]
    )
    assert drawn[-1] == f"... and {count_nodes(root) - 5:,} more nodes (the widget shows them all)"


def test_the_widget_shows_as_a_view_a_drawing_and_a_sentence_saying_what_it_is() -> None:
    pytest.importorskip("anywidget", reason="the notebook extra is not installed")
    game, tracer = traced()
    root = tracer.roots[-1]
    widget = tree_widget(tracer)
    data, _ = widget._repr_mimebundle_()
    assert data[WIDGET_VIEW]["model_id"] == widget.model_id  # a front end still draws the widget
    assert data["image/svg+xml"] == tree_svg(root.as_dict(game.format_move))
    text = data["text/plain"]
    assert text == (
        f"search tree of {count_nodes(root):,} nodes, root value {root.value} "
        "(an interactive widget in Jupyter; a static drawing elsewhere)"
    )
    assert "object at 0x" not in repr(widget) and text in repr(widget)
