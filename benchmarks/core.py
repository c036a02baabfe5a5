"""The benchmark machinery: rows of contenders, run interleaved, summarised by medians.

A :class:`Row` is one workload (same game, position, depth, evaluation) and the
:class:`Contender` s that perform it: this framework, the hand-written floor and
each peer library. :func:`run_rows` runs every contender of every row once per
repetition, in turn, so a burst of load on a shared machine hits all of them
alike; compare ratios from one run, not seconds from different runs.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Iterable, Sequence

import attrs

#: the library name of this framework's contenders (the reference of every ratio)
FRAMEWORK = "gamesearch"
#: the library name of the hand-specialised plain-Python loops
FLOOR = "floor"

#: a prepared, timed run: does the work and returns its node count (``None``: not counted)
Run = Callable[[], "int | None"]
#: the clocks ``run_rows`` can read: CPU time of this process, or wall-clock time
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}


@attrs.frozen
class Contender:
    """One library's way of doing a row's work.

    ``prepare`` builds what a run needs (positions, a fresh searcher or table) and
    returns the run; only the run is timed. ``count_nodes``, for libraries that keep
    no statistics, does the same work once more with counting wrappers, untimed.
    """

    library: str
    searcher: str  #: what is run, in the library's own words
    prepare: Callable[[], Run]
    count_nodes: Callable[[], int] | None = None


@attrs.frozen
class Row:
    """One workload and its contenders; ``quick`` rows make up ``--quick``."""

    name: str
    contenders: tuple[Contender, ...]
    quick: bool = True
    note: str = ""  #: what the row leaves out (peers that cannot do it, ...)


@attrs.frozen
class Skipped:
    """What could not run, and why (a missing peer, a row whose data is missing)."""

    library: str  #: the library, or the row
    reason: str


@attrs.frozen
class Measurement:
    """Every timing of one contender on one row."""

    row: str
    library: str
    searcher: str
    seconds: tuple[float, ...]
    nodes: int | None

    @property
    def median(self) -> float:
        """Return the median of the timings in seconds."""
        return statistics.median(self.seconds)

    @property
    def nodes_per_second(self) -> float | None:
        """Return nodes over the median time (``None`` when nodes are unknown)."""
        if self.nodes is None or self.median <= 0:
            return None
        return self.nodes / self.median


def run_rows(
    rows: Sequence[Row],
    *,
    repeat: int,
    clock: str = "cpu",
    progress: Callable[[str], None] | None = None,
) -> list[Measurement]:
    """Run every contender of every row ``repeat`` times, interleaved; return the timings.

    Repetition ``r`` runs every row's contenders before repetition ``r + 1`` starts.
    Each run starts after a full garbage collection (untimed): what the run before
    it left to the collector is not charged to it.
    Node counts come from the runs (or from ``count_nodes``, once, untimed).

    :raises ValueError: for ``repeat`` < 1 or an unknown ``clock``.
    """
    if repeat < 1:
        raise ValueError(f"repeat must be >= 1: {repeat!r}")
    if clock not in CLOCKS:
        raise ValueError(f"clock must be one of {', '.join(CLOCKS)}: {clock!r}")
    read = CLOCKS[clock]
    seconds: dict[tuple[int, int], list[float]] = {}
    nodes: dict[tuple[int, int], int | None] = {}
    for repetition in range(repeat):
        for row_index, row in enumerate(rows):
            for index, contender in enumerate(row.contenders):
                if progress is not None:
                    progress(f"{repetition + 1}/{repeat} {row.name}: {contender.library}")
                run = contender.prepare()
                # (untimed) no run pays for the garbage a run before it left behind
                gc.collect()
                started = read()
                counted = run()
                seconds.setdefault((row_index, index), []).append(read() - started)
                nodes[(row_index, index)] = counted
    measurements = []
    for row_index, row in enumerate(rows):
        for index, contender in enumerate(row.contenders):
            counted = nodes[(row_index, index)]
            if counted is None and contender.count_nodes is not None:
                counted = contender.count_nodes()
            measurements.append(
                Measurement(
                    row.name,
                    contender.library,
                    contender.searcher,
                    tuple(seconds[(row_index, index)]),
                    counted,
                )
            )
    return measurements


def ratios(measurements: Iterable[Measurement]) -> dict[tuple[str, str], float | None]:
    """Return each measurement's median over the framework's median on the same row.

    Keys are ``(row, library)``; above 1 is slower than this framework. ``None``
    where the row has no framework measurement.
    """
    listed = list(measurements)
    reference = {item.row: item.median for item in listed if item.library == FRAMEWORK}
    result: dict[tuple[str, str], float | None] = {}
    for item in listed:
        base = reference.get(item.row)
        result[(item.row, item.library)] = item.median / base if base else None
    return result
