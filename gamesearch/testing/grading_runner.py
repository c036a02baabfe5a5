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
give the value of each move; the answer is what :func:`record_search` found.
"""

from __future__ import annotations

import ctypes
import errno
import importlib
import importlib.abc
import importlib.util
import json
import os
import pickle
import resource
import signal
import struct
import sys
import time
import traceback
import types
from collections.abc import Hashable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

import gamesearch
from gamesearch.errors import GameSearchError
from gamesearch.game import Game, offers

#: what a disabled function says when a submission calls it
NOT_ALLOWED = "gamesearch's own searchers and grader are not allowed in a graded submission"
#: the modules a submission may not import or call: the searchers, the reference searches,
#: the conformance kit's references and the grader
GUARDED_PREFIXES = (
    "gamesearch.search.",
    "gamesearch.testing.",
    "gamesearch.cli",
    "gamesearch.web",
    "gamesearch.batch",
    "gamesearch.arena",
    "gamesearch.tournament",
)
#: the modules a searcher is written with, left alone
ALLOWED_MODULES = frozenset(
    {
        "gamesearch.search.base",
        "gamesearch.search.context",
        "gamesearch.search.limits",
        "gamesearch.search.result",
        "gamesearch.search.table",
    }
)
#: Linux's flags of unshare(2)
CLONE_NEWNET = 0x40000000
CLONE_NEWUSER = 0x10000000
#: the user a root grader runs the submission as (nobody)
NOBODY = 65534
#: Linux's capabilities interface: prctl's keep-capabilities option, capset's version,
#: and the capability to read any file
PR_SET_KEEPCAPS = 8
CAPABILITY_VERSION_3 = 0x20080522
CAP_DAC_READ_SEARCH = 2
#: the length of a message, before it
HEADER = struct.Struct(">I")


# -------------------------------------------------------------------- the guard
def is_guarded(name: str) -> bool:
    """Return whether a submission may not import the module ``name``."""
    if name in ALLOWED_MODULES:
        return False
    return any(name == prefix.rstrip(".") or name.startswith(prefix) for prefix in GUARDED_PREFIXES)


class _Refuse(importlib.abc.MetaPathFinder):
    """Refuse to import a guarded module, with a message the student understands."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        if is_guarded(fullname):
            raise ImportError(f"{fullname} is not allowed in a graded submission", name=fullname)
        return None


def _refusing_code(freevars: int) -> types.CodeType:
    """Return the code of a function that refuses to run, with ``freevars`` free variables
    (a function's code may only be replaced by code with as many)."""
    names = [f"v{index}" for index in range(freevars)]
    body = f"        ({', '.join(names)},)\n" if names else ""
    source = (
        "def outer():\n"
        + "".join(f"    {name} = None\n" for name in names)
        + "    def refused(*args, **kwargs):\n"
        + body
        + f"        raise ImportError({NOT_ALLOWED!r})\n"
        + "    return refused\n"
    )
    space: dict[str, Any] = {}
    exec(compile(source, "<not allowed>", "exec"), space)  # noqa: S102 - our own text
    code: types.CodeType = space["outer"]().__code__
    return code


def _disable(function: Any) -> None:
    """Make ``function`` (wherever it is referred to from) refuse to run."""
    function = getattr(function, "__func__", function)  # a classmethod or staticmethod
    if isinstance(function, property):
        for part in (function.fget, function.fset, function.fdel):
            if part is not None:
                _disable(part)
        return
    if isinstance(function, types.FunctionType):
        function.__code__ = _refusing_code(len(function.__code__.co_freevars))


def guard() -> None:
    """Disable every function and method of the guarded modules imported so far, forget
    the modules, and refuse to import them again."""
    guarded = [name for name in list(sys.modules) if is_guarded(name)]
    for name in guarded:
        module = sys.modules[name]
        for value in list(vars(module).values()):
            if getattr(value, "__module__", None) != name:
                continue
            if isinstance(value, type):
                for member in list(vars(value).values()):
                    _disable(member)
            else:
                _disable(value)
    for name in guarded:
        del sys.modules[name]
    sys.meta_path.insert(0, _Refuse())


# ---------------------------------------------------------------- the sandbox
def _unshare_network() -> bool:
    """Return whether this process now has a network of its own (none: only loopback, down)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return False
    flags = CLONE_NEWNET if os.geteuid() == 0 else CLONE_NEWUSER | CLONE_NEWNET
    return bool(libc.unshare(flags) == 0)


def _become_nobody() -> bool:
    """Become the user nobody, keeping one capability: reading any file (so Python and
    gamesearch, wherever installed, can still be imported), never writing one; return
    whether that worked (it needs Linux and root)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0:
            return False
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)
        header = (ctypes.c_uint32 * 2)(CAPABILITY_VERSION_3, 0)
        reading = 1 << CAP_DAC_READ_SEARCH
        # effective, permitted, inheritable, for capabilities 0-31 and 32-63
        data = (ctypes.c_uint32 * 6)(reading, reading, 0, 0, 0, 0)
        libc.capset(header, data)
        libc.prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0)
    except (OSError, AttributeError):
        return os.geteuid() == NOBODY
    return os.geteuid() == NOBODY


def confine(limits: dict[str, Any]) -> dict[str, Any]:
    """Apply the resource limits, take the network away where possible and, for a root
    grader, become the user nobody; return what was done
    (``network`` isolated or not, ``user``: ``nobody`` or ``grader``)."""
    memory = int(limits["memory_bytes"])
    cpu = int(limits["cpu_seconds"])
    output = int(limits["output_bytes"])
    for which, value in (
        (resource.RLIMIT_AS, memory),
        (resource.RLIMIT_FSIZE, output),
        (resource.RLIMIT_CORE, 0),
    ):
        resource.setrlimit(which, (value, value))
    # SIGXCPU at the limit (the grader reports it as such), SIGKILL a second later
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    # a file over the limit is an error to report, not a signal that ends the process
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    network = _unshare_network()
    user = "nobody" if os.geteuid() == 0 and _become_nobody() else "grader"
    # no new processes: none could outlive the grader, outside this process's group
    resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))
    return {"network": network, "user": user}


# ---------------------------------------------------------------- recording a search
Line = tuple[Hashable, ...]


#: the shortcuts of a game that score a position's children without playing them
UNPLAYED = ("move_results", "advance_results")


def recording(
    game: Game[Any], *, copies: bool = False, every_move: bool = False
) -> tuple[Game[Any], list[Line]]:
    """Return a copy of ``game`` that records every position generated on it, and the record.

    Each ``push`` (or a game's own ``advance``) appends the moves from ``game`` to the
    new position. With ``copies``, so do the copies taken of the recording position
    (``copy()``) and their own copies: a search that plays its moves on copies is recorded
    too; else a copy records nothing. With ``every_move``, the game's shortcuts that score
    children without playing them (:data:`UNPLAYED`) are withdrawn, so a fast core (the
    library's ``alphabeta``) plays every position it looks at where it is recorded.
    """
    log: list[Line] = []
    base = type(game)
    start = len(game.history)
    original_push, original_copy = base.push, base.copy
    original_advance = cast(Any, base).advance if offers(base, "advance") else None

    def push(self: Game[Any], move: Hashable) -> None:
        original_push(self, move)
        log.append(tuple(self.history[start:]))

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


def _where(error: BaseException, student_file: str | None) -> str:
    """Return ``at line N of FILE``: the student's own line, where the error passed through it."""
    frames = traceback.extract_tb(error.__traceback__)
    mine = [frame for frame in frames if student_file and frame.filename == student_file]
    if not (mine or frames):
        return ""
    frame = (mine or frames)[-1]
    return f" (line {frame.lineno} of {Path(frame.filename).name})"


def describe_error(error: BaseException, student_file: str | None, output_bytes: int) -> str:
    """Return what a student reads about ``error``, raised by their code."""
    if isinstance(error, OSError) and error.errno == errno.EFBIG:
        return (
            f"the submission wrote more than {output_bytes} bytes (printed output or a file): "
            "take out the prints inside the search"
        )
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


def search(
    searcher_class: type[Any],
    request: dict[str, Any],
    student_file: str | None,
    output_bytes: int,
    record: Any = recording,
) -> dict[str, Any]:
    """Return the answer to one search request, as JSON data (``record``: the recording,
    bound here before any of the student's code runs)."""
    try:
        searcher = searcher_class.configured(request["options"])
    except Exception as error:
        return {"error": f"the student's searcher does not take the test's options: {error}"}
    position, log = record(request["position"], copies=True)
    started = time.perf_counter()
    try:
        if request.get("move_values"):
            result = searcher.search(position, move_values=True)
        else:
            result = searcher.search(position)
        seconds = time.perf_counter() - started
        answer = {
            "value": encode(result.value),
            "move": encode(result.move),
            "best_moves": [encode(move) for move in result.best_moves],
            "generated": [encode(line) for line in dict.fromkeys(log)],
            "nodes": int(result.stats.nodes),
            "seconds": seconds,
            "utilities": None
            if result.utilities is None
            else [encode(utility) for utility in result.utilities],
            "move_values": None
            if result.move_values is None
            else [[encode(move), encode(value)] for move, value in result.move_values],
        }
    except BaseException as error:  # the student's code may raise anything: report it
        return {
            "error": describe_error(error, student_file, output_bytes),
            "generated": [],
            "seconds": time.perf_counter() - started,
        }
    return answer


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


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # a full output file: the parent reports its size
            pass


def main(argv: Sequence[str]) -> int:
    """Serve the parent's requests until it closes standard input; return the exit status."""
    reply = int(argv[0])
    requests = sys.stdin.buffer
    # kept here, before the student's code runs: patching the module's names changes nothing
    write, flush, read, answer_to = _write, _flush, _read, search
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
    while (request := read(requests)) is not None:
        answer = answer_to(student, request, where, output_bytes)
        flush()
        write(reply, answer)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
