"""The smallest plugin the docs show: eight core members, and everything works on it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from gamesearch import AlphaBeta, Minimax
from gamesearch.plugins import build_registry, make_plugin_manager
from gamesearch.testing import check_game, check_searcher, reachable_positions

PLUGIN = Path(__file__).resolve().parents[1] / "docs" / "examples" / "minimal" / "tiny_tictactoe.py"


@pytest.fixture(scope="module")
def tiny() -> object:
    spec = importlib.util.spec_from_file_location("tiny_tictactoe", PLUGIN)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tiny_tictactoe"] = module
    spec.loader.exec_module(module)
    return module


def test_the_minimal_plugin_is_about_eighty_lines() -> None:
    assert len(PLUGIN.read_text().splitlines()) <= 80


@pytest.mark.slow
def test_the_minimal_plugin_passes_the_whole_conformance_kit(tiny: object) -> None:
    report = check_game(tiny.TinyTicTacToe)  # type: ignore[attr-defined]
    assert report.positions == 5478 and report.is_exhaustive


@pytest.mark.slow
def test_searchers_agree_with_the_reference_on_the_minimal_plugin(tiny: object) -> None:
    positions = reachable_positions(tiny.TinyTicTacToe())  # type: ignore[attr-defined]
    check_searcher(AlphaBeta(table=True), positions[::7])


@pytest.mark.slow
def test_the_minimal_plugin_registers_and_reproduces_the_textbook_count(tiny: object) -> None:
    registry = build_registry(make_plugin_manager(plugins=[tiny], entry_points=False))
    game = registry.new_game("tiny-tictactoe")
    assert Minimax(scoring="plain").search(game).stats.nodes == 549946
    assert game.history == () and game.to_text() == ""
    game.play("4")
    assert game.to_text() == "4"
    assert registry.new_game("tiny-tictactoe", "4 0").key() == (-1, 0, 0, 0, 1, 0, 0, 0, 0)
    assert registry.new_searcher("solver").search(registry.new_game("tiny-tictactoe")).value == 0


def test_the_kit_finds_a_game_by_name_in_the_registry_it_is_given(tiny: object) -> None:
    from hypothesis import given, settings

    from gamesearch.errors import UnknownGameError
    from gamesearch.plugins import Registry
    from gamesearch.testing import random_positions
    from gamesearch.testing.strategies import positions

    registry = Registry()
    registry.add_game(tiny.TinyTicTacToe)  # type: ignore[attr-defined]
    with pytest.raises(UnknownGameError, match="tiny-tictactoe"):
        reachable_positions(
            "tiny-tictactoe"
        )  # not installed as a plugin: not in the default registry
    assert len(reachable_positions("tiny-tictactoe", registry=registry)) == 5478
    assert not check_game("tiny-tictactoe", registry=registry, max_positions=200).is_exhaustive
    assert all(
        position.name == "tiny-tictactoe"
        for position in random_positions("tiny-tictactoe", count=5, registry=registry)
    )

    @settings(max_examples=5, deadline=None)
    @given(positions("tiny-tictactoe", registry=registry))
    def drawn(position: object) -> None:
        assert isinstance(position, tiny.TinyTicTacToe)  # type: ignore[attr-defined]

    drawn()
