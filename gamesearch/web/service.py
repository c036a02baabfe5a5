"""What each request of the web API does, in plain Python (no web framework).

Every request is self-contained: it names the game, its options and the position
in the game's own text notation, and gets JSON-ready data back. Each request builds
its own position object, so two requests never share a mutable position, and the
server keeps no state between them.

Searches run under :class:`Limits` that the server sets. Every searcher's budget options
(``max_nodes`` and ``seconds``) get the server's budget as their ceiling, time measured
on the server's clock (``Limits.clock``), so a search that cannot answer within it stops
with an error; a plugin searcher that ignores its budget is stopped by the worker's
deadline. Every value a request gives is checked at the edge
(:mod:`gamesearch.web.request`): finite numbers only, integers where a game or searcher
option is an integer, booleans where it is a boolean, bounded sizes.

A search runs in a worker process (:func:`worker_main` answers :class:`Job` objects
sent down a pipe), so that the server can end it whatever the searcher does.
"""

from __future__ import annotations

import os
import pickle
import random
import signal
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from typing import Any

import attrs

from gamesearch import capabilities
from gamesearch.errors import (
    BodyTooLargeError,
    BudgetExceededError,
    GameOverError,
    GameSearchError,
    InvalidOptionError,
    InvalidRequestError,
    ServerBusyError,
)
from gamesearch.game import Game, draw_outcome
from gamesearch.options import check_finite_deprecated, check_option_value_deprecated
from gamesearch.plugins import Registry
from gamesearch.rules import CHANCE, winners
from gamesearch.rules import outcome as outcome_of
from gamesearch.search.base import json_value
from gamesearch.trace import TraceNode, TreeTracer
from gamesearch.views import analysis, catalogue
from gamesearch.web.perfect import add_to_catalogue

# Reading a request has a module of its own; its names stay importable from here.
from gamesearch.web.request import DEFAULT_SEARCHER as DEFAULT_SEARCHER
from gamesearch.web.request import MAX_INTEGER_DIGITS as MAX_INTEGER_DIGITS
from gamesearch.web.request import MAX_JSON_DEPTH as MAX_JSON_DEPTH
from gamesearch.web.request import NATIVE_BUDGET as NATIVE_BUDGET
from gamesearch.web.request import ForbiddenOriginError as ForbiddenOriginError
from gamesearch.web.request import Limits as Limits
from gamesearch.web.request import SearchRequest as SearchRequest
from gamesearch.web.request import UnsupportedMediaTypeError as UnsupportedMediaTypeError
from gamesearch.web.request import check_body as check_body
from gamesearch.web.request import parse_body as parse_body
from gamesearch.web.request import read_position as read_position
from gamesearch.web.request import read_search as read_search
from gamesearch.web.request import required_text as required_text
from gamesearch.words import describe_outcome, margin_words

#: the readers the option schema replaced (deprecated, kept one release)
check_option_value = check_option_value_deprecated
_check_finite = check_finite_deprecated


# --------------------------------------------------------------------- answers
def describe_state(game: Game[Any]) -> dict[str, Any]:
    """Return what the page needs to draw a position: board, status, legal moves."""
    outcome = outcome_of(game)
    names = capabilities.player_names(game)
    view = capabilities.board_view(game)
    mover = game.to_move()
    # at a chance position the page offers the outcomes (a real die's roll), or the
    # computer draws one
    to_move = None if outcome is not None else "chance" if mover == CHANCE else names[mover]
    winner = None if outcome is None or outcome.winner is None else names[outcome.winner]
    if outcome is not None and game.rules.utilities:  # the one player on top, if one
        top = winners(game)
        winner = names[top[0]] if len(top) == 1 else None
    result_words = None
    if outcome is not None:
        result = game.result()
        by = (
            ""
            if game.rules.utilities or not isinstance(result, int)
            else margin_words(game, result)
        )
        result_words = f"{winner} wins{by}" if winner else "a draw"
    return {
        "game": game.name,
        "options": game.settings,
        "position": game.to_text(),
        "ply": game.ply,
        "to_move": to_move,
        "is_over": outcome is not None,
        "winner": winner,
        "status": f"{to_move} to move" if to_move else f"{winner} wins" if winner else "draw",
        # the end in words, with the margin where the game has one ("A wins by 8")
        "result_words": result_words,
        "legal_moves": [game.format_move(move) for move in game.legal_moves()],
        "text": capabilities.render(game),
        "board": None
        if view is None
        else {
            "rows": view.rows,
            "cols": view.cols,
            "cells": [
                {"symbol": symbol, "move": move}
                for symbol, move in zip(view.symbols, view.moves, strict=True)
            ],
            # moves that are not cells ("pass"), for board views that offer them
            "extra_moves": [
                {"label": label, "move": move} for label, move in getattr(view, "extra_moves", ())
            ],
            # moves of two clicks (a piece, then where it goes), with the cells they pass
            "paths": [
                {"move": move, "cells": list(cells)} for move, cells in getattr(view, "paths", ())
            ],
            "caption": getattr(view, "caption", ""),
        },
    }


def new_game(registry: Registry, body: Mapping[str, Any], limits: Limits) -> dict[str, Any]:
    """Return the state of the starting position of the request's game and options."""
    return describe_state(read_position(registry, {**body, "position": None}, limits))


def position(registry: Registry, body: Mapping[str, Any], limits: Limits) -> dict[str, Any]:
    """Return the state of the request's position (checked, as the game reads it)."""
    return describe_state(read_position(registry, body, limits))


def play(registry: Registry, body: Mapping[str, Any], limits: Limits) -> dict[str, Any]:
    """Return the state after the request's ``move`` (move text) is played in its position.

    :raises GameSearchError: for a bad move, an illegal one or one after the game ended.
    """
    game = read_position(registry, body, limits)
    move = required_text(body, "move", limits)
    game.play(move)
    return describe_state(game)


def _can_search(registry: Registry, name: str, game: Game[Any]) -> bool:
    """Return whether the searcher ``name`` (default options) accepts ``game``'s rules
    (a searcher that cannot be built with its defaults is listed: it will say why)."""
    try:
        return not registry.new_searcher(name).unmet_needs(game)
    except GameSearchError:
        return True


def games(registry: Registry, limits: Limits) -> dict[str, Any]:
    """Return every game and searcher with its options, and the server's limits."""
    data = catalogue(registry)
    for name, entry in data["games"].items():
        game_class = registry.game_class(name)
        entry["player_names"] = list(capabilities.player_names(game_class))
        # the searchers that can search the game with its default options, and its own
        start = game_class.new()
        entry["searchers"] = [
            searcher for searcher in registry.searchers if _can_search(registry, searcher, start)
        ]
        entry["default_searcher"] = capabilities.default_searcher(game_class)
        for option_data, option in zip(entry["options"], game_class.options, strict=True):
            option_data["minimum"], option_data["maximum"] = option.minimum, option.maximum
    add_to_catalogue(data, limits.tables)
    data["limits"] = limits.as_dict()
    data["default_game"] = simplest_game(registry)
    return data


def simplest_game(registry: Registry) -> str | None:
    """Return the game the board page opens with: of the games of two players who take
    turns, without chance, with a board to click, the one with the shortest longest game
    (any game when none is such; ``None`` without games)."""
    plain = []
    for name, game_class in registry.games.items():
        start = game_class.new()
        rules = start.rules
        if rules.players == 2 and rules.alternating and not rules.chance:
            if capabilities.board_view(start) is not None:
                plain.append((rules.max_plies, name))
    if plain:
        return min(plain)[1]
    return next(iter(registry.games), None)


def analyze(search: SearchRequest, limits: Limits) -> dict[str, Any]:
    """Return the ``gamesearch analyze --json`` fields for the request (blocking), and
    ``visits`` (each root move's visits and mean result) for a sampling searcher."""
    result = search.run(limits, move_values=True)
    data = analysis(search.game, result)
    if result.visits is not None:  # a sampling searcher (mcts): the board shows its visits
        data["visits"] = result.as_dict(search.game)["visits"]
    return data


def engine_move(search: SearchRequest, limits: Limits) -> dict[str, Any]:
    """Return the searcher's move, its search summary and the state after it (blocking).

    :raises GameOverError: when the game is already over.
    """
    game = search.game
    outcome = outcome_of(game)
    if outcome is not None:
        raise GameOverError(
            f"the game is over ({describe_outcome(outcome)}); there is no move to make in "
            f"{game.to_text()!r}"
        )
    if game.to_move() == CHANCE:  # no one chooses: draw the outcome with its probability
        drawn = draw_outcome(game, random.Random())
        probability = dict(capabilities.chance_outcomes(game))[drawn]
        game.push(drawn)
        drawing = {  # the fields of a search summary the page shows
            "to_move": "chance",
            "description": f"an outcome of probability {probability}",
            "stats": {"nodes": 0, "depth": 0, "seconds": 0.0},
        }
        return {"move": game.format_move(drawn), "search": drawing, "state": describe_state(game)}
    result = search.run(limits, move_values=False)
    summary = analysis(game, result)
    game.push(result.move)
    return {"move": summary["move"], "search": summary, "state": describe_state(game)}


def search_tree(search: SearchRequest, limits: Limits) -> dict[str, Any]:
    """Return the tree the searcher walked from the request's position (blocking).

    ``nodes`` counts every position entered, ``pruned`` the moves cut off unsearched;
    ``root`` is the tree (:meth:`TraceNode.as_dict`); for iterative deepening, the
    deepest iteration that finished.

    :raises BudgetExceededError: when the tree has more than ``limits.tree_nodes`` nodes.
    :raises GameOverError: when the game is already over.
    """
    game = search.game
    outcome = outcome_of(game)
    if outcome is not None:
        raise GameOverError(
            f"the game is over ({describe_outcome(outcome)}); there is no tree to search in "
            f"{game.to_text()!r}"
        )
    tracer = TreeTracer(game, stop_after=limits.tree_nodes)
    try:
        result = search.searcher.search(game, tracer=tracer)
    except BudgetExceededError:
        raise BudgetExceededError(
            f"the search tree has more than {limits.tree_nodes:,} nodes, more than this server "
            "draws; explore a position nearer the end or set a depth"
        ) from None
    finished = [root for root in tracer.roots if root.value is not None]
    if not finished:
        raise InvalidOptionError(
            f"searcher {search.searcher.name!r} does not report the tree it walks; "
            "choose minimax, alphabeta or iterative"
        )
    root: TraceNode = finished[-1]
    return {
        "searcher": search.searcher.name,
        "position": game.to_text(),
        "nodes": tracer.nodes,
        "pruned": sum(len(node.pruned) for node in root.walk()),
        "value": json_value(result.value),
        "move": None if result.move is None else game.format_move(result.move),
        "depth": result.stats.depth,
        "root": root.as_dict(game.format_move),
    }


# ------------------------------------------------------------ worker processes
#: the searches a :class:`Job` can name
SEARCHES: dict[str, Callable[[SearchRequest, Limits], dict[str, Any]]] = {
    "analyze": analyze,
    "move": engine_move,
    "tree": search_tree,
}


def status_of(error: GameSearchError) -> int:
    """Return the HTTP status that answers ``error``: 403, 413, 415, 400, 503 or 422."""
    if isinstance(error, ForbiddenOriginError):
        return 403
    if isinstance(error, BodyTooLargeError):
        return 413
    if isinstance(error, UnsupportedMediaTypeError):
        return 415
    if isinstance(error, InvalidRequestError):
        return 400
    if isinstance(error, ServerBusyError):
        return 503
    return 422


@attrs.frozen
class Job:
    """One search for a worker process: which answer (a :data:`SEARCHES` name), of what."""

    kind: str
    search: SearchRequest
    limits: Limits

    def answer(self) -> tuple[int, dict[str, Any]]:
        """Return the HTTP status and JSON-ready answer of the search (blocking).

        A :class:`GameSearchError` is answered as ``{"error", "type"}`` with its status.
        """
        try:
            return 200, SEARCHES[self.kind](self.search, self.limits)
        except GameSearchError as error:
            return status_of(error), {"error": str(error), "type": type(error).__name__}
        except MemoryError:
            return 422, {
                "error": "search stopped: it needed more than this server's "
                f"{self.limits.worker_memory_mb:,} MiB "
                "of memory; set a depth or use the 'iterative' searcher",
                "type": "BudgetExceededError",
            }


def _virtual_bytes() -> int | None:
    """Return this process's virtual memory size in bytes, if the system tells it."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def worker_main(connection: Connection, memory_mb: int) -> None:
    """Answer the :class:`Job` objects that arrive on ``connection`` until it closes.

    The target of each search worker process. Ctrl-C in the terminal is left to the
    server (which stops its workers); the process may take ``memory_mb`` MiB of
    address space more than it starts with, so a runaway search fails with
    ``MemoryError`` instead of filling the machine.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    start = _virtual_bytes()
    if start is not None:
        try:
            import resource

            ceiling = start + memory_mb * 2**20
            resource.setrlimit(
                resource.RLIMIT_AS, (ceiling, resource.getrlimit(resource.RLIMIT_AS)[1])
            )
        except (ImportError, OSError, ValueError):
            pass  # no limit to set on this system: the server's clock still stops the search
    while True:
        try:
            data = connection.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            job: Job = pickle.loads(data)
        except Exception as error:  # a class this process cannot import
            connection.send(
                (
                    500,
                    {
                        "error": f"a worker process cannot read this search: {error}",
                        "type": "InternalError",
                    },
                )
            )
            continue
        connection.send(job.answer())
