"""Running the ``gamesearch`` command in tests: in-process and as the installed script."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gamesearch.cli import main

SCRIPT = Path(sys.executable).with_name("gamesearch")


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Return the exit status, standard output and standard error of ``gamesearch argv``."""
    try:
        status = main(list(argv))
    except SystemExit as stop:  # argparse: --help and usage errors
        status = int(stop.code or 0)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def run_script(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Return the finished process of the installed console script."""
    return subprocess.run(
        [str(SCRIPT), *argv], input=stdin, capture_output=True, text=True, timeout=120, check=False
    )


def assert_usage_error(capsys: pytest.CaptureFixture[str], message: str, *argv: str) -> None:
    """Check that ``gamesearch argv`` fails with exit status 2 and one line naming ``message``."""
    status, out, err = run_cli(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith("gamesearch: error: ") and message in err and err.count("\n") == 1, err
