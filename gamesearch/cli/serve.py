"""``gamesearch serve``: the browser board and its JSON API on a local web server."""

from __future__ import annotations

import argparse
import sys
import webbrowser
from typing import Any

from gamesearch.cli._common import add_clock_argument
from gamesearch.web.server import bind, is_loopback, require_web_extra, serve, url_of
from gamesearch.web.service import Limits


def register(subparsers: Any) -> None:
    defaults = Limits()
    parser = subparsers.add_parser(
        "serve",
        help="play any game against any searcher in the browser, and watch the search",
        description="Serve the browser board and its JSON API (see docs/web.md). Every search "
        "runs in a worker process under the server's node and time budget, and is stopped if it "
        "overruns or its client leaves. The server answers only to this machine's names and to "
        "--allowed-host, and takes requests from its own page and from --allowed-origin. Needs "
        "the 'web' extra: pip install 'gamesearch[web]'.",
        epilog="examples:\n  gamesearch serve --open\n"
        "  gamesearch serve --port 8080 --max-nodes 200000 --max-seconds 1\n"
        "  gamesearch serve --table tictactoe.sqlite",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default: 127.0.0.1, this machine only)",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=8000,
        help="port to listen on, 0 for any free one (default: 8000)",
    )
    parser.add_argument(
        "--open",
        action="store_true",
        help="open the board in the web browser once the server is up",
    )
    parser.add_argument(
        "--max-nodes",
        type=int,
        default=defaults.max_nodes,
        metavar="N",
        help=f"node budget of every search (default: {defaults.max_nodes:,})",
    )
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=defaults.seconds,
        metavar="S",
        help=f"time budget of every search in seconds (default: {defaults.seconds:g})",
    )
    add_clock_argument(parser)
    parser.add_argument(
        "--tree-nodes",
        type=int,
        default=defaults.tree_nodes,
        metavar="N",
        help=f"largest search tree the explorer draws (default: {defaults.tree_nodes:,})",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=defaults.workers,
        metavar="N",
        help=f"searches that run at once; more wait in a queue (default: {defaults.workers})",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another name the server answers to in the Host header (repeatable; "
        "default: 127.0.0.1, localhost, ::1 and --host)",
    )
    parser.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="URL",
        help="another page origin, e.g. http://localhost:3000, whose requests are "
        "taken (repeatable; default: the server's own page only)",
    )
    parser.add_argument(
        "--table",
        action="append",
        default=[],
        metavar="FILE",
        help="a solution table made by 'gamesearch solve' (repeatable): the board then offers "
        "perfect play, every move's exact value at once, for its game and options",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    require_web_extra()
    from gamesearch.solutions import describe_identity
    from gamesearch.web.app import LOOPBACK_HOSTS, create_app
    from gamesearch.web.perfect import check_tables

    held = check_tables(args.table)  # each a complete store, before the server starts
    limits = Limits(
        max_nodes=args.max_nodes,
        seconds=args.max_seconds,
        clock=args.clock or Limits().clock,
        tree_nodes=args.tree_nodes,
        workers=args.workers,
        tables=args.table,
    )
    hosts = [*LOOPBACK_HOSTS, *args.allowed_host]
    if args.host not in ("0.0.0.0", "::", ""):
        hosts.append(args.host)
    app = create_app(limits=limits, allowed_hosts=hosts, allowed_origins=args.allowed_origin)
    sock = bind(args.host, args.port)
    url = url_of(sock)
    print(f"gamesearch board on {url}  (Ctrl-C stops it)", flush=True)
    for path, identity in zip(args.table, held, strict=True):
        print(f"perfect play for {describe_identity(identity)} from {path}", flush=True)
    if not is_loopback(args.host):
        print(f"warning: {args.host} is reachable from other machines", file=sys.stderr)

    def open_browser() -> None:
        webbrowser.open(url)

    serve(app, sock, on_started=open_browser if args.open else None)
    print("gamesearch board stopped", flush=True)
    return 0
