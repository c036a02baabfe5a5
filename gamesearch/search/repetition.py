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
solution to the graph history interaction problem", AAAI, 2004). The alpha-beta and
exact searchers take the remedy of most game-playing programs: a value whose subtree
scored a repetition (:attr:`LineWatch.draws` changed while it was searched) is not
stored, only its best move, which orders the moves and never decides a value. The
reverse case, a value stored from a path without a repetition and read on a path where
one would have happened, stays possible, as in those programs: the table may miss that
draw. A table kept across searches (the exact searchers' memory) also takes no values
from a search whose history holds a position so often that one more occurrence draws
(:attr:`LineWatch.shares_values`): the game's own rule ends lines there that another
history leaves open. A proof-number search cannot leave a position out of its table
(the table is its tree): it keys each entry by :attr:`LineWatch.path_key`, the
position with the line above it, so no two paths share numbers. MCTS plays through
:func:`line_moves`: its tree nodes each stand for one line, and keep no table.

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
    at positions that occurred before the root. :attr:`result` answers for the position
    the game is at, :attr:`path_key` names it with the line that reached it (for a
    table whose entries must each hold for one path: proof numbers).
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
        counts = _earlier_counts(game, key_of)
        earlier = frozenset(counts)
        #: whether the values of this search may be shared with searches of other
        #: histories: not when a position before the root occurred so often that one more
        #: occurrence draws (the game's own rule then ends lines that the line rule does not)
        self.shares_values = max(counts.values(), default=0) < capabilities.repetitions(game) - 1
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

        def result_watched() -> Any:
            here = key_of()
            result = terminal()
            if result is None and seen(here, 0) > 1:
                self.draws += 1
                return REPETITION_DRAW
            return result

        def path_key() -> Hashable:
            # the position and every repetition key on the line with its count: equal
            # path keys have equal values under the line rule, whatever the path
            return key(), frozenset(line.items())

        terminal, key = game.result, game.key
        #: play a trusted move and return the result, a draw for a repeated position
        self.advance: Callable[[Any], Any] = advance_watched
        #: take back the last move played by :attr:`advance`
        self.retract: Callable[[Any], None] = retract_watched
        #: return the result of the position the game is at (reached by :attr:`advance`
        #: from the root): a draw if it occurred before on the line, else ``result()``
        self.result: Callable[[], Any] = result_watched
        #: return the key of the position the game is at together with the line's
        #: repetition keys and their counts: the key of a table that lets no value of one
        #: path reach another
        self.path_key: Callable[[], Hashable] = path_key


def watch_line(
    game: Any, advance: Callable[[Any], Any], retract: Callable[[Any], None]
) -> LineWatch | None:
    """Return the watch of the line a search of ``game`` starts, playing moves by
    ``advance`` and ``retract``; ``None`` for a game whose result depends on the position
    alone (it declares no :class:`~gamesearch.capabilities.Repetition`)."""
    if not capabilities.game_class(game).repeats:  # (a fact of its class, worked out once)
        return None
    key_of = capabilities.repetition_key(game)
    assert key_of is not None
    return LineWatch(game, key_of, advance, retract)


def line_moves(game: Any) -> tuple[Callable[[Any], Any], Callable[[Any], None]]:
    """Return the ``advance`` and ``retract`` a search plays ``game``'s trusted moves with:
    the game's own (:func:`~gamesearch.capabilities.advancer`,
    :func:`~gamesearch.capabilities.retractor`), or for a game that declares repetition
    draws those of the watch of the line from where it is now (a draw for a repeated
    position), for a search that keeps no table."""
    advance, retract = capabilities.advancer(game), capabilities.retractor(game)
    watch = watch_line(game, advance, retract)
    return (advance, retract) if watch is None else (watch.advance, watch.retract)


def entering_moves(
    watch: LineWatch, result: Any
) -> tuple[Callable[[Any], None], Callable[[Any], None], Callable[[], Any]]:
    """Return ``push(move)``, ``retract(move)`` and ``result()`` on ``watch``'s line, for a
    search that asks for the result of a position once it has entered it (negamax):
    ``push`` keeps what :attr:`LineWatch.advance` answered (a draw for a repeated
    position), ``result`` returns it, ``retract`` forgets it (a position a move was played
    from is not over). ``result``: the result of the position the line starts at."""
    advance, retract_watched = watch.advance, watch.retract
    entered = [result]  # the result of the position the search is at

    def push(move: Any) -> None:
        entered[0] = advance(move)

    def retract(move: Any) -> None:
        retract_watched(move)
        entered[0] = None

    def result_entered() -> Any:
        return entered[0]

    return push, retract, result_entered


def _earlier_counts(game: Any, key_of: Callable[[], Hashable]) -> dict[Hashable, int]:
    """Return the repetition keys of the positions of ``game``'s history before the one
    it is at, each with its occurrences there (taken back one by one and played again:
    ``game`` ends as it was)."""
    taken: list[Any] = []
    counts: dict[Hashable, int] = {}
    try:
        while game.history:
            taken.append(game.undo())
            here = key_of()
            counts[here] = counts.get(here, 0) + 1
    finally:
        for move in reversed(taken):
            game.push(move)
    return counts
