"""Monte Carlo tree search: UCT selection, random playouts, MCTS-Solver proofs.

Twin: :mod:`gamesearch.search.reference.uct`, plain UCT with random playouts. Differences:
proofs (MCTS-Solver with score bounds), so a proven root has minimax's value and, once
settled, minimax's best-move set (the result says when its set is complete); chance
positions drawn by their odds; games with utilities, each player credited with its own; the
moves played by ``advance``/``retract``, a position repeated on the line a draw (as in
:mod:`~gamesearch.search.repetition`; a tree node is one line: its proof holds); the value
clipped to the proven bounds; node and time budgets that answer with what they have.

One core serves every game, as OpenSpiel's ``MCTSBot`` does with its vector of returns: a
simulation's result is a vector, and a tree node sums the entry of its ``seat``. It is
specialised when built: a zero-sum game of two players has a vector of one number, the first
player's result (+1, 0, -1), every seat 0 and the players alternately maximising and
minimising it; in a game with utilities (below) a node's seat is the player whose move
reached it, and every player maximises its own.

One simulation walks down the tree, at each position taking the child with the best UCT
score (Kocsis & Szepesvári, 2006): its mean result for the player to move plus
``exploration * sqrt(ln(parent visits) / visits)``. The first position it reaches outside
the tree is expanded (all its children at once); from one new child, random moves are played
to the end, and the result is added to every position on the path (nothing is copied).

Proofs, MCTS-Solver style (Winands, Björnsson & Saito, 2008) with score bounds (Cazenave &
Saffidine, 2010): every tree node keeps a lower and an upper bound on its minimax value, in
the game's own scoring: a finished position's score, else at ply ``p`` at most
``±(win_score - (p + 1))`` (``±win_score`` with plain scoring); an expanded node's are the
max (first player to move) or min of its children's. Bounds that meet prove the node:
minimax's value, distance to the end included. Selection skips children that cannot change
their parent's value. Once the root is proven, simulations go on only below root moves that
might equal it, until each is proven or proven worse: the best moves are then exactly
minimax's (a budget spent first leaves the value exact, the best moves those proven so far).

Statistics: ``nodes`` counts tree nodes (the root included; a node budget caps the tree),
``leaves`` simulations, ``depth`` the deepest tree node below the root, ``playout_plies``
the random moves. The value is exact when the root is proven; else the chosen move's mean
result times ``eval_bound - 1``, clipped to the root's proven bounds.

Games of chance (results +1/0/-1): a chance position draws an outcome by its probability, in
the tree and the playouts, and is never proven; the value is the expected result, estimated
as the chosen move's mean (an exact fraction), or the proven one.

Games with utilities (:class:`gamesearch.game.UtilitiesGame`): the entries are
``2 * utility - (lowest + highest)``, in ``[-spread, spread]`` for ``spread = highest -
lowest``, the exploration constant scaled by ``spread``. The value is the root mover's
utility, ``utilities`` every player's, exact fractions: the chosen move's means or the
proven ones. A node is proven when all its children are, by the best for its mover (the
first in legal-move order on a tie, as max^n), or once a proven child gives the mover the
highest utility and every child before it is proven; a proven child stays a choice.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import random
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any, ClassVar

import attrs

from gamesearch import capabilities
from gamesearch.game import Game
from gamesearch.options import option_field
from gamesearch.rules import CHANCE, Player, Scoring, final_utilities
from gamesearch.search.base import (
    INFINITY,
    MoveVisits,
    RootAnswer,
    SearchContext,
    Searcher,
    node_budget_field,
    seconds_field,
    simulations_field,
)
from gamesearch.search.multiplayer import result_units
from gamesearch.search.repetition import line_moves
from gamesearch.search.table import SearchMemory

#: simulations of a search given neither a simulation nor a time budget
DEFAULT_SIMULATIONS = 1000

#: a simulation's result: one number per seat (see the module)
Returns = tuple[int, ...]


class _Node:
    """One position of the search tree: its seat's sum, and bounds on its seat's value."""

    # fmt: off
    __slots__ = ("move", "index", "is_max", "children", "visits", "total", "lower", "upper",
                 "odds", "seat", "outcome")
    # fmt: on
    outcome: Returns  #: (games with utilities) once proven: every player's entry

    def __init__(
        self, move: Hashable, index: int, is_max: bool, lower: int, upper: int, seat: int
    ) -> None:
        self.move = move
        self.index = index  #: the move's place in the parent's legal-move order
        self.is_max = is_max  #: the node's mover maximises its seat's entry
        self.children: list[_Node] | None = None  #: None until expanded
        self.visits = 0
        self.total = 0  #: sum of the simulations' results (its seat's entry) through it
        self.lower, self.upper = lower, upper
        #: at a chance position: the children's cumulative probabilities (else None)
        self.odds: list[float] | None = None
        self.seat = seat  #: the entry of a simulation's result this node sums

    @property
    def mean(self) -> float:
        """Return the mean result through this node, its seat's (0 before any visit)."""
        return self.total / self.visits if self.visits else 0.0

    @property
    def is_proven(self) -> bool:
        """Return whether the node's minimax value is known exactly."""
        return self.lower == self.upper


@attrs.frozen
class _TreeAnswer(RootAnswer):
    """A root answer that keeps the tree, so the principal variation can be read off it."""

    tree: _Node | None = attrs.field(default=None, eq=False, repr=False)


@attrs.frozen(kw_only=True)
class MonteCarlo(Searcher):
    """Monte Carlo tree search (UCT, random playouts, MCTS-Solver proofs).

    ``seed`` also seeds the playouts: the same seed gives the same move and statistics;
    without one, every search draws fresh randomness.
    """

    name: ClassVar[str] = "mcts"
    needs_single_value: ClassVar[bool] = False  # a game with utilities: each player's own
    needs_no_chance: ClassVar[bool] = False
    line_on_demand: ClassVar[bool] = False  # the line is read off the tree
    honours_depth: ClassVar[bool] = False
    answers_within_budget: ClassVar[bool] = True
    scores_utilities: ClassVar[bool] = False  # proven bounds on the scale of wins
    simulations: int | None = simulations_field(
        f"simulation budget (default: {DEFAULT_SIMULATIONS} unless seconds is set)"
    )
    seconds: float | None = seconds_field("time budget in seconds (answers with what it has)")
    max_nodes: int | None = node_budget_field("largest tree, in nodes (answers with what it has)")
    depth: int | None = attrs.field(default=None, init=False)  # (none: playouts end the game)
    exploration: float = option_field(
        1.4, "UCT exploration constant c (results are in [-1, 1])", minimum=0
    )

    def unmet_needs(self, game: Game[Any]) -> list[str]:
        """Return what the game lacks: also, in a game of chance, results +1/0/-1 (the
        mean playout result is then the expected result)."""
        unmet = super().unmet_needs(game)
        if game.rules.chance and game.rules.largest_margin > 1:
            unmet.append("in a game of chance it needs results +1/0/-1")
        return unmet

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        """Run the simulations; ``tracer`` is not used (there is no depth-first tree to draw)."""
        limit = self.simulations
        if limit is None and self.seconds is None:  # a tree size alone does not replace it
            limit = DEFAULT_SIMULATIONS
        simulator = _Simulator(game, self.scoring, self.exploration, random.Random(self.seed))
        root = simulator.new_root()
        # a simulation visits many positions: the budget (tree nodes, time) is read
        # before each one, and the search answers with what it has once it is spent
        budget = context.budget
        limited = budget.is_limited
        done = 0
        simulator.room = budget.max_nodes - budget.spent
        while not _is_settled(root) and (limit is None or done < limit):
            if limited and budget.is_spent(simulator.nodes + 1):
                break
            if not simulator.simulate(root):
                break  # the tree is as large as the node budget allows
            done += 1
        if root.children is None:  # not one simulation fitted: the budget says which ran out
            budget.check(simulator.nodes + len(game.legal_moves()))
        counters = context.counters
        counters.nodes += simulator.nodes
        counters.leaves += done
        counters.playout_plies += simulator.playout_plies
        depth = simulator.deepest - game.ply
        return _answer(game, root, simulator.root_sums, context.move_values, depth)

    def _principal_variation(
        self, game: Game[Any], move: Hashable, answer: RootAnswer, memory: SearchMemory
    ) -> tuple[Hashable, ...]:
        """Return the line from ``move`` on, following the tree's choices while it lasts."""
        assert isinstance(answer, _TreeAnswer) and answer.tree is not None
        node = next(child for child in answer.tree.children or () if child.move == move)
        line = [move]
        if answer.tree.odds is not None:
            return tuple(line)
        by_outcome = answer.utilities is not None
        while node.children and node.odds is None:  # past a chance position: chance's line
            node = _choose(node, by_outcome)
            line.append(node.move)
        return tuple(line)


def _answer(
    game: Game[Any], root: _Node, sums: dict[int, list[int]] | None, move_values: bool, depth: int
) -> _TreeAnswer:
    """Return the root answer read off the finished tree (moves in legal-move order): values
    in the game's scoring, or expected results (chance: exact fractions, every outcome a
    best move at a chance root), or the root mover's utility with every player's in
    ``utilities`` (``sums``: each root move's summed results, the root's under -1)."""
    rules = game.rules
    low, high = rules.result_range
    offset, spread = low + high, high - low or 1
    scale = rules.scale

    def utilities(node: _Node) -> tuple[int | Fraction, ...]:
        if node.is_proven:
            return tuple(result_units(entry + offset, 2) for entry in node.outcome)
        assert sums is not None
        visits, key = node.visits, -1 if node is root else node.index
        return tuple(result_units(total + visits * offset, 2 * visits) for total in sums[key])

    def value(node: _Node) -> int | Fraction:
        if sums is not None:
            return utilities(node)[root.seat]
        if not rules.chance:
            return _estimate(node, scale.heuristic_bound - 1)
        if node.is_proven:
            return Fraction(scale.margin(node.lower) or 0)
        return Fraction(node.total, node.visits) if node.visits else Fraction(0)

    children = sorted(root.children or (), key=lambda child: child.index)
    if root.odds is not None:
        best = children
    elif root.is_proven:
        best = [child for child in children if child.is_proven and child.lower == root.lower]
    else:
        best = [_choose(root, by_outcome=sums is not None)]
    known = root.odds is not None or root.is_proven
    found = value(root) if known else value(best[0])
    if sums is None and not rules.chance and not known:
        found = _clip(found, root)  # type: ignore[arg-type]
    listed = [child for child in children if sums is None or child.visits or child.is_proven]
    return _TreeAnswer(
        value=found,
        best_moves=tuple(child.move for child in best),
        move_values=tuple((child.move, value(child)) for child in listed) if move_values else None,
        is_exact=root.is_proven,
        depth=depth,
        visits=tuple(
            MoveVisits(
                child.move,
                child.visits,
                child.mean if sums is None else child.mean / spread,
                None if not child.is_proven else child.lower if sums is None else int(value(child)),
            )
            for child in children
        ),
        utilities=None if sums is None else utilities(root if known else best[0]),
        tree=root,
        best_moves_complete=root.odds is not None or _is_settled(root),
        move_values_exact=all(child.is_proven for child in children),
    )


def _is_settled(root: _Node) -> bool:
    """Return whether ``root`` is proven and each child is proven or proven worse."""
    if not root.is_proven:
        return False
    value, children = root.lower, root.children or ()
    if root.is_max:
        return all(child.is_proven or child.upper < value for child in children)
    return all(child.is_proven or child.lower > value for child in children)


def _estimate(node: _Node, scale: int) -> int:
    """Return ``node``'s value: exact if proven, else its scaled mean clipped to its bounds."""
    if node.is_proven:
        return node.lower
    return _clip(round(node.mean * scale), node)


def _clip(value: int, bounds: _Node) -> int:
    """Return ``value`` moved inside the proven bounds of ``bounds``."""
    return max(bounds.lower, min(bounds.upper, value))


def _choose(node: _Node, by_outcome: bool = False) -> _Node:
    """Return the child to play from an expanded ``node``.

    In a proven position: a child proven to keep its value (``by_outcome``, in a game with
    utilities: its utilities). Otherwise, when a child secures a proven win, one of those;
    else the most visited of the children not proven worse than another. Ties go to the
    better mean, then to the earlier move.
    """
    children = node.children
    assert children
    if node.is_proven:
        candidates = [
            child
            for child in children
            if child.is_proven
            and (child.outcome == node.outcome if by_outcome else child.lower == node.lower)
        ]
    elif node.is_max:
        if node.lower > 0:
            candidates = [child for child in children if child.lower == node.lower]
        else:
            candidates = [child for child in children if child.upper >= node.lower]
    elif node.upper < 0:
        candidates = [child for child in children if child.upper == node.upper]
    else:
        candidates = [child for child in children if child.lower <= node.upper]
    sign = 1 if node.is_max else -1
    chosen = max(candidates, key=lambda child: (child.visits, sign * child.mean, -child.index))
    if by_outcome and not node.is_proven:  # proven moves are not visited again: their value
        proven = [child for child in children if child.is_proven]
        best = max(proven, key=lambda child: (child.lower, -child.index), default=chosen)
        return best if best.lower >= chosen.mean else chosen
    return chosen


class _Simulator:
    """Runs simulations on one tree, specialised at construction to the game's results
    (see the module): the first player's sign, or every player's utility.

    Hot loop (every method but :meth:`new_root`): bound methods held as attributes,
    one list of moves per playout (to take them back), children allocated once per expansion.
    """

    def __init__(
        self, game: Game[Any], scoring: Scoring, exploration: float, rng: random.Random
    ) -> None:
        self.advance, self.retract = line_moves(game)  # (a repeated position: a draw)
        self.legal_moves, self.to_move, self.game = game.legal_moves, game.to_move, game
        self.chance_outcomes = capabilities.outcomes_of(game)
        self.has_chance = game.rules.chance
        self.rng = rng
        self.nodes = 0  #: tree nodes created, the root included
        self.room = INFINITY  #: the most tree nodes allowed (the node budget)
        self.playout_plies = 0
        self.deepest = game.ply  #: ply of the deepest tree node
        #: games with utilities: each root move's summed results, every player's entry
        self.root_sums: dict[int, list[int]] | None = None
        self.tighten: Callable[[_Node], bool]
        if game.rules.utilities:
            low, high = game.rules.result_range
            self.offset, spread = low + high, high - low or 1
            self.all_max = True  # every player maximises its own entry
            self.win, self.distance = spread, 0  # the bounds of an entry
            self.exploration = exploration * spread  # the entries span 2 * spread
            self.tighten = functools.partial(_settle_utilities, top=spread)
            self.root_sums = {}
        else:
            self.all_max = False
            self.distance = 1 if scoring is Scoring.DISTANCE else 0
            #: the best value a finished game can have, before the distance is taken off
            self.win = game.rules.scale.largest
            self.proven = functools.partial(game.rules.scale.proven, scoring=scoring)
            self.exploration = exploration
            self.tighten = _tighten

    def new_root(self) -> _Node:
        """Return the unexpanded root node of the game's current (unfinished) position."""
        self.nodes += 1
        reach = self.win - self.distance * (self.game.ply + 1)
        mover = self.to_move()
        seat = mover if self.all_max and mover != CHANCE else 0  # (utilities: the root's
        # bounds are its mover's, as its children's are)
        root = _Node(None, 0, self.all_max or mover == Player.FIRST, -reach, reach, seat)
        root.odds = self._odds()
        return root

    def _odds(self) -> list[float] | None:
        """Return the cumulative probabilities of the outcomes in legal-move order at a
        chance position, else ``None``."""
        if not self.has_chance or self.to_move() != CHANCE:
            return None
        return list(
            itertools.accumulate(float(probability) for _, probability in self.chance_outcomes())
        )

    def _returns(self, final: int | tuple[int, ...]) -> Returns:
        """Return the result vector of the finished current position (``final``: its result)."""
        if self.root_sums is None:
            return ((final > 0) - (final < 0),)  # type: ignore[operator]
        return tuple(2 * utility - self.offset for utility in final_utilities(self.game) or ())

    def simulate(self, root: _Node) -> bool:
        """Run one simulation from ``root`` (select, expand, play out, back up) and return
        True; return False, running none, when the root's children would not fit :attr:`room`.

        Selection ends at the first child never visited before. A node is expanded the
        second time a simulation reaches it (played out again if its children would not
        fit); a finished position is proven on its first visit, when it would be played out.
        """
        advance = self.advance
        node = root
        path = [root]
        final = None  # the result of the last position reached
        if root.is_proven:  # only the root's other best moves are left to prove
            node = self._select(root, slack=1)
            final = advance(node.move)
            path.append(node)
        while node.visits or node is root:
            if node.children is None and not self._expand(node):
                if node is root:
                    return False
                break  # the tree is full: the node is played out once more
            node = self._select(node)
            final = advance(node.move)
            path.append(node)
            if node.visits and node.is_proven:  # drawn by chance, and already proven
                break
        if node.visits and node.is_proven:  # its proven result is this simulation's
            if self.root_sums is None:
                result: Returns = ((node.lower > 0) - (node.lower < 0),)
            else:
                result = node.outcome
        else:
            node.is_max = self.all_max or self.to_move() == Player.FIRST
            if self.has_chance:
                node.odds = self._odds()
            if final is None:  # unfinished: the game ends one ply later at the soonest
                reach = self.win - self.distance * (self.game.ply + 1)
                node.lower, node.upper = -reach, reach
                result = self._playout()
            else:  # finished: proven
                result = self._returns(final)
                if self.root_sums is None:
                    node.lower = node.upper = self.proven(final, self.game.ply)
                else:
                    node.outcome, node.lower = result, result[node.seat]
                    node.upper = node.lower
        ply = self.game.ply
        if ply > self.deepest:
            self.deepest = ply
        for member in path:
            member.visits += 1
            member.total += result[member.seat]
        sums = self.root_sums
        if sums is not None:  # each root move's (and the root's, -1) every entry
            for key in (-1, path[1].index):
                tally = sums.setdefault(key, [0] * len(result))
                for player, entry in enumerate(result):
                    tally[player] += entry
        tighten = self.tighten
        for index in range(len(path) - 2, -1, -1):
            if not tighten(path[index]):
                break
        retract = self.retract
        for index in range(len(path) - 1, 0, -1):
            retract(path[index].move)
        return True

    def _select(self, node: _Node, slack: int = 0) -> _Node:
        """Return the child with the best UCT score, an unvisited one first.

        Proven children and those that cannot change ``node``'s value (their bound
        is no better than what ``node`` already has) are skipped; with ``slack=1``
        the children that could equal it are kept. At a chance position: an outcome
        drawn with its probability.
        """
        if node.odds is not None:
            drawn: _Node = _draw(node.children or (), node.odds, self.rng.random())
            return drawn
        parent_visits = node.visits
        explore = self.exploration * math.sqrt(math.log(parent_visits)) if parent_visits else 0.0
        sqrt = math.sqrt
        best = None
        best_score = -math.inf
        if node.is_max:
            floor = node.lower - slack
            for child in node.children:  # type: ignore[union-attr]
                if child.upper <= floor or child.lower == child.upper:
                    continue
                visits = child.visits
                if not visits:
                    return child
                score = child.total / visits + explore / sqrt(visits)
                if score > best_score:
                    best_score, best = score, child
        else:
            ceiling = node.upper + slack
            for child in node.children:  # type: ignore[union-attr]
                if child.lower >= ceiling or child.lower == child.upper:
                    continue
                visits = child.visits
                if not visits:
                    return child
                score = -child.total / visits + explore / sqrt(visits)
                if score > best_score:
                    best_score, best = score, child
        assert best is not None  # an unproven node has a child that can change its value
        return best

    def _expand(self, node: _Node) -> bool:
        """Give ``node`` (the game's current position) its children, in random order, and
        return True; return False, giving none, when they would not fit :attr:`room`.

        The children start with the widest bounds a position one ply deeper can have;
        whether one is finished is seen when it is first visited, which narrows them
        (``is_max`` is set then too). Their seat: 0, or (utilities) the mover's here.
        """
        moves = self.legal_moves()
        if self.nodes + len(moves) > self.room:
            return False
        reach = self.win - self.distance * (self.game.ply + 1)
        is_max = self.all_max or not node.is_max
        seat = 0 if self.root_sums is None or node.odds is not None else self.to_move()
        children = [
            _Node(move, index, is_max, -reach, reach, seat) for index, move in enumerate(moves)
        ]
        if node.odds is None:  # outcomes keep the order of their probabilities
            self.rng.shuffle(children)
        node.children = children
        self.nodes += len(children)
        return True

    def _playout(self) -> Returns:
        """Play random moves from an unfinished position to the end, take them back,
        and return the result vector."""
        advance, legal_moves = self.advance, self.legal_moves
        random = self.rng.random
        played: list[Hashable] = []
        play = played.append
        final = None
        if self.has_chance:  # chance positions draw by probability (a slower loop)
            to_move, chance_outcomes = self.to_move, self.chance_outcomes
            while final is None:
                if to_move() == CHANCE:
                    outcomes = chance_outcomes()
                    odds = list(
                        itertools.accumulate(float(probability) for _, probability in outcomes)
                    )
                    move = _draw([move for move, _ in outcomes], odds, random())
                else:
                    moves = legal_moves()
                    move = moves[int(random() * len(moves))]
                play(move)
                final = advance(move)
        while final is None:
            moves = legal_moves()
            move = moves[int(random() * len(moves))]
            play(move)
            final = advance(move)
        returns = self._returns(final)
        retract = self.retract
        for move in reversed(played):
            retract(move)
        self.playout_plies += len(played)
        return returns


def _draw(items: Sequence[Any], odds: Sequence[float], point: float) -> Any:
    """Return the item whose share of the cumulative probabilities ``odds`` holds
    ``point`` (a uniform draw in [0, 1))."""
    return items[min(bisect.bisect_right(odds, point * odds[-1]), len(items) - 1)]


def _tighten(node: _Node) -> bool:
    """Recompute an expanded ``node``'s bounds from its children; return whether they changed
    (a chance position's never change: it is never proven)."""
    children = node.children
    assert children is not None
    if node.odds is not None:
        return False
    if node.is_max:
        lower = max(child.lower for child in children)
        upper = max(child.upper for child in children)
    else:
        lower = min(child.lower for child in children)
        upper = min(child.upper for child in children)
    if lower == node.lower and upper == node.upper:
        return False
    node.lower, node.upper = lower, upper
    return True


def _settle_utilities(node: _Node, top: int) -> bool:
    """Prove an expanded ``node`` of a game with utilities if its children allow (see the
    module; ``top``: the highest entry); return whether it was proven now."""
    if node.odds is not None or node.lower == node.upper:
        return False
    best = None
    for child in sorted(node.children or (), key=lambda child: child.index):
        if child.lower != child.upper:  # unproven: it could still be the mover's choice
            if best is None or best.lower < top:
                return False
            break
        if best is None or child.lower > best.lower:
            best = child
    assert best is not None
    node.outcome = best.outcome
    node.lower = node.upper = best.outcome[node.seat]
    return True
