"""Jupyter display: a position as an SVG board, a search result as a table, a tree as a widget.

In IPython or Jupyter, ``import gamesearch`` registers the drawings with IPython's
display formatter (:func:`show_in_notebooks`; ``%load_ext gamesearch.notebook`` does
it too): a position then shows itself as its :func:`board_svg`, drawn from the game's
:meth:`~gamesearch.game.Game.board_view`, and a :class:`SearchResult` as its
:func:`result_html`. Neither the game protocol nor the searchers import this module.
:func:`tree_widget` turns a traced search
(:class:`~gamesearch.trace.TreeTracer`) into an interactive tree: click a node to fold
or unfold it and to see its position. It needs the ``notebook`` extra
(``pip install 'gamesearch[notebook]'``, which brings anywidget).
"""

from __future__ import annotations

import html
import sys
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any

from gamesearch import capabilities

if TYPE_CHECKING:
    from gamesearch.boardview import BoardView
    from gamesearch.game import Game
    from gamesearch.looks import BoardLook
    from gamesearch.search.base import SearchResult
    from gamesearch.trace import TreeTracer

#: size of one board cell, in SVG pixels
CELL = 48
#: narrowest drawing, so that the caption fits under a small board
MIN_WIDTH = 220
#: colours of the players' marks, first player first
PLAYER_COLOURS = (
    "#c62828",
    "#1565c0",
    "#2e7d32",
    "#6a1b9a",
    "#ef6c00",
    "#00838f",
    "#5d4037",
    "#455a64",
)


def show_in_notebooks(shell: Any = None) -> bool:
    """Register :func:`board_svg` for every game and :func:`result_html` for every search
    result with the display formatter of the IPython ``shell`` (default: the running one).

    Returns whether they were registered: false outside IPython (nothing to do there).
    """
    if shell is None:
        ipython = sys.modules.get("IPython")  # never imported here: only when it runs
        shell = ipython.get_ipython() if ipython is not None else None
        if shell is None:
            return False
    from gamesearch.game import Game
    from gamesearch.search.base import SearchResult

    formatters = shell.display_formatter.formatters
    formatters["image/svg+xml"].for_type(Game, board_svg)
    formatters["text/html"].for_type(SearchResult, result_html)
    return True


def load_ipython_extension(shell: Any) -> None:
    """Show positions and results as drawings in ``shell`` (``%load_ext gamesearch.notebook``)."""
    show_in_notebooks(shell)


def board_svg(game: Game[Any]) -> str | None:
    """Return an SVG drawing of ``game``'s board, or ``None`` when the game has no grid view.

    A game whose plugin declares the ``hexes`` look (Hex) is drawn as its rhombus of
    hexagons with each player's sides in its colour (:func:`hexes_geometry`).

    Each cell shows its mark (the first player's in red, the second's in blue). Where
    one move may fill several cells (a column of Connect Four), the marks are drawn
    as discs and the move's text is written once, in the last free cell it names (the
    one a dropped disc lands in); elsewhere each free cell shows its move in grey. The
    caption says who is to move or how the game ended.
    """
    view = capabilities.board_view(game)
    if view is None:
        return None
    look = _look(game)
    if look.kind == "hexes":
        return _hexes_svg(game, view, look)
    width, height = view.cols * CELL, view.rows * CELL
    outer = max(width, MIN_WIDTH)  # room for the caption under a small board
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{outer + 2}" height="{height + 26}" '
        f'viewBox="-1 -1 {outer + 2} {height + 26}" font-family="sans-serif">',
        f'<g transform="translate({(outer - width) // 2},0)">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fafafa" stroke="#555"/>',
    ]
    names = list(capabilities.player_names(game))
    labelled: dict[str, int] = {}  # move text -> the free cell that shows it (the last one)
    for index, (symbol, move) in enumerate(zip(view.symbols, view.moves, strict=True)):
        if move is not None and not symbol:
            labelled[move] = index
    discs = _moves_fill_several_cells(game)
    for index, symbol in enumerate(view.symbols):
        row, col = divmod(index, view.cols)
        x, y = col * CELL, row * CELL
        parts.append(
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="none" stroke="#bbb"/>'
        )
        centre_x, centre_y = x + CELL // 2, y + CELL // 2
        colour = (
            PLAYER_COLOURS[names.index(symbol) % len(PLAYER_COLOURS)] if symbol in names else "#333"
        )
        if symbol and discs:
            parts.append(
                f'<circle cx="{centre_x}" cy="{centre_y}" r="{CELL * 0.4:.0f}" fill="{colour}"/>'
            )
        elif symbol:
            parts.append(
                f'<text x="{centre_x}" y="{centre_y}" font-size="{CELL * 0.6:.0f}" '
                'font-weight="bold" '
                f'fill="{colour}" text-anchor="middle" '
                f'dominant-baseline="central">{html.escape(symbol)}</text>'
            )
        elif view.moves[index] is not None and labelled.get(view.moves[index] or "") == index:
            parts.append(
                f'<text x="{centre_x}" y="{centre_y}" font-size="{CELL * 0.25:.0f}" fill="#999" '
                'text-anchor="middle" '
                f'dominant-baseline="central">{html.escape(str(view.moves[index]))}</text>'
            )
    parts.append(
        f'<text x="{width // 2}" y="{height + 17}" font-size="14" text-anchor="middle">'
        f"{html.escape(status_line(game))}</text>"
    )
    parts.append("</g></svg>")
    return "".join(parts)


def _look(game: Game[Any]) -> BoardLook:
    """Return the look ``game``'s plugin declares (the plain grid for an unregistered game)."""
    from gamesearch.plugins import default_registry

    return default_registry().board_look(type(game).name)


def hexes_geometry(rows: int, cols: int, width: float) -> list[list[tuple[float, float]]]:
    """Return the corners of each cell of a rhombus of pointed-top hexagons ``width``
    across, row by row, each row half a cell right of the one above (the ``hexes`` look;
    the board page's ``hexes.js`` draws the same shape): for each cell its top, upper
    right, lower right, bottom, lower left and upper left corners, from the drawing's top
    left."""
    radius = width / 3**0.5  # centre to corner
    cells = []
    for index in range(rows * cols):
        row, col = divmod(index, cols)
        x, y = width / 2 + (col + row / 2) * width, radius + 1.5 * radius * row
        half, quarter = width / 2, radius / 2
        cells.append(
            [
                (x, y - radius),
                (x + half, y - quarter),
                (x + half, y + quarter),
                (x, y + radius),
                (x - half, y + quarter),
                (x - half, y - quarter),
            ]
        )
    return cells


#: for each side of a ``hexes`` board: which cells lie along it (from rows and columns)
#: and which of their corners (indexes into :func:`hexes_geometry`'s) the side runs through
HEX_SIDES: dict[str, tuple[Callable[[int, int], range], tuple[int, ...]]] = {
    "top": (lambda rows, cols: range(cols), (5, 0, 1)),
    "bottom": (lambda rows, cols: range((rows - 1) * cols, rows * cols), (4, 3, 2)),
    "left": (lambda rows, cols: range(0, rows * cols, cols), (5, 4)),
    "right": (lambda rows, cols: range(cols - 1, rows * cols, cols), (1, 2)),
}
#: the colours of a ``hexes`` board: the first player's stones and sides, the second's
HEX_COLOURS = ("#151515", "#fafafa")


def _hexes_svg(game: Game[Any], view: BoardView, look: BoardLook) -> str:
    """Return the SVG of a ``hexes`` board: hexagons, the stones, each free cell's move
    text in grey, the sides in their players' colours and the status line under it."""
    margin = 8
    cells = hexes_geometry(view.rows, view.cols, CELL)
    width = (view.cols + (view.rows - 1) / 2) * CELL + 2 * margin
    height = cells[-1][3][1] + 2 * margin
    outer = max(width, MIN_WIDTH)
    names = list(capabilities.player_names(game))

    def points(corners: Iterable[tuple[float, float]]) -> str:
        return " ".join(f"{x + margin:.1f},{y + margin:.1f}" for x, y in corners)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{outer + 2:.0f}" '
        f'height="{height + 26:.0f}" viewBox="-1 -1 {outer + 2:.0f} {height + 26:.0f}" '
        'font-family="sans-serif">',
        f'<g transform="translate({(outer - width) / 2:.1f},0)">',
        f'<rect x="0" y="0" width="{width:.1f}" height="{height:.1f}" fill="#c9a66b" rx="6"/>',
    ]
    for index, (symbol, move) in enumerate(zip(view.symbols, view.moves, strict=True)):
        corners = cells[index]
        parts.append(f'<polygon points="{points(corners)}" fill="#f1dfb5" stroke="#8a7350"/>')
        centre_x, centre_y = corners[0][0] + margin, (corners[0][1] + corners[3][1]) / 2 + margin
        player = next((at for at, name in enumerate(names) if symbol and name[0] == symbol), -1)
        if player >= 0:
            parts.append(
                f'<circle cx="{centre_x:.1f}" cy="{centre_y:.1f}" r="{CELL * 0.36:.1f}" '
                f'fill="{HEX_COLOURS[player % 2]}" stroke="#555"/>'
            )
        elif move is not None:
            parts.append(
                f'<text x="{centre_x:.1f}" y="{centre_y:.1f}" font-size="{CELL * 0.25:.0f}" '
                'fill="#8a7350" text-anchor="middle" '
                f'dominant-baseline="central">{html.escape(move)}</text>'
            )
    for side, player in look.edges.items():
        along, corners_on_side = HEX_SIDES[side]
        line = [
            cells[index][corner]
            for index in along(view.rows, view.cols)
            for corner in corners_on_side
        ]
        parts.append(
            f'<polyline points="{points(line)}" fill="none" stroke="{HEX_COLOURS[player % 2]}" '
            f'stroke-width="5" stroke-linejoin="round" stroke-linecap="round" data-side="{side}"/>'
        )
    parts.append(
        f'<text x="{width / 2:.1f}" y="{height + 17:.1f}" font-size="14" text-anchor="middle">'
        f"{html.escape(status_line(game))}</text>"
    )
    parts.append("</g></svg>")
    return "".join(parts)


def _moves_fill_several_cells(game: Game[Any]) -> bool:
    """Return whether one move names several cells of ``game``'s board (a column of Connect Four).

    A finished game has no moves to look at, so the starting position of the same
    options decides.
    """
    view = capabilities.board_view(game)
    if view is not None and game.result() is not None:
        view = capabilities.board_view(type(game).new(**game.settings))
    if view is None:
        return False
    moves = [move for move in view.moves if move is not None]
    return len(moves) > len(set(moves))


def status_line(game: Game[Any]) -> str:
    """Return who is to move in ``game``, or how it ended."""
    from gamesearch.rules import Outcome
    from gamesearch.rules import outcome as outcome_of
    from gamesearch.words import describe_result

    outcome = outcome_of(game)
    if outcome is None:
        return f"{capabilities.player_names(game)[game.to_move()]} to move"
    final: Any = game.result()
    if isinstance(final, tuple):  # one utility per player
        return f"the game is over: {describe_result(game, final)}"
    if outcome is Outcome.DRAW:
        return "the game is over: a draw"
    winner = capabilities.player_names(game)[0 if outcome is Outcome.FIRST_WINS else 1]
    return f"the game is over: {winner} won"


def _move_text(move: Hashable | None, game: Game[Any] | None) -> str:
    if move is None:
        return "-"
    return game.format_move(move) if game is not None else str(move)


def result_html(result: SearchResult, game: Game[Any] | None = None) -> str:
    """Return ``result`` as an HTML table: the answer, the work done, and each root move's value.

    Moves are written in ``game``'s notation when it is given, else with ``str``.
    """
    from gamesearch.words import number_text

    stats = result.stats
    best = ", ".join(_move_text(move, game) for move in result.best_moves) or "-"
    rows = [
        ("searcher", result.searcher),
        ("move", _move_text(result.move, game)),
        ("value", result.value_text + ("" if result.is_exact else " (heuristic)")),
        *(
            [("utilities", ", ".join(number_text(value) for value in result.utilities))]
            if result.utilities
            else []
        ),
        ("best moves", best),
        ("nodes", f"{stats.nodes:,}"),
        ("leaves", f"{stats.leaves:,}"),
        ("cut-offs", f"{stats.cutoffs:,}"),
        ("table hits", f"{stats.tt_hits:,}"),
        ("depth", str(stats.depth)),
        ("seconds", f"{stats.seconds:.3f}"),
    ]
    body = "".join(
        f"<tr><th style='text-align:left'>{name}</th><td>{html.escape(value)}</td></tr>"
        for name, value in rows
    )
    table = f"<table class='gamesearch-result'>{body}</table>"
    if result.move_values:
        moves = "".join(
            f"<tr><td>{html.escape(_move_text(move, game))}</td><td "
            f"style='text-align:right'>{value}</td></tr>"
            for move, value in result.move_values
        )
        table += (
            f"<table class='gamesearch-moves'><tr><th>move</th><th>value</th></tr>{moves}</table>"
        )
    return table


_ESM = """
function node(data, onPick) {
  const item = document.createElement("li");
  const label = document.createElement("span");
  const who = data.move === null ? "root" : data.move;
  const value = data.value === null ? "?" : data.value;
  const bound = data.bound === "upper" || data.bound === "lower" ? ` (${data.bound} bound)` : "";
  const bounds = `[${data.alpha ?? "-inf"}, ${data.beta ?? "+inf"}]`;
  label.textContent = `${who}  window ${bounds}  value ${value}${bound}`;
  label.style.cursor = "pointer";
  item.appendChild(label);
  if (data.children.length || data.pruned.length) {
    const list = document.createElement("ul");
    for (const child of data.children) list.appendChild(node(child, onPick));
    if (data.pruned.length) {
      const cut = document.createElement("li");
      cut.textContent = `pruned: ${data.pruned.join(", ")}`;
      cut.style.opacity = "0.5";
      list.appendChild(cut);
    }
    item.appendChild(list);
    label.addEventListener("click", () => {
      list.hidden = !list.hidden;
      onPick(data);
    });
  } else {
    label.addEventListener("click", () => onPick(data));
  }
  return item;
}
function render({ model, el }) {
  const picked = document.createElement("pre");
  const draw = () => {
    el.replaceChildren();
    const tree = model.get("tree");
    if (!tree) return;
    const list = document.createElement("ul");
    list.appendChild(node(tree, (data) => {
      picked.textContent = data.position ?? "";
      model.set("selected", data.position ?? "");
      model.save_changes();
    }));
    el.append(list, picked);
  };
  model.on("change:tree", draw);
  draw();
}
export default { render };
"""


#: the most nodes the static drawing of a tree shows (the rest are counted in a last line)
SVG_TREE_NODES = 200
#: height of one line of the static tree drawing, and the indent of one ply, in SVG pixels
TREE_LINE = 18
TREE_INDENT = 20


def node_label(node: dict[str, Any]) -> str:
    """Return one node of a traced tree (``TraceNode.as_dict()``) as the widget labels it:
    its move (``root`` for the root), its window and its value, with the kind of bound."""
    move = "root" if node["move"] is None else str(node["move"])
    value = "?" if node["value"] is None else str(node["value"])
    bound = f" ({node['bound']} bound)" if node.get("bound") in ("upper", "lower") else ""
    low = "-inf" if node["alpha"] is None else node["alpha"]
    high = "+inf" if node["beta"] is None else node["beta"]
    return f"{move}  window [{low}, {high}]  value {value}{bound}"


def _tree_lines(tree: dict[str, Any]) -> tuple[list[tuple[int, str, bool]], int]:
    """Return the lines ``(ply, text, is_faded)`` of ``tree`` in the widget's order (a node,
    its children, then its pruned moves), up to :data:`SVG_TREE_NODES` nodes, and the
    number of nodes left out."""
    lines: list[tuple[int, str, bool]] = []
    nodes = left_out = 0
    stack: list[tuple[int, dict[str, Any] | str]] = [(0, tree)]
    while stack:
        ply, item = stack.pop()
        if isinstance(item, str):  # the moves a node pruned
            lines.append((ply, item, True))
            continue
        children = [(ply + 1, child) for child in reversed(item["children"])]
        if nodes >= SVG_TREE_NODES:
            left_out += 1
            stack.extend(children)
            continue
        nodes += 1
        lines.append((ply, node_label(item), False))
        if item["pruned"]:  # (under the children: pushed before them)
            stack.append((ply + 1, "pruned: " + ", ".join(map(str, item["pruned"]))))
        stack.extend(children)
    return lines, left_out


def tree_svg(tree: dict[str, Any]) -> str:
    """Return a static SVG drawing of a traced tree (``TraceNode.as_dict()``): one line per
    node, indented by ply, as the tree widget lists them, the pruned moves faded; a tree of
    more than :data:`SVG_TREE_NODES` nodes ends with a line counting the rest."""
    lines, left_out = _tree_lines(tree)
    if left_out:
        lines.append((0, f"... and {left_out:,} more nodes (the widget shows them all)", True))
    deepest = max(ply for ply, _, _ in lines)
    longest = max(len(text) for _, text, _ in lines)
    width = TREE_INDENT * (deepest + 2) + 8 * longest
    faded = " fill-opacity='0.5'"
    texts = "".join(
        f"<text x='{TREE_INDENT * (ply + 1)}' y='{TREE_LINE * (row + 1)}'"
        f"{faded if is_faded else ''}>{html.escape(text)}</text>"
        for row, (ply, text, is_faded) in enumerate(lines)
    )
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' "
        f"height='{TREE_LINE * (len(lines) + 1)}' font-family='monospace' font-size='13'>"
        f"{texts}</svg>"
    )


def tree_text(tree: dict[str, Any]) -> str:
    """Return what a traced tree's widget says of itself as plain text: what it is, its
    size, the root's value and where the interactive view shows."""
    count, stack = 0, [tree]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(node["children"])
    value = "?" if tree["value"] is None else tree["value"]
    return (
        f"search tree of {count:,} node{'s' if count != 1 else ''}, root value {value} "
        "(an interactive widget in Jupyter; a static drawing elsewhere)"
    )


def tree_widget(tracer: TreeTracer, game: Game[Any] | None = None) -> Any:
    """Return an interactive widget of the last tree ``tracer`` recorded.

    Each node shows its move, window and value; clicking one folds or unfolds it
    and shows its position (trait ``selected``). Moves are written in ``game``'s
    notation (default: the tracer's game). Where no widget front end runs (a static
    page, a notebook viewer), the widget shows as :func:`tree_svg` and as the text
    of :func:`tree_text`.

    :raises ImportError: anywidget is not installed (the ``notebook`` extra).
    :raises ValueError: the tracer recorded no search.
    """
    try:
        import anywidget
        import traitlets
    except ImportError as missing:
        raise ImportError(
            "the tree widget needs anywidget: pip install 'gamesearch[notebook]'"
        ) from missing
    if not tracer.roots:
        raise ValueError(f"the tracer recorded no search: {tracer!r}")
    game = game if game is not None else tracer.game
    format_move = game.format_move if game is not None else str

    class TreeWidget(anywidget.AnyWidget):
        _esm = _ESM
        tree = traitlets.Dict().tag(sync=True)
        selected = traitlets.Unicode("").tag(sync=True)

        def __repr__(self) -> str:
            return f"<{tree_text(self.tree)}>"

        def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
            # the widget's view, and beside it what a page without a front end can show
            found = super()._repr_mimebundle_(**kwargs)
            data, metadata = found if isinstance(found, tuple) else (found or {}, {})
            static = {"text/plain": tree_text(self.tree), "image/svg+xml": tree_svg(self.tree)}
            return {**data, **static}, metadata

    return TreeWidget(tree=tracer.roots[-1].as_dict(format_move))
