"""A position drawn as a clickable grid (:class:`BoardView`): the web board and the
notebook draw it, a game returns it from its presentation capability."""

from __future__ import annotations

import attrs


@attrs.frozen
class BoardView:
    """A grid drawing of a position for boards that are not text: the web board uses it.

    ``symbols`` and ``moves`` list the cells row by row from the top left. A click on
    cell ``i`` plays ``moves[i]`` (move text), or nothing where it is ``None``.
    ``extra_moves`` are legal moves that are no cell, as ``(label, move text)`` pairs
    (a pass, for example): the page shows them as buttons.

    ``paths`` are legal moves that take two clicks, a piece's cell then the cell it
    goes to, as ``(move text, cells)`` pairs, the cells it passes through from first to
    last (a draughts jump passes through several). ``caption`` says what the position
    holds that the cells do not show (a count toward a draw, say), in a line the page
    shows under the board; two positions whose cells are alike differ in it.
    """

    rows: int
    cols: int
    symbols: tuple[str, ...]  #: what each cell shows ("X", "O", "" for empty, ...)
    moves: tuple[str | None, ...]  #: the move a click on each cell plays, if any
    extra_moves: tuple[tuple[str, str], ...] = ()
    paths: tuple[tuple[str, tuple[int, ...]], ...] = attrs.field(default=(), kw_only=True)
    caption: str = attrs.field(default="", kw_only=True)
