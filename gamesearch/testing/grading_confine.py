"""The confinement of the grader's child process, before any of a student's code runs.

:func:`confine` applies the resource limits (CPU time, address space, file size, no new
processes), takes the network away (a network namespace of its own, when the system
allows one) and, for a root grader, becomes the user ``nobody``. :func:`guard` then
disables the framework's own searchers, the reference searches and the grader in place
and refuses to import them again, so a submission cannot hand
in their answers. :mod:`~gamesearch.testing.grading_runner` calls both, in that order.
"""

from __future__ import annotations

import ctypes
import importlib.abc
import os
import resource
import signal
import sys
import types
from typing import Any

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
#: the modules a searcher is written with, left alone, and this one (the guard must not
#: disable itself half-way; it holds no answer, and can only confine a process more)
ALLOWED_MODULES = frozenset(
    {
        "gamesearch.search.base",
        "gamesearch.search.context",
        "gamesearch.search.limits",
        "gamesearch.search.result",
        "gamesearch.search.table",
        "gamesearch.testing.grading_confine",
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
