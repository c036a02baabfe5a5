"""The game-independent half of the brute-force oracles of the games with margins.

A test writes the rules of its game in its own plain code (the start, the children of a
state, the result of a finished one, whose turn it is) as a subclass of :class:`Oracle`;
this module walks them and solves them by memoised minimax, sharing nothing with the
game's module or the framework's searchers. It also holds the matrix of exact searchers
those tests check against the oracle, and the walk that checks one searcher on many
positions at the cost of little more than its searches (:func:`expected_answers` makes
each position and works out its answer once; :func:`check_every_position` searches copies).
"""

from __future__ import annotations

import abc
import functools
import itertools
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar

import attrs

from gamesearch import AlphaBeta, Game, IterativeDeepening, Minimax, Scoring, Searcher
from gamesearch.search.negamax import PrincipalVariationSearch
from gamesearch.search.nullwindow import MTDf, Solver
from gamesearch.search.table import SearchMemory

State = TypeVar("State", bound=Hashable)
#: above the length of any game the oracles solve: one unit of margin outweighs any distance
DISTANCE_WEIGHT = 10_000

ALPHABETA_SWITCHES = [
    {"ordering": ordering, "root_window": window, "table": table}
    for ordering, window, table in itertools.product(
        ("game", "natural"), ("shared", "fresh"), (False, True)
    )
]
EXACT_SEARCHERS: list[Searcher] = [
    Minimax(),
    IterativeDeepening(),
    PrincipalVariationSearch(),
    MTDf(),
    Solver(),
    *(AlphaBeta(**switches) for switches in ALPHABETA_SWITCHES),  # type: ignore[arg-type]
]
#: the exact searchers an exhaustive walk checks on every position where it checks the
#: others on a sample: one or two of each family, alpha-beta's loops (alpha-beta with its
#: default switches and with every switch turned the other way; iterative deepening runs
#: the same loops under a deepening driver), the principal variation search, and the
#: null-window solver (MTD(f) shares its null-window search)
EVERY_POSITION: list[Searcher] = [
    AlphaBeta(),
    AlphaBeta(ordering="natural", root_window="fresh", table=True),
    PrincipalVariationSearch(),
    Solver(),
]
#: the exact searchers that keep a transposition table (all but minimax and alpha-beta
#: without its table), the ones whose answer may depend on what a memory holds
TABLE_SEARCHERS: list[Searcher] = [
    searcher
    for searcher in EXACT_SEARCHERS
    if not isinstance(searcher, Minimax) and attrs.asdict(searcher).get("table", True)
]


def rank(outcome: tuple[int, int]) -> int:
    """Return a number the first player maximises for ``(result, plies to the end)``: the
    larger margin first, then the faster win or the slower loss."""
    result, plies = outcome
    if result > 0:
        return result * DISTANCE_WEIGHT - plies
    if result < 0:
        return result * DISTANCE_WEIGHT + plies
    return 0


class Oracle(abc.ABC, Generic[State]):
    """Exact values of a game's states by memoised minimax over rules a test writes."""

    def __init__(self) -> None:
        self.children = functools.cache(self._children)
        self.solve = functools.cache(self._solve)

    @abc.abstractmethod
    def start(self) -> State:
        """Return the starting state."""

    @abc.abstractmethod
    def _children(self, state: State) -> list[tuple[str, State]]:
        """Return (move text, next state) for every legal move; [] once the game is over."""

    @abc.abstractmethod
    def final_result(self, state: State) -> int:
        """Return the result of a finished state, first player's point of view."""

    @abc.abstractmethod
    def first_to_move(self, state: State) -> bool:
        """Return whether the first player moves in ``state``."""

    def _solve(self, state: State) -> tuple[int, int]:
        """Return (the result, plies to the end) under best play."""
        children = self.children(state)
        if not children:
            return self.final_result(state), 0
        pick = max if self.first_to_move(state) else min
        result, plies = pick((self.solve(child) for _, child in children), key=rank)
        return result, plies + 1

    def best_moves(self, state: State, scoring: Scoring = Scoring.DISTANCE) -> set[str]:
        """Return the text of every move that keeps the best outcome (with plain scoring:
        every move that keeps the best result, however long it takes)."""
        if scoring is Scoring.PLAIN:
            result = self.solve(state)[0]
            return {move for move, child in self.children(state) if self.solve(child)[0] == result}
        ranked = {move: rank(self.solve(child)) for move, child in self.children(state)}
        best = (max if self.first_to_move(state) else min)(ranked.values())
        return {move for move, value in ranked.items() if value == best}

    def reachable(self) -> Iterator[State]:
        """Yield every state reachable from the start, each once."""
        start = self.start()
        seen, stack = {start}, [start]
        while stack:
            state = stack.pop()
            yield state
            for _, child in self.children(state):
                if child not in seen:
                    seen.add(child)
                    stack.append(child)

    def answer(
        self, state: State, game: Game[Any], scoring: Scoring = Scoring.DISTANCE
    ) -> tuple[int, int, set[str]]:
        """Return the value of ``game`` (the position ``state``) on the framework's documented
        scale, its margin and its best moves."""
        result, plies = self.solve(state)
        return (
            game.rules.scale.proven(result, game.ply + plies, scoring),
            result,
            self.best_moves(state, scoring),
        )


def searcher_id(searcher: Searcher) -> str:
    """Return the searcher's name and its alpha-beta switches, for test ids."""
    options = attrs.asdict(searcher)
    return searcher.name + "".join(
        f":{name}={options[name]}" for name in ALPHABETA_SWITCHES[0] if name in options
    )


def search_answer(searcher: Searcher, game: Game[Any]) -> tuple[int, int | None, set[str]]:
    """Return the searcher's value, margin and best moves; check that it is exact and
    leaves the position as it was."""
    before = game.to_text()
    answer = searcher.search(game)
    assert answer.is_exact, (searcher_id(searcher), before)
    assert game.to_text() == before
    return answer.value, answer.margin, {game.format_move(move) for move in answer.best_moves}


@attrs.frozen
class Expected:
    """A position made once, and the oracle's answer for it."""

    game: Game[Any]
    value: int
    margin: int
    best_moves: frozenset[Hashable]
    #: the position's key, ply and history, which a search must leave as they were
    position: tuple[Hashable, int, tuple[Hashable, ...]]


def expected_answers(
    oracle: Oracle[State],
    states: Iterable[State],
    make_game: Callable[[State], Game[Any]],
    scoring: Scoring = Scoring.DISTANCE,
) -> list[Expected]:
    """Return, for each state in turn, its position (``make_game(state)``) and the oracle's
    value, margin and best moves (as moves of the position, not text)."""
    found = []
    for state in states:
        game = make_game(state)
        value, margin, best = oracle.answer(state, game, scoring)
        moves = frozenset(game.parse_move(text) for text in best)
        found.append(Expected(game, value, margin, moves, (game.key(), game.ply, game.history)))
    return found


def one_in(step: int, cases: Sequence[Expected], searcher: Searcher) -> Sequence[Expected]:
    """Return one of ``cases`` in ``step`` (every one for a step of 1), starting at the
    searcher's place in ``EXACT_SEARCHERS``: the searchers a walk samples each check other
    positions, so that between them they cover more of the walk than one sample would."""
    start = EXACT_SEARCHERS.index(searcher) % step if searcher in EXACT_SEARCHERS else 0
    return cases[start::step]


def check_every_position(
    searcher: Searcher, cases: Sequence[Expected], memory: SearchMemory | None
) -> int:
    """Search a copy of each case's position in turn, with ``memory`` kept from one search to
    the next (``None``: each search from an empty memory), and compare with the oracle.

    Returns how many positions were checked (all of them).

    :raises AssertionError: at the first answer that is not exact, differs from the
        oracle's in value, margin or best moves, or leaves the position changed; the
        message names the searcher and the position and gives both answers.
    """
    for case in cases:
        game = case.game.copy()
        answer = searcher.search(game, memory=memory)
        if not (
            answer.is_exact
            and answer.value == case.value
            and answer.margin == case.margin
            and frozenset(answer.best_moves) == case.best_moves
            and (game.key(), game.ply, game.history) == case.position
        ):
            texts = sorted(game.format_move(move) for move in answer.best_moves)
            expected = sorted(game.format_move(move) for move in case.best_moves)
            raise AssertionError(
                f"{searcher_id(searcher)} on {case.game.to_text()!r}: value {answer.value}, margin "
                f"{answer.margin}, best moves {texts}, exact {answer.is_exact}, position left "
                f"{game.to_text()!r}; the oracle: value {case.value}, margin {case.margin}, "
                f"best moves {expected}"
            )
    return len(cases)
