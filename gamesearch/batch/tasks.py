"""What one batch task is, how a worker computes it, and how position files are read.

A :class:`Task` names a game, a position in the game's notation, how to compute it (a
searcher spec under a :class:`~gamesearch.search.base.Limit`, or the exact value alone)
and, optionally, the value the file expects. :func:`run_task` computes it in whatever
process the executor chose and returns a :class:`Record`: done, failed (the searcher
raised; its message is kept) or over budget. It never raises for a position's sake, so
one bad position cannot stop a batch.
"""

from __future__ import annotations

import enum
import os
import socket
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

from gamesearch import capabilities
from gamesearch.datasets.fetch import DataSet
from gamesearch.datasets.formats import LINES, Expect, PositionFormat, PositionLine
from gamesearch.errors import (
    BudgetExceededError,
    GameSearchError,
    InvalidOptionError,
    InvalidPositionError,
)
from gamesearch.game import Game
from gamesearch.plugins import Registry, default_registry
from gamesearch.rules import Player
from gamesearch.score import score_of
from gamesearch.search.base import Limit
from gamesearch.search.nullwindow import solve

# Expect and PositionLine live with the file formats; the batch runner's users find them here
__all__ = [
    "Expect",
    "Method",
    "PositionLine",
    "Record",
    "Status",
    "Task",
    "game_data_sets",
    "make_tasks",
    "read_positions",
    "run_task",
]

#: ``solver(game, weak=...)``: the exact value for the side to move and the nodes it took
Solver = Callable[..., tuple[int, int]]


class Method(enum.Enum):
    """How a task is computed."""

    SEARCH = "search"  #: the searcher spec's search of the position, under the task's limit
    SOLVE = "solve"  #: the exact value alone, by null-window binary search (no best moves)
    SOLVE_WEAK = "solve-weak"  #: win, draw or loss alone, by the same search


class Status(enum.Enum):
    """How a task ended."""

    DONE = "done"
    FAILED = "failed"  #: the search raised; the record keeps the message
    OVER_BUDGET = "over budget"  #: the search gave up on the task's limit


@attrs.frozen
class Task:
    """One position to compute; ``(game, position, label)`` is its key in a store."""

    game: str  #: the registry name
    position: str  #: in the game's notation (a Connect Four move sequence is one)
    searcher: str = "solver"  #: the searcher spec (used by :attr:`Method.SEARCH`)
    line: int = 0  #: where the position is in its file (1-based; 0: not from a file)
    expected: int | None = None  #: what the file expects, read as :attr:`expect` says
    expect: Expect = Expect.MARGIN
    limit: Limit | None = None  #: the task's budget (:attr:`Method.SEARCH` only)
    method: Method = Method.SEARCH
    options: tuple[tuple[str, str], ...] = ()  #: game options, ``(key, value)`` pairs
    label_text: str | None = None  #: the store's name for what is computed (default: the spec)
    #: the position format the expected value comes from (whose ``score`` reads a
    #: :attr:`Expect.SCORE` value); ``None``: the framework's own
    format: str | None = None

    @property
    def label(self) -> str:
        """Return what the store calls the computation: the searcher spec unless named."""
        if self.label_text is not None:
            return self.label_text
        return self.searcher if self.method is Method.SEARCH else self.method.value

    @property
    def game_key(self) -> str:
        """Return the game with its options, e.g. ``tictactoe`` or ``tictactoe:k=3,rows=4``."""
        if not self.options:
            return self.game
        return self.game + ":" + ",".join(f"{key}={value}" for key, value in self.options)

    @property
    def key(self) -> tuple[str, str, str]:
        """Return the task's unique key in a store: game, position, label."""
        return (self.game_key, self.position, self.label)


@attrs.frozen
class Record:
    """A task's result as it is stored: a row of the results store."""

    game: str  #: the game and its options (:attr:`Task.game_key`)
    position: str
    searcher: str  #: the task's label (:attr:`Task.label`)
    line: int
    status: Status
    value: int | Fraction | None = None  #: first player's view; ``None`` unless done
    exact: bool | None = None
    best_moves: tuple[str, ...] = ()  #: in the game's notation (none for a value alone)
    nodes: int = 0
    seconds: float = 0.0
    worker: str = ""  #: ``host:pid`` of the process that computed it
    expected: int | None = None
    found: int | None = None  #: the value read as the expected value is (``None``: not exact)
    error: str | None = None  #: why it failed or gave up
    #: the value's typed score as JSON data (:meth:`gamesearch.score.Score.as_dict`: its
    #: ``kind`` and that kind's fields); ``None`` unless done
    score: dict[str, Any] | None = attrs.field(default=None, hash=False)

    @property
    def agrees(self) -> bool | None:
        """Return whether the found value is the expected one (``None``: nothing expected)."""
        if self.expected is None:
            return None
        return self.status is Status.DONE and self.found == self.expected

    @property
    def key(self) -> tuple[str, str, str]:
        """Return the record's unique key: game, position, label."""
        return (self.game, self.position, self.searcher)

    def as_dict(self) -> dict[str, Any]:
        """Return the record as JSON-ready data (a Fraction value as text ``"p/q"``)."""
        value = self.value
        return {
            "game": self.game,
            "position": self.position,
            "searcher": self.searcher,
            "line": self.line,
            "status": self.status.value,
            "value": str(value) if isinstance(value, Fraction) else value,
            "exact": self.exact,
            "best_moves": list(self.best_moves),
            "nodes": self.nodes,
            "seconds": self.seconds,
            "worker": self.worker,
            "expected": self.expected,
            "found": self.found,
            "agrees": self.agrees,
            "error": self.error,
            "score": self.score,
        }


def worker_name() -> str:
    """Return ``host:pid`` of the current process (where a record was computed)."""
    return f"{socket.gethostname()}:{os.getpid()}"


def run_task(task: Task, registry: Registry | None = None, *, solver: Solver = solve) -> Record:
    """Compute ``task`` and return its record; never raises for the position's sake.

    A searcher that gives up on its budget gives an "over budget" record; any other
    exception (a bad position, a searcher that raises) a "failed" record with its
    message; Ctrl-C (KeyboardInterrupt) is raised. ``registry`` defaults to the
    installed plugins; ``solver(game, weak=...)`` returns ``(value, nodes)`` for the
    value-alone methods (default: :func:`~gamesearch.search.nullwindow.solve`).
    """
    started = time.perf_counter()
    base: dict[str, Any] = {
        "game": task.game_key,
        "position": task.position,
        "searcher": task.label,
        "line": task.line,
        "expected": task.expected,
        "worker": worker_name(),
    }
    try:
        return _compute(
            task, registry if registry is not None else default_registry(), base, solver
        )
    except BudgetExceededError as error:
        status, message = Status.OVER_BUDGET, str(error)
    except Exception as error:  # any failure of one position is recorded, not raised
        status, message = Status.FAILED, f"{type(error).__name__}: {error}"
    return Record(**base, status=status, seconds=time.perf_counter() - started, error=message)


def _compute(task: Task, registry: Registry, base: dict[str, Any], solver: Solver) -> Record:
    game = registry.new_game(task.game, task.position, **dict(task.options))
    if task.method is Method.SEARCH:
        searcher = registry.new_searcher(task.searcher)
        result = searcher.search(game, task.limit)
        value: int | Fraction = result.value
        exact, nodes, seconds = result.is_exact, result.stats.nodes, result.stats.seconds
        best = tuple(game.format_move(move) for move in result.best_moves)
        margin = result.margin
        score = result.score
    else:
        weak = task.method is Method.SOLVE_WEAK
        started = time.perf_counter()
        to_move, nodes = solver(game, weak=weak)
        seconds = time.perf_counter() - started
        value = to_move if game.to_move() == Player.FIRST else -to_move
        exact, best = True, ()
        margin = _sign(value) if weak else game.rules.scale.margin(value)
        # (a weak value, +1/0/-1, is no search value: score_of reads it as a bare outcome)
        score = score_of(
            value,
            is_exact=True,
            scale=game.rules.scale,
            depth=0,
            ply=game.ply,
            names=capabilities.player_names(game),
            forced_win=capabilities.forced_win_name(game),
        )
    found = (
        _read_as(task, registry, game, value, margin, weak=task.method is Method.SOLVE_WEAK)
        if exact
        else None
    )
    return Record(
        **base,
        status=Status.DONE,
        value=value,
        exact=exact,
        best_moves=best,
        nodes=nodes,
        seconds=seconds,
        found=found,
        score=score.as_dict(),
    )


def _read_as(
    task: Task,
    registry: Registry,
    game: Game[Any],
    value: int | Fraction,
    margin: Any,
    *,
    weak: bool,
) -> int | None:
    """Return the exact ``value`` (first player's view) read as ``task.expect`` says (a
    score by the ``score`` function of the task's position format).

    :raises InvalidOptionError: for a score without a format that scores.
    """
    expect = task.expect
    first = game.to_move() == Player.FIRST
    if expect is Expect.MARGIN:
        return None if margin is None else int(margin)
    if expect is Expect.OUTCOME:
        return _sign(value)
    if expect is Expect.SIGN:
        return _sign(value) if first else -_sign(value)
    if weak or isinstance(value, Fraction):  # a weak value has no score
        return None
    score = registry.position_format(task.game, task.format or LINES).score
    if score is None:
        raise InvalidOptionError(
            f"the position format {task.format or LINES!r} of {task.game} gives no scores"
        )
    return score(game, value if first else -value)


def _sign(value: int | Fraction) -> int:
    return (value > 0) - (value < 0)


# ------------------------------------------------------------------ position files
def read_positions(
    path: Path,
    game: str,
    *,
    format: str | None = None,
    options: dict[str, Any] | None = None,
    limit: int | None = None,
    registry: Registry | None = None,
) -> tuple[list[PositionLine], PositionFormat]:
    """Return the positions of the file ``path`` of the game ``game`` (the first ``limit``
    when given) and the format they were read in.

    The format is ``format`` when given (a name the game's plugins declare, or
    ``lines``), else the one the game's data set declares for a file of that name (Pons'
    ``Test_L2_R1``, say), else the framework's ``lines`` (see
    :mod:`gamesearch.datasets.formats`). Every position is read as ``game`` with
    ``options`` here, so a line that is not a position is named before any work starts.

    :raises InvalidPositionError: naming the first line that is not a position or whose
        expected value cannot be the game's, with the game's other formats.
    :raises InvalidOptionError: for a format the game does not read.
    :raises InvalidDataError: when the file cannot be read as text.
    """
    found = registry if registry is not None else default_registry()
    options = options or {}
    start = found.new_game(game, None, **options)
    chosen = found.position_format(game, format or _declared_format(found, game, path.name))
    positions = list(chosen.read(path, start))[:limit]
    if not positions:
        raise InvalidPositionError(f"{str(path)!r} holds no position")
    for item in positions:
        try:
            found.new_game(game, item.position, **options)
        except GameSearchError as error:
            raise InvalidPositionError(
                f"line {item.line} of {str(path)!r} is not a position of {game}: {error}"
                f"{_other_formats(found, game, chosen)}"
            ) from None
    return positions, chosen


def _declared_format(found: Registry, game: str, file_name: str) -> str:
    """Return the format a data set of ``game`` declares for its file ``file_name`` (the
    framework's ``lines`` when none does)."""
    for data_set in game_data_sets(found, game):
        published = data_set.file(file_name)
        if published is not None and published.format is not None:
            return published.format
    return LINES


def game_data_sets(found: Registry, game: str) -> list[DataSet]:
    """Return the registered data sets that hold positions of ``game``."""
    return [data_set for data_set in found.data_sets.values() if data_set.game == game]


def _other_formats(found: Registry, game: str, chosen: PositionFormat) -> str:
    others = [fmt for name, fmt in found.position_formats(game).items() if name != chosen.name]
    if not others:
        return ""
    listed = "; ".join(f"'{fmt.name}': {fmt.description}" for fmt in others)
    return f" (files of {game} may also be read with --format NAME: {listed})"


def make_tasks(
    game: str,
    positions: Sequence[PositionLine],
    searchers: Sequence[str],
    *,
    expect: Expect | None = None,
    position_format: PositionFormat | None = None,
    limit: Limit | None = None,
    options: Sequence[tuple[str, str]] = (),
) -> list[Task]:
    """Return one task per position and searcher spec, position by position.

    A task's expected value reads as ``expect`` when given, else as its line says, else
    as ``position_format`` says (the framework's ``lines``: a margin).

    :raises InvalidOptionError: when no searcher is given or one is repeated.
    """
    if not searchers:
        raise InvalidOptionError("a batch needs at least one searcher")
    repeated = sorted({spec for spec in searchers if list(searchers).count(spec) > 1})
    if repeated:
        raise InvalidOptionError(
            f"each searcher must differ; repeated: {', '.join(map(repr, repeated))}"
        )
    default = position_format.expect if position_format is not None else Expect.MARGIN
    name = (
        None if position_format is None or position_format.name == LINES else position_format.name
    )
    return [
        Task(
            game,
            item.position,
            spec.strip(),
            item.line,
            item.expected,
            expect or item.expect or default,
            limit,
            options=tuple(options),
            format=name,
        )
        for item in positions
        for spec in searchers
    ]
