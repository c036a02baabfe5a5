"""Benchmark: the batch runner on 1 and 2 local workers and on a 2-worker Dask cluster.

Measures, on Pons' Test_L2_R1 (1,000 positions, solved strongly with the ``solver``
searcher, a fresh table per position):

- positions per second with 1 and 2 local worker processes and with a Dask cluster of
  two single-threaded worker processes started here (``distributed.LocalCluster`` on
  127.0.0.1), and the speed-up of 2 local workers over 1;
- the per-task overhead of each executor: wall time times workers, less the searches'
  own time, per task;
- what a resumed run saves: the whole set against a rerun after half of it was stored,
  and a rerun with everything stored;
- the UCI set (every 8-ply position, weakly solved as ``uci-check`` does): the mean time
  per row over a random sample on 2 local workers, the estimate for all rows on 1, 10 and
  100 machines like this one, and which rows the time goes to.

Usage (minutes: the UCI sample dominates)::

    python -m benchmarks.batch_scaling [--uci-sample 12] [--seed 0] [--json]

It prints the machine's load average first: with other work running, 2 workers cannot
be twice as fast as one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from gamesearch.batch import (
    DaskExecutor,
    Executor,
    LocalExecutor,
    ResultStore,
    Task,
    make_tasks,
    read_positions,
    run_batch,
)
from gamesearch.batch.executors import dask_distributed
from gamesearch.batch.tasks import Method
from gamesearch.datasets import Expect, find_data_file
from gamesearch.plugins import default_registry

#: the UCI table's file in the connect4 plugin's data set
UCI_FILE = "connect-4.data"


def find_file(name: str) -> Path:
    """Return the file ``name`` of the connect4 plugin's data set (Pons' sets, the UCI table)."""
    return find_data_file(default_registry().data_sets["connect4"], name)


#: machines the UCI estimate is given for
MACHINES = (1, 10, 100)


def timed_batch(
    tasks: list[Task], executor: Executor, store_path: str = ":memory:"
) -> dict[str, Any]:
    """Return the figures of one run of ``tasks`` on ``executor`` into the store at
    ``store_path``."""
    with ResultStore(store_path) as store, executor:
        started = time.perf_counter()
        summary = run_batch(tasks, store, executor)
        wall = time.perf_counter() - started
        assert summary.failed == 0 and summary.over_budget == 0
    computed = summary.computed
    # the searches' own time (known when this run computed every task)
    busy = summary.task_seconds if summary.resumed == 0 else None
    return {
        "executor": executor.description,
        "workers": executor.workers,
        "computed": computed,
        "agreed": summary.agreed,
        "seconds": wall,
        "positions_per_second": computed / wall if wall > 0 else 0.0,
        "overhead_ms_per_task": None
        if busy is None or not computed
        else 1000 * (wall * executor.workers - busy) / computed,
    }


def scaling(set_path: Path) -> dict[str, Any]:
    """Return the runs of the whole set on 1 and 2 local workers and a 2-worker Dask cluster."""
    distributed = dask_distributed()
    positions, position_format = read_positions(set_path, "connect4")
    tasks = make_tasks("connect4", positions, ["solver"], position_format=position_format)
    runs = {
        "local 1": timed_batch(tasks, LocalExecutor(1)),
        "local 2": timed_batch(tasks, LocalExecutor(2)),
    }
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        runs["dask 2"] = timed_batch(tasks, DaskExecutor(cluster.scheduler_address))
    runs["speed-up of 2 local workers"] = (
        runs["local 2"]["positions_per_second"] / runs["local 1"]["positions_per_second"]
    )
    return runs


def resuming(set_path: Path) -> dict[str, Any]:
    """Return the whole set's time on 2 workers against reruns with half, then all, stored."""
    positions, position_format = read_positions(set_path, "connect4")
    tasks = make_tasks("connect4", positions, ["solver"], position_format=position_format)
    with tempfile.TemporaryDirectory() as folder:
        store = os.path.join(folder, "resume.sqlite")
        whole = timed_batch(tasks, LocalExecutor(2), os.path.join(folder, "whole.sqlite"))
        timed_batch(tasks[: len(tasks) // 2], LocalExecutor(2), store)  # as if stopped half-way
        half = timed_batch(tasks, LocalExecutor(2), store)
        nothing = timed_batch(tasks, LocalExecutor(2), store)
    return {
        "whole set": whole["seconds"],
        "rerun with half stored": half["seconds"],
        "rerun with all stored": nothing["seconds"],
        "saved by the resume": whole["seconds"] - half["seconds"],
    }


def uci_estimate(sample: int, seed: int) -> dict[str, Any]:
    """Return the UCI sample's times on 2 local workers and the estimates for the whole set."""
    rows, _ = read_positions(find_file(UCI_FILE), "connect4", format="uci")
    chosen = random.Random(seed).sample(rows, sample)
    tasks = [
        Task(
            "connect4",
            row.position,
            line=row.line,
            expected=row.expected,
            expect=Expect.OUTCOME,
            method=Method.SOLVE_WEAK,
        )
        for row in chosen
    ]
    with ResultStore() as store, LocalExecutor(2) as executor:
        started = time.perf_counter()
        run_batch(tasks, store, executor)
        wall = time.perf_counter() - started
        records = store.records(task.key for task in tasks)
    seconds = sorted((record.seconds for record in records), reverse=True)
    by_label: dict[str, list[float]] = {}
    for record in records:
        by_label.setdefault({1: "win", 0: "draw", -1: "loss"}[record.expected or 0], []).append(
            record.seconds
        )
    per_row = wall * executor.workers / len(records)  # a core's time per row, overheads included
    cores = os.cpu_count() or 1
    return {
        "rows in the set": len(rows),
        "rows sampled": len(records),
        "agreed": sum(1 for record in records if record.agrees),
        "sample wall seconds on 2 workers": wall,
        "mean seconds per row": statistics.fmean(seconds),
        "median seconds per row": statistics.median(seconds),
        "slowest row seconds": seconds[0],
        "share of the time in the slowest tenth of the rows": sum(
            seconds[: max(1, len(seconds) // 10)]
        )
        / sum(seconds),
        "mean seconds by label": {
            label: statistics.fmean(times) for label, times in sorted(by_label.items())
        },
        "rows by label": {label: len(times) for label, times in sorted(by_label.items())},
        "cores per machine": cores,
        "estimated hours for the whole set": {
            f"{machines} machine{'s' if machines > 1 else ''}": len(rows)
            * per_row
            / (cores * machines)
            / 3600
            for machines in MACHINES
        },
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures (``--json``: one object); return 0."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.batch_scaling", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--uci-sample", type=int, default=12, help="UCI rows to time (default: 12; 0: none)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the UCI sample (default: 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    set_path = find_file("Test_L2_R1")
    figures: dict[str, Any] = {"load average before": os.getloadavg()}
    figures["Test_L2_R1"] = scaling(set_path)
    figures["resume"] = resuming(set_path)
    if args.uci_sample > 0:
        figures["UCI"] = uci_estimate(args.uci_sample, args.seed)
    figures["load average after"] = os.getloadavg()
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        _print(figures)
    return 0


def _print(figures: dict[str, Any], indent: str = "") -> None:
    for name, value in figures.items():
        if isinstance(value, dict):
            print(f"{indent}{name}:")
            _print(value, indent + "  ")
        elif isinstance(value, float):
            print(f"{indent}{name}: {value:,.3f}")
        elif isinstance(value, tuple):
            print(f"{indent}{name}: {', '.join(f'{item:.2f}' for item in value)}")
        else:
            print(
                f"{indent}{name}: {value:,}"
                if isinstance(value, int)
                else f"{indent}{name}: {value}"
            )


if __name__ == "__main__":
    raise SystemExit(main())
