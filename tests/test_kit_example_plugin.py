"""The example third-party plugin (docs/examples/gamesearch-nim), installed from its folder
with pip.

It must be found through its entry point, and then everything works on it: the
registry, `gamesearch games`, `analyze`, `match`, `tree`, every searcher and the kit.
Nim's theory (the side to move loses exactly when the heaps' XOR is zero) checks the
searchers' answers.
"""

from __future__ import annotations

import functools
import importlib.metadata
import json
import operator
from typing import Any

import pytest
from clirun import run_cli, run_script

from gamesearch import Scoring, default_registry
from gamesearch.testing import (
    Reference,
    check_game,
    check_searcher,
    depth_option,
    reachable_positions,
    with_depth,
)

pytest.importorskip(
    "gamesearch_nim",
    reason="the example plugin is not installed: pip install -e docs/examples/gamesearch-nim",
)

#: the searchers that search Nim (those of games of chance or of several players refuse it)
SEARCHERS = sorted(
    name
    for name, cls in default_registry().searchers.items()
    if not cls().unmet_needs(default_registry().new_game("nim"))
)
EXACT = [name for name in SEARCHERS if depth_option(default_registry().searcher_class(name))]
APPROXIMATE = [name for name in SEARCHERS if name not in EXACT]
#: the searchers that search games of chance only (tests/test_chance.py checks them)
CHANCE_ONLY = [
    name for name in SEARCHERS if default_registry().searcher_class(name).expected_values
]


def nim_sum(game: Any) -> int:
    return functools.reduce(operator.xor, game.heaps, 0)


def winning_moves(game: Any) -> set[tuple[int, int]]:
    """The moves that leave a zero XOR (every one wins when the XOR is not zero)."""
    total = nim_sum(game)
    return {
        (heap, size - (size ^ total)) for heap, size in enumerate(game.heaps) if size ^ total < size
    }


@pytest.fixture(scope="module")
def nim_positions() -> list[Any]:
    return reachable_positions(default_registry().new_game("nim", heaps="2,3,4"))


@pytest.fixture(scope="module")
def plain_reference() -> Reference:
    """Minimax with plain scores, searched once per position for every searcher checked."""
    return Reference(scoring=Scoring.PLAIN)


def test_the_example_plugin_is_installed_and_found_through_its_entry_point() -> None:
    found = {point.name: point for point in importlib.metadata.entry_points(group="gamesearch")}
    assert found["nim"].value == "gamesearch_nim"
    assert found["nim"].dist is not None and found["nim"].dist.name == "gamesearch-nim"
    assert default_registry().game_class("nim").__module__ == "gamesearch_nim"


@pytest.mark.slow
def test_the_installed_games_command_lists_nim_with_its_option() -> None:
    result = run_script("games", "--json")
    assert result.returncode == 0, result.stderr
    nim = json.loads(result.stdout)["games"]["nim"]
    assert nim["options"] == [
        {
            "name": "heaps",
            "type": "str",
            "default": "3,4,5",
            "help": "starting heap sizes, separated by commas",
            "choices": None,
        }
    ]
    assert nim["rules"] == {
        "players": 2,
        "alternating": True,
        "chance": False,
        "max_plies": 12,
        "result_range": [-1, 1],
        "utilities": False,
        "constant_sum": None,
        "zugzwang_rare": False,
    }


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    status, out, err = run_cli(capsys, *argv)
    assert status == 0, err
    return json.loads(out)


def test_analyze_finds_the_one_winning_first_move_of_3_4_5(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = cli_json(capsys, "analyze", "nim", "--json")
    assert data["best_moves"] == ["A2"]  # 3 xor 4 xor 5 = 2: heap A from 3 to 1
    assert data["description"] == "first wins in 11 plies"


def test_analyze_reads_a_position_and_options_of_nim(capsys: pytest.CaptureFixture[str]) -> None:
    data = cli_json(capsys, "analyze", "nim", "-o", "heaps=7,7", "--position", "7,5@1", "--json")
    assert (data["to_move"], data["best_moves"], data["description"]) == (
        "second",
        ["A2"],
        "second wins in 11 plies",
    )  # A2, then 10 single takes


def test_compare_finds_every_searcher_agreeing_on_nim(capsys: pytest.CaptureFixture[str]) -> None:
    data = cli_json(capsys, "compare", "nim", "-o", "heaps=2,3,4", "--json")
    rows = {row["searcher"]: row for row in data["rows"]}
    assert set(rows) == set(SEARCHERS) - set(CHANCE_ONLY)  # the searchers of chance refuse Nim
    for name in EXACT:
        if name not in CHANCE_ONLY:
            assert rows[name]["agrees"] and rows[name]["best_moves"] == [
                "C3"
            ]  # 2 xor 3 xor 4 = 5: C from 4 to 1


def test_match_and_tree_run_on_nim(capsys: pytest.CaptureFixture[str]) -> None:
    match = cli_json(
        capsys,
        "match",
        "nim",
        "--first",
        "alphabeta",
        "--second",
        "minimax",
        "-n",
        "2",
        "--seed",
        "1",
        "--json",
    )
    assert len(match["games"]) == 2
    status, out, err = run_cli(capsys, "tree", "nim", "-o", "heaps=1,2", "--searcher", "minimax")
    assert status == 0 and "B2" in out, err


def test_the_kit_passes_nim(nim_positions: list[Any]) -> None:
    report = check_game("nim", options={"heaps": "2,3,4"})
    assert report.is_exhaustive and report.positions == len(nim_positions)


@pytest.mark.parametrize("name", EXACT)
def test_every_exact_searcher_agrees_with_minimax_and_with_nim_theory(
    name: str, nim_positions: list[Any], plain_reference: Reference
) -> None:
    if name in CHANCE_ONLY:
        pytest.skip(f"{name} searches games of chance only")
    searcher = with_depth(default_registry().searcher_class(name), None, scoring=Scoring.PLAIN)
    check_searcher(searcher, nim_positions, reference=plain_reference, move_values=False)
    for game in nim_positions:
        if game.is_over():
            continue
        result = searcher.search(game)
        to_move_wins = result.value * game.to_move().sign > 0
        assert to_move_wins == (nim_sum(game) != 0), game.to_text()
        # Plain scoring: when winning, the best moves are exactly those to a zero XOR.
        expected = winning_moves(game) if to_move_wins else set(game.legal_moves())
        assert set(result.best_moves) == expected, game.to_text()


@pytest.mark.parametrize("name", APPROXIMATE)
def test_every_approximate_searcher_answers_legally_and_proves_only_what_theory_says(
    name: str, nim_positions: list[Any]
) -> None:
    searcher = default_registry().searcher_class(name)()
    sample = nim_positions[::7]
    check_searcher(searcher, sample, reference=Reference(), exact=False)
