"""The kit's pickle check: a position sent to a worker process must behave as it did.

Searches in worker processes (the web board's, ``match --workers``, ``batch``) receive
their position pickled. A game that keeps a private marker made by ``object()`` (or any
other value compared by identity) gets a different object back from :mod:`pickle` and
behaves differently in the worker. :func:`check_pickling` catches that: along one random
game it round-trips a few positions through :mod:`pickle` and plays the rest of the game
on the original and on the copy side by side, then takes every move of the copy back.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

from gamesearch import capabilities
from gamesearch.game import Game
from gamesearch.testing.snapshot import Snapshot, fail

#: how many positions of the random game are round-tripped (evenly spread over it)
ROUND_TRIPS = 4


def _behaviour(game: Game[Any]) -> tuple[Snapshot, int | None]:
    """Return what the kit compares: the snapshot and, unfinished, the heuristic value."""
    snapshot = Snapshot.of(game)
    return snapshot, capabilities.heuristic(game)() if snapshot.result is None else None


def _require_alike(original: Game[Any], twins: list[Game[Any]], text: str, when: str) -> None:
    """Raise unless each of ``twins`` behaves as ``original`` does now.

    :raises ConformanceError: naming the position ``text``, ``when`` and what differs.
    """
    mine = _behaviour(original)
    for twin in twins:
        theirs = _behaviour(twin)
        if mine == theirs:
            continue
        changes = mine[0].differences(theirs[0])
        if mine[1] != theirs[1]:
            changes.append(f"evaluate() {mine[1]!r} became {theirs[1]!r}")
        raise fail(original, text, f"after a pickle round trip, {when}: " + "; ".join(changes))


def _round_trip(game: Game[Any]) -> Game[Any]:
    """Return ``game`` sent through :mod:`pickle`.

    :raises ConformanceError: when the position cannot be pickled.
    """
    text = game.to_text()
    try:
        twin = pickle.loads(pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL))
    except Exception as error:
        raise fail(game, text, f"it cannot be pickled ({type(error).__name__}: {error})") from error
    assert isinstance(twin, Game)
    return twin


def check_pickling(start: Game[Any], chooser: random.Random) -> None:
    """Check that positions of one random game from ``start`` survive a pickle round trip.

    Each round-tripped copy must look as the original (text, key, side to move, ply,
    history, legal moves, result, heuristic value), stay alike while the rest of the
    game is played on both, and take every move of its history back to the position
    the original started from. ``start`` is left as it was.

    :raises ConformanceError: naming the position and what differed.
    """
    line: list[Any] = []
    game = start.copy()
    while moves := game.legal_moves():
        move = chooser.choice(list(moves))
        line.append(move)
        game.apply(move)
    plies = sorted({len(line) * index // max(1, ROUND_TRIPS - 1) for index in range(ROUND_TRIPS)})
    for ply in plies:
        original = start.copy()
        for move in line[:ply]:
            original.apply(move)
        # sent twice: before anything is asked of the position, and after everything is,
        # so that both what a game has not worked out yet and what it keeps travel
        twins = [_round_trip(original)]
        _behaviour(original)
        twins.append(_round_trip(original))
        text = original.to_text()
        _require_alike(original, twins, text, "the copy differs")
        for move in line[ply:]:
            original.apply(move)
            for twin in twins:
                twin.apply(move)
            _require_alike(original, twins, text, f"after {original.format_move(move)!r}")
        while original.history:
            move = original.history[-1]
            original.undo()
            for twin in twins:
                twin.undo()
            _require_alike(
                original, twins, text, f"after taking back {original.format_move(move)!r}"
            )
