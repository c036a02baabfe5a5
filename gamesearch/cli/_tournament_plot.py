"""The ratings chart of ``gamesearch tournament --plot`` (matplotlib, the optional ``plot`` extra).

The tournament module computes the ratings; drawing them is the command line's part.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from gamesearch.errors import MissingDependencyError
from gamesearch.tournament import Tournament

if TYPE_CHECKING:
    from matplotlib.figure import Figure

INSTALL_HINT = "plotting needs matplotlib: pip install 'gamesearch[plot]'"


def ratings_figure(tournament: Tournament) -> Figure:
    """Return a chart of the players' Elo ratings with their 95% intervals, best at the top.

    The figure is built without pyplot, so no global state is left behind.

    :raises MissingDependencyError: when matplotlib (the ``plot`` extra) is not installed.
    """
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise MissingDependencyError(INSTALL_HINT) from None
    ratings = sorted(tournament.ratings(), key=lambda rating: rating.elo)
    figure = Figure(figsize=(7.5, 0.45 * len(ratings) + 1.6), layout="tight")
    axes = figure.subplots()
    rows = range(len(ratings))
    axes.errorbar(
        [rating.elo for rating in ratings],
        rows,
        xerr=[rating.interval for rating in ratings],
        fmt="o",
        capsize=4,
        color="tab:blue",
    )
    axes.set_yticks(list(rows), [rating.label for rating in ratings])
    axes.axvline(0, color="grey", linewidth=0.8, linestyle=":")
    axes.set_xlabel("Elo rating relative to the mean (bars: 95% interval)")
    axes.set_title(
        f"{tournament.game} round robin: {tournament.describe()}, seed {tournament.seed}",
        fontsize=10,
    )
    return figure


def plot_ratings(tournament: Tournament, path: str | Path) -> None:
    """Draw the players' ratings with their 95% intervals and save the chart to ``path``.

    The file type follows the name's suffix (``.png``, ``.svg``, ``.pdf``). Returns nothing.

    :raises MissingDependencyError: when matplotlib (the ``plot`` extra) is not installed.
    """
    ratings_figure(tournament).savefig(path, dpi=120)
