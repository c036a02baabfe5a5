"""The grader's own-process parts: loading a searcher class, recording the reference's search.

The student's searches run in another process, whether a student's file or a trusted
searcher class: :class:`~gamesearch.testing.grading_sandbox.SandboxedStudent` asks
:mod:`~gamesearch.testing.grading_runner`'s one search path for them there, as
:func:`record_search` asks it here for the reference's.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from gamesearch.errors import InvalidOptionError
from gamesearch.game import Game
from gamesearch.plugins import default_registry
from gamesearch.search.base import Searcher
from gamesearch.testing.grading_model import Reference, Run
from gamesearch.testing.grading_runner import run_recorded


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
    :func:`~gamesearch.testing.grading_runner.recording` (for a reference). The search
    path is the one the student's searches take
    (:func:`~gamesearch.testing.grading_runner.run_recorded`).
    """
    searched = run_recorded(
        searcher,
        game,
        move_values=move_values,
        copies=copies,
        every_move=every_move,
        catch=Exception,
    )
    result = searched.result
    if searched.error is not None:
        return Run(None, None, (), (), 0, searched.seconds, searched.error)
    return Run(
        result.value,
        result.move,
        tuple(result.best_moves),
        searched.generated,
        result.stats.nodes,
        searched.seconds,
        utilities=result.utilities,
        move_values=None if result.move_values is None else tuple(result.move_values),
    )


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
