"""The batch runner: compute what the store is missing, store each record as it comes.

:func:`run_batch` skips every task whose key is already stored (that is how a rerun
resumes), hands the rest to an executor and stores each record the moment it arrives,
in a transaction of its own. :func:`summarize` reads the figures of a set of tasks back
from the store, so they cover the records of earlier runs too.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from gamesearch.batch.executors import Executor, Finished
from gamesearch.batch.store import ResultStore
from gamesearch.batch.tasks import Record, Status, Task, run_task, worker_name
from gamesearch.plugins import Registry


@attrs.frozen
class BatchSummary:
    """The figures of a batch: its tasks as the store holds them, and this run's work."""

    positions: int  #: distinct positions
    tasks: int  #: positions times searchers
    done: int  #: tasks stored as done (this run and earlier ones)
    agreed: int  #: done tasks whose value is the expected one
    disagreed: int  #: done tasks whose value is not the expected one (or is inexact)
    expected: int  #: tasks that have an expected value
    failed: int
    over_budget: int
    missing: int  #: tasks not stored (the run was stopped)
    computed: int  #: records this run stored
    resumed: int  #: tasks already stored when this run started
    seconds: float  #: this run's wall time
    nodes: int  #: nodes of the done tasks
    task_seconds: float  #: the searches' own time, summed over the done tasks

    @property
    def rate(self) -> float:
        """Return the tasks this run stored per second of wall time (0 before any)."""
        return self.computed / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        """Return the figures as JSON-ready data (``positions_per_second`` included)."""
        return {**attrs.asdict(self), "positions_per_second": self.rate}

    def line(self) -> str:
        """Return the one summary line: done, agreed, failed, over budget, time, rate."""
        agreed = f", {self.agreed:,} of {self.expected:,} agree" if self.expected else ""
        resumed = f" ({self.resumed:,} from earlier runs)" if self.resumed else ""
        missing = f", {self.missing:,} not computed" if self.missing else ""
        return (
            f"{self.done:,} of {self.tasks:,} done{resumed}{agreed}, {self.failed:,} failed, "
            f"{self.over_budget:,} over budget{missing}; {self.computed:,} computed in "
            f"{self.seconds:.1f} s ({self.rate:,.1f} positions/s)"
        )


def missing_tasks(tasks: Sequence[Task], store: ResultStore) -> list[Task]:
    """Return the tasks whose key the store does not hold, each key once, in order."""
    stored = store.keys()
    missing, seen = [], set()
    for task in tasks:
        if task.key not in stored and task.key not in seen:
            seen.add(task.key)
            missing.append(task)
    return missing


def run_batch(
    tasks: Sequence[Task],
    store: ResultStore,
    executor: Executor,
    *,
    registry: Registry | None = None,
    on_record: Callable[[Record], None] | None = None,
    work: Callable[[Task], Record] | None = None,
) -> BatchSummary:
    """Compute every task the store is missing on ``executor`` and store each record as
    it arrives; return the summary of ``tasks`` as stored.

    ``registry`` (default: the installed plugins) is sent to the workers with each task
    (its classes must be importable by name there). ``on_record`` is called after each
    record is stored. ``work`` computes a task (default: :func:`run_task` with
    ``registry``; it must pickle for worker processes). A task lost with its workers is stored as
    failed, with why.
    Ctrl-C (KeyboardInterrupt) propagates once the executor has stopped; every record
    stored until then stays.
    """
    started = time.perf_counter()
    todo = missing_tasks(tasks, store)
    resumed = len({task.key for task in tasks}) - len(todo)
    if work is None:
        work = run_task if registry is None else functools.partial(run_task, registry=registry)
    computed = 0
    for finished in executor.map_unordered(work, todo):
        record = _record_of(finished)
        if store.add(record):
            computed += 1
        if on_record is not None:
            on_record(record)
    return summarize(
        tasks, store, seconds=time.perf_counter() - started, computed=computed, resumed=resumed
    )


def _record_of(finished: Finished[Task, Record]) -> Record:
    if finished.result is not None:
        return finished.result
    task = finished.item
    return Record(
        game=task.game_key,
        position=task.position,
        searcher=task.label,
        line=task.line,
        status=Status.FAILED,
        expected=task.expected,
        worker=worker_name(),
        error=finished.error,
    )


def summarize(
    tasks: Sequence[Task],
    store: ResultStore,
    *,
    seconds: float = 0.0,
    computed: int = 0,
    resumed: int = 0,
) -> BatchSummary:
    """Return the figures of ``tasks`` as the store holds them (``seconds``, ``computed``
    and ``resumed`` describe the run)."""
    keys = list(dict.fromkeys(task.key for task in tasks))
    records = store.records(keys)
    done = [record for record in records if record.status is Status.DONE]
    return BatchSummary(
        positions=len({(task.game_key, task.position) for task in tasks}),
        tasks=len(keys),
        done=len(done),
        agreed=sum(1 for record in done if record.agrees),
        disagreed=sum(1 for record in done if record.agrees is False),
        expected=sum(
            1 for task in {task.key: task for task in tasks}.values() if task.expected is not None
        ),
        failed=sum(1 for record in records if record.status is Status.FAILED),
        over_budget=sum(1 for record in records if record.status is Status.OVER_BUDGET),
        missing=len(keys) - len(records),
        computed=computed,
        resumed=resumed,
        seconds=seconds,
        nodes=sum(record.nodes for record in done),
        task_seconds=sum(record.seconds for record in done),
    )
