"""``gamesearch games``: the registered games and searchers with their options."""

from __future__ import annotations

import argparse
import enum
from typing import Any

from rich.text import Text

from gamesearch.cli._common import game_default_searcher, print_json, registry
from gamesearch.cli._output import console, table
from gamesearch.cli.analyze import DEFAULT_SEARCHER
from gamesearch.views import catalogue


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "games",
        help="list registered games and searchers with their options",
        description="List every registered game and searcher with its options.",
        epilog="example: gamesearch games --json",
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


def run(args: argparse.Namespace) -> int:
    found = registry()
    data = catalogue(found)
    if found.notices:
        data["notices"] = list(found.notices)
    if args.json:
        print_json(data)
        return 0
    out = console()
    for title, entries in (("Games", data["games"]), ("Searchers", data["searchers"])):
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
