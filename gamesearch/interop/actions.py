"""Actions as numbers for the bridges: a game's moves as the cells and buttons of its board view.

Reinforcement-learning and game-theory libraries number their actions from 0 up to a
count fixed by the game. A game that draws its board as a grid of single clicks
(:class:`~gamesearch.boardview.BoardView`) gives such numbers: each cell is an action,
row by row from the top left, then :data:`EXTRA_ACTIONS` slots for the moves the view
offers as buttons beside the board (a pass), in the order it lists them. Where several
cells play the same move (every cell of a Connect Four column), the first of them
stands for it, so each legal move has exactly one action.

A game whose moves take two clicks at its start (checkers: a piece, then where it goes)
numbers each move by the cell it starts from and the cell it ends on,
``first * cells + last``, then the buttons. Two moves with the same ends (a capture
around a ring, either way) share their action: the first the game lists stands for it.
"""

from __future__ import annotations

import attrs

from gamesearch.boardview import BoardView
from gamesearch.errors import UnsupportedGameError

__all__ = ["EXTRA_ACTIONS", "ActionLayout", "layout_of"]

#: action slots after the cells, for the moves a board view offers as buttons (a pass)
EXTRA_ACTIONS = 2


@attrs.frozen
class ActionLayout:
    """How a game's moves are numbered: by the cell clicked (``paths`` false) or by the
    first and last cells of a two-click move (``paths`` true), then the buttons."""

    cells: int  #: cells of the board view
    paths: bool = False

    @property
    def count(self) -> int:
        """Return how many actions there are (some never legal)."""
        return (self.cells * self.cells if self.paths else self.cells) + EXTRA_ACTIONS

    def legal(self, view: BoardView, name: str) -> dict[int, str]:
        """Return the legal actions of the position drawn as ``view`` (of the game
        ``name``), each with the text of the move it plays.

        :raises UnsupportedGameError: for more buttons than :data:`EXTRA_ACTIONS`, or a
            move of the other kind than the game's start had.
        """
        actions: dict[int, str] = {}
        seen: set[str] = set()
        if view.paths and not self.paths:
            raise UnsupportedGameError(
                f"game {name!r} has a move of two clicks, which its start position did not "
                "have; its actions are numbered by single cells"
            )
        if self.paths:
            for path_text, cells in view.paths:
                action = cells[0] * self.cells + cells[-1]
                if path_text not in seen and action not in actions:
                    actions[action] = path_text
                seen.add(path_text)
        for cell, text in enumerate(view.moves):
            if text is not None and text not in seen:
                if self.paths:
                    raise UnsupportedGameError(
                        f"game {name!r} has a move of one click, {text!r}, where its actions "
                        "are numbered by the two cells of each move"
                    )
                seen.add(text)
                actions[cell] = text
        if len(view.extra_moves) > EXTRA_ACTIONS:
            raise UnsupportedGameError(
                f"game {name!r} offers {len(view.extra_moves)} buttons beside the board; "
                f"the actions have room for {EXTRA_ACTIONS}"
            )
        base = self.count - EXTRA_ACTIONS
        for slot, (_, text) in enumerate(view.extra_moves):
            actions[base + slot] = text
        return actions


def layout_of(view: BoardView | None, name: str) -> ActionLayout:
    """Return the numbering of the actions of the game ``name``, whose start is drawn as
    ``view``: by cell, or by first and last cell when its start has two-click moves.

    :raises UnsupportedGameError: for a game that draws no grid.
    """
    if view is None:
        raise UnsupportedGameError(
            f"game {name!r} draws no board grid, so its moves cannot be numbered as actions"
        )
    return ActionLayout(view.rows * view.cols, paths=bool(view.paths))
