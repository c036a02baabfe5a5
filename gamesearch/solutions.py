"""Strong solutions: the exact value of every position reachable from a game's start.

:func:`solve_game` walks every position reachable from the starting position by
memoised search and records, for each, the final result under best play (first
player's point of view: the margin) and its **distance**, the plies to the end of
the game when the winner hurries and the loser holds out (for a draw, whose length
best play does not fix, the plies of the line that follows the first best move each
time). The order of values is the framework's (:class:`~gamesearch.rules.ValueScale`):
a larger margin first, then the faster win or the slower loss, so a stored
position's value is exactly what the ``solver`` searcher finds for it.

The store (:class:`SolutionStore`) is one SQLite file keyed by the game's future key
(:class:`~gamesearch.capabilities.FutureKey`, else its position key: whole-number keys
as their bytes, any other key as its text), one row of two small integers per
position, and a table naming the game and its options. A position is written only
once its value is final, so a run stopped half-way (Ctrl-C, a crash) resumes where it
stopped: the positions already stored are not searched again.

:class:`TableLookup` is the searcher that answers from a store at once (``gamesearch
analyze --table``): every move's exact value, no search.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Hashable, Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, Self

import attrs

from gamesearch import capabilities
from gamesearch.errors import InvalidDataError, UnsupportedGameError
from gamesearch.game import Game
from gamesearch.rules import Player, Scoring
from gamesearch.search.base import RootAnswer, SearchContext, Searcher

#: the layout of a store; a store of another layout is refused
STORE_FORMAT = 2
#: positions solved between two writes to the store
FLUSH_EVERY = 20_000
#: positions solved between two progress reports
REPORT_EVERY = 2_048
#: the most memory (KiB) SQLite keeps of the file: a walk writes its keys all over it
CACHE_KIB = 131_072


@attrs.frozen
class Solution:
    """The exact value of one position: its final result under best play (first
    player's view) and the plies from the position to that end."""

    result: int
    distance: int

    def value(self, ply: int, game: Game[Any]) -> int:
        """Return the search value (distance scoring, first player's view) of the position
        ``ply`` plies from the start, as the exact searchers give it."""
        return game.rules.scale.proven(self.result, ply + self.distance, Scoring.DISTANCE)

    def preference(self, mover: int) -> tuple[int, int]:
        """Return how much ``mover`` likes a move leading here: larger is better (a larger
        margin, then a faster win or a slower loss)."""
        mine = self.result if mover == Player.FIRST else -self.result
        if mine > 0:
            return mine, -self.distance
        return mine, self.distance if mine < 0 else 0


@attrs.frozen
class UtilityPacking:
    """How a game with one utility per player keeps its utilities in a store's one result
    number: each utility, less the lowest the rules allow, is a digit of base (highest -
    lowest + 1), the first player's the lowest digit.

    Such a game's stored solution is its max^n value (Luckhardt and Irani): the utilities
    of the move its mover likes best, the first such move in legal-move order on a tie, and
    the plies to the end along those moves."""

    players: int
    lowest: int
    base: int

    @classmethod
    def of(cls, game: Game[Any]) -> UtilityPacking:
        """Return the packing of ``game``'s utilities (its rules' players and result range)."""
        low, high = game.rules.result_range
        return cls(game.rules.players, low, high - low + 1)

    def pack(self, utilities: tuple[int, ...]) -> int:
        """Return the one number that keeps ``utilities``.

        :raises UnsupportedGameError: for a utility that is not a whole number.
        """
        packed = 0
        for utility in reversed(utilities):
            if not isinstance(utility, int):
                raise UnsupportedGameError(
                    f"cannot store the utility {utility!r}: solutions keep whole numbers"
                )
            packed = packed * self.base + utility - self.lowest
        return packed

    def unpack(self, packed: int) -> tuple[int, ...]:
        """Return the utilities that :meth:`pack` kept in ``packed``."""
        found = []
        for _ in range(self.players):
            packed, digit = divmod(packed, self.base)
            found.append(digit + self.lowest)
        return tuple(found)

    def preference(self, solution: Solution, mover: int) -> tuple[int]:
        """Return how much ``mover`` likes a move leading to ``solution``: its own utility
        there (no distance: max^n keeps the first of the moves it likes as much)."""
        packed = solution.result
        for _ in range(mover):
            packed //= self.base
        return (packed % self.base,)


def encode_key(key: Hashable) -> bytes:
    """Return a position key as the bytes the store keeps: a whole number as its signed
    big-endian bytes, any other key as the UTF-8 of its ``repr``."""
    if isinstance(key, int):
        return key.to_bytes(max(1, (key.bit_length() + 8) // 8), "big", signed=True)
    return repr(key).encode()


def game_identity(game: Game[Any]) -> dict[str, Any]:
    """Return what a store records of the game it holds: its name and its options."""
    return {"game": type(game).name, "options": dict(sorted(game.settings.items()))}


def _held_identity(db: sqlite3.Connection, path: Path) -> dict[str, Any]:
    """Return the game and options the store open in ``db`` holds, and whether it is
    complete (``"complete"``).

    :raises InvalidDataError: when it is not a store of this version's layout.
    """
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    if not {"meta", "positions"} <= tables:
        raise InvalidDataError(f"{str(path)!r} is an SQLite file but not a solution store")
    meta = dict(db.execute("SELECT name, value FROM meta").fetchall())
    if meta.get("format") != str(STORE_FORMAT):
        raise InvalidDataError(
            f"the store {str(path)!r} has layout {meta.get('format')!r}; this version "
            f"reads layout {STORE_FORMAT}: solve the game again into a new file"
        )
    held: dict[str, Any] = json.loads(meta.get("identity", "{}"))
    return {**held, "complete": meta.get("complete") == "1"}


def store_identity(path: str | Path) -> dict[str, Any]:
    """Return what the store at ``path`` holds, read without changing it: ``game`` (its
    name), ``options`` and ``complete`` (whether every reachable position is in it).

    :raises InvalidDataError: when there is no such file or it is not a solution store.
    """
    path = Path(path)
    if not path.is_file():
        raise InvalidDataError(f"no solution store {str(path)!r}")
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return _held_identity(db, path)
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        raise InvalidDataError(f"{str(path)!r} is not a solution store ({error})") from None


def describe_identity(identity: dict[str, Any]) -> str:
    """Return a store's game and options in words: ``"connect4 (height=4, width=4)"``."""
    options = ", ".join(f"{name}={value}" for name, value in identity["options"].items())
    return f"{identity['game']} ({options})" if options else str(identity["game"])


class SolutionStore:
    """A SQLite file of solved positions for one game and its options.

    Use it as a context manager. Opening a file that holds another game's positions,
    or a file that is not a store, raises :class:`~gamesearch.errors.InvalidDataError`.
    """

    def __init__(self, path: str | Path, game: Game[Any], *, create: bool = True) -> None:
        self.path = Path(path)
        self.identity = game_identity(game)
        if not create and not self.path.is_file():
            raise InvalidDataError(
                f"no solution store {str(self.path)!r}; make one with 'gamesearch solve "
                f"{self.identity['game']} --store {self.path}'"
            )
        if self.path.is_dir():
            raise InvalidDataError(f"the store {str(self.path)!r} is a folder, not a file")
        try:
            self._db = sqlite3.connect(self.path)
            self._db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
            self._check_or_start()
        except sqlite3.DatabaseError as error:
            raise InvalidDataError(
                f"{str(self.path)!r} is not a solution store ({error})"
            ) from None

    def _check_or_start(self) -> None:
        db = self._db
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        if not tables:
            db.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID")
            db.execute(
                "CREATE TABLE positions (key BLOB PRIMARY KEY, result INTEGER, "
                "distance INTEGER) WITHOUT ROWID"
            )
            db.executemany(
                "INSERT INTO meta VALUES (?, ?)",
                [
                    ("format", str(STORE_FORMAT)),
                    ("identity", json.dumps(self.identity)),
                    ("complete", "0"),
                ],
            )
            db.commit()
            return
        held = _held_identity(db, self.path)
        held.pop("complete")
        if held != json.loads(json.dumps(self.identity)):
            raise InvalidDataError(
                f"the store {str(self.path)!r} holds {describe_identity(held)}, not "
                f"{describe_identity(self.identity)}; give the options it was made with, or "
                "another file"
            )

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Write what is pending and close the file."""
        self._db.commit()
        self._db.close()

    @property
    def is_complete(self) -> bool:
        """Return whether every reachable position is in the store."""
        row = self._db.execute("SELECT value FROM meta WHERE name = 'complete'").fetchone()
        return bool(row) and row[0] == "1"

    def mark_complete(self) -> None:
        """Record that every reachable position is in the store."""
        self._db.execute("UPDATE meta SET value = '1' WHERE name = 'complete'")
        self._db.commit()

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM positions").fetchone()[0])

    def get(self, key: Hashable) -> Solution | None:
        """Return the solution of the position whose future key
        (:func:`~gamesearch.capabilities.future_key`) is ``key``, ``None`` if it is not
        stored."""
        row = self._db.execute(
            "SELECT result, distance FROM positions WHERE key = ?", (encode_key(key),)
        ).fetchone()
        return None if row is None else Solution(row[0], row[1])

    def rows(self) -> Iterator[tuple[bytes, int, int]]:
        """Return every stored ``(encoded key, result, distance)``."""
        return iter(self._db.execute("SELECT key, result, distance FROM positions"))

    def put_many(self, rows: Iterable[tuple[bytes, int, int]]) -> None:
        """Store ``(encoded key, result, distance)`` rows and write them to the file."""
        self._db.executemany("INSERT OR REPLACE INTO positions VALUES (?, ?, ?)", rows)
        self._db.commit()

    def bytes_per_position(self) -> float:
        """Return the file's size divided by the positions it holds (0 when empty)."""
        count = len(self)
        return os.path.getsize(self.path) / count if count else 0.0


@attrs.frozen
class SolveSummary:
    """What :func:`solve_game` did."""

    positions: int  #: positions in the store once done
    new: int  #: positions solved by this run (the others were stored already)
    seconds: float
    start: Solution  #: the starting position's solution
    bytes_per_position: float


def check_solvable(game: Game[Any]) -> None:
    """Refuse a game whose positions have no exact value to store.

    :raises UnsupportedGameError: for a game of chance, or one of more than two players
        whose rules declare no utilities per player.
    """
    rules = game.rules
    if rules.chance or (rules.players != 2 and not rules.utilities):
        raise UnsupportedGameError(
            f"cannot solve {type(game).name!r}: solutions are stored for games without "
            "chance whose result is one number, or one whole-number utility per player"
        )


def _ranking(
    game: Game[Any],
) -> tuple[Callable[[Any], int] | None, Callable[[Solution, int], Any]]:
    """Return how a walk of ``game`` keeps a final result as the store's number (``None``:
    as it is) and how it ranks a solution for the player to move (larger is better)."""
    if not game.rules.utilities:
        return None, Solution.preference
    packing = UtilityPacking.of(game)
    return packing.pack, packing.preference


def solve_game(
    game: Game[Any],
    store: SolutionStore,
    *,
    report: Callable[[float, int], None] | None = None,
) -> SolveSummary:
    """Solve every position reachable from ``game`` into ``store`` and return a summary.

    ``report(fraction, solved)`` is called now and then with the share of the tree
    walked so far (each position's share split evenly among its moves) and the
    positions solved by this run. ``game`` is walked in place and left as it was
    (also after Ctrl-C: the positions solved so far are written first).

    :raises UnsupportedGameError: for a game :func:`check_solvable` refuses.
    """
    check_solvable(game)
    started = time.perf_counter()
    # one Solution object per (result, distance): the memo holds millions of references
    # to a few thousand of them
    shared: dict[tuple[int, int], Solution] = {}
    stored = {
        key: shared.setdefault((result, distance), Solution(result, distance))
        for key, result, distance in store.rows()
    }
    memo: dict[Hashable, Solution] = {}
    pending: list[tuple[bytes, int, int]] = []
    walked = 0.0
    solved = 0
    push, undo, key_of, result_of = game.push, game.undo, capabilities.future_key(game), game.result
    to_move, legal = game.to_move, game.legal_moves
    final, ranked = _ranking(game)

    # Hot loop: the walk reads the game through bound methods in locals.
    def solve(share: float) -> Solution:
        nonlocal walked, solved
        key = key_of()
        found = memo.get(key)
        if found is None and stored:
            found = stored.get(encode_key(key))
            if found is not None:
                memo[key] = found
        if found is not None:
            walked += share
            return found
        result = result_of()
        if result is not None:
            found = Solution(result if final is None else final(result), 0)
            found = shared.setdefault((found.result, 0), found)
            walked += share
        else:
            mover, moves = to_move(), legal()
            part = share / len(moves)
            best: Solution | None = None
            best_rank: tuple[int, ...] | None = None
            for move in moves:
                push(move)
                child = solve(part)
                undo()
                candidate = Solution(child.result, child.distance + 1)
                rank = ranked(candidate, mover)
                if best_rank is None or rank > best_rank:
                    best, best_rank = candidate, rank
            assert best is not None
            found = shared.setdefault((best.result, best.distance), best)
        memo[key] = found
        pending.append((encode_key(key), found.result, found.distance))
        solved += 1
        if len(pending) >= FLUSH_EVERY:
            store.put_many(pending)
            pending.clear()
        if report is not None and solved % REPORT_EVERY == 0:
            report(walked, solved)
        return found

    snapshot = game.history
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * game.rules.max_plies + 200))
    try:
        start = solve(1.0)
    finally:
        sys.setrecursionlimit(limit)
        store.put_many(pending)
        while len(game.history) > len(snapshot):  # after Ctrl-C: back to the start
            game.undo()
    store.mark_complete()
    if report is not None:
        report(1.0, solved)
    return SolveSummary(
        len(store), solved, time.perf_counter() - started, start, store.bytes_per_position()
    )


def move_solutions(game: Game[Any], store: SolutionStore) -> list[tuple[Hashable, Solution]]:
    """Return each legal move of ``game`` with the solution of the position it leads to,
    in legal-move order.

    :raises InvalidDataError: when a position is not in the store (not reachable from
        the start the store was solved from, or the store is not complete).
    """
    found = []
    for move in game.legal_moves():
        game.push(move)
        try:
            found.append((move, stored_solution(game, store)))
        finally:
            game.undo()
    return found


def stored_solution(game: Game[Any], store: SolutionStore) -> Solution:
    """Return the stored solution of ``game``'s position.

    :raises InvalidDataError: when it is not in the store.
    """
    solution = store.get(capabilities.future_key(game)())
    if solution is None:
        where = repr(game.to_text()) if game.to_text() else "the starting position"
        complete = "" if store.is_complete else " (the store is not complete: solve again)"
        raise InvalidDataError(
            f"position {where} is not in the store {str(store.path)!r}: only positions "
            f"reachable from the start are solved{complete}"
        )
    return solution


@attrs.frozen(kw_only=True)
class TableLookup(Searcher):
    """Perfect play read from a solution store: every move's exact value, no search."""

    name: ClassVar[str] = "table"
    line_on_demand: ClassVar[bool] = False
    honours_depth: ClassVar[bool] = False
    # a game with utilities is read as well as a two-player game with one result
    needs_two_players: ClassVar[bool] = False
    needs_single_value: ClassVar[bool] = False

    store: str = attrs.field(default="", metadata={"help": "the solution store to read"})

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        with SolutionStore(self.store, game, create=False) as store:
            mover = game.to_move()
            moves = move_solutions(game, store)
            _, ranked = _ranking(game)
            best = max(ranked(solution, mover) for _, solution in moves)
            first_best = next(solution for _, solution in moves if ranked(solution, mover) == best)
            context.counters.nodes += 1 + len(moves)
        if game.rules.utilities:
            # max^n: the value is the mover's utility; a best move reaches the very
            # utilities of the first best one
            unpack = UtilityPacking.of(game).unpack
            utilities = unpack(first_best.result)
            best_moves = [move for move, solution in moves if unpack(solution.result) == utilities]
            values = [(move, unpack(solution.result)[mover]) for move, solution in moves]
            answer = context.answer(game, utilities[mover], best_moves, values)
            return attrs.evolve(answer, utilities=utilities)
        ply = game.ply + 1
        best_moves = [move for move, solution in moves if ranked(solution, mover) == best]
        values = [(move, solution.value(ply, game)) for move, solution in moves]
        return context.answer(game, first_best.value(ply, game), best_moves, values)

    def _principal_variation(
        self, game: Game[Any], move: Hashable, answer: RootAnswer, memory: Any
    ) -> tuple[Hashable, ...]:
        """Return the line from ``move`` on, each step the first best move in the store."""
        line = [move]
        _, ranked = _ranking(game)
        with SolutionStore(self.store, game, create=False) as store:
            game.push(move)
            try:
                while game.result() is None:
                    mover = game.to_move()
                    moves = move_solutions(game, store)
                    follow = max(moves, key=lambda pair: ranked(pair[1], mover))[0]
                    line.append(follow)
                    game.push(follow)
            finally:
                for _ in line:
                    game.undo()
        return tuple(line)
