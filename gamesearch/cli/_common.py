"""What the subcommands share: game and searcher arguments, JSON output."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from gamesearch.errors import InvalidOptionError
from gamesearch.game import Game
from gamesearch.plugins import Registry, default_registry
from gamesearch.search.base import Searcher


def add_game_arguments(parser: argparse.ArgumentParser, *, position: bool = True) -> None:
    """Add ``GAME``, ``--option KEY=VALUE`` and (optionally) ``--position TEXT``."""
    parser.add_argument("game", metavar="GAME", help="a registered game (see `gamesearch games`)")
    parser.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. -o rows=4 -o k=3 (repeatable)",
    )
    if position:
        parser.add_argument(
            "-p",
            "--position",
            metavar="TEXT",
            help="the position in the game's notation (default: the starting position)",
        )


def parse_key_values(items: list[str]) -> dict[str, str]:
    """Return ``KEY=VALUE`` items as a dict.

    :raises InvalidOptionError: for an item without ``=``.
    """
    options: dict[str, str] = {}
    for item in items:
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise InvalidOptionError(f"option {item!r} must be written KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def registry() -> Registry:
    """Return the registry of installed plugins."""
    return default_registry()


def load_game(args: argparse.Namespace) -> Game[Any]:
    """Return the game position the arguments name.

    :raises GameSearchError: for an unknown game, a bad option or position.
    """
    options = parse_key_values(args.option)
    return registry().new_game(args.game, getattr(args, "position", None), **options)


def load_searcher(spec: str, **options: Any) -> Searcher:
    """Return the searcher ``spec`` names (``name:key=value,...``) with extra options."""
    return registry().new_searcher(spec, **{key: value for key, value in options.items() if value is not None})


def print_json(data: Any) -> None:
    """Print ``data`` as indented JSON on stdout."""
    json.dump(data, sys.stdout, indent=2)
    sys.stdout.write("\n")
