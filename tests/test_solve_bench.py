"""The sampled rows of ``python -m benchmarks.proof``: the positions are what the rows
say, and every searcher that settles one finds the margin the others find."""

from __future__ import annotations

import pytest

from benchmarks.proof import CHECKERS_ENDGAMES, endgames, run_row, sampled
from gamesearch.plugins import default_registry


def test_the_sampled_rows_hold_unfinished_positions_as_their_names_say() -> None:
    rows = dict(endgames(2))
    othello, hexes = (
        rows["Othello 8x8, 2 endgames of 10 empties"],
        rows["Hex 4x4, 2 positions after 4 random stones"],
    )
    for position in othello:
        assert position.to_text().split()[0].count(".") == 10 and not position.is_over()
    assert [position.ply for position in hexes] == [4, 4]
    assert len(rows["checkers, 5 endgames"]) == len(CHECKERS_ENDGAMES)
    again = dict(endgames(2))["Hex 4x4, 2 positions after 4 random stones"]
    assert [game.to_text() for game in again] == [game.to_text() for game in hexes]  # seeded


def test_the_solver_and_both_proof_searches_agree_on_hex_3x3_and_a_sampled_position() -> None:
    new = default_registry().new_game
    positions = [
        new("hex", size="3"),
        *sampled(lambda: new("hex", size="3"), 1, lambda g: g.ply >= 3),
    ]
    for position in positions:
        row = run_row("hex", [position], None)
        margins = {entry["searcher"]: entry["margin"] for entry in row["searchers"]}
        assert set(margins) == {"solver", "pns", "dfpn"}
        assert len(set(margins.values())) == 1 and margins["solver"] in (1, -1), margins
        assert all(entry["gave_up"] == 0 and entry["nodes"] > 0 for entry in row["searchers"])


@pytest.mark.slow
def test_on_the_othello_and_hex_samples_the_solver_and_both_proof_searches_agree() -> None:
    # two positions of each sample (the benchmark's table takes more): the claim does
    # not depend on how many; 100,000 nodes let all three settle each position (at
    # 20,000 only the solver finished some, and an agreement of one proves nothing)
    rows = dict(endgames(2))
    for name in (
        "Othello 8x8, 2 endgames of 10 empties",
        "Hex 4x4, 2 positions after 4 random stones",
    ):
        row = run_row(name, rows[name], 100_000)
        assert {entry["searcher"] for entry in row["searchers"]} == {"solver", "pns", "dfpn"}
        for at in range(2):
            found = [entry["margins"][at] for entry in row["searchers"]]
            assert None not in found and len(set(found)) == 1, (name, at, row)
