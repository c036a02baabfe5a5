"""gamesearch's exact searchers against OpenSpiel's own on random positions
(``python -m benchmarks.openspiel_check``): the positions, the node count, and the docs tables."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
from benchmarks import openspiel_check as check  # noqa: E402
from gamesearch import default_registry  # noqa: E402


def test_positions_are_seeded_unfinished_distinct_and_within_their_bounds() -> None:
    late = {(one.short_name, one.min_ply): one for one in check.CHECKS}
    connect_four, hex_4x4 = late["connect_four", 30], late["hex", 8]
    first, again = check.positions(connect_four), check.positions(connect_four)
    assert [game.to_text() for game in first] == [game.to_text() for game in again]
    assert len({game.to_text() for game in first}) == connect_four.positions
    assert all(game.ply >= 30 and not game.is_over() for game in first)
    assert all(game.ply >= 8 and not game.is_over() for game in check.positions(hex_4x4))


def test_openspiel_nodes_are_the_root_and_every_action_applied() -> None:
    game = default_registry().game_class("openspiel.tic_tac_toe").from_text("0 1 2 4 3 5 7 6")
    searched = check.search(game, "alphabeta", clock=False)
    # one empty cell: the root and the one position after it
    assert (searched.theirs_nodes, searched.ours, searched.theirs) == (2, "0", "0")
    assert searched.ours_seconds == searched.theirs_seconds == 0.0


def test_the_time_columns_are_left_out_of_the_comparison() -> None:
    table = "| a | b | 1 / 2 |\n|---|---|---|\n| x | 3 | 40 / 50 |\n"
    assert check.without_times(table) == [["a", "b"], ["---", "---"], ["x", "3"]]


def test_writing_the_docs_takes_every_check(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        check.main(["--write", "--only", "nim"])
    assert "leave out --only" in capsys.readouterr().err


@pytest.mark.slow
def test_the_docs_tables_are_the_commands_rows_with_no_disagreement() -> None:
    results = [(one, check.run_check(one, clock=False)) for one in check.CHECKS]
    assert all(searched.agrees for _, rows in results for searched in rows)
    by_position = check.positions_table(results)
    assert "**no**" not in by_position
    written = check.generated(check.POSITIONS_PAGE, check.POSITIONS_SECTION)
    assert written == by_position, "run python -m benchmarks.openspiel_check --write"
    benchmarks = check.generated(check.BENCHMARKS_PAGE, check.BENCHMARKS_SECTION)
    assert check.without_times(benchmarks) == check.without_times(check.benchmark_table(results)), (
        "run python -m benchmarks.openspiel_check --write"
    )
