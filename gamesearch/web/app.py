"""The Starlette application: the page, its static files and the JSON API.

Routes (every ``POST`` takes and every route returns a JSON object)::

    GET  /                 the board page
    GET  /api/games        games and searchers with their options, and the server's limits
    GET  /api/health       "ok", searches in flight, limits
    POST /api/new          {game, options}                       -> state of the start
    POST /api/position     {game, options, position}             -> state
    POST /api/play         {game, options, position, move}       -> state after the move
    POST /api/analyze      {game, options, position, searcher, searcher_options}
                                                                 -> `gamesearch analyze --json` fields
    POST /api/move         (as analyze)                          -> {move, search, state}
    POST /api/tree         (as analyze)                          -> the search tree

Errors are ``{"error": message, "type": class name}`` with a 4xx status: 400 for a
body that is not the JSON object asked for, 413 for a body over the limit, 422 for a
request the game or searcher rejects (unknown game, bad position, illegal move,
over budget), 503 when too many searches wait for a worker.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from gamesearch.errors import (
    BodyTooLargeError,
    GameSearchError,
    InvalidRequestError,
    ServerBusyError,
)
from gamesearch.plugins import Registry, default_registry
from gamesearch.web import service
from gamesearch.web.service import Limits, SearchRequest

STATIC = Path(__file__).parent / "static"


def _status(error: GameSearchError) -> int:
    if isinstance(error, BodyTooLargeError):
        return 413
    if isinstance(error, InvalidRequestError):
        return 400
    if isinstance(error, ServerBusyError):
        return 503
    return 422


class SearchPool:
    """Runs searches in worker threads, a bounded number at once and a bounded queue."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.in_flight = 0  # only touched on the event loop
        self._limiter: anyio.CapacityLimiter | None = None

    async def run(self, work: Callable[[SearchRequest, Limits], Any], search: SearchRequest) -> Any:
        """Return ``work(search, limits)`` computed in a worker thread.

        :raises ServerBusyError: when the workers and the queue are all taken.
        """
        if self._limiter is None:  # made here: it belongs to the running event loop
            self._limiter = anyio.CapacityLimiter(self.limits.workers)
        if self.in_flight >= self.limits.workers + self.limits.queue:
            raise ServerBusyError(
                f"{self.in_flight} searches are running or waiting, this server's limit; try again shortly"
            )
        self.in_flight += 1
        try:
            return await anyio.to_thread.run_sync(work, search, self.limits, limiter=self._limiter)
        finally:
            self.in_flight -= 1


async def read_body(request: Request, limits: Limits) -> Any:
    """Return the request's JSON object, read no further than ``limits.body_bytes``.

    :raises BodyTooLargeError: for a longer body.
    :raises InvalidRequestError: for a body that is not a JSON object.
    """
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limits.body_bytes:
        raise BodyTooLargeError(
            f"request body of {int(declared):,} bytes is over this server's limit of {limits.body_bytes:,}"
        )
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limits.body_bytes:
            raise BodyTooLargeError(f"request body is over this server's limit of {limits.body_bytes:,} bytes")
        chunks.append(chunk)
    try:
        body = json.loads(b"".join(chunks) or b"null")
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InvalidRequestError(f"the request body is not valid JSON: {error}") from None
    return service.check_body(body)


def create_app(registry: Registry | None = None, limits: Limits | None = None) -> Starlette:
    """Return the application serving ``registry``'s games (default: installed plugins)."""
    games = registry if registry is not None else default_registry()
    limits = limits if limits is not None else Limits()
    pool = SearchPool(limits)

    def position_route(work: Callable[[Registry, Any, Limits], Any]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            body = await read_body(request, limits)
            return JSONResponse(work(games, body, limits))

        return endpoint

    def search_route(work: Callable[[SearchRequest, Limits], Any]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            body = await read_body(request, limits)
            search = service.read_search(games, body, limits)  # bad requests fail here, cheaply
            return JSONResponse(await pool.run(work, search))

        return endpoint

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def catalogue(request: Request) -> Response:
        return JSONResponse(service.games(games, limits))

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok", "searches_in_flight": pool.in_flight, "limits": limits.as_dict()})

    async def game_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, GameSearchError)
        return JSONResponse({"error": str(error), "type": type(error).__name__}, status_code=_status(error))

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        return JSONResponse({"error": error.detail.lower(), "type": "HTTPException"}, status_code=error.status_code)

    routes = [
        Route("/", index),
        Route("/api/games", catalogue),
        Route("/api/health", health),
        Route("/api/new", position_route(service.new_game), methods=["POST"]),
        Route("/api/position", position_route(service.position), methods=["POST"]),
        Route("/api/play", position_route(service.play), methods=["POST"]),
        Route("/api/analyze", search_route(service.analyze), methods=["POST"]),
        Route("/api/move", search_route(service.engine_move), methods=["POST"]),
        Route("/api/tree", search_route(service.search_tree), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(
        routes=routes,
        exception_handlers={GameSearchError: game_error, HTTPException: http_error},
    )
