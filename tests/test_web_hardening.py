"""The web server against abusive requests: bad numbers and JSON, searches that will not
stop, clients that leave or dawdle, and requests from other origins and host names.

Every server here listens on 127.0.0.1; every loop is bounded in count and time.
"""

from __future__ import annotations

import json
import pickle
import re
import select
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from web_gate import gated_registry

pytest.importorskip("starlette", reason="the web extra is not installed")
from starlette.testclient import TestClient  # noqa: E402

from gamesearch.errors import InvalidOptionError  # noqa: E402
from gamesearch.web import server as server_module  # noqa: E402
from gamesearch.web.app import HostCheck, create_app, host_name  # noqa: E402
from gamesearch.web.server import BackgroundServer, guarded_protocol  # noqa: E402
from gamesearch.web.service import Limits, parse_body  # noqa: E402

SMALL = Limits(max_nodes=20_000, seconds=2.0, grace_seconds=1.0)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(
        create_app(gated_registry(), SMALL), base_url="http://127.0.0.1"
    ) as test_client:
        yield test_client


def post_raw(client: TestClient, path: str, content: bytes, **headers: str) -> Any:
    return client.post(
        path, content=content, headers={"content-type": "application/json", **headers}
    )


# ---------------------------------------------------------- numbers and JSON
BAD_BODIES = [
    (
        "/api/new",
        b'{"game": "tictactoe", "options": ' + b"[" * 1000 + b"]" * 1000 + b"}",
        400,
        r"nested 9 levels deep or more; at most 8 are allowed",
    ),
    (
        "/api/new",
        b'{"game": "tictactoe", "options": {"rows": ' + b"7" * 4_301 + b"}}",
        400,
        r"an integer of 4,301 digits is too long; at most 100 digits",
    ),
    (
        "/api/new",
        b'{"game": "tictactoe", "options": {"rows": Infinity}}',
        400,
        r"Infinity is not a number JSON allows",
    ),
    (
        "/api/new",
        b'{"game": "tictactoe", "options": {"rows": 1e400}}',
        400,
        r"number '1e400' is out of range",
    ),
    (
        "/api/new",
        b'{"game": "tictactoe", "options": {"rows": 3.7}}',
        422,
        r"option 'rows' must be an integer: 3.7",
    ),
    (
        "/api/new",
        b'{"game": "tictactoe", "options": {"rows": true}}',
        422,
        r"option 'rows' must be an integer: True",
    ),
    (
        "/api/analyze",
        b'{"game": "tictactoe", "searcher_options": {"seed": Infinity}}',
        400,
        r"Infinity is not a number JSON allows",
    ),
    (
        "/api/analyze",
        b'{"game": "tictactoe", "searcher": "iterative", "searcher_options": {"depth": 2.5}}',
        422,
        r"option 'depth' must be an integer or none: 2.5",
    ),
    (
        "/api/analyze",
        b'{"game": "tictactoe", "searcher": "iterative", "searcher_options": {"depth": NaN}}',
        400,
        r"NaN is not a number JSON allows",
    ),
    (
        "/api/analyze",
        b'{"game": "tictactoe", "searcher": "iterative", "searcher_options": {"depth": "nan"}}',
        422,
        r"option 'depth' must be an integer or none: 'nan'",
    ),
    (
        "/api/analyze",
        b'{"game": "tictactoe", "searcher": "mcts:exploration=nan"}',
        422,
        r"option 'exploration' must be a finite number: 'nan'",
    ),
    (
        "/api/analyze",
        b'{"game": "connect4", "searcher": "mcts:seconds=nan"}',
        422,
        r"option 'seconds' must be a finite number or none: 'nan'",
    ),
    (
        "/api/analyze",
        b'{"game": "connect4", "searcher": "mcts:seconds=inf"}',
        422,
        r"option 'seconds' must be a finite number or none: 'inf'",
    ),
    (
        "/api/analyze",
        b'{"game": "connect4", "searcher": "iterative", "searcher_options": {"max_nodes": NaN}}',
        400,
        r"NaN is not a number JSON allows",
    ),
    (
        "/api/analyze",
        b'{"game": "connect4", "searcher": "iterative", "searcher_options": {"max_nodes": 1e3}}',
        422,
        r"option 'max_nodes' must be an integer or none: 1000.0",
    ),
    (
        "/api/analyze",
        b'{"game": "tictactoe", "searcher": "alphabeta", "searcher_options": {"all_best": 5}}',
        422,
        r"option 'all_best' must be true or false: 5",
    ),
    (
        "/api/analyze",
        b'{"game": "tictactoe", "searcher": "alphabeta", "searcher_options": {"ordering": 3}}',
        422,
        r"option 'ordering' must be text: 3",
    ),
]


LENIENT_BODIES = [
    (
        "/api/new",
        '{"game": "tictactoe"}'.encode("utf-16"),
        400,
        r"must be JSON encoded as UTF-8 \(this one looks like UTF-16 or UTF-32",
    ),
    (
        "/api/new",
        '{"game": "tictactoe"}'.encode("utf-16-le"),  # no byte order mark
        400,
        r"must be JSON encoded as UTF-8 \(this one looks like UTF-16 or UTF-32",
    ),
    (
        "/api/new",
        '{"game": "tictactoe"}'.encode("utf-32"),
        400,
        r"must be JSON encoded as UTF-8 \(this one looks like UTF-16 or UTF-32",
    ),
    (
        "/api/new",
        '{"game": "tictac\u00e9"}'.encode("latin-1"),
        400,
        r"must be JSON encoded as UTF-8 \(its byte 16 is not\)",
    ),
    (
        "/api/new",
        b'{"game": "tictactoe", "game": "connect4"}',
        400,
        r"the request body gives 'game' twice in one object; give each key once",
    ),
    (
        "/api/new",
        b'{"game": "tictactoe", "options": {"rows": 3, "rows": 4}}',
        400,
        r"the request body gives 'rows' twice in one object",
    ),
    (
        "/api/analyze",
        b'{"game": "tictactoe", "searcher": "iterative", "searcher_options": {"seconds": 1e-300}}',
        422,
        r"option 'seconds' must be >= 0.001: 1e-300",
    ),
    (
        "/api/analyze",
        b'{"game": "tictactoe", "searcher": "iterative", '
        b'"searcher_options": {"seconds": "1e-300"}}',
        422,
        r"option 'seconds' must be >= 0.001: 1e-300",
    ),
    (
        "/api/analyze",
        b'{"game": "tictactoe", "searcher": "alphabeta", "searcher_options": {"depth": "1_0"}}',
        422,
        r"option 'depth' must be an integer or none: '1_0'",
    ),
    (
        "/api/new",
        b'{"game": "tictactoe", "options": {"rows": " 3 "}}',
        422,
        r"option 'rows' must be an integer: ' 3 '",
    ),
]


@pytest.mark.parametrize(("path", "content", "status", "message"), BAD_BODIES + LENIENT_BODIES)
def test_bad_numbers_and_deep_json_get_a_clear_json_error(
    client: TestClient, path: str, content: bytes, status: int, message: str
) -> None:
    started = time.monotonic()
    response = post_raw(client, path, content)
    assert time.monotonic() - started < 10
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    assert re.search(message, response.json()["error"]), response.json()


@pytest.mark.parametrize("charset", ["utf-16", "UTF-32", "latin-1"])
def test_a_body_declared_in_another_encoding_than_utf8_is_refused(
    client: TestClient, charset: str
) -> None:
    content = b'{"game": "tictactoe"}'
    response = post_raw(
        client, "/api/new", content, **{"content-type": f"application/json; charset={charset}"}
    )
    assert response.status_code == 415, response.text
    assert f"must be UTF-8 JSON, not {charset.lower()!r}" in response.json()["error"]
    response = post_raw(
        client, "/api/new", content, **{"content-type": "application/json; charset=utf-8"}
    )
    assert response.status_code == 200, response.text


def test_the_shortest_time_budget_is_taken(client: TestClient) -> None:
    body = b'{"game": "tictactoe", "searcher": "iterative", "searcher_options": {"seconds": 0.001}}'
    assert post_raw(client, "/api/analyze", body).status_code == 200


def test_integer_and_text_options_that_are_whole_numbers_are_still_taken(
    client: TestClient,
) -> None:
    response = client.post(
        "/api/new", json={"game": "tictactoe", "options": {"rows": "4", "cols": 4, "k": 3}}
    )
    assert response.status_code == 200, response.text
    assert response.json()["options"] == {"rows": 4, "cols": 4, "k": 3}


def test_parse_body_reads_a_json_object_and_nothing_else() -> None:
    assert parse_body(b'{"game": "tictactoe", "options": {"rows": 3}}') == {
        "game": "tictactoe",
        "options": {"rows": 3},
    }
    with pytest.raises(
        InvalidOptionError.__mro__[1], match=r"-Infinity is not a number JSON allows"
    ):
        parse_body(b'{"seconds": -Infinity}')


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("seconds", float("nan"), r"limit 'seconds' must be a finite number > 0: nan"),
        ("seconds", float("inf"), r"limit 'seconds' must be a finite number > 0: inf"),
        ("max_nodes", 2.5, r"limit 'max_nodes' must be a whole number >= 1: 2.5"),
        ("workers", True, r"limit 'workers' must be a whole number >= 1: True"),
    ],
)
def test_server_limits_must_be_finite_and_whole(field: str, value: Any, message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        Limits(**{field: value})


# --------------------------------------------------- searches that overrun
@pytest.mark.slow
def test_a_searcher_that_ignores_its_budget_is_stopped_and_its_worker_replaced() -> None:
    limits = Limits(seconds=0.5, grace_seconds=0.5, workers=1)
    with TestClient(
        create_app(gated_registry(), limits), base_url="http://127.0.0.1"
    ) as small_client:
        started = time.monotonic()
        response = small_client.post(
            "/api/analyze", json={"game": "tictactoe", "searcher": "stubborn"}
        )
        taken = time.monotonic() - started
        assert response.status_code == 422, response.text
        assert response.json()["error"] == (
            "search stopped: it was still running 0.5 s after this server's time limit of 0.5 s; "
            "set a depth or use the 'iterative' searcher"
        )
        assert taken < 10
        follow_up = small_client.post(
            "/api/analyze", json={"game": "tictactoe", "position": "X.O/.X./..."}
        )
        assert follow_up.status_code == 200
        assert follow_up.json()["best_moves"] == ["8"]


# ------------------------------------------------------------ memory, tables
def test_board_size_tables_are_kept_for_a_few_sizes_only(client: TestClient) -> None:
    from gamesearch_games import tictactoe_fast as tictactoe
    from gamesearch_games.connect4 import geometry as connect4

    # two sizes more than are kept, all small: the cache that keeps the 4x4 board's tables
    # (a fifth of a second to build) keeps these, which take a millisecond
    sizes = [(2, 2, 1), (2, 2, 2), (2, 3, 1), (2, 3, 2), (2, 3, 3), (3, 2, 2), (3, 2, 3)]
    for rows, cols, k in sizes[: tictactoe.GEOMETRIES_KEPT + 2]:
        response = client.post(
            "/api/new", json={"game": "tictactoe", "options": {"rows": rows, "cols": cols, "k": k}}
        )
        assert response.status_code == 200
    assert tictactoe._geometry.cache_info().currsize <= tictactoe.GEOMETRIES_KEPT
    for width in range(4, 10):
        client.post("/api/new", json={"game": "connect4", "options": {"width": width, "height": 6}})
    assert connect4.geometry_for.cache_info().currsize <= connect4.GEOMETRIES_KEPT


def test_a_4x4_tic_tac_toe_position_pickles_without_its_tables() -> None:
    from gamesearch_games.tictactoe import TicTacToe

    game = TicTacToe.from_text("X.../.O../..X./....")
    data = pickle.dumps(game)
    assert len(data) < 1_000
    copy = pickle.loads(data)
    assert copy.to_text() == game.to_text()
    assert list(copy.legal_moves()) == list(game.legal_moves())
    copy.push(3)
    assert copy.to_text() == "X..O/.O../..X./...." and game.to_text() == "X.../.O../..X./...."


# ---------------------------------------------------------- real server
def request_bytes(method: str, path: str, body: bytes = b"", **headers: str) -> bytes:
    lines = [
        f"{method} {path} HTTP/1.1",
        *(f"{name.replace('_', '-')}: {value}" for name, value in headers.items()),
    ]
    if body:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def exchange(url: str, raw: bytes, timeout: float = 30) -> tuple[int, bytes]:
    """Send ``raw`` on a new connection; return the status and body of the answer."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        sock.sendall(raw)
        data = b""
        while b"\r\n\r\n" not in data or len(data.partition(b"\r\n\r\n")[2]) < _length(data):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def _length(data: bytes) -> int:
    match = re.search(rb"content-length: (\d+)", data.partition(b"\r\n\r\n")[0], re.IGNORECASE)
    return int(match.group(1)) if match else 0


def health_seconds(url: str) -> float:
    started = time.monotonic()
    with urllib.request.urlopen(f"{url}/api/health", timeout=30) as response:
        assert json.load(response)["status"] == "ok"
    return time.monotonic() - started


def wait_until(check: Any, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return False


def in_flight(url: str) -> int:
    with urllib.request.urlopen(f"{url}/api/health", timeout=30) as response:
        count: int = json.load(response)["searches_in_flight"]
    return count


def test_clients_that_disconnect_free_their_workers_and_leave_the_queue(tmp_path: Path) -> None:
    stem = tmp_path / "gate"
    app = create_app(gated_registry(), Limits(workers=2, seconds=30.0))
    body = json.dumps(
        {"game": "tictactoe", "searcher": "gate", "searcher_options": {"path": str(stem)}}
    ).encode()
    with BackgroundServer(app) as url:
        host, port = url.removeprefix("http://").split(":")
        clients = []
        for _ in range(8):  # two searching, six waiting for a worker
            sock = socket.create_connection((host, int(port)), timeout=30)
            sock.sendall(
                request_bytes(
                    "POST", "/api/analyze", body, Host=host, Content_Type="application/json"
                )
            )
            clients.append(sock)
        assert wait_until(lambda: (tmp_path / "gate.started").exists() and in_flight(url) == 8)
        for sock in clients:
            sock.close()
        left = time.monotonic()
        assert wait_until(lambda: in_flight(url) == 0, 10)
        freed = time.monotonic() - left
        # the workers answer the next search at once: the gate never opened
        status, answer = exchange(
            url,
            request_bytes(
                "POST",
                "/api/analyze",
                b'{"game": "tictactoe", "position": "X.O/.X./..."}',
                Host=host,
                Content_Type="application/json",
            ),
        )
        assert status == 200 and json.loads(answer)["best_moves"] == ["8"]
        with urllib.request.urlopen(f"{url}/api/health", timeout=30) as response:
            # the two running, and any waiting one that took a freed worker before its own leaving
            # was seen
            assert 2 <= json.load(response)["searches_stopped"] <= 8
    assert freed < 5
    print(f"8 abandoned searches: workers free {freed * 1000:.0f} ms after the clients left")


#: a server with short deadlines for slow clients (uvicorn counts the kept-alive wait in
#: whole seconds)
SLOW = Limits(header_seconds=0.5, body_seconds=0.5, keep_alive_seconds=1.0, max_connections=40)


@pytest.mark.slow
def test_connections_that_never_finish_their_headers_lock_nobody_out() -> None:
    with BackgroundServer(create_app(limits=SLOW)) as url:
        host, port = url.removeprefix("http://").split(":")
        attackers = []
        try:
            for _ in range(200):  # five times the connection cap
                sock = socket.create_connection((host, int(port)), timeout=10)
                sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                attackers.append(sock)
            latencies = [health_seconds(url) for _ in range(5)]
            # each unfinished connection is closed: shed for a newer one, or out of time
            deadline = time.monotonic() + 10
            for sock in attackers:
                assert closed_by_server(sock, max(0.1, deadline - time.monotonic()))
        finally:
            for sock in attackers:
                sock.close()
    assert max(latencies) < 2.0
    print(f"/api/health under 200 unfinished connections: slowest {max(latencies) * 1000:.0f} ms")


@pytest.mark.slow
def test_a_flood_from_one_client_costs_that_client_its_connections_not_the_health_probe() -> None:
    # the probe connects first and asks only after a flood from another loopback address
    # (127.0.0.2) has opened three times the connection cap: the longest-waiting
    # connection of all is the probe's, but the flooding client holds the most
    flood_limits = attrs.evolve(SLOW, header_seconds=10.0, keep_alive_seconds=10.0)
    with BackgroundServer(create_app(limits=flood_limits)) as url:
        host, port = url.removeprefix("http://").split(":")
        flood: list[socket.socket] = []
        with socket.create_connection((host, int(port)), timeout=10) as probe:
            try:
                for _ in range(3 * flood_limits.max_connections):
                    sock = socket.create_connection(
                        (host, int(port)), timeout=10, source_address=("127.0.0.2", 0)
                    )
                    sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                    flood.append(sock)
                time.sleep(0.5)  # the server has seen every flood connection by now
                probe.sendall(request_bytes("GET", "/api/health", Host=host))
                probe.settimeout(10)
                answer = b""
                while b'"status"' not in answer:
                    chunk = probe.recv(65536)
                    assert chunk, "the server closed the probe's connection"
                    answer += chunk
                assert answer.startswith(b"HTTP/1.1 200 ")
                assert health_seconds(url) < 5.0  # a new client gets in during the flood too
                open_flood = sum(not closed_by_server(sock, 0) for sock in flood)
                assert open_flood <= flood_limits.max_connections
            finally:
                for sock in flood:
                    sock.close()


@pytest.mark.slow
def test_a_body_sent_one_byte_at_a_time_is_dropped() -> None:
    with BackgroundServer(create_app(limits=SLOW)) as url:
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(
                b"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100\r\n\r\n"
            )
            started, closed = time.monotonic(), False
            for _ in range(100):  # 100 bytes at 0.1 s: 10 s if nobody stops it
                try:
                    sock.sendall(b" ")
                except OSError:
                    closed = True
                    break
                if closed_by_server(sock, 0.1):
                    closed = True
                    break
            taken = time.monotonic() - started
        assert health_seconds(url) < 2.0
    assert closed and taken < 5


def closed_by_server(sock: socket.socket, seconds: float) -> bool:
    """Return whether the server closes ``sock`` within ``seconds`` (sending nothing)."""
    if not select.select([sock], [], [], seconds)[0]:
        return False
    try:
        return sock.recv(100) == b""
    except ConnectionResetError:
        return True


@pytest.mark.slow
def test_an_idle_kept_alive_connection_is_closed() -> None:
    with BackgroundServer(create_app(limits=SLOW)) as url:
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(request_bytes("GET", "/api/health", Host=host))
            sock.settimeout(10)
            data = b""
            while b'"status"' not in data:
                data += sock.recv(65536)
            assert closed_by_server(sock, 5)


# ------------------------------------------------------------- origins, hosts
def test_writes_from_other_origins_and_other_content_types_are_refused(tmp_path: Path) -> None:
    stem = tmp_path / "gate"
    body = json.dumps(
        {"game": "tictactoe", "searcher": "gate", "searcher_options": {"path": str(stem)}}
    ).encode()
    app = create_app(
        gated_registry(), Limits(seconds=5.0), allowed_origins=["http://localhost:3000"]
    )
    with BackgroundServer(app) as url:
        host = url.removeprefix("http://")
        refused = [
            exchange(
                url,
                request_bytes(
                    "POST",
                    "/api/analyze",
                    body,
                    Host=host,
                    Content_Type="application/json",
                    Origin="http://evil.test",
                ),
            ),
            exchange(
                url,
                request_bytes(
                    "POST",
                    "/api/analyze",
                    body,
                    Host=host,
                    Content_Type="application/json",
                    Origin="null",
                ),
            ),
            exchange(
                url,
                request_bytes("POST", "/api/analyze", body, Host=host, Content_Type="text/plain"),
            ),
            exchange(url, request_bytes("POST", "/api/analyze", body, Host=host)),
        ]
        assert not (tmp_path / "gate.started").exists()
        open_body = json.dumps({"game": "tictactoe", "position": "X.O/.X./..."}).encode()
        own = exchange(
            url,
            request_bytes(
                "POST",
                "/api/analyze",
                open_body,
                Host=host,
                Content_Type="application/json; charset=utf-8",
                Origin=url,
            ),
        )
        listed = exchange(
            url,
            request_bytes(
                "POST",
                "/api/analyze",
                open_body,
                Host=host,
                Content_Type="application/json",
                Origin="http://localhost:3000",
            ),
        )
    statuses = [status for status, _ in refused]
    assert statuses == [403, 403, 415, 415]
    assert json.loads(refused[0][1])["error"].startswith(
        "requests from pages of 'http://evil.test' are refused"
    )
    assert (
        json.loads(refused[2][1])["error"]
        == "the request body must be sent as 'application/json', not 'text/plain'"
    )
    assert (own[0], listed[0]) == (200, 200)


@pytest.mark.parametrize("host", ["evil.test", "rebound.example:8000", "127.0.0.1.nip.example"])
def test_an_unexpected_host_name_is_refused(host: str) -> None:
    with BackgroundServer(create_app()) as url:
        status, body = exchange(url, request_bytes("GET", "/api/health", Host=host))
        assert status == 400
        assert json.loads(body)["error"].startswith(
            f"requests for the host name {host!r} are refused"
        )
        for name in ("127.0.0.1", "localhost", url.removeprefix("http://")):
            assert exchange(url, request_bytes("GET", "/api/health", Host=name))[0] == 200


@pytest.mark.parametrize(
    ("header", "name"),
    [
        ("127.0.0.1:8000", "127.0.0.1"),
        ("LocalHost", "localhost"),
        ("[::1]:8000", "::1"),
        ("[::1]", "::1"),
        ("::1", "::1"),
        ("evil.test:80", "evil.test"),
        ("", ""),
    ],
)
def test_the_host_name_is_read_without_its_port(header: str, name: str) -> None:
    assert host_name(header) == name


def test_host_patterns_allow_the_names_under_a_domain_or_any_name() -> None:
    check = HostCheck(create_app(), ["127.0.0.1", "*.example.org"])
    assert [
        check.allows(header)
        for header in (
            "127.0.0.1:80",
            "a.example.org",
            "b.a.example.org:8000",
            "example.org",
            "evil.test",
            "example.org.evil.test",
        )
    ] == [True, True, True, False, False, False]
    assert HostCheck(create_app(), ["*"]).allows("anything.test")


# ---------------------------------------------------------- property: any body
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

POST_ROUTES = ["/api/new", "/api/position", "/api/play", "/api/analyze", "/api/move", "/api/tree"]
VALUES = (
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(
        [
            "tictactoe",
            "connect4",
            "nim",
            "mcts",
            "iterative",
            "alphabeta:depth=2",
            "minimax",
            "nan",
            "inf",
            "-1",
            "0",
            "4",
            "X.O/.X./...",
            "4453",
            ".../.../...",
            "",
            "seconds=nan",
        ]
    )
    | st.text(max_size=30)
)
JSON = st.recursive(
    VALUES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
OPTION_NAMES = st.sampled_from(
    [
        "rows",
        "cols",
        "k",
        "width",
        "height",
        "depth",
        "max_depth",
        "max_nodes",
        "seconds",
        "exploration",
        "seed",
        "all_best",
        "table",
        "table_entries",
        "ordering",
        "simulations",
    ]
)
BODIES = (
    st.fixed_dictionaries(
        {},
        optional={
            "game": st.sampled_from(["tictactoe", "connect4", "nim"]) | JSON,
            "options": st.dictionaries(OPTION_NAMES, VALUES, max_size=3) | JSON,
            "position": VALUES,
            "move": VALUES,
            "searcher": st.sampled_from(
                ["alphabeta", "minimax", "iterative", "mcts", "pvs", "mtdf", "solver"]
            )
            | VALUES,
            "searcher_options": st.dictionaries(OPTION_NAMES, VALUES, max_size=3) | JSON,
        },
    )
    | JSON
)
FUZZ = Limits(max_nodes=5_000, seconds=0.3, grace_seconds=1.0, tree_nodes=300)


def resident_mib() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096 / 2**20


@pytest.fixture(scope="module")
def fuzz_client() -> Iterator[TestClient]:
    with TestClient(
        create_app(limits=FUZZ), base_url="http://127.0.0.1", raise_server_exceptions=False
    ) as test_client:
        yield test_client


@pytest.mark.slow
@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(route=st.sampled_from(POST_ROUTES), body=BODIES)
def test_any_json_body_gets_a_json_answer_and_never_a_server_error(
    fuzz_client: TestClient, route: str, body: Any
) -> None:
    response = fuzz_client.post(
        route, content=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    assert 200 <= response.status_code < 500, (route, body, response.text)
    assert response.headers["content-type"] == "application/json"
    answer = response.json()
    assert isinstance(answer, dict)
    if response.status_code >= 400:
        assert set(answer) == {"error", "type"} and answer["error"]


@pytest.mark.slow
def test_the_property_run_keeps_the_servers_memory_bounded(fuzz_client: TestClient) -> None:
    before = resident_mib()
    test_any_json_body_gets_a_json_answer_and_never_a_server_error(fuzz_client)
    assert resident_mib() - before < 200


# ---------------------------------------------------------- uvicorn's internals
def test_the_installed_uvicorn_has_the_protocol_the_request_deadlines_extend() -> None:
    # the deadlines extend uvicorn's h11 protocol class: an upgrade that changes it fails here
    assert guarded_protocol(Limits()) is not None


def test_a_uvicorn_without_that_protocol_still_serves_under_a_connection_cap(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(server_module, "PROTOCOL_NEEDS", ("a_method_no_uvicorn_has",))
    assert guarded_protocol(Limits()) is None
    with caplog.at_level("WARNING", logger="gamesearch.web"), BackgroundServer(create_app()) as url:
        status, body = exchange(url, request_bytes("GET", "/api/health", Host="127.0.0.1"))
    assert status == 200 and json.loads(body)["status"] == "ok"
    assert "limited by the connection cap only" in caplog.text
