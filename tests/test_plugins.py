"""The registry: games and searchers come from pluggy plugins and entry points."""

from __future__ import annotations

import pytest

from gamesearch import (
    AlphaBeta,
    DuplicateNameError,
    InvalidOptionError,
    UnknownGameError,
    UnknownSearcherError,
    build_registry,
    hookimpl,
    make_plugin_manager,
)
from gamesearch.plugins import HookSpecs
from gamesearch_games.tictactoe import TicTacToe


def test_the_installed_registry_finds_tictactoe_through_its_entry_point() -> None:
    registry = build_registry()
    assert registry.game_class("tictactoe") is TicTacToe
    assert {"minimax", "alphabeta", "iterative"} <= set(registry.searchers)


def test_games_are_looked_up_by_name_with_options_and_a_position() -> None:
    registry = build_registry()
    game = registry.new_game("tictactoe", rows="4", cols="4", k="3")
    assert game.settings == {"rows": 4, "cols": 4, "k": 3}
    assert registry.new_game("tictactoe", "X.O/.X./...").to_text() == "X.O/.X./..."


def test_unknown_names_list_the_available_ones() -> None:
    registry = build_registry()
    with pytest.raises(
        UnknownGameError, match=r"unknown game 'shogi'; available games: .*tictactoe"
    ):
        registry.new_game("shogi")
    with pytest.raises(
        UnknownSearcherError, match=r"unknown searcher 'oracle'; available searchers: alphabeta"
    ):
        registry.new_searcher("oracle")


def test_searchers_are_built_from_a_spec_with_options() -> None:
    searcher = build_registry().new_searcher("alphabeta:depth=3,table=on,ordering=natural")
    assert searcher == AlphaBeta(depth=3, table=True, ordering="natural")
    searcher = build_registry().new_searcher("minimax", depth="2")
    assert searcher.depth == 2  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "alphabeta:depth",
            r"searcher option 'depth' in 'alphabeta:depth' must be written key=value",
        ),
        ("alphabeta:depth=deep", r"option 'depth' must be an integer or none: 'deep'"),
        ("alphabeta:table=maybe", r"option 'table' must be true or false: 'maybe'"),
        (
            "alphabeta:width=3",
            r"searcher 'alphabeta': unknown option 'width'; valid options: all_best, clock, depth",
        ),
        ("alphabeta:depth=0", r"'depth' must be >= 1: 0"),
    ],
)
def test_bad_searcher_specs_are_refused_with_the_problem_named(spec: str, message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        build_registry().new_searcher(spec)


class DuplicateTicTacToe(TicTacToe):
    name = "tictactoe"


class DuplicatePlugin:
    @hookimpl
    def gamesearch_register_games(self, registry: object) -> None:
        registry.add_game(DuplicateTicTacToe)  # type: ignore[attr-defined]


def test_a_duplicate_game_name_fails_loudly() -> None:
    manager = make_plugin_manager(plugins=[DuplicatePlugin()])
    with pytest.raises(DuplicateNameError, match=r"two games are registered as 'tictactoe'"):
        build_registry(manager)


class OwnSearcherPlugin:
    @hookimpl
    def gamesearch_register_searchers(self, registry: object) -> None:
        class Shallow(AlphaBeta):
            """Alpha-beta two plies deep."""

            name = "shallow"

        registry.add_searcher(Shallow)  # type: ignore[attr-defined]


def test_a_users_own_searcher_shows_up_in_the_registry() -> None:
    registry = build_registry(
        make_plugin_manager(plugins=[OwnSearcherPlugin()], entry_points=False)
    )
    assert "shallow" in registry.searchers
    assert registry.new_searcher("shallow:depth=2").search(TicTacToe()).move is not None
    assert registry.games == {}  # no entry points loaded: no games


def test_every_hook_spec_has_a_docstring() -> None:
    for name in dir(HookSpecs):
        if name.startswith("gamesearch_"):
            assert getattr(HookSpecs, name).__doc__, name
