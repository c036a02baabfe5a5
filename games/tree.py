"""Explicit game trees, read from a small text format: the trees of textbooks and course exercises.

A tree is written one node a line (or one node a ``;``-separated statement)::

    # AIMA Figure 5.2: MAX to move at A
    A max: a1 -> B, a2 -> C, a3 -> D
    B min: b1 -> 3, b2 -> 12, b3 -> 8
    C min: c1 -> 2, c2 -> 4, c3 -> 6
    D min: d1 -> 14, d2 -> 5, d3 -> 2

Each node line is ``NAME KIND [eval VALUE]: MOVE -> CHILD, MOVE -> CHILD, ...``:

- ``KIND`` is ``max`` or ``min`` (the first and the second player of a two-agent tree),
  ``agent K`` (agent ``K``, counted from 0) or ``chance``; a chance node's moves carry
  their probability, ``heads 1/2 -> E`` (a fraction or a decimal, together 1);
- a ``CHILD`` is another node's name or a leaf's utility written in place: an integer or
  one integer per agent in parentheses, ``(3, 1, 2)``;
- a leaf may also be a node of its own, ``NAME leaf: VALUE``;
- ``eval VALUE`` gives the node a heuristic value, what a search stopped there by a depth
  limit sees (0 when not given); evaluations lie strictly between -900 and 900.

In a two-agent tree of single integers, a leaf's integer is the first player's result.
A tree with more than two agents, or with a leaf of one integer per agent, is a tree of
*utilities*: a single integer ``v`` there gives the first agent ``v`` and every other
``-v`` (everyone against the first agent, as ghosts against Pac-Man).

The first node is the root. Every other node has exactly one parent, and every node can
be reached from the root. Moves are named by their text; a node's moves are tried in the
order written. Two more statements: ``agents N`` declares the number of agents (default:
the most any node or leaf implies, at least 2), and ``at NAME`` makes ``NAME`` the
current position (:meth:`TreeGame.to_text` writes the tree on one line, then ``at``).

Positions are the nodes. A leaf's utility is the game's result, and a tree is scored by
utility (:attr:`~gamesearch.rules.Scoring.UTILITY`, its rules' scoring): every searcher
reads the textbook's numbers, the value of the tree above is 3 and an evaluation is
compared with the utilities as written. A searcher told ``scoring=distance`` uses the
framework's scale of values instead (a finished line then counts more than any
evaluation; ``SearchResult.margin`` is still 3).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, ClassVar

from gamesearch.errors import InvalidPositionError
from gamesearch.game import Game, UtilitiesGame, resolve_options
from gamesearch.plugins import hookimpl
from gamesearch.rules import CHANCE, PLAYERS, Rules

# The text format of a tree has a module of its own; its names stay importable from here.
from .tree_format import EVALUATION_BOUND as EVALUATION_BOUND
from .tree_format import MAX_AGENTS as MAX_AGENTS
from .tree_format import RENDER_LINES as RENDER_LINES
from .tree_format import Node as Node
from .tree_format import Tree as Tree
from .tree_format import Value as Value
from .tree_format import numbers_of as numbers_of
from .tree_format import parse_tree as parse_tree
from .tree_format import write_value as write_value

#: AIMA Figure 5.2 (Russell and Norvig, *Artificial Intelligence: A Modern Approach*):
#: the starting position of the game; its value is 3 and the best move a1
AIMA_FIGURE_5_2 = """\
# AIMA Figure 5.2: MAX to move at A; value 3, best move a1
A max: a1 -> B, a2 -> C, a3 -> D
B min: b1 -> 3, b2 -> 12, b3 -> 8
C min: c1 -> 2, c2 -> 4, c3 -> 6
D min: d1 -> 14, d2 -> 5, d3 -> 2
"""


class TreeGame(Game[str]):
    """An explicit game tree read from text: max, min, agent and chance nodes, leaves with
    utilities."""

    name = "tree"
    player_names: ClassVar[tuple[str, ...]] = ("MAX", "MIN")
    evaluation_bound = EVALUATION_BOUND
    default_searcher = "textbook-alphabeta"
    position_files = True

    _tree: Tree
    _path: list[int]

    def __init__(self, **options: Any) -> None:
        tree, _ = parse_tree(AIMA_FIGURE_5_2)
        self._tree = tree
        self._path = [0]

    @classmethod
    def from_text(cls, text: str, **options: Any) -> TreeGame:
        """Return the position ``text`` writes: a tree, at its root or at its ``at`` node.

        A tree of utilities is a :class:`UtilitiesTree`.

        :raises InvalidPositionError: naming what is wrong with the text.
        :raises InvalidOptionError: for any option (the game takes none).
        """
        resolve_options(cls.options, options)
        tree, at = parse_tree(text)
        kind = UtilitiesTree if tree.has_utilities else TreeGame
        game = kind.__new__(kind)
        assert isinstance(game, TreeGame)
        game._tree = tree
        game._path = [0]
        if at is not None:
            if at not in tree.index:
                raise InvalidPositionError(f"'at {at}': the tree has no node {at!r}")
            game._path = tree.path_to(tree.index[at])
        return game

    # ------------------------------------------------------------------ the core
    @property
    def rules(self) -> Rules:
        """Return the rules the tree implies: its height, agents, chance and range of utilities."""
        return self._tree.rules

    @property
    def tree(self) -> Tree:
        """Return the tree this position is a node of."""
        return self._tree

    @property
    def node(self) -> Node:
        """Return the current node."""
        return self._tree.nodes[self._path[-1]]

    def to_move(self) -> int:
        """Return who moves at the current node: a :class:`~gamesearch.rules.Player` in a
        tree of two agents (so ``game.to_move().sign`` works), the agent's number (0, 1,
        2, ...) in a tree of more, :data:`~gamesearch.game.CHANCE` at a chance node (at a
        leaf: the agent after the last one who moved, else the first)."""
        node = self.node
        seats = PLAYERS if self._tree.agents == 2 else range(self._tree.agents)
        if node.agent is not None:
            return seats[node.agent]
        if node.is_chance:
            return CHANCE
        nodes = self._tree.nodes
        for number in reversed(self._path[:-1]):
            agent = nodes[number].agent
            if agent is not None:
                return seats[(agent + 1) % self._tree.agents]
        return seats[0]

    def legal_moves(self) -> Sequence[str]:
        """Return the current node's moves in the order the tree writes them."""
        return self.node.moves

    def make_move(self, move: str) -> None:
        node = self.node
        self._path.append(node.children[node.moves.index(move)])

    def unmake_move(self, move: str) -> None:
        self._path.pop()

    def result(self) -> int | None:
        """Return the leaf's utility (the first player's result) at a leaf, else ``None``."""
        utility = self.node.utility
        return utility if isinstance(utility, int) else None

    def key(self) -> Hashable:
        """Return the tree's digest and the node's number."""
        return (self._tree.digest, self._path[-1])

    # ---------------------------------------------------------------- optional
    def chance_outcomes(self) -> Sequence[tuple[str, Fraction]]:
        """Return a chance node's moves with their probabilities.

        :raises ValueError: when the current node is not a chance node.
        """
        node = self.node
        if not node.is_chance:
            raise ValueError(f"node {node.name!r} is not a chance node")
        return tuple(zip(node.moves, node.probabilities, strict=True))

    @property
    def ply(self) -> int:
        """Return the current node's depth in the tree."""
        return self.node.depth

    def evaluate(self) -> int:
        """Return the current node's evaluation (0 when the tree gives none)."""
        evaluation = self.node.evaluation
        return evaluation if isinstance(evaluation, int) else 0

    def copy(self) -> TreeGame:
        """Return an independent position of the same (shared, immutable) tree."""
        twin = object.__new__(type(self))
        twin._tree = self._tree
        twin._path = list(self._path)
        twin._history = list(self._history)
        return twin

    @property
    def settings(self) -> dict[str, Any]:
        """Return no settings: the tree is the position, written by :meth:`to_text`."""
        return {}

    def to_text(self) -> str:
        """Return the tree in canonical form on one line, with ``; at NAME`` unless at the root."""
        text = self._tree.text
        if len(self._path) > 1:
            text += f"; at {self.node.name}"
        return text

    def render(self) -> str:
        """Return the tree below the current node, one node a line (at most 40 lines)."""
        nodes, names = self._tree.nodes, self.player_names
        lines: list[str] = []
        total = 0

        def label(node: Node) -> str:
            if node.is_leaf:
                utility = write_value(node.utility or 0)
                return utility if node.is_inline else f"{node.name} = {utility}"
            mover = "chance" if node.is_chance else names[node.agent or 0]
            evaluation = (
                f", eval {write_value(node.evaluation)}" if any(numbers_of(node.evaluation)) else ""
            )
            return f"{node.name} ({mover}{evaluation})"

        stack: list[tuple[int, str, str, str]] = [(self._path[-1], "", "", "")]
        while stack:
            number, prefix, corner, edge = stack.pop()
            node = nodes[number]
            total += 1
            if len(lines) < RENDER_LINES:
                lines.append(f"{prefix}{corner}{edge}{label(node)}")
            below = "    " if corner.startswith("└") else "│   "
            branch = prefix + (below if corner else "")
            for position in reversed(range(len(node.moves))):
                chance = f" ({node.probabilities[position]})" if node.is_chance else ""
                corner_mark = "└── " if position == len(node.moves) - 1 else "├── "
                stack.append(
                    (
                        node.children[position],
                        branch,
                        corner_mark,
                        f"{node.moves[position]}{chance}: ",
                    )
                )
        if total > len(lines):
            lines.append(f"... {total - len(lines)} more nodes")
        return "\n".join(lines)


class UtilitiesTree(TreeGame, UtilitiesGame[str]):
    """A tree of utilities: more than two agents, or leaves with one utility per agent."""

    player_names = tuple(f"agent {number}" for number in range(MAX_AGENTS))

    def result(self) -> tuple[int, ...] | None:  # type: ignore[override]
        """Return the leaf's utilities, one per agent, at a leaf, else ``None``."""
        utility = self.node.utility
        return utility if isinstance(utility, tuple) else None

    def evaluate(self) -> tuple[int, ...]:  # type: ignore[override]
        """Return the current node's evaluation, one per agent (0 each when the tree gives none)."""
        evaluation = self.node.evaluation
        return evaluation if isinstance(evaluation, tuple) else (0,) * self._tree.agents


@hookimpl
def gamesearch_register_games(registry: Any) -> None:
    """Register explicit game trees."""
    registry.add_game(TreeGame)
