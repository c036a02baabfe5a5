"""Batch work: many positions computed by local processes or a Dask cluster, stored in SQLite.

Read a file of positions (:func:`read_positions`), make one :class:`Task` per position
and searcher (:func:`make_tasks`), and give them to :func:`run_batch` with a
:class:`ResultStore` and an executor (:func:`make_executor`): every record is stored
the moment it arrives, and running the same tasks again computes only what the store
is missing. ``gamesearch batch`` is the command line of this package.
"""

from gamesearch.batch.executors import (
    DaskExecutor,
    Executor,
    Finished,
    InlineExecutor,
    LocalExecutor,
    check_worker_count,
    make_executor,
)
from gamesearch.batch.runner import BatchSummary, missing_tasks, run_batch, summarize
from gamesearch.batch.store import DEFAULT_STORE, ResultStore
from gamesearch.batch.tasks import (
    Expect,
    Method,
    PositionLine,
    Record,
    Status,
    Task,
    make_tasks,
    read_positions,
    run_task,
)

__all__ = [
    "DEFAULT_STORE",
    "BatchSummary",
    "DaskExecutor",
    "Executor",
    "Expect",
    "Finished",
    "InlineExecutor",
    "LocalExecutor",
    "Method",
    "PositionLine",
    "Record",
    "ResultStore",
    "Status",
    "Task",
    "check_worker_count",
    "make_executor",
    "make_tasks",
    "missing_tasks",
    "read_positions",
    "run_batch",
    "run_task",
    "summarize",
]
