"""An interrupt at any point of a search leaves the position exactly as it was.

Jupyter's "interrupt kernel" and Ctrl-C raise KeyboardInterrupt wherever the search
happens to be, also half-way through a move. A timer raises it at random points,
thousands of times, and the position is checked after every one.

Each case samples 300 moments (600 before) in the first milliseconds of its search: a
search passes the same lines of its loop and of the game's moves at every node, again
and again in those milliseconds, so each line that matters is met by many of them.
"""

from __future__ import annotations

import gc
import random
import signal
import threading
from collections.abc import Iterator

import pytest

from gamesearch import AlphaBeta, default_registry
from gamesearch.errors import BudgetExceededError
from gamesearch.search.base import Limit

RUNS = 300  # per case; each interrupted at a random moment in its first milliseconds
#: a search whose interrupt got lost (raised inside a finaliser of an object from
#: another test, where Python drops exceptions) stops here instead of running for ever
LOST_INTERRUPT_NODES = 300_000


class Interrupted(BaseException):
    """Raised by the timer: like KeyboardInterrupt, not an Exception (pytest leaves it alone)."""


@pytest.fixture
def timer_interrupts() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach only the main thread")

    def interrupt(signum: int, frame: object) -> None:
        raise Interrupted

    previous = signal.signal(signal.SIGALRM, interrupt)
    gc.collect()  # no finaliser of other tests' objects runs during the searches
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game_name", "position", "spec"),
    [
        ("connect4", "4453", "alphabeta"),
        ("connect4", "4453", "iterative:seconds=1"),
        ("connect4", "274552224131661", "solver"),
        ("tictactoe", "...../.....", None),
        ("tictactoe", "", "minimax"),
        ("tictactoe", "", "mcts:simulations=100000"),
    ],
)
def test_an_interrupt_at_a_random_point_never_corrupts_the_position(
    timer_interrupts: None, game_name: str, position: str, spec: str | None
) -> None:
    registry = default_registry()
    chooser = random.Random(f"{game_name}{position}{spec}")
    if spec is None:  # a 4x4 board, searched to the end
        game, searcher = registry.new_game("tictactoe", rows=4, cols=4, k=3), AlphaBeta()
    else:
        game = registry.new_game(game_name, position or None)
        searcher = registry.new_searcher(spec)
    before = (
        game.to_text(),
        game.key(),
        game.history,
        tuple(game.legal_moves()),
        game.result(),
        game.ply,
    )
    interrupted = 0
    for _ in range(RUNS):
        try:
            try:
                signal.setitimer(signal.ITIMER_REAL, chooser.uniform(0.00005, 0.004))
                searcher.search(game, Limit(max_nodes=LOST_INTERRUPT_NODES))
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except BudgetExceededError:
            pass
        except Interrupted:
            interrupted += 1
        after = (
            game.to_text(),
            game.key(),
            game.history,
            tuple(game.legal_moves()),
            game.result(),
            game.ply,
        )
        assert after == before
    assert interrupted > RUNS // 2  # the searches were stopped part-way, not finished first
