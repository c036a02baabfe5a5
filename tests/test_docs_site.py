"""The documentation site: built with warnings as errors, an API page for every public module,
nothing loaded from another host, and tables that fit a 1,280-pixel window in Chromium."""

from __future__ import annotations

import fcntl
import functools
import http.server
import os
import pkgutil
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

import gamesearch

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"
#: modules whose interface is not Python: the command line (docs/cli.md) and the benchmark
#: suite (docs/benchmarks.md)
NOT_API = ("gamesearch.cli", "gamesearch.bench", "gamesearch.__main__")
#: an HTML tag that loads a resource: a script, a stylesheet, an image, a frame
RESOURCE = re.compile(r"<(?:script|link|img|iframe)\b[^>]*?\b(?:src|href)=\"(?P<url>[^\"]+)\"")


def public_modules() -> list[str]:
    """Return the importable names of gamesearch's public modules (no part starts with ``_``)."""
    names = ["gamesearch"] + [
        module.name for module in pkgutil.walk_packages(gamesearch.__path__, "gamesearch.")
    ]
    return sorted(
        name
        for name in names
        if not any(part.startswith("_") for part in name.split("."))
        and not name.startswith(NOT_API)
        and name != "gamesearch"
    )


def test_every_public_module_has_a_reference_section() -> None:
    documented = set(
        re.findall(
            r"^::: ([\w.]+)",
            "\n".join(page.read_text() for page in (ROOT / "docs" / "reference").glob("*.md")),
            re.MULTILINE,
        )
    )
    modules = public_modules()
    assert "gamesearch.notebook" in modules and "gamesearch.search.alphabeta" in modules
    # a package documented by its own __init__ (gamesearch.testing) counts
    missing = [
        name
        for name in modules
        if name not in documented and not any(other.startswith(name + ".") for other in documented)
    ]
    assert not missing, f"public modules with no ::: section in docs/reference/: {missing}"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return the directory of the site, built once per test run: pytest-xdist's workers
    share their run's temporary directory, and the first to get there builds it while the
    others wait on the lock. Fails the test when the build fails."""
    run = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run = run.parent  # one directory per worker under the run's own
    target = run / "docs-site"
    with (run / "docs-site.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        built = run / "docs-site.built"  # written once a build has passed
        if not built.exists():
            build_site(target)
            built.touch()
    return target


def build_site(target: Path) -> None:
    """Build the site into ``target`` with warnings as errors; raises AssertionError (with
    MkDocs' messages) when it fails."""
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(ROOT / "mkdocs.yml"),
            "--site-dir",
            str(target),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert build.returncode == 0, build.stderr


@pytest.mark.docs
def test_the_docs_site_builds_with_no_warnings_in_the_material_theme(site: Path) -> None:
    index = (site / "index.html").read_text()
    assert "md-typeset" in index  # Material for MkDocs
    assert (site / "reference" / "trace" / "index.html").exists()
    assert (site / "coursework" / "notebook.ipynb").exists()
    roles = sorted(
        {
            str(page.relative_to(site))
            for page in site.rglob("*.html")
            if re.search(r":(class|meth|func|attr):<code>", page.read_text())
        }
    )
    assert roles == []  # docstrings' Sphinx roles read as plain code names


@pytest.mark.docs
def test_no_page_loads_a_script_a_stylesheet_or_a_font_from_another_host(site: Path) -> None:
    remote = sorted(
        {
            (str(page.relative_to(site)), match.group("url"))
            for page in site.rglob("*.html")
            for match in RESOURCE.finditer(page.read_text())
            if urlsplit(match.group("url")).scheme in ("http", "https")
            or match.group("url").startswith("//")
        }
    )
    assert remote == []


@pytest.mark.docs
def test_code_is_highlighted_at_build_time(site: Path) -> None:
    page = (site / "write-a-game-plugin" / "index.html").read_text()
    assert 'class="highlight"' in page and '<span class="k">' in page  # Pygments' spans


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    handler = functools.partial(QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True
    )
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const tables = [...document.querySelectorAll("article table")];
  return {
    tables: tables.length,
    page: document.documentElement.scrollWidth - width,
    wide: tables
      .map((table) => ({
        head: table.rows[0] ? table.rows[0].innerText.slice(0, 60) : "",
        over: Math.max(table.scrollWidth - table.parentElement.clientWidth,
                       table.getBoundingClientRect().right - width),
      }))
      .filter((table) => table.over > 1),
  };
}"""


#: every address but this machine's test server (a regex, so that Chromium itself holds back
#: the local requests instead of asking the test about each one)
ELSEWHERE = re.compile(r"^(?!http://127\.0\.0\.1:\d+/)")
#: the search box's worker script and the index it reads (the whole site's text, 0.9 MB)
SEARCH = re.compile(r"/assets/javascripts/workers/|/search/search_index\.json$")


@pytest.mark.browser
@pytest.mark.docs
def test_tables_fit_a_1280_pixel_window_and_nothing_is_fetched_from_elsewhere(
    site: Path, served: str, chromium: Any
) -> None:
    outside: list[str] = []

    def keep_out(route: Any) -> None:
        outside.append(route.request.url)
        route.abort()

    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    try:
        context.set_default_timeout(30_000)
        context.route(ELSEWHERE, keep_out)
        # the search box (its worker loads and indexes the whole site's text again on every
        # page, and the page fetches that text for it) changes no layout: kept out, each
        # page loads in about half the time
        context.route(SEARCH, lambda route: route.abort())
        page = context.new_page()
        overflowing, tables = {}, {}
        for html in sorted(site.rglob("index.html")):
            path = html.parent.relative_to(site).as_posix() + "/"
            page.goto(f"{served}/{path.lstrip('.').lstrip('/')}", wait_until="load")
            found = page.evaluate(OVERFLOW)
            tables[path] = found["tables"]
            if found["wide"] or found["page"] > 1:
                overflowing[path] = found
            if path == "benchmarks/":
                ARTIFACTS.mkdir(exist_ok=True)
                page.locator("article table").nth(1).scroll_into_view_if_needed()
                page.screenshot(path=str(ARTIFACTS / "docs-benchmarks-1280.png"))
    finally:
        context.close()
    assert tables["benchmarks/"] >= 2 and sum(tables.values()) >= 10, tables
    assert overflowing == {}
    assert outside == []
