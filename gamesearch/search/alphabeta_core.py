"""The alpha-beta core: the loop of :class:`~gamesearch.search.alphabeta.AlphaBeta`, and
of the engine when its tricks allow (:mod:`gamesearch.search.engine`).

Twin: :mod:`gamesearch.search.reference.alphabeta`, with the same values and best-move
set (see :mod:`gamesearch.search.alphabeta` for the switches). Differences: two loops,
one per side, written once (the minimiser's is compiled from the maximiser's, see
:mod:`gamesearch.search.specialise`), and a third for both sides when the game answers
``move_results()``; finished children scored in the parent's loop, unplayed with
``move_results()``; a root window shared by the root moves, one point wider than the
best; a table of bounds that stores ``±depth`` (negative: the entry rests on a
horizon); a budget that wraps the move call; the engine's killers and history when
given. :func:`search_root` is the template, compiled once per kind of search.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable, Sequence
from itertools import repeat
from typing import Any

from gamesearch import capabilities
from gamesearch.game import Game, offers
from gamesearch.rules import Player, Scoring
from gamesearch.search.base import (
    INFINITY,
    NEGATIVE_INFINITY,
    NO_HORIZON,
    Budget,
    Counters,
    RootAnswer,
    Tracer,
    finished_values,
    heuristic,
)
from gamesearch.search.repetition import watch_line
from gamesearch.search.specialise import mirrored, specialise
from gamesearch.search.table import BoundsEntry, TranspositionTable, make_room, settle

#: moves of a position searched at full depth before late move reductions start
FULL_DEPTH_MOVES = 3
#: the shallowest remaining depth at which late moves are reduced
REDUCTION_DEPTH = 3
#: a line gets at most one extension per this many plies of nominal depth (and one at least)
EXTENSION_SHARE = 2
#: not None in :func:`search_root` as written, which hands each search to a compiled kind
_AS_WRITTEN: object | None = object()
_FIRST = Player.FIRST
#: the core ``expand(ply, depth_left, alpha, beta, maximizing, checked, again)``, handed
#: itself (``checked`` is dropped from the kinds without reductions, which do not read it)
Expand = Callable[[int, int, int, int, bool, bool, "Expand"], int]
#: the core for games that offer ``move_results()``, handed its children and itself
ExpandKnown = Callable[
    [int, int, int, int, bool, Sequence[tuple[Hashable, int | None]], "ExpandKnown"], int
]


def search_root(
    game: Game[Any],
    depth: int | None,
    scoring: Scoring,
    ordering: str,
    fresh_window: bool,
    all_best: bool,
    table: TranspositionTable[BoundsEntry] | None,
    counters: Counters,
    tracer: Tracer | None = None,
    move_values: bool = False,
    budget: Budget | None = None,
    first_moves: tuple[Hashable, ...] = (),
    killers: list[list[Hashable]] | None = None,
    history: dict[Hashable, int] | None = None,
    reduces: bool = False,
    extends: bool = False,
) -> RootAnswer:
    """Return the alpha-beta answer at the root of ``game``; add the counts to ``counters``.

    ``first_moves`` are tried first at the root (iterative deepening passes the last
    iteration's best moves). ``killers`` and ``history`` are the engine's ordering
    tricks (:mod:`gamesearch.search.engine`), kept across the searches of one root:
    ``killers[offset]`` holds the two moves that last cut off ``offset`` plies below the
    root, tried first there; ``history`` a score per move that cut off anywhere, by
    which the other moves are tried. ``reduces``: the engine's late move reductions
    (the moves after the first :data:`FULL_DEPTH_MOVES` of a position at least
    :data:`REDUCTION_DEPTH` plies above the horizon that are not noisy, forcing or
    killers are searched a ply shallower with a null window first, and again at full
    depth when they beat it; each search again counts its position once). ``extends``:
    the engine's extensions (a forcing move searched a ply deeper, while the line stays
    within the depth and its :data:`EXTENSION_SHARE`-th part). The function
    is written once, as the template (:mod:`gamesearch.search.specialise`) of its
    compiled kinds; its twin is :mod:`gamesearch.search.reference.alphabeta`, and the
    module's docstring lists how they differ.

    :raises BudgetExceededError: when ``budget`` runs out (``game`` is left as it was).
    """
    # The function as written is the template of its compiled kinds (one per kind of
    # search: with or without a table, a tracer, a horizon; turns that alternate or
    # not), which fold this test away.
    if _AS_WRITTEN is not None:
        kind = _loops(
            table is not None,
            tracer is not None,
            depth is not None,
            game.rules.alternating,
            killers is not None,
            history is not None,
            reduces,
            (reduces or extends) and offers(game, "is_forcing"),
            extends,
        )
        return kind(
            game,
            depth,
            scoring,
            ordering,
            fresh_window,
            all_best,
            table,
            counters,
            tracer,
            move_values,
            budget,
            first_moves,
            killers,
            history,
            reduces,
            extends,
        )
    # Hot loop: bound methods in locals, counters in closure cells, no allocation per
    # node without a table, one closure a search (the root's moves are played here).
    # A table, a tracer, a horizon and turns that do not alternate cost nothing when
    # absent (their tests are folded away in the compiled kind); other options one test
    # of a local per node at most: a budget wraps the move call instead of being tested
    # in the loop, and leaves are counted as what is neither expanded nor a table hit.
    # Moves below the root are played by advance() and taken back by retract(), also
    # when something raises. Depths are small integers (fast arithmetic): a search
    # without a horizon keeps depth_left at NO_HORIZON all the way down (step 0), so its
    # table entries carry the same depth whatever the root.
    # (the move pair and the results after the moves, resolved in one call)
    advance, retract, known, descend, own_results = capabilities.fast_moves(game)
    to_move = game.to_move
    watch = watch_line(game, advance, retract)  # (None: the game has no repetition rule)
    if watch is not None:
        advance, retract = watch.advance, watch.retract
    step = advance if budget is None else budget.counting(advance)
    has_horizon = depth is not None
    step_down = 1 if has_horizon else 0
    ordered = capabilities.move_order(game) if ordering == "game" else game.legal_moves
    # (the heuristic is looked up only for a search with a horizon: it costs a little)
    evaluate, key = heuristic(game) if has_horizon else _without_horizon, game.key
    asks_turn = not game.rules.alternating
    # a game that answers the results after its moves: its finished children are scored unplayed
    by_game = ordering == "game"
    scores_unplayed = (
        table is None
        and tracer is None
        and budget is None
        and watch is None
        and killers is None
        and history is None
        and not reduces
        and not extends
        and own_results
    )
    finished = finished_values(game, scoring)  # finished[ply][result]: a look-up, no arithmetic
    entries = table.entries if table is not None else None
    probe = entries.get if entries is not None else None
    max_entries = table.max_entries if table is not None else 0
    # free places in the table: counted down per new entry instead of len() each time
    room = max_entries - len(entries) if entries is not None else 0
    # the entries of a search without a horizon, by value: upper bounds, lower bounds, exact values
    shares_entries = table is not None and not has_horizon
    upper_entries: dict[int, BoundsEntry] = {}
    lower_entries: dict[int, BoundsEntry] = {}
    exact_entries: dict[int, BoundsEntry] = {}
    root_ply = game.ply
    # every position entered but the root is expanded, a table hit or a leaf (finished
    # or at the horizon): leaves are counted, and the nodes are the sum
    leaves = expanded = cutoffs = hits = horizon = 0
    deepest = root_ply + 1  # the root is unfinished: it has children

    if killers is not None or history is not None:  # the engine's ordering tricks
        noisy = capabilities.noisy_moves(game)
        has_noisy = offers(game, "noisy_moves")
        max_plies = game.rules.max_plies
        scores: dict[Hashable, int] = {} if history is None else history
        history_get = scores.get

        def history_rank(move: Hashable) -> int:
            return -history_get(move, 0)

        def arrange(moves: Sequence[Hashable], ply: int) -> Sequence[Hashable]:
            """Return ``moves`` of the position at ``ply`` as the ordering tricks ask: the
            killers first, then the rest (by history score, with one)."""
            rest = sorted(moves, key=history_rank) if history is not None else moves
            if killers is None:
                return rest
            front: list[Hashable] = []
            for killer in killers[ply - root_ply]:
                if killer is not None and killer not in front and killer in moves:
                    front.append(killer)
            if not front:
                return rest
            return front + [move for move in rest if move not in front]

        def remember(move: Hashable, ply: int, depth_left: int) -> None:
            """Record ``move``, which cut off at ``ply`` with ``depth_left`` plies to go, as a
            killer (unless noisy: a capture is no killer) and in the history."""
            if killers is not None and (not has_noisy or move not in noisy()):
                slot = killers[ply - root_ply]
                if slot[0] != move:
                    slot[1], slot[0] = slot[0], move
            if history is not None:
                weight = min(depth_left, max_plies - ply + 1)
                history[move] = history.get(move, 0) + weight * weight

    if reduces or extends:  # the engine's tricks that ask which moves are forcing
        forcing_of = capabilities.forcing_test(game)
        asks_forcing = offers(game, "is_forcing")  # (a switch of the compiled kind too)
    if extends:  # the plies played and the plies left: at most this, extensions included
        extension_reach = 0 if depth is None else depth + max(1, depth // EXTENSION_SHARE)
    if reduces:  # the engine's late move reductions
        researched = 0  # positions searched again at full depth (each counted once)
        noisy, has_noisy = capabilities.noisy_moves(game), offers(game, "noisy_moves")

        def late_moves(moves: Sequence[Hashable], ply: int) -> set[Hashable]:
            """Return the moves of the position at ``ply`` that may be reduced: after the
            first few, neither noisy nor killers."""
            late = set(moves[FULL_DEPTH_MOVES:])
            if has_noisy:
                late.difference_update(noisy())
            for killer in killers[ply - root_ply] if killers is not None else ():
                late.discard(killer)
            return late

    # The cores recurse through their last argument ``again`` (themselves), not through a
    # closure cell naming them: no reference cycle, so the search is freed as it returns.
    def expand(
        ply: int,
        depth_left: int,
        alpha: int,
        beta: int,
        maximizing: bool,
        checked: bool,
        again: Expand,
    ) -> int:
        """Return the value of the unfinished position at ``ply`` (``depth_left`` >= 1).

        ``maximizing`` says whether the first player moves (asked of the game when
        its turns do not alternate); ``checked`` whether a forcing move led here (no
        reduction then: read only with ``reduces``); ``again`` is ``expand`` itself, for
        the children.
        """
        nonlocal leaves, expanded, cutoffs, hits, horizon, deepest, room
        if reduces:
            nonlocal researched
        if probe is not None:
            position = key()
            entry = probe(position)
            if entry is not None and (entry[0] == depth_left or entry[0] == -depth_left):
                if entry[0] != depth_left:
                    # the entry rests on a horizon: so does whatever it decides here
                    horizon += 1
                settled, alpha, beta = settle(entry, alpha, beta)
                if settled is not None:
                    hits += 1
                    return settled
            window_alpha, window_beta = alpha, beta
            horizon_before = horizon
            draws_before = 0 if watch is None else watch.draws
        expanded += 1
        child_ply = ply + 1
        if child_ply > deepest:
            deepest = child_ply
        moves = ordered()
        if killers is not None or history is not None:
            moves = arrange(moves, ply)
        if asks_turn:
            maximizing = to_move() == _FIRST
        if reduces:
            late = depth_left >= REDUCTION_DEPTH and not checked
            quiet_late: set[Hashable] = set()
            index = 0
        # One loop a side, written once: the minimiser's is compiled from the maximiser's.
        # A child that is over (or at the horizon) is scored here, without a call.
        if maximizing:
            best = NEGATIVE_INFINITY
            for move in moves:
                if reduces or extends:  # (asked before the move is played)
                    forcing = asks_forcing and forcing_of(move)
                if extends:  # a forcing move is searched a ply deeper, within the reach
                    extended = forcing and ply - root_ply + depth_left < extension_reach
                if reduces:  # a late quiet move is reduced
                    if late and index == FULL_DEPTH_MOVES:  # (the first late move)
                        quiet_late = late_moves(moves, ply)
                    reducible = late and index >= FULL_DEPTH_MOVES and move in quiet_late
                    index += 1
                sign = step(move)  # push(move) and result() in one call
                try:  # (free in CPython 3.11+ until something raises)
                    if tracer is not None:
                        tracer.enter(move, child_ply, alpha, beta)
                    if sign is not None:
                        leaves += 1
                        value = finished[child_ply][sign]
                    elif has_horizon and depth_left == 1 and not (extends and extended):
                        leaves += 1
                        horizon += 1
                        value = evaluate()
                    else:
                        if reduces:
                            value = alpha + 1
                            if reducible and not forcing:  # shallower, in a null window
                                reduced = depth_left - step_down - step_down
                                value = again(
                                    child_ply, reduced, alpha, alpha + 1, False, forcing, again
                                )
                                if value > alpha:
                                    researched += 1
                        if not reduces or value > alpha:
                            value = again(
                                child_ply,
                                depth_left if extends and extended else depth_left - step_down,
                                alpha,
                                beta,
                                False,
                                forcing,
                                again,
                            )
                    if tracer is not None:
                        tracer.leave(value)
                except BaseException:
                    retract(move)
                    raise
                retract(move)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            cutoffs += 1
                            if killers is not None or history is not None:
                                remember(move, ply, depth_left)
                            if tracer is not None:
                                tracer.prune(_after(moves, move))
                            break
        else:
            mirrored()  # the loop above for the minimiser (see specialise.mirror)
        if entries is not None:
            if watch is not None and watch.draws != draws_before:
                return best  # a value of this path only: not stored
            if entry is None:
                if room <= 0:  # a new entry would not fit
                    make_room(entries)
                    room = max_entries - len(entries)
                room -= 1
            # An entry whose subtree met a horizon (or rests on one) is stored with its
            # depth negated, so that using it marks the search inexact.
            if horizon != horizon_before:
                searched = -depth_left
            elif shares_entries:
                # A search to the end of the game stores few distinct entries (its values
                # are the game's finished values): each is built once a search and shared
                # by every position it holds for, instead of a new tuple per store.
                if best <= window_alpha:
                    stored = upper_entries.get(best)
                    if stored is None:
                        stored = upper_entries[best] = (depth_left, NEGATIVE_INFINITY, best)
                elif best >= window_beta:
                    stored = lower_entries.get(best)
                    if stored is None:
                        stored = lower_entries[best] = (depth_left, best, INFINITY)
                else:
                    stored = exact_entries.get(best)
                    if stored is None:
                        stored = exact_entries[best] = (depth_left, best, best)
                entries[position] = stored
                return best
            else:
                searched = depth_left
            if best <= window_alpha:
                entries[position] = (searched, NEGATIVE_INFINITY, best)
            elif best >= window_beta:
                entries[position] = (searched, best, INFINITY)
            else:
                entries[position] = (searched, best, best)
        return best

    def expand_known(
        ply: int,
        depth_left: int,
        alpha: int,
        beta: int,
        maximizing: bool,
        children: Sequence[tuple[Hashable, int | None]],
        again: ExpandKnown,
    ) -> int:
        """Return :func:`expand`'s value for a game that offers ``move_results()`` (searched
        without a table, a tracer or a budget), given its ``children``: each move with its
        result. A child that ends the game is scored from there, without playing it, and
        counted as a leaf all the same; one that goes on is played with its own children
        (``advance_results()``, one call). ``again`` is ``expand_known`` itself."""
        nonlocal leaves, expanded, cutoffs, horizon, deepest
        expanded += 1
        child_ply = ply + 1
        if child_ply > deepest:
            deepest = child_ply
        if asks_turn:
            maximizing = to_move() == _FIRST
        best = NEGATIVE_INFINITY if maximizing else INFINITY
        # One loop for both sides (the side is tested per child, the cutoff after each).
        for move, sign in children:
            if sign is not None:
                leaves += 1
                value = finished[child_ply][sign]
            elif (
                has_horizon and depth_left == 1
            ):  # it goes on at the horizon: played for the heuristic
                step(move)
                try:
                    leaves += 1
                    horizon += 1
                    value = evaluate()
                finally:
                    retract(move)
            else:  # the game goes on: played, and taken back whatever happens
                grandchildren = descend(move, by_game)
                try:
                    value = again(
                        child_ply,
                        depth_left - step_down,
                        alpha,
                        beta,
                        not maximizing,
                        grandchildren,
                        again,
                    )
                finally:
                    retract(move)
            if maximizing:
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
            elif value < best:
                best = value
                if value < beta:
                    beta = value
            if beta <= alpha:  # the window has closed: the other moves cannot change the decision
                cutoffs += 1
                break
        return best

    # the root: each move searched with the window the ones before it leave
    depth_left = (NO_HORIZON if depth is None else depth) - step_down  # of the root's children
    ply = root_ply + 1
    maximizing = to_move() == _FIRST

    def search_move(move: Hashable, known_result: int | None, alpha: int, beta: int) -> int:
        """Return the value of the position the root move ``move`` reaches (as a position of
        the cores' loops is scored), the move taken back; ``known_result`` is its result
        from ``move_results()``, when the search uses them (else ``None``)."""
        nonlocal leaves, horizon
        if reduces or extends:
            forcing = asks_forcing and forcing_of(move)
        if scores_unplayed:
            if known_result is not None:  # it ends the game: scored unplayed
                leaves += 1
                return finished[ply][known_result]
            if depth_left:
                children = descend(move, by_game)
                try:
                    return expand_known(
                        ply, depth_left, alpha, beta, not maximizing, children, expand_known
                    )
                finally:
                    retract(move)
        sign = step(move)
        try:
            if tracer is not None:
                tracer.enter(move, ply, alpha, beta)
            # (a forcing root move searched a ply deeper, with extensions)
            if extends:
                extended = forcing and depth_left + step_down < extension_reach
            searched = depth_left + step_down if extends and extended else depth_left
            if sign is None and searched:
                value = expand(ply, searched, alpha, beta, not maximizing, forcing, expand)
            else:  # a leaf: finished, or at the horizon
                leaves += 1
                if sign is None:
                    horizon += 1
                value = evaluate() if sign is None else finished[ply][sign]
            if tracer is not None:
                tracer.leave(value)
            return value
        finally:
            retract(move)

    # each root move with its result when the search uses move_results(), else None
    pairs: Iterable[tuple[Hashable, int | None]]
    pairs = known(by_game) if scores_unplayed else zip(ordered(), repeat(None))
    if history is not None:  # (the root's killers: none, the root never cuts off)
        pairs = zip(sorted(ordered(), key=history_rank), repeat(None))
    if first_moves:
        result_of = dict(pairs)
        pairs = [(move, result_of[move]) for move in first_moves]
        pairs += [(move, result) for move, result in result_of.items() if move not in first_moves]
    if tracer is not None:
        tracer.enter(None, root_ply, NEGATIVE_INFINITY, INFINITY)
    best: int | None = None
    best_moves: list[Hashable] = []
    values: list[tuple[Hashable, int]] = []
    try:
        for move, known_result in pairs:
            if fresh_window or best is None:
                value = search_move(move, known_result, NEGATIVE_INFINITY, INFINITY)
            elif maximizing:
                value = search_move(move, known_result, best - 1 if all_best else best, INFINITY)
            else:
                value = search_move(
                    move, known_result, NEGATIVE_INFINITY, best + 1 if all_best else best
                )
            if move_values:
                values.append((move, value))
            if best is None or (value > best if maximizing else value < best):
                best, best_moves = value, [move]
            elif value == best and (fresh_window or all_best):
                best_moves.append(move)
        assert best is not None  # the root is unfinished, so it has a move
        if tracer is not None:
            tracer.leave(best)
    finally:
        counters.nodes += 1 + expanded + hits + leaves
        counters.leaves += leaves
        if reduces:
            counters.nodes -= researched
            counters.leaves -= researched
        counters.cutoffs += cutoffs
        counters.tt_hits += hits
        if deepest > counters.depth:
            counters.depth = deepest
    return RootAnswer(
        value=best,
        best_moves=tuple(best_moves),
        move_values=tuple(values) if move_values else None,
        is_exact=horizon == 0,
        depth=counters.depth - root_ply,
        depth_limit=depth,
        best_moves_complete=fresh_window or all_best,
        move_values_exact=fresh_window,
    )


@functools.cache
def _loops(
    has_table: bool,
    traces: bool,
    has_horizon: bool,
    alternating: bool,
    has_killers: bool = False,
    has_history: bool = False,
    reduces: bool = False,
    asks_forcing: bool = False,
    extends: bool = False,
) -> Callable[..., RootAnswer]:
    """Return :func:`search_root` compiled for a search with a table or not, a tracer or
    not, a horizon or not, in a game whose turns alternate or not, with the engine's
    killers and history or not, with late move reductions or not, asking the game which
    moves are forcing or not, with extensions or not (once per combination: cached)."""
    no_table = not has_table
    nones = {"table": no_table, "entries": no_table, "probe": no_table, "tracer": not traces}
    nones |= {"killers": not has_killers, "history": not has_history}
    flags = {"has_horizon": has_horizon, "asks_turn": not alternating, "reduces": reduces}
    flags |= {"asks_forcing": asks_forcing, "extends": extends}
    return specialise(
        search_root,
        {**nones, "_AS_WRITTEN": True},
        flags=flags,
        swaps=("alpha", "beta"),
        values=("best", "value"),
    )


def _without_horizon() -> int:
    """Stand in for the heuristic of a search without a horizon (it is never called)."""
    raise AssertionError("a search without a horizon has no heuristic")


def _after(moves: Sequence[Hashable], move: Hashable) -> tuple[Hashable, ...]:
    """Return the moves that follow ``move`` in ``moves`` (those a cutoff skips)."""
    return tuple(moves[moves.index(move) + 1 :])
