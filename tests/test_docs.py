"""The docs cannot drift: every transcript in them is run, every figure in their prose is checked.

In ``README.md`` and ``docs/**/*.md``:

- a ```` ```console ```` block is a transcript: each ``$ gamesearch ...`` line is run and
  its output must match the lines below it (``...`` stands for anything). A command may
  read its standard input from ``printf '...' |``. Before comparing, both sides are
  normalised (:func:`normalise`): what depends on the machine's speed (seconds,
  milliseconds, nodes per second, and the table columns headed ``ms``, ``nodes/s`` or
  ``seconds``) becomes ``~``, and table cells lose their padding, so a wider number in a
  timing column does not shift the rest of the table. Counts, values and moves are
  compared as printed;
- a console block preceded by ``<!-- docs-test: skip REASON -->`` is not run (REASON says
  why: minutes of work, or a program that waits for a person); there are only a few;
- a ```` ```pycon ```` block is a Python session, run as a doctest; the blocks of one
  page share their names, in page order;
- on a page of ``docs/`` with checked blocks, a number of four digits or more in the
  prose (``549,946``) must appear in the output of a checked block of the same page, so a
  figure always has its command beside it (pages without any, such as option
  references, hold settings rather than measured figures; a figure in inline code,
  such as a default `3,000,000`, is a setting too);
- ```` ```sh ```` and ```` ```python ```` blocks are shown, not run.

The site itself is built and looked at in tests/test_docs_site.py.
"""

from __future__ import annotations

import contextlib
import doctest
import importlib.util
import io
import re
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamesearch.cli import main
from gamesearch_games.connect4.data import DATA_ENVIRONMENT, data_dir

pytestmark = pytest.mark.docs

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
PAGES = sorted(page for page in DOCS.rglob("*.md") if "examples" not in page.parts)
FENCE = re.compile(
    r"(?:^<!-- docs-test: (?:skip (?P<skip>[^\n]*?)|needs (?P<needs>[^\n]*?)) "
    r"-->\n)?^```(?P<language>\w*)[^\n]*\n(?P<body>.*?)^```[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]*`")
#: a figure: 1,234 or 12345 (not part of a word, a version or a decimal)
FIGURE = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d{4,})(?![\w]|[.,]\d)")
OPTIONS = doctest.ELLIPSIS
#: pages whose examples need the example plugin installed (`make test` installs it)
NEEDS_NIM = {"write-a-game-plugin.md"}
NIM_INSTALLED = importlib.util.find_spec("gamesearch_nim") is not None
#: what a block marked ``<!-- docs-test: needs NAME -->`` needs, and the reason it is
#: skipped without it: data outside the repository, found only where the user says
NEEDS = {
    "connect4 data": (
        lambda: (data_dir() / "Test_L3_R1").is_file(),
        f"Pons' Connect Four sets are not in {data_dir()} (set {DATA_ENVIRONMENT}, or run "
        "'gamesearch data fetch connect4')",
    ),
}


def fenced_blocks(page: Path, language: str) -> list[tuple[int, str]]:
    """Return ``(line number, body)`` of each ``language`` block of ``page`` that is not skipped."""
    return [(line, body) for line, body, skip in all_fenced_blocks(page, language) if skip is None]


def all_fenced_blocks(page: Path, language: str) -> list[tuple[int, str, str | None]]:
    """Return ``(line number, body, reason to skip or None)`` of each ``language`` block of
    ``page``: a block marked ``skip`` always has a reason, one marked ``needs`` has one when
    what it needs is missing."""
    text = page.read_text()
    blocks = []
    for match in FENCE.finditer(text):
        if match.group("language") != language:
            continue
        reason = match.group("skip")
        needs = match.group("needs")
        if needs is not None:
            if needs not in NEEDS:
                raise AssertionError(f"{page.name}: unknown docs-test need {needs!r}")
            present, missing = NEEDS[needs]
            reason = None if present() else missing
        blocks.append((text.count("\n", 0, match.start("body")), match.group("body"), reason))
    return blocks


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


PRINTF = re.compile(r"^printf (?P<text>'[^']*') \| (?P<command>.*)$")


def run_command(command: str) -> str:
    """Run a ``[printf '...' |] gamesearch ...`` line in this process; return its standard output.

    :raises AssertionError: the line runs something else, or the command exits non-zero.
    """
    command = command.split("  #")[0].strip()
    stdin = ""
    piped = PRINTF.match(command)
    if piped:
        stdin = shlex.split(piped.group("text"))[0].encode().decode("unicode_escape")
        command = piped.group("command")
    argv = shlex.split(command)
    assert argv[0] == "gamesearch", (
        f"console blocks run gamesearch commands only (use ```sh): {command!r}"
    )
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), replaced_stdin(stdin):
        try:
            status = main(argv[1:])
        except SystemExit as stop:
            status = int(stop.code or 0)
    assert status == 0, f"{command!r} exited with {status}: {err.getvalue()}"
    return out.getvalue()


@contextlib.contextmanager
def replaced_stdin(text: str) -> Iterator[None]:
    saved = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        yield
    finally:
        sys.stdin = saved


#: free-text measures of speed: "0.006 s", "12 ms", "(535,058 nodes/s)", "1.2 s/position"
SPEED = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?= ?(?:s|ms|µs|nodes/s|positions/s)\b)")
#: headers of table columns that hold times or rates
TIMING_HEADER = re.compile(r"\bms\b|nodes/s|\bseconds?\b|\btime\b|\bs\b")
RULE = re.compile(r"([━─═])\1+")
CELL_EDGE = re.compile(r"[┃│]")
PADDED_ELLIPSIS = re.compile(r"\s+\.\.\.")


def normalise(text: str) -> str:
    """Return ``text`` with what depends on the machine's speed replaced by ``~``.

    In a rich table, the cells of a column whose header names a time or a rate become
    ``~``, every cell loses its padding and every rule is one character long; in other
    lines a number followed by ``s``, ``ms`` or ``nodes/s`` becomes ``~``.
    """
    lines: list[str] = []
    timing: set[int] = set()
    for line in text.strip("\n").splitlines():
        line = line.rstrip()
        if CELL_EDGE.search(line):
            cells = [PADDED_ELLIPSIS.sub("...", cell.strip()) for cell in CELL_EDGE.split(line)]
            if "┃" in line:  # the header
                timing = {index for index, cell in enumerate(cells) if TIMING_HEADER.search(cell)}
            else:
                cells = [
                    "~" if index in timing and cell else cell for index, cell in enumerate(cells)
                ]
            lines.append("|".join(cells))
        elif RULE.search(line):
            lines.append(RULE.sub(r"\1", line))
        else:
            lines.append(SPEED.sub("~", line))
    return "\n".join(lines) + "\n"


def test_normalise_hides_speed_and_keeps_counts() -> None:
    fast = "Searcher alphabeta: 68 nodes, depth 5, 0.000 s (535,058 nodes/s)"
    slow = "Searcher alphabeta: 68 nodes, depth 5, 12.5 s (1,002 nodes/s)"
    assert (
        normalise(fast)
        == normalise(slow)
        == "Searcher alphabeta: 68 nodes, depth 5, ~ s (~ nodes/s)\n"
    )
    assert normalise(fast) != normalise(fast.replace("68 nodes", "69 nodes"))
    table = "┃ searcher ┃ nodes ┃ median ms ┃\n│ {0} │ 1,589 │ {1} │\n"
    assert normalise(table.format("minimax  ", "7.38")) == normalise(
        table.format("minimax", "1,234.5")
    )
    assert normalise(table.format("minimax", "7.38")) != normalise(
        table.format("alphabeta", "7.38")
    )


def console_params() -> list[object]:
    params: list[object] = []
    for page in [README, *PAGES]:
        name = page.relative_to(ROOT) if page == README else page.relative_to(DOCS)
        for line, body, skip in all_fenced_blocks(page, "console"):
            marks = []
            if skip is not None:
                marks.append(pytest.mark.skip(reason=skip))
            elif page.name in NEEDS_NIM and not NIM_INSTALLED:
                marks.append(
                    pytest.mark.skip(
                        reason="the example plugin is not installed: pip install -e "
                        "docs/examples/gamesearch-nim"
                    )
                )
            params.append(pytest.param(page, line, body, id=f"{name}:{line}", marks=marks))
    return params


@pytest.mark.parametrize(("page", "line", "body"), console_params())
def test_every_console_transcript_in_the_docs_is_what_the_command_prints(
    page: Path, line: int, body: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # files a command writes (--plot depths.png) go there
    checker = doctest.OutputChecker()
    for command, expected in transcript(body):
        want, got = normalise(expected), normalise(run_command(command))
        if not checker.check_output(want, got, OPTIONS):
            pytest.fail(
                f"{page.name}:{line}: {command}\n"
                + checker.output_difference(doctest.Example(command, want), got, OPTIONS)
            )


def test_a_skipped_block_is_marked_with_its_reason(tmp_path: Path) -> None:
    page = tmp_path / "skipped.md"
    page.write_text(
        "<!-- docs-test: skip waits for moves -->\n```console\n$ gamesearch play "
        "x\n```\n\n```console\n$ gamesearch games\n```\n"
    )
    assert all_fenced_blocks(page, "console") == [
        (2, "$ gamesearch play x\n", "waits for moves"),
        (6, "$ gamesearch games\n", None),
    ]
    assert fenced_blocks(page, "console") == [(6, "$ gamesearch games\n")]


def test_the_docs_skip_only_a_handful_of_console_blocks() -> None:
    skipped = [
        (page.name, line)
        for page in [README, *PAGES]
        for match in FENCE.finditer(page.read_text())
        if match.group("language") == "console" and match.group("skip")
        for line in [page.read_text().count("\n", 0, match.start("body"))]
    ]
    assert len(skipped) <= 6, skipped


def test_a_block_that_needs_missing_data_is_skipped_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = tmp_path / "needs.md"
    page.write_text(
        "<!-- docs-test: needs connect4 data -->\n```console\n$ gamesearch batch connect4 "
        "Test_L3_R1\n```\n"
    )
    monkeypatch.setenv(DATA_ENVIRONMENT, str(tmp_path / "nothing here"))
    [(_, _, reason)] = all_fenced_blocks(page, "console")
    assert reason is not None and "Connect Four sets are not in" in reason


PYCON = [
    pytest.param(
        page,
        id=str(page.relative_to(DOCS)),
        marks=[
            pytest.mark.skip(
                reason="the example plugin is not installed: pip install -e "
                "docs/examples/gamesearch-nim"
            )
        ]
        if page.name in NEEDS_NIM and not NIM_INSTALLED
        else [],
    )
    for page in PAGES
    if fenced_blocks(page, "pycon")
]


@pytest.mark.parametrize("page", PYCON)
def test_every_python_session_in_the_docs_runs_as_shown(
    page: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
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
    parts = [
        expected for _, body in fenced_blocks(page, "console") for _, expected in transcript(body)
    ]
    for _, body in fenced_blocks(page, "pycon"):
        parts += [example.want for example in doctest.DocTestParser().get_examples(body)]
    return "\n".join(parts)


def prose(page: Path) -> str:
    return INLINE_CODE.sub("", COMMENT.sub("", FENCE.sub("", page.read_text())))


FIGURE_PAGES = [
    pytest.param(page, id=str(page.relative_to(DOCS)))
    for page in PAGES
    if fenced_blocks(page, "console") or fenced_blocks(page, "pycon")
]


@pytest.mark.parametrize("page", FIGURE_PAGES)
def test_every_figure_in_the_prose_is_printed_by_a_checked_command_on_the_same_page(
    page: Path,
) -> None:
    printed = {figure.replace(",", "") for figure in FIGURE.findall(checked_output(page))}
    figures = [
        figure
        for figure in FIGURE.findall(prose(page))
        if not 1900 <= int(figure.replace(",", "")) < 2100
    ]
    missing = [figure for figure in figures if figure.replace(",", "") not in printed]
    assert not missing, f"{page.name}: figures with no checked command beside them: {missing}"


def test_the_figure_check_sees_figures_and_ignores_years_and_versions() -> None:
    found = FIGURE.findall("549,946 nodes (Knuth, 1975) in 0.5 s, v1.10.2, 16553 and x1234")
    assert found == ["549,946", "1975", "16553"]


def test_every_code_excerpt_on_the_plugin_page_is_copied_from_the_example_package() -> None:
    example = DOCS / "examples" / "gamesearch-nim"
    sources = "\n".join(
        path.read_text() for path in sorted(example.rglob("*")) if path.suffix in (".py", ".toml")
    )
    page = DOCS / "write-a-game-plugin.md"
    excerpts = fenced_blocks(page, "python") + fenced_blocks(page, "toml")
    assert len(excerpts) >= 8
    stale = [line for line, body in excerpts if body not in sources]
    assert not stale, (
        f"{page.name}: excerpts at lines {stale} are not in {example.relative_to(ROOT)}"
    )


#: words that belong to the project's own records, not to a user's page (a command's
#: ``--seed 121`` option is a user's words)
INTERNAL = re.compile(
    r"(?<!-)\bseed \d{3}\b|(?<!-)\bseed \d{3}'s\b|\bissue (?:note|\d+)\b|\bprevious "
    r"recording\b|\bTODO\b|\bFIXME\b",
    re.IGNORECASE,
)


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda page: str(page.relative_to(ROOT)))
def test_no_page_speaks_of_the_projects_internal_records(page: Path) -> None:
    found = [match.group(0) for match in INTERNAL.finditer(page.read_text())]
    assert not found, f"{page.relative_to(ROOT)}: {found}"


def test_the_internal_words_check_sees_them_and_lets_real_seeds_pass() -> None:
    assert INTERNAL.findall("Seed 003's table; see the issue note; --seed 1; seed 42") == [
        "Seed 003",
        "issue note",
    ]
