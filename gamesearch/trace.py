"""Tracers: objects a search reports every step to (``searcher.search(game, tracer=...)``).

:class:`TreeTracer` records the tree as the searcher walked it: each node's move, the
alpha-beta window it was entered with, its value, and the moves cut off below it.
A tree too big to draw stops the search (``stop_after``); a search's own node and time
budget is its :class:`~gamesearch.search.base.Limit`. Without a tracer, alpha-beta
(iterative deepening's iterations, and pvs, MTD(f) and the solver given a depth, which
hand the search to it) and the engine pay nothing for this: they are compiled per kind
of search (:mod:`gamesearch.search.specialise`), and the kind without a tracer has no
hook. The other searchers that report to a tracer pay one test of a local per node
(``python -m benchmarks.tracer_cost`` checks the first for alpha-beta and measures the
second for minimax and pvs).

Tracing is not the hot path: it allocates a node object per position and may be slow.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any

import attrs

from gamesearch import capabilities
from gamesearch.errors import BudgetExceededError
from gamesearch.game import Game
from gamesearch.rules import CHANCE, SEAT_NAMES, Player
from gamesearch.search.base import INFINITY, Value, json_value


@attrs.define(eq=False)
class TraceNode:
    """One position the search entered.

    ``value`` is what the search returned for it: exact for a leaf or when it lies
    strictly inside the window ``(alpha, beta)``, otherwise only a bound (see :attr:`bound`).
    """

    move: Hashable | None  #: the move that led here (``None`` for the root)
    ply: int  #: plies from the game's start
    alpha: Value  #: the window's lower end on entry (``-INFINITY`` when open)
    beta: Value  #: the window's upper end on entry (``INFINITY`` when open)
    to_move: int | None = None  #: the player to move here (a :class:`Player` of a two-player
    #: game), when the tracer knows the game (``None`` also at a chance position)
    position: str | None = None  #: the position in the game's notation, when known
    #: ``None`` while unfinished (or when the search was stopped); a game with utilities
    #: gets one utility per player (max^n), in result units
    value: Value | tuple[Value, ...] | None = None
    children: list[TraceNode] = attrs.field(factory=list)
    pruned: tuple[Hashable, ...] = ()  #: moves cut off here, never searched
    is_expanded: bool = False  #: true when the search entered a child (recorded or not)
    is_chance: bool = False  #: true at a chance position (when the tracer knows the game)
    #: the probability of the outcome that led here, when the parent is a chance position
    probability: Fraction | None = None
    #: at a chance position: each outcome's probability (for the children)
    odds: dict[Hashable, Fraction] | None = attrs.field(default=None, repr=False)

    @property
    def bound(self) -> str:
        """Return ``"exact"``, ``"upper"`` (failed low: value <= alpha), ``"lower"``
        (failed high: value >= beta) or ``"unknown"`` (no value).

        Utilities (max^n) are exact, or ``"cut"`` where moves were pruned: they are then
        the best the mover had found, at least what it gets here.
        """
        if self.value is None:
            return "unknown"
        if isinstance(self.value, tuple):
            return "cut" if self.pruned else "exact"
        if not self.is_expanded:  # a leaf: the game's score or the heuristic, as it is
            return "exact"
        if self.value <= self.alpha and self.alpha > -INFINITY:
            return "upper"
        if self.value >= self.beta and self.beta < INFINITY:
            return "lower"
        return "exact"

    def walk(self) -> list[TraceNode]:
        """Return this node and every recorded node below it, depth first."""
        found = [self]
        for child in self.children:
            found.extend(child.walk())
        return found

    def as_dict(self, format_move: Callable[[Any], str] = str) -> dict[str, Any]:
        """Return the subtree as JSON-ready data, moves written with ``format_move``.

        Open window ends are written ``null``.
        """
        return {
            "move": None if self.move is None else format_move(self.move),
            "ply": self.ply,
            "to_move": "chance"
            if self.is_chance
            else None
            if self.to_move is None
            else SEAT_NAMES[self.to_move],
            "position": self.position,
            "probability": None if self.probability is None else str(self.probability),
            "alpha": None if self.alpha <= -INFINITY else json_value(self.alpha),
            "beta": None if self.beta >= INFINITY else json_value(self.beta),
            "value": [json_value(item) for item in self.value]
            if isinstance(self.value, tuple)
            else json_value(self.value),
            "bound": self.bound,
            "is_leaf": not self.is_expanded,
            "pruned": [format_move(move) for move in self.pruned],
            "children": [child.as_dict(format_move) for child in self.children],
        }


def _player(index: int) -> int:
    return Player(index) if index in (0, 1) else index


class TreeTracer:
    """Records the search tree; :attr:`roots` holds one root per search iteration.

    Give it the ``game`` being searched to record each node's side to move and
    position. After ``max_nodes`` recorded nodes it only counts: :attr:`nodes`
    always equals the number of positions the search entered. With ``stop_after`` it
    raises :class:`BudgetExceededError` (through the search) on entering one more.
    """

    def __init__(
        self,
        game: Game[Any] | None = None,
        *,
        max_nodes: int | None = None,
        stop_after: int | None = None,
    ) -> None:
        self.game = game
        self.max_nodes = max_nodes
        self.stop_after = stop_after
        self.roots: list[TraceNode] = []
        self.nodes = 0  #: positions entered (recorded or not)
        self.recorded = 0  #: positions kept in the tree
        self._stack: list[TraceNode | None] = []  # None: entered but not recorded

    @property
    def is_truncated(self) -> bool:
        """Return whether some entered positions were not recorded (``max_nodes``)."""
        return self.recorded < self.nodes

    def enter(self, move: Hashable | None, depth: int, alpha: Value, beta: Value) -> None:
        """Record a new node below the current one (a new root when none is open).

        :raises BudgetExceededError: past ``stop_after`` positions.
        """
        self.nodes += 1
        if self.stop_after is not None and self.nodes > self.stop_after:
            raise BudgetExceededError(
                f"the search entered more than {self.stop_after:,} positions; "
                "give a depth limit or a position nearer the end"
            )
        is_root = move is None
        if is_root:  # a new search or iteration (a stopped one may have left nodes open)
            self._stack.clear()
        parent = self._stack[-1] if self._stack else None
        if parent is not None:
            parent.is_expanded = True
        full = self.max_nodes is not None and self.recorded >= self.max_nodes
        if full or (parent is None and not is_root):
            self._stack.append(None)
            return
        game = self.game
        mover = None if game is None else game.to_move()
        is_chance = mover == CHANCE and game is not None and game.result() is None
        node = TraceNode(
            move,
            depth,
            alpha,
            beta,
            to_move=None if mover is None or is_chance else _player(mover),
            position=None if game is None else game.to_text(),
            is_chance=is_chance,
            probability=None if parent is None or parent.odds is None else parent.odds.get(move),
            odds=dict(capabilities.chance_outcomes(game))
            if is_chance and game is not None
            else None,
        )
        self.recorded += 1
        if parent is None:
            self.roots.append(node)
        else:
            parent.children.append(node)
        self._stack.append(node)

    def leave(self, value: Value | tuple[Value, ...]) -> None:
        """Give the current node its value (one utility per player, in a game with
        utilities) and return to its parent."""
        node = self._stack.pop()
        if node is not None:
            node.value = value

    def prune(self, moves: Sequence[Hashable]) -> None:
        """Mark ``moves`` of the current node as cut off."""
        node = self._stack[-1] if self._stack else None
        if node is not None:
            node.pruned = node.pruned + tuple(moves)
