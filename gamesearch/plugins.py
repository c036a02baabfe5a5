"""Plugins: pluggy hook specs, the plugin manager factory and the registry.

Games and searchers reach gamesearch only through these hooks. The built-in
searchers are a plugin like any other; in-tree games (``games/``) and third-party
packages are found through the ``gamesearch`` entry-point group::

    [project.entry-points.gamesearch]
    mygame = "mypackage.mygame"

and a plugin module implements a hook::

    from gamesearch.plugins import hookimpl

    @hookimpl
    def gamesearch_register_games(registry):
        registry.add_game(MyGame)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

import pluggy

from gamesearch.errors import (
    DuplicateNameError,
    InvalidOptionError,
    UnknownGameError,
    UnknownSearcherError,
)
from gamesearch.game import Game
from gamesearch.search.base import Searcher, parse_searcher_spec

PROJECT = "gamesearch"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


class HookSpecs:
    """The hooks a gamesearch plugin may implement (all called with keyword arguments)."""

    @hookspec
    def gamesearch_register_games(self, registry: Registry) -> None:
        """Add game classes with ``registry.add_game(GameClass)``."""

    @hookspec
    def gamesearch_register_searchers(self, registry: Registry) -> None:
        """Add searcher classes with ``registry.add_searcher(SearcherClass)``."""


class Registry:
    """The games and searchers that plugins registered, looked up by name."""

    def __init__(self) -> None:
        self._games: dict[str, type[Game[Any]]] = {}
        self._searchers: dict[str, type[Searcher]] = {}

    # -------------------------------------------------------------- registering
    def add_game(self, game_class: type[Game[Any]]) -> None:
        """Register a game class under its ``name``.

        :raises DuplicateNameError: when another game already has that name.
        """
        _add(self._games, game_class, "game")

    def add_searcher(self, searcher_class: type[Searcher]) -> None:
        """Register a searcher class under its ``name``.

        :raises DuplicateNameError: when another searcher already has that name.
        """
        _add(self._searchers, searcher_class, "searcher")

    # ------------------------------------------------------------------ looking
    @property
    def games(self) -> Mapping[str, type[Game[Any]]]:
        """Return the registered game classes by name, sorted by name."""
        return dict(sorted(self._games.items()))

    @property
    def searchers(self) -> Mapping[str, type[Searcher]]:
        """Return the registered searcher classes by name, sorted by name."""
        return dict(sorted(self._searchers.items()))

    def game_class(self, name: str) -> type[Game[Any]]:
        """Return the game class registered as ``name``.

        :raises UnknownGameError: listing the registered games.
        """
        try:
            return self._games[name]
        except KeyError:
            known = ", ".join(sorted(self._games)) or "none"
            raise UnknownGameError(f"unknown game {name!r}; available games: {known}") from None

    def searcher_class(self, name: str) -> type[Searcher]:
        """Return the searcher class registered as ``name``.

        :raises UnknownSearcherError: listing the registered searchers.
        """
        try:
            return self._searchers[name]
        except KeyError:
            known = ", ".join(sorted(self._searchers)) or "none"
            raise UnknownSearcherError(
                f"unknown searcher {name!r}; available searchers: {known}"
            ) from None

    def new_game(self, name: str, position: str | None = None, **options: Any) -> Game[Any]:
        """Return a new position of game ``name``: the start, or ``position`` parsed.

        :raises UnknownGameError: for an unregistered name.
        :raises InvalidOptionError: for a bad option.
        :raises InvalidPositionError: for bad position text.
        """
        game_class = self.game_class(name)
        if position is None:
            return game_class.new(**options)
        return game_class.from_text(position, **options)

    def new_searcher(self, spec: str, **options: Any) -> Searcher:
        """Return the searcher described by ``spec``, e.g. ``"alphabeta:depth=4,table=on"``.

        Keyword options are added to (and override) those written in the spec.

        :raises UnknownSearcherError: for an unregistered name.
        :raises InvalidOptionError: for a malformed spec or a bad option.
        """
        name, spec_options = parse_searcher_spec(spec)
        return self.searcher_class(name).from_options({**spec_options, **options})


def _add(table: dict[str, Any], cls: Any, kind: str) -> None:
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name:
        raise InvalidOptionError(f"a {kind} class needs a non-empty 'name': {cls!r}")
    if name in table and table[name] is not cls:
        raise DuplicateNameError(
            f"two {kind}s are registered as {name!r}: {table[name]!r} and {cls!r}"
        )
    table[name] = cls


def make_plugin_manager(
    *, plugins: Iterable[object] = (), entry_points: bool = True
) -> pluggy.PluginManager:
    """Return a new plugin manager with the built-in searchers, ``plugins`` and,
    unless ``entry_points`` is false, every plugin of the ``gamesearch`` entry-point group.
    """
    from gamesearch.search import builtin

    manager = pluggy.PluginManager(PROJECT)
    manager.add_hookspecs(HookSpecs)
    manager.register(builtin, name="gamesearch.search.builtin")
    for plugin in plugins:
        manager.register(plugin)
    if entry_points:
        manager.load_setuptools_entrypoints(PROJECT)
    manager.check_pending()
    return manager


def build_registry(manager: pluggy.PluginManager | None = None) -> Registry:
    """Return a registry filled by every plugin of ``manager`` (a new default one if none)."""
    registry = Registry()
    manager = manager if manager is not None else make_plugin_manager()
    manager.hook.gamesearch_register_searchers(registry=registry)
    manager.hook.gamesearch_register_games(registry=registry)
    return registry


@functools.cache
def default_registry() -> Registry:
    """Return the registry of every installed plugin, built on first use and then kept."""
    return build_registry()
