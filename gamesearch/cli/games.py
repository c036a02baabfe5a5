"""``gamesearch games``: the registered games and searchers with their options."""

from __future__ import annotations

import argparse
import enum
from typing import Any

from rich.text import Text

from gamesearch.cli._common import print_json, registry
from gamesearch.cli._output import console, print_table, table
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


def run(args: argparse.Namespace) -> int:
    data = catalogue(registry())
    if args.json:
        print_json(data)
        return 0
    out = console()
    for title, entries in (("Games", data["games"]), ("Searchers", data["searchers"])):
        grid = table(title, ["name", "option", "default", "meaning"], numeric_from=4)
        for name, entry in entries.items():
            grid.add_row(Text(name, style="bold"), "", "", Text(entry["description"]))
            for option in entry["options"]:
                grid.add_row(
                    "",
                    Text(option["name"]),
                    Text(plain_value(option["default"])),
                    Text(option["help"]),
                )
            grid.add_section()
        print_table(out, grid)
    return 0
