"""Proof-number search: ``pns`` (Allis, 1994) and ``dfpn`` (Nagai, 2002).

A proof-number search answers one yes/no question about a position: can the player
to move (the *attacker*) force a value of at least ``target``, seen from that
player's side (the framework's values: with plain scoring a final result, with
distance scoring also how soon the game ends)? Every position in its tree carries
a **proof number** (how many leaves at least must still be proven for the answer
to be yes) and a **disproof number** (how many for no). At a position where the
attacker moves (an OR node) the proof number is the smallest of the children's and
the disproof number their sum; where the defender moves (an AND node) it is the
other way round. The search always expands a *most-proving* position, the one that
lowers both numbers of the root.

The readable twins are ``gamesearch.search.reference.pns`` and
``gamesearch.search.reference.dfpn`` (the same answer to every proof question);
differences: one position evaluation shared by both drivers, a table keyed by the
position key instead of a tree of nodes, the numbers initialised from the game's threat
hints where it offers them, a budget, and exact values by binary search over targets.

Asked twice ("a win?", then "a draw at least?") the answers give win, draw or loss;
asked by binary search over the values still possible they give the exact value,
margin (Othello's disc difference, Kalah's seeds) and distance included, the value
the ``solver`` finds. The searchers below do just that.

Two drivers share the position evaluation (:class:`ProofQuestion`):

- :func:`best_first_proof` keeps the explicit tree of Allis' PN-search in a table
  keyed by the position key (a tree of transpositions: a DAG) and walks from the
  root to a most-proving position, expands it and updates the numbers along the
  path it came down;
- :func:`depth_first_proof` is Nagai's df-pn: recursive multiple iterative
  deepening with thresholds, numbers kept only in a transposition table, and the
  1+epsilon trick of Pawlewicz and Lew (2007): the best child may work until its
  number exceeds the second best's times ``1 + epsilon``, not merely by one, which
  saves many re-expansions.

New positions start from the game's **threat hints** where it offers them
(:class:`~gamesearch.capabilities.ThreatHints`): a position whose mover can win at
once, or has no move that does not hand the opponent an immediate win, is settled
without expanding it, and the safe moves alone are searched. Otherwise numbers start
from mobility: 1 to prove an OR node and its number of moves to disprove it (an AND
node: the reverse).

The readable twins are :mod:`gamesearch.search.reference.pns` and
:mod:`gamesearch.search.reference.dfpn`. They differ from these cores in that they
copy nothing but also use no table (the twin of pns builds a plain tree of node
objects; the twin of dfpn keeps its numbers in a dict without a size limit), start
every leaf at 1/1, ignore threat hints, ask about final results only (plain
scoring) and count no nodes. ``tests/test_proof_reference.py`` ties each twin to its core.

In a game with repetition draws a position repeated on the line is a draw, and the
table is keyed by the line as well as the position (see :func:`line_moves`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from typing import Any, ClassVar

import attrs

from gamesearch import capabilities
from gamesearch.errors import BudgetExceededError
from gamesearch.game import Game, restore
from gamesearch.rules import Player, Scoring
from gamesearch.search.alphabeta import search_root
from gamesearch.search.base import RootAnswer, SearchContext, Searcher, depth_field
from gamesearch.search.negamax import _candidate_values, is_threat_aware
from gamesearch.search.repetition import LineWatch, watch_line

#: an infinite proof or disproof number (the question is settled the other way)
PROOF_INFINITY = 1 << 62

#: the three answers of a proof question
PROVEN, DISPROVEN, UNKNOWN = "proven", "disproven", "unknown"

#: a table entry: proof number, disproof number, and (pns only) the children's keys
Entry = list[Any]


#: df-pn's visit of one position (key, proof and disproof thresholds), given itself to recurse with
Visit = Callable[[Hashable, int, int, "Visit"], None]


@attrs.define
class ProofQuestion:
    """One question about a position: can ``attacker`` force a value of at least
    ``target``, from its own point of view? Holds the table of the answers so far.

    Values are the framework's (:class:`~gamesearch.rules.ValueScale`) with
    ``scoring``: with plain scoring a value stands for a final result alone (``target``
    1 asks for a win, 0 for at least a draw, in a game of +1/0/-1 results); with
    distance scoring it also says at which ply the game ends. ``threats`` says
    whether to start new positions from the game's threat hints.
    """

    game: Game[Any]
    attacker: int
    target: int
    context: SearchContext
    threats: bool = True
    table: dict[Hashable, Entry] = attrs.field(factory=dict)
    scoring: Scoring = Scoring.PLAIN
    #: the line of a game with repetition draws (see :func:`line_moves`), else ``None``
    watch: LineWatch | None = None
    _threat_aware: bool = attrs.field(init=False, default=False)
    _result: Callable[[], int | None] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self._threat_aware = self.threats and is_threat_aware(self.game)
        self._result = self.game.result if self.watch is None else self.watch.result

    def settled(self, result: int, ply: int) -> tuple[int, int]:
        """Return the numbers of a game that ends at ``ply`` with ``result`` (first
        player's view): ``(0, inf)`` when it answers yes, ``(inf, 0)`` when no."""
        value = self.game.rules.scale.proven(result, ply, self.scoring)
        mine = value if self.attacker == Player.FIRST else -value
        return (0, PROOF_INFINITY) if mine >= self.target else (PROOF_INFINITY, 0)

    def evaluate(self) -> tuple[int, int, Sequence[Hashable]]:
        """Return ``(proof, disproof, moves)`` of the current position, not yet expanded.

        ``moves`` are the ones worth searching (empty once the numbers settle it).
        """
        game = self.game
        result = self._result()  # (a draw for a position repeated on the line)
        if result is not None:
            self.context.counters.leaves += 1
            return (*self.settled(result, game.ply), ())
        mover = game.to_move()
        sign = 1 if mover == Player.FIRST else -1
        if self._threat_aware:  # results are +1/0/-1: the hints settle a position
            if capabilities.winning_moves(game)():  # a win on the next ply
                self.context.counters.leaves += 1
                return (*self.settled(sign, game.ply + 1), ())
            moves: Sequence[Hashable] = capabilities.non_losing_moves(game)() or ()
            if not moves:  # every move lets the opponent win at once: a loss two plies on
                self.context.counters.leaves += 1
                return (*self.settled(-sign, game.ply + 2), ())
        else:
            moves = capabilities.move_order(game)()
        if mover == self.attacker:
            return 1, len(moves), moves
        return len(moves), 1, moves

    def is_or_node(self) -> bool:
        """Return whether the attacker moves in the current position."""
        return self.game.to_move() == self.attacker


def line_moves(
    game: Game[Any], watch: LineWatch | None
) -> tuple[Callable[[Any], Any], Callable[[Any], None], Callable[[], Hashable]]:
    """Return how a proof search plays a move, takes it back and names a position in its
    table: the game's own ``push``, ``retract`` and ``key``, or in a game with
    repetition draws ``watch``'s, whose key holds the line (see below).

    A proof search's table is its tree: a position's numbers cannot be left out of it
    as an alpha-beta table leaves out a value that rests on a repetition. So in a game
    with repetition draws its entries are keyed by the position and the line above it
    (:attr:`LineWatch.path_key`): positions reached by different lines never share
    numbers, and the graph-history interaction cannot arise (Kishimoto & Müller,
    2004, study the finer remedy that shares them where the history does not matter).
    """
    if watch is None:
        return game.push, capabilities.retractor(game), game.key
    return watch.advance, watch.retract, watch.path_key


def _combine(is_or: bool, children: Sequence[Entry]) -> tuple[int, int]:
    """Return a position's numbers from its children's (OR: min proof, summed disproof)."""
    if is_or:
        return (
            min(child[0] for child in children),
            min(PROOF_INFINITY, sum(child[1] for child in children)),
        )
    return (
        min(PROOF_INFINITY, sum(child[0] for child in children)),
        min(child[1] for child in children),
    )


def best_first_proof(question: ProofQuestion) -> str:
    """Answer ``question`` for the current position by Allis' best-first PN-search.

    Returns :data:`PROVEN` or :data:`DISPROVEN`; the position is left as it was.

    :raises BudgetExceededError: when the search's budget runs out first (the position
        is then left with moves played: :func:`answer` puts it back).
    """
    # Hot loop: locals for the game's methods; an entry is [proof, disproof, children]
    # where children is None until expanded, then a list of (move, key).
    game, table, count = question.game, question.table, question.context.count_node
    counters = question.context.counters
    push, retract, key = line_moves(game, question.watch)
    root_key = key()
    root = table.get(root_key)
    if root is None:
        count(game)
        proof, disproof, _ = question.evaluate()
        root = table[root_key] = [proof, disproof, None]
    while root[0] and root[1]:
        path: list[tuple[Entry, Hashable]] = []
        node = root
        # select: down to a most-proving position (or a solved one a stale parent chose)
        while node[2] is not None and node[0] and node[1]:
            is_or = question.is_or_node()
            index = 0 if is_or else 1
            move, child_key = min(node[2], key=lambda pair: table[pair[1]][index])
            path.append((node, move))
            push(move)
            node = table[child_key]
        if node[0] and node[1]:  # expand it
            children = []
            for move in question.evaluate()[2]:
                push(move)
                child_key = key()
                if child_key in table:
                    counters.tt_hits += 1
                else:
                    count(game)
                    proof, disproof, _ = question.evaluate()
                    table[child_key] = [proof, disproof, None]
                retract(move)
                children.append((move, child_key))
            node[2] = children
            node[0], node[1] = _combine(
                question.is_or_node(), [table[child] for _, child in children]
            )
        # update the path back to the root
        while path:
            parent, move = path.pop()
            retract(move)
            parent[0], parent[1] = _combine(
                question.is_or_node(), [table[child] for _, child in parent[2]]
            )
    return PROVEN if root[0] == 0 else DISPROVEN


def depth_first_proof(question: ProofQuestion, epsilon: float = 0.25) -> str:
    """Answer ``question`` for the current position by df-pn with the 1+epsilon trick.

    ``epsilon`` 0 is Nagai's plain threshold (the second best plus one). Returns
    :data:`PROVEN` or :data:`DISPROVEN`; the position is left as it was.

    :raises BudgetExceededError: when the search's budget runs out first (the position
        is then left with moves played: :func:`answer` puts it back).
    """
    # Hot loop: an entry is [proof, disproof]; a position's children's keys are
    # worked out once per visit and their entries read back after each child's search.
    game, table, count = question.game, question.table, question.context.count_node
    counters = question.context.counters
    push, retract, key = line_moves(game, question.watch)
    growth = 1.0 + epsilon

    def widen(second: int) -> int:
        """Return how far the best child may go: past the second best's number."""
        if second >= PROOF_INFINITY:
            return PROOF_INFINITY
        return max(second + 1, math.ceil(second * growth))

    # ``visit`` recurses through its last argument ``again`` (itself), not through a
    # closure cell naming it: no reference cycle, so the search is freed as it returns.
    def visit(position: Hashable, proof_limit: int, disproof_limit: int, again: Visit) -> None:
        entry = table.get(position)
        if entry is None:
            count(game)
            proof, disproof, moves = question.evaluate()
            entry = table[position] = [proof, disproof]
        else:
            moves = question.evaluate()[2] if entry[0] and entry[1] else ()
        if not moves or entry[0] >= proof_limit or entry[1] >= disproof_limit:
            return
        children: list[tuple[Hashable, Hashable, Entry]] = []
        for move in moves:
            push(move)
            child = key()
            child_entry = table.get(child)
            if child_entry is None:
                count(game)
                proof, disproof, _ = question.evaluate()
                child_entry = table[child] = [proof, disproof]
            else:
                counters.tt_hits += 1
            retract(move)
            children.append((move, child, child_entry))
        is_or = question.is_or_node()
        # phi: the number this node's mover lowers (proof at OR, disproof at AND)
        phi_at, delta_at = (0, 1) if is_or else (1, 0)
        phi_limit, delta_limit = (
            (proof_limit, disproof_limit) if is_or else (disproof_limit, proof_limit)
        )
        while True:
            best = second = PROOF_INFINITY
            best_child: tuple[Hashable, Hashable, Entry] | None = None
            delta_sum = 0
            for child in children:
                child_entry = table[child[1]]
                child_phi, child_delta = child_entry[phi_at], child_entry[delta_at]
                delta_sum += child_delta
                if child_phi < best:
                    best, second, best_child = child_phi, best, child
                elif child_phi < second:
                    second = child_phi
            phi, delta = best, min(PROOF_INFINITY, delta_sum)
            entry[phi_at], entry[delta_at] = phi, delta
            if phi >= phi_limit or delta >= delta_limit or best_child is None:
                return
            move, child, child_entry = best_child
            child_phi_limit = min(phi_limit, widen(second))
            child_delta_limit = delta_limit - delta + child_entry[delta_at]
            push(move)
            if is_or:
                again(child, child_phi_limit, child_delta_limit, again)
            else:
                again(child, child_delta_limit, child_phi_limit, again)
            retract(move)

    root_key = key()
    visit(root_key, PROOF_INFINITY, PROOF_INFINITY, visit)
    return PROVEN if table[root_key][0] == 0 else DISPROVEN


def answer(question: ProofQuestion, method: str = "dfpn", epsilon: float = 0.25) -> str:
    """Return :data:`PROVEN`, :data:`DISPROVEN` or :data:`UNKNOWN` (the budget ran out)
    for ``question`` by ``method`` (``"pns"`` or ``"dfpn"``).

    The position is left exactly as it was, also when the budget runs out.
    """
    snapshot = question.game.copy()
    try:
        if method == "pns":
            return best_first_proof(question)
        return depth_first_proof(question, epsilon)
    except BudgetExceededError:
        restore(question.game, snapshot)
        return UNKNOWN


@attrs.frozen(kw_only=True)
class ProofSearcher(Searcher):
    """Base of ``pns`` and ``dfpn``: exact values by a binary search of proof questions.

    Proof questions are about the end of the game: with a ``depth`` the search is the
    framework's depth-limited alpha-beta instead (``evaluate()`` at the horizon), as
    for the exact negamax searchers.
    """

    #: its bounds are on the scale of wins: utility scoring searches plain (see Searcher)
    scores_utilities: ClassVar[bool] = False

    depth: int | None = depth_field(
        "plies before evaluate(); with a horizon the search is plain alpha-beta (default: to the "
        "end)"
    )
    threats: bool = attrs.field(
        default=True,
        metadata={"help": "start positions from the game's threat hints, where it offers them"},
    )

    def _epsilon(self) -> float:
        return 0.0

    def question(
        self,
        game: Game[Any],
        attacker: int,
        target: int,
        context: SearchContext,
        tables: dict[int, dict[Hashable, Entry]],
        watch: LineWatch | None = None,
    ) -> bool:
        """Return whether ``attacker`` can force a value of at least ``target`` (its own
        view, this searcher's scoring) from ``game``, keeping each target's table in
        ``tables`` (``watch``: the line, in a game with repetition draws).

        :raises BudgetExceededError: when the budget runs out (the value is unknown;
            the driver puts the position back).
        """
        table = tables.setdefault(target, {})
        asked = ProofQuestion(
            game, attacker, target, context, self.threats, table, self.scoring, watch
        )
        if self.name == "pns":
            found = best_first_proof(asked)
        else:
            found = depth_first_proof(asked, self._epsilon())
        return found == PROVEN

    def best_value(
        self,
        game: Game[Any],
        attacker: int,
        context: SearchContext,
        tables: dict[int, dict[Hashable, Entry]],
        watch: LineWatch | None = None,
    ) -> int:
        """Return the best value ``attacker`` can force from ``game``, its own view: the
        win question first, then the draw question, then binary search over the values
        still possible.

        :raises BudgetExceededError: when the budget runs out (the value is unknown).
        """
        scale = game.rules.scale
        distance = 1 if self.scoring is Scoring.DISTANCE else 0
        values = _candidate_values(
            scale.max_plies,
            scale.win,
            scale.stride,
            scale.largest_margin,
            distance,
            False,
            # (from one ply back: a finished position's own value is among them)
            max(0, min(game.ply, scale.max_plies) - 1),
        )
        low, high = 0, len(values) - 1  # the value is values[low] once they meet
        zero = len(values) // 2  # (the list is symmetric around the draw)
        test = zero + 1 if low < zero + 1 <= high else (low + high + 1) // 2
        while low < high:
            if self.question(game, attacker, values[test], context, tables, watch):
                low = test
            else:
                high = test - 1
            test = (
                zero
                if (test == zero + 1 and low <= zero <= high and low < zero)
                else (low + high + 1) // 2
            )
        return values[low]

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        if self.depth is not None:  # proof questions need the end of the game
            return search_root(
                game,
                depth=self.depth,
                scoring=self.scoring,
                ordering="game",
                fresh_window=context.move_values,
                all_best=True,
                table=None,
                counters=context.counters,
                tracer=context.tracer,
                move_values=context.move_values,
                budget=context.budget if context.budget.is_limited else None,
            )
        mover = game.to_move()
        tables: dict[int, dict[Hashable, Entry]] = {}
        # (None: the game has no repetition rule; else the root's moves are on the line)
        watch = watch_line(game, capabilities.advancer(game), capabilities.retractor(game))
        play, take_back, _ = line_moves(game, watch)
        best = self.best_value(game, mover, context, tables, watch)
        values: list[tuple[Hashable, int]] = []
        best_moves = []
        # (a budget that runs out leaves moves played: Searcher.search puts the game back)
        for move in capabilities.move_order(game)():
            play(move)
            if context.move_values:
                child = self.best_value(game, mover, context, tables, watch)
                values.append((move, child))
                is_best = child == best
            else:
                is_best = self.question(game, mover, best, context, tables, watch)
            take_back(move)
            if is_best:
                best_moves.append(move)
        sign = 1 if mover == Player.FIRST else -1
        return context.answer(
            game, sign * best, best_moves, [(move, sign * child) for move, child in values]
        )


@attrs.frozen(kw_only=True)
class ProofNumberSearch(ProofSearcher):
    """Proof-number search (Allis): best-first, a table of transpositions, threat hints."""

    name: ClassVar[str] = "pns"


@attrs.frozen(kw_only=True)
class DepthFirstProofNumberSearch(ProofSearcher):
    """df-pn (Nagai): depth-first proof-number search with the 1+epsilon trick and a table."""

    name: ClassVar[str] = "dfpn"

    epsilon: float = attrs.field(
        default=0.25,
        metadata={
            "help": "the 1+epsilon trick: how far past the second best a child may go "
            "(0: plain df-pn)",
            "minimum": 0.0,
        },
    )

    def _epsilon(self) -> float:
        return self.epsilon


PROOF_SEARCHERS = (ProofNumberSearch, DepthFirstProofNumberSearch)
