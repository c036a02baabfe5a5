"""Published reference data the benchmarks check against, and its checked download.

:mod:`gamesearch.datasets.fetch` knows how to fetch a published file and check it;
:mod:`gamesearch.datasets.connect4` lists the Connect Four files and reads them.
"""

from __future__ import annotations

from gamesearch.datasets.fetch import (
    ChecksumMismatchError,
    DataSet,
    DownloadError,
    FetchOutcome,
    RemoteFile,
    fetch,
    file_sha256,
    is_intact,
)


def data_sets() -> dict[str, DataSet]:
    """Return every data set ``gamesearch data fetch`` can download, by name."""
    from gamesearch.datasets.connect4 import CONNECT4

    return {CONNECT4.name: CONNECT4}


__all__ = [
    "ChecksumMismatchError",
    "DataSet",
    "DownloadError",
    "FetchOutcome",
    "RemoteFile",
    "data_sets",
    "fetch",
    "file_sha256",
    "is_intact",
]
