"""gamesearch: adversarial game search with interchangeable searchers and game plugins."""

from gamesearch.boardview import BoardView
from gamesearch.errors import (
    BudgetExceededError,
    DuplicateNameError,
    GameOverError,
    GameSearchError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    NothingToUndoError,
    UnknownGameError,
    UnknownSearcherError,
)
from gamesearch.game import Game, Option
from gamesearch.plugins import (
    Registry,
    build_registry,
    default_registry,
    hookimpl,
    make_plugin_manager,
)
from gamesearch.rules import Outcome, Player, Rules, Scoring
from gamesearch.search import (
    AlphaBeta,
    IterativeDeepening,
    Minimax,
    Searcher,
    SearchResult,
    SearchStats,
    TranspositionTable,
)

__all__ = [
    "AlphaBeta",
    "BoardView",
    "BudgetExceededError",
    "DuplicateNameError",
    "Game",
    "GameOverError",
    "GameSearchError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "IterativeDeepening",
    "Minimax",
    "NothingToUndoError",
    "Option",
    "Outcome",
    "Player",
    "Registry",
    "Rules",
    "Scoring",
    "SearchResult",
    "SearchStats",
    "Searcher",
    "TranspositionTable",
    "UnknownGameError",
    "UnknownSearcherError",
    "build_registry",
    "default_registry",
    "hookimpl",
    "make_plugin_manager",
]
__version__ = "0.1.0"

# in IPython and Jupyter, positions and results show themselves as drawings (a no-op
# elsewhere); the display lives in gamesearch.notebook alone
from gamesearch.notebook import show_in_notebooks as _show_in_notebooks  # noqa: E402

_show_in_notebooks()
