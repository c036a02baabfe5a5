"""Actions as numbers for the bridges: a game's moves as the cells and buttons of its board view.

Reinforcement-learning and game-theory libraries number their actions from 0 up to a
count fixed by the game. A game that draws its board as a grid of single clicks
(:class:`~gamesearch.boardview.BoardView`) gives such numbers: each cell is an action,
row by row from the top left, then :data:`EXTRA_ACTIONS` slots for the moves the view
offers as buttons beside the board (a pass), in the order it lists them. Where several
cells play the same move (every cell of a Connect Four column), the first of them
stands for it, so each legal move has exactly one action.
"""

from __future__ import annotations

from gamesearch.boardview import BoardView
from gamesearch.errors import UnsupportedGameError

__all__ = ["EXTRA_ACTIONS", "grid_view", "legal_actions"]

#: action slots after the cells, for the moves a board view offers as buttons (a pass)
EXTRA_ACTIONS = 2


def grid_view(view: BoardView | None, name: str) -> BoardView:
    """Return ``view``, checked to be a grid whose moves are single clicks.

    :raises UnsupportedGameError: otherwise, naming the game.
    """
    if view is None:
        raise UnsupportedGameError(
            f"game {name!r} draws no board grid, so its moves cannot be numbered as actions"
        )
    if view.paths:
        raise UnsupportedGameError(
            f"game {name!r} has moves that take two clicks (a piece, then where it goes); "
            "they cannot be numbered by the cell clicked"
        )
    return view


def legal_actions(view: BoardView, cells: int, name: str) -> dict[int, str]:
    """Return the legal actions of a position drawn as ``view`` (a grid of ``cells``
    cells of the game ``name``), each with the text of the move it plays: the first
    cell of each move, then the buttons.

    :raises UnsupportedGameError: for more buttons than :data:`EXTRA_ACTIONS`.
    """
    actions: dict[int, str] = {}
    seen: set[str] = set()
    for cell, text in enumerate(view.moves):
        if text is not None and text not in seen:
            seen.add(text)
            actions[cell] = text
    if len(view.extra_moves) > EXTRA_ACTIONS:
        raise UnsupportedGameError(
            f"game {name!r} offers {len(view.extra_moves)} buttons beside the board; "
            f"the actions have room for {EXTRA_ACTIONS}"
        )
    for slot, (_, text) in enumerate(view.extra_moves):
        actions[cells + slot] = text
    return actions
