"""How the browser board draws a game: a look a plugin declares as data.

The board page draws any game from its board view (rows, columns, each cell's symbol
and the move a click plays) as a grid of symbols. A plugin that wants a fitting
drawing (discs that drop into columns, drawn marks, stones, piece glyphs) registers a
:class:`BoardLook` for its game with the ``gamesearch_register_board_looks`` hook::

    @hookimpl
    def gamesearch_register_board_looks(registry):
        registry.add_board_look("mygame", BoardLook(kind="discs", checkered=True))

The look travels to the page as JSON in the catalogue (``GET /api/games``); the page
holds no table of games.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

import attrs

#: the drawings the board page knows
KINDS = ("grid", "drop", "marks", "discs", "pieces", "hexes")
Kind = Literal["grid", "drop", "marks", "discs", "pieces", "hexes"]
#: how a symbol is given to a player: by the player names, or by letter case
PLAYER_RULES = ("names", "case")
#: where rows are numbered from when the board has coordinates
COORDINATES = (None, "from-bottom", "from-top")
#: the sides of a board an ``edges`` look may give to a player
SIDES = ("top", "right", "bottom", "left")


def _symbol_map(value: Mapping[str, str] | None) -> Mapping[str, str]:
    return dict(value or {})


def _symbols(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


def _edges(value: Mapping[str, int] | None) -> Mapping[str, int]:
    edges = dict(value or {})
    unknown = sorted(side for side in edges if side not in SIDES)
    if unknown:
        raise ValueError(f"board sides {unknown!r} are not among {', '.join(SIDES)}")
    return edges


@attrs.frozen(kw_only=True)
class BoardLook:
    """How the board page draws one game; every field has a plain default.

    - ``kind``: ``"grid"`` (each cell's symbol as text), ``"drop"`` (discs falling into
      columns, one move per column, column numbers above), ``"marks"`` (drawn X and O),
      ``"discs"`` (round stones), ``"pieces"`` (a glyph per symbol) or ``"hexes"``
      (stones on hexagonal cells in a rhombus, each row shifted half a cell right of
      the one above, as on a Hex board);
    - ``checkered``: shade alternate squares (draughts, chess);
    - ``glyphs``: what to draw for a symbol (``{"K": "♔"}``);
    - ``names``: what a screen reader says for a symbol (``{"r": "black rook"}``);
    - ``crowned``: symbols drawn as a disc with a crown (a draughts king);
    - ``player_of``: ``"names"`` (a symbol belongs to the player of that name, or whose
      name starts with its letter) or ``"case"`` (upper case: the first player);
    - ``win_length``: how many in a row win, for drawing the winning line;
      ``win_length_option`` names the game option that sets it instead (tic-tac-toe's
      ``k``), ``win_length`` being its default;
    - ``coordinates``: letters a, b, c... under the columns and numbers beside the rows,
      counted ``"from-bottom"`` (chess) or ``"from-top"`` (Othello); a cell is then
      named like ``a8``;
    - ``edges``: the player (0 for the first) whose colour each side of the board
      wears (``{"top": 0, "bottom": 0}``): the sides a player's chain must join.
    """

    kind: Kind = attrs.field(default="grid", validator=attrs.validators.in_(KINDS))
    checkered: bool = False
    glyphs: Mapping[str, str] = attrs.field(factory=dict, converter=_symbol_map)
    names: Mapping[str, str] = attrs.field(factory=dict, converter=_symbol_map)
    crowned: tuple[str, ...] = attrs.field(default=(), converter=_symbols)
    player_of: str = attrs.field(default="names", validator=attrs.validators.in_(PLAYER_RULES))
    win_length: int | None = None
    win_length_option: str | None = None
    coordinates: str | None = attrs.field(default=None, validator=attrs.validators.in_(COORDINATES))
    edges: Mapping[str, int] = attrs.field(factory=dict, converter=_edges)

    def as_dict(self) -> dict[str, Any]:
        """Return the look as JSON-ready data (the catalogue's ``look`` of a game)."""
        return {
            "kind": self.kind,
            "checkered": self.checkered,
            "glyphs": dict(self.glyphs),
            "names": dict(self.names),
            "crowned": list(self.crowned),
            "player_of": self.player_of,
            "win_length": self.win_length,
            "win_length_option": self.win_length_option,
            "coordinates": self.coordinates,
            "edges": dict(self.edges),
        }


#: the look of a game whose plugin declares none
PLAIN = BoardLook()
