"""Explicit game trees, read from a small text format: the trees of textbooks and course exercises.

A tree is written one node a line (or one node a ``;``-separated statement)::

    # AIMA Figure 5.2: MAX to move at A
    A max: a1 -> B, a2 -> C, a3 -> D
    B min: b1 -> 3, b2 -> 12, b3 -> 8
    C min: c1 -> 2, c2 -> 4, c3 -> 6
    D min: d1 -> 14, d2 -> 5, d3 -> 2

Each node line is ``NAME KIND [eval VALUE]: MOVE -> CHILD, MOVE -> CHILD, ...``:

- ``KIND`` is ``max`` or ``min`` (the first and the second player) or ``agent K`` (agent
  ``K``, counted from 0; in a two-agent tree ``agent 0`` is ``max``);
- a ``CHILD`` is another node's name or a leaf's utility written in place: an integer
  (the first player's result) or, in a tree of several agents, one integer per agent in
  parentheses, ``(3, 1, 2)``;
- a leaf may also be a node of its own, ``NAME leaf: VALUE``;
- ``eval VALUE`` gives the node a heuristic value, what a search stopped there by a depth
  limit sees (0 when not given); evaluations lie strictly between -900 and 900.

The first node is the root. Every other node has exactly one parent, and every node can
be reached from the root. Moves are named by their text; a node's moves are tried in the
order written. Two more statements: ``agents N`` declares the number of agents (default:
the most any node or leaf implies, at least 2), and ``at NAME`` makes ``NAME`` the
current position (:meth:`TreeGame.to_text` writes the tree on one line, then ``at``).

Positions are the nodes. A leaf's utility is the game's result, in the framework's
scale of values: a finished line always counts more than an evaluation, and the value of
the tree above is the value with margin 3 (``SearchResult.margin`` is 3).
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Hashable, Sequence
from typing import Any

import attrs

from gamesearch.errors import InvalidPositionError
from gamesearch.game import Game, Rules
from gamesearch.plugins import hookimpl

#: AIMA Figure 5.2 (Russell and Norvig, *Artificial Intelligence: A Modern Approach*):
#: the starting position of the game; its value is 3 and the best move a1
AIMA_FIGURE_5_2 = """\
# AIMA Figure 5.2: MAX to move at A; value 3, best move a1
A max: a1 -> B, a2 -> C, a3 -> D
B min: b1 -> 3, b2 -> 12, b3 -> 8
C min: c1 -> 2, c2 -> 4, c3 -> 6
D min: d1 -> 14, d2 -> 5, d3 -> 2
"""

#: evaluations lie strictly inside this bound
EVALUATION_BOUND = 900
#: how many lines :meth:`TreeGame.render` draws at most
RENDER_LINES = 40

_NAME = r"[^\s:;,()#]+"
_VALUE = r"-?\d+|\(\s*-?\d+(?:\s*,\s*-?\d+)*\s*\)"
_NODE = re.compile(
    rf"(?P<name>{_NAME})\s+(?P<kind>max|min|leaf|agent\s+\d+)(?:\s+eval\s+(?P<eval>{_VALUE}))?\s*:\s*(?P<body>.*)"
)
_CHILD = re.compile(
    rf"\s*(?P<move>{_NAME})\s+(?:(?P<probability>\d+/\d+|\d*\.\d+|\d+)\s+)?->\s*"
    rf"(?P<target>{_VALUE}|{_NAME})\s*(?:,|$)"
)
_INTEGER = re.compile(r"-?\d+")


@attrs.frozen
class Node:
    """One node of a tree: who moves there, its moves and children, or its utility."""

    name: str
    #: the agent who moves here, or ``None`` at a leaf
    agent: int | None
    depth: int  #: moves from the root
    moves: tuple[str, ...] = ()
    children: tuple[int, ...] = ()  #: the node each move leads to (indices into the tree)
    #: a leaf's utility: one integer, or one per agent
    utility: int | tuple[int, ...] | None = None
    evaluation: int | tuple[int, ...] = 0

    @property
    def is_leaf(self) -> bool:
        """Return whether the node has no moves."""
        return not self.moves


@attrs.frozen
class Tree:
    """A parsed tree: its nodes (the root first), the number of agents and its canonical text."""

    nodes: tuple[Node, ...]
    agents: int
    text: str  #: the tree written canonically on one line (``;`` between nodes), without ``at``
    digest: str = attrs.field(init=False)
    rules: Rules = attrs.field(init=False)
    index: dict[str, int] = attrs.field(init=False, eq=False, repr=False)

    @digest.default
    def _digest(self) -> str:
        return hashlib.sha1(self.text.encode()).hexdigest()[:16]

    @rules.default
    def _rules(self) -> Rules:
        results = [
            number
            for node in self.nodes
            if node.utility is not None
            for number in ((node.utility,) if isinstance(node.utility, int) else node.utility)
        ]
        return Rules(
            max_plies=max(node.depth for node in self.nodes),
            players=self.agents,
            alternating=self._is_alternating(),
            result_range=(min(results), max(results)),
        )

    @index.default
    def _index(self) -> dict[str, int]:
        return {node.name: number for number, node in enumerate(self.nodes)}

    def _is_alternating(self) -> bool:
        """Return whether every move of a two-agent tree passes the turn to the other agent."""
        if self.agents != 2:
            return False
        nodes = self.nodes
        return all(
            nodes[child].agent in (None, 1 - (node.agent or 0))
            for node in nodes
            for child in node.children
        )


def _value(text: str, described: str) -> int | tuple[int, ...]:
    """Return a utility or evaluation written as ``text``: an integer or a tuple of them."""
    text = text.strip()
    if text.startswith("("):
        return tuple(int(part) for part in text.strip("()").split(","))
    if not _INTEGER.fullmatch(text):
        raise InvalidPositionError(f"{described} must be an integer or (integer, ...): {text!r}")
    return int(text)


def _write_value(value: int | tuple[int, ...]) -> str:
    return str(value) if isinstance(value, int) else "(" + ", ".join(map(str, value)) + ")"


@attrs.define
class _Draft:
    """A node as read, before the tree is checked and numbered."""

    name: str
    kind: str
    agent: int | None
    evaluation: int | tuple[int, ...]
    children: list[tuple[str, str]] = attrs.field(factory=list)  #: (move, target name)
    utility: int | tuple[int, ...] | None = None
    is_inline: bool = False  #: a leaf written in place at its parent


def _is_value(target: str) -> bool:
    """Return whether a move's target is a utility written in place (not a node's name)."""
    return re.fullmatch(_VALUE, target) is not None


def _child_name(parent: str, move: str, target: str) -> str:
    """Return the name of the node ``move`` of ``parent`` leads to (a leaf in place: parent.move)."""
    return f"{parent}.{move}" if _is_value(target) else target


@functools.lru_cache(maxsize=256)
def parse_tree(text: str) -> tuple[Tree, str | None]:
    """Return the tree written in ``text`` and the node its ``at`` statement names (or ``None``).

    :raises InvalidPositionError: naming the statement and what is wrong with it.
    """
    if not isinstance(text, str):
        raise InvalidPositionError(f"a tree must be text, not {type(text).__name__}: {text!r}")
    drafts: dict[str, _Draft] = {}
    declared_agents: int | None = None
    at: str | None = None
    statements = [
        statement.strip()
        for line in text.splitlines()
        for statement in line.split("#", 1)[0].split(";")
        if statement.strip()
    ]
    for statement in statements:
        words = statement.split()
        if words[0] == "agents":
            if len(words) != 2 or not words[1].isdigit() or int(words[1]) < 2:
                raise InvalidPositionError(f"'agents' takes a whole number of at least 2: {statement!r}")
            declared_agents = int(words[1])
            continue
        if words[0] == "at":
            if len(words) != 2:
                raise InvalidPositionError(f"'at' takes one node name: {statement!r}")
            at = words[1]
            continue
        draft = _read_node(statement)
        if draft.name in drafts:
            raise InvalidPositionError(f"node {draft.name!r} is defined twice")
        drafts[draft.name] = draft
        for move, target in draft.children:
            if _is_value(target):  # a leaf written in place gets its own name
                leaf_name = _child_name(draft.name, move, target)
                if leaf_name in drafts:
                    raise InvalidPositionError(f"node {leaf_name!r} is defined twice")
                drafts[leaf_name] = _Draft(
                    leaf_name, "leaf", None, 0, utility=_value(target, f"leaf {leaf_name!r}"), is_inline=True
                )
    if not drafts:
        raise InvalidPositionError(
            f"no node in the tree {text!r}; write a node as NAME max: MOVE -> CHILD, MOVE -> CHILD"
        )
    return _build(drafts, declared_agents), at


def _read_node(statement: str) -> _Draft:
    """Return the node one statement defines."""
    match = _NODE.fullmatch(statement)
    if match is None:
        raise InvalidPositionError(
            f"cannot read {statement!r}: write NAME KIND: MOVE -> CHILD, ... with KIND max, min, "
            "agent K or leaf"
        )
    name, kind, body = match["name"], match["kind"], match["body"].strip()
    if _is_value(name):
        raise InvalidPositionError(f"node name {name!r} looks like a utility; give it a name with a letter")
    evaluation = _value(match["eval"], f"the evaluation of {name!r}") if match["eval"] else 0
    agent = {"max": 0, "min": 1, "leaf": None}.get(kind)
    if kind.startswith("agent"):
        agent = int(kind.split()[1])
    draft = _Draft(name, kind.split()[0], agent, evaluation)
    if kind == "leaf":
        draft.utility = _value(body, f"the utility of leaf {name!r}")
        return draft
    position = 0
    while position < len(body):
        child = _CHILD.match(body, position)
        if child is None:
            raise InvalidPositionError(
                f"node {name!r}: cannot read {body[position:].strip()!r}; write MOVE -> CHILD, "
                "separated by commas"
            )
        if child["probability"] is not None:
            raise InvalidPositionError(
                f"node {name!r}: only a chance node's moves have probabilities: {child.group(0).strip()!r}"
            )
        move = child["move"]
        if any(move == known for known, _ in draft.children):
            raise InvalidPositionError(f"node {name!r} has two moves named {move!r}")
        draft.children.append((move, child["target"]))
        position = child.end()
    if not draft.children:
        raise InvalidPositionError(f"node {name!r} has no moves; write a leaf as {name} leaf: VALUE")
    return draft


def _build(drafts: dict[str, _Draft], declared_agents: int | None) -> Tree:
    """Return the checked tree of ``drafts`` (the first is the root), numbered depth first."""
    parents: dict[str, str] = {}
    for draft in drafts.values():
        for move, target in draft.children:
            child = _child_name(draft.name, move, target)
            if child not in drafts:
                raise InvalidPositionError(
                    f"node {draft.name!r}: move {move!r} leads to {child!r}, which is not defined"
                )
            if child in parents:
                raise InvalidPositionError(
                    f"node {child!r} is reached from both {parents[child]!r} and {draft.name!r}; "
                    "each node of a tree has one parent"
                )
            parents[child] = draft.name
    root = next(iter(drafts))
    if root in parents:
        raise InvalidPositionError(f"the root {root!r} (the first node) is a child of {parents[root]!r}")
    implied = [draft.agent + 1 for draft in drafts.values() if draft.agent is not None]
    implied += [len(d.utility) for d in drafts.values() if isinstance(d.utility, tuple)]
    agents = declared_agents if declared_agents is not None else max([2, *implied])
    if agents != 2:
        raise InvalidPositionError(f"a tree of {agents} agents cannot be searched: trees have two agents")
    nodes: list[Node] = []
    order: dict[str, int] = {}
    stack = [(root, 0)]  # depth first, iteratively: a deep tree must not exhaust Python's stack
    while stack:
        current, depth = stack.pop()
        order[current] = len(nodes)
        nodes.append(Node(current, drafts[current].agent, depth))
        targets = [_child_name(current, move, target) for move, target in drafts[current].children]
        stack.extend((target, depth + 1) for target in reversed(targets))
    unreachable = [name for name in drafts if name not in order]
    if unreachable:
        raise InvalidPositionError(f"node {unreachable[0]!r} cannot be reached from the root {root!r}")
    finished = []
    for node in nodes:
        draft = drafts[node.name]
        _check_values(draft, agents)
        moves = tuple(move for move, _ in draft.children)
        children = tuple(order[_child_name(node.name, move, target)] for move, target in draft.children)
        finished.append(attrs.evolve(node, moves=moves, children=children, utility=draft.utility,
                                     evaluation=draft.evaluation))  # fmt: skip
    return Tree(tuple(finished), agents, _canonical(finished, drafts))


def _check_values(draft: _Draft, agents: int) -> None:
    """Check a node's agent, utility and evaluation against the number of agents."""
    if draft.agent is not None and not 0 <= draft.agent < agents:
        raise InvalidPositionError(
            f"node {draft.name!r} is moved by agent {draft.agent}; the tree has agents 0 to {agents - 1}"
        )
    for value, what in ((draft.utility, "utility"), (draft.evaluation, "evaluation")):
        if isinstance(value, tuple):
            raise InvalidPositionError(
                f"the {what} of {draft.name!r} is {_write_value(value)!r}: a two-agent tree takes one "
                "integer, the first player's"
            )
    if isinstance(draft.evaluation, int) and not -EVALUATION_BOUND < draft.evaluation < EVALUATION_BOUND:
        raise InvalidPositionError(
            f"the evaluation of {draft.name!r} must lie strictly between -{EVALUATION_BOUND} and "
            f"{EVALUATION_BOUND}: {draft.evaluation!r}"
        )


def _canonical(nodes: Sequence[Node], drafts: dict[str, _Draft]) -> str:
    """Return the tree written one node a line, leaves written in place where they were."""
    lines = []
    for node in nodes:
        draft = drafts[node.name]
        if draft.kind == "leaf":
            if not draft.is_inline:
                lines.append(f"{node.name} leaf: {_write_value(draft.utility or 0)}")
            continue
        kind = draft.kind if draft.kind != "agent" else f"agent {draft.agent}"
        evaluation = f" eval {_write_value(draft.evaluation)}" if draft.evaluation != 0 else ""
        children = ", ".join(
            f"{move} -> {_write_value(_value(target, 'a leaf')) if _is_value(target) else target}"
            for move, target in draft.children
        )
        lines.append(f"{node.name} {kind}{evaluation}: {children}")
    return "; ".join(lines)


class TreeGame(Game[str]):
    """An explicit game tree read from text (max, min and agent nodes, leaves with utilities)."""

    name = "tree"
    player_names = ("MAX", "MIN")
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

        :raises InvalidPositionError: naming what is wrong with the text.
        :raises InvalidOptionError: for any option (the game takes none).
        """
        game = cls.new(**options)
        assert isinstance(game, TreeGame)
        tree, at = parse_tree(text)
        game._tree = tree
        game._path = [0]
        if at is not None:
            if at not in tree.index:
                raise InvalidPositionError(f"'at {at}': the tree has no node {at!r}")
            game._path = _path_to(tree, tree.index[at])
        return game

    # ------------------------------------------------------------------ the core
    @property
    def rules(self) -> Rules:
        """Return the rules the tree implies: its height, agents and range of utilities."""
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
        """Return the agent who moves at the current node (at a leaf: the one after its parent's)."""
        node = self.node
        if node.agent is not None:
            return node.agent
        if len(self._path) < 2:
            return 0
        parent = self._tree.nodes[self._path[-2]]
        return ((parent.agent or 0) + 1) % self._tree.agents

    def legal_moves(self) -> Sequence[str]:
        """Return the current node's moves in the order the tree writes them."""
        return self.node.moves

    def make_move(self, move: str) -> None:
        node = self.node
        self._path.append(node.children[node.moves.index(move)])

    def unmake_move(self, move: str) -> None:
        self._path.pop()

    def result(self) -> int | None:
        """Return the leaf's utility at a leaf, else ``None``."""
        utility = self.node.utility
        return utility if isinstance(utility, int) else None

    def key(self) -> Hashable:
        """Return the tree's digest and the node's number."""
        return (self._tree.digest, self._path[-1])

    # ---------------------------------------------------------------- optional
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

        def label(node: Node, move: str) -> str:
            if node.is_leaf:
                utility = _write_value(node.utility or 0)
                return utility if node.name.endswith(f".{move}") else f"{node.name} = {utility}"
            mover = names[node.agent] if node.agent is not None and node.agent < len(names) else ""
            evaluation = f", eval {_write_value(node.evaluation)}" if node.evaluation != 0 else ""
            return f"{node.name} ({mover}{evaluation})"

        stack: list[tuple[int, str, str, str]] = [(self._path[-1], "", "", "")]
        while stack:
            number, prefix, corner, move = stack.pop()
            node = nodes[number]
            total += 1
            if len(lines) < RENDER_LINES:
                lines.append(f"{prefix}{corner}{move}{': ' if move else ''}{label(node, move)}")
            branch = prefix + ("" if not corner else "    " if corner.startswith("└") else "│   ")
            pairs = list(zip(node.moves, node.children))
            for position, (child_move, child) in reversed(list(enumerate(pairs))):
                stack.append((child, branch, "└── " if position == len(pairs) - 1 else "├── ", child_move))
        if total > len(lines):
            lines.append(f"... {total - len(lines)} more nodes")
        return "\n".join(lines)


def _path_to(tree: Tree, target: int) -> list[int]:
    """Return the node numbers from the root down to ``target``."""
    parent = {child: number for number, node in enumerate(tree.nodes) for child in node.children}
    path = [target]
    while path[-1] != 0:
        path.append(parent[path[-1]])
    return path[::-1]


@hookimpl
def gamesearch_register_games(registry: Any) -> None:
    """Register explicit game trees."""
    registry.add_game(TreeGame)
