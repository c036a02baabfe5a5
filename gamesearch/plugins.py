"""Plugins: pluggy hook specs, the plugin manager factory and the registry.

Games and searchers reach gamesearch only through these hooks, and so do what a game's
plugin brings beside its game: command-line subcommands, data sets to download, the
formats of its position files and the look of its board. The built-in searchers are a
plugin like any other; in-tree games (``games/``) and third-party packages are found
through the ``gamesearch`` entry-point group::

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
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pluggy

from gamesearch.datasets.fetch import DataSet
from gamesearch.datasets.formats import LINES, LINES_FORMAT, PositionFormat
from gamesearch.errors import (
    DuplicateNameError,
    InvalidOptionError,
    UnknownGameError,
    UnknownSearcherError,
)
from gamesearch.game import Game
from gamesearch.looks import PLAIN, BoardLook
from gamesearch.search.base import Searcher, parse_searcher_spec

#: ``register(subparsers)``: adds one subcommand to the ``gamesearch`` command's
#: ``argparse`` subparsers (``subparsers.add_parser(name, help=...)``) and sets its
#: ``handler``, a function of the parsed arguments returning the exit status
CommandRegister = Callable[[Any], object]

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

    @hookspec
    def gamesearch_register_commands(self, registry: Registry) -> None:
        """Add ``gamesearch`` subcommands with ``registry.add_command(name, register)``."""

    @hookspec
    def gamesearch_register_data_sets(self, registry: Registry) -> None:
        """Add downloadable data sets with ``registry.add_data_set(DataSet(...))``."""

    @hookspec
    def gamesearch_register_position_formats(self, registry: Registry) -> None:
        """Add position file formats with ``registry.add_position_format(PositionFormat(...))``."""

    @hookspec
    def gamesearch_register_board_looks(self, registry: Registry) -> None:
        """Add a game's board drawing with ``registry.add_board_look(game, BoardLook(...))``."""


class Registry:
    """What plugins registered, looked up by name: games, searchers, commands, data sets,
    position formats and board looks."""

    def __init__(self) -> None:
        self._games: dict[str, type[Game[Any]]] = {}
        self._searchers: dict[str, type[Searcher]] = {}
        self._commands: dict[str, CommandRegister] = {}
        self._data_sets: dict[str, DataSet] = {}
        self._formats: dict[tuple[str, str], PositionFormat] = {}
        self._looks: dict[str, BoardLook] = {}
        self._notices: list[str] = []

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

    def add_command(self, name: str, register: CommandRegister) -> None:
        """Register a subcommand of ``gamesearch``: ``register(subparsers)`` adds its parser
        under ``name`` when the command line is built.

        :raises DuplicateNameError: when another plugin's command has that name.
        """
        _add_named(self._commands, name, register, "command")

    def add_data_set(self, data_set: DataSet) -> None:
        """Register a data set that ``gamesearch data fetch NAME`` downloads.

        :raises DuplicateNameError: when another data set has that name.
        """
        _add_named(self._data_sets, data_set.name, data_set, "data set")

    def add_position_format(self, position_format: PositionFormat) -> None:
        """Register a format of position files for its game (``batch --format NAME``).

        :raises DuplicateNameError: when the game already has a format of that name.
        """
        key = (position_format.game, position_format.name)
        if position_format.name == LINES:
            raise DuplicateNameError(f"the format name {LINES!r} is the framework's own")
        _add_named(self._formats, key, position_format, "position format")

    def add_board_look(self, game: str, look: BoardLook) -> None:
        """Register how the browser board draws the game named ``game``.

        :raises DuplicateNameError: when the game already has a look.
        """
        _add_named(self._looks, game, look, "board look")

    def add_notice(self, text: str) -> None:
        """Record a sentence for ``gamesearch games`` to show: why a plugin registered less
        than it could (a missing optional package)."""
        if text not in self._notices:
            self._notices.append(text)

    # ------------------------------------------------------------------ looking
    @property
    def notices(self) -> tuple[str, ...]:
        """Return the plugins' notices, in the order they were recorded."""
        return tuple(self._notices)

    @property
    def games(self) -> Mapping[str, type[Game[Any]]]:
        """Return the registered game classes by name, sorted by name."""
        return dict(sorted(self._games.items()))

    @property
    def searchers(self) -> Mapping[str, type[Searcher]]:
        """Return the registered searcher classes by name, sorted by name."""
        return dict(sorted(self._searchers.items()))

    @property
    def commands(self) -> Mapping[str, CommandRegister]:
        """Return the plugins' subcommands (their ``register`` functions), sorted by name."""
        return dict(sorted(self._commands.items()))

    @property
    def data_sets(self) -> Mapping[str, DataSet]:
        """Return the registered data sets by name, sorted by name."""
        return dict(sorted(self._data_sets.items()))

    def position_formats(self, game: str) -> Mapping[str, PositionFormat]:
        """Return the formats files of the game ``game`` may be read in, by name: the
        framework's ``lines`` first, then those its plugins declare."""
        declared = sorted(
            (name, fmt) for (owner, name), fmt in self._formats.items() if owner == game
        )
        return {LINES: LINES_FORMAT, **dict(declared)}

    def position_format(self, game: str, name: str) -> PositionFormat:
        """Return the format ``name`` of the game ``game``.

        :raises InvalidOptionError: listing the game's formats.
        """
        formats = self.position_formats(game)
        if name not in formats:
            raise InvalidOptionError(
                f"{game} has no position format {name!r}; expected one of {', '.join(formats)}"
            )
        return formats[name]

    def board_look(self, game: str) -> BoardLook:
        """Return how the browser board draws ``game`` (the plain grid unless declared)."""
        return self._looks.get(game, PLAIN)

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
        return self.searcher_class(name).configured({**spec_options, **options})


def _add(table: dict[str, Any], cls: Any, kind: str) -> None:
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name:
        raise InvalidOptionError(f"a {kind} class needs a non-empty 'name': {cls!r}")
    _add_named(table, name, cls, kind)


def _add_named(table: dict[Any, Any], name: Any, value: Any, kind: str) -> None:
    """Put ``value`` under ``name``; the same object twice is one registration.

    :raises DuplicateNameError: when another object already has the name.
    """
    if name in table and table[name] is not value:
        raise DuplicateNameError(
            f"two {kind}s are registered as {name!r}: {table[name]!r} and {value!r}"
        )
    table[name] = value


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
    manager.hook.gamesearch_register_commands(registry=registry)
    manager.hook.gamesearch_register_data_sets(registry=registry)
    manager.hook.gamesearch_register_position_formats(registry=registry)
    manager.hook.gamesearch_register_board_looks(registry=registry)
    return registry


@functools.cache
def default_registry() -> Registry:
    """Return the registry of every installed plugin, built on first use and then kept."""
    return build_registry()
