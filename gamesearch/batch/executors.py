"""Where batch work runs: this process, local worker processes, or a Dask cluster.

Every executor does one thing, :meth:`Executor.map_unordered`: call a function on each
item somewhere and yield each :class:`Finished` item as soon as it is done, in the order
they finish. Only a bounded number of items is in flight at a time (a few per worker),
so stopping a run (Ctrl-C) loses little work and cancels the rest at once.

- :class:`InlineExecutor`: one item after the other in this process;
- :class:`LocalExecutor`: ``workers`` processes of this machine
  (:class:`concurrent.futures.ProcessPoolExecutor`); a worker process that dies takes
  the pool down, and the items in flight are run again, one at a time, in a new pool:
  the item that kills its worker again is reported as lost, the others are computed;
- :class:`DaskExecutor`: the workers of a Dask distributed cluster, given the
  scheduler's address (``tcp://host:8786``), short items sent in groups. The scheduler
  gives the task of a lost worker to another one; an item that took several workers
  down with it is reported as lost.

The function and the items must pickle (module-level functions, attrs classes).
"""

from __future__ import annotations

import abc
import concurrent.futures
import importlib
import logging
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType
from typing import Any, Generic, Self, TypeVar

import attrs

from gamesearch.errors import ClusterLostError, InvalidOptionError, MissingDependencyError

T = TypeVar("T")
R = TypeVar("R")

#: items in flight per local worker process (enough to keep it busy between two answers)
IN_FLIGHT_PER_WORKER = 2
#: items in flight per Dask worker thread (more: each answer comes back through the scheduler)
DASK_IN_FLIGHT_PER_THREAD = 8
#: tasks sent between two counts of the cluster's worker threads
DASK_RECOUNT_EVERY = 50
#: seconds of work one Dask task aims at (short items are sent in groups)
DASK_TASK_SECONDS = 0.2
#: seconds of work one task of a local worker process aims at
LOCAL_TASK_SECONDS = 0.05
#: the most items one task computes
LARGEST_GROUP = 64
#: the most local worker processes a core: more only wait on each other (and on memory)
MOST_WORKERS_PER_CORE = 8


def check_worker_count(workers: int, name: str = "the number of workers") -> int:
    """Return ``workers``, a number of local worker processes, once it is sane here.

    ``name`` is how the message calls the number (an option's name, say).

    :raises InvalidOptionError: for fewer than one, or more than
        :data:`MOST_WORKERS_PER_CORE` for each core of this machine.
    """
    cores = os.cpu_count() or 1
    most = MOST_WORKERS_PER_CORE * cores
    if workers < 1:
        raise InvalidOptionError(f"{name} must be >= 1: {workers!r}")
    if workers > most:
        raise InvalidOptionError(
            f"{name} must be <= {most:,} ({MOST_WORKERS_PER_CORE} for each of this machine's "
            f"{cores} core{'s' if cores != 1 else ''}; more only wait on each other): {workers:,}"
        )
    return workers


@attrs.define
class GroupSize:
    """How many items one task computes, so that it lasts about ``seconds``: one at
    first, then sized from the mean time per item measured so far."""

    seconds: float
    size: int = 1
    _item_seconds: float | None = None

    def measured(self, seconds: float, items: int) -> None:
        """Record that a task of ``items`` items took ``seconds`` of work."""
        each = seconds / max(items, 1)
        mean = each if self._item_seconds is None else 0.8 * self._item_seconds + 0.2 * each
        self._item_seconds = mean
        self.size = max(1, min(LARGEST_GROUP, int(self.seconds / max(mean, 1e-6))))


@attrs.frozen
class Finished(Generic[T, R]):
    """One item done: its result, or why it was lost (``error``; ``result`` is then ``None``)."""

    item: T
    result: R | None
    error: str | None = None


class Executor(abc.ABC):
    """Runs a function on many items; use it as a context manager (it shuts down on exit)."""

    #: how many items it computes at once
    workers: int

    @property
    @abc.abstractmethod
    def description(self) -> str:
        """Return where the work runs, in words: ``2 local processes``, ``Dask at tcp://...``."""

    @abc.abstractmethod
    def map_unordered(
        self, function: Callable[[T], R], items: Sequence[T]
    ) -> Iterator[Finished[T, R]]:
        """Yield each item of ``items`` with ``function(item)``, in the order they finish.

        An exception ``function`` raises is raised here; an item lost with its worker
        (see the module) is yielded with an ``error``.
        """

    def close(self) -> None:  # noqa: B027 (an executor without workers has nothing to stop)
        """Stop every worker this executor started; items not started are dropped."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


class InlineExecutor(Executor):
    """Computes one item after the other in this process (Ctrl-C stops it at once)."""

    workers = 1

    @property
    def description(self) -> str:
        """Return ``this process``."""
        return "this process"

    def map_unordered(
        self, function: Callable[[T], R], items: Sequence[T]
    ) -> Iterator[Finished[T, R]]:
        """Yield each item with ``function(item)``, in order."""
        for item in items:
            yield Finished(item, function(item))


class LocalExecutor(Executor):
    """Computes items in ``workers`` processes of this machine (default: one per core),
    never more processes than there are items to compute.

    :raises InvalidOptionError: for fewer than one worker or more than
        :func:`check_worker_count` allows.
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = check_worker_count(workers if workers is not None else (os.cpu_count() or 1))
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    @property
    def description(self) -> str:
        """Return ``N local processes``."""
        return f"{self.workers} local process{'es' if self.workers != 1 else ''}"

    def map_unordered(
        self, function: Callable[[T], R], items: Sequence[T]
    ) -> Iterator[Finished[T, R]]:
        """Yield each item with ``function(item)`` as the worker processes finish them.

        When a worker process dies (the pool breaks), the items that were in flight are
        run again one at a time in a new pool, so the one that kills its worker is
        found: it is yielded with an ``error``, and the others are computed.
        """
        waiting = list(reversed(items))
        suspects: list[T] = []  # in flight when a worker died: each is tried alone
        groups = GroupSize(LOCAL_TASK_SECONDS)
        while waiting or suspects:
            pool = self._new_pool(len(waiting) + len(suspects))
            running: dict[concurrent.futures.Future[tuple[list[R], float]], list[T]] = {}
            alone = False
            try:
                while waiting or suspects or running:
                    alone = bool(suspects) or alone and bool(running)
                    room = 1 if alone else self.workers * IN_FLIGHT_PER_WORKER
                    while (suspects or waiting) and len(running) < room:
                        chunk = (
                            [suspects.pop()]
                            if alone
                            else [waiting.pop() for _ in range(min(groups.size, len(waiting)))]
                        )
                        running[pool.submit(_run_group, function, chunk)] = chunk
                    done, _ = concurrent.futures.wait(
                        running, return_when=concurrent.futures.FIRST_COMPLETED
                    )
                    for future in done:
                        results, seconds = (
                            future.result()
                        )  # raises BrokenProcessPool when a worker died
                        groups.measured(seconds, len(results))
                        for item, result in zip(running.pop(future), results, strict=True):
                            yield Finished(item, result)
            except BrokenProcessPool:
                for future, chunk in running.items():
                    if future.done() and not future.cancelled() and future.exception() is None:
                        for item, result in zip(chunk, future.result()[0], strict=True):
                            yield Finished(item, result)  # done before the worker died
                    elif alone:
                        yield Finished(chunk[0], None, "its worker process died while computing it")
                    else:
                        suspects.extend(chunk)
            except BaseException:  # Ctrl-C, or the consumer gave up: do not wait for searches
                self._terminate()
                raise
            finally:
                self.close()

    def _new_pool(self, items: int) -> concurrent.futures.ProcessPoolExecutor:
        """Return a new pool of ``workers`` processes, or one for each of ``items`` if fewer."""
        self._pool = concurrent.futures.ProcessPoolExecutor(max_workers=min(self.workers, items))
        return self._pool

    def _terminate(self) -> None:
        """Stop the worker processes at once, whatever they are computing."""
        if self._pool is not None:
            processes = (
                getattr(self._pool, "_processes", None) or {}
            )  # no public way before Python 3.14
            for process in list(processes.values()):
                process.terminate()

    def close(self) -> None:
        """Stop the worker processes; items not started are cancelled."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class DaskExecutor(Executor):
    """Computes items on the workers of the Dask cluster whose scheduler is at ``address``.

    :raises MissingDependencyError: when Dask distributed is not installed.
    :raises InvalidOptionError: when no scheduler answers at ``address`` within ``timeout``
        seconds.
    """

    def __init__(self, address: str, *, timeout: float = 10.0) -> None:
        distributed = dask_distributed()
        self.address = address
        try:
            self._client: Any = distributed.Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            raise InvalidOptionError(f"no Dask scheduler answers at {address!r}: {error}") from None
        threads = sum(self._client.nthreads().values())
        self.workers = max(1, threads)
        # once the scheduler is gone, the client's attempts to reach it again are logged
        # as errors with tracebacks; the lost connection is this executor's to report
        self._quiet = _WhileDisconnected(self._client)
        logging.getLogger("distributed.client").addFilter(self._quiet)
        # ... and the client's message channel logs its closing, with a traceback, when the
        # scheduler goes (sometimes before the client itself has noticed)
        logging.getLogger("distributed.batched").addFilter(_keep_unless_closed)

    @property
    def description(self) -> str:
        """Return ``Dask at ADDRESS (N threads)``."""
        threads = "thread" if self.workers == 1 else "threads"
        return f"Dask at {self.address} ({self.workers} worker {threads})"

    def map_unordered(
        self, function: Callable[[T], R], items: Sequence[T]
    ) -> Iterator[Finished[T, R]]:
        """Yield each item with ``function(item)`` as the cluster's workers finish them.

        Short items travel in groups (one Dask task computes several), sized from the
        time the items took so far so that a task lasts about :data:`DASK_TASK_SECONDS`:
        the scheduler's round trip is then paid once a group. The items of a group lost
        with its workers are sent again one a task.

        :raises ClusterLostError: when the connection to the scheduler is lost (the items
            yielded before are whole; the others are dropped).
        """
        distributed = dask_distributed()
        try:
            yield from self._map_unordered(function, items)
        except (distributed.client.FutureCancelledError, distributed.comm.CommClosedError):
            raise ClusterLostError(
                f"the connection to the Dask scheduler at {self.address} was lost "
                "(the scheduler stopped, or the network between us failed)"
            ) from None

    def _map_unordered(
        self, function: Callable[[T], R], items: Sequence[T]
    ) -> Iterator[Finished[T, R]]:
        distributed = dask_distributed()
        waiting = list(reversed(items))
        alone: list[T] = []  # items of a group that took its workers down: one a task now
        flowing = distributed.as_completed(loop=self._client.loop)
        running: dict[str, tuple[Any, list[T]]] = {}
        sent, groups = 0, GroupSize(DASK_TASK_SECONDS)
        try:
            while waiting or alone or running:
                while (waiting or alone) and len(
                    running
                ) < self.workers * DASK_IN_FLIGHT_PER_THREAD:
                    sent += 1
                    if sent % DASK_RECOUNT_EVERY == 0:  # workers may have joined or left
                        self.workers = max(1, sum(self._client.nthreads().values()))
                    chunk = (
                        [alone.pop()]
                        if alone
                        else [waiting.pop() for _ in range(min(groups.size, len(waiting)))]
                    )
                    future = self._client.submit(_run_group, function, chunk, pure=False)
                    running[future.key] = (future, chunk)
                    flowing.add(future)
                future = next(flowing)
                _, chunk = running.pop(future.key)
                if future.status == "error":
                    error = future.exception()
                    if not isinstance(error, distributed.KilledWorker):
                        raise error
                    if len(chunk) > 1:
                        alone.extend(chunk)
                    else:
                        yield Finished(
                            chunk[0], None, "it took down every Dask worker that tried it"
                        )
                    continue
                results, seconds = future.result()
                groups.measured(seconds, len(chunk))
                for item, result in zip(chunk, results, strict=True):
                    yield Finished(item, result)
        finally:  # an error, Ctrl-C or a consumer that stopped: drop what is still queued
            flowing.clear()
            if running:
                self._client.cancel([future for future, _ in running.values()])

    def close(self) -> None:
        """Disconnect from the scheduler (the cluster keeps running; queued items are dropped)."""
        self._client.close()
        logging.getLogger("distributed.client").removeFilter(self._quiet)
        logging.getLogger("distributed.batched").removeFilter(_keep_unless_closed)


class _WhileDisconnected(logging.Filter):
    """Drops what a Dask client logs while it is not connected to its scheduler."""

    def __init__(self, client: Any) -> None:
        super().__init__()
        self.client = client

    def filter(self, record: logging.LogRecord) -> bool:
        """Return whether to keep ``record``: only while the client is connected."""
        return str(getattr(self.client, "status", "running")) == "running"


def _keep_unless_closed(record: logging.LogRecord) -> bool:
    """Return whether to keep ``record``: not when it reports a closed connection (the
    executor reports a lost scheduler itself, in one line)."""
    error = record.exc_info[1] if record.exc_info else None
    return type(error).__name__ != "CommClosedError"


def _run_group(function: Callable[[T], R], items: list[T]) -> tuple[list[R], float]:
    """Return ``function(item)`` for each of ``items`` and the seconds they took (on a worker)."""
    started = time.perf_counter()
    results = [function(item) for item in items]
    return results, time.perf_counter() - started


def dask_distributed() -> Any:
    """Return the ``distributed`` module (Dask's cluster client).

    :raises MissingDependencyError: when it is not installed, naming the extra to install.
    """
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise MissingDependencyError(
            "a Dask scheduler needs the distributed extra: pip install 'gamesearch[distributed]'"
        ) from None


def make_executor(
    workers: int | None = None, scheduler: str | None = None, *, inline_one: bool = False
) -> Executor:
    """Return the executor the options name: Dask at ``scheduler`` when given, else
    ``workers`` local processes (default: one per core; ``inline_one``: one worker is
    this process).

    :raises InvalidOptionError: for both options at once, or a bad worker count.
    :raises MissingDependencyError: for a scheduler without Dask installed.
    """
    if scheduler is not None:
        if workers is not None:
            raise InvalidOptionError("give --workers or --scheduler, not both")
        return DaskExecutor(scheduler)
    if inline_one and workers == 1:
        return InlineExecutor()
    return LocalExecutor(workers)
