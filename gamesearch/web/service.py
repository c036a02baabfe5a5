"""What each request of the web API does, in plain Python (no web framework).

Every request is self-contained: it names the game, its options and the position
in the game's own text notation, and gets JSON-ready data back. Each request builds
its own position object, so two requests never share a mutable position, and the
server keeps no state between them.

Searches run under :class:`Limits` that the server sets. A searcher's own budget
options (``max_nodes``, ``seconds``: ``iterative`` has both, ``mcts`` has ``seconds``)
get the server's budget as their ceiling, so such a searcher always answers in time;
a searcher without its own node budget is also watched by a :class:`NodeBudget`
tracer that stops it (with an error) once the budget is spent.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Mapping
from typing import Any

import attrs

from gamesearch.cli.analyze import analysis
from gamesearch.cli.games import catalogue
from gamesearch.errors import (
    BudgetExceededError,
    GameOverError,
    InvalidOptionError,
    InvalidRequestError,
)
from gamesearch.game import Game, describe_outcome, resolve_options
from gamesearch.plugins import Registry
from gamesearch.search.base import Searcher, SearchResult, Tracer
from gamesearch.trace import NodeLimit, TraceNode, TreeTracer

#: the searcher options through which a searcher takes a budget of its own
NATIVE_BUDGET = frozenset({"max_nodes", "seconds"})
#: how often (in nodes) :class:`NodeBudget` looks at the clock
CLOCK_INTERVAL = 1024
DEFAULT_SEARCHER = "alphabeta"
_SCALARS = (str, int, float, bool, type(None))
_KIND_NAMES: dict[type, str] = {dict: "an object", str: "a string"}


def _at_least_one(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if value < 1:
        raise InvalidOptionError(f"limit {attribute.name!r} must be >= 1: {value!r}")


def _positive(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if value <= 0:
        raise InvalidOptionError(f"limit {attribute.name!r} must be > 0: {value!r}")


@attrs.frozen(kw_only=True)
class Limits:
    """What the server allows one request; set when the server starts."""

    max_nodes: int = attrs.field(default=1_000_000, validator=_at_least_one)  #: nodes per search
    seconds: float = attrs.field(default=3.0, validator=_positive)  #: wall-clock time per search
    tree_nodes: int = attrs.field(default=2_000, validator=_at_least_one)  #: largest tree drawn
    body_bytes: int = attrs.field(default=16_384, validator=_at_least_one)  #: request body size
    text_chars: int = attrs.field(default=1_000, validator=_at_least_one)  #: position or move text
    workers: int = attrs.field(default=2, validator=_at_least_one)  #: searches running at once
    queue: int = attrs.field(default=32, validator=_at_least_one)  #: searches waiting for a worker

    def as_dict(self) -> dict[str, Any]:
        """Return the limits as JSON-ready data."""
        return attrs.asdict(self)


class NodeBudget(NodeLimit):
    """A :class:`NodeLimit` that also stops the search once ``seconds`` have passed.

    The clock starts when it is made and is read every :data:`CLOCK_INTERVAL` nodes.
    """

    def __init__(self, max_nodes: int, seconds: float) -> None:
        super().__init__(max_nodes)
        self.seconds = seconds
        self.deadline = time.perf_counter() + seconds

    def enter(self, move: Hashable | None, depth: int, alpha: int, beta: int) -> None:
        """Count a position; raise :class:`BudgetExceededError` when the budget is spent."""
        super().enter(move, depth, alpha, beta)
        if self.nodes % CLOCK_INTERVAL == 0 and time.perf_counter() > self.deadline:
            raise BudgetExceededError(f"time limit of {self.seconds:g} s exceeded")


@attrs.frozen
class SearchRequest:
    """A checked search request: its own position and a searcher held to the budget."""

    game: Game[Any]
    searcher: Searcher
    watched: bool  #: true when a :class:`NodeBudget` tracer must watch the search

    def run(self, limits: Limits, *, move_values: bool) -> SearchResult:
        """Search the position under the budget and return the result.

        :raises BudgetExceededError: when a watched searcher runs out of budget.
        """
        tracer: Tracer | None = NodeBudget(limits.max_nodes, limits.seconds) if self.watched else None
        try:
            return self.searcher.search(self.game, move_values=move_values, tracer=tracer)
        except BudgetExceededError as error:
            raise BudgetExceededError(
                f"search stopped: {error} (this server's budget); "
                "set a depth or use the 'iterative' searcher"
            ) from None


# --------------------------------------------------------------------- reading
def _field(body: Mapping[str, Any], name: str, kind: type, default: Any) -> Any:
    """Return ``body[name]``, or ``default`` when it is absent or null."""
    value = body.get(name)
    if value is None:
        return default
    if not isinstance(value, kind):
        expected = _KIND_NAMES.get(kind, kind.__name__)
        raise InvalidRequestError(f"field {name!r} must be {expected}: {value!r}")
    return value


def _scalars(body: Mapping[str, Any], name: str) -> dict[str, Any]:
    values = _field(body, name, dict, {})
    for key, value in values.items():
        if not isinstance(value, _SCALARS):
            raise InvalidRequestError(
                f"{name} value {key!r} must be a string, number, boolean or null: {value!r}"
            )
    return dict(values)


def _text(body: Mapping[str, Any], name: str, limits: Limits) -> str | None:
    value: str | None = _field(body, name, str, None)
    if value is not None and len(value) > limits.text_chars:
        raise InvalidRequestError(
            f"field {name!r} has {len(value):,} characters; at most {limits.text_chars:,} are allowed"
        )
    return value


def _required_text(body: Mapping[str, Any], name: str, limits: Limits) -> str:
    value = _text(body, name, limits)
    if value is None:
        raise InvalidRequestError(f"field {name!r} is required")
    return value


def check_body(body: Any) -> Mapping[str, Any]:
    """Return ``body`` if it is a JSON object.

    :raises InvalidRequestError: otherwise.
    """
    if not isinstance(body, dict):
        raise InvalidRequestError(f"the request body must be a JSON object, not {type(body).__name__}")
    return body


def read_position(registry: Registry, body: Mapping[str, Any], limits: Limits) -> Game[Any]:
    """Return a new position from ``game``, ``options`` and ``position`` (start if absent).

    :raises InvalidRequestError: for a missing or mistyped field.
    :raises GameSearchError: for an unknown game, a bad option or bad position text.
    """
    name = _required_text(body, "game", limits)
    options = _scalars(body, "options")
    position = _text(body, "position", limits)
    # Checked here too, so that a plugin that forgets to check gives the same clear error.
    resolve_options(registry.game_class(name).options, options)
    return registry.new_game(name, position, **options)


def read_search(registry: Registry, body: Mapping[str, Any], limits: Limits) -> SearchRequest:
    """Return the checked search of a request's position by its ``searcher``.

    ``searcher`` is a registered name (default ``alphabeta``) and ``searcher_options``
    its options. Budget options the searcher has are set to the server's ceiling
    unless the request asks for less.

    :raises InvalidOptionError: when the request asks for more than the server allows.
    :raises GameSearchError: for anything else wrong with the position or searcher.
    """
    game = read_position(registry, body, limits)
    name = _text(body, "searcher", limits) or DEFAULT_SEARCHER
    searcher = registry.new_searcher(name, **_scalars(body, "searcher_options"))
    fields = {field.name.lstrip("_") for field in type(searcher).option_fields()}
    ceilings = {"max_nodes": limits.max_nodes, "seconds": limits.seconds}
    budget = {}
    for option in NATIVE_BUDGET & fields:
        asked, ceiling = getattr(searcher, option), ceilings[option]
        if asked is not None and asked > ceiling:
            raise InvalidOptionError(
                f"option {option!r} asks for {asked!r}; this server allows at most {ceiling!r}"
            )
        budget[option] = ceiling if asked is None else asked
    # Only a searcher that keeps both budgets itself (iterative) goes unwatched;
    # alphabeta's own max_nodes, say, does not look at the clock.
    return SearchRequest(game, attrs.evolve(searcher, **budget), watched=not NATIVE_BUDGET <= fields)  # type: ignore[arg-type]


# --------------------------------------------------------------------- answers
def describe_state(game: Game[Any]) -> dict[str, Any]:
    """Return what the page needs to draw a position: board, status, legal moves."""
    outcome = game.outcome()
    names = game.player_names
    view = game.board_view()
    to_move = names[game.to_move()] if outcome is None else None
    winner = None if outcome is None or outcome.winner is None else names[outcome.winner]
    return {
        "game": game.name,
        "options": game.settings,
        "position": game.to_text(),
        "ply": game.ply,
        "to_move": to_move,
        "is_over": outcome is not None,
        "winner": winner,
        "status": f"{to_move} to move" if to_move else f"{winner} wins" if winner else "draw",
        "legal_moves": [game.format_move(move) for move in game.legal_moves()],
        "text": game.render(),
        "board": None
        if view is None
        else {
            "rows": view.rows,
            "cols": view.cols,
            "cells": [{"symbol": symbol, "move": move} for symbol, move in zip(view.symbols, view.moves)],
            # moves that are not cells ("pass"), for board views that offer them
            "extra_moves": [
                {"label": label, "move": move} for label, move in getattr(view, "extra_moves", ())
            ],
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
    move = _required_text(body, "move", limits)
    game.play(move)
    return describe_state(game)


def games(registry: Registry, limits: Limits) -> dict[str, Any]:
    """Return every game and searcher with its options, and the server's limits."""
    data = catalogue(registry)
    for name, entry in data["games"].items():
        game_class = registry.game_class(name)
        entry["player_names"] = list(game_class.player_names)
        for option_data, option in zip(entry["options"], game_class.options):
            option_data["minimum"], option_data["maximum"] = option.minimum, option.maximum
    data["limits"] = limits.as_dict()
    return data


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
    outcome = game.outcome()
    if outcome is not None:
        raise GameOverError(
            f"the game is over ({describe_outcome(outcome)}); there is no move to make in "
            f"{game.to_text()!r}"
        )
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
    outcome = game.outcome()
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
        "value": result.value,
        "move": None if result.move is None else game.format_move(result.move),
        "root": root.as_dict(game.format_move),
    }
