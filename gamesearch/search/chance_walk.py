"""One search of one position of a game of chance, in whole numbers: the walk.

A :class:`ChanceWalk` holds what a walker (the hot loop of
:mod:`gamesearch.search.expectimax` or of :mod:`gamesearch.search.star_pruning`) reads:
the game's bound methods, the unit every value is a whole multiple of, the window's
open ends, the budget and the counters the walker writes back. How values are kept in
whole numbers of one unit is told in :mod:`gamesearch.search.expectimax`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any

from gamesearch import capabilities
from gamesearch.game import Game
from gamesearch.rules import chance_heuristic_numerator
from gamesearch.search.base import INFINITY, Budget, Tracer, Value

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


def divide(total: Num, unit: int) -> Num:
    """Return ``total / unit``: a whole number when ``total`` is a whole multiple of
    ``unit`` (the common case), else a :class:`~fractions.Fraction`."""
    if total.__class__ is int:
        quotient, remainder = divmod(total, unit)
        if not remainder:
            return quotient
    return Fraction(total) / unit


class ChanceWalk:
    """One search of one position: its settings and its counters.

    ``mode`` is :data:`PLAIN` (no window), :data:`STAR1` or :data:`STAR2`. A
    :data:`Walker` (:mod:`gamesearch.search.expectimax`'s plain walker, or the pruning
    walker of :mod:`gamesearch.search.star_pruning`) builds the walk's ``child`` from
    it, and the walk holds no reference back to it. ``child`` returns values from the
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


#: what builds a walk's ``child``: given the walk, its ``child`` and the function that
#: writes the counters back to the walk (which holds neither: no reference cycle)
Walker = Callable[[ChanceWalk], tuple[Child, Callable[[], None]]]
