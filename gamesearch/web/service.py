"""What each request of the web API does, in plain Python (no web framework).

Every request is self-contained: it names the game, its options and the position
in the game's own text notation, and gets JSON-ready data back. Each request builds
its own position object, so two requests never share a mutable position, and the
server keeps no state between them.

Searches run under :class:`Limits` that the server sets. Every searcher's budget
options (``max_nodes`` and ``seconds``) get the server's budget as their ceiling, time
measured on the server's clock (``Limits.clock``), so a search that cannot answer within
it stops with an error; a plugin searcher that ignores
its budget is stopped by the worker's deadline. Every value a request
gives is checked here, at the edge: finite numbers only, integers where a game or
searcher option is an integer, booleans where it is a boolean, bounded sizes.

A search runs in a worker process (:func:`worker_main` answers :class:`Job` objects
sent down a pipe), so that the server can end it whatever the searcher does.
"""

from __future__ import annotations

import json
import math
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
from gamesearch.game import Game, draw_outcome, resolve_options
from gamesearch.options import check_finite_deprecated, check_option_value_deprecated
from gamesearch.plugins import Registry
from gamesearch.rules import CHANCE, winners
from gamesearch.rules import outcome as outcome_of
from gamesearch.search.base import (
    CLOCKS,
    Searcher,
    SearchResult,
    json_value,
    parse_searcher_spec,
)
from gamesearch.trace import TraceNode, TreeTracer
from gamesearch.views import analysis, catalogue
from gamesearch.web.perfect import PERFECT_PLAY, add_to_catalogue, table_searcher
from gamesearch.words import describe_outcome, margin_words

#: the searcher options through which a searcher takes a budget of its own
NATIVE_BUDGET = frozenset({"max_nodes", "seconds"})
DEFAULT_SEARCHER = "alphabeta"
#: deepest nesting of arrays and objects a request body may have (the API reads two levels)
MAX_JSON_DEPTH = 8
#: most digits an integer in a request body may have
MAX_INTEGER_DIGITS = 100
_SCALARS = (str, int, float, bool, type(None))
_KIND_NAMES: dict[type, str] = {dict: "an object", str: "a string"}


class ForbiddenOriginError(InvalidRequestError):
    """A write request sent by a page of another origin than the server's own."""


class UnsupportedMediaTypeError(InvalidRequestError):
    """A request body not declared as ``application/json``."""


def _whole_number(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidOptionError(f"limit {attribute.name!r} must be a whole number >= 1: {value!r}")


def _positive(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value <= 0
    ):
        raise InvalidOptionError(f"limit {attribute.name!r} must be a finite number > 0: {value!r}")


def _clock(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value not in CLOCKS:
        clocks = " or ".join(map(repr, CLOCKS))
        raise InvalidOptionError(f"limit {attribute.name!r} must be {clocks}: {value!r}")


@attrs.frozen(kw_only=True)
class Limits:
    """What the server allows one request and one client; set when the server starts."""

    max_nodes: int = attrs.field(default=1_000_000, validator=_whole_number)  #: nodes per search
    seconds: float = attrs.field(default=3.0, validator=_positive)  #: time per search
    #: the clock ``seconds`` (and every search's time budget) is measured on: wall or cpu
    clock: str = attrs.field(default="wall", validator=_clock)
    tree_nodes: int = attrs.field(default=2_000, validator=_whole_number)  #: largest tree drawn
    body_bytes: int = attrs.field(default=16_384, validator=_whole_number)  #: request body size
    text_chars: int = attrs.field(default=1_000, validator=_whole_number)  #: position or move text
    workers: int = attrs.field(default=2, validator=_whole_number)  #: searches running at once
    queue: int = attrs.field(default=32, validator=_whole_number)  #: searches waiting for a worker
    #: a search still running this long past ``seconds`` has its worker process stopped
    grace_seconds: float = attrs.field(default=2.0, validator=_positive)
    #: memory a worker process may take on top of what it starts with, in MiB
    worker_memory_mb: int = attrs.field(default=1_024, validator=_whole_number)
    #: time a client has to send a request's headers (from connecting, or after an answer)
    header_seconds: float = attrs.field(default=10.0, validator=_positive)
    #: time a client has to send a request's body, once its headers are in
    body_seconds: float = attrs.field(default=10.0, validator=_positive)
    #: an idle kept-alive connection is closed after this long
    keep_alive_seconds: float = attrs.field(default=5.0, validator=_positive)
    #: open connections; over it the longest-waiting idle or unfinished ones are closed
    max_connections: int = attrs.field(default=256, validator=_whole_number)
    #: solution tables the board's perfect play answers from (files, not shown to clients)
    tables: tuple[str, ...] = attrs.field(default=(), converter=tuple)

    @property
    def kill_seconds(self) -> float:
        """Return how long a search may run before its worker process is stopped."""
        return self.seconds + self.grace_seconds

    def as_dict(self) -> dict[str, Any]:
        """Return the limits as JSON-ready data."""
        return attrs.asdict(self, filter=lambda attribute, _: attribute.name != "tables")


@attrs.frozen
class SearchRequest:
    """A checked search request: its own position and a searcher held to the budget."""

    game: Game[Any]
    searcher: Searcher

    def run(self, limits: Limits, *, move_values: bool) -> SearchResult:
        """Search the position under the budget and return the result.

        :raises BudgetExceededError: when the searcher runs out of budget.
        """
        try:
            return self.searcher.search(self.game, move_values=move_values)
        except BudgetExceededError as error:
            raise BudgetExceededError(
                f"search stopped: {error} (this server's budget); "
                "set a depth or use the 'iterative' searcher"
            ) from None


# ------------------------------------------------------------------ the body
def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InvalidRequestError(f"number {text!r} is out of range; numbers must be finite")
    return value


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INTEGER_DIGITS:
        raise InvalidRequestError(
            f"an integer of {digits:,} digits is too long; at most {MAX_INTEGER_DIGITS} digits are "
            "allowed"
        )
    return int(text)


def _no_constant(name: str) -> Any:
    raise InvalidRequestError(f"{name} is not a number JSON allows; numbers must be finite")


def _too_deep(depth: int) -> InvalidRequestError:
    return InvalidRequestError(
        f"the request body is nested {depth} levels deep or more; at most {MAX_JSON_DEPTH} are "
        "allowed"
    )


def _check_depth(value: Any) -> None:
    """Raise unless ``value`` nests at most :data:`MAX_JSON_DEPTH` levels (no recursion)."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        )
        if children is None:
            continue
        if depth > MAX_JSON_DEPTH:
            raise _too_deep(depth)
        pending.extend((child, depth + 1) for child in children)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Return an object's pairs as a dict (a ``json`` hook).

    :raises InvalidRequestError: when a key comes twice (which one would count?).
    """
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise InvalidRequestError(
                f"the request body gives {key!r} twice in one object; give each key once"
            )
        found[key] = value
    return found


#: the byte order marks of UTF-16 and UTF-32 (and UTF-8's, which JSON does not use)
_BYTE_ORDER_MARKS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")


def _utf8_text(raw: bytes) -> str:
    """Return the body ``raw`` decoded as UTF-8 (JSON's one encoding between systems).

    :raises InvalidRequestError: for a byte order mark, a NUL byte (UTF-16 or UTF-32
        text) or bytes that are not UTF-8.
    """
    if raw.startswith(_BYTE_ORDER_MARKS) or b"\x00" in raw:
        raise InvalidRequestError(
            "the request body must be JSON encoded as UTF-8 (this one looks like UTF-16 or "
            "UTF-32, or starts with a byte order mark)"
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidRequestError(
            f"the request body must be JSON encoded as UTF-8 (its byte {error.start:,} is not)"
        ) from None


def parse_body(raw: bytes) -> Mapping[str, Any]:
    """Return the JSON object in ``raw`` (an empty body reads as ``null``, refused).

    The body is UTF-8 (no other encoding, no byte order mark); each key comes once
    in an object; numbers must be finite (no ``NaN``, ``Infinity`` or ``1e400``),
    integers at most :data:`MAX_INTEGER_DIGITS` digits, nesting at most
    :data:`MAX_JSON_DEPTH` levels.

    :raises InvalidRequestError: for anything else than such an object.
    """
    try:
        body = json.loads(
            _utf8_text(raw) or "null",
            parse_float=_finite_float,
            parse_int=_bounded_int,
            parse_constant=_no_constant,
            object_pairs_hook=_no_duplicates,
        )
    except RecursionError:
        raise _too_deep(MAX_JSON_DEPTH + 1) from None
    except json.JSONDecodeError as error:
        raise InvalidRequestError(f"the request body is not valid JSON: {error}") from None
    _check_depth(body)
    return check_body(body)


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
            f"field {name!r} has {len(value):,} characters; at most {limits.text_chars:,} are "
            "allowed"
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
        raise InvalidRequestError(
            f"the request body must be a JSON object, not {type(body).__name__}"
        )
    return body


#: the readers the option schema replaced (deprecated, kept one release)
check_option_value = check_option_value_deprecated
_check_finite = check_finite_deprecated


def read_position(registry: Registry, body: Mapping[str, Any], limits: Limits) -> Game[Any]:
    """Return a new position from ``game``, ``options`` and ``position`` (start if absent).

    :raises InvalidRequestError: for a missing or mistyped field.
    :raises GameSearchError: for an unknown game, a bad option or bad position text.
    """
    name = _required_text(body, "game", limits)
    options = {key: value for key, value in _scalars(body, "options").items() if value is not None}
    position = _text(body, "position", limits)
    game_class = registry.game_class(name)
    # Read here too (the one option schema), so that a plugin game that reads its
    # options in a way of its own still gets each value checked at the edge.
    resolve_options(game_class.options, options, owner=f"game {name!r}")
    return registry.new_game(name, position, **options)


def _new_searcher(registry: Registry, spec: str, given: Mapping[str, Any]) -> Searcher:
    """Return the searcher of ``spec`` with options ``given``, every value checked.

    :raises GameSearchError: for an unknown searcher or a bad option.
    """
    name, spec_options = parse_searcher_spec(spec)
    searcher_class = registry.searcher_class(name)
    options = {**spec_options, **{key: value for key, value in given.items() if value is not None}}
    try:
        return searcher_class.configured(options)
    except GameSearchError:
        raise
    except (AssertionError, ArithmeticError, LookupError, TypeError, ValueError) as error:
        # a plugin searcher whose own checks are not GameSearchErrors
        raise InvalidOptionError(f"searcher {name!r} refused its options: {error}") from None


def read_search(registry: Registry, body: Mapping[str, Any], limits: Limits) -> SearchRequest:
    """Return the checked search of a request's position by its ``searcher``.

    ``searcher`` is a registered name (default ``alphabeta``) and ``searcher_options``
    its options. Budget options the searcher has are set to the server's ceiling
    unless the request asks for less.

    :raises InvalidOptionError: when the request asks for more than the server allows.
    :raises GameSearchError: for anything else wrong with the position or searcher.
    """
    game = read_position(registry, body, limits)
    spec = _text(body, "searcher", limits) or DEFAULT_SEARCHER
    if spec == PERFECT_PLAY and spec not in registry.searchers:  # from the server's tables
        searcher = table_searcher(game, limits.tables, _scalars(body, "searcher_options"))
    else:
        searcher = _new_searcher(registry, spec, _scalars(body, "searcher_options"))
    # every searcher keeps a node and a time budget (the fields of Limit)
    ceilings = {"max_nodes": limits.max_nodes, "seconds": limits.seconds}
    budget = {}
    for option in sorted(NATIVE_BUDGET):
        asked, ceiling = getattr(searcher, option), ceilings[option]
        if asked is not None and not asked <= ceiling:
            raise InvalidOptionError(
                f"option {option!r} asks for {asked!r}; this server allows at most {ceiling!r}"
            )
        budget[option] = ceiling if asked is None else asked
    if searcher.clock not in ("wall", limits.clock):  # (wall: the searchers' default)
        raise InvalidOptionError(
            f"option 'clock' asks for {searcher.clock!r}; this server measures every time "
            f"budget on the {limits.clock!r} clock"
        )
    budget["clock"] = limits.clock
    # A plugin searcher that ignores its budget is stopped by the worker's deadline.
    budgeted = attrs.evolve(searcher, **budget)  # type: ignore[arg-type]
    return SearchRequest(game, budgeted)


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
    move = _required_text(body, "move", limits)
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
