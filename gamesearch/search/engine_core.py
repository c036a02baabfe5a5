"""The engine's core: the search of one root, with each trick a switch read once.

Twin: :mod:`gamesearch.search.reference.alphabeta`, with the same values and best
moves to the end of the game whatever the switches, and at a depth with every trick
off. The searcher, its options and the tricks it switches on are
:class:`gamesearch.search.engine.Engine`, whose docstring tells the differences from
the twin, the tricks and what stays exact.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol

import attrs

from gamesearch import capabilities
from gamesearch.game import Game
from gamesearch.rules import Player, Scoring
from gamesearch.search.alphabeta_core import EXTENSION_SHARE as EXTENSION_SHARE
from gamesearch.search.alphabeta_core import FULL_DEPTH_MOVES as FULL_DEPTH_MOVES
from gamesearch.search.alphabeta_core import REDUCTION_DEPTH as REDUCTION_DEPTH
from gamesearch.search.base import (
    INFINITY,
    Budget,
    Counters,
    Tracer,
    heuristic,
    leaf_values,
)
from gamesearch.search.repetition import watch_line
from gamesearch.search.specialise import specialise
from gamesearch.search.table import EngineEntry, TranspositionTable, make_room, settle

#: the depth of a table entry that holds true bounds (its subtree met no horizon)
EXACT_DEPTH = INFINITY
#: the depth of a table entry whose value rests on a repetition: it answers no probe
#: (a value of one path, see gamesearch.search.repetition), only its move is tried first
PATH_DEPTH = -1
#: re-searches of one depth with a wider aspiration window before the full window
ASPIRATION_TRIES = 2


def _no_null_move() -> None:
    raise NotImplementedError("this game offers no null move")  # (never called: see tricks)


class EngineSettings(Protocol):
    """What the core reads of its :class:`~gamesearch.search.engine.Engine`."""

    @property
    def scoring(self) -> Scoring:
        """Return how finished games are scored."""

    @property
    def depth(self) -> int | None:
        """Return the plies to search before the horizon (``None``: to the end)."""

    @property
    def null_move(self) -> int:
        """Return the null move's depth reduction (0: off)."""

    @property
    def follow(self) -> str:
        """Return what is tried first: ``line`` (the previous best line at every ply and the
        table's move) or ``root`` (the last best move at the root only)."""

    @property
    def aspiration(self) -> int:
        """Return the aspiration window's width (0: off)."""

    def switches_for(self, game: Game[Any], has_table: bool) -> dict[str, bool]:
        """Return the switches the engine's loops are compiled for on ``game``."""


@attrs.define
class DepthAnswer:
    """What one completed depth found at the root (values for the side to move)."""

    value: int
    best_moves: list[Hashable]
    values: list[tuple[Hashable, int]]
    line: tuple[Hashable, ...]
    is_exact: bool


class EngineCore:
    """The search of one root by one :class:`~gamesearch.search.engine.Engine`: closures
    over the game, its tables and counters, kept across the depths of iterative
    deepening; its user calls ``close()`` when done."""

    def __init__(
        self,
        engine: EngineSettings,
        game: Game[Any],
        tracer: Tracer | None,
        table: TranspositionTable[EngineEntry] | None,
    ) -> None:
        switches = engine.switches_for(game, table is not None)
        loops = _kind(tracer is None, table is None, **switches)
        loops(self, engine, game, tracer, table, **switches)

    def _loops(
        self,
        engine: EngineSettings,
        game: Game[Any],
        tracer: Tracer | None,
        table: TranspositionTable[EngineEntry] | None,
        *,
        keeps_lines: bool,
        use_killers: bool,
        use_history: bool,
        nulls: bool,
        reduces: bool,
        quiesces: bool,
        extends: bool,
        asks_forcing: bool,
        asks_forcing_last: bool,
        has_noisy: bool,
        follows_line: bool,
        arranges: bool,
    ) -> None:
        """Give this core the search of one root of ``game``: the template of the engine's
        loops, compiled by :mod:`gamesearch.search.specialise` once per combination of the
        switches (``switches_for``, each a keyword here), so that a trick that is off costs
        nothing. Twin: :mod:`gamesearch.search.reference.alphabeta`, with the differences
        :class:`~gamesearch.search.engine.Engine` lists.
        """
        # Hot loop: bound methods and settings in locals, counters in closure cells. A
        # trick that is off costs nothing: its tests are folded away in the compiled kind. Moves are
        # played by advance() and taken back by retract(), also when something raises.
        advance, retract, to_move, key, terminal = (
            capabilities.advancer(game),
            capabilities.retractor(game),
            game.to_move,
            game.key,
            game.result,
        )
        watch = watch_line(game, advance, retract)  # (None: the game has no repetition rule)
        if watch is not None:
            advance, retract = watch.advance, watch.retract
        ordered, noisy = capabilities.move_order(game), capabilities.noisy_moves(game)
        forcing_of = capabilities.forcing_test(game)
        make_null, unmake_null = capabilities.null_move(game) or (_no_null_move, _no_null_move)
        evaluate = heuristic(game)
        alternating = game.rules.alternating
        first = Player.FIRST
        win, distance, proven = leaf_values(game, engine.scoring)
        proof = game.rules.scale.heuristic_bound  # |value| >= proof: a finished game's
        root_ply = game.ply
        # Room for every ply of the main search below the root (quiescence keeps no line
        # and no killers): the plies left, or the depth with its extensions, and a null
        # move before every other ply.
        reach = game.rules.max_plies - root_ply
        offsets = 2 * (reach if engine.depth is None else min(reach, engine.depth)) + 4
        null_reduction = engine.null_move if nulls else 0
        entries = None if table is None else table.entries
        probe = None if entries is None else entries.get
        max_entries = 0 if table is None else table.max_entries
        lines: list[tuple[Hashable, ...]] = [()] * (offsets + 1)
        killer_slots: list[list[Hashable]] = [[None, None] for _ in range(offsets + 1)]
        history_scores: dict[Hashable, int] = {}
        history_get = history_scores.get
        nodes = roots = 0  # the root is counted once per pass over its moves
        expanded = cutoffs = hits = horizon = 0
        deepest = 0
        # the count of positions past which the budget is checked (never, until one is set)
        check: Callable[[int], int] = Budget().check
        next_look = INFINITY
        extension_reach = 0
        previous_line: tuple[Hashable, ...] = ()

        def set_budget(budget: Budget) -> None:
            """Count the positions entered from now on against ``budget``."""
            nonlocal check, next_look
            check = budget.check
            next_look = budget.next_check(nodes)

        def history_rank(move: Hashable) -> int:
            return -history_get(move, 0)

        def arrange(
            moves: Sequence[Hashable], offset: int, follow: bool, hint: Hashable
        ) -> Sequence[Hashable]:
            """Return ``moves`` in the order the tricks ask: the previous best line's move,
            the table's move (with ``follow=line``), the killers, then the rest (by history
            score when asked)."""
            front: list[Hashable] = []
            if follow and offset < len(previous_line) and previous_line[offset] in moves:
                front.append(previous_line[offset])
            if hint is not None and follows_line and hint not in front and hint in moves:
                front.append(hint)
            if use_killers:
                for killer in killer_slots[offset]:
                    if killer is not None and killer not in front and killer in moves:
                        front.append(killer)
            rest = sorted(moves, key=history_rank) if use_history else moves
            if not front:
                return rest
            return front + [move for move in rest if move not in front]

        def remember_cutoff(move: Hashable, offset: int, depth_left: float, ply: int) -> None:
            """Record ``move``, which cut off at ``offset``, as a killer and in the history
            (captures and other noisy moves are no killers)."""
            if use_killers and (not has_noisy or move not in noisy()):
                slot = killer_slots[offset]
                if slot[0] != move:
                    slot[1], slot[0] = slot[0], move
            if use_history:
                weight = int(min(depth_left, game.rules.max_plies - ply + 1))
                history_scores[move] = history_get(move, 0) + weight * weight

        def finished(result: int, ply: int) -> int:
            """Return the first player's value of a game finished at ``ply`` with ``result``."""
            return result * (win - distance * ply) if proven is None else proven(result, ply)

        def quiet(ply: int, offset: int, alpha: int, beta: int, evading: bool = False) -> int:
            """Return the value, for the side to move, of the unfinished position at the
            horizon: ``evaluate()``, or with quiescence the best of standing pat and the
            noisy moves, searched the same way. ``evading``: a forcing move led here (a
            check), so the side to move may not stand pat and tries every legal move."""
            nonlocal expanded, cutoffs, horizon
            mover = to_move()
            sign = 1 if mover == first else -1
            if evading and quiesces:
                best, moves = -INFINITY, ordered()
            else:
                horizon += 1
                best = sign * evaluate()
                if not quiesces or best >= beta:
                    return best
                moves = noisy()
                if not moves:
                    return best
                if alpha < best:
                    alpha = best
            expanded += 1
            for move in moves:  # past the horizon: visit() hands every child back to quiet()
                value = visit(move, ply, offset, 0, alpha, beta, False, sign, mover, False)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            cutoffs += 1
                            break
            return best

        def visit(
            move: Hashable,
            ply: int,
            offset: int,
            depth_left: float,
            alpha: int,
            beta: int,
            follow: bool,
            sign: int,
            mover: int,
            reducible: bool,
        ) -> int:
            """Play ``move`` from the position at ``ply`` (``depth_left`` plies above the
            horizon, 0 past it, the side to move ``mover``, whose sign is ``sign``), take it
            back and return its value for that side, searched in the window ``(alpha, beta)``.

            ``follow`` says the position lies on the previous depth's best line;
            ``reducible`` that the move may be reduced if it is not forcing. The line
            below the move is left in ``lines[offset + 1]``.
            """
            nonlocal nodes, deepest, horizon, next_look
            forcing = (
                forcing_of(move)
                if asks_forcing or (asks_forcing_last and depth_left == 1)
                else False
            )
            if nodes >= next_look:  # (before the move: a position past the budget is not entered)
                next_look = check(nodes + 1)
            result = advance(move)
            nodes += 1
            child_ply, child = ply + 1, offset + 1
            if child > deepest:
                deepest = child
            try:
                if tracer is not None:
                    if sign > 0:
                        tracer.enter(move, child_ply, alpha, beta)
                    else:
                        tracer.enter(move, child_ply, -beta, -alpha)
                if result is not None:
                    value = sign * finished(result, child_ply)
                    if keeps_lines and depth_left:
                        lines[child] = ()
                else:
                    next_depth = depth_left - 1
                    if forcing and extends and offset + depth_left < extension_reach:
                        next_depth = depth_left
                    flips = alternating or to_move() != mover
                    if next_depth < 1:
                        if keeps_lines and depth_left:
                            lines[child] = ()
                        evading = (
                            forcing and depth_left >= 1
                        )  # a reply to a forcing move at the horizon
                        if flips:
                            value = -quiet(child_ply, child, -beta, -alpha, evading)
                        else:
                            value = quiet(child_ply, child, alpha, beta, evading)
                    else:
                        on_line = (
                            follow and offset < len(previous_line) and previous_line[offset] == move
                        )
                        value = alpha + 1
                        if reducible and not forcing:  # a late move: shallower, null window
                            if flips:
                                value = -node(
                                    child_ply,
                                    child,
                                    next_depth - 1,
                                    -alpha - 1,
                                    -alpha,
                                    on_line,
                                    forcing,
                                    True,
                                )
                            else:
                                value = node(
                                    child_ply,
                                    child,
                                    next_depth - 1,
                                    alpha,
                                    alpha + 1,
                                    on_line,
                                    forcing,
                                    True,
                                )
                        if value > alpha:  # not reduced, or it beat alpha: the full search
                            if flips:
                                value = -node(
                                    child_ply,
                                    child,
                                    next_depth,
                                    -beta,
                                    -alpha,
                                    on_line,
                                    forcing,
                                    True,
                                )
                            else:
                                value = node(
                                    child_ply,
                                    child,
                                    next_depth,
                                    alpha,
                                    beta,
                                    on_line,
                                    forcing,
                                    True,
                                )
                if tracer is not None:
                    tracer.leave(sign * value)
            except BaseException:
                retract(move)
                raise
            retract(move)
            return value

        def node(
            ply: int,
            offset: int,
            depth_left: float,
            alpha: int,
            beta: int,
            follow: bool,
            checked: bool,
            may_pass: bool,
        ) -> int:
            """Return the fail-soft value, for the side to move, of the unfinished position
            at ``ply`` (``offset`` plies below the root, ``depth_left`` >= 1 above the
            horizon) in the window ``(alpha, beta)``.

            ``checked``: the move that led here was forcing (no null move then);
            ``may_pass``: a null move is allowed (not right after one).
            """
            nonlocal nodes, expanded, cutoffs, hits, horizon
            if keeps_lines:
                lines[offset] = ()
            hint = None
            if probe is not None:
                position = key()
                entry = probe(position)
                if entry is not None:
                    searched, hint = entry[0], entry[3]
                    if searched == EXACT_DEPTH or searched == depth_left:
                        if searched != EXACT_DEPTH:
                            horizon += 1  # the entry rests on a horizon: so does what it decides
                        settled, alpha, beta = settle(entry, alpha, beta)
                        if settled is not None:
                            hits += 1
                            return settled
                window_alpha, window_beta = alpha, beta
                horizon_before = horizon
                draws_before = 0 if watch is None else watch.draws
            mover = to_move()
            sign = 1 if mover == first else -1
            if (
                nulls
                and may_pass
                and not checked
                and depth_left >= 2
                and -proof < beta < proof
                and sign * evaluate() >= beta
            ):
                # Pass: if the opponent, moving twice, still cannot bring the value
                # under beta, a real move would not either (unless in zugzwang).
                make_null()
                nodes += 1
                try:
                    reduced = depth_left - 1 - null_reduction
                    if terminal() is not None:  # a game may rule a pass lost (in check): no cut-off
                        passed = -INFINITY
                    elif reduced < 1:
                        passed = -quiet(ply, offset + 1, -beta, -beta + 1)
                    else:
                        passed = -node(
                            ply, offset + 1, reduced, -beta, -beta + 1, False, False, False
                        )
                finally:
                    unmake_null()
                if passed >= beta:
                    horizon += 1  # a guess, not a proof: the answer is heuristic
                    cutoffs += 1
                    return beta if passed >= proof else passed
            expanded += 1
            moves = ordered()
            if arranges:
                moves = arrange(moves, offset, follow, hint)
            quiet_late: set[Hashable] | None = None
            best, best_move = -INFINITY, None
            late = reduces and depth_left >= REDUCTION_DEPTH and not checked
            for index, move in enumerate(moves):
                reducible = False
                if late and index >= FULL_DEPTH_MOVES:
                    if quiet_late is None:
                        quiet_late = set(moves[FULL_DEPTH_MOVES:])
                        if has_noisy:
                            quiet_late.difference_update(noisy())
                        for killer in killer_slots[offset] if use_killers else ():
                            quiet_late.discard(killer)
                    reducible = move in quiet_late
                value = visit(
                    move, ply, offset, depth_left, alpha, beta, follow, sign, mover, reducible
                )
                if value > best:
                    best, best_move = value, move
                    if value > alpha:
                        alpha = value
                        if keeps_lines:
                            lines[offset] = (move, *lines[offset + 1])
                        if alpha >= beta:
                            cutoffs += 1
                            if use_killers or use_history:
                                remember_cutoff(move, offset, depth_left, ply)
                            if tracer is not None:
                                tracer.prune(tuple(moves[index + 1 :]))
                            break
            if entries is not None:
                if entry is None and len(entries) >= max_entries:
                    make_room(entries)
                searched = EXACT_DEPTH if horizon == horizon_before else depth_left
                if watch is not None and watch.draws != draws_before:
                    searched = PATH_DEPTH
                if best <= window_alpha:
                    entries[position] = (searched, -INFINITY, best, hint)
                elif best >= window_beta:
                    entries[position] = (searched, best, INFINITY, best_move)
                else:
                    entries[position] = (searched, best, best, best_move)
            return best

        def search_depth(
            depth: int | None, move_values: bool, last: DepthAnswer | None = None
        ) -> DepthAnswer:
            """Search the root to ``depth`` (``None``: to the end) and return what it found;
            with ``last``, the previous depth's answer, its line goes first and, with
            aspiration, its value centres the window."""
            nonlocal previous_line, extension_reach
            depth_left = math.inf if depth is None else depth
            # the plies played plus the plies left grow by one with each extension
            extension_reach = 0 if depth is None else depth + max(1, depth // EXTENSION_SHARE)
            previous_line = () if last is None else last.line if follows_line else last.line[:1]
            window = engine.aspiration
            if window and last is not None and not move_values and abs(last.value) < proof:
                alpha, beta = last.value - window, last.value + window
            else:
                alpha, beta = -INFINITY, INFINITY
            tries = 0
            while True:
                found = search_root(depth_left, alpha, beta, move_values)
                if alpha < found.value < beta:
                    return found
                tries += 1  # the value fell outside the window: open the side it fell on
                wider = window << (2 * tries) if tries < ASPIRATION_TRIES else INFINITY
                if found.value <= alpha:
                    alpha = max(-INFINITY, found.value - wider)
                else:
                    beta = min(INFINITY, found.value + wider)

        def search_root(depth_left: float, alpha: int, beta: int, move_values: bool) -> DepthAnswer:
            """Search the root's moves in the window ``(alpha, beta)``: return the best value
            and every move of that value (right when the value is inside the window)."""
            nonlocal horizon, nodes, roots, next_look
            horizon = 0
            if nodes >= next_look:  # (checked before the count: a refused root is not entered)
                next_look = check(nodes + 1)
            nodes += 1
            roots += 1
            mover = to_move()
            sign = 1 if mover == first else -1
            hint = None
            if probe is not None:
                entry = probe(key())
                hint = None if entry is None else entry[3]
            moves = tuple(ordered())
            if arranges:
                moves = tuple(arrange(moves, 0, True, hint))
            if tracer is not None:
                tracer.enter(None, root_ply, -INFINITY, INFINITY)
            best, best_moves, values = -INFINITY, [], []
            line: tuple[Hashable, ...] = ()
            for move in moves:
                if move_values:  # every root move gets its exact value
                    low, high = -INFINITY, INFINITY
                else:  # one point below the best: a move as good shows its exact value
                    low, high = max(alpha, best - 1), beta
                value = visit(move, root_ply, 0, depth_left, low, high, True, sign, mover, False)
                values.append((move, value))
                if value > best:
                    best, best_moves = value, [move]
                    if keeps_lines:
                        line = (move, *lines[1])
                elif value == best:
                    best_moves.append(move)
                if value >= beta and not move_values:
                    break  # fails high: the caller searches again with a wider window
            if tracer is not None:
                tracer.leave(sign * best)
            return DepthAnswer(best, best_moves, values, line, is_exact=horizon == 0)

        def flush(into: Counters) -> None:
            into.nodes += nodes
            into.leaves += nodes - roots - expanded - hits
            into.cutoffs += cutoffs
            into.tt_hits += hits
            into.depth = max(into.depth, deepest)

        def node_count() -> int:
            return nodes

        def reached() -> int:
            return deepest

        def close() -> None:
            """Empty the cells through which ``visit`` and ``node`` call each other and
            themselves: without those cycles the search is freed at once, not left to
            the garbage collector."""
            nonlocal visit, node
            del visit, node

        self.search_depth = search_depth
        self.set_budget = set_budget
        self.flush = flush
        self.close = close
        self.node_count = node_count
        self.reached = reached

    search_depth: Callable[..., DepthAnswer]
    set_budget: Callable[[Budget], None]
    flush: Callable[[Counters], None]
    #: free the search once it is done (it cannot search again)
    close: Callable[[], None]
    #: the positions entered so far
    node_count: Callable[[], int]
    #: the most plies below the root that the search has gone so far
    reached: Callable[[], int]


@functools.cache
def _kind(no_tracer: bool, no_table: bool, **switches: bool) -> Callable[..., None]:
    """Return :meth:`EngineCore._loops` compiled for a search with a tracer or not, a table or
    not and ``switches`` (once per combination: cached)."""
    nones = {"tracer": no_tracer, "table": no_table, "entries": no_table, "probe": no_table}
    return specialise(EngineCore._loops, nones, flags=switches)
