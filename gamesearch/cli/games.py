"""``gamesearch games``: the registered games and searchers with their options."""

from __future__ import annotations

import argparse
import enum
from typing import Any

from rich.text import Text

from gamesearch.cli._common import game_default_searcher, print_json, registry
from gamesearch.cli._output import console, table
from gamesearch.cli.analyze import DEFAULT_SEARCHER
from gamesearch.errors import UnknownGameError
from gamesearch.views import catalogue


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "games",
        help="list registered games and searchers with their options",
        description="List every registered game and searcher with its options, or only "
        "those named.",
        epilog="examples: gamesearch games kalah alphabeta; gamesearch games openspiel. "
        "(every OpenSpiel game); gamesearch games --json",
    )
    parser.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="only these games and searchers; a name ending in '.' stands for every name "
        "it begins (openspiel.)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def plain_value(value: Any) -> str:
    """Return an option's default as a user types it: ``none``, ``on``/``off``, an enum's value."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


def default_searcher_words(name: str) -> str:
    """Return the sentence naming the searcher ``analyze`` and ``play`` use on the game
    ``name`` when the user names none."""
    spec = game_default_searcher(registry().new_game(name)) or DEFAULT_SEARCHER
    return f"Default searcher: {spec}."


def chosen(data: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """Return the catalogue ``data`` with only the games and searchers ``names`` asks for (a
    name ending in ``.`` asks for every name it begins), all of them when it is empty.

    :raises UnknownGameError: when a name matches no game and no searcher.
    """
    if not names:
        return data
    every = [*data["games"], *data["searchers"]]

    def wanted(entry: str) -> bool:
        return any(wanted_by(name, entry) for name in names)

    unknown = [name for name in names if not any(wanted_by(name, entry) for entry in every)]
    if unknown:
        raise UnknownGameError(
            f"no game or searcher is called {', '.join(unknown)} "
            "('gamesearch games' lists them all)"
        )
    kept = dict(data)
    for kind in ("games", "searchers"):
        kept[kind] = {name: entry for name, entry in data[kind].items() if wanted(name)}
    return kept


def wanted_by(name: str, entry: str) -> bool:
    """Return whether the asked ``name`` stands for the game or searcher ``entry``."""
    return entry == name or name.endswith(".") and entry.startswith(name)


def run(args: argparse.Namespace) -> int:
    found = registry()
    data = chosen(catalogue(found), args.names)
    if found.notices:
        data["notices"] = list(found.notices)
    if args.json:
        print_json(data)
        return 0
    out = console()
    for title, entries in (("Games", data["games"]), ("Searchers", data["searchers"])):
        if not entries:
            continue
        grid = table(title, ["name", "option", "default", "meaning"], numeric_from=4)
        for column in grid.columns[:3]:  # the meaning alone wraps to the terminal's width
            column.no_wrap = True
        grid.columns[3].overflow = "fold"  # a long word (a searcher spec) is folded, not cut
        for name, entry in entries.items():
            description = entry["description"]
            if title == "Games":
                description += " " + default_searcher_words(name)
            grid.add_row(Text(name, style="bold"), "", "", Text(description))
            for option in entry["options"]:
                grid.add_row(
                    "",
                    Text(option["name"]),
                    Text(plain_value(option["default"])),
                    Text(option["help"]),
                )
            grid.add_section()
        out.print(grid)
    for notice in found.notices:
        out.print(Text(notice))
    return 0
