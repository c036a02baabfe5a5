"""Repetition on the searched line: a position seen before on it is a draw.

The readable twin of :mod:`gamesearch.search.repetition`. In a game whose result
depends on the moves played (it declares
:class:`~gamesearch.capabilities.Repetition`), a search scores a position that
occurred before on the line from the root (the root included) as a draw, the usual
practice of game-playing programs: whoever could win from it could have played that
win the first time, so only the side that cannot do better than a draw repeats.
"""

from __future__ import annotations

import functools
from typing import Any

from gamesearch import capabilities


def repeated_on_line(game: Any, root_ply: int) -> bool:
    """Return whether ``game``'s position occurred before on the line played since the
    position at ``root_ply`` (``False`` for a game that declares no repetition rule).

    The line is taken back one move at a time and played again: ``game`` ends as it was.
    """
    cls: type = type(game)
    if not _declares(cls):
        return False
    key_of = game.repetition_key
    here = key_of()
    taken = []
    try:
        while game.ply > root_ply:
            taken.append(game.undo())
            if key_of() == here:
                return True
        return False
    finally:
        for move in reversed(taken):
            game.push(move)


@functools.cache
def _declares(cls: type) -> bool:
    """Return whether games of ``cls`` declare a repetition rule (asked once per class)."""
    return capabilities.repetition_key(cls) is not None
