"""Plain minimax: the reference every other searcher is checked against.

Every line is followed to the end of the game (or to ``depth`` plies, where the
game's heuristic ``evaluate()`` stands in), with no pruning. The first player
maximises, the second minimises (Russell & Norvig, *AIMA*, section 5.2).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

import attrs

from gamesearch.game import Game, Player, Scoring
from gamesearch.search.base import INFINITY, Counters, RootAnswer, Searcher, Tracer


def _positive_or_none(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if value is not None and value < 1:
        raise ValueError(f"{attribute.name!r} must be >= 1: {value!r}")


def depth_field(help_text: str) -> Any:
    """Return the attrs field of a searcher's optional depth limit (shared by searchers)."""
    return attrs.field(default=None, validator=_positive_or_none, metadata={"help": help_text})


@attrs.frozen(kw_only=True)
class Minimax(Searcher):
    """Plain minimax, no pruning: the reference."""

    name: ClassVar[str] = "minimax"
    depth: int | None = depth_field("plies to search before evaluate() (default: to the end)")

    def _root(
        self, game: Game[Any], counters: Counters, move_values: bool, tracer: Tracer | None
    ) -> RootAnswer:
        # Hot loop: bound methods in locals, counters in closure cells.
        push, undo, terminal = game.push, game.undo, game.terminal_sign
        legal_moves, to_move, evaluate = game.legal_moves, game.to_move, game.evaluate
        first = Player.FIRST
        win = game.win_score
        distance = 1 if self.scoring is Scoring.DISTANCE else 0
        nodes = leaves = 0
        deepest = root_ply = game.ply
        horizon_reached = False

        def value(ply: int, depth_left: float) -> int:
            nonlocal nodes, leaves, horizon_reached, deepest
            nodes += 1
            sign = terminal()
            if sign is not None:
                leaves += 1
                if ply > deepest:
                    deepest = ply
                return sign * (win - distance * ply)
            if depth_left == 0:
                leaves += 1
                horizon_reached = True
                if ply > deepest:
                    deepest = ply
                return evaluate()
            maximizing = to_move() is first
            best = -INFINITY if maximizing else INFINITY
            for move in legal_moves():
                push(move)
                if tracer is not None:
                    tracer.enter(move, ply + 1, -INFINITY, INFINITY)
                child = value(ply + 1, depth_left - 1)
                if tracer is not None:
                    tracer.leave(child)
                undo()
                if maximizing:
                    if child > best:
                        best = child
                elif child < best:
                    best = child
            return best

        depth = float("inf") if self.depth is None else self.depth
        if tracer is not None:
            tracer.enter(None, game.ply, -INFINITY, INFINITY)
        nodes += 1  # the root
        root_values: list[tuple[Hashable, int]] = []
        for move in legal_moves():
            push(move)
            if tracer is not None:
                tracer.enter(move, game.ply, -INFINITY, INFINITY)
            child = value(game.ply, depth - 1)
            if tracer is not None:
                tracer.leave(child)
            undo()
            root_values.append((move, child))
        sign = to_move().sign
        best_value = sign * max(sign * child for _, child in root_values)
        if tracer is not None:
            tracer.leave(best_value)
        counters.nodes, counters.leaves = nodes, leaves
        return RootAnswer(
            value=best_value,
            best_moves=tuple(move for move, child in root_values if child == best_value),
            move_values=tuple(root_values) if move_values else None,
            is_exact=not horizon_reached,
            depth=deepest - root_ply,
            depth_limit=self.depth,
        )
