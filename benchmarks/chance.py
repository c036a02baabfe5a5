"""``python -m benchmarks.chance``: searchers of chance on Pig against OpenSpiel's
``expectiminimax`` and aima-python's ``expect_minmax``.

Pig here follows OpenSpiel's ``pig`` rule for rule (the tests play both move for move),
so both search the same tree. Each row searches one position to a depth (players'
moves; the die is free in both) with a heuristic of 0 at the horizon, as OpenSpiel's
``value_function`` is given; the values agree to the last float digit, and OpenSpiel's
nodes (it counts none) are counted in a second, untimed run through a counting copy
of its recursion's entry point.

aima-python's ``expect_minmax`` (the ``aima`` package; ``benchmarks/peers/aima_chance.py``
writes Pig as its ``StochasticGame``) has no depth limit: it runs on the rows that
search to the end of the game, and its value, move and positions are read in a
second, untimed run.

Every search of a row runs ``--repeat`` times, the peers' and the framework's in
turn (so a busy machine slows them alike) and from a few stack depths (see
:func:`best_times`); the best time of each counts, and the ratios are the peer's
time over the searcher's (above 1: the searcher is faster).
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib.util
import json
import time
from collections.abc import Callable
from typing import Any

import attrs

from benchmarks.peers import aima_chance
from gamesearch.plugins import default_registry
from gamesearch.search.base import Searcher
from gamesearch.search.expectimax import Expectiminimax, Star1, Star2

#: the framework's searchers of each row, by label
SEARCHERS: dict[str, Callable[[int], Searcher]] = {
    "expectiminimax": lambda depth: Expectiminimax(depth=depth),
    "star1": lambda depth: Star1(depth=depth),
    "star2": lambda depth: Star2(depth=depth),
    "expectiminimax:table=true": lambda depth: Expectiminimax(depth=depth, table=True),
    "star2:table=true": lambda depth: Star2(depth=depth, table=True),
}
OPENSPIEL, AIMA = "OpenSpiel expectiminimax", "aima-python expect_minmax"


@attrs.frozen
class Workload:
    """One row: Pig with these options, searched from the start to ``depth`` players' moves."""

    label: str
    goal: int
    faces: int
    horizon: int
    depth: int

    @property
    def is_to_the_end(self) -> bool:
        """Return whether every line ends within the depth (the game lasts ``horizon`` moves)."""
        return self.depth >= self.horizon


WORKLOADS = (
    Workload("pig 10/d6/12, depth 6", 10, 6, 12, 6),
    Workload("pig 10/d6/12, depth 7", 10, 6, 12, 7),
    Workload("pig 4/d3/6, to the end", 4, 3, 6, 6),
    Workload("pig 6/d4/8, to the end", 6, 4, 8, 8),
)


def flat_pig(workload: Workload) -> Any:
    """Return the start of the workload's Pig, whose heuristic is 0 like the value
    function given to OpenSpiel."""

    class FlatPig(default_registry().game_class("pig")):  # type: ignore[misc]
        def evaluate(self) -> int:
            return 0

    return FlatPig.new(goal=workload.goal, faces=workload.faces, horizon=workload.horizon)


def best_times(runs: dict[str, Callable[[], Any]], repeat: int) -> dict[str, tuple[float, Any]]:
    """Return each run's best time of ``repeat`` and its last answer.

    The runs take turns, with the garbage collector off while one is timed (as
    ``timeit`` does), and each repetition calls them from a stack one frame deeper than
    the last (over :data:`STACK_OFFSETS` frames): CPython 3.11 frees a block of its
    frame stack as soon as a call returns out of it, so a recursive search that keeps
    crossing such a border runs up to twice as slow, and where the borders fall
    depends on the depth of the caller's stack.
    """
    best = {label: (float("inf"), None) for label in runs}
    for repetition in range(repeat):
        for label, run in runs.items():
            gc.collect()
            gc.disable()
            try:
                seconds, answer = _timed(repetition % STACK_OFFSETS, run)
            finally:
                gc.enable()
            best[label] = (min(best[label][0], seconds), answer)
    return best


#: how many stack depths :func:`best_times` calls the runs from, in turn
STACK_OFFSETS = 4


def _timed(frames: int, run: Callable[[], Any]) -> tuple[float, Any]:
    """Return the time ``run`` takes and its answer, called ``frames`` frames deeper."""
    if frames:
        return _timed(frames - 1, run)
    started = time.perf_counter()
    answer = run()
    return time.perf_counter() - started, answer


def openspiel_run(workload: Workload) -> tuple[Callable[[], float], Callable[[], int]] | None:
    """Return OpenSpiel's search of the row (its value) and its untimed node count
    (``None`` when OpenSpiel is not installed)."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax
    except ImportError:
        return None
    game = pyspiel.load_game(
        "pig",
        {"winscore": workload.goal, "diceoutcomes": workload.faces, "horizon": workload.horizon},
    )

    def search() -> float:
        value, _ = minimax.expectiminimax(
            game.new_initial_state(), workload.depth, lambda _: 0.0, 0
        )
        return float(value)

    def count() -> int:
        entry, calls = minimax.expectiminimax, 0

        def counted(*arguments: Any) -> Any:
            nonlocal calls
            calls += 1
            return entry(*arguments)

        minimax.expectiminimax = (
            counted  # the recursion calls the module's name: each call is a node
        )
        try:
            counted(game.new_initial_state(), workload.depth, lambda _: 0.0, 0)
        finally:
            minimax.expectiminimax = entry
        return calls

    return search, count


def aima_available() -> bool:
    """Return whether aima-python (the ``aima`` package) is installed."""
    return importlib.util.find_spec(aima_chance.REQUIRES) is not None


def measure_workload(workload: Workload, repeat: int) -> dict[str, Any]:
    """Return one row's measurements: each peer's (``None`` when not installed or, for
    aima-python, when the row stops at a depth) and the framework's, each with its time
    relative to each peer's."""
    runs: dict[str, Callable[[], Any]] = {}
    openspiel = openspiel_run(workload)
    if openspiel is not None:
        runs[OPENSPIEL] = openspiel[0]
    with_aima = workload.is_to_the_end and aima_available()
    if with_aima:
        runs[AIMA] = aima_chance.search(workload.goal, workload.faces, workload.horizon)
    start = flat_pig(workload)
    for label, make in SEARCHERS.items():
        runs[label] = functools.partial(make(workload.depth).search, start)
    times = best_times(runs, repeat)
    peers: dict[str, dict[str, Any] | None] = {"openspiel": None, "aima": None}
    if openspiel is not None:
        seconds, value = times[OPENSPIEL]
        peers["openspiel"] = {
            "searcher": OPENSPIEL,
            "value": value,
            "nodes": openspiel[1](),
            "seconds": seconds,
        }
    if with_aima:
        value, move, nodes = aima_chance.value_and_move(
            workload.goal, workload.faces, workload.horizon
        )
        peers["aima"] = {
            "searcher": AIMA,
            "value": value,
            "move": move,
            "nodes": nodes,
            "seconds": times[AIMA][0],
        }
    rows = []
    for label in SEARCHERS:
        seconds, result = times[label]
        row = {
            "searcher": label,
            "value": float(result.value),
            "exact": str(result.value),
            "move": result.move,
            "nodes": result.stats.nodes,
            "tt_hits": result.stats.tt_hits,
            "seconds": seconds,
        }
        for name, peer in peers.items():
            row[f"vs_{name}"] = None if peer is None else peer["seconds"] / seconds
        rows.append(row)
    return {"workload": workload.label, **peers, "rows": rows}


def measure(repeat: int) -> list[dict[str, Any]]:
    """Return every workload's measurements (see :func:`measure_workload`)."""
    return [measure_workload(workload, repeat) for workload in WORKLOADS]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.chance", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--repeat", type=int, default=8, help="timed runs per search; the best counts (default: 8)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON list")
    args = parser.parse_args(argv)
    report = measure(max(1, args.repeat))
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    for block in report:
        print(block["workload"])
        for name in ("openspiel", "aima"):
            peer = block[name]
            if peer is not None:
                print(
                    f"  {peer['searcher']:<28} value {peer['value']:.9f}  nodes "
                    f"{peer['nodes']:>9,}  "
                    f"{peer['seconds'] * 1000:9.1f} ms"
                )
        for row in block["rows"]:
            ratios = "".join(
                f"  {row[f'vs_{name}']:5.2f}x {who}"
                for name, who in (("openspiel", "OpenSpiel"), ("aima", "aima"))
                if row[f"vs_{name}"] is not None
            )
            print(
                f"  {row['searcher']:<28} value {row['value']:.9f}  nodes {row['nodes']:>9,}  "
                f"{row['seconds'] * 1000:9.1f} ms{ratios}"
            )
    if not aima_available():
        print("aima-python is not installed: no aima rows (`make bench` installs it)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
