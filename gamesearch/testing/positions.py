"""Positions to check: every reachable one of a small game, or a random sample of a large one."""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from typing import Any

from gamesearch.errors import ConformanceError
from gamesearch.game import Game
from gamesearch.plugins import Registry, default_registry

#: what a kit function accepts as "a game": a position, a game class or a registered name
GameLike = Game[Any] | type[Game[Any]] | str


def start_position(
    game: GameLike, options: Mapping[str, Any] | None = None, registry: Registry | None = None
) -> Game[Any]:
    """Return a position to start from: a copy of ``game``, or a new game of that class or name.

    A name is looked up in ``registry`` (default: the games the installed plugins register).

    :raises UnknownGameError: for a name no plugin registered.
    :raises InvalidOptionError: for a bad option.
    """
    if isinstance(game, Game):
        if options:
            raise ConformanceError(f"options {dict(options)!r} are only for a game class or name")
        return game.copy()
    if isinstance(game, str):
        return (registry or default_registry()).new_game(game, **dict(options or {}))
    return game.new(**dict(options or {}))


def reachable_positions(
    game: GameLike, *, limit: int = 100_000, registry: Registry | None = None
) -> list[Game[Any]]:
    """Return a copy of every position reachable from ``game`` by legal play, one per key.

    The start comes first; the others follow in depth-first order.

    :raises ConformanceError: when more than ``limit`` positions are reachable (sample
        a large game with :func:`random_positions` instead).
    """
    start = start_position(game, registry=registry)
    found: dict[Hashable, Game[Any]] = {}

    def visit(position: Game[Any]) -> None:
        key = position.key()
        if key in found:
            return
        if len(found) >= limit:
            raise ConformanceError(
                f"{position.name} has more than {limit:,} reachable positions from "
                f"{start.to_text()!r}; sample it with random_positions() instead"
            )
        found[key] = position.copy()
        for move in position.legal_moves():
            position.push(move)
            visit(position)
            position.undo()

    visit(start)
    return list(found.values())


def random_positions(
    game: GameLike,
    *,
    count: int,
    seed: int = 0,
    max_plies: int | None = None,
    registry: Registry | None = None,
) -> list[Game[Any]]:
    """Return ``count`` positions, each reached by uniformly random legal play from ``game``.

    Each playout stops after a random number of plies (at most ``max_plies``, default
    the game's ``max_plies``) or when the game ends, so early, late and finished
    positions all appear. The same ``seed`` gives the same positions.
    """
    start = start_position(game, registry=registry)
    chooser = random.Random(seed)
    longest = start.rules.max_plies - start.ply if max_plies is None else max_plies
    sample = []
    for _ in range(count):
        position = start.copy()
        for _ in range(chooser.randint(0, longest)):
            moves = position.legal_moves()
            if not moves:
                break
            position.apply(chooser.choice(list(moves)))
        sample.append(position)
    return sample
