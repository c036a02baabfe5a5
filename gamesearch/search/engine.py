"""The engine: alpha-beta with the tricks game-playing programs use, each a switch.

Twin: :mod:`gamesearch.search.reference.alphabeta`, with the same values and best
moves to the end of the game whatever the switches, and at a depth with every trick
off. Differences: negamax form inside; the root moves after the first searched with
a window one point below the best (ties exact, the others bounds); each trick below
a switch; a table of ``(depth, lower, upper, best move)``.

``engine:depth=6`` is plain fail-soft alpha-beta in negamax form (values from the
side to move's point of view inside the search, the first player's outside). Each
option adds one trick and is off by default:

- ``iterative``: deepen one ply at a time, the previous depth's best line tried first
  (with a node or time budget, the last completed depth answers);
- ``follow``: what a search remembers of the one before to try first: ``line`` (the
  default: the previous depth's best line at every ply, and the table's best move) or
  ``root`` (the last best move at the root only);
- ``aspiration=N``: search each new depth in the window ``value ± N`` around the last
  depth's value, and again with that side opened when the value falls outside
  (it needs a previous depth, so it deepens iteratively too);
- ``killers``: try first the two moves that last cut off at the same distance from the
  root (Akl & Newborn, 1977);
- ``history``: order the other moves by how often, and how deep, each cut off
  anywhere (Schaeffer, 1989);
- ``null_move=R``: before searching a position, let the side to move pass and search
  the opponent's reply ``R`` plies shallower with a null window; if passing already
  holds ``beta``, cut off (Beal, 1989; Donninger, 1993). Only for games whose rules
  declare zugzwang rare and that offer :meth:`~gamesearch.game.Game.make_null_move`;
- ``lmr``: search moves late in the order one ply shallower with a null window, and
  again at full depth when they beat ``alpha`` (late move reductions);
- ``quiescence``: at the horizon, stand pat on ``evaluate()`` or play one of the game's
  :meth:`~gamesearch.game.Game.noisy_moves`, until the position is quiet; where a
  forcing move (a check) reached the horizon, every reply is tried instead;
- ``extensions``: a move the game calls forcing (:meth:`~gamesearch.game.Game.is_forcing`,
  a check in chess) is searched one ply deeper, at most ``depth // 2`` times on a line
  (once at least), so no line goes past one and a half times the depth.

**Exactness.** Without a depth the engine searches to the end of every line and its
value and best moves are minimax's, whatever the switches: move ordering (deepening,
aspiration with re-search, killers, history) never changes a value; a reduction of an
unlimited depth is still unlimited (LMR keeps only its null window and re-search);
there is no horizon to extend or to quiesce at; and null-move pruning, which is wrong
in zugzwang, is switched off. With a depth the tricks may change the value, and the
result says it is heuristic (``is_exact`` false) unless every line ended.

The table (``table``) holds ``(depth, lower, upper, best move)`` per position, the
bounds for the side to move. An entry whose subtree met no horizon (and no null-move
cut-off) holds the game's true bounds and answers at any depth; the others answer
only at the depth searched, and using one marks the answer heuristic. The best move
is tried first whatever the depth. In a game with repetition draws, a position repeated
on the line is a draw (:mod:`gamesearch.search.repetition`), and an entry whose value
rests on one keeps only its move.

The search itself (the hot loop, one root at a time, kept across the depths of
deepening) is :class:`~gamesearch.search.engine_core.EngineCore`. With ``follow=root``
and no trick but deepening, or with every trick and the table off, the engine is plain
alpha-beta and searches with :func:`gamesearch.search.alphabeta.search_root`'s loops
(the same tree, faster); ``iterative`` is that engine with deepening and a table. So
does the engine whose only tricks are killers, history, late move reductions and
extensions (with deepening only under ``follow=root``, and no table): those loops have
them too.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Hashable, Iterator
from typing import Any, ClassVar

import attrs

from gamesearch.game import Game, allows_null_move, offers
from gamesearch.options import option_field
from gamesearch.rules import Player
from gamesearch.search.alphabeta import search_root
from gamesearch.search.base import (
    Budget,
    Counters,
    RootAnswer,
    SearchContext,
    Searcher,
    depth_field,
    node_budget_field,
    seconds_field,
)
from gamesearch.search.deepening import deepen

# The search of one root has a module of its own; its names stay importable from here.
from gamesearch.search.engine_core import ASPIRATION_TRIES as ASPIRATION_TRIES
from gamesearch.search.engine_core import EXACT_DEPTH as EXACT_DEPTH
from gamesearch.search.engine_core import EXTENSION_SHARE as EXTENSION_SHARE
from gamesearch.search.engine_core import FULL_DEPTH_MOVES as FULL_DEPTH_MOVES
from gamesearch.search.engine_core import REDUCTION_DEPTH as REDUCTION_DEPTH
from gamesearch.search.engine_core import DepthAnswer, EngineCore
from gamesearch.search.table import (
    BOUNDS,
    EngineEntry,
    SearchMemory,
    TableKind,
    engine_kind,
    table_entries_field,
)

#: the search of one depth: ``(depth, the budget left or None, the last depth's answer)``
SearchDepth = Callable[[int | None, Budget | None, RootAnswer | None], RootAnswer]

#: each trick's option as ``gamesearch compare --tricks`` and the docs switch it on
TRICK_OPTIONS: tuple[str, ...] = (
    "iterative=true",
    "aspiration=50",
    "killers=true",
    "history=true",
    "null_move=2",
    "lmr=true",
    "quiescence=true",
    "extensions=true",
)


def trick_specs(depth: int) -> list[str]:
    """Return the searcher specs that measure the tricks at ``depth``: plain alpha-beta, the
    plain engine, the engine with each trick alone, deepening with a table, then every
    trick with the table."""
    plain = f"engine:depth={depth}"
    return [
        f"alphabeta:depth={depth}",
        plain,
        *(f"{plain},{option}" for option in TRICK_OPTIONS),
        f"{plain},iterative=true,table=true",
        ",".join([plain, *TRICK_OPTIONS, "table=true"]),
    ]


def _switch(help_text: str) -> Any:
    """Return the attrs field of a trick that is on or off (off by default)."""
    return attrs.field(default=False, metadata={"help": help_text})


def _amount(help_text: str) -> Any:
    """Return the attrs field of a trick set by a whole number >= 0 (0, the default: off)."""
    return option_field(0, help_text, minimum=0)


@attrs.frozen(kw_only=True)
class Engine(Searcher):
    """Alpha-beta with engine tricks, each a switch: deepening, aspiration, killers, history,
    null move, LMR, quiescence, extensions."""

    name: ClassVar[str] = "engine"

    #: its bounds are on the scale of wins: utility scoring searches plain (see Searcher)
    scores_utilities: ClassVar[bool] = False

    depth: int | None = depth_field(
        "plies to search before the horizon (default: to the end, exact)"
    )
    max_nodes: int | None = node_budget_field(
        "node budget (with iterative: answers with the last completed depth; else gives up)"
    )
    seconds: float | None = seconds_field(
        "time budget in seconds (with iterative: answers with the last completed depth; else gives "
        "up)"
    )
    iterative: bool = _switch("deepen one ply at a time, the previous depth's best line first")
    follow: str = option_field(
        "line",
        "line: the previous depth's best line and the table's best move first at every ply; "
        "root: the last best move first at the root only",
        choices=("line", "root"),
    )
    aspiration: int = _amount(
        "search each new depth in a window this wide around the last value, re-searched when "
        "it fails (0: off; deepens iteratively)"
    )
    killers: bool = _switch("try first the moves that last cut off at the same ply")
    history: bool = _switch("order moves by how often and how deep they cut off")
    null_move: int = _amount(
        "null-move pruning with this depth reduction (0: off; only with a depth, for games "
        "that declare zugzwang rare and offer a pass)"
    )
    lmr: bool = _switch(
        "late move reductions: late moves one ply shallower, re-searched when they beat alpha"
    )
    quiescence: bool = _switch(
        "at the horizon, play the game's noisy moves until quiet (stand pat on evaluate)"
    )
    extensions: bool = _switch("search the moves the game calls forcing one ply deeper")
    table: bool = attrs.field(
        default=False,
        metadata={
            "help": "use a transposition table of bounds and best moves (kept across searches "
            "given a memory)"
        },
    )
    table_entries: int = table_entries_field(1 << 20)

    @property
    def deepens(self) -> bool:
        """Return whether the search deepens one ply at a time (``iterative`` or ``aspiration``)."""
        return self.iterative or self.aspiration > 0

    def tricks_for(self, game: Game[Any]) -> dict[str, bool]:
        """Return which tricks take effect on ``game`` (each needs what the game offers,
        and the null move a depth limit)."""
        return {
            "iterative": self.deepens,
            "aspiration": self.aspiration > 0,
            "killers": self.killers,
            "history": self.history,
            "null_move": self.null_move > 0 and self.depth is not None and allows_null_move(game),
            "lmr": self.lmr,
            "quiescence": self.quiescence and offers(game, "noisy_moves"),
            "extensions": self.extensions and offers(game, "is_forcing"),
        }

    def switches_for(self, game: Game[Any], has_table: bool) -> dict[str, bool]:
        """Return the switches the engine's loops are compiled for on ``game`` (with a table
        or not): each trick that takes effect, what the game offers the tricks and what the
        search remembers."""
        tricks = self.tricks_for(game)
        forcing = offers(game, "is_forcing")
        return {
            "keeps_lines": tricks["iterative"],
            "use_killers": tricks["killers"],
            "use_history": tricks["history"],
            "nulls": tricks["null_move"],
            "reduces": tricks["lmr"],
            "quiesces": tricks["quiescence"],
            "extends": tricks["extensions"],
            "asks_forcing": forcing
            and (tricks["extensions"] or tricks["lmr"] or tricks["null_move"]),
            # quiescence asks only of the moves that reach the horizon
            "asks_forcing_last": forcing and tricks["quiescence"],
            "has_noisy": offers(game, "noisy_moves"),
            # else only the last best move at the root
            "follows_line": self.follow == "line",
            "arranges": tricks["iterative"] or tricks["killers"] or tricks["history"] or has_table,
        }

    def plain(self, game: Game[Any]) -> bool:
        """Return whether the search of ``game`` is plain alpha-beta: no trick on but
        deepening, and nothing remembered but the last best move at the root."""
        tricks = self.tricks_for(game)
        if tricks.pop("iterative") and self.follow != "root":
            return False
        return not any(tricks.values()) and (self.follow == "root" or not self.table)

    def on_alphabeta(self, game: Game[Any]) -> bool:
        """Return whether alpha-beta's loops search ``game``: plain (see :meth:`plain`), or
        with no trick on but killers, history, late move reductions, extensions and
        deepening that remembers only the last best move at the root, and no table."""
        if self.plain(game):
            return True
        tricks = self.tricks_for(game)
        orders = [tricks.pop(trick) for trick in ("killers", "history", "lmr", "extensions")]
        deepens = tricks.pop("iterative")
        return (
            any(orders)
            and not any(tricks.values())
            and not self.table
            and (not deepens or self.follow == "root")
        )

    def _table_kind(self) -> TableKind[EngineEntry]:
        # The tricks change what a depth-limited entry means: each configuration has
        # its own table (ordering tricks too, since late move reductions follow the order).
        return engine_kind(
            f"{self.deepens},{self.aspiration},{self.killers},{self.history},"
            f"{self.null_move},{self.lmr},{self.quiescence},{self.extensions},{self.scoring.value}"
            f",{self.follow}"
        )

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        # One driver: each depth searched by alpha-beta's loops (plain) or the engine's core.
        budget = context.budget
        searching = self._plain_depths if self.on_alphabeta(game) else self._core_depths
        with searching(game, context) as (search_depth, node_count):
            if not self.deepens:
                return search_depth(self.depth, budget if budget.is_limited else None, None)

            def completed(depth: int, answer: RootAnswer) -> None:
                context.completed_depth(
                    depth,
                    answer.value,
                    answer.best_moves,
                    nodes=node_count(),
                    is_exact=answer.is_exact,
                )

            return deepen(search_depth, budget, node_count, self.depth, completed)[0]

    @contextlib.contextmanager
    def _plain_depths(
        self, game: Game[Any], context: SearchContext
    ) -> Iterator[tuple[SearchDepth, Callable[[], int]]]:
        """Yield the search of one depth by alpha-beta's loops (see :meth:`on_alphabeta`):
        :func:`~gamesearch.search.alphabeta.search_root` with the game's move order, every
        best root move, the last depth's best move first and the ordering tricks' moves
        kept across the depths; and the positions entered."""
        counters = context.counters
        table = context.memory.table(BOUNDS, game, self.table_entries) if self.table else None
        tricks = self.tricks_for(game)
        # one a ply below the root, down to the deepest position expanded (with extensions)
        reach = game.rules.max_plies - game.ply
        if self.depth is not None:
            reach = min(reach, self.depth + max(1, self.depth // EXTENSION_SHARE))
        slots = reach + 1
        killers: list[list[Hashable]] | None = None
        if tricks["killers"]:
            killers = [[None, None] for _ in range(slots)]
        history: dict[Hashable, int] | None = {} if tricks["history"] else None

        def search_depth(
            depth: int | None, rest: Budget | None, last: RootAnswer | None
        ) -> RootAnswer:
            return search_root(
                game,
                depth=depth,
                scoring=self.scoring,
                ordering="game",
                fresh_window=context.move_values,
                all_best=True,
                table=table,
                counters=counters,
                tracer=context.tracer,
                move_values=context.move_values,
                budget=rest,
                first_moves=last.best_moves[:1] if last is not None else (),
                killers=killers,
                history=history,
                reduces=tricks["lmr"],
                extends=tricks["extensions"],
            )

        yield search_depth, lambda: counters.nodes

    @contextlib.contextmanager
    def _core_depths(
        self, game: Game[Any], context: SearchContext
    ) -> Iterator[tuple[SearchDepth, Callable[[], int]]]:
        """Yield the search of one depth by the engine's core, which counts every depth's
        positions against the whole budget, and the positions entered; the core's counts
        go to the context's counters at the end."""
        table = (
            context.memory.table(self._table_kind(), game, self.table_entries)
            if self.table
            else None
        )
        core = EngineCore(self, game, context.tracer, table)
        move_values = context.move_values
        sign = 1 if game.to_move() == Player.FIRST else -1  # (the core's values are the mover's)
        previous: DepthAnswer | None = None

        def search_depth(
            depth: int | None, rest: Budget | None, last: RootAnswer | None
        ) -> RootAnswer:
            nonlocal previous
            if rest is not None:
                core.set_budget(context.budget)
            found = core.search_depth(depth, move_values, previous if last is not None else None)
            previous = found
            return RootAnswer(
                value=sign * found.value,
                best_moves=tuple(found.best_moves),
                move_values=tuple((move, sign * value) for move, value in found.values)
                if move_values
                else None,
                is_exact=found.is_exact,
                depth=max(context.counters.depth, core.reached()),
                move_values_exact=move_values,  # (else the moves not best got bounds)
                # the line is read to the horizon of the depth that answered: a budget that
                # stopped the deepening must not leave the line's searches unlimited
                depth_limit=depth,
            )

        try:
            yield search_depth, core.node_count
        finally:
            core.flush(context.counters)
            core.close()

    def _follow_up(self, game: Game[Any], depth: int | None, memory: SearchMemory) -> Hashable:
        """Return the first best move of ``game`` searched ``depth`` plies deep (for the
        principal variation, read after the search: no budget)."""
        # (plain alpha-beta searches the line's positions at their depth at once, its
        # table holding the last search's bounds: no deepening again)
        iterative = self.iterative and not self.plain(game)
        searcher = attrs.evolve(
            self, depth=depth, max_nodes=None, seconds=None, iterative=iterative
        )
        return searcher.root(game, searcher._context(game, Counters(), memory=memory)).best_moves[0]
