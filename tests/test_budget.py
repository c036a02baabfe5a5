"""One limit and budget path: the Budget of gamesearch.search.limits, its clocks and its flags."""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from clirun import assert_usage_error, run_cli

from gamesearch.errors import BudgetExceededError, InvalidOptionError
from gamesearch.plugins import default_registry
from gamesearch.search.base import CLOCK_INTERVAL, INFINITY, Budget, Limit
from gamesearch.search.limits import CLOCK_SHARE, CLOCKS, FIRST_CLOCK_INTERVAL

REGISTRY = default_registry()
SEARCH_DIR = Path(__file__).resolve().parents[1] / "gamesearch" / "search"


def test_an_unlimited_budget_is_never_due_for_a_check() -> None:
    budget = Budget()
    assert not budget.is_limited
    assert budget.first_look == INFINITY
    assert budget.next_check(10**6) == INFINITY


def test_a_node_budget_is_checked_exactly_past_its_last_node() -> None:
    budget = Budget(max_nodes=40)
    assert budget.first_look == 40  # (no clock to read: the next check is the limit itself)
    assert budget.check(40) == 40
    with pytest.raises(BudgetExceededError, match=r"node budget of 40 exhausted: 41 positions"):
        budget.check(41)


def test_a_time_budget_reads_its_clock_soon_then_at_most_every_interval() -> None:
    budget = Budget(max_nodes=100 * CLOCK_INTERVAL, seconds=60.0)
    assert budget.first_look == FIRST_CLOCK_INTERVAL
    looks = [budget.check(FIRST_CLOCK_INTERVAL + 1)]
    for _ in range(12):  # (a fast search on a long budget: each run twice the last, up to the most)
        looks.append(budget.check(looks[-1] + 1))
    runs = [after - before - 1 for before, after in zip(looks, looks[1:], strict=False)]
    assert runs[0] == 4 * FIRST_CLOCK_INTERVAL and runs[-1] == CLOCK_INTERVAL
    assert all(
        run == min(2 * previous, CLOCK_INTERVAL)
        for previous, run in zip(runs, runs[1:], strict=False)
    )
    assert (
        budget.check(100 * CLOCK_INTERVAL - 5) == 100 * CLOCK_INTERVAL
    )  # the node limit is nearer


class _FakeClock:
    """A clock that reads the positions entered so far at a steady node rate."""

    def __init__(self, rate: float) -> None:
        self.rate, self.nodes = rate, 0

    def __call__(self) -> float:
        return self.nodes / self.rate


@pytest.mark.parametrize("rate", [200.0, 3_000.0, 50_000.0, 2_000_000.0])
@pytest.mark.parametrize("seconds", [0.02, 0.1, 2.0])
def test_a_time_budget_is_overrun_by_at_most_its_share_at_any_node_rate(
    monkeypatch: pytest.MonkeyPatch, rate: float, seconds: float
) -> None:
    clock = _FakeClock(rate)
    monkeypatch.setitem(CLOCKS, "cpu", clock)
    budget = Budget(seconds=seconds, clock="cpu")
    looks, next_look = 0, budget.first_look
    with pytest.raises(BudgetExceededError, match="time budget exhausted"):
        while True:
            clock.nodes = next_look + 1  # (the search runs on until its count passes the mark)
            next_look = budget.check(clock.nodes)
            looks += 1
    overrun = clock() - seconds
    # past the deadline by at most the share (plus the first run and one position's time,
    # when the rate is so slow that one position takes longer than the share)
    assert 0 < overrun <= CLOCK_SHARE * seconds + (FIRST_CLOCK_INTERVAL + 1) / rate
    # a clock read no more often than the share asks (after the first runs) or the most allows
    fewest = rate * seconds / max(1, min(CLOCK_INTERVAL, rate * CLOCK_SHARE * seconds))
    assert looks <= fewest + 12


def test_the_rest_of_a_budget_keeps_the_node_rate_it_measured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = _FakeClock(1_000.0)
    monkeypatch.setitem(CLOCKS, "cpu", clock)
    budget = Budget(seconds=1.0, clock="cpu")
    clock.nodes = 400
    next_look = budget.check(400)
    assert next_look == 400 + 1_000 * CLOCK_SHARE  # 1,000 positions a second: 10 in 1 %
    rest = budget.after(400)
    assert rest.first_look == 1_000 * CLOCK_SHARE and rest.deadline == budget.deadline


def test_the_rest_of_a_budget_keeps_its_deadline_and_counts_what_was_spent() -> None:
    budget = Budget(max_nodes=100, seconds=60.0, clock="cpu")
    rest = budget.after(70)
    assert rest.deadline == budget.deadline and rest.clock == "cpu"
    assert rest.nodes_left == 30
    with pytest.raises(BudgetExceededError, match=r"node budget of 100 exhausted: 101 positions"):
        rest.check(31)


def test_a_spent_time_budget_says_what_was_spent_on_which_clock() -> None:
    budget = Budget(seconds=0.001, clock="wall")
    time.sleep(0.01)
    assert budget.is_spent(1)
    with pytest.raises(BudgetExceededError, match=r"time budget exhausted: 0\.0\d\d s of wall"):
        budget.check(5)


def test_an_unknown_clock_is_refused_everywhere_with_the_clocks_named() -> None:
    with pytest.raises(InvalidOptionError, match=r"clock 'gpu' is not one of 'wall', 'cpu'"):
        Budget(seconds=1.0, clock="gpu")
    with pytest.raises(InvalidOptionError, match=r"'clock' must be one of"):
        Limit(seconds=1.0, clock="gpu")
    with pytest.raises(InvalidOptionError, match=r"searcher 'iterative'.*'clock'"):
        REGISTRY.new_searcher("iterative:clock=gpu")


def test_limit_fields_are_named_as_the_searchers_options() -> None:
    limit = Limit(depth=3, max_nodes=500, seconds=0.5, simulations=9, clock="cpu")
    searcher_options = set(REGISTRY.searcher_class("alphabeta").option_specs())
    assert set(limit.options()) <= searcher_options
    assert limit.options() == {
        "depth": 3,
        "max_nodes": 500,
        "seconds": 0.5,
        "simulations": 9,
        "clock": "cpu",
    }


@pytest.mark.parametrize("alias", ["max_depth", "nodes"])
def test_the_old_other_names_of_limits_are_unknown_options(alias: str) -> None:
    with pytest.raises(
        InvalidOptionError, match=rf"searcher 'iterative': unknown option '{alias}'"
    ):
        REGISTRY.new_searcher(f"iterative:{alias}=4")


def test_mcts_takes_no_depth_and_ignores_a_limit_that_gives_one() -> None:
    with pytest.raises(InvalidOptionError, match=r"searcher 'mcts': unknown option 'depth'"):
        REGISTRY.new_searcher("mcts:depth=3")
    game = REGISTRY.new_game("tictactoe")
    result = REGISTRY.new_searcher("mcts:seed=1").search(game, Limit(depth=2, simulations=30))
    assert result.stats.leaves == 30


def test_one_place_in_the_searchers_raises_the_budget_error() -> None:
    raising = {
        path.name: len(re.findall(r"raise BudgetExceededError\(", path.read_text()))
        for path in SEARCH_DIR.rglob("*.py")
    }
    assert {name: count for name, count in raising.items() if count} == {"limits.py": 1}
    assert sum("CLOCK_INTERVAL =" in path.read_text() for path in SEARCH_DIR.rglob("*.py")) == 1


@pytest.mark.parametrize(
    ("game_name", "spec"),
    [
        ("connect4", "alphabeta"),
        ("connect4", "minimax"),
        ("connect4", "engine"),
        ("connect4", "pvs"),
        ("connect4", "textbook-alphabeta"),
        ("pig", "star2"),
        ("pig", "expectiminimax"),
    ],
)
def test_every_core_stops_at_the_same_node_budget(game_name: str, spec: str) -> None:
    game = REGISTRY.new_game(game_name)
    before = game.to_text()
    with pytest.raises(BudgetExceededError, match=r"node budget of 300 exhausted"):
        REGISTRY.new_searcher(spec).search(game, Limit(max_nodes=300))
    assert game.to_text() == before


@pytest.mark.parametrize(
    "spec", ["iterative", "engine:iterative=true", "chance-iterative", "mcts:seed=2"]
)
def test_a_searcher_that_answers_within_its_budget_enters_no_more_than_it(spec: str) -> None:
    game = REGISTRY.new_game("pig" if spec == "chance-iterative" else "connect4")
    result = REGISTRY.new_searcher(spec).search(game, Limit(max_nodes=400))
    assert 0 < result.stats.nodes <= 400 + (game.legal_moves().__len__() if "mcts" in spec else 0)


def _busy(stop: threading.Event) -> None:
    while not stop.is_set():
        sum(range(1000))


@pytest.mark.parametrize("other", ["busy", "sleeping"])
def test_a_cpu_budget_is_not_shortened_by_another_thread(other: str) -> None:
    stop = threading.Event()
    worker = threading.Thread(
        target=_busy if other == "busy" else lambda _: stop.wait(), args=(stop,), daemon=True
    )
    worker.start()
    try:
        game = REGISTRY.new_game("connect4")
        result = REGISTRY.new_searcher("iterative:seconds=0.1,clock=cpu").search(game)
    finally:
        stop.set()
        worker.join()
    # it stops only once its own thread has spent the budget, whatever the other did
    assert not result.is_exact
    assert result.stats.cpu_seconds >= 0.1


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    status, out, err = run_cli(capsys, *argv)
    assert status == 0, err
    return json.loads(out)


def test_analyze_takes_the_clock_and_reports_the_processor_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _json(
        capsys, "analyze", "tictactoe", "--clock", "cpu", "--position", "XX./OO./...", "--json"
    )
    assert data["clock"] == "cpu" and data["cpu_seconds"] >= 0
    status, out, _ = run_cli(
        capsys, "analyze", "tictactoe", "--position", "XX./OO./...", "--clock", "cpu"
    )
    assert status == 0 and "s of processor time" in out


def test_match_and_tournament_name_the_clock_of_each_player(
    capsys: pytest.CaptureFixture[str],
) -> None:
    common = ("--games", "2", "--seed", "1", "--clock", "cpu", "--json")
    match = _json(
        capsys,
        "match",
        "tictactoe",
        "--first",
        "alphabeta:depth=1",
        "--second",
        "iterative:seconds=0.01",
        *common,
    )
    assert "clock=cpu" in json.dumps(match)
    tournament = _json(
        capsys,
        "tournament",
        "tictactoe",
        "--players",
        "alphabeta:depth=1",
        "iterative:seconds=0.01",
        *common,
    )
    shown = json.dumps(tournament)
    assert "alphabeta:depth=1,clock=cpu" in shown and "iterative:seconds=0.01,clock=cpu" in shown


def test_tactics_and_batch_report_the_clock_of_their_seconds(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    suite = tmp_path / "suite.txt"
    suite.write_text("XX./OO./... | 2 | win now\n")
    tactics = _json(
        capsys, "tactics", "tictactoe", str(suite), "--seconds", "0.5", "--clock", "cpu", "--json"
    )
    assert tactics["seconds"] == 0.5 and tactics["clock"] == "cpu"
    assert tactics["rows"][0]["solved"] == 1
    status, out, _ = run_cli(
        capsys, "tactics", "tictactoe", str(suite), "--seconds", "0.5", "--clock", "cpu"
    )
    assert status == 0 and "0.5 s (cpu) each" in out
    positions = tmp_path / "positions.txt"
    positions.write_text("XX./OO./... | 1\n")
    batch = _json(
        capsys,
        "batch",
        "tictactoe",
        str(positions),
        "--seconds",
        "0.5",
        "--clock",
        "cpu",
        "--store",
        str(tmp_path / "store.sqlite"),
        "--json",
    )
    assert batch["limit"] == {"seconds": 0.5, "clock": "cpu"}


@pytest.mark.parametrize(
    "command",
    [
        ("analyze", "tictactoe"),
        ("play", "tictactoe"),
        ("match", "tictactoe", "--first", "alphabeta", "--second", "alphabeta"),
        ("tournament", "tictactoe", "--players", "alphabeta", "minimax"),
        ("tactics", "tictactoe", "suite.txt"),
        ("batch", "tictactoe", "positions.txt"),
        ("serve",),
    ],
    ids=lambda command: command[0],
)
def test_every_command_with_time_budgets_refuses_an_unknown_clock(
    capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    assert_usage_error(
        capsys, "argument --clock: invalid choice: 'gpu'", *command, "--clock", "gpu"
    )


def test_the_web_service_measures_every_time_budget_on_its_own_clock() -> None:
    from gamesearch.web.service import Limits, read_search

    limits = Limits(max_nodes=3_000, seconds=2.0, clock="cpu")
    body: dict[str, Any] = {"game": "tictactoe", "searcher": "iterative"}
    assert read_search(REGISTRY, body, limits).searcher.clock == "cpu"
    assert limits.as_dict()["clock"] == "cpu"
    asked = {**body, "searcher_options": {"clock": "cpu"}}
    with pytest.raises(InvalidOptionError, match=r"option 'clock' asks for 'cpu'; this server"):
        read_search(REGISTRY, asked, Limits(max_nodes=3_000, seconds=2.0))
    with pytest.raises(InvalidOptionError, match=r"limit 'clock' must be 'wall' or 'cpu': 'gpu'"):
        Limits(clock="gpu")


class _Depth:
    """A stand-in answer of one depth for the deepening driver."""

    def __init__(self, depth: int, is_exact: bool) -> None:
        self.depth, self.is_exact = depth, is_exact


def test_the_deepening_driver_keeps_the_deepest_completed_depth() -> None:
    from gamesearch.search.deepening import deepen

    budget, seen = Budget(max_nodes=100), []

    def search_depth(depth: int, rest: Budget | None, last: _Depth | None) -> _Depth:
        seen.append((depth, None if rest is None else rest.nodes_left, last and last.depth))
        if depth == 3:
            raise BudgetExceededError("spent")
        return _Depth(depth, is_exact=False)

    found, completed = deepen(search_depth, budget, lambda: 10 * len(seen))
    assert (found.depth, completed) == (2, 2)
    # depth 1 runs without a budget; each later depth gets what the earlier ones left
    assert seen == [(1, None, None), (2, 90, 1), (3, 80, 2)]


def test_the_deepening_driver_stops_when_exact_deep_enough_or_out_of_nodes() -> None:
    from gamesearch.search.deepening import deepen

    def exact_at_two(depth: int, rest: Budget | None, last: _Depth | None) -> _Depth:
        return _Depth(depth, is_exact=depth == 2)

    assert deepen(exact_at_two, Budget(), lambda: 0)[1] == 2
    assert deepen(exact_at_two, Budget(), lambda: 0, deepest=1)[1] == 1
    assert deepen(exact_at_two, Budget(max_nodes=5), lambda: 4)[1] == 1  # one node left
    with pytest.raises(BudgetExceededError, match="spent at once"):
        deepen(_raise_at_once, Budget(), lambda: 0)


def _raise_at_once(depth: int, rest: Budget | None, last: _Depth | None) -> _Depth:
    raise BudgetExceededError("spent at once")


def test_play_names_the_clock_of_its_engine(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    status, out, err = run_cli(capsys, "play", "tictactoe", "--clock", "cpu")
    assert status == 0, err
    assert "engine iterative:clock=cpu,seconds=2.0" in out


def test_the_clock_option_offers_every_clock_a_budget_reads() -> None:
    from gamesearch.cli._common import CLOCK_CHOICES
    from gamesearch.search.base import CLOCKS

    assert set(CLOCK_CHOICES) == set(CLOCKS)
