"""UCT: Monte Carlo tree search that picks each move by its upper confidence bound.

A simulation walks down the tree by the move of highest mean result for its mover plus
``exploration * sqrt(ln(visits) / move's visits)`` (untried moves first), adds the first new
position, plays random moves to the end and adds the result (+1, 0, -1) along its path
(Kocsis & Szepesvári, "Bandit based Monte-Carlo planning", ECML 2006).
"""

from __future__ import annotations

import math
import random
from typing import Any, ClassVar

import attrs

from gamesearch import rules
from gamesearch.capabilities import heuristic_bound
from gamesearch.game import Game
from gamesearch.search.base import RootAnswer, SearchContext, Searcher
from gamesearch.search.reference.root import estimate


@attrs.define
class Node:
    """A position of the tree: ``total`` sums its results, first player's view."""

    visits: int = 0
    total: float = 0.0
    children: dict[Any, Node] = attrs.field(factory=dict)  #: empty until expanded


def ucb(child: Node, sign: int, log_visits: float, exploration: float) -> float:
    """Return a child's upper confidence bound for the mover (``sign`` -1: the second)."""
    if child.visits == 0:
        return math.inf
    return sign * child.total / child.visits + exploration * math.sqrt(log_visits / child.visits)


def simulate(
    game: Game[Any], node: Node, context: SearchContext, rng: random.Random, exploration: float
) -> None:
    """Run one simulation from ``node`` (the position ``game`` holds), then undo its moves."""
    path, start = [node], game.ply
    while game.result() is None and node.visits > 0:  # down the tree to a new position
        children = node.children = node.children or {move: Node() for move in game.legal_moves()}
        sign, log_visits = 1 if game.to_move() == 0 else -1, math.log(node.visits)
        move = max(children, key=lambda move: ucb(children[move], sign, log_visits, exploration))
        game.push(move)
        path.append(node := children[move])
    context.count_node(game)  # the position the simulation added
    while game.result() is None:  # the playout: random moves to the end
        game.push(rng.choice(game.legal_moves()))
    result = rules.terminal_sign(game) or 0  # for the first player: +1, 0, -1
    for step in path:
        step.visits, step.total = step.visits + 1, step.total + result
    while game.ply > start:
        game.undo()


@attrs.frozen(kw_only=True)
class ReferenceUCT(Searcher):
    """Plain UCT with random playouts (the reference twin of ``mcts``)."""

    name: ClassVar[str] = "reference-uct"
    exploration: float = 1.4

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        """Run the simulations; return the most visited move and each move's mean."""
        root, rng = Node(), random.Random(self.seed)
        for _ in range(max(self.simulations or 1000, 2)):  # (2: the root expanded)
            simulate(game, root, context, rng, self.exploration)
        scale, children = heuristic_bound(game) - 1, root.children  # means in its range
        means = {move: round(scale * n.total / (n.visits or 1)) for move, n in children.items()}
        chosen = max(children, key=lambda move: children[move].visits)
        return estimate(context.answer(game, means[chosen], [chosen], list(means.items())))


REFERENCE = ReferenceUCT
