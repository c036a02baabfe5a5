"""The benchmark machinery on tiny inputs: interleaving, medians, ratios, floors, command line.

No test here times anything against a limit: the machine may be slow.
"""

from __future__ import annotations

import gc
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import Contender, Row, build_rows, floors, ratios, run_rows, workloads
from benchmarks.cli import main
from benchmarks.core import FRAMEWORK, Run
from benchmarks.peers import load_peers
from benchmarks.rows import USER, USER_ALPHABETA
from benchmarks.workloads import (
    bench_game,
    connect4_window_score,
    tictactoe_bitboards,
    tictactoe_move_order,
    tictactoe_positions,
)
from gamesearch import AlphaBeta, Minimax, Scoring, default_registry


def run_bench(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Return the exit status, standard output and standard error of ``python -m benchmarks
    argv``."""
    try:
        status = main(list(argv))
    except SystemExit as stop:  # argparse: --help and usage errors
        status = int(stop.code or 0)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


ROOT = Path(__file__).resolve().parent.parent
#: the benchmarks collect the garbage before each run: the collections walk what the runs
#: built, not the test process's whole heap (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("frozen_heap")


def recording(log: list[str], name: str, nodes: int | None) -> Contender:
    def prepare() -> Run:
        log.append(f"prepare {name}")

        def run() -> int | None:
            log.append(f"run {name}")
            return nodes

        return run

    return Contender(name, f"{name}'s search", prepare, count_nodes=lambda: 7)


@pytest.mark.slow
def test_rows_run_interleaved_one_repetition_after_the_other() -> None:
    log: list[str] = []
    rows = [
        Row("first", (recording(log, FRAMEWORK, 10), recording(log, "peer", None))),
        Row("second", (recording(log, FRAMEWORK, 20),)),
    ]
    measurements = run_rows(rows, repeat=2)
    runs = [entry for entry in log if entry.startswith("run")]
    assert runs == [f"run {FRAMEWORK}", "run peer", f"run {FRAMEWORK}"] * 2
    assert [len(item.seconds) for item in measurements] == [2, 2, 2]
    # the peer counts nothing itself: its untimed counting run answers
    assert [item.nodes for item in measurements] == [10, 7, 20]


@pytest.mark.slow
def test_each_run_starts_with_the_garbage_of_the_runs_before_it_collected() -> None:
    found: list[int] = []

    def prepare() -> Run:
        def run() -> int:
            found.append(gc.collect())  # what was left to the collector before this run
            cycle: list[object] = []
            cycle.append(cycle)  # garbage only the collector frees, left to the next run
            return 1

        return run

    run_rows([Row("row", (Contender(FRAMEWORK, "leaves a cycle", prepare),) * 2)], repeat=2)
    assert found == [0, 0, 0, 0]


@pytest.mark.slow
def test_ratio_is_a_median_over_the_framework_median_on_the_same_row() -> None:
    log: list[str] = []
    rows = [Row("row", (recording(log, FRAMEWORK, 1), recording(log, "peer", 1)))]
    framework, peer = run_rows(rows, repeat=3)
    assert framework.median == sorted(framework.seconds)[1]
    share = ratios([framework, peer])
    assert share[("row", FRAMEWORK)] == 1.0
    assert share[("row", "peer")] == pytest.approx(peer.median / framework.median)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"repeat": 0}, "repeat must be >= 1: 0"),
        ({"repeat": 1, "clock": "sundial"}, "clock must be one of"),
    ],
)
def test_run_rows_rejects_bad_settings(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run_rows([], **options)  # type: ignore[arg-type]


def test_the_tictactoe_workload_is_every_reachable_position() -> None:
    positions = tictactoe_positions()
    assert len(positions) == 5_478
    assert (
        sum(default_registry().new_game("tictactoe", cells).is_over() for cells in positions) == 958
    )


def test_every_position_is_reached_by_its_move_order_without_finishing_early() -> None:
    for cells in tictactoe_positions():
        game = default_registry().new_game("tictactoe")
        order = tictactoe_move_order(cells)
        for move in order[:-1]:
            game.apply(move)
            assert not game.is_over(), cells
        for move in order[-1:]:
            game.apply(move)
        assert game.to_text().replace("/", "") == cells


def test_floors_count_the_framework_figures_and_agree_on_the_value() -> None:
    assert floors.tictactoe_minimax() == (0, 549_946)
    assert floors.tictactoe_alphabeta() == (0, 18_297)
    table = AlphaBeta(scoring=Scoring.PLAIN, ordering="natural", all_best=False, table=True)
    result = table.search(default_registry().new_game("tictactoe"))
    assert floors.tictactoe_alphabeta_table() == (result.value, result.stats.nodes)


@pytest.mark.parametrize("cells", tictactoe_positions()[::97])
def test_the_alphabeta_floor_matches_the_framework_on_positions(cells: str) -> None:
    game = default_registry().new_game("tictactoe", cells)
    if game.is_over():
        assert floors.tictactoe_solve_all([tictactoe_bitboards(cells)]) == 0
        return
    result = AlphaBeta(scoring=Scoring.PLAIN, ordering="natural", all_best=False).search(game)
    value, nodes = floors.tictactoe_alphabeta(*tictactoe_bitboards(cells))
    assert (value * game.rules.scale.win, nodes) == (result.value, result.stats.nodes)
    assert Minimax(scoring=Scoring.PLAIN).search(game).value == result.value


@pytest.mark.parametrize("depth", [1, 2, 5])
def test_the_connect4_floor_matches_the_framework_value_and_nodes(depth: int) -> None:
    registry = default_registry()
    searcher = registry.new_searcher(f"alphabeta:depth={depth},all_best=off")
    result = searcher.search(bench_game(registry, "connect4", None))
    assert floors.connect4_alphabeta(depth) == (result.value, result.stats.nodes)


@pytest.mark.parametrize(
    "moves", ["", "4", "4455", "44444433", "1234567123", "4411772266", "1763254"]
)
def test_the_peers_connect4_heuristic_is_the_framework_evaluation(moves: str) -> None:
    game = bench_game(default_registry(), "connect4", moves)
    cell = game.cell  # type: ignore[attr-defined]
    cells = "".join(cell(col, row) for col in range(7) for row in range(6))
    crosses = sum(
        1 << (7 * col + row) for col in range(7) for row in range(6) if cells[6 * col + row] == "X"
    )
    noughts = sum(
        1 << (7 * col + row) for col in range(7) for row in range(6) if cells[6 * col + row] == "O"
    )
    assert (
        connect4_window_score(cells)
        == game.evaluate()
        == floors.connect4_evaluate(crosses, noughts)
    )


#: the first positions of Pascal Pons' Test_L3_R1 set (columns played, 1..7)
END_EASY = (
    "2252576253462244111563365343671351441",
    "7422341735647741166133573473242566",
    "23163416124767223154467471272416755633",
    "71255763773133525731261364622167124446454",
    "65214673556155731566316327373221417",
)


def test_the_connect4_solving_floor_matches_the_framework_over_a_shared_table() -> None:
    registry = default_registry()
    searcher = registry.new_searcher("alphabeta:table=on,all_best=off")
    results = [searcher.search(registry.new_game("connect4", moves)) for moves in END_EASY]
    values, nodes = floors.connect4_solve([floors.connect4_bitboards(moves) for moves in END_EASY])
    assert values == [result.value for result in results]
    assert nodes == sum(result.stats.nodes for result in results)


def test_a_missing_test_set_is_named_among_the_skipped(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GAMESEARCH_CONNECT4_DATA", str(tmp_path))
    workloads.connect4_test_sets.cache_clear()
    try:
        rows, skipped = build_rows(peers=False, only="Test_L3_R1")
    finally:
        workloads.connect4_test_sets.cache_clear()
    assert rows == []
    assert [item.library for item in skipped] == [
        "connect four: 100 positions of Test_L3_R1",
        "connect four: 100 positions of Test_L2_R1",
    ]
    assert "no Connect Four test set 'Test_L3_R1'" in skipped[0].reason


def test_the_mcts_row_counts_simulations() -> None:
    rows, _ = build_rows(peers=False, only="mcts")
    [framework] = rows[0].contenders
    assert framework.prepare()() == 1_000


def test_missing_peers_are_skipped_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    available, skipped = load_peers()
    assert available == []
    assert {item.library for item in skipped} == {"aima-python", "easyAI", "OpenSpiel"}
    assert all("`make bench` installs the peers" in item.reason for item in skipped)


def test_rows_name_the_libraries_that_cannot_run_them() -> None:
    rows, _ = build_rows(peers=False, only="table")
    assert [row.name for row in rows] == ["tic-tac-toe: alpha-beta + table"]
    assert [contender.library for contender in rows[0].contenders] == ["gamesearch", "floor"]
    assert not build_rows(peers=False, quick=True, only="5,478")[0]


@pytest.mark.slow
def test_bench_command_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_bench(
        capsys, "--no-peers", "--only", "full alpha-beta", "--repeat", "2", "--json"
    )
    assert status == 0
    data = json.loads(out)
    assert {"date", "machine", "python", "versions", "repeat", "clock", "rows", "results"} <= set(
        data
    )
    results = {item["library"]: item for item in data["results"]}
    assert set(results) == {"gamesearch", "floor"}
    assert results["gamesearch"]["nodes"] == 18_297 and results["gamesearch"]["ratio"] == 1.0
    assert len(results["floor"]["seconds"]) == 2


@pytest.mark.slow
def test_bench_command_prints_a_table_and_draws_a_plot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    image = tmp_path / "bench.png"
    status, out, _ = run_bench(
        capsys, "--no-peers", "--only", "table", "--repeat", "1", "--plot", str(image)
    )
    assert status == 0
    assert "tic-tac-toe: alpha-beta + table" in out and "4,781" in out
    assert image.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--repeat", "0"), "--repeat must be >= 1: 0"),
        (("--only", "backgammon"), "no benchmark row matches --only 'backgammon'"),
    ],
)
def test_bench_command_rejects_bad_options(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    status, out, err = run_bench(capsys, "--no-peers", *argv)
    assert status == 2 and out == ""
    assert (
        err.startswith("python -m benchmarks: error: ") and message in err and err.count("\n") == 1
    ), err


def test_bench_command_refuses_an_unknown_clock_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run_bench(capsys, "--clock", "sundial")
    assert status == 2 and out == ""
    assert re.fullmatch(
        r"python -m benchmarks: error: .*'sundial'.* \(see 'python -m benchmarks --help'\)\n", err
    ), err


@pytest.mark.slow
def test_the_benchmark_runs_as_a_module_from_the_repository_root() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks",
            "--no-peers",
            "--only",
            "full alpha-beta",
            "--repeat",
            "1",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    results = {item["library"]: item["nodes"] for item in json.loads(done.stdout)["results"]}
    assert results == {"gamesearch": 18_297, "floor": 18_297}


def test_the_installed_command_has_no_bench_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    from gamesearch.cli import main as gamesearch_main

    with pytest.raises(SystemExit) as stop:
        gamesearch_main(["bench", "--quick"])
    assert stop.value.code == 2
    assert "invalid choice: 'bench'" in capsys.readouterr().err


@pytest.mark.skipif(importlib.util.find_spec("aima3") is None, reason="aima3 not installed")
def test_peer_adapters_count_the_known_alphabeta_figures() -> None:
    available, _ = load_peers()
    counts = {
        library: found["tic-tac-toe: full alpha-beta"].count_nodes()  # type: ignore[misc]
        for library, found in available
        if "tic-tac-toe: full alpha-beta" in found
    }
    # aima-python and OpenSpiel search in natural order with a shared window, like
    # the framework; easyAI's negamax keeps going on equal values (20,865 + the root)
    assert counts == {"aima-python": 18_297, "OpenSpiel": 18_297, "easyAI": 20_866}


@pytest.mark.skipif(importlib.util.find_spec("aima3") is None, reason="aima3 not installed")
def test_peer_adapters_search_connect4_to_depth_6_in_left_to_right_order() -> None:
    available, _ = load_peers()
    counts = {
        library: found["connect four: alpha-beta depth 6"].count_nodes()
        for library, found in available
    }  # type: ignore[misc]
    # the same tree in every peer: columns left to right, the same heuristic
    assert counts == {"aima-python": 16_597, "OpenSpiel": 16_597, "easyAI": 16_597}


def test_the_user_searcher_row_searches_the_builtin_tree_node_for_node() -> None:
    rows, _ = build_rows(peers=False, only="user's searcher")
    assert [row.name for row in rows] == [USER_ALPHABETA]
    contenders = rows[0].contenders
    assert [contender.library for contender in contenders] == [FRAMEWORK, USER]
    assert [contender.prepare()() for contender in contenders] == [34_203, 34_203]
