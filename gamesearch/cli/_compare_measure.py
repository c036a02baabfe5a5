"""What ``gamesearch compare`` measures: one searcher's row on a position (a run under a
node limit, then timed runs) and the row each is checked against.

A search too big to finish under the node limit gives up (its row has no result)
instead of running for ever; the timed runs that follow are untraced.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

import attrs

from gamesearch.arena import searcher_label
from gamesearch.errors import BudgetExceededError
from gamesearch.game import Game
from gamesearch.rules import Scoring
from gamesearch.search import Minimax
from gamesearch.search.base import Limit, Searcher, SearchResult
from gamesearch.search.expectimax import Expectiminimax
from gamesearch.search.multiplayer import MaxN


# ------------------------------------------------------------------ measuring
@attrs.frozen
class Row:
    """One searcher's measurements; ``result`` is ``None`` when it gave up."""

    label: str
    searcher: Searcher
    result: SearchResult | None
    seconds: tuple[float, ...] = ()

    @property
    def median_seconds(self) -> float:
        """Return the median of the timed runs (0 when it gave up)."""
        return statistics.median(self.seconds) if self.seconds else 0.0

    @property
    def nodes_per_second(self) -> float:
        """Return nodes per median second (0 when unknown)."""
        if self.result is None or self.median_seconds <= 0:
            return 0.0
        return self.result.stats.nodes / self.median_seconds


def guarded_search(game: Game[Any], searcher: Searcher, max_nodes: int) -> SearchResult | None:
    """Return ``searcher``'s result on ``game`` within ``max_nodes`` (a node budget of its
    own, if it has one, is kept), or ``None`` when it gives up."""
    try:
        return searcher.search(game, _budget(searcher, max_nodes))
    except BudgetExceededError:
        return None


def _budget(searcher: Searcher, max_nodes: int) -> Limit | None:
    """Return the limit that gives ``searcher`` ``max_nodes`` unless it has a node budget."""
    return Limit(max_nodes=max_nodes) if searcher.max_nodes is None else None


def measure(game: Game[Any], searcher: Searcher, repeat: int, max_nodes: int) -> Row:
    """Return ``searcher``'s row: a guarded run, then ``repeat`` timed untraced runs.

    A searcher that answers within its budget (iterative deepening, MCTS) spends all of
    it on a big position, so its guarded run counts as its first timed run rather than
    doubling the time; the others' guarded run also warms what they keep worked out.
    Searchers keep nothing between runs (tables live in a memory, none is passed here).
    """
    label = searcher_label(searcher)
    first = guarded_search(game, searcher, max_nodes)
    if first is None:
        return Row(label, searcher, None)
    # the timed runs keep the same budget: a searcher that answers within one (iterative
    # deepening) would otherwise search without end
    limit = _budget(searcher, max_nodes)
    reused = [first] if searcher.answers_within_budget else []
    results = reused + [searcher.search(game, limit) for _ in range(repeat - len(reused))]
    return Row(label, searcher, results[0], tuple(result.stats.seconds for result in results))


def position_title(game: Game[Any]) -> str:
    """Return the position's text for a title, or ``(start)`` when the text is empty."""
    return game.to_text() or "(start)"


# ------------------------------------------------------------------ reference
def reference_kind(game: Game[Any], searcher: Searcher) -> str:
    """Return what ``searcher``'s values are checked against: ``"utilities"`` (max^n) in a
    game with utilities, ``"expected"`` (expected results: expectiminimax) in a game of
    chance or for a searcher of expected values, else its scoring's name (minimax with
    that scoring)."""
    if game.rules.utilities:
        return "utilities"
    if game.rules.chance or searcher.expected_values:
        return "expected"
    return game.rules.scale.resolve(searcher.scoring).value


def reference_rows(
    game: Game[Any], rows: Sequence[Row], depth: int | None, max_nodes: int
) -> dict[str, Row | None]:
    """Return the reference of each kind of value the rows have (see :func:`reference_kind`):
    minimax (or expectiminimax) when it can finish (a row of the same settings is reused),
    else the deepest exact row of that kind, else none."""
    references: dict[str, Row | None] = {}
    for kind in dict.fromkeys(reference_kind(game, row.searcher) for row in rows):
        minimax: Searcher
        if kind == "utilities":
            minimax = MaxN(depth=depth)
        elif kind == "expected":
            minimax = Expectiminimax(depth=depth)
        else:
            scoring = Scoring(kind)  # (the game's own is the default: the label stays short)
            own = game.rules.scale.resolve(Scoring.GAME) is scoring
            minimax = Minimax(depth=depth, scoring=Scoring.GAME if own else scoring)
        label = searcher_label(minimax)
        reference = next(
            (row for row in rows if row.label == label and row.result is not None), None
        )
        if reference is None:
            reference = measure(game, minimax, 1, max_nodes)
        if reference.result is None:
            finished = [
                row
                for row in rows
                if row.result is not None and reference_kind(game, row.searcher) == kind
            ]
            finished.sort(
                key=lambda row: (row.result.is_exact, row.result.stats.depth),  # type: ignore[union-attr]
                reverse=True,
            )
            reference = finished[0] if finished else None
        references[kind] = reference
    return references


def agrees(row: Row, reference: Row | None) -> bool | None:
    """Return whether the row has the value of the row it is checked against (``reference``)
    and its best moves: all of them where the row says its set is complete, else only
    some (``None`` when either is missing, or when the reference is exact and the row only
    an estimate)."""
    if row.result is None or reference is None or reference.result is None:
        return None
    if reference.result.is_exact and not row.result.is_exact:
        return None  # an estimate (MCTS short of a proof) is no answer to check against a proof
    same_value = row.result.value == reference.result.value
    found, best = set(row.result.best_moves), set(reference.result.best_moves)
    whole = row.result.best_moves_complete and reference.result.best_moves_complete
    return same_value and (found == best if whole else found <= best)
