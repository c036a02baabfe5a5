"""JSON-ready views shared by the command line and the browser board's API.

They sit below both: the web service never imports a command-line module.
"""

from __future__ import annotations

import re
from typing import Any

from gamesearch import capabilities
from gamesearch.game import Game
from gamesearch.plugins import Registry
from gamesearch.rules import CHANCE
from gamesearch.search.base import SearchResult, json_value


def analysis(game: Game[Any], result: SearchResult) -> dict[str, Any]:
    """Return the ``analyze --json`` object (also ``POST /api/analyze``) for ``result`` of
    a search of ``game``."""
    data = result.as_dict(game)
    stats = data["stats"]
    return {
        "game": game.name,
        "position": game.to_text(),
        "to_move": "chance"
        if game.to_move() == CHANCE
        else capabilities.player_names(game)[game.to_move()],
        "move": data["move"],
        "value": json_value(result.value),
        "margin": json_value(result.margin),
        "score": data["score"],
        "best_moves": data["best_moves"],
        "pv": data["pv"],
        "moves": data["moves"] or [],
        "stats": {
            key: stats[key] for key in ("nodes", "leaves", "cutoffs", "tt_hits", "depth", "seconds")
        },
        "is_exact": result.is_exact,
        "is_game_over": result.is_game_over,
        "description": result.describe(game),
    }


def catalogue(found: Registry) -> dict[str, Any]:
    """Return the games and searchers of ``found`` as JSON-ready data (the ``games --json``
    object, also the browser board's catalogue)."""
    games = {
        name: {
            "description": _first_line(cls.__doc__),
            "options": [
                {
                    "name": option.name,
                    "type": option.type.__name__,
                    "default": option.default,
                    "help": option.help,
                    "choices": None if option.choices is None else list(option.choices),
                }
                for option in cls.options
            ],
            # the rules with the default options (they may change with the options)
            "rules": cls.new().rules.as_dict(),
            # how the browser board draws it, as its plugin declares
            "look": found.board_look(name).as_dict(),
        }
        for name, cls in found.games.items()
    }
    searchers = {
        name: {
            "description": _first_line(cls.__doc__),
            "answers_within_budget": cls.answers_within_budget,
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
    """Return the first paragraph of a docstring (its summary, which may run over several
    lines) as one line of plain text (reST markup taken out)."""
    if not text or not text.strip():
        return ""
    summary = text.strip().split("\n\n", 1)[0]
    return plain_text(" ".join(line.strip() for line in summary.splitlines()))


#: reST roles (``:class:`~a.B```), literals (````x````), interpreted text and emphasis
_ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`~?([^`<]*?)(?:\s*<[^>]*>)?`")
_LITERAL = re.compile(r"``(.+?)``")
_INTERPRETED = re.compile(r"`([^`]+)`_{0,2}")
_EMPHASIS = re.compile(r"\*{1,2}([^*]+)\*{1,2}")


def plain_text(text: str) -> str:
    """Return ``text`` with reST markup removed: ``:class:`~a.Board``` becomes ``Board``,
    a double-backquoted literal its bare text, ``*word*`` the word."""
    text = _ROLE.sub(
        lambda found: (
            found.group(1).rsplit(".", 1)[-1] if "~" in found.group(0) else found.group(1)
        ),
        text,
    )
    text = _LITERAL.sub(r"\1", text)
    text = _INTERPRETED.sub(r"\1", text)
    return _EMPHASIS.sub(r"\1", text)
