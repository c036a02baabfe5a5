"""Exact negamax: the search core the solver-grade searchers share, and ``pvs``.

Twin: :mod:`gamesearch.search.reference.negamax` (principal variation search), with
the same values and best moves (``all_best=False``: the first only, and the result
says its set is not complete). Differences: searches to the end only (a depth hands
the search to :mod:`~gamesearch.search.alphabeta`); a table of bounds and a best move
kept across searches; distance-aware bounds; the game's threat hints and the parity
bounds they allow; the root's best moves found by a null window each.

Negamax scores every position from the side to move's point of view, so one
recursive function serves both players (Knuth & Moore, 1975). The core adds what
makes exact solving of a game like Connect Four feasible, none of it tied to a game:

- a transposition table of **bounds and a best move** (:mod:`gamesearch.search.table`),
  kept across the searches of one searcher: entries are exact (no depth limit), so
  a kept table only saves work and never changes a result;
- **principal variation search**: the first move gets the full window, the others a
  null window and a re-search only when they beat it (Marsland, 1983);
- **distance-aware bounds** (mate-distance pruning): a position ``ply`` plies from
  the start cannot be worth more than a win on the next move, so the window is
  narrowed before any move is tried;
- what the game knows, through the optional protocol methods of :class:`Game`:
  :meth:`Game.winning_moves` settles a position at once, and
  :meth:`Game.non_losing_moves` drops the moves that hand the opponent an immediate
  win and puts the most promising first. With them the bounds tighten further by
  parity: a player who cannot win now wins two plies later at the earliest and,
  having played safely, loses four plies later at the earliest (Pons' solver).

The core searches to the end of every line. With a ``depth`` the searchers hand the
search to the framework's depth-limited alpha-beta (``evaluate()`` at the horizon):
threat pruning and the parity bounds hold only for exact values. In a game with
repetition draws a position repeated on the line is a draw, and the table stores no
value that rests on one (:mod:`gamesearch.search.repetition`).
"""

from __future__ import annotations

import abc
import functools
from collections.abc import Callable, Hashable, Sequence
from typing import Any, ClassVar, cast, overload

import attrs

from gamesearch import capabilities
from gamesearch.game import Game, offers
from gamesearch.rules import Player, Scoring
from gamesearch.search.alphabeta import search_root
from gamesearch.search.base import (
    INFINITY,
    NEGATIVE_INFINITY,
    Budget,
    Counters,
    RootAnswer,
    SearchContext,
    Searcher,
    Tracer,
    depth_field,
    leaf_values,
)
from gamesearch.search.repetition import entering_moves, watch_line
from gamesearch.search.table import SearchMemory, TranspositionTable, make_room, table_entries_field


def is_threat_aware(game: Game[Any]) -> bool:
    """Return whether the core may use ``game``'s threat hints and parity bounds.

    That needs a game that offers :meth:`Game.non_losing_moves` and whose rules
    allow them: two players whose turns alternate, results +1/0/-1.
    """
    rules = game.rules
    return (
        offers(game, "non_losing_moves")
        and rules.alternating
        and rules.players == 2
        and rules.largest_margin <= 1
    )


class ExactCore:
    """The negamax search of one position and its counters (built by :func:`make_exact_core`).

    ``play(move)`` and ``take_back(move)`` are how its drivers play a root move and take
    it back (in a game with repetition draws, on the line the core watches).
    ``search(ply, alpha, beta)`` searches the current position (``ply`` plies from
    the start) with the open window ``(alpha, beta)`` and returns a fail-soft value
    for the side to move; a threat-aware game's player to move must not be able to
    win at once (``settle`` first). ``settle()`` returns the exact value of a
    finished position or of an immediate win, else ``None``. ``candidates(ply)``
    returns every value the side to move can still get ``ply`` plies from the start,
    ascending (worked out once for each ply and shared by every core: read-only).

    Its user calls :meth:`close` when done with it (or uses it as a context manager):
    ``search`` calls itself through its closure cell, a reference cycle; closing
    empties the cell, so everything the core built is freed at once rather than left
    to the garbage collector. A closed core cannot search again.
    """

    def __init__(self, **parts: Any) -> None:
        self.__dict__.update(parts)

    search: Callable[[int, int, int], int]
    settle: Callable[[], int | None]
    candidates: Callable[[int], Sequence[int]]
    flush: Callable[[Counters], None]
    nodes: Callable[[], int]
    close: Callable[[], None]
    play: Callable[[Hashable], None]
    take_back: Callable[[Hashable], None]

    def __enter__(self) -> ExactCore:
        """Return the core itself (closed on leaving the ``with`` block)."""
        return self

    def __exit__(self, *exc_info: object) -> None:
        """Close the core (see :meth:`close`), whatever ended the block."""
        self.close()

    def enter(self, game: Game[Any], alpha: int, beta: int) -> int:
        """Return the fail-soft value of ``game``'s current position for the side to move."""
        settled = self.settle()
        return self.search(game.ply, alpha, beta) if settled is None else settled


@functools.lru_cache(maxsize=16)
def _bounds_by_ply(
    max_plies: int, win: int, best_possible: int, distance: int, threat_aware: bool
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Return the worst and the best value the side to move can still get at each ply.

    Worked out once per game size (Kalah's longest game has thousands of plies).
    """
    plies = range(max_plies + 1)
    if threat_aware:
        floor_at = [-(win - ply - 4) if ply + 4 <= max_plies else 0 for ply in plies]
        ceiling_at = [win - ply - 3 if ply + 3 <= max_plies else 0 for ply in plies]
    else:
        floor_at = [-(best_possible - distance * (ply + 1)) for ply in plies]
        ceiling_at = [best_possible - distance * (ply + 1) for ply in plies]
    return tuple(floor_at), tuple(ceiling_at)


#: candidate lists up to this long are kept as tuples; longer ones (a game with wide
#: margins and long lines, such as Kalah) are worked out element by element
_CANDIDATES_KEPT = 1 << 10


class _SpacedValues(Sequence[int]):
    """Every value a side can still get, ascending, each worked out from its index.

    The values are ``-positive[n - 1], ..., -positive[0], 0, positive[0], ...`` with
    ``positive[k] = (k // run) * stride + lowest + k % run``: one run of ``run``
    consecutive values per margin, ``stride`` apart. Nothing is stored but those
    numbers, so a list of a million values costs nothing to make.
    """

    __slots__ = ("_count", "_lowest", "_run", "_stride")

    def __init__(self, lowest: int, run: int, stride: int, runs: int) -> None:
        self._lowest, self._run, self._stride = lowest, run, stride
        self._count = run * runs

    def __len__(self) -> int:
        """Return how many values there are (the positive ones, as many negative, and 0)."""
        return 2 * self._count + 1

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[int, ...]: ...
    def __getitem__(self, index: int | slice) -> int | tuple[int, ...]:
        """Return the value at ``index`` (a tuple of them for a slice).

        :raises IndexError: when ``index`` is out of range.
        """
        if isinstance(index, slice):
            return tuple(self[at] for at in range(len(self))[index])
        count = self._count
        if index < 0:
            index += 2 * count + 1
        if not 0 <= index <= 2 * count:
            raise IndexError(f"candidate value index {index!r} out of range")
        offset = index - count
        if offset == 0:
            return 0
        step, place = divmod(abs(offset) - 1, self._run)
        value = step * self._stride + self._lowest + place
        return value if offset > 0 else -value


@functools.lru_cache(maxsize=256)
def _candidate_values(
    max_plies: int,
    win: int,
    stride: int,
    largest_margin: int,
    distance: int,
    threat_aware: bool,
    ply: int,
) -> Sequence[int]:
    """Return every value the side to move ``ply`` plies from the start can still get, ascending.

    The values are those of :class:`ValueScale` (``distance`` is 1 with distance
    scoring, 0 with plain scoring); a threat-aware core's side to move wins only on
    its own moves and loses only on the opponent's. Worked out once for each set of
    numbers; the sequence returned is immutable, shared by every caller: a tuple,
    or for more than :data:`_CANDIDATES_KEPT` values a :class:`_SpacedValues`.
    """
    if threat_aware:  # wins at plies ply + 1, ply + 3, ..., losses at ply + 2, ply + 4, ...
        losses = range(ply + 2 - win, max_plies + 1 - win, 2)
        wins = range(win - ply - 1, win - max_plies - 1, -2)
        return (*losses, 0, *reversed(wins))
    # one run of consecutive values per margin: the game ends at ply + 1 at the earliest
    run = max(max_plies - ply, 0) if distance else 1
    values = _SpacedValues(
        win - max_plies if distance else win, run, stride, largest_margin if run else 0
    )
    return tuple(values) if len(values) <= _CANDIDATES_KEPT else values


def make_exact_core(
    game: Game[Any],
    table: TranspositionTable,
    tracer: Tracer | None = None,
    scoring: Scoring = Scoring.DISTANCE,
    budget: Budget | None = None,
) -> ExactCore:
    """Return the negamax core over ``game`` (walked in place) storing into ``table``."""
    # Hot loop: bound methods and tables in locals, counters in closure cells, the
    # tracer behind one test of a local; the only allocation is the table entry.
    push: Callable[[Any], None]  # (in a game with repetition draws: on the watched line)
    push, retract, key, terminal, to_move = (
        game.push,
        capabilities.retractor(game),
        game.key,
        game.result,
        game.to_move,
    )
    ordered, non_losing = capabilities.move_order(game), capabilities.non_losing_moves(game)
    winning = capabilities.winning_moves(game)
    threat_aware = is_threat_aware(game)
    watch = watch_line(game, capabilities.advancer(game), retract)
    if watch is not None:  # a repeated position is a draw; the threat hints know no history
        threat_aware = False
        push, retract, terminal = entering_moves(watch, terminal())
        if not watch.shares_values:  # its values hold for this history only: a table of its own
            table = TranspositionTable(max_entries=table.max_entries)
    first = Player.FIRST
    alternating = game.rules.alternating
    scale = game.rules.scale
    max_plies = game.rules.max_plies
    win, distance, proven = leaf_values(game, scoring)
    if proven is None:
        proven = lambda result, ply: result * (win - distance * ply)  # noqa: E731
    #: the best value anything can reach, before the distance is taken off
    best_possible = scale.largest
    # This searcher's tables hold ``(lower, upper, best_move)`` (see the table module).
    entries = cast(dict[Hashable, tuple[int, int, Hashable | None]], table.entries)
    probe, max_entries = entries.get, table.max_entries
    # The best and worst values still possible for the side to move at each ply.
    floor_at, ceiling_at = _bounds_by_ply(max_plies, win, best_possible, distance, threat_aware)
    candidates = functools.partial(
        _candidate_values,
        max_plies,
        win,
        scale.stride,
        scale.largest_margin,
        distance,
        threat_aware,
    )
    nodes = leaves = cutoffs = hits = 0
    deepest = game.ply
    # the count of positions past which the budget is checked (never, without one)
    if budget is None:
        budget = Budget()
    check, next_look = budget.check, budget.first_look

    def search(ply: int, alpha: int, beta: int) -> int:
        nonlocal nodes, leaves, cutoffs, hits, deepest, next_look
        nodes += 1
        if nodes > next_look:  # one test per node, only a budget ever trips it
            next_look = check(nodes)
        if ply > deepest:
            deepest = ply
        if threat_aware:
            moves = non_losing()
            if not moves:
                leaves += 1
                if terminal() is not None:  # no move left: a draw, by the contract
                    return 0
                return -(win - ply - 2)  # whatever we play, the opponent wins next
        else:
            result = terminal()
            if result is not None:
                leaves += 1
                value = proven(result, ply)
                return value if to_move() == first else -value
            moves = ordered()
        bound = floor_at[ply]
        if alpha < bound:
            alpha = bound
            if alpha >= beta:
                leaves += 1
                return alpha
        bound = ceiling_at[ply]
        if beta > bound:
            beta = bound
            if alpha >= beta:
                leaves += 1
                return beta
        position = key()
        entry = probe(position)
        if entry is None:
            lower, upper, hint = NEGATIVE_INFINITY, INFINITY, None
        else:
            lower, upper, hint = entry
            if lower > alpha:
                alpha = lower
                if alpha >= beta:
                    hits += 1
                    return alpha
            if upper < beta:
                beta = upper
                if alpha >= beta:
                    hits += 1
                    return beta
            if hint is not None and hint != moves[0]:
                moves = [hint, *[move for move in moves if move != hint]]
        window_alpha = alpha
        draws_before = 0 if watch is None else watch.draws
        best, best_move = NEGATIVE_INFINITY, None
        child = ply + 1
        mover = None if alternating else to_move()
        for move in moves:
            push(move)
            if tracer is not None:
                _trace_enter(tracer, to_move(), move, child, alpha, beta, mover)
            if alternating or to_move() != mover:  # the other side moves next: negate
                if best_move is None:
                    value = -search(child, -beta, -alpha)
                else:
                    value = -search(child, -alpha - 1, -alpha)
                    if alpha < value < beta:  # better than the first move: search it properly
                        value = -search(child, -beta, -alpha)
            elif best_move is None:  # the same side moves again: its values carry over
                value = search(child, alpha, beta)
            else:
                value = search(child, alpha, alpha + 1)
                if alpha < value < beta:
                    value = search(child, alpha, beta)
            if tracer is not None:
                parent_is_first = (to_move() != first) if alternating else (mover == first)
                tracer.leave(value if parent_is_first else -value)
            retract(move)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        cutoffs += 1
                        break
        if len(entries) >= max_entries:
            make_room(entries)
        if watch is not None and watch.draws != draws_before:
            # a value that rests on a repetition holds for this path only: the entry keeps
            # its bounds from before and takes the best move, which orders, never decides
            entries[position] = (lower, upper, best_move)
        elif best <= window_alpha:
            entries[position] = (lower, best if best < upper else upper, hint)
        elif best >= beta:
            entries[position] = (best if best > lower else lower, upper, best_move)
        else:
            entries[position] = (best, best, best_move)
        return best

    def settle() -> int | None:
        nonlocal nodes, leaves
        ply = game.ply
        result = terminal()
        if result is not None:
            value = proven(result, ply)
        elif threat_aware and winning():
            value = win - distance * (ply + 1)
        else:
            return None
        nodes += 1
        leaves += 1
        return value if result is None or to_move() == first else -value

    def flush(counters: Counters) -> None:
        counters.nodes += nodes
        counters.leaves += leaves
        counters.cutoffs += cutoffs
        counters.tt_hits += hits
        counters.depth = max(counters.depth, deepest - game.ply)

    def close() -> None:
        """Empty ``search``'s own cell: the cycle it makes is gone, the core is freed at once."""
        nonlocal search
        del search

    return ExactCore(
        search=search,
        settle=settle,
        candidates=candidates,
        flush=flush,
        nodes=lambda: nodes,
        close=close,
        play=push,
        take_back=retract,
    )


def _trace_enter(
    tracer: Tracer,
    next_mover: int,
    move: Hashable,
    ply: int,
    alpha: int,
    beta: int,
    parent_mover: int | None,
) -> None:
    """Report entering a child to ``tracer`` with the parent's window, first player's view.

    ``parent_mover`` is ``None`` when turns alternate (the parent's mover is then the
    other one of ``next_mover``).
    """
    parent = (1 - next_mover) if parent_mover is None else parent_mover
    if parent != Player.FIRST:  # the parent was the second player's: flip its window
        tracer.enter(move, ply, -beta, -alpha)
    else:
        tracer.enter(move, ply, alpha, beta)


@attrs.frozen(kw_only=True)
class ExactSearcher(Searcher):
    """Base of the exact negamax searchers: root moves, move values, PV and the table.

    Subclasses implement :meth:`_solve`. With ``scoring=plain`` they solve weakly:
    only win, draw or loss, which needs fewer nodes.
    """

    #: its bounds are on the scale of wins: utility scoring searches plain (see Searcher)
    scores_utilities: ClassVar[bool] = False

    depth: int | None = depth_field(
        "plies before evaluate(); with a horizon the search is plain alpha-beta (default: to the "
        "end)"
    )
    all_best: bool = attrs.field(
        default=True,
        metadata={
            "help": "find every best root move (off: stop at the first, much cheaper early on)"
        },
    )
    table_entries: int = table_entries_field(1 << 20)

    def core(
        self,
        game: Game[Any],
        memory: SearchMemory,
        tracer: Tracer | None = None,
        *,
        budget: Budget | None = None,
    ) -> ExactCore:
        """Return a search core over ``game`` with ``memory``'s exact table for its kind and
        size, counting against ``budget`` if one is given (the caller closes it when done:
        :meth:`ExactCore.close`)."""
        table = memory.table("exact", game, self.table_entries)
        # a game with margins is solved for its margin also with plain scoring (the
        # weak solve only tells win, draw and loss apart)
        scoring = (
            Scoring.PLAIN if self.is_weak and not self.solves_weakly(game) else Scoring.DISTANCE
        )
        return make_exact_core(game, table, tracer, scoring, budget)

    def solves_weakly(self, game: Game[Any]) -> bool:
        """Return whether this searcher only tells win, draw and loss apart on ``game``."""
        return self.is_weak and game.rules.largest_margin <= 1

    @property
    def is_weak(self) -> bool:
        """Return whether this searcher only tells win, draw and loss apart."""
        return self.scoring is Scoring.PLAIN

    @abc.abstractmethod
    def _solve(self, core: ExactCore, game: Game[Any]) -> int:
        """Return the exact value of ``game`` for its side to move (weak: -1, 0 or +1)."""

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        counters, move_values, tracer = context.counters, context.move_values, context.tracer
        if self.depth is not None:  # threat pruning and exact drivers need the end of the game
            return search_root(
                game,
                depth=self.depth,
                scoring=self.scoring,
                ordering="game",
                fresh_window=move_values,
                all_best=self.all_best,
                table=None,
                counters=counters,
                tracer=tracer,
                move_values=move_values,
                budget=context.budget if context.budget.is_limited else None,
            )
        core = self.core(game, context.memory, tracer, budget=context.budget)
        try:
            value = self._solve(core, game)
            values: list[tuple[Hashable, int]] = []
            if move_values:
                mover = game.to_move()
                for move in capabilities.move_order(game)():
                    core.play(move)
                    child_value = self._solve(core, game)
                    values.append((move, child_value if game.to_move() == mover else -child_value))
                    core.take_back(move)
                best = tuple(move for move, child in values if child == value)
            else:
                best = self._best_moves(core, game, value, first_only=not self.all_best)
        finally:
            core.flush(counters)
            core.close()
        view = self._first_player_value(game)
        return RootAnswer(
            value=view(value),
            best_moves=best,
            move_values=tuple((move, view(child)) for move, child in values)
            if move_values
            else None,
            is_exact=True,
            depth=counters.depth,
            best_moves_complete=move_values or self.all_best,
        )

    def _first_player_value(self, game: Game[Any]) -> Callable[[int], int]:
        """Return the map from a value for ``game``'s side to move to the first player's."""
        mover = 1 if game.to_move() == Player.FIRST else -1
        scale = game.rules.scale.win if self.solves_weakly(game) else 1
        return lambda value: mover * scale * value

    def _best_moves(
        self, core: ExactCore, game: Game[Any], value: int, *, first_only: bool
    ) -> tuple[Hashable, ...]:
        """Return the moves of ``game`` worth ``value`` (each checked by a null window)."""
        moves = tuple(capabilities.move_order(game)())
        if self.solves_weakly(game) and value < 0:
            return moves[:1] if first_only else moves  # every move loses
        best = []
        mover = game.to_move()
        for move in moves:
            core.play(move)
            if game.to_move() == mover:  # the same side moves again
                is_best = core.enter(game, value - 1, value) >= value
            else:
                is_best = core.enter(game, -value, -value + 1) <= -value
            core.take_back(move)
            if is_best:  # the move is worth at least ``value``
                best.append(move)
                if first_only:
                    break
        return tuple(best)

    def _principal_variation(
        self, game: Game[Any], move: Hashable, answer: RootAnswer, memory: SearchMemory
    ) -> tuple[Hashable, ...]:
        """Return the line from ``move`` on, each step the first best move (the search's
        table kept, no budget: it is read after the search)."""
        if self.depth is not None:
            return super()._principal_variation(game, move, answer, memory)
        line = [move]
        game.push(move)
        try:
            while game.result() is None:
                with self.core(game, memory) as core:
                    follow = self._best_moves(core, game, self._solve(core, game), first_only=True)[
                        0
                    ]
                line.append(follow)
                game.push(follow)
        finally:
            for _ in line:
                game.undo()
        return tuple(line)


@attrs.frozen(kw_only=True)
class PrincipalVariationSearch(ExactSearcher):
    """Exact negamax with PVS, a table of bounds and mate-distance pruning (full window)."""

    name: ClassVar[str] = "pvs"

    def _solve(self, core: ExactCore, game: Game[Any]) -> int:
        if self.solves_weakly(game):  # one null window around the draw, a second if needed
            if core.enter(game, 0, 1) >= 1:
                return 1
            return 0 if core.enter(game, -1, 0) >= 0 else -1
        return core.enter(game, NEGATIVE_INFINITY, INFINITY)
