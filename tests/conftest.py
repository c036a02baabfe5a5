"""Shared fixtures and hypothesis settings."""

from __future__ import annotations

import gc
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# pytest-xdist's workers inherit COLUMNS from the run (80 when there is no terminal):
# the command line would then wrap its tables at that width, where a test run in one
# process sees the width of a pipe. Every test sees the same environment either way.
os.environ.pop("COLUMNS", None)
os.environ.pop("LINES", None)

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("ci", parent=settings.get_profile("default"), print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")
# The fast tier (`make test-fast` passes --hypothesis-profile=fast): a property test that
# names no example count of its own tries 25 examples instead of hypothesis' 100; the
# whole suite (`make test`) tries them all. A test that names its count keeps it.
settings.register_profile("fast", parent=settings(), max_examples=25)


# The browser tests share one headless Chromium per test session (per pytest-xdist worker):
# launching it costs seconds, and the sync Playwright API runs one instance to a thread.

#: Debian's Chromium, which Playwright drives
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
#: its switches: headless, no sandbox or GPU, nothing fetched behind the tests' backs, and
#: the name rebound.test resolved to 127.0.0.1 (test_web_hardening_browser.py's rebinding)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--host-resolver-rules=MAP rebound.test 127.0.0.1",
]


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """Yield the session's headless Chromium, a Playwright ``Browser``: a test opens its own
    context or page in it and closes it. Skips the test when Chromium or Playwright for
    Python is not installed."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    playwright_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright for Python is not installed"
    )
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


#: the window of the board page's tests
BOARD_WINDOW = {"width": 1280, "height": 1000}


@pytest.fixture(scope="session")
def board_context(chromium: Any) -> Iterator[Any]:
    """Yield the session's browser context for the board page's tests, a 1,280 x 1,000
    window whose tabs the tests reuse (``test_web_e2e.page``): a new tab costs about a
    CPU-second (a renderer process, the page's scripts compiled afresh), a new board in an
    open tab a third of that.

    The tests' own probes (``wait_for_function`` with an expression) are evaluated as
    strings, which the page's Content-Security-Policy forbids to its own scripts, so the
    context bypasses it: ``test_web_board_edges.py`` plays with the policy in force.
    """
    context = chromium.new_context(viewport=BOARD_WINDOW, bypass_csp=True)
    try:
        yield context
    finally:
        context.close()


@pytest.fixture
def frozen_heap() -> Iterator[None]:
    """Move what the test process holds already (the modules, other tests' caches) out of the
    collector's sight for the test: each collection then walks what the test built, not the
    whole heap (9 s for the garbage sweep in a worker that had run the 4x4 Othello oracles;
    a tenth of a second a run for the benchmarks, which collect before each). Objects the
    test makes are new, so the collector still finds every one of them."""
    gc.freeze()
    yield
    gc.unfreeze()
