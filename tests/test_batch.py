"""``gamesearch batch`` and gamesearch.batch on local processes: every record once, whole,
resumable."""

from __future__ import annotations

import functools
import json
import multiprocessing
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest
from batchdata import needs_set, pons_sample, stored_rows, timeless
from clirun import SCRIPT, assert_usage_error, run_cli

from gamesearch.batch import (
    Expect,
    InlineExecutor,
    LocalExecutor,
    Method,
    ResultStore,
    Status,
    Task,
    make_tasks,
    read_positions,
    run_batch,
)
from gamesearch.errors import InvalidOptionError
from gamesearch.game import Game
from gamesearch.plugins import Registry, default_registry
from gamesearch.search import AlphaBeta
from gamesearch.search.base import RootAnswer, SearchContext

needs_data = needs_set("Test_L2_R1")


# ------------------------------------------------------------------ an oracle of our own
WINS = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def winner(cells: str) -> str | None:
    for a, b, c in WINS:
        if cells[a] != "." and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return None


@functools.cache
def outcome(cells: str) -> int:
    """Return +1, 0 or -1: X wins, draws or loses with best play from ``cells``."""
    won = winner(cells)
    if won is not None:
        return 1 if won == "X" else -1
    if "." not in cells:
        return 0
    mover = "X" if cells.count("X") == cells.count("O") else "O"
    values = [
        outcome(cells[:i] + mover + cells[i + 1 :]) for i, cell in enumerate(cells) if cell == "."
    ]
    return max(values) if mover == "X" else min(values)


def random_positions(count: int, seed: int) -> list[str]:
    """Return ``count`` distinct unfinished tic-tac-toe positions (rows joined by '/')."""
    draw = random.Random(seed)
    found: dict[str, None] = {}
    while len(found) < count:
        cells = "." * 9
        for ply in range(draw.randrange(0, 7)):
            empty = [i for i, cell in enumerate(cells) if cell == "."]
            move = draw.choice(empty)
            cells = cells[:move] + "XO"[ply % 2] + cells[move + 1 :]
            if winner(cells):
                break
        if winner(cells) is None and "." in cells:
            found["/".join((cells[0:3], cells[3:6], cells[6:9]))] = None
    return list(found)


def tictactoe_file(tmp_path: Path, count: int = 24, seed: int = 3) -> tuple[Path, dict[str, int]]:
    positions = random_positions(count, seed)
    expected = {position: outcome(position.replace("/", "")) for position in positions}
    words = {1: "win", 0: "draw", -1: "loss"}
    path = tmp_path / "positions.txt"
    path.write_text(
        "# tic-tac-toe positions and X's result\n"
        + "".join(
            f"{position} | {words[value] if index % 2 else value}\n"
            for index, (position, value) in enumerate(expected.items())
        )
    )
    return path, expected


# ------------------------------------------------------------------ tests
@needs_data
def test_two_local_workers_store_every_position_once_and_agree(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sample, scores = pons_sample(tmp_path, "Test_L2_R1", range(7, 1001, 28))
    store = tmp_path / "results.sqlite"
    status, out, _ = run_cli(
        capsys, "batch", "connect4", str(sample), "--workers", "2", "--store", str(store), "--json"
    )
    summary = json.loads(out)
    assert status == 0
    assert summary["positions"] == summary["done"] == summary["agreed"] == len(scores) == 36
    assert summary["failed"] == summary["over_budget"] == 0 and summary["seconds"] > 0
    rows = stored_rows(store)
    assert sorted(row["position"] for row in rows) == sorted(scores)
    assert all(row["status"] == "done" and row["found"] == scores[row["position"]] for row in rows)
    assert len({row["worker"] for row in rows}) >= 1 and all(row["nodes"] > 0 for row in rows)


def test_values_agree_with_an_independent_minimax(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, expected = tictactoe_file(tmp_path)
    store = tmp_path / "ttt.sqlite"
    output = tmp_path / "ttt.jsonl"
    status, out, _ = run_cli(
        capsys,
        "batch",
        "tictactoe",
        str(path),
        "-s",
        "alphabeta",
        "-s",
        "mtdf",
        "--workers",
        "2",
        "--store",
        str(store),
        "--output",
        str(output),
    )
    assert status == 0
    assert out.strip().startswith(
        f"{2 * len(expected)} of {2 * len(expected)} done, {2 * len(expected)} of"
    )
    rows = stored_rows(store)
    assert len(rows) == 2 * len(expected)
    for row in rows:
        assert row["found"] == row["expected"] == expected[row["position"]]
        assert json.loads(row["best_moves"])  # every unfinished position has a best move
    exported = [json.loads(line) for line in output.read_text().splitlines()]
    assert sorted((item["position"], item["searcher"]) for item in exported) == sorted(
        (row["position"], row["searcher"]) for row in rows
    )


def test_a_rerun_computes_only_what_is_missing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, expected = tictactoe_file(tmp_path, 16)
    store = str(tmp_path / "resume.sqlite")
    argv = (
        "batch",
        "tictactoe",
        str(path),
        "-s",
        "alphabeta",
        "--workers",
        "2",
        "--store",
        store,
        "--json",
    )
    first = json.loads(run_cli(capsys, *argv, "--limit", "5")[1])
    assert (first["computed"], first["resumed"], first["done"], first["tasks"]) == (5, 0, 5, 5)
    second = json.loads(run_cli(capsys, *argv)[1])
    assert (second["computed"], second["resumed"], second["done"], second["agreed"]) == (
        11,
        5,
        16,
        16,
    )
    third = json.loads(run_cli(capsys, *argv)[1])
    assert (third["computed"], third["resumed"], third["done"]) == (0, 16, 16)
    assert len(stored_rows(Path(store))) == len(expected)


@attrs.frozen(kw_only=True)
class FragileSearcher(AlphaBeta):
    """Alpha-beta that raises on one position (a searcher with a bug)."""

    name: ClassVar[str] = "fragile"
    CURSED: ClassVar[str] = "X../.O./..."

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        if game.to_text() == self.CURSED:
            raise ZeroDivisionError(f"cannot search {game.to_text()!r}")
        return super().root(game, context)


@attrs.frozen(kw_only=True)
class KillerSearcher(AlphaBeta):
    """Alpha-beta whose process dies on one position (as on a crash in native code), and
    on another one the first time only (a machine's hiccup), marked by a file."""

    name: ClassVar[str] = "killer"
    CURSED: ClassVar[str] = "X../.O./..."
    FLAKY: ClassVar[str] = "XO./.../..."

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        marker = Path(os.environ["BATCH_TEST_MARKER"])
        if game.to_text() == self.CURSED or (game.to_text() == self.FLAKY and not marker.exists()):
            marker.touch()
            os._exit(9)
        return super().root(game, context)


def fragile_registry() -> Registry:
    """Return a registry of the installed plugins and the test's own searchers (the
    installed plugins' registry itself is left as it is)."""
    registry = Registry()
    for game_class in default_registry().games.values():
        registry.add_game(game_class)
    for searcher_class in [*default_registry().searchers.values(), FragileSearcher, KillerSearcher]:
        registry.add_searcher(searcher_class)
    return registry


def test_a_position_that_kills_its_worker_process_is_failed_once_and_the_rest_complete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BATCH_TEST_MARKER", str(tmp_path / "died-once"))
    path, expected = tictactoe_file(tmp_path, 14)
    extra = {KillerSearcher.CURSED: 0, KillerSearcher.FLAKY: outcome("XO" + "." * 7)}
    expected = {position: value for position, value in expected.items() if position not in extra}
    path.write_text(
        "".join(
            f"{position} | {value}\n" for position, value in [*expected.items(), *extra.items()]
        )
    )
    positions, position_format = read_positions(path, "tictactoe")
    tasks = make_tasks("tictactoe", positions, ["killer"], position_format=position_format)
    with ResultStore(tmp_path / "killer.sqlite") as store, LocalExecutor(2) as executor:
        summary = run_batch(tasks, store, executor, registry=fragile_registry())
        records = {record.position: record for record in store.records()}
    assert (summary.done, summary.failed, summary.agreed) == (
        len(expected) + 1,
        1,
        len(expected) + 1,
    )
    assert sorted(records) == sorted([*expected, *extra])  # each position once
    assert records[KillerSearcher.CURSED].error == "its worker process died while computing it"
    assert records[KillerSearcher.FLAKY].status is Status.DONE  # tried again, it went through


@pytest.mark.parametrize(
    "executor", [InlineExecutor, functools.partial(LocalExecutor, 2)], ids=["inline", "local"]
)
def test_a_searcher_that_raises_is_recorded_as_failed_and_the_rest_complete(
    tmp_path: Path, executor: Any
) -> None:
    path, expected = tictactoe_file(tmp_path, 12)
    path.write_text(path.read_text() + f"{FragileSearcher.CURSED} | 0\n")
    positions, position_format = read_positions(path, "tictactoe")
    tasks = make_tasks("tictactoe", positions, ["fragile"], position_format=position_format)
    with ResultStore(tmp_path / "fragile.sqlite") as store, executor() as running:
        summary = run_batch(tasks, store, running, registry=fragile_registry())
        assert (summary.done, summary.failed, summary.agreed) == (12, 1, 12)
        failed = [record for record in store.records() if record.status is Status.FAILED]
    assert len(failed) == 1 and failed[0].position == FragileSearcher.CURSED
    assert failed[0].error == "ZeroDivisionError: cannot search 'X../.O./...'"
    with ResultStore(tmp_path / "fragile.sqlite") as store:  # failed once: not computed again
        again = run_batch(tasks, store, InlineExecutor(), registry=fragile_registry())
    assert (again.computed, again.failed, again.done) == (0, 1, 12)


def test_a_search_over_its_budget_is_recorded_as_over_budget(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "start.txt"
    path.write_text(".../.../... | 0\nXOX/OXO/... | 1\n")
    store = str(tmp_path / "budget.sqlite")
    argv = (
        "batch",
        "tictactoe",
        str(path),
        "-s",
        "minimax",
        "--max-nodes",
        "100",
        "--workers",
        "1",
        "--store",
        store,
    )
    status, out, _ = run_cli(capsys, *argv, "--json")
    summary = json.loads(out)
    assert status == 0 and (summary["done"], summary["over_budget"], summary["agreed"]) == (1, 1, 1)
    rows = {row["position"]: row for row in stored_rows(Path(store))}
    assert rows[".../.../..."]["status"] == "over budget" and "100" in rows[".../.../..."]["error"]
    assert rows[".../.../..."]["value"] is None
    status, out, _ = run_cli(capsys, *argv)
    assert status == 0 and "0 computed" in out and "1 over budget" in out


def test_a_disagreement_is_printed_and_sets_the_exit_status(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "wrong.txt"
    path.write_text("XX./OO./... | loss\n")
    status, out, _ = run_cli(
        capsys, "batch", "tictactoe", str(path), "--store", str(tmp_path / "s.sqlite"), "-w", "1"
    )
    assert status == 1
    assert (
        out.splitlines()[0] == "disagreement on line 1: XX./OO./... (solver) expected -1, found 1"
    )


@pytest.mark.parametrize(
    "command",
    [
        ("batch", "tictactoe", "{positions}"),
        ("tournament", "tictactoe", "--players", "alphabeta:depth=1", "alphabeta", "-n", "2"),
        ("match", "tictactoe", "--first", "alphabeta:depth=1", "--second", "alphabeta", "-n", "2"),
        ("solve-bench", "{scores}"),
    ],
    ids=lambda command: command[0],
)
def test_more_workers_than_the_cores_can_take_fail_at_once_naming_the_bound(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: tuple[str, ...]
) -> None:
    positions, _ = tictactoe_file(tmp_path, 3)
    scores = tmp_path / "scores.txt"
    scores.write_text("4455 0\n")
    most = 8 * (os.cpu_count() or 1)
    argv = [part.format(positions=positions, scores=scores) for part in command]
    assert_usage_error(
        capsys, f"--workers must be <= {most:,} (8 for each of", *argv, "--workers", "1000000"
    )


@pytest.mark.slow
def test_local_workers_start_no_more_processes_than_there_are_items() -> None:
    seen: list[int] = []
    with LocalExecutor(8) as executor:
        for finished in executor.map_unordered(abs, [-1, -2]):
            seen.append(len(multiprocessing.active_children()))
            assert finished.result in (1, 2)
    assert seen and max(seen) <= 2


def test_bad_arguments_fail_at_once_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, _ = tictactoe_file(tmp_path, 3)
    store = str(tmp_path / "s.sqlite")
    assert_usage_error(
        capsys, "no file 'nowhere.txt'", "batch", "tictactoe", "nowhere.txt", "--store", store
    )
    assert_usage_error(
        capsys, "--workers must be >= 1: 0", "batch", "tictactoe", str(path), "-w", "0"
    )
    assert_usage_error(
        capsys,
        "unknown searcher 'nope'",
        "batch",
        "tictactoe",
        str(path),
        "-s",
        "nope",
        "--store",
        store,
    )
    assert_usage_error(
        capsys, "--seconds must be > 0: -1.0", "batch", "tictactoe", str(path), "--seconds", "-1"
    )
    assert_usage_error(
        capsys,
        "each searcher must differ; repeated: 'alphabeta'",
        "batch",
        "tictactoe",
        str(path),
        "-s",
        "alphabeta",
        "-s",
        "alphabeta",
        "--store",
        store,
    )
    not_a_store = tmp_path / "other.sqlite"
    with sqlite3.connect(not_a_store) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    assert_usage_error(
        capsys,
        f"the store {str(not_a_store)!r} is not a gamesearch results store",
        "batch",
        "tictactoe",
        str(path),
        "--store",
        str(not_a_store),
    )
    with pytest.raises(InvalidOptionError, match="cannot use .* as a results store"):
        (tmp_path / "text.sqlite").write_text("not a database, just text " * 40)
        ResultStore(tmp_path / "text.sqlite")


def test_a_record_is_stored_once_whatever_arrives_twice(tmp_path: Path) -> None:
    task = Task("tictactoe", "XX./OO./...", "alphabeta", 1, 1, Expect.OUTCOME)
    with ResultStore(tmp_path / "once.sqlite") as store:
        first = run_batch([task, task], store, InlineExecutor())
        assert (first.computed, first.tasks, store.count()) == (1, 1, 1)
        record = store.records()[0]
        assert store.add(record) is False and store.count() == 1
        assert record.value == 1000 - 5 and record.best_moves == ("2",) and record.agrees is True


@needs_data
def test_the_value_alone_method_gives_the_files_score(tmp_path: Path) -> None:
    sample, scores = pons_sample(tmp_path, "Test_L3_R1", range(1, 1001, 100))
    positions, position_format = read_positions(sample, "connect4")
    assert position_format.expect is Expect.SCORE
    tasks = [
        attrs.evolve(task, method=Method.SOLVE)
        for task in make_tasks("connect4", positions, ["solver"], position_format=position_format)
    ]
    with ResultStore() as store:
        summary = run_batch(tasks, store, InlineExecutor())
        assert summary.agreed == len(scores) == 10
        assert {record.searcher for record in store.records()} == {"solve"}


# ------------------------------------------------------------------ a killed or stopped batch
def start_batch(tmp_path: Path, sample: Path, store: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            str(SCRIPT),
            "batch",
            "connect4",
            str(sample),
            "--store",
            str(store),
            "--workers",
            "1",
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def wait_for_records(
    store: Path, count: int, process: subprocess.Popen[str], timeout: float = 60
) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        if store.exists():
            try:
                with sqlite3.connect(store, timeout=5) as db:
                    stored = db.execute("SELECT count(*) FROM results").fetchone()[0]
            except sqlite3.OperationalError:  # the table is not made yet
                stored = 0
            if stored >= count:
                return int(stored)
        time.sleep(0.02)
    raise AssertionError(f"the batch stored fewer than {count} records in {timeout} s")


def stop_batch(
    tmp_path: Path, sample: Path, store: Path, sent: int, after: int
) -> tuple[int, str, str]:
    """Start a batch, send ``sent`` to it and its workers once ``after`` records are
    stored; return its exit status, standard output and standard error."""
    process = start_batch(tmp_path, sample, store)
    try:
        wait_for_records(store, after, process)
        os.killpg(process.pid, sent)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate(timeout=30)
    return process.returncode, out, err


@pytest.mark.slow
@needs_data
@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGKILL are POSIX")
def test_a_killed_batch_resumes_with_no_duplicate_and_no_partial_record(tmp_path: Path) -> None:
    sample, scores = pons_sample(tmp_path, "Test_L1_R1", range(1, 41))
    store = tmp_path / "killed.sqlite"
    stop_batch(tmp_path, sample, store, signal.SIGKILL, after=4)  # no clean-up at all
    rows = stored_rows(store)
    assert 4 <= len(rows) < len(scores)
    rerun = start_batch(tmp_path, sample, store, "--json")
    out, err = rerun.communicate(timeout=300)
    summary = json.loads(out)
    assert rerun.returncode == 0, err
    assert summary["resumed"] == len(rows) and summary["computed"] == len(scores) - len(rows)
    rows = stored_rows(store)
    assert sorted(row["position"] for row in rows) == sorted(scores)  # each once
    for row in rows:
        assert row["status"] == "done" and row["found"] == scores[row["position"]]
        assert None not in (row["value"], row["exact"], row["nodes"], row["seconds"], row["worker"])


@pytest.mark.slow
@needs_data
@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a process group is POSIX")
def test_ctrl_c_prints_the_summary_of_what_is_stored(tmp_path: Path) -> None:
    sample, scores = pons_sample(tmp_path, "Test_L1_R1", range(1, 41))
    store = tmp_path / "stopped.sqlite"
    status, out, err = stop_batch(
        tmp_path, sample, store, signal.SIGINT, after=3
    )  # as a terminal's Ctrl-C does
    stored = len(stored_rows(store))
    assert status == 130
    assert f"{stored} of {len(scores)} done" in out and "not computed" in out
    assert f"interrupted after {stored} of {len(scores)} positions" in err


# ------------------------------------------------------------------ tournaments and matches in the
# store
TOURNAMENT = (
    "tournament",
    "tictactoe",
    "--players",
    "alphabeta:depth=1",
    "alphabeta",
    "mcts:simulations=50",
    "--games",
    "4",
    "--seed",
    "5",
    "--json",
)
MATCH = (
    "match",
    "connect4",
    "--first",
    "alphabeta:depth=2",
    "--second",
    "alphabeta:depth=1",
    "--games",
    "6",
    "--swap",
    "--seed",
    "2",
    "--json",
)


def test_a_stored_tournament_plays_only_the_missing_games_and_rates_from_the_store(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    plain = json.loads(run_cli(capsys, *TOURNAMENT)[1])
    store = tmp_path / "tournament.sqlite"
    stored = json.loads(run_cli(capsys, *TOURNAMENT, "--store", str(store), "--workers", "2")[1])
    assert timeless(stored) == timeless(plain)
    with sqlite3.connect(store) as db:
        kept = db.execute(
            "SELECT number, stored FROM games WHERE number % 3 != 0 ORDER BY number"
        ).fetchall()
        db.execute("DELETE FROM games WHERE number % 3 = 0")  # as if stopped before those ended
    status, out, err = run_cli(capsys, *TOURNAMENT, "--store", str(store))
    assert status == 0 and timeless(json.loads(out)) == timeless(plain)
    with sqlite3.connect(store) as db:
        rows = db.execute("SELECT number, stored FROM games ORDER BY number").fetchall()
    assert [number for number, _ in rows] == list(range(12))  # 3 pairs x 4 games, each once
    assert [row for row in rows if row[0] % 3 != 0] == kept  # the stored games were not replayed


def test_a_stored_match_on_two_workers_is_the_match_played_here(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    plain = json.loads(run_cli(capsys, *MATCH)[1])
    store = str(tmp_path / "match.sqlite")
    stored = json.loads(run_cli(capsys, *MATCH, "--workers", "2", "--store", store)[1])
    assert timeless(stored) == timeless(plain)
    again = json.loads(
        run_cli(capsys, *MATCH, "--store", store)[1]
    )  # every game read back from the store
    assert timeless(again) == timeless(plain) and again["standings"] == stored["standings"]


# ------------------------------------------------------------------ the front ends: solve-bench,
# uci-check
@needs_data
def test_solve_bench_on_two_workers_with_a_store_resumes_and_reports_the_same(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sample, scores = pons_sample(tmp_path, "Test_L2_R1", range(5, 1001, 40))
    here = json.loads(run_cli(capsys, "solve-bench", str(sample), "--json")[1])
    store = str(tmp_path / "bench.sqlite")
    partial = json.loads(
        run_cli(capsys, "solve-bench", str(sample), "--json", "--limit", "10", "--store", store)[1]
    )
    assert partial["positions"] == 10
    status, out, err = run_cli(
        capsys, "solve-bench", str(sample), "--json", "--workers", "2", "--store", store
    )
    parallel = json.loads(out)
    assert status == 0 and parallel["positions"] == parallel["agree"] == len(scores) == 25
    assert timeless(parallel) == timeless(here)  # the same figures, whatever ran them
    assert len(stored_rows(Path(store))) == len(scores)


def test_uci_check_with_a_store_solves_only_the_rows_missing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gamesearch_games.connect4.uci_check

    rows = [
        "b,b,b,b,b,b,b,b,b,b,b,b,x,o,x,o,x,o,x,o,b,b,b,b,o,x,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,win",
        "x,o,x,o,b,b,b,b,b,b,b,b,x,o,b,b,b,b,b,b,b,b,b,b,x,o,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,draw",
    ]
    data = tmp_path / "rows"
    data.write_text("\n".join(rows) + "\n")
    calls: list[int] = []

    def counted(game: Any, weak: bool) -> tuple[int, int]:
        calls.append(1)
        return 1, 5  # the side to move wins (a stand-in solver: this test is about the store)

    monkeypatch.setattr(gamesearch_games.connect4.uci_check, "solve", counted)
    store = str(tmp_path / "uci.sqlite")
    argv = ("uci-check", "--file", str(data), "--sample", "2", "--store", store, "--json")
    first = json.loads(run_cli(capsys, *argv)[1])
    assert len(calls) == 2 and (first["checked"], first["agree"]) == (2, 1)
    assert [wrong["expected"] for wrong in first["disagreements"]] == ["draw"]
    second = json.loads(run_cli(capsys, *argv)[1])
    assert len(calls) == 2 and timeless(second) == timeless(first)


def test_a_stored_match_of_a_game_of_chance_reads_back_its_exact_values(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = (
        "match",
        "pig",
        "--first",
        "expectiminimax:depth=2",
        "--second",
        "star2:depth=2",
        "--games",
        "2",
        "--seed",
        "1",
        "--json",
        "--store",
        str(tmp_path / "pig.sqlite"),
    )
    played = json.loads(run_cli(capsys, *argv)[1])
    again = json.loads(run_cli(capsys, *argv)[1])  # read back from the store, nothing played
    assert again == played
    values = [
        move["value"]
        for game in played["games"]
        for move in game["moves"]
        if move["value"] is not None
    ]
    assert any(
        isinstance(value, str) and "/" in value for value in values
    )  # fractions, written exactly


def test_uci_rows_are_read_as_the_first_players_outcome(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = tmp_path / "connect-4.data"
    data.write_text(
        "b,b,b,b,b,b,b,b,b,b,b,b,x,o,x,o,x,o,x,o,b,b,b,b,o,x,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,loss\n"
    )
    positions, position_format = read_positions(data, "connect4")
    assert position_format.expect is Expect.OUTCOME
    assert [(item.line, item.expected) for item in positions] == [(1, -1)]
    # the cells go column by column, bottom to top: column c holds x,o,x,o,x,o, d x,o and e o,x
    assert positions[0].position == "..O..../..X..../..O..../..X..../..OOX../..XXO.."
    store = str(tmp_path / "uci.sqlite")
    status, out, _ = run_cli(
        capsys, "batch", "connect4", str(data), "--max-nodes", "50", "-w", "1", "--store", store
    )
    assert status == 0 and out.startswith(
        "0 of 1 done, 0 of 1 agree, 0 failed, 1 over budget; 1 computed"
    )


def test_a_stored_match_of_three_players_reads_back_every_seat(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = (
        "match",
        "mnk3",
        "--first",
        "maxn:depth=2",
        "--second",
        "paranoid:depth=2",
        "--seat",
        "brs:depth=2",
        "--games",
        "3",
        "--swap",
        "--seed",
        "4",
        "--json",
    )
    here = json.loads(run_cli(capsys, *argv)[1])
    store = str(tmp_path / "three.sqlite")
    stored = json.loads(run_cli(capsys, *argv, "--workers", "2", "--store", store)[1])
    again = json.loads(
        run_cli(capsys, *argv, "--store", store)[1]
    )  # every game read back from the store
    assert timeless(stored) == timeless(here) and again == stored
    assert [game["third"] for game in again["games"]] == [
        "brs:depth=2",
        "maxn:depth=2",
        "paranoid:depth=2",
    ]
