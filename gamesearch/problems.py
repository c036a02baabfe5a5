"""Test suites: positions with known best moves, and how many of them a searcher solves.

A suite is text, one problem a line. A game that declares the
:class:`~gamesearch.capabilities.ProblemFiles` capability reads a format of its own
with its class method ``read_problems(text) -> list[Problem]`` (chess reads EPD), and
ships suites with ``problem_suites() -> dict[str, Path]`` (names to files, which
``gamesearch tactics`` accepts by name); every other game reads the plain format, one
problem a line::

    position | best move, best move | name

where the position is the game's text, the moves are move texts and the name is
optional; blank lines and lines starting with ``#`` are skipped. A problem counts as
solved when the searcher's chosen move is one of the best moves (and none of the
moves to avoid) within the budget it is given.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import attrs

from gamesearch.capabilities import ProblemFiles, declares
from gamesearch.errors import BudgetExceededError, GameSearchError, InvalidPositionError
from gamesearch.game import Game
from gamesearch.search.base import Limit, Searcher


def problem_files_member(cls: type, member: str) -> Callable[..., Any] | None:
    """Return the class method ``member`` (``read_problems`` or ``problem_suites``) of a
    game class that declares :class:`ProblemFiles`, ``None`` when it does not.

    For one release a class that defines the method without the declaration (the old
    protocol's way) is still served, with a :class:`DeprecationWarning`.
    """
    if declares(cls, ProblemFiles):
        found: Callable[..., Any] = getattr(cls, member)
        return found
    undeclared: Callable[..., Any] | None = getattr(cls, member, None)  # the old way
    if not callable(undeclared):
        return None
    warnings.warn(
        f"{cls.__name__}.{member} is found by its name only; declare the capability "
        f"(class {cls.__name__}(Game[...], gamesearch.capabilities.ProblemFiles)): the next "
        "release reads problem files of declaring games only",
        DeprecationWarning,
        stacklevel=3,
    )
    return undeclared


@attrs.frozen
class Problem:
    """One position of a suite with the moves that solve it."""

    name: str
    position: str  #: the position in the game's notation
    best_moves: tuple[
        str, ...
    ]  #: the moves that solve it (move texts); empty when only avoid_moves
    avoid_moves: tuple[str, ...] = ()  #: moves that fail it (move texts)


@attrs.frozen
class Attempt:
    """How a searcher did on one problem."""

    problem: Problem
    move: str | None  #: the move chosen, ``None`` when the searcher gave up
    is_solved: bool
    nodes: int
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        """Return the attempt as JSON-ready data."""
        return {
            "name": self.problem.name,
            "move": self.move,
            "solved": self.is_solved,
            "best_moves": list(self.problem.best_moves),
            "avoid_moves": list(self.problem.avoid_moves),
            "nodes": self.nodes,
            "seconds": self.seconds,
        }


@attrs.frozen
class SuiteResult:
    """How one searcher did on a whole suite."""

    searcher: str  #: the searcher's spec
    attempts: tuple[Attempt, ...]

    @property
    def solved(self) -> int:
        """Return how many problems were solved."""
        return sum(attempt.is_solved for attempt in self.attempts)

    @property
    def nodes(self) -> int:
        """Return the nodes searched over the whole suite."""
        return sum(attempt.nodes for attempt in self.attempts)

    @property
    def seconds(self) -> float:
        """Return the time spent over the whole suite."""
        return sum(attempt.seconds for attempt in self.attempts)

    def as_dict(self) -> dict[str, Any]:
        """Return the result as JSON-ready data."""
        return {
            "searcher": self.searcher,
            "solved": self.solved,
            "problems": len(self.attempts),
            "nodes": self.nodes,
            "seconds": self.seconds,
            "attempts": [attempt.as_dict() for attempt in self.attempts],
        }


def read_problems(game_class: type[Game[Any]], text: str) -> list[Problem]:
    """Return the problems of a suite, read by the game's own reader when it has one.

    :raises InvalidPositionError: naming the first line that is not a problem.
    """
    reader = problem_files_member(game_class, "read_problems")
    if reader is not None:
        problems = reader(text)
        return list(problems)
    problems = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = [part.strip() for part in line.split("|")]
        if len(parts) not in (2, 3) or not parts[0] or not parts[1]:
            raise InvalidPositionError(
                f"line {number}: {line!r} must be 'position | best move, best move | name'"
            )
        moves = tuple(move.strip() for move in parts[1].split(",") if move.strip())
        name = parts[2] if len(parts) == 3 and parts[2] else f"line {number}"
        problems.append(Problem(name, parts[0], moves))
    return problems


def attempt(
    game_class: type[Game[Any]], problem: Problem, searcher: Searcher, limit: Limit
) -> Attempt:
    """Search ``problem``'s position with ``searcher`` within ``limit`` and return how it did.

    A searcher that gives up (its budget ran out before any answer) fails the problem.

    :raises GameSearchError: when the position or one of its moves cannot be read.
    """
    game = game_class.from_text(problem.position)
    best = _moves(game, problem, problem.best_moves)
    avoid = _moves(game, problem, problem.avoid_moves)
    started = time.perf_counter()
    try:
        result = searcher.search(game, limit)
    except BudgetExceededError:
        return Attempt(problem, None, False, limit.max_nodes or 0, time.perf_counter() - started)
    move = result.move
    solved = move is not None and (not best or move in best) and move not in avoid
    written = None if move is None else game.format_move(move)
    return Attempt(problem, written, solved, result.stats.nodes, result.stats.seconds)


def _moves(game: Game[Any], problem: Problem, texts: Sequence[str]) -> set[Hashable]:
    moves = set()
    for text in texts:
        try:
            moves.add(game.parse_move(text))
        except GameSearchError as error:
            raise InvalidPositionError(
                f"problem {problem.name!r}: move {text!r} cannot be read: {error}"
            ) from None
    return moves


def run_suite(
    game_class: type[Game[Any]],
    problems: Sequence[Problem],
    searcher: Searcher,
    spec: str,
    limit: Limit,
    on_attempt: Callable[[Attempt], None] | None = None,
) -> SuiteResult:
    """Return how ``searcher`` (written ``spec``) does on every problem within ``limit`` each.

    ``on_attempt`` is called after each problem (to show progress).

    :raises GameSearchError: when a position or one of its moves cannot be read.
    """
    attempts = []
    for problem in problems:
        attempts.append(attempt(game_class, problem, searcher, limit))
        if on_attempt is not None:
            on_attempt(attempts[-1])
    return SuiteResult(spec, tuple(attempts))
