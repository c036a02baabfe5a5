"""The chance rows of the benchmark: OpenSpiel's expectiminimax, aima-python's expect_minmax and
the framework's searchers search the same Pig tree (same value, same nodes for plain
expectiminimax)."""

from __future__ import annotations

import pytest

from benchmarks.chance import Workload, main, measure_workload

SMALL = Workload("pig 4/d3/6, depth 3", 4, 3, 6, 3)
#: every line of this one ends within the depth: aima-python's search has a row
WHOLE = Workload("pig 3/d3/5, to the end", 3, 3, 5, 5)


def test_openspiel_and_every_framework_searcher_agree_on_the_row() -> None:
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    block = measure_workload(SMALL, repeat=1)
    peer, rows = block["openspiel"], {row["searcher"]: row for row in block["rows"]}
    assert peer is not None and block["aima"] is None  # aima-python has no depth limit
    assert all(row["value"] == pytest.approx(peer["value"], abs=1e-12) for row in rows.values())
    assert rows["expectiminimax"]["nodes"] == peer["nodes"]  # the same tree, node for node
    assert rows["star2"]["nodes"] < peer["nodes"] and rows["star2:table=true"]["tt_hits"] > 0
    assert all(row["vs_openspiel"] > 0 and row["vs_aima"] is None for row in rows.values())


def test_aima_pythons_expect_minmax_agrees_on_value_move_and_positions() -> None:
    pytest.importorskip("aima.games", reason="aima-python (the aima package) is not installed")
    block = measure_workload(WHOLE, repeat=1)
    peer, rows = block["aima"], {row["searcher"]: row for row in block["rows"]}
    assert peer is not None and peer["searcher"] == "aima-python expect_minmax"
    plain = rows["expectiminimax"]
    assert (peer["value"], peer["move"], peer["nodes"]) == (
        pytest.approx(plain["value"], abs=1e-12),
        plain["move"],
        plain["nodes"],
    )
    assert all(row["vs_aima"] > 0 for row in rows.values())


@pytest.mark.slow
def test_the_command_prints_every_row(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("benchmarks.chance.WORKLOADS", (SMALL,))
    assert main(["--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("pig 4/d3/6, depth 3") and "star2:table=true" in out


@pytest.mark.slow
def test_without_aima_python_its_rows_are_left_out_with_a_note(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("benchmarks.chance.WORKLOADS", (WHOLE,))
    monkeypatch.setattr("benchmarks.chance.aima_available", lambda: False)
    assert main(["--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "aima-python expect_minmax" not in out and "x aima" not in out
    assert "aima-python is not installed: no aima rows" in out
