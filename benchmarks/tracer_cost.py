"""Benchmark: what the tracing hooks cost a search that is given no tracer.

Builds, in this process, twins of the minimax and alpha-beta modules with every
``if tracer is not None: ...`` hook removed from the source, then times each searcher
and its twin on the same position, interleaved, and prints the medians. Usage::

    python benchmarks/tracer_cost.py [--runs 9] [--position TEXT]

The twins are made by an AST edit of the installed source, so they stay in step with it.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import statistics
import time
import types
from typing import Any

from gamesearch import default_registry
from gamesearch.search import alphabeta, minimax
from gamesearch.search.base import Searcher


class _DropTracerHooks(ast.NodeTransformer):
    """Remove every ``if tracer is not None:`` statement (hooks have no else branch)."""

    removed = 0

    def visit_If(self, node: ast.If) -> Any:
        self.generic_visit(node)
        test = node.test
        if (
            isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Name)
            and test.left.id == "tracer"
            and isinstance(test.ops[0], ast.IsNot)
        ):
            self.removed += 1
            return None
        return node


def untraced_twin(module: types.ModuleType) -> tuple[types.ModuleType, int]:
    """Return a copy of ``module`` without tracer hooks and how many hooks were removed."""
    tree = ast.parse(inspect.getsource(module))
    dropper = _DropTracerHooks()
    tree = ast.fix_missing_locations(dropper.visit(tree))
    twin = types.ModuleType(module.__name__ + "_untraced")
    exec(compile(tree, module.__file__ or "<twin>", "exec"), twin.__dict__)  # (our own source)
    return twin, dropper.removed


def time_once(searcher: Searcher, text: str) -> float:
    game = default_registry().new_game("tictactoe", text or None)
    started = time.perf_counter()
    searcher.search(game)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--runs", type=int, default=9, help="timed runs of each searcher (default: 9)"
    )
    parser.add_argument(
        "--position", default="", help="tic-tac-toe position (default: the empty board)"
    )
    args = parser.parse_args()
    minimax_twin, minimax_hooks = untraced_twin(minimax)
    alphabeta_twin, alphabeta_hooks = untraced_twin(alphabeta)
    pairs = {
        f"minimax ({minimax_hooks} hooks)": (minimax.Minimax(), minimax_twin.Minimax()),
        f"alphabeta ({alphabeta_hooks} hooks)": (alphabeta.AlphaBeta(), alphabeta_twin.AlphaBeta()),
    }
    print(
        f"position {args.position or 'empty board'!r}, {args.runs} interleaved runs each, medians:"
    )
    for label, (hooked, bare) in pairs.items():
        nodes = hooked.search(
            default_registry().new_game("tictactoe", args.position or None)
        ).stats.nodes
        with_hooks, without = [], []
        for _ in range(args.runs):
            with_hooks.append(time_once(hooked, args.position))
            without.append(time_once(bare, args.position))
        hooked_median, bare_median = statistics.median(with_hooks), statistics.median(without)
        print(
            f"  {label:<22} {nodes:>9,} nodes  with hooks {hooked_median * 1000:8.1f} ms  "
            f"without {bare_median * 1000:8.1f} ms  cost "
            f"{(hooked_median / bare_median - 1) * 100:+.1f}%"
        )


if __name__ == "__main__":
    main()
