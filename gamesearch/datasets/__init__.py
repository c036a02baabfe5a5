"""Published reference data, its checked download, and the formats of position files.

:mod:`gamesearch.datasets.fetch` knows how to fetch a published file, check it and where
a data set is kept; :mod:`gamesearch.datasets.formats` reads files of positions with
expected values. The data sets themselves come from plugins (the
``gamesearch_register_data_sets`` hook), as do the formats of their files.
"""

from __future__ import annotations

from gamesearch.datasets.fetch import (
    ChecksumMismatchError,
    DataSet,
    DownloadError,
    FetchOutcome,
    RemoteFile,
    data_folder,
    fetch,
    file_sha256,
    find_data_file,
    is_intact,
)
from gamesearch.datasets.formats import Expect, PositionFormat, PositionLine

__all__ = [
    "ChecksumMismatchError",
    "DataSet",
    "DownloadError",
    "Expect",
    "FetchOutcome",
    "PositionFormat",
    "PositionLine",
    "RemoteFile",
    "data_folder",
    "fetch",
    "file_sha256",
    "find_data_file",
    "is_intact",
]
