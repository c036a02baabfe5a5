"""How far one search may go: the :class:`Limit` a caller gives, the searchers' limit
options, and the :class:`Budget` that checks it while a search runs.

A searcher's ``depth``, ``max_nodes``, ``seconds``, ``simulations`` and ``clock`` options
are the fields of :class:`Limit`; the helpers here declare them once for every searcher.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from typing import Any

import attrs

from gamesearch.errors import BudgetExceededError, InvalidOptionError
from gamesearch.options import check_fields, option_field
from gamesearch.search.result import INFINITY

#: the most positions a search with a time budget enters between two readings of its clock
CLOCK_INTERVAL = 1024
#: the positions a search with a time budget enters before it first reads its clock; from
#: then on the run between readings is set from the node rate measured (:class:`Budget`)
FIRST_CLOCK_INTERVAL = 16
#: the share of its time budget a search may spend between two readings of its clock, at
#: the node rate measured so far (so a search overruns its budget by about this share)
CLOCK_SHARE = 0.01
#: the clocks a time budget may be measured on: ``wall`` is elapsed time, ``cpu`` the
#: processor time of the searching thread (another busy or sleeping thread does not shorten it)
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}
#: the plies left of a search without a horizon: more than any game lasts, yet a small
#: integer (CPython's arithmetic on it is as fast as on any depth a caller gives)
NO_HORIZON = 1 << 29


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


class Budget:
    """How much one search may spend, in positions entered and in seconds on its clock,
    and the one check of it (the only place a search's budget error is raised).

    A core counts the positions it enters and, whenever its count passes the number
    :meth:`check` last returned (at first :attr:`first_look`), calls :meth:`check`
    again: one comparison of two integers per position. Without a budget that number is
    never reached. With a time budget the clock is read first after
    :data:`FIRST_CLOCK_INTERVAL` positions, then after as many positions as the node rate
    measured between the last two readings gets through in :data:`CLOCK_SHARE` of the
    budget (at most twice the last run, at most :data:`CLOCK_INTERVAL`), so a slow
    search overruns its time by about that share, not by a thousand slow positions.
    ``spent`` is what the search had entered before this budget's counting began
    (an iterative-deepening driver hands each depth its rest: :meth:`after`, which keeps
    the rate measured).
    """

    __slots__ = (
        "clock",
        "deadline",
        "first_look",
        "interval",
        "is_limited",
        "last_read",
        "last_total",
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
        interval: int = FIRST_CLOCK_INTERVAL,
        last_read: float | None = None,
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
        #: the positions to enter before the clock is read next (set from the node rate)
        self.interval = interval
        #: the clock's last reading and the positions entered by then (the whole search's)
        self.last_read = self.started if last_read is None else last_read
        self.last_total = spent
        self.first_look = self.next_check(0)

    def after(self, spent: int) -> Budget:
        """Return this budget's rest once ``spent`` positions were entered (same deadline,
        the clock read as often as the node rate measured so far asks)."""
        rest = Budget(
            None if self.max_nodes == INFINITY else self.max_nodes,
            self.seconds,
            self.clock,
            spent=spent,
            started=self.started,
            interval=self.interval,
            last_read=self.last_read,
        )
        rest.last_total = min(self.last_total, spent)
        return rest

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
        return min(left, nodes + self.interval)

    def is_spent(self, nodes: int) -> bool:
        """Return whether entering ``nodes`` positions (counted from :attr:`spent`) is past the
        budget: more nodes than it allows, or its clock past the deadline (read now; the
        reading also sets :attr:`interval` from the node rate since the last one)."""
        if self.spent + nodes > self.max_nodes:
            return True
        if self.deadline == math.inf:
            return False
        now, total = self.read_clock(), self.spent + nodes
        took, entered = now - self.last_read, total - self.last_total
        # the positions that take CLOCK_SHARE of the budget at the rate just measured
        # (a clock that did not move, or a first reading, lets the run double)
        share = CLOCK_SHARE * (self.deadline - self.started)
        fits = entered * share / took if took > 0 else math.inf
        self.interval = max(1, min(2 * self.interval, CLOCK_INTERVAL, int(fits)))
        self.last_read, self.last_total = now, total
        return now > self.deadline

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
