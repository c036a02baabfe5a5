"""The ``gamesearch serve`` command: help, errors, and a real server process."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from benchmarks.load_check import main as load_check
from gamesearch.cli import main
from gamesearch.web.server import bind, is_loopback, url_of

GAMESEARCH = Path(sys.executable).with_name("gamesearch")


def test_serve_help_explains_the_budget_and_gives_an_example(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--help"])
    assert exit_info.value.code == 0
    help_text = capsys.readouterr().out
    assert "--max-nodes" in help_text and "--max-seconds" in help_text
    assert "gamesearch serve --open" in help_text


def test_serve_on_a_port_in_use_is_one_line_and_exit_status_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    taken = bind("127.0.0.1", 0)
    try:
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    finally:
        taken.close()
    error = capsys.readouterr().err
    assert error.startswith(f"gamesearch: error: cannot listen on 127.0.0.1:{port}: ")
    assert error.count("\n") == 1


def test_serve_without_the_web_extra_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # makes `import uvicorn` fail
    assert main(["serve"]) == 2
    assert "pip install 'gamesearch[web]'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("127.0.0.1", True),
        ("127.8.0.1", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("192.168.1.4", False),
        ("example.org", False),
    ],
)
def test_only_loopback_addresses_count_as_this_machine_only(host: str, expected: bool) -> None:
    assert is_loopback(host) is expected


@pytest.mark.slow
def test_the_console_script_serves_the_api_until_interrupted() -> None:
    process = subprocess.Popen(
        [str(GAMESEARCH), "serve", "--port", "0", "--max-nodes", "5000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        first_line = process.stdout.readline()
        assert first_line.startswith("gamesearch board on http://127.0.0.1:"), first_line
        url = first_line.split()[3]
        with urllib.request.urlopen(f"{url}/api/health", timeout=30) as response:
            health = json.load(response)
        assert health["limits"]["max_nodes"] == 5000
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
    assert process.returncode == 0


def test_url_of_a_bound_socket_names_its_port() -> None:
    sock = bind("127.0.0.1", 0)
    try:
        assert url_of(sock) == f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        sock.close()


@pytest.mark.slow
def test_load_check_reports_requests_per_second_and_the_slowest_response(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = load_check(["--requests", "24", "--concurrency", "4", "--long-seconds", "0.5"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "24 of 24" in out
    assert "requests per second" in out and "slowest response (ms)" in out
    assert "long search (5x5, k=4, iterative) │ status 200" in out.replace("  ", "")


def test_load_check_refuses_a_count_below_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert load_check(["--requests", "0"]) == 2
    assert "--requests must be >= 1: 0" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--max-seconds", "nan"], "limit 'seconds' must be a finite number > 0: nan"),
        (["--max-seconds", "inf"], "limit 'seconds' must be a finite number > 0: inf"),
        (["--port", "70000"], "port must be from 0 to 65535: 70000"),
    ],
)
def test_serve_refuses_a_budget_that_is_not_finite_and_a_port_out_of_range(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", *arguments]) == 2
    assert capsys.readouterr().err == f"gamesearch: error: {message}\n"


@pytest.mark.slow
def test_load_check_measures_health_requests_too(capsys: pytest.CaptureFixture[str]) -> None:
    status = load_check(
        [
            "--target",
            "health",
            "--requests",
            "40",
            "--concurrency",
            "4",
            "--long-seconds",
            "0.5",
        ]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    assert "health requests answered" in out and "40 of 40" in out


def start_serve(*arguments: str, files: int | None = None) -> tuple[subprocess.Popen[str], str]:
    """Start ``gamesearch serve`` on a free port (under an open-file limit of ``files``)."""
    import resource

    def limit_files() -> None:
        if files is not None:
            resource.setrlimit(
                resource.RLIMIT_NOFILE, (files, resource.getrlimit(resource.RLIMIT_NOFILE)[1])
            )

    process = subprocess.Popen(
        [str(GAMESEARCH), "serve", "--port", "0", *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=limit_files,
    )
    assert process.stdout is not None
    first_line = process.stdout.readline()
    assert first_line.startswith("gamesearch board on http://127.0.0.1:"), first_line
    threading.Thread(target=process.stdout.read, daemon=True).start()  # the access log
    return process, first_line.split()[3]


@pytest.mark.slow
def test_unfinished_connections_past_the_open_file_limit_lock_nobody_out() -> None:
    process, url = start_serve(files=256)
    port = int(url.rsplit(":", 1)[1])
    attackers: list[socket.socket] = []
    try:
        for _ in range(300):  # more connections than the server may open files
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            attackers.append(sock)
        started = time.monotonic()
        with urllib.request.urlopen(f"{url}/api/health", timeout=10) as response:
            assert json.load(response)["status"] == "ok"
        assert time.monotonic() - started < 5
    finally:
        for sock in attackers:
            sock.close()
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
    assert process.returncode == 0


@pytest.mark.slow
def test_ctrl_c_stops_the_server_while_a_long_search_runs() -> None:
    process, url = start_serve("--max-seconds", "60")
    body = json.dumps(
        {"game": "connect4", "searcher": "iterative", "searcher_options": {"seconds": 60}}
    ).encode()
    request = urllib.request.Request(
        f"{url}/api/analyze", data=body, headers={"content-type": "application/json"}
    )
    searching = threading.Thread(target=lambda: _ignore_errors(request), daemon=True)
    try:
        searching.start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with urllib.request.urlopen(f"{url}/api/health", timeout=10) as response:
                if json.load(response)["searches_in_flight"]:
                    break
            time.sleep(0.05)
        interrupted = time.monotonic()
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
        assert time.monotonic() - interrupted < 10
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0


def _ignore_errors(request: urllib.request.Request) -> None:
    try:
        urllib.request.urlopen(request, timeout=60).close()
    except OSError:
        pass
