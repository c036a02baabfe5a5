"""The public API is typed (``py.typed`` ships): a strict mypy run finds nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_package_ships_py_typed() -> None:
    assert (ROOT / "gamesearch" / "py.typed").is_file()


def test_mypy_strict_finds_no_errors_in_the_framework_and_games() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "gamesearch", "games"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
