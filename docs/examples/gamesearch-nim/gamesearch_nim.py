"""Nim for gamesearch: a game plugin that lives in its own package.

Nim is played with heaps of objects. A move takes one or more objects from a single
heap; whoever takes the last object wins. Theory (C. L. Bouton, 1901): the player
to move loses against perfect play exactly when the XOR of the heap sizes (the
*nim-sum*) is zero, and wins by moving to a position whose nim-sum is zero.

Notation: heaps are lettered ``A``, ``B``, ``C``, ...; a move is a heap letter and
the number of objects it takes (``B3``). A position is the heap sizes, then ``@``
and the number of moves played (``1,4,5@1``); without ``@`` no move has been
played. The ``heaps`` option is the starting position (``3,4,5`` by default).
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence
from string import ascii_uppercase
from typing import Any

from gamesearch.boardview import BoardView
from gamesearch.errors import (
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
)
from gamesearch.game import Game, Option
from gamesearch.plugins import Registry, hookimpl
from gamesearch.rules import Player, Rules

#: a move: (heap index, objects taken)
Move = tuple[int, int]
MAX_HEAPS = len(ascii_uppercase)
MAX_HEAP_SIZE = 99
OBJECT = "●"


def parse_heaps(text: str) -> tuple[int, ...]:
    """Return the heap sizes written as ``"3,4,5"``.

    :raises ValueError: naming the text and what would be valid.
    """
    try:
        heaps = tuple(int(part) for part in str(text).split(","))
    except ValueError:
        heaps = ()
    if not 1 <= len(heaps) <= MAX_HEAPS or not all(0 <= heap <= MAX_HEAP_SIZE for heap in heaps):
        raise ValueError(
            f"heaps {text!r} must be 1 to {MAX_HEAPS} sizes from 0 to {MAX_HEAP_SIZE}, "
            "separated by commas, e.g. '3,4,5'"
        )
    return heaps


def nim_sum(heaps: Sequence[int]) -> int:
    """Return the XOR of the heap sizes: zero exactly when the player to move loses."""
    return functools.reduce(operator.xor, heaps, 0)


class Nim(Game[Move]):
    """Nim: take objects from one heap; whoever takes the last object wins."""

    name = "nim"
    options = (Option("heaps", str, "3,4,5", "starting heap sizes, separated by commas"),)

    def __init__(self, heaps: str = "3,4,5") -> None:
        try:
            self._start = parse_heaps(heaps)
        except ValueError as error:
            raise InvalidOptionError(f"option 'heaps': {error}") from None
        self._heaps = list(self._start)
        self._left = sum(self._start)
        self._ply = 0

    @property
    def rules(self) -> Rules:
        """Every move takes at least one object and passes the turn; results are win/loss."""
        return Rules(max_plies=sum(self._start), alternating=True)

    # ----------------------------------------------------------------- creation
    @classmethod
    def from_text(cls, text: str, **options: Any) -> Nim:
        """Return the position ``"1,4,5@1"`` of the game that started with the ``heaps`` option.

        Without that option the text itself is the start when it has no ``@``.

        :raises InvalidPositionError: for bad text, or heaps the start cannot lead to.
        """
        heaps_text, has_ply, ply_text = str(text).strip().partition("@")
        try:
            heaps = parse_heaps(heaps_text)
            ply = int(ply_text) if has_ply else 0
        except ValueError as error:
            raise InvalidPositionError(
                f"position {text!r} must be heap sizes and '@' moves played, e.g. '1,4,5@1' "
                f"({error})"
            ) from None
        if "heaps" not in options and not has_ply:
            options = {**options, "heaps": heaps_text}
        game = cls.new(**options)
        game._set_position(text, heaps, ply)
        return game

    def _set_position(self, text: str, heaps: tuple[int, ...], ply: int) -> None:
        start = self._start
        if len(heaps) != len(start):
            raise InvalidPositionError(
                f"position {text!r} has {len(heaps)} heaps; the game started with {len(start)}: "
                f"{self.settings['heaps']!r}"
            )
        for index, (heap, first) in enumerate(zip(heaps, start, strict=True)):
            if heap > first:
                raise InvalidPositionError(
                    f"position {text!r} has {heap} objects in heap {ascii_uppercase[index]}, "
                    f"which started with {first}"
                )
        taken = sum(start) - sum(heaps)
        if not (ply > 0) == (taken > 0) or ply > taken:
            raise InvalidPositionError(
                f"position {text!r}: {ply} moves cannot take {taken} objects (each move takes "
                f"at least one) from the start {self.settings['heaps']!r}"
            )
        self._heaps = list(heaps)
        self._left = sum(heaps)
        self._ply = ply
        self._history = []

    def copy(self) -> Nim:
        twin = object.__new__(type(self))
        twin._start = self._start
        twin._heaps = self._heaps.copy()
        twin._left = self._left
        twin._ply = self._ply
        twin._history = self._history.copy()
        return twin

    @property
    def settings(self) -> dict[str, Any]:
        return {"heaps": ",".join(map(str, self._start))}

    # ------------------------------------------------------------ state queries
    @property
    def heaps(self) -> tuple[int, ...]:
        """Return the heap sizes now."""
        return tuple(self._heaps)

    @property
    def ply(self) -> int:
        return self._ply

    def to_move(self) -> Player:
        return Player.SECOND if self._ply & 1 else Player.FIRST

    def legal_moves(self) -> Sequence[Move]:
        return tuple(
            (index, count) for index, heap in enumerate(self._heaps) for count in range(1, heap + 1)
        )

    def ordered_moves(self) -> Sequence[Move]:
        """Return the winning moves (to a nim-sum of zero) first, then the largest takes."""
        total = nim_sum(self._heaps)
        return sorted(
            self.legal_moves(),
            key=lambda move: (
                self._heaps[move[0]] - move[1] != self._heaps[move[0]] ^ total,
                -move[1],
            ),
        )

    def result(self) -> int | None:
        if self._left:
            return None
        return 1 if self._ply & 1 else -1  # whoever took the last object won

    def key(self) -> tuple[int, ...]:
        return (self._ply, *self._heaps)

    # ------------------------------------------------------------------ changes
    def make_move(self, move: Move) -> None:
        heap, count = move
        self._heaps[heap] -= count
        self._left -= count
        self._ply += 1

    def unmake_move(self, move: Move) -> None:
        heap, count = move
        self._heaps[heap] += count
        self._left += count
        self._ply -= 1

    # --------------------------------------------------------------------- text
    def to_text(self) -> str:
        return f"{','.join(map(str, self._heaps))}@{self._ply}"

    def parse_move(self, text: str) -> Move:
        letters = ascii_uppercase[: len(self._heaps)]
        written = str(text).strip().upper()
        letter, count_text = written[:1], written[1:]
        if not letter or letter not in letters or not count_text.isdigit() or int(count_text) < 1:
            raise InvalidMoveError(
                f"move {text!r} must be a heap letter from A to {letters[-1]} and how many "
                "objects to take, e.g. 'A1'"
            )
        return (letters.index(letter), int(count_text))

    def format_move(self, move: Move) -> str:
        heap, count = move
        return f"{ascii_uppercase[heap]}{count}"

    def render(self) -> str:
        return "\n".join(
            f"{ascii_uppercase[index]} {heap:>2} {OBJECT * heap}"
            for index, heap in enumerate(self._heaps)
        )

    def board_view(self) -> BoardView:
        """Return one row per heap; a click on an object takes it and every object to its right."""
        width = max(1, *self._start)
        symbols: list[str] = []
        moves: list[str | None] = []
        for index, heap in enumerate(self._heaps):
            for column in range(width):
                symbols.append(OBJECT if column < heap else "")
                moves.append(self.format_move((index, heap - column)) if column < heap else None)
        return BoardView(len(self._heaps), width, tuple(symbols), tuple(moves))


@hookimpl
def gamesearch_register_games(registry: Registry) -> None:
    """Register Nim."""
    registry.add_game(Nim)
