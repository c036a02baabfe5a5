"""The sandbox a student's file is graded in: a child process that holds nothing to copy.

:class:`SandboxedStudent` starts :mod:`gamesearch.testing.grading_runner` in a process of
its own and asks it for one search at a time. The child:

- starts in a fresh temporary folder holding a copy of the student's files, with an
  environment of a few variables (``PATH``, ``HOME``, ``LANG``), in a session and
  process group of its own, which is killed (``os.killpg``) when grading ends;
- has limits on CPU time, address space (memory) and the bytes it may write to a file,
  its printed output included, and may start no process;
- has no network where Linux allows a network namespace (its own, with no interface
  up); elsewhere :attr:`SandboxedStudent.network_isolated` is false and the report
  says so; and runs as the user ``nobody`` when the grader runs as root;
- imports the student's module only after all of that, and cannot import or call the
  framework's searchers or the grader (:func:`~gamesearch.testing.grading_confine.guard`);
- is sent positions and options, never the reference's answers, and answers in JSON,
  which the grader reads as data.

A search that overruns its time limit, or a child that dies, is answered with a
:class:`~gamesearch.testing.grading_model.Run` whose ``error`` says what happened, and
the next search starts a new child; a file that cannot be imported fails every test
with the same message.

A trusted searcher class (an instructor's, or one of the framework's, given as a
class) is a mode of the same runner: its child is forked from the grader
(:func:`~gamesearch.testing.grading_runner.serve_trusted`), is asked the same requests,
searches the same way and has its output captured per test the same way, with no
limits but each search's time, nothing taken away, and its answers pickled. Both need
a system that forks processes (Linux, macOS).
"""

from __future__ import annotations

import json
import math
import os
import pickle
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import attrs

from gamesearch.errors import InvalidOptionError
from gamesearch.game import Game
from gamesearch.search.base import Searcher
from gamesearch.testing.grading_confine import NOBODY
from gamesearch.testing.grading_model import Run
from gamesearch.testing.grading_runner import HEADER, serve_trusted

T = TypeVar("T")

#: the largest answer read from the child, in bytes
MAX_ANSWER_BYTES = 256 * 1024 * 1024
#: the most bytes of a student file's folder copied beside it
MAX_COPIED_BYTES = 4 * 1024 * 1024


@attrs.frozen
class Limits:
    """What the student's process may use."""

    memory_mb: int = 1024  #: address space, in MiB
    output_bytes: int = 1_000_000  #: the most bytes written to a file (printed output too)
    import_seconds: float = 10.0  #: wall time for importing the student's file
    #: CPU seconds of one child in all (``None``: twice the tests' time limits, and the import)
    cpu_seconds: float | None = None
    shown_output: int = 2000  #: characters of the student's output shown a test

    def __attrs_post_init__(self) -> None:
        for name in ("memory_mb", "output_bytes", "import_seconds", "shown_output"):
            if not getattr(self, name) > 0:
                raise InvalidOptionError(f"{name!r} must be > 0: {getattr(self, name)!r}")


@attrs.frozen
class StudentFile:
    """Where a student's searcher class is: a Python file (or a module name) and a class."""

    where: str  #: the path of a ``.py`` file, or a module's name
    class_name: str

    @classmethod
    def from_spec(cls, spec: str) -> StudentFile:
        """Return the student ``spec`` names: ``path/to/file.py:Class`` or ``module:Class``.

        :raises InvalidOptionError: when ``spec`` is not written so, or the file is missing.
        """
        where, colon, class_name = spec.rpartition(":")
        if not colon or not where or not class_name:
            raise InvalidOptionError(
                f"a student searcher is written FILE.py:Class or module:Class: {spec!r}"
            )
        if where.endswith(".py") and not Path(where).is_file():
            raise InvalidOptionError(f"no file {where!r}")
        return cls(where, class_name)

    @property
    def is_file(self) -> bool:
        """Return whether the searcher is in a file (else it is in an installed module)."""
        return self.where.endswith(".py")


def _decode(data: Any) -> Any:
    """Return the value :func:`~gamesearch.testing.grading_runner.encode` wrote.

    :raises ValueError: for data it cannot have written.
    """
    if data is None or isinstance(data, (bool, int, str)):
        return data
    if isinstance(data, dict) and len(data) == 1:
        ((kind, body),) = data.items()
        if kind == "float" and isinstance(body, (int, float)):
            return float(body)
        if kind == "fraction" and isinstance(body, list) and len(body) == 2:
            numerator, denominator = body
            if isinstance(numerator, int) and isinstance(denominator, int) and denominator > 0:
                return Fraction(numerator, denominator)
        if kind == "tuple" and isinstance(body, list):
            return tuple(_decode(item) for item in body)
    raise ValueError(f"not an answer: {data!r}"[:200])


def _same(value: Any) -> Any:
    return value


def decode_run(
    answer: Mapping[str, Any], printed: str, decode: Callable[[Any], Any] = _decode
) -> Run:
    """Return the :class:`Run` the child's JSON ``answer`` describes (``decode``: how a
    value of it reads; :func:`_same` for the pickled answer of a trusted class's child).

    :raises ValueError: for an answer the runner cannot have written.
    """
    if answer.get("error") is not None:
        return Run(
            None,
            None,
            (),
            (),
            0,
            float(answer.get("seconds", 0.0)),
            str(answer["error"]),
            printed=printed,
        )
    generated = tuple(decode(line) for line in answer["generated"])
    if not all(isinstance(line, tuple) for line in generated):
        raise ValueError("a generated position is not a line of moves")
    utilities = answer.get("utilities")
    move_values = answer.get("move_values")
    evaluations = answer.get("evaluations")
    if evaluations is not None:
        evaluations = tuple((decode(line), value) for line, value in evaluations)
        if not all(isinstance(line, tuple) and type(value) is int for line, value in evaluations):
            raise ValueError("an evaluation is not a line of moves and an int")
    return Run(
        decode(answer["value"]),
        decode(answer["move"]),
        tuple(decode(move) for move in answer["best_moves"]),
        generated,
        int(answer["nodes"]),
        float(answer["seconds"]),
        utilities=None if utilities is None else tuple(decode(item) for item in utilities),
        move_values=None
        if move_values is None
        else tuple((decode(move), decode(value)) for move, value in move_values),
        printed=printed,
        evaluations=evaluations,
    )


def minimal_environment(home: str) -> dict[str, str]:
    """Return the environment of the student's process: nothing of the grader's."""
    return {"PATH": os.defpath, "HOME": home, "TMPDIR": home, "LANG": "C.UTF-8"}


def _copy_files(student: StudentFile, folder: Path) -> str:
    """Copy the student's file and the Python files beside it into ``folder``; return the
    copy's path (a module name stays as it is)."""
    if not student.is_file:
        return student.where
    source = Path(student.where).resolve()
    budget = MAX_COPIED_BYTES
    for neighbour in sorted(source.parent.glob("*.py")):
        size = neighbour.stat().st_size
        if neighbour != source and size > budget:
            continue
        budget -= size
        shutil.copyfile(neighbour, folder / neighbour.name)
    return str(folder / source.name)


@attrs.define
class Forked:
    """A child forked from the grader, waited for as :class:`subprocess.Popen` is."""

    pid: int
    stdin: Any  #: where the child's requests are written
    returncode: int | None = None

    def wait(self, timeout: float | None = None) -> int:
        """Return the child's exit status (minus the signal that ended it), once it ends.

        :raises subprocess.TimeoutExpired: when it has not ended after ``timeout`` seconds.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.returncode is None:
            done, status = os.waitpid(self.pid, 0 if deadline is None else os.WNOHANG)
            if done:
                self.returncode = os.waitstatus_to_exitcode(status)
            elif deadline is not None and time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired(f"process {self.pid}", timeout or 0.0)
            else:
                time.sleep(0.005)
        return self.returncode


@attrs.define
class SandboxedStudent:
    """The student's searcher in a child process of its own (see the module's notes): a
    student's file in the sandbox, or a trusted searcher class in a child forked from the
    grader (with no limits but each search's time, and nothing taken away)."""

    student: StudentFile | type[Searcher]
    limits: Limits = attrs.field(factory=Limits)
    #: the modules of the games graded, imported in the child before the student's code
    preload: tuple[str, ...] = ()
    #: CPU seconds of one child, when :attr:`Limits.cpu_seconds` is ``None``
    cpu_seconds: float = 60.0
    network_isolated: bool | None = None  #: whether the child had no network (once known)
    load_error: str | None = None  #: why the student's file cannot be graded (once known)
    _process: subprocess.Popen[bytes] | Forked | None = None
    _answers: int = -1
    _folder: Path | None = None
    _output: Any = None
    _deadline: float | None = None

    # ------------------------------------------------------------ the child's life
    def _fork(self, searcher_class: type[Searcher]) -> None:
        """Fork a child that serves ``searcher_class``'s searches (a trusted class)."""
        self._output = tempfile.TemporaryFile()
        requests, ask = os.pipe()
        receive, send = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: answers until the requests end, then leaves at once
            status = 1
            try:
                os.setsid()  # a process group of its own, killed with it
                os.close(ask)
                os.close(receive)
                os.dup2(self._output.fileno(), 1)
                os.dup2(self._output.fileno(), 2)
                # (the grader's own streams may write elsewhere: a test runner's, for one)
                sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 - the child's for good
                sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
                status = serve_trusted(searcher_class, requests, send, None)
            finally:
                os._exit(status)
        os.close(requests)
        os.close(send)
        self._answers = receive
        self._process = Forked(pid, os.fdopen(ask, "wb"))

    def _start(self) -> str | None:
        """Start a child and load the student's class in it; return why that failed."""
        self.close()
        if isinstance(self.student, type):
            self._fork(self.student)
            return None
        folder = Path(tempfile.mkdtemp(prefix="gamesearch-grade-"))
        self._folder = folder
        where = _copy_files(self.student, folder)
        if os.geteuid() == 0:  # the child runs as nobody: its folder is its own
            for path in (folder, *folder.iterdir()):
                os.chown(path, NOBODY, NOBODY)
        self._output = tempfile.TemporaryFile()
        receive, send = os.pipe()
        command = [sys.executable, "-I", "-B", "-m", "gamesearch.testing.grading_runner", str(send)]
        try:
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=self._output,
                stderr=self._output,
                cwd=folder,
                env=minimal_environment(str(folder)),
                pass_fds=(send,),
                start_new_session=True,
            )
        finally:
            os.close(send)
        self._answers = receive
        cpu = self.limits.cpu_seconds or self.cpu_seconds
        limits = {
            "memory_bytes": self.limits.memory_mb * 1024 * 1024,
            "cpu_seconds": max(1, math.ceil(cpu + self.limits.import_seconds)),
            "output_bytes": self.limits.output_bytes,
        }
        setup = {
            "where": where,
            "class_name": self.student.class_name,
            "limits": limits,
            "preload": list(self.preload),
        }
        shown = Path(self.student.where).name
        answer, printed = self._ask(setup, self.limits.import_seconds)
        if isinstance(answer, str):
            if answer.startswith("timed out"):
                return (
                    f"importing {shown} took longer than {self.limits.import_seconds:g} s: does "
                    "it run a search or a loop when imported? Put test code under "
                    "if __name__ == '__main__':"
                )
            return f"importing {shown} failed: {answer}" + (
                f"; it printed: {printed}" if printed else ""
            )
        self.network_isolated = bool(answer.get("network"))
        if not answer.get("loaded"):
            return str(answer.get("error") or f"{shown} could not be loaded")
        return None

    def close(self) -> None:
        """End the child and every process of its group; remove its folder."""
        process, self._process = self._process, None
        if process is not None:
            if process.stdin is not None:
                try:
                    process.stdin.close()
                except OSError:
                    pass
            try:
                process.wait(0.5)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            process.wait()
        if self._answers >= 0:
            os.close(self._answers)
            self._answers = -1
        if self._output is not None:
            self._output.close()
            self._output = None
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    def _kill(self) -> None:
        """Kill the child's process group, and wait for the child."""
        if self._process is not None:
            try:
                os.killpg(self._process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self._process.wait()

    @property
    def trusted(self) -> bool:
        """Return whether the student is a trusted class (forked, not sandboxed)."""
        return isinstance(self.student, type)

    # ------------------------------------------------------------ one question
    def _ask(
        self, request: Mapping[str, Any], seconds: float, shown: float | None = None
    ) -> tuple[dict[str, Any] | str, str]:
        """Return the child's answer to ``request`` within ``seconds`` (or why there is
        none, a time limit of ``shown`` seconds when given) and what the student's code
        printed meanwhile."""
        assert self._process is not None and self._process.stdin is not None
        start = self._output.seek(0, os.SEEK_END)
        data = pickle.dumps(request)
        answer: dict[str, Any] | str | None
        try:
            self._process.stdin.write(HEADER.pack(len(data)) + data)
            self._process.stdin.flush()
            answer = self._receive(time.monotonic() + seconds, shown or seconds)
        except (BrokenPipeError, EOFError):
            answer = None  # the child has ended
        if not isinstance(answer, dict):
            # no answer: this child is done, the next search starts one. It is killed at
            # once, not asked to end: one still in the student's code reads no requests,
            # and one that has ended keeps its exit status
            self._kill()
            answer = self._why_it_ended() if answer is None else answer
        printed = self._printed(start)
        if isinstance(answer, str):
            self.close()
        return answer, printed

    def _receive(self, deadline: float, seconds: float) -> dict[str, Any] | str:
        header = self._read(HEADER.size, deadline)
        if header is None:
            return f"timed out after {seconds:g} s"
        (size,) = HEADER.unpack(header)
        if size > MAX_ANSWER_BYTES:
            return f"the answer is too large to read ({size} bytes)"
        body = self._read(size, deadline)
        if body is None:
            return f"timed out after {seconds:g} s"
        try:
            # a trusted class's child pickles its answers; the sandbox's child is read as data
            answer = pickle.loads(body) if self.trusted else json.loads(body)  # noqa: S301
        except ValueError:
            return "the answer could not be read"
        return answer if isinstance(answer, dict) else "the answer could not be read"

    def _read(self, size: int, deadline: float) -> bytes | None:
        """Return ``size`` bytes of the child's answers, or ``None`` at the deadline.

        :raises EOFError: when the child ends first.
        """
        chunks, wanted = [], size
        while wanted:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._answers], [], [], left)[0]:
                return None
            chunk = os.read(self._answers, min(wanted, 1 << 20))
            if not chunk:
                raise EOFError
            chunks.append(chunk)
            wanted -= len(chunk)
        return b"".join(chunks)

    def _why_it_ended(self) -> str:
        assert self._process is not None
        status = self._process.wait()
        if status == -signal.SIGXCPU:
            return "the submission used up its CPU time"
        if status < 0:
            name = signal.Signals(-status).name
            return f"the submission's process was stopped by {name} (out of memory, or a crash)"
        return (
            f"the submission ended the grading process (exit status {status}): a searcher "
            "returns its answer, it does not call os._exit() or exit the process"
        )

    def _printed(self, start: int) -> str:
        self._output.seek(start)
        shown = self.limits.shown_output
        data = self._output.read(shown * 4 + 1)
        end = self._output.seek(0, os.SEEK_END)
        text: str = data.decode("utf-8", errors="replace")
        if len(text) > shown or end - start > len(data):
            text = f"{text[:shown]}... ({end - start} bytes in all, cut here)"
        return text

    # ------------------------------------------------------------ the grader's questions
    def search(
        self,
        position: Game[Any],
        options: Mapping[str, Any],
        time_limit: float,
        *,
        move_values: bool = False,
        evaluation: str | None = None,
    ) -> Run:
        """Return what the student's search does on ``position``, stopped after
        ``time_limit`` seconds (or sooner, at the deadline :meth:`isolated` set); with
        ``evaluation`` (a function of the student's file), every call of it recorded."""
        shown, left = time_limit, time_limit
        if self._deadline is not None:
            left = min(time_limit, self._deadline - time.monotonic())
            if left <= 0:
                return Run(None, None, (), (), 0, 0.0, "no time left for this search")
        if self.load_error is None and self._process is None:
            self.load_error = self._start()
        if self.load_error is not None:
            return Run(None, None, (), (), 0, 0.0, self.load_error)
        request = {"position": position, "options": dict(options), "move_values": move_values}
        if evaluation is not None:
            request["evaluation"] = evaluation
        answer, printed = self._ask(request, left, shown)
        if isinstance(answer, str):
            return Run(None, None, (), (), 0, left, answer, printed=printed)
        try:
            return decode_run(answer, printed, _same if self.trusted else _decode)
        except (KeyError, TypeError, ValueError) as error:
            self.close()
            return Run(None, None, (), (), 0, 0.0, f"the answer could not be read: {error}")

    def evaluate(
        self, positions: list[Game[Any]], evaluation: str, time_limit: float
    ) -> list[int] | str:
        """Return the values the student's function ``evaluation`` gives ``positions``
        within ``time_limit`` seconds, or why there are none."""
        if self.load_error is None and self._process is None:
            self.load_error = self._start()
        if self.load_error is not None:
            return self.load_error
        request = {"evaluate": positions, "evaluation": evaluation}
        answer, _ = self._ask(request, time_limit)
        if isinstance(answer, str) or answer.get("error") is not None:
            return str(answer if isinstance(answer, str) else answer["error"])
        values = answer.get("values")
        if not isinstance(values, list) or not all(type(value) is int for value in values):
            self.close()
            return "the answer could not be read"
        return values

    def isolated(self, work: Callable[[], T], seconds: float, failed: Callable[[str], T]) -> T:
        """Return ``work()``, whose searches together may take ``seconds``."""
        self._deadline = time.monotonic() + seconds
        try:
            return work()
        finally:
            self._deadline = None


def game_modules(positions: Iterable[Game[Any]]) -> tuple[str, ...]:
    """Return the modules the classes of ``positions`` come from, for the child to import."""
    return tuple(dict.fromkeys(type(position).__module__ for position in positions))
