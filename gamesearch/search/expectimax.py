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

Exact arithmetic in whole numbers (the hot loops, :func:`_plain_walker` and
:func:`_pruning_walker`): every value is kept as a multiple of one small unit,
``1 / (2 * evaluation_bound * q ** c)``, where ``q`` is a common denominator of the
probabilities met along the first line from the root and ``c`` the number of chance
positions that line meets within the depth, so a chance position's mean is a sum of
whole numbers divided exactly by ``q``, and a window bound is rounded to the whole
number on the safe side. A mean that does not come out whole (a chance position
whose probabilities ``q`` does not fit, or a line that meets more chance positions
than the first) is kept as an exact fraction of the unit instead, and so is every
value worked out from one: each position is still searched once, in order, and only
those values cost more.
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
from gamesearch.rules import CHANCE, Player, chance_heuristic_numerator
from gamesearch.search.base import (
    INFINITY,
    Budget,
    Counters,
    RootAnswer,
    SearchContext,
    Searcher,
    Tracer,
    Value,
    depth_field,
    node_budget_field,
    seconds_field,
)
from gamesearch.search.deepening import deepen

#: how the children of a chance position are searched
PLAIN, STAR1, STAR2 = "expectiminimax", "star1", "star2"
#: what a table entry holds: the exact value, or a lower or an upper bound
EXACT, LOWER, UPPER = 0, 1, 2

#: a value inside the search: a whole multiple of the walk's unit, or (from a chance
#: position whose probabilities the unit does not fit) an exact fraction of it
Num = int | Fraction
#: a Star2 probe of a position's first move: its value and the window it was searched with
Probe = tuple[Num, Num, Num]
#: a chance position's outcome moves, their weights (q times the probabilities) and both paired
Outcomes = tuple[tuple[Hashable, ...], tuple[Num, ...], tuple[tuple[Hashable, Num], ...]]


def _divide(total: Num, unit: int) -> Num:
    """Return ``total / unit``: a whole number when ``total`` is a whole multiple of
    ``unit`` (the common case), else a :class:`~fractions.Fraction`."""
    if total.__class__ is int:
        quotient, remainder = divmod(total, unit)
        if not remainder:
            return quotient
    return Fraction(total) / unit


class _Walk:
    """One search of one position: its settings, its counters and its ``child``.

    ``mode`` is :data:`PLAIN` (no window), :data:`STAR1` or :data:`STAR2`; ``child``
    (from :func:`_plain_walker` or :func:`_pruning_walker`) returns values from the
    first player's point of view, in multiples of ``1 / scale``, fail-soft: a value at
    or below the window's ``alpha`` is an upper bound of the true value, one at or
    above ``beta`` a lower bound, one strictly inside it exact. Values are whole
    numbers, except at a chance position with a probability whose denominator does not
    divide ``unit``, and wherever a value is worked out from one: those are exact
    fractions.
    """

    def __init__(
        self,
        game: Game[Any],
        mode: str,
        tracer: Tracer | None,
        budget: Budget,
        first_line: tuple[int, int],
        table: dict[tuple[Hashable, float], tuple[Num, int]] | None,
    ) -> None:
        rules, bound = game.rules, capabilities.heuristic_bound(game)
        self.game = game
        self.mode = mode
        self.tracer = tracer
        self.table = table
        self.advance, self.retract = capabilities.advancer(game), capabilities.retractor(game)
        self.to_move, self.key = game.to_move, game.key
        # the legal moves in the searchers' order (no indirection when the game has none)
        self.moves = capabilities.move_order(game)
        self.chance_outcomes = capabilities.outcomes_of(game)
        unit, chances = first_line  # q and c (see the module's docstring)
        self.unit = unit  #: q, a common denominator of the probabilities of the first line
        power: int = unit**chances
        self.scale = 2 * bound * power
        low, high = rules.result_range
        self.low, self.high = low * self.scale, high * self.scale
        #: beyond every value: the open ends of a window
        self.infinity = 2 * max(abs(self.low), abs(self.high)) + 1
        # the heuristic's value is affine in the estimate: offset + slope * evaluate()
        offset = chance_heuristic_numerator(rules, 0, bound)
        self.offset, self.slope = (
            offset * power,
            (chance_heuristic_numerator(rules, 1, bound) - offset) * power,
        )
        self.estimate = capabilities.heuristic(game)
        #: the window a position is searched with when nothing is known yet (the tree
        #: drawing shows every value of plain expectiminimax as exact)
        self.full = (-self.infinity, self.infinity) if mode == PLAIN else (self.low, self.high)
        #: each outcome list met (by identity) with its moves, weights and both paired
        self.weights: dict[int, tuple[Sequence[tuple[Hashable, Fraction]], Outcomes]] = {}
        self.budget = budget
        #: the node count past which the budget must be looked at
        self.look_at = budget.first_look
        self.leaves = 0
        self.cutoffs = 0
        self.tt_hits = 0
        self.deepest = game.ply
        self.horizon_reached = False
        self.nodes = 1  # the root
        # the walk itself: ``child`` searches below one move, ``flush`` writes the counters
        # here, ``_close_walker`` breaks the walker's cycles (see :meth:`close`)
        self.child, self.flush, self._close_walker = (
            _plain_walker if mode == PLAIN else _pruning_walker
        )(self)

    def close(self) -> None:
        """Free the walk at once (it cannot search again).

        The walker's functions call each other through their closure cells and hold
        this walk, which holds them: reference cycles. Closing empties the cells and
        drops the walk's hold, so nothing is left to the garbage collector.
        """
        self._close_walker()
        del self.child, self.flush, self._close_walker

    def exact(self, value: Num) -> Value:
        """Return a value as the fraction it stands for (an open window end as the
        framework's ``±INFINITY``)."""
        if value >= self.infinity:
            return INFINITY
        if value <= -self.infinity:
            return -INFINITY
        return Fraction(value, self.scale)

    def outcomes(self) -> Outcomes:
        """Return the chance position's outcome moves, their probabilities times q (whole
        numbers when q is a multiple of their denominators, else fractions) and both paired."""
        given = self.chance_outcomes()
        known = self.weights.get(id(given))
        if known is not None and known[0] is given:
            return known[1]
        unit = self.unit
        weights = tuple(
            int(weight) if weight.denominator == 1 else weight
            for weight in (probability * unit for _, probability in given)
        )
        moves = tuple(move for move, _ in given)
        found = (moves, weights, tuple(zip(moves, weights, strict=True)))
        self.weights[id(given)] = (given, found)  # (kept alive: the id stays its own)
        return found

    def look_at_budget(self) -> None:
        """Check the budget with the nodes entered so far; set when to look again.

        :raises BudgetExceededError: when the node budget or the time is spent.
        """
        self.look_at = self.budget.check(self.nodes)


#: a walker's ``child(move, depth, ply, alpha, beta, probe=None)``: play ``move``, return
#: the value of the position it reaches (``depth`` players' moves left, at ``ply``),
#: searched with the window ``(alpha, beta)``, take the move back
Child = Callable[..., Num]


def _pruning_walker(walk: _Walk) -> tuple[Child, Callable[[], None], Callable[[], None]]:
    """Return Star1's or Star2's ``child`` for ``walk``, the function that writes the
    counters back to it and the one that breaks the cycles through ``child`` (the walk
    is done).

    Hot loop: bound methods, settings and counters in closure cells (no attribute
    lookups per position), the table consulted only when there is one.
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
    low, high, infinity, star2_mode, first = (
        walk.low,
        walk.high,
        walk.infinity,
        walk.mode == STAR2,
        Player.FIRST,
    )
    nodes, look_at, deepest = walk.nodes, walk.look_at, walk.deepest
    leaves = cutoffs = hits = 0
    horizon_reached = False

    def flush() -> None:
        walk.nodes, walk.leaves, walk.cutoffs, walk.tt_hits = nodes, leaves, cutoffs, hits
        walk.deepest, walk.horizon_reached = deepest, horizon_reached

    def look() -> None:
        """Look at the budget before entering one more position."""
        nonlocal nodes, look_at
        walk.nodes = nodes
        try:
            walk.look_at_budget()
        except BudgetExceededError:
            nodes -= 1  # the position is never entered
            raise
        look_at = walk.look_at

    def child(
        move: Hashable, depth: float, ply: int, alpha: Num, beta: Num, probe: Probe | None = None
    ) -> Num:
        nonlocal nodes, leaves, deepest, horizon_reached
        nodes += 1
        if nodes > look_at:
            look()
        final = advance(move)  # push(move) and result() in one call
        try:  # (free in CPython 3.11+ until something raises)
            if tracer is not None:
                tracer.enter(move, ply, exact(alpha), exact(beta))
            if ply > deepest:
                deepest = ply
            if final is not None:
                leaves += 1
                value: Num = final * scale
            elif depth == 0:
                leaves += 1
                horizon_reached = True
                value = offset + slope * estimate()
            elif table is not None and (known := answered(depth, alpha, beta)) is not None:
                value = known
            else:
                mover = to_move()
                if mover != CHANCE:
                    value = decide(depth, ply, mover == first, alpha, beta, probe)
                elif star2_mode:
                    value = star2(depth, ply, alpha, beta)
                else:
                    value = star1(depth, ply, alpha, beta)
                if table is not None:
                    table[(key(), depth)] = (
                        value,
                        EXACT if alpha < value < beta else LOWER if value >= beta else UPPER,
                    )
            if tracer is not None:
                tracer.leave(exact(value))
            return value
        finally:
            retract(move)

    def answered(depth: float, alpha: Num, beta: Num) -> Num | None:
        """Return what the table knows of the position just entered with ``depth`` left
        when it answers for the window ``(alpha, beta)``, else ``None``."""
        nonlocal hits
        assert table is not None
        entry = table.get((key(), depth))
        if entry is None:
            return None
        known, kind = entry
        if kind == EXACT or (kind == LOWER and known >= beta) or (kind == UPPER and known <= alpha):
            hits += 1
            return known
        return None

    def cut(moves: Sequence[Hashable]) -> None:
        """Count a cut-off of ``moves`` (none: nothing was cut) and tell the tracer."""
        nonlocal cutoffs
        if moves:
            cutoffs += 1
            if tracer is not None:
                tracer.prune(moves)

    def decide(
        depth: float, ply: int, maximizing: bool, alpha: Num, beta: Num, probe: Probe | None
    ) -> Num:
        """Return the value of a position where a player chooses (fail-soft alpha-beta)."""
        moves = moves_of()
        child_depth, child_ply = depth - 1, ply + 1
        reused = None if probe is None else _reuse(probe, alpha, beta)  # for the first move
        best: Num
        if maximizing:
            best = -infinity
            for index, move in enumerate(moves):
                if index == 0 and reused is not None:
                    value = reused
                else:
                    value = child(
                        move, child_depth, child_ply, best if best > alpha else alpha, beta
                    )
                if value > best:
                    best = value
                    if best >= beta:
                        cut(moves[index + 1 :])
                        break
        else:
            best = infinity
            for index, move in enumerate(moves):
                if index == 0 and reused is not None:
                    value = reused
                else:
                    value = child(
                        move, child_depth, child_ply, alpha, best if best < beta else beta
                    )
                if value < best:
                    best = value
                    if best <= alpha:
                        cut(moves[index + 1 :])
                        break
        return best

    def star1(depth: float, ply: int, alpha: Num, beta: Num) -> Num:
        """Return the value of a chance position, skipping the outcomes that cannot
        bring it back inside ``(alpha, beta)`` (Star1)."""
        moves, weights, _ = outcomes()
        count = len(moves)
        return search_outcomes(
            moves, weights, depth, ply, alpha, beta, [low] * count, [high] * count, [None] * count
        )

    def star2(depth: float, ply: int, alpha: Num, beta: Num) -> Num:
        """Return the value of a chance position: probe every outcome with one move of
        the player who moves next, cut off when the probes' bounds decide, else search
        the outcomes as :func:`star1` does within the bounds found (Star2).

        The sums here are the outcomes' values times their weights (q times the
        probability), compared with the window times q: one division per answer.
        """
        nonlocal nodes, cutoffs
        moves, weights, pairs = outcomes()
        count = len(moves)
        lower: list[Num] = [low] * count
        upper: list[Num] = [high] * count
        probes: list[Probe | None] = [None] * count
        if alpha <= low and beta >= high:  # no probe can cut a full window off
            return search_outcomes(moves, weights, depth, ply, alpha, beta, lower, upper, probes)
        alpha_q, beta_q = alpha * unit, beta * unit
        floor: Num = low * unit  # the sums of weight * bound (the weights sum to q)
        ceiling: Num = high * unit
        outcome_ply = ply + 1
        for index, (move, weight) in enumerate(pairs):
            final = advance(move)
            try:
                if final is not None:  # a finished game needs no probe: its value is known
                    value: Num = final * scale
                    floor += weight * (value - lower[index])
                    ceiling += weight * (value - upper[index])
                    lower[index] = upper[index] = value
                else:
                    mover = to_move()
                    if mover == CHANCE:
                        continue  # nothing to probe: chance again
                    replies = moves_of()
                    others_lower = floor - weight * lower[index]
                    others_upper = ceiling - weight * upper[index]
                    # the probe's window: where its value could still decide (rounded outwards)
                    window_low = max((alpha_q - others_upper) // weight, lower[index])
                    window_high = min(-((others_lower - beta_q) // weight), upper[index])
                    if tracer is not None:
                        tracer.enter(move, outcome_ply, exact(window_low), exact(window_high))
                    nodes += 1  # the outcome's position is entered for the probe
                    value = child(replies[0], depth - 1, outcome_ply + 1, window_low, window_high)
                    if tracer is not None:
                        tracer.leave(exact(value))
                    probes[index] = (value, window_low, window_high)
                    if (
                        len(replies) == 1 and window_low < value < window_high
                    ):  # the only move: exact
                        floor += weight * (value - lower[index])
                        ceiling += weight * (value - upper[index])
                        lower[index] = upper[index] = value
                    elif mover == first and value > window_low and value > lower[index]:
                        floor += weight * (value - lower[index])  # one move's value: a floor
                        lower[index] = value
                    elif mover != first and value < window_high and value < upper[index]:
                        ceiling += weight * (value - upper[index])  # a ceiling
                        upper[index] = value
            finally:
                retract(move)
            if floor >= beta_q:
                cutoffs += 1
                return _divide(floor, unit)
            if ceiling <= alpha_q:
                cutoffs += 1
                return _divide(ceiling, unit)
        return search_outcomes(moves, weights, depth, ply, alpha, beta, lower, upper, probes)

    def search_outcomes(
        moves: Sequence[Hashable],
        weights: Sequence[Num],
        depth: float,
        ply: int,
        alpha: Num,
        beta: Num,
        lower: list[Num],
        upper: list[Num],
        probes: Sequence[Probe | None],
    ) -> Num:
        """Search the outcomes in order, each with the window that would still let the
        chance position's value land inside ``(alpha, beta)``, given the exact values of
        the outcomes before it and the bounds ``lower``/``upper`` of those after it;
        return the value (a bound once the rest cannot change the verdict).

        As in :func:`star2`, the sums are weighted by q times the probabilities.
        """
        child_ply = ply + 1
        alpha_q, beta_q = alpha * unit, beta * unit
        known: Num = 0
        later_lower: Num = sum(map(operator.mul, weights, lower))
        later_upper: Num = sum(map(operator.mul, weights, upper))
        for index, move in enumerate(moves):
            weight, least, most = weights[index], lower[index], upper[index]
            low_share, high_share = weight * least, weight * most
            later_lower -= low_share
            later_upper -= high_share
            if known + low_share + later_lower >= beta_q:
                cut(moves[index:])
                return _divide(known + low_share + later_lower, unit)
            if known + high_share + later_upper <= alpha_q:
                cut(moves[index:])
                return _divide(known + high_share + later_upper, unit)
            if least == most:  # known exactly (a finished game, a forced move)
                known += low_share
                continue
            # the child values at or below fail_low (at or above fail_high) decide the
            # verdict: as whole numbers, rounded down (up)
            fail_low = (alpha_q - known - later_upper) // weight
            fail_high = -((known + later_lower - beta_q) // weight)
            value = child(
                move,
                depth,
                child_ply,
                fail_low if fail_low > least else least,
                fail_high if fail_high < most else most,
                probes[index],
            )
            share = weight * value
            if value <= fail_low:
                cut(moves[index + 1 :])
                return _divide(known + share + later_upper, unit)
            if value >= fail_high:
                cut(moves[index + 1 :])
                return _divide(known + share + later_lower, unit)
            known += share
        return _divide(known, unit)

    def close() -> None:
        nonlocal child
        del child  # every function here that recurses does so through ``child``

    return child, flush, close


def _plain_walker(walk: _Walk) -> tuple[Child, Callable[[], None], Callable[[], None]]:
    """Return plain expectiminimax's ``child`` for ``walk`` (the window is ignored: every
    position is searched in full), the function that writes the counters back to it and
    the one that breaks the cycles through ``expand`` (the walk is done).

    Hot loop: bound methods, settings and counters in closure cells; the nodes are
    counted per expanded position (every child of one is entered) and the leaves worked
    out from them; a finished child or one at the horizon is scored in its parent's
    loop, without a call. The values of a position's children go into one list, whose
    maximum, minimum or weighted sum is its value.
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

    def value_of(depth: float, ply: int) -> Num:
        """Return the value of the unfinished position just entered at ``ply`` (``depth``
        >= 1 players' moves left), from the table when there is one and it knows."""
        nonlocal hits
        if table is None:
            return expand(depth, ply, to_move())
        known = table.get((key(), depth))
        if known is not None:
            hits += 1
            return known[0]
        value = expand(depth, ply, to_move())
        table[(key(), depth)] = (value, EXACT)
        return value

    def expand(depth: float, ply: int, mover: int, root_move: Hashable | None = None) -> Num:
        """Return the value of the unfinished position at ``ply`` (``depth`` >= 1
        players' moves left), ``mover`` to move; with ``root_move``, the value of the
        position that move of the root reaches, ``depth`` left there (the root's own
        loop is :func:`_search_root`)."""
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
                    value = expand(child_depth, child_ply, to_move())
                else:
                    value = value_of(child_depth, child_ply)
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
            return _divide(sum(map(multiply, weights, values)), unit)
        return best

    def child(
        move: Hashable,
        depth: float,
        ply: int,
        alpha: Num = 0,
        beta: Num = 0,
        probe: Probe | None = None,
    ) -> Num:
        return expand(depth, ply - 1, first, move)

    def close() -> None:
        nonlocal expand
        del expand  # every function here that recurses does so through ``expand``

    return child, flush, close


def _reuse(probe: Probe, alpha: Num, beta: Num) -> Num | None:
    """Return a probe's value of a first move when it still answers for the window
    ``(alpha, beta)``, else ``None`` (the move is searched again)."""
    value, low, high = probe
    if low < value < high:
        return value  # exact
    if value >= high and value >= beta:
        return value  # a floor that still fails high
    if value <= low and value <= alpha:
        return value  # a ceiling that still fails low
    return None


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
    walk = _Walk(game, mode, context.tracer, context.budget, first_line, {} if table else None)
    if context.tracer is not None:
        context.tracer.enter(None, game.ply, *map(walk.exact, walk.full))
    try:
        return _search_root(game, walk, depth, context)
    finally:  # a search stopped by its budget counts what it entered
        walk.flush()
        _count(context.counters, walk)
        walk.close()


def _count(counters: Counters, walk: _Walk) -> None:
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
    game: Game[Any], walk: _Walk, depth: int | None, context: SearchContext
) -> RootAnswer:
    tracer = context.tracer
    low, high = walk.full
    remaining = math.inf if depth is None else depth
    mover = game.to_move()
    values: list[tuple[Hashable, Num]] = []
    ply = game.ply + 1
    if mover == CHANCE:
        moves, weights, _ = walk.outcomes()
        for move in moves:
            values.append((move, walk.child(move, remaining, ply, low, high)))
        value = _divide(
            sum(weight * child for weight, (_, child) in zip(weights, values, strict=True)),
            walk.unit,
        )
        best_moves = moves
    else:
        sign = 1 if mover == Player.FIRST else -1
        best: Num | None = None
        for move in capabilities.move_order(game)():
            if best is None or context.move_values or walk.mode == PLAIN:
                child = walk.child(move, remaining - 1, ply, low, high)
            else:
                # Is the move as good as the best so far? A window that stops one unit
                # short of the best value answers exactly for every move that ties or
                # beats it, and proves the others worse, with one search each.
                short = best - sign
                child = walk.child(
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
    walk.flush()
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
