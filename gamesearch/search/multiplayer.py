"""Searchers for games whose results are one utility per player: max^n, paranoid, BRS.

Twins: :mod:`gamesearch.search.reference.maxn`,
:mod:`~gamesearch.search.reference.paranoid` and :mod:`~gamesearch.search.reference.brs`,
with the same values (the root mover's utility) and best moves, and for max^n the same
utilities. Differences: whole numbers (utilities times ``2 * evaluation_bound``);
Korf's shallow pruning for max^n in constant-sum games; the root moves after the
first searched with a window one below the best; each root move's line read off the
search. Monte Carlo tree search of utilities is :mod:`gamesearch.search.mcts`'s one core.

All three read a game whose rules declare ``utilities`` (see
:class:`gamesearch.game.UtilitiesGame`) and answer with :attr:`SearchResult.utilities`
(one utility per player, in result units) and :attr:`SearchResult.value`, the root
mover's utility.

- **max^n** (Luckhardt & Irani, 1986): every player picks the move that is best for
  itself; a position is worth the utility tuple of the move its mover picks (the first
  such move in legal-move order on a tie). With ``constant_sum`` declared, Korf's
  *shallow pruning* (1991) skips the moves that cannot matter to the player one level
  up: when the mover here is already sure of ``x`` and every other utility is at least
  the range's lowest, the player above can get at most ``sum - x - (n - 2) * lowest``
  from here; once that is no more than what it already has elsewhere, the rest is
  skipped. The values are max^n's exactly.
- **paranoid** (Sturtevant & Korf, 2000): the root mover maximises its own utility,
  every other player minimises it, as if they had all sided against it; alpha-beta.
- **best-reply search** (BRS; Schadd & Winands, 2011): like paranoid, but between two
  moves of the root mover only one opponent moves, the one whose reply is worst for
  the root mover (all opponents' moves are tried at one level); the others pass. It
  needs the game's ``make_null_move`` / ``unmake_null_move`` (pass the turn in search)
  when there are more than two players.

Leaves: a finished game is worth its utilities. At a horizon, ``evaluate()`` gives one
estimate per player strictly inside ``±evaluation_bound``; each is mapped linearly
strictly inside the result range (``lowest + (highest - lowest) * (e + bound) / (2 *
bound)``); in a constant-sum game the mapped estimates above the lowest utility are
then scaled to shares of what the constant sum leaves above it (rounded down), so a
heuristic tuple never adds up to more than a final one and shallow pruning stays
exact. The searches work on whole numbers (utilities times ``2 * evaluation_bound``)
and report fractions of result units.

``depth`` counts plies (one move of one player); ``rounds`` counts rounds, one move
of every player each (depth = rounds * players), as multi-agent course projects count.
A node or time budget that runs out raises :class:`~gamesearch.errors.BudgetExceededError`
(the position is left as it was), as with the other exact searchers.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any, ClassVar

import attrs

from gamesearch import capabilities
from gamesearch.capabilities import NullMove, capability_words, offered
from gamesearch.game import Game
from gamesearch.rules import final_utilities
from gamesearch.search.base import (
    INFINITY,
    RootAnswer,
    SearchContext,
    Searcher,
    depth_field,
)

Utilities = tuple[int, ...]
#: a line of moves as a chain of ``(move, rest)`` pairs (``None``: the line ends), built
#: only when a move becomes the best of its position
Line = tuple[Hashable, "Line"] | None
#: what a position's search returns: its utilities and the line that reaches them
Found = tuple[Utilities, Line]


class _Scale:
    """The whole-number scale a search works on (utilities times ``unit``), and the
    search's context (which counts the nodes and keeps the budgets)."""

    def __init__(self, game: Game[Any], context: SearchContext | None = None) -> None:
        self.context = context
        rules = game.rules
        self.bound = capabilities.heuristic_bound(game)
        self.unit = 2 * self.bound
        self.players = rules.players
        self.lowest, self.highest = rules.result_range
        self.constant_sum = rules.constant_sum
        self.evaluate = capabilities.heuristic(game)
        self.final = functools.partial(final_utilities, game)

    def enter(self, game: Game[Any]) -> None:
        """Count the current position as entered.

        :raises BudgetExceededError: past the node budget or the time budget (the
            context's, see :meth:`SearchContext.count_node`).
        """
        context = self.context
        assert context is not None
        context.count_node(game)

    def finished(self) -> Utilities:
        """Return the scaled utilities of the finished current position."""
        utilities = self.final()
        assert utilities is not None
        unit = self.unit
        return tuple(utility * unit for utility in utilities)

    def horizon(self) -> Utilities:
        """Return the scaled heuristic utilities of the current position (see the module)."""
        low, spread, bound = self.lowest * self.unit, self.highest - self.lowest, self.bound
        estimates: Any = self.evaluate()
        mapped = [low + spread * (estimate + bound) for estimate in estimates]
        if self.constant_sum is None:
            return tuple(mapped)
        above = [value - low for value in mapped]
        total = sum(above)
        room = (self.constant_sum - self.players * self.lowest) * self.unit
        if total <= 0:
            return tuple(mapped)
        top = self.highest * self.unit
        return tuple(min(top, low + share * room // total) for share in above)

    def in_result_units(self, scaled: Utilities) -> tuple[int | Fraction, ...]:
        """Return scaled utilities in result units (whole numbers stay ints)."""
        return tuple(result_units(value, self.unit) for value in scaled)


def result_units(value: int, unit: int) -> int | Fraction:
    """Return ``value / unit`` in result units: an int when whole, else a fraction."""
    fraction = Fraction(value, unit)
    return int(fraction) if fraction.denominator == 1 else fraction


def _rounds_field() -> Any:
    return depth_field(
        "rounds to search before evaluate(): each player moves once a round "
        "(depth = rounds * players; default: depth decides)"
    )


@attrs.frozen
class _LineAnswer(RootAnswer):
    """A root answer that keeps each root move's line, read off the search itself."""

    lines: dict[Hashable, Line] = attrs.field(factory=dict, eq=False, repr=False)


@attrs.frozen(kw_only=True)
class _UtilitySearcher(Searcher):
    """What the searchers of utility games share: the needs, the horizon, the answer."""

    needs_two_players: ClassVar[bool] = False
    needs_single_value: ClassVar[bool] = False
    needs_utilities: ClassVar[bool] = True
    line_on_demand: ClassVar[bool] = False  # each line is read off the search

    rounds: int | None = _rounds_field()

    def horizon_plies(self, game: Game[Any]) -> int | None:
        """Return the plies to search below the root (``None``: to the end)."""
        if self.rounds is not None:
            return self.rounds * game.rules.players
        return self.depth

    def _context(self, game: Game[Any], *args: Any, **kwargs: Any) -> SearchContext:
        context = super()._context(game, *args, **kwargs)
        context.depth_limit = self.horizon_plies(game)
        return context

    def _principal_variation(
        self, game: Game[Any], move: Hashable, answer: RootAnswer, memory: Any
    ) -> tuple[Hashable, ...]:
        """Return the line the search expects from ``move`` on."""
        assert isinstance(answer, _LineAnswer)
        return _unroll(move, answer.lines.get(move))

    def _leaf(
        self, game: Game[Any], context: SearchContext, scale: _Scale, depth: int | None
    ) -> Utilities | None:
        """Return the scaled utilities of a leaf (finished or at the horizon), else ``None``."""
        if game.result() is not None:
            context.counters.leaves += 1
            return scale.finished()
        if depth == 0:
            context.counters.leaves += 1
            context.horizon_reached = True
            return scale.horizon()
        return None

    def _root_moves(
        self,
        game: Game[Any],
        context: SearchContext,
        player: int,
        search: Callable[[Hashable, int | None], Found],
    ) -> tuple[list[tuple[Hashable, Found]], Utilities]:
        """Return each root move with what ``search(move, secured)`` found after it, and the
        best utilities for ``player``, the root mover. ``secured`` is one less than the best
        so far (a move that ties it is then searched exactly), or ``None``: the first move,
        or every move when each one's value is asked."""
        values: list[tuple[Hashable, Found]] = []
        best: Utilities | None = None
        for move in game.legal_moves():
            secured = None if best is None or context.move_values else best[player] - 1
            game.push(move)
            try:
                found = search(move, secured)
            finally:
                game.undo()
            values.append((move, found))
            if best is None or found[0][player] > best[player]:
                best = found[0]
        assert best is not None
        return values, best

    def _answer(
        self,
        game: Game[Any],
        context: SearchContext,
        scale: _Scale,
        player: int,
        values: list[tuple[Hashable, Found]],
        best: Utilities,
        best_moves: list[Hashable],
    ) -> _LineAnswer:
        """Return the root answer: ``best`` for ``player``, the best moves, each move's
        utility for ``player`` and each move's line."""
        move_values = [(move, result_units(found[0][player], scale.unit)) for move, found in values]
        answer = context.answer(
            game, result_units(best[player], scale.unit), best_moves, move_values
        )
        return _LineAnswer(
            answer.value,
            answer.best_moves,
            answer.move_values,
            answer.is_exact,
            answer.depth,
            answer.depth_limit,
            utilities=scale.in_result_units(best),
            lines={move: found[1] for move, found in values},
        )


@attrs.frozen(kw_only=True)
class MaxN(_UtilitySearcher):
    """Max^n: every player maximises its own utility (shallow pruning in constant-sum games)."""

    name: ClassVar[str] = "maxn"
    pruning: bool = attrs.field(
        default=True,
        metadata={
            "help": "shallow pruning when the rules declare a constant sum (same values, fewer "
            "nodes)"
        },
    )

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        scale = _Scale(game, context)
        prune = self.pruning and scale.constant_sum is not None
        total = (scale.constant_sum or 0) * scale.unit
        others_low = (scale.players - 2) * scale.lowest * scale.unit

        tracer = context.tracer

        def value(depth: int | None, above: int, secured: int | None, move: Hashable) -> Found:
            """Return the max^n utilities of the current position and their line; ``above``
            played ``move`` into it and has ``secured`` elsewhere (``None``: nothing to
            prune against)."""
            if tracer is None:
                return search(depth, above, secured)  # noqa: F821
            tracer.enter(move, game.ply, -INFINITY, INFINITY)
            found = search(depth, above, secured)  # noqa: F821
            tracer.leave(scale.in_result_units(found[0]))
            return found

        def search(depth: int | None, above: int, secured: int | None) -> Found:
            scale.enter(game)
            leaf = self._leaf(game, context, scale, depth)
            if leaf is not None:
                return leaf, None
            mover = game.to_move()
            # once the mover is sure of x here, the player above gets at most total - x - others_low
            bound = (
                total - secured - others_low
                if prune and secured is not None and mover != above
                else None
            )
            below = None if depth is None else depth - 1
            best: Found | None = None
            moves = game.legal_moves()
            for index, move in enumerate(moves):
                if best is not None and bound is not None and best[0][mover] >= bound:
                    context.count_cutoff()
                    if tracer is not None:
                        tracer.prune(moves[index:])
                    break
                game.push(move)
                try:
                    child, line = value(
                        below, mover, None if best is None else best[0][mover], move
                    )
                finally:
                    game.undo()
                if best is None or child[mover] > best[0][mover]:
                    best = child, (move, line)
            assert best is not None
            return best

        if tracer is not None:
            tracer.enter(None, game.ply, -INFINITY, INFINITY)
        scale.enter(game)
        depth = self.horizon_plies(game)
        below = None if depth is None else depth - 1
        mover = game.to_move()
        try:
            values, best = self._root_moves(
                game, context, mover, lambda move, secured: value(below, mover, secured, move)
            )
        finally:
            # ``value`` and ``search`` call each other through their closure cells, a
            # reference cycle: emptied here, the search is freed at once (not by the collector)
            del search
        if tracer is not None:
            tracer.leave(scale.in_result_units(best))
        best_moves = [move for move, found in values if found[0] == best]
        return self._answer(game, context, scale, mover, values, best, best_moves)


@attrs.frozen(kw_only=True)
class _RootPlayerSearcher(_UtilitySearcher):
    """A search where the root mover maximises its own utility and everyone else minimises it."""

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        scale = _Scale(game, context)
        player = game.to_move()
        scale.enter(game)
        depth = self.horizon_plies(game)
        below = None if depth is None else depth - 1

        def search(move: Hashable, secured: int | None) -> Found:
            alpha = -INFINITY if secured is None else secured
            return self._after_move(game, context, scale, player, below, alpha, INFINITY)

        values, best = self._root_moves(game, context, player, search)
        # every move of the root mover's best utility is a best move (the others' may differ)
        best_moves = [move for move, found in values if found[0][player] == best[player]]
        return self._answer(game, context, scale, player, values, best, best_moves)

    def _after_move(
        self,
        game: Game[Any],
        context: SearchContext,
        scale: _Scale,
        player: int,
        depth: int | None,
        alpha: int,
        beta: int,
    ) -> Found:
        """Return the utilities (and line) of the position a move has just reached."""
        raise NotImplementedError

    def _alphabeta(
        self,
        game: Game[Any],
        context: SearchContext,
        scale: _Scale,
        player: int,
        depth: int | None,
        alpha: int,
        beta: int,
    ) -> Found:
        """Return the utilities of the current position (and their line) for alpha-beta on
        ``player``'s utility: exact when it lies inside ``(alpha, beta)``, else a bound
        beyond the window."""
        scale.enter(game)
        leaf = self._leaf(game, context, scale, depth)
        if leaf is not None:
            return leaf, None
        below = None if depth is None else depth - 1
        maximising = game.to_move() == player
        best: Found | None = None
        moves = game.legal_moves()
        for index, move in enumerate(moves):
            game.push(move)
            try:
                child, line = self._after_move(game, context, scale, player, below, alpha, beta)
            finally:
                game.undo()
            if best is None or (
                child[player] > best[0][player] if maximising else child[player] < best[0][player]
            ):
                best = child, (move, line)
            if maximising:
                alpha = max(alpha, child[player])
            else:
                beta = min(beta, child[player])
            if alpha >= beta and index + 1 < len(moves):
                context.count_cutoff()
                break
        assert best is not None
        return best


@attrs.frozen(kw_only=True)
class Paranoid(_RootPlayerSearcher):
    """Paranoid alpha-beta: the root mover against all the other players at once."""

    name: ClassVar[str] = "paranoid"

    def _after_move(
        self,
        game: Game[Any],
        context: SearchContext,
        scale: _Scale,
        player: int,
        depth: int | None,
        alpha: int,
        beta: int,
    ) -> Found:
        return self._alphabeta(game, context, scale, player, depth, alpha, beta)


@attrs.frozen(kw_only=True)
class BestReply(_RootPlayerSearcher):
    """Best-reply search: between two of the root mover's moves, only the worst reply for it."""

    name: ClassVar[str] = "brs"

    def unmet_needs(self, game: Game[Any]) -> list[str]:
        unmet = super().unmet_needs(game)
        if not unmet and game.rules.players > 2 and not offered(game, NullMove):
            unmet.append(
                f"it needs {capability_words(NullMove)} to let one opponent reply, which this "
                "game does not offer"
            )
        return unmet

    def _after_move(
        self,
        game: Game[Any],
        context: SearchContext,
        scale: _Scale,
        player: int,
        depth: int | None,
        alpha: int,
        beta: int,
    ) -> Found:
        if game.to_move() == player or game.result() is not None or depth == 0:
            return self._alphabeta(game, context, scale, player, depth, alpha, beta)
        return self._replies(game, context, scale, player, depth, alpha, beta)

    def _replies(
        self,
        game: Game[Any],
        context: SearchContext,
        scale: _Scale,
        player: int,
        depth: int | None,
        alpha: int,
        beta: int,
    ) -> Found:
        """Return the utilities after the opponents' best reply: every move of every
        opponent at one level (in turn order from the one to move), the others passing.

        The line stops before a reply made out of turn (it is no legal sequence of moves).
        """
        scale.enter(game)
        below = None if depth is None else depth - 1
        players = game.rules.players
        first = game.to_move()
        best: Found | None = None
        for step in range(players):
            opponent = (first + step) % players
            if opponent == player:
                continue
            passes = _pass_to(game, opponent)
            try:
                for move in game.legal_moves():
                    game.push(move)
                    try:
                        passed = 0 if game.result() is not None else _pass_to(game, player)
                        try:
                            child, line = self._alphabeta(
                                game, context, scale, player, below, alpha, beta
                            )
                        finally:
                            _take_back_passes(game, passed)
                    finally:
                        game.undo()
                    if best is None or child[player] < best[0][player]:
                        in_turn = None if passes else (move, None if passed else line)
                        best = child, in_turn
                    beta = min(beta, child[player])
                    if alpha >= beta:
                        context.count_cutoff()
                        return best
            finally:
                _take_back_passes(game, passes)
        assert best is not None
        return best


def _unroll(move: Hashable, line: Line) -> tuple[Hashable, ...]:
    """Return ``move`` and the moves of ``line`` (a chain of ``(move, rest)`` pairs)."""
    moves = [move]
    while line is not None:
        moves.append(line[0])
        line = line[1]
    return tuple(moves)


def _pass_to(game: Game[Any], player: int) -> int:
    """Pass the turn until ``player`` is to move; return how many passes were made."""
    passes = 0
    players = game.rules.players
    while game.to_move() != player:
        if passes >= players:
            raise RuntimeError(
                f"passing the turn {passes} times never gave it to player {player!r}"
            )
        capabilities.null_move(game)[0]()  # type: ignore[index]
        passes += 1
    return passes


def _take_back_passes(game: Game[Any], passes: int) -> None:
    unmake = capabilities.null_move(game)[1]  # type: ignore[index]
    for _ in range(passes):
        unmake()


def leaf_utilities(game: Game[Any]) -> tuple[int | Fraction, ...]:
    """Return what the searchers here score a leaf with, one utility per player: the final
    utilities of a finished game, else the heuristic's mapped strictly inside the result
    range (see the module), in result units.

    For a searcher of your own that must agree with max^n, paranoid or BRS exactly.
    """
    scale = _Scale(game)
    return scale.in_result_units(scale.finished() if game.result() is not None else scale.horizon())
