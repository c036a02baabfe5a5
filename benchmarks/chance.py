"""``python -m benchmarks.chance``: searchers of chance on Pig against OpenSpiel's ``expectiminimax``.

Pig here follows OpenSpiel's ``pig`` rule for rule (the tests play both move for move),
so both search the same tree. Each row searches one position to a depth (players'
moves; the die is free in both) with a heuristic of 0 at the horizon, as OpenSpiel's
``value_function`` is given; the values agree to the last float digit, and OpenSpiel's
nodes (it counts none) are counted in a second, untimed run through a counting copy
of its recursion's entry point. Times are the best of ``--repeat`` runs.

aima-python's ``expect_minmax`` is not in the ``aima3`` package on PyPI (1.0.11 has
``minimax_decision`` and ``alphabeta_search`` only), so it has no row.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

import attrs

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


@attrs.frozen
class Workload:
    """One row: Pig with these options, searched from the start to ``depth`` players' moves."""

    label: str
    goal: int
    faces: int
    horizon: int
    depth: int


WORKLOADS = (
    Workload("pig 10/d6/12, depth 6", 10, 6, 12, 6),
    Workload("pig 10/d6/12, depth 7", 10, 6, 12, 7),
    Workload("pig 4/d3/6, to the end", 4, 3, 6, 6),
)


def flat_pig(workload: Workload) -> Any:
    """Return the start of the workload's Pig, whose heuristic is 0 like the value
    function given to OpenSpiel."""

    class FlatPig(default_registry().game_class("pig")):  # type: ignore[misc]
        def evaluate(self) -> int:
            return 0

    return FlatPig.new(goal=workload.goal, faces=workload.faces, horizon=workload.horizon)


def best_seconds(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Return the best time of ``repeat`` calls of ``run`` and the last call's answer."""
    best, answer = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        answer = run()
        best = min(best, time.perf_counter() - started)
    return best, answer


def openspiel_row(workload: Workload, repeat: int) -> dict[str, Any] | None:
    """Return OpenSpiel's measurements (``None`` when it is not installed)."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax
    except ImportError:
        return None
    game = pyspiel.load_game(
        "pig", {"winscore": workload.goal, "diceoutcomes": workload.faces, "horizon": workload.horizon}
    )

    def search() -> float:
        value, _ = minimax.expectiminimax(game.new_initial_state(), workload.depth, lambda _: 0.0, 0)
        return float(value)

    seconds, value = best_seconds(search, repeat)
    entry = minimax.expectiminimax
    calls = 0

    def counted(*arguments: Any) -> Any:
        nonlocal calls
        calls += 1
        return entry(*arguments)

    minimax.expectiminimax = counted  # the recursion calls the module's name: each call is a node
    try:
        counted(game.new_initial_state(), workload.depth, lambda _: 0.0, 0)
    finally:
        minimax.expectiminimax = entry
    return {"searcher": "OpenSpiel expectiminimax", "value": value, "nodes": calls, "seconds": seconds}


def framework_rows(workload: Workload, repeat: int) -> list[dict[str, Any]]:
    """Return the framework's measurements, one per searcher of :data:`SEARCHERS`."""
    rows = []
    start = flat_pig(workload)
    for label, make in SEARCHERS.items():
        searcher = make(workload.depth)
        seconds, result = best_seconds(lambda: searcher.search(start), repeat)
        rows.append({
            "searcher": label, "value": float(result.value), "exact": str(result.value),
            "nodes": result.stats.nodes, "tt_hits": result.stats.tt_hits, "seconds": seconds,
        })  # fmt: skip
    return rows


def measure(repeat: int) -> list[dict[str, Any]]:
    """Return every workload's rows, each with its time relative to OpenSpiel's."""
    report = []
    for workload in WORKLOADS:
        peer = openspiel_row(workload, repeat)
        rows = framework_rows(workload, repeat)
        for row in rows:
            row["vs_openspiel"] = None if peer is None else peer["seconds"] / row["seconds"]
        report.append({"workload": workload.label, "openspiel": peer, "rows": rows})
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.chance", description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per row; the best counts (default: 3)")
    parser.add_argument("--json", action="store_true", help="print one JSON list")
    args = parser.parse_args(argv)
    report = measure(max(1, args.repeat))
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    for block in report:
        peer = block["openspiel"]
        print(block["workload"])
        if peer is not None:
            print(f"  {peer['searcher']:<28} value {peer['value']:.9f}  nodes {peer['nodes']:>9,}  "
                  f"{peer['seconds'] * 1000:9.1f} ms")  # fmt: skip
        for row in block["rows"]:
            ratio = "" if row["vs_openspiel"] is None else f"  {row['vs_openspiel']:.2f}x OpenSpiel's speed"
            print(f"  {row['searcher']:<28} value {row['value']:.9f}  nodes {row['nodes']:>9,}  "
                  f"{row['seconds'] * 1000:9.1f} ms{ratio}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
