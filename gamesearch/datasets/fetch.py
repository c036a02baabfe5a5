"""Published data files: where each comes from, its checksum, and a checked download.

A :class:`RemoteFile` names one file as it is kept in a data folder, the address it is
published at and the SHA-256 checksum of its bytes. :func:`fetch` downloads it with
`pooch <https://www.fatiando.org/pooch>`_ into a temporary file beside its final place,
checks the checksum and only then moves it there: a download that is cut off or does not
match is deleted, never kept. Files published compressed with Unix ``compress`` (``.Z``)
are unpacked after the download and checked again.

A :class:`DataSet` groups the files a plugin publishes (registered with the
``gamesearch_register_data_sets`` hook); ``gamesearch data fetch NAME`` downloads them.
Its files are kept in one folder: the one the user names (``--data DIR``), else the one
the set's environment variable names (``GAMESEARCH_<NAME>_DATA``), else a folder of the
user's cache (:func:`data_folder`).
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import tempfile
from collections.abc import Callable
from pathlib import Path

import attrs

from gamesearch.errors import GameSearchError, InvalidDataError, MissingDataError

#: seconds to wait for the server to answer or send more bytes
DOWNLOAD_TIMEOUT = 30.0
_CHUNK = 1 << 16


class DownloadError(GameSearchError, OSError):
    """A data file that could not be downloaded (no connection, an HTTP error)."""


class ChecksumMismatchError(GameSearchError, ValueError):
    """A downloaded file whose SHA-256 checksum is not the published file's; it is not kept."""


@attrs.frozen
class RemoteFile:
    """One published data file.

    ``sha256`` and ``size`` describe the file as it is kept in the data folder; when the
    address serves it compressed (``compression="compress"``, a ``.Z`` file),
    ``download_sha256`` and ``download_size`` describe the compressed download.
    """

    name: str  #: the file's name in the data folder
    url: str  #: the address it is published at
    sha256: str
    size: int
    compression: str | None = attrs.field(
        default=None, validator=attrs.validators.in_((None, "compress"))
    )
    download_sha256: str | None = None
    download_size: int | None = None
    #: the position format its lines are in (a name its game's plugin declares), if any
    format: str | None = None

    @property
    def bytes_to_download(self) -> int:
        """Return the size of the download (the compressed size for a compressed file)."""
        return self.download_size if self.download_size is not None else self.size

    def address(self, mirror: str | None = None) -> str:
        """Return the download address: the published one, or the file of the same name
        under ``mirror`` (a base address such as ``http://127.0.0.1:8000/data/``)."""
        if mirror is None:
            return self.url
        return mirror.rstrip("/") + "/" + self.url.rsplit("/", 1)[-1]


@attrs.frozen
class DataSet:
    """A named group of published files fetched together, and the game they are about."""

    name: str
    description: str
    files: tuple[RemoteFile, ...]
    game: str | None = None  #: the registry name of the game whose positions it holds

    def file(self, name: str) -> RemoteFile | None:
        """Return the file called ``name``, or ``None`` when the set has none of that name."""
        return next((file for file in self.files if file.name == name), None)

    @property
    def environment_variable(self) -> str:
        """Return the environment variable that names the set's folder, e.g.
        ``GAMESEARCH_CONNECT4_DATA``."""
        return "GAMESEARCH_" + re.sub(r"[^A-Z0-9]+", "_", self.name.upper()) + "_DATA"

    def fetch_command(self, data: Path | None = None) -> str:
        """Return the command that downloads the set into the folder ``data`` (or the default)."""
        command = f"gamesearch data fetch {self.name}"
        return command + (f" --data {shlex.quote(str(data))}" if data is not None else "")


def cache_folder(data_set: DataSet) -> Path:
    """Return the folder of the user's cache that keeps ``data_set`` (it may not exist)."""
    import platformdirs  # imported late: only a data command needs it

    return Path(platformdirs.user_cache_dir("gamesearch")) / data_set.name


def data_folder(data_set: DataSet, data: Path | None = None) -> Path:
    """Return the folder that keeps ``data_set``: ``data`` if given, else the folder its
    environment variable names, else :func:`cache_folder`."""
    if data is not None:
        return data
    configured = os.environ.get(data_set.environment_variable)
    return Path(configured) if configured else cache_folder(data_set)


def find_data_file(data_set: DataSet, name: str, data: Path | None = None) -> Path:
    """Return ``name`` as a path when it is a file, else the file of that name in the folder
    of ``data_set`` (see :func:`data_folder`).

    :raises MissingDataError: when neither exists, naming the folder looked in and the
        command that downloads the file.
    :raises InvalidDataError: when ``name`` is a folder.
    """
    path = Path(name)
    if path.is_file():
        return path
    if path.is_dir():
        example = data_set.files[0].name if data_set.files else "a file name"
        raise InvalidDataError(
            f"{name!r} is a folder; expected a data file or a name such as {example!r}"
        )
    command = data_set.fetch_command(data)
    if data_set.file(name) is None:
        known = ", ".join(file.name for file in data_set.files)
        raise MissingDataError(
            f"no file {name!r}; the data files are {known} (download them with '{command}')"
        )
    folder = data_folder(data_set, data)
    if (folder / name).is_file():
        return folder / name
    raise MissingDataError(f"no {name!r} in {str(folder)!r}; run '{command}' to download it")


@attrs.frozen
class FetchOutcome:
    """What :func:`fetch` did for one file: its path, and whether it was downloaded
    (``False``: an intact copy was already there)."""

    file: RemoteFile
    path: Path
    downloaded: bool


def file_sha256(path: Path) -> str:
    """Return the SHA-256 checksum of the file at ``path`` as hexadecimal text."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(_CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def is_intact(file: RemoteFile, folder: Path) -> bool:
    """Return whether ``folder`` holds ``file`` with the published size and checksum."""
    path = folder / file.name
    try:
        if not path.is_file() or path.stat().st_size != file.size:
            return False
    except OSError:
        return False
    return file_sha256(path) == file.sha256


class _ByteCounter:
    """The progress-bar object pooch's downloader drives (``total``, ``update``, ``reset``,
    ``close``), passing the bytes of one file on to ``report`` as a running total."""

    def __init__(self, expected: int, report: Callable[[int], None]) -> None:
        self.total = expected
        self._expected = expected
        self._done = 0
        self._report = report

    def update(self, amount: int) -> None:
        # pooch counts whole chunks; never report more than the file holds
        self._done = min(self._done + amount, max(self._expected, self.total))
        self._report(self._done)

    def reset(self) -> None:
        self._done = 0

    def close(self) -> None:
        self._report(self._done)


def fetch(
    file: RemoteFile,
    folder: Path,
    *,
    mirror: str | None = None,
    on_bytes: Callable[[int], None] | None = None,
    timeout: float = DOWNLOAD_TIMEOUT,
) -> FetchOutcome:
    """Make sure ``folder`` holds an intact copy of ``file``, downloading it if needed.

    Returns what was done. ``on_bytes`` is called with the bytes of this file received
    so far as the download goes on; ``mirror`` replaces the published address by a base
    address serving the same file names.

    :raises DownloadError: when the file cannot be downloaded or the folder written.
    :raises ChecksumMismatchError: when the bytes received are not the published file's;
        nothing is left in ``folder`` then.
    """
    import pooch  # type: ignore[import-untyped]  # imported late: it loads requests
    import requests

    pooch.get_logger().setLevel("WARNING")
    target = folder / file.name
    if is_intact(file, folder):
        return FetchOutcome(file, target, downloaded=False)
    url = file.address(mirror)
    download_name = file.name + ".Z" if file.compression == "compress" else file.name
    known = file.download_sha256 if file.compression else file.sha256
    counter = _ByteCounter(file.bytes_to_download, on_bytes or (lambda done: None))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        downloaded = Path(
            pooch.retrieve(
                url,
                known_hash=f"sha256:{known}" if known else None,
                fname=download_name,
                path=folder,
                downloader=pooch.HTTPDownloader(progressbar=counter, timeout=timeout),
            )
        )
    except ValueError:  # pooch's checksum check; it has deleted the download
        raise ChecksumMismatchError(
            f"the file downloaded from {url!r} is not the published {file.name!r} "
            f"(its SHA-256 checksum is not {known}); it was deleted"
        ) from None
    except requests.RequestException as error:
        raise DownloadError(f"cannot download {file.name!r} from {url!r}: {error}") from None
    except OSError as error:
        raise DownloadError(
            f"cannot write {file.name!r} into {str(folder)!r}: {error.strerror or error}"
        ) from None
    if file.compression == "compress":
        _unpack_compress(downloaded, file, url)
    return FetchOutcome(file, target, downloaded=True)


def _unpack_compress(packed: Path, file: RemoteFile, url: str) -> None:
    """Unpack the ``.Z`` file ``packed`` into ``file.name`` beside it, checked, then delete it.

    :raises ChecksumMismatchError: when the unpacked bytes are not the published file's.
    """
    import unlzw3  # type: ignore[import-untyped]

    folder = packed.parent
    try:
        data = unlzw3.unlzw(packed.read_bytes())
    except ValueError as error:
        packed.unlink(missing_ok=True)
        raise ChecksumMismatchError(
            f"the file downloaded from {url!r} cannot be unpacked ({error}); it was deleted"
        ) from None
    packed.unlink(missing_ok=True)
    if hashlib.sha256(data).hexdigest() != file.sha256:
        raise ChecksumMismatchError(
            f"the file unpacked from {url!r} is not the published {file.name!r} "
            f"(its SHA-256 checksum is not {file.sha256}); it was deleted"
        )
    descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=f".{file.name}.")
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
        os.replace(temporary, folder / file.name)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
