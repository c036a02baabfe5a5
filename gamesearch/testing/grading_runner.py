"""The grader's child process: imports a student's file and runs its searches, nothing else.

:mod:`gamesearch.testing.grading_sandbox` starts this module with ``python -I -m`` in a
fresh temporary folder, with a minimal environment and a session of its own. The
parent writes requests to this process's standard input (a 4-byte length, then a
pickle: the parent is trusted) and reads the answers from the file descriptor named on
the command line (a 4-byte length, then JSON: the parent never unpickles what this
process says). The student's own output goes to standard output and error, which the
parent points at a file of its own.

The first request sets the process up, before any of the student's code runs:
resource limits (CPU time, address space, file size, no new processes), no network
(a network namespace of its own, when the system allows one), another user (when the
grader runs as root), and the guard: the framework's own searchers, the reference
searches and the grader are disabled in place and cannot be imported again, so a
submission cannot hand in their answers. Then the student's module is imported.
Every later request is one search: a position, the searcher options, and whether to
give the value of each move; the answer is what :func:`run_recorded`, the grader's one
search path (the reference's too), found. A trusted class's child, forked from the
grader, serves the same requests (:func:`serve_trusted`).
"""

from __future__ import annotations

import copy
import errno
import functools
import importlib
import importlib.abc
import importlib.util
import json
import os
import pickle
import struct
import sys
import time
import traceback
from collections.abc import Hashable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple, cast

import gamesearch
from gamesearch.errors import GameSearchError, SearchTooDeepError
from gamesearch.game import Game, offers
from gamesearch.testing.grading_confine import confine, guard

#: the length of a message, before it
HEADER = struct.Struct(">I")


# ---------------------------------------------------------------- recording a search
Line = tuple[Hashable, ...]


#: the shortcuts of a game that score a position's children without playing them
UNPLAYED = ("move_results", "advance_results")


class MisplayedError(Exception):
    """A searcher that does not leave its positions as it found them (a push() without its
    undo(), or an undo() too many)."""


def _line_text(game: Game[Any], moves: Sequence[Hashable]) -> str:
    """Return where ``moves`` lead from ``game``: ``after a1 b2`` (the position itself: none)."""
    if not moves:
        return "at the position itself"
    return "after " + " ".join(str(game._safe_format(move)) for move in moves)


def _position_text(game: Game[Any]) -> str:
    try:
        return repr(game.to_text())
    except Exception:  # a position with no text: its moves say where it is
        return "(a position with no text)"


#: the most moves of a line a message shows
SHOWN_MOVES = 8


def left_changed(given: Game[Any], searched: Game[Any]) -> str | None:
    """Return what a student reads when a search of ``given`` leaves ``searched`` (its copy)
    another position: where it was left, by which moves; ``None`` when it is the same."""
    start = len(given.history)
    if tuple(searched.history) == tuple(given.history):
        return None
    extra = tuple(searched.history[start:])
    lost = tuple(given.history[len(searched.history) :])
    if lost or len(searched.history) < start:
        return (
            f"the search leaves the position it was given ({_position_text(given)}) with "
            f"{len(lost)} of its moves taken back: is there one undo() too many?"
        )
    moves = " ".join(str(given._safe_format(move)) for move in extra[:SHOWN_MOVES])
    if len(extra) > SHOWN_MOVES:
        moves += f" ... ({len(extra)} moves)"
    return (
        f"the search leaves the position it was given ({_position_text(given)}) changed: it "
        f"ends at {_position_text(searched)}, with {moves} still played: a push() without "
        "its undo()? Each push(move) needs a game.undo() once that move is searched"
    )


def recording(
    game: Game[Any], *, copies: bool = False, every_move: bool = False, checked: bool = False
) -> tuple[Game[Any], list[Line]]:
    """Return a copy of ``game`` that records every position generated on it, and the record.

    Each ``push`` (or a game's own ``advance``) appends the moves from ``game`` to the
    new position. With ``copies``, so do the copies taken of the recording position
    (``copy()``) and their own copies: a search that plays its moves on copies is recorded
    too; else a copy records nothing. With ``every_move``, the game's shortcuts that score
    children without playing them (:data:`UNPLAYED`) are withdrawn, so a fast core (the
    library's ``alphabeta``) plays every position it looks at where it is recorded.
    With ``checked`` (a student's search), an ``undo()`` at the position given and a move
    the game fails to play raise :class:`MisplayedError` naming the position and the move.
    """
    log: list[Line] = []
    base = type(game)
    start = len(game.history)
    original_push, original_copy, original_undo = base.push, base.copy, base.undo
    original_advance = cast(Any, base).advance if offers(base, "advance") else None

    def push(self: Game[Any], move: Hashable) -> None:
        if not checked:
            original_push(self, move)
        else:
            before = tuple(self.history[start:])
            try:
                original_push(self, move)
            except Exception as error:
                raise MisplayedError(
                    f"the game cannot play {game._safe_format(move)} "
                    f"{_line_text(game, before)} ({type(error).__name__}: {error}): is it "
                    "a legal move there? A push() without its undo() leaves the search in "
                    "another position than it thinks"
                ) from None
        log.append(tuple(self.history[start:]))

    def undo(self: Game[Any]) -> Hashable:
        if len(self.history) <= start:
            raise MisplayedError(
                f"undo() at the position the search was given ({_position_text(game)}): "
                "one undo() too many, or an undo() without its push()"
            )
        return original_undo(self)  # type: ignore[no-any-return]

    def advance(self: Game[Any], move: Hashable) -> int | None:
        assert original_advance is not None
        result: int | None = original_advance(self, move)
        log.append(tuple(self.history[start:]))
        return result

    def copy(self: Game[Any]) -> Game[Any]:
        twin = original_copy(self)
        twin.__class__ = type(self) if copies else base
        return twin

    members: dict[str, Any] = {"__slots__": (), "push": push, "copy": copy}
    if checked:
        members["undo"] = undo
    if every_move:
        members.update(dict.fromkeys(UNPLAYED))  # (None withdraws a capability's member)
    if original_advance is not None:  # the default advance pushes: it is recorded there
        members["advance"] = advance
    recorder = type(f"Recorded{base.__name__}", (base,), members)
    twin = game.copy()
    twin.__class__ = recorder
    return twin, log


def encode(value: Any) -> Any:
    """Return ``value`` (a move, a value, a line of moves) as JSON data.

    :raises TypeError: for a value that is not a number, text, ``None`` or a tuple of them.
    """
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return {"float": value}
    if isinstance(value, Fraction):
        return {"fraction": [value.numerator, value.denominator]}
    if isinstance(value, tuple):
        return {"tuple": [encode(item) for item in value]}
    raise TypeError(f"cannot send back a {type(value).__name__}: {value!r}")


def _framework_folders() -> tuple[str, ...]:
    """Return the folders of the framework's own code, its games' and Python's."""
    packages = (gamesearch, sys.modules.get("gamesearch_games"), os)
    return tuple(
        str(Path(package.__file__).parent) + os.sep
        for package in packages
        if package is not None and package.__file__ is not None
    )


def _where(error: BaseException, student_file: str | None, anywhere: bool = True) -> str:
    """Return `` (line N of FILE)``: the student's own line, where the error passed through
    it (in ``student_file``, else the last outside the framework and Python; else, when
    ``anywhere``, the last line of all)."""
    frames = traceback.extract_tb(error.__traceback__)
    mine = [frame for frame in frames if student_file and frame.filename == student_file]
    if not mine:
        framework = _framework_folders()
        mine = [frame for frame in frames if not frame.filename.startswith(framework)]
    if not mine and anywhere:
        mine = frames
    if not mine:
        return ""
    frame = mine[-1]
    return f" (line {frame.lineno} of {Path(frame.filename).name})"


def describe_error(error: BaseException, student_file: str | None, output_bytes: int) -> str:
    """Return what a student reads about ``error``, raised by their code."""
    if isinstance(error, OSError) and error.errno == errno.EFBIG:
        return (
            f"the submission wrote more than {output_bytes} bytes (printed output or a file): "
            "take out the prints inside the search"
        )
    if isinstance(error, MisplayedError):
        return f"{error}{_where(error, student_file, anywhere=False)}"
    if isinstance(error, MemoryError):
        return "the submission ran out of memory (MemoryError): does it store every position?"
    if isinstance(error, SystemExit):
        return (
            f"the submission called sys.exit({error.code!r})"
            f"{_where(error, student_file)}: a searcher returns its answer, it does not exit"
        )
    reason = f"{type(error).__name__}: {error}"
    if not isinstance(error, GameSearchError):  # the framework's own errors say enough
        reason += _where(error, student_file)
    return reason


class Searched(NamedTuple):
    """What one recorded search did: its result (``None`` when it failed), the positions it
    generated (each once, where first generated), its seconds, and why it failed."""

    result: Any
    generated: tuple[Line, ...]
    seconds: float
    error: str | None


#: the most moves below the position given at which a search too deep for Python cannot
#: be for its positions' sake (it plays and takes back moves out of step)
RECURSING = 200


def _checking_root(searcher: Any, given: Game[Any]) -> Any:
    """Return ``searcher`` with a root that, once it has answered, raises
    :class:`MisplayedError` when it left the position it was given (a copy of ``given``)
    changed: before the framework reads the answer off a position that is not the root's."""
    base = type(searcher)

    def root(self: Any, position: Game[Any], context: Any) -> Any:
        answer = base.root(self, position, context)
        changed = left_changed(given, position)
        if changed is not None:
            raise MisplayedError(changed)
        return answer

    twin = copy.copy(searcher)
    object.__setattr__(
        twin, "__class__", type(base.__name__, (base,), {"__slots__": (), "root": root})
    )
    return twin


def run_recorded(
    searcher: Any,
    game: Game[Any],
    *,
    move_values: bool = False,
    copies: bool = False,
    every_move: bool = False,
    student_file: str | None = None,
    output_bytes: int = 0,
    checked: bool = False,
    catch: type[BaseException] = BaseException,
    record: Any = recording,
) -> Searched:
    """Return what ``searcher`` does on ``game`` (left unchanged), recorded (``copies`` and
    ``every_move``: see :func:`recording`): the one search path of the grader, for the
    reference, a trusted class and the sandbox's child alike.

    An exception of the search that is a ``catch`` is kept as its description
    (:func:`describe_error`, at ``student_file``'s line), not raised. ``checked`` (a
    student's search): its moves are checked as :func:`recording` says, and a search that
    leaves the position changed fails, with :func:`left_changed`'s description.
    """
    position, log = record(game, copies=copies, every_move=every_move, checked=checked)
    if checked:
        searcher = _checking_root(searcher, game)
    started = time.perf_counter()
    try:
        if move_values:
            result = searcher.search(position, move_values=True)
        else:
            result = searcher.search(position)
    except catch as error:  # the student's code may raise anything: report it
        reason = describe_error(error, student_file, output_bytes)
        deepest = max(map(len, log), default=0)
        if checked and isinstance(error, SearchTooDeepError) and deepest < RECURSING:
            reason = (
                f"the search recursed deeper than Python allows, though no position it played "
                f"is more than {deepest} moves below the position given: does it take back more "
                "moves than it plays (an undo() too many), or search a position again from "
                "itself?"
            )
        return Searched(None, (), time.perf_counter() - started, reason)
    seconds = time.perf_counter() - started
    changed = left_changed(game, position) if checked else None
    if changed is not None:
        return Searched(None, (), seconds, changed)
    return Searched(result, tuple(dict.fromkeys(log)), seconds, None)


# ---------------------------------------------------------------- a student's evaluation
def student_function(searcher_class: type[Any], name: str) -> Any:
    """Return the function ``name`` of the student's class's module, or why there is none."""
    function = getattr(sys.modules.get(searcher_class.__module__), name, None)
    if not callable(function):
        return f"the submission has no function {name}(game): keep the name of the starter file"
    return function


def checked_value(name: str, value: Any) -> int:
    """Return ``value``, what the evaluation ``name`` returned, if an int (else TypeError)."""
    if not isinstance(value, int) or isinstance(value, bool):
        kind = type(value).__name__
        raise TypeError(f"{name}() returned {value!r} (a {kind}): an evaluation returns an int")
    return value


def recorded_evaluation(
    module: Any, name: str, start: int, log: list[tuple[Line, int]], check: Any = checked_value
) -> Any:
    """Put in place of the student's evaluation ``name`` of ``module`` one that records each
    position it scores (its moves after ``start``) with the value; return the undoing."""
    function = getattr(module, name)

    def recorded(game: Game[Any]) -> int:
        value: int = check(name, function(game))
        log.append((tuple(game.history[start:]), value))
        return value

    setattr(module, name, recorded)
    return lambda: setattr(module, name, function)


def evaluate_positions(
    searcher_class: type[Any],
    request: dict[str, Any],
    student_file: str | None,
    output_bytes: int,
    find: Any = student_function,
    check: Any = checked_value,
) -> dict[str, Any]:
    """Return the student's evaluation (``request["evaluation"]``) of a copy of each of
    ``request["evaluate"]``'s positions, as JSON data: the values, or the error."""
    name = request["evaluation"]
    if isinstance(function := find(searcher_class, name), str):
        return {"error": function}
    try:
        values = [function(position.copy()) for position in request["evaluate"]]
    except BaseException as error:  # the student's code may raise anything: report it
        return {"error": describe_error(error, student_file, output_bytes)}
    try:
        return {"values": [check(name, value) for value in values]}
    except TypeError as error:
        return {"error": str(error)}


def search(
    searcher_class: type[Any],
    request: dict[str, Any],
    student_file: str | None,
    output_bytes: int,
    record: Any = recording,
    run: Any = run_recorded,
    encoded: Any = encode,
    evaluations: Any = evaluate_positions,
    find: Any = student_function,
    recorded: Any = recorded_evaluation,
) -> dict[str, Any]:
    """Return the answer to one search request, as JSON data (``record``, ``run`` and a
    student's evaluation's parts: bound here before any of the student's code runs;
    ``encoded``: how a value is written, :func:`encode` unless the answer is pickled).
    A request naming the student's ``evaluation`` records its calls (``evaluations`` in
    the answer); one listing positions to ``evaluate`` gets the evaluation's values."""
    if "evaluate" in request:
        return evaluations(searcher_class, request, student_file, output_bytes)  # type: ignore[no-any-return]
    try:
        searcher = searcher_class.configured(request["options"])
    except Exception as error:
        return {"error": f"the student's searcher does not take the test's options: {error}"}
    log: list[tuple[Line, int]] = []
    restore, name = None, request.get("evaluation")
    if name is not None:
        if isinstance(problem := find(searcher_class, name), str):
            return {"error": problem}
        module = sys.modules[searcher_class.__module__]
        restore = recorded(module, name, len(request["position"].history), log)
    try:
        searched = run(
            searcher,
            request["position"],
            move_values=bool(request.get("move_values")),
            copies=True,
            checked=True,
            student_file=student_file,
            output_bytes=output_bytes,
            record=record,
        )
    finally:
        if restore is not None:
            restore()
    result = searched.result
    if searched.error is not None:
        return {"error": searched.error, "generated": [], "seconds": searched.seconds}
    try:
        return {
            "evaluations": None
            if name is None
            else [[encoded(line), value] for line, value in log],
            "value": encoded(result.value),
            "move": encoded(result.move),
            "best_moves": [encoded(move) for move in result.best_moves],
            "generated": [encoded(line) for line in searched.generated],
            "nodes": int(result.stats.nodes),
            "seconds": searched.seconds,
            "utilities": None
            if result.utilities is None
            else [encoded(utility) for utility in result.utilities],
            "move_values": None
            if result.move_values is None
            else [[encoded(move), encoded(value)] for move, value in result.move_values],
        }
    except BaseException as error:  # a student's answer may hold anything: report it
        reason = describe_error(error, student_file, output_bytes)
        return {"error": reason, "generated": [], "seconds": searched.seconds}


# ---------------------------------------------------------------- loading the student
def load(setup: dict[str, Any]) -> tuple[type[Any] | None, str | None]:
    """Return the student's class (or ``None``) and what is wrong (or ``None``)."""
    from gamesearch.search.base import Searcher

    where, class_name = setup["where"], setup["class_name"]
    shown = Path(where).name
    try:
        if where.endswith(".py"):
            sys.path.insert(0, str(Path(where).parent))
            spec = importlib.util.spec_from_file_location("student_submission", where)
            if spec is None or spec.loader is None:
                return None, f"{shown} cannot be imported as Python"
            module = importlib.util.module_from_spec(spec)
            sys.modules["student_submission"] = module
            spec.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
    except SyntaxError as error:
        return None, (
            f"{shown} has a syntax error at line {error.lineno}: {error.msg} "
            "(run it with python once to see it)"
        )
    except BaseException as error:  # anything a file does at import: report it
        reason = describe_error(error, where, int(setup["limits"]["output_bytes"]))
        return None, f"importing {shown} failed: {reason}"
    found = getattr(module, class_name, None)
    if found is None:
        classes = sorted(
            name
            for name, value in vars(module).items()
            if isinstance(value, type) and issubclass(value, Searcher) and value is not Searcher
        )
        known = f"; it has {', '.join(classes)}" if classes else ""
        return (
            None,
            f"{shown} has no class {class_name!r}{known}: keep the name of the starter file",
        )
    if not (isinstance(found, type) and issubclass(found, Searcher)):
        return None, f"{class_name!r} in {shown} is not a Searcher class: {found!r}"
    return found, None


# ---------------------------------------------------------------- the conversation
def _read(stream: Any) -> Any:
    header = stream.read(HEADER.size)
    if len(header) < HEADER.size:
        return None
    (size,) = HEADER.unpack(header)
    return pickle.loads(stream.read(size))  # noqa: S301 - the grader itself wrote it


def _write(fd: int, message: dict[str, Any]) -> None:
    data = json.dumps(message).encode("utf-8")
    os.write(fd, HEADER.pack(len(data)) + data)


def _write_pickle(fd: int, message: dict[str, Any]) -> None:
    data = pickle.dumps(message)
    os.write(fd, HEADER.pack(len(data)) + data)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # a full output file: the parent reports its size
            pass


def _same(value: Any) -> Any:
    return value


def serve(
    student: type[Any],
    requests: Any,
    reply: int,
    where: str | None,
    output_bytes: int,
    *,
    write: Any = _write,
    read: Any = _read,
    flush: Any = _flush,
    answer_to: Any = search,
) -> int:
    """Answer the search requests read from ``requests`` with ``student``'s class, each
    written to the file descriptor ``reply``, until the requests end; return the exit
    status (``where``: the student's file, whose lines errors are reported at)."""
    while (request := read(requests)) is not None:
        answer = answer_to(student, request, where, output_bytes)
        flush()
        write(reply, answer)
    return 0


def serve_trusted(student: type[Any], requests: int, reply: int, where: str | None) -> int:
    """Serve a trusted class's searches in a process forked from the grader: the same
    requests and searches as the sandbox's, with no limits or guard, and the answers
    pickled (a trusted class may have moves JSON cannot write); return the exit status."""
    with os.fdopen(requests, "rb") as stream:
        return serve(
            student,
            stream,
            reply,
            where,
            0,
            write=_write_pickle,
            answer_to=functools.partial(search, encoded=_same),
        )


def main(argv: Sequence[str]) -> int:
    """Serve the parent's requests until it closes standard input; return the exit status."""
    reply = int(argv[0])
    requests = sys.stdin.buffer
    # kept here, before the student's code runs: patching the module's names changes nothing
    write, flush, read, answer_to, served = _write, _flush, _read, search, serve
    setup = read(requests)
    if setup is None:
        return 0
    for module in setup.get("preload", ()):
        importlib.import_module(module)
    # the package's public names load when first read: read them all now, so that the
    # guard disables the searchers among them and ``from gamesearch import Searcher`` works
    for name in gamesearch.__all__:
        getattr(gamesearch, name)
    done = confine(setup["limits"])
    guard()
    student, problem = load(setup)
    flush()
    write(reply, {"loaded": problem is None, "error": problem, **done})
    if student is None:
        return 0
    output_bytes = int(setup["limits"]["output_bytes"])
    where = setup["where"] if setup["where"].endswith(".py") else None
    return served(
        student,
        requests,
        reply,
        where,
        output_bytes,
        write=write,
        read=read,
        flush=flush,
        answer_to=answer_to,
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
