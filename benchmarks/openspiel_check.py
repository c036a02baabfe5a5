"""``python -m benchmarks.openspiel_check``: gamesearch's exact searchers against OpenSpiel's own,
on seeded random positions of the same OpenSpiel games.

Each :class:`Check` is one OpenSpiel game (through the ``openspiel`` plugin, so both sides
search the very same pyspiel states), one of this framework's exact searchers and a count
of positions. A position is a seeded random game played to its end and cut at a random
ply, no earlier than ``min_ply`` and no more than ``max_left`` plies before that end (so
that OpenSpiel's searchers, which keep no table, finish). Both searches run to the end
of the game: gamesearch's from its registry, OpenSpiel's from
``open_spiel.python.algorithms.minimax`` (the wheel's ``pyspiel`` has no C++
``alpha_beta_search`` or ``expectiminimax``): ``alpha_beta_search`` without chance,
``expectiminimax`` with it. Both values are the first player's: the margin (OpenSpiel's
games here return +1/0/-1) or, with chance, the expected result.

gamesearch's nodes are its searcher's statistics. OpenSpiel's searchers count none: they
are counted in a second, untimed run over :class:`benchmarks.peers.openspiel.CountingState`
(each action applied to the root or a clone of it is a node, the root one more). The
times are processor seconds of one run each, summed over a check's positions.

``--write`` puts the tables in ``docs/openspiel-games.md`` (a row a position) and
``docs/benchmarks.md`` (a row a check); ``tests/test_openspiel_check.py`` checks that
they match the command's rows (all but the times).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

from benchmarks.peers.openspiel import CountingState
from gamesearch.game import Game
from gamesearch.plugins import default_registry

PROG = "python -m benchmarks.openspiel_check"
DOCS = Path(__file__).resolve().parent.parent / "docs"
#: the page of a row a position, and the page of a row a check
POSITIONS_PAGE, BENCHMARKS_PAGE = DOCS / "openspiel-games.md", DOCS / "benchmarks.md"
POSITIONS_SECTION, BENCHMARKS_SECTION = "random positions", "against openspiel"
#: OpenSpiel's depth limit, above the length of every game searched here (to the end)
TO_THE_END = 10_000


@attrs.frozen
class Check:
    """One game and searcher, searched from ``positions`` seeded random positions."""

    short_name: str  #: OpenSpiel's name of the game
    options: tuple[tuple[str, Any], ...]  #: the game's options, as (name, value) pairs
    searcher: str  #: gamesearch's searcher spec
    positions: int
    min_ply: int = 0  #: the earliest ply a position is cut at
    max_left: int | None = None  #: the most plies a position is cut before the game's end
    note: str = ""  #: how the positions are chosen, in words

    @property
    def game_name(self) -> str:
        """Return the gamesearch name of the game."""
        return f"openspiel.{self.short_name}"

    @property
    def options_text(self) -> str:
        """Return the options as the docs write them (``defaults`` for none)."""
        return ", ".join(f"{key}={value}" for key, value in self.options) or "defaults"


CHECKS: tuple[Check, ...] = (
    Check("tic_tac_toe", (), "alphabeta", 6, note="any ply"),
    Check("tic_tac_toe", (), "solver", 4, note="any ply"),
    Check("nim", (("pile_sizes", "1;2;3;4"),), "alphabeta", 5, note="any ply (misère)"),
    Check(
        "nim",
        (("pile_sizes", "2;3;4"), ("is_misere", False)),
        "solver",
        4,
        note="any ply (normal play)",
    ),
    Check("hex", (("board_size", 3),), "alphabeta", 5, note="any ply"),
    Check("hex", (("board_size", 4),), "pns", 5, min_ply=8, note="8 empty cells or fewer"),
    Check(
        "connect_four",
        (("rows", 4), ("columns", 5)),
        "solver",
        5,
        min_ply=6,
        note="from ply 6 on",
    ),
    Check(
        "connect_four",
        (),
        "solver",
        5,
        min_ply=30,
        note="30 stones or more",
    ),
    Check(
        "breakthrough",
        (("rows", 4), ("columns", 4)),
        "alphabeta",
        4,
        max_left=4,
        note="at most 4 plies from the end",
    ),
    Check("mancala", (), "alphabeta", 5, max_left=2, note="at most 2 plies from the end"),
    Check(
        "pig",
        (("winscore", 6), ("diceoutcomes", 3), ("horizon", 6)),
        "expectiminimax",
        5,
        note="any ply",
    ),
    Check(
        "pig",
        (("winscore", 5), ("diceoutcomes", 2), ("horizon", 8)),
        "star2",
        5,
        note="any ply",
    ),
)


@attrs.frozen
class Searched:
    """One position searched by both sides: the values as text, the nodes and the times."""

    moves: str  #: the position, as OpenSpiel's action numbers
    ours: str
    theirs: str
    ours_nodes: int
    theirs_nodes: int
    ours_seconds: float = 0.0
    theirs_seconds: float = 0.0

    @property
    def agrees(self) -> bool:
        """Return whether both values are the same."""
        return self.ours == self.theirs


def positions(check: Check) -> list[Game[Any]]:
    """Return the check's positions: seed ``s`` (from 0 on) plays a random game to its end and
    cuts it at a random ply within the check's bounds; a game too short for them, or a
    position found already, is passed over (its seed then gives no position)."""
    found: dict[str, Game[Any]] = {}
    registry = default_registry()
    seed = 0
    while len(found) < check.positions:
        chooser = random.Random(f"{check.short_name}:{check.searcher}:{seed}")
        seed += 1
        game = registry.new_game(check.game_name, **dict(check.options))
        while moves := game.legal_moves():
            game.push(chooser.choice(list(moves)))
        end = game.ply
        earliest = max(check.min_ply, 0 if check.max_left is None else end - check.max_left)
        if earliest >= end:
            continue
        for _ in range(end - chooser.randrange(earliest, end)):
            game.undo()
        found.setdefault(game.to_text(), game)
    return list(found.values())


def value_text(value: float | Fraction, chance: bool) -> str:
    """Return a first-player value as the tables write it: six decimals with chance, else
    an integer."""
    return f"{float(value):.6f}" if chance else str(round(value))


def openspiel_search(state: Any, chance: bool) -> float:
    """Return the value OpenSpiel's minimax finds for the first player from ``state``,
    searching to the end of the game."""
    from open_spiel.python.algorithms import minimax

    if chance:
        value, _ = minimax.expectiminimax(state, TO_THE_END, None, 0)
    else:
        value, _ = minimax.alpha_beta_search(
            state.get_game(), state, maximum_depth=TO_THE_END, maximizing_player_id=0
        )
    return float(value)


def timed(run: Callable[[], Any], clock: bool) -> tuple[Any, float]:
    """Return ``run()``'s answer and the processor seconds it took (0 without ``clock``)."""
    began = time.process_time()
    answer = run()
    return answer, (time.process_time() - began if clock else 0.0)


def search(game: Game[Any], searcher: str, clock: bool = True) -> Searched:
    """Return ``game`` searched by gamesearch's ``searcher`` and by OpenSpiel's minimax
    (timed only with ``clock``; OpenSpiel's nodes counted in one more run).

    :raises ValueError: if ``searcher`` answers with a heuristic value (it is not exact).
    """
    chance = game.rules.chance
    state = game.state  # type: ignore[attr-defined]
    result, ours_seconds = timed(
        lambda: default_registry().new_searcher(searcher).search(game), clock
    )
    ours = result.value if chance else game.rules.scale.margin(result.value)
    if ours is None:
        raise ValueError(f"{searcher!r} gave a heuristic value, not a proven one: {result.value!r}")
    theirs_seconds = 0.0
    if clock:
        _, theirs_seconds = timed(lambda: openspiel_search(state.clone(), chance), clock)
    counter = [0]
    theirs = openspiel_search(CountingState(state.clone(), counter), chance)
    return Searched(
        game.to_text(),
        value_text(ours, chance),
        value_text(theirs, chance),
        result.stats.nodes,
        counter[0] + 1,  # + the root
        ours_seconds,
        theirs_seconds,
    )


def run_check(check: Check, clock: bool = True) -> list[Searched]:
    """Return every position of ``check`` searched by both sides (see :func:`search`)."""
    return [search(game, check.searcher, clock) for game in positions(check)]


def openspiel_searcher(check: Check) -> str:
    """Return the name of OpenSpiel's searcher of ``check``."""
    chance = default_registry().new_game(check.game_name, **dict(check.options)).rules.chance
    return "expectiminimax" if chance else "alpha_beta_search"


def positions_table(results: Sequence[tuple[Check, Sequence[Searched]]]) -> str:
    """Return the Markdown table of every position: both values and whether they agree."""
    rows = [
        "| game | options | position (actions) | gamesearch | value | OpenSpiel | value | agree |",
        "|---" * 8 + "|",
    ]
    for check, searched in results:
        for one in searched:
            rows.append(
                f"| `{check.game_name}` | {check.options_text} | {one.moves or 'start'} "
                f"| {check.searcher} | {one.ours} | {openspiel_searcher(check)} | {one.theirs} "
                f"| {'yes' if one.agrees else '**no**'} |"
            )
    return "\n".join(rows) + "\n"


#: the columns of :func:`benchmark_table` that are times (the tests compare the others)
TIME_COLUMNS = 1


def benchmark_table(results: Sequence[tuple[Check, Sequence[Searched]]]) -> str:
    """Return the Markdown table of a row a check: agreement, nodes and processor time."""
    rows = [
        "| game | options | positions | searchers: gamesearch, OpenSpiel | agree "
        "| nodes: gamesearch / OpenSpiel | ms: gamesearch / OpenSpiel |",
        "|---" * 7 + "|",
    ]
    for check, searched in results:
        agree = sum(one.agrees for one in searched)
        ours_ms = sum(one.ours_seconds for one in searched) * 1000
        theirs_ms = sum(one.theirs_seconds for one in searched) * 1000
        rows.append(
            f"| `{check.game_name}` | {check.options_text} | {len(searched)}, {check.note} "
            f"| {check.searcher}, {openspiel_searcher(check)} | {agree}/{len(searched)} "
            f"| {sum(one.ours_nodes for one in searched):,} / "
            f"{sum(one.theirs_nodes for one in searched):,} | {ours_ms:,.0f} / {theirs_ms:,.0f} |"
        )
    return "\n".join(rows) + "\n"


def without_times(table: str) -> list[list[str]]:
    """Return the cells of a :func:`benchmark_table` table but its time columns."""
    return [
        [cell.strip() for cell in line.strip("|").split("|")][:-TIME_COLUMNS]
        for line in table.splitlines()
        if line.startswith("|")
    ]


def marker(section: str) -> str:
    """Return the line that opens a generated ``section`` of a docs page."""
    return f"<!-- {section}: written by {PROG} --write -->\n"


def generated(page: Path, section: str) -> str:
    """Return the text of ``page`` between the markers of ``section`` ('' without them)."""
    text = page.read_text()
    start = marker(section)
    return text.split(start, 1)[1].split("<!-- end -->", 1)[0] if start in text else ""


def rewrite(page: Path, section: str, table: str) -> None:
    """Put ``table`` between the markers of ``section`` in ``page``.

    :raises ValueError: if the page has no such markers.
    """
    text = page.read_text()
    start = marker(section)
    if start not in text:
        raise ValueError(f"{page.name} has no section {section!r} to write")
    head, rest = text.split(start, 1)
    page.write_text(head + start + table + "<!-- end -->" + rest.split("<!-- end -->", 1)[1])


def main(argv: list[str] | None = None) -> int:
    """Search every check, print the two tables (or write them into the docs) and return 0
    (1 when a value disagrees)."""
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument("--only", metavar="TEXT", help="only the checks of games containing TEXT")
    parser.add_argument(
        "--write", action="store_true", help="write the tables into the docs pages too"
    )
    args = parser.parse_args(argv)
    if args.write and args.only:
        parser.error("--write writes every check's rows: leave out --only")
    checks = [check for check in CHECKS if not args.only or args.only in check.short_name]
    results = [(check, run_check(check)) for check in checks]
    by_position, by_check = positions_table(results), benchmark_table(results)
    print(by_position)
    print(by_check)
    if args.write:
        rewrite(POSITIONS_PAGE, POSITIONS_SECTION, by_position)
        rewrite(BENCHMARKS_PAGE, BENCHMARKS_SECTION, by_check)
    return 0 if all(one.agrees for _, searched in results for one in searched) else 1


if __name__ == "__main__":
    raise SystemExit(main())
