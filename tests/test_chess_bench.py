"""The chess speed benchmark on tiny inputs: its floor searches the framework's tree.

No test here times anything: the machine may be slow.
"""

from __future__ import annotations

import importlib.util
import json

import pytest

pytest.importorskip(
    "gamesearch_chess",
    reason="the chess plugin is not installed: pip install -e docs/examples/gamesearch-chess",
)

import chess  # noqa: E402
from gamesearch_chess import Chess  # noqa: E402

from benchmarks import chess_speed  # noqa: E402
from gamesearch import AlphaBeta  # noqa: E402

POSITIONS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",  # Kiwipete
    "r2qkbnr/ppp2ppp/2np4/4N3/2B1P3/2N5/PPPP1PPP/R1BbK2R w KQkq - 0 6",  # mate in two
    "6k1/8/8/8/3q4/7n/6PP/1R5K b - - 0 1",  # mate in two for Black
]


@pytest.mark.slow
@pytest.mark.parametrize("fen", POSITIONS)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_floor_finds_the_frameworks_value_with_the_same_nodes(fen: str, depth: int) -> None:
    result = AlphaBeta(depth=depth, ordering="natural", all_best=False).search(Chess.from_text(fen))
    board = chess.Board(fen)
    assert chess_speed.floor_search(board, depth) == (result.value, result.stats.nodes)
    assert board.fen() == fen


def test_the_benchmark_prints_a_row_per_contender_as_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert chess_speed.main(["--depth", "1", "--runs", "1", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    names = [row["searcher"] for row in rows]
    assert names[:2] == [
        "gamesearch alphabeta:depth=1,ordering=natural,all_best=off",
        "floor: the same loop on python-chess",
    ]
    assert rows[0]["nodes"] == rows[1]["nodes"] == 21  # the root and its 20 moves
    if importlib.util.find_spec("pyspiel") is not None:
        assert rows[2]["nodes"] == 21 and rows[2]["searcher"].startswith(
            "OpenSpiel alpha_beta_search"
        )
