"""What the Connect Four benchmark commands share: the ``--data`` option and the report."""

from __future__ import annotations

import argparse
from typing import Any

from rich.text import Text

from gamesearch.cli import kit

from .data import DATA_ENVIRONMENT, FETCH_COMMAND


def add_data_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--data DIR``: the folder the data files are looked for in."""
    kit.add_data_argument(
        parser,
        f"the folder holding the data files (default: ${DATA_ENVIRONMENT}, else the "
        f"folder '{FETCH_COMMAND}' downloads into)",
    )


def print_check(
    title: str,
    disagreements: list[dict[str, Any]],
    rows: list[tuple[str, str]],
    notes: tuple[str, ...] = (),
) -> None:
    """Print each disagreement (``line``, ``position``, ``expected``, ``found``) on one line,
    then a two-column table of ``rows`` under ``title``, then each of ``notes``."""
    out = kit.console()
    for wrong in disagreements:
        out.print(
            f"disagreement on line {wrong['line']}: {wrong['position']} expected "
            f"{wrong['expected']}, "
            f"found {wrong['found']}"
        )
    grid = kit.table(title, ("measure", "value"))
    for name, value in rows:
        grid.add_row(Text(name), Text(value))
    out.print(grid)
    for note in notes:
        out.print(note)
