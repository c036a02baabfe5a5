"""Showing a benchmark run: a rich table, JSON-ready data, a bar chart."""

from __future__ import annotations

import datetime
import importlib.metadata
import platform
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from benchmarks.core import FLOOR, FRAMEWORK, Measurement, Row, Skipped, ratios
from gamesearch.errors import InvalidOptionError

#: distributions whose versions a report records (those installed)
DISTRIBUTIONS = ("gamesearch", "easyAI", "aima3", "open-spiel", "numpy")


def environment() -> dict[str, Any]:
    """Return when and where the benchmark ran: date, machine, Python and library versions."""
    versions = {}
    for name in DISTRIBUTIONS:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {platform.processor() or 'unknown cpu'}, "
        f"{platform.system()} {platform.release()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "versions": versions,
    }


def as_data(
    rows: Sequence[Row],
    measurements: Sequence[Measurement],
    skipped: Sequence[Skipped],
    *,
    repeat: int,
    clock: str,
) -> dict[str, Any]:
    """Return the run as JSON-ready data (what ``python -m benchmarks --json`` prints)."""
    ratio = ratios(measurements)
    return {
        **environment(),
        "repeat": repeat,
        "clock": clock,
        "rows": [{"name": row.name, "note": row.note} for row in rows],
        "results": [
            {
                "row": item.row,
                "library": item.library,
                "searcher": item.searcher,
                "median_seconds": item.median,
                "seconds": list(item.seconds),
                "nodes": item.nodes,
                "nodes_per_second": item.nodes_per_second,
                "ratio": ratio[(item.row, item.library)],
            }
            for item in measurements
        ],
        "skipped": [{"library": item.library, "reason": item.reason} for item in skipped],
    }


def _seconds(value: float) -> str:
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


def print_table(
    console: Console,
    rows: Sequence[Row],
    measurements: Sequence[Measurement],
    skipped: Sequence[Skipped],
    *,
    repeat: int,
    clock: str,
) -> None:
    """Print one table of medians, nodes, nodes per second and ratios, then the notes."""
    ratio = ratios(measurements)
    table = Table(
        title=f"median of {repeat} run{'s' if repeat > 1 else ''} ({clock} time); "
        f"ratio = time / {FRAMEWORK}'s time on the row"
    )
    for column, justify in (
        ("row", "left"),
        ("library", "left"),
        ("searcher", "left"),
        ("median", "right"),
        ("nodes", "right"),
        ("nodes/s", "right"),
        ("ratio", "right"),
    ):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    previous = None
    for item in measurements:
        if previous is not None and item.row != previous:
            table.add_section()
        speed = item.nodes_per_second
        share = ratio[(item.row, item.library)]
        style = "bold" if item.library == FRAMEWORK else ("dim" if item.library == FLOOR else None)
        table.add_row(
            item.row if item.row != previous else "",
            item.library,
            item.searcher,
            _seconds(item.median),
            "?" if item.nodes is None else f"{item.nodes:,}",
            "?" if speed is None else f"{speed:,.0f}",
            "-" if share is None else f"{share:.2f}",
            style=style,
        )
        previous = item.row
    console.print(table)
    for row in rows:
        if row.note:
            console.print(f"{row.name}: {row.note}", style="dim", markup=False)
    for missing in skipped:
        console.print(f"skipped {missing.library}: {missing.reason}", markup=False)


def save_plot(measurements: Sequence[Measurement], path: Path) -> None:
    """Draw each row's median times by library (log scale) into the image ``path``.

    :raises InvalidOptionError: when matplotlib is not installed (the ``plot`` extra).
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot
    except ImportError:
        raise InvalidOptionError(
            "--plot needs matplotlib: pip install 'gamesearch[plot]'"
        ) from None
    row_names = list(dict.fromkeys(item.row for item in measurements))
    libraries = list(dict.fromkeys(item.library for item in measurements))
    height = 0.8 / len(libraries)
    figure, axes = pyplot.subplots(figsize=(9, 1 + 0.9 * len(row_names)))
    for offset, library in enumerate(libraries):
        medians = {item.row: item.median for item in measurements if item.library == library}
        places = [index + offset * height for index, row in enumerate(row_names) if row in medians]
        axes.barh(
            places, [medians[row] for row in row_names if row in medians], height, label=library
        )
    axes.set_yticks([index + 0.4 - height / 2 for index in range(len(row_names))], row_names)
    axes.invert_yaxis()
    axes.set_xscale("log")
    axes.set_xlabel("median seconds (log scale)")
    axes.legend(loc="lower right", fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    pyplot.close(figure)
