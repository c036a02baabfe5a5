"""Terminal output the subcommands share: rich consoles, tables, progress, small formats."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from gamesearch.cli._progress import progress as report
from gamesearch.errors import InvalidOptionError

#: width of tables written to a file or a pipe (no terminal to measure)
PIPE_WIDTH = 160


def console() -> Console:
    """Return a console on standard output; wide and plain when it is not a terminal.

    Text is printed as it is (no rich markup), so brackets in moves or positions are safe.
    """
    plain = Console(highlight=False, markup=False)
    if plain.is_terminal or "COLUMNS" in os.environ:
        return plain
    return Console(highlight=False, markup=False, width=PIPE_WIDTH)


def table(title: str | None, columns: Sequence[str], *, numeric_from: int = 1) -> Table:
    """Return a rich table with ``columns``; those from ``numeric_from`` on are right-aligned.

    Add cells as :class:`rich.text.Text` when they may hold brackets (rich reads markup
    in plain strings inside tables).
    """
    grid = Table(title=title, title_justify="left", header_style="bold")
    for index, column in enumerate(columns):
        grid.add_column(column, justify="right" if index >= numeric_from else "left")
    return grid


def print_table(out: Console, grid: Table) -> None:
    """Print ``grid`` at its natural width, even on a narrower terminal (which then wraps
    lines) rather than let rich shorten numbers to fit."""
    natural = Measurement.get(out, out.options.update(max_width=10_000), grid).maximum
    if natural <= out.width:
        out.print(grid)
    else:  # print() caps its width at the console's: a wider console on the same file
        Console(file=out.file, width=natural, highlight=False, markup=False).print(grid)


@contextmanager
def progress(description: str, total: int) -> Iterator[Callable[[str], None]]:
    """Show the progress on standard error while the body runs: a bar with the time
    left on a terminal, else a line every few seconds (see :mod:`gamesearch.cli._progress`).

    Yields a function to call once per finished step with the step's description.
    """
    with report(description, total) as bar:

        def advance(step: str) -> None:
            bar.advance(note=step)

        yield advance


def milliseconds(seconds: float) -> str:
    """Return seconds written as milliseconds: three significant figures, whole from 100 up."""
    value = seconds * 1000
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def check_at_least(name: str, value: int | None, minimum: int = 1) -> None:
    """Raise unless ``value`` is ``None`` or at least ``minimum``.

    :raises InvalidOptionError: naming the option and the value.
    """
    if value is not None and value < minimum:
        raise InvalidOptionError(f"{name} must be >= {minimum}: {value!r}")
