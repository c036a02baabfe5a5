"""``gamesearch games``: the registered games and searchers with their options."""

from __future__ import annotations

import argparse
import enum
import re
from typing import Any

from rich.text import Text

from gamesearch.cli._common import print_json, registry
from gamesearch.cli._output import console, print_table, table
from gamesearch.plugins import Registry


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "games",
        help="list registered games and searchers with their options",
        description="List every registered game and searcher with its options.",
        epilog="example: gamesearch games --json",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def catalogue(found: Registry | None = None) -> dict[str, Any]:
    """Return the games and searchers of ``found`` (default: installed plugins) as JSON-ready data."""
    found = found if found is not None else registry()
    games = {
        name: {
            "description": _first_line(cls.__doc__),
            "options": [
                {
                    "name": option.name, "type": option.type.__name__, "default": option.default,
                    "help": option.help,
                    "choices": None if option.choices is None else list(option.choices),
                }  # fmt: skip
                for option in cls.options
            ],
            # the rules with the default options (they may change with the options)
            "rules": cls.new().rules.as_dict(),
        }
        for name, cls in found.games.items()
    }
    searchers = {
        name: {
            "description": _first_line(cls.__doc__),
            "options": [
                {
                    "name": field.name.lstrip("_"),
                    "default": getattr(field.default, "value", field.default),
                    "help": field.metadata.get("help", ""),
                }
                for field in cls.option_fields()
            ],
        }
        for name, cls in found.searchers.items()
    }
    return {"games": games, "searchers": searchers}


def _first_line(text: str | None) -> str:
    """Return the first line of a docstring as plain text (reST markup taken out)."""
    return plain_text((text or "").strip().splitlines()[0]) if text and text.strip() else ""


#: reST roles (``:class:`~a.B```), literals (````x````), interpreted text and emphasis
_ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`~?([^`<]*?)(?:\s*<[^>]*>)?`")
_LITERAL = re.compile(r"``(.+?)``")
_INTERPRETED = re.compile(r"`([^`]+)`_{0,2}")
_EMPHASIS = re.compile(r"\*{1,2}([^*]+)\*{1,2}")


def plain_text(text: str) -> str:
    """Return ``text`` with reST markup removed: ``:class:`~a.Board``` becomes ``Board``,
    a double-backquoted literal its bare text, ``*word*`` the word."""
    text = _ROLE.sub(lambda found: found.group(1).rsplit(".", 1)[-1] if "~" in found.group(0) else found.group(1), text)
    text = _LITERAL.sub(r"\1", text)
    text = _INTERPRETED.sub(r"\1", text)
    return _EMPHASIS.sub(r"\1", text)


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
    data = catalogue()
    if args.json:
        print_json(data)
        return 0
    out = console()
    for title, entries in (("Games", data["games"]), ("Searchers", data["searchers"])):
        grid = table(title, ["name", "option", "default", "meaning"], numeric_from=4)
        for name, entry in entries.items():
            grid.add_row(Text(name, style="bold"), "", "", Text(entry["description"]))
            for option in entry["options"]:
                grid.add_row("", Text(option["name"]), Text(plain_value(option["default"])), Text(option["help"]))
            grid.add_section()
        print_table(out, grid)
    return 0
