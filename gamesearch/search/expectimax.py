"""Searchers for games of chance: expectiminimax and Ballard's *-minimax pruning.

At a chance position (``to_move()`` is :data:`~gamesearch.game.CHANCE`) the value is
the probability-weighted mean of the outcomes' values; elsewhere the first player
maximises and the second minimises (Michie, 1966; *AIMA* section 5.5). Values are
expected final results from the first player's point of view, exact fractions; a
position at the horizon is worth the game's heuristic mapped strictly inside the
result range (:func:`~gamesearch.game.chance_heuristic`). ``depth`` counts the
players' moves only: an outcome of chance costs no depth (as in OpenSpiel's
``expectiminimax``), and a chance position reached at the horizon is evaluated.

- ``expectiminimax`` visits every position: the reference.
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

Exact arithmetic in whole numbers (the hot loop, :class:`_Walk`): every value is
kept as a multiple of one small unit, ``1 / (2 * evaluation_bound * q ** c)``, where
``q`` is a common denominator of the probabilities and ``c`` the most chance
positions a line can still meet, so a chance position's mean is a sum of whole
numbers divided exactly by ``q``, and a window bound is rounded to the whole number
on the safe side. ``q`` is found by looking along one line first; a chance position
with a probability it does not divide starts the search again with a larger ``q``.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, ClassVar

import attrs

from gamesearch.errors import BudgetExceededError
from gamesearch.game import CHANCE, Game, Player, chance_heuristic_numerator
from gamesearch.search.base import (
    CLOCK_INTERVAL, INFINITY, Counters, RootAnswer, SearchContext, Searcher, Tracer, Value,
    depth_field, node_budget_field, seconds_field,
)  # fmt: skip

#: how the children of a chance position are searched
PLAIN, STAR1, STAR2 = "expectiminimax", "star1", "star2"
#: what a table entry holds: the exact value, or a lower or an upper bound
EXACT, LOWER, UPPER = 0, 1, 2

#: a Star2 probe of a position's first move: its value and the window it was searched with
Probe = tuple[int, int, int]


class _Rescale(Exception):
    """A chance position's probabilities need a larger common denominator."""

    def __init__(self, unit: int) -> None:
        super().__init__(unit)
        self.unit = unit


class _Walk:
    """One search of one position: the recursive core shared by the three searchers.

    ``mode`` is :data:`PLAIN` (no window), :data:`STAR1` or :data:`STAR2`. Every
    method returns a value from the first player's point of view, in whole multiples
    of ``1 / scale``, fail-soft: a value at or below the window's ``alpha`` is an upper
    bound of the true value, one at or above ``beta`` a lower bound, one strictly
    inside it exact.
    """

    def __init__(
        self, game: Game[Any], mode: str, tracer: Tracer | None, max_nodes: float, deadline: float,
        unit: int, table: dict[tuple[Hashable, float], tuple[int, int]] | None,
    ) -> None:  # fmt: skip
        rules, bound = game.rules, type(game).evaluation_bound
        self.game = game
        self.mode = mode
        self.tracer = tracer
        self.table = table
        self.push, self.undo, self.result = game.push, game.undo, game.result
        self.advance, self.retract = game.advance, game.retract
        self.to_move, self.ordered_moves, self.key = game.to_move, game.ordered_moves, game.key
        self.chance_outcomes = game.chance_outcomes
        self.unit = unit  #: q, a common denominator of every probability met so far
        # the most chance positions any line from here can meet (none without chance)
        chances = max(0, rules.max_plies - game.ply) if rules.chance else 0
        power: int = unit**chances
        self.scale = 2 * bound * power
        low, high = rules.result_range
        self.low, self.high = low * self.scale, high * self.scale
        #: beyond every value: the open ends of a window
        self.infinity = 2 * max(abs(self.low), abs(self.high)) + 1
        # the heuristic's value is affine in the estimate: offset + slope * evaluate()
        offset = chance_heuristic_numerator(rules, 0, bound)
        self.offset, self.slope = offset * power, (chance_heuristic_numerator(rules, 1, bound) - offset) * power
        self.estimate = game.evaluate
        #: the window a position is searched with when nothing is known yet (the tree
        #: drawing shows every value of plain expectiminimax as exact)
        self.full = (-self.infinity, self.infinity) if mode == PLAIN else (self.low, self.high)
        self.weights: dict[int, tuple[Sequence[tuple[Hashable, Fraction]], list[tuple[Hashable, int]]]] = {}
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.next_look = CLOCK_INTERVAL if deadline < math.inf else INFINITY
        #: the node count at which a budget must be looked at (the nearer of the two)
        self.look_at = min(max_nodes, self.next_look)
        self.nodes = 0
        self.leaves = 0
        self.cutoffs = 0
        self.tt_hits = 0
        self.deepest = game.ply
        self.horizon_reached = False
        #: whether the position last valued was a leaf (its value is exact, whatever the window)
        self.was_leaf = False


    def exact(self, value: int) -> Value:
        """Return a whole-number value as the fraction it stands for (an open window end
        as the framework's ``±INFINITY``)."""
        if value >= self.infinity:
            return INFINITY
        if value <= -self.infinity:
            return -INFINITY
        return Fraction(value, self.scale)

    def outcomes(self) -> list[tuple[Hashable, int]]:
        """Return the chance position's outcomes with their probabilities times q.

        :raises _Rescale: when q is no common denominator of the probabilities.
        """
        given = self.chance_outcomes()
        known = self.weights.get(id(given))
        if known is not None and known[0] is given:
            return known[1]
        unit, weighted = self.unit, []
        for move, probability in given:
            weight = probability * unit
            if weight.denominator != 1:
                raise _Rescale(math.lcm(unit, probability.denominator))
            weighted.append((move, int(weight)))
        self.weights[id(given)] = (given, weighted)  # (kept alive: the id stays its own)
        return weighted

    # ------------------------------------------------------------------ entry
    def child(self, move: Hashable, depth: float, alpha: int, beta: int, probe: Probe | None = None) -> int:
        """Play ``move``, return the value of the position it reaches, take it back."""
        final = self.advance(move)  # push(move) and result() in one call
        try:
            tracer = self.tracer
            if tracer is None:
                return self.value(depth, alpha, beta, probe, final)
            tracer.enter(move, self.game.ply, self.exact(alpha), self.exact(beta))
            value = self.value(depth, alpha, beta, probe, final)
            tracer.leave(self.exact(value))
            return value
        finally:
            self.retract(move)

    def _look_at_budget(self) -> None:
        """Raise when a budget is spent; else say when to look again."""
        if self.nodes > self.max_nodes:
            raise BudgetExceededError(f"node budget of {self.max_nodes:,} exhausted")
        if self.nodes > self.next_look:
            if time.perf_counter() > self.deadline:
                raise BudgetExceededError("time budget exhausted")
            self.next_look = self.nodes + CLOCK_INTERVAL
        self.look_at = min(self.max_nodes, self.next_look)

    def _reached(self) -> None:
        """Note the ply of a leaf (the deepest position entered is always one)."""
        ply = self.game.ply
        if ply > self.deepest:
            self.deepest = ply

    def value(self, depth: float, alpha: int, beta: int, probe: Probe | None, final: int | None) -> int:
        """Return the value of the position just entered (``final`` its result), ``depth``
        player moves left.

        ``probe`` is what a Star2 probe found for this position's first move.
        """
        self.nodes += 1
        if self.nodes > self.look_at:
            self._look_at_budget()
        self.was_leaf = True
        if final is not None:
            self.leaves += 1
            self._reached()
            return final * self.scale
        if depth == 0:
            self.leaves += 1
            self.horizon_reached = True
            self._reached()
            return self.offset + self.slope * self.estimate()
        table = self.table
        if table is not None:
            entry = table.get((self.key(), depth))
            if entry is not None:
                known, kind = entry
                if kind == EXACT or (kind == LOWER and known >= beta) or (kind == UPPER and known <= alpha):
                    self.tt_hits += 1
                    self.was_leaf = kind == EXACT
                    self._reached()
                    return known
        mover = self.to_move()
        if mover != CHANCE:
            value = self.decide(depth, mover == Player.FIRST, alpha, beta, probe)
        elif self.mode == PLAIN:
            value = self.expectation(depth)
        elif self.mode == STAR1:
            value = self.star1(depth, alpha, beta)
        else:
            value = self.star2(depth, alpha, beta)
        if table is not None:
            kind = EXACT if self.mode == PLAIN or alpha < value < beta else LOWER if value >= beta else UPPER
            table[(self.key(), depth)] = (value, kind)
        self.was_leaf = False
        return value

    # -------------------------------------------------------- a player moves
    def decide(self, depth: float, maximizing: bool, alpha: int, beta: int, probe: Probe | None = None) -> int:
        """Return the value of a position where a player chooses (fail-soft alpha-beta;
        no pruning in :data:`PLAIN` mode, whose window stays open)."""
        child, pruning = self.child, self.mode != PLAIN
        moves = self.ordered_moves()
        if not pruning:  # plain expectiminimax: every move, the open window
            values = [child(move, depth - 1, alpha, beta) for move in moves]
            return max(values) if maximizing else min(values)
        best = -self.infinity if maximizing else self.infinity
        for index, move in enumerate(moves):
            value = _reuse(probe, alpha, beta) if index == 0 and probe is not None else None
            if value is None:
                if maximizing:
                    value = child(move, depth - 1, max(alpha, best), beta)
                else:
                    value = child(move, depth - 1, alpha, min(beta, best))
            if maximizing:
                if value > best:
                    best = value
                if best >= beta:
                    self._cut(moves[index + 1 :])
                    break
            else:
                if value < best:
                    best = value
                if best <= alpha:
                    self._cut(moves[index + 1 :])
                    break
        return best

    def _cut(self, moves: Sequence[Hashable]) -> None:
        if moves:
            self.cutoffs += 1
            if self.tracer is not None:
                self.tracer.prune(moves)

    # ------------------------------------------------------- chance decides
    def expectation(self, depth: float) -> int:
        """Return the probability-weighted mean of every outcome's value."""
        child, (low, high) = self.child, self.full
        total = 0
        for move, weight in self.outcomes():
            total += weight * child(move, depth, low, high)
        return total // self.unit  # exact: every value below a chance position is a multiple of q

    def star1(self, depth: float, alpha: int, beta: int) -> int:
        """Return the value of a chance position, skipping the outcomes that cannot
        bring it back inside ``(alpha, beta)`` (Star1)."""
        outcomes = self.outcomes()
        count = len(outcomes)
        return self._search_outcomes(outcomes, depth, alpha, beta, [self.low] * count, [self.high] * count, [None] * count)

    def star2(self, depth: float, alpha: int, beta: int) -> int:
        """Return the value of a chance position: probe every outcome with one move of
        the player who moves next, cut off when the probes' bounds decide, else search
        the outcomes as :meth:`star1` does within the bounds found (Star2)."""
        outcomes = self.outcomes()
        count, unit = len(outcomes), self.unit
        lower, upper = [self.low] * count, [self.high] * count
        probes: list[Probe | None] = [None] * count
        if alpha <= self.low and beta >= self.high:  # no probe can cut a full window off
            return self._search_outcomes(outcomes, depth, alpha, beta, lower, upper, probes)
        push, undo, result, to_move, tracer = self.push, self.undo, self.result, self.to_move, self.tracer
        floor, ceiling = self.low, self.high  # the chance position's bounds (sum of weight * bound / q)
        for index, (move, weight) in enumerate(outcomes):
            push(move)
            try:
                final = result()
                if final is not None:  # a finished game needs no probe: its value is known
                    value = final * self.scale
                    floor += weight * (value - lower[index]) // unit
                    ceiling += weight * (value - upper[index]) // unit
                    lower[index] = upper[index] = value
                else:
                    mover = to_move()
                    if mover == CHANCE:
                        continue  # nothing to probe: chance again
                    moves = self.ordered_moves()
                    others_lower = floor - weight * lower[index] // unit
                    others_upper = ceiling - weight * upper[index] // unit
                    # the probe's window: where its value could still decide (rounded outwards)
                    window_low = max((alpha - others_upper) * unit // weight, lower[index])
                    window_high = min(-((others_lower - beta) * unit // weight), upper[index])
                    if tracer is not None:
                        tracer.enter(move, self.game.ply, self.exact(window_low), self.exact(window_high))
                    self.nodes += 1  # the outcome's position is entered for the probe
                    value = self.child(moves[0], depth - 1, window_low, window_high)
                    if tracer is not None:
                        tracer.leave(self.exact(value))
                    probes[index] = (value, window_low, window_high)
                    if len(moves) == 1 and window_low < value < window_high:  # the only move: exact
                        floor += weight * (value - lower[index]) // unit
                        ceiling += weight * (value - upper[index]) // unit
                        lower[index] = upper[index] = value
                    elif mover == Player.FIRST and value > window_low and value > lower[index]:
                        floor += weight * (value - lower[index]) // unit  # one move's value: a floor
                        lower[index] = value
                    elif mover != Player.FIRST and value < window_high and value < upper[index]:
                        ceiling += weight * (value - upper[index]) // unit  # a ceiling
                        upper[index] = value
            finally:
                undo()
            if floor >= beta:
                self.cutoffs += 1
                return floor
            if ceiling <= alpha:
                self.cutoffs += 1
                return ceiling
        return self._search_outcomes(outcomes, depth, alpha, beta, lower, upper, probes)

    def _search_outcomes(
        self, outcomes: Sequence[tuple[Hashable, int]], depth: float, alpha: int, beta: int,
        lower: list[int], upper: list[int], probes: Sequence[Probe | None],
    ) -> int:  # fmt: skip
        """Search the outcomes in order, each with the window that would still let the
        chance position's value land inside ``(alpha, beta)``, given the exact values of
        the outcomes before it and the bounds ``lower``/``upper`` of those after it;
        return the value (a bound once the rest cannot change the verdict)."""
        unit = self.unit
        known = 0
        later_lower = sum(weight * bound // unit for (_, weight), bound in zip(outcomes, lower))
        later_upper = sum(weight * bound // unit for (_, weight), bound in zip(outcomes, upper))
        for index, (move, weight) in enumerate(outcomes):
            low_share, high_share = weight * lower[index] // unit, weight * upper[index] // unit
            later_lower -= low_share
            later_upper -= high_share
            if known + low_share + later_lower >= beta:
                self._cut([outcome for outcome, _ in outcomes[index:]])
                return known + low_share + later_lower
            if known + high_share + later_upper <= alpha:
                self._cut([outcome for outcome, _ in outcomes[index:]])
                return known + high_share + later_upper
            if lower[index] == upper[index]:  # known exactly (a finished game, a forced move)
                known += low_share
                continue
            # the child values at or below fail_low (at or above fail_high) decide the
            # verdict: as whole numbers, rounded down (up)
            fail_low = (alpha - known - later_upper) * unit // weight
            fail_high = -((known + later_lower - beta) * unit // weight)
            value = self.child(move, depth, max(fail_low, lower[index]), min(fail_high, upper[index]), probes[index])
            share = weight * value // unit
            if value <= fail_low:
                self._cut([outcome for outcome, _ in outcomes[index + 1 :]])
                return known + share + later_upper
            if value >= fail_high:
                self._cut([outcome for outcome, _ in outcomes[index + 1 :]])
                return known + share + later_lower
            known += share
        return known


def _reuse(probe: Probe, alpha: int, beta: int) -> int | None:
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
    """Expectiminimax for games of chance: the reference (expected results, no pruning)."""

    name: ClassVar[str] = "expectiminimax"
    needs_no_chance: ClassVar[bool] = False
    expected_values: ClassVar[bool] = True
    mode: ClassVar[str] = PLAIN
    depth: int | None = depth_field("players' moves to search before evaluate() (chance is free; default: to the end)")
    table: bool = attrs.field(
        default=False,
        metadata={"help": "keep each position's value at each depth left while searching (transpositions answer at once)"},
    )

    def unmet_needs(self, game: Game[Any]) -> list[str]:
        """Return what the game lacks: two players, and chance (see the module's docstring)."""
        unmet = super().unmet_needs(game)
        if not game.rules.chance:
            unmet.append("it searches games of chance only (minimax and alphabeta search this one)")
        return unmet

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        """Search the unfinished position ``game``; every root move gets its exact value."""
        max_nodes = math.inf if self.max_nodes is None else self.max_nodes
        deadline = math.inf if self.seconds is None else time.perf_counter() + self.seconds
        return search_chance_root(
            game, self.mode, self.depth, context, max_nodes=max_nodes, deadline=deadline, table=self.table
        )


def search_chance_root(
    game: Game[Any], mode: str, depth: int | None, context: SearchContext, *,
    max_nodes: float = math.inf, deadline: float = math.inf, table: bool = False,
) -> RootAnswer:  # fmt: skip
    """Return the root answer of a ``mode`` search of the unfinished ``game``.

    Each root move's value is exact (a root move that might tie the best is searched
    with a window that stops just short of it), so the best moves are exactly
    expectiminimax's. ``table`` keeps values by position and remaining depth during
    the search.

    :raises BudgetExceededError: when ``max_nodes`` or the ``deadline`` pass.
    """
    unit = _common_denominator(game)
    while True:
        walk = _Walk(game, mode, context.tracer, max_nodes, deadline, unit, {} if table else None)
        walk.nodes = 1  # the root
        if context.tracer is not None:
            context.tracer.enter(None, game.ply, *map(walk.exact, walk.full))
        try:
            answer = _search_root(game, walk, depth, context)
        except _Rescale as larger:  # a probability q does not divide: start again
            unit = larger.unit
            continue
        except BudgetExceededError:  # a search stopped by its budget counts what it entered
            _count(context.counters, walk)
            raise
        _count(context.counters, walk)
        return answer


def _count(counters: Counters, walk: _Walk) -> None:
    counters.nodes += walk.nodes
    counters.leaves += walk.leaves
    counters.cutoffs += walk.cutoffs
    counters.tt_hits += walk.tt_hits


def _common_denominator(game: Game[Any]) -> int:
    """Return a common denominator of the probabilities met along the first moves from
    ``game`` to the end (a good first guess for the whole search; 1 without chance)."""
    if not game.rules.chance:
        return 1
    unit, played = 1, 0
    try:
        while game.result() is None:
            if game.to_move() == CHANCE:
                for _, probability in game.chance_outcomes():
                    unit = math.lcm(unit, probability.denominator)
            game.push(game.legal_moves()[0])
            played += 1
    finally:
        for _ in range(played):
            game.undo()
    return unit


def _search_root(game: Game[Any], walk: _Walk, depth: int | None, context: SearchContext) -> RootAnswer:
    tracer = context.tracer
    low, high = walk.full
    remaining = math.inf if depth is None else depth
    mover = game.to_move()
    values: list[tuple[Hashable, int]] = []
    if mover == CHANCE:
        outcomes = walk.outcomes()
        for move, _ in outcomes:
            values.append((move, walk.child(move, remaining, low, high)))
        value = sum(weight * child for (_, weight), (_, child) in zip(outcomes, values)) // walk.unit
        best_moves = tuple(move for move, _ in outcomes)
    else:
        sign = 1 if mover == Player.FIRST else -1
        best: int | None = None
        for move in game.ordered_moves():
            if best is None or context.move_values or walk.mode == PLAIN:
                child = walk.child(move, remaining - 1, low, high)
            else:
                # Is the move as good as the best so far? A window that stops one unit
                # short of the best value answers exactly for every move that ties or
                # beats it, and proves the others worse, with one search each.
                short = best - sign
                child = walk.child(move, remaining - 1, *((short, high) if sign > 0 else (low, short)))
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
    context.horizon_reached = walk.horizon_reached
    return RootAnswer(
        value=Fraction(value, walk.scale),
        best_moves=best_moves,
        move_values=tuple((move, Fraction(child, walk.scale)) for move, child in values) if context.move_values else None,
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
    depth: int | None = depth_field("deepest iteration, in players' moves (default: until exact or out of budget)")
    max_nodes: int | None = node_budget_field("node budget for the whole search (answers with the last completed depth)")
    seconds: float | None = seconds_field("time budget in seconds (answers with the last completed depth)")

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        """Search depth 1, 2, ... until exact, the depth option or the budget; return the
        deepest completed iteration (depth 1 always completes)."""
        deadline = math.inf if self.seconds is None else time.perf_counter() + self.seconds
        max_nodes = math.inf if self.max_nodes is None else self.max_nodes
        answer: RootAnswer | None = None
        depths = range(1, self.depth + 1) if self.depth is not None else itertools.count(1)
        for depth in depths:
            counters = Counters()
            attempt = SearchContext(context.scoring, counters, context.move_values, context.tracer,
                                    depth, context.root_ply)  # fmt: skip
            limited = answer is not None
            try:
                found = search_chance_root(
                    game, self.mode, depth, attempt,
                    max_nodes=max_nodes - context.counters.nodes if limited else math.inf,
                    deadline=deadline if limited else math.inf, table=self.table,
                )  # fmt: skip
            except BudgetExceededError:
                break
            finally:
                context.counters.nodes += counters.nodes
                context.counters.leaves += counters.leaves
                context.counters.cutoffs += counters.cutoffs
                context.counters.tt_hits += counters.tt_hits
            answer = found
            if found.is_exact:
                break
        assert answer is not None  # depth 1 runs without a budget
        context.horizon_reached = not answer.is_exact
        return answer


#: the searchers of this module, registered by :mod:`gamesearch.search.builtin`
CHANCE_SEARCHERS = (Expectiminimax, Star1, Star2, ChanceIterative)
