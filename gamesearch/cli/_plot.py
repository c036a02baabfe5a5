"""Plots for ``gamesearch compare`` (matplotlib, the optional ``plot`` extra)."""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gamesearch.cli._common import check_output_file
from gamesearch.errors import InvalidOptionError, MissingDependencyError

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

INSTALL_HINT = (
    "--plot needs matplotlib, which is not installed; "
    "install it with: pip install 'gamesearch[plot]'"
)
#: the image files ``--plot`` writes (the format follows the extension)
PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def check_plot_file(path: str | Path, option: str = "--plot") -> Path:
    """Return ``path`` once a plot can be written there; call it before any work starts.

    :raises InvalidOptionError: for an unknown extension or a path that cannot be written
        (see :func:`gamesearch.cli._common.check_output_file`).
    :raises MissingDependencyError: when matplotlib is not installed.
    """
    target = Path(path)
    if target.suffix.lower() not in PLOT_SUFFIXES:
        raise InvalidOptionError(f"{option} must end in {', '.join(PLOT_SUFFIXES)}: {str(path)!r}")
    check_output_file(target, option)
    if importlib.util.find_spec("matplotlib") is None:
        raise MissingDependencyError(INSTALL_HINT)
    return target


def new_figure(columns: int) -> tuple[Figure, list[Axes]]:
    """Return a figure with ``columns`` side-by-side axes (no pyplot global state).

    :raises MissingDependencyError: when matplotlib is not installed.
    """
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise MissingDependencyError(INSTALL_HINT) from None
    figure = Figure(figsize=(5.5 * columns, 4.5), layout="constrained")
    return figure, list(figure.subplots(1, columns, squeeze=False)[0])


def comparison_figure(title: str, nodes: Mapping[str, int], seconds: Mapping[str, float]) -> Figure:
    """Return bar charts of each searcher's nodes and median seconds (log scale),
    one colour per searcher, named in the legend."""
    figure, (node_axes, time_axes) = new_figure(2)
    for index, label in enumerate(nodes):
        colour = f"C{index % 10}"
        node_axes.bar(index, nodes[label], color=colour, label=label)
        time_axes.bar(index, seconds[label], color=colour, label=label)
    smallest = {"nodes": 1.0, "median seconds": min(seconds.values(), default=1.0) / 10}
    for axes, what in ((node_axes, "nodes"), (time_axes, "median seconds")):
        axes.set_yscale("log")
        axes.set_ylim(bottom=smallest[what])  # bars on a log scale need a stated floor
        axes.set_ylabel(what)
        axes.set_xticks([])
        axes.legend(fontsize="small")
    figure.suptitle(title)
    return figure


def depth_figure(title: str, series: Mapping[str, Sequence[tuple[int, int, float]]]) -> Figure:
    """Return nodes and seconds against depth (log scale), one line per searcher.

    ``series`` maps a searcher label to ``(depth, nodes, seconds)`` points.
    """
    figure, (node_axes, time_axes) = new_figure(2)
    for label, points in series.items():
        depths = [depth for depth, _, _ in points]
        node_axes.plot(depths, [nodes for _, nodes, _ in points], marker="o", label=label)
        time_axes.plot(depths, [seconds for _, _, seconds in points], marker="o", label=label)
    for axes, what in ((node_axes, "nodes"), (time_axes, "median seconds")):
        axes.set_yscale("log")
        axes.set_xlabel("depth (plies)")
        axes.set_ylabel(what)
        axes.grid(True, which="both", alpha=0.3)
        axes.legend(fontsize="small")
    figure.suptitle(title)
    return figure


def save(figure: Figure, path: str | Path) -> None:
    """Write ``figure`` to ``path``; the format comes from the extension (.png, .svg, .pdf).

    :raises InvalidOptionError: for a path that cannot be written or an unknown format.
    """
    target = check_plot_file(path)
    try:
        figure.savefig(target, dpi=120)
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise InvalidOptionError(f"cannot write the plot {str(path)!r}: {reason}") from None
