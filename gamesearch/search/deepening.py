"""Iterative deepening, the one driver: depth 1, 2, 3, ... until exact, the depth or the budget.

Each depth is searched by a function the searcher gives; the answer of the deepest
completed depth is kept. Depth 1 always completes (it runs without a budget); each
later depth gets the rest of the search's budget (:meth:`Budget.after`), and a depth
that runs out of it is thrown away. Deepening stops early once a depth reaches the end
of every line (the answer is then exact), or when the budget could not hold even the
root and one child. Used by ``iterative`` (alpha-beta), the ``engine`` and the chance
searchers' ``chance-iterative``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Protocol, TypeVar

from gamesearch.errors import BudgetExceededError
from gamesearch.search.base import Budget


class _Answer(Protocol):
    @property
    def is_exact(self) -> bool: ...


Found = TypeVar("Found", bound=_Answer)


def deepen(
    search_depth: Callable[[int, Budget | None, Found | None], Found],
    budget: Budget,
    spent: Callable[[], int],
    deepest: int | None = None,
    on_depth: Callable[[int, Found], None] | None = None,
) -> tuple[Found, int]:
    """Return the answer of the deepest completed depth and that depth.

    ``search_depth(depth, rest, previous)`` searches one depth within ``rest`` (``None``:
    no budget, depth 1's case and a search without one) given the previous depth's
    answer (``None`` at depth 1), and raises :class:`BudgetExceededError` when ``rest``
    runs out (having taken its moves back); ``spent()`` is the positions the search has
    entered so far; ``deepest`` is the last depth to search (``None``: no last one);
    ``on_depth(depth, answer)``, if given, hears of each completed depth (a progress line).

    :raises BudgetExceededError: when ``search_depth`` raises it at depth 1 (which it
        searches without a budget).
    """
    found: Found | None = None
    completed = 0
    depths = range(1, deepest + 1) if deepest is not None else itertools.count(1)
    for depth in depths:
        rest = None
        if found is not None and budget.is_limited:
            rest = budget.after(spent())
            if rest.nodes_left < 2:
                break  # not even the root and one child fit: a new depth could only overrun
        try:
            found = search_depth(depth, rest, found)
        except BudgetExceededError:
            if found is None:
                raise
            break
        completed = depth
        if on_depth is not None:
            on_depth(depth, found)
        if found.is_exact:
            break
    if found is None:  # (only for deepest < 1, which no searcher option allows)
        raise ValueError(f"iterative deepening needs a depth >= 1: {deepest!r}")
    return found, completed
