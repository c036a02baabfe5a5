"""``python -m benchmarks.tracer_cost``: each twin is its searcher without the hooks, and
the check of alpha-beta's compiled kinds sees a hook where there is one."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.tracer_cost import check_compiled_kinds, hooks_loaded, untraced_twin
from gamesearch.search import minimax, negamax
from gamesearch.trace import TreeTracer
from gamesearch_games.tictactoe import TicTacToe

POSITIONS = ["X...O....", "XO..X....", "XOX.O.X.."]


@pytest.mark.parametrize(
    ("module", "name"), [(minimax, "Minimax"), (negamax, "PrincipalVariationSearch")]
)
@pytest.mark.parametrize("text", POSITIONS)
def test_a_twin_searches_as_its_searcher_and_reports_nothing_to_a_tracer(
    module: Any, name: str, text: str
) -> None:
    twin, removed = untraced_twin(module)
    assert removed > 0
    searcher, bare = getattr(module, name)(), getattr(twin, name)()
    game = TicTacToe.from_text(text)
    hooked_tracer, bare_tracer = TreeTracer(game), TreeTracer(game)
    hooked = searcher.search(game, tracer=hooked_tracer)
    untraced = bare.search(game, tracer=bare_tracer)
    assert (untraced.value, untraced.best_moves) == (hooked.value, hooked.best_moves)
    assert bare.search(game).stats.nodes == searcher.search(game).stats.nodes
    assert hooked_tracer.nodes > 0  # the searcher reports its nodes
    assert bare_tracer.nodes == 0  # its twin none


def test_a_hook_is_seen_in_a_nested_function_and_none_where_there_is_none() -> None:
    def traced(tracer: Any) -> Any:
        def below() -> None:
            tracer.leave(0)

        return below

    def untraced(tracer: Any) -> Any:
        return tracer

    assert hooks_loaded(traced) == {"leave"}
    assert hooks_loaded(untraced) == set()


def test_no_compiled_kind_of_alphabeta_without_a_tracer_calls_a_hook(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert check_compiled_kinds()
    assert "without a tracer call no hook" in capsys.readouterr().out
