"""The public API is typed: ``py.typed`` ships (``make lint`` runs ``mypy --strict``)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_package_ships_py_typed() -> None:
    assert (ROOT / "gamesearch" / "py.typed").is_file()
