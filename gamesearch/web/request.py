"""Reading a request of the web API at the edge: the server's limits, the JSON body,
the position it names and the search it asks for.

Every value a request gives is checked here: the body is UTF-8 JSON with each key
once, finite numbers only, integers of bounded length and bounded nesting; a game's or
a searcher's options are read by the one option schema; a search gets the server's
budget (:class:`Limits`) as the ceiling of its own.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

import attrs

from gamesearch.errors import (
    BudgetExceededError,
    GameSearchError,
    InvalidOptionError,
    InvalidRequestError,
)
from gamesearch.game import Game, resolve_options
from gamesearch.plugins import Registry
from gamesearch.search.base import CLOCKS, Searcher, SearchResult, parse_searcher_spec
from gamesearch.web.perfect import PERFECT_PLAY, table_searcher

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


def required_text(body: Mapping[str, Any], name: str, limits: Limits) -> str:
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


def read_position(registry: Registry, body: Mapping[str, Any], limits: Limits) -> Game[Any]:
    """Return a new position from ``game``, ``options`` and ``position`` (start if absent).

    :raises InvalidRequestError: for a missing or mistyped field.
    :raises GameSearchError: for an unknown game, a bad option or bad position text.
    """
    name = required_text(body, "game", limits)
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
