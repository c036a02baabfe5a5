"""The searcher check: any searcher must agree with the reference minimax
(:mod:`gamesearch.search.reference.minimax`).

In a game of chance, and for a searcher whose values are expected results in every
game (``expected_values``), it is the reference expectiminimax
(:mod:`gamesearch.search.reference.expectiminimax`) instead.

Agreement means, in every position checked: the same value, the same *set* of best
moves (a subset, at least one, where the result says its set is not complete:
``best_moves_complete``), a chosen move from that set, a principal variation that is
a legal line, the same value for every root move when asked (``search(game,
move_values=True)``, where the result says its move values are exact), and the
position left exactly as it was. A depth-limited searcher is compared with minimax
limited to the same depth.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

import attrs

from gamesearch import capabilities
from gamesearch.errors import ConformanceError, IllegalMoveError, InvalidOptionError
from gamesearch.game import Game
from gamesearch.rules import CHANCE, Rules, Scoring
from gamesearch.search.base import Searcher, SearchResult, Value
from gamesearch.search.reference.expectiminimax import ReferenceExpectiminimax
from gamesearch.search.reference.minimax import ReferenceMinimax
from gamesearch.search.table import table_identity
from gamesearch.testing.snapshot import Snapshot, require_unchanged


def horizon(searcher: Searcher) -> int | None:
    """Return the depth limit ``searcher`` was configured with (``None``: to the end)."""
    return searcher.depth if searcher.honours_depth else None


def depth_option(searcher_class: type[Searcher]) -> str | None:
    """Return ``"depth"`` when ``searcher_class`` stops at a depth limit, else ``None``."""
    return "depth" if searcher_class.honours_depth else None


def with_depth(searcher_class: type[Searcher], depth: int | None, **options: Any) -> Searcher:
    """Return ``searcher_class(**options)`` limited to ``depth`` plies (``None``: unlimited).

    :raises InvalidOptionError: when the class does not stop at a depth (MCTS).
    """
    if not searcher_class.honours_depth:
        raise InvalidOptionError(f"searcher {searcher_class.name!r} does not stop at a depth limit")
    return searcher_class(depth=depth, **options)


class Reference:
    """The reference minimax's answers (expectiminimax's in games of chance), searched
    once per position and kept.

    Share one reference between the searchers you check on the same positions:
    minimax is the slow part. Positions are told apart by game, settings and key,
    so check the game with :func:`check_game` first.
    """

    def __init__(self, *, scoring: Scoring = Scoring.GAME, depth: int | None = None) -> None:
        """``scoring`` defaults to the game's own, as every searcher's does."""
        self.minimax = ReferenceMinimax(scoring=scoring, depth=depth)
        #: the reference of games of chance and of searchers of expected values
        self.expectiminimax = ReferenceExpectiminimax(depth=depth)
        self._answers: dict[tuple[Any, ...], SearchResult] = {}

    @classmethod
    def like(cls, searcher: Searcher) -> Reference:
        """Return the reference for ``searcher``: minimax with its scoring and depth limit."""
        return cls(scoring=searcher.scoring, depth=horizon(searcher))

    def matches(
        self, searcher: Searcher, *, exact: bool = True, game: Game[Any] | None = None
    ) -> bool:
        """Return whether this reference searches like ``searcher``: the same scoring (the
        game's own standing for what ``game`` declares, distance without a game), and
        the same depth limit (none for an approximate searcher, whose proofs are exact).
        """
        depth = horizon(searcher) if exact else None
        scale = (game.rules if game is not None else Rules(max_plies=0)).scale

        def resolved(scoring: Scoring) -> Scoring:
            return scale.resolve(scoring)

        same_scoring = searcher.expected_values or resolved(self.minimax.scoring) is resolved(
            searcher.scoring
        )
        return same_scoring and self.minimax.depth == depth

    def answer(self, game: Game[Any], *, expected: bool = False) -> SearchResult:
        """Return minimax's result for ``game``, with every root move's value;
        expectiminimax's in a game of chance or when ``expected`` values are asked for."""
        expected = expected or game.rules.chance
        identity = (expected, table_identity(game), game.key())
        if identity not in self._answers:
            reference = self.expectiminimax if expected else self.minimax
            self._answers[identity] = reference.search(game, move_values=True)
        return self._answers[identity]


@attrs.frozen
class SearcherReport:
    """What :func:`check_searcher` checked, and the work done."""

    searcher: str
    positions: int  #: positions checked
    nodes: int  #: nodes the searcher visited (first search of each position)
    reference_nodes: int  #: nodes minimax visited in the same positions


def _moves(game: Game[Any], moves: Iterable[Hashable]) -> str:
    return "[" + ", ".join(game.format_move(move) for move in moves) + "]"


def check_search(
    searcher: Searcher,
    game: Game[Any],
    reference: Reference | None = None,
    *,
    exact: bool = True,
    exact_best_moves: bool = True,
    move_values: bool = True,
) -> SearchResult:
    """Check one search of ``game`` by ``searcher`` against minimax; return its result.

    Every answer must be a legal one (the chosen move among the best moves, a
    principal variation that is a legal line) and leave the position as it was.
    A result that says its best-move set is not complete (``best_moves_complete``
    false: alpha-beta with ``all_best=False`` knows one) may report only some of the
    best moves; with ``exact_best_moves`` false any searcher may. With ``move_values`` the
    position is searched a second time with ``move_values=True`` and every root
    move's value is compared too. With ``exact`` false the searcher is an
    approximate one (Monte Carlo): only the answers it says are exact
    (``is_exact``) are compared, and only when a ``reference`` is given: the same
    value, best moves among minimax's.

    :raises ConformanceError: listing every problem, with the position.
    """
    if exact and reference is None:
        reference = Reference.like(searcher)
    if reference is not None and not reference.matches(searcher, exact=exact, game=game):
        raise ConformanceError(
            f"the reference searches with {reference.minimax!r}, unlike {searcher!r}: "
            "compare searchers with the same scoring and depth limit"
        )
    name = getattr(searcher, "name", type(searcher).__name__)
    which = "expectiminimax" if searcher.expected_values or game.rules.chance else "minimax"
    before = Snapshot.of(game)
    result = searcher.search(game)
    require_unchanged(game, before, f"searcher {name!r}")
    problems = _illegal_answer(game, result)
    if reference is not None and (exact or result.is_exact):
        expected = reference.answer(game, expected=searcher.expected_values)
        # the whole set where the searcher says it knows it (see best_moves_complete)
        whole_set = exact_best_moves and exact and result.best_moves_complete
        problems += _disagreements(game, result, expected, whole_set, which)
        if move_values and exact and not expected.is_game_over:
            valued = searcher.search(game, move_values=True)
            if valued.move_values_exact:  # (values it says are bounds are not compared)
                problems += _move_value_disagreements(game, valued, expected, which)
            require_unchanged(game, before, f"searcher {name!r} with move_values=True")
    if problems:
        to_move = (
            "chance"
            if game.to_move() == CHANCE
            else capabilities.player_names(game)[game.to_move()]
        )
        raise ConformanceError(
            f"searcher {name!r} disagrees with {which} on {game.name} {before.text!r} "
            f"({to_move} to move): " + "; ".join(problems)
        )
    return result


def _illegal_answer(game: Game[Any], result: SearchResult) -> list[str]:
    """Return what makes ``result`` no legal answer for ``game``, whatever its values."""
    legal = set(game.legal_moves())
    if not legal:
        if result.move is not None or not result.is_game_over or result.best_moves:
            return [f"the game is over but the searcher chose {result.move!r}"]
        return []
    problems = []
    if result.move not in legal or result.move not in result.best_moves:
        problems.append(f"chosen move {result.move!r} is not a legal move among its best moves")
    if not set(result.best_moves) <= legal:
        problems.append(f"best moves {result.best_moves!r} are not all legal")
    if not result.pv or result.pv[0] != result.move:
        problems.append(
            f"the principal variation {result.pv!r} does not start with the chosen move"
        )
    line = game.copy()
    try:
        for move in result.pv:
            line.apply(move)
    except IllegalMoveError as error:
        problems.append(f"the principal variation is not a legal line ({error})")
    return problems


def _disagreements(
    game: Game[Any],
    result: SearchResult,
    expected: SearchResult,
    exact_best_moves: bool,
    which: str = "minimax",
) -> list[str]:
    problems = []
    if result.value != expected.value:
        problems.append(f"value {result.value}, {which} {expected.value}")
    found, best = set(result.best_moves), set(expected.best_moves)
    # Without exact_best_moves, some (at least one, unless the game is over) will do.
    agrees = found == best if exact_best_moves else found <= best and bool(found) == bool(best)
    if not agrees:
        problems.append(
            f"best moves {_moves(game, result.best_moves)}, {which} "
            f"{_moves(game, expected.best_moves)}"
        )
    elif result.move is not None and result.move not in best:
        problems.append(f"chosen move {_moves(game, [result.move])} is not one of the best")
    return problems


def _move_value_disagreements(
    game: Game[Any], result: SearchResult, expected: SearchResult, which: str = "minimax"
) -> list[str]:
    if result.move_values is None:
        return ["search(move_values=True) returned no move values"]
    found = dict(result.move_values)
    wanted: Sequence[tuple[Hashable, Value]] = expected.move_values or ()
    problems = [
        f"move {game.format_move(move)} is worth {found.get(move)}, {which} {value}"
        for move, value in wanted
        if found.get(move) != value
    ]
    extra = set(found) - {move for move, _ in wanted}
    if extra:
        problems.append(f"move values for moves that are not legal: {sorted(map(repr, extra))}")
    return problems


def check_searcher(
    searcher: Searcher,
    positions: Iterable[Game[Any]],
    *,
    reference: Reference | None = None,
    exact: bool = True,
    exact_best_moves: bool = True,
    move_values: bool = True,
) -> SearcherReport:
    """Check ``searcher`` against minimax on every position of ``positions``.

    Take the positions from :func:`reachable_positions` (a small game, all of them)
    or :func:`random_positions` / the hypothesis strategies (a sample of a large
    one, with a searcher limited by :func:`with_depth`).

    Arguments as for :func:`check_search`.

    :returns: the number of positions and the nodes both searchers visited (minimax's
        only where it was consulted).
    :raises ConformanceError: at the first position where they disagree.
    """
    if exact and reference is None:
        reference = Reference.like(searcher)
    count = nodes = reference_nodes = 0
    for game in positions:
        result = check_search(
            searcher,
            game,
            reference,
            exact=exact,
            exact_best_moves=exact_best_moves,
            move_values=move_values,
        )
        count += 1
        nodes += result.stats.nodes
        if reference is not None and (exact or result.is_exact):
            reference_nodes += reference.answer(game, expected=searcher.expected_values).stats.nodes
    return SearcherReport(
        searcher=getattr(searcher, "name", type(searcher).__name__),
        positions=count,
        nodes=nodes,
        reference_nodes=reference_nodes,
    )
