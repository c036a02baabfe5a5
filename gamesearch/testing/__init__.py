"""The conformance kit: prove a game or a searcher keeps the gamesearch protocol.

Use it from any project's tests (pytest or not); every check raises
:class:`~gamesearch.errors.ConformanceError` (an ``AssertionError``) with a message
that names the position and what is wrong::

    from gamesearch.testing import Reference, check_game, check_searcher, reachable_positions

    def test_my_game_keeps_the_protocol():
        check_game(MyGame)

    def test_my_searcher_agrees_with_minimax():
        check_searcher(MySearcher(), reachable_positions(MyGame.new()))

:func:`perft` counts the leaves of the legal-move tree, to compare a game's move
generation with published figures.

Random positions for property tests live in :mod:`gamesearch.testing.strategies`
(it needs hypothesis, installed with the ``test`` extra).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamesearch._lazy import lazy_names

if TYPE_CHECKING:  # (imported when first used: see __getattr__)
    from gamesearch.errors import ConformanceError
    from gamesearch.testing.perft import perft
    from gamesearch.testing.positions import random_positions, reachable_positions
    from gamesearch.testing.protocol import GameReport, check_game, check_position
    from gamesearch.testing.searchers import (
        Reference,
        SearcherReport,
        check_search,
        check_searcher,
        depth_option,
        with_depth,
    )

#: the module each public name lives in: importing one of the package's modules (the
#: grader's child imports grading_runner) does not import the whole kit
_HOMES = {
    "ConformanceError": "gamesearch.errors",
    "perft": "gamesearch.testing.perft",
    "random_positions": "gamesearch.testing.positions",
    "reachable_positions": "gamesearch.testing.positions",
    "GameReport": "gamesearch.testing.protocol",
    "check_game": "gamesearch.testing.protocol",
    "check_position": "gamesearch.testing.protocol",
    "Reference": "gamesearch.testing.searchers",
    "SearcherReport": "gamesearch.testing.searchers",
    "check_search": "gamesearch.testing.searchers",
    "check_searcher": "gamesearch.testing.searchers",
    "depth_option": "gamesearch.testing.searchers",
    "with_depth": "gamesearch.testing.searchers",
}


__getattr__, __dir__ = lazy_names(__name__, _HOMES, globals())

__all__ = [
    "ConformanceError",
    "GameReport",
    "Reference",
    "SearcherReport",
    "check_game",
    "check_position",
    "check_search",
    "check_searcher",
    "depth_option",
    "perft",
    "random_positions",
    "reachable_positions",
    "with_depth",
]
