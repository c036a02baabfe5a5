"""Running the application on uvicorn: in the foreground (``gamesearch serve``) or in a
background thread (tests, tools).

The listening socket is bound here, before uvicorn starts, so an address in use is a
clear :class:`ServeError` and port 0 picks a free port that the caller can read.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from gamesearch.errors import MissingDependencyError, ServeError


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
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise ServeError(
            f"cannot listen on {host}:{port}: {error.strerror or error}; choose another --host or --port"
        ) from None
    return sock


def url_of(sock: socket.socket) -> str:
    """Return the ``http://host:port`` address a listening socket serves."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _server(app: Any, log_level: str) -> Any:
    import uvicorn

    return uvicorn.Server(uvicorn.Config(app, log_level=log_level, lifespan="off"))


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
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise ServeError(f"the server on {self.url} stopped while starting")
            time.sleep(0.02)
        return self.url

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.sock.close()
