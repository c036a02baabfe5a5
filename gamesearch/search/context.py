"""What a searcher's core is given and fills in: the :class:`SearchContext` (scoring,
what was asked, the budget), the :class:`Counters`, and how leaves are scored.

:func:`finished_values` and :func:`heuristic` are how a core scores a finished position
and a position at its horizon; a searcher of your own uses the context's helpers
(:meth:`SearchContext.children`, :meth:`SearchContext.count_node`,
:meth:`SearchContext.finished_value`, ...).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

import attrs

from gamesearch import capabilities
from gamesearch.game import Game
from gamesearch.rules import Scoring, ValueScale, proven_value
from gamesearch.search.limits import Budget
from gamesearch.search.result import Counters as Counters
from gamesearch.search.result import Iteration, IterationListener, RootAnswer, Tracer, Value
from gamesearch.search.table import SearchMemory


def leaf_values(
    game: Game[Any], scoring: Scoring
) -> tuple[int, int, Callable[[int, int], int] | None]:
    """Return ``(win, distance, proven)``: how a search core scores finished positions.

    For a win/draw/loss game a result ``r`` at ply ``p`` is worth ``r * (win - distance
    * p)`` and ``proven`` is ``None``; a game with margins is scored by
    ``proven(r, p)`` (:meth:`ValueScale.proven`). With utility scoring ``win`` is 1
    and ``distance`` 0: the values are the results.
    """
    scale = game.rules.scale
    scoring = scale.resolve(scoring)
    distance = 1 if scoring is Scoring.DISTANCE else 0
    if scale.largest_margin <= 1:
        return 1 if scoring is Scoring.UTILITY else scale.win, distance, None
    return scale.win, distance, functools.partial(scale.proven, scoring=scoring)


#: the most entries (plies times results) of a table of finished values worked out at once
FINISHED_TABLE_ENTRIES = 1 << 14
#: ``values[ply][result]``: the search value of a game finished at ``ply`` with ``result``
FinishedValues = Sequence[Mapping[int, int]] | Mapping[int, Mapping[int, int]]
#: the tables of finished values, by (longest game, largest margin, scoring)
_finished_tables: dict[tuple[int, int, Scoring], FinishedValues] = {}


class _ValuesOfPly(dict[int, int]):
    """The values of the games finished at one ply, each worked out when first needed."""

    __slots__ = ("_value",)

    def __init__(self, value: Callable[[int], int]) -> None:
        super().__init__()
        self._value = value

    def __missing__(self, result: int) -> int:
        value = self[result] = self._value(result)
        return value


class _ValuesByPly(dict[int, _ValuesOfPly]):
    """The values of finished games by ply, each ply's filled when first needed."""

    __slots__ = ("_scale", "_scoring")

    def __init__(self, scale: ValueScale, scoring: Scoring) -> None:
        super().__init__()
        self._scale, self._scoring = scale, scoring

    def __missing__(self, ply: int) -> _ValuesOfPly:
        scale, scoring = self._scale, self._scoring
        row = self[ply] = _ValuesOfPly(lambda result: scale.proven(result, ply, scoring))
        return row


def finished_values(game: Game[Any], scoring: Scoring) -> FinishedValues:
    """Return ``values``: ``values[ply][result]`` is the search value of a game finished at
    ``ply`` with ``result`` (:meth:`ValueScale.proven`), for every ply and declared result.

    A search core looks its finished positions up there instead of working each value
    out. The values are worked out once per scale and scoring; a scale of many plies
    and results, or a position already past the longest game its rules declare, gets
    a table that is filled as searches need it, for any ply and result. Otherwise a
    result outside the declared range raises :class:`KeyError` (the conformance kit
    names such a game).
    """
    scale = game.rules.scale
    scoring = scale.resolve(scoring)
    if game.ply > scale.max_plies:
        return _ValuesByPly(scale, scoring)
    largest = scale.largest_margin
    identity = (scale.max_plies, largest, scoring)
    found = _finished_tables.get(identity)
    if found is not None:
        return found
    values: FinishedValues
    if (scale.max_plies + 2) * (2 * largest + 1) > FINISHED_TABLE_ENTRIES:
        values = _ValuesByPly(scale, scoring)
    else:
        # (one ply past the longest game too, for a game that counts its plies from 1)
        values = [
            {result: scale.proven(result, ply, scoring) for result in range(-largest, largest + 1)}
            for ply in range(scale.max_plies + 2)
        ]
    return _finished_tables.setdefault(identity, values)


def heuristic(game: Game[Any]) -> Callable[[], int]:
    """Return the function that scores a position at a search's horizon.

    That is the game's ``evaluate``, mapped inside the proven values when its declared
    ``evaluation_bound`` does not fit there already.
    """
    scale = game.rules.scale
    bound, evaluate = capabilities.heuristic_bound(game), capabilities.heuristic(game)
    if bound < scale.heuristic_bound:
        return evaluate
    mapped = scale.heuristic
    return lambda: mapped(evaluate(), bound)


@attrs.define
class SearchContext:
    """What :meth:`Searcher.root` is given: the scoring, what was asked, the counters to fill.

    The helpers keep the statistics of a searcher of your own right: call
    :meth:`count_node` for every position entered (the root included),
    :meth:`finished_value` and :meth:`horizon_value` to score a leaf, and
    :meth:`answer` to build the result. :meth:`children` plays a position's moves
    and counts and scores them for you, the fastest way the game offers.
    """

    scoring: Scoring
    counters: Counters
    move_values: bool = False  #: the caller wants every root move's exact value
    tracer: Tracer | None = None  #: receives every step, for drawing the tree
    depth_limit: int | None = None  #: the horizon, if any
    root_ply: int = 0
    _memory: SearchMemory | None = attrs.field(default=None, alias="memory")
    horizon_reached: bool = False  #: a heuristic value was used: the answer is not exact
    #: the search's node and time budget (from its :class:`Limit`; unlimited by default)
    budget: Budget = attrs.field(factory=Budget)
    #: receives each completed depth of a deepening search (see :meth:`completed_depth`)
    on_iteration: IterationListener | None = None
    started: float = attrs.field(factory=time.perf_counter)  #: when the search began
    _next_look: int = attrs.field(init=False)
    #: the game :meth:`children` last walked, with its moves and results, its move pair
    #: and its table of finished values (looked up once per game, not once per position)
    _walker: _Walker | None = attrs.field(init=False, default=None)

    def __attrs_post_init__(self) -> None:
        self._next_look = self.budget.first_look

    @property
    def memory(self) -> SearchMemory:
        """Return the tables that live across searches (an empty memory unless the caller
        gave one; made when first asked for)."""
        if self._memory is None:
            self._memory = SearchMemory()
        return self._memory

    def count_node(self, game: Game[Any]) -> None:
        """Count ``game``'s current position as entered.

        :raises BudgetExceededError: once the search's node budget or time budget is
            spent (the searcher's ``max_nodes`` and ``seconds``, or the ``Limit``
            given to the search); the driver puts the position back.
        """
        counters = self.counters
        nodes = counters.nodes = counters.nodes + 1
        if nodes > self._next_look:  # (the budget says when it is next due: one comparison)
            self._next_look = self.budget.check(nodes)
        depth = game.ply - self.root_ply  # (read once: a game's ply may be worked out)
        if depth > counters.depth:
            counters.depth = depth

    def children(self, game: Game[Any]) -> Iterator[tuple[Hashable, int | None]]:
        """Yield each legal move of the unfinished ``game`` with the value of the position
        it leads to when that position ends the game, else with ``None``.

        A move that ends the game is not played: its value is the finished position's
        (as :meth:`finished_value` gives it). A move after which the game goes on is
        played for the loop's body, which searches ``game`` there, and taken back when
        the loop moves on or is left (``break``, ``return``, an exception). Each move
        counts as a position entered (:meth:`count_node`: the node and time budget are
        checked before it is played), a finished one as a leaf. A game that offers
        :class:`~gamesearch.capabilities.FastMoves` gives its results and fused move
        pair (``move_results``, ``advance``/``retract``); any other is played with
        ``push``/``undo`` to find them.

        :raises BudgetExceededError: once the search's node or time budget is spent.
        :raises ValueError: at a move that ends a game which gives one utility per player
            (such a position has no single value).
        """
        walker = self._walker
        if walker is None or walker.game is not game:
            walker = self._walker = _Walker(game, self.scoring)
        counters = self.counters
        ply = game.ply + 1  # of the children
        depth = ply - self.root_ply
        if depth > counters.depth:
            counters.depth = depth
        finished = walker.finished[ply]
        advance, retract = walker.advance, walker.retract
        for move, result in walker.move_results():
            nodes = counters.nodes = counters.nodes + 1
            if nodes > self._next_look:  # (as in count_node)
                self._next_look = self.budget.check(nodes)
            if result is not None:
                counters.leaves += 1
                try:
                    value = finished[result]
                except (KeyError, TypeError):  # not in the table: scored where it is
                    advance(move)
                    try:
                        value = proven_value(game, self.scoring)
                    finally:
                        retract(move)
                yield move, value
            else:
                advance(move)
                try:  # (free in CPython 3.11+ until something raises)
                    yield move, None
                except BaseException:  # the loop was left in the position after ``move``
                    if game.ply == ply:  # (not once the driver has put the position back)
                        retract(move)
                    raise
                retract(move)

    def completed_depth(
        self,
        depth: int,
        value: Value,
        best_moves: Sequence[Hashable],
        *,
        nodes: int,
        is_exact: bool,
    ) -> None:
        """Tell the search's ``on_iteration`` listener, if any, that ``depth`` is done
        (a deepening searcher calls it after each depth; ``nodes`` counts every depth)."""
        listener = self.on_iteration
        if listener is not None:
            elapsed = time.perf_counter() - self.started
            listener(Iteration(depth, value, tuple(best_moves), nodes, elapsed, is_exact))

    def count_cutoff(self) -> None:
        """Count one cut-off (the remaining moves of a position skipped)."""
        self.counters.cutoffs += 1

    def finished_value(self, game: Game[Any]) -> int:
        """Return the proven value of the finished ``game`` (a leaf), looked up in the
        table of :func:`finished_values` where the game's rules declare its result.

        :raises ValueError: when ``game`` is not over, or gives one utility per player.
        """
        self.counters.leaves += 1
        walker = self._walker
        if walker is None or walker.game is not game:
            walker = self._walker = _Walker(game, self.scoring)
        result, ply = game.result(), game.ply
        try:
            return walker.finished[ply][result]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):  # not over, utilities, or undeclared
            return proven_value(game, self.scoring)

    def horizon_value(self, game: Game[Any]) -> int:
        """Return the heuristic value of ``game`` at the horizon (a leaf; the answer is then
        inexact)."""
        self.counters.leaves += 1
        self.horizon_reached = True
        return heuristic(game)()

    def answer(
        self,
        game: Game[Any],
        value: int | Fraction,
        best_moves: Sequence[Hashable],
        move_values: Sequence[tuple[Hashable, int | Fraction]] = (),
        *,
        best_moves_complete: bool = True,
        move_values_exact: bool = True,
    ) -> RootAnswer:
        """Return the root answer: ``value`` (first player's view), every best move in move
        order, and each root move's value (kept only when :attr:`move_values` was asked).

        Say ``best_moves_complete=False`` when ``best_moves`` may miss a tied best move,
        and ``move_values_exact=False`` when some root moves' values are only bounds or
        estimates."""
        return RootAnswer(
            value=value,
            best_moves=tuple(best_moves),
            move_values=tuple(move_values) if self.move_values else None,
            is_exact=not self.horizon_reached,
            depth=self.counters.depth,
            depth_limit=self.depth_limit,
            best_moves_complete=best_moves_complete,
            move_values_exact=move_values_exact,
        )


class _Walker:
    """How :meth:`SearchContext.children` walks one game: its moves with their results,
    its move pair (fused when it offers them) and its table of finished values."""

    __slots__ = ("advance", "finished", "game", "move_results", "retract")

    def __init__(self, game: Game[Any], scoring: Scoring) -> None:
        self.game = game
        self.move_results = capabilities.move_results(game)
        self.advance, self.retract = capabilities.advancer(game), capabilities.retractor(game)
        self.finished = finished_values(game, scoring)
