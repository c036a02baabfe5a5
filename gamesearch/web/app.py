"""The Starlette application: the page, its static files and the JSON API.

Every answer carries :data:`SECURITY_HEADERS` (the page cannot be framed by another
site). Routes (every ``POST`` takes and every route returns a JSON object)::

    GET  /                 the board page
    GET  /api/games        games and searchers with their options, and the server's limits
    GET  /api/health       "ok", searches in flight, searches stopped, limits
    POST /api/new          {game, options}                       -> state of the start
    POST /api/position     {game, options, position}             -> state
    POST /api/play         {game, options, position, move}       -> state after the move
    POST /api/analyze      {game, options, position, searcher, searcher_options}
                                                                 -> `gamesearch analyze --json`
                                                                 fields
    POST /api/move         (as analyze)                          -> {move, search, state}
    POST /api/tree         (as analyze)                          -> the search tree

Errors are ``{"error": message, "type": class name}`` with a 4xx status: 400 for a
body that is not the JSON object asked for, 403 for a write from another origin's
page, 413 for a body over the limit, 415 for a body not sent as JSON, 422 for a
request the game or searcher rejects (unknown game, bad position, illegal move,
over budget), 503 when too many searches wait for a worker. Searches run in worker
processes that the server stops when a search overruns or its client goes away.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import pickle
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gamesearch.errors import (
    BodyTooLargeError,
    BudgetExceededError,
    GameSearchError,
    ServerBusyError,
)
from gamesearch.plugins import Registry, default_registry
from gamesearch.web import service
from gamesearch.web.service import ForbiddenOriginError, Job, Limits, UnsupportedMediaTypeError

STATIC = Path(__file__).parent / "static"
#: the names a server on this machine only answers to (its ``Host`` header)
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
#: threads that build positions for the cheap routes (new, position, play, and checking searches)
POSITION_THREADS = 4
#: the status of an answer nobody reads: the client went away first (nginx's convention)
CLIENT_GONE = 499


class SearchFailedError(GameSearchError, RuntimeError):
    """A search that no worker process could answer (the server's fault: status 500)."""


def host_name(header: str) -> str:
    """Return the host name of a ``Host`` header, lower case and without its port
    (``[::1]:8000`` -> ``::1``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    return header.rpartition(":")[0] if header.count(":") == 1 else header


class HostCheck:
    """Refuse requests whose ``Host`` header names no allowed host, with a JSON 400.

    A pattern ``*.example.org`` allows every name under ``example.org``, and ``*`` any
    name. This stops a
    page on a DNS-rebound name from reading the API's answers.
    """

    def __init__(self, app: ASGIApp, allowed_hosts: Sequence[str]) -> None:
        self.app = app
        self.exact = frozenset(name.lower() for name in allowed_hosts if not name.startswith("*."))
        self.suffixes = tuple(name.lower()[1:] for name in allowed_hosts if name.startswith("*."))
        self.any = "*" in allowed_hosts

    def allows(self, header: str) -> bool:
        """Return whether the ``Host`` header ``header`` names an allowed host."""
        name = host_name(header)
        return (
            self.any or name in self.exact or (bool(self.suffixes) and name.endswith(self.suffixes))
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            header = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            if not self.allows(header):
                refusal = JSONResponse(
                    {
                        "error": f"requests for the host name {header!r} are refused: this server "
                        "answers to "
                        "its own names only (serve --allowed-host adds one)",
                        "type": "HostRefused",
                    },
                    status_code=400,
                )
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


#: what every answer says to a browser: load the page's scripts, styles and API from this
#: server alone, never inside another site's frame, never as another type than declared,
#: and name no page of this one when leaving it
SECURITY_HEADERS = (
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
        b"frame-ancestors 'self'",
    ),
    (b"x-frame-options", b"SAMEORIGIN"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)


class SecurityHeaders:
    """Add :data:`SECURITY_HEADERS` to every HTTP answer (refusals and errors too)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in SECURITY_HEADERS if name not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _start_method() -> str:
    """Return how worker processes start: from a clean fork server where there is one."""
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


class _Worker:
    """One search worker process and the parent's end of its pipe."""

    def __init__(self, context: Any, memory_mb: int) -> None:
        self.connection, child = context.Pipe()
        self.process: BaseProcess = context.Process(
            target=service.worker_main,
            args=(child, memory_mb),
            daemon=True,
            name="gamesearch-search",
        )
        self.process.start()
        child.close()

    async def ask(self, job: Job, seconds: float) -> tuple[int, dict[str, Any]]:
        """Return the worker's answer to ``job``, waiting at most ``seconds``.

        :raises BudgetExceededError: when the search is still running after ``seconds``.
        :raises SearchFailedError: when the job cannot be sent or the process died.
        """
        connection: Connection = self.connection
        connection.send_bytes(pickle.dumps(job))
        with anyio.move_on_after(seconds) as waited:
            await anyio.wait_readable(connection.fileno())
        if waited.cancelled_caught:
            raise BudgetExceededError(
                f"search stopped: it was still running {job.limits.grace_seconds:g} s after this "
                "server's "
                f"time limit of {job.limits.seconds:g} s; set a depth or use the 'iterative' "
                "searcher"
            )
        try:
            answer: tuple[int, dict[str, Any]] = connection.recv()
        except (EOFError, OSError):
            self.process.join(timeout=10)
            raise SearchFailedError(
                "the search's worker process ended unexpectedly (exit code "
                f"{self.process.exitcode})"
            ) from None
        return answer

    def stop(self) -> None:
        """End the process at once (whatever it is doing) and close the pipe."""
        self.process.kill()
        self.process.join(timeout=10)
        self.connection.close()


def _is_picklable(job: Job) -> bool:
    try:
        pickle.dumps(job)
    except (pickle.PicklingError, AttributeError, TypeError):
        return False
    return True


def _stop_all(workers: list[_Worker]) -> None:
    while workers:
        workers.pop().stop()


class SearchPool:
    """Runs searches in worker processes, a bounded number at once and a bounded queue.

    A search still running ``limits.kill_seconds`` after it started, or whose client
    went away, has its process stopped; a new process takes its place.
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.in_flight = 0  # only touched on the event loop
        self.stopped = 0  #: searches ended by stopping their process
        self._slots: anyio.Semaphore | None = None
        self._idle: list[_Worker] = []
        self._context = multiprocessing.get_context(_start_method())
        if self._context.get_start_method() == "forkserver":
            self._context.set_forkserver_preload(["gamesearch.web.service"])
        weakref.finalize(self, _stop_all, self._idle)

    async def run(self, job: Job) -> tuple[int, dict[str, Any]]:
        """Return the HTTP status and answer of ``job``, computed in a worker process.

        :raises ServerBusyError: when the workers and the queue are all taken.
        :raises BudgetExceededError: when the search overran and was stopped.
        """
        if self._slots is None:  # made here: it belongs to the running event loop
            self._slots = anyio.Semaphore(self.limits.workers)
        if self.in_flight >= self.limits.workers + self.limits.queue:
            raise ServerBusyError(
                f"{self.in_flight} searches are running or waiting, this server's limit; try again "
                "shortly"
            )
        self.in_flight += 1
        try:
            sendable = _is_picklable(job)
            async with self._slots:
                if not sendable:
                    # a game or searcher class a worker process cannot import (defined in a
                    # function, say): searched in a thread, held to the budget but not stoppable
                    return await anyio.to_thread.run_sync(job.answer)
                if self._idle:
                    worker = self._idle.pop()
                else:
                    with anyio.CancelScope(shield=True):  # a process once started is kept track of
                        worker = await anyio.to_thread.run_sync(
                            _Worker, self._context, self.limits.worker_memory_mb
                        )
                try:
                    answer = await worker.ask(job, self.limits.kill_seconds)
                except BaseException:  # overran, cancelled (the client left), or died
                    self.stopped += 1
                    worker.stop()
                    raise
                self._idle.append(worker)
                return answer
        finally:
            self.in_flight -= 1

    def close(self) -> None:
        """Stop every idle worker process (searches still running stop with their request)."""
        _stop_all(self._idle)


async def read_body(request: Request, limits: Limits) -> Any:
    """Return the request's JSON object, read no further than ``limits.body_bytes``.

    A write from a page of another origin is refused, and so is a body not sent as
    ``application/json``.

    :raises ForbiddenOriginError: for an ``Origin`` not allowed (see :func:`create_app`).
    :raises UnsupportedMediaTypeError: for another content type.
    :raises BodyTooLargeError: for a longer body.
    :raises InvalidRequestError: for a body that is not a JSON object.
    """
    origin = request.headers.get("origin")
    if origin is not None:
        own = f"{request.url.scheme}://{request.headers.get('host', '')}".lower()
        if origin.lower() != own and origin.lower() not in request.app.state.allowed_origins:
            raise ForbiddenOriginError(
                f"requests from pages of {origin!r} are refused; this server takes them from its "
                "own "
                f"page ({own!r}) and the origins it was started with"
            )
    media_type, _, parameters = request.headers.get("content-type", "").partition(";")
    media_type = media_type.strip().lower()
    if media_type != "application/json":
        raise UnsupportedMediaTypeError(
            "the request body must be sent as 'application/json', not "
            f"{media_type or 'without a type'!r}"
        )
    charset = _charset(parameters)
    if charset not in (None, "utf-8", "utf8"):
        raise UnsupportedMediaTypeError(
            f"the request body must be UTF-8 JSON, not {charset!r} (leave out the charset or "
            "say utf-8)"
        )
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limits.body_bytes:
        raise BodyTooLargeError(
            f"request body of {int(declared):,} bytes is over this server's limit of "
            f"{limits.body_bytes:,}"
        )
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limits.body_bytes:
            raise BodyTooLargeError(
                f"request body is over this server's limit of {limits.body_bytes:,} bytes"
            )
        chunks.append(chunk)
    return service.parse_body(b"".join(chunks))


def _charset(parameters: str) -> str | None:
    """Return the ``charset`` of a content type's parameters, lower-case (``None``: not given)."""
    for parameter in parameters.split(";"):
        key, _, value = parameter.partition("=")
        if key.strip().lower() == "charset":
            return value.strip().strip('"').lower()
    return None


async def _until_disconnected(request: Request) -> None:
    """Return once the client of ``request`` (whose body has been read) goes away."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def create_app(
    registry: Registry | None = None,
    limits: Limits | None = None,
    *,
    allowed_hosts: Sequence[str] | None = None,
    allowed_origins: Sequence[str] = (),
) -> Starlette:
    """Return the application serving ``registry``'s games (default: installed plugins).

    ``allowed_hosts`` are the names the server answers to in the ``Host`` header
    (default: :data:`LOOPBACK_HOSTS`, this machine's names); others get a 400, so a
    name rebound to this machine by DNS reads nothing. A ``POST`` from a browser page
    is taken only from the server's own origin and from ``allowed_origins``
    (``"http://host:port"``); others get a 403.
    """
    games = registry if registry is not None else default_registry()
    limits = limits if limits is not None else Limits()
    pool = SearchPool(limits)
    position_threads = anyio.CapacityLimiter(POSITION_THREADS)

    def position_route(
        work: Callable[[Registry, Any, Limits], Any],
    ) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            body = await read_body(request, limits)
            # in a thread: the first position of a board size builds its tables
            return JSONResponse(
                await anyio.to_thread.run_sync(work, games, body, limits, limiter=position_threads)
            )

        return endpoint

    def search_route(kind: str) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            body = await read_body(request, limits)
            search = await anyio.to_thread.run_sync(  # bad requests fail here, cheaply
                service.read_search, games, body, limits, limiter=position_threads
            )
            outcome: list[tuple[int, dict[str, Any]] | BaseException] = []
            async with anyio.create_task_group() as group:

                async def answer() -> None:
                    try:
                        outcome.append(await pool.run(Job(kind, search, limits)))
                    except GameSearchError as error:
                        outcome.append(error)
                    group.cancel_scope.cancel()

                async def watch() -> None:
                    await _until_disconnected(request)
                    group.cancel_scope.cancel()  # stops the search: its worker is freed

                group.start_soon(answer)
                group.start_soon(watch)
            if not outcome:
                return Response(status_code=CLIENT_GONE)
            if isinstance(outcome[0], BaseException):
                raise outcome[0]
            status, data = outcome[0]
            return JSONResponse(data, status_code=status)

        return endpoint

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def catalogue(request: Request) -> Response:
        return JSONResponse(service.games(games, limits))

    async def health(request: Request) -> Response:
        return JSONResponse(
            {
                "status": "ok",
                "searches_in_flight": pool.in_flight,
                "searches_stopped": pool.stopped,
                "limits": limits.as_dict(),
            }
        )

    async def game_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, GameSearchError)
        status = 500 if isinstance(error, SearchFailedError) else service.status_of(error)
        return JSONResponse({"error": str(error), "type": type(error).__name__}, status_code=status)

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        return JSONResponse(
            {"error": error.detail.lower(), "type": "HTTPException"}, status_code=error.status_code
        )

    async def client_gone(request: Request, error: Exception) -> Response:
        return Response(status_code=CLIENT_GONE)

    async def internal_error(request: Request, error: Exception) -> Response:
        return JSONResponse(
            {
                "error": f"internal server error: {type(error).__name__}: {error}",
                "type": "InternalError",
            },
            status_code=500,
        )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            pool.close()

    routes = [
        Route("/", index),
        Route("/api/games", catalogue),
        Route("/api/health", health),
        Route("/api/new", position_route(service.new_game), methods=["POST"]),
        Route("/api/position", position_route(service.position), methods=["POST"]),
        Route("/api/play", position_route(service.play), methods=["POST"]),
        Route("/api/analyze", search_route("analyze"), methods=["POST"]),
        Route("/api/move", search_route("move"), methods=["POST"]),
        Route("/api/tree", search_route("tree"), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    hosts = list(allowed_hosts) if allowed_hosts is not None else list(LOOPBACK_HOSTS)
    app = Starlette(
        routes=routes,
        middleware=[Middleware(SecurityHeaders), Middleware(HostCheck, allowed_hosts=hosts)],
        exception_handlers={
            GameSearchError: game_error,
            HTTPException: http_error,
            ClientDisconnect: client_gone,
            Exception: internal_error,
        },
        lifespan=lifespan,
    )
    app.state.limits = limits
    app.state.pool = pool
    app.state.allowed_origins = frozenset(origin.lower().rstrip("/") for origin in allowed_origins)
    return app
