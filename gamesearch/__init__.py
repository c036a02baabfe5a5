"""gamesearch: adversarial game search with interchangeable searchers and game plugins."""

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
from gamesearch.game import BoardView, Game, Option, Outcome, Player, Rules, Scoring
from gamesearch.plugins import (
    Registry,
    build_registry,
    default_registry,
    hookimpl,
    make_plugin_manager,
)
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
