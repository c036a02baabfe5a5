"""Repetition on the searched line, for games whose result depends on the moves played.

Twin: :mod:`gamesearch.search.reference.repetition`, which finds the same repetitions
by taking the line back move by move. Differences: the keys of the line are counted
in a dictionary as moves are played and taken back, so a repetition costs one
look-up; the positions before the root are looked at once, when the search starts.

A game that declares :class:`~gamesearch.capabilities.Repetition` (chess: threefold
repetition) reports a draw from its history. A search sees more: a position that
occurs a second time on the line it searches (the root included) is scored as a
draw, the usual practice of game-playing programs. Whoever could win from that
position could have played the same winning line at its first occurrence, so the
repetition only matters to the side that cannot do better than a draw, and finding
it at the second occurrence sees it two cycles sooner than the rule does.

Such a value depends on the path that reached the position, not on the position: a
transposition table that stored it would hand it to a position reached by another
path, where no repetition happens (the graph-history interaction; Campbell, "The
graph-history interaction: on ignoring position history", ACM Annual Conference,
1985; Breuker, van den Herik, Uiterwijk and Allis, "A solution to the GHI problem for
best-first search", Computers and Games, 1998; Kishimoto and Müller, "A general
solution to the graph history interaction problem", AAAI, 2004). The searchers here
take the remedy of most game-playing programs: a value whose subtree scored a
repetition (:attr:`LineWatch.draws` changed while it was searched) is not stored, only
its best move, which orders the moves and never decides a value. The reverse case, a
value stored from a path without a repetition and read on a path where one would have
happened, stays possible, as in those programs: the table may miss that draw.

A game that does not declare the capability gets no watch (:func:`watch_line` returns
``None``): its searches run the game's own moves, with no cost for any of this.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from gamesearch import capabilities

#: the result the searchers give a repeated position: a draw
REPETITION_DRAW = 0


class LineWatch:
    """The line one search is on, for a game that declares repetition draws.

    :attr:`advance` and :attr:`retract` play and take back a move as the game's own do
    (:func:`~gamesearch.capabilities.advancer`, :func:`~gamesearch.capabilities.retractor`),
    and :attr:`advance` answers a draw for a position already on the line. :attr:`draws`
    counts the results that rest on the history: those draws, and the game's own draws
    at positions that occurred before the root.
    """

    def __init__(
        self,
        game: Any,
        key_of: Callable[[], Hashable],
        advance: Callable[[Any], Any],
        retract: Callable[[Any], None],
    ) -> None:
        #: results scored so far that rest on the path (a table must not store what they decide)
        self.draws = 0
        earlier = _earlier_keys(game, key_of)
        line: dict[Hashable, int] = {key_of(): 1}  # the root and the line below it, counted
        keys: list[Hashable] = []  # the key of each position below the root, in line order
        seen = line.get

        # Hot path: one key and two dictionary operations a move.
        def advance_watched(move: Any) -> Any:
            result = advance(move)
            here = key_of()
            keys.append(here)
            before = seen(here, 0)
            line[here] = before + 1
            if before or here in earlier:
                if before and result is None:
                    result = REPETITION_DRAW
                    self.draws += 1
                elif result == REPETITION_DRAW:  # (perhaps the game's own repetition)
                    self.draws += 1
            return result

        def retract_watched(move: Any) -> None:
            here = keys.pop()
            left = line[here] - 1
            if left:
                line[here] = left
            else:
                del line[here]
            retract(move)

        #: play a trusted move and return the result, a draw for a repeated position
        self.advance: Callable[[Any], Any] = advance_watched
        #: take back the last move played by :attr:`advance`
        self.retract: Callable[[Any], None] = retract_watched


def watch_line(
    game: Any, advance: Callable[[Any], Any], retract: Callable[[Any], None]
) -> LineWatch | None:
    """Return the watch of the line a search of ``game`` starts, playing moves by
    ``advance`` and ``retract``; ``None`` for a game whose result depends on the position
    alone (it declares no :class:`~gamesearch.capabilities.Repetition`)."""
    key_of = capabilities.repetition_key(game)
    return None if key_of is None else LineWatch(game, key_of, advance, retract)


def _earlier_keys(game: Any, key_of: Callable[[], Hashable]) -> frozenset[Hashable]:
    """Return the repetition keys of the positions of ``game``'s history before the one
    it is at (taken back one by one and played again: ``game`` ends as it was)."""
    taken: list[Any] = []
    keys = set()
    try:
        while game.history:
            taken.append(game.undo())
            keys.add(key_of())
    finally:
        for move in reversed(taken):
            game.push(move)
    return frozenset(keys)
