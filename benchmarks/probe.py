"""The abuse probe: every attack on ``gamesearch serve`` and the command line, in one run.

Starts ``gamesearch serve`` on 127.0.0.1 (a free port) in a child process, then sends it
a table of abusive requests — bodies that are not JSON or nest too deep, numbers JSON
does not allow or that are too large, options of the wrong type or out of range, budgets
that are NaN or infinite, unknown games, searchers and moves, wrong methods, content
types, origins and host names, paths that try to leave the static folder — and checks
that each gets the JSON 4xx it should (never a 5xx, never a hang). Then come the
attacks on the connection itself: hundreds of connections that never finish their
headers (the health check's latency meanwhile), a body sent one byte a second,
searches whose clients leave (how fast their workers are free again), and one
``/api/new`` per tic-tac-toe board size (the server's memory after). Last, the command
line: each bad input must exit with status 2 and one line on stderr, no traceback.

Prints one row per attack and a summary (attacks, passed, the server alive, its
memory, the figures above); ``--json`` prints it all as one object. Exits 1 when an
attack is not answered as it should be. Usage::

    python -m benchmarks.probe            # about a minute on a 2-core machine
    python -m benchmarks.probe --json
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

HOST = "127.0.0.1"
JSON_TYPE = "application/json"


@attrs.frozen
class Attack:
    """One abusive request and the statuses that count as a clear refusal."""

    name: str
    path: str
    body: bytes | None = None
    method: str = "POST"
    headers: tuple[tuple[str, str], ...] = (("Content-Type", JSON_TYPE),)
    expected: tuple[int, ...] = (400, 413, 415, 422)


@attrs.frozen
class Row:
    """What one attack got."""

    name: str
    expected: str
    got: str
    seconds: float
    passed: bool


def _json(value: Any) -> bytes:
    return json.dumps(value).encode()


def _body(**fields: Any) -> bytes:
    return _json(fields)


POST_ROUTES = ("/api/new", "/api/position", "/api/play", "/api/analyze", "/api/move", "/api/tree")
SEARCH_ROUTES = ("/api/analyze", "/api/move", "/api/tree")

#: bodies every POST route must refuse, whatever it does with a good one
SHAPES: tuple[tuple[str, bytes], ...] = (
    ("empty body", b""),
    ("not JSON", b"{game: tictactoe"),
    ("a JSON array", b"[1, 2, 3]"),
    ("a JSON string", b'"tictactoe"'),
    ("JSON null", b"null"),
    ("nested 1,000 deep", b'{"game": "tictactoe", "options": ' + b"[" * 1000 + b"]" * 1000 + b"}"),
    ("a 4,301-digit integer", b'{"game": "tictactoe", "options": {"rows": ' + b"7" * 4301 + b"}}"),
    ("Infinity", b'{"game": "tictactoe", "options": {"rows": Infinity}}'),
    ("NaN", b'{"game": "tictactoe", "options": {"rows": NaN}}'),
    ("1e400", b'{"game": "tictactoe", "options": {"rows": 1e400}}'),
    ("unknown game", _body(game="chequers")),
    ("game not text", _body(game=["tictactoe"])),
    ("options not an object", _body(game="tictactoe", options=[3])),
    ("invalid UTF-8", b'{"game": "tic\xff\xfetactoe"}'),
    ("a body over the size limit", _body(game="tictactoe", position="X" * 20_000)),
)

#: option values tic-tac-toe must refuse (its options are whole numbers)
BAD_OPTIONS: tuple[tuple[str, Any], ...] = (
    ("rows 3.7", {"rows": 3.7}),
    ("rows true", {"rows": True}),
    ("rows -3", {"rows": -3}),
    ("rows 0", {"rows": 0}),
    ("rows 10,000", {"rows": 10_000}),
    ("rows text", {"rows": "three"}),
    ("k larger than the board", {"k": 9}),
    ("an unknown option", {"colour": 1}),
    ("rows an object", {"rows": {"n": 3}}),
)

#: searcher specs and options every search route must refuse
BAD_SEARCHES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("searcher unknown", {"searcher": "deepblue"}),
    ("searcher spec garbled", {"searcher": "alphabeta:depth"}),
    ("mcts seconds nan", {"searcher": "mcts:seconds=nan"}),
    ("mcts seconds inf", {"searcher": "mcts:seconds=inf"}),
    ("mcts exploration nan", {"searcher": "mcts:exploration=nan"}),
    ("mcts simulations -1", {"searcher": "mcts:simulations=-1"}),
    ("iterative depth 2.5", {"searcher": "iterative", "searcher_options": {"depth": 2.5}}),
    ("iterative max_nodes 0", {"searcher": "iterative", "searcher_options": {"max_nodes": 0}}),
    ("iterative seconds -1", {"searcher": "iterative", "searcher_options": {"seconds": -1}}),
    (
        "alphabeta table_entries 0",
        {"searcher": "alphabeta", "searcher_options": {"table_entries": 0}},
    ),
    (
        "alphabeta table_entries -5",
        {"searcher": "alphabeta", "searcher_options": {"table_entries": -5}},
    ),
    ("alphabeta all_best 5", {"searcher": "alphabeta", "searcher_options": {"all_best": 5}}),
    ("alphabeta depth text", {"searcher": "alphabeta", "searcher_options": {"depth": "deep"}}),
    ("unknown searcher option", {"searcher": "alphabeta", "searcher_options": {"cheat": True}}),
    ("searcher_options a list", {"searcher": "alphabeta", "searcher_options": [1]}),
)

#: positions and moves the position routes must refuse
BAD_POSITIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("position garbled", {"game": "tictactoe", "position": "XYZ"}),
    ("position unreachable", {"game": "tictactoe", "position": "XXX/XXX/XXX"}),
    ("position too long", {"game": "tictactoe", "position": "." * 1_500}),
    ("position not text", {"game": "tictactoe", "position": 5}),
    ("connect4 column full", {"game": "connect4", "position": "1111111"}),
)


def api_attacks() -> Iterator[Attack]:
    """Yield every request attack on the JSON API."""
    for route in POST_ROUTES:
        for label, raw in SHAPES:
            yield Attack(f"{route}: {label}", route, raw)
        for label, options in BAD_OPTIONS:
            yield Attack(
                f"{route}: {label}", route, _body(game="tictactoe", options=options, move="0")
            )
    for route in ("/api/position", "/api/play", *SEARCH_ROUTES):
        for label, fields in BAD_POSITIONS:
            yield Attack(f"{route}: {label}", route, _body(**fields, move="0"))
    for label, move in (
        ("move occupied", "0"),
        ("move off the board", "99"),
        ("move text garbled", "x!"),
        ("move missing", None),
        ("move a number", 4),
    ):
        fields = {"game": "tictactoe", "position": "X........"}
        if move is not None:
            fields["move"] = move
        yield Attack(f"/api/play: {label}", "/api/play", _body(**fields))
    for route in SEARCH_ROUTES:
        for label, fields in BAD_SEARCHES:
            yield Attack(f"{route}: {label}", route, _body(game="connect4", **fields))
    yield Attack(
        "/api/tree: a 20x20 board's whole tree",
        "/api/tree",
        _body(game="tictactoe", options={"rows": 20, "cols": 20, "k": 5}, searcher="minimax"),
    )
    yield Attack(
        "/api/analyze: exhaustive minimax of connect4",
        "/api/analyze",
        _body(game="connect4", searcher="minimax"),
        expected=(200, 422),
    )
    for route in POST_ROUTES[:3]:
        good = _body(game="tictactoe")
        yield Attack(
            f"{route}: text/plain body", route, good, headers=(("Content-Type", "text/plain"),)
        )
        yield Attack(f"{route}: no content type", route, good, headers=())
        yield Attack(
            f"{route}: form content type",
            route,
            good,
            headers=(("Content-Type", "application/x-www-form-urlencoded"),),
        )
        yield Attack(
            f"{route}: another origin",
            route,
            good,
            headers=(("Content-Type", JSON_TYPE), ("Origin", "http://127.0.0.1:9")),
            expected=(403,),
        )
        yield Attack(
            f"{route}: origin null",
            route,
            good,
            headers=(("Content-Type", JSON_TYPE), ("Origin", "null")),
            expected=(403,),
        )
        yield Attack(
            f"{route}: a rebound host name",
            route,
            good,
            headers=(("Content-Type", JSON_TYPE), ("Host", "rebound.example")),
            expected=(400,),
        )
        yield Attack(
            f"{route}: GET instead of POST", route, None, method="GET", headers=(), expected=(405,)
        )
    for route in ("/api/games", "/api/health", "/"):
        yield Attack(f"{route}: POST instead of GET", route, b"{}", expected=(405,))
        yield Attack(
            f"{route}: a rebound host name",
            route,
            None,
            method="GET",
            headers=(("Host", "evil.test"),),
            expected=(400,),
        )
    for path in (
        "/static/../../../etc/passwd",
        "/static/%2e%2e/%2e%2e/etc/passwd",
        "/static/..%2f..%2fpyproject.toml",
        "/static/%00",
        "/api/../../etc/passwd",
        "/nowhere",
        "/api/nowhere",
        "/static/",
    ):
        yield Attack(f"GET {path}", path, None, method="GET", headers=(), expected=(400, 404, 405))
    yield Attack("DELETE /api/new", "/api/new", None, method="DELETE", headers=(), expected=(405,))
    yield Attack("PUT /api/analyze", "/api/analyze", b"{}", method="PUT", expected=(405,))


def send(port: int, attack: Attack, timeout: float = 20.0) -> tuple[int, bool]:
    """Return the status ``attack`` got and whether its answer was JSON.

    :raises OSError: when the server does not answer in ``timeout`` seconds.
    """
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        headers = dict(attack.headers)
        headers.setdefault("Host", f"{HOST}:{port}")
        connection.request(attack.method, attack.path, body=attack.body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        is_json = response.getheader("content-type", "").startswith(JSON_TYPE)
        if is_json:
            json.loads(data)
        return response.status, is_json
    finally:
        connection.close()


def run_attack(port: int, attack: Attack) -> Row:
    """Return the row of one request attack (a JSON 4xx in the expected set passes)."""
    start = time.perf_counter()
    try:
        status, is_json = send(port, attack)
        got = f"{status}{'' if is_json else ' (not JSON)'}"
        passed = status in attack.expected and is_json
    except (OSError, http.client.HTTPException, ValueError) as error:
        got, passed = f"no answer: {error}", False
    expected = "/".join(map(str, attack.expected))
    return Row(attack.name, expected, got, time.perf_counter() - start, passed)


# ------------------------------------------------------------ the server
def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def start_server(port: int) -> subprocess.Popen[bytes]:
    """Return a running ``gamesearch serve`` on ``port`` (waits until it answers).

    :raises RuntimeError: when it has not answered within 30 seconds.
    """
    command = [sys.executable, "-m", "gamesearch", "serve", "--host", HOST, "--port", str(port)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        if health_latency(port, timeout=1.0) is not None:
            return server
        if server.poll() is not None:
            break
        time.sleep(0.1)
    server.kill()
    raise RuntimeError("the server did not start within 30 seconds")


def health_latency(port: int, timeout: float = 5.0) -> float | None:
    """Return the seconds ``/api/health`` took to answer 200, ``None`` when it did not."""
    start = time.perf_counter()
    try:
        status, _ = send(
            port, Attack("health", "/api/health", None, method="GET", headers=()), timeout
        )
    except (OSError, http.client.HTTPException, ValueError):
        return None
    return time.perf_counter() - start if status == 200 else None


def memory_mb(pid: int) -> float:
    """Return the resident memory of process ``pid`` and all its descendants, in MiB."""
    total_kb = 0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            total_kb += next(
                int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")
            )
            for task in Path(f"/proc/{current}/task").iterdir():
                pending.extend(int(child) for child in (task / "children").read_text().split())
        except (OSError, StopIteration):
            continue
    return total_kb / 1024


# ------------------------------------------------------- connection attacks
def slow_headers(port: int, count: int = 300) -> dict[str, Any]:
    """Open ``count`` connections that never finish their headers; time health meanwhile."""
    sockets = []
    try:
        for _ in range(count):
            sock = socket.create_connection((HOST, port), timeout=5)
            sock.sendall(b"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            sockets.append(sock)
        latencies = [health_latency(port) for _ in range(10)]
    finally:
        for sock in sockets:
            sock.close()
    answered = [latency for latency in latencies if latency is not None]
    return {
        "connections": count,
        "health_answered": f"{len(answered)}/{len(latencies)}",
        "health_ms_median": round(statistics.median(answered) * 1000, 1) if answered else None,
        "passed": len(answered) == len(latencies),
    }


def dribbled_body(port: int, limit_seconds: float = 25.0) -> dict[str, Any]:
    """Send a body one byte a second; return how long the server took to drop it."""
    body = _body(game="tictactoe") * 20
    start = time.perf_counter()
    with socket.create_connection((HOST, port), timeout=limit_seconds) as sock:
        sock.sendall(
            f"POST /api/new HTTP/1.1\r\nHost: {HOST}:{port}\r\nContent-Type: {JSON_TYPE}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n".encode()
        )
        dropped = False
        for byte in body:
            try:
                sock.sendall(bytes([byte]))
                sock.settimeout(1.0)
                if sock.recv(1024) == b"":
                    dropped = True
                    break
            except TimeoutError:
                pass
            except OSError:
                dropped = True
                break
            if time.perf_counter() - start > limit_seconds:
                break
    return {
        "dropped_after_s": round(time.perf_counter() - start, 1) if dropped else None,
        "passed": dropped,
    }


def abandoned_searches(port: int, count: int = 8) -> dict[str, Any]:
    """Start ``count`` long searches, leave them, and time until a new search is answered."""
    body = _body(game="connect4", searcher="mcts:seconds=3")
    request = (
        f"POST /api/analyze HTTP/1.1\r\nHost: {HOST}:{port}\r\nContent-Type: {JSON_TYPE}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    for _ in range(count):
        with socket.create_connection((HOST, port), timeout=5) as sock:
            sock.sendall(request)
            time.sleep(0.05)
    start = time.perf_counter()
    status, _ = send(
        port, Attack("quick", "/api/analyze", _body(game="tictactoe", position="XX.OO...."))
    )
    freed = time.perf_counter() - start
    return {
        "abandoned": count,
        "next_search_s": round(freed, 2),
        "status": status,
        "passed": status == 200 and freed < 3.0,
    }


def board_sizes(port: int) -> dict[str, Any]:
    """Ask for every tic-tac-toe board of up to 16 cells; return the server's memory after."""
    sizes = [
        (rows, cols, k)
        for rows in range(1, 17)
        for cols in range(1, 17)
        if rows * cols <= 16
        for k in range(1, max(rows, cols) + 1)
    ]
    start = time.perf_counter()
    statuses = [
        send(
            port,
            Attack(
                "size", "/api/new", _body(game="tictactoe", options={"rows": r, "cols": c, "k": k})
            ),
        )[0]
        for r, c, k in sizes
    ]
    return {
        "requests": len(sizes),
        "seconds": round(time.perf_counter() - start, 1),
        "all_answered": all(status < 500 for status in statuses),
    }


# ------------------------------------------------------------- the CLI
CLI_ATTACKS: tuple[tuple[str, ...], ...] = (
    ("analyze", "chequers"),
    ("analyze", "tictactoe", "--position", "XYZ"),
    ("analyze", "tictactoe", "--searcher", "deepblue"),
    ("analyze", "tictactoe", "--searcher", "mcts:seconds=nan"),
    ("analyze", "tictactoe", "--searcher", "mcts:exploration=nan"),
    ("analyze", "tictactoe", "--max-nodes", "-1"),
    ("analyze", "tictactoe", "--max-nodes", "nan"),
    ("analyze", "tictactoe", "-o", "rows=3.7"),
    ("analyze", "tictactoe", "-o", "rows"),
    ("analyze", "tictactoe", "--searcher", "alphabeta:depth=2.5"),
    ("analyze", "tictactoe", "--searcher", "alphabeta:table_entries=0"),
    ("tree", "tictactoe", "--output", "/nonexistent/folder/tree.svg"),
    ("tree", "tictactoe", "--output", "/"),
    ("compare", "tictactoe", "--searchers", "deepblue"),
    ("compare", "tictactoe", "--plot", "/nonexistent/x.png"),
    ("match", "tictactoe", "alphabeta", "mcts:exploration=nan"),
    ("match", "tictactoe", "alphabeta", "deepblue"),
    ("tournament", "tictactoe", "--searchers", "alphabeta", "mcts:seconds=inf"),
    ("tournament", "tictactoe", "--plot", "/nonexistent/x.png"),
    ("play", "tictactoe", "--opponent", "mcts:exploration=nan"),
    ("serve", "--port", "70000"),
    ("serve", "--max-seconds", "nan"),
    ("serve", "--max-seconds", "inf"),
    ("serve", "--workers", "0"),
    ("solve-bench", "/dev/null/nothing"),
    ("uci-check", "--sample", "-5"),
    ("games", "--json", "extra"),
    ("nonsense-command",),
)


def cli_rows(tmp: Path) -> Iterator[Row]:
    """Yield one row per command-line attack: exit 2, no traceback, one error line."""
    binary = tmp / "not-utf8.txt"
    binary.write_bytes(b"\xff\xfe\x00garbage\n")
    empty = tmp / "empty.data"
    empty.write_bytes(b"")
    attacks = (*CLI_ATTACKS, ("solve-bench", str(binary)), ("uci-check", "--data", str(empty)))
    for arguments in attacks:
        start = time.perf_counter()
        try:
            done = subprocess.run(
                [sys.executable, "-m", "gamesearch", *arguments],
                capture_output=True,
                text=True,
                timeout=60,
                stdin=subprocess.DEVNULL,
            )
            got = f"exit {done.returncode}" + (" (traceback)" if "Traceback" in done.stderr else "")
            passed = done.returncode == 2 and "Traceback" not in done.stderr
        except subprocess.TimeoutExpired:
            got, passed = "still running after 60 s", False
        yield Row(
            "gamesearch " + " ".join(arguments), "exit 2", got, time.perf_counter() - start, passed
        )


# ------------------------------------------------------------- the run
def probe(*, with_cli: bool) -> dict[str, Any]:
    """Run every attack and return the report (rows, figures, summary)."""
    port = free_port()
    server = start_server(port)
    try:
        memory_at_start = memory_mb(server.pid)
        rows = [run_attack(port, attack) for attack in api_attacks()]
        figures = {
            "slow_headers": slow_headers(port),
            "dribbled_body": dribbled_body(port),
            "abandoned_searches": abandoned_searches(port),
            "board_sizes": board_sizes(port),
        }
        alive = health_latency(port) is not None
        memory_at_end = memory_mb(server.pid)
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
    if with_cli:
        tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"gamesearch-probe-{os.getpid()}"
        tmp.mkdir(exist_ok=True)
        rows.extend(cli_rows(tmp))
    passed = sum(row.passed for row in rows)
    connection_ok = all(figure.get("passed", True) for figure in figures.values())
    return {
        "attacks": len(rows),
        "passed": passed,
        "server_alive": alive,
        "memory_mb": {"start": round(memory_at_start), "end": round(memory_at_end)},
        "figures": figures,
        "all_passed": passed == len(rows)
        and alive
        and connection_ok
        and figures["board_sizes"]["all_answered"],
        "rows": [attrs.asdict(row) for row in rows],
    }


def print_report(report: dict[str, Any]) -> None:
    """Print the report as a table and a summary."""
    from rich.console import Console
    from rich.table import Table

    table = Table("attack", "expected", "got", "s", "ok")
    for row in report["rows"]:
        table.add_row(
            row["name"],
            row["expected"],
            row["got"],
            f"{row['seconds']:.2f}",
            "yes" if row["passed"] else "NO",
        )
    console = Console()
    console.print(table)
    for name, figure in report["figures"].items():
        console.print(f"{name}: {figure}")
    console.print(
        f"{report['passed']} of {report['attacks']} attacks refused as they should be; server "
        "alive: "
        f"{'yes' if report['server_alive'] else 'NO'}; server memory "
        f"{report['memory_mb']['start']} MiB at "
        f"start, {report['memory_mb']['end']} MiB at the end (workers included)"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the probe; return 0 when every attack was refused as it should be, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.add_argument("--no-cli", action="store_true", help="leave out the command-line attacks")
    arguments = parser.parse_args(argv)
    report = probe(with_cli=not arguments.no_cli)
    if arguments.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 0 if report["all_passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
