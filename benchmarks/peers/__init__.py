"""Adapters that run the benchmark's rows in the peer libraries.

Each adapter module names its ``LIBRARY``, the module it needs (``REQUIRES``) and
offers ``contenders()``: a contender per row it can run, keyed by row name. The
peers are optional (``make bench`` installs them); a missing one is skipped with
a note, never an error.

``players``, ``uci`` and ``bots`` are no adapters of rows: they make other programs
(sunfish, Stockfish, OpenSpiel's and easyAI's searchers) players of the matches of
``python -m benchmarks strength`` (:mod:`benchmarks.strength`).
"""

from __future__ import annotations

import importlib
import importlib.util

from benchmarks.core import Contender, Skipped

ADAPTERS = (
    "benchmarks.peers.aima",
    "benchmarks.peers.easyai",
    "benchmarks.peers.openspiel",
)


def load_peers() -> tuple[list[tuple[str, dict[str, Contender]]], list[Skipped]]:
    """Return ``(library, contenders by row)`` for each installed peer, and the skipped ones."""
    available: list[tuple[str, dict[str, Contender]]] = []
    skipped: list[Skipped] = []
    for name in ADAPTERS:
        adapter = importlib.import_module(name)
        library: str = adapter.LIBRARY
        if importlib.util.find_spec(adapter.REQUIRES) is None:
            skipped.append(
                Skipped(
                    library,
                    f"{adapter.REQUIRES!r} is not installed (`make bench` installs the peers)",
                )
            )
            continue
        try:
            available.append((library, adapter.contenders()))
        except ImportError as error:
            skipped.append(Skipped(library, f"cannot be imported: {error}"))
    return available, skipped
