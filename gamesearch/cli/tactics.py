"""``gamesearch tactics``: how many positions of a test suite each searcher solves."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gamesearch import capabilities
from gamesearch.cli._common import (
    add_clock_argument,
    add_game_arguments,
    integer,
    load_game,
    load_searcher,
    print_json,
)
from gamesearch.cli._output import check_at_least, console, print_table, progress, table
from gamesearch.cli._progress import interruptible, report_interruption
from gamesearch.errors import InvalidOptionError
from gamesearch.game import Game
from gamesearch.problems import (
    Problem,
    SuiteResult,
    problem_files_member,
    read_problems,
    run_suite,
)
from gamesearch.search.base import Limit

#: nodes each searcher may spend on one position unless told otherwise
DEFAULT_NODES = 20_000


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tactics",
        help="run searchers on a test suite of positions with known best moves: how many each "
        "solves",
        description="Search every position of SUITE with each searcher, within the same node "
        "budget per position, and count the positions where the move chosen is a best move. "
        "SUITE is a file, or the name of a suite the game ships (listed when a name is wrong). "
        "A game may read a format of its own (chess: EPD with bm, am and id); otherwise a line "
        "is 'position | best move, best move | name'. A progress bar shows the positions "
        "done; Ctrl-C prints the rows of the searchers that went through the whole suite and "
        "exits with status 130. Bratko-Kopec (24 positions) at 20,000 nodes a position takes "
        "10 to 15 seconds a searcher on a 2-core machine.",
        epilog="examples:\n"
        "  gamesearch tactics chess mates --searcher alphabeta:depth=3\n"
        "  gamesearch tactics chess bratko-kopec --searcher iterative --max-nodes 5000 --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(parser, position=False)
    parser.add_argument(
        "suite", metavar="SUITE", help="a suite file, or the name of a suite the game ships"
    )
    parser.add_argument(
        "-s",
        "--searcher",
        action="append",
        default=[],
        metavar="NAME[:KEY=VALUE,...]",
        help="a searcher to run (repeatable; default: the game's own searcher)",
    )
    parser.add_argument(
        "--max-nodes",
        type=integer,
        default=DEFAULT_NODES,
        metavar="N",
        help=f"node budget per position (default: {DEFAULT_NODES:,})",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        metavar="S",
        help="time budget per position as well (default: none)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print every searcher's attempts as JSON"
    )
    add_clock_argument(parser)
    parser.set_defaults(handler=run)


def suite_text(game: Game[Any], suite: str) -> tuple[str, str]:
    """Return the name and text of ``suite``: a file, else a suite the game ships.

    A game ships suites by declaring :class:`~gamesearch.capabilities.ProblemFiles`, whose
    class method ``problem_suites()`` maps names to files.

    :raises InvalidOptionError: when ``suite`` is neither, naming the suites there are.
    """
    path = Path(suite)
    if path.is_file():
        try:
            return str(path), path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise InvalidOptionError(f"suite {suite!r} cannot be read: {error}") from None
    shipped: Mapping[str, Path] = {}
    offered = problem_files_member(type(game), "problem_suites")
    if offered is not None:
        shipped = offered()
    if suite in shipped:
        return suite, Path(shipped[suite]).read_text(encoding="utf-8")
    names = ", ".join(sorted(shipped)) or "none"
    raise InvalidOptionError(
        f"suite {suite!r} is no file and no suite of {game.name!r} (its suites: {names})"
    )


def run(args: argparse.Namespace) -> int:
    check_at_least("--max-nodes", args.max_nodes)
    if args.seconds is not None and not args.seconds > 0:
        raise InvalidOptionError(f"--seconds must be > 0: {args.seconds!r}")
    game = load_game(args)
    name, text = suite_text(game, args.suite)
    problems = read_problems(type(game), text)
    if not problems:
        raise InvalidOptionError(f"suite {args.suite!r} holds no problem")
    specs = args.searcher or [capabilities.default_searcher(type(game)) or "iterative"]
    searchers = [(spec, load_searcher(spec, clock=args.clock)) for spec in specs]
    limit = Limit(max_nodes=args.max_nodes, seconds=args.seconds, clock=args.clock)
    results = []
    with interruptible() as stop, progress("tactics", len(problems) * len(searchers)) as advance:
        for spec, searcher in searchers:
            results.append(
                run_suite(
                    type(game),
                    problems,
                    searcher,
                    spec,
                    limit,
                    lambda done: advance(done.problem.name),
                )
            )
    if results or not stop.interrupted:
        _print(args, game, name, problems, results)
    if stop.interrupted:  # the searchers that went through the whole suite are in the table
        return report_interruption(len(results), len(searchers), "searchers")
    return 0


def _print(
    args: argparse.Namespace,
    game: Game[Any],
    name: str,
    problems: Sequence[Problem],
    results: Sequence[SuiteResult],
) -> None:
    """Print each searcher's row: problems solved, nodes and seconds (JSON with ``--json``)."""
    if args.json:
        print_json(
            {
                "game": game.name,
                "suite": name,
                "problems": len(problems),
                "max_nodes": args.max_nodes,
                "seconds": args.seconds,
                "clock": args.clock or "wall",
                "rows": [result.as_dict() for result in results],
            }
        )
        return
    out = console()
    seconds = "" if args.seconds is None else f", {args.seconds:g} s ({args.clock or 'wall'})"
    out.print(
        f"{game.name} {name}: {len(problems)} positions, {args.max_nodes:,} nodes{seconds} each"
    )
    grid = table(None, ["searcher", "solved", "nodes", "seconds"])
    for result in results:
        grid.add_row(
            result.searcher,
            f"{result.solved} of {len(problems)}",
            f"{result.nodes:,}",
            f"{result.seconds:.1f}",
        )
    print_table(out, grid)
