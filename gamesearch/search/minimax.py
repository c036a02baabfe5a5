"""Plain minimax, the fast core: every line to the end, or to the horizon, no pruning.

Twin: :mod:`gamesearch.search.reference.minimax`, with the same values, best moves
and node counts. Differences: one closure per search, bound methods in locals; nodes
counted per expansion (all the children of a position at once), leaves worked out
from them; a child that ends the game scored in its parent's loop, unplayed when the
game answers ``move_results()``; finished values looked up by ply and result; the
turn asked only in games whose turns do not alternate; its own node and clock checks.

Every line is followed to the end of the game (or to ``depth`` plies, where the
game's heuristic ``evaluate()`` stands in), with no pruning. The first player
maximises, the second minimises (Russell & Norvig, *AIMA*, section 5.2).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, ClassVar

import attrs

from gamesearch import capabilities
from gamesearch.game import Game, offers
from gamesearch.rules import Player
from gamesearch.search.base import (
    INFINITY,
    NEGATIVE_INFINITY,
    NO_HORIZON,
    RootAnswer,
    SearchContext,
    Searcher,
    finished_values,
    heuristic,
)

#: the results of moves not known before they are played (paired with the moves)
NO_RESULTS = itertools.repeat(None)
#: the core's ``expand(ply, maximizing, again)``, handed itself to search the children
Expand = Callable[[int, bool, "Expand"], int]


@attrs.frozen(kw_only=True)
class Minimax(Searcher):
    """Plain minimax, no pruning (the fast core)."""

    name: ClassVar[str] = "minimax"

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        counters, move_values, tracer = context.counters, context.move_values, context.tracer
        # Hot loop: bound methods in locals, counters in closure cells. A child that
        # is over (or at the horizon) is scored in its parent's loop, without a call;
        # nodes are counted per expansion, leaves as nodes minus expanded positions.
        # A game whose turns alternate is not asked whose turn it is below the root.
        # Moves below the root are played by advance() and taken back by retract(),
        # also when something raises; a game that answers move_results() has the
        # children that end the game scored without being played (without a tracer).
        push, undo, terminal = game.push, game.undo, game.result
        advance, retract = capabilities.advancer(game), capabilities.retractor(game)
        known = capabilities.move_results(game)
        legal_moves, to_move, evaluate = game.legal_moves, game.to_move, heuristic(game)
        asks_turn = not game.rules.alternating
        # (not with a tracer: it sees every child played)
        scores_unplayed = tracer is None and offers(game, "move_results")
        first = Player.FIRST
        finished = finished_values(game, self.scoring)  # finished[ply][result]: a look-up
        # one test per expansion covers both budgets: the node count past which to look
        # again (the node budget itself, or sooner when the clock must be read)
        look, next_look = context.budget.check, context.budget.first_look
        nodes = expanded = 0
        root_ply = game.ply
        # the ply of the positions scored by evaluate(): a test per child, no depth to pass down
        horizon_ply = root_ply + (NO_HORIZON if self.depth is None else self.depth)
        deepest = root_ply + 1  # the root is unfinished: it has children
        horizon_reached = False

        # ``expand`` recurses through its argument ``again`` (itself), not through a closure
        # cell naming it: no reference cycle, so the search is freed as soon as it returns
        def expand(ply: int, maximizing: bool, again: Expand) -> int:
            """Return the value of the unfinished position at ``ply`` (before the horizon);
            ``again`` is ``expand`` itself, for the children."""
            nonlocal nodes, expanded, horizon_reached, deepest, next_look
            child_ply = ply + 1
            if child_ply > deepest:
                deepest = child_ply
            moves: Sequence[Any]
            pairs: Iterable[tuple[Hashable, int | None]]
            if (
                scores_unplayed
            ):  # each move with its result: a child that ends the game is not played
                moves = pairs = known()
            else:
                moves = legal_moves()
                pairs = zip(moves, NO_RESULTS, strict=False)
            nodes += len(moves)
            if nodes > next_look:
                next_look = look(nodes)
            expanded += 1
            if asks_turn:
                maximizing = to_move() == first
            best = NEGATIVE_INFINITY if maximizing else INFINITY
            for move, sign in pairs:
                if sign is None:  # not known to end the game: play it
                    sign = advance(move)  # push(move) and result() in one call
                    try:  # (free in CPython 3.11+ until something raises)
                        if tracer is not None:
                            tracer.enter(move, child_ply, NEGATIVE_INFINITY, INFINITY)
                        if sign is not None:
                            child = finished[child_ply][sign]
                        elif child_ply == horizon_ply:
                            horizon_reached = True
                            child = evaluate()
                        else:
                            child = again(child_ply, not maximizing, again)
                        if tracer is not None:
                            tracer.leave(child)
                    except BaseException:
                        retract(move)
                        raise
                    retract(move)
                else:  # it ends the game: scored unplayed
                    child = finished[child_ply][sign]
                if maximizing:
                    if child > best:
                        best = child
                elif child < best:
                    best = child
            return best

        def settle(ply: int, maximizing: bool) -> int:
            """Return the value of the position just reached at ``ply``."""
            nonlocal horizon_reached
            sign = terminal()
            if sign is not None:
                return finished[ply][sign]
            if ply == horizon_ply:
                horizon_reached = True
                return evaluate()
            return expand(ply, maximizing, expand)

        if tracer is not None:
            tracer.enter(None, root_ply, NEGATIVE_INFINITY, INFINITY)
        root_values: list[tuple[Hashable, int]] = []
        maximizing = to_move() == first
        moves = legal_moves()
        nodes = 1 + len(moves)  # the root and its children
        for move in moves:
            push(move)
            if tracer is not None:
                tracer.enter(move, root_ply + 1, NEGATIVE_INFINITY, INFINITY)
            child = settle(root_ply + 1, not maximizing)
            if tracer is not None:
                tracer.leave(child)
            undo()
            root_values.append((move, child))
        sign = 1 if maximizing else -1
        best_value = sign * max(sign * child for _, child in root_values)
        if tracer is not None:
            tracer.leave(best_value)
        counters.nodes, counters.leaves = nodes, nodes - expanded - 1
        return RootAnswer(
            value=best_value,
            best_moves=tuple(move for move, child in root_values if child == best_value),
            move_values=tuple(root_values) if move_values else None,
            is_exact=not horizon_reached,
            depth=deepest - root_ply,
            depth_limit=self.depth,
        )
