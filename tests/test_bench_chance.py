"""The chance rows of the benchmark: OpenSpiel's expectiminimax and the framework's searchers
search the same Pig tree (same value, same nodes for plain expectiminimax)."""

from __future__ import annotations

import pytest

from benchmarks.chance import Workload, framework_rows, main, openspiel_row

SMALL = Workload("pig 4/d3/6, depth 3", 4, 3, 6, 3)


def test_openspiel_and_every_framework_searcher_agree_on_the_row() -> None:
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    peer = openspiel_row(SMALL, repeat=1)
    assert peer is not None
    rows = {row["searcher"]: row for row in framework_rows(SMALL, repeat=1)}
    assert all(row["value"] == pytest.approx(peer["value"], abs=1e-12) for row in rows.values())
    assert rows["expectiminimax"]["nodes"] == peer["nodes"]  # the same tree, node for node
    assert rows["star2"]["nodes"] < peer["nodes"] and rows["star2:table=true"]["tt_hits"] > 0


def test_the_command_prints_every_row(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("benchmarks.chance.WORKLOADS", (SMALL,))
    assert main(["--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("pig 4/d3/6, depth 3") and "star2:table=true" in out
