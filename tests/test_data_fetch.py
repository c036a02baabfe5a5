"""``gamesearch data fetch``: the published Connect Four files, downloaded and checked.

Every download here comes from a local HTTP server on 127.0.0.1 that serves copies of
the files (no internet in tests); ``--mirror`` points the command at it.
"""

from __future__ import annotations

import hashlib
import importlib
import re
import shlex
import shutil
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import attrs
import pytest
from clirun import assert_usage_error, run_cli

import gamesearch.cli.data
import gamesearch.datasets
import gamesearch_games.connect4.data as connect4_data
from gamesearch.datasets import ChecksumMismatchError, DataSet, DownloadError, RemoteFile, fetch
from gamesearch_games.connect4.data import CONNECT4, DATA_ENVIRONMENT, UCI_FILE, data_dir

#: the reference copies of the data with their checksums in a README, where the optional
#: $GAMESEARCH_CONNECT4_DATA names such a folder (`make test` names the workplace's copy)
SHARED = data_dir()
#: the module (the package's name ``fetch`` is the function of that name)
FETCH_MODULE = importlib.import_module("gamesearch.datasets.fetch")
needs_shared = pytest.mark.skipif(
    not (SHARED / "README.md").is_file(),
    reason=f"no reference copies with their README in {SHARED} (set {DATA_ENVIRONMENT})",
)

#: twelve rows of connect-4.data that solve in milliseconds (lines 1, 1747, 1941, 2135,
#: 2232, 3299, 3396, 3493, 4269, 5724, 6985, 7276), packed with Unix compress (LZW, 16 bits)
PACKED_SAMPLE = Path(__file__).with_name("data") / "connect-4-sample.data.Z"
SAMPLE_LINES = (1, 1747, 1941, 2135, 2232, 3299, 3396, 3493, 4269, 5724, 6985, 7276)
SAMPLE_SHA256 = "540d49f9997be800a304b9f97bf727bb9d39f58c4931a99388d449b43f39e34b"
SAMPLE_SIZE = 1056


@attrs.define
class Served:
    root: Path  #: the folder the server serves
    base: str  #: its address, for --mirror
    requests: list[str]

    def gets(self) -> int:
        return sum(line.startswith("GET ") for line in self.requests)


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Served]:
    for variable in (
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "http_proxy",
        "https_proxy",
        "ALL_PROXY",
        "all_proxy",
    ):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    root = tmp_path / "served"
    root.mkdir()
    seen: list[str] = []

    class Handler(SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(root), **kwargs)

        def log_message(self, format: str, *args: Any) -> None:
            seen.append(self.requestline)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.timeout = 5
    thread = threading.Thread(
        target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield Served(root, f"http://127.0.0.1:{httpd.server_port}/", seen)
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sample_entry() -> RemoteFile:
    """The UCI entry of the registry, for the sample served in its place."""
    real = CONNECT4.file(UCI_FILE)
    assert real is not None
    packed = PACKED_SAMPLE.read_bytes()
    return attrs.evolve(
        real,
        sha256=SAMPLE_SHA256,
        size=SAMPLE_SIZE,
        download_sha256=sha256(packed),
        download_size=len(packed),
    )


@pytest.fixture
def published(server: Served, monkeypatch: pytest.MonkeyPatch) -> DataSet:
    """Serve copies of every published file (the UCI table as a sample of it) and let
    ``gamesearch data`` fetch the registry's data set, the UCI entry swapped for the sample."""
    if not (SHARED / "Test_L3_R1").is_file():
        pytest.skip(f"no reference copies in {SHARED}")
    for file in CONNECT4.files:
        if file.name != UCI_FILE:
            shutil.copyfile(SHARED / file.name, server.root / file.name)
    shutil.copyfile(PACKED_SAMPLE, server.root / "connect-4.data.Z")
    data_set = attrs.evolve(
        CONNECT4, files=tuple(sample_entry() if f.name == UCI_FILE else f for f in CONNECT4.files)
    )
    monkeypatch.setattr(gamesearch.cli.data, "data_sets", lambda: {"connect4": data_set})
    return data_set


@pytest.fixture
def pip_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Look up data as an installed wheel does: no variable, a fresh cache."""
    cache = tmp_path / "cache" / "connect4"
    monkeypatch.delenv(DATA_ENVIRONMENT, raising=False)
    monkeypatch.setattr(FETCH_MODULE, "cache_folder", lambda data_set: cache)
    return cache


def test_fetch_downloads_every_file_checks_it_and_keeps_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, server: Served, published: DataSet
) -> None:
    target = tmp_path / "c4"
    status, out, err = run_cli(
        capsys, "data", "fetch", "connect4", "--data", str(target), "--mirror", server.base
    )
    assert status == 0, err
    assert sorted(path.name for path in target.iterdir()) == sorted(
        file.name for file in published.files
    )
    for file in published.files:
        if file.name != UCI_FILE:
            assert (target / file.name).read_bytes() == (SHARED / file.name).read_bytes()
    lines = (SHARED / UCI_FILE).read_bytes().splitlines(keepends=True)
    expected = b"".join(lines[number - 1] for number in SAMPLE_LINES)
    assert (target / UCI_FILE).read_bytes() == expected  # unpacked, the .Z deleted
    assert (
        out.count("downloaded and checked") == 8
        and f"8 of 8 files of connect4 in {str(target)!r}" in out
    )
    assert server.gets() == 8
    status, out, _ = run_cli(
        capsys, "data", "fetch", "connect4", "--data", str(target), "--mirror", server.base
    )
    assert status == 0 and out.count("already there, checked") == 8 and server.gets() == 8


def test_a_corrupted_download_is_refused_and_leaves_no_file_behind(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, server: Served, published: DataSet
) -> None:
    served = server.root / "Test_L2_R1"
    served.write_bytes(served.read_bytes().replace(b" 1\n", b" 2\n", 1))  # one score changed
    target = tmp_path / "c4"
    assert_usage_error(
        capsys,
        "is not the published 'Test_L2_R1' (its SHA-256 checksum is not 52b9ee96",
        "data",
        "fetch",
        "connect4",
        "--data",
        str(target),
        "--mirror",
        server.base,
    )
    assert [path.name for path in target.iterdir()] == ["Test_L3_R1"]  # the file before it, checked


def test_a_corrupted_packed_download_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, server: Served, published: DataSet
) -> None:
    (server.root / "connect-4.data.Z").write_bytes(b"\x1f\x9d\x90" + b"\x00" * 100)
    target = tmp_path / "c4"
    assert_usage_error(
        capsys,
        "the file downloaded from",
        "data",
        "fetch",
        "connect4",
        "--data",
        str(target),
        "--mirror",
        server.base,
    )
    assert UCI_FILE not in {path.name for path in target.iterdir()}
    assert not any(path.name.startswith(".") or path.suffix == ".Z" for path in target.iterdir())


def test_a_file_missing_on_the_server_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, server: Served, published: DataSet
) -> None:
    (server.root / "Test_L3_R1").unlink()
    assert_usage_error(
        capsys,
        "cannot download 'Test_L3_R1' from",
        "data",
        "fetch",
        "connect4",
        "--data",
        str(tmp_path / "c4"),
        "--mirror",
        server.base,
    )
    assert_usage_error(
        capsys, "no data set 'chess'; expected one of connect4", "data", "fetch", "chess"
    )


def test_unpacked_bytes_that_differ_from_the_published_file_are_refused(
    tmp_path: Path, server: Served
) -> None:
    shutil.copyfile(PACKED_SAMPLE, server.root / "table.Z")
    wrong = RemoteFile(
        "table",
        server.base + "table.Z",
        "0" * 64,
        SAMPLE_SIZE,
        compression="compress",
        download_sha256=None,
    )  # the download itself is not checked: only what it unpacks to
    with pytest.raises(
        ChecksumMismatchError, match=r"the file unpacked from .* is not the published 'table'"
    ):
        fetch(wrong, tmp_path / "out")
    assert list((tmp_path / "out").iterdir()) == []


def test_fetch_reports_the_bytes_received_and_a_dead_server_is_a_download_error(
    tmp_path: Path, server: Served
) -> None:
    payload = b"4453 -2\n" * 5000
    (server.root / "set").write_bytes(payload)
    file = RemoteFile("set", server.base + "set", sha256(payload), len(payload))
    seen: list[int] = []
    outcome = fetch(file, tmp_path, on_bytes=seen.append)
    assert outcome.downloaded and outcome.path.read_bytes() == payload
    assert seen and seen[-1] == len(payload) and seen == sorted(seen)
    assert not fetch(file, tmp_path).downloaded  # intact: not downloaded again
    closed = RemoteFile("set", "http://127.0.0.1:9/set", sha256(payload), len(payload))
    with pytest.raises(DownloadError, match=r"cannot download 'set' from 'http://127.0.0.1:9/set'"):
        fetch(closed, tmp_path / "other", timeout=2)


def test_every_missing_data_message_names_the_command_that_fixes_it(
    capsys: pytest.CaptureFixture[str], server: Served, published: DataSet, pip_install: Path
) -> None:
    status, _, err = run_cli(capsys, "solve-bench", "Test_L3_R1")
    assert status == 2
    assert err == (
        f"gamesearch: error: no 'Test_L3_R1' in {str(pip_install)!r}; "
        "run 'gamesearch data fetch connect4' to download it\n"
    )
    assert_usage_error(capsys, "run 'gamesearch data fetch connect4' to download it", "uci-check")
    command = re.search(r"run '([^']+)'", err)
    assert command is not None
    status, _, _ = run_cli(capsys, *shlex.split(command.group(1))[1:], "--mirror", server.base)
    assert status == 0
    status, out, _ = run_cli(capsys, "solve-bench", "Test_L3_R1", "--limit", "3")
    assert status == 0 and "agree with the file" in out
    status, out, _ = run_cli(capsys, "uci-check", "--sample", "2", "--json")
    assert status == 0 and '"agree": 2' in out


def test_the_data_option_and_the_variable_say_where_and_how(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    pip_install: Path,
) -> None:
    folder = tmp_path / "my data"
    assert_usage_error(
        capsys,
        f"no 'Test_L3_R1' in {str(folder)!r}; run 'gamesearch data fetch connect4 --data "
        f"'{folder}'' to",
        "solve-bench",
        "Test_L3_R1",
        "--data",
        str(folder),
    )
    monkeypatch.setenv(DATA_ENVIRONMENT, str(folder))
    assert_usage_error(
        capsys,
        f"no 'connect-4.data' in {str(folder)!r}; run 'gamesearch data fetch connect4' to",
        "uci-check",
    )
    assert_usage_error(
        capsys,
        "no file 'Test_L9'; the data files are Test_L3_R1, Test_L2_R1",
        "solve-bench",
        "Test_L9",
    )
    folder.mkdir()
    (folder / "Test_L3_R1").write_text("7422341735647741166133573473242566 1\n")
    status, out, _ = run_cli(capsys, "solve-bench", "Test_L3_R1", "--json")
    assert status == 0 and '"positions": 1' in out


def test_fetch_writes_into_the_variable_folder_and_list_shows_what_is_there(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    server: Served,
    published: DataSet,
    pip_install: Path,
) -> None:
    status, out, _ = run_cli(capsys, "data", "list", "connect4")
    assert (
        status == 0 and "run 'gamesearch data fetch connect4' to download the missing files" in out
    )
    assert "http://blog.gamesolver.org/data/Test_L3_R1" in out
    folder = tmp_path / "from-variable"
    monkeypatch.setenv(DATA_ENVIRONMENT, str(folder))
    status, _, _ = run_cli(capsys, "data", "fetch", "connect4", "--mirror", server.base)
    assert status == 0 and (folder / "Test_L1_R3").is_file() and not pip_install.exists()
    status, out, _ = run_cli(capsys, "data", "list", "connect4", "--json")
    assert status == 0 and out.count('"present": true') == 8


@needs_shared
def test_the_shipped_checksums_are_those_of_the_reference_copies() -> None:
    readme = (SHARED / "README.md").read_text()
    recorded = dict(re.findall(r"^\| (\S+?) \|.*\| ([0-9a-f]{64}) \|$", readme, re.MULTILINE))
    for file in CONNECT4.files:
        copy = (SHARED / file.name).read_bytes()
        assert (sha256(copy), len(copy)) == (file.sha256, file.size), file.name
        assert recorded[file.name] == file.sha256, file.name
    uci = CONNECT4.file(UCI_FILE)
    assert uci is not None and uci.download_sha256 == recorded["connect-4.data.Z"]


def test_pons_sets_come_from_his_site_and_the_table_from_uci() -> None:
    for file in CONNECT4.files:
        if file.name.startswith("Test_"):
            assert file.url == f"http://blog.gamesolver.org/data/{file.name}"
        else:
            assert file.url.startswith(
                "https://archive.ics.uci.edu/ml/machine-learning-databases/connect-4/"
            )


def test_data_is_looked_for_only_where_the_user_says_or_in_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATA_ENVIRONMENT, str(tmp_path))
    assert connect4_data.data_dir() == tmp_path
    assert connect4_data.data_dir(tmp_path / "given") == tmp_path / "given"
    monkeypatch.delenv(DATA_ENVIRONMENT)
    assert connect4_data.data_dir() == FETCH_MODULE.cache_folder(CONNECT4)
    assert connect4_data.data_dir().name == "connect4"


def test_the_data_library_sits_below_the_command_line() -> None:
    import ast

    package = Path(gamesearch.datasets.__file__).parent
    for module in package.glob("*.py"):
        tree = ast.parse(module.read_text())
        imported = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
        }
        imported |= {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        }
        above = {
            name
            for name in imported
            if name.split(".")[0] == "games"
            or name.startswith(("gamesearch.cli", "gamesearch.web"))
        }
        assert not above, module
