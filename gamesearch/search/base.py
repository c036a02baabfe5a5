"""The base of every searcher: :class:`Searcher`, its options and the driver of a search.

A searcher is an immutable, configured object (attrs). Calling
:meth:`Searcher.search` on a position returns a :class:`SearchResult` and leaves the
position exactly as it was, also when the search raises or runs out of budget.

What the driver works with has a module each, and every name of them can be imported
from here too: the records a search answers with (:mod:`gamesearch.search.result`),
how far it may go (:mod:`gamesearch.search.limits`) and what a searcher's core is
given and fills in (:mod:`gamesearch.search.context`).
"""

from __future__ import annotations

import abc
import functools
import random
import sys
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar

import attrs

from gamesearch.capabilities import Chance, capability_words, game_class
from gamesearch.errors import InvalidOptionError, SearchTooDeepError, UnsupportedGameError
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
from gamesearch.rules import CHANCE, Scoring, final_utilities

# What every searcher shares lives in three modules below this one, by idea; their
# names stay importable from here, where they were first written.
from gamesearch.search.context import FINISHED_TABLE_ENTRIES as FINISHED_TABLE_ENTRIES
from gamesearch.search.context import Counters as Counters
from gamesearch.search.context import FinishedValues as FinishedValues
from gamesearch.search.context import SearchContext as SearchContext
from gamesearch.search.context import finished_values as finished_values
from gamesearch.search.context import heuristic as heuristic
from gamesearch.search.context import leaf_values as leaf_values
from gamesearch.search.limits import CLOCK_HELP as CLOCK_HELP
from gamesearch.search.limits import CLOCK_INTERVAL as CLOCK_INTERVAL
from gamesearch.search.limits import CLOCKS as CLOCKS
from gamesearch.search.limits import NO_HORIZON as NO_HORIZON
from gamesearch.search.limits import SHORTEST_SECONDS as SHORTEST_SECONDS
from gamesearch.search.limits import Budget as Budget
from gamesearch.search.limits import Limit as Limit
from gamesearch.search.limits import clock_field as clock_field
from gamesearch.search.limits import depth_field as depth_field
from gamesearch.search.limits import node_budget_field as node_budget_field
from gamesearch.search.limits import seconds_field as seconds_field
from gamesearch.search.limits import simulations_field as simulations_field
from gamesearch.search.result import INFINITY as INFINITY
from gamesearch.search.result import NEGATIVE_INFINITY as NEGATIVE_INFINITY
from gamesearch.search.result import Iteration as Iteration
from gamesearch.search.result import IterationListener as IterationListener
from gamesearch.search.result import MoveVisits as MoveVisits
from gamesearch.search.result import RootAnswer as RootAnswer
from gamesearch.search.result import SearchResult as SearchResult
from gamesearch.search.result import SearchStats as SearchStats
from gamesearch.search.result import Tracer as Tracer
from gamesearch.search.result import Value as Value
from gamesearch.search.result import json_value as json_value
from gamesearch.search.table import SearchMemory


def _scoring(value: Any) -> Scoring:
    """Return ``value`` (a :class:`Scoring` or its text) as a Scoring."""
    return value if isinstance(value, Scoring) else _SCORING.read(value)


_SCORING = Option("scoring", Scoring, Scoring.GAME, "how finished games are scored")


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
    #: whether the core scores finished games by its context's scoring, utility scoring
    #: included (through :func:`finished_values` or :meth:`SearchContext.finished_value`);
    #: a core whose bounds need the framework's scale of wins says False, and with
    #: utility scoring it searches with plain scoring and its proven values are turned
    #: into results (the same best moves and positions: the order of values is kept)
    scores_utilities: ClassVar[bool] = True

    scoring: Scoring = attrs.field(
        default=Scoring.GAME,
        converter=_scoring,
        metadata={
            "help": "game: the game's own (utility for explicit trees, else distance); "
            "distance: prefer fast wins and slow losses; plain: win/draw/loss; "
            "utility: a finished game is worth its result, as in the textbook"
        },
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
    #: this searcher with each scoring the game's own stands for (made when first needed)
    _scored: dict[Scoring, Searcher] = attrs.field(
        factory=dict, init=False, eq=False, repr=False, hash=False
    )
    #: the budget of every search when the searcher has no node or time budget (it never
    #: reads its clock: one serves every search), else ``None`` (a new one each search)
    _unlimited: Budget | None = attrs.field(init=False, eq=False, repr=False, hash=False)
    #: whether a search asks the game what the scoring stands for first: the game's own
    #: scoring, or utility scoring for a core that does not score utilities (see
    #: :meth:`_search_scored`); else the core takes the scoring as it is
    _scored_by_game: bool = attrs.field(init=False, eq=False, repr=False, hash=False)

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every option, however the searcher was made
        unlimited = self.max_nodes is None and self.seconds is None
        object.__setattr__(self, "_unlimited", Budget(clock=self.clock) if unlimited else None)
        # (worked out once per searcher: reading an enum member costs more in CPython
        # 3.11 than the rest of the test, and every search asks)
        scored_by_game = self.scoring is Scoring.GAME or (
            self.scoring is Scoring.UTILITY and not self.scores_utilities
        )
        object.__setattr__(self, "_scored_by_game", scored_by_game)

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
        if self._scored_by_game:
            return self._search_scored(game, move_values, tracer, memory, on_iteration)
        return self._search_scored_as_asked(game, move_values, tracer, memory, on_iteration)

    def _search_scored_as_asked(
        self,
        game: Game[Any],
        move_values: bool,
        tracer: Tracer | None,
        memory: SearchMemory | None,
        on_iteration: IterationListener | None,
    ) -> SearchResult:
        """Return :meth:`search`'s result, this searcher's scoring being one a core takes."""
        # the processor clock costs a system call: read only for a searcher on it
        cpu_clock = self.clock == "cpu"
        started, cpu_started = time.perf_counter(), time.thread_time() if cpu_clock else 0.0
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
                move = best_moves[0] if self.seed is None else self._break_tie(best_moves)
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
            counters=counters,
            depth=answer.depth,
            seconds=time.perf_counter() - started,
            cpu_seconds=time.thread_time() - cpu_started if cpu_clock else 0.0,
        )
        # (the answer's fields are read through it; the score is made when first read)
        return SearchResult(
            searcher=self.name,
            move=move,
            answer=answer,
            stats=stats,
            pv=line,
            ply=game.ply,
            presented=game,
            scoring=self.scoring,
        )

    def _search_scored(
        self,
        game: Game[Any],
        move_values: bool,
        tracer: Tracer | None,
        memory: SearchMemory | None,
        on_iteration: IterationListener | None,
    ) -> SearchResult:
        """Return :meth:`search`'s result with the game's own scoring in place of ``game``,
        or, for a core that does not score utilities, with plain scoring and its proven
        values turned into results."""
        scale = game.rules.scale
        scoring = scale.resolve(self.scoring)
        if scoring is not Scoring.UTILITY or self.scores_utilities:
            twin = self._scored.get(scoring)
            if twin is None:
                twin = self._scored[scoring] = attrs.evolve(self, scoring=scoring)
            return twin._search_scored_as_asked(game, move_values, tracer, memory, on_iteration)

        def result_of(value: Value) -> Value:
            return value if isinstance(value, Fraction) else proven_result(value)

        def proven_result(value: int) -> int:
            margin = scale.margin(value)
            return value if margin is None else margin

        listener = on_iteration
        if on_iteration is not None:
            told = on_iteration

            def listener(iteration: Iteration) -> None:
                told(attrs.evolve(iteration, value=result_of(iteration.value)))

        plain = attrs.evolve(self, scoring=Scoring.PLAIN)
        found = plain._search_scored_as_asked(game, move_values, tracer, memory, listener)
        answer = found.answer
        values, visits = answer.move_values, answer.visits
        results = attrs.evolve(
            answer,
            value=result_of(answer.value),
            move_values=None
            if values is None
            else tuple((move, result_of(value)) for move, value in values),
            visits=None
            if visits is None
            else tuple(
                entry
                if entry.proven is None
                else attrs.evolve(entry, proven=proven_result(entry.proven))
                for entry in visits
            ),
        )
        return attrs.evolve(found, answer=results, scoring=Scoring.UTILITY)

    def _finished_answer(self, game: Game[Any], final: int) -> RootAnswer:
        """Return the answer at the finished position ``game`` whose result is ``final``."""
        rules = game.rules
        if rules.utilities:
            return _finished_utilities(game)
        # values that are expected results: a finished game is worth its result
        if rules.chance or self.expected_values:
            return RootAnswer(Fraction(final), (), None, True, 0)
        # (proven_value's, on the result the driver already has: the game is not asked again)
        return RootAnswer(rules.scale.proven(final, game.ply, self.scoring), (), None, True, 0)

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
        if needed:  # (what the game offers is worked out once per class)
            offers = game_class(game).offers
            unmet.extend(
                f"it needs {capability_words(capability)}, which this game does not offer"
                for capability in needed
                if capability not in offers
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
        budget = self._unlimited
        if budget is None:
            budget = Budget(self.max_nodes, self.seconds, self.clock)
        return SearchContext(
            self.scoring,
            counters,
            move_values,
            tracer,
            self.depth if self.honours_depth else None,
            game.ply,
            memory,
            budget=budget,
        )

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
