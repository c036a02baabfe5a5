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
