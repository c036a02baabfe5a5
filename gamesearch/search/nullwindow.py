"""Null-window drivers over the exact negamax core: ``mtdf`` and ``solver``.

Twin of both: :mod:`gamesearch.search.reference.mtdf`, with the same values and best
moves. Differences: the null-window tests run on the exact negamax core with its
table (the memory of Plaat's MTD(f)), not on plain alpha-beta; the solver halves the
interval of possible values, leaning towards the draw, instead of stepping to each
bound; weak solving asks only "win?" and "loss?".

A null-window search answers one yes/no question, "is the value above ``v``?",
far faster than a full-window search finds the value. Two ways to home in on it:

- **MTD(f)** (Plaat et al., 1996): start from a guess and move the window to each
  answer's bound until the bounds meet;
- **binary search on the score** (Pascal Pons' Connect Four solver): halve the
  interval of the values still possible, leaning towards the draw, where most
  positions are decided. Weak solving asks only "win?" and "loss?".

Both share one transposition table across their searches, so each question
reuses the work of the previous ones.
"""

from __future__ import annotations

import bisect
from typing import Any, ClassVar

import attrs

from gamesearch.game import Game
from gamesearch.search.base import INFINITY
from gamesearch.search.negamax import ExactCore, ExactSearcher, make_exact_core
from gamesearch.search.table import TranspositionTable

#: the value classes of a weak solve: any loss, a draw, any win
WEAK_VALUES = (-1, 0, 1)


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def _towards_zero_half(offset: int) -> int:
    """Return ``offset / 2`` rounded towards zero (C integer division, as Pons writes it)."""
    return -(-offset // 2) if offset < 0 else offset // 2


def bisect_value(core: ExactCore, game: Game[Any], *, weak: bool = False) -> int:
    """Return the exact value of ``game`` for its side to move by null-window binary search.

    Weak: ``-1``, ``0`` or ``+1`` only. The interval is over the values the side to
    move can still get (:meth:`ExactCore.candidates`); each test moves the nearer
    bound to the fail-soft answer.
    """
    settled = core.settle()
    if settled is not None:
        return _sign(settled) if weak else settled
    ply = game.ply
    values = WEAK_VALUES if weak else core.candidates(ply)
    zero = bisect.bisect_left(values, 0)  # every list holds the draw
    low, high = 0, len(values) - 1
    while low < high:
        middle = low + (high - low) // 2 - zero
        # Test halfway to the far end rather than in the middle: ruling out a fast
        # win or loss is cheap, as a shallow iteration of iterative deepening is.
        if middle <= 0 and _towards_zero_half(low - zero) < middle:
            middle = _towards_zero_half(low - zero)
        elif middle >= 0 and _towards_zero_half(high - zero) > middle:
            middle = _towards_zero_half(high - zero)
        test = values[middle + zero]
        answer = core.search(ply, test, test + 1)
        if answer <= test:
            high = max(low, bisect.bisect_right(values, answer) - 1)
        else:
            low = min(high, bisect.bisect_left(values, answer))
    return values[low]


def mtdf_value(core: ExactCore, game: Game[Any], *, weak: bool = False, guess: int = 0) -> int:
    """Return the exact value of ``game`` for its side to move by MTD(f) from ``guess``.

    Weak solving needs at most the two tests of :func:`bisect_value`, which it uses.
    """
    if weak:
        return bisect_value(core, game, weak=True)
    settled = core.settle()
    if settled is not None:
        return settled
    ply = game.ply
    lower, upper, value = -INFINITY, INFINITY, guess
    while lower < upper:
        beta = value + 1 if value == lower else value
        value = core.search(ply, beta - 1, beta)
        if value < beta:
            upper = value
        else:
            lower = value
    return value


def solve(
    game: Game[Any], *, weak: bool = False, table: TranspositionTable | None = None
) -> tuple[int, int]:
    """Return ``(value, nodes)``: ``game``'s exact value for its side to move and the
    positions entered, by :func:`bisect_value` with ``table`` (a fresh one by default).

    This is what the ``solver`` searcher computes before it looks for best moves.
    """
    with make_exact_core(game, table if table is not None else TranspositionTable()) as core:
        return bisect_value(core, game, weak=weak), core.nodes()


@attrs.frozen(kw_only=True)
class MTDf(ExactSearcher):
    """MTD(f): null-window searches from a guess of 0 over the exact negamax core."""

    name: ClassVar[str] = "mtdf"

    def _solve(self, core: ExactCore, game: Game[Any]) -> int:
        return mtdf_value(core, game, weak=self.solves_weakly(game))


@attrs.frozen(kw_only=True)
class Solver(ExactSearcher):
    """Exact solver: binary search on the score with null windows (Pons), threats, table."""

    name: ClassVar[str] = "solver"

    def _solve(self, core: ExactCore, game: Game[Any]) -> int:
        return bisect_value(core, game, weak=self.solves_weakly(game))
