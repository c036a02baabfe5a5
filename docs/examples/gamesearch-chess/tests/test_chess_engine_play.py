"""The chess plugin's playing parts: PeSTO's tapered evaluation (checked against the
published tables read square by square here), another engine as a searcher over UCI (a
scripted engine written here, and sunfish when it is installed) and the match score."""

from __future__ import annotations

import json
import math
import os
import random
import shutil
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip(
    "gamesearch_chess",
    reason="the chess plugin is not installed: pip install -e docs/examples/gamesearch-chess",
)

import chess  # noqa: E402
from gamesearch_chess import EVALUATION_BOUND, Chess, opponent, versus  # noqa: E402
from gamesearch_chess.evaluation import evaluate  # noqa: E402
from gamesearch_chess.opponent import UciPlayer, child_cpu_seconds  # noqa: E402
from gamesearch_chess.pesto import (  # noqa: E402
    ENDGAME,
    ENDGAME_MATERIAL,
    MIDDLEGAME,
    MIDDLEGAME_MATERIAL,
    PHASE_WEIGHTS,
)
from gamesearch_chess.versus import (  # noqa: E402
    OPENINGS,
    RESIGN_CENTIPAWNS,
    RESIGN_MOVES,
    adjudicate,
    searcher_of,
)

from gamesearch import AlphaBeta, default_registry  # noqa: E402
from gamesearch.arena import MoveRecord, play_game  # noqa: E402
from gamesearch.rating import score_interval  # noqa: E402
from gamesearch.rules import Outcome  # noqa: E402


def pesto_by_hand(board: chess.Board) -> float:
    """Return PeSTO's value of ``board`` for White, as the page describes it: each piece's
    row of the table read from rank 8 down (Black's from rank 1 up), the two phases
    blended by the phase weights, cut at 24."""
    middle = end = 0.0
    phase = 0
    for square, piece in board.piece_map().items():
        rank, file = chess.square_rank(square), chess.square_file(square)
        row = 7 - rank if piece.color == chess.WHITE else rank
        index = row * 8 + file
        sign = 1 if piece.color == chess.WHITE else -1
        kind = piece.piece_type
        middle += sign * (MIDDLEGAME_MATERIAL[kind] + MIDDLEGAME[kind][index])
        end += sign * (ENDGAME_MATERIAL[kind] + ENDGAME[kind][index])
        phase += PHASE_WEIGHTS[kind]
    phase = min(phase, 24)
    return (middle * phase + end * (24 - phase)) / 24


def random_boards(count: int, seed: int) -> list[chess.Board]:
    """Return ``count`` positions of random games (10 to 120 plies in)."""
    chooser = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = chess.Board()
        for _ in range(chooser.randrange(10, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(chooser.choice(moves))
        boards.append(board)
    return boards


def test_the_evaluation_is_pesto_read_square_by_square() -> None:
    for board in random_boards(200, seed=3):
        expected = pesto_by_hand(board)
        assert evaluate(board) == math.trunc(expected), board.fen()


def test_the_tables_are_the_published_size_and_a_known_square() -> None:
    assert all(len(MIDDLEGAME[kind]) == len(ENDGAME[kind]) == 64 for kind in range(1, 7))
    # the published middlegame knight table starts -167 on a8 and its e4 square is 28
    assert MIDDLEGAME[chess.KNIGHT][0] == -167
    assert MIDDLEGAME[chess.KNIGHT][4 * 8 + 4] == 28


def test_the_start_is_level_and_colours_swapped_give_the_opposite_value() -> None:
    assert evaluate(chess.Board()) == 0
    for board in random_boards(50, seed=5):
        assert evaluate(board.mirror()) == -evaluate(board)


def test_a_queen_up_in_the_middlegame_is_worth_about_a_queen() -> None:
    board = chess.Board("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert 900 < evaluate(board) < 1100


def test_the_king_walks_to_the_centre_in_the_endgame() -> None:
    corner = chess.Board("8/8/8/8/8/8/4P3/K6k w - - 0 1")
    centre = chess.Board("8/8/8/8/3K4/8/4P3/7k w - - 0 1")
    assert evaluate(centre) > evaluate(corner)


# -------------------------------------------------------------- another engine over UCI
#: a scripted UCI engine: plays the first legal move python-chess lists; under ``go
#: infinite`` it burns processor time until ``stop`` (and for the processor seconds of its
#: first argument after it, as an engine that stops between iterations does), and reports a
#: score of 37; under ``go depth`` a mate in 2, or with a ``UCI_Elo`` set a score of that
#: Elo over 12 nodes
SCRIPTED_ENGINE = textwrap.dedent(
    """
    import sys, time, chess
    board = chess.Board()
    overrun = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0
    elo = None
    thinking = False
    # read unbuffered, a byte at a time, so that select sees a "stop" that came with "go"
    for line in iter(sys.stdin.buffer.raw.readline, b""):
        words = line.decode().split()
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
            if elo is None:
                print("info depth 1 score mate 2", flush=True)
            else:
                print("info depth 1 nodes 12 score cp", elo, flush=True)
            print("bestmove", next(iter(board.legal_moves)).uci(), flush=True)
        if words[:3] == ["setoption", "name", "UCI_Elo"]:
            elo = int(words[4])
        if words[0] == "stop":
            until = time.process_time() + overrun
            while time.process_time() < until:
                pass
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


def test_the_processor_time_of_a_process_is_read_from_proc() -> None:
    if not Path("/proc/self/stat").exists():
        pytest.skip("no /proc here")
    sum(range(3_000_000))  # use some time
    before = os.times()
    read = child_cpu_seconds(os.getpid())
    after = os.times()
    assert read is not None
    tick = 1 / opponent.TICKS
    assert before.user + before.system - tick <= read <= after.user + after.system + tick


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
    player.search(game)  # started and warmed up
    pid = opponent._ENGINES[scripted, None].process.pid
    before = child_cpu_seconds(pid)
    result = player.search(game)
    after = child_cpu_seconds(pid)
    assert before is not None and after is not None
    spent = after - before
    assert 0.15 - 0.01 <= spent < 0.5  # /proc counts CPU time in ticks of 0.01 s
    assert result.move in game.board.legal_moves
    assert result.value == -37  # 37 for Black, who moves


def test_an_engine_that_runs_on_after_stop_is_stopped_early_by_its_mean_overrun(
    scripted: str,
) -> None:
    command = f"{scripted} 0.1"  # runs on for 0.1 CPU-s after each stop
    player = UciPlayer(command=command, seconds=0.1, clock="cpu")
    game = Chess.from_text("e4")
    spent = []
    for _ in range(4):
        before = opponent.CPU_SPENT.get(command, [0.0, 0])[0]
        player.search(game)
        spent.append(opponent.CPU_SPENT[command][0] - before)
    # the first move: the budget and the overrun; the next ones: stopped at once, so the
    # overrun alone (the budget), not 0.2 CPU-s; /proc counts CPU time in ticks of 0.01 s,
    # so a figure may read one tick short
    assert spent[0] >= 0.18
    assert all(0.08 <= seconds < 0.16 for seconds in spent[1:]), spent
    assert opponent.CPU_SPENT[command][1] == 4


def test_an_elo_is_asked_of_the_engine_and_its_nodes_are_read(scripted: str) -> None:
    answer = opponent.ask(scripted, chess.Board(), depth=1, elo=1500)
    assert answer.move in chess.Board().legal_moves
    assert (answer.score, answer.nodes) == (1500, 12)
    # a process per strength: the same command without an Elo plays at full strength
    assert opponent.ask(scripted, chess.Board(), depth=1).score == EVALUATION_BOUND - 1
    assert opponent._ENGINES[scripted, 1500] is not opponent._ENGINES[scripted, None]


def test_a_program_is_found_beside_this_python_or_on_the_path() -> None:
    assert opponent.find_program(Path(sys.executable).name) is not None
    assert opponent.find_program("no-such-engine-here") is None


def test_the_match_reads_uci_specs_with_sunfish_as_the_default_command() -> None:
    registry = default_registry()
    player = searcher_of("uci:seconds=0.1,clock=cpu", registry)
    assert isinstance(player, UciPlayer) and player.command == "sunfish-uci"
    assert player.seconds == 0.1 and player.clock == "cpu"
    assert "uci" not in registry.searchers  # (it plays chess only: not registered)
    assert searcher_of("engine:depth=2", registry).name == "engine"


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


def _searched(*values: int | None) -> list[MoveRecord]:
    """Return searched moves valued ``values`` in turn (White's view)."""
    return [MoveRecord(ply, ply % 2, "a1a2", False, value=v) for ply, v in enumerate(values)]


def test_a_game_is_given_up_once_both_engines_agree_for_four_moves_each() -> None:
    ahead = [RESIGN_CENTIPAWNS] * (2 * RESIGN_MOVES)
    assert adjudicate(_searched(*ahead)) is Outcome.FIRST_WINS
    assert adjudicate(_searched(*(-v - 500 for v in ahead))) is Outcome.SECOND_WINS
    assert adjudicate(_searched(*ahead[1:])) is None  # one move short
    assert adjudicate(_searched(0, *ahead[1:])) is None  # one move short of the score
    assert adjudicate(_searched(*ahead[:-1], RESIGN_CENTIPAWNS - 1)) is None
    assert adjudicate(_searched(*ahead[:-1], None)) is None  # a move without a value
    assert adjudicate(_searched(*ahead[:4], *(-v for v in ahead[4:]))) is None
    # the last moves decide: a game long even, then lost
    assert adjudicate(_searched(0, 0, 0, *ahead)) is Outcome.FIRST_WINS


def test_an_adjudicated_game_stops_with_the_outcome_given() -> None:
    searcher = AlphaBeta(depth=1)
    record = play_game(
        Chess.from_text("e4 e5"),
        searcher,
        searcher,
        adjudicate=lambda moves: Outcome.SECOND_WINS if len(moves) == 3 else None,
    )
    assert len(record.moves) == 3 and record.outcome is Outcome.SECOND_WINS
    assert record.result_of(1) == "win" and record.result_of(0) == "loss"


def test_the_match_plays_each_opening_with_either_colour_and_writes_every_game(
    scripted: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "games.json"
    argv = ["--first", "engine:depth=1", "--second", f"uci:command={scripted}"]
    argv += ["--seconds", "0.02", "--openings", "2", "--max-plies", "4", "--json", str(saved)]
    assert versus.main(argv) == 0
    out = capsys.readouterr().out
    # four games stopped at the cap: four draws
    assert "2/4 = 50.0 % (0-4-0, 95 % interval 50.0-50.0 %)" in out
    assert out.count("in 4 plies (ply cap)") == 4
    data = json.loads(saved.read_text())
    assert data["points"] == [0.5] * 4
    assert [(g["opening"], g["first_as"]) for g in data["games"]] == [
        (OPENINGS[0][0], "White"),
        (OPENINGS[0][0], "Black"),
        (OPENINGS[1][0], "White"),
        (OPENINGS[1][0], "Black"),
    ]
    assert data["games"][1]["first"].startswith("uci:seconds=0.02,clock=cpu,command=")


# ------------------------------------------------------------------- the noisy moves
def test_quiescence_leaves_out_a_capture_a_defender_punishes_at_once() -> None:
    # d5 is defended by the e6 pawn and the f6 knight; b3 by nothing
    game = Chess.from_text("4k3/8/4pn2/3p4/2P5/1p6/6B1/3QK3 w - - 0 1")
    board = game.board
    captures = {move.uci() for move in board.legal_moves if board.is_capture(move)}
    assert captures == {"d1d5", "g2d5", "c4d5", "d1b3"}
    # the queen or the bishop for a defended pawn is left out; a pawn for a pawn, and
    # the queen for an undefended one, are searched
    assert {game.format_move(move) for move in game.noisy_moves()} == {"c4d5", "d1b3"}
