"""``python -m benchmarks.load_check``: many concurrent analyse requests while one long search
runs.

A benchmark command, not a test: it starts ``gamesearch serve`` on a free port of
127.0.0.1 (this machine only) in a child process, starts one long search, then sends
a bounded number of small analyse requests from a pool of client threads, stopping
early when a time bound is reached. It prints requests per second and response
times, and exits with status 1 if any request failed.
"""

from __future__ import annotations

import argparse
import json
import random
import select
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any

from gamesearch.cli._output import check_at_least, console, milliseconds, progress, table
from gamesearch.errors import GameSearchError, ServeError
from gamesearch.plugins import default_registry
from gamesearch.web.server import require_web_extra
from gamesearch.web.service import Limits

#: the most requests and seconds one run may use, whatever is asked
MAX_REQUESTS = 20_000
MAX_SECONDS = 300.0
#: the long search: iterative deepening on a 5x5 board, four in a row, until its time is up
LONG_SEARCH = {
    "game": "tictactoe",
    "options": {"rows": 5, "cols": 5, "k": 4},
    "searcher": "iterative",
}


def build_parser() -> argparse.ArgumentParser:
    """Return the command's argument parser."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.load_check",
        description="Start `gamesearch serve` on 127.0.0.1, run one long search, and meanwhile "
        "send many small analyse requests from concurrent clients; report requests per second "
        "and the slowest response. Loopback only; bounded in requests and in time.",
        epilog="example:\n  python -m benchmarks.load_check --requests 500 --concurrency 16 "
        "--long-seconds 5",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--requests",
        type=int,
        default=500,
        help=f"analyse requests to send (at most {MAX_REQUESTS:,}; default: 500)",
    )
    parser.add_argument(
        "--concurrency", type=int, default=16, help="client threads sending at once (default: 16)"
    )
    parser.add_argument(
        "--long-seconds",
        type=float,
        default=5.0,
        help="time budget of the long search; 0: no long search, for comparison (default: 5)",
    )
    parser.add_argument(
        "--duration",
        type=float,
        default=60.0,
        help=f"stop sending after this many seconds (at most {MAX_SECONDS:g}; default: 60)",
    )
    parser.add_argument(
        "--workers", type=int, default=2, help="the server's search workers (default: 2)"
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="seed of the random positions analysed (default: 1)"
    )
    parser.add_argument(
        "--target",
        choices=("analyze", "health"),
        default="analyze",
        help="what the clients ask: small analyse requests, or GET /api/health (default: analyze)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the load check with the command line ``argv``; return the exit status (2 and one
    line on standard error for a bad argument)."""
    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except GameSearchError as error:
        print(f"load_check: error: {error}", file=sys.stderr)
        return 2


def post(url: str, body: dict[str, Any] | None, timeout: float) -> tuple[int, float, Any]:
    """Return the status, the seconds taken and the JSON answer of one POST request
    (a GET request when ``body`` is None)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"content-type": "application/json"})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, answer = response.status, json.load(response)
    except urllib.error.HTTPError as error:
        status, answer = error.code, json.load(error)
    except (OSError, ValueError) as error:  # refused, reset, timed out, not JSON
        status, answer = 0, {"error": str(error)}
    return status, time.perf_counter() - started, answer


def small_positions(count: int, seed: int) -> list[str]:
    """Return ``count`` tic-tac-toe positions after 2 to 5 random moves (quick to solve)."""
    chooser = random.Random(seed)
    registry = default_registry()
    positions = []
    for _ in range(count):
        game = registry.new_game("tictactoe")
        for _ in range(chooser.randint(2, 5)):
            game.push(chooser.choice(game.legal_moves()))
        positions.append(game.to_text())
    return positions


def start_server(args: argparse.Namespace) -> tuple[subprocess.Popen[str], str]:
    """Return a ``gamesearch serve`` child process on a free loopback port, and its URL.

    :raises ServeError: when it does not announce its address within 30 s.
    """
    command = [
        sys.executable,
        "-m",
        "gamesearch",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--max-seconds",
        str(args.long_seconds or Limits().seconds),
        "--workers",
        str(args.workers),
    ]
    with tempfile.TemporaryFile("w+") as log:  # the server's log, read only if it fails to start
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True)
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], 30)
        line = process.stdout.readline() if ready else ""
        if not line.startswith("gamesearch board on http://127.0.0.1:"):
            process.kill()
            process.wait()
            log.seek(0)
            reason = (log.read().strip().splitlines() or ["no answer in 30 s"])[-1]
            raise ServeError(f"the server did not start: {reason}")
    # the access log goes on arriving: read it, or the server blocks once the pipe is full
    threading.Thread(target=process.stdout.read, daemon=True).start()
    return process, line.split()[3]


def run(args: argparse.Namespace) -> int:
    require_web_extra()
    check_at_least("--requests", args.requests)
    check_at_least("--concurrency", args.concurrency)
    check_at_least("--workers", args.workers)
    requests = min(args.requests, MAX_REQUESTS)
    duration = min(args.duration, MAX_SECONDS)
    timeout = args.long_seconds * 4 + 30
    positions = small_positions(requests, args.seed)
    process, url = start_server(args)
    try:
        long_done = threading.Event()
        long_answer: list[tuple[int, float, Any]] = []

        def long_search() -> None:
            body = {**LONG_SEARCH, "searcher_options": {"seconds": args.long_seconds}}
            long_answer.append(post(f"{url}/api/analyze", body, timeout))
            long_done.set()

        if args.long_seconds > 0:
            threading.Thread(target=long_search, daemon=True).start()
            _wait_for_a_search(url)
        else:
            long_done.set()
        results, elapsed, overlapped = _send(
            url, positions, args.concurrency, duration, timeout, long_done, args.target
        )
        long_done.wait(timeout)
    finally:
        process.terminate()
        process.wait(timeout=30)
    return _report(args, results, elapsed, overlapped, long_answer)


def _wait_for_a_search(url: str) -> None:
    """Return once the server reports a search in flight (the long one), or after 30 s."""
    deadline = time.perf_counter() + 30
    while time.perf_counter() < deadline:
        with urllib.request.urlopen(f"{url}/api/health", timeout=30) as response:
            if json.load(response)["searches_in_flight"] > 0:
                return
        time.sleep(0.01)


def _send(
    url: str,
    positions: list[str],
    concurrency: int,
    duration: float,
    timeout: float,
    long_done: threading.Event,
    target: str = "analyze",
) -> tuple[list[tuple[int, float, Any]], float, int]:
    """Send the analyse requests; return the results, the seconds taken and how many were
    answered while the long search was running."""
    results: list[tuple[int, float, Any]] = []
    overlapped = 0
    started = time.perf_counter()
    pending: set[Future[tuple[int, float, Any]]] = set()
    queue = iter(positions)
    with (
        ThreadPoolExecutor(max_workers=concurrency) as pool,
        progress(f"{target} requests", len(positions)) as advance,
    ):
        while True:
            while len(pending) < concurrency and time.perf_counter() - started < duration:
                position = next(queue, None)
                if position is None:
                    break
                if target == "health":
                    pending.add(pool.submit(post, f"{url}/api/health", None, timeout))
                else:
                    body = {"game": "tictactoe", "position": position, "searcher": "alphabeta"}
                    pending.add(pool.submit(post, f"{url}/api/analyze", body, timeout))
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                results.append(future.result())
                overlapped += not long_done.is_set()
                advance(f"{len(results)} answered")
    return results, time.perf_counter() - started, overlapped


def _report(
    args: argparse.Namespace,
    results: list[tuple[int, float, Any]],
    elapsed: float,
    overlapped: int,
    long_answer: list[tuple[int, float, Any]],
) -> int:
    out = console()
    seconds = sorted(taken for _, taken, _ in results)
    failures = [(status, answer) for status, _, answer in results if status != 200]
    grid = table("load check (127.0.0.1)", ["measure", "value"])
    grid.add_row(
        f"{getattr(args, 'target', 'analyze')} requests answered",
        f"{len(results):,} of {args.requests:,}",
    )
    grid.add_row("concurrent clients / server workers", f"{args.concurrency} / {args.workers}")
    grid.add_row("failed requests", f"{len(failures):,}")
    grid.add_row("wall time (s)", f"{elapsed:.2f}")
    grid.add_row("requests per second", f"{len(results) / elapsed:,.1f}" if elapsed > 0 else "-")
    if seconds:
        grid.add_row("median response (ms)", milliseconds(statistics.median(seconds)))
        grid.add_row("95th percentile (ms)", milliseconds(seconds[int(0.95 * (len(seconds) - 1))]))
        grid.add_row("slowest response (ms)", milliseconds(seconds[-1]))
    if long_answer:
        status, taken, answer = long_answer[0]
        depth = answer.get("stats", {}).get("depth", "?")
        grid.add_row(
            "long search (5x5, k=4, iterative)", f"status {status}, {taken:.2f} s, depth {depth}"
        )
        grid.add_row("answered while the long search ran", f"{overlapped:,}")
    out.print(grid)
    for status, answer in failures[:5]:
        out.print(f"failed: status {status}: {answer.get('error')}")
    long_failed = args.long_seconds > 0 and (not long_answer or long_answer[0][0] != 200)
    return 1 if failures or long_failed else 0


if __name__ == "__main__":
    sys.exit(main())
