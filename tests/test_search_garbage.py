"""A search frees what it built at once: cheap guards on the searcher most runs use and on
df-pn (whose recursion once kept every search alive until the collector ran).

The sweep over every registered searcher and option set is a benchmark check,
``python -m benchmarks.garbage`` (what a search leaves to the collector is a matter of
speed, not of the answers): these tests keep alpha-beta honest and the sweep working.
"""

from __future__ import annotations

from collections import Counter

import pytest

from benchmarks.garbage import full_searches, left_to_collector, main, stopped_search
from gamesearch import AlphaBeta, default_registry
from gamesearch.search.proof import DepthFirstProofNumberSearch

#: the collections walk what the searches built, not the whole heap (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("frozen_heap")


def test_alphabeta_and_dfpn_searches_leave_nothing_to_the_garbage_collector() -> None:
    game = default_registry().new_game("tictactoe", "XOX......")
    searches = [
        make(searcher, game)
        for searcher in (AlphaBeta(), AlphaBeta(table=True), DepthFirstProofNumberSearch())
        for make in (full_searches, stopped_search)
    ]

    def every_search() -> None:  # one collection for all six (each costs the whole heap)
        for search in searches:
            search()

    assert left_to_collector(every_search) == Counter()


def test_the_collector_check_notices_a_cycle_left_behind() -> None:
    def leaves_a_cycle() -> None:
        cycle: list[object] = []
        cycle.append(cycle)

    assert left_to_collector(leaves_a_cycle) == Counter({"list": 1})


@pytest.mark.slow
def test_the_sweep_names_the_searchers_it_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--only", "textbook-minimax"]) == 0
    out = capsys.readouterr().out
    assert "textbook-minimax" in out and "left something to the collector" in out
    assert main(["--only", "no-such-searcher"]) == 2
