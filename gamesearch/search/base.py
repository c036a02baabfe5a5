"""What every searcher shares: the result record, statistics, options and the driver.

A searcher is an immutable, configured object (attrs). Calling
:meth:`Searcher.search` on a position returns a :class:`SearchResult` and leaves the
position exactly as it was, also when the search raises or runs out of budget.
"""

from __future__ import annotations

import abc
import functools
import math
import random
import sys
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, Protocol

import attrs

from gamesearch import capabilities
from gamesearch.capabilities import Chance, capability_words, offered
from gamesearch.errors import (
    BudgetExceededError,
    InvalidOptionError,
    SearchTooDeepError,
    UnsupportedGameError,
)
from gamesearch.game import Game, restore
from gamesearch.options import (
    Option,
    check_fields,
    check_typed_deprecated,
    configure,
    convert_text_deprecated,
    deprecated,
    field_options,
    option_field,
)
from gamesearch.options import kind_in_words as kind_in_words
from gamesearch.rules import CHANCE, Scoring, ValueScale, final_utilities, proven_value
from gamesearch.score import Score, json_number, score_of
from gamesearch.search.table import SearchMemory
from gamesearch.words import describe_utilities, describe_value, number_text

#: larger than any value a game can produce: the open ends of a search window
INFINITY = 1 << 60
#: its negation, named: ``-INFINITY`` in a loop builds a new integer every time
NEGATIVE_INFINITY = -INFINITY
#: a search value: an integer, or an exact fraction (expected results in a game of chance)
Value = int | Fraction
#: how often (in positions entered) a search with a time budget reads its clock
CLOCK_INTERVAL = 1024
#: the clocks a time budget may be measured on: ``wall`` is elapsed time, ``cpu`` the
#: processor time of the searching thread (another busy or sleeping thread does not shorten it)
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}
#: the plies left of a search without a horizon: more than any game lasts, yet a small
#: integer (CPython's arithmetic on it is as fast as on any depth a caller gives)
NO_HORIZON = 1 << 29


# The records every search builds are frozen classes without slots: attrs fills such
# an instance's __dict__ directly, which halves the cost of building one (it shows
# in small searches).
@attrs.frozen(slots=False)
class SearchStats:
    """How much work a search did."""

    nodes: int = 0  #: positions entered, root included
    leaves: int = 0  #: positions scored without expanding (game over or horizon)
    cutoffs: int = 0  #: times the remaining moves of a position were skipped
    tt_hits: int = 0  #: transposition-table probes that answered or narrowed the window
    depth: int = 0  #: plies searched below the root (deepest completed iteration)
    seconds: float = 0.0  #: wall-clock time of the search (not of the PV, worked out when read)
    playout_plies: int = 0  #: random moves played in playouts (Monte Carlo searchers)
    cpu_seconds: float = 0.0  #: processor time the searching thread spent on the search

    @property
    def nodes_per_second(self) -> float:
        """Return nodes divided by seconds (0 when no time was measured)."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


@attrs.frozen
class MoveVisits:
    """How often a sampling searcher (MCTS) tried one root move, and how it fared."""

    move: Hashable
    visits: int  #: simulations that went through this move
    mean: float  #: mean playout result in [-1, 1], first player's point of view
    proven: int | None  #: the move's exact value once proven, else ``None``


@attrs.frozen(slots=False)
class SearchResult:
    """The answer of one search, values from the first player's point of view.

    In a game of chance the value is the expected final result, an exact
    :class:`~fractions.Fraction` (see :func:`gamesearch.game.chance_heuristic` for
    values beyond a horizon). The principal variation :attr:`pv` may be worked out when it is first
    read (it
    costs a search of each position along it): ``pv`` accepts the line or a function
    returning it. Results compare equal on everything but the line.
    """

    searcher: str  #: name of the searcher that produced it
    move: Hashable | None  #: the chosen move; ``None`` when the game is over
    value: int | Fraction  #: value of the position (exact unless ``is_exact`` is false)
    best_moves: tuple[Hashable, ...]  #: every move of the optimal value, in move order
    _line: tuple[Hashable, ...] | Callable[[], tuple[Hashable, ...]] = attrs.field(
        alias="pv", eq=False, repr=False
    )
    move_values: (
        tuple[tuple[Hashable, int | Fraction], ...] | None
    )  #: each root move's value, when asked
    stats: SearchStats
    is_exact: bool  #: true when the search reached the end of every line it relied on
    is_game_over: bool  #: true when the position was already finished
    visits: tuple[MoveVisits, ...] | None = None  #: root moves' visits (sampling searchers)
    _scale: ValueScale | None = attrs.field(default=None, alias="scale", eq=False, repr=False)
    #: one utility per player (a game whose rules declare utilities; ``None`` otherwise),
    #: in result units: whole numbers when exact, fractions strictly inside the result
    #: range for heuristic estimates; :attr:`value` is then the root mover's utility
    utilities: tuple[int | Fraction, ...] | None = None
    #: the searched position's ply and its players' names (what :attr:`score` reads)
    ply: int = attrs.field(default=0, eq=False, repr=False)
    _names: tuple[str, ...] = attrs.field(default=(), alias="names", eq=False, repr=False)
    #: true when :attr:`best_moves` holds every move of the best value; false when the
    #: search knows only some of them (a root window shared between the root moves, a
    #: sampling search whose root is not settled): a tied best move may be missing
    best_moves_complete: bool = True
    #: true when every value the search found for a root move is exact; false when the
    #: moves that are not best got only bounds (a shared root window) or estimates
    move_values_exact: bool = True

    @property
    def score(self) -> Score:
        """Return the typed score of :attr:`value` (:mod:`gamesearch.score`), first
        player's point of view: proven, heuristic, expected or utilities (worked out
        once, when first read)."""
        found: Score | None = self.__dict__.get("_score")
        if found is None:
            found = score_of(
                self.value,
                is_exact=self.is_exact,
                scale=self._scale,
                depth=self.stats.depth,
                ply=self.ply,
                names=self._names,
                utilities=self.utilities,
            )
            object.__setattr__(self, "_score", found)
        return found

    @property
    def margin(self) -> int | Fraction | None:
        """Return the proven final result, first player's view (sign: who wins; size: by
        how much; 0: a draw), or ``None`` unless the value is exact.

        In a game of chance: the expected final result (the value itself) when exact.
        """
        if not self.is_exact or self._scale is None:
            return None
        if isinstance(self.value, Fraction):
            return self.value
        return self._scale.margin(self.value)

    @property
    def pv(self) -> tuple[Hashable, ...]:
        """Return the principal variation: ``move`` and the best play that follows it."""
        line = self._line
        if callable(line):
            line = line()
            object.__setattr__(self, "_line", line)  # worked out once
        return line

    def __getstate__(self) -> dict[str, Any]:
        """Return the fields to pickle, the line worked out (its position may not pickle)."""
        state = {field.name: getattr(self, field.name) for field in attrs.fields(SearchResult)}
        state["_line"] = self.pv
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def as_dict(self, game: Game[Any]) -> dict[str, Any]:
        """Return the result as JSON-ready data, moves written in ``game``'s notation."""
        fmt = game.format_move
        return {
            "searcher": self.searcher,
            "move": None if self.move is None else fmt(self.move),
            "value": json_value(self.value),
            "margin": json_value(self.margin),
            "best_moves": [fmt(move) for move in self.best_moves],
            "pv": [fmt(move) for move in self.pv],
            "moves": None
            if self.move_values is None
            else [
                {"move": fmt(move), "value": json_value(value)} for move, value in self.move_values
            ],
            "stats": {**attrs.asdict(self.stats), "nodes_per_second": self.stats.nodes_per_second},
            "is_exact": self.is_exact,
            "is_game_over": self.is_game_over,
            "best_moves_complete": self.best_moves_complete,
            "move_values_exact": self.move_values_exact,
            "visits": None
            if self.visits is None
            else [{**attrs.asdict(entry), "move": fmt(entry.move)} for entry in self.visits],
            "utilities": None
            if self.utilities is None
            else [json_value(value) for value in self.utilities],
            "score": self.score.as_dict(),
        }

    @property
    def value_text(self) -> str:
        """Return the value as printed: as it is, or, in a game with utilities, the root
        mover's utility with three decimals when it is not whole."""
        return number_text(self.value) if self.utilities is not None else str(self.value)

    def describe(self, game: Game[Any]) -> str:
        """Return the value in words: ``"X wins in 3 plies"``, ``"A 3, B 0, C 0"``, ..."""
        if self.utilities is not None:
            return describe_utilities(game, self.utilities, is_exact=self.is_exact)
        return describe_value(game, self.value, is_exact=self.is_exact)


#: a search value as JSON-ready data (its one home is :mod:`gamesearch.score`)
json_value = json_number


class Tracer(Protocol):
    """Receives every step of a search (for drawing the tree); ``None`` costs nothing."""

    def enter(self, move: Hashable | None, depth: int, alpha: Value, beta: Value) -> None:
        """A position is entered after ``move`` (``None`` for the root)."""

    def leave(self, value: Value | tuple[Value, ...]) -> None:
        """The position last entered is left with ``value`` (max^n: one utility per player)."""

    def prune(self, moves: Sequence[Hashable]) -> None:
        """The ``moves`` of the current position were cut off, never searched."""


@attrs.frozen
class Iteration:
    """One completed depth of a deepening search, handed to the ``on_iteration`` listener
    of :meth:`Searcher.search` (the value from the first player's point of view)."""

    depth: int  #: the depth just completed, in plies (players' moves in a game of chance)
    value: Value  #: the position's value at that depth
    best_moves: tuple[Hashable, ...]  #: every move of that value, in move order
    nodes: int  #: positions entered so far, every depth counted
    seconds: float  #: time since the search began
    is_exact: bool  #: whether that depth reached the end of every line


#: what receives each completed depth of a deepening search
IterationListener = Callable[[Iteration], None]


def leaf_values(
    game: Game[Any], scoring: Scoring
) -> tuple[int, int, Callable[[int, int], int] | None]:
    """Return ``(win, distance, proven)``: how a search core scores finished positions.

    For a win/draw/loss game a result ``r`` at ply ``p`` is worth ``r * (win - distance
    * p)`` and ``proven`` is ``None``; a game with margins is scored by
    ``proven(r, p)`` (:meth:`ValueScale.proven`).
    """
    scale = game.rules.scale
    distance = 1 if scoring is Scoring.DISTANCE else 0
    if scale.largest_margin <= 1:
        return scale.win, distance, None
    return scale.win, distance, functools.partial(scale.proven, scoring=scoring)


#: the most entries (plies times results) of a table of finished values worked out at once
FINISHED_TABLE_ENTRIES = 1 << 14
#: ``values[ply][result]``: the search value of a game finished at ``ply`` with ``result``
FinishedValues = Sequence[Mapping[int, int]] | Mapping[int, Mapping[int, int]]
#: the tables of finished values, by (longest game, largest margin, distance scoring)
_finished_tables: dict[tuple[int, int, int], FinishedValues] = {}


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
    if game.ply > scale.max_plies:
        return _ValuesByPly(scale, scoring)
    largest, distance = scale.largest_margin, 1 if scoring is Scoring.DISTANCE else 0
    identity = (scale.max_plies, largest, distance)
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
class Counters:
    """Mutable tallies a search core fills in; frozen into :class:`SearchStats` at the end."""

    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    tt_hits: int = 0
    depth: int = 0
    playout_plies: int = 0


class Budget:
    """How much one search may spend, in positions entered and in seconds on its clock,
    and the one check of it (the only place a search's budget error is raised).

    A core counts the positions it enters and, whenever its count passes the number
    :meth:`check` last returned (at first :attr:`first_look`), calls :meth:`check`
    again: one comparison of two integers per position, the clock read every
    :data:`CLOCK_INTERVAL` positions. Without a budget that number is never reached.
    ``spent`` is what the search had entered before this budget's counting began
    (an iterative-deepening driver hands each depth its rest: :meth:`after`).
    """

    __slots__ = (
        "clock",
        "deadline",
        "first_look",
        "is_limited",
        "max_nodes",
        "read_clock",
        "seconds",
        "spent",
        "started",
    )

    def __init__(
        self,
        max_nodes: int | None = None,
        seconds: float | None = None,
        clock: str = "wall",
        *,
        spent: int = 0,
        started: float | None = None,
    ) -> None:
        if clock not in CLOCKS:
            raise InvalidOptionError(
                f"clock {clock!r} is not one of {', '.join(map(repr, CLOCKS))}"
            )
        self.clock, self.read_clock = clock, CLOCKS[clock]
        #: the most positions the whole search may enter (``INFINITY``: no node budget)
        self.max_nodes: int = INFINITY if max_nodes is None else max_nodes
        self.seconds = seconds
        self.started = self.read_clock() if started is None else started
        #: the clock reading by which the search must be done (``math.inf``: no time budget)
        self.deadline = math.inf if seconds is None else self.started + seconds
        self.spent = spent
        self.is_limited = max_nodes is not None or seconds is not None
        self.first_look = self.next_check(0)

    def after(self, spent: int) -> Budget:
        """Return this budget's rest once ``spent`` positions were entered (same deadline)."""
        return Budget(
            None if self.max_nodes == INFINITY else self.max_nodes,
            self.seconds,
            self.clock,
            spent=spent,
            started=self.started,
        )

    @property
    def nodes_left(self) -> int:
        """Return how many more positions the search may enter (``INFINITY``: any number)."""
        return self.max_nodes - self.spent

    def elapsed(self) -> float:
        """Return the seconds spent so far on this budget's clock."""
        return self.read_clock() - self.started

    def next_check(self, nodes: int) -> int:
        """Return the count of positions past which :meth:`check` must be called next,
        ``nodes`` having been entered (without reading the clock)."""
        left = self.max_nodes - self.spent
        if self.deadline == math.inf:
            return left
        return min(left, nodes + CLOCK_INTERVAL)

    def is_spent(self, nodes: int) -> bool:
        """Return whether entering ``nodes`` positions (counted from :attr:`spent`) is past the
        budget: more nodes than it allows, or its clock past the deadline (read now)."""
        return self.spent + nodes > self.max_nodes or (
            self.deadline != math.inf and self.read_clock() > self.deadline
        )

    def check(self, nodes: int) -> int:
        """Return the count past which to check again, ``nodes`` positions having been
        entered (counted from :attr:`spent`).

        :raises BudgetExceededError: when the budget is spent; the message says what
            was spent (positions and seconds).
        """
        if not self.is_spent(nodes):
            return self.next_check(nodes)
        total, elapsed = self.spent + nodes, self.elapsed()
        spent = (
            f"node budget of {self.max_nodes:,} exhausted: {total:,} positions entered in "
            f"{elapsed:.3f} s"
            if total > self.max_nodes
            else f"time budget exhausted: {elapsed:.3f} s of {self.clock} time spent (budget "
            f"{self.seconds:g} s), {total:,} positions entered"
        )
        raise BudgetExceededError(spent)

    def counting(self, step: Callable[[Hashable], Any]) -> Callable[[Hashable], Any]:
        """Return ``step`` (the call that plays a move) counting each position it enters
        and checking this budget before the move; the root is counted as entered.

        A core wraps its move call so only when it has a budget (a search without one
        pays nothing).
        """
        nodes, next_look, check = 1, self.first_look, self.check

        def counted_step(move: Hashable) -> Any:
            nonlocal nodes, next_look
            nodes += 1
            if nodes > next_look:
                next_look = check(nodes)
            return step(move)

        return counted_step


@attrs.define
class SearchContext:
    """What :meth:`Searcher.root` is given: the scoring, what was asked, the counters to fill.

    The helpers keep the statistics of a searcher of your own right: call
    :meth:`count_node` for every position entered (the root included),
    :meth:`finished_value` and :meth:`horizon_value` to score a leaf, and
    :meth:`answer` to build the result.
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
        counters.nodes += 1
        if counters.nodes > self._next_look:
            self._next_look = self.budget.check(counters.nodes)
        if game.ply - self.root_ply > counters.depth:
            counters.depth = game.ply - self.root_ply

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
        """Return the proven value of the finished ``game`` (a leaf)."""
        self.counters.leaves += 1
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


@attrs.frozen(slots=False)
class RootAnswer:
    """What a searcher's core found at the root, before tie-breaking and the PV."""

    value: int | Fraction
    best_moves: tuple[Hashable, ...]
    move_values: tuple[tuple[Hashable, int | Fraction], ...] | None
    is_exact: bool
    depth: int  #: plies searched below the root
    depth_limit: int | None = None  #: the horizon the root was searched with, if any
    visits: tuple[MoveVisits, ...] | None = None  #: root moves' visits (sampling searchers)
    #: one utility per player, for a game whose rules declare utilities
    utilities: tuple[int | Fraction, ...] | None = None
    #: every move of the best value is in ``best_moves`` (see :class:`SearchResult`)
    best_moves_complete: bool = True
    #: every root move's value found is exact, not a bound (see :class:`SearchResult`)
    move_values_exact: bool = True


#: the shortest time budget a search takes, in seconds (anything shorter is a mistake)
SHORTEST_SECONDS = 0.001


def depth_field(help_text: str) -> Any:
    """Return the attrs field of a searcher's optional depth limit (shared by searchers)."""
    return option_field(None, help_text, minimum=1)


def node_budget_field(
    help_text: str = "give up (BudgetExceededError) after this many nodes (default: never)",
) -> Any:
    """Return the attrs field of a searcher's optional node budget (``max_nodes``)."""
    return option_field(None, help_text, minimum=1)


def seconds_field(
    help_text: str = "give up (BudgetExceededError) after this many seconds (default: never)",
) -> Any:
    """Return the attrs field of a searcher's optional time budget (``seconds``)."""
    return option_field(None, help_text, minimum=SHORTEST_SECONDS)


#: what the ``clock`` option means (a searcher's and a :class:`Limit`'s)
CLOCK_HELP = "the clock of the time budget: wall (elapsed time) or cpu (processor time)"


def clock_field() -> Any:
    """Return the attrs field of the clock a searcher's time budget is measured on."""
    return option_field("wall", CLOCK_HELP, choices=tuple(CLOCKS))


def simulations_field(
    help_text: str = "simulations of a sampling searcher (others ignore it)",
) -> Any:
    """Return the attrs field of a searcher's optional simulation budget (``simulations``)."""
    return option_field(None, help_text, minimum=1)


@attrs.frozen(kw_only=True)
class Limit:
    """How far one search may go: every field optional, one type for every searcher.

    ``depth`` is plies below the root (iterative deepening: its deepest iteration);
    ``max_nodes`` and ``seconds`` are budgets (a searcher that cannot answer within them
    raises :class:`~gamesearch.errors.BudgetExceededError`, except iterative
    deepening and MCTS, which answer with what they have); ``seconds`` are measured on
    ``clock``: ``wall`` (elapsed time) or ``cpu`` (the searching thread's processor
    time, which a loaded machine does not shorten); ``simulations`` is for sampling
    searchers (MCTS) and ignored by the others. The fields are named as the
    searchers' options are, and :meth:`Searcher.search` hands the budget down as it is.
    """

    depth: int | None = option_field(None, "plies below the root", minimum=1)
    max_nodes: int | None = option_field(None, "most positions entered", minimum=1)
    seconds: float | None = option_field(None, "most seconds", minimum=SHORTEST_SECONDS)
    simulations: int | None = option_field(None, "simulations", minimum=1)
    clock: str | None = option_field(None, CLOCK_HELP, choices=tuple(CLOCKS))

    def __attrs_post_init__(self) -> None:
        check_fields(self)

    def options(self) -> dict[str, Any]:
        """Return the searcher options this limit sets (the fields that are not ``None``)."""
        return {name: value for name, value in attrs.asdict(self).items() if value is not None}


def _scoring(value: Any) -> Scoring:
    """Return ``value`` (a :class:`Scoring` or its text) as a Scoring."""
    return value if isinstance(value, Scoring) else _SCORING.read(value)


_SCORING = Option("scoring", Scoring, Scoring.DISTANCE, "how finished games are scored")


@attrs.frozen(kw_only=True)
class Searcher(abc.ABC):
    """Base of every searcher: configure it, call :meth:`search`, read the result.

    Subclasses are ``@attrs.frozen(kw_only=True)`` classes with a ``name``, a
    one-line docstring (shown by ``gamesearch games``) and implement :meth:`_root`.
    Each field's ``metadata={"help": ...}`` documents the option.
    """

    name: ClassVar[str]
    #: what the searcher needs of a game's rules (checked by :meth:`unmet_needs`)
    needs_two_players: ClassVar[bool] = True
    needs_no_chance: ClassVar[bool] = True
    #: the game's result is one first-player value (its rules declare no utilities)
    needs_single_value: ClassVar[bool] = True
    #: the game's result is one utility per player (its rules declare utilities)
    needs_utilities: ClassVar[bool] = False
    #: the capabilities (protocols of :mod:`gamesearch.capabilities`) the searcher needs
    #: of every game; a game of chance must also offer :class:`~gamesearch.capabilities.Chance`
    #: to a searcher that takes chance
    needs_capabilities: ClassVar[tuple[type, ...]] = ()
    #: whether the values are expected final results (exact fractions) in every game,
    #: as expectiminimax's; otherwise they are so in games of chance only
    expected_values: ClassVar[bool] = False
    #: whether a ``depth`` limit makes the searcher stop at a horizon (MCTS: no)
    honours_depth: ClassVar[bool] = True
    #: whether a node or time budget that runs out still gets an answer (iterative
    #: deepening and MCTS answer with what they have; the others give up)
    answers_within_budget: ClassVar[bool] = False
    #: work out the principal variation only when a result's ``pv`` is read (it costs
    #: searches); a searcher that reads the line off what it already holds says False
    line_on_demand: ClassVar[bool] = True

    scoring: Scoring = attrs.field(
        default=Scoring.DISTANCE,
        converter=_scoring,
        metadata={"help": "distance: prefer fast wins and slow losses; plain: win/draw/loss"},
    )
    seed: int | None = option_field(
        None, "break ties at random from this seed (default: first best move)"
    )
    # The limit of every search (see Limit); a searcher class may reword the help.
    depth: int | None = depth_field("plies to search before evaluate() (default: to the end)")
    max_nodes: int | None = node_budget_field()
    seconds: float | None = seconds_field()
    simulations: int | None = simulations_field()
    clock: str = clock_field()

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every option, however the searcher was made

    # ------------------------------------------------------------------ options
    @classmethod
    def option_fields(cls) -> tuple[attrs.Attribute, ...]:  # type: ignore[type-arg]
        """Return the attrs fields a user may set (name, default, ``metadata['help']``)."""
        attrs.resolve_types(cls)
        return tuple(field for field in attrs.fields(cls) if field.init)

    @classmethod
    def option_specs(cls) -> dict[str, Option]:
        """Return the options a user may set, by name (see :mod:`gamesearch.options`)."""
        return field_options(cls)

    @classmethod
    def configured(cls, options: Mapping[str, Any]) -> Searcher:
        """Return a searcher built from option values (canonical text or typed).

        :raises InvalidOptionError: for an unknown option or a bad value.
        """
        return configure(cls, options, owner=f"searcher {cls.name!r}")  # type: ignore[no-any-return]

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Searcher:
        """Return a searcher built from option values (deprecated: use :meth:`configured`).

        :raises InvalidOptionError: for an unknown option or a bad value.
        """
        deprecated("Searcher.from_options", "Searcher.configured")
        return cls.configured(options)

    # ------------------------------------------------------------------- driver
    @property
    def limit(self) -> Limit:
        """Return the limit this searcher searches with when :meth:`search` is given none."""
        return Limit(
            depth=self.depth,
            max_nodes=self.max_nodes,
            seconds=self.seconds,
            simulations=self.simulations,
            clock=self.clock,
        )

    def search(
        self,
        game: Game[Any],
        limit: Limit | None = None,
        *,
        move_values: bool = False,
        tracer: Tracer | None = None,
        memory: SearchMemory | None = None,
        on_iteration: IterationListener | None = None,
    ) -> SearchResult:
        """Search ``game`` and return the result; ``game`` is left exactly as it was.

        ``limit`` (if given) replaces the searcher's own limits field by field.
        ``memory`` keeps transposition tables from one search to the next (without
        it, each search starts with empty tables). A deepening searcher (iterative
        deepening, the engine, chance-iterative) calls ``on_iteration`` with an
        :class:`Iteration` after each depth it completes; the others never call it. With
        ``move_values`` every root move gets its exact value (each is searched with a
        full window). A finished position returns a result with no move.

        :raises UnsupportedGameError: at once, when the game's rules are not what the
            searcher needs (see :meth:`unmet_needs`).
        :raises BudgetExceededError: when a budget runs out before an answer (the
            position is left as it was).
        """
        if limit is not None:
            # the limit's fields are the searchers' options; one a searcher does not
            # take (MCTS: depth) does not apply to it
            taken = self.option_specs()
            options = {name: value for name, value in limit.options().items() if name in taken}
            if options:
                return attrs.evolve(self, **options).search(
                    game,
                    move_values=move_values,
                    tracer=tracer,
                    memory=memory,
                    on_iteration=on_iteration,
                )
        started, cpu_started = time.perf_counter(), time.thread_time()
        unmet = self.unmet_needs(game)
        if unmet:
            raise UnsupportedGameError(
                f"searcher {self.name!r} cannot search {type(game).name!r}: {'; '.join(unmet)}"
            )
        counters = Counters()
        move: Hashable | None = None
        line: tuple[Hashable, ...] | Callable[[], tuple[Hashable, ...]] = ()
        final = game.result()  # (it only reads the position)
        if final is not None:
            answer = self._finished_answer(game, final)
        else:
            snapshot = game.copy()  # also the principal variation's position
            try:
                context = self._context(game, counters, move_values, tracer, memory)
                context.on_iteration = on_iteration
                answer = self.root(game, context)
                best_moves = answer.best_moves
                move = self._break_tie(best_moves)
                if self.line_on_demand:  # worked out when read, on the snapshot
                    line = functools.partial(self._line_later, snapshot, move, answer, context)
                else:
                    line = self._principal_variation(snapshot, move, answer, context.memory)
            except RecursionError:
                restore(game, snapshot)
                raise SearchTooDeepError(
                    f"searcher {self.name!r} went deeper than Python's recursion limit "
                    f"({sys.getrecursionlimit():,} frames) in {type(game).name!r}; give it a depth "
                    "limit (Limit(depth=...), or the depth option)"
                ) from None
            except BaseException:
                # An interrupt (KeyboardInterrupt, a signal handler's exception) may land
                # anywhere, even half-way through a move: put the position back whole.
                restore(game, snapshot)
                raise
        stats = SearchStats(
            nodes=counters.nodes,
            leaves=counters.leaves,
            cutoffs=counters.cutoffs,
            tt_hits=counters.tt_hits,
            depth=answer.depth,
            seconds=time.perf_counter() - started,
            playout_plies=counters.playout_plies,
            cpu_seconds=time.thread_time() - cpu_started,
        )
        # (the typed score is made from the result's fields when first read)
        return SearchResult(
            searcher=self.name,
            move=move,
            value=answer.value,
            best_moves=answer.best_moves,
            pv=line,
            move_values=answer.move_values,
            stats=stats,
            is_exact=answer.is_exact,
            is_game_over=not answer.best_moves,
            visits=answer.visits,
            scale=None if game.rules.utilities else game.rules.scale,
            utilities=answer.utilities,
            ply=game.ply,
            names=capabilities.player_names(game),
            best_moves_complete=answer.best_moves_complete,
            move_values_exact=answer.move_values_exact,
        )

    def _finished_answer(self, game: Game[Any], final: int) -> RootAnswer:
        """Return the answer at the finished position ``game`` whose result is ``final``."""
        if game.rules.utilities:
            return _finished_utilities(game)
        # values that are expected results: a finished game is worth its result
        if game.rules.chance or self.expected_values:
            return RootAnswer(Fraction(final), (), None, True, 0)
        return RootAnswer(proven_value(game, self.scoring), (), None, True, 0)

    def unmet_needs(self, game: Game[Any]) -> list[str]:
        """Return what this searcher needs that ``game``'s rules do not give (empty: none).

        :meth:`search` refuses a game with unmet needs at once
        (:class:`~gamesearch.errors.UnsupportedGameError`).
        """
        rules, unmet = game.rules, []
        # a searcher of utilities (needs_single_value false) takes any number of players with them
        if (
            self.needs_two_players
            and rules.players != 2
            and (self.needs_single_value or not rules.utilities)
        ):
            unmet.append(f"it needs two players, and this game has {rules.players}")
        if self.needs_no_chance and rules.chance:
            unmet.append("it cannot search games of chance")
        if (
            self.needs_single_value
            and rules.utilities
            and not (self.needs_two_players and rules.players != 2)
        ):
            unmet.append(
                "it needs one first-player result, and this game gives one utility per player"
            )
        if self.needs_utilities and not rules.utilities:
            unmet.append("it needs one utility per player, and this game's rules declare none")
        needed = self.needs_capabilities
        if rules.chance and not self.needs_no_chance:
            needed = (*needed, Chance)
        unmet.extend(
            f"it needs {capability_words(capability)}, which this game does not offer"
            for capability in needed
            if not offered(game, capability)
        )
        return unmet

    def _context(
        self,
        game: Game[Any],
        counters: Counters,
        move_values: bool = False,
        tracer: Tracer | None = None,
        memory: SearchMemory | None = None,
    ) -> SearchContext:
        context = SearchContext(
            self.scoring,
            counters,
            move_values,
            tracer,
            self.depth if self.honours_depth else None,
            game.ply,
            memory,
            budget=Budget(self.max_nodes, self.seconds, self.clock),
        )
        return context

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        """Search the unfinished position ``game`` and return what was found at its root.

        **Override this to write a searcher** (the public API, see the docs page
        "Write a searcher"): play and take back moves with ``push``/``undo`` (or
        ``advance``/``retract``), leave ``game`` as it was, count with ``context``'s
        helpers and return ``context.answer(...)``. Ties, the principal variation,
        refusing unsupported games and restoring the position after an interrupt
        are the driver's (:meth:`search`).
        """
        raise NotImplementedError(f"searcher {self.name!r} must override root()")

    def _break_tie(self, best_moves: Sequence[Hashable]) -> Hashable:
        # A fresh generator per search: a seeded searcher gives the same answer to the
        # same position every time (equal searchers behave equally).
        if self.seed is None or len(best_moves) == 1:
            return best_moves[0]
        return random.Random(self.seed).choice(best_moves)

    def _line_later(
        self, game: Game[Any], move: Hashable, answer: RootAnswer, context: SearchContext
    ) -> tuple[Hashable, ...]:
        """Return the principal variation from ``move`` (when a result's line is first read)."""
        return self._principal_variation(game, move, answer, context.memory)

    def _principal_variation(
        self, game: Game[Any], move: Hashable, answer: RootAnswer, memory: SearchMemory
    ) -> tuple[Hashable, ...]:
        """Return the line from ``move`` on, by searching each following position again.

        The re-searches are not counted in the statistics. A depth-limited search
        stops the line at its horizon; in a game of chance the line stops at the next
        chance position (past it, the line depends on what chance draws).
        """
        line = [move]
        if game.to_move() == CHANCE:
            return (move,)
        game.push(move)
        try:
            limit = answer.depth_limit
            remaining = None if limit is None else limit - 1
            while (
                game.result() is None
                and (remaining is None or remaining > 0)
                and game.to_move() != CHANCE
            ):
                follow = self._follow_up(game, remaining, memory)
                line.append(follow)
                game.push(follow)
                remaining = None if remaining is None else remaining - 1
        finally:
            for _ in line:
                game.undo()
        return tuple(line)

    def _follow_up(self, game: Game[Any], depth: int | None, memory: SearchMemory) -> Hashable:
        """Return the first best move in ``game`` for a search ``depth`` plies deep."""
        searcher = self if depth is None else attrs.evolve(self, depth=depth)
        answer = searcher.root(game, searcher._context(game, Counters(), memory=memory))
        return answer.best_moves[0]


def _finished_utilities(game: Game[Any]) -> RootAnswer:
    """Return the answer of a finished position of a game with utilities."""
    utilities = final_utilities(game)
    assert utilities is not None
    return RootAnswer(utilities[game.to_move()], (), None, True, 0, utilities=utilities)


#: the readers the option schema replaced (deprecated, kept one release)
_convert_text = convert_text_deprecated
_check_typed = check_typed_deprecated


def parse_searcher_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Return the name and options of ``"name"`` or ``"name:key=value,key=value"``.

    :raises InvalidOptionError: for a malformed spec.
    """
    name, _, rest = spec.partition(":")
    name = name.strip()
    options: dict[str, str] = {}
    # spaces may come before an item, never inside its key or its value ("3 " is no number)
    for part in filter(None, (item.lstrip() for item in rest.split(","))):
        key, equals, value = part.partition("=")
        if not equals or not key:
            raise InvalidOptionError(
                f"searcher option {part!r} in {spec!r} must be written key=value"
            )
        options[key] = value
    if not name:
        raise InvalidOptionError(f"searcher spec {spec!r} has no name")
    return name, options
