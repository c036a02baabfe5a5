"""The results store: one SQLite file holding every batch record and tournament game.

Each record is written in a transaction of its own, so a record is in the file whole
or not at all, whatever stops the process (Ctrl-C, a kill, a power cut). A record's
key is its game, position and searcher spec: a position computed twice (a task
retried after its worker was lost) is stored once, the first answer kept. The file is
in WAL mode, so it can be read (``sqlite3 results.sqlite``) while a batch writes it.

Tables: ``results`` (one row per position and searcher: status, value, best moves,
nodes, seconds, worker, expected value, agreement, error) and ``games`` (one row per
finished game of a tournament or match, its record as JSON, keyed by the run's
settings and the game's number in the schedule).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from gamesearch.batch.tasks import Record, Status
from gamesearch.errors import InvalidOptionError

#: the store's file layout; a file written by another layout is refused
SCHEMA_VERSION = 2
#: the version before records kept their score (such a store gains the column when opened)
SCORELESS_VERSION = 1
#: the file name ``gamesearch batch`` uses when no ``--store`` is given
DEFAULT_STORE = "gamesearch-results.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    game TEXT NOT NULL,
    position TEXT NOT NULL,
    searcher TEXT NOT NULL,
    line INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('done', 'failed', 'over budget')),
    value TEXT,
    exact INTEGER,
    best_moves TEXT NOT NULL,
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    worker TEXT NOT NULL,
    expected INTEGER,
    found INTEGER,
    agrees INTEGER,
    error TEXT,
    score TEXT,
    stored TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (game, position, searcher)
);
CREATE TABLE IF NOT EXISTS games (
    run TEXT NOT NULL,
    number INTEGER NOT NULL,
    record TEXT NOT NULL,
    stored TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (run, number)
);
"""

_COLUMNS = (
    "game",
    "position",
    "searcher",
    "line",
    "status",
    "value",
    "exact",
    "best_moves",
    "nodes",
    "seconds",
    "worker",
    "expected",
    "found",
    "agrees",
    "error",
    "score",
)


class ResultStore:
    """A results store in the SQLite file ``path`` (``":memory:"``: kept in memory only).

    Use it as a context manager, or call :meth:`close`.

    :raises InvalidOptionError: when the file cannot be opened or is not a results store.
    """

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            tables = {
                row[0]
                for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            if tables and version not in (SCORELESS_VERSION, SCHEMA_VERSION):
                raise InvalidOptionError(
                    f"the store {self.path!r} is not a gamesearch results store"
                )
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.executescript(_SCHEMA)
            if tables and version == SCORELESS_VERSION:  # its rows keep no score
                self._db.execute("ALTER TABLE results ADD COLUMN score TEXT")
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.DatabaseError as error:
            raise InvalidOptionError(
                f"cannot use {self.path!r} as a results store: {error}"
            ) from None

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
        """Close the file (every record is already written)."""
        self._db.close()

    # ------------------------------------------------------------------ results
    def add(self, record: Record) -> bool:
        """Store ``record`` in one transaction; return ``False`` when its key was already
        stored (the stored record is kept)."""
        row = _row(record)
        with self._transaction():
            cursor = self._db.execute(
                f"INSERT INTO results ({', '.join(_COLUMNS)}) VALUES "
                f"({', '.join('?' * len(_COLUMNS))}) "
                "ON CONFLICT (game, position, searcher) DO NOTHING",
                row,
            )
        return cursor.rowcount == 1

    def keys(self) -> set[tuple[str, str, str]]:
        """Return the key (game, position, searcher) of every stored record."""
        return {
            (row[0], row[1], row[2])
            for row in self._db.execute("SELECT game, position, searcher FROM results")
        }

    def get(self, key: tuple[str, str, str]) -> Record | None:
        """Return the record stored under ``key`` (game, position, searcher), or ``None``."""
        row = self._db.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM results WHERE game = ? AND position = ? AND "
            "searcher = ?",
            key,
        ).fetchone()
        return None if row is None else _record(row)

    def records(self, keys: Iterable[tuple[str, str, str]] | None = None) -> list[Record]:
        """Return the stored records of ``keys`` (those stored, in that order), or every
        record in the order they were stored."""
        if keys is None:
            return [
                _record(row)
                for row in self._db.execute(
                    f"SELECT {', '.join(_COLUMNS)} FROM results ORDER BY rowid"
                )
            ]
        return [record for record in map(self.get, keys) if record is not None]

    def count(self) -> int:
        """Return the number of stored records."""
        return int(self._db.execute("SELECT count(*) FROM results").fetchone()[0])

    def export_jsonl(
        self, path: str | Path, keys: Iterable[tuple[str, str, str]] | None = None
    ) -> int:
        """Write the records of ``keys`` (default: every record) as one JSON object a line
        to ``path``; return how many."""
        records = self.records(keys)
        with Path(path).open("w", encoding="utf-8") as stream:
            for record in records:
                stream.write(json.dumps(record.as_dict()) + "\n")
        return len(records)

    # ------------------------------------------------------------------ games
    def add_game(self, run: str, number: int, record: dict[str, Any]) -> bool:
        """Store game ``number`` of the run ``run`` (its settings as text) as JSON, in one
        transaction; return ``False`` when that game was already stored."""
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO games (run, number, record) VALUES (?, ?, ?) ON CONFLICT (run, "
                "number) DO NOTHING",
                (run, number, json.dumps(record)),
            )
        return cursor.rowcount == 1

    def games(self, run: str) -> dict[int, dict[str, Any]]:
        """Return the stored games of the run ``run``, by number."""
        rows = self._db.execute(
            "SELECT number, record FROM games WHERE run = ? ORDER BY number", (run,)
        )
        return {int(number): json.loads(text) for number, text in rows}

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on any exception, Ctrl-C included)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")


def _row(record: Record) -> tuple[Any, ...]:
    value = record.value
    return (
        record.game,
        record.position,
        record.searcher,
        record.line,
        record.status.value,
        None if value is None else str(value),
        None if record.exact is None else int(record.exact),
        json.dumps(list(record.best_moves)),
        record.nodes,
        record.seconds,
        record.worker,
        record.expected,
        record.found,
        None if record.agrees is None else int(record.agrees),
        record.error,
        None if record.score is None else json.dumps(record.score),
    )


def _record(row: Sequence[Any]) -> Record:
    (
        game,
        position,
        searcher,
        line,
        status,
        value,
        exact,
        best,
        nodes,
        seconds,
        worker,
        expected,
        found,
        _agrees,
        error,
        score,
    ) = row
    return Record(
        game=game,
        position=position,
        searcher=searcher,
        line=line,
        status=Status(status),
        value=None if value is None else _number(value),
        exact=None if exact is None else bool(exact),
        best_moves=tuple(json.loads(best)),
        nodes=nodes,
        seconds=seconds,
        worker=worker,
        expected=expected,
        found=found,
        error=error,
        score=None if score is None else json.loads(score),
    )


def _number(text: str) -> int | Fraction:
    value = Fraction(text)
    return int(value) if value.denominator == 1 else value
