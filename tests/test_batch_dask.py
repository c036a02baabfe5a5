"""The batch runner and tournaments on a real Dask cluster started here, on 127.0.0.1 only.

The cluster is a scheduler and two single-threaded workers, each a process of its own
(``python -m dask scheduler`` / ``worker``, no nanny, so a killed worker stays dead).
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest
from batchdata import needs_set, pons_sample, stored_rows, timeless
from clirun import SCRIPT, run_cli

distributed = pytest.importorskip(
    "distributed",
    reason="Dask distributed is not installed (pip install 'gamesearch[distributed]')",
)

from gamesearch.batch import (  # noqa: E402
    DaskExecutor,
    LocalExecutor,
    Record,
    ResultStore,
    Status,
    make_tasks,
    read_positions,
    run_batch,
)
from gamesearch.errors import InvalidOptionError  # noqa: E402

needs_data = needs_set("Test_L1_R1")
#: seconds the cluster may take to start (the machine may be loaded)
START_TIMEOUT = 90


@attrs.define
class Cluster:
    """A scheduler and its workers, each a subprocess bound to 127.0.0.1."""

    folder: Path
    scheduler: subprocess.Popen[bytes] | None = None
    workers: list[subprocess.Popen[bytes]] = attrs.Factory(list)
    address: str = ""

    def start(self, workers: int) -> None:
        file = self.folder / "scheduler.json"
        self.scheduler = self._spawn(
            "scheduler", "--host", "127.0.0.1", "--port", "0", "--scheduler-file", str(file)
        )
        deadline = time.monotonic() + START_TIMEOUT
        while not file.exists() or not file.read_text().strip().endswith("}"):
            assert time.monotonic() < deadline and self.scheduler.poll() is None, (
                "the Dask scheduler did not start"
            )
            time.sleep(0.1)
        self.address = json.loads(file.read_text())["address"]
        for _ in range(workers):
            self.add_worker()
        self.wait_for(workers)

    def add_worker(self) -> subprocess.Popen[bytes]:
        worker = self._spawn(
            "worker",
            self.address,
            "--nthreads",
            "1",
            "--no-nanny",
            "--host",
            "127.0.0.1",
            "--local-directory",
            str(self.folder),
            "--name",
            f"worker-{len(self.workers)}",
        )
        self.workers.append(worker)
        return worker

    def wait_for(self, workers: int) -> None:
        with distributed.Client(self.address, timeout=START_TIMEOUT) as client:
            client.wait_for_workers(workers, timeout=START_TIMEOUT)

    def _spawn(self, *argv: str) -> subprocess.Popen[bytes]:
        log = (self.folder / f"{argv[0]}-{len(self.workers)}.log").open("wb")
        return subprocess.Popen(
            [sys.executable, "-m", "dask", *argv, "--no-dashboard"],
            stdout=log,
            stderr=subprocess.STDOUT,
        )

    def stop(self) -> None:
        for process in [*self.workers, *([self.scheduler] if self.scheduler else [])]:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=30)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    running = Cluster(tmp_path_factory.mktemp("dask"))
    try:
        running.start(workers=2)
        yield running
    finally:
        running.stop()


def same_answer(record: Record) -> tuple[object, ...]:
    return (
        record.position,
        record.status,
        record.value,
        record.best_moves,
        record.nodes,
        record.found,
    )


@pytest.mark.slow
@needs_data
def test_a_dask_batch_gives_the_results_of_local_processes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, cluster: Cluster
) -> None:
    sample, scores = pons_sample(tmp_path, "Test_L2_R1", range(3, 1001, 28))
    dask_store, local_store = tmp_path / "dask.sqlite", tmp_path / "local.sqlite"
    status, out, _ = run_cli(
        capsys,
        "batch",
        "connect4",
        str(sample),
        "--scheduler",
        cluster.address,
        "--store",
        str(dask_store),
        "--json",
    )
    summary = json.loads(out)
    assert status == 0 and summary["executor"].startswith(
        f"Dask at {cluster.address} (2 worker threads"
    )
    assert summary["positions"] == summary["done"] == summary["agreed"] == len(scores) == 36
    run_cli(capsys, "batch", "connect4", str(sample), "--workers", "2", "--store", str(local_store))
    with ResultStore(dask_store) as on_dask, ResultStore(local_store) as local:
        assert sorted(map(same_answer, on_dask.records())) == sorted(
            map(same_answer, local.records())
        )
        workers = {record.worker for record in on_dask.records()}
    assert {record_worker.partition(":")[2] for record_worker in workers} <= {
        str(process.pid) for process in cluster.workers
    }


@pytest.mark.slow
@needs_data
def test_a_worker_killed_mid_batch_loses_no_position(tmp_path: Path, cluster: Cluster) -> None:
    sample, scores = pons_sample(tmp_path, "Test_L1_R1", range(1, 41))
    positions, position_format = read_positions(sample, "connect4")
    tasks = make_tasks("connect4", positions, ["solver"], position_format=position_format)
    victim = cluster.add_worker()
    cluster.wait_for(3)
    killed_after: list[int] = []
    arrived: list[Record] = []

    def stored(record: Record) -> None:
        arrived.append(record)
        if not killed_after and record.worker.endswith(f":{victim.pid}"):
            victim.send_signal(signal.SIGKILL)  # the worker has more tasks queued, in flight
            killed_after.append(len(arrived))

    with (
        ResultStore(tmp_path / "killed.sqlite") as store,
        DaskExecutor(cluster.address) as executor,
    ):
        summary = run_batch(tasks, store, executor, on_record=stored)
        records = store.records()
    assert killed_after and killed_after[0] < len(tasks), (
        "the victim worker was never killed mid-batch"
    )
    assert victim.wait(timeout=30) == -signal.SIGKILL
    assert (summary.done, summary.agreed, summary.failed) == (len(scores), len(scores), 0)
    assert sorted(record.position for record in records) == sorted(scores)  # every position once
    assert all(
        record.status is Status.DONE and record.found == scores[record.position]
        for record in records
    )
    assert len(arrived) == len(scores)


@pytest.mark.slow
def test_a_scheduler_that_does_not_answer_is_one_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "one.txt"
    path.write_text("XX./OO./... | 1\n")
    with pytest.raises(
        InvalidOptionError, match="no Dask scheduler answers at 'tcp://127.0.0.1:9'"
    ):
        DaskExecutor("tcp://127.0.0.1:9", timeout=0.2)  # (nothing listens there: refused)
    status, out, err = run_cli(
        capsys,
        "batch",
        "tictactoe",
        str(path),
        "--scheduler",
        "tcp://127.0.0.1:9",
        "--workers",
        "2",
    )
    assert status == 2 and "not allowed with argument" in err


@pytest.mark.slow
def test_a_tournament_on_dask_has_the_standings_of_the_local_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, cluster: Cluster
) -> None:
    argv = (
        "tournament",
        "connect4",
        "--players",
        "alphabeta:depth=1",
        "alphabeta:depth=2",
        "mcts:simulations=30",
        "--games",
        "4",
        "--seed",
        "11",
        "--json",
    )
    status, out, _ = run_cli(capsys, *argv)
    local = json.loads(out)
    store = tmp_path / "tournament.sqlite"
    status, out, _ = run_cli(capsys, *argv, "--scheduler", cluster.address, "--store", str(store))
    on_dask = json.loads(out)
    assert status == 0 and timeless(on_dask) == timeless(local)
    assert [
        (player["label"], player["wins"], player["draws"], player["losses"])
        for player in on_dask["players"]
    ] == [
        (player["label"], player["wins"], player["draws"], player["losses"])
        for player in local["players"]
    ]
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT count(*), count(DISTINCT number) FROM games").fetchone() == (
            12,
            12,
        )


@pytest.mark.slow
@needs_data
def test_solve_bench_on_dask_reports_what_it_reports_here(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, cluster: Cluster
) -> None:
    # four positions spread over the set: the claim (the same report) is not one of size
    sample, scores = pons_sample(tmp_path, "Test_L1_R1", range(2, 1001, 250))
    here = json.loads(run_cli(capsys, "solve-bench", str(sample), "--weak", "--json")[1])
    status, out, _ = run_cli(
        capsys, "solve-bench", str(sample), "--weak", "--json", "--scheduler", cluster.address
    )
    assert status == 0 and timeless(json.loads(out)) == timeless(here)
    assert here["positions"] == here["agree"] == len(scores) == 4


def test_local_and_dask_executors_yield_each_item_once() -> None:
    items = list(range(30))
    # a scheduler and a worker in this process (the cluster of processes costs seconds to
    # start; the tests marked slow use it)
    in_process = distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    )
    with (
        in_process,
        DaskExecutor(in_process.scheduler_address) as on_dask,
        LocalExecutor(2) as local,
    ):
        for executor in (on_dask, local):
            finished = list(executor.map_unordered(abs, [-item for item in items]))
            assert sorted(item.result for item in finished if item.result is not None) == items


def stored_so_far(store: Path) -> int:
    """Return how many results ``store`` holds now (none while it is being created)."""
    if not store.exists():
        return 0
    try:
        with sqlite3.connect(store) as db:
            return int(db.execute("SELECT count(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


@pytest.mark.slow
@needs_data
def test_losing_the_scheduler_mid_batch_is_one_line_saying_how_to_resume_and_keeps_the_store(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sample, scores = pons_sample(tmp_path, "Test_L1_R1", range(1, 61))
    store = tmp_path / "lost.sqlite"
    doomed = Cluster(tmp_path)  # a cluster of its own: the shared one must live on
    try:
        doomed.start(workers=1)
        address = doomed.address
        batch = subprocess.Popen(
            [str(SCRIPT), "batch", "connect4", str(sample), "--scheduler", doomed.address]
            + ["--store", str(store)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + START_TIMEOUT
        while stored_so_far(store) < 3:
            assert batch.poll() is None, batch.communicate()
            assert time.monotonic() < deadline, "the batch stored nothing"
            time.sleep(0.2)
        assert doomed.scheduler is not None
        doomed.scheduler.kill()
        _, err = batch.communicate(timeout=120)
    finally:
        doomed.stop()
    assert batch.returncode == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(
        f"gamesearch: error: the connection to the Dask scheduler at {address} was lost"
    )
    assert f"are kept in {str(store)!r}: run the same command again to compute only the rest" in err
    kept = stored_rows(store)  # whole: the integrity check passes
    assert 3 <= len(kept) < len(scores)
    assert all(row["found"] == scores[row["position"]] for row in kept)
    status, out, _ = run_cli(
        capsys, "batch", "connect4", str(sample), "--workers", "2", "--store", str(store), "--json"
    )
    summary = json.loads(out)
    assert status == 0 and summary["done"] == summary["agreed"] == len(scores)
    assert summary["resumed"] == len(kept)


def test_a_closed_connection_logged_by_dask_s_message_channel_is_left_to_the_executor() -> None:
    """When the scheduler goes, Dask's message channel logs its closed connection with a
    traceback, sometimes before the client notices; the executor reports the lost scheduler
    itself in one line, so its filter drops that record and keeps every other."""
    import logging

    from distributed.comm.core import CommClosedError

    from gamesearch.batch.executors import _keep_unless_closed

    def record(error: BaseException | None) -> logging.LogRecord:
        exc_info = (type(error), error, None) if error is not None else None
        return logging.LogRecord("distributed.batched", logging.INFO, "", 0, "m", (), exc_info)

    assert not _keep_unless_closed(record(CommClosedError("closed")))
    assert _keep_unless_closed(record(OSError("disk full")))
    assert _keep_unless_closed(record(None))
