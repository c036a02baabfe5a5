"""The benchmark's rows: this framework, the floor and every installed peer, per workload."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from operator import attrgetter
from pathlib import Path
from typing import Any

from benchmarks import checkers, floors
from benchmarks.core import FLOOR, FRAMEWORK, Contender, Row, Run, Skipped
from benchmarks.peers import load_peers
from benchmarks.workloads import (
    CONNECT4_DEPTH6,
    CONNECT4_DEPTH8,
    CONNECT4_DEPTHS,
    CONNECT4_END_EASY,
    CONNECT4_MCTS,
    CONNECT4_MIDDLE_EASY,
    CONNECT4_SHALLOW_SETS,
    CONNECT4_TEST_SETS,
    KALAH_DEPTH,
    KALAH_DEPTH_ORDERED,
    KALAH_DEPTHS,
    KALAH_LATE,
    KALAH_LATE_POSITIONS,
    MCTS_SIMULATIONS,
    OTHELLO6_DEPTH,
    OTHELLO6_LATE,
    OTHELLO6_LATE_POSITIONS,
    OTHELLO8_DEPTH,
    OTHELLO_DEPTHS,
    TICTACTOE_ALL,
    TICTACTOE_ALPHABETA,
    TICTACTOE_MINIMAX,
    TICTACTOE_TABLE,
    bench_game,
    connect4_test_sets,
    kalah_position,
    othello_bitboards,
    tictactoe_bitboards,
    tictactoe_positions,
)
from gamesearch.plugins import default_registry
from gamesearch.search.base import Searcher, SearchStats

#: a searcher written as docs/write-a-searcher.md shows (a ``Searcher`` subclass whose
#: ``root`` walks the tree through the public ``SearchContext``: its ``children`` play,
#: count and score the moves): the page's alpha-beta, against the built-in ``alphabeta``
#: set to search the very same tree (equal nodes)
USER_ALPHABETA = "tic-tac-toe: alpha-beta written as a user's searcher"
#: the library name of that searcher's contender
USER = "user searcher"
#: the file that searcher lives in: the page lists it, the row runs it
USER_SEARCHER_FILE = (
    Path(__file__).resolve().parent.parent / "docs" / "examples" / "searcher" / "user_alphabeta.py"
)

#: the framework's searcher for each row: the same search the peers run
#: (win/draw/loss scores, natural move order, the root's moves sharing one window)
TEXTBOOK = "scoring=plain,ordering=natural,all_best=off"
FRAMEWORK_SEARCHERS = {
    TICTACTOE_MINIMAX: "minimax:scoring=plain",
    TICTACTOE_ALPHABETA: f"alphabeta:{TEXTBOOK}",
    TICTACTOE_TABLE: f"alphabeta:{TEXTBOOK},table=on",
    TICTACTOE_ALL: f"alphabeta:{TEXTBOOK}",
    USER_ALPHABETA: "alphabeta:ordering=natural,root_window=fresh",
    CONNECT4_DEPTH6: "alphabeta:depth=6,all_best=off",
    CONNECT4_DEPTH8: "alphabeta:depth=8,all_best=off",
    CONNECT4_END_EASY: "alphabeta:table=on,all_best=off",
    CONNECT4_MIDDLE_EASY: "solver",
}
#: the game of each row (tic-tac-toe unless named here)
ROW_GAMES = {
    row: "connect4"
    for row in (CONNECT4_DEPTH6, CONNECT4_DEPTH8, CONNECT4_END_EASY, CONNECT4_MIDDLE_EASY)
}


def framework_contender(
    searcher_spec: str,
    game: str,
    positions: Sequence[str | None],
    count: Callable[[SearchStats], int] = attrgetter("nodes"),
    **options: Any,
) -> Contender:
    """Return this framework's contender: a fresh ``searcher_spec`` over ``positions`` of ``game``.

    A position ``None`` is the game's starting position; ``options`` are the game's
    (a board size, ...). The run returns the sum of ``count`` (default: the nodes)
    over the searches' statistics.
    """
    registry = default_registry()

    def prepare() -> Run:
        searcher = registry.new_searcher(searcher_spec)  # fresh: no table carried over
        games = [bench_game(registry, game, position, **options) for position in positions]

        def run() -> int:
            return sum(count(searcher.search(position).stats) for position in games)

        return run

    return Contender(FRAMEWORK, searcher_spec, prepare)


def floor_contender(description: str, search: Callable[[], int]) -> Contender:
    """Return the floor's contender: ``search()`` does the work and returns its nodes."""
    return Contender(FLOOR, description, lambda: search)


def user_searcher() -> type[Searcher]:
    """Return the searcher class of :data:`USER_SEARCHER_FILE` (``UserAlphaBeta``), loaded
    from that file as a user's own module would be.

    :raises FileNotFoundError: when the file is missing (a tree without its docs).
    """
    spec = importlib.util.spec_from_file_location("user_alphabeta", USER_SEARCHER_FILE)
    if spec is None or spec.loader is None:
        raise FileNotFoundError(USER_SEARCHER_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    searcher: type[Searcher] = module.UserAlphaBeta
    return searcher


def user_contender() -> Contender:
    """Return the contender of :data:`USER_ALPHABETA`: the alpha-beta of
    docs/write-a-searcher.md, a user's searcher, from the empty tic-tac-toe board."""

    def prepare() -> Run:
        searcher = user_searcher()()
        game = bench_game(default_registry(), "tictactoe", None)
        return lambda: searcher.search(game).stats.nodes

    return Contender(USER, "user-alphabeta: SearchContext.children", prepare)


def _connect4_floor(depth: int) -> Callable[[], int]:
    return lambda: floors.connect4_alphabeta(depth)[1]


def _connect4_solve_floor(moves: Sequence[str]) -> Callable[[], int]:
    positions = [floors.connect4_bitboards(line) for line in moves]
    return lambda: floors.connect4_solve(positions)[1]


def _floor_searches() -> dict[str, Contender]:
    all_positions = [tictactoe_bitboards(cells) for cells in tictactoe_positions()]
    solving = {
        row: floor_contender("bitboard alpha-beta + dict of bounds", _connect4_solve_floor(moves))
        for row, moves in connect4_test_sets()[0].items()
        if row in CONNECT4_SHALLOW_SETS
    }
    return {
        **solving,
        TICTACTOE_MINIMAX: floor_contender(
            "bitboard negamax", lambda: floors.tictactoe_minimax()[1]
        ),
        TICTACTOE_ALPHABETA: floor_contender(
            "bitboard alpha-beta", lambda: floors.tictactoe_alphabeta()[1]
        ),
        TICTACTOE_TABLE: floor_contender(
            "bitboard alpha-beta + dict of bounds", lambda: floors.tictactoe_alphabeta_table()[1]
        ),
        TICTACTOE_ALL: floor_contender(
            "bitboard alpha-beta per position", lambda: floors.tictactoe_solve_all(all_positions)
        ),
        **{
            row: floor_contender("bitboard alpha-beta", _connect4_floor(depth))
            for row, depth in CONNECT4_DEPTHS.items()
        },
    }


def _framework_searches() -> dict[str, Contender]:
    start: list[str | None] = [None]
    positions: dict[str, list[str | None]] = {TICTACTOE_ALL: list(tictactoe_positions())}
    positions.update((row, list(moves)) for row, moves in connect4_test_sets()[0].items())
    found = {
        row: framework_contender(spec, ROW_GAMES.get(row, "tictactoe"), positions.get(row, start))
        for row, spec in FRAMEWORK_SEARCHERS.items()
        if row not in CONNECT4_TEST_SETS or row in positions
    }
    found[CONNECT4_MCTS] = framework_contender(
        f"mcts:simulations={MCTS_SIMULATIONS},seed=1", "connect4", start, attrgetter("leaves")
    )
    return found


def _othello_kalah_searches() -> tuple[dict[str, Contender], dict[str, Contender]]:
    """Return the framework's and the floor's contenders on the Othello and Kalah rows."""
    framework: dict[str, Contender] = {}
    floor: dict[str, Contender] = {}
    start: list[str | None] = [None]
    for row, (size, depth, ordered) in OTHELLO_DEPTHS.items():
        order = "" if ordered else ",ordering=natural"
        spec = f"alphabeta:depth={depth}{order},all_best=off"
        framework[row] = framework_contender(spec, "othello", start, size=size)
        floor[row] = floor_contender("bitboard alpha-beta", _othello_floor(size, depth, ordered))
    late: list[str | None] = list(OTHELLO6_LATE_POSITIONS)
    framework[OTHELLO6_LATE] = framework_contender(
        "alphabeta:table=on,all_best=off", "othello", late, size=6
    )
    positions = [othello_bitboards(text) for text in OTHELLO6_LATE_POSITIONS]
    floor[OTHELLO6_LATE] = floor_contender(
        "bitboard alpha-beta + dict of bounds", lambda: floors.othello_solve(6, positions)[1]
    )
    for row, (depth, ordered) in KALAH_DEPTHS.items():
        order = "" if ordered else ",ordering=natural"
        framework[row] = framework_contender(
            f"alphabeta:depth={depth}{order},all_best=off", "kalah", start
        )
        floor[row] = floor_contender("list alpha-beta", _kalah_floor(depth, ordered))
    kalah_late: list[str | None] = [text for text, _ in KALAH_LATE_POSITIONS]
    framework[KALAH_LATE] = framework_contender(
        "alphabeta:table=on,all_best=off,scoring=plain", "kalah", kalah_late
    )
    boards = [kalah_position(text) for text, _ in KALAH_LATE_POSITIONS]
    floor[KALAH_LATE] = floor_contender(
        "list alpha-beta + dict of bounds", lambda: floors.kalah_solve(boards, distance=False)[1]
    )
    return framework, floor


def _othello_floor(size: int, depth: int, ordered: bool) -> Callable[[], int]:
    return lambda: floors.othello_alphabeta(size, depth, ordered=ordered)[1]


def _kalah_floor(depth: int, ordered: bool) -> Callable[[], int]:
    return lambda: floors.kalah_alphabeta(depth, ordered=ordered)[1]


#: row name -> (in ``--quick``, note)
ROWS: dict[str, tuple[bool, str]] = {
    TICTACTOE_MINIMAX: (True, "empty board, win/draw/loss scores, 549,946 nodes"),
    TICTACTOE_ALPHABETA: (True, "empty board, natural order, shared root window"),
    TICTACTOE_TABLE: (True, "as full alpha-beta, with a table of bounds (fresh each run)"),
    TICTACTOE_ALL: (False, "alpha-beta once from every reachable position"),
    USER_ALPHABETA: (
        True,
        "empty board, natural order, every root move its own window: the same tree, node "
        "for node, in the built-in and in the alpha-beta docs/write-a-searcher.md lists "
        "(a user's searcher); the peers and the floor run the other rows",
    ),
    CONNECT4_DEPTH6: (
        True,
        "empty 7x6 board, each library's own move order, the shared window heuristic",
    ),
    CONNECT4_DEPTH8: (False, "as depth 6, two plies deeper"),
    CONNECT4_END_EASY: (
        True,
        "exact scores (distance to the end) in gamesearch and the floor; aima-python and "
        "OpenSpiel find win/draw/loss only; easyAI copies its Connect Four board at every node",
    ),
    CONNECT4_MIDDLE_EASY: (
        False,
        "exact scores with gamesearch's solver searcher (null windows on the score, threats, "
        "table); the peers' alpha-beta has no table and needs minutes (OpenSpiel: 19 s for "
        "the first 10 positions), as does the floor's plain alpha-beta with a table",
    ),
    CONNECT4_MCTS: (
        True,
        "empty board, UCT with random playouts and solver; nodes = simulations "
        "(aima's MCTS needs a policy network)",
    ),
    OTHELLO6_DEPTH: (
        True,
        "6x6 start, passes as moves, the game's move order (corners first) and heuristic "
        "(corners, mobility, discs); OpenSpiel's othello is 8x8 only",
    ),
    OTHELLO6_LATE: (
        True,
        "exact disc margins (distance to the end), a fresh table for each position",
    ),
    OTHELLO8_DEPTH: (
        True,
        "8x8 start, row-major move order (OpenSpiel's action order) and the same heuristic "
        "in every library: the same tree, node for node",
    ),
    KALAH_DEPTH: (
        True,
        "6 houses of 4 seeds (OpenSpiel's mancala), house order (OpenSpiel's action order) "
        "and the same heuristic (stored and housed seeds) in every library: the same tree",
    ),
    KALAH_DEPTH_ORDERED: (
        False,
        "the game's move order: a move that ends in the mover's store first",
    ),
    KALAH_LATE: (
        True,
        "exact seed margins (plain scoring: not how soon) in gamesearch and the floor, the "
        "game's move order, a fresh table for each position; OpenSpiel finds win/draw/loss "
        "only, in house order, without a table",
    ),
}


ROWS.update(checkers.ROWS)


def build_rows(
    *, quick: bool = False, peers: bool = True, only: str | None = None
) -> tuple[list[Row], list[Skipped]]:
    """Return the rows to run and the contenders skipped (peers missing or unable).

    ``quick`` keeps the short rows; ``peers`` false leaves the peers out; ``only``
    keeps the rows whose name contains that text (case-insensitive).
    """
    framework, floor = _othello_kalah_searches()
    checkers.add_contenders(framework, floor)
    per_library: list[tuple[str, dict[str, Contender]]] = [
        (FRAMEWORK, {**_framework_searches(), **framework}),
        (FLOOR, {**_floor_searches(), **floor}),
        (USER, {USER_ALPHABETA: user_contender()}),
    ]
    skipped: list[Skipped] = []
    skipped.extend(Skipped(row, reason) for row, reason in connect4_test_sets()[1].items())
    if peers:
        available, missing = load_peers()
        per_library.extend(available)
        skipped.extend(missing)
    rows = []
    for name, (is_quick, note) in ROWS.items():
        if quick and not is_quick:
            continue
        if only is not None and only.lower() not in name.lower():
            continue
        contenders = tuple(found[name] for _, found in per_library if name in found)
        if not contenders:
            continue  # its data is missing: noted among the skipped
        # (the user's searcher runs its own row only, as the peers and the floor run the others)
        unable = [
            library for library, found in per_library if name not in found and library != USER
        ]
        if unable and name != USER_ALPHABETA:
            note = f"{note}; no such search in {', '.join(unable)}"
        rows.append(Row(name, contenders, is_quick, note))
    return rows, skipped
