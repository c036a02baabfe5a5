"""Every error gamesearch raises on purpose.

Each class subclasses both :class:`GameSearchError` (catch everything from this
project) and the builtin that fits the failure (catch it the usual way), so
``except ValueError`` keeps working for callers who do not know this project.
Messages are lower-case, name the bad value with ``!r`` and say what would be valid.
"""

from __future__ import annotations


class GameSearchError(Exception):
    """Base class of every error raised by gamesearch."""


class InvalidPositionError(GameSearchError, ValueError):
    """Position text or cells that do not describe a reachable position."""


class InvalidMoveError(GameSearchError, ValueError):
    """Move text that cannot be read as a move of this game."""


class IllegalMoveError(GameSearchError, ValueError):
    """A well-formed move that is not legal in the current position."""


class GameOverError(IllegalMoveError):
    """A move was asked of a position whose game is already over."""


class NothingToUndoError(GameSearchError, IndexError):
    """``undo()`` on a position with no move history left."""


class InvalidOptionError(GameSearchError, ValueError):
    """A game or searcher option with a bad name or value."""


class UnknownGameError(GameSearchError, LookupError):
    """No registered game has the requested name."""


class UnknownSearcherError(GameSearchError, LookupError):
    """No registered searcher has the requested name."""


class DuplicateNameError(GameSearchError, ValueError):
    """Two plugins registered a game or searcher under the same name."""


class BudgetExceededError(GameSearchError, RuntimeError):
    """A search ran out of its node or time budget before finishing a depth."""


class MissingDependencyError(GameSearchError, RuntimeError):
    """An optional program or package (Graphviz, matplotlib) is not installed."""


class InvalidRequestError(GameSearchError, ValueError):
    """A web API request whose body is not the JSON object the endpoint reads."""


class BodyTooLargeError(InvalidRequestError):
    """A web API request body longer than the server's limit."""


class ServerBusyError(GameSearchError, RuntimeError):
    """The web server has too many searches running or waiting to take another."""


class ClusterLostError(GameSearchError, ConnectionError):
    """The Dask scheduler a run was sent to stopped answering before the run ended."""


class ServeError(GameSearchError, OSError):
    """The web server cannot listen on the address it was given."""


class ConformanceError(GameSearchError, AssertionError):
    """A game or searcher breaks the protocol; raised by the ``gamesearch.testing`` kit."""


class MissingDataError(GameSearchError, FileNotFoundError):
    """A data file (a benchmark set, the UCI table) that is not where it was looked for."""


class InvalidDataError(GameSearchError, ValueError):
    """A data file that is not what its format says: not text, empty, a folder."""


class UnsupportedGameError(GameSearchError, ValueError):
    """A searcher was asked to search a game whose rules it cannot handle."""


class SearchTooDeepError(GameSearchError, RecursionError):
    """A search went deeper than Python's recursion limit allows."""
