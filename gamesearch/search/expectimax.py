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

The searchers also search games without chance (then expectiminimax is minimax on
final results, without the distance to the end) and refuse games with more than
two players. At a chance position itself no one chooses: every outcome is a "best
move" and ``move_values`` hold each outcome's value.

Hot loop (:class:`_Walk`): bound methods in attributes, counters in attributes,
exact fractions only where probabilities enter.
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
from gamesearch.game import CHANCE, Game, Player
from gamesearch.search.base import (
    CLOCK_INTERVAL, INFINITY, Counters, RootAnswer, SearchContext, Searcher, Tracer, Value,
    depth_field, expected_heuristic, node_budget_field, seconds_field,
)  # fmt: skip
from gamesearch.search.table import SearchMemory

#: how the children of a chance position are searched
PLAIN, STAR1, STAR2 = "expectiminimax", "star1", "star2"


class _Walk:
    """One search of one position: the recursive core shared by the three searchers.

    ``mode`` is :data:`PLAIN` (no window), :data:`STAR1` or :data:`STAR2`. Every
    method returns a value from the first player's point of view, fail-soft: a value
    at or below the window's ``alpha`` is an upper bound of the true value, one at or
    above ``beta`` a lower bound, one strictly inside it exact.
    """

    def __init__(
        self, game: Game[Any], mode: str, tracer: Tracer | None,
        max_nodes: float, deadline: float,
    ) -> None:  # fmt: skip
        self.game = game
        self.mode = mode
        self.tracer = tracer
        self.push, self.undo, self.result = game.push, game.undo, game.result
        self.to_move, self.ordered_moves = game.to_move, game.ordered_moves
        self.chance_outcomes = game.chance_outcomes
        self.evaluate = expected_heuristic(game)
        self.low, self.high = (Fraction(bound) for bound in game.rules.result_range)
        #: the window a position is searched with when nothing is known yet (the tree
        #: drawing shows every value of plain expectiminimax as exact)
        self.full = (-INFINITY, INFINITY) if mode == PLAIN else (self.low, self.high)
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.next_look = CLOCK_INTERVAL if deadline < math.inf else INFINITY
        self.nodes = 0
        self.leaves = 0
        self.cutoffs = 0
        self.deepest = game.ply
        self.horizon_reached = False
        #: whether the position last valued was a leaf (its value is exact, whatever the window)
        self.was_leaf = False

    # ------------------------------------------------------------------ entry
    def child(self, move: Hashable, depth: float, alpha: Value, beta: Value,
              probe: tuple[Value, Value, Value] | None = None) -> Value:  # fmt: skip
        """Play ``move``, return the value of the position it reaches, take it back."""
        self.push(move)
        try:
            tracer = self.tracer
            if tracer is not None:
                tracer.enter(move, self.game.ply, alpha, beta)
            value = self.value(depth, alpha, beta, probe)
            if tracer is not None:
                tracer.leave(value)
        finally:
            self.undo()
        return value

    def value(self, depth: float, alpha: Value, beta: Value,
              probe: tuple[Value, Value, Value] | None = None) -> Value:  # fmt: skip
        """Return the value of the position just entered, ``depth`` player moves left.

        ``probe`` is what a Star2 probe found for this position's first move: its
        value and the window it was searched with.
        """
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise BudgetExceededError(f"node budget of {self.max_nodes:,} exhausted")
        if self.nodes > self.next_look:
            if time.perf_counter() > self.deadline:
                raise BudgetExceededError("time budget exhausted")
            self.next_look = self.nodes + CLOCK_INTERVAL
        ply = self.game.ply
        if ply > self.deepest:
            self.deepest = ply
        final = self.result()
        self.was_leaf = True
        if final is not None:
            self.leaves += 1
            return final
        if depth == 0:
            self.leaves += 1
            self.horizon_reached = True
            return self.evaluate()
        mover = self.to_move()
        if mover != CHANCE:
            value = self.decide(depth, mover == Player.FIRST, alpha, beta, probe)
        elif self.mode == PLAIN:
            value = self.expectation(depth)
        elif self.mode == STAR1:
            value = self.star1(depth, alpha, beta)
        else:
            value = self.star2(depth, alpha, beta)
        self.was_leaf = False
        return value

    # -------------------------------------------------------- a player moves
    def decide(self, depth: float, maximizing: bool, alpha: Value, beta: Value,
               probe: tuple[Value, Value, Value] | None = None) -> Value:  # fmt: skip
        """Return the value of a position where a player chooses (fail-soft alpha-beta;
        no pruning in :data:`PLAIN` mode, whose window stays open)."""
        child, pruning = self.child, self.mode != PLAIN
        moves = self.ordered_moves()
        best: Value = -INFINITY if maximizing else INFINITY
        for index, move in enumerate(moves):
            value: Value | None = None
            if index == 0 and probe is not None:
                value = _reuse(probe, alpha, beta)
            if value is None:
                if not pruning:
                    value = child(move, depth - 1, alpha, beta)
                elif maximizing:
                    value = child(move, depth - 1, max(alpha, best), beta)
                else:
                    value = child(move, depth - 1, alpha, min(beta, best))
            if maximizing:
                if value > best:
                    best = value
                if pruning and best >= beta:
                    self._cut(moves[index + 1:])
                    break
            else:
                if value < best:
                    best = value
                if pruning and best <= alpha:
                    self._cut(moves[index + 1:])
                    break
        return best

    def _cut(self, moves: Sequence[Hashable]) -> None:
        if moves:
            self.cutoffs += 1
            if self.tracer is not None:
                self.tracer.prune(moves)

    # ------------------------------------------------------- chance decides
    def expectation(self, depth: float) -> Value:
        """Return the probability-weighted mean of every outcome's value."""
        child, (low, high) = self.child, self.full
        return sum(
            (probability * child(move, depth, low, high) for move, probability in self.chance_outcomes()),
            Fraction(0),
        )

    def star1(self, depth: float, alpha: Value, beta: Value) -> Value:
        """Return the value of a chance position, skipping the outcomes that cannot
        bring it back inside ``(alpha, beta)`` (Star1)."""
        outcomes = self.chance_outcomes()
        count = len(outcomes)
        return self._search_outcomes(
            outcomes, depth, alpha, beta, [self.low] * count, [self.high] * count, [None] * count
        )

    def star2(self, depth: float, alpha: Value, beta: Value) -> Value:
        """Return the value of a chance position: probe every outcome with one move of
        the player who moves next, cut off when the probes' bounds decide, else search
        the outcomes as :meth:`star1` does within the bounds found (Star2)."""
        outcomes = self.chance_outcomes()
        count = len(outcomes)
        lower, upper = [self.low] * count, [self.high] * count
        probes: list[tuple[Value, Value, Value] | None] = [None] * count
        push, undo, result, to_move, tracer = self.push, self.undo, self.result, self.to_move, self.tracer
        for index, (move, probability) in enumerate(outcomes):
            push(move)
            try:
                final = result()
                if final is not None:  # a finished game needs no probe: its value is known
                    lower[index] = upper[index] = Fraction(final)
                    continue
                mover = to_move()
                if mover == CHANCE:
                    continue  # nothing to probe: chance again
                first = self.ordered_moves()[0]
                others_lower = _weighted(outcomes, lower, skip=index)
                others_upper = _weighted(outcomes, upper, skip=index)
                window_low = max((alpha - others_upper) / probability, lower[index])
                window_high = min((beta - others_lower) / probability, upper[index])
                if tracer is not None:
                    tracer.enter(move, self.game.ply, window_low, window_high)
                self.nodes += 1  # the outcome's position is entered for the probe
                value = self.child(first, depth - 1, window_low, window_high)
                if tracer is not None:
                    tracer.leave(value)
                probes[index] = (value, window_low, window_high)
                if mover == Player.FIRST and value > window_low:  # one move's value: a floor
                    lower[index] = max(lower[index], Fraction(value))
                elif mover != Player.FIRST and value < window_high:  # a ceiling
                    upper[index] = min(upper[index], Fraction(value))
            finally:
                undo()
            floor, ceiling = _weighted(outcomes, lower), _weighted(outcomes, upper)
            if floor >= beta:
                self.cutoffs += 1
                return floor
            if ceiling <= alpha:
                self.cutoffs += 1
                return ceiling
        return self._search_outcomes(outcomes, depth, alpha, beta, lower, upper, probes)

    def _search_outcomes(
        self, outcomes: Sequence[tuple[Hashable, Fraction]], depth: float, alpha: Value, beta: Value,
        lower: list[Fraction], upper: list[Fraction], probes: Sequence[tuple[Value, Value, Value] | None],
    ) -> Value:  # fmt: skip
        """Search the outcomes in order, each with the window that would still let the
        chance position's value land inside ``(alpha, beta)``, given the exact values of
        the outcomes before it and the bounds ``lower``/``upper`` of those after it;
        return the value (a bound once the rest cannot change the verdict)."""
        known = Fraction(0)
        later_lower, later_upper = _weighted(outcomes, lower), _weighted(outcomes, upper)
        for index, (move, probability) in enumerate(outcomes):
            later_lower -= probability * lower[index]
            later_upper -= probability * upper[index]
            if known + probability * lower[index] + later_lower >= beta:
                self._cut([outcome for outcome, _ in outcomes[index:]])
                return known + probability * lower[index] + later_lower
            if known + probability * upper[index] + later_upper <= alpha:
                self._cut([outcome for outcome, _ in outcomes[index:]])
                return known + probability * upper[index] + later_upper
            if lower[index] == upper[index]:  # known exactly (a finished game)
                known += probability * lower[index]
                continue
            fail_low = (alpha - known - later_upper) / probability
            fail_high = (beta - known - later_lower) / probability
            value = self.child(
                move, depth, max(fail_low, lower[index]), min(fail_high, upper[index]), probes[index]
            )
            if value <= fail_low:
                self._cut([outcome for outcome, _ in outcomes[index + 1:]])
                return known + probability * value + later_upper
            if value >= fail_high:
                self._cut([outcome for outcome, _ in outcomes[index + 1:]])
                return known + probability * value + later_lower
            known += probability * value
        return known


def _weighted(outcomes: Sequence[tuple[Hashable, Fraction]], values: Sequence[Fraction], skip: int = -1) -> Fraction:
    """Return the probability-weighted sum of ``values``, leaving out outcome ``skip``."""
    return sum(
        (probability * value for index, ((_, probability), value) in enumerate(zip(outcomes, values)) if index != skip),
        Fraction(0),
    )


def _reuse(probe: tuple[Value, Value, Value], alpha: Value, beta: Value) -> Value | None:
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

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        """Search the unfinished position ``game``; every root move gets its exact value."""
        max_nodes = math.inf if self.max_nodes is None else self.max_nodes
        deadline = math.inf if self.seconds is None else time.perf_counter() + self.seconds
        return search_chance_root(
            game, self.mode, self.depth, context, max_nodes=max_nodes, deadline=deadline
        )

    def _principal_variation(
        self, game: Game[Any], move: Hashable, answer: RootAnswer, memory: SearchMemory
    ) -> tuple[Hashable, ...]:
        """Return the line of best play from ``move`` up to the next chance position
        (or the horizon): past it, the line depends on what chance draws."""
        line: list[Hashable] = [move]
        remaining = answer.depth_limit
        if game.to_move() == CHANCE:
            return tuple(line)
        game.push(move)
        try:
            remaining = None if remaining is None else remaining - 1
            while game.result() is None and game.to_move() != CHANCE and remaining != 0:
                follow = self._follow_up(game, remaining, memory)
                line.append(follow)
                game.push(follow)
                remaining = None if remaining is None else remaining - 1
        finally:
            for _ in line:
                game.undo()
        return tuple(line)


def search_chance_root(
    game: Game[Any], mode: str, depth: int | None, context: SearchContext, *,
    max_nodes: float = math.inf, deadline: float = math.inf,
) -> RootAnswer:  # fmt: skip
    """Return the root answer of a ``mode`` search of the unfinished ``game``.

    Each root move's value is exact (a root move that might tie the best is searched
    again with the full window), so the best moves are exactly expectiminimax's.

    :raises BudgetExceededError: when ``max_nodes`` or the ``deadline`` pass.
    """
    walk = _Walk(game, mode, context.tracer, max_nodes, deadline)
    walk.nodes = 1  # the root
    if context.tracer is not None:
        context.tracer.enter(None, game.ply, *walk.full)
    try:
        return _search_root(game, walk, mode, depth, context)
    finally:  # a search stopped by its budget counts what it entered too
        counters = context.counters
        counters.nodes += walk.nodes
        counters.leaves += walk.leaves
        counters.cutoffs += walk.cutoffs


def _search_root(game: Game[Any], walk: _Walk, mode: str, depth: int | None, context: SearchContext) -> RootAnswer:
    tracer = context.tracer
    low, high = walk.full
    remaining = math.inf if depth is None else depth
    mover = game.to_move()
    values: list[tuple[Hashable, Value]] = []
    if mover == CHANCE:
        outcomes = game.chance_outcomes()
        for move, probability in outcomes:
            values.append((move, Fraction(walk.child(move, remaining, low, high))))
        value: Value = sum((probability * child for (_, probability), (_, child) in zip(outcomes, values)), Fraction(0))
        best_moves = tuple(move for move, _ in outcomes)
    else:
        sign = 1 if mover == Player.FIRST else -1
        best: Fraction | None = None
        for move in game.ordered_moves():
            if best is None or context.move_values or mode == PLAIN:
                child = walk.child(move, remaining - 1, low, high)
            else:  # is the move better than the best so far, or as good?
                child = walk.child(move, remaining - 1, *((best, high) if sign > 0 else (low, best)))
                if child == best and not walk.was_leaf:  # a bound: is it a tie or worse?
                    bound = walk.child(move, remaining - 1, *((low, best) if sign > 0 else (best, high)))
                    if bound != best:
                        values.append((move, Fraction(bound)))  # a bound: the move is worse
                        continue
                elif sign * child < sign * best:
                    values.append((move, Fraction(child)))  # a bound: the move is worse
                    continue
            child = Fraction(child)
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
        tracer.leave(value)
    context.horizon_reached = walk.horizon_reached
    return RootAnswer(
        value=Fraction(value),
        best_moves=best_moves,
        move_values=tuple(values) if context.move_values else None,
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
                    deadline=deadline if limited else math.inf,
                )  # fmt: skip
            except BudgetExceededError:
                break
            finally:
                context.counters.nodes += counters.nodes
                context.counters.leaves += counters.leaves
                context.counters.cutoffs += counters.cutoffs
            answer = found
            if found.is_exact:
                break
        assert answer is not None  # depth 1 runs without a budget
        context.horizon_reached = not answer.is_exact
        return answer


#: the searchers of this module, registered by :mod:`gamesearch.search.builtin`
CHANCE_SEARCHERS = (Expectiminimax, Star1, Star2, ChanceIterative)
