"""The text format of an explicit game tree (see :mod:`tree <gamesearch_games.tree>`):
its :class:`Node` and :class:`Tree` records and :func:`parse_tree`, which reads and
checks a tree once (the last trees read are kept).
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Sequence
from fractions import Fraction

import attrs

from gamesearch.errors import InvalidPositionError
from gamesearch.rules import Rules, Scoring

#: evaluations lie strictly inside this bound
EVALUATION_BOUND = 900
#: the most agents a tree may have
MAX_AGENTS = 16
#: how many lines :meth:`TreeGame.render` draws at most
RENDER_LINES = 40

_NAME = r"[^\s:;,()#]+"
_VALUE = r"-?\d+|\(\s*-?\d+(?:\s*,\s*-?\d+)*\s*\)"
_NODE = re.compile(
    rf"(?P<name>{_NAME})\s+(?P<kind>max|min|leaf|chance|agent\s+\d+)"
    rf"(?:\s+eval\s+(?P<eval>{_VALUE}))?\s*:\s*(?P<body>.*)"
)
_CHILD = re.compile(
    rf"\s*(?P<move>{_NAME})\s+(?:(?P<probability>\d+/\d+|\d*\.\d+|\d+)\s+)?->\s*"
    rf"(?P<target>{_VALUE}|{_NAME})\s*(?:,|$)"
)
_INTEGER = re.compile(r"-?\d+")

Value = int | tuple[int, ...]


@attrs.frozen
class Node:
    """One node of a tree: who moves there, its moves and children, or its utility."""

    name: str
    #: the agent who moves here; ``None`` at a leaf and at a chance node
    agent: int | None
    depth: int  #: moves from the root
    is_chance: bool = False
    moves: tuple[str, ...] = ()
    children: tuple[int, ...] = ()  #: the node each move leads to (indices into the tree)
    probabilities: tuple[Fraction, ...] = ()  #: a chance node's, one a move
    #: a leaf's utility: the first player's result, or one per agent in a tree of utilities
    utility: Value | None = None
    evaluation: Value = 0
    is_inline: bool = False  #: a leaf written in place at its parent (named ``PARENT.MOVE``)

    @property
    def is_leaf(self) -> bool:
        """Return whether the node has no moves."""
        return not self.moves


@attrs.frozen
class Tree:
    """A parsed tree: its nodes (the root first), its agents and its canonical text."""

    nodes: tuple[Node, ...]
    agents: int
    has_utilities: bool  #: leaves hold one utility per agent
    text: str  #: the tree written canonically on one line (``;`` between nodes), without ``at``
    digest: str = attrs.field(init=False)
    rules: Rules = attrs.field(init=False)
    index: dict[str, int] = attrs.field(init=False, eq=False, repr=False)
    parents: dict[int, int] = attrs.field(init=False, eq=False, repr=False)

    @digest.default
    def _digest(self) -> str:
        return hashlib.sha1(self.text.encode()).hexdigest()[:16]

    @rules.default
    def _rules(self) -> Rules:
        utilities = [node.utility for node in self.nodes if node.utility is not None]
        numbers = [number for utility in utilities for number in numbers_of(utility)]
        max_plies = max(node.depth for node in self.nodes)
        alternating, chance = self._is_alternating(), any(node.is_chance for node in self.nodes)
        result_range = (min(numbers), max(numbers))
        if not self.has_utilities:
            return Rules(
                max_plies=max_plies,
                players=self.agents,
                alternating=alternating,
                chance=chance,
                result_range=result_range,
                scoring=Scoring.UTILITY,
            )
        sums = {sum(numbers_of(utility)) for utility in utilities}
        constant = sums.pop() if len(sums) == 1 else None
        return Rules(
            max_plies=max_plies,
            players=self.agents,
            alternating=alternating,
            chance=chance,
            result_range=result_range,
            scoring=Scoring.UTILITY,
            utilities=True,
            constant_sum=constant,
        )

    @index.default
    def _index(self) -> dict[str, int]:
        return {node.name: number for number, node in enumerate(self.nodes)}

    @parents.default
    def _parents(self) -> dict[int, int]:
        return {child: number for number, node in enumerate(self.nodes) for child in node.children}

    def _is_alternating(self) -> bool:
        """Return whether every move of a two-agent tree without chance passes the turn."""
        nodes = self.nodes
        if self.agents != 2 or any(node.is_chance for node in nodes):
            return False
        return all(
            nodes[child].agent in (None, 1 - (node.agent or 0))
            for node in nodes
            for child in node.children
        )

    def path_to(self, target: int) -> list[int]:
        """Return the node numbers from the root down to ``target``."""
        path = [target]
        while path[-1] != 0:
            path.append(self.parents[path[-1]])
        return path[::-1]


def numbers_of(value: Value) -> tuple[int, ...]:
    return (value,) if isinstance(value, int) else value


def _value(text: str, described: str) -> Value:
    """Return a utility or evaluation written as ``text``: an integer or a tuple of them."""
    text = text.strip()
    if text.startswith("("):
        return tuple(int(part) for part in text.strip("()").split(","))
    if not _INTEGER.fullmatch(text):
        raise InvalidPositionError(f"{described} must be an integer or (integer, ...): {text!r}")
    return int(text)


def write_value(value: Value) -> str:
    return str(value) if isinstance(value, int) else "(" + ", ".join(map(str, value)) + ")"


@attrs.define
class _Draft:
    """A node as read, before the tree is checked and numbered."""

    name: str
    kind: str  #: max, min, agent, chance or leaf
    agent: int | None
    evaluation: Value
    children: list[tuple[str, str]] = attrs.field(factory=list)  #: (move, target as written)
    probabilities: list[Fraction] = attrs.field(factory=list)
    utility: Value | None = None
    is_inline: bool = False  #: a leaf written in place at its parent


def _is_value(target: str) -> bool:
    """Return whether a move's target is a utility written in place (not a node's name)."""
    return re.fullmatch(_VALUE, target) is not None


def _child_name(parent: str, move: str, target: str) -> str:
    """Return the name of the node ``move`` of ``parent`` leads to (a leaf in place:
    parent.move)."""
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
            if len(words) != 2 or not words[1].isdigit() or not 2 <= int(words[1]) <= MAX_AGENTS:
                raise InvalidPositionError(
                    f"'agents' takes a whole number from 2 to {MAX_AGENTS}: {statement!r}"
                )
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
                utility = _value(target, f"the utility of {leaf_name!r}")
                drafts[leaf_name] = _Draft(
                    leaf_name, "leaf", None, 0, utility=utility, is_inline=True
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
            "agent K, chance or leaf"
        )
    name, kind, body = match["name"], match["kind"].split()[0], match["body"].strip()
    if _is_value(name):
        raise InvalidPositionError(
            f"node name {name!r} looks like a utility; give it a name with a letter"
        )
    evaluation = _value(match["eval"], f"the evaluation of {name!r}") if match["eval"] else 0
    agent = {"max": 0, "min": 1}.get(kind)
    if kind == "agent":
        agent = int(match["kind"].split()[1])
    draft = _Draft(name, kind, agent, evaluation)
    if kind == "leaf":
        draft.utility = _value(body, f"the utility of {name!r}")
        return draft
    position = 0
    while position < len(body):
        child = _CHILD.match(body, position)
        if child is None:
            raise InvalidPositionError(
                f"node {name!r}: cannot read {body[position:].strip()!r}; write MOVE -> CHILD "
                "(at a chance node MOVE PROBABILITY -> CHILD), separated by commas"
            )
        written = child.group(0).strip().rstrip(",").strip()
        move, probability = child["move"], child["probability"]
        if any(move == known for known, _ in draft.children):
            raise InvalidPositionError(f"node {name!r} has two moves named {move!r}")
        if kind == "chance":
            if probability is None:
                raise InvalidPositionError(
                    f"chance node {name!r}: move {move!r} needs its probability ({move} 1/2 -> ...)"
                )
            chance = Fraction(probability)
            if chance <= 0:
                raise InvalidPositionError(
                    f"chance node {name!r}: a probability must be > 0: {written!r}"
                )
            draft.probabilities.append(chance)
        elif probability is not None:
            raise InvalidPositionError(
                f"node {name!r}: only a chance node's moves have probabilities: {written!r}"
            )
        draft.children.append((move, child["target"]))
        position = child.end()
    if not draft.children:
        raise InvalidPositionError(
            f"node {name!r} has no moves; write a leaf as {name} leaf: VALUE"
        )
    if kind == "chance" and sum(draft.probabilities) != 1:
        raise InvalidPositionError(
            f"the probabilities of chance node {name!r} add up to {sum(draft.probabilities)}, not 1"
        )
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
        raise InvalidPositionError(
            f"the root {root!r} (the first node) is a child of {parents[root]!r}"
        )
    values = [value for draft in drafts.values() for value in (draft.utility, draft.evaluation)]
    implied = [draft.agent + 1 for draft in drafts.values() if draft.agent is not None]
    implied += [len(value) for value in values if isinstance(value, tuple)]
    agents = declared_agents if declared_agents is not None else max([2, *implied])
    if agents > MAX_AGENTS:
        raise InvalidPositionError(f"a tree has at most {MAX_AGENTS} agents, this one {agents}")
    has_utilities = agents > 2 or any(isinstance(value, tuple) for value in values)
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
        raise InvalidPositionError(
            f"node {unreachable[0]!r} cannot be reached from the root {root!r}"
        )
    finished = []
    for node in nodes:
        draft = drafts[node.name]
        _check_agent(draft, agents)
        finished.append(
            attrs.evolve(
                node,
                is_chance=draft.kind == "chance",
                moves=tuple(move for move, _ in draft.children),
                children=tuple(
                    order[_child_name(node.name, move, target)] for move, target in draft.children
                ),
                probabilities=tuple(draft.probabilities),
                utility=None
                if draft.utility is None
                else _checked(draft.utility, draft, "utility", agents, has_utilities),
                evaluation=_checked(draft.evaluation, draft, "evaluation", agents, has_utilities),
                is_inline=draft.is_inline,
            )
        )
    return Tree(tuple(finished), agents, has_utilities, _canonical(finished, agents))


def _check_agent(draft: _Draft, agents: int) -> None:
    """Check who moves at a node against the number of agents."""
    if draft.kind in ("max", "min") and agents > 2:
        raise InvalidPositionError(
            f"node {draft.name!r} is {draft.kind}; in a tree of {agents} agents name the mover "
            f"(agent 0 to agent {agents - 1})"
        )
    if draft.agent is not None and not 0 <= draft.agent < agents:
        raise InvalidPositionError(
            f"node {draft.name!r} is moved by agent {draft.agent}; the tree has agents 0 to "
            f"{agents - 1}"
        )


def _checked(value: Value, draft: _Draft, what: str, agents: int, has_utilities: bool) -> Value:
    """Return a utility or evaluation as the tree holds it: one integer per agent in a tree of
    utilities (a single ``v`` is ``(v, -v, ..., -v)``), else the integer."""
    if has_utilities:
        if isinstance(value, int):
            value = (value,) + (-value,) * (agents - 1)
        if len(value) != agents:
            raise InvalidPositionError(
                f"the {what} of {draft.name!r} is {write_value(value)!r}: the tree has {agents} "
                "agents, "
                f"so one integer or {agents} in parentheses"
            )
    if what == "evaluation" and not all(
        -EVALUATION_BOUND < number < EVALUATION_BOUND for number in numbers_of(value)
    ):
        raise InvalidPositionError(
            f"the evaluation of {draft.name!r} must lie strictly between -{EVALUATION_BOUND} and "
            f"{EVALUATION_BOUND}: {value!r}"
        )
    return value


def _canonical(nodes: Sequence[Node], agents: int) -> str:
    """Return the tree written on one line, leaves written in place where they were."""
    statements = [] if agents == 2 else [f"agents {agents}"]
    for node in nodes:
        if node.is_leaf:
            if not node.is_inline:
                statements.append(f"{node.name} leaf: {write_value(node.utility or 0)}")
            continue
        if node.is_chance:
            kind = "chance"
        else:
            kind = ("max", "min")[node.agent or 0] if agents == 2 else f"agent {node.agent}"
        evaluation = (
            f" eval {write_value(node.evaluation)}" if any(numbers_of(node.evaluation)) else ""
        )
        children = []
        for index, (move, child) in enumerate(zip(node.moves, node.children, strict=True)):
            target = nodes[child]
            written = write_value(target.utility or 0) if target.is_inline else target.name
            chance = f" {node.probabilities[index]}" if node.is_chance else ""
            children.append(f"{move}{chance} -> {written}")
        statements.append(f"{node.name} {kind}{evaluation}: {', '.join(children)}")
    return "; ".join(statements)
