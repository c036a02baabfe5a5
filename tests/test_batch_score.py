"""A batch record carries the typed score of its value, as ``analyze --json`` does, and the
store keeps it (also in a store written before records had one)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import attrs
import pytest

from gamesearch import default_registry
from gamesearch.batch.store import ResultStore
from gamesearch.batch.tasks import Method, Status, Task, run_task
from gamesearch.score import Proven

REGISTRY = default_registry()
#: X to move wins at once (cell 2); O threatens 5
WIN_IN_ONE = "XX./OO./..."


def test_a_search_record_carries_the_score_of_analyze_beside_its_value() -> None:
    record = run_task(Task("tictactoe", WIN_IN_ONE, "alphabeta"))
    analysed = REGISTRY.new_searcher("alphabeta").search(REGISTRY.new_game("tictactoe", WIN_IN_ONE))
    data = record.as_dict()
    assert data["score"] == analysed.as_dict(REGISTRY.new_game("tictactoe", WIN_IN_ONE))["score"]
    assert data["score"] == {
        "kind": "proven",
        "margin": 1,
        "plies": 1,
        "player": 0,
        "words": "X wins in 1 ply",
    }
    assert data["value"] == analysed.value == 995  # the value stays beside it


def test_a_depth_limited_estimate_is_a_heuristic_score_with_its_depth() -> None:
    record = run_task(Task("tictactoe", ".../.../...", "alphabeta:depth=1"))
    assert record.score is not None and record.score["kind"] == "heuristic"
    assert record.score["depth"] == 1 and record.exact is False


@pytest.mark.parametrize(
    ("method", "plies", "words"),
    [(Method.SOLVE, 1, "X wins in 1 ply"), (Method.SOLVE_WEAK, None, "X wins")],
)
def test_a_value_alone_has_a_proven_score(method: Method, plies: int | None, words: str) -> None:
    record = run_task(Task("tictactoe", WIN_IN_ONE, method=method))
    assert record.status is Status.DONE
    assert record.score == {
        "kind": "proven",
        "margin": 1,
        "plies": plies,
        "player": 0,
        "words": words,
    }


def test_a_failed_record_has_no_score() -> None:
    record = run_task(Task("tictactoe", "XXX/XXX/XXX", "alphabeta"))
    assert record.status is Status.FAILED and record.as_dict()["score"] is None


def test_the_store_keeps_the_score(tmp_path: Path) -> None:
    record = run_task(Task("tictactoe", WIN_IN_ONE, "alphabeta"))
    with ResultStore(tmp_path / "results.sqlite") as store:
        store.add(record)
    with ResultStore(tmp_path / "results.sqlite") as store:
        assert store.get(record.key) == record


def test_a_store_written_before_scores_opens_and_its_rows_have_none(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with ResultStore(path) as store:
        store.add(run_task(Task("tictactoe", WIN_IN_ONE, "alphabeta")))
    with sqlite3.connect(path) as db:  # as the first layout had it: no score column
        db.execute("ALTER TABLE results DROP COLUMN score")
        db.execute("PRAGMA user_version = 1")
    with ResultStore(path) as store:
        (old,) = store.records()
        assert old.score is None and old.value == 995
        new = run_task(Task("tictactoe", WIN_IN_ONE, "minimax"))
        store.add(new)
        assert store.get(new.key) == new and isinstance(new.score, dict)


def test_records_still_hash_and_compare_their_scores() -> None:
    record = run_task(Task("tictactoe", WIN_IN_ONE, "alphabeta"))
    scoreless = attrs.evolve(record, score=None)
    assert hash(record) == hash(scoreless) and record != scoreless


def test_a_mate_in_one_reads_as_mate_where_the_game_names_its_forced_wins() -> None:
    pytest.importorskip("gamesearch_chess", reason="the chess plugin is not installed")
    position = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
    record = run_task(Task("chess", position, "alphabeta:depth=1"))
    assert record.score is not None and record.score["words"] == "White wins: mate in 1"
    result = REGISTRY.new_searcher("alphabeta:depth=1").search(REGISTRY.new_game("chess", position))
    assert result.score == Proven(1, 1) and str(result.score) == "White wins: mate in 1"
