"""Searchers for games of chance: expectiminimax and Ballard's *-minimax pruning.

Twins: :mod:`gamesearch.search.reference.expectiminimax` (the same values, best moves
and node counts), :mod:`~gamesearch.search.reference.star1` and
:mod:`~gamesearch.search.reference.star2` (the same values and best moves;
``chance-iterative`` is Star2's at its deepest completed depth). Differences: whole
numbers in one small unit instead of fractions (below); one walker per kind of
search, a child scored in its parent's loop; the root moves after the first searched
with a window one unit short of the best; a table option; the node and clock budget
counted in the walk.

At a chance position (``to_move()`` is :data:`~gamesearch.game.CHANCE`) the value is
the probability-weighted mean of the outcomes' values; elsewhere the first player
maximises and the second minimises (Michie, 1966; *AIMA* section 5.5). Values are
expected final results from the first player's point of view, exact fractions; a
position at the horizon is worth the game's heuristic mapped strictly inside the
result range (:func:`~gamesearch.game.chance_heuristic`). ``depth`` counts the
players' moves only: an outcome of chance costs no depth (as in OpenSpiel's
``expectiminimax``), and a chance position reached at the horizon is evaluated.

- ``expectiminimax`` visits every position.
- ``star1`` and ``star2`` (Ballard, 1983, "The *-minimax search procedure for trees
  containing chance nodes") give the same values with fewer positions. Both need
  bounded values, which the result range gives: at a chance position, once the
  outcomes searched so far and the bounds of the others decide that the value lies
  outside the window, the other outcomes are skipped (Star1). Star2 first *probes*
  each outcome by searching one move of the player who moves next; the probes'
  bounds often cut the chance position off before any outcome is searched in full.
  Pruning is fail-soft: a value outside the window is a bound.
- ``chance-iterative`` deepens Star2 one depth at a time under a node or time
  budget and answers with the last completed depth.
- ``table=true`` keeps, for the length of one search, each position's value (or
  bound) at each remaining depth: a position reached again by another order of moves
  or outcomes is answered at once (a table hit).

The searchers refuse games without chance (their values would be expected results
where every other searcher's are the framework's value scale: minimax and alpha-beta
search those) and games with more than two players. At a chance position itself no
one chooses: every outcome is a "best move" and ``move_values`` hold each outcome's
value.

Exact arithmetic in whole numbers (the hot loops, :func:`_plain_walker` here and
:func:`~gamesearch.search.star_pruning.pruning_walker`): every value is kept as a
multiple of one small unit, ``1 / (2 * evaluation_bound * q ** c)``, where ``q`` is a
common denominator of the probabilities met along the first line from the root and ``c``
the number of chance positions that line meets within the depth, so a chance position's
mean is a sum of whole numbers divided exactly by ``q``, and a window bound is rounded
to the whole number on the safe side. A mean that does not come out whole (a chance
position whose probabilities ``q`` does not fit, or a line that meets more chance
positions than the first) is kept as an exact fraction of the unit instead, and so is
every value worked out from one: each position is still searched once, in order, and
only those values cost more.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any, ClassVar

import attrs

from gamesearch import capabilities
from gamesearch.errors import BudgetExceededError
from gamesearch.game import Game
from gamesearch.rules import CHANCE, Player
from gamesearch.search.base import (
    INFINITY,
    Budget,
    Counters,
    RootAnswer,
    SearchContext,
    Searcher,
    depth_field,
    node_budget_field,
    seconds_field,
)

# The walk of one search, its units and the Star1/Star2 walker have modules of their
# own; their names stay importable from here.
from gamesearch.search.chance_walk import EXACT as EXACT
from gamesearch.search.chance_walk import LOWER as LOWER
from gamesearch.search.chance_walk import PLAIN as PLAIN
from gamesearch.search.chance_walk import STAR1 as STAR1
from gamesearch.search.chance_walk import STAR2 as STAR2
from gamesearch.search.chance_walk import UPPER as UPPER
from gamesearch.search.chance_walk import ChanceWalk, divide
from gamesearch.search.chance_walk import Child as Child
from gamesearch.search.chance_walk import Num as Num
from gamesearch.search.chance_walk import Outcomes as Outcomes
from gamesearch.search.chance_walk import Probe as Probe
from gamesearch.search.deepening import deepen
from gamesearch.search.star_pruning import pruning_walker

#: plain expectiminimax's ``expand(depth, ply, mover, again, root_move)``, handed itself
Expand = Callable[[float, int, int, "Expand", Hashable | None], Num]


def _plain_walker(walk: ChanceWalk) -> tuple[Child, Callable[[], None]]:
    """Return plain expectiminimax's ``child`` for ``walk`` (the window is ignored: every
    position is searched in full) and the function that writes the counters back to it.

    Hot loop: bound methods, settings and counters in closure cells; the nodes are
    counted per expanded position (every child of one is entered) and the leaves worked
    out from them; a finished child or one at the horizon is scored in its parent's
    loop, without a call. The values of a position's children go into one list, whose
    maximum, minimum or weighted sum is its value. ``expand`` is handed itself
    (``again``) rather than naming itself: no closure cell refers back to it, so a
    search is freed as it returns, without the collector.
    """
    advance, retract, to_move, moves_of, key = (
        walk.advance,
        walk.retract,
        walk.to_move,
        walk.moves,
        walk.key,
    )
    outcomes, tracer, table, exact = walk.outcomes, walk.tracer, walk.table, walk.exact
    scale, unit, offset, slope, estimate = (
        walk.scale,
        walk.unit,
        walk.offset,
        walk.slope,
        walk.estimate,
    )
    first, multiply, infinity = Player.FIRST, operator.mul, walk.infinity
    nodes, look_at, deepest = walk.nodes, walk.look_at, walk.deepest
    expanded = hits = 0
    horizon_reached = False

    def flush() -> None:
        # every position entered is the root, expanded, answered by the table or a leaf
        walk.nodes, walk.leaves, walk.tt_hits = nodes, nodes - 1 - expanded - hits, hits
        walk.deepest, walk.horizon_reached = deepest, horizon_reached

    def look(count: int) -> None:
        """Look at the budgets before entering ``count`` more positions."""
        nonlocal nodes, look_at
        walk.nodes = nodes
        try:
            walk.look_at_budget()
        except BudgetExceededError:
            nodes -= count  # the children are never entered
            raise
        look_at = walk.look_at

    def value_of(depth: float, ply: int, again: Expand) -> Num:
        """Return the value of the unfinished position just entered at ``ply`` (``depth``
        >= 1 players' moves left), from the table when it knows (``again``: ``expand``)."""
        nonlocal hits
        assert table is not None
        known = table.get((key(), depth))
        if known is not None:
            hits += 1
            return known[0]
        value = again(depth, ply, to_move(), again, None)
        table[(key(), depth)] = (value, EXACT)
        return value

    def expand(
        depth: float, ply: int, mover: int, again: Expand, root_move: Hashable | None
    ) -> Num:
        """Return the value of the unfinished position at ``ply`` (``depth`` >= 1
        players' moves left), ``mover`` to move; with ``root_move``, the value of the
        position that move of the root reaches, ``depth`` left there (the root's own
        loop is :func:`_search_root`). ``again`` is ``expand`` itself."""
        nonlocal nodes, expanded, deepest, horizon_reached
        moves: Sequence[Hashable]
        weights: Sequence[Num] = ()
        values: list[Num]  # (a chance position's)
        if mover == CHANCE:
            moves, weights, _ = outcomes()
            child_depth, values = depth, []
        elif root_move is None:
            moves, child_depth = moves_of(), depth - 1
        else:
            moves, child_depth = (root_move,), depth
            expanded -= 1  # (the root is counted apart)
        nodes += len(moves)
        if nodes > look_at:
            look(len(moves))
        expanded += 1
        child_ply = ply + 1
        if child_ply > deepest:
            deepest = child_ply
        maximizing = mover == first
        best: Num = -infinity if maximizing else infinity
        for move in moves:
            final = advance(move)  # push(move) and result() in one call
            try:  # (free in CPython 3.11+ until something raises)
                if tracer is not None:
                    tracer.enter(move, child_ply, -INFINITY, INFINITY)
                if final is not None:
                    value: Num = final * scale
                elif child_depth == 0:
                    horizon_reached = True
                    value = offset + slope * estimate()
                elif table is None:
                    value = again(child_depth, child_ply, to_move(), again, None)
                else:
                    value = value_of(child_depth, child_ply, again)
                if tracer is not None:
                    tracer.leave(exact(value))
            except BaseException:
                retract(move)
                raise
            retract(move)
            if weights:
                values.append(value)
            elif maximizing:
                if value > best:
                    best = value
            elif value < best:
                best = value
        if weights:
            return divide(sum(map(multiply, weights, values)), unit)
        return best

    def child(
        move: Hashable,
        depth: float,
        ply: int,
        alpha: Num = 0,
        beta: Num = 0,
        probe: Probe | None = None,
    ) -> Num:
        return expand(depth, ply - 1, first, expand, move)

    return child, flush


@attrs.frozen(kw_only=True)
class Expectiminimax(Searcher):
    """Expectiminimax for games of chance (expected results, no pruning)."""

    name: ClassVar[str] = "expectiminimax"
    needs_no_chance: ClassVar[bool] = False
    expected_values: ClassVar[bool] = True
    mode: ClassVar[str] = PLAIN
    depth: int | None = depth_field(
        "players' moves to search before evaluate() (chance is free; default: to the end)"
    )
    table: bool = attrs.field(
        default=False,
        metadata={
            "help": "keep each position's value at each depth left while searching (transpositions "
            "answer at once)"
        },
    )

    def unmet_needs(self, game: Game[Any]) -> list[str]:
        """Return what the game lacks: two players, and chance (see the module's docstring)."""
        unmet = super().unmet_needs(game)
        if not game.rules.chance:
            unmet.append("it searches games of chance only (minimax and alphabeta search this one)")
        return unmet

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        """Search the unfinished position ``game``; every root move gets its exact value."""
        return search_chance_root(game, self.mode, self.depth, context, table=self.table)


def search_chance_root(
    game: Game[Any],
    mode: str,
    depth: int | None,
    context: SearchContext,
    *,
    table: bool = False,
) -> RootAnswer:
    """Return the root answer of a ``mode`` search of the unfinished ``game``.

    Each root move's value is exact (a root move that might tie the best is searched
    with a window that stops just short of it), so the best moves are exactly
    expectiminimax's. ``table`` keeps values by position and remaining depth during
    the search.

    :raises BudgetExceededError: when ``context``'s budget is spent.
    """
    first_line = _first_line(game, math.inf if depth is None else depth)
    walk = ChanceWalk(game, mode, context.tracer, context.budget, first_line, {} if table else None)
    # (the walk holds nothing of its walker's: no cycle, freed as the search returns)
    child, flush = (_plain_walker if mode == PLAIN else pruning_walker)(walk)
    if context.tracer is not None:
        context.tracer.enter(None, game.ply, *map(walk.exact, walk.full))
    try:
        return _search_root(game, walk, child, flush, depth, context)
    finally:  # a search stopped by its budget counts what it entered
        flush()
        _count(context.counters, walk)


def _count(counters: Counters, walk: ChanceWalk) -> None:
    counters.nodes += walk.nodes
    counters.leaves += walk.leaves
    counters.cutoffs += walk.cutoffs
    counters.tt_hits += walk.tt_hits


def _first_line(game: Game[Any], depth: float) -> tuple[int, int]:
    """Return a common denominator of the probabilities met along the first moves from
    ``game`` to the end, and how many chance positions that line meets with players'
    moves left of ``depth`` (1 and 0 without chance): the search's first guesses.

    The line is played on a copy: the search itself generates each position once.
    """
    if not game.rules.chance:
        return 1, 0
    line, unit, chances = game.copy(), 1, 0
    while line.result() is None:
        if line.to_move() == CHANCE:
            for _, probability in capabilities.chance_outcomes(line):
                unit = math.lcm(unit, probability.denominator)
            if depth > 0:
                chances += 1
        else:
            depth -= 1
        line.push(line.legal_moves()[0])
    return unit, chances


def _search_root(
    game: Game[Any],
    walk: ChanceWalk,
    child_value: Child,
    flush: Callable[[], None],
    depth: int | None,
    context: SearchContext,
) -> RootAnswer:
    """Return the root answer of ``walk``'s search, each root move's value from
    ``child_value`` (the walker's ``child``; ``flush`` writes its counters to ``walk``)."""
    tracer = context.tracer
    low, high = walk.full
    remaining = math.inf if depth is None else depth
    mover = game.to_move()
    values: list[tuple[Hashable, Num]] = []
    ply = game.ply + 1
    if mover == CHANCE:
        moves, weights, _ = walk.outcomes()
        for move in moves:
            values.append((move, child_value(move, remaining, ply, low, high)))
        value = divide(
            sum(weight * child for weight, (_, child) in zip(weights, values, strict=True)),
            walk.unit,
        )
        best_moves = moves
    else:
        sign = 1 if mover == Player.FIRST else -1
        best: Num | None = None
        for move in capabilities.move_order(game)():
            if best is None or context.move_values or walk.mode == PLAIN:
                child = child_value(move, remaining - 1, ply, low, high)
            else:
                # Is the move as good as the best so far? A window that stops one unit
                # short of the best value answers exactly for every move that ties or
                # beats it, and proves the others worse, with one search each.
                short = best - sign
                child = child_value(
                    move, remaining - 1, ply, *((short, high) if sign > 0 else (low, short))
                )
                if sign * child <= sign * short:
                    values.append((move, child))  # a bound: the move is worse
                    continue
            values.append((move, child))
            if best is None or sign * child > sign * best:
                best = child
        assert best is not None
        value = best
        exact_best = {move for move, child in values if child == best}
        order = {move: index for index, move in enumerate(game.legal_moves())}
        values.sort(key=lambda entry: order[entry[0]])  # root moves in legal-move order
        best_moves = tuple(move for move, _ in values if move in exact_best)
    if tracer is not None:
        tracer.leave(walk.exact(value))
    flush()
    context.horizon_reached = walk.horizon_reached
    return RootAnswer(
        value=Fraction(value, walk.scale),
        best_moves=best_moves,
        move_values=tuple((move, Fraction(child, walk.scale)) for move, child in values)
        if context.move_values
        else None,
        is_exact=not walk.horizon_reached,
        depth=walk.deepest - game.ply,
        depth_limit=depth,
    )


@attrs.frozen(kw_only=True)
class Star1(Expectiminimax):
    """Ballard's Star1 *-minimax: expectiminimax's values, pruning at chance positions."""

    name: ClassVar[str] = "star1"
    mode: ClassVar[str] = STAR1


@attrs.frozen(kw_only=True)
class Star2(Expectiminimax):
    """Ballard's Star2 *-minimax: Star1 plus probing each outcome before searching it."""

    name: ClassVar[str] = "star2"
    mode: ClassVar[str] = STAR2


@attrs.frozen(kw_only=True)
class ChanceIterative(Expectiminimax):
    """Iterative-deepening Star2 for games of chance under a node or time budget; always answers."""

    name: ClassVar[str] = "chance-iterative"
    mode: ClassVar[str] = STAR2
    answers_within_budget: ClassVar[bool] = True
    depth: int | None = depth_field(
        "deepest iteration, in players' moves (default: until exact or out of budget)"
    )
    max_nodes: int | None = node_budget_field(
        "node budget for the whole search (answers with the last completed depth)"
    )
    seconds: float | None = seconds_field(
        "time budget in seconds (answers with the last completed depth)"
    )

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        """Search depth 1, 2, ... until exact, the depth option or the budget; return the
        deepest completed iteration (depth 1 always completes)."""

        def search_depth(depth: int, rest: Budget | None, last: RootAnswer | None) -> RootAnswer:
            counters = Counters()
            attempt = SearchContext(
                context.scoring,
                counters,
                context.move_values,
                context.tracer,
                depth,
                context.root_ply,
                budget=Budget() if rest is None else rest,
            )
            try:
                return search_chance_root(game, self.mode, depth, attempt, table=self.table)
            finally:  # (a depth stopped by its budget counts what it entered)
                context.counters.nodes += counters.nodes
                context.counters.leaves += counters.leaves
                context.counters.cutoffs += counters.cutoffs
                context.counters.tt_hits += counters.tt_hits

        def completed(depth: int, found: RootAnswer) -> None:
            context.completed_depth(
                depth,
                found.value,
                found.best_moves,
                nodes=context.counters.nodes,
                is_exact=found.is_exact,
            )

        answer, _ = deepen(
            search_depth, context.budget, lambda: context.counters.nodes, self.depth, completed
        )
        context.horizon_reached = not answer.is_exact
        return answer


#: the searchers of this module, registered by :mod:`gamesearch.search.builtin`
CHANCE_SEARCHERS = (Expectiminimax, Star1, Star2, ChanceIterative)
