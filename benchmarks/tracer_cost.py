"""Benchmark: what the tracing hooks cost a search that is given no tracer.

Alpha-beta (iterative deepening's iterations, and pvs, MTD(f) and the solver given a
depth, which hand the search to it) and the engine are compiled per kind of search
(:mod:`gamesearch.search.specialise`): the kind without a tracer keeps no hook. This
checks it in every kind of alpha-beta's (none of the tracer's methods is among the
names its code loads) and fails if one keeps a hook. Minimax and principal variation
search to the end still test ``tracer`` at each node: for them it builds, in this
process, twins of their modules with every ``if tracer is not None: ...`` hook removed
from the source, then times each searcher and its twin on the same position (CPU time,
interleaved) and prints the medians. Usage::

    python -m benchmarks.tracer_cost [--runs 9] [--position TEXT]

The twins are made by an AST edit of the installed source, so they stay in step with it.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import itertools
import statistics
import sys
import time
import types
from collections.abc import Callable
from typing import Any

from gamesearch import default_registry
from gamesearch.search import alphabeta, minimax, negamax
from gamesearch.search.base import Searcher

#: the tracer's methods (gamesearch.search.result.Tracer), which every hook calls
HOOK_METHODS = ("enter", "leave", "prune")


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
    sys.modules[twin.__name__] = twin  # (its classes' annotations resolve in it)
    exec(compile(tree, module.__file__ or "<twin>", "exec"), twin.__dict__)  # (our own source)
    return twin, dropper.removed


def hooks_loaded(function: Callable[..., Any]) -> set[str]:
    """Return the tracer's methods that ``function``'s code (nested functions included)
    loads: a code that loads none of them calls no hook."""
    found: set[str] = set()
    codes = [function.__code__]
    while codes:
        code = codes.pop()
        found.update(name for name in code.co_names if name in HOOK_METHODS)
        codes.extend(const for const in code.co_consts if isinstance(const, types.CodeType))
    return found


def check_compiled_kinds() -> bool:
    """Print whether every compiled kind of alpha-beta (with a table or not, a horizon or
    not, turns that alternate or not) calls no hook without a tracer and all of them with
    one; return whether it does."""
    kinds = list(itertools.product((False, True), repeat=3))
    calls = {
        traces: [
            hooks_loaded(alphabeta._loops(table, traces, horizon, turns))
            for table, horizon, turns in kinds
        ]
        for traces in (False, True)
    }
    is_bare = not any(calls[False]) and all(hooks == set(HOOK_METHODS) for hooks in calls[True])
    print(
        f"  alphabeta, compiled per kind: its {len(kinds)} kinds without a tracer call "
        f"{'no hook' if not any(calls[False]) else 'HOOKS'}, its {len(kinds)} with one call "
        f"{', '.join(HOOK_METHODS)}: {'as they should' if is_bare else 'FAILED'}"
    )
    return is_bare


def time_once(searcher_class: type[Searcher], text: str) -> float:
    """Return the CPU seconds a new searcher of ``searcher_class`` takes to search ``text``
    (a new one each time: pvs keeps its table across searches)."""
    game = default_registry().new_game("tictactoe", text or None)
    searcher = searcher_class()
    started = time.process_time()
    searcher.search(game)
    return time.process_time() - started


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
    negamax_twin, negamax_hooks = untraced_twin(negamax)
    pairs: dict[str, tuple[type[Searcher], type[Searcher]]] = {
        f"minimax ({minimax_hooks} hooks)": (minimax.Minimax, minimax_twin.Minimax),
        f"pvs ({negamax_hooks} hooks)": (
            negamax.PrincipalVariationSearch,
            negamax_twin.PrincipalVariationSearch,
        ),
    }
    print(
        f"position {args.position or 'empty board'!r}, {args.runs} interleaved runs each, "
        "medians of CPU time:"
    )
    for label, (hooked, bare) in pairs.items():
        nodes = (
            hooked()
            .search(default_registry().new_game("tictactoe", args.position or None))
            .stats.nodes
        )
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
    if not check_compiled_kinds():
        sys.exit(1)


if __name__ == "__main__":
    main()
