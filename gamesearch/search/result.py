"""What a search answers: its values, the result record, statistics and the tracer.

A search value is an integer, or an exact fraction in a game of chance; the window of a
search is open at :data:`INFINITY`. :class:`SearchResult` is the immutable record
:meth:`Searcher.search <gamesearch.search.base.Searcher.search>` returns,
:class:`RootAnswer` what a searcher's core hands the driver before ties are broken.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any, Protocol

import attrs

from gamesearch import capabilities
from gamesearch.game import Game
from gamesearch.rules import Scoring, ValueScale
from gamesearch.score import DEFAULT_NAMES, Score, json_number, score_of
from gamesearch.words import describe_utilities, describe_value, number_text

#: larger than any value a game can produce: the open ends of a search window
INFINITY = 1 << 60
#: its negation, named: ``-INFINITY`` in a loop builds a new integer every time
NEGATIVE_INFINITY = -INFINITY
#: a search value: an integer, or an exact fraction (expected results in a game of chance)
Value = int | Fraction


@attrs.define
class Counters:
    """Mutable tallies a search core fills in; the :class:`SearchStats` of its search hold
    them once it is done."""

    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    tt_hits: int = 0
    depth: int = 0
    playout_plies: int = 0


def _tallies(counters: Counters) -> tuple[int, ...]:
    """Return what two statistics compare by of their counters (the depth is their own)."""
    return (
        counters.nodes,
        counters.leaves,
        counters.cutoffs,
        counters.tt_hits,
        counters.playout_plies,
    )


# The records every search builds are frozen classes without slots: attrs fills such
# an instance's __dict__ directly, which halves the cost of building one (it shows
# in small searches).
@attrs.frozen(slots=False)
class SearchStats:
    """How much work a search did: the counters its core filled in, its depth and its time
    (the counts read through to the counters, which the search no longer changes)."""

    _counters: Counters = attrs.field(alias="counters", factory=Counters, eq=_tallies, repr=False)
    depth: int = 0  #: plies searched below the root (deepest completed iteration)
    seconds: float = 0.0  #: wall-clock time of the search (not of the PV, worked out when read)
    #: processor time the searching thread spent on the search, measured for a searcher
    #: on the processor clock (``clock="cpu"``; 0 on the wall clock)
    cpu_seconds: float = 0.0

    @property
    def nodes(self) -> int:
        """Return the positions entered, root included."""
        return self._counters.nodes

    @property
    def leaves(self) -> int:
        """Return the positions scored without expanding (game over or horizon)."""
        return self._counters.leaves

    @property
    def cutoffs(self) -> int:
        """Return the times the remaining moves of a position were skipped."""
        return self._counters.cutoffs

    @property
    def tt_hits(self) -> int:
        """Return the transposition-table probes that answered or narrowed the window."""
        return self._counters.tt_hits

    @property
    def playout_plies(self) -> int:
        """Return the random moves played in playouts (Monte Carlo searchers)."""
        return self._counters.playout_plies

    @property
    def nodes_per_second(self) -> float:
        """Return nodes divided by seconds (0 when no time was measured)."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        """Return the statistics as JSON-ready data (with the node rate)."""
        return {
            "nodes": self.nodes,
            "leaves": self.leaves,
            "cutoffs": self.cutoffs,
            "tt_hits": self.tt_hits,
            "depth": self.depth,
            "seconds": self.seconds,
            "playout_plies": self.playout_plies,
            "cpu_seconds": self.cpu_seconds,
            "nodes_per_second": self.nodes_per_second,
        }

    def __repr__(self) -> str:
        return (
            f"SearchStats(nodes={self.nodes!r}, leaves={self.leaves!r}, cutoffs={self.cutoffs!r}, "
            f"tt_hits={self.tt_hits!r}, depth={self.depth!r}, seconds={self.seconds!r}, "
            f"playout_plies={self.playout_plies!r}, cpu_seconds={self.cpu_seconds!r})"
        )


@attrs.frozen
class MoveVisits:
    """How often a sampling searcher (MCTS) tried one root move, and how it fared."""

    move: Hashable
    visits: int  #: simulations that went through this move
    mean: float  #: mean playout result in [-1, 1], first player's point of view
    proven: int | None  #: the move's exact value once proven, else ``None``


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


def _compared(answer: RootAnswer) -> tuple[Any, ...]:
    """Return what two results compare by of their answers: what was found at the root (not
    the horizon it was searched to, a setting; the depth searched is in the statistics)."""
    return (
        answer.value,
        answer.best_moves,
        answer.move_values,
        answer.is_exact,
        answer.visits,
        answer.utilities,
        answer.best_moves_complete,
        answer.move_values_exact,
    )


@attrs.frozen(slots=False)
class SearchResult:
    """The answer of one search, values from the first player's point of view.

    It holds what the searcher's core found at the root (:attr:`answer`: :attr:`value`,
    :attr:`best_moves` and the rest read through to it) and the :class:`SearchStats`.
    In a game of chance the value is the expected final result, an exact
    :class:`~fractions.Fraction` (see :func:`gamesearch.game.chance_heuristic` for
    values beyond a horizon). The principal variation :attr:`pv` may be worked out when
    it is first read (it costs a search of each position along it): ``pv`` accepts the
    line or a function returning it. Results compare equal on everything but the line.
    """

    searcher: str  #: name of the searcher that produced it
    move: Hashable | None  #: the chosen move; ``None`` when the game is over
    #: what the searcher's core found at the root, before the tie was broken
    answer: RootAnswer = attrs.field(eq=_compared)
    stats: SearchStats
    _line: tuple[Hashable, ...] | Callable[[], tuple[Hashable, ...]] = attrs.field(
        alias="pv", eq=False, repr=False
    )
    #: the searched position's ply (what :attr:`score` reads)
    ply: int = attrs.field(default=0, eq=False, repr=False)
    #: the searched game, whose value scale, players' names and word for a forced win
    #: (:class:`~gamesearch.capabilities.Presentation`) :attr:`score` and :attr:`margin`
    #: read: when first asked for (a search whose score is never read never asks; a
    #: game's rules and names do not change as it is played); without it, no margin, and
    #: the first and second player.
    _presented: Game[Any] | None = attrs.field(
        default=None, alias="presented", eq=False, repr=False
    )
    #: how the search scored finished games (utility: the values are the results)
    scoring: Scoring = attrs.field(default=Scoring.DISTANCE, eq=False, repr=False)

    @property
    def value(self) -> int | Fraction:
        """Return the value of the position (exact unless :attr:`is_exact` is false)."""
        return self.answer.value

    @property
    def best_moves(self) -> tuple[Hashable, ...]:
        """Return every move of the optimal value, in move order."""
        return self.answer.best_moves

    @property
    def move_values(self) -> tuple[tuple[Hashable, int | Fraction], ...] | None:
        """Return each root move's value, when asked (else ``None``)."""
        return self.answer.move_values

    @property
    def is_exact(self) -> bool:
        """Return whether the search reached the end of every line it relied on."""
        return self.answer.is_exact

    @property
    def is_game_over(self) -> bool:
        """Return whether the position was already finished (it has no best move)."""
        return not self.answer.best_moves

    @property
    def visits(self) -> tuple[MoveVisits, ...] | None:
        """Return the root moves' visits (sampling searchers; else ``None``)."""
        return self.answer.visits

    @property
    def utilities(self) -> tuple[int | Fraction, ...] | None:
        """Return one utility per player (a game whose rules declare utilities; ``None``
        otherwise), in result units: whole numbers when exact, fractions strictly inside
        the result range for heuristic estimates; :attr:`value` is then the root mover's
        utility."""
        return self.answer.utilities

    @property
    def best_moves_complete(self) -> bool:
        """Return whether :attr:`best_moves` holds every move of the best value; false when
        the search knows only some of them (a root window shared between the root moves, a
        sampling search whose root is not settled): a tied best move may be missing."""
        return self.answer.best_moves_complete

    @property
    def move_values_exact(self) -> bool:
        """Return whether every value the search found for a root move is exact; false when
        the moves that are not best got only bounds (a shared root window) or estimates."""
        return self.answer.move_values_exact

    def _scale(self) -> ValueScale | None:
        """Return the searched game's value scale (``None``: a game with utilities, or no
        game given); a pickled result keeps it without the game."""
        game = self._presented
        if game is None:
            kept: ValueScale | None = self.__dict__.get("_kept_scale")
            return kept
        rules = game.rules
        return None if rules.utilities else rules.scale

    @property
    def score(self) -> Score:
        """Return the typed score of :attr:`value` (:mod:`gamesearch.score`), first
        player's point of view: proven, heuristic, expected or utilities (worked out
        once, when first read)."""
        found: Score | None = self.__dict__.get("_score")
        if found is None:
            game = self._presented
            found = score_of(
                self.value,
                is_exact=self.is_exact,
                scale=self._scale(),
                depth=self.stats.depth,
                ply=self.ply,
                names=DEFAULT_NAMES if game is None else capabilities.player_names(game),
                forced_win=None if game is None else capabilities.forced_win_name(game),
                utilities=self.utilities,
                results=self.scoring is Scoring.UTILITY,
            )
            object.__setattr__(self, "_score", found)
        return found

    @property
    def margin(self) -> int | Fraction | None:
        """Return the proven final result, first player's view (sign: who wins; size: by
        how much; 0: a draw), or ``None`` unless the value is exact.

        In a game of chance: the expected final result (the value itself) when exact.
        """
        scale = self._scale()
        if not self.is_exact or scale is None:
            return None
        if isinstance(self.value, Fraction) or self.scoring is Scoring.UTILITY:
            return self.value
        return scale.margin(self.value)

    @property
    def pv(self) -> tuple[Hashable, ...]:
        """Return the principal variation: ``move`` and the best play that follows it."""
        line = self._line
        if callable(line):
            line = line()
            object.__setattr__(self, "_line", line)  # worked out once
        return line

    def __getstate__(self) -> dict[str, Any]:
        """Return the fields to pickle: the line, the score and the value scale worked out,
        the game left out (its positions may not pickle)."""
        state = {field.name: getattr(self, field.name) for field in attrs.fields(SearchResult)}
        state["_line"], state["_score"], state["_kept_scale"] = self.pv, self.score, self._scale()
        state["_presented"] = None
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
            "stats": self.stats.as_dict(),
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
