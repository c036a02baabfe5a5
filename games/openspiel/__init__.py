"""The openspiel plugin: OpenSpiel's games of turns with perfect information as gamesearch games.

Every game of OpenSpiel's registry that is sequential with perfect information (chance
included) is registered as ``openspiel.<short name>`` (``openspiel.hex``,
``openspiel.backgammon``), its parameters as options (``-o board_size=5``): see
:mod:`.game` for its moves, positions and results. A game the bridge cannot express
(its parameters cannot be loaded as they are, its chance is sampled, not listed) is
left out, with its reason in :func:`catalogue`.

It needs the ``openspiel`` extra (``pip install 'gamesearch[openspiel]'``); without it
the plugin registers nothing, and ``gamesearch games`` says why.
"""

from __future__ import annotations

import functools
from typing import Any

import attrs

from gamesearch.errors import InvalidOptionError, UnsupportedGameError
from gamesearch.plugins import hookimpl

#: what the registered names of OpenSpiel's games start with
PREFIX = "openspiel."


@attrs.frozen
class Catalogue:
    """What the plugin found in OpenSpiel's registry."""

    #: OpenSpiel's version, or ``None`` when it is not installed
    version: str | None
    #: the game classes registered, by gamesearch name
    games: dict[str, type[Any]]
    #: the sequential perfect-information games left out, by OpenSpiel's name, with why
    skipped: dict[str, str]
    #: why no game is registered at all, or ``None``
    missing: str | None = None


def is_bridged(name: str) -> bool:
    """Return whether the registered game ``name`` is one of OpenSpiel's (by its prefix)."""
    return name.startswith(PREFIX)


@functools.cache
def catalogue() -> Catalogue:
    """Return OpenSpiel's games this plugin registers and those it leaves out (found once)."""
    try:
        import pyspiel
    except ImportError as error:
        return Catalogue(
            None,
            {},
            {},
            "OpenSpiel's games are not available: its Python package open_spiel does not "
            f"import ({error}); install it with pip install 'gamesearch[openspiel]'",
        )
    from importlib.metadata import PackageNotFoundError, version

    from gamesearch.interop.openspiel import PREFIX as EXPORTED

    from .game import game_class

    kind = pyspiel.GameType
    games: dict[str, type[Any]] = {}
    skipped: dict[str, str] = {}
    for found in sorted(pyspiel.registered_games(), key=lambda found: found.short_name):
        if (
            found.dynamics != kind.Dynamics.SEQUENTIAL
            or found.information != kind.Information.PERFECT_INFORMATION
            or found.short_name.startswith(EXPORTED)  # gamesearch's own, handed to OpenSpiel
        ):
            continue
        try:
            cls = game_class(found.short_name)
            cls.new()  # the defaults load
        except UnsupportedGameError as error:
            skipped[found.short_name] = str(error)
            continue
        except InvalidOptionError as error:
            skipped[found.short_name] = f"it does not load with its default options ({error})"
            continue
        games[cls.name] = cls
    try:
        installed: str | None = version("open_spiel")
    except PackageNotFoundError:
        installed = None
    return Catalogue(installed, games, skipped)


@hookimpl
def gamesearch_register_games(registry: Any) -> None:
    """Register OpenSpiel's games, or say why there are none."""
    found = catalogue()
    if found.missing is not None:
        registry.add_notice(found.missing)
    for cls in found.games.values():
        registry.add_game(cls)
