"""Perfect play on the board: searches answered from the server's solution tables.

A server started with solution tables (``gamesearch serve --table FILE``, files that
``gamesearch solve`` wrote) offers the searcher ``table`` for each game and options a
table holds: every move's exact value read from the file at once, no search. The
client names the searcher only; which file answers is the server's choice (a request
never names a file), found by the game and options of the request's position.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gamesearch.errors import InvalidDataError, InvalidOptionError
from gamesearch.game import Game
from gamesearch.search.base import Searcher
from gamesearch.solutions import (
    TableLookup,
    describe_identity,
    game_identity,
    store_identity,
)

#: the searcher name a request gives for perfect play
PERFECT_PLAY = "table"
DESCRIPTION = "Perfect play: every move's exact value, read from this server's solution table"


def check_tables(paths: Iterable[str]) -> list[dict[str, Any]]:
    """Return what each solution table at ``paths`` holds (game, options), in order.

    :raises InvalidDataError: for a file that is not a store, a store that is not
        complete, or two tables of the same game and options.
    """
    found: list[dict[str, Any]] = []
    for path in paths:
        held = store_identity(path)
        if not held.pop("complete"):
            raise InvalidDataError(
                f"the solution table {path!r} is not complete: run 'gamesearch solve "
                f"{held['game']} --store {path}' with its options to finish it"
            )
        if held in found:
            raise InvalidDataError(f"two solution tables hold {describe_identity(held)}")
        found.append(held)
    return found


def table_searcher(game: Game[Any], tables: Sequence[str], options: Mapping[str, Any]) -> Searcher:
    """Return the searcher that answers ``game``'s position from the table of its game and
    options among ``tables``.

    :raises InvalidOptionError: when the request gives the searcher options, or no table
        holds this game with these options (the message names those that the server has).
    """
    given = sorted(name for name, value in options.items() if value is not None)
    if given:
        raise InvalidOptionError(
            f"perfect play takes no searcher options (the table answers): {', '.join(given)}"
        )
    wanted = game_identity(game)
    held = check_tables(tables)
    for path, identity in zip(tables, held, strict=True):
        if identity == wanted:
            return TableLookup(store=path)
    same_game = [
        describe_identity(identity) for identity in held if identity["game"] == wanted["game"]
    ]
    if same_game:
        has = f"its tables of {wanted['game']} are for {' and '.join(same_game)}"
    elif held:
        has = f"it has tables for {', '.join(describe_identity(identity) for identity in held)}"
    else:
        has = "it was started without a solution table (gamesearch serve --table FILE)"
    raise InvalidOptionError(
        f"this server has no solution table for {describe_identity(wanted)}: {has}"
    )


def add_to_catalogue(data: dict[str, Any], tables: Sequence[str]) -> None:
    """Add perfect play to the board's catalogue ``data`` when the server has tables: the
    searcher ``table`` (no options), and for every game the options of its tables
    (``tables``, empty for a game without one) with ``table`` among its searchers."""
    held = check_tables(tables)
    for name, entry in data["games"].items():
        entry["tables"] = [identity["options"] for identity in held if identity["game"] == name]
        if entry["tables"]:
            entry["searchers"] = [*entry["searchers"], PERFECT_PLAY]
    if held:
        data["searchers"][PERFECT_PLAY] = {
            "description": DESCRIPTION,
            "answers_within_budget": False,
            "options": [],
        }
