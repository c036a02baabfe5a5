"""The docs cannot drift: every transcript in them is run, every figure in their prose is checked.

In ``docs/**/*.md``:

- a ```` ```console ```` block is a transcript: each ``$ gamesearch ...`` line is run and
  its output must match the lines below it (``...`` stands for anything, e.g. a time);
- a ```` ```pycon ```` block is a Python session, run as a doctest; the blocks of one
  page share their names, in page order;
- on a page with checked blocks, a number of four digits or more in the prose
  (``549,946``) must appear in the output of a checked block of the same page, so a
  figure always has its command beside it (pages without any, such as option
  references, hold settings rather than measured figures);
- ```` ```sh ```` and ```` ```python ```` blocks are shown, not run.

The site itself is built with ``mkdocs build --strict`` (warnings are errors).
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from gamesearch.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(page for page in DOCS.rglob("*.md") if "examples" not in page.parts)
FENCE = re.compile(r"^```(?P<language>\w*)[^\n]*\n(?P<body>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
#: a figure: 1,234 or 12345 (not part of a word, a version or a decimal)
FIGURE = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d{4,})(?![\w]|[.,]\d)")
OPTIONS = doctest.ELLIPSIS


def fenced_blocks(page: Path, language: str) -> list[tuple[int, str]]:
    """Return ``(line number, body)`` of each ``language`` block of ``page``."""
    text = page.read_text()
    return [
        (text.count("\n", 0, match.start()) + 1, match.group("body"))
        for match in FENCE.finditer(text)
        if match.group("language") == language
    ]


def transcript(body: str) -> list[tuple[str, str]]:
    """Return ``(command, expected output)`` pairs of a console block."""
    steps: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
        elif line.strip():
            raise AssertionError(f"a console block must start with a '$ ' command: {line!r}")
    return [(command, "\n".join(output)) for command, output in steps]


def run_command(command: str) -> str:
    """Run a ``gamesearch`` command line in this process; return stdout (and stderr)."""
    argv = shlex.split(command.split("  #")[0])
    assert argv[0] == "gamesearch", f"console blocks run gamesearch commands only (use ```sh): {command!r}"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv[1:])
        except SystemExit as stop:
            status = int(stop.code or 0)
    assert status == 0, f"{command!r} exited with {status}: {err.getvalue()}"
    return out.getvalue()


def tidy(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines()) + "\n"


CONSOLE = [
    pytest.param(page, line, body, id=f"{page.relative_to(DOCS)}:{line}")
    for page in PAGES
    for line, body in fenced_blocks(page, "console")
]


@pytest.mark.parametrize(("page", "line", "body"), CONSOLE)
def test_every_console_transcript_in_the_docs_is_what_the_command_prints(page: Path, line: int, body: str) -> None:
    checker = doctest.OutputChecker()
    for command, expected in transcript(body):
        got = run_command(command)
        if not checker.check_output(tidy(expected), tidy(got), OPTIONS):
            pytest.fail(f"{page.name}:{line}: {command}\n" + checker.output_difference(
                doctest.Example(command, tidy(expected)), tidy(got), OPTIONS
            ))  # fmt: skip


PYCON = [pytest.param(page, id=str(page.relative_to(DOCS))) for page in PAGES if fenced_blocks(page, "pycon")]


@pytest.mark.parametrize("page", PYCON)
def test_every_python_session_in_the_docs_runs_as_shown(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # sessions name files from the top of the repository
    monkeypatch.setattr(sys, "path", list(sys.path))  # what a session adds to it goes away
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    namespace: dict[str, object] = {"__name__": "docs"}
    report = io.StringIO()
    for line, body in fenced_blocks(page, "pycon"):
        test = parser.get_doctest(body, namespace, f"{page.name}:{line}", str(page), line)
        runner.run(test, out=report.write, clear_globs=False)
        namespace = test.globs  # the next block sees this one's names (DocTest copies them)
    assert runner.failures == 0, report.getvalue()


def checked_output(page: Path) -> str:
    """Return what the checked blocks of ``page`` print (the expected output, as written)."""
    parts = [expected for _, body in fenced_blocks(page, "console") for _, expected in transcript(body)]
    for _, body in fenced_blocks(page, "pycon"):
        parts += [example.want for example in doctest.DocTestParser().get_examples(body)]
    return "\n".join(parts)


def prose(page: Path) -> str:
    return FENCE.sub("", page.read_text())


FIGURE_PAGES = [
    pytest.param(page, id=str(page.relative_to(DOCS)))
    for page in PAGES
    if fenced_blocks(page, "console") or fenced_blocks(page, "pycon")
]


@pytest.mark.parametrize("page", FIGURE_PAGES)
def test_every_figure_in_the_prose_is_printed_by_a_checked_command_on_the_same_page(page: Path) -> None:
    printed = {figure.replace(",", "") for figure in FIGURE.findall(checked_output(page))}
    figures = [figure for figure in FIGURE.findall(prose(page)) if not 1900 <= int(figure.replace(",", "")) < 2100]
    missing = [figure for figure in figures if figure.replace(",", "") not in printed]
    assert not missing, f"{page.name}: figures with no checked command beside them: {missing}"


def test_the_figure_check_sees_figures_and_ignores_years_and_versions() -> None:
    found = FIGURE.findall("549,946 nodes (Knuth, 1975) in 0.5 s, v1.10.2, 16553 and x1234")
    assert found == ["549,946", "1975", "16553"]


def test_every_code_excerpt_on_the_plugin_page_is_copied_from_the_example_package() -> None:
    example = DOCS / "examples" / "gamesearch-nim"
    sources = "\n".join(path.read_text() for path in sorted(example.rglob("*")) if path.suffix in (".py", ".toml"))
    page = DOCS / "write-a-game-plugin.md"
    excerpts = fenced_blocks(page, "python") + fenced_blocks(page, "toml")
    assert len(excerpts) >= 8
    stale = [line for line, body in excerpts if body not in sources]
    assert not stale, f"{page.name}: excerpts at lines {stale} are not in {example.relative_to(ROOT)}"


def test_the_docs_site_builds_with_no_warnings(tmp_path: Path) -> None:
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"),
         "--site-dir", str(tmp_path / "site")],
        capture_output=True, text=True, timeout=300, check=False, cwd=ROOT,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr
    assert (tmp_path / "site" / "index.html").exists()
