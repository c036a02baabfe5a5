"""What the batch tests share: samples of Pons' sets, the store read with sqlite3, JSON without
timings."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from gamesearch_games.connect4.data import data_dir

DATA = data_dir()


def needs_set(name: str) -> pytest.MarkDecorator:
    """Return the mark that skips a test when Pons' set ``name`` is not in the data folder."""
    return pytest.mark.skipif(not (DATA / name).is_file(), reason=f"no benchmark data in {DATA}")


def pons_sample(
    tmp_path: Path, name: str, lines: range | tuple[int, ...]
) -> tuple[Path, dict[str, int]]:
    """Write the given lines of one of Pons' sets to a file; return it and {moves: score}."""
    text = (DATA / name).read_text().splitlines()
    chosen = [text[number - 1] for number in lines]
    sample = tmp_path / name
    sample.write_text("".join(line + "\n" for line in chosen))
    return sample, {moves: int(score) for moves, score in (line.split() for line in chosen)}


def stored_rows(store: Path) -> list[dict[str, Any]]:
    """Return every row of the store's results table, read with sqlite3 directly."""
    with sqlite3.connect(store) as db:
        db.row_factory = sqlite3.Row
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return [dict(row) for row in db.execute("SELECT * FROM results")]


def timeless(data: Any) -> Any:
    """Return JSON data without its timings and rates (they differ from run to run)."""
    if isinstance(data, dict):
        return {key: timeless(value) for key, value in data.items() if "second" not in key}
    if isinstance(data, list):
        return [timeless(value) for value in data]
    return data
