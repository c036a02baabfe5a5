"""Finished games in the results store: a tournament's or a match's games, written as they end.

A run (one tournament, one match) is keyed by its settings written as JSON
(:func:`run_key`), so running the same command again finds the games it already
played and plays only the others. Games are stored as JSON and read back as the
records the tournament and match code use (:func:`played_from_dict`).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import attrs

from gamesearch.arena import GameRecord, MatchGame, MoveRecord, play_planned
from gamesearch.game import Game
from gamesearch.rules import Outcome, Player
from gamesearch.tournament import PlayedGame, ScheduledGame


def run_key(kind: str, **settings: Any) -> str:
    """Return the key of a run: its kind (``tournament``, ``match``) and settings as JSON."""
    return json.dumps({"kind": kind, **settings}, sort_keys=True)


def record_to_dict(record: GameRecord) -> dict[str, Any]:
    """Return a game record as JSON-ready data that :func:`record_from_dict` reads back."""
    return {
        "game": record.game,
        "start": record.start,
        "players": list(record.players),
        "moves": [_move_to_dict(move) for move in record.moves],
        "outcome": record.outcome.name,
        "final": record.final,
        "utilities": None if record.utilities is None else list(record.utilities),
    }


def record_from_dict(data: dict[str, Any]) -> GameRecord:
    """Return the game record :func:`record_to_dict` wrote."""
    players = tuple(data["players"])
    moves = tuple(_move_from_dict(move, two_players=len(players) == 2) for move in data["moves"])
    utilities = data.get("utilities")
    return GameRecord(
        data["game"],
        data["start"],
        players,
        moves,
        Outcome[data["outcome"]],
        data["final"],
        None if utilities is None else tuple(utilities),
    )


def _move_to_dict(move: MoveRecord) -> dict[str, Any]:
    value = move.value
    return {
        **attrs.asdict(move),
        "player": None if move.player is None else int(move.player),  # None: a chance outcome
        "value": str(value)
        if isinstance(value, Fraction)
        else value,  # a game of chance's exact expectation
    }


def _move_from_dict(data: dict[str, Any], *, two_players: bool) -> MoveRecord:
    player, value = data["player"], data["value"]
    return MoveRecord(
        **{
            **data,
            "player": None if player is None else Player(player) if two_players else int(player),
            "value": Fraction(value) if isinstance(value, str) else value,
        }
    )


def played_to_dict(played: PlayedGame) -> dict[str, Any]:
    """Return a tournament game (its place in the schedule and its record) as JSON-ready data."""
    return {"scheduled": attrs.asdict(played.scheduled), "record": record_to_dict(played.record)}


def played_from_dict(data: dict[str, Any]) -> PlayedGame:
    """Return the tournament game :func:`played_to_dict` wrote."""
    scheduled = data["scheduled"]
    # a store written before games of more than two players named the two seats instead
    seats = (
        scheduled["seats"] if "seats" in scheduled else (scheduled["first"], scheduled["second"])
    )
    return PlayedGame(
        ScheduledGame(
            scheduled["number"],
            tuple(seats),
            scheduled["opening_seed"],
            tuple(scheduled["searcher_seeds"]),
        ),
        record_from_dict(data["record"]),
    )


def play_match_game(job: tuple[Game[Any], MatchGame, int]) -> GameRecord:
    """Play one planned match game ``(position, planned game, opening plies)`` (in a worker)."""
    game, planned, opening_plies = job
    return play_planned(game, planned, opening_plies)
