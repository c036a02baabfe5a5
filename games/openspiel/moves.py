"""The moves of an OpenSpiel position: :class:`Action`, a number that knows its text.

A position's legal moves are made by :func:`unwritten_actions`, which leaves each text to
be written on first use: a search compares and plays moves by their numbers and never
reads a text, and writing them all costs more than listing them (OpenSpiel's yacht rolls
five dice at once: 7,776 outcomes, each text a call into OpenSpiel).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

_new_int = int.__new__


class Action(int):
    """An OpenSpiel action (its number) with its text in OpenSpiel's notation, taken in the
    position where it is legal; equal to, and hashed as, the plain number."""

    _text: str
    #: OpenSpiel's ``action_to_string`` of the position and player, for a text not written yet
    _writer: Callable[[int], str]

    def __new__(cls, action: int, text: str) -> Action:
        """Return the action ``action`` written ``text``."""
        move = super().__new__(cls, action)
        move._text = text
        return move

    @property
    def text(self) -> str:
        """Return the action in OpenSpiel's notation (written on first use)."""
        try:
            return self._text
        except AttributeError:
            text = self._text = self._writer(int(self))
            return text

    def __reduce__(self) -> tuple[Any, ...]:
        return (Action, (int(self), self.text))

    def __repr__(self) -> str:
        return f"Action({int(self)}, {self.text!r})"


def unwritten_actions(state: Any, player: int, numbers: Iterable[int]) -> tuple[Action, ...]:
    """Return the actions ``numbers`` of ``player`` (``CHANCE`` at a chance node) in
    ``state``, each written by ``state`` when its text is first read.

    ``state`` must never change after: the caller hands over a state it keeps as it is, or
    a clone. (A hot path: one object a move, no call per move into OpenSpiel.)
    """
    writer = functools.partial(state.action_to_string, player)
    moves: list[Action] = []
    append = moves.append
    for number in numbers:
        move = _new_int(Action, number)
        move._writer = writer
        append(move)
    return tuple(moves)
