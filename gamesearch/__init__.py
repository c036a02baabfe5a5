"""gamesearch: adversarial game search with interchangeable searchers and game plugins."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamesearch._lazy import lazy_names

if TYPE_CHECKING:  # (imported when first used: see __getattr__)
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

#: the module each public name lives in: ``import gamesearch`` stays cheap (the command
#: line's ``--help`` imports it), and a name's module is imported when the name is first used
_HOMES = {
    "BoardView": "gamesearch.boardview",
    **dict.fromkeys(
        (
            "BudgetExceededError",
            "DuplicateNameError",
            "GameOverError",
            "GameSearchError",
            "IllegalMoveError",
            "InvalidMoveError",
            "InvalidOptionError",
            "InvalidPositionError",
            "NothingToUndoError",
            "UnknownGameError",
            "UnknownSearcherError",
        ),
        "gamesearch.errors",
    ),
    "Game": "gamesearch.game",
    "Option": "gamesearch.game",
    **dict.fromkeys(
        ("Registry", "build_registry", "default_registry", "hookimpl", "make_plugin_manager"),
        "gamesearch.plugins",
    ),
    **dict.fromkeys(("Outcome", "Player", "Rules", "Scoring"), "gamesearch.rules"),
    **dict.fromkeys(
        (
            "AlphaBeta",
            "IterativeDeepening",
            "Minimax",
            "Searcher",
            "SearchResult",
            "SearchStats",
            "TranspositionTable",
        ),
        "gamesearch.search",
    ),
}


__getattr__, __dir__ = lazy_names(__name__, _HOMES, globals())

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
