"""Ballard's Star1 and Star2 pruning at chance positions: the walker of ``star1``,
``star2`` and ``chance-iterative``.

Twins: :mod:`gamesearch.search.reference.star1` and
:mod:`gamesearch.search.reference.star2` (the same values and best moves); the
searchers and the plain walker are in :mod:`gamesearch.search.expectimax`, whose
docstring tells the differences and how values are kept in whole numbers.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable, Sequence

from gamesearch.errors import BudgetExceededError
from gamesearch.rules import CHANCE, Player
from gamesearch.search.chance_walk import (
    EXACT,
    LOWER,
    STAR2,
    UPPER,
    ChanceWalk,
    Child,
    Num,
    Probe,
    divide,
)

#: the pruning core ``core(move, depth, ply, alpha, beta, probe, again)``, handed itself
Core = Callable[[Hashable, float, int, Num, Num, "Probe | None", "Core"], Num]


def pruning_walker(walk: ChanceWalk) -> tuple[Child, Callable[[], None]]:
    """Return Star1's or Star2's ``child`` for ``walk`` and the function that writes the
    counters back to it.

    Hot loop: bound methods, settings and counters in closure cells (no attribute
    lookups per position), the table consulted only when there is one. The functions
    that recurse are handed the core (``again``) rather than naming it: no closure
    cell refers back to it, so a search is freed as it returns, without the collector.
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

    def core(
        move: Hashable,
        depth: float,
        ply: int,
        alpha: Num,
        beta: Num,
        probe: Probe | None,
        again: Core,
    ) -> Num:
        """Play ``move``, return the value of the position it reaches, take it back (see
        :data:`~gamesearch.search.chance_walk.Child`); ``again`` is ``core`` itself."""
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
                    value = decide(depth, ply, mover == first, alpha, beta, probe, again)
                elif star2_mode:
                    value = star2(depth, ply, alpha, beta, again)
                else:
                    value = star1(depth, ply, alpha, beta, again)
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
        depth: float,
        ply: int,
        maximizing: bool,
        alpha: Num,
        beta: Num,
        probe: Probe | None,
        again: Core,
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
                    value = again(
                        move,
                        child_depth,
                        child_ply,
                        best if best > alpha else alpha,
                        beta,
                        None,
                        again,
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
                    value = again(
                        move,
                        child_depth,
                        child_ply,
                        alpha,
                        best if best < beta else beta,
                        None,
                        again,
                    )
                if value < best:
                    best = value
                    if best <= alpha:
                        cut(moves[index + 1 :])
                        break
        return best

    def star1(depth: float, ply: int, alpha: Num, beta: Num, again: Core) -> Num:
        """Return the value of a chance position, skipping the outcomes that cannot
        bring it back inside ``(alpha, beta)`` (Star1)."""
        moves, weights, _ = outcomes()
        count = len(moves)
        lower: list[Num] = [low] * count
        upper: list[Num] = [high] * count
        return search_outcomes(
            moves, weights, depth, ply, alpha, beta, lower, upper, [None] * count, again
        )

    def star2(depth: float, ply: int, alpha: Num, beta: Num, again: Core) -> Num:
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
            return search_outcomes(
                moves, weights, depth, ply, alpha, beta, lower, upper, probes, again
            )
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
                    value = again(
                        replies[0], depth - 1, outcome_ply + 1, window_low, window_high, None, again
                    )
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
                return divide(floor, unit)
            if ceiling <= alpha_q:
                cutoffs += 1
                return divide(ceiling, unit)
        return search_outcomes(moves, weights, depth, ply, alpha, beta, lower, upper, probes, again)

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
        again: Core,
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
                return divide(known + low_share + later_lower, unit)
            if known + high_share + later_upper <= alpha_q:
                cut(moves[index:])
                return divide(known + high_share + later_upper, unit)
            if least == most:  # known exactly (a finished game, a forced move)
                known += low_share
                continue
            # the child values at or below fail_low (at or above fail_high) decide the
            # verdict: as whole numbers, rounded down (up)
            fail_low = (alpha_q - known - later_upper) // weight
            fail_high = -((known + later_lower - beta_q) // weight)
            value = again(
                move,
                depth,
                child_ply,
                fail_low if fail_low > least else least,
                fail_high if fail_high < most else most,
                probes[index],
                again,
            )
            share = weight * value
            if value <= fail_low:
                cut(moves[index + 1 :])
                return divide(known + share + later_upper, unit)
            if value >= fail_high:
                cut(moves[index + 1 :])
                return divide(known + share + later_lower, unit)
            known += share
        return divide(known, unit)

    def child(
        move: Hashable, depth: float, ply: int, alpha: Num, beta: Num, probe: Probe | None = None
    ) -> Num:
        return core(move, depth, ply, alpha, beta, probe, core)

    return child, flush


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
