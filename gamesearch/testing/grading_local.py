"""The grader's own-process parts: loading a searcher class, recording a search, a time limit.

A searcher class given as such (an instructor's, or one of the framework's) is trusted:
:class:`InProcessStudent` searches with it in this process, each graded search in a
child process forked for it and stopped at its time limit. A student's file is graded
in the sandbox instead (:mod:`gamesearch.testing.grading_sandbox`).
"""

from __future__ import annotations

import importlib
import importlib.util
import multiprocessing
import sys
import threading
import time
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol, TypeVar

import attrs

from gamesearch.errors import GameSearchError, InvalidOptionError
from gamesearch.game import Game
from gamesearch.plugins import default_registry
from gamesearch.search.base import Searcher
from gamesearch.testing.grading_model import Reference, Run
from gamesearch.testing.grading_runner import recording

T = TypeVar("T")


class StudentSearch(Protocol):
    """The student's searcher as the grader uses it, wherever it runs."""

    def search(
        self,
        position: Game[Any],
        options: Mapping[str, Any],
        time_limit: float,
        *,
        move_values: bool = False,
    ) -> Run:
        """Return what the student's search does on ``position`` with ``options``; a search
        that fails, or takes longer than ``time_limit`` seconds where it can be stopped,
        gives a :class:`Run` whose ``error`` says why."""

    def isolated(self, work: Callable[[], T], seconds: float, failed: Callable[[str], T]) -> T:
        """Return ``work()``, which calls :meth:`search`, stopped after ``seconds`` in all
        (``failed(reason)`` then)."""


@attrs.define
class InProcessStudent:
    """A trusted searcher class, searched with in this process."""

    searcher_class: type[Searcher]

    def search(
        self,
        position: Game[Any],
        options: Mapping[str, Any],
        time_limit: float,
        *,
        move_values: bool = False,
    ) -> Run:
        """Return what the class's search does on ``position`` (no time limit of its own:
        :meth:`isolated` gives it one)."""
        try:
            searcher = configured(self.searcher_class, options, "the student's searcher")
        except InvalidOptionError as error:
            return Run(None, None, (), (), 0, 0.0, str(error))
        return record_search(searcher, position, move_values=move_values, copies=True)

    def isolated(self, work: Callable[[], T], seconds: float, failed: Callable[[str], T]) -> T:
        """Return ``work()`` run in a child process stopped after ``seconds``."""
        return run_with_time_limit(work, seconds, failed)


# ----------------------------------------------------------------- loading a searcher
def load_searcher_class(spec: str) -> type[Searcher]:
    """Return the searcher class ``spec`` names: ``path/to/file.py:Class`` or ``module:Class``.

    A file is imported under a name of its own, with its folder on ``sys.path`` (so it
    may import the files beside it).

    :raises InvalidOptionError: when the file, module or class is missing, the file
        cannot be imported, or the class is not a :class:`~gamesearch.Searcher`.
    """
    where, colon, class_name = spec.rpartition(":")
    if not colon or not where or not class_name:
        raise InvalidOptionError(
            f"a student searcher is written FILE.py:Class or module:Class: {spec!r}"
        )
    if where.endswith(".py") or Path(where).is_file():
        module = _import_file(Path(where))
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as error:
            raise InvalidOptionError(f"cannot import the module {where!r}: {error}") from None
    found = getattr(module, class_name, None)
    if found is None:
        raise InvalidOptionError(f"{where!r} has no class {class_name!r}")
    if not (isinstance(found, type) and issubclass(found, Searcher)):
        raise InvalidOptionError(f"{class_name!r} in {where!r} is not a Searcher class: {found!r}")
    return found


def _import_file(path: Path) -> Any:
    """Return the module the Python file ``path`` holds, imported afresh."""
    if not path.is_file():
        raise InvalidOptionError(f"no file {str(path)!r}")
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    module_name = f"gamesearch_student_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise InvalidOptionError(f"cannot import {str(path)!r} as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[module_name]
        raise InvalidOptionError(
            f"importing {str(path)!r} failed: {type(error).__name__}: {error}"
        ) from None
    return module


# ------------------------------------------------------------ recording a search
def record_search(
    searcher: Searcher,
    game: Game[Any],
    *,
    move_values: bool = False,
    copies: bool = False,
    every_move: bool = False,
) -> Run:
    """Return what ``searcher`` answers on ``game`` (left unchanged) and the positions it generated.

    Each position counts once, where first generated: a search that looks ahead along
    a line before it searches (expectiminimax finds the probabilities' common
    denominator so) generates that line's positions again, in the order a depth-first
    search generates them first. With ``copies``, the positions generated on copies of
    the position count too (a search that plays each move on a copy). An exception of
    the search is kept in :attr:`Run.error`, not raised. ``every_move``: see
    :func:`~gamesearch.testing.grading_runner.recording` (for a reference).
    """
    position, log = recording(game, copies=copies, every_move=every_move)
    started = time.perf_counter()
    try:
        result = (
            searcher.search(position, move_values=True)
            if move_values
            else searcher.search(position)
        )
    except Exception as error:  # the student's code may raise anything: report it
        reason = f"{type(error).__name__}: {error}"
        if not isinstance(error, GameSearchError):  # the framework's own errors say enough
            where = traceback.extract_tb(error.__traceback__)[-1]
            reason += f" (line {where.lineno} of {Path(where.filename).name})"
        return Run(None, None, (), tuple(log), 0, time.perf_counter() - started, reason)
    generated = tuple(dict.fromkeys(log))  # each position once, where first generated
    return Run(
        result.value,
        result.move,
        tuple(result.best_moves),
        generated,
        result.stats.nodes,
        time.perf_counter() - started,
        utilities=result.utilities,
        move_values=None if result.move_values is None else tuple(result.move_values),
    )


def run_with_time_limit(work: Callable[[], T], seconds: float, failed: Callable[[str], T]) -> T:
    """Return ``work()`` run in a child process, stopped after ``seconds``.

    ``failed(reason)`` is the answer when ``work`` raises, overruns its time or its
    process dies. Where processes cannot be forked, ``work`` runs in a thread instead,
    which cannot be stopped: its answer is given up after ``seconds``.
    """
    timed_out = f"timed out after {seconds:g} s"
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:
        return _run_in_thread(work, seconds, failed(timed_out))
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(work, failed, sender), daemon=True)
    child.start()
    sender.close()
    try:
        if not receiver.poll(seconds):
            return failed(timed_out)
        try:
            answer: T = receiver.recv()
        except EOFError:
            return failed(f"the search ended its process (exit status {child.exitcode})")
        return answer
    finally:
        receiver.close()
        if child.is_alive():
            child.terminate()
            child.join(1)
            if child.is_alive():
                child.kill()
        child.join(1)


def _child(work: Callable[[], T], failed: Callable[[str], T], sender: Any) -> None:
    """Run ``work`` in the child process and send its answer back."""
    try:
        answer = work()
    except BaseException as error:  # a student's sys.exit() or worse: say so
        answer = failed(f"{type(error).__name__}: {error}")
    try:
        sender.send(answer)
    except Exception as error:  # an answer that does not pickle
        sender.send(failed(f"the answer cannot be sent back: {error}"))
    sender.close()


def _run_in_thread(work: Callable[[], T], seconds: float, timed_out: T) -> T:
    answers: list[T] = []
    worker = threading.Thread(target=lambda: answers.append(work()), daemon=True)
    worker.start()
    worker.join(seconds)
    return answers[0] if answers else timed_out


def failed_run(seconds: float) -> Callable[[str], Run]:
    return lambda reason: Run(None, None, (), (), 0, seconds, reason)


def reference_name(searcher: Reference) -> str:
    return searcher if isinstance(searcher, str) else searcher.name


def configured(searcher: Reference, options: Mapping[str, Any], who: str) -> Searcher:
    try:
        if isinstance(searcher, str):
            return default_registry().new_searcher(searcher, **options)
        return searcher.configured(options)
    except InvalidOptionError as error:
        raise InvalidOptionError(f"{who} does not take the test's options: {error}") from None
