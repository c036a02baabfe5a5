"""Running the application on uvicorn: in the foreground (``gamesearch serve``) or in a
background thread (tests, tools).

The listening socket is bound here, before uvicorn starts, so an address in use is a
clear :class:`ServeError` and port 0 picks a free port that the caller can read.

Slow clients cannot hold the server: uvicorn's h11 protocol is extended
(:func:`guarded_protocol`) so that a client has ``Limits.header_seconds`` to send a
request's headers and ``Limits.body_seconds`` for its body, after which the connection
is closed; an idle kept-alive connection is closed after ``keep_alive_seconds``; and
past ``max_connections`` open connections the one that has waited longest for its
request among those of the client holding the most is closed, so connections that never
finish cannot use up the open-file limit, and one client's flood costs only that client
its connections.
A uvicorn whose h11 protocol is not the one these deadlines are written for gets
its stock protocol with a connection cap instead, and a warning.
"""

from __future__ import annotations

import asyncio
import collections
import ipaddress
import logging
import math
import socket
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from gamesearch.errors import MissingDependencyError, ServeError
from gamesearch.web.service import Limits

#: seconds that in-flight requests get to finish once the server is asked to stop
SHUTDOWN_SECONDS = 3
#: open files kept for the server's own use (worker pipes, static files) under the limit
FILES_KEPT_FREE = 64


def require_web_extra() -> None:
    """Check that the ``web`` extra (Starlette and uvicorn) is installed.

    :raises MissingDependencyError: naming the extra and how to install it.
    """
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as error:
        raise MissingDependencyError(
            f"the web board needs the 'web' extra ({error.name!r} is not installed): "
            "pip install 'gamesearch[web]'"
        ) from None


def is_loopback(host: str) -> bool:
    """Return whether ``host`` names this machine only (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """Return a listening TCP socket on ``host``:``port`` (port 0: any free port).

    :raises ServeError: when the address cannot be used.
    """
    if not 0 <= port <= 65535:
        raise ServeError(f"port must be from 0 to 65535: {port!r}")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise ServeError(
            f"cannot listen on {host}:{port}: {error.strerror or error}; choose another --host or "
            "--port"
        ) from None
    return sock


def url_of(sock: socket.socket) -> str:
    """Return the ``http://host:port`` address a listening socket serves."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def connection_cap(wanted: int) -> int:
    """Return ``wanted``, lowered to leave room under this process's open-file limit."""
    try:
        import resource

        files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        return wanted
    if files == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, files - FILES_KEPT_FREE))


#: what the request deadlines need of uvicorn's h11 protocol class (its internals: a
#: uvicorn without them gets the stock protocol and a connection cap, see _server)
PROTOCOL_NEEDS = ("handle_events", "on_response_complete", "connection_made", "connection_lost")


def guarded_protocol(limits: Limits) -> type[asyncio.Protocol] | None:
    """Return uvicorn's h11 protocol class with the request deadlines and connection cap of
    ``limits`` (see the module's docstring), or ``None`` when this uvicorn's h11 protocol
    is not the one the deadlines are written for."""
    try:
        import h11
        from uvicorn.protocols.http.h11_impl import H11Protocol
    except ImportError:
        return None
    if not all(callable(getattr(H11Protocol, name, None)) for name in PROTOCOL_NEEDS):
        return None

    cap = connection_cap(limits.max_connections)

    class GuardedProtocol(H11Protocol):
        """An h11 connection that must send each request in time."""

        waiting_since = 0.0  #: loop time since which the connection waits for a request
        phase = "headers"  #: "headers", "body" (both still arriving) or "answering"
        deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)  # type: ignore[arg-type]
            self._expect("headers", limits.header_seconds)
            if len(self.connections) > cap:
                self._shed()

        def handle_events(self) -> None:
            super().handle_events()
            self._follow()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._follow()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _follow(self) -> None:
            """Arm or clear the deadline from where the client is in its request."""
            state = self.conn.their_state
            if state is h11.IDLE and self.phase == "answering" and self.conn.our_state is h11.IDLE:
                self._expect("headers", limits.header_seconds)
            elif state is h11.SEND_BODY and self.phase == "headers":
                self._expect("body", limits.body_seconds)
            elif state not in (h11.IDLE, h11.SEND_BODY) and self.phase != "answering":
                self._disarm()
                self.phase = "answering"

        def _expect(self, phase: str, seconds: float) -> None:
            self._disarm()
            self.phase, self.waiting_since = phase, self.loop.time()
            self.deadline = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def _too_slow(self) -> None:
            self.deadline = None
            if self.cycle is not None and not self.cycle.response_complete:
                self.cycle.disconnected = True
                self.cycle.message_event.set()  # the application sees the client leave
            self.transport.close()

        def _shed(self) -> None:
            """Close the connection that has waited longest for its request among those of
            the client holding the most connections (this one's, when none waits).

            A client that floods the server so loses its own connections: the others,
            a health probe among them, keep theirs.
            """
            waiting = [
                other
                for other in self.connections
                if isinstance(other, GuardedProtocol)
                and other.phase != "answering"
                and not other.transport.is_closing()
            ]
            held = collections.Counter(_client_host(other) for other in waiting)
            if held:
                greediest = max(held, key=lambda host: held[host])
                waiting = [other for other in waiting if _client_host(other) == greediest]
            victim = min(waiting, key=lambda other: other.waiting_since) if waiting else self
            victim._too_slow()

    return GuardedProtocol


def _client_host(connection: Any) -> str | None:
    """Return the address a connection comes from (``None`` when it is not known)."""
    client = getattr(connection, "client", None)
    return str(client[0]) if client else None


def _server(app: Any, log_level: str) -> Any:
    import uvicorn

    state = getattr(app, "state", None)
    limits = getattr(state, "limits", None) or Limits()
    protocol = guarded_protocol(limits)
    if protocol is None:
        logging.getLogger("gamesearch.web").warning(
            "this uvicorn version has no h11 protocol the request deadlines fit: slow clients are "
            "limited by the connection cap only"
        )
    config = uvicorn.Config(
        app,
        log_level=log_level,
        lifespan="on",
        http=protocol or "h11",
        # the guarded protocol sheds the longest-waiting connection itself; the stock one
        # refuses connections over the cap with a 503
        limit_concurrency=None if protocol is not None else connection_cap(limits.max_connections),
        timeout_keep_alive=math.ceil(limits.keep_alive_seconds),
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
    )
    return uvicorn.Server(config)


def serve(app: Any, sock: socket.socket, *, on_started: Callable[[], None] | None = None) -> None:
    """Serve ``app`` on ``sock`` until interrupted (Ctrl-C or SIGTERM), then return."""
    server = _server(app, "info")
    if on_started is not None:
        threading.Thread(target=_when_started, args=(server, on_started), daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn raises the signal again once it has shut down
        pass


def _when_started(server: Any, callback: Callable[[], None]) -> None:
    while not server.started and not server.should_exit:
        time.sleep(0.05)
    if server.started:
        callback()


class BackgroundServer:
    """``with BackgroundServer(app) as url:`` serves ``app`` on 127.0.0.1 in a thread.

    The server is stopped and its thread joined when the block ends.
    """

    def __init__(self, app: Any, host: str = "127.0.0.1") -> None:
        self.sock = bind(host, 0)
        self.url = url_of(self.sock)
        self.server = _server(app, "warning")
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def __enter__(self) -> str:
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise ServeError(f"the server on {self.url} stopped while starting")
            time.sleep(0.02)
        return self.url

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.sock.close()
