"""The chess plugin's playing parts: another engine as a searcher over UCI (a scripted
engine written here, and sunfish when it is installed) and the match score."""

from __future__ import annotations

import math
import shutil
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip(
    "gamesearch_chess",
    reason="the chess plugin is not installed: pip install -e docs/examples/gamesearch-chess",
)

from gamesearch_chess import Chess  # noqa: E402
from gamesearch_chess.opponent import UciPlayer, child_cpu_seconds  # noqa: E402
from gamesearch_chess.versus import OPENINGS  # noqa: E402

from gamesearch import default_registry  # noqa: E402
from gamesearch.rating import score_interval  # noqa: E402

# -------------------------------------------------------------- another engine over UCI
#: a scripted UCI engine: plays the first legal move python-chess lists; under ``go
#: infinite`` it burns processor time until ``stop``, and reports a score of 37
SCRIPTED_ENGINE = textwrap.dedent(
    """
    import sys, chess
    board = chess.Board()
    thinking = False
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name scripted", flush=True); print("uciok", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "position":
            cut = words.index("moves") if "moves" in words else len(words)
            board = chess.Board(" ".join(words[2:cut]))
            for move in words[cut + 1:]:
                board.push_uci(move)
        elif words[0] == "go" and words[1:] == ["infinite"]:
            import select
            print("info depth 1 score cp 37", flush=True)
            while not select.select([sys.stdin], [], [], 0)[0]:
                sum(range(1000))  # think (spend processor time) until told to stop
        elif words[0] == "go":
            print("info depth 1 score mate 2", flush=True)
            print("bestmove", next(iter(board.legal_moves)).uci(), flush=True)
        if words[0] == "stop":
            print("bestmove", next(iter(board.legal_moves)).uci(), flush=True)
        elif words[0] == "quit":
            break
    """
)


@pytest.fixture(scope="module")
def scripted(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = Path(tmp_path_factory.mktemp("uci")) / "engine.py"
    path.write_text(SCRIPTED_ENGINE)
    return f"{sys.executable} {path}"


def test_the_uci_searcher_plays_the_engines_move_for_the_game_so_far(scripted: str) -> None:
    game = Chess.from_text("e4 e5")
    result = UciPlayer(command=scripted, depth=3).search(game)
    assert result.move == next(iter(game.board.legal_moves))
    assert result.value == game.evaluation_bound - 1  # a mate for White, who moves
    assert not result.is_exact
    assert game.to_text() == Chess.from_text("e4 e5").to_text()  # the position is kept


def test_a_cpu_budget_stops_the_engine_once_its_processor_time_is_spent(scripted: str) -> None:
    player = UciPlayer(command=scripted, seconds=0.15, clock="cpu")
    game = Chess.from_text("d4")
    from gamesearch_chess import opponent

    player.search(game)  # started and warmed up
    pid = opponent._ENGINES[scripted].process.pid
    before = child_cpu_seconds(pid)
    result = player.search(game)
    spent = child_cpu_seconds(pid) - before
    assert 0.15 <= spent < 0.5
    assert result.move in game.board.legal_moves
    assert result.value == -37  # 37 for Black, who moves


def test_the_uci_searcher_is_registered_with_sunfish_as_its_default() -> None:
    player = default_registry().new_searcher("uci:seconds=0.1,clock=cpu")
    assert isinstance(player, UciPlayer) and player.command == "sunfish-uci"


@pytest.mark.slow
@pytest.mark.skipif(
    shutil.which("sunfish-uci") is None
    and shutil.which("sunfish-uci", path=str(Path(sys.executable).parent)) is None,
    reason="sunfish is not installed (make bench installs it)",
)
def test_sunfish_answers_a_legal_move_in_a_tenth_of_a_cpu_second() -> None:
    game = Chess.from_text(OPENINGS[0][1])
    result = UciPlayer(seconds=0.1, clock="cpu").search(game)
    assert result.move in game.board.legal_moves


# ------------------------------------------------------------------------- the score
def test_every_opening_is_a_legal_line() -> None:
    for name, line in OPENINGS:
        assert Chess.from_text(line).ply == len(line.split()), name


def test_the_score_interval_is_the_normal_one_over_the_games_points() -> None:
    mean, low, high = score_interval([1, 0, 0.5, 1])
    spread = math.sqrt(((0.375**2) * 2 + 0.625**2 + 0.125**2) / 3)
    assert mean == 0.625
    assert low == pytest.approx(0.625 - 1.959964 * spread / 2)
    assert high == 1.0 or high == pytest.approx(0.625 + 1.959964 * spread / 2)
    assert score_interval([1, 1]) == (1.0, 1.0, 1.0)
    with pytest.raises(ValueError):
        score_interval([])
