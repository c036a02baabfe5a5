"""Searchers for the web server's tests, importable by its worker processes.

``gate`` writes ``<path>.started`` when its search begins, then waits (at most a
minute) until ``<path>.open`` exists and plays the first legal move; ``stubborn``
ignores every budget and sleeps in short steps for a minute.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, ClassVar

import attrs

from gamesearch.game import Game
from gamesearch.plugins import Registry, build_registry, hookimpl, make_plugin_manager
from gamesearch.search.base import RootAnswer, SearchContext, Searcher

#: the longest a test searcher waits or sleeps, whatever happens
CEILING_SECONDS = 60.0


@attrs.frozen(kw_only=True)
class Gate(Searcher):
    """Waits until the test opens the gate, then plays the first legal move."""

    name: ClassVar[str] = "gate"
    path: str = attrs.field(default="", metadata={"help": "stem of the gate's files"})

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        Path(self.path + ".started").touch()
        deadline = time.monotonic() + CEILING_SECONDS
        while not Path(self.path + ".open").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        return RootAnswer(0, (game.legal_moves()[0],), None, False, 1, depth_limit=1)


@attrs.frozen(kw_only=True)
class Stubborn(Searcher):
    """Ignores its budget and the tracer: sleeps for a minute, then plays the first move."""

    name: ClassVar[str] = "stubborn"

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        deadline = time.monotonic() + CEILING_SECONDS
        while time.monotonic() < deadline:
            time.sleep(0.01)
        return RootAnswer(0, (game.legal_moves()[0],), None, False, 1, depth_limit=1)


class GatePlugin:
    """Registers :class:`Gate` and :class:`Stubborn`."""

    @hookimpl
    def gamesearch_register_searchers(self, registry: Any) -> None:
        registry.add_searcher(Gate)
        registry.add_searcher(Stubborn)


def gated_registry() -> Registry:
    """Return the installed games and searchers with ``gate`` and ``stubborn``."""
    return build_registry(make_plugin_manager(plugins=[GatePlugin()]))
