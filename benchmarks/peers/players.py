"""Other programs as players of a tournament: searchers that ask an outside engine for a move.

``python -m benchmarks strength`` plays this framework's searchers against other
programs through :func:`gamesearch.tournament.run_tournament`, which plays searchers:
each outside program is wrapped here as a :class:`~gamesearch.search.base.Searcher`
whose :meth:`root` hands the position to the program and returns the move it chose.
They are registered in a registry of the benchmark's own (:func:`strength_registry`),
never in the package's.

Their budget is a time per move (``seconds``) on the searcher's ``clock``: with
``clock=cpu`` (what the benchmark uses) each program gets that much processor time of
its own process, however loaded the machine is; how each one is held to it is said by
its class. Their value is not comparable with this framework's, so each answer's value
is 0 and not exact; the nodes are the program's own count where it reports one.
"""

from __future__ import annotations

import abc
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any, ClassVar

import attrs

from gamesearch.arena import MoveRecord
from gamesearch.game import Game
from gamesearch.plugins import Registry, build_registry
from gamesearch.rules import Outcome
from gamesearch.search.base import Searcher
from gamesearch.search.context import SearchContext
from gamesearch.search.result import RootAnswer
from gamesearch.search.table import SearchMemory

#: the time per move of an outside player given no ``seconds`` (seconds)
DEFAULT_SECONDS = 0.1
#: how much deeper (as a factor of time) the next depth of a deepening peer is taken to cost
#: before two depths have been timed
FIRST_GROWTH = 4.0


#: by player name: the processor time its moves took (seconds) and their number, in this process
SPENT: dict[str, list[float]] = {}


def spent(name: str, seconds: float) -> None:
    """Count a move of the outside player ``name`` that took ``seconds`` of processor time."""
    total = SPENT.setdefault(name, [0.0, 0])
    total[0] += seconds
    total[1] += 1


def process_seconds(clock: str) -> float:
    """Return this process's time on ``clock``: processor time (``cpu``) or elapsed (``wall``)."""
    return time.process_time() if clock == "cpu" else time.perf_counter()


@attrs.frozen(kw_only=True)
class OutsidePlayer(Searcher):
    """Base of the outside programs: a move from the program, a value of 0, not exact."""

    name: ClassVar[str] = "outside"
    line_on_demand: ClassVar[bool] = False  # the line is the move alone
    answers_within_budget: ClassVar[bool] = True
    honours_depth: ClassVar[bool] = False
    #: the game names the program can play (``unmet_needs`` refuses the others)
    plays: ClassVar[tuple[str, ...]] = ()

    def unmet_needs(self, game: Game[Any]) -> list[str]:
        """Return what keeps the program from playing ``game``: also, a game it does not know."""
        unmet = super().unmet_needs(game)
        if type(game).name not in self.plays:
            unmet.append(f"it plays only {', '.join(self.plays)}")
        return unmet

    def adjudicator(
        self, game: Game[Any]
    ) -> Callable[[Sequence[MoveRecord]], Outcome | None] | None:
        """Return what ends a game of ``game`` where the program's own rules end it before
        the framework's (the program cannot search on), or ``None``: the rules agree."""
        return None

    @property
    def budget_seconds(self) -> float:
        """Return the time a move may take (``seconds``, else :data:`DEFAULT_SECONDS`)."""
        return self.seconds if self.seconds is not None else DEFAULT_SECONDS

    @abc.abstractmethod
    def choose(self, game: Game[Any]) -> tuple[Hashable, int]:
        """Return the program's move in the unfinished position ``game`` (a move of ``game``)
        and the nodes it reports (0 when it reports none); ``game`` is left as it was."""

    #: whether :meth:`choose` runs in this process (its processor time is counted here)
    in_process: ClassVar[bool] = True

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        """Return the program's move as the only best move, with a value of 0 (not exact)."""
        began = time.process_time()
        move, nodes = self.choose(game)
        if self.in_process:
            spent(self.name, time.process_time() - began)
        context.counters.nodes += nodes
        return RootAnswer(0, (move,), None, False, 0)

    def _principal_variation(
        self, game: Game[Any], move: Hashable, answer: RootAnswer, memory: SearchMemory
    ) -> tuple[Hashable, ...]:
        """Return the line: the move alone (the program tells no more)."""
        return (move,)


def deepen_within(seconds: float, clock: str, search: Any, deepest: int) -> tuple[Any, int]:
    """Return the answer of the deepest ``search(depth)`` (depth 1, 2, ... up to ``deepest``)
    that is expected to end within ``seconds`` on ``clock``, and that depth.

    Depth 1 is always searched. A further depth is started only when the time spent so far
    plus the last depth's time times the growth measured between the last two depths
    (:data:`FIRST_GROWTH` before two are timed) stays within the budget; so the mean time
    a move stays near the budget without stopping a search half-way, which the peers'
    searchers cannot do.
    """
    start = process_seconds(clock)
    answer, depth, last, growth = None, 0, 0.0, FIRST_GROWTH
    while depth < deepest:
        began = process_seconds(clock)
        if depth and (began - start) + last * growth > seconds:
            break
        answer = search(depth + 1)
        depth += 1
        took = process_seconds(clock) - began
        if last > 0 and took > 0:
            growth = max(1.5, took / last)
        last = took
    return answer, depth


def strength_registry() -> Registry:
    """Return the installed plugins' registry with the outside players added (those whose
    program is missing still register: they are refused with a message when used)."""
    from benchmarks.peers.bots import BOTS
    from benchmarks.peers.uci import UCI_ENGINES

    registry = build_registry()
    for player in (*UCI_ENGINES, *BOTS):
        registry.add_searcher(player)
    return registry
